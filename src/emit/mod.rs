//! Writers: a record to text in each format, replaying the position as they
//! go where the format needs it.

pub mod csa;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod usi;
pub mod western;

use crate::record::Ending;
use crate::{Move, Position};

/// The illegal move the writer writes for an ending in position `pos`:
/// the foul's move, when the player to move made it, it breaks the rules
/// there, and it names a piece of theirs (a board move from one of their
/// pieces, or a drop of a kind a hand can hold), so that a reader finds the
/// same foul. Other fouls are written as their ending word alone. Every writer
/// that can hold a move uses this one rule.
pub fn foul_move(ending: &Ending, pos: &Position) -> Option<Move> {
    let foul = ending.foul.as_ref()?;
    let mv = foul.mv?;
    let by = pos.side_to_move();
    if foul.by != by || pos.is_legal(mv) {
        return None;
    }
    let named = match mv {
        Move::Normal { from, .. } => pos.piece_at(from).is_some_and(|p| p.color == by),
        Move::Drop { kind, .. } => kind.is_hand_kind(),
    };
    named.then_some(mv)
}
