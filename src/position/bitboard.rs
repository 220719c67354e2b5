//! 81-square bitboards and the attack tables built on them.
//!
//! Bit `i` is the square with index `i` (file-major: `1a` = 0, `1i` = 8,
//! `2a` = 9, …). All tables are computed at compile time.

use crate::{Color, PieceKind, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(u128);

const BOARD_BITS: u128 = (1u128 << 81) - 1;

/// The first square of each file: rank a, bits 0, 9, …, 72.
const FILE_HEADS: u128 = {
    let mut heads = 0;
    let mut file = 0;
    while file < 9 {
        heads |= 1u128 << (9 * file);
        file += 1;
    }
    heads
};

/// `SQUARE_BITS[i]`: the set holding only the square with index `i`
/// (what [`Bitboard::from_square`] gives).
const SQUARE_BITS: [Bitboard; 81] = {
    let mut table = [Bitboard(0); 81];
    let mut i = 0;
    while i < 81 {
        table[i] = Bitboard(1u128 << i);
        i += 1;
    }
    table
};

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares (the bits above 80 are always clear).
    pub const ALL: Bitboard = Bitboard(BOARD_BITS);

    /// The set holding only `sq`: looked up in [`SQUARE_BITS`] rather
    /// than shifted out, as a 128-bit shift by a variable amount takes
    /// several instructions and every move played asks for a few.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        SQUARE_BITS[sq.index()]
    }

    /// Whether `sq` is in the set: an AND with the square's bit from
    /// [`SQUARE_BITS`], as a 128-bit shift by a variable amount takes
    /// twice the instructions (every move played asks this a few times).
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & SQUARE_BITS[sq.index()].0 != 0
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many squares the set holds.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The set as two machine words, each with the index of its first
    /// square: squares 0 to 63, then 64 to 80.
    #[inline]
    pub const fn words(self) -> [(usize, u64); 2] {
        [(0, self.0 as u64), (64, (self.0 >> 64) as u64)]
    }

    /// The squares of file `file` (0 for file 1), as the nine lowest bits:
    /// rank a lowest.
    #[inline]
    pub const fn file(self, file: usize) -> u64 {
        (self.0 >> (9 * file)) as u64 & 0x1ff
    }

    /// More than one square.
    #[inline]
    pub const fn has_many(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The first square (rank a) of every file that holds a square of
    /// the set: each file's nine bits folded onto its lowest one.
    #[inline]
    pub const fn file_heads(self) -> Bitboard {
        let x = self.0 | self.0 >> 1;
        let x = x | x >> 2;
        let x = x | x >> 4;
        Bitboard((x | self.0 >> 8) & FILE_HEADS)
    }

    /// Whether a file holds two squares of the set or more. Taking one
    /// from each file that holds any clears its lowest bit and sets only
    /// bits below it, which the set does not hold (no borrow crosses into
    /// the next file); a second square of the file is left standing.
    #[inline]
    pub const fn has_two_on_a_file(self) -> bool {
        self.0 & self.0.wrapping_sub(self.file_heads().0) != 0
    }

    /// Every square of every file that holds a square of the set: each
    /// file head spread over its nine squares (a product with nine ones,
    /// which carries nothing from one file into the next).
    #[inline]
    pub const fn whole_files(self) -> Bitboard {
        Bitboard(self.file_heads().0 * 0x1ff)
    }

    #[inline]
    const fn with(self, index: usize) -> Bitboard {
        Bitboard(self.0 | 1u128 << index)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        // The low 64 squares first, each half as a machine word: cheaper
        // than the 128-bit count and clear.
        let low = self.0 as u64;
        let index = if low != 0 {
            self.0 &= !u128::from(low & low.wrapping_neg());
            low.trailing_zeros()
        } else {
            let high = (self.0 >> 64) as u64;
            if high == 0 {
                return None;
            }
            self.0 = u128::from(high & (high - 1)) << 64;
            64 + high.trailing_zeros()
        };
        Some(Square::from_index_unchecked(index as usize))
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_BITS)
    }
}

// ---------------------------------------------------------------------------
// Directions and rays

/// The eight directions as (file step, rank step). Rank steps of -1 point
/// towards rank 1, which is "forward" for Black.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
];
const UP: usize = 0;
const DOWN: usize = 1;
const ORTHOGONAL: [usize; 4] = [0, 1, 2, 3];
const DIAGONAL: [usize; 4] = [4, 5, 6, 7];

