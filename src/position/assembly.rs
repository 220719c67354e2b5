//! A position put together one piece at a time: the one way a
//! [`Position`] is built. [`Position::from_setup`] walks a [`Setup`]'s board
//! into it; a reader that meets the pieces in order (a packed position)
//! puts them straight in, with no board of its own between. The position
//! is built where it will stay, so a reader can fill one it already holds.

use super::{zobrist, KingRule, Position, SetupError, NO_KING};
use crate::position::bitboard::Bitboard;
#[cfg(doc)]
use crate::Setup;
use crate::{Color, Hand, Piece, PieceKind, Square};

impl Position {
    /// An empty board, empty hands and no kings: storage for an
    /// [`Assembly`], not a position to play on.
    pub(crate) const fn blank() -> Position {
        Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            move_number: 1,
            kings: [NO_KING; 2],
            key: 0,
            checkers: Bitboard::EMPTY,
        }
    }
}

/// A position being built in place: pieces on empty squares and pieces
/// in hand, then [`Assembly::finish`] or [`Assembly::check`].
pub(crate) struct Assembly<'p> {
    pos: &'p mut Position,
    census: Census,
}

/// How many pieces an [`Assembly`] put on the board, both colours
/// together, by unpromoted kind (a promoted piece counts as its kind):
/// what the rule of a set's counts checks, counted as the pieces go in.
pub(crate) struct Census([u8; 8]);

impl Census {
    /// The pieces of `base` (unpromoted) and its promoted kind on the board.
    #[inline]
    pub(crate) fn on_board(&self, base: PieceKind) -> u32 {
        u32::from(self.0[base.index()])
    }
}

impl<'p> Assembly<'p> {
    /// Empties `pos` to build in it: `side` to move at `move_number`.
    #[inline]
    pub(crate) fn over(pos: &'p mut Position, side: Color, move_number: u32) -> Assembly<'p> {
        *pos = Position::blank();
        pos.side = side;
        pos.move_number = move_number;
        Assembly {
            pos,
            census: Census([0; 8]),
        }
    }

    /// Puts `piece` on `sq`, which is still empty.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.pos.board[sq.index()].is_none(), "{sq} is taken");
        self.pos.put(sq, piece);
        self.census.0[piece.kind.unpromote().index()] += 1;
    }

    /// Adds one `kind` to `color`'s hand.
    #[inline]
    pub(crate) fn add_to_hand(&mut self, color: Color, kind: PieceKind) {
        self.pos.hands[color.index()].add(kind);
    }

    /// Sets both hands at once, indexed by [`Color::index`].
    #[inline]
    pub(crate) fn set_hands(&mut self, hands: [Hand; 2]) {
        self.pos.hands = hands;
    }

    /// Completes the key and the checkers, with no rule checked; gives
    /// the position and the count of the pieces put.
    #[inline]
    pub(crate) fn finish(self) -> (&'p Position, Census) {
        let Assembly { pos, census } = self;
        for color in Color::ALL {
            for (kind, n) in pos.hands[color.index()].kinds() {
                pos.key ^= zobrist::hand(color, kind, n);
            }
        }
        if pos.side == Color::White {
            pos.key ^= zobrist::white_to_move();
        }
        pos.checkers = pos.find_checkers();
        (pos, census)
    }

    /// Completes the position and checks it against the rules, as
    /// [`Position::from_setup`] checks a [`Setup`]. On an error the
    /// position built is no position to use.
    #[inline]
    pub(crate) fn check(self, kings: KingRule) -> Result<(), SetupError> {
        let (pos, census) = self.finish();
        pos.validate(kings, &census)
    }
}
