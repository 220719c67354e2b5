//! The 32-byte packed position that training data and books store: a
//! Huffman code per square and per piece in hand, in two dialects that
//! share the frame and differ in their codes — cshogi's HuffmanCodedPos
//! (HCP, used by HCPE and hcpe3) and YaneuraOu's PackedSfen (used by
//! PackedSfenValue).
//!
//! The frame, bit by bit from the least significant bit of byte 0: the side
//! to move (0 black), each king's square (7 bits, black's first), every other
//! square in index order (1a, 1b, …, 9i), black's hand then white's in the
//! order P L N S G B R, then the pieces in neither (the box, in handicap
//! games) in the same order. With two kings that is exactly 256 bits.

use crate::{Color, Piece, PieceKind, Position, Square};
use std::fmt;

/// Which code table a packed position uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// cshogi's HuffmanCodedPos (HCPE, hcpe3).
    Hcp,
    /// YaneuraOu's PackedSfen (PackedSfenValue).
    PackedSfen,
}

/// Why a position cannot be packed into 32 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// The frame has a square for each king: a position without both kings
    /// has no packed form.
    MissingKing(Color),
    /// More pieces of a kind than a set holds (18 pawns, 4 lances, knights,
    /// silvers and golds, 2 bishops and rooks), counting promoted ones. A
    /// [`Position`] never holds more (it refuses such a start); the check
    /// keeps packing from ever writing past 32 bytes.
    TooMany(PieceKind),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::MissingKing(c) => write!(
                f,
                "the position has no {} king; a packed position needs both",
                match c {
                    Color::Black => "black",
                    Color::White => "white",
                }
            ),
            PackError::TooMany(kind) => write!(
                f,
                "more {} ({}) than a set holds; a packed position cannot hold them",
                kind.csa(),
                kind.usi_letter()
            ),
        }
    }
}

impl std::error::Error for PackError {}

/// A code: its bits as emitted, first bit first.
#[derive(Clone, Copy)]
struct Code {
    bits: &'static str,
}

/// One row per hand kind (P L N S G B R): the prefix of its code on the
/// board (colour and promotion bits follow), in hand (colour follows), and
/// in the box (nothing follows), for each dialect. The codes of the two
/// dialects differ for knights, silvers and the box.
struct Row {
    kind: PieceKind,
    board: [Code; 2],
    hand: [Code; 2],
    boxed: [Code; 2],
}

const fn c(bits: &'static str) -> Code {
    Code { bits }
}

/// The one table: `[HCP, PackedSfen]` in each column.
const ROWS: [Row; 7] = [
    Row {
        kind: PieceKind::Pawn,
        board: [c("10"), c("10")],
        hand: [c("00"), c("00")],
        boxed: [c("010"), c("010")],
    },
    Row {
        kind: PieceKind::Lance,
        board: [c("1100"), c("1100")],
        hand: [c("1000"), c("1000")],
        boxed: [c("10010"), c("10010")],
    },
    Row {
        kind: PieceKind::Knight,
        board: [c("1110"), c("1101")],
        hand: [c("1100"), c("1010")],
        boxed: [c("11010"), c("10110")],
    },
    Row {
        kind: PieceKind::Silver,
        board: [c("1101"), c("1110")],
        hand: [c("1010"), c("1100")],
        boxed: [c("10110"), c("11010")],
    },
    Row {
        kind: PieceKind::Gold,
        board: [c("11110"), c("11110")],
        hand: [c("1110"), c("1110")],
        boxed: [c("10111"), c("11011")],
    },
    Row {
        kind: PieceKind::Bishop,
        board: [c("111110"), c("111110")],
        hand: [c("111110"), c("111100")],
        boxed: [c("1111000"), c("1111010")],
    },
    Row {
        kind: PieceKind::Rook,
        board: [c("111111"), c("111111")],
        hand: [c("111111"), c("111110")],
        boxed: [c("1111010"), c("1111110")],
    },
];

/// How many of each hand kind a set holds, in [`ROWS`] order.
const SET: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];

/// Bits written least significant first into 32 bytes.
struct Bits {
    bytes: [u8; 32],
    at: usize,
}

impl Bits {
    fn push(&mut self, bit: bool) {
        // Never past 256 bits: the counts are checked before packing.
        if bit {
            self.bytes[self.at / 8] |= 1 << (self.at % 8);
        }
        self.at += 1;
    }

    fn code(&mut self, code: Code) {
        for b in code.bits.bytes() {
            self.push(b == b'1');
        }
    }

    /// A field of `width` bits, least significant first.
    fn field(&mut self, value: usize, width: u32) {
        for i in 0..width {
            self.push(value >> i & 1 == 1);
        }
    }
}

