//! Moves in 16 bits, in the two layouts training data uses. Both put the
//! destination's square index in bits 0–6 and the origin's in bits 7–13;
//! they differ in how a drop and a promotion are marked:
//!
//! * Apery's `move16` (cshogi; HCPE, hcpe3, Apery books): bit 14 is the
//!   promotion; a drop's origin is 80 plus the piece (P 1, L 2, N 3, S 4,
//!   B 5, R 6, G 7).
//! * YaneuraOu's `Move16` (PackedSfenValue, its binary books): bit 14 is a
//!   drop, bit 15 the promotion; a drop's origin is the piece itself (same
//!   numbering).

use crate::{Move, PieceKind};

/// Which 16-bit layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Apery's and cshogi's `move16`.
    Apery,
    /// YaneuraOu's `Move16`.
    YaneuraOu,
}

/// The number both layouts give a piece dropped: P 1, L 2, N 3, S 4, B 5,
/// R 6, G 7 (gold last, as in Apery's piece order).
fn drop_number(kind: PieceKind) -> u16 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        // Gold; a drop is never of another kind.
        _ => 7,
    }
}

/// `mv` in 16 bits.
///
/// ```
/// use kifconv::training::move16::{encode, Layout};
/// use kifconv::Move;
///
/// let m = |usi| Move::from_usi(usi).unwrap();
/// assert_eq!(encode(m("7g7f"), Layout::Apery), 0x1e3b);
/// assert_eq!(encode(m("P*1e"), Layout::Apery), 0x2884);
/// assert_eq!(encode(m("P*1e"), Layout::YaneuraOu), 0x4084);
/// ```
pub fn encode(mv: Move, layout: Layout) -> u16 {
    match mv {
        Move::Normal { from, to, promote } => {
            let promotion = match layout {
                Layout::Apery => 1 << 14,
                Layout::YaneuraOu => 1 << 15,
            };
            to.index() as u16 | (from.index() as u16) << 7 | if promote { promotion } else { 0 }
        }
        Move::Drop { kind, to } => {
            let piece = drop_number(kind);
            match layout {
                Layout::Apery => to.index() as u16 | (80 + piece) << 7,
                Layout::YaneuraOu => to.index() as u16 | piece << 7 | 1 << 14,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Square};

    /// Every legal move of a few positions: origins, destinations, drops
    /// and promotions land in their bits, and no two moves share a code.
    #[test]
    fn every_move_has_its_own_code_with_its_fields_in_place() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1gkg1nl/1r1s3b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPP1P/1B5R1/LN1GKGSNL b Sp 1",
            "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLP 1",
            "8k/1PPPPPPP1/9/9/9/9/9/9/K8 b - 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            for layout in [Layout::Apery, Layout::YaneuraOu] {
                let mut seen = std::collections::HashSet::new();
                for mv in pos.legal_moves() {
                    let code = encode(mv, layout);
                    assert!(seen.insert(code), "{mv} shares {code:#06x}");
                    assert_eq!(Square::from_index(usize::from(code & 0x7f)), Some(mv.to()));
                    let origin = usize::from(code >> 7 & 0x7f);
                    match (mv, layout) {
                        (Move::Normal { from, promote, .. }, _) => {
                            assert_eq!(origin, from.index());
                            let bit = if layout == Layout::Apery { 14 } else { 15 };
                            assert_eq!(code >> bit & 1 == 1, promote, "{mv}");
                            assert_eq!(code & !(0x3fff | 1 << bit), 0, "{mv}");
                        }
                        (Move::Drop { kind, .. }, Layout::Apery) => {
                            assert_eq!(origin, 80 + usize::from(drop_number(kind)));
                            assert_eq!(code >> 14, 0);
                        }
                        (Move::Drop { kind, .. }, Layout::YaneuraOu) => {
                            assert_eq!(origin, usize::from(drop_number(kind)));
                            assert_eq!(code >> 14, 1);
                        }
                    }
                }
                assert!(seen.len() > 5, "{sfen}");
            }
        }
    }
}
