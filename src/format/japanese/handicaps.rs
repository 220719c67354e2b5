//! 手合割: the names KIF and KI2 give the standard starts (平手, 香落ち,
//! 二枚落ち, …), in one table, [`HANDICAP_NAMES`], that the readers
//! ([`handicap_named`]), the writers ([`handicap_name`]) and the error
//! for an unknown name ([`handicap_names`]) share.

use crate::Handicap;

/// The header key that names the start: `手合割：平手`.
pub const HANDICAP_KEY: &str = "手合割";

/// Every standard start and its name, in [`Handicap::ALL`] order (which
/// is the order the variants are declared in: a test checks both).
pub const HANDICAP_NAMES: [(Handicap, &str); 16] = [
    (Handicap::Even, "平手"),
    (Handicap::Lance, "香落ち"),
    (Handicap::RightLance, "右香落ち"),
    (Handicap::Bishop, "角落ち"),
    (Handicap::Rook, "飛車落ち"),
    (Handicap::RookLance, "飛香落ち"),
    (Handicap::TwoPieces, "二枚落ち"),
    (Handicap::ThreePieces, "三枚落ち"),
    (Handicap::FourPieces, "四枚落ち"),
    (Handicap::FivePieces, "五枚落ち"),
    (Handicap::LeftFivePieces, "左五枚落ち"),
    (Handicap::SixPieces, "六枚落ち"),
    (Handicap::LeftSevenPieces, "左七枚落ち"),
    (Handicap::RightSevenPieces, "右七枚落ち"),
    (Handicap::EightPieces, "八枚落ち"),
    (Handicap::TenPieces, "十枚落ち"),
];

/// The name written after `手合割：`.
pub fn handicap_name(handicap: Handicap) -> &'static str {
    HANDICAP_NAMES[handicap as usize].1
}

/// The standard start with this name.
pub fn handicap_named(name: &str) -> Option<Handicap> {
    HANDICAP_NAMES
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(h, _)| *h)
}

/// Every name, in table order, separated by `, ` (for error messages).
pub fn handicap_names() -> String {
    let names: Vec<&str> = HANDICAP_NAMES.iter().map(|(_, name)| *name).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_has_one_name_that_reads_back() {
        assert_eq!(HANDICAP_NAMES.map(|(h, _)| h), Handicap::ALL);
        for handicap in Handicap::ALL {
            assert_eq!(HANDICAP_NAMES[handicap as usize].0, handicap);
            let name = handicap_name(handicap);
            assert_eq!(handicap_named(name), Some(handicap));
        }
    }

    #[test]
    fn every_name_read_is_the_written_one() {
        for (handicap, name) in HANDICAP_NAMES {
            assert_eq!(handicap_named(name), Some(handicap));
            assert_eq!(handicap_name(handicap_named(name).unwrap()), name);
        }
        assert_eq!(handicap_named("平手 "), None);
        assert_eq!(handicap_named("香落"), None);
        assert!(handicap_names().starts_with("平手, 香落ち, 右香落ち, "));
        assert!(handicap_names().ends_with(", 八枚落ち, 十枚落ち"));
    }
}
