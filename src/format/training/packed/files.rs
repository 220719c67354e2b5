//! The board's part of a packed position, kept a file at a time from one
//! position to the next. The squares are written 1a to 1i, then 2a to 2i,
//! and so on, so the board's code is the nine files' codes one after
//! another. A position given whole has only the files with a changed
//! square coded again; a move played on the squares replaces the codes of
//! its squares in their files' codes.
//!
//! The squares are kept too, each as the piece's place in the code table,
//! so that a move can be played on them without a position.

use super::{piece_index, Emit, EMPTY_CODE, EMPTY_PLACE, PIECES};
use crate::position::Bitboard;
use crate::{Color, Move, Piece, PieceKind, Position, Square};

/// One file's code in a dialect, and the bits where the other dialect's
/// code for the same file differs (the two give every piece a code of the
/// same length).
#[derive(Clone, Copy)]
pub(super) struct FileCode {
    pub(super) code: Emit,
    pub(super) flips: u64,
}

/// An empty file: nine 0 bits.
const EMPTY_FILE: FileCode = FileCode {
    code: Emit { bits: 0, len: 9 },
    flips: 0,
};

/// An empty square's place.
const EMPTY: u8 = EMPTY_PLACE;

/// Each square index's file and rank (0 for the first).
static FILE_RANK: [(u8, u8); 81] = {
    let mut out = [(0, 0); 81];
    let mut sq = 0;
    while sq < 81 {
        let square = Square::from_index_unchecked(sq);
        out[sq] = (square.file() - 1, square.rank() - 1);
        sq += 1;
    }
    out
};

/// For each rank, the bytes of the ranks above it among a file's first
/// eight squares.
const RANKS_ABOVE: [u64; 9] = {
    let mut out = [0; 9];
    let mut r = 1;
    while r < 9 {
        out[r] = out[r - 1] << 8 | 0xff;
        r += 1;
    }
    out
};

/// A square's place in [`PIECES`].
#[inline(always)]
fn place(square: Option<Piece>) -> u8 {
    match square {
        Some(piece) => piece_index(piece) as u8,
        None => EMPTY,
    }
}

/// Each place's piece promoted, as a place (itself if it cannot promote).
static PROMOTED: [u8; 64] = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = i as u8;
        if i < 32 {
            if let Some(kind) = PieceKind::from_index(i & 15) {
                if let Some(promoted) = kind.promote() {
                    out[i] = ((i & 16) | promoted.index()) as u8;
                }
            }
        }
        i += 1;
    }
    out
};

/// Whose king is at a place, if any.
#[inline(always)]
pub(super) fn king_of(place: u8) -> Option<Color> {
    match (place < EMPTY, place & 15 == PieceKind::King.index() as u8) {
        (true, true) if place & 16 == 0 => Some(Color::Black),
        (true, true) => Some(Color::White),
        _ => None,
    }
}

/// What taking the piece at a place adds to the taker's hand, as
/// `frame::Counts`: one of its kind unpromoted. Nothing for an empty
/// square and a king.
pub(super) static TAKEN: [u64; 64] = {
    let mut out = [0; 64];
    let mut place = 0;
    while place < EMPTY as usize {
        if let Some(kind) = PieceKind::from_index(place & 15) {
            let kind = kind.unpromote();
            if !matches!(kind, PieceKind::King) {
                out[place] = 1 << (8 * kind.index());
            }
        }
        place += 1;
    }
    out
};

/// What a move did to the squares, for the rest of the frame: the place
/// of the piece on the move's square after it, and of what it took there
/// ([`EMPTY`]: nothing).
#[derive(Clone, Copy)]
pub(super) struct Moved {
    pub(super) piece: u8,
    pub(super) taken: u8,
}

/// The codes of the files of the last position seen, in one dialect
/// column, its squares, and its sets, by which the next position's changed
/// squares are found. Before any position, they are an empty board's.
#[derive(Clone)]
pub(super) struct Files {
    d: usize,
    codes: [FileCode; 9],
    squares: [u8; 81],
    /// Each square's code length in the column: 0 for a king, 1 when
    /// empty.
    lens: [u8; 81],
    /// Whether the codes' flips are kept: only a walk for both dialects
    /// asks for them.
    paired: bool,
    /// Whether `colors` and `kinds` are the last position's: a move played
    /// on the squares does not keep them.
    sets_kept: bool,
    colors: [Bitboard; 2],
    kinds: [Bitboard; 14],
}

