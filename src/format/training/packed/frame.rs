//! What a packed position holds besides its board: the side to move and
//! the kings' squares before the board, both hands and the box after it.
//! A packer keeps the last position's, so that a move can be played on it
//! without a position.

use super::files::{king_of, Moved, TAKEN};
use super::{PackError, ROWS, SET};
use crate::{Color, Move, PieceKind, Position};

/// A king's square index for a side without one.
const NO_KING: u8 = u8::MAX;

/// The frame of a position.
#[derive(Clone)]
pub(super) struct Frame {
    side: Color,
    /// Black's and white's king squares, as indexes ([`NO_KING`]: none).
    kings: [u8; 2],
    /// Black's and white's hands ([`Counts`]).
    pub(super) hands: [Counts; 2],
    /// How many of each hand kind are in the box ([`Counts`]): what a set
    /// holds less what is in play. Moves keep it.
    pub(super) left: Counts,
}

impl Frame {
    /// No position: no kings, so the head cannot be written.
    pub(super) fn none() -> Frame {
        Frame {
            side: Color::Black,
            kings: [NO_KING; 2],
            hands: [0; 2],
            left: 0,
        }
    }

    /// The frame of `pos`; the error is a missing king (black's checked
    /// first) or a kind with more in play than a set holds.
    #[inline(always)]
    pub(super) fn of(pos: &Position) -> Result<Frame, PackError> {
        let king = |c: Color| pos.king(c).ok_or(PackError::MissingKing(c));
        let (black, white) = (king(Color::Black)?, king(Color::White)?);
        let hands = [pos.hand(Color::Black), pos.hand(Color::White)];
        let hands = [counts(hands[0].counts()), counts(hands[1].counts())];
        let left = box_left(pos.occupied().count(), &hands, |r| {
            in_play(pos, ROWS[r].kind)
        })
        .map_err(PackError::TooMany)?;
        Ok(Frame {
            side: pos.side_to_move(),
            kings: [black.index() as u8, white.index() as u8],
            hands,
            left,
        })
    }

    /// The first 15 bits: the side to move, then each king's square,
    /// black's first.
    #[inline(always)]
    pub(super) fn head(&self) -> Result<u64, PackError> {
        let king = |c: Color| match self.kings[c.index()] {
            NO_KING => Err(PackError::MissingKing(c)),
            sq => Ok(u64::from(sq)),
        };
        Ok(head(self.side, king(Color::Black)?, king(Color::White)?))
    }

    /// The side to move.
    pub(super) fn side(&self) -> Color {
        self.side
    }

    /// Plays `mv`, which did `moved` to the board, as a position plays
    /// it: a king moved is on its new square, a piece taken goes to the
    /// mover's hand unpromoted (a king taken leaves its side without one),
    /// a piece dropped leaves it, and the other side is to move.
    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move, moved: Moved) {
        let us = self.side.index();
        if let Some(king) = king_of(moved.piece) {
            self.kings[king.index()] = mv.to().index() as u8;
        }
        if let Some(king) = king_of(moved.taken) {
            self.kings[king.index()] = NO_KING;
        }
        // Nothing is added when nothing was taken: no branch to guess.
        let taken = TAKEN[usize::from(moved.taken & 63)];
        self.hands[us] = self.hands[us].wrapping_add(taken);
        if let Move::Drop { kind, .. } = mv {
            self.hands[us] = self.hands[us].wrapping_sub(one_of(kind));
        }
        self.side = !self.side;
    }
}

/// The first 15 bits of a position with `side` to move and the kings on
/// square indexes `black` and `white`.
#[inline(always)]
pub(super) fn head(side: Color, black: u64, white: u64) -> u64 {
    u64::from(side == Color::White) | black << 1 | white << 8
}

/// How many of each hand kind are in the box, given `on_board` pieces on
/// the board (kings included), the hands' counts and `in_play(row)`, the
/// pieces of a row's kind on the board (promoted or not) and in both hands.
/// With all 40 pieces in play the box is empty and nothing is counted.
/// The error is a kind with more in play than a set holds.
pub(super) fn box_left(
    on_board: u32,
    hands: &[Counts; 2],
    in_play: impl Fn(usize) -> usize,
) -> Result<Counts, PieceKind> {
    let held: u32 = hands
        .iter()
        .flat_map(|h| h.to_le_bytes())
        .map(u32::from)
        .sum();
    let mut left = [0; 7];
    // A position never holds more of a kind than a set (it refuses such a
    // setup and moves keep the counts): with all 40 pieces the box is empty.
    if on_board + held != 40 {
        for (r, (row, n)) in ROWS.iter().zip(&mut left).enumerate() {
            let set = usize::from(SET[r]);
            *n = set.checked_sub(in_play(r)).ok_or(row.kind)? as u8;
        }
    }
    Ok(counts(left))
}

/// Seven counts of the hand kinds in [`ROWS`] order, a byte each, the
/// pawns' lowest: one word, so that a frame's are compared and copied at
/// once.
pub(super) type Counts = u64;

/// `counts` as [`Counts`].
pub(super) fn counts(counts: [u8; 7]) -> Counts {
    let mut bytes = [0; 8];
    bytes[..7].copy_from_slice(&counts);
    u64::from_le_bytes(bytes)
}

/// One piece of a hand kind, as [`Counts`] add it.
fn one_of(kind: PieceKind) -> Counts {
    1u64.wrapping_shl(8 * kind.index() as u32)
}

/// How many pieces of a hand kind `pos` holds on the board (promoted or
/// not) and in both hands.
fn in_play(pos: &Position, kind: PieceKind) -> usize {
    let on_board =
        |k: PieceKind| (pos.pieces(Color::Black, k) | pos.pieces(Color::White, k)).count() as usize;
    let held = |c: Color| usize::from(pos.hand(c).count(kind));
    on_board(kind) + kind.promote().map_or(0, on_board) + held(Color::Black) + held(Color::White)
}
