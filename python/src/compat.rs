//! cshogi's 32-bit move, for `kifconv.compat.cshogi`: Apery's 16-bit
//! `move16` in bits 0–15 (destination, origin or dropped piece,
//! promotion), the kind of the piece moved in bits 16–19 (0 for a drop)
//! and the kind captured in bits 20–23 (0 for none), both in cshogi's
//! numbering of piece kinds.

use kifconv::training::move16::{self, Layout};
use kifconv::{Move, PieceKind, Position};

/// cshogi's number for a piece kind, as Apery numbers them.
fn kind_number(kind: PieceKind) -> u32 {
    u32::from(move16::apery_kind(kind))
}

/// `mv`, played in `pos`, as cshogi's 32-bit move.
pub fn cshogi_move(pos: &Position, mv: Move) -> u32 {
    let code = u32::from(move16::encode(mv, Layout::Apery));
    let (moved, to) = match mv {
        Move::Normal { from, to, .. } => {
            (pos.piece_at(from).map_or(0, |p| kind_number(p.kind)), to)
        }
        Move::Drop { to, .. } => (0, to),
    };
    let captured = pos.piece_at(to).map_or(0, |p| kind_number(p.kind));
    code | moved << 16 | captured << 20
}
