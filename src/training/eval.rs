//! Engine evaluations written in records: CSA's `'** <score> <pv…>` after a
//! move (kept by the reader as the comment `* <score> …`), black's view, as
//! floodgate writes them and dlshogi's scripts read them.

use crate::record::{NodeId, Record};
use crate::Color;

/// The evaluation a node's comments give, black's view: the first comment
/// of the form `* <score>` (a whole number, then a space or nothing).
pub fn black_view(record: &Record, id: NodeId) -> Option<i32> {
    record.tree.node(id).comments.iter().find_map(|c| {
        let rest = c.strip_prefix("* ")?;
        let score = rest.split(' ').next()?;
        score.parse::<i32>().ok()
    })
}

/// The evaluation from the view of `mover`, the player who made the move
/// at `id`: black's view negated for white.
pub fn mover_view(record: &Record, id: NodeId, mover: Color) -> Option<i32> {
    black_view(record, id).map(|v| match mover {
        Color::Black => v,
        Color::White => -v,
    })
}
