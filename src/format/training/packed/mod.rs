//! The 32-byte packed position that training data and books store: a
//! Huffman code per square and per piece in hand, in two dialects that
//! share the frame and differ in their codes — cshogi's HuffmanCodedPos
//! (HCP, used by HCPE and hcpe3) and YaneuraOu's PackedSfen (used by
//! PackedSfenValue).
//!
//! The frame, bit by bit from the least significant bit of byte 0: the side
//! to move (0 black), each king's square (7 bits, black's first), every other
//! square in index order (1a, 1b, …, 9i), black's hand then white's in the
//! order P L N S G B R, then the pieces in neither (the box, in handicap
//! games) in the same order. With two kings that is exactly 256 bits.
//!
//! [`pack`] writes that frame and [`unpack`] reads it back, both from the
//! one code table (`ROWS`): reading looks the next bits up in a table of
//! every window of bits, made from it.

use crate::position::{Assembly, KingRule, SetupError};
use crate::{Color, Move, Piece, PieceKind, Position, Square};
use bits::Bits;
use frame::Frame;
use last::Last;
use std::fmt;

/// Which code table a packed position uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// cshogi's HuffmanCodedPos (HCPE, hcpe3).
    Hcp,
    /// YaneuraOu's PackedSfen (PackedSfenValue).
    PackedSfen,
}

/// Why a position cannot be packed into 32 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// The frame has a square for each king: a position without both kings
    /// has no packed form.
    MissingKing(Color),
    /// More pieces of a kind than a set holds (18 pawns, 4 lances, knights,
    /// silvers and golds, 2 bishops and rooks), counting promoted ones. A
    /// [`Position`] never holds more (it refuses such a start); the check
    /// keeps packing from ever writing past 32 bytes.
    TooMany(PieceKind),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::MissingKing(c) => write!(
                f,
                "the position has no {} king; a packed position needs both",
                match c {
                    Color::Black => "black",
                    Color::White => "white",
                }
            ),
            PackError::TooMany(kind) => write!(
                f,
                "more {} ({}) than a set holds; a packed position cannot hold them",
                kind.csa(),
                kind.usi_letter()
            ),
        }
    }
}

impl std::error::Error for PackError {}

/// A code: its bits as emitted, first bit first.
#[derive(Clone, Copy)]
struct Code {
    bits: &'static str,
}

impl Code {
    /// The code as a number (its first bit the highest) and its length,
    /// from which the reading table ([`FOUND`]) is made.
    const fn numeric(self) -> Numeric {
        let bytes = self.bits.as_bytes();
        let mut value = 0;
        let mut i = 0;
        while i < bytes.len() {
            value = value << 1 | (bytes[i] == b'1') as u8;
            i += 1;
        }
        Numeric {
            value,
            len: bytes.len() as u8,
        }
    }
}

/// One row per hand kind (P L N S G B R): the prefix of its code on the
/// board (colour and promotion bits follow), in hand (colour follows), and
/// in the box (nothing follows), for each dialect. The codes of the two
/// dialects differ for knights, silvers and the box.
struct Row {
    kind: PieceKind,
    board: [Code; 2],
    hand: [Code; 2],
    boxed: [Code; 2],
}

const fn c(bits: &'static str) -> Code {
    Code { bits }
}

/// The one table: `[HCP, PackedSfen]` in each column.
const ROWS: [Row; 7] = [
    Row {
        kind: PieceKind::Pawn,
        board: [c("10"), c("10")],
        hand: [c("00"), c("00")],
        boxed: [c("010"), c("010")],
    },
    Row {
        kind: PieceKind::Lance,
        board: [c("1100"), c("1100")],
        hand: [c("1000"), c("1000")],
        boxed: [c("10010"), c("10010")],
    },
    Row {
        kind: PieceKind::Knight,
        board: [c("1110"), c("1101")],
        hand: [c("1100"), c("1010")],
        boxed: [c("11010"), c("10110")],
    },
    Row {
        kind: PieceKind::Silver,
        board: [c("1101"), c("1110")],
        hand: [c("1010"), c("1100")],
        boxed: [c("10110"), c("11010")],
    },
    Row {
        kind: PieceKind::Gold,
        board: [c("11110"), c("11110")],
        hand: [c("1110"), c("1110")],
        boxed: [c("10111"), c("11011")],
    },
    Row {
        kind: PieceKind::Bishop,
        board: [c("111110"), c("111110")],
        hand: [c("111110"), c("111100")],
        boxed: [c("1111000"), c("1111010")],
    },
    Row {
        kind: PieceKind::Rook,
        board: [c("111111"), c("111111")],
        hand: [c("111111"), c("111110")],
        boxed: [c("1111010"), c("1111110")],
    },
];

// The rows are in the order a hand counts its kinds (see `put_off_board`).
const _: () = {
    let mut r = 0;
    while r < ROWS.len() {
        assert!(ROWS[r].kind.index() == r);
        r += 1;
    }
};

