//! What floodgate writes in a CSA record's comments that training data
//! reads, and cshogi with it: the players' ratings before the first move
//! (`'black_rate:NAME:RATE`, `'white_rate:NAME:RATE`) and, for the games it
//! stopped at its move limit without a `%` line, the summary after the
//! last move (`'summary:max_moves:NAME draw:NAME draw`).

use crate::record::{EndingKind, Record};
use crate::Color;

/// A player's rating from the record's comments before the first move (the
/// value after the second colon); 0 when there is none or it is no number,
/// as cshogi reads it.
pub fn rating(record: &Record, color: Color) -> f64 {
    let key = match color {
        Color::Black => "black_rate:",
        Color::White => "white_rate:",
    };
    record
        .tree
        .root()
        .comments()
        .iter()
        .find_map(|c| c.strip_prefix(key))
        .and_then(|rest| rest.split_once(':'))
        .and_then(|(_, rate)| rate.trim().parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// How the game ended: the record's ending, or for a record without one
/// whose last comments hold floodgate's `summary:max_moves`, the move
/// limit (cshogi reads such a game as `%JISHOGI`, dlshogi as a draw at the
/// limit).
pub fn ending(record: &Record) -> Option<EndingKind> {
    if let Some(ending) = record.ending() {
        return Some(ending.kind);
    }
    let last = record.tree.node(record.tree.mainline_end());
    last.comments()
        .iter()
        .any(|c| c.starts_with("summary:max_moves:"))
        .then_some(EndingKind::MaxMoves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    #[test]
    fn a_summary_says_the_move_limit_was_reached() {
        let read = |csa: &str| read_text(csa, Format::Csa).unwrap().remove(0);
        let limit = read("PI\n+\n+7776FU\n-3334FU\n'summary:max_moves:a draw:b draw\n");
        assert_eq!(ending(&limit), Some(EndingKind::MaxMoves));
        let silent = read("PI\n+\n+7776FU\n-3334FU\n'summary:abnormal:a win:b lose\n");
        assert_eq!(ending(&silent), None);
        let resigned = read("PI\n+\n+7776FU\n%TORYO\n'summary:toryo:a win:b lose\n");
        assert_eq!(ending(&resigned), Some(EndingKind::Resign));
    }
}
