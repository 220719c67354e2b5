//! The last position packed, kept so that the next one is written over it.
//! When both hands and the box are the same as the last position's and
//! the board is as long, what follows the board is the same bits in the
//! same place, and is kept. A move that neither captures nor drops keeps
//! the hands, the box and the board's length.

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
    /// The bit where the board ended, and the bits from there on.
    pub(super) end: u32,
    pub(super) after: [u64; 4],
}

impl Last {
    /// No position yet.
    pub(super) fn new() -> Last {
        Last {
            key: None,
            words: [0; 4],
            paired: false,
            flips: [0; 4],
            end: 0,
            after: [0; 4],
        }
    }
}
