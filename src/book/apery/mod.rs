//! Apery's binary books (`.bin`), which YaneuraOu, dlshogi and cshogi read.
//!
//! A book is a run of 16-byte little-endian entries sorted by key: the
//! position's key (u64), the move (u16, Apery's `move16`), how many times
//! it was played (u16) and its value (i32). One entry per book move; a
//! position's moves are neighbours. The file holds no SFEN, no ply, no
//! ponder move and no depth: [`write`] drops them, [`read`] leaves them
//! empty (ponder `None`, depth 0).
//!
//! The key ([`key`]) is Apery's Zobrist hash of the position. Its tables
//! are numbers from a 64-bit Mersenne Twister (std::mt19937_64 with its
//! default seed, 5489), drawn in this order: for each of Apery's 31 piece
//! codes (empty, Black's fourteen pieces at 1–14, White's at 17–30) the 81
//! squares (file-major: 1a, 1b, …, 9i); then for each hand kind (pawn,
//! lance, knight, silver, gold, bishop, rook) the counts 0 to 18; then the
//! side to move. A key XORs the number of each occupied square's piece,
//! the number of the count of each kind in the hand of the side to move
//! (the other hand is left out, count 0 included), and the side's number
//! when White is to move.
//!
//! Since a file holds keys, not positions, reading one means walking the
//! book from given positions (the start, usually): each position reached
//! whose key is in the file gets the moves stored under it, and each of
//! those moves leads on.

use super::query::{rotated, Answer};
use super::BookMove;
use crate::training::move16::{decode, Layout};
use crate::{Color, PieceKind, Position};
use std::io::{Seek, SeekFrom};

mod walk;
mod write;
pub use walk::{read, walk, Entries, InMemory, OnDisk, Read, Walked, STRIDE};
pub use write::{write, write_text, Written};

/// The bytes of one entry.
pub const ENTRY_SIZE: usize = 16;

/// The largest hand count with its own number (every count a position can
/// have: eighteen pawns).
const MAX_HAND: usize = 18;

/// std::mt19937_64: the 64-bit Mersenne Twister, at compile time.
struct Mt {
    state: [u64; 312],
    next: usize,
}

impl Mt {
    const N: usize = 312;

    const fn new(seed: u64) -> Mt {
        let mut state = [0u64; 312];
        state[0] = seed;
        let mut i = 1;
        while i < Self::N {
            let prev = state[i - 1];
            state[i] = 6_364_136_223_846_793_005u64
                .wrapping_mul(prev ^ (prev >> 62))
                .wrapping_add(i as u64);
            i += 1;
        }
        Mt {
            state,
            next: Self::N,
        }
    }

    /// Makes the next 312 numbers of the state.
    const fn twist(&mut self) {
        let mut i = 0;
        while i < Self::N {
            let y = (self.state[i] & 0xFFFF_FFFF_8000_0000)
                | (self.state[(i + 1) % Self::N] & 0x7FFF_FFFF);
            let mut x = self.state[(i + 156) % Self::N] ^ (y >> 1);
            if y & 1 == 1 {
                x ^= 0xB502_6F5A_A966_19E9;
            }
            self.state[i] = x;
            i += 1;
        }
        self.next = 0;
    }

    const fn next(&mut self) -> u64 {
        if self.next >= Self::N {
            self.twist();
        }
        let mut x = self.state[self.next];
        self.next += 1;
        x ^= (x >> 29) & 0x5555_5555_5555_5555;
        x ^= (x << 17) & 0x71D6_7FFF_EDA6_0000;
        x ^= (x << 37) & 0xFFF7_EEE0_0000_0000;
        x ^ (x >> 43)
    }
}

/// Apery's piece number (1–14) of each of kifconv's kinds, in
/// [`PieceKind::ALL`] order; White's is 16 more.
const APERY_KIND: [usize; 14] = [1, 2, 3, 4, 7, 5, 6, 8, 9, 10, 11, 12, 13, 14];

struct Keys {
    /// By color, kind (kifconv's index) and square.
    pieces: [[[u64; 81]; 14]; 2],
    /// By hand kind (kifconv's index, which is Apery's order) and count.
    hands: [[u64; MAX_HAND + 1]; 7],
    white: u64,
}