/// How many of each hand kind a set holds, in [`ROWS`] order.
const SET: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];

/// A code's bits as a number, first bit highest, and how many there are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Numeric {
    value: u8,
    len: u8,
}

/// The codes of [`ROWS`] as numbers, for reading: `[section][dialect][row]`
/// with the sections board, hand and box, in the order [`Dialect`] indexes
/// the table's columns.
const NUMERIC: [[[Numeric; 7]; 2]; 3] = {
    let none = Numeric { value: 0, len: 0 };
    let mut out = [[[none; 7]; 2]; 3];
    let mut r = 0;
    while r < 7 {
        let mut d = 0;
        while d < 2 {
            out[BOARD][d][r] = ROWS[r].board[d].numeric();
            out[HAND][d][r] = ROWS[r].hand[d].numeric();
            out[BOX][d][r] = ROWS[r].boxed[d].numeric();
            d += 1;
        }
        r += 1;
    }
    out
};

/// The sections of [`NUMERIC`].
const BOARD: usize = 0;
const HAND: usize = 1;
const BOX: usize = 2;

/// The longest code of the table, in bits.
const LONGEST: u8 = 7;

/// The column of [`ROWS`] a dialect uses.
fn column(dialect: Dialect) -> usize {
    match dialect {
        Dialect::Hcp => 0,
        Dialect::PackedSfen => 1,
    }
}

/// A code ready to write: its bits with the first one emitted lowest,
/// and how many there are.
#[derive(Clone, Copy)]
struct Emit {
    bits: u64,
    len: u32,
}

impl Emit {
    /// [`Code`]'s bits, first emitted lowest.
    const fn of(code: Code) -> Emit {
        let bytes = code.bits.as_bytes();
        let mut bits = 0;
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'1' {
                bits |= 1 << i;
            }
            i += 1;
        }
        Emit {
            bits,
            len: bytes.len() as u32,
        }
    }

    /// The code with one more bit after it.
    const fn then(self, bit: bool) -> Emit {
        Emit {
            bits: self.bits | (bit as u64) << self.len,
            len: self.len + 1,
        }
    }
}

/// What [`pack`] writes for each piece, derived from [`ROWS`] once: on the
/// board `[dialect][row][white][promoted]` (the code, then the colour and
/// promotion bits in the dialect's order; a gold has no promotion bit), in
/// hand `[dialect][row][white]` (the code, then the colour), in the box
/// `[dialect][row]`.
struct Emits {
    board: [[[[Emit; 2]; 2]; 7]; 2],
    hand: [[[Emit; 2]; 7]; 2],
    boxed: [[Emit; 7]; 2],
}

static EMITS: Emits = {
    let none = Emit { bits: 0, len: 0 };
    let mut e = Emits {
        board: [[[[none; 2]; 2]; 7]; 2],
        hand: [[[none; 2]; 7]; 2],
        boxed: [[none; 7]; 2],
    };
    let mut d = 0;
    while d < 2 {
        let mut r = 0;
        while r < 7 {
            let row = &ROWS[r];
            let mut w = 0;
            while w < 2 {
                let white = w == 1;
                let mut p = 0;
                while p < 2 {
                    let promoted = p == 1;
                    let code = Emit::of(row.board[d]);
                    e.board[d][r][w][p] = if r == GOLD_ROW {
                        code.then(white)
                    } else if d == 0 {
                        code.then(white).then(promoted)
                    } else {
                        code.then(promoted).then(white)
                    };
                    p += 1;
                }
                e.hand[d][r][w] = Emit::of(row.hand[d]).then(white);
                w += 1;
            }
            e.boxed[d][r] = Emit::of(row.boxed[d]);
            r += 1;
        }
        d += 1;
    }
    e
};

/// `n` codes `e` one after the other, as one code (at most 64 bits).
const fn repeated(e: Emit, n: usize) -> Emit {
    let mut out = Emit { bits: 0, len: 0 };
    let mut i = 0;
    while i < n {
        out.bits |= e.bits << out.len;
        out.len += e.len;
        i += 1;
    }
    out
}

/// What [`pack`] writes for `n` pieces of a kind at once, derived from
/// [`EMITS`]: in a hand `[dialect][row][white][n]`, in the box
/// `[dialect][row][n]` (the longest, 18 pawns, is 54 bits).
struct Runs {
    hand: [[[[Emit; 19]; 2]; 7]; 2],
    boxed: [[[Emit; 19]; 7]; 2],
}

