//! Move specs: what a move text says, before any board is consulted.
//!
//! KIF, KI2, CSA and Western notation all read into a [`MoveSpec`]; the
//! resolver turns a spec and a position into a [`Move`](crate::Move).

use crate::{Color, PieceKind, Square};

/// Where the move goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Destination {
    /// A square written out (`７六`, `76`, `7f`).
    Square(Square),
    /// 同: the square of the previous move.
    Same,
}

/// What the text says about promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Promotion {
    /// Nothing written: no promotion.
    #[default]
    Unmarked,
    /// 成, `+`: the piece promotes.
    Promote,
    /// 不成, 生, `=`: the piece could promote and does not.
    Decline,
    /// CSA: the piece is named as it stands after the move, so a promotion
    /// shows as a change of name (`+2822UM` moves a bishop and promotes).
    ByName,
}

/// Whether the text marks the move as a drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DropMark {
    /// Nothing written: a board move if one fits, else a drop.
    #[default]
    Unmarked,
    /// 打, `*`.
    Drop,
}

/// 左 / 右 / 直: where the moving piece stood, seen by its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Horizontal {
    /// 左: the leftmost of the pieces that could move there.
    Left,
    /// 右: the rightmost.
    Right,
    /// 直: straight forward, on the same file.
    Straight,
}

/// 上 (also 行, 入) / 引 / 寄: which way the piece moved, seen by its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertical {
    /// 上: towards the opponent.
    Up,
    /// 引: back towards its own side.
    Down,
    /// 寄: sideways, on the same rank.
    Sideways,
}

/// What the text claims about capturing (Western `x` or `-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CaptureClaim {
    #[default]
    /// Nothing written.
    Unmarked,
    /// `x`: the move captures.
    Capture,
    /// `-`: the move captures nothing.
    NoCapture,
}

/// What the text claims about check (Western `#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CheckClaim {
    #[default]
    /// Nothing written.
    Unmarked,
    /// `#`: the move mates.
    Mate,
}

/// A move as written: destination and piece always, anything else only if
/// the text said it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveSpec {
    /// ▲ / △ (or `+` / `-`), when written.
    pub color: Option<Color>,
    /// Where the move goes: a square, or 同 (the previous move's square).
    pub to: Destination,
    /// The piece as written: 全 and 成銀 are both `ProSilver`, 竜 is `Dragon`.
    pub piece: PieceKind,
    /// The origin, when written (KIF `(77)`, CSA, Western `G6h-5h`).
    pub from: Option<Square>,
    /// What the text says about promotion.
    pub promotion: Promotion,
    /// Whether the text marks a drop (打, `*`).
    pub drop: DropMark,
    /// 左 / 右 / 直, when written.
    pub horizontal: Option<Horizontal>,
    /// 上 / 引 / 寄, when written.
    pub vertical: Option<Vertical>,
    /// Western `x` / `-`, when written.
    pub capture: CaptureClaim,
    /// Western `#`, when written.
    pub check: CheckClaim,
}

impl MoveSpec {
    /// A spec with only a destination and a piece.
    pub const fn new(to: Destination, piece: PieceKind) -> MoveSpec {
        MoveSpec {
            color: None,
            to,
            piece,
            from: None,
            promotion: Promotion::Unmarked,
            drop: DropMark::Unmarked,
            horizontal: None,
            vertical: None,
            capture: CaptureClaim::Unmarked,
            check: CheckClaim::Unmarked,
        }
    }
}