static KEYS: Keys = {
    let mut mt = Mt::new(5489);
    let mut numbers = [[0u64; 81]; 31];
    let mut code = 0;
    while code < 31 {
        let mut sq = 0;
        while sq < 81 {
            numbers[code][sq] = mt.next();
            sq += 1;
        }
        code += 1;
    }
    let mut pieces = [[[0u64; 81]; 14]; 2];
    let mut kind = 0;
    while kind < 14 {
        pieces[0][kind] = numbers[APERY_KIND[kind]];
        pieces[1][kind] = numbers[APERY_KIND[kind] + 16];
        kind += 1;
    }
    let mut hands = [[0u64; MAX_HAND + 1]; 7];
    let mut kind = 0;
    while kind < 7 {
        let mut n = 0;
        while n <= MAX_HAND {
            hands[kind][n] = mt.next();
            n += 1;
        }
        kind += 1;
    }
    let white = mt.next();
    Keys {
        pieces,
        hands,
        white,
    }
};

/// The position's key in an Apery book (see the module notes): what
/// cshogi's `Board.book_key()` gives.
///
/// ```
/// use kifconv::book::apery::key;
/// use kifconv::Position;
///
/// assert_eq!(key(&Position::startpos()), 0xeebe8ee7e1ad7e15);
/// ```
pub fn key(pos: &Position) -> u64 {
    let mut k = 0;
    for (sq, piece) in pos.board().iter().enumerate() {
        if let Some(p) = piece {
            k ^= KEYS.pieces[p.color.index()][p.kind.index()][sq];
        }
    }
    let side = pos.side_to_move();
    let hand = pos.hand(side);
    for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
        k ^= KEYS.hands[i][usize::from(hand.count(kind)).min(MAX_HAND)];
    }
    if side == Color::White {
        k ^= KEYS.white;
    }
    k
}

/// One entry of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's key.
    pub key: u64,
    /// The move, Apery's `move16`.
    pub code: u16,
    /// How many times it was played.
    pub count: u16,
    /// Its value.
    pub score: i32,
}

impl Record {
    fn from_bytes(b: &[u8; ENTRY_SIZE]) -> Record {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, c0, c1, s0, s1, s2, s3] = *b;
        Record {
            key: u64::from_le_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            code: u16::from_le_bytes([m0, m1]),
            count: u16::from_le_bytes([c0, c1]),
            score: i32::from_le_bytes([s0, s1, s2, s3]),
        }
    }

    fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut b = [0u8; ENTRY_SIZE];
        b[..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..10].copy_from_slice(&self.code.to_le_bytes());
        b[10..12].copy_from_slice(&self.count.to_le_bytes());
        b[12..].copy_from_slice(&self.score.to_le_bytes());
        b
    }
}

/// A fault of an Apery book: the entry (from 0; its byte offset is 16
/// times that) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AperyError {
    /// The entry's index.
    pub index: u64,
    /// What is wrong.
    pub message: String,
}

impl AperyError {
    /// The entry's first byte.
    pub fn offset(&self) -> u64 {
        self.index * ENTRY_SIZE as u64
    }
}

impl std::fmt::Display for AperyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "entry {} (byte {}): {}",
            self.index,
            self.offset(),
            self.message
        )
    }
}

impl std::error::Error for AperyError {}

