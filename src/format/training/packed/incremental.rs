//! Packing the positions of a game one after another. Consecutive
//! positions differ in a few squares and at most one hand count, so the
//! next position's bits are the last one's with those codes replaced: the
//! codes after each one move by the difference in length. [`Packer::pack`]
//! finds what differs from the positions themselves (nothing is assumed
//! about how one came from the other) and packs whole, with [`pack`], any
//! position it cannot step to.

use super::{pack, row_of, Dialect, Emit, PackError, EMITS, PIECES, RUNS};
use crate::position::Bitboard;
use crate::{Color, PieceKind, Position};

/// A packed position with room to grow: a code replaced by a longer one
/// pushes the codes after it past bit 256 until a shorter one pulls them
/// back.
type Wide = [u64; 5];

/// Packs positions in turn, each from the last one packed where it can.
pub struct Packer<'p> {
    dialect: Dialect,
    /// The last position packed and its bits.
    last: Option<(&'p Position, Wide)>,
}

/// How many squares may differ for a position to be packed from the last
/// one: a move changes two (a drop one).
const MOST_CHANGED: u32 = 4;

impl<'p> Packer<'p> {
    /// A packer with nothing packed yet.
    pub fn new(dialect: Dialect) -> Packer<'p> {
        Packer {
            dialect,
            last: None,
        }
    }

    /// The packed form of `pos`: what [`pack`] gives, from the last
    /// position's bits when the two have the same kings and the same
    /// pieces in the box.
    pub fn pack(&mut self, pos: &'p Position) -> Result<[u8; 32], PackError> {
        let d = super::column(self.dialect);
        let stepped = self.last.and_then(|(last, wide)| step(last, wide, pos, d));
        let wide = match stepped {
            Some(wide) => wide,
            None => {
                let bytes = pack(pos, self.dialect)?;
                let mut wide = [0; 5];
                for (word, chunk) in wide.iter_mut().zip(bytes.chunks_exact(8)) {
                    let mut le = [0; 8];
                    le.copy_from_slice(chunk);
                    *word = u64::from_le_bytes(le);
                }
                wide
            }
        };
        self.last = Some((pos, wide));
        let mut out = [0u8; 32];
        for (chunk, word) in out.chunks_exact_mut(8).zip(wide) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Ok(out)
    }
}

/// How many bits a piece's code takes on the board, by its row: the same
/// in both dialects, whatever its colour and promotion (tested).
static BOARD_LEN: [u32; 7] = {
    let mut out = [0; 7];
    let mut r = 0;
    while r < 7 {
        out[r] = EMITS.board[0][r][0][0].len;
        r += 1;
    }
    out
};

/// How many bits a piece's code takes in a hand, by its row: the same in
/// both dialects and for both colours (tested).
static HAND_LEN: [u32; 7] = {
    let mut out = [0; 7];
    let mut r = 0;
    while r < 7 {
        out[r] = EMITS.hand[0][r][0].len;
        r += 1;
    }
    out
};

/// The pieces of `pos` by the length of their codes (kings apart, which
/// the frame places): every one, those longer than a pawn's, and the
/// longest (bishops and rooks, promoted or not). Three lengths in all: a
/// pawn's, a lance's (knights', silvers' and golds' too) and a bishop's
/// (rooks' too), tested.
struct Lengths {
    all: Bitboard,
    long: Bitboard,
    longest: Bitboard,
}

impl Lengths {
    fn of(pos: &Position) -> Lengths {
        let both =
            |kind: PieceKind| pos.pieces(Color::Black, kind) | pos.pieces(Color::White, kind);
        let all = pos.occupied() & !both(PieceKind::King);
        let pawns = both(PieceKind::Pawn) | both(PieceKind::ProPawn);
        let longest = both(PieceKind::Bishop)
            | both(PieceKind::Horse)
            | both(PieceKind::Rook)
            | both(PieceKind::Dragon);
        Lengths {
            all,
            long: all & !pawns,
            longest,
        }
    }

