use super::{PieceKind, Square};
use std::fmt;
use std::str::FromStr;

/// A move, exactly as much as USI can say: a board move with its origin and
/// whether it promotes, or a drop of a piece from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece already on the board moves from one square to another.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square it arrives on, capturing the piece there if any.
        to: Square,
        /// Whether the piece promotes on arrival.
        promote: bool,
    },
    /// A piece held in hand is put on an empty square.
    Drop {
        /// The kind dropped: one a hand can hold (pawn to rook), never promoted.
        kind: PieceKind,
        /// The empty square it is dropped on.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square of a board move; `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether this is a drop from the hand.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// Whether this is a board move that promotes (never true for a drop).
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// The same move seen from the other side of the board: both squares
    /// rotated 180° (`7g7f` ↔ `3c3d`; `P*5e` stays `P*5e`).
    #[inline]
    pub const fn flip(self) -> Move {
        match self {
            Move::Normal { from, to, promote } => Move::Normal {
                from: from.flip(),
                to: to.flip(),
                promote,
            },
            Move::Drop { kind, to } => Move::Drop {
                kind,
                to: to.flip(),
            },
        }
    }

    /// Appends the USI text of the move (`7g7f`, `8h2b+`, `P*5e`) without
    /// going through the formatting machinery: writers call this per move.
    pub fn push_usi(self, out: &mut String) {
        let square = |out: &mut String, sq: Square| {
            out.push((b'0' + sq.file()) as char);
            out.push((b'a' + sq.rank() - 1) as char);
        };
        match self {
            Move::Normal { from, to, promote } => {
                square(out, from);
                square(out, to);
                if promote {
                    out.push('+');
                }
            }
            Move::Drop { kind, to } => {
                out.push(kind.usi_letter());
                out.push('*');
                square(out, to);
            }
        }
    }

    /// Appends a space and the USI text of the move (` 7g7f`, ` 8h2b+`, ` P*5e`) as ASCII
    /// bytes: what a USI `moves` list holds per move, for writers that build their output as
    /// bytes (the same text as [`Move::push_usi`], one reserve and store for the whole move).
    #[inline]
    pub fn push_usi_ascii(self, out: &mut Vec<u8>) {
        match self {
            Move::Normal { from, to, promote } => {
                let [from_file, from_rank] = SQUARE_USI[from.index()];
                let [to_file, to_rank] = SQUARE_USI[to.index()];
                out.extend_from_slice(&[b' ', from_file, from_rank, to_file, to_rank]);
                if promote {
                    out.push(b'+');
                }
            }
            Move::Drop { kind, to } => {
                let [to_file, to_rank] = SQUARE_USI[to.index()];
                // A USI piece letter is ASCII.
                let letter = kind.usi_letter() as u8;
                out.extend_from_slice(&[b' ', letter, b'*', to_file, to_rank]);
            }
        }
    }

    /// [`Move::push_usi_ascii`]'s bytes as the low bytes of a little-endian
    /// word, with how many of them count (5, or 6 for a promotion): a move
    /// list writer can store all eight bytes at once and advance by the
    /// count, with no test of the vector's room or of the move's shape per
    /// byte. The bytes past the count are not part of the text.
    ///
    /// Taken by reference, so that a writer walking the moves where they
    /// are stored reads each field in place (by value, the move was loaded
    /// whole and taken apart again).
    #[inline]
    pub fn usi_ascii_word(&self) -> (u64, usize) {
        let square = |sq: Square| u64::from(SQUARE_USI_WORD[sq.index() & 0xFF]);
        match *self {
            Move::Normal { from, to, promote } => (
                u64::from(b' ') | square(from) << 8 | square(to) << 24 | u64::from(b'+') << 40,
                5 + usize::from(promote),
            ),
            Move::Drop { kind, to } => {
                // A USI piece letter is ASCII.
                let letter = kind.usi_letter() as u8;
                (
                    u64::from(b' ')
                        | u64::from(letter) << 8
                        | u64::from(b'*') << 16
                        | square(to) << 24,
                    5,
                )
            }
        }
    }

    /// Parses USI move syntax (`7g7f`, `8h2b+`, `P*5e`) without looking at any
    /// board: whether the move is legal is `Position`'s question.
    pub fn from_usi(text: &str) -> Result<Move, MoveSyntaxError> {
        let bytes = text.as_bytes();
        let square = |range: std::ops::Range<usize>| {
            text.get(range)
                .and_then(Square::from_usi)
                .ok_or_else(|| MoveSyntaxError::new(text))
        };
        match bytes {
            [letter, b'*', _, _] => {
                let kind = PieceKind::from_usi_letter(*letter)
                    .filter(|kind| kind.is_hand_kind() && letter.is_ascii_uppercase())
                    .ok_or_else(|| MoveSyntaxError::new(text))?;
                Ok(Move::Drop {
                    kind,
                    to: square(2..4)?,
                })
            }
            [_, _, _, _] | [_, _, _, _, b'+'] => Ok(Move::Normal {
                from: square(0..2)?,
                to: square(2..4)?,
                promote: bytes.len() == 5,
            }),
            _ => Err(MoveSyntaxError::new(text)),
        }
    }
}