impl From<AperyError> for std::io::Error {
    fn from(e: AperyError) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

/// The fault of a file of `len` bytes that is not a whole number of
/// entries, if it is not.
fn check_length(len: u64) -> Result<(), AperyError> {
    let rest = len % ENTRY_SIZE as u64;
    if rest == 0 {
        return Ok(());
    }
    Err(AperyError {
        index: len / ENTRY_SIZE as u64,
        message: format!(
            "only {rest} of its {ENTRY_SIZE} bytes: the file is {len} bytes, not a whole number of {ENTRY_SIZE}-byte entries"
        ),
    })
}

/// The fault of entry `index` whose key is below the key of the entry
/// `before` it in the file.
fn unsorted(index: u64, key: u64, before: u64, before_key: u64) -> AperyError {
    AperyError {
        index,
        message: format!(
            "key {key:016x} is below the key {before_key:016x} of entry {before}: an Apery book is sorted by key"
        ),
    }
}

/// Reads entry `index` of `file`.
fn entry_at<R: std::io::Read + Seek>(file: &mut R, index: u64) -> std::io::Result<Record> {
    let mut b = [0u8; ENTRY_SIZE];
    file.seek(SeekFrom::Start(index * ENTRY_SIZE as u64))?;
    file.read_exact(&mut b)?;
    Ok(Record::from_bytes(&b))
}

/// The moves of `pos` in an Apery book file of `len` bytes, found by
/// binary search, reading a few entries per probe, never the whole file
/// (none when the position's key is absent). The moves come in the file's
/// order, with ponder `None` and depth 0.
///
/// Every entry read is checked against those read before it: keys out of
/// order, a length that is not a whole number of entries, or a move that
/// is not legal in `pos` is an error of kind `InvalidData` holding an
/// [`AperyError`] that names the entry. A fault in a part of the file no
/// probe reads is not seen ([`read`] checks every entry).
pub fn lookup<R: std::io::Read + Seek>(
    mut file: R,
    len: u64,
    pos: &Position,
) -> std::io::Result<Vec<BookMove>> {
    check_length(len)?;
    let n = len / ENTRY_SIZE as u64;
    let k = key(pos);
    // Entries before `lo` have smaller keys; those from `hi` on, keys not
    // smaller. The nearest entries read on either side bound every key
    // read between them.
    let (mut lo, mut hi) = (0u64, n);
    let mut below: Option<(u64, u64)> = None;
    let mut above: Option<(u64, u64)> = None;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let r = entry_at(&mut file, mid)?;
        if let Some((i, key_i)) = below {
            if r.key < key_i {
                return Err(unsorted(mid, r.key, i, key_i).into());
            }
        }
        if let Some((i, key_i)) = above {
            if r.key > key_i {
                return Err(unsorted(i, key_i, mid, r.key).into());
            }
        }
        if r.key < k {
            lo = mid + 1;
            below = Some((mid, r.key));
        } else {
            hi = mid;
            above = Some((mid, r.key));
        }
    }
    let mut moves: Vec<BookMove> = Vec::new();
    // The entry at `lo` (if any) was read as `above`: its key is not
    // smaller. Those after it are checked against the one before.
    let mut index = lo;
    let mut before = k;
    while index < n {
        let r = entry_at(&mut file, index)?;
        if r.key < before {
            return Err(unsorted(index, r.key, index - 1, before).into());
        }
        if r.key != k {
            break;
        }
        before = r.key;
        let mv = match decode(pos, r.code, Layout::Apery) {
            Ok(mv) if pos.is_legal(mv) => mv,
            Ok(mv) => {
                return Err(AperyError {
                    index,
                    message: format!(
                        "move {:04x} ({mv}) is not legal in `{}`",
                        r.code,
                        pos.sfen()
                    ),
                }
                .into())
            }
            Err(e) => {
                return Err(AperyError {
                    index,
                    message: format!("move {:04x} is no move of `{}`: {e}", r.code, pos.sfen()),
                }
                .into())
            }
        };
        moves.push(BookMove {
            mv: mv.to_string(),
            ponder: None,
            value: r.score,
            depth: 0,
            count: u64::from(r.count),
        });
        index += 1;
    }
    Ok(moves)
}

/// Like [`lookup`], then, when `pos` is absent, its rotation (180°,
/// colours swapped), whose moves are rotated back, as YaneuraOu's
/// FlippedBook does (see [`super::query`]). The answer's ply is 0: the
/// file stores none.
pub fn lookup_flipped<R: std::io::Read + Seek>(
    mut file: R,
    len: u64,
    pos: &Position,
) -> std::io::Result<Option<Answer>> {
    let moves = lookup(&mut file, len, pos)?;
    if !moves.is_empty() {
        return Ok(Some(Answer {
            flipped: false,
            ply: 0,
            moves,
        }));
    }
    let moves = lookup(&mut file, len, &pos.flip())?;
    Ok((!moves.is_empty()).then(|| Answer {
        flipped: true,
        ply: 0,
        moves: rotated(moves),
    }))
}

#[cfg(test)]
mod tests;
