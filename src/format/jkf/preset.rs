//! JKF's preset names for the standard starts (`HIRATE`, `KA`, …), read
//! from the one table of their names.

use crate::format::japanese::handicaps::{start_named, HANDICAP_NAMES};
use crate::Handicap;

/// The JKF preset name of a standard start.
pub fn preset_name(handicap: Handicap) -> &'static str {
    HANDICAP_NAMES[handicap as usize].3
}

/// The standard start a JKF preset name stands for (`OTHER` is none).
pub fn preset(name: &str) -> Option<Handicap> {
    start_named(name, |row| row.3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::jkf::read::read;

    #[test]
    fn presets_match_the_handicaps() {
        for (handicap, _, _, name) in HANDICAP_NAMES {
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
