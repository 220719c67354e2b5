use std::fmt;

/// One of the 81 squares, named by file (1–9, right to left as Black sees the
/// board) and rank (1–9, top to bottom; USI writes ranks as `a`–`i`).
///
/// Stored as a single index, file-major: `(file - 1) * 9 + (rank - 1)`, so
/// that square 0 is `1a` and square 80 is `9i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

impl Square {
    /// The square at `file`, `rank` (both 1–9), or `None` off the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square with this index (0–80), or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with this index, which the caller knows is below 81.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < 81);
        Square(index as u8)
    }

    /// Every square, from `1a` to `9i` in index order.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..81u8).map(Square)
    }

    /// The square's index, 0–80: `(file - 1) * 9 + (rank - 1)`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 1–9.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank, 1–9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The square seen from the other side of the board (the 180° rotation).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The rank as the player of that color counts it: Black's rank 1 is
    /// White's rank 9. Promotion zones and dead squares are ranks 1–3 here.
    #[inline]
    pub const fn relative_rank(self, color: super::Color) -> u8 {
        match color {
            super::Color::Black => self.rank(),
            super::Color::White => 10 - self.rank(),
        }
    }

    /// Parses the USI name of a square: `7g`.
    pub fn from_usi(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a' + 1),
            _ => None,
        }
    }

    /// The USI name, `7g`.
    pub fn usi(self) -> UsiSquare {
        UsiSquare(self)
    }

    /// The CSA name, `77`.
    pub fn csa(self) -> CsaSquare {
        CsaSquare(self)
    }

    /// The Japanese name as KIF and KI2 write it, `７七`.
    pub fn japanese(self) -> JapaneseSquare {
        JapaneseSquare(self)
    }
}

/// Displays a square in USI notation (`7g`).
#[derive(Clone, Copy, Debug)]
pub struct UsiSquare(Square);
/// Displays a square in CSA notation (`77`).
#[derive(Clone, Copy, Debug)]
pub struct CsaSquare(Square);
/// Displays a square in Japanese notation (`７七`).
#[derive(Clone, Copy, Debug)]
pub struct JapaneseSquare(Square);

impl fmt::Display for UsiSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, rank) = (self.0.file(), self.0.rank());
        write!(f, "{}{}", file, (b'a' + rank - 1) as char)
    }
}

impl fmt::Display for CsaSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0.file(), self.0.rank())
    }
}

impl fmt::Display for JapaneseSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, rank) = (self.0.file() as usize, self.0.rank() as usize);
        write!(
            f,
            "{}{}",
            FULL_WIDTH_DIGITS[file - 1],
            KANJI_DIGITS[rank - 1]
        )
    }
}

/// A square displays in USI notation unless another is asked for.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.usi().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    #[test]
    fn names_in_three_notations() {
        let sq = Square::new(7, 7).unwrap();
        assert_eq!(sq.usi().to_string(), "7g");
        assert_eq!(sq.csa().to_string(), "77");
        assert_eq!(sq.japanese().to_string(), "７七");
        let corner = Square::new(1, 1).unwrap();
        assert_eq!(corner.index(), 0);
        assert_eq!(corner.to_string(), "1a");
        assert_eq!(Square::new(9, 9).unwrap().index(), 80);
    }

    #[test]
    fn usi_round_trip_and_bounds() {
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.to_string()), Some(sq));
            assert_eq!(sq.flip().flip(), sq);
            assert_eq!(sq.flip().file(), 10 - sq.file());
            assert_eq!(sq.flip().rank(), 10 - sq.rank());
        }
        assert_eq!(Square::new(0, 1), None);
        assert_eq!(Square::new(1, 10), None);
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
        assert_eq!(Square::from_usi("1"), None);
    }

    #[test]
    fn relative_rank() {
        let sq = Square::from_usi("3c").unwrap();
        assert_eq!(sq.relative_rank(Color::Black), 3);
        assert_eq!(sq.relative_rank(Color::White), 7);
    }
}
