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
use super::{check, Book, BookMove, Entry};
use crate::training::move16::{decode, encode, Layout};
use crate::{Color, Move, PieceKind, Position};
use std::collections::{HashSet, VecDeque};
use std::io::{Seek, SeekFrom};

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
struct Record {
    key: u64,
    code: u16,
    count: u16,
    score: i32,
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

/// The entries of a whole file, checked: a whole number of entries, keys
/// in order (a key may repeat: a position's moves).
fn entries(bytes: &[u8]) -> Result<Vec<Record>, AperyError> {
    check_length(bytes.len() as u64)?;
    let records: Vec<Record> = bytes
        .chunks_exact(ENTRY_SIZE)
        .map(|c| Record::from_bytes(c.try_into().expect("16-byte chunks")))
        .collect();
    for (i, pair) in records.windows(2).enumerate() {
        if pair[1].key < pair[0].key {
            return Err(unsorted(i as u64 + 1, pair[1].key, i as u64, pair[0].key));
        }
    }
    Ok(records)
}

/// What [`write`] wrote, and what it had to change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The entries written (one per book move).
    pub entries: usize,
    /// Moves whose count was above 65535 and was written as 65535.
    pub saturated: usize,
    /// Book positions whose key is also an earlier position's (Apery's key
    /// leaves out the hand of the side not to move, so two positions whose
    /// boards and mover's hands agree share it): their moves are written
    /// under the one key, after the earlier position's.
    pub shared_keys: usize,
}

/// A book position or move that cannot be written.
fn unwritable(key: &str, what: String) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("book position `{key}`: {what}"),
    )
}

/// Writes `book` as an Apery book: one entry per move, sorted by key, and
/// within a key in the book's order (most played first, then the higher
/// value, then the move's text), which is the order in which readers that
/// take the first entry, or the most played, find the most played move
/// first. The ply, ponder move and depth are not stored; a count above
/// 65535 is written as 65535 (counted in [`Written::saturated`]). The
/// value is written as it is (both are i32).
///
/// A position whose SFEN key cannot be read, or a move whose USI cannot,
/// is an error of kind `InvalidData` (the book was not made by kifconv).
pub fn write(book: &Book, out: &mut impl std::io::Write) -> std::io::Result<Written> {
    let mut records = Vec::new();
    let mut written = Written::default();
    // The key of each position, in the book's order, to count shared ones.
    let mut keys = Vec::with_capacity(book.entries.len());
    for (sfen, entry) in &book.entries {
        let pos = Position::from_sfen(&format!("{sfen} 1"))
            .map_err(|e| unwritable(sfen, format!("not a position: {e}")))?;
        let k = key(&pos);
        keys.push(k);
        let mut sorted = entry.clone();
        sorted.sort();
        for m in &sorted.moves {
            let mv = Move::from_usi(&m.mv)
                .map_err(|e| unwritable(sfen, format!("move `{}`: {e}", m.mv)))?;
            let count = u16::try_from(m.count).unwrap_or_else(|_| {
                written.saturated += 1;
                u16::MAX
            });
            records.push(Record {
                key: k,
                code: encode(mv, Layout::Apery),
                count,
                score: m.value,
            });
        }
    }
    keys.sort_unstable();
    written.shared_keys = keys.windows(2).filter(|w| w[0] == w[1]).count();
    // Stable: a key's moves keep the book's order.
    records.sort_by_key(|r| r.key);
    let mut buffer = Vec::with_capacity(records.len() * ENTRY_SIZE);
    for r in &records {
        buffer.extend_from_slice(&r.to_bytes());
    }
    out.write_all(&buffer)?;
    written.entries = records.len();
    Ok(written)
}

/// A book read from an Apery file (see [`read`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// The positions reached and their moves; each entry's ply is the
    /// smallest it was reached at from the roots (their own move number
    /// plus the moves played).
    pub book: Book,
    /// Entries of the file whose key no position reached has: what the
    /// walk could not turn into positions.
    pub unreached: usize,
    /// Entries whose move is no legal move of the position reached with
    /// their key (counted once per such position), left out.
    pub bad_moves: usize,
    /// Entries that repeat a move already stored under their key: their
    /// count was added to the first one's.
    pub duplicates: usize,
}

