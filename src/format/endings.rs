//! What a terminal word says, whichever reader meets it: a word of Japanese
//! notation (`投了`, `詰み`, …) first, then a CSA special (`TORYO`, …). The
//! KIF, KI2, CSA and Western readers map each terminal word here before the
//! game builder sees it, and the writers ask here what a word they keep
//! would be read back as.

use crate::format::csa::specials;
use crate::format::japanese::{endings, move_like};
use crate::record::raw::{Event, Said, Span};
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

/// The event of a terminal word written alone at `span` (no move number,
/// no time): the `word` as written, meaning what [`said`] says.
pub fn word_event<'a>(span: Span<'a>, word: &'a str) -> Event<'a> {
    Event::End {
        span,
        number: None,
        word,
        time: None,
        said: said(word),
    }
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
        use Color::{Black, White};
        use EndingKind::{FoulLoss, FoulWin, Other, Resign};
        for (word, expected) in [
            ("投了", Said::Ending(Resign, Winner::Opponent)),
            ("TORYO", Said::Ending(Resign, Winner::Opponent)),
            ("+ILLEGAL_ACTION", Said::FoulBy(Black)),
            ("引き分け", Said::Unknown { misdecoded: false }),
            ("\u{fffd}", Said::Unknown { misdecoded: true }),
        ] {
            assert_eq!(said(word), expected, "{word}");
        }
        for (word, to_move, expected) in [
            ("+ILLEGAL_ACTION", Black, (FoulLoss, Some(White))),
            ("+ILLEGAL_ACTION", White, (FoulWin, Some(White))),
            ("引き分け", Black, (Other, None)),
        ] {
            let ending = ending_for_word(word, to_move);
            assert_eq!(ending, expected, "{word} {to_move:?}");
        }
    }
}
