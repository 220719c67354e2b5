//! What follows the board in a packed position (both hands, then the
//! box), kept from the last position packed. A move that neither captures
//! nor drops leaves it as it was and where it was: the board's code keeps
//! its length while no piece comes onto the board or leaves it. So the
//! last position's words are copied from where the board ends, rather
//! than written again.

use super::files::Change;

/// What the off-board part was written for: both hands' counts, black's
/// first.
pub(super) type Key = [[u8; 7]; 2];

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

    /// The last position's words and flips, when its off-board part is
    /// the one of a position with hands `key` that `change` led to
    /// (`paired`: the flips are wanted too). That is so only when a move
    /// was played and left both hands as they were: it captured nothing
    /// and dropped nothing, so the board has as many pieces and the box
    /// holds what it held. Positions that merely hold the same hands can
    /// differ in the box.
    #[inline(always)]
    pub(super) fn same(
        &mut self,
        key: Key,
        change: Change,
        paired: bool,
    ) -> Option<(&[u64; 4], &[u64; 4])> {
        let last = self.key.take()?;
        let fits = matches!(change, Change::Played(_)) && last == key && paired <= self.paired;
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