static RUNS: Runs = {
    let none = Emit { bits: 0, len: 0 };
    let mut runs = Runs {
        hand: [[[[none; 19]; 2]; 7]; 2],
        boxed: [[[none; 19]; 7]; 2],
    };
    let mut d = 0;
    while d < 2 {
        let mut r = 0;
        while r < 7 {
            let mut n = 0;
            while n <= SET[r] as usize {
                runs.hand[d][r][0][n] = repeated(EMITS.hand[d][r][0], n);
                runs.hand[d][r][1][n] = repeated(EMITS.hand[d][r][1], n);
                runs.boxed[d][r][n] = repeated(EMITS.boxed[d][r], n);
                n += 1;
            }
            r += 1;
        }
        d += 1;
    }
    runs
};

/// The gold's row in [`ROWS`]: the one kind that does not promote.
const GOLD_ROW: usize = 4;

/// What a square of the board is written as, by its place
/// (`[dialect][place]`): a piece's place is [`piece_index`], where a king
/// is nothing (the frame places it) and any other piece its [`EMITS`]
/// board code; an empty square's is [`EMPTY_PLACE`], a 0 bit. The table
/// has a place for every 6 bits, so that a masked place needs no check.
static PIECES: [[Emit; 64]; 2] = {
    let mut out = [[Emit { bits: 0, len: 0 }; 64]; 2];
    let mut d = 0;
    while d < 2 {
        out[d][EMPTY_PLACE as usize] = EMPTY_CODE;
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < 14 {
                if let Some(kind) = PieceKind::from_index(k) {
                    if let Some(r) = row_of(kind) {
                        let promoted = kind.is_promoted() as usize;
                        out[d][c * 16 + k] = EMITS.board[d][r][c][promoted];
                    }
                }
                k += 1;
            }
            c += 1;
        }
        d += 1;
    }
    out
};

/// An empty square's place in [`PIECES`].
const EMPTY_PLACE: u8 = 32;

/// An empty square's code, in both dialects: a 0 bit.
const EMPTY_CODE: Emit = Emit { bits: 0, len: 1 };

/// A piece's place in [`PIECES`]: colour × 16 + kind, kept in the table
/// by the mask.
fn piece_index(piece: Piece) -> usize {
    (piece.color.index() << 4 | piece.kind.index()) & 31
}

/// A kind's row in [`ROWS`] (a promoted kind's is its unpromoted one's);
/// `None` for the king.
const fn row_of(kind: PieceKind) -> Option<usize> {
    match kind.unpromote() {
        PieceKind::Pawn => Some(0),
        PieceKind::Lance => Some(1),
        PieceKind::Knight => Some(2),
        PieceKind::Silver => Some(3),
        PieceKind::Gold => Some(GOLD_ROW),
        PieceKind::Bishop => Some(5),
        PieceKind::Rook => Some(6),
        _ => None,
    }
}

