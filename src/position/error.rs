use crate::{Color, Move, PieceKind, Square};
use std::fmt;

/// SFEN text that does not describe a board, hands and side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// A field is missing (`board`, `side to move`, `hand`).
    MissingField {
        /// Which field: `"board"`, `"side to move"` or `"hand"`.
        field: &'static str,
    },
    /// A character that is not a piece letter, `+`, a digit 1–9 or `/`.
    BadBoardChar {
        /// The character not understood (a letter after `+` that cannot
        /// promote, or `+` itself when a rank ends on it).
        ch: char,
        /// The rank it is in, 1–9 counted from the top as SFEN lists them.
        rank: u8,
        /// That rank's text, at most 40 characters.
        text: String,
    },
    /// A rank that does not add up to nine squares.
    RankLength {
        /// The rank, 1–9 counted from the top.
        rank: u8,
        /// How many squares it covers (counting stops at the first past 9).
        squares: usize,
        /// The rank's text, at most 40 characters.
        text: String,
    },
    /// More or fewer than nine ranks.
    RankCount {
        /// How many `/`-separated ranks the board field has.
        count: usize,
    },
    /// The side to move is neither `b` nor `w`.
    BadSide {
        /// The side field as written, at most 40 characters.
        text: String,
    },
    /// A hand that is not `-` or counts and piece letters.
    BadHand {
        /// The hand field as written, at most 40 characters.
        text: String,
    },
    /// A move number that is not a positive integer.
    BadMoveNumber {
        /// The move-number field as written, at most 40 characters.
        text: String,
    },
    /// Text after the move number.
    TrailingText {
        /// The first extra field, at most 40 characters.
        text: String,
    },
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField { field } => write!(f, "SFEN has no {field} field"),
            SfenError::BadBoardChar { ch, rank, text } => write!(
                f,
                "bad character `{ch}` in SFEN rank {rank} `{text}` (expected a piece letter PLNSGBRK or plnsgbrk, `+`, or a digit 1-9)"
            ),
            SfenError::RankLength { rank, squares, text } => write!(
                f,
                "SFEN rank {rank} `{text}` covers {squares} squares (expected 9)"
            ),
            SfenError::RankCount { count } => {
                write!(f, "SFEN board has {count} ranks (expected 9, separated by `/`)")
            }
            SfenError::BadSide { text } => {
                write!(f, "bad side to move `{text}` in SFEN (expected `b` or `w`)")
            }
            SfenError::BadHand { text } => write!(
                f,
                "bad hand `{text}` in SFEN (expected `-` or counts and letters such as `S2Pb3p`)"
            ),
            SfenError::BadMoveNumber { text } => {
                write!(f, "bad move number `{text}` in SFEN (expected a positive integer)")
            }
            SfenError::TrailingText { text } => {
                write!(f, "unexpected `{text}` after the SFEN move number")
            }
        }
    }
}

impl std::error::Error for SfenError {}

/// A board that is well formed but cannot be a shogi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A side has no king, and the [`KingRule`](super::KingRule) in force
    /// requires both.
    MissingKing {
        /// The side without a king.
        color: Color,
    },
    /// A side has more than one king.
    ExtraKing {
        /// The side with several kings.
        color: Color,
        /// Where its kings stand, in square index order.
        squares: Vec<Square>,
    },
    /// More pieces of a kind (counting promoted ones and both hands) than a
    /// set holds.
    TooManyPieces {
        /// The unpromoted kind counted.
        kind: PieceKind,
        /// How many there are, on the board (promoted or not) and in both
        /// hands.
        count: u32,
        /// How many a set holds (18 pawns, 4 lances, …, 2 kings).
        max: u32,
    },
    /// A pawn or lance on its last rank, or a knight on its last two.
    DeadPiece {
        /// Whose piece it is.
        color: Color,
        /// Pawn, lance or knight.
        kind: PieceKind,
        /// Where it stands (the lowest square index, if there are several).
        square: Square,
    },
    /// Two unpromoted pawns of one color on a file (二歩).
    DoublePawn {
        /// Whose pawns they are.
        color: Color,
        /// The file, 1–9.
        file: u8,
    },
    /// The side that has just moved is in check: its king could be taken.
    OpponentInCheck {
        /// The side not to move, whose king is attacked.
        color: Color,
        /// Where that king stands.
        king: Square,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::MissingKing { color } => write!(f, "{color} has no king"),
            SetupError::ExtraKing { color, squares } => {
                write!(f, "{color} has {} kings (on", squares.len())?;
                for sq in squares {
                    write!(f, " {sq}")?;
                }
                write!(f, "); expected one")
            }
            SetupError::TooManyPieces { kind, count, max } => write!(
                f,
                "{count} pieces of kind {} on the board and in hand; a set has only {max}",
                kind.usi_letter()
            ),
            SetupError::DeadPiece { color, kind, square } => write!(
                f,
                "{color} {} on {square} could never move (a pawn or lance on the last rank, or a knight on the last two)",
                kind.usi_letter()
            ),
            SetupError::DoublePawn { color, file } => {
                write!(f, "{color} has two unpromoted pawns on file {file} (nifu)")
            }
            SetupError::OpponentInCheck { color, king } => write!(
                f,
                "{color}'s king on {king} is in check, but it is not {color}'s move"
            ),
        }
    }
}

