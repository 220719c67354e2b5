//! JKF's preset names for the standard starts (`HIRATE`, `KA`, …), the one
//! table both the reader and the writer use.

use crate::Handicap;

/// Every preset name with the start it stands for (`OTHER`, a start of
/// its own, is not one).
pub(super) const PRESETS: [(&str, Handicap); 16] = [
    ("HIRATE", Handicap::Even),
    ("KY", Handicap::Lance),
    ("KY_R", Handicap::RightLance),
    ("KA", Handicap::Bishop),
    ("HI", Handicap::Rook),
    ("HIKY", Handicap::RookLance),
    ("2", Handicap::TwoPieces),
    ("3", Handicap::ThreePieces),
    ("4", Handicap::FourPieces),
    ("5", Handicap::FivePieces),
    ("5_L", Handicap::LeftFivePieces),
    ("6", Handicap::SixPieces),
    ("7_L", Handicap::LeftSevenPieces),
    ("7_R", Handicap::RightSevenPieces),
    ("8", Handicap::EightPieces),
    ("10", Handicap::TenPieces),
];

/// The JKF preset name of a standard start.
pub fn preset_name(handicap: Handicap) -> &'static str {
    PRESETS
        .iter()
        .find(|(_, h)| *h == handicap)
        .map_or("OTHER", |(name, _)| name)
}

/// The standard start a JKF preset name stands for (`OTHER` is none).
pub fn preset(name: &str) -> Option<Handicap> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, h)| *h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::jkf::read::read;

    #[test]
    fn presets_match_the_handicaps() {
        for (name, handicap) in PRESETS {
            assert_eq!(preset(name), Some(handicap));
            assert_eq!(preset_name(handicap), name);
            let text = format!(
                r#"{{"header": {{}}, "initial": {{"preset": "{name}"}}, "moves": [{{}}]}}"#
            );
            let record = read(&text).unwrap();
            assert_eq!(record.handicap, Some(handicap));
            assert_eq!(record.start, handicap.setup());
        }
        assert_eq!(preset("OTHER"), None);
    }
}
