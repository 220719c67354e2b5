//! The tag block of a Western game: `[Key "Value"]` (backslash escapes
//! kept as written), and the names a `[Handicap "…"]` tag may give a
//! standard start, Japanese or English.

use super::notation::Bad;
use crate::Handicap;

/// A tag at the start of `text` (which starts with `[`): key, value, the
/// whole tag, and the rest.
pub(crate) fn tag(text: &str) -> Result<(&str, &str, &str, &str), Bad> {
    let at = |rest: &str| text.len() - rest.len();
    let inner = text[1..].trim_start();
    let key_len = inner
        .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
        .unwrap_or(inner.len());
    if key_len == 0 {
        return Err(Bad {
            offset: at(inner),
            len: inner.chars().next().map_or(0, char::len_utf8),
            message: "a tag name after `[` (as in [Sente \"Name\"])",
        });
    }
    let key = &inner[..key_len];
    let rest = inner[key_len..].trim_start();
    let Some(value_start) = rest.strip_prefix('"') else {
        return Err(Bad {
            offset: at(rest),
            len: rest.chars().next().map_or(0, char::len_utf8),
            message: "a value in double quotes after the tag name (as in [Sente \"Name\"])",
        });
    };
    let value_len = closing_quote(value_start).ok_or(Bad {
        offset: at(rest),
        len: 1,
        message: "a closing `\"` for this tag value on the same line",
    })?;
    let value = &value_start[..value_len];
    let after = value_start[value_len + 1..].trim_start();
    let Some(rest) = after.strip_prefix(']') else {
        return Err(Bad {
            offset: at(after),
            len: after.chars().next().map_or(0, char::len_utf8),
            message: "`]` to close the tag",
        });
    };
    Ok((key, value, &text[..at(rest)], rest))
}

/// The byte index of the `"` that ends a tag value (`\"` and `\\` do not).
pub(super) fn closing_quote(value: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// English handicap names, as [`handicap_by_name`] accepts them.
pub const ENGLISH_HANDICAPS: [(&str, Handicap); 16] = [
    ("Even", Handicap::Even),
    ("Lance", Handicap::Lance),
    ("Right Lance", Handicap::RightLance),
    ("Bishop", Handicap::Bishop),
    ("Rook", Handicap::Rook),
    ("Rook-Lance", Handicap::RookLance),
    ("2-Piece", Handicap::TwoPieces),
    ("3-Piece", Handicap::ThreePieces),
    ("4-Piece", Handicap::FourPieces),
    ("5-Piece", Handicap::FivePieces),
    ("Left 5-Piece", Handicap::LeftFivePieces),
    ("6-Piece", Handicap::SixPieces),
    ("Left 7-Piece", Handicap::LeftSevenPieces),
    ("Right 7-Piece", Handicap::RightSevenPieces),
    ("8-Piece", Handicap::EightPieces),
    ("10-Piece", Handicap::TenPieces),
];

/// The English name of a standard start, as the writer writes it.
pub fn english_name(handicap: Handicap) -> &'static str {
    ENGLISH_HANDICAPS
        .iter()
        .find(|(_, h)| *h == handicap)
        .map(|(name, _)| *name)
        .expect("every standard start has an English name")
}

/// The start a `[Handicap "…"]` tag names: a Japanese name (`香落ち`,
/// `平手`) or an English one from [`ENGLISH_HANDICAPS`]. English names are
/// matched ignoring case, spaces, hyphens and a final `handicap`; `Pieces`
/// may stand for `Piece`, number words for digits (`Two Pieces`), and `Left
/// Lance` and `Rook and Lance` are accepted too.
pub fn handicap_by_name(name: &str) -> Option<Handicap> {
    let name = name.trim();
    if let Some(h) = crate::format::japanese::handicaps::handicap_named(name) {
        return Some(h);
    }
    let key = english_key(name);
    if key == "leftlance" {
        return Some(Handicap::Lance);
    }
    ENGLISH_HANDICAPS
        .iter()
        .find(|(english, _)| english_key(english) == key)
        .map(|&(_, h)| h)
}

/// `Two Pieces Handicap` → `2piece`.
fn english_key(name: &str) -> String {
    let mut key: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if let Some(stem) = key.strip_suffix("handicap") {
        key.truncate(stem.len());
    }
    let words = [
        ("pieces", "piece"),
        ("and", ""),
        ("two", "2"),
        ("three", "3"),
        ("four", "4"),
        ("five", "5"),
        ("six", "6"),
        ("seven", "7"),
        ("eight", "8"),
        ("ten", "10"),
    ];
    for (word, replacement) in words {
        key = key.replace(word, replacement);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags() {
        let (key, value, whole, rest) = tag(r#"[Sente "Habu Yoshiharu"] x"#).unwrap();
        assert_eq!(
            (key, value, whole, rest),
            (
                "Sente",
                "Habu Yoshiharu",
                r#"[Sente "Habu Yoshiharu"]"#,
                " x"
            )
        );
        let (_, value, _, _) = tag(r#"[ Event  "A \"big\" one" ]"#).unwrap();
        assert_eq!(value, r#"A \"big\" one"#);
        assert_eq!(tag(r#"[ "x"]"#).unwrap_err().offset, 2);
        assert_eq!(tag("[Sente x]").unwrap_err().offset, 7);
        assert_eq!(tag(r#"[Sente "x]"#).unwrap_err().offset, 7);
        assert_eq!(tag(r#"[Sente "x""#).unwrap_err().offset, 10);
    }

    #[test]
    fn handicap_names() {
        assert_eq!(handicap_by_name("香落ち"), Some(Handicap::Lance));
        assert_eq!(handicap_by_name("平手"), Some(Handicap::Even));
        for (name, h) in ENGLISH_HANDICAPS {
            assert_eq!(handicap_by_name(name), Some(h), "{name}");
        }
        for h in Handicap::ALL {
            assert_eq!(handicap_by_name(english_name(h)), Some(h), "{h:?}");
        }
        assert_eq!(handicap_by_name("two pieces"), Some(Handicap::TwoPieces));
        assert_eq!(
            handicap_by_name("Left Seven Pieces"),
            Some(Handicap::LeftSevenPieces)
        );
        assert_eq!(
            handicap_by_name("Rook and Lance"),
            Some(Handicap::RookLance)
        );
        assert_eq!(handicap_by_name("Left Lance"), Some(Handicap::Lance));
        assert_eq!(handicap_by_name("Bishop handicap"), Some(Handicap::Bishop));
        assert_eq!(handicap_by_name("Queen"), None);
        assert_eq!(handicap_by_name(""), None);
    }
}