/// A direction's index step is positive when it moves to higher indices, so
/// that the nearest square along the ray is the lowest set bit.
const fn is_positive(dir: usize) -> bool {
    let (df, dr) = DIRECTIONS[dir];
    df * 9 + dr > 0
}

const fn offset(index: usize, df: i8, dr: i8) -> Option<usize> {
    let file = (index / 9) as i8 + df;
    let rank = (index % 9) as i8 + dr;
    if file >= 0 && file < 9 && rank >= 0 && rank < 9 {
        Some(file as usize * 9 + rank as usize)
    } else {
        None
    }
}

/// Every ray from every square, walked once at compile time: [`RAYS`] and
/// [`DIRECTION_TO`] are its two halves.
const WALKED_RAYS: ([[Bitboard; 81]; 8], [[u8; 81]; 81]) = {
    let mut rays = [[Bitboard::EMPTY; 81]; 8];
    let mut direction_to = [[8u8; 81]; 81];
    let mut dir = 0;
    while dir < 8 {
        let (df, dr) = DIRECTIONS[dir];
        let mut sq = 0;
        while sq < 81 {
            let mut cur = sq;
            while let Some(next) = offset(cur, df, dr) {
                rays[dir][sq] = rays[dir][sq].with(next);
                direction_to[sq][next] = dir as u8;
                cur = next;
            }
            sq += 1;
        }
        dir += 1;
    }
    (rays, direction_to)
};

/// `RAYS[dir][sq]`: every square from `sq` (exclusive) to the edge in `dir`.
static RAYS: [[Bitboard; 81]; 8] = WALKED_RAYS.0;

/// `DIRECTION_TO[a][b]`: the direction from `a` to `b` when they share a
/// line, else 8.
static DIRECTION_TO: [[u8; 81]; 81] = WALKED_RAYS.1;

#[inline]
fn slide(dir: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][sq.index()];
    let blockers = (ray & occupied).0;
    if blockers == 0 {
        return ray;
    }
    ray ^ RAYS[dir][nearest(dir, blockers)]
}

/// The square of `blockers` (not empty) met first along `dir`: the lowest
/// bit where `dir` steps to higher indices, else the highest.
#[inline(always)]
fn nearest(dir: usize, blockers: u128) -> usize {
    if is_positive(dir) {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    }
}

/// The squares strictly between `a` and `b` if they share a line, else none.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let dir = DIRECTION_TO[a.index()][b.index()] as usize;
    if dir == 8 {
        return Bitboard::EMPTY;
    }
    RAYS[dir][a.index()] ^ RAYS[dir][b.index()] ^ Bitboard::from_square(b)
}

/// The first occupied square beyond `b`, looking from `a` through `b`
/// (the piece a pinned piece on `b` shields `a` from), if they share a line.
#[inline]
pub fn first_beyond(a: Square, b: Square, occupied: Bitboard) -> Option<Square> {
    let dir = DIRECTION_TO[a.index()][b.index()] as usize;
    if dir == 8 {
        return None;
    }
    let blockers = (RAYS[dir][b.index()] & occupied).0;
    if blockers == 0 {
        return None;
    }
    Some(Square::from_index_unchecked(nearest(dir, blockers)))
}

/// Whether the direction from `a` to `b` is a rook's (else a bishop's).
#[inline]
pub fn orthogonal(a: Square, b: Square) -> bool {
    DIRECTION_TO[a.index()][b.index()] < 4
}

/// Whether `a` and `b` share a file, rank or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square) -> bool {
    DIRECTION_TO[a.index()][b.index()] != 8
}

/// Whether `c` is on the ray from `a` through `b` (what
/// `ray_through(a, b).contains(c)` says), by two look-ups of the
/// direction out of `a` and no bitboard.
#[inline]
pub fn on_ray_through(a: Square, b: Square, c: Square) -> bool {
    let dir = DIRECTION_TO[a.index()][b.index()];
    dir != 8 && DIRECTION_TO[a.index()][c.index()] == dir
}

/// The squares beyond `a` in the direction of `b` (the whole ray from `a`
/// through `b` to the edge), or none if they do not share a line. A piece
/// pinned on `b` against a king on `a` may only move within this ray.
#[inline(always)]
pub fn ray_through(a: Square, b: Square) -> Bitboard {
    let dir = DIRECTION_TO[a.index()][b.index()] as usize;
    if dir == 8 {
        Bitboard::EMPTY
    } else {
        RAYS[dir][a.index()]
    }
}

// ---------------------------------------------------------------------------
// Step attacks

const fn forward(color: Color) -> i8 {
    match color {
        Color::Black => -1,
        Color::White => 1,
    }
}

