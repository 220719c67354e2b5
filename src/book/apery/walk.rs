//! Reading an Apery book: a file holds keys, not positions, so it is
//! walked from given positions (the start, usually). Each position reached
//! whose key is in the file gets the moves stored under it, and each legal
//! one is played to reach more positions. Positions are walked nearest
//! first, a distance from the roots at a time, so that each gets the
//! smallest ply it is reached at.
//!
//! The walk holds little: which entries were walked (a bit each), the
//! positions of the distance being walked and of the next (spilled to a
//! file in a given folder past a few thousand), and, for a file on disk,
//! every [`STRIDE`]th key.

use super::{check_length, key, unsorted, AperyError, Record, ENTRY_SIZE};
use crate::book::{check, BookMove, Entry};
use crate::training::move16::{decode, Layout};
use crate::Position;
use std::io::{self, BufRead, Read as _, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// A file on disk holds every this many entries' keys in memory.
pub const STRIDE: u64 = 256;

/// Past this many positions, a distance's positions go to a file.
const HELD: usize = 4096;

/// Where the walk finds a key's entries.
pub trait Entries {
    /// How many entries the file has.
    fn count(&self) -> u64;
    /// The index of the first entry with key `k`, and the entries with it
    /// (none when the key is absent).
    fn of(&mut self, k: u64) -> io::Result<(u64, Vec<Record>)>;
}

/// The entries of a whole file held in memory, checked: a whole number
/// of entries, keys in order (a key may repeat: a position's moves).
pub struct InMemory(Vec<Record>);

impl InMemory {
    /// The entries of `bytes`.
    pub fn new(bytes: &[u8]) -> Result<InMemory, AperyError> {
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
        Ok(InMemory(records))
    }
}

impl Entries for InMemory {
    fn count(&self) -> u64 {
        self.0.len() as u64
    }

    fn of(&mut self, k: u64) -> io::Result<(u64, Vec<Record>)> {
        let lo = self.0.partition_point(|r| r.key < k);
        let hi = lo + self.0[lo..].partition_point(|r| r.key == k);
        Ok((lo as u64, self.0[lo..hi].to_vec()))
    }
}

/// A file searched on disk: every [`STRIDE`]th key held, a key's entries
/// read from the block the held keys point to.
pub struct OnDisk<R> {
    file: R,
    count: u64,
    /// The keys of entries 0, STRIDE, 2·STRIDE…
    keys: Vec<u64>,
}

impl<R: io::Read + Seek> OnDisk<R> {
    /// Reads the file of `len` bytes once from its start, checking that it
    /// is a whole number of entries and its keys are in order (an error
    /// of kind `InvalidData` holding an [`AperyError`] otherwise).
    pub fn open(mut file: R, len: u64) -> io::Result<OnDisk<R>> {
        check_length(len)?;
        let count = len / ENTRY_SIZE as u64;
        file.seek(SeekFrom::Start(0))?;
        let mut reader = io::BufReader::new(&mut file);
        let mut keys = Vec::new();
        let mut before = 0;
        let mut bytes = [0u8; ENTRY_SIZE];
        for i in 0..count {
            reader.read_exact(&mut bytes)?;
            let k = Record::from_bytes(&bytes).key;
            if i > 0 && k < before {
                return Err(unsorted(i, k, i - 1, before).into());
            }
            if i % STRIDE == 0 {
                keys.push(k);
            }
            before = k;
        }
        drop(reader);
        Ok(OnDisk { file, count, keys })
    }
}

impl<R: io::Read + Seek> Entries for OnDisk<R> {
    fn count(&self) -> u64 {
        self.count
    }

    fn of(&mut self, k: u64) -> io::Result<(u64, Vec<Record>)> {
        // Held keys before `block` are below `k`: the first entry with `k`
        // comes after the held entry before that block's.
        let block = self.keys.partition_point(|&held| held < k) as u64;
        let mut index = block.saturating_sub(1) * STRIDE;
        let mut found = Vec::new();
        let mut first = index;
        let mut bytes = vec![0u8; STRIDE as usize * ENTRY_SIZE];
        self.file.seek(SeekFrom::Start(index * ENTRY_SIZE as u64))?;
        while index < self.count {
            let n = STRIDE.min(self.count - index) as usize;
            let bytes = &mut bytes[..n * ENTRY_SIZE];
            self.file.read_exact(bytes)?;
            for chunk in bytes.chunks_exact(ENTRY_SIZE) {
                let r = Record::from_bytes(chunk.try_into().expect("16-byte chunks"));
                if r.key > k {
                    return Ok((first, found));
                }
                if r.key == k {
                    if found.is_empty() {
                        first = index;
                    }
                    found.push(r);
                }
                index += 1;
            }
        }
        Ok((first, found))
    }
}

/// What a walk found beside the positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// Entries of the file whose key no position reached has: what the
    /// walk could not turn into positions.
    pub unreached: usize,
    /// Entries whose move is no legal move of the position reached with
    /// their key (counted once per such position), left out.
    pub bad_moves: usize,
    /// Entries that repeat a move already stored under their key: their
    /// count was added to the first one's.
    pub duplicates: usize,
    /// How many distances from the roots had so many positions that they
    /// went to a file.
    pub spilled: usize,
}

