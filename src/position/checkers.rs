//! The pieces giving check to the side to move, kept in the [`Position`]
//! and brought up to date by each move played, so that asking "is this
//! move legal?" or "is the side to move in check?" costs a field read
//! instead of a search for every attacker of the king.
//!
//! After a legal move, only two kinds of piece can check the other king:
//! the piece that moved, from its new square, and a slider of the mover's
//! whose line to the king ran through the square the piece left. Every
//! other piece of the mover's already stood where it stands, and the king
//! it would now attack could have been taken a move earlier: a legal move
//! never leaves its own king attacked. (After an illegal move, which
//! [`Position::play_unchecked`] does not check, that reasoning fails, as
//! the rest of the position's rules do.)

use super::bitboard::{self, between, Bitboard};
use super::Position;
use crate::{Color, PieceKind, Square};

impl Position {
    /// Every piece of the side not to move that attacks the side to move's
    /// king, found from scratch: what [`Position::checkers`] holds.
    pub(super) fn find_checkers(&self) -> Bitboard {
        match self.king(self.side) {
            Some(king) => self.attackers_to(king, !self.side, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The checkers after the move just played, which left `from` (none
    /// for a drop) and ended on `to`: the moved piece if it attacks the
    /// king, and the slider it uncovered if one now does. Inlined into
    /// both ways a move is played (with two callers the compiler kept it
    /// out of line, which was slower).
    #[inline(always)]
    pub(super) fn checkers_after_move(&self, from: Option<Square>, to: Square) -> Bitboard {
        let mover = !self.side;
        let Some(king) = self.king(self.side) else {
            return Bitboard::EMPTY;
        };
        let occupied = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        if let Some(piece) = self.board[to.index()] {
            if bitboard::reaches(mover, piece.kind, to, king, occupied) {
                checkers |= Bitboard::from_square(to);
            }
        }
        // Most moves leave a square on no line through the king, or on one
        // with none of the mover's sliders: those two tests are made here,
        // the search beyond only for the others.
        let uncovers = |from| bitboard::aligned(king, from) && self.slider_beyond(king, from);
        if let Some(from) = from.filter(|&from| uncovers(from)) {
            if let Some(slider) = self.uncovered_slider(king, from, mover, occupied) {
                checkers |= Bitboard::from_square(slider);
            }
        }
        checkers
    }

    /// The slider of `mover`'s that attacks `king` along the line through
    /// the now empty square `from`, if there is one; `from` stands on a
    /// line through `king`. Out of line: asked only of those moves.
    #[inline(never)]
    fn uncovered_slider(
        &self,
        king: Square,
        from: Square,
        mover: Color,
        occupied: Bitboard,
    ) -> Option<Square> {
        use PieceKind::*;
        if !(between(king, from) & occupied).is_empty() {
            return None;
        }
        let beyond = bitboard::first_beyond(king, from, occupied)?;
        let piece = self.board[beyond.index()]?;
        if piece.color != mover {
            return None;
        }
        let attacks = match piece.kind {
            Rook | Dragon => bitboard::orthogonal(king, from),
            Bishop | Horse => !bitboard::orthogonal(king, from),
            Lance => bitboard::lance_ray(mover, beyond).contains(king),
            _ => false,
        };
        attacks.then_some(beyond)
    }
}
