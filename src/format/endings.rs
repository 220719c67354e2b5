//! What a terminal word says, whichever reader meets it: a word of Japanese
//! notation (`投了`, `詰み`, …) first, then a CSA special (`TORYO`, …). The
//! KIF, KI2, CSA and Western readers map each terminal word here before the
//! game builder sees it, and the writers ask here what a word they keep
//! would be read back as.

use crate::format::csa::specials;
use crate::format::japanese::{endings, move_like};
use crate::record::raw::Said;
use crate::record::EndingKind;
use crate::Color;

/// What `word` says as the last word of a line of play; an unknown word
/// says whether it looks misdecoded.
pub fn said(word: &str) -> Said {
    endings::said(word)
        .or_else(|| specials::said(word))
        .unwrap_or_else(|| Said::Unknown {
            misdecoded: move_like::looks_misdecoded(word),
        })
}

/// What a terminal word means, with `to_move` the player to move there:
/// [`EndingKind::Other`] and no winner for an unknown word.
pub fn ending_for_word(word: &str, to_move: Color) -> (EndingKind, Option<Color>) {
    said(word).ending(to_move)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::raw::Winner;

    #[test]
    fn japanese_words_then_csa_specials_then_unknown() {
        assert_eq!(
            said("投了"),
            Said::Ending(EndingKind::Resign, Winner::Opponent)
        );
        assert_eq!(
            said("TORYO"),
            Said::Ending(EndingKind::Resign, Winner::Opponent)
        );
        assert_eq!(said("+ILLEGAL_ACTION"), Said::FoulBy(Color::Black));
        assert_eq!(
            ending_for_word("+ILLEGAL_ACTION", Color::Black),
            (EndingKind::FoulLoss, Some(Color::White))
        );
        assert_eq!(
            ending_for_word("+ILLEGAL_ACTION", Color::White),
            (EndingKind::FoulWin, Some(Color::White))
        );
        assert_eq!(said("引き分け"), Said::Unknown { misdecoded: false });
        assert_eq!(said("\u{fffd}"), Said::Unknown { misdecoded: true });
        assert_eq!(
            ending_for_word("引き分け", Color::Black),
            (EndingKind::Other, None)
        );
    }
}