/// Each square's USI name (`7g`: its file digit, its rank letter), by [`Square::index`].
const SQUARE_USI: [[u8; 2]; 81] = {
    let mut names = [[0; 2]; 81];
    let mut index = 0;
    while index < 81 {
        // The index counts ranks within files, as `Square::file` and `Square::rank` read it.
        names[index] = [b'1' + (index / 9) as u8, b'a' + (index % 9) as u8];
        index += 1;
    }
    names
};

/// [`SQUARE_USI`] as little-endian 16-bit words, with an entry for every
/// byte value so that a square's index (below 81, held in a byte) needs no
/// bounds test; the entries past 80 are never read.
static SQUARE_USI_WORD: [u16; 256] = {
    let mut words = [0; 256];
    let mut index = 0;
    while index < 81 {
        words[index] = u16::from_le_bytes(SQUARE_USI[index]);
        index += 1;
    }
    words
};

impl FromStr for Move {
    type Err = MoveSyntaxError;
    fn from_str(text: &str) -> Result<Move, MoveSyntaxError> {
        Move::from_usi(text)
    }
}

/// A move displays in USI notation.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}")?;
                if promote {
                    f.write_str("+")?;
                }
                Ok(())
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.usi_letter()),
        }
    }
}

/// Text that is not a USI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSyntaxError {
    /// The offending text, cut to its first 40 characters.
    pub text: String,
}

impl MoveSyntaxError {
    fn new(text: &str) -> MoveSyntaxError {
        MoveSyntaxError {
            text: text.chars().take(40).collect(),
        }
    }
}

impl fmt::Display for MoveSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a USI move (expected a move like 7g7f, 8h2b+ or P*5e)",
            self.text
        )
    }
}

impl std::error::Error for MoveSyntaxError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i"] {
            assert_eq!(Move::from_usi(text).unwrap().to_string(), text);
        }
        for bad in [
            "", "7g7", "7g7f++", "K*5e", "p*5e", "+*5e", "7g7j", "0g7f", "P*5e+", "7g7f=",
        ] {
            assert!(Move::from_usi(bad).is_err(), "{bad} should be rejected");
        }
        // Multi-byte text must not panic when sliced.
        assert!(Move::from_usi("７g7f").is_err());
        assert!(Move::from_usi("P*５").is_err());
    }

    #[test]
    fn push_usi_matches_display() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i"] {
            let mv = Move::from_usi(text).unwrap();
            let mut out = String::new();
            mv.push_usi(&mut out);
            assert_eq!(out, mv.to_string());
        }
    }

    /// The byte writer gives a space and the same text as [`Move::push_usi`], for every
    /// board move (promoting or not) and every drop.
    #[test]
    fn push_usi_ascii_matches_push_usi_for_every_move() {
        let squares: Vec<Square> = (0..81u8)
            .map(|i| Square::from_usi(&format!("{}{}", i / 9 + 1, (b'a' + i % 9) as char)).unwrap())
            .collect();
        let mut moves = Vec::new();
        for &from in &squares {
            for &to in &squares {
                for promote in [false, true] {
                    moves.push(Move::Normal { from, to, promote });
                }
            }
        }
        for kind in PieceKind::ALL {
            for &to in &squares {
                moves.push(Move::Drop { kind, to });
            }
        }
        for mv in moves {
            let mut text = String::from(" ");
            mv.push_usi(&mut text);
            let mut bytes = Vec::new();
            mv.push_usi_ascii(&mut bytes);
            assert_eq!(bytes, text.as_bytes(), "{mv:?}");
            let (word, len) = mv.usi_ascii_word();
            assert_eq!(&word.to_le_bytes()[..len], text.as_bytes(), "{mv:?}");
        }
    }

    #[test]
    fn flip() {
        let flipped = |text: &str| Move::from_usi(text).unwrap().flip().to_string();
        assert_eq!(flipped("7g7f"), "3c3d");
        assert_eq!(flipped("8h2b+"), "2b8h+");
        assert_eq!(flipped("P*5e"), "P*5e");
        assert_eq!(flipped("N*1a"), "N*9i");
    }
}
