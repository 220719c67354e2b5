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

use crate::{Color, Move, Piece, PieceKind, Position, Square};
use std::fmt;

/// Which 16-bit layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Apery's and cshogi's `move16`.
    Apery,
    /// YaneuraOu's `Move16`.
    YaneuraOu,
}

/// Apery's (and cshogi's) number for a piece kind: P 1, L 2, N 3, S 4,
/// B 5, R 6, G 7 (gold after the kinds that promote), K 8, then the
/// promoted kinds +P 9 to +R 14 in the same order.
pub fn apery_kind(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        PieceKind::Gold => 7,
        PieceKind::King => 8,
        PieceKind::ProPawn => 9,
        PieceKind::ProLance => 10,
        PieceKind::ProKnight => 11,
        PieceKind::ProSilver => 12,
        PieceKind::Horse => 13,
        PieceKind::Dragon => 14,
    }
}

/// The number both layouts give a piece dropped: its [`apery_kind`], 1 to
/// 7 for the kinds a hand holds.
fn drop_number(kind: PieceKind) -> u16 {
    u16::from(apery_kind(kind))
}

/// The piece a drop's number stands for, by [`drop_number`] read
/// backwards; `None` for a number no piece has.
fn dropped(number: u16) -> Option<PieceKind> {
    PieceKind::HAND
        .into_iter()
        .find(|&kind| drop_number(kind) == number)
}

