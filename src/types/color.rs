use std::fmt;
use std::ops::Not;

/// The two players. Black (先手, or 下手 in a handicap game) moves first in an
/// even game; White (後手, or 上手) moves first in a handicap game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手 (sente): moves first in an even game; upper-case letters in SFEN,
    /// `+` in CSA, `▲` in KIF.
    Black = 0,
    /// 後手 (gote): moves second in an even game, first in a handicap game;
    /// lower-case letters in SFEN, `-` in CSA, `△` in KIF.
    White = 1,
}

impl Color {
    /// Both colors, Black first (the order of [`Color::index`]).
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White: an index into per-color tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The USI / SFEN letter for the side to move: `b` or `w`.
    pub const fn usi_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The CSA sign: `+` or `-`.
    pub const fn csa_char(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }

    /// The mark a KIF or KI2 move carries: `▲` or `△`.
    pub const fn triangle(self) -> char {
        match self {
            Color::Black => '▲',
            Color::White => '△',
        }
    }

    /// The other player (a `const` spelling of `!color`).
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}
