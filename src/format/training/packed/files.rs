//! The board's part of a packed position, kept a file at a time from one
//! position to the next. The squares are written 1a to 1i, then 2a to 2i,
//! and so on, so the board's code is the nine files' codes one after
//! another. A file is coded again only when one of its squares changed:
//! a move changes one file or two.
//!
//! The squares are kept too, each as the piece's place in the code table,
//! so that a move can be played on them without a position.

use super::{piece_index, Emit, EMPTY_PLACE, PIECES};
use crate::position::Bitboard;
use crate::{Color, Move, Piece, PieceKind, Position};

/// One file's code in a dialect, and the bits where the other dialect's
/// code for the same file differs (the two give every piece a code of the
/// same length).
#[derive(Clone, Copy)]
pub(super) struct FileCode {
    pub(super) code: Emit,
    pub(super) flips: u64,
}

/// Every file, a bit each.
const ALL_FILES: u16 = 0x1ff;

/// An empty file: nine 0 bits.
const EMPTY_FILE: FileCode = FileCode {
    code: Emit { bits: 0, len: 9 },
    flips: 0,
};

/// An empty square's place.
const EMPTY: u8 = EMPTY_PLACE;

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

/// The hand kind of the piece at a place, taken: its kind unpromoted.
/// `None` for an empty square and a king.
#[inline(always)]
pub(super) fn taken_kind(place: u8) -> Option<PieceKind> {
    match place < EMPTY {
        true => PieceKind::from_index(usize::from(place & 15))
            .map(PieceKind::unpromote)
            .filter(|&k| k != PieceKind::King),
        false => None,
    }
}

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
    /// The files whose squares changed since they were coded, a bit each.
    stale: u16,
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
            stale: 0,
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
    /// flips too, and the files coded again, a bit each. Only the files
    /// with a square whose colour or kind differs from the last position
    /// seen are (every file when the last position's sets were not kept,
    /// or flips are newly asked for).
    #[inline]
    pub(super) fn of<const PAIR: bool>(&mut self, pos: &Position) -> (&[FileCode; 9], u16) {
        if PAIR && !self.paired {
            self.sets_kept = false;
        }
        let changed = self.changed(pos);
        let mut coded = 0;
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
                coded |= 1 << file;
            }
        }
        self.stale = 0;
        self.paired = PAIR;
        (&self.codes, coded)
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
    /// files it changed are coded when next asked for.
    #[inline]
    pub(super) fn play(&mut self, mv: Move, side: Color) -> Moved {
        self.sets_kept = false;
        let piece = match mv {
            Move::Normal { from, promote, .. } => {
                let from = from.index();
                let moving = self.squares.get(from).copied().unwrap_or(EMPTY);
                self.put(from, EMPTY);
                match promote {
                    true => PROMOTED[usize::from(moving & 63)],
                    false => moving,
                }
            }
            Move::Drop { kind, .. } => place(Some(Piece::new(side, kind))),
        };
        let to = mv.to().index();
        let taken = self.squares.get(to).copied().unwrap_or(EMPTY);
        self.put(to, piece);
        Moved { piece, taken }
    }

    /// Puts `place` on square index `sq`, marking its file.
    #[inline(always)]
    fn put(&mut self, sq: usize, place: u8) {
        if let Some(square) = self.squares.get_mut(sq) {
            *square = place;
            self.stale |= 1 << (sq / 9);
        }
    }

    /// The codes of the squares' files, with `PAIR` their flips too, and
    /// the files coded again, a bit each: those a move played on the
    /// squares changed (every file when flips are newly asked for).
    #[inline]
    pub(super) fn coded<const PAIR: bool>(&mut self) -> (&[FileCode; 9], u16) {
        if PAIR && !self.paired {
            self.stale = ALL_FILES;
        }
        let (coded, mut stale) = (self.stale, self.stale);
        while stale != 0 {
            let file = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            self.code::<PAIR>(file);
        }
        self.stale = 0;
        self.paired = PAIR;
        (&self.codes, coded)
    }

    /// Codes file `file` (0 for the first) again from the squares, each
    /// square in rank order; with `PAIR`, its flips too.
    #[inline(always)]
    fn code<const PAIR: bool>(&mut self, file: usize) {
        let at = file * 9;
        let (Some(code), Some(squares)) = (self.codes.get_mut(file), self.squares.get(at..at + 9))
        else {
            return;
        };
        let (ours, others) = (&PIECES[self.d], &PIECES[1 - self.d]);
        let (mut bits, mut flips, mut len) = (0u64, 0u64, 0u32);
        for &square in squares {
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
        }
        *code = FileCode {
            code: Emit { bits, len },
            flips,
        };
    }
}