/// Four words as 32 bytes, least significant first.
#[inline(always)]
fn to_bytes(words: [u64; 4]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The packed form of `pos` in `dialect` (a [`Packer`]'s first position).
///
/// ```
/// use kifconv::training::packed::{pack, Dialect};
/// use kifconv::Position;
///
/// let hcp = pack(&Position::startpos(), Dialect::Hcp).unwrap();
/// assert_eq!(hcp[..4], [0x58, 0xa4, 0x49, 0x21]);
/// ```
pub fn pack(pos: &Position, dialect: Dialect) -> Result<[u8; 32], PackError> {
    Packer::new(dialect).pack(pos)
}

/// Whether `pos` has a packed form, without packing it: the error [`pack`]
/// would give, if any.
pub(crate) fn packable(pos: &Position) -> Result<(), PackError> {
    Frame::of(pos).map(drop)
}

/// Packs positions one after another in a dialect, each as [`pack`] does.
/// It keeps the last position's board codes a file at a time: a position
/// given whole has only the files whose squares changed coded again, and a
/// move played on the packer replaces its squares' codes in their files.
/// What follows the board is copied from the last position when the hands
/// and the box are the same. So the positions of a game pack faster
/// through one packer than each alone. Any position may follow any other.
///
/// ```
/// use kifconv::training::packed::{pack, Dialect, Packer};
/// use kifconv::{Move, Position};
///
/// let mut packer = Packer::new(Dialect::Hcp);
/// let mut pos = Position::startpos();
/// for usi in ["7g7f", "3c3d", "8h2b+"] {
///     pos.play(Move::from_usi(usi).unwrap()).unwrap();
///     assert_eq!(packer.pack(&pos), pack(&pos, Dialect::Hcp));
/// }
/// ```
#[derive(Clone)]
pub struct Packer {
    files: files::Files,
    frame: Frame,
    last: Last,
}

impl Packer {
    /// A packer writing `dialect`.
    pub fn new(dialect: Dialect) -> Packer {
        Packer {
            files: files::Files::new(column(dialect)),
            frame: Frame::none(),
            last: Last::new(),
        }
    }

    /// The packed form of `pos`.
    pub fn pack(&mut self, pos: &Position) -> Result<[u8; 32], PackError> {
        let (words, _) = self.words::<false>(Some(pos))?;
        Ok(to_bytes(words))
    }

    /// A packer that has packed `start`, and what it packed. The even
    /// start, where most games begin, is packed once per process and its
    /// packer copied.
    pub(crate) fn starting(
        dialect: Dialect,
        start: &Position,
    ) -> (Packer, Result<[u8; 32], PackError>) {
        static EVEN: std::sync::OnceLock<[(Position, Packer, [u8; 32]); 2]> =
            std::sync::OnceLock::new();
        let even = EVEN.get_or_init(|| {
            [Dialect::Hcp, Dialect::PackedSfen].map(|dialect| {
                let (even, mut packer) = (Position::startpos(), Packer::new(dialect));
                let packed = packer.pack(&even).unwrap_or([0; 32]);
                (even, packer, packed)
            })
        });
        let (even, packer, packed) = &even[column(dialect)];
        // The sets, hands and side to move are all a packed position
        // holds; comparing them is cheaper than comparing the board.
        let same = |c: Color| start.hand(c) == even.hand(c);
        if start.key() == even.key()
            && start.sets() == even.sets()
            && same(Color::Black)
            && same(Color::White)
            && start.side_to_move() == even.side_to_move()
        {
            return (packer.clone(), Ok(*packed));
        }
        let mut packer = Packer::new(dialect);
        let packed = packer.pack(start);
        (packer, packed)
    }

    /// Plays `mv` on the last position packed (or played on), without a
    /// position: [`Packer::packed`] then packs the position it leads to.
    /// The move must be legal there; after an error, there is no position
    /// to play on until the next [`Packer::pack`].
    #[inline]
    pub(crate) fn play(&mut self, mv: Move) {
        let moved = self.files.play(mv, self.frame.side());
        self.frame.play(mv, moved);
    }

    /// The packed form of the position [`Packer::play`] led to, from the
    /// files' codes the moves left.
    #[inline(always)]
    pub(crate) fn packed(&mut self) -> Result<[u8; 32], PackError> {
        self.words::<false>(None).map(|(words, _)| to_bytes(words))
    }

    /// The packed form of `pos`, which is the last position this packer
    /// packed with `mv` played on it ([`Packer::play`], then
    /// [`Packer::packed`]).
    pub(crate) fn pack_after(&mut self, pos: &Position, mv: Move) -> Result<[u8; 32], PackError> {
        self.play(mv);
        let packed = self.packed();
        debug_assert_eq!(
            packed,
            pack(pos, self.dialect()),
            "{} after {mv}",
            pos.sfen()
        );
        packed
    }

    /// The words of `pos` in the packer's dialect, or without it of the
    /// position moves were played on to, and with `PAIR`, where the other
    /// dialect's differ.
    #[inline(always)]
    fn words<const PAIR: bool>(
        &mut self,
        pos: Option<&Position>,
    ) -> Result<([u64; 4], [u64; 4]), PackError> {
        let d = self.files.column();
        let codes = match pos {
            Some(pos) => {
                self.frame = Frame::of(pos).inspect_err(|_| self.frame = Frame::none())?;
                self.files.of::<PAIR>(pos)
            }
            None => self.files.coded::<PAIR>(),
        };
        walk::<PAIR>(&self.frame, codes, d, &mut self.last)?;
        Ok((self.last.words, self.last.flips))
    }

    /// The dialect the packer writes.
    pub fn dialect(&self) -> Dialect {
        match self.files.column() {
            0 => Dialect::Hcp,
            _ => Dialect::PackedSfen,
        }
    }

    /// Whether `pos` packs to `bytes`: the side to move and the kings'
    /// squares (the first 15 bits) are compared first, and the rest is
    /// packed only when they agree.
    /// With `after`, `pos` is the last position packed with that move
    /// played on it (as [`Packer::pack_after`] is told).
    pub(crate) fn packs_to(
        &mut self,
        pos: &Position,
        bytes: &[u8; 32],
        after: Option<Move>,
    ) -> bool {
        heads_agree(pos, bytes)
            && match after {
                Some(mv) => self.pack_after(pos, mv),
                None => self.pack(pos),
            }
            .is_ok_and(|packed| packed == *bytes)
    }

    /// `pos` packed in the other dialect, if it packs to `bytes`
    /// ([`Packer::packs_to`] and the other dialect's bytes in one walk).
    pub(crate) fn packs_to_then_other(
        &mut self,
        pos: &Position,
        bytes: &[u8; 32],
        after: Option<Move>,
    ) -> Option<[u8; 32]> {
        if !heads_agree(pos, bytes) {
            return None;
        }
        let (ours, other) = self.pack_both(pos, after).ok()?;
        (ours == *bytes).then_some(other)
    }

    /// `pos` packed in the packer's dialect and in the other one; `after`
    /// as [`Packer::packs_to`] is told.
    pub(crate) fn pack_both(
        &mut self,
        pos: &Position,
        after: Option<Move>,
    ) -> Result<([u8; 32], [u8; 32]), PackError> {
        if let Some(mv) = after {
            self.play(mv);
        }
        let (words, flips) = self.words::<true>(after.is_none().then_some(pos))?;
        let mut other = words;
        for (w, f) in other.iter_mut().zip(flips) {
            *w ^= f;
        }
        let both = (to_bytes(words), to_bytes(other));
        debug_assert!(
            after.is_none() || Ok(both) == Packer::new(self.dialect()).pack_both(pos, None),
            "{} after {after:?}",
            pos.sfen()
        );
        Ok(both)
    }
}

/// Writes a position in dialect column `d` over the `last` one's words
/// (and with `PAIR`, where the other column's bits differ): its `frame`,
/// its board from the files' `codes`, and what follows the board. The
/// head and every file are placed each time, without a branch; what
/// follows the board is written again only when the hands or the box are
/// not the last position's (after a capture or a drop).
#[inline(always)]
fn walk<const PAIR: bool>(
    frame: &Frame,
    codes: &[files::FileCode; 9],
    d: usize,
    last: &mut Last,
) -> Result<(), PackError> {
    // The files' codes moved on without these words: they keep nothing.
    let head = frame.head().inspect_err(|_| last.key = None)?;
    let key = [frame.hands[0], frame.hands[1], frame.left];
    // The last position's words, if they hold one (with its flips, when
    // they are wanted).
    let kept = last.key.take().filter(|_| PAIR <= last.paired);
    // One word more than the 256 bits, so that a file placed across the
    // last word's end needs no check.
    let (mut board, mut board_flips) = ([head, 0, 0, 0, 0], [0; 5]);
    let mut at = 15;
    for file in codes {
        place(&mut board, at, file.code.bits);
        if PAIR {
            place(&mut board_flips, at, file.flips);
        }
        at += file.code.len;
    }
    let Last {
        words,
        flips,
        end,
        after,
        ..
    } = last;
    if kept == Some(key) && at == *end {
        // What follows the board is the same bits in the same place.
        for (i, (w, f)) in words.iter_mut().zip(flips.iter_mut()).enumerate() {
            *w = board[i] | *w & after[i];
            if PAIR {
                *f = board_flips[i] | *f & after[i];
            }
        }
    } else {
        (*end, *after) = (at, after_bit(at));
        put_off_board(d, &frame.hands, frame.left, |e, other| {
            place(&mut board, at, e.bits);
            if PAIR {
                place(&mut board_flips, at, e.bits ^ other.bits);
            }
            at += e.len;
        });
        debug_assert_eq!(at, 256);
        for (i, (w, f)) in words.iter_mut().zip(flips.iter_mut()).enumerate() {
            (*w, *f) = (board[i], board_flips[i]);
        }
    }
    (last.key, last.paired) = (Some(key), PAIR);
    Ok(())
}

/// ORs `bits` (at most 64) into `words` from bit `at` on (below 256).
#[inline(always)]
fn place(words: &mut [u64; 5], at: u32, bits: u64) {
    let (i, shift) = ((at / 64) as usize & 3, at % 64);
    words[i] |= bits << shift;
    // The bits that cross into the next word; none when `shift` is 0.
    words[i + 1] |= bits >> 1 >> (63 - shift);
}

/// The bits of the 256 from bit `at` on, as four words.
fn after_bit(at: u32) -> [u64; 4] {
    let mut words = [0; 4];
    for (i, w) in words.iter_mut().enumerate() {
        let below = at.saturating_sub(64 * i as u32).min(64);
        *w = !(((1u128 << below) - 1) as u64);
    }
    words
}

/// Whether the side to move and the kings' squares of `pos` are the
/// first 15 bits of `bytes`.
#[inline(always)]
fn heads_agree(pos: &Position, bytes: &[u8; 32]) -> bool {
    let theirs = u64::from(u16::from_le_bytes([bytes[0], bytes[1]]) & 0x7fff);
    let king = |c: Color| pos.king(c).map(|sq| sq.index() as u64);
    match (king(Color::Black), king(Color::White)) {
        (Some(black), Some(white)) => frame::head(pos.side_to_move(), black, white) == theirs,
        _ => false,
    }
}

/// Gives `put` what follows the board in dialect column `d`, code by code
/// (each with the other dialect's code for the same thing): both `hands`,
/// then the box when it holds any piece, `left` counting each kind in it
/// (all as `frame::Counts`).
#[inline(always)]
fn put_off_board(d: usize, hands: &[u64; 2], left: u64, mut put: impl FnMut(Emit, Emit)) {
    for (white, &word) in hands.iter().enumerate() {
        // The kinds held as the lowest bit of their byte: each byte's bits
        // folded onto it.
        let folded = word | word >> 4;
        let folded = folded | folded >> 2;
        let mut held = (folded | folded >> 1) & 0x0001_0101_0101_0101;
        while held != 0 {
            // `ROWS` and the counts are in the same kind order.
            let at = held.trailing_zeros();
            held &= held - 1;
            let (r, n) = ((at / 8) as usize, ((word >> at) as u8).min(18));
            put(
                RUNS.hand[d][r][white][n as usize],
                RUNS.hand[1 - d][r][white][n as usize],
            );
        }
    }
    if left != 0 {
        for (r, n) in left.to_le_bytes().into_iter().take(7).enumerate() {
            let n = usize::from(n.min(18));
            put(RUNS.boxed[d][r][n], RUNS.boxed[1 - d][r][n]);
        }
    }
}

/// Why 32 bytes are no packed position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnpackError {
    /// The bits from this one on (counted from 0, the least significant
    /// bit of byte 0) begin no code of the table where a square, a piece in
    /// hand or a piece in the box was due.
    NoCode {
        /// Where the unreadable code starts.
        bit: usize,
    },
    /// The last code starts before bit 256 and would end after it.
    PastEnd {
        /// Where that code starts.
        bit: usize,
    },
    /// A king's 7-bit square is 81 or more: no square.
    KingSquare {
        /// Whose king.
        color: Color,
        /// The number stored.
        index: usize,
    },
    /// Both kings are given the same square.
    KingsOnOneSquare(Square),
    /// More pieces of a kind (on the board, in hand or in the box) than a
    /// set holds.
    TooMany(PieceKind),
    /// The pieces read make a position the rules refuse (see
    /// [`Position::from_setup`]).
    Rules(SetupError),
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackError::NoCode { bit } => write!(
                f,
                "the bits from bit {bit} on are the code of no piece and no empty square"
            ),
            UnpackError::PastEnd { bit } => write!(
                f,
                "the code starting at bit {bit} runs past the 256 bits of a packed position"
            ),
            UnpackError::KingSquare { color, index } => write!(
                f,
                "{color}'s king is on square number {index}; squares are numbered 0 to 80"
            ),
            UnpackError::KingsOnOneSquare(sq) => write!(f, "both kings are on {sq}"),
            UnpackError::TooMany(kind) => write!(
                f,
                "more {} ({}) than a set holds",
                kind.csa(),
                kind.usi_letter()
            ),
            UnpackError::Rules(e) => write!(f, "the position breaks a rule: {e}"),
        }
    }
}

