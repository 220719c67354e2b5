//! The formats: one folder per format with its reader (`read.rs`: text to
//! move specs and start positions) and its writer (`write.rs`: a record to
//! text, replaying the position where the format needs it), and what they
//! share: Japanese notation, the Kakinoki header and board diagram, the raw
//! game the resolver consumes, line splitting.

pub mod csa;
pub mod japanese;
pub mod jkf;
pub mod kakinoki;
pub mod ki2;
pub mod kif;
pub mod lines;
pub mod raw;
pub mod usen;
pub mod usi;
pub mod wars;
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
