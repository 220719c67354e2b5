//! CSA's special moves, the words after `%` that end a game (`%TORYO`,
//! `%CHUDAN`, `%+ILLEGAL_ACTION`, …): one table of the words and the
//! endings they stand for, which the reader (through the game builder) and
//! the writer both go through.
//!
//! A special says who won as the player to move sees it: `%TORYO` is the
//! resignation of the player to move, `%KACHI` their declared win. Only
//! `%+ILLEGAL_ACTION` and `%-ILLEGAL_ACTION` name a player, by their sign:
//! the one who broke the rules, whoever is to move.

use crate::record::raw::{Said, Winner};
use crate::record::EndingKind;
use crate::Color;

/// Every CSA special but the two signed `ILLEGAL_ACTION`s, with the ending
/// it stands for and who wins by it; one word per kind of ending, so the
/// table reads both ways.
pub const SPECIALS: [(&str, EndingKind, Winner); 14] = [
    ("TORYO", EndingKind::Resign, Winner::Opponent),
    ("CHUDAN", EndingKind::Abort, Winner::Nobody),
    ("SENNICHITE", EndingKind::Repetition, Winner::Nobody),
    (
        "OUTE_SENNICHITE",
        EndingKind::PerpetualCheck,
        Winner::ToMove,
    ),
    ("TIME_UP", EndingKind::TimeUp, Winner::Opponent),
    ("ILLEGAL_MOVE", EndingKind::FoulLoss, Winner::Opponent),
    ("JISHOGI", EndingKind::Impasse, Winner::Nobody),
    ("KACHI", EndingKind::EnteringKing, Winner::ToMove),
    ("HIKIWAKE", EndingKind::Draw, Winner::Nobody),
    ("MAX_MOVES", EndingKind::MaxMoves, Winner::Nobody),
    ("TSUMI", EndingKind::Checkmate, Winner::Opponent),
    ("FUZUMI", EndingKind::NoMate, Winner::Nobody),
    ("MATTA", EndingKind::Matta, Winner::Nobody),
    ("ERROR", EndingKind::Error, Winner::Nobody),
];

/// The result messages of the CSA server protocol (`#RESIGN`, `#WIN`,
/// `#TIME_UP`, …), without their `#`. A client's log of a server game may
/// carry them after the game's end; the reader keeps each as a comment.
pub const SERVER_MESSAGES: [&str; 12] = [
    "RESIGN",
    "WIN",
    "LOSE",
    "DRAW",
    "TIME_UP",
    "ILLEGAL_MOVE",
    "SENNICHITE",
    "OUTE_SENNICHITE",
    "JISHOGI",
    "MAX_MOVES",
    "CHUDAN",
    "CENSORED",
];

/// Whether `s` is a server's result message, `#` included.
pub fn is_server_message(s: &str) -> bool {
    s.strip_prefix('#')
        .is_some_and(|word| SERVER_MESSAGES.contains(&word))
}

/// The word after `%` for a foul by the player with this sign.
const ILLEGAL_ACTION: [(&str, Color); 2] = [
    ("+ILLEGAL_ACTION", Color::Black),
    ("-ILLEGAL_ACTION", Color::White),
];

/// What a special (without its `%`) says: the kind of ending and who won
/// seen from the player to move, or the player whose foul it names.
/// `None` for a word CSA does not define.
pub fn said(word: &str) -> Option<Said> {
    if let Some(&(_, culprit)) = ILLEGAL_ACTION.iter().find(|(w, _)| *w == word) {
        return Some(Said::FoulBy(culprit));
    }
    SPECIALS
        .iter()
        .find(|(w, _, _)| *w == word)
        .map(|&(_, kind, winner)| Said::Ending(kind, winner))
}

/// What a special (without its `%`) means, with `to_move` the player to
/// move there: the kind of ending and the winner. `None` for a word CSA
/// does not define.
pub fn ending(word: &str, to_move: Color) -> Option<(EndingKind, Option<Color>)> {
    said(word).map(|said| said.ending(to_move))
}

/// The table's word for a kind of ending, whoever won: every foul is
/// `ILLEGAL_MOVE`; `None` for the endings CSA has no word for (不戦勝,
/// 封じ手, トライ, an unknown word).
pub fn word(kind: EndingKind) -> Option<&'static str> {
    let kind = match kind {
        EndingKind::FoulWin | EndingKind::IllegalMove => EndingKind::FoulLoss,
        other => other,
    };
    SPECIALS
        .iter()
        .find(|(_, k, _)| *k == kind)
        .map(|&(word, _, _)| word)
}