/// The packed form of `pos` in `dialect`.
///
/// ```
/// use kifconv::training::packed::{pack, Dialect};
/// use kifconv::Position;
///
/// let hcp = pack(&Position::startpos(), Dialect::Hcp).unwrap();
/// assert_eq!(hcp[..4], [0x58, 0xa4, 0x49, 0x21]);
/// ```
pub fn pack(pos: &Position, dialect: Dialect) -> Result<[u8; 32], PackError> {
    let d = match dialect {
        Dialect::Hcp => 0,
        Dialect::PackedSfen => 1,
    };
    let king = |c: Color| pos.king(c).ok_or(PackError::MissingKing(c));
    let kings = [king(Color::Black)?, king(Color::White)?];
    let row_of = |kind: PieceKind| ROWS.iter().position(|r| r.kind == kind.unpromote());
    // What is on the board and in the hands, to find the box.
    let mut count = [0u8; 7];
    for sq in Square::all() {
        if let Some(piece) = pos.piece_at(sq) {
            if let Some(r) = row_of(piece.kind) {
                count[r] += 1;
            }
        }
    }
    for color in [Color::Black, Color::White] {
        for (r, row) in ROWS.iter().enumerate() {
            count[r] += pos.hand(color).count(row.kind);
        }
    }
    if let Some(r) = (0..7).find(|&r| count[r] > SET[r]) {
        return Err(PackError::TooMany(ROWS[r].kind));
    }

    let mut bits = Bits {
        bytes: [0; 32],
        at: 0,
    };
    bits.push(pos.side_to_move() == Color::White);
    bits.field(kings[0].index(), 7);
    bits.field(kings[1].index(), 7);
    for sq in Square::all() {
        if sq == kings[0] || sq == kings[1] {
            continue;
        }
        match pos.piece_at(sq) {
            None => bits.push(false),
            Some(Piece { color, kind }) => {
                let row = &ROWS[row_of(kind).expect("kings are skipped")];
                bits.code(row.board[d]);
                let white = color == Color::White;
                let promoted = kind.is_promoted();
                match (row.kind, dialect) {
                    (PieceKind::Gold, _) => bits.push(white),
                    (_, Dialect::Hcp) => {
                        bits.push(white);
                        bits.push(promoted);
                    }
                    (_, Dialect::PackedSfen) => {
                        bits.push(promoted);
                        bits.push(white);
                    }
                }
            }
        }
    }
    for color in [Color::Black, Color::White] {
        for row in &ROWS {
            for _ in 0..pos.hand(color).count(row.kind) {
                bits.code(row.hand[d]);
                bits.push(color == Color::White);
            }
        }
    }
    for (r, row) in ROWS.iter().enumerate() {
        for _ in count[r]..SET[r] {
            bits.code(row.boxed[d]);
        }
    }
    debug_assert_eq!(bits.at, 256);
    Ok(bits.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The vectors of ../shared/training/FORMATS.md, checked there against
    /// cshogi 1.1.0: the start, a two-piece handicap (bishop and rook in the
    /// box) and a position with pieces in both hands.
    #[test]
    fn packs_the_reference_vectors() {
        let cases = [
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c",
                "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c",
            ),
            (
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                "59a449210c9742fc1c9b42585e85f0288457213c9b42582e85f8382685303c5e",
                "59a451220cab44fc2ca744385e89f0488457223ca744385689f858468930bc7e",
            ),
            (
                "lnsgk4/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGK4 w GBRgbr 1",
                "59240a0185804240215008af42783685b05c0ae19814c2703ebffbfda7b4566b",
                "5924120189804440229008af44784e8970ac12611925c2701e9ffbfca6d4da5a",
            ),
        ];
        for (sfen, hcp, psfen) in cases {
            let pos = Position::from_sfen(sfen).unwrap();
            assert_eq!(hex(&pack(&pos, Dialect::Hcp).unwrap()), hcp, "{sfen}");
            assert_eq!(
                hex(&pack(&pos, Dialect::PackedSfen).unwrap()),
                psfen,
                "{sfen}"
            );
        }
    }

    #[test]
    fn a_position_without_both_kings_is_an_error() {
        for (sfen, missing) in [
            ("9/9/9/9/9/9/9/9/4K4 b - 1", Color::White),
            ("4k4/9/9/9/9/9/9/9/9 w - 1", Color::Black),
        ] {
            let setup = crate::Setup::from_sfen(sfen).unwrap();
            let (pos, _) = Position::from_setup_lenient(setup).unwrap();
            for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
                assert_eq!(pack(&pos, dialect), Err(PackError::MissingKing(missing)));
            }
        }
        let two = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        assert!(pack(&two, Dialect::Hcp).is_ok());
    }
}