impl std::error::Error for UnpackError {}

/// Bits read least significant first from 32 bytes.
struct Reader {
    /// The 32 bytes, then zeros: every bit a peek at bit 256 or before
    /// sees is in the array.
    words: [u64; 6],
    at: usize,
}

impl Reader {
    fn new(bytes: &[u8; 32]) -> Reader {
        let mut words = [0; 6];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut le = [0; 8];
            le.copy_from_slice(chunk);
            *word = u64::from_le_bytes(le);
        }
        Reader { words, at: 0 }
    }

    /// The bits from `at` (256 at most) on, the first one lowest; bits past
    /// the end read as 0.
    fn peek(&self) -> u64 {
        let (w, s) = (self.at / 64, self.at % 64);
        // Shifting by one, then by the rest, keeps each shift under 64.
        self.words[w] >> s | self.words[w + 1] << 1 << (63 - s)
    }

    /// The next bit; `start` is where the code being read began, for the
    /// error past the end.
    fn bit(&mut self, start: usize) -> Result<bool, UnpackError> {
        if self.at >= 256 {
            return Err(UnpackError::PastEnd { bit: start });
        }
        let bit = self.peek() & 1 == 1;
        self.at += 1;
        Ok(bit)
    }

    /// A field of `width` bits, least significant first.
    fn field(&mut self, width: u32) -> Result<usize, UnpackError> {
        if self.at + width as usize > 256 {
            return Err(UnpackError::PastEnd { bit: self.at });
        }
        let value = self.peek() & ((1 << width) - 1);
        self.at += width as usize;
        Ok(value as usize)
    }

    /// The next [`LONGEST`] bits, the first one lowest; bits past the end
    /// read as 0.
    fn window(&self) -> usize {
        (self.peek() & ((1 << LONGEST) - 1)) as usize
    }

    /// Reads the code of `place` ([`ON_BOARD`] or [`OFF_BOARD`]) the next
    /// bits spell in dialect column `d`: which section and row, or `None`
    /// for the empty square. Bits that begin no code are [`UnpackError::NoCode`];
    /// a code cut short by the end, [`UnpackError::PastEnd`].
    fn code(&mut self, d: usize, place: usize) -> Result<Option<(usize, usize)>, UnpackError> {
        let start = self.at;
        let found = FOUND[place][d][self.window()];
        let left = 256usize.saturating_sub(start);
        if usize::from(found.len) > left || (found.len == 0 && left < usize::from(LONGEST)) {
            // Not all of the bits a code needs are there (a code that
            // matches only with the bits past the end counts as cut short).
            return Err(UnpackError::PastEnd { bit: start });
        }
        if found.len == 0 {
            return Err(UnpackError::NoCode { bit: start });
        }
        self.at += usize::from(found.len);
        Ok(
            (found.section != EMPTY)
                .then_some((usize::from(found.section), usize::from(found.row))),
        )
    }
}