/// The special the writer writes for an ending, as the player to move
/// sees it: a foul by the player to move is `ILLEGAL_MOVE`, a foul by the
/// other player (a win for the player to move) the signed
/// `ILLEGAL_ACTION`; an ending CSA has no word for is `CHUDAN`.
pub fn special(kind: EndingKind, winner: Option<Color>, to_move: Color) -> &'static str {
    use EndingKind::*;
    match kind {
        FoulWin | FoulLoss | IllegalMove => match winner {
            // The player to move won: the other one broke the rules.
            Some(w) if w == to_move => ILLEGAL_ACTION
                .iter()
                .find(|(_, culprit)| *culprit == !w)
                .map_or("ILLEGAL_MOVE", |(word, _)| word),
            _ => "ILLEGAL_MOVE",
        },
        other => word(other).unwrap_or("CHUDAN"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use EndingKind::*;

    #[test]
    fn every_word_reads_as_its_row_and_is_written_back() {
        let mut words: Vec<&str> = SPECIALS.iter().map(|(w, _, _)| *w).collect();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), SPECIALS.len(), "a word twice");
        for (word, kind, winner) in SPECIALS {
            for to_move in Color::ALL {
                let read = ending(word, to_move);
                assert_eq!(read, Some((kind, winner.color(to_move))), "{word}");
                assert_eq!(self::word(kind), Some(word));
                // Written for the ending it reads as, from the same side:
                // the same word.
                let (kind, winner) = read.unwrap();
                assert_eq!(special(kind, winner, to_move), word, "{word}");
            }
        }
    }

    #[test]
    fn the_signed_illegal_actions_name_who_broke_the_rules() {
        for (word, culprit) in ILLEGAL_ACTION {
            for to_move in Color::ALL {
                let (kind, winner) = ending(word, to_move).unwrap();
                assert_eq!(winner, Some(!culprit), "{word}");
                // A foul by the player to move is written ILLEGAL_MOVE,
                // which reads back as the same ending.
                let (expected, expected_written) = if culprit == to_move {
                    (FoulLoss, "ILLEGAL_MOVE")
                } else {
                    (FoulWin, word)
                };
                assert_eq!(kind, expected, "{word} with {to_move:?} to move");
                let written = special(kind, winner, to_move);
                assert_eq!(written, expected_written, "{word} with {to_move:?} to move");
                assert_eq!(ending(written, to_move), Some((kind, winner)));
            }
        }
    }

    #[test]
    fn every_kind_is_written_as_a_word_that_reads_back_as_it_or_chudan() {
        for kind in EndingKind::ALL {
            for to_move in Color::ALL {
                for winner in [None, Some(Color::Black), Some(Color::White)] {
                    let written = special(kind, winner, to_move);
                    let (back, back_winner) = ending(written, to_move).expect(written);
                    match word(kind) {
                        // A foul with no winner known is written as the
                        // player to move's.
                        Some(_) if matches!(kind, FoulWin | FoulLoss | IllegalMove) => {
                            assert!(matches!(back, FoulWin | FoulLoss));
                            if winner.is_some() {
                                assert_eq!(back_winner, winner, "{kind:?}");
                            }
                        }
                        Some(_) => assert_eq!(back, kind, "{kind:?}"),
                        None => assert_eq!(written, "CHUDAN", "{kind:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn the_player_to_move_resigns_and_declares() {
        let (b, w) = (Color::Black, Color::White);
        // The word, the player to move, and what it means.
        for (word, to_move, meaning) in [
            ("TORYO", b, (Resign, Some(w))),
            ("TSUMI", w, (Checkmate, Some(b))),
            ("TIME_UP", w, (TimeUp, Some(b))),
            ("TIME_UP", b, (TimeUp, Some(w))),
            ("KACHI", b, (EnteringKing, Some(b))),
            ("ILLEGAL_MOVE", b, (FoulLoss, Some(w))),
            // `+`: Black broke the rules, whoever is to move.
            ("+ILLEGAL_ACTION", b, (FoulLoss, Some(w))),
            ("+ILLEGAL_ACTION", w, (FoulWin, Some(w))),
            ("-ILLEGAL_ACTION", b, (FoulWin, Some(b))),
            ("SENNICHITE", w, (Repetition, None)),
            ("HIKIWAKE", b, (Draw, None)),
        ] {
            let got = ending(word, to_move);
            assert_eq!(got, Some(meaning), "{word} with {to_move:?} to move");
        }
    }

    #[test]
    fn words_csa_does_not_define_are_none() {
        for word in [
            "",
            "%TORYO",
            "toryo",
            "投了",
            "ILLEGAL_ACTION",
            "SENTE_WIN_TORYO",
            "RESIGN",
        ] {
            assert_eq!(ending(word, Color::Black), None, "{word}");
        }
        for kind in [DefaultWin, DefaultLoss, Sealed, Try, Other] {
            assert_eq!(word(kind), None, "{kind:?}");
        }
    }
}