impl SetupError {
    /// The square the error is about, where it names one: the last of the
    /// extra kings, the piece that could never move, the king in check.
    pub fn square(&self) -> Option<Square> {
        match self {
            SetupError::ExtraKing { squares, .. } => squares.last().copied(),
            SetupError::DeadPiece { square, .. } => Some(*square),
            SetupError::OpponentInCheck { king, .. } => Some(*king),
            SetupError::MissingKing { .. }
            | SetupError::TooManyPieces { .. }
            | SetupError::DoublePawn { .. } => None,
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a position could not be read from SFEN: bad text, or a bad board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is not well-formed SFEN.
    Sfen(SfenError),
    /// The SFEN reads, but the board breaks a rule.
    Setup(SetupError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Sfen(e) => e.fmt(f),
            PositionError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<SfenError> for PositionError {
    fn from(e: SfenError) -> Self {
        PositionError::Sfen(e)
    }
}

impl From<SetupError> for PositionError {
    fn from(e: SetupError) -> Self {
        PositionError::Setup(e)
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// No piece on the origin square.
    NoPiece,
    /// The piece on the origin square is the opponent's.
    NotOwnPiece,
    /// The piece cannot reach the destination (or something is in the way).
    CannotReach,
    /// The destination holds one of the mover's own pieces.
    OwnPieceOnTarget,
    /// Promotion asked for a piece that cannot promote, or outside the zone.
    CannotPromote,
    /// No promotion where the piece could never move again.
    MustPromote,
    /// A drop of a piece not held in hand.
    NotInHand,
    /// A drop on an occupied square.
    DropOnOccupied,
    /// A drop where the piece could never move.
    DropDeadSquare,
    /// A pawn dropped on a file that has an unpromoted pawn of the same color (二歩).
    DoublePawn,
    /// A pawn drop that mates (打ち歩詰め).
    PawnDropMate,
    /// The move leaves the mover's king attacked.
    KingLeftInCheck,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::NoPiece => "there is no piece on the origin square",
            IllegalMove::NotOwnPiece => "the piece on the origin square belongs to the opponent",
            IllegalMove::CannotReach => "the piece cannot reach that square",
            IllegalMove::OwnPieceOnTarget => "the destination holds the mover's own piece",
            IllegalMove::CannotPromote => "that piece cannot promote on this move",
            IllegalMove::MustPromote => "the piece must promote there (it could never move again)",
            IllegalMove::NotInHand => "that piece is not in hand",
            IllegalMove::DropOnOccupied => "a piece cannot be dropped on an occupied square",
            IllegalMove::DropDeadSquare => "a piece cannot be dropped where it could never move",
            IllegalMove::DoublePawn => {
                "二歩 (nifu, two pawns on a file): a second unpromoted pawn on one file"
            }
            IllegalMove::PawnDropMate => "a pawn drop may not give mate (uchifuzume)",
            IllegalMove::KingLeftInCheck => "the move leaves the king in check",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// A USI move that could not be read or played, with the ply it was at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiMoveError {
    /// 1-based ply number in the sequence being played.
    pub ply: u32,
    /// The move text as given.
    pub text: String,
    /// What was wrong with it.
    pub kind: UsiMoveErrorKind,
}

/// Why a USI move in a sequence failed: its syntax, or its legality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiMoveErrorKind {
    /// Not USI move syntax.
    Syntax,
    /// Well formed, but not legal here.
    Illegal {
        /// The move as parsed.
        mv: Move,
        /// The rule it breaks in the position reached so far.
        reason: IllegalMove,
    },
}

impl fmt::Display for UsiMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            UsiMoveErrorKind::Syntax => write!(
                f,
                "move {}: `{}` is not a USI move (expected a move like 7g7f, 8h2b+ or P*5e)",
                self.ply, self.text
            ),
            UsiMoveErrorKind::Illegal { reason, .. } => {
                write!(f, "move {}: `{}` is illegal: {reason}", self.ply, self.text)
            }
        }
    }
}

impl std::error::Error for UsiMoveError {}