    /// Where square `index`'s code starts (81: where the hands start),
    /// with `kings` the number of kings on the squares before it.
    fn offset(&self, index: usize, kings: usize) -> u32 {
        let below = |bb: Bitboard| count_below(bb, index);
        // The frame's 15 bits, one bit a square, and each piece's code
        // beyond that bit.
        (15 + index - kings) as u32
            + (BOARD_LEN[0] - 1) * below(self.all)
            + (BOARD_LEN[1] - BOARD_LEN[0]) * below(self.long)
            + (BOARD_LEN[5] - BOARD_LEN[1]) * below(self.longest)
    }
}

/// How many squares of `bb` come before square `index` (0 to 81).
fn count_below(bb: Bitboard, index: usize) -> u32 {
    let [(_, low), (_, high)] = bb.words();
    if index < 64 {
        (low & ((1u64 << index) - 1)).count_ones()
    } else {
        low.count_ones() + (high & ((1u64 << (index - 64)) - 1)).count_ones()
    }
}

/// `pos`'s bits from `last`'s (`wide`), or `None` when they differ in
/// their kings, in more than [`MOST_CHANGED`] squares, or in the pieces in
/// the box (then [`pack`] packs `pos` whole).
fn step(last: &Position, mut wide: Wide, pos: &Position, d: usize) -> Option<Wide> {
    let kings =
        [Color::Black, Color::White].map(|c| last.king(c).filter(|&k| pos.king(c) == Some(k)));
    let [Some(black_king), Some(white_king)] = kings else {
        return None;
    };
    let changed = pos.changed_squares(last);
    if changed.count() > MOST_CHANGED {
        return None;
    }
    // The box is packed last and left as it is: every kind must have as
    // many pieces on the board and in hand as before.
    let mut balance = [0i32; 7];
    for sq in changed {
        if let Some(r) = last.board()[sq.index()].and_then(|p| row_of(p.kind)) {
            balance[r] -= 1;
        }
        if let Some(r) = pos.board()[sq.index()].and_then(|p| row_of(p.kind)) {
            balance[r] += 1;
        }
    }
    let hands = [Color::Black, Color::White].map(|c| (last.hand(c), pos.hand(c)));
    for (before, after) in hands {
        for (r, kind) in PieceKind::HAND.into_iter().enumerate() {
            balance[r] += i32::from(after.count(kind)) - i32::from(before.count(kind));
        }
    }
    if balance != [0; 7] {
        return None;
    }
    wide[0] = wide[0] & !1 | u64::from(pos.side_to_move() == Color::White);
    let lengths = Lengths::of(last);
    let king_at = [black_king.index(), white_king.index()];
    let kings_before = |index: usize| king_at.iter().filter(|&&k| k < index).count();
    // The hands, then the board's squares, each from the last: a code
    // replaced moves only what comes after it, so what comes before keeps
    // its place in `last`'s bits.
    let hands_at = lengths.offset(81, 2);
    let mut runs = [[0u32; 7]; 2];
    let mut at = hands_at;
    for (c, (before, _)) in hands.iter().enumerate() {
        for (r, kind) in PieceKind::HAND.into_iter().enumerate() {
            runs[c][r] = at;
            at += u32::from(before.count(kind)) * HAND_LEN[r];
        }
    }
    for c in (0..2).rev() {
        let (before, after) = hands[c];
        for (r, kind) in PieceKind::HAND.into_iter().enumerate().rev() {
            let (n, m) = (before.count(kind), after.count(kind));
            if n != m {
                let run = RUNS.hand[d][r][c][usize::from(m.min(18))];
                splice(&mut wide, runs[c][r], u32::from(n) * HAND_LEN[r], run);
            }
        }
    }
    let mut squares = [0usize; MOST_CHANGED as usize];
    let mut n = 0;
    for sq in changed {
        squares[n] = sq.index();
        n += 1;
    }
    for &index in squares[..n].iter().rev() {
        let old = match last.board()[index] {
            Some(piece) => PIECES[d][super::piece_index(piece)].len,
            None => 1,
        };
        let new = match pos.board()[index] {
            Some(piece) => PIECES[d][super::piece_index(piece)],
            None => Emit { bits: 0, len: 1 },
        };
        splice(
            &mut wide,
            lengths.offset(index, kings_before(index)),
            old,
            new,
        );
    }
    debug_assert_eq!(wide[4], 0);
    Some(wide)
}

