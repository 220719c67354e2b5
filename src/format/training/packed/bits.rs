//! The writer of a packed position's 256 bits, a code at a time.

use super::Emit;

/// 256 bits written least significant first, a code at a time: the word
/// being filled is kept apart (in a register) and stored when full.
///
/// With `PAIR`, each code comes with the other dialect's code for the same
/// thing. The two dialects give every piece a code of the same length, so
/// their codes fall in the same places; the bits where they differ are
/// kept alongside, and the other dialect's words are the first's with
/// those bits flipped.
pub(super) struct Bits<'w, const PAIR: bool> {
    words: &'w mut [u64; 4],
    word: usize,
    acc: u64,
    filled: u32,
    /// With `PAIR`, the bits where the other dialect differs, placed as
    /// `words`' are.
    flips: &'w mut [u64; 4],
    flip: u64,
}

impl<'w, const PAIR: bool> Bits<'w, PAIR> {
    /// Bits written into `words` (and `flips`, with `PAIR`) from the
    /// first on; whatever they held is written over.
    #[inline(always)]
    pub(super) fn new(words: &'w mut [u64; 4], flips: &'w mut [u64; 4]) -> Bits<'w, PAIR> {
        Bits {
            words,
            word: 0,
            acc: 0,
            filled: 0,
            flips,
            flip: 0,
        }
    }

    /// Stores the full word and starts the next with `rest` (and `flip`).
    #[inline(always)]
    fn store(&mut self, rest: u64, flip: u64) {
        // Never past 256 bits: a position holds no more than a set (and a
        // word past the end would be dropped, not written).
        if let Some(w) = self.words.get_mut(self.word) {
            *w = self.acc;
        }
        if PAIR {
            if let Some(w) = self.flips.get_mut(self.word) {
                *w = self.flip;
            }
            self.flip = flip;
        }
        self.word += 1;
        self.filled -= 64;
        self.acc = rest;
    }

    /// `e`; with `PAIR`, `other` is the other dialect's code for the same
    /// thing, of the same length.
    #[inline(always)]
    pub(super) fn put(&mut self, e: Emit, other: Emit) {
        self.put_flipped(e, e.bits ^ other.bits);
    }

    /// `e` (at most 64 bits); with `PAIR`, `flip` is where the other
    /// dialect's code for the same thing differs.
    #[inline(always)]
    pub(super) fn put_flipped(&mut self, e: Emit, flip: u64) {
        self.acc |= e.bits << self.filled;
        if PAIR {
            self.flip |= flip << self.filled;
        }
        self.filled += e.len;
        if self.filled >= 64 {
            let (rest, flip) = match self.filled - 64 {
                0 => (0, 0),
                left => (e.bits >> (e.len - left), flip >> (e.len - left)),
            };
            self.store(rest, flip);
        }
    }

    /// `gap` 0 bits, then `e` (see [`Bits::put`]).
    #[inline(always)]
    pub(super) fn put_after(&mut self, gap: u32, e: Emit, other: Emit) {
        let at = self.filled + gap;
        if at + e.len < 64 {
            // Both fit in the word being filled.
            self.acc |= e.bits << at;
            if PAIR {
                self.flip |= (e.bits ^ other.bits) << at;
            }
            self.filled = at + e.len;
        } else {
            self.zeros(gap as usize);
            self.put(e, other);
        }
    }

    /// `n` 0 bits.
    #[inline(always)]
    pub(super) fn zeros(&mut self, n: usize) {
        self.filled += n as u32;
        while self.filled >= 64 {
            self.store(0, 0);
        }
    }

    /// The bits written so far.
    #[cfg(debug_assertions)]
    #[inline(always)]
    pub(super) fn at(&self) -> u32 {
        self.word as u32 * 64 + self.filled
    }

    /// Stores the last word.
    #[inline(always)]
    pub(super) fn finish(self) {
        if let Some(w) = self.words.get_mut(self.word) {
            *w = self.acc;
        }
        if PAIR {
            if let Some(w) = self.flips.get_mut(self.word) {
                *w = self.flip;
            }
        }
    }
}