impl Walked {
    /// What the walk could not use, a line each.
    pub fn warnings(&self) -> Vec<String> {
        let said = [
            (
                self.unreached,
                "entries not reached from the start position (a .bin holds keys, not positions); left out",
            ),
            (
                self.bad_moves,
                "entries whose move is no legal move of their position; left out",
            ),
            (
                self.duplicates,
                "entries repeating a move of their position; their counts added",
            ),
        ];
        crate::book::counted(&said)
    }
}

/// The positions of one distance from the roots: held, and past [`HELD`]
/// written to a file of SFEN lines in a folder when one is given.
struct Level {
    held: Vec<Position>,
    dir: Option<PathBuf>,
    spilled: Option<(PathBuf, io::BufWriter<std::fs::File>)>,
}

impl Level {
    fn new(dir: Option<PathBuf>) -> Level {
        Level {
            held: Vec::new(),
            dir,
            spilled: None,
        }
    }

    fn push(&mut self, pos: Position) -> io::Result<()> {
        self.held.push(pos);
        let Some(dir) = self.dir.as_ref().filter(|_| self.held.len() >= HELD) else {
            return Ok(());
        };
        if self.spilled.is_none() {
            static LEVELS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let n = LEVELS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let path = dir.join(format!(".kifconv-walk-{}-{n}", std::process::id()));
            let file = std::fs::File::create_new(&path)?;
            self.spilled = Some((path, io::BufWriter::new(file)));
        }
        if let Some((_, out)) = &mut self.spilled {
            for pos in self.held.drain(..) {
                writeln!(out, "{}", pos.sfen())?;
            }
        }
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.held.is_empty() && self.spilled.is_none()
    }