const fn step_table(color: Color, pattern: &[(i8, i8)]) -> [Bitboard; 81] {
    let f = forward(color);
    let mut table = [Bitboard::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < pattern.len() {
            let (df, dr) = pattern[i];
            if let Some(to) = offset(sq, df, dr * f) {
                table[sq] = table[sq].with(to);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

// Patterns in (file step, steps forward).
const PAWN: &[(i8, i8)] = &[(0, 1)];
const KNIGHT: &[(i8, i8)] = &[(1, 2), (-1, 2)];
const SILVER: &[(i8, i8)] = &[(-1, 1), (0, 1), (1, 1), (-1, -1), (1, -1)];
const GOLD: &[(i8, i8)] = &[(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1)];
const KING: &[(i8, i8)] = &[
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Where a piece of `color` and `kind` on `sq` could ever move on an
/// empty board ([`REACHES`]): for a stepper (pawn, knight, silver, gold and
/// the kinds that move as one, king), the squares it attacks.
#[inline(always)]
pub fn reach(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    REACHES[color.index()][kind.index()][sq.index()]
}

/// The squares a king on `sq` attacks (the same for either colour).
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    reach(Color::Black, PieceKind::King, sq)
}

#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let dir = match color {
        Color::Black => UP,
        Color::White => DOWN,
    };
    slide(dir, sq, occupied)
}

/// Every square reached sliding from `sq` along each of `dirs`.
#[inline(always)]
fn slides(dirs: [usize; 4], sq: Square, occupied: Bitboard) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for dir in dirs {
        attacks |= slide(dir, sq, occupied);
    }
    attacks
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slides(DIAGONAL, sq, occupied)
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slides(ORTHOGONAL, sq, occupied)
}

/// `EMPTY_BOARD_SLIDES[0][sq]`: where a bishop on `sq` reaches on an empty
/// board; `[1][sq]` the same for a rook.
static EMPTY_BOARD_SLIDES: [[Bitboard; 81]; 2] = {
    let mut table = [[Bitboard::EMPTY; 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        let mut dir = 0;
        while dir < 8 {
            let kind = if dir < 4 { 1 } else { 0 };
            table[kind][sq] = Bitboard(table[kind][sq].0 | RAYS[dir][sq].0);
            dir += 1;
        }
        sq += 1;
    }
    table
};

/// Where a bishop on `sq` could ever reach (an empty board).
#[inline]
pub fn bishop_reach(sq: Square) -> Bitboard {
    EMPTY_BOARD_SLIDES[0][sq.index()]
}

/// Where a rook on `sq` could ever reach (an empty board).
#[inline]
pub fn rook_reach(sq: Square) -> Bitboard {
    EMPTY_BOARD_SLIDES[1][sq.index()]
}

/// The lance's ray on an empty board: where a lance could ever reach.
#[inline]
pub fn lance_ray(color: Color, sq: Square) -> Bitboard {
    lance_attacks(color, sq, Bitboard::EMPTY)
}

/// `REACHES[color][kind][sq]`: where a piece of `color` and `kind` on `sq`
/// could ever move on an empty board (a stepper's steps, a slider's lines,
/// both for the horse and the dragon), built at compile time from the step
/// tables and [`EMPTY_BOARD_SLIDES`].
static REACHES: [[[Bitboard; 81]; 14]; 2] = {
    let mut table = [[[Bitboard::EMPTY; 81]; 14]; 2];
    let colors = [Color::Black, Color::White];
    let mut c = 0;
    while c < 2 {
        let color = colors[c];
        let steps = [
            step_table(color, PAWN),
            step_table(color, KNIGHT),
            step_table(color, SILVER),
            step_table(color, GOLD),
            step_table(color, KING),
        ];
        let lance = if c == 0 { UP } else { DOWN };
        let mut sq = 0;
        while sq < 81 {
            let bishop = EMPTY_BOARD_SLIDES[0][sq].0;
            let rook = EMPTY_BOARD_SLIDES[1][sq].0;
            let king = steps[4][sq].0;
            let gold = steps[3][sq].0;
            // In the order of `PieceKind::ALL`.
            let by_kind = [
                steps[0][sq].0,
                RAYS[lance][sq].0,
                steps[1][sq].0,
                steps[2][sq].0,
                gold,
                bishop,
                rook,
                king,
                gold,
                gold,
                gold,
                gold,
                bishop | king,
                rook | king,
            ];
            let mut k = 0;
            while k < 14 {
                table[c][k][sq] = Bitboard(by_kind[k]);
                k += 1;
            }
            sq += 1;
        }
        c += 1;
    }
    table
};

/// The kinds that slide (lance, bishop, rook, horse, dragon) as bits by
/// [`PieceKind::index`]: their reach on a board with pieces also asks
/// that the squares between be empty.
const SLIDING_KINDS: u16 = 1 << 1 | 1 << 5 | 1 << 6 | 1 << 12 | 1 << 13;

/// Whether a piece of `color` and `kind` on `from` attacks `to`: the same
/// answer as `attacks(…).contains(to)`, by one look-up of where the piece
/// could ever go ([`REACHES`]) and, for a slider, whether the squares
/// between are empty (none are between two neighbours, so a horse's or
/// dragon's step passes that test too), without computing everything it
/// attacks or matching on its kind.
#[inline(always)]
pub fn reaches(
    color: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    occupied: Bitboard,
) -> bool {
    REACHES[color.index()][kind.index()][from.index()].contains(to)
        && (SLIDING_KINDS >> kind.index() & 1 == 0 || (between(from, to) & occupied).is_empty())
}

/// The squares a piece of `color` and `kind` on `sq` attacks.
#[inline(always)]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    use PieceKind::*;
    match kind {
        Pawn | Knight | Silver | Gold | ProPawn | ProLance | ProKnight | ProSilver | King => {
            reach(color, kind, sq)
        }
        Lance => lance_attacks(color, sq, occupied),
        Bishop => bishop_attacks(sq, occupied),
        Rook => rook_attacks(sq, occupied),
        Horse => bishop_attacks(sq, occupied) | king_attacks(sq),
        Dragon => rook_attacks(sq, occupied) | king_attacks(sq),
    }
}

/// Ranks counted from `color`'s far side: `rank_mask(color, 1..=3)` is the
/// promotion zone, `rank_mask(color, 1..=1)` where pawns and lances die.
#[cfg(test)]
pub fn relative_ranks(color: Color, ranks: std::ops::RangeInclusive<u8>) -> Bitboard {
    Square::all()
        .filter(|sq| ranks.contains(&sq.relative_rank(color)))
        .fold(Bitboard::EMPTY, |bb, sq| bb | Bitboard::from_square(sq))
}

/// `FAR_RANKS[color][n - 1]`: the `n` ranks nearest the opponent, for
/// `n` 1 to 3 (dead squares and the promotion zone), built at compile time.
static FAR_RANKS: [[Bitboard; 3]; 2] = {
    let mut table = [[Bitboard::EMPTY; 3]; 2];
    let mut sq = 0;
    while sq < 81 {
        let rank = (sq % 9 + 1) as u8;
        let mut n = 1;
        while n <= 3 {
            if rank <= n {
                table[0][n as usize - 1] = table[0][n as usize - 1].with(sq);
            }
            if 10 - rank <= n {
                table[1][n as usize - 1] = table[1][n as usize - 1].with(sq);
            }
            n += 1;
        }
        sq += 1;
    }
    table
};

/// The `n` ranks (1 to 3) nearest the opponent of `color`.
#[inline]
pub fn relative_ranks_table(color: Color, n: u8) -> Bitboard {
    FAR_RANKS[color.index()][usize::from(n) - 1]
}

/// `FILES[f - 1]`: every square of file `f`.
pub static FILES: [Bitboard; 9] = {
    let mut files = [Bitboard::EMPTY; 9];
    let mut sq = 0;
    while sq < 81 {
        files[sq / 9] = files[sq / 9].with(sq);
        sq += 1;
    }
    files
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::from_usi(text).unwrap()
    }
    fn squares(bb: Bitboard) -> Vec<String> {
        let mut names: Vec<String> = bb.map(|s| s.to_string()).collect();
        names.sort();
        names
    }

    /// The folded file sets, and whether a file holds two, are what the
    /// files, one by one, give.
    #[test]
    fn file_heads_and_whole_files_agree_with_the_files() {
        let mut rng = crate::test_util::rng::Rng::new(81);
        for round in 0..2000 {
            // Sparse sets too: one in four bits, one in sixteen.
            let mut bits = u128::from(rng.next()) | u128::from(rng.next()) << 64;
            for _ in 0..round % 3 {
                bits &= u128::from(rng.next()) | u128::from(rng.next()) << 64;
                bits &= u128::from(rng.next()) | u128::from(rng.next()) << 64;
            }
            let set = Bitboard(bits & BOARD_BITS);
            let (mut heads, mut whole) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for (f, file) in FILES.iter().enumerate() {
                if !(set & *file).is_empty() {
                    heads = heads.with(9 * f);
                    whole |= *file;
                }
            }
            assert_eq!(set.file_heads(), heads, "{bits:#x}");
            let two = FILES.iter().any(|file| (set & *file).has_many());
            assert_eq!(set.has_two_on_a_file(), two, "{bits:#x}");
            assert_eq!(set.whole_files(), whole, "{bits:#x}");
        }
        assert_eq!(Bitboard::ALL.whole_files(), Bitboard::ALL);
        assert_eq!(Bitboard::EMPTY.file_heads(), Bitboard::EMPTY);
    }

    #[test]
    fn step_patterns() {
        assert_eq!(
            squares(reach(Color::Black, PieceKind::Pawn, sq("7g"))),
            ["7f"]
        );
        assert_eq!(
            squares(reach(Color::White, PieceKind::Pawn, sq("3c"))),
            ["3d"]
        );
        assert_eq!(
            squares(reach(Color::Black, PieceKind::Knight, sq("8i"))),
            ["7g", "9g"]
        );
        assert_eq!(
            squares(reach(Color::White, PieceKind::Knight, sq("1a"))),
            ["2c"]
        );
        assert_eq!(
            squares(reach(Color::Black, PieceKind::Silver, sq("5e"))),
            ["4d", "4f", "5d", "6d", "6f"]
        );
        assert_eq!(
            squares(reach(Color::White, PieceKind::Gold, sq("5e"))),
            ["4e", "4f", "5d", "5f", "6e", "6f"]
        );
        assert_eq!(king_attacks(sq("1a")).count(), 3);
        assert_eq!(king_attacks(sq("5e")).count(), 8);
    }

    #[test]
    fn sliders_stop_at_the_first_blocker() {
        let occupied = Bitboard::from_square(sq("5c")) | Bitboard::from_square(sq("3e"));
        assert_eq!(
            squares(lance_attacks(Color::Black, sq("5g"), occupied)),
            ["5c", "5d", "5e", "5f"]
        );
        assert_eq!(
            squares(lance_attacks(Color::White, sq("5g"), occupied)),
            ["5h", "5i"]
        );
        let rook = rook_attacks(sq("5e"), occupied);
        assert_eq!(rook.count(), 2 + 4 + 2 + 4);
        assert!(rook.contains(sq("3e")) && !rook.contains(sq("2e")));
        assert_eq!(bishop_attacks(sq("5e"), Bitboard::EMPTY).count(), 16);
    }

    #[test]
    fn reaches_agrees_with_attacks() {
        // Every kind, every pair of squares, on a board with a few blockers.
        let occupied = [sq("5e"), sq("3c"), sq("7g"), sq("5b"), sq("2h")]
            .into_iter()
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for from in Square::all() {
                    let all = attacks(color, kind, from, occupied);
                    for to in Square::all() {
                        assert_eq!(
                            reaches(color, kind, from, to, occupied),
                            all.contains(to),
                            "{kind:?} {from}{to}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn between_and_rays() {
        assert_eq!(squares(between(sq("5i"), sq("5e"))), ["5f", "5g", "5h"]);
        assert_eq!(squares(between(sq("1a"), sq("4d"))), ["2b", "3c"]);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert!(between(sq("1a"), sq("2b")).is_empty());
        assert_eq!(squares(ray_through(sq("5i"), sq("5g"))).len(), 8);
        assert_eq!(relative_ranks(Color::White, 7..=9).count(), 27);
        assert!(relative_ranks(Color::White, 1..=1).contains(sq("4i")));
        for color in Color::ALL {
            for n in 1..=3 {
                assert_eq!(relative_ranks_table(color, n), relative_ranks(color, 1..=n));
            }
        }
    }

    #[test]
    fn look_ups_agree_with_shifts_and_rays() {
        for a in Square::all() {
            assert_eq!(Bitboard::from_square(a).0, 1u128 << a.index());
            for set in [
                Bitboard::ALL,
                Bitboard::EMPTY,
                Bitboard(0x1_5555_5555_5555_5555_5555),
            ] {
                assert_eq!(set.contains(a), set.0 >> a.index() & 1 != 0, "{a}");
            }
            for b in Square::all() {
                for c in Square::all() {
                    assert_eq!(
                        on_ray_through(a, b, c),
                        ray_through(a, b).contains(c),
                        "{a} {b} {c}"
                    );
                }
            }
        }
    }
}
