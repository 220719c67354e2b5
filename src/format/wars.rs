//! Shogi Wars (将棋ウォーズ) CSA: the ending words it writes instead of a
//! `%` line, and its one-line form.
//!
//! Shogi Wars ends a CSA game with a word naming the winner and the cause:
//! `SENTE_WIN_TORYO`, `GOTE_WIN_TIMEOUT`, `DRAW_SENNICHI`, … (with or
//! without a `%`). The set below is the one Shogi Wars tools and viewers
//! agree on (the winner, then `TORYO`, `CHECKMATE`, `TIMEOUT`,
//! `DISCONNECT`, `ENTERINGKING`, `OUTE_SENNICHI` or `TRY`; or a `DRAW_`
//! word). A disconnection is lost on time, as Shogi Wars scores it.
//!
//! The one-line form puts a whole game on one line, tab-separated:
//! `+7776FU,L600<TAB>-3334FU,L589<TAB>…<TAB>GOTE_WIN_TORYO`, where `L` is the
//! mover's seconds left after the move. The time a move took is the
//! decrease of its mover's seconds left since that player's previous move;
//! a player's first move has no time (the starting clock is not in the
//! record), and a move after which the seconds left rose (a clock that is
//! reset each move) has none either.

use crate::record::{EndingKind, Record};
use crate::Color;

/// What a Shogi Wars ending word says: the kind of ending and the winner.
pub fn ending(word: &str) -> Option<(EndingKind, Option<Color>)> {
    use EndingKind::*;
    let word = word.strip_prefix('%').unwrap_or(word);
    match word {
        "DRAW_SENNICHI" => return Some((Repetition, None)),
        "DRAW_PLY_LIMIT" => return Some((MaxMoves, None)),
        "DRAW_INVALID" => return Some((Draw, None)),
        _ => {}
    }
    let (winner, cause) = if let Some(cause) = word.strip_prefix("SENTE_WIN_") {
        (Color::Black, cause)
    } else {
        (Color::White, word.strip_prefix("GOTE_WIN_")?)
    };
    let kind = match cause {
        "TORYO" => Resign,
        "CHECKMATE" => Checkmate,
        "TIMEOUT" | "DISCONNECT" => TimeUp,
        "ENTERINGKING" => EnteringKing,
        "OUTE_SENNICHI" => PerpetualCheck,
        "TRY" => Try,
        _ => return None,
    };
    Some((kind, Some(winner)))
}

/// Gives each Shogi Wars ending of a built record its kind and winner, as
/// the word names them, and drops the resolver's "unknown terminal word"
/// warning for it (the reader's own warning says what the word was read
/// as).
pub fn settle(mut record: Record) -> Record {
    let warnings = &mut record.warnings;
    for end in record.tree.endings_mut() {
        if end.kind != EndingKind::Other {
            continue;
        }
        if let Some((kind, winner)) = ending(&end.text) {
            end.kind = kind;
            end.winner = winner;
            let unknown = format!("unknown terminal word `{}`, kept as text", end.text);
            warnings.retain(|w| w.message != unknown);
        }
    }
    record
}

/// How a word is described in a warning: `resignation, 後手 wins`.
pub fn describe(kind: EndingKind, winner: Option<Color>) -> String {
    let what = match kind {
        EndingKind::Resign => "resignation",
        EndingKind::Checkmate => "checkmate",
        EndingKind::TimeUp => "loss on time",
        EndingKind::EnteringKing => "win by entering king (入玉宣言)",
        EndingKind::PerpetualCheck => "loss by perpetual check",
        EndingKind::Try => "win by try",
        EndingKind::Repetition => "repetition draw",
        EndingKind::MaxMoves => "draw at the move limit",
        _ => "draw",
    };
    match winner {
        Some(Color::Black) => format!("{what}, 先手 wins"),
        Some(Color::White) => format!("{what}, 後手 wins"),
        None => what.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        use EndingKind::*;
        let b = Some(Color::Black);
        let w = Some(Color::White);
        for (word, expected) in [
            ("GOTE_WIN_TORYO", Some((Resign, w))),
            ("%SENTE_WIN_CHECKMATE", Some((Checkmate, b))),
            ("SENTE_WIN_TIMEOUT", Some((TimeUp, b))),
            ("GOTE_WIN_DISCONNECT", Some((TimeUp, w))),
            ("SENTE_WIN_ENTERINGKING", Some((EnteringKing, b))),
            ("GOTE_WIN_OUTE_SENNICHI", Some((PerpetualCheck, w))),
            ("GOTE_WIN_TRY", Some((Try, w))),
            ("DRAW_SENNICHI", Some((Repetition, None))),
            ("DRAW_PLY_LIMIT", Some((MaxMoves, None))),
            ("DRAW_INVALID", Some((Draw, None))),
            ("GOTE_WIN_SOMEHOW", None),
            ("TORYO", None),
            ("SENTE_WIN_", None),
        ] {
            assert_eq!(ending(word), expected, "{word}");
        }
    }

    #[test]
    fn records_get_their_endings_settled_and_lose_the_unknown_word_warning() {
        // After two moves, and at the root (no move at all).
        for (moves, winner) in [("+7776FU\n-3334FU\n", Color::White), ("", Color::White)] {
            let text = format!("V2.2\nPI\n+\n{moves}GOTE_WIN_TORYO\n");
            let records = crate::read::read_text(&text, crate::Format::Csa).unwrap();
            let record = &records[0];
            let endings: Vec<_> = std::iter::once(crate::record::NodeId::ROOT)
                .chain(record.tree.ids())
                .filter_map(|id| record.tree.node(id).ending())
                .map(|ending| (ending.kind, ending.winner))
                .collect();
            assert_eq!(endings, [(EndingKind::Resign, Some(winner))], "{text}");
            assert!(
                record
                    .warnings
                    .iter()
                    .all(|w| !w.message.starts_with("unknown terminal word")),
                "{text}: {:?}",
                record.warnings
            );
        }
    }
}