/// Why 16 bits name no move in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The destination's bits (0–6) are 81 or more.
    NoDestination(u16),
    /// The origin's bits (7–13) name no square and no dropped piece.
    NoOrigin(u16),
    /// A bit that the layout leaves unused is set (Apery's bit 15).
    UnusedBit(u16),
    /// A drop carries the promotion bit.
    PromotedDrop,
    /// The origin and the destination are one square (an all-zero code,
    /// which engines write for "no move", is one).
    SameSquare(Square),
    /// No piece stands on the origin.
    NoPiece(Square),
    /// The piece on the origin is not the side to move's.
    NotToMove(Square, Piece),
    /// The side to move holds no piece of the kind dropped.
    NotInHand(Color, PieceKind),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NoDestination(n) => {
                write!(
                    f,
                    "the destination is square number {n}; squares are 0 to 80"
                )
            }
            DecodeError::NoOrigin(n) => write!(
                f,
                "the origin number {n} is neither a square nor a piece to drop"
            ),
            DecodeError::UnusedBit(bit) => {
                write!(f, "bit {bit} is set, which the layout leaves unused")
            }
            DecodeError::PromotedDrop => write!(f, "a drop marked as a promotion"),
            DecodeError::SameSquare(sq) => {
                write!(f, "a move from {sq} to {sq} (the code of no move)")
            }
            DecodeError::NoPiece(sq) => write!(f, "no piece on {sq} to move"),
            DecodeError::NotToMove(sq, piece) => write!(
                f,
                "the piece on {sq} is {}'s, not the side to move's",
                piece.color
            ),
            DecodeError::NotInHand(color, kind) => write!(
                f,
                "a drop of {} ({}), which {color} does not hold",
                kind.csa(),
                kind.usi_letter()
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// The move `code` names in `pos`, read in `layout`: a move of a piece of
/// the side to move from its square, or a drop of a piece it holds. Whether
/// the move is legal is left to the caller ([`Position::check_legal`]); bits
/// that name no square or piece, a piece that is missing or the opponent's,
/// and a drop of a piece not in hand are errors.
///
/// ```
/// use kifconv::training::move16::{decode, Layout};
/// use kifconv::{Move, Position};
///
/// let start = Position::startpos();
/// assert_eq!(decode(&start, 0x1e3b, Layout::Apery), Ok(Move::from_usi("7g7f").unwrap()));
/// assert!(decode(&start, 0x2884, Layout::Apery).is_err()); // P*1e: no pawn in hand
/// ```
pub fn decode(pos: &Position, code: u16, layout: Layout) -> Result<Move, DecodeError> {
    let index = code & 0x7f;
    let to = Square::from_index(usize::from(index)).ok_or(DecodeError::NoDestination(index))?;
    let origin = code >> 7 & 0x7f;
    let (drop, promote) = match layout {
        Layout::Apery => {
            if code >> 15 != 0 {
                return Err(DecodeError::UnusedBit(15));
            }
            (origin > 80, code >> 14 & 1 == 1)
        }
        Layout::YaneuraOu => (code >> 14 & 1 == 1, code >> 15 == 1),
    };
    let side = pos.side_to_move();
    if drop {
        let number = match layout {
            Layout::Apery => origin - 80,
            Layout::YaneuraOu => origin,
        };
        let kind = dropped(number).ok_or(DecodeError::NoOrigin(origin))?;
        if promote {
            return Err(DecodeError::PromotedDrop);
        }
        if pos.hand(side).count(kind) == 0 {
            return Err(DecodeError::NotInHand(side, kind));
        }
        return Ok(Move::Drop { kind, to });
    }
    let from = Square::from_index(usize::from(origin)).ok_or(DecodeError::NoOrigin(origin))?;
    if from == to {
        return Err(DecodeError::SameSquare(from));
    }
    match pos.piece_at(from) {
        None => Err(DecodeError::NoPiece(from)),
        Some(piece) if piece.color != side => Err(DecodeError::NotToMove(from, piece)),
        Some(_) => Ok(Move::Normal { from, to, promote }),
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

    /// Positions with board moves, promotions and drops of every kind, for
    /// both sides.
    const SFENS: [&str; 5] = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "ln1gkg1nl/1r1s3b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPP1P/1B5R1/LN1GKGSNL b Sp 1",
        "ln1gkg1nl/1r1s3b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPP1P/1B5R1/LN1GKGSNL w Sp 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLP 1",
        "8k/1PPPPPPP1/9/9/9/9/9/9/K8 b - 1",
    ];

    /// Every legal move of a few positions: origins, destinations, drops
    /// and promotions land in their bits, and no two moves share a code.
    #[test]
    fn every_move_has_its_own_code_with_its_fields_in_place() {
        for sfen in SFENS {
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

    /// Decoding gives back every legal move of the same positions.
    #[test]
    fn decode_reads_back_what_encode_writes() {
        for sfen in SFENS {
            let pos = Position::from_sfen(sfen).unwrap();
            for layout in [Layout::Apery, Layout::YaneuraOu] {
                for mv in pos.legal_moves() {
                    assert_eq!(decode(&pos, encode(mv, layout), layout), Ok(mv), "{sfen}");
                }
            }
        }
    }

    #[test]
    fn codes_that_name_no_move_here_are_errors() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let sq = |usi| Square::from_usi(usi).unwrap();
        let king = Piece {
            color: Color::White,
            kind: PieceKind::King,
        };
        use DecodeError::*;
        let cases = [
            (
                0x0051,
                Layout::Apery,
                NoDestination(81),
                "the destination is square number 81; squares are 0 to 80",
            ),
            (
                0x007f,
                Layout::Apery,
                NoDestination(127),
                "the destination is square number 127; squares are 0 to 80",
            ),
            (
                0x8000 | 0x0a00,
                Layout::Apery,
                UnusedBit(15),
                "bit 15 is set, which the layout leaves unused",
            ),
            // Apery: origin 88 is 80 + 8, no piece.
            (
                88 << 7,
                Layout::Apery,
                NoOrigin(88),
                "the origin number 88 is neither a square nor a piece to drop",
            ),
            (
                1 << 14,
                Layout::YaneuraOu,
                NoOrigin(0),
                "the origin number 0 is neither a square nor a piece to drop",
            ),
            (
                0x2884 | 1 << 14,
                Layout::Apery,
                PromotedDrop,
                "a drop marked as a promotion",
            ),
            (
                0x4084 | 1 << 15,
                Layout::YaneuraOu,
                PromotedDrop,
                "a drop marked as a promotion",
            ),
            (
                0x0000,
                Layout::Apery,
                SameSquare(sq("1a")),
                "a move from 1a to 1a (the code of no move)",
            ),
            (
                0x1e3b,
                Layout::YaneuraOu,
                NoPiece(sq("7g")),
                "no piece on 7g to move",
            ),
            (
                36 << 7 | 37,
                Layout::Apery,
                NotToMove(sq("5a"), king),
                "the piece on 5a is White's, not the side to move's",
            ),
            (
                0x4104,
                Layout::YaneuraOu,
                NotInHand(Color::Black, PieceKind::Lance),
                "a drop of KY (L), which Black does not hold",
            ),
        ];
        for (code, layout, error, text) in cases {
            assert_eq!(
                decode(&pos, code, layout),
                Err(error.clone()),
                "{code:#06x}"
            );
            assert_eq!(error.to_string(), text);
        }
        // The pawn in hand drops in both layouts.
        let drop = Move::from_usi("P*1e").unwrap();
        assert_eq!(decode(&pos, 0x2884, Layout::Apery), Ok(drop));
        assert_eq!(decode(&pos, 0x4084, Layout::YaneuraOu), Ok(drop));
    }
}
