//! The words of KIF and KI2 headers and board diagrams that name the
//! sides (先手 後手, or 下手 上手 in handicap games), the hands
//! (`先手の持駒：`) and the side to move (`後手番`), and the KIF name of a
//! header key from another format ([`header_key`], by the one table of
//! header keys, [`crate::record::headers`]).
//!
//! Each is one table the readers and the writers share: [`SIDE_NAMES`],
//! [`HAND_KEYS`] and [`TURN_SUFFIX`].

use super::digits::decimal_digit;
use super::move_like::{move_like, MoveLike};
use super::read::{is_space, side_mark};
use crate::record::headers::{written_key, KeyStyle};
use crate::Color;

/// The names of the sides, indexed by [`Color::index`]: 先手 and 後手, or
/// in handicap games 下手 (Black, who receives the handicap) and 上手.
pub const SIDE_NAMES: [[&str; 2]; 2] = [["先手", "後手"], ["下手", "上手"]];

/// The name of `color`, with the handicap names when `handicap_labels`.
pub fn side_name(color: Color, handicap_labels: bool) -> &'static str {
    SIDE_NAMES[usize::from(handicap_labels)][color.index()]
}

/// The side a name names, exactly (`先手`, `上手`).
pub fn side_of(name: &str) -> Option<Color> {
    SIDE_NAMES.iter().find_map(|names| {
        let i = names.iter().position(|&n| n == name)?;
        Some(if i == 0 { Color::Black } else { Color::White })
    })
}

/// The side named at the end of `text` (`時間切れにより先手` names 先手).
pub fn side_named(text: &str) -> Option<Color> {
    [Color::Black, Color::White].into_iter().find(|&color| {
        SIDE_NAMES
            .iter()
            .any(|names| text.ends_with(names[color.index()]))
    })
}

/// Whether a header key is one of the handicap names of the sides (上手,
/// 下手): a record with one is written with those names.
pub fn is_handicap_side(key: &str) -> bool {
    SIDE_NAMES[1].contains(&key)
}

/// What follows a side's name in the key of its hand line: the writer
/// writes the first (`先手の持駒：`); readers take either.
pub const HAND_KEYS: [&str; 2] = ["の持駒", "の持ち駒"];

/// The side whose hand a header key gives (`先手の持駒`, `上手の持ち駒`).
pub fn hand_of(key: &str) -> Option<Color> {
    HAND_KEYS
        .iter()
        .find_map(|suffix| key.strip_suffix(suffix))
        .and_then(side_of)
}

/// The key of `color`'s hand line as the writer writes it (`後手の持駒`).
pub fn hand_key(color: Color, handicap_labels: bool) -> String {
    format!("{}{}", side_name(color, handicap_labels), HAND_KEYS[0])
}

/// What follows a side's name on the line that gives the side to move
/// after a board diagram (`後手番`).
pub const TURN_SUFFIX: &str = "番";

/// The side a `後手番` line gives to move.
pub fn turn_of(line: &str) -> Option<Color> {
    line.strip_suffix(TURN_SUFFIX).and_then(side_of)
}

/// The KIF name for a header key from another format, by the header
/// vocabulary ([`written_key`]): `N+` and `Sente` are 先手, `$EVENT` and
/// `Event` are 棋戦, 下手 stays 下手; any other key as it is; `None` for
/// keys that only mean something to their format (`V`).
pub fn header_key(key: &str) -> Option<&str> {
    written_key(key, KeyStyle::Japanese)
}

/// Whether a header key reads back as a header in KIF and KI2: not one
/// that starts like a move, a comment, a bookmark, a diagram, a variation,
/// the summary or the move-list line, and with no colon or line break.
pub fn is_safe_header_key(key: &str) -> bool {
    let Some(first) = key.chars().next() else {
        return false;
    };
    !(move_like(key) != MoveLike::No
        || decimal_digit(first).is_some()
        || side_mark(first).is_some()
        || "*&#|+".contains(first)
        || is_space(first)
        || key.starts_with("変化")
        || key.starts_with("まで")
        || key.starts_with("手数-")
        || key.starts_with("手数＝")
        || key.starts_with("手数=")
        || key.contains(['：', ':', '\n', '\r']))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::headers::Field;

    #[test]
    fn every_side_name_written_reads_back_and_every_name_read_is_written() {
        for labels in [false, true] {
            for color in [Color::Black, Color::White] {
                let name = side_name(color, labels);
                assert_eq!(side_of(name), Some(color));
                assert_eq!(side_named(&format!("時間切れにより{name}")), Some(color));
                assert_eq!(hand_of(&hand_key(color, labels)), Some(color));
                assert_eq!(turn_of(&format!("{name}{TURN_SUFFIX}")), Some(color));
                assert_eq!(is_handicap_side(name), labels);
                for suffix in HAND_KEYS {
                    assert_eq!(hand_of(&format!("{name}{suffix}")), Some(color));
                }
            }
        }
        assert_eq!(side_of("先"), None);
        assert_eq!(hand_of("先手の駒"), None);
        assert_eq!(turn_of("先手"), None);
        assert_eq!(side_named("先手の"), None);
    }

    #[test]
    fn every_key_of_a_field_has_its_kif_name_and_kif_names_stay() {
        for field in Field::ALL {
            let kif = field.keys(KeyStyle::Japanese);
            for key in field.all_keys() {
                let written = header_key(key).unwrap();
                assert!(kif.contains(&written), "{key}");
                if !kif.contains(&key) {
                    assert_eq!(written, kif[0], "{key}");
                }
            }
            for key in kif {
                // A KIF key is written as itself (the reader keeps keys as
                // written), so it reads back as itself.
                assert_eq!(header_key(key), Some(*key));
                assert!(is_safe_header_key(key), "{key}");
            }
        }
        assert_eq!(header_key("V"), None);
        assert_eq!(header_key("$NOTE"), Some("$NOTE"));
    }

    #[test]
    fn keys_that_start_like_other_lines_are_not_safe() {
        for key in [
            "",
            "７六",
            "0時",
            "０時",
            "同",
            "▲",
            "*a",
            "&b",
            "#c",
            "|d",
            "+e",
            " f",
            "変化",
            "まで",
            "手数-",
            "手数＝1",
            "a:b",
            "a：b",
        ] {
            assert!(!is_safe_header_key(key), "{key}");
        }
        assert!(is_safe_header_key("棋戦"));
    }
}