/// What a window of [`LONGEST`] bits (the first lowest) begins with: a
/// code of `len` bits (0: none) of `section` ([`EMPTY`] for the empty
/// square) and row.
#[derive(Clone, Copy)]
struct Found {
    len: u8,
    section: u8,
    row: u8,
}

/// The places a code is read in: on the board (the pieces' prefixes and
/// the empty square) and after it (the hand and box codes).
const ON_BOARD: usize = 0;
const OFF_BOARD: usize = 1;
/// [`Found::section`] of the empty square.
const EMPTY: u8 = 3;

/// Every window's [`Found`], `[place][dialect][window]`, from [`NUMERIC`]:
/// each section's codes form a prefix code (tested), so a window begins
/// with one code at most.
static FOUND: [[[Found; 1 << LONGEST]; 2]; 2] = {
    let none = Found {
        len: 0,
        section: 0,
        row: 0,
    };
    let mut out = [[[none; 1 << LONGEST]; 2]; 2];
    let mut d = 0;
    while d < 2 {
        // The empty square: one 0 bit.
        let mut w = 0;
        while w < 1 << LONGEST {
            if w & 1 == 0 {
                out[ON_BOARD][d][w] = Found {
                    len: 1,
                    section: EMPTY,
                    row: 0,
                };
            }
            w += 1;
        }
        let mut section = 0;
        while section < 3 {
            let place = if section == BOARD {
                ON_BOARD
            } else {
                OFF_BOARD
            };
            let mut r = 0;
            while r < 7 {
                let code = NUMERIC[section][d][r];
                // The code as read: its first bit lowest.
                let mut pattern = 0;
                let mut i = 0;
                while i < code.len {
                    pattern |= ((code.value as usize >> (code.len - 1 - i)) & 1) << i;
                    i += 1;
                }
                let mut w = 0;
                while w < 1 << LONGEST {
                    if w & ((1 << code.len) - 1) == pattern {
                        out[place][d][w] = Found {
                            len: code.len,
                            section: section as u8,
                            row: r as u8,
                        };
                    }
                    w += 1;
                }
                r += 1;
            }
            section += 1;
        }
        d += 1;
    }
    out
};

