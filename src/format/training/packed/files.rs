//! The board's part of a packed position, kept a file at a time from one
//! position to the next. The squares are written 1a to 1i, then 2a to 2i,
//! and so on, so the board's code is the nine files' codes one after
//! another. A file is coded again only when one of its squares changed:
//! a move changes one file or two.

use super::{piece_index, Emit, PIECES};
use crate::position::Bitboard;
use crate::{Move, Piece, Position};

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

/// The codes of the files of the last position seen, in one dialect
/// column, and that position's sets, by which the next position's changed
/// squares are found. Before any position, they are an empty board's.
#[derive(Clone)]
pub(super) struct Files {
    d: usize,
    codes: [FileCode; 9],
    /// Whether `colors` and `kinds` are the last position's: a position
    /// told by its move does not keep them.
    sets_kept: bool,
    colors: [Bitboard; 2],
    kinds: [Bitboard; 14],
}

/// How a position differs from the last one seen.
#[derive(Clone, Copy)]
pub(super) enum Change {
    /// Not known: the sets are compared.
    Unknown,
    /// The last position with this move played: only the files of its
    /// squares changed.
    Played(Move),
}

impl Files {
    /// An empty board's codes in dialect column `d`.
    pub(super) fn new(d: usize) -> Files {
        Files {
            d,
            codes: [EMPTY_FILE; 9],
            sets_kept: true,
            colors: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; 14],
        }
    }

    /// The dialect column the codes are in.
    pub(super) fn column(&self) -> usize {
        self.d
    }

    /// The codes of `pos`'s files, first file first. Only the files that
    /// `change` says may differ from the last position seen are coded
    /// again: with [`Change::Unknown`], those with a square whose colour or
    /// kind differs (every file when the last position's sets were not
    /// kept).
    #[inline]
    pub(super) fn of(&mut self, pos: &Position, change: Change) -> &[FileCode; 9] {
        let occupied = pos.occupied();
        match change {
            Change::Played(mv) => {
                self.sets_kept = false;
                let to = mv.to().index() / 9;
                self.code(pos, to, occupied);
                if let Some(from) = mv.from().map(|sq| sq.index() / 9).filter(|&f| f != to) {
                    self.code(pos, from, occupied);
                }
            }
            Change::Unknown => {
                let changed = self.changed(pos);
                // No test for an unchanged board: the loop then finds no file.
                for (base, mut word) in changed.file_heads().words() {
                    while word != 0 {
                        let file = (base + word.trailing_zeros() as usize) / 9;
                        word &= word - 1;
                        self.code(pos, file, occupied);
                    }
                }
            }
        }
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

    /// Codes file `file` (0 for the first) of `pos` again.
    #[inline]
    fn code(&mut self, pos: &Position, file: usize, occupied: Bitboard) {
        if let Some(code) = self.codes.get_mut(file) {
            *code = code_file(pos.board(), file, occupied.file(file), self.d);
        }
    }
}

/// The code of file `file` in dialect column `d`: each square in rank
/// order, an empty one a 0 bit, a king nothing (the frame places it), any
/// other piece its code. `occupied` is the file's occupied squares, rank
/// a lowest.
#[inline]
fn code_file(board: &[Option<Piece>; 81], file: usize, occupied: u64, d: usize) -> FileCode {
    let (pieces, others) = (&PIECES[d], &PIECES[1 - d]);
    let (mut bits, mut flips, mut len, mut next) = (0u64, 0u64, 0u32, 0u32);
    let mut word = occupied;
    while word != 0 {
        let rank = word.trailing_zeros();
        word &= word - 1;
        // An occupied square always holds a piece.
        if let Some(&Some(piece)) = board.get(file * 9 + rank as usize) {
            let (e, other) = (pieces[piece_index(piece)], others[piece_index(piece)]);
            // A file holds at most two rooks, two bishops and five pieces
            // of six bits: fewer than 64 bits, so no shift wraps.
            let at = len + (rank - next);
            bits |= e.bits.wrapping_shl(at);
            flips |= (e.bits ^ other.bits).wrapping_shl(at);
            len = at + e.len;
            next = rank + 1;
        }
    }
    FileCode {
        code: Emit {
            bits,
            len: len + (9 - next),
        },
        flips,
    }
}