/// Replaces the `old` bits from bit `at` of `wide` by the code `new`, the
/// bits after them moved to follow it.
fn splice(wide: &mut Wide, at: u32, old: u32, new: Emit) {
    let end = at + old;
    // The bits from `end` on, and those before `at`.
    let mut tail = [0u64; 5];
    let mut head = [0u64; 5];
    for (i, (&w, (t, h))) in wide
        .iter()
        .zip(tail.iter_mut().zip(head.iter_mut()))
        .enumerate()
    {
        let from = (i * 64) as u32;
        *t = w & !low_bits(end.saturating_sub(from));
        *h = w & low_bits(at.saturating_sub(from));
    }
    let shifted = shift(tail, new.len as i32 - old as i32);
    let code = shift([new.bits, 0, 0, 0, 0], at as i32);
    for i in 0..5 {
        wide[i] = head[i] | code[i] | shifted[i];
    }
}

/// A mask of the lowest `n` bits of a word (all of them from 64 on).
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// `wide` moved `by` bits up (down when negative); what passes either end
/// is dropped.
fn shift(wide: Wide, by: i32) -> Wide {
    let mut out = [0u64; 5];
    let words = by.unsigned_abs() as usize / 64;
    let bits = by.unsigned_abs() % 64;
    for (i, o) in out.iter_mut().enumerate() {
        // The word that lands on `i`, and the one whose top (bottom) bits
        // spill into it.
        let (main, spill) = if by >= 0 {
            (i.checked_sub(words), i.checked_sub(words + 1))
        } else {
            (Some(i + words), Some(i + words + 1))
        };
        let get = |j: Option<usize>| j.and_then(|j| wide.get(j).copied()).unwrap_or(0);
        let (main, spill) = (get(main), get(spill));
        *o = match (bits, by >= 0) {
            (0, _) => main,
            (b, true) => main << b | spill >> (64 - b),
            (b, false) => main >> b | spill << (64 - b),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::random_games::each_position;

    /// Every code's length is the same in both dialects, for both colours,
    /// promoted or not, and the board's come in the three lengths
    /// [`Lengths`] counts: the offsets count one length a row.
    #[test]
    fn lengths_do_not_depend_on_dialect_colour_or_promotion() {
        assert_eq!(BOARD_LEN, [4, 6, 6, 6, 6, 8, 8]);
        for d in 0..2 {
            for r in 0..7 {
                for c in 0..2 {
                    assert_eq!(EMITS.hand[d][r][c].len, HAND_LEN[r]);
                    for p in 0..2 {
                        assert_eq!(EMITS.board[d][r][c][p].len, BOARD_LEN[r]);
                    }
                }
            }
        }
    }

    /// Random games from the perft data, packed in turn and by jumps (the
    /// last position of one game before the first of the next, and every
    /// other position): the packer gives what `pack` gives.
    #[test]
    fn packs_what_pack_packs() {
        let mut positions = Vec::new();
        each_position(0x243F_6A88_85A3_08D3, 2, 60, |pos, _, _| {
            positions.push(pos.clone());
        });
        assert!(positions.len() > 1000, "{}", positions.len());
        for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
            for stride in [1, 2, 7] {
                let mut packer = Packer::new(dialect);
                for pos in positions.iter().step_by(stride) {
                    assert_eq!(packer.pack(pos), pack(pos, dialect), "{}", pos.sfen());
                }
            }
        }
    }
}
