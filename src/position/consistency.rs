//! A debug-only check, run after every move played: the caches a
//! [`Position`] keeps beside its board (the bitboards by colour and by
//! kind, the king squares, the Zobrist key and the checkers) agree with a recomputation
//! from the board, the hands and the side to move. Tests build with debug
//! assertions, so the whole test suite runs it; release builds hold none
//! of it.

use super::Position;

impl Position {
    /// Panics, naming the cache that differs, unless every cache agrees
    /// with the board and hands.
    pub(super) fn assert_consistent(&self) {
        let fresh = Position::build(&self.to_setup()).0;
        for (agrees, what) in [
            (self.by_color == fresh.by_color, "the bitboards by colour"),
            (self.by_kind == fresh.by_kind, "the bitboards by kind"),
            (self.kings == fresh.kings, "the king squares"),
            (self.key == fresh.key, "the Zobrist key"),
            (self.checkers == fresh.checkers, "the checkers"),
        ] {
            assert!(agrees, "{what} disagree with the board: {}", self.sfen());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::zobrist;
    use crate::{Color, PieceKind, Position, Square};

    fn after_7g7f() -> Position {
        let mut pos = Position::startpos();
        pos.play_usi("7g7f", 1).unwrap();
        pos
    }

    #[test]
    fn a_played_position_is_consistent() {
        let mut pos =
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1").unwrap();
        for mv in ["R*5e", "5a4b", "5e5a+", "4b5a"] {
            pos.play_usi(mv, 1).unwrap();
            pos.assert_consistent();
        }
    }

    #[test]
    #[should_panic(expected = "the bitboards by colour disagree with the board")]
    fn a_stale_colour_bitboard_is_caught() {
        let mut pos = after_7g7f();
        pos.by_color[Color::Black.index()] = pos.by_color[Color::White.index()];
        pos.assert_consistent();
    }

    #[test]
    #[should_panic(expected = "the bitboards by kind disagree with the board")]
    fn a_stale_kind_bitboard_is_caught() {
        let mut pos = after_7g7f();
        pos.by_kind[PieceKind::Pawn.index()] = pos.by_kind[PieceKind::Lance.index()];
        pos.assert_consistent();
    }

    #[test]
    #[should_panic(expected = "the king squares disagree with the board")]
    fn a_stale_king_square_is_caught() {
        let mut pos = after_7g7f();
        pos.kings[Color::White.index()] = Square::new(5, 2).unwrap().index() as u8;
        pos.assert_consistent();
    }

    #[test]
    #[should_panic(expected = "the checkers disagree with the board")]
    fn stale_checkers_are_caught() {
        let mut pos = after_7g7f();
        pos.checkers = crate::Bitboard::from_square(Square::new(5, 1).unwrap());
        pos.assert_consistent();
    }

    #[test]
    fn checkers_follow_direct_and_uncovered_checks() {
        // A move that uncovers the rook behind it, then a drop that checks.
        let mut pos = Position::from_sfen("4k4/9/9/9/4G4/9/9/9/4R3K b B 1").unwrap();
        pos.play_usi("5e4e", 1).unwrap();
        assert_eq!(pos.checkers().count(), 1);
        pos.play_usi("5a4a", 2).unwrap();
        pos.play_usi("B*6c", 3).unwrap();
        assert_eq!(
            pos.checkers(),
            crate::Bitboard::from_square(Square::new(6, 3).unwrap())
        );
        pos.assert_consistent();
    }

    #[test]
    #[should_panic(expected = "the Zobrist key disagree with the board")]
    fn a_stale_key_is_caught() {
        let mut pos = after_7g7f();
        pos.key ^= zobrist::white_to_move();
        pos.assert_consistent();
    }
}