/// What a square's bits begin with (the first bit lowest, 8 bits: the
/// longest code with its colour and promotion bits): the piece (`None` for
/// the empty square), its row in [`ROWS`] and how many bits it takes, all
/// read from [`FOUND`]. Every window begins with a board code: the board's
/// codes and the empty square's `0` leave no prefix unused (tested).
#[derive(Clone, Copy)]
struct OnSquare {
    len: u8,
    row: u8,
    piece: Option<Piece>,
}

/// Every 8-bit window's [`OnSquare`], `[dialect][window]`.
static SQUARES: [[OnSquare; 256]; 2] = {
    let mut out = [[OnSquare {
        len: 1,
        row: 0,
        piece: None,
    }; 256]; 2];
    let mut d = 0;
    while d < 2 {
        let mut w = 0;
        while w < 256 {
            let found = FOUND[ON_BOARD][d][w & ((1 << LONGEST) - 1)];
            if found.section == BOARD as u8 {
                let r = found.row as usize;
                let after = w >> found.len;
                let (first, second) = (after & 1 == 1, after & 2 == 2);
                let (white, promoted, flags) = if r == GOLD_ROW {
                    (first, false, 1)
                } else if d == 0 {
                    (first, second, 2)
                } else {
                    (second, first, 2)
                };
                let kind = match ROWS[r].kind.promote() {
                    Some(up) if promoted => up,
                    _ => ROWS[r].kind,
                };
                let color = if white { Color::White } else { Color::Black };
                out[d][w] = OnSquare {
                    len: found.len + flags,
                    row: r as u8,
                    piece: Some(Piece { color, kind }),
                };
            }
            w += 1;
        }
        d += 1;
    }
    out
};

/// The position 32 packed bytes hold, read with `dialect`'s codes: the
/// inverse of [`pack`]. The pieces in hand may come in any order (old
/// YaneuraOu data put gold after rook); the move number, which the bytes do
/// not hold, is 1.
///
/// ```
/// use kifconv::training::packed::{pack, unpack, Dialect};
/// use kifconv::Position;
///
/// let start = Position::startpos();
/// let hcp = pack(&start, Dialect::Hcp).unwrap();
/// assert_eq!(unpack(&hcp, Dialect::Hcp).unwrap(), start);
/// assert!(unpack(&[0xff; 32], Dialect::Hcp).is_err());
/// ```
pub fn unpack(bytes: &[u8; 32], dialect: Dialect) -> Result<Position, UnpackError> {
    let mut pos = Position::blank();
    decode(bytes, dialect, 1, &mut (), &mut pos)?;
    Ok(pos)
}

