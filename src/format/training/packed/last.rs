//! The last position packed, kept so that the next one is written over it
//! and only the bits that changed are written again. The files before the
//! first file that changed are the same bits in the same place. When both
//! hands and the box are the same too, so is everything after the last
//! file that changed: what follows the board is the same bits, it ends at
//! bit 256, and the unchanged files before it are as long as they were. A
//! move that neither captures nor drops keeps the hands and the box, and
//! changes one file or two.

/// What follows the board was written for: both hands' counts, black's
/// first, and the box's (each as `frame::Counts`).
pub(super) type Key = [u64; 3];

/// The last position's words, where its files started, and the key of
/// what followed its board.
#[derive(Clone)]
pub(super) struct Last {
    /// `None` before the first position and after a failed one: the words
    /// hold nothing to keep.
    pub(super) key: Option<Key>,
    pub(super) words: [u64; 4],
    /// Whether `flips` holds where the other dialect's words differ.
    pub(super) paired: bool,
    pub(super) flips: [u64; 4],
    /// The bit each file's code started at, and then where the board
    /// ended.
    pub(super) starts: [u32; 10],
}

impl Last {
    /// No position yet.
    pub(super) fn new() -> Last {
        Last {
            key: None,
            words: [0; 4],
            paired: false,
            flips: [0; 4],
            starts: [0; 10],
        }
    }
}
