//! What follows the board in a packed position (both hands, then the
//! box), kept from the last position packed. The same hands and box are
//! the same bits, and they end at bit 256, so they start where they
//! started: the board before them has as long a code. A move that neither
//! captures nor drops keeps both, so the last position's words are copied
//! from where the board ends rather than written again.

/// What the off-board part was written for: both hands' counts, black's
/// first, and the box's.
pub(super) type Key = ([[u8; 7]; 2], [u8; 7]);

/// The last position packed, in the packer's dialect, and the key of its
/// off-board part.
#[derive(Clone)]
pub(super) struct Tail {
    /// `None` before the first position and after a failed one.
    key: Option<Key>,
    words: [u64; 4],
    /// Whether `flips` holds where the other dialect's words differ.
    paired: bool,
    flips: [u64; 4],
}

impl Tail {
    /// No position yet.
    pub(super) fn new() -> Tail {
        Tail {
            key: None,
            words: [0; 4],
            paired: false,
            flips: [0; 4],
        }
    }

    /// The last position's words and flips, when its off-board part was
    /// written for `key` (`paired`: the flips are wanted too).
    #[inline(always)]
    pub(super) fn same(&mut self, key: &Key, paired: bool) -> Option<(&[u64; 4], &[u64; 4])> {
        let last = self.key.take()?;
        let fits = last == *key && paired <= self.paired;
        fits.then_some((&self.words, &self.flips))
    }

    /// Keeps a packed position's words (and flips, when `paired`) and the
    /// key of its off-board part.
    #[inline(always)]
    pub(super) fn keep(&mut self, key: Key, words: &[u64; 4], flips: Option<&[u64; 4]>) {
        self.key = Some(key);
        self.words = *words;
        self.paired = flips.is_some();
        if let Some(flips) = flips {
            self.flips = *flips;
        }
    }
}