/// Reads an Apery book by walking it from `roots` (see the module notes):
/// every position reached whose key is in the file gets the moves stored
/// under the key, and each legal one is played to reach more positions. A
/// position whose key is absent is looked up rotated (as a flip-folded
/// book stores it), and the rotation found is the one kept.
/// Positions are reached nearest first, so each gets its smallest ply.
///
/// A file that is not a whole number of entries, or whose keys are not in
/// order, is an error naming the entry.
pub fn read(bytes: &[u8], roots: &[Position]) -> Result<Read, AperyError> {
    let records = entries(bytes)?;
    let mut out = Read::default();
    let mut reached = vec![false; records.len()];
    let range = |k: u64| {
        let lo = records.partition_point(|r| r.key < k);
        let hi = lo + records[lo..].partition_point(|r| r.key == k);
        lo..hi
    };
    // A position is found under its own key or, in a flip-folded book,
    // under its rotation's: the walk goes on from the position found.
    let find = |pos: Position| {
        let found = range(key(&pos));
        if !found.is_empty() {
            return Some((pos, found));
        }
        let rotated = pos.flip();
        let found = range(key(&rotated));
        (!found.is_empty()).then_some((rotated, found))
    };
    let mut seen: HashSet<String> = HashSet::new();
    let mut queue: VecDeque<(Position, std::ops::Range<usize>)> = VecDeque::new();
    for root in roots {
        if let Some((pos, found)) = find(root.clone()) {
            if seen.insert(super::key(&pos)) {
                queue.push_back((pos, found));
            }
        }
    }
    while let Some((pos, found)) = queue.pop_front() {
        let mut entry = Entry {
            ply: pos.move_number(),
            moves: Vec::new(),
        };
        for i in found {
            reached[i] = true;
            let r = records[i];
            let mv = match decode(&pos, r.code, Layout::Apery) {
                Ok(mv) if pos.is_legal(mv) => mv,
                _ => {
                    out.bad_moves += 1;
                    continue;
                }
            };
            if entry.moves.iter().any(|m| m.mv == mv.to_string()) {
                out.duplicates += 1;
            }
            check::add_move(
                &mut entry,
                BookMove {
                    mv: mv.to_string(),
                    ponder: None,
                    value: r.score,
                    depth: 0,
                    count: u64::from(r.count),
                },
            );
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if let Some((next, found)) = find(next) {
                if seen.insert(super::key(&next)) {
                    queue.push_back((next, found));
                }
            }
        }
        entry.sort();
        out.book.entries.insert(super::key(&pos), entry);
    }
    out.unreached = reached.iter().filter(|&&r| !r).count();
    Ok(out)
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
mod tests {
    use super::*;
    use crate::test_util::files::fixtures;
    use crate::test_util::games::random_line;
    use crate::test_util::rng::Rng;
    use std::io::Cursor;

    /// Every position of the vectors cshogi wrote
    /// (scripts/book-apery-vectors.py keys) has cshogi's key.
    #[test]
    fn keys_are_cshogis() {
        let text = std::fs::read_to_string(fixtures().join("book/apery-keys.tsv")).unwrap();
        let mut n = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (sfen, expected) = line.split_once('\t').unwrap();
            let pos = Position::from_sfen(sfen).unwrap();
            let expected = u64::from_str_radix(expected, 16).unwrap();
            assert_eq!(key(&pos), expected, "{sfen}");
            n += 1;
        }
        assert!(n > 5000, "{n} vectors");
    }

    /// The book cshogi's conventions wrote (scripts/book-apery-vectors.py
    /// bin) and the moves it meant: `sfen`, move, count, score per line, in
    /// the file's order.
    fn cshogi_book() -> (Vec<u8>, Book) {
        let bytes = std::fs::read(fixtures().join("book/cshogi.bin")).unwrap();
        let text = std::fs::read_to_string(fixtures().join("book/cshogi-bin.tsv")).unwrap();
        let mut book = Book::default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = line.split('\t').collect();
            let pos = Position::from_sfen(cols[0]).unwrap();
            let entry = book.entries.entry(pos.sfen_key()).or_default();
            entry.ply = pos.move_number();
            entry.moves.push(BookMove {
                mv: cols[1].to_string(),
                ponder: None,
                value: cols[3].parse().unwrap(),
                depth: 0,
                count: cols[2].parse().unwrap(),
            });
        }
        (bytes, book)
    }

    /// The moves of each entry, without the ply (a walk may reach a
    /// position sooner than the games did).
    fn moves_of(book: &Book) -> Vec<(&String, &Vec<BookMove>)> {
        book.entries.iter().map(|(k, e)| (k, &e.moves)).collect()
    }

    /// Reading cshogi's book from the start gives every move it meant, with
    /// its count and score, and nothing else; writing what it meant gives
    /// cshogi's bytes.
    #[test]
    fn cshogis_book_read_and_written() {
        let (bytes, book) = cshogi_book();
        let read = read(&bytes, &[Position::startpos()]).unwrap();
        assert_eq!(read.unreached, 0);
        assert_eq!(read.bad_moves, 0);
        assert_eq!(read.duplicates, 0);
        assert_eq!(moves_of(&read.book), moves_of(&book));
        let mut out = Vec::new();
        let written = write(&book, &mut out).unwrap();
        assert_eq!(written.entries, bytes.len() / ENTRY_SIZE);
        assert_eq!((written.saturated, written.shared_keys), (0, 0));
        assert!(out == bytes, "kifconv's bytes differ from cshogi's");
        // Every position by binary search, and one not in the book.
        for (sfen, entry) in &book.entries {
            let pos = Position::from_sfen(&format!("{sfen} 1")).unwrap();
            let found = lookup(Cursor::new(&bytes), bytes.len() as u64, &pos).unwrap();
            assert_eq!(&found, &entry.moves, "{sfen}");
        }
        let mut absent = Position::startpos();
        absent.play_usi_line("1g1f 1c1d 1f1e").unwrap();
        let found = lookup(Cursor::new(&bytes), bytes.len() as u64, &absent).unwrap();
        assert!(found.is_empty());
    }

    /// A book of random games (drops and promotions in them), values from
    /// one end of i32 to the other, written and read back from the start:
    /// the same moves, counts and values for every position.
    #[test]
    fn write_then_read_gives_the_book() {
        let mut rng = Rng::new(38);
        let mut book = Book::default();
        for _ in 0..12 {
            let mut pos = Position::startpos();
            for mv in random_line(60, &mut rng) {
                let value = match rng.below(8) {
                    0 => i32::MIN,
                    1 => i32::MAX,
                    _ => rng.next() as i32,
                };
                let entry = book.entries.entry(pos.sfen_key()).or_default();
                entry.ply = pos.move_number();
                check::add_move(
                    entry,
                    BookMove {
                        mv: mv.to_string(),
                        ponder: None,
                        value,
                        depth: 0,
                        // Small enough that a move's sum stays below 65536.
                        count: 1 + rng.below(3_000) as u64,
                    },
                );
                pos.play(mv).unwrap();
            }
        }
        for entry in book.entries.values_mut() {
            entry.sort();
        }
        let mut bytes = Vec::new();
        let written = write(&book, &mut bytes).unwrap();
        let moves: usize = book.entries.values().map(|e| e.moves.len()).sum();
        assert_eq!(written.entries, moves);
        assert_eq!(bytes.len(), moves * ENTRY_SIZE);
        assert_eq!(written.saturated, 0);
        let back = read(&bytes, &[Position::startpos()]).unwrap();
        assert_eq!((back.unreached, back.bad_moves), (0, 0));
        assert_eq!(back.book.entries.len(), book.entries.len());
        for ((key, moves), (key_back, moves_back)) in
            moves_of(&book).into_iter().zip(moves_of(&back.book))
        {
            assert_eq!((key, moves), (key_back, moves_back));
        }
        // The walk reaches each position no later than the games did.
        for (sfen, entry) in &back.book.entries {
            assert!(entry.ply <= book.entries[sfen].ply, "{sfen}");
        }
        // From no root, nothing is reached.
        let none = read(&bytes, &[]).unwrap();
        assert_eq!(none.unreached, moves);
        assert!(none.book.entries.is_empty());
    }

    /// Counts above u16 are written as 65535 and counted; a move repeated
    /// under a key is added up when read and counted.
    #[test]
    fn saturated_counts_and_repeated_moves_are_counted() {
        let start = Position::startpos();
        let mut book = Book::default();
        let mv = |usi: &str, count| BookMove {
            mv: usi.to_string(),
            ponder: None,
            value: 7,
            depth: 3,
            count,
        };
        book.entries.insert(
            start.sfen_key(),
            Entry {
                ply: 1,
                moves: vec![mv("7g7f", 70_000), mv("2g2f", 65_535)],
            },
        );
        let mut bytes = Vec::new();
        let written = write(&book, &mut bytes).unwrap();
        assert_eq!((written.entries, written.saturated), (2, 1));
        let back = read(&bytes, std::slice::from_ref(&start)).unwrap();
        let counts: Vec<(&str, u64)> = back.book.entries[&start.sfen_key()]
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), m.count))
            .collect();
        assert_eq!(counts, [("2g2f", 65_535), ("7g7f", 65_535)]);
        // The same entry twice: one move, counts added.
        let twice = [&bytes[..ENTRY_SIZE], &bytes[..ENTRY_SIZE]].concat();
        let back = read(&twice, std::slice::from_ref(&start)).unwrap();
        assert_eq!(back.duplicates, 1);
        assert_eq!(back.book.entries[&start.sfen_key()].moves[0].count, 131_070);
    }

    /// A white-to-move position absent from a book of its rotation is found
    /// through the rotation, with the moves rotated back.
    #[test]
    fn flipped_lookup() {
        let mut after = Position::startpos();
        after.play_usi_line("7g7f").unwrap();
        let mut book = Book::default();
        let flipped = after.flip();
        book.entries.insert(
            flipped.sfen_key(),
            Entry {
                ply: 2,
                moves: vec![BookMove {
                    mv: "7g7f".to_string(),
                    ponder: None,
                    value: -12,
                    depth: 0,
                    count: 4,
                }],
            },
        );
        let mut bytes = Vec::new();
        write(&book, &mut bytes).unwrap();
        let len = bytes.len() as u64;
        let answer = lookup_flipped(Cursor::new(&bytes), len, &after)
            .unwrap()
            .unwrap();
        assert!(answer.flipped);
        assert_eq!(answer.moves[0].mv, "3c3d");
        assert_eq!((answer.moves[0].count, answer.moves[0].value), (4, -12));
        let start = Position::startpos();
        assert_eq!(
            lookup_flipped(Cursor::new(&bytes), len, &start).unwrap(),
            None
        );
    }

    /// The fault of a search for the start position.
    fn lookup_fault(bytes: &[u8]) -> AperyError {
        let e = lookup(
            Cursor::new(bytes),
            bytes.len() as u64,
            &Position::startpos(),
        )
        .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        *e.into_inner().unwrap().downcast::<AperyError>().unwrap()
    }

    /// A file cut short or out of order is an error naming the entry, in a
    /// read and in a search; a move not legal in the position searched is
    /// one too.
    #[test]
    fn faults_name_the_entry() {
        let start = Position::startpos();
        let entry = |k: u64, code: u16| {
            Record {
                key: k,
                code,
                count: 1,
                score: 0,
            }
            .to_bytes()
        };
        let k = key(&start);
        let f = encode(Move::from_usi("7g7f").unwrap(), Layout::Apery);
        let mut cut = [entry(k - 1, f), entry(k, f)].concat();
        cut.truncate(20);
        let e = read(&cut, std::slice::from_ref(&start)).unwrap_err();
        assert_eq!((e.index, e.offset()), (1, 16));
        assert!(e.message.starts_with("only 4 of its 16 bytes"), "{e}");
        assert_eq!(lookup_fault(&cut), e);
        let unsorted = [entry(k, f), entry(k + 1, f), entry(k - 1, f)].concat();
        let e = read(&unsorted, std::slice::from_ref(&start)).unwrap_err();
        assert_eq!(e.index, 2);
        assert!(e.message.contains("sorted by key"), "{e}");
        // The search probes entry 1, then entry 0, whose key is above it.
        let e = lookup_fault(&[entry(k + 5, f), entry(k, f), entry(k - 5, f)].concat());
        assert_eq!(e.index, 1);
        assert!(e.message.contains("sorted by key"), "{e}");
        // 7g7e: a pawn moving two squares.
        let bad = encode(Move::from_usi("7g7e").unwrap(), Layout::Apery);
        let with_bad = [entry(k, f), entry(k, bad)].concat();
        let e = lookup_fault(&with_bad);
        assert_eq!(e.index, 1);
        assert!(e.message.contains("not legal"), "{e}");
        let back = read(&with_bad, &[start]).unwrap();
        assert_eq!((back.bad_moves, back.unreached), (1, 0));
    }

    /// Random bytes, and sorted files of random moves under the keys of
    /// positions near the start, never make a read or a search panic.
    #[test]
    fn random_files_never_panic() {
        let mut rng = Rng::new(0xb00c);
        let mut near = vec![Position::startpos()];
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let mut next = near.last().unwrap().clone();
            next.play_usi_line(usi).unwrap();
            near.push(next);
        }
        let keys: Vec<u64> = near.iter().map(key).collect();
        for round in 0..3000 {
            let len = rng.below(20) * ENTRY_SIZE + usize::from(rng.one_in(4)) * rng.below(16);
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if round % 2 == 0 {
                for chunk in bytes.chunks_exact_mut(ENTRY_SIZE) {
                    let k = keys[rng.below(keys.len())];
                    chunk[..8].copy_from_slice(&k.to_le_bytes());
                    if rng.one_in(2) {
                        chunk[9] &= 0x7f;
                    }
                }
                let whole = bytes.len() / ENTRY_SIZE * ENTRY_SIZE;
                let mut records: Vec<[u8; ENTRY_SIZE]> = bytes[..whole]
                    .chunks_exact(ENTRY_SIZE)
                    .map(|c| c.try_into().unwrap())
                    .collect();
                if rng.one_in(4) {
                    records.sort_by_key(|r| Record::from_bytes(r).key);
                }
                let tail = bytes[whole..].to_vec();
                bytes = records.concat();
                bytes.extend(tail);
            }
            let _ = read(&bytes, &near);
            for pos in &near {
                let _ = lookup_flipped(Cursor::new(&bytes), bytes.len() as u64, pos);
            }
        }
    }
}
