//! Writing an Apery book: every move of a sorted text book becomes an
//! entry under its position's key, the entries sorted by key through
//! [`crate::book::runs`], so that a book larger than memory is written
//! through runs on disk.

use super::{key, Record, ENTRY_SIZE};
use crate::book::runs::{Item, Sorter};
use crate::book::{check, Book, Entry};
use crate::training::move16::{encode, Layout};
use crate::{Move, Position};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

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
    /// Moves whose ponder was left out (a `.bin` holds none).
    pub ponders: usize,
}

impl Written {
    /// What the file could not hold, a line each.
    pub fn losses(&self) -> Vec<String> {
        let said = [
            (
                self.saturated,
                "counts above 65535 written as 65535 (a .bin holds 16-bit counts)",
            ),
            (
                self.shared_keys,
                "positions sharing Apery's key with another (it leaves out the hand of the side not to move): their moves written under the one key",
            ),
            (self.ponders, "ponder moves left out (a .bin holds none)"),
        ];
        crate::book::counted(&said)
    }
}

/// A book position or move that cannot be written.
fn unwritable(key: &str, what: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("book position `{key}`: {what}"),
    )
}

/// The entries of one key while they are sorted: how many book positions
/// gave them, and each entry's move, count and value.
struct Moves {
    positions: usize,
    records: Vec<Record>,
}

impl Item for Moves {
    const FIELDS: usize = 2;

    fn weight(&self) -> usize {
        64 + self.records.len() * ENTRY_SIZE
    }

    /// A later position's moves go after the earlier one's.
    fn add(&mut self, other: Moves) {
        self.positions += other.positions;
        self.records.extend(other.records);
    }

    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}\t", self.positions)?;
        for r in &self.records {
            write!(out, "{:04x}{:04x}{:08x}", r.code, r.count, r.score as u32)?;
        }
        Ok(())
    }

    fn read(fields: &[&str]) -> Option<Moves> {
        let [positions, records] = fields else {
            return None;
        };
        let hex = |s: Option<&[u8]>| u32::from_str_radix(std::str::from_utf8(s?).ok()?, 16).ok();
        let records = records
            .as_bytes()
            .chunks(16)
            .map(|c| {
                Some(Record {
                    // The key is the run's key (see write_text).
                    key: 0,
                    code: hex(c.get(0..4))? as u16,
                    count: hex(c.get(4..8))? as u16,
                    score: hex(c.get(8..16))? as i32,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Moves {
            positions: positions.parse().ok()?,
            records,
        })
    }
}

/// A position's moves as entries, in the book's order (most played first,
/// then the higher value, then the move's text).
fn encoded(sfen: &str, mut entry: Entry, written: &mut Written) -> io::Result<(u64, Moves)> {
    let pos = Position::from_sfen(&format!("{sfen} 1"))
        .map_err(|e| unwritable(sfen, format!("not a position: {e}")))?;
    let k = key(&pos);
    entry.sort();
    let mut records = Vec::with_capacity(entry.moves.len());
    for m in &entry.moves {
        let mv =
            Move::from_usi(&m.mv).map_err(|e| unwritable(sfen, format!("move `{}`: {e}", m.mv)))?;
        let count = u16::try_from(m.count).unwrap_or_else(|_| {
            written.saturated += 1;
            u16::MAX
        });
        written.ponders += usize::from(m.ponder.is_some());
        records.push(Record {
            key: k,
            code: encode(mv, Layout::Apery),
            count,
            score: m.value,
        });
    }
    let moves = Moves {
        positions: 1,
        records,
    };
    Ok((k, moves))
}

/// The entries of the positions given, sorted by key.
struct Entries {
    sorter: Sorter<Moves>,
    written: Written,
}

impl Entries {
    /// With `limit` (bytes, folder), the entries go through sorted runs
    /// in the folder past about that many bytes.
    fn new(limit: Option<(usize, PathBuf)>) -> Entries {
        let mut sorter = Sorter::default();
        if let Some((bytes, dir)) = limit {
            sorter = sorter.with_limit(bytes, dir);
        }
        Entries {
            sorter,
            written: Written::default(),
        }
    }

    fn add(&mut self, sfen: &str, entry: Entry) -> io::Result<()> {
        let (k, moves) = encoded(sfen, entry, &mut self.written)?;
        self.sorter.add(&format!("{k:016x}"), moves)
    }

    fn finish(self, out: &mut dyn Write) -> io::Result<Written> {
        let mut written = self.written;
        self.sorter.finish(|k, moves| {
            let k = u64::from_str_radix(k, 16)
                .map_err(|_| io::Error::other(format!("a run key `{k}` is no key")))?;
            written.shared_keys += moves.positions - 1;
            written.entries += moves.records.len();
            for r in moves.records {
                out.write_all(&Record { key: k, ..r }.to_bytes())?;
            }
            Ok(())
        })?;
        out.flush()?;
        Ok(written)
    }
}

/// Writes the sorted text book read from `text` as an Apery book: one
/// entry per move, sorted by key, and within a key in the book's order
/// (see [`encoded`]), which is the order in which readers that take the
/// first entry, or the most played, find the most played move first. The
/// ply, ponder move and depth are not stored; a count above 65535 is
/// written as 65535 (counted in [`Written::saturated`]); the value is
/// written as it is (both are i32). With `limit` (bytes, folder), the
/// entries go through sorted runs in the folder past about that many
/// bytes.
///
/// A fault of the text (see [`check::each_entry`]), a position whose key
/// cannot be read or a move whose USI cannot is an error.
pub fn write_text(
    text: &mut dyn BufRead,
    out: &mut dyn Write,
    limit: Option<(usize, PathBuf)>,
) -> io::Result<Written> {
    let mut entries = Entries::new(limit);
    check::each_entry(text, |sfen, entry| entries.add(&sfen, entry))?;
    entries.finish(out)
}

/// [`write_text`] of a whole book held in memory.
pub fn write(book: &Book, out: &mut impl Write) -> io::Result<Written> {
    let mut entries = Entries::new(None);
    for (sfen, entry) in &book.entries {
        entries.add(sfen, entry.clone())?;
    }
    entries.finish(&mut io::BufWriter::new(out))
}
