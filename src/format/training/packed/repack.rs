//! A packed position read and written again in a dialect in one pass:
//! each square's code is rewritten as it is read, without building a
//! [`Position`](crate::Position) to pack. What is written is what [`pack`]
//! writes for the position [`unpack`] reads, bit for bit (tested against
//! them); what fails is what [`unpack`] refuses.

use super::frame::{box_left, counts};
use super::{
    column, decode, piece_index, put_off_board, Bits, Dialect, Emit, Squares, UnpackError, PIECES,
    ROWS,
};
#[cfg(doc)]
use super::{pack, unpack, unpack_into};
use crate::{Color, Piece, Position};

/// Writes each square [`decode`] reads in another dialect, as [`pack`]
/// does: the empty squares since the last piece as 0 bits, then the
/// piece's code.
struct Rewrite<'w> {
    bits: Bits<'w, false>,
    pieces: &'static [Emit; 64],
    /// The empty squares read since the last piece.
    empties: u32,
    /// The pieces read on the board (kings aside), by row of [`ROWS`].
    on_board: [u8; 7],
}

impl Squares for Rewrite<'_> {
    #[inline(always)]
    fn empty(&mut self) {
        self.empties += 1;
    }

    #[inline(always)]
    fn piece(&mut self, piece: Piece, row: usize) {
        let e = self.pieces[piece_index(piece)];
        self.bits.put_after(self.empties, e, e);
        self.empties = 0;
        if let Some(n) = self.on_board.get_mut(row) {
            *n += 1;
        }
    }
}

/// Reads the position 32 packed bytes hold in dialect `from` into `out`,
/// at `move_number` (as [`unpack_into`] reads it, with its errors), and
/// gives that position packed in dialect `to` (as [`pack`] writes it).
pub(crate) fn repack(
    bytes: &[u8; 32],
    from: Dialect,
    to: Dialect,
    move_number: u32,
    out: &mut Position,
) -> Result<[u8; 32], UnpackError> {
    let d = column(to);
    let (mut words, mut unused) = ([0; 4], [0; 4]);
    let mut rewrite = Rewrite {
        bits: Bits::new(&mut words, &mut unused),
        pieces: &PIECES[d],
        empties: 0,
        on_board: [0; 7],
    };
    // The side to move and the kings' squares: the same 15 bits in both
    // dialects.
    let head = u64::from(bytes[0]) | u64::from(bytes[1]) << 8;
    let head = Emit {
        bits: head & 0x7fff,
        len: 15,
    };
    rewrite.bits.put(head, head);
    decode(bytes, from, move_number, &mut rewrite, out)?;
    let Rewrite {
        mut bits,
        empties,
        on_board,
        ..
    } = rewrite;
    bits.zeros(empties as usize);
    let held = [out.hand(Color::Black), out.hand(Color::White)];
    let pieces = 2 + on_board.iter().map(|&n| u32::from(n)).sum::<u32>();
    let in_play = |r: usize| {
        let kind = ROWS[r].kind;
        usize::from(on_board[r]) + usize::from(held[0].count(kind) + held[1].count(kind))
    };
    let hands = [counts(held[0].counts()), counts(held[1].counts())];
    // The position read holds no more of a kind than a set (`decode` counts
    // them), so this never fails.
    let left = box_left(pieces, &hands, in_play).map_err(UnpackError::TooMany)?;
    put_off_board(d, &hands, left, |e, other| bits.put(e, other));
    #[cfg(debug_assertions)]
    debug_assert_eq!(bits.at(), 256);
    bits.finish();
    Ok(super::to_bytes(words))
}