/// [`unpack`] into `out`, with the move number the bytes do not hold:
/// `move_number`. On an error `out` holds no position to use.
pub(crate) fn unpack_into(
    bytes: &[u8; 32],
    dialect: Dialect,
    move_number: u32,
    out: &mut Position,
) -> Result<(), UnpackError> {
    decode(bytes, dialect, move_number, &mut (), out)
}

/// What [`decode`] tells of each square it reads, in index order, the
/// kings' squares skipped.
trait Squares {
    /// The square is empty.
    fn empty(&mut self);
    /// The square holds `piece`, of row `row` in [`ROWS`].
    fn piece(&mut self, piece: Piece, row: usize);
}

/// Nothing is told: plain reading.
impl Squares for () {
    #[inline(always)]
    fn empty(&mut self) {}
    #[inline(always)]
    fn piece(&mut self, _: Piece, _: usize) {}
}

/// [`unpack_into`]'s reading, telling `squares` of each square read. The
/// pieces go straight into `out` as they are read.
#[inline(always)]
fn decode<S: Squares>(
    bytes: &[u8; 32],
    dialect: Dialect,
    move_number: u32,
    squares: &mut S,
    out: &mut Position,
) -> Result<(), UnpackError> {
    let d = column(dialect);
    let mut bits = Reader::new(bytes);
    let side = if bits.bit(0)? {
        Color::White
    } else {
        Color::Black
    };
    let mut kings = [Square::from_index_unchecked(0); 2];
    for (king, color) in kings.iter_mut().zip([Color::Black, Color::White]) {
        let index = bits.field(7)?;
        *king = Square::from_index(index).ok_or(UnpackError::KingSquare { color, index })?;
    }
    if kings[0] == kings[1] {
        return Err(UnpackError::KingsOnOneSquare(kings[0]));
    }
    let mut pos = Assembly::over(out, side, move_number);
    let mut count = [0u8; 7];
    let mut counted = |r: usize| {
        count[r] += 1;
        if count[r] > SET[r] {
            Err(UnpackError::TooMany(ROWS[r].kind))
        } else {
            Ok(())
        }
    };
    for (king, color) in kings.into_iter().zip([Color::Black, Color::White]) {
        let kind = PieceKind::King;
        pos.put(king, Piece { color, kind });
    }
    // The squares other than the kings', in index order: three runs.
    let (low, high) = if kings[0] < kings[1] {
        (kings[0].index(), kings[1].index())
    } else {
        (kings[1].index(), kings[0].index())
    };
    // The bits from `bits.at` on, the first lowest, are read from the
    // bytes `ahead` at a time: 64, or the bits left before the end when
    // fewer. Another read comes when fewer than a square's longest code
    // (8 bits) are ahead; then, near the end, a code is checked against
    // the bits left.
    let (mut next, mut ahead) = (0u64, 0u32);
    for run in [0..low, low + 1..high, high + 1..81] {
        for i in run {
            if ahead < 8 {
                next = bits.peek();
                let left = 256 - bits.at;
                ahead = left.min(64) as u32;
                let found = SQUARES[d][(next & 0xff) as usize];
                if usize::from(found.len) > left {
                    // Cut short: the code itself, or only the bits after
                    // it. The piece counts before its colour and
                    // promotion bits.
                    if usize::from(FOUND[ON_BOARD][d][bits.window()].len) > left {
                        return Err(UnpackError::PastEnd { bit: bits.at });
                    }
                    counted(usize::from(found.row))?;
                    return Err(UnpackError::PastEnd { bit: 256 });
                }
            }
            let found = SQUARES[d][(next & 0xff) as usize];
            bits.at += usize::from(found.len);
            next >>= found.len;
            ahead -= u32::from(found.len);
            let Some(piece) = found.piece else {
                squares.empty();
                continue;
            };
            counted(usize::from(found.row))?;
            squares.piece(piece, usize::from(found.row));
            pos.put(Square::from_index_unchecked(i), piece);
        }
    }
    while bits.at < 256 {
        let Some((section, r)) = bits.code(d, OFF_BOARD)? else {
            continue;
        };
        counted(r)?;
        if section == HAND {
            let color = if bits.bit(bits.at)? {
                Color::White
            } else {
                Color::Black
            };
            pos.add_to_hand(color, ROWS[r].kind);
        }
    }
    pos.check(KingRule::BothRequired)
        .map_err(UnpackError::Rules)
}

mod bits;
mod files;
mod frame;
mod last;
mod repack;
pub(crate) use repack::repack;

#[cfg(test)]
mod tests;