impl Files {
    /// An empty board's codes in dialect column `d`.
    pub(super) fn new(d: usize) -> Files {
        Files {
            d,
            codes: [EMPTY_FILE; 9],
            squares: [EMPTY; 81],
            lens: [1; 81],
            paired: false,
            sets_kept: true,
            colors: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; 14],
        }
    }

    /// The dialect column the codes are in.
    pub(super) fn column(&self) -> usize {
        self.d
    }

    /// The codes of `pos`'s files, first file first, with `PAIR` their
    /// flips too. Only the files with a square whose colour or kind
    /// differs from the last position seen are coded again (every file
    /// when the last position's sets were not kept, or flips are newly
    /// asked for).
    #[inline]
    pub(super) fn of<const PAIR: bool>(&mut self, pos: &Position) -> &[FileCode; 9] {
        if PAIR && !self.paired {
            self.sets_kept = false;
        }
        let changed = self.changed(pos);
        let board = pos.board();
        // No test for an unchanged board: the loop then finds no file.
        for (base, mut word) in changed.file_heads().words() {
            while word != 0 {
                let file = (base + word.trailing_zeros() as usize) / 9;
                word &= word - 1;
                let at = file * 9;
                if let (Some(squares), Some(now)) =
                    (self.squares.get_mut(at..at + 9), board.get(at..at + 9))
                {
                    for (square, &piece) in squares.iter_mut().zip(now) {
                        *square = place(piece);
                    }
                }
                self.code::<PAIR>(file);
            }
        }
        self.paired = PAIR;
        &self.codes
    }

    /// The squares whose colour or kind differs from the last position
    /// seen (all of them if its sets were not kept); keeps `pos`'s sets.
    #[inline]
    fn changed(&mut self, pos: &Position) -> Bitboard {
        let (colors, kinds) = pos.sets();
        let mut changed = Bitboard::EMPTY;
        for (seen, now) in self.colors.iter().zip(colors) {
            changed |= *seen ^ *now;
        }
        for (seen, now) in self.kinds.iter().zip(kinds) {
            changed |= *seen ^ *now;
        }
        if !self.sets_kept {
            changed = Bitboard::ALL;
            self.sets_kept = true;
        }
        self.colors = *colors;
        self.kinds = *kinds;
        changed
    }

    /// Plays `mv` by `side` on the squares, as a position plays it: a
    /// board move empties its first square and puts the piece (promoted if
    /// asked) on its second, a drop puts a piece of `side` there. The
    /// files' codes change with the squares.
    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move, side: Color) -> Moved {
        self.sets_kept = false;
        let piece = match mv {
            Move::Normal { from, promote, .. } => {
                let from = from.index();
                let moving = self.squares.get(from).copied().unwrap_or(EMPTY);
                self.put(from, EMPTY, EMPTY_CODE, 0);
                match promote {
                    true => PROMOTED[usize::from(moving & 63)],
                    false => moving,
                }
            }
            Move::Drop { kind, .. } => place(Some(Piece::new(side, kind))),
        };
        let to = mv.to().index();
        let taken = self.squares.get(to).copied().unwrap_or(EMPTY);
        let (e, other) = (
            PIECES[self.d & 1][usize::from(piece & 63)],
            PIECES[!self.d & 1][usize::from(piece & 63)],
        );
        self.put(to, piece, e, e.bits ^ other.bits);
        Moved { piece, taken }
    }

    /// Puts `place`, whose code is `e` (and `flip` where the other
    /// dialect's differs), on square index `sq`. Its file's code is not
    /// coded again: the square's old code in it is replaced by the new one
    /// (and its flips, when they are kept), after the codes of the ranks
    /// above it, whose length is the sum of their lengths.
    #[inline(always)]
    fn put(&mut self, sq: usize, place: u8, e: Emit, flip: u64) {
        let (file, rank) = FILE_RANK.get(sq).copied().unwrap_or((9, 0));
        let (file, at) = (usize::from(file), usize::from(file) * 9);
        let (Some(square), Some(code), Some(len), Some(ahead), Some(&ranks)) = (
            self.squares.get_mut(sq),
            self.codes.get_mut(file),
            self.lens.get(sq).copied(),
            self.lens.get(at..at + 8),
            RANKS_ABOVE.get(usize::from(rank)),
        ) else {
            return;
        };
        let mut first = [0; 8];
        first.copy_from_slice(ahead);
        // The lengths of the ranks above, a byte each, summed by a multiply
        // into the top byte (a file's codes are fewer than 64 bits).
        let before = u64::from_le_bytes(first) & ranks;
        let from = (before.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        let splice = |bits: u64, new: u64| {
            let below = bits & ((1u64 << from) - 1);
            let after = bits >> from >> len;
            below | new << from | after << (from + e.len)
        };
        code.code.bits = splice(code.code.bits, e.bits);
        if self.paired {
            code.flips = splice(code.flips, flip);
        }
        code.code.len = code.code.len - u32::from(len) + e.len;
        *square = place;
        if let Some(l) = self.lens.get_mut(sq) {
            *l = e.len as u8;
        }
    }

    /// The codes of the squares' files, with `PAIR` their flips too: a
    /// move played on the squares keeps them, and every file is coded
    /// again only when flips are newly asked for.
    #[inline]
    pub(super) fn coded<const PAIR: bool>(&mut self) -> &[FileCode; 9] {
        if PAIR && !self.paired {
            for file in 0..9 {
                self.code::<PAIR>(file);
            }
        }
        self.paired = PAIR;
        &self.codes
    }

    /// Codes file `file` (0 for the first) again from the squares, each
    /// square in rank order; with `PAIR`, its flips too.
    #[inline(always)]
    fn code<const PAIR: bool>(&mut self, file: usize) {
        let at = file * 9;
        let (Some(code), Some(squares), Some(lens)) = (
            self.codes.get_mut(file),
            self.squares.get(at..at + 9),
            self.lens.get_mut(at..at + 9),
        ) else {
            return;
        };
        let (ours, others) = (&PIECES[self.d], &PIECES[1 - self.d]);
        let (mut bits, mut flips, mut len) = (0u64, 0u64, 0u32);
        for (&square, l) in squares.iter().zip(lens) {
            let (e, other) = (
                ours[usize::from(square & 63)],
                others[usize::from(square & 63)],
            );
            // A file holds at most two rooks, two bishops and five pieces
            // of six bits: fewer than 64 bits, so no shift wraps.
            bits |= e.bits.wrapping_shl(len);
            if PAIR {
                flips |= (e.bits ^ other.bits).wrapping_shl(len);
            }
            len += e.len;
            *l = e.len as u8;
        }
        *code = FileCode {
            code: Emit { bits, len },
            flips,
        };
    }
}