    /// Calls `each` with every position, those spilled first.
    fn walk(mut self, mut each: impl FnMut(Position) -> io::Result<()>) -> io::Result<()> {
        if let Some((path, out)) = self.spilled.take() {
            let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
            drop(file);
            let read = std::fs::File::open(&path).and_then(|file| {
                for line in io::BufReader::new(file).lines() {
                    let line = line?;
                    let pos = Position::from_sfen(&line).map_err(io::Error::other)?;
                    each(pos)?;
                }
                Ok(())
            });
            let _ = std::fs::remove_file(&path);
            read?;
        }
        for pos in std::mem::take(&mut self.held) {
            each(pos)?;
        }
        Ok(())
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        if let Some((path, _)) = self.spilled.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Walks the book in `entries` from `roots` (see the module notes),
/// calling `each` with every position reached and its moves (legal ones,
/// a repeated move's counts added, in the book's order) and its ply. A
/// position whose key is absent is looked up rotated (as a flip-folded
/// book stores it), and the rotation found is the one kept. A key is
/// walked once, with the first position reached that has it. With `dir`,
/// the positions waiting to be walked go to files there past a few
/// thousand.
pub fn walk(
    entries: &mut dyn Entries,
    roots: &[Position],
    dir: Option<PathBuf>,
    mut each: impl FnMut(&Position, Entry) -> io::Result<()>,
) -> io::Result<Walked> {
    let count = entries.count();
    let mut walked = vec![0u64; count.div_ceil(64) as usize];
    let mut reached = 0u64;
    let mut out = Walked::default();
    // The position found under its own key or its rotation's, with its
    // entries, unless that key was walked already.
    let mut find = |entries: &mut dyn Entries, pos: Position| -> io::Result<_> {
        let (mut first, mut found) = entries.of(key(&pos))?;
        let mut pos = pos;
        if found.is_empty() {
            pos = pos.flip();
            (first, found) = entries.of(key(&pos))?;
        }
        let bit = 1u64 << (first % 64);
        let slot = walked.get_mut((first / 64) as usize);
        match slot {
            Some(word) if !found.is_empty() && *word & bit == 0 => {
                *word |= bit;
                reached += found.len() as u64;
                Ok(Some((pos, found)))
            }
            _ => Ok(None),
        }
    };
    let mut level = Level::new(dir.clone());
    for root in roots {
        if let Some((pos, found)) = find(entries, root.clone())? {
            level.push(pos)?;
            // The entries are looked up again when walked.
            drop(found);
        }
    }
    while !level.is_empty() {
        out.spilled += usize::from(level.spilled.is_some());
        let mut next = Level::new(dir.clone());
        level.walk(|pos| {
            let found = entries.of(key(&pos))?.1;
            let mut entry = Entry {
                ply: pos.move_number(),
                moves: Vec::new(),
            };
            for r in found {
                let mv = match decode(&pos, r.code, Layout::Apery) {
                    Ok(mv) if pos.is_legal(mv) => mv,
                    _ => {
                        out.bad_moves += 1;
                        continue;
                    }
                };
                let usi = mv.to_string();
                out.duplicates += usize::from(entry.moves.iter().any(|m| m.mv == usi));
                let new = BookMove {
                    mv: usi,
                    ponder: None,
                    value: r.score,
                    depth: 0,
                    count: u64::from(r.count),
                };
                check::add_move(&mut entry, new);
                let mut after = pos.clone();
                after.play_unchecked(mv);
                if let Some((after, _)) = find(entries, after)? {
                    next.push(after)?;
                }
            }
            entry.sort();
            each(&pos, entry)
        })?;
        level = next;
    }
    out.unreached = (count - reached) as usize;
    Ok(out)
}

/// A whole book read from an Apery file (see [`read`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// The positions reached and their moves; each entry's ply is the
    /// smallest it was reached at from the roots (their own move number
    /// plus the moves played).
    pub book: crate::book::Book,
    /// What the walk found beside the positions.
    pub walked: Walked,
}

/// Reads a whole Apery book held in memory by walking it from `roots`
/// (see [`walk`]). A file that is not a whole number of entries, or whose
/// keys are not in order, is an error naming the entry.
pub fn read(bytes: &[u8], roots: &[Position]) -> Result<Read, AperyError> {
    let mut entries = InMemory::new(bytes)?;
    let mut book = crate::book::Book::default();
    let walked = walk(&mut entries, roots, None, |pos, entry| {
        book.entries.insert(crate::book::key(pos), entry);
        Ok(())
    })
    .map_err(|e| AperyError {
        index: 0,
        message: e.to_string(),
    })?;
    Ok(Read { book, walked })
}
