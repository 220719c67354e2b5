//! YaneuraOu's binary book, `.ybb` (`YANE-BINBOOK-V1`). All numbers are
//! little-endian:
//!
//! * a header of 32 bytes: the magic `YANE-BINBOOK-V1` and a NUL, a u64
//!   count of positions, a u64 of flags (bit 0: every move carries a
//!   depth; no other bit is known);
//! * the index: one entry of 44 bytes per position, strictly ascending in
//!   the bytes of its packed position (YaneuraOu searches it by binary
//!   search): the 32-byte PackedSfen, a u64 offset of the position's moves
//!   counted from the start of the moves area, a u16 ply and a u16 number
//!   of moves;
//! * the moves area, right after the index: per move its YaneuraOu
//!   `Move16` (u16), its value from the mover's view (i16) and, with flag
//!   bit 0, its depth (u16).
//!
//! No ponder and no count are stored. The engine takes `none` and a count
//! of 0 ("no frequency known"), and so does [`read`]: a count of 0 is also
//! what a DB2016 move line without a count reads as.
//!
//! [`write`] writes as YaneuraOu's own writer (`makebook peta_shock` to a
//! `.ybb`) does: the depth flag always set, each position's moves one
//! after the other in index order. It writes the moves in the book's
//! order; [`read`] keeps the file's order, so that a file read and written
//! again is the same bytes. Values past the i16 range are held at its
//! ends, depths and plies past the u16 range at its end; [`Written`] counts
//! them, and the ponders and counts left out.

use super::query::{rotated, Answer};
use super::runs::{Item, Sorter};
use super::{key, Book, BookMove, Entry};
use crate::training::move16::{self, Layout};
use crate::training::packed::{self, Dialect};
use crate::{Move, Position};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};

/// The first 16 bytes.
pub const MAGIC: [u8; 16] = *b"YANE-BINBOOK-V1\0";
/// The header's length: magic, count, flags.
pub const HEADER_LEN: u64 = 32;
/// An index entry's length: packed position, offset, ply, number of moves.
pub const ENTRY_LEN: u64 = 44;
/// The flag of a depth with every move.
pub const FLAG_DEPTH: u64 = 1;

/// What [`write`] wrote, and what it could not keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Positions written.
    pub positions: u64,
    /// Moves written.
    pub moves: u64,
    /// Values held at -32768 or 32767.
    pub values_clamped: u64,
    /// Depths held at 65535.
    pub depths_clamped: u64,
    /// Plies held at 65535.
    pub plies_clamped: u64,
    /// Moves whose ponder was left out.
    pub ponders_dropped: u64,
    /// Moves whose count (other than 0) was left out.
    pub counts_dropped: u64,
}

impl Written {
    /// What the `.ybb` could not hold, a line each.
    pub fn losses(&self) -> Vec<String> {
        let said = [
            (
                self.values_clamped,
                "values beyond -32768…32767 held at the end (a .ybb holds 16-bit values)",
            ),
            (self.depths_clamped, "depths above 65535 held at 65535"),
            (self.plies_clamped, "plies above 65535 held at 65535"),
            (
                self.ponders_dropped,
                "ponder moves left out (a .ybb holds none)",
            ),
            (self.counts_dropped, "counts left out (a .ybb holds none)"),
        ];
        super::counted(&said)
    }
}

/// Why a `.ybb` file cannot be read: the byte offset, the index entry (from
/// 0) when the fault is one entry's, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YbbError {
    /// The byte offset of the fault in the file.
    pub offset: u64,
    /// The index entry at fault, counted from 0.
    pub entry: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for YbbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: ", self.offset)?;
        if let Some(n) = self.entry {
            write!(f, "index entry {n}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for YbbError {}

impl From<YbbError> for std::io::Error {
    fn from(e: YbbError) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

fn invalid_input(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, message)
}

/// The bytes of one move: Move16, value, depth.
struct MoveRecord {
    code: u16,
    value: i16,
    depth: u16,
}

/// Writes `book` as a `.ybb` (see the module notes). A key that is no
/// position with both kings, a move that is not legal in its position, or
/// more than 65535 moves in a position is an error of kind `InvalidInput`,
/// and nothing is written.
pub fn write(book: &Book, out: &mut impl Write) -> std::io::Result<Written> {
    let mut written = Written::default();
    let mut index: Vec<Encoded> = Vec::with_capacity(book.entries.len());
    for (k, entry) in &book.entries {
        index.push(encode(k, entry, &mut written)?);
    }
    index.sort_unstable_by_key(|a| a.bytes);
    if let Some(w) = index.windows(2).find(|w| w[0].bytes == w[1].bytes) {
        return Err(same_packing(&w[0].bytes));
    }
    write_header(out, index.len() as u64)?;
    let mut offset = 0u64;
    for e in &index {
        write_index_entry(out, e, &mut offset)?;
    }
    for e in &index {
        write_records(out, &e.records)?;
        written.moves += e.records.len() as u64;
    }
    written.positions = index.len() as u64;
    Ok(written)
}

/// [`write`] of the positions of a sorted text book read from `text`, in
/// bounded memory: the positions go through runs on disk in `dir` past
/// about `memory` bytes, sorted by their packed bytes, and the index and
/// the moves are written to two temporary files there before they are
/// copied after the header. The text must be kifconv's (each position
/// once, moves legal): a fault is an error.
pub fn write_streamed(
    text: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    memory: usize,
    dir: &std::path::Path,
) -> std::io::Result<Written> {
    let mut written = Written::default();
    let mut sorter: Sorter<Encoded> = Sorter::default().with_limit(memory, dir.to_path_buf());
    super::check::each_entry(text, |key, entry| {
        let e = encode(&key, &entry, &mut written)?;
        sorter.add(&hex(&e.bytes), e)
    })?;
    // The index and the moves, each to a file of its own until the count
    // is known.
    let parts = Parts::new(dir)?;
    let (mut index, mut moves) = (
        std::io::BufWriter::new(std::fs::File::create_new(&parts.0[0])?),
        std::io::BufWriter::new(std::fs::File::create_new(&parts.0[1])?),
    );
    let (mut count, mut offset) = (0u64, 0u64);
    let mut last: Option<[u8; 32]> = None;
    sorter.finish(|key, mut e| {
        // A run keeps the packed bytes in the key alone.
        e.bytes = unhex(key).ok_or_else(|| invalid_input(format!("a run key `{key}`")))?;
        if last == Some(e.bytes) {
            return Err(same_packing(&e.bytes));
        }
        last = Some(e.bytes);
        write_index_entry(&mut index, &e, &mut offset)?;
        write_records(&mut moves, &e.records)?;
        count += 1;
        written.moves += e.records.len() as u64;
        Ok(())
    })?;
    index.flush()?;
    moves.flush()?;
    drop((index, moves));
    write_header(out, count)?;
    for part in &parts.0 {
        std::io::copy(&mut std::fs::File::open(part)?, out)?;
    }
    written.positions = count;
    Ok(written)
}

/// The two temporary files of [`write_streamed`], removed when dropped.
struct Parts([std::path::PathBuf; 2]);

impl Parts {
    fn new(dir: &std::path::Path) -> std::io::Result<Parts> {
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = |part: &str| dir.join(format!("kifconv-ybb-{}-{n}.{part}", std::process::id()));
        Ok(Parts([name("index"), name("moves")]))
    }
}

impl Drop for Parts {
    fn drop(&mut self) {
        for part in &self.0 {
            let _ = std::fs::remove_file(part);
        }
    }
}

/// One position as a `.ybb` writes it: its packed bytes, ply and moves.
struct Encoded {
    bytes: [u8; 32],
    ply: u16,
    records: Vec<MoveRecord>,
}

impl Item for Encoded {
    const FIELDS: usize = 2;

    fn weight(&self) -> usize {
        64 + self.records.len() * 6
    }

    /// The text streamed is a sorted book, each position once in its
    /// canonical form, and two such positions never pack the same; were
    /// one given twice, its moves would be kept together.
    fn add(&mut self, other: Encoded) {
        self.records.extend(other.records);
    }

    fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        write!(out, "{}\t", self.ply)?;
        for r in &self.records {
            write!(out, "{:04x}{:04x}{:04x}", r.code, r.value as u16, r.depth)?;
        }
        Ok(())
    }

    fn read(fields: &[&str]) -> Option<Encoded> {
        let [ply, records] = fields else { return None };
        let hex4 = |s: &str| u16::from_str_radix(s, 16).ok();
        let records = records
            .as_bytes()
            .chunks(12)
            .map(|c| {
                let c = std::str::from_utf8(c).ok()?;
                Some(MoveRecord {
                    code: hex4(c.get(0..4)?)?,
                    value: hex4(c.get(4..8)?)? as i16,
                    depth: hex4(c.get(8..12)?)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Encoded {
            // The bytes are the run's key (see write_streamed).
            bytes: [0; 32],
            ply: ply.parse().ok()?,
            records,
        })
    }
}

/// A position's entry as a `.ybb` writes it, counting what it cannot hold.
fn encode(k: &str, entry: &Entry, written: &mut Written) -> std::io::Result<Encoded> {
    let pos = Position::from_sfen(&format!("{k} 1"))
        .map_err(|e| invalid_input(format!("the book position `{k}`: {e}")))?;
    let bytes = packed::pack(&pos, Dialect::PackedSfen)
        .map_err(|e| invalid_input(format!("the book position `{k}`: {e}")))?;
    if entry.moves.len() > usize::from(u16::MAX) {
        return Err(invalid_input(format!(
            "the book position `{k}` has {} moves; a .ybb holds at most {}",
            entry.moves.len(),
            u16::MAX
        )));
    }
    let mut records = Vec::with_capacity(entry.moves.len());
    for m in &entry.moves {
        let mv = Move::from_usi(&m.mv)
            .ok()
            .filter(|&mv| pos.check_legal(mv).is_ok())
            .ok_or_else(|| {
                invalid_input(format!(
                    "the book position `{k}`: the move `{}` is not legal there",
                    m.mv
                ))
            })?;
        let value = m.value.clamp(i16::MIN.into(), i16::MAX.into());
        written.values_clamped += u64::from(value != m.value);
        written.depths_clamped += u64::from(m.depth > u32::from(u16::MAX));
        written.ponders_dropped += u64::from(m.ponder.is_some());
        written.counts_dropped += u64::from(m.count != 0);
        records.push(MoveRecord {
            code: move16::encode(mv, Layout::YaneuraOu),
            value: value as i16,
            depth: m.depth.min(u16::MAX.into()) as u16,
        });
    }
    written.plies_clamped += u64::from(entry.ply > u32::from(u16::MAX));
    Ok(Encoded {
        bytes,
        ply: entry.ply.min(u16::MAX.into()) as u16,
        records,
    })
}

/// Two keys of one position: only a key not in kifconv's form can do
/// that.
fn same_packing(bytes: &[u8; 32]) -> std::io::Error {
    invalid_input(format!("two book positions pack the same ({})", hex(bytes)))
}

/// The header: magic, count, flags (every move with its depth).
fn write_header(out: &mut dyn Write, count: u64) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(HEADER_LEN as usize);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&count.to_le_bytes());
    head.extend_from_slice(&FLAG_DEPTH.to_le_bytes());
    out.write_all(&head)
}

/// A position's index entry; `offset` moves on past its moves.
fn write_index_entry(out: &mut dyn Write, e: &Encoded, offset: &mut u64) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(ENTRY_LEN as usize);
    buf.extend_from_slice(&e.bytes);
    buf.extend_from_slice(&offset.to_le_bytes());
    buf.extend_from_slice(&e.ply.to_le_bytes());
    buf.extend_from_slice(&(e.records.len() as u16).to_le_bytes());
    *offset += e.records.len() as u64 * 6;
    out.write_all(&buf)
}

/// A position's moves.
fn write_records(out: &mut dyn Write, records: &[MoveRecord]) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(records.len() * 6);
    for r in records {
        buf.extend_from_slice(&r.code.to_le_bytes());
        buf.extend_from_slice(&r.value.to_le_bytes());
        buf.extend_from_slice(&r.depth.to_le_bytes());
    }
    out.write_all(&buf)
}

/// The 32 bytes [`hex`] wrote.
fn unhex(text: &str) -> Option<[u8; 32]> {
    let mut bytes = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The header's fields.
#[derive(Clone, Copy, Debug)]
struct Header {
    count: u64,
    flags: u64,
    /// Where the moves area starts.
    moves_base: u64,
}

impl Header {
    fn record_len(&self) -> u64 {
        if self.flags & FLAG_DEPTH != 0 {
            6
        } else {
            4
        }
    }
}

/// The header from the file's first bytes (`head`, all of them when the
/// file is shorter than a header) in a file of `len` bytes.
fn header(head: &[u8], len: u64) -> Result<Header, YbbError> {
    let fault = |offset, message: String| YbbError {
        offset,
        entry: None,
        message,
    };
    let magic = &head[..head.len().min(MAGIC.len())];
    if !MAGIC.starts_with(magic) {
        return Err(fault(
            0,
            "not a YaneuraOu binary book: expected the magic `YANE-BINBOOK-V1` and a NUL"
                .to_string(),
        ));
    }
    if (head.len() as u64) < HEADER_LEN {
        return Err(fault(
            head.len() as u64,
            format!(
                "the file ends inside the header: expected {HEADER_LEN} bytes, the file has {len}"
            ),
        ));
    }
    let count = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let flags = u64::from_le_bytes(head[24..32].try_into().expect("8 bytes"));
    if flags & !FLAG_DEPTH != 0 {
        return Err(fault(
            24,
            format!("unknown flags {flags:#x}: only bit 0 (a depth with every move) is known"),
        ));
    }
    let moves_base = count
        .checked_mul(ENTRY_LEN)
        .and_then(|n| n.checked_add(HEADER_LEN))
        .filter(|&end| end <= len)
        .ok_or_else(|| {
            fault(
                16,
                format!(
                    "the header counts {count} positions, whose index of {ENTRY_LEN} bytes each \
                     does not fit in the file's {len} bytes"
                ),
            )
        })?;
    Ok(Header {
        count,
        flags,
        moves_base,
    })
}

/// An index entry's fields.
#[derive(Clone, Copy, Debug)]
struct IndexEntry {
    packed: [u8; 32],
    offset: u64,
    ply: u16,
    moves: u16,
}

fn index_entry(bytes: &[u8]) -> IndexEntry {
    IndexEntry {
        packed: bytes[..32].try_into().expect("32 bytes"),
        offset: u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes")),
        ply: u16::from_le_bytes([bytes[40], bytes[41]]),
        moves: u16::from_le_bytes([bytes[42], bytes[43]]),
    }
}

/// Where entry `n` starts.
fn entry_start(n: u64) -> u64 {
    HEADER_LEN + n * ENTRY_LEN
}

/// The position of entry `n`, which must be packed as YaneuraOu packs it
/// (else the index is not in the order a search expects).
fn position(e: &IndexEntry, n: u64) -> Result<Position, YbbError> {
    let fault = |message: String| YbbError {
        offset: entry_start(n),
        entry: Some(n),
        message,
    };
    let pos = packed::unpack(&e.packed, Dialect::PackedSfen)
        .map_err(|why| fault(format!("an impossible packed position: {why}")))?;
    match packed::pack(&pos, Dialect::PackedSfen) {
        Ok(again) if again == e.packed => Ok(pos),
        _ => Err(fault(format!(
            "the position `{}` is not packed as YaneuraOu packs it, so the index cannot be \
             searched",
            key(&pos)
        ))),
    }
}

/// The bytes of entry `e`'s moves in the file: where they start and how
/// many bytes, checked to lie within the file's `len` bytes.
fn moves_span(h: &Header, e: &IndexEntry, n: u64, len: u64) -> Result<(u64, u64), YbbError> {
    let size = u64::from(e.moves) * h.record_len();
    let start = h.moves_base.checked_add(e.offset);
    match start.and_then(|s| s.checked_add(size)) {
        Some(end) if end <= len => Ok((start.unwrap_or(0), size)),
        _ => Err(YbbError {
            offset: entry_start(n) + 32,
            entry: Some(n),
            message: format!(
                "its {} moves at offset {} of the moves area (which starts at byte {}) run past \
                 the end of the file ({len} bytes)",
                e.moves, e.offset, h.moves_base
            ),
        }),
    }
}

/// Entry `n`'s moves from their bytes (read from byte `start`), each legal
/// in `pos` and there once.
fn moves(
    h: &Header,
    pos: &Position,
    bytes: &[u8],
    start: u64,
    n: u64,
) -> Result<Vec<BookMove>, YbbError> {
    let size = h.record_len() as usize;
    let mut out: Vec<BookMove> = Vec::with_capacity(bytes.len() / size);
    for (i, r) in bytes.chunks_exact(size).enumerate() {
        let offset = start + (i * size) as u64;
        let fault = |message: String| YbbError {
            offset,
            entry: Some(n),
            message: format!("move {i}: {message}"),
        };
        let code = u16::from_le_bytes([r[0], r[1]]);
        let mv = move16::decode(pos, code, Layout::YaneuraOu)
            .map_err(|why| fault(format!("the move {code:#06x} is no move here: {why}")))?;
        if let Err(why) = pos.check_legal(mv) {
            return Err(fault(format!("the move {mv} is illegal here: {why}")));
        }
        let mv = mv.to_string();
        if out.iter().any(|m| m.mv == mv) {
            return Err(fault(format!("the move {mv} again")));
        }
        let depth = if size == 6 {
            u16::from_le_bytes([r[4], r[5]])
        } else {
            0
        };
        out.push(BookMove {
            mv,
            ponder: None,
            value: i16::from_le_bytes([r[2], r[3]]).into(),
            depth: depth.into(),
            count: 0,
        });
    }
    Ok(out)
}

/// The fault of entry `later` coming after entry `earlier`, whose packed
/// position is not smaller.
fn order_fault(earlier: u64, later: u64, same: bool) -> YbbError {
    YbbError {
        offset: entry_start(later),
        entry: Some(later),
        message: if same {
            format!("the position of index entry {earlier} again")
        } else {
            format!(
                "not sorted: its packed position is smaller than that of index entry {earlier}; \
                 the index must be in ascending byte order"
            )
        },
    }
}

/// Calls `each` with every position of the `.ybb` of `len` bytes and its
/// entry, in the index's order, reading the index from `index` and the
/// moves from `moves` (the same file, opened twice so that each is read
/// in order); every entry checked (sorted, possible, its moves in the file
/// and legal). A fault is an error of kind `InvalidData` holding a
/// [`YbbError`].
pub fn each<R: Read + Seek>(
    index: R,
    mut moves_from: R,
    len: u64,
    mut each: impl FnMut(&Position, Entry) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut index = std::io::BufReader::new(index);
    index.seek(SeekFrom::Start(0))?;
    let mut head = Vec::with_capacity(HEADER_LEN as usize);
    (&mut index).take(HEADER_LEN).read_to_end(&mut head)?;
    let h = header(&head, len)?;
    let mut previous: Option<[u8; 32]> = None;
    // Where `moves_from` is: the moves are read in order, so a seek is
    // rare.
    let mut at = None;
    let mut bytes = [0u8; ENTRY_LEN as usize];
    let mut records = Vec::new();
    for n in 0..h.count {
        index.read_exact(&mut bytes)?;
        let e = index_entry(&bytes);
        let pos = position(&e, n)?;
        if let Some(p) = previous {
            if p >= e.packed {
                return Err(order_fault(n - 1, n, p == e.packed).into());
            }
        }
        previous = Some(e.packed);
        let (start, size) = moves_span(&h, &e, n, len)?;
        if at != Some(start) {
            moves_from.seek(SeekFrom::Start(start))?;
        }
        records.resize(size as usize, 0);
        moves_from.read_exact(&mut records)?;
        at = Some(start + size);
        let moves = moves(&h, &pos, &records, start, n)?;
        let entry = Entry {
            ply: e.ply.into(),
            moves,
        };
        each(&pos, entry)?;
    }
    Ok(())
}

/// Reads a whole `.ybb` held in memory into a book (see [`each`]).
pub fn read(bytes: &[u8]) -> Result<Book, YbbError> {
    let mut book = Book::default();
    let (index, moves) = (std::io::Cursor::new(bytes), std::io::Cursor::new(bytes));
    each(index, moves, bytes.len() as u64, |pos, entry| {
        book.entries.insert(key(pos), entry);
        Ok(())
    })
    .map_err(|e| {
        let message = e.to_string();
        match e.into_inner().map(|inner| inner.downcast::<YbbError>()) {
            Some(Ok(fault)) => *fault,
            _ => YbbError {
                offset: 0,
                entry: None,
                message,
            },
        }
    })?;
    Ok(book)
}

/// The book's moves for `pos` from a `.ybb` of `len` bytes, by binary
/// search over its index, reading a few entries and the moves of the one
/// found, never the whole file: the position itself, else its rotation
/// with the moves rotated back, as YaneuraOu's FlippedBook does. What the
/// search reads is checked as [`read`] checks it (each entry probed
/// against the nearest ones probed on either side), so that a fault it
/// meets is an error of kind `InvalidData` holding a [`YbbError`] rather
/// than a wrong "not in the book"; a fault in entries no probe reads goes
/// unseen.
pub fn lookup<R: Read + Seek>(
    reader: R,
    len: u64,
    pos: &Position,
) -> std::io::Result<Option<Answer>> {
    let mut search = Search::new(reader, len)?;
    if let Some((ply, moves)) = search.find(pos)? {
        return Ok(Some(Answer {
            flipped: false,
            ply,
            moves,
        }));
    }
    Ok(search.find(&pos.flip())?.map(|(ply, moves)| Answer {
        flipped: true,
        ply,
        moves: rotated(moves),
    }))
}

/// A binary search over a `.ybb`'s index.
struct Search<R> {
    reader: R,
    len: u64,
    header: Header,
    /// The packed positions of the entries read, by entry.
    seen: BTreeMap<u64, [u8; 32]>,
}

impl<R: Read + Seek> Search<R> {
    fn new(mut reader: R, len: u64) -> std::io::Result<Search<R>> {
        let mut head = Vec::with_capacity(HEADER_LEN as usize);
        reader.seek(SeekFrom::Start(0))?;
        (&mut reader).take(HEADER_LEN).read_to_end(&mut head)?;
        let header = header(&head, len)?;
        Ok(Search {
            reader,
            len,
            header,
            seen: BTreeMap::new(),
        })
    }

    /// Entry `n`, checked against the nearest entries read before.
    fn entry(&mut self, n: u64) -> std::io::Result<IndexEntry> {
        let mut bytes = [0u8; ENTRY_LEN as usize];
        self.reader.seek(SeekFrom::Start(entry_start(n)))?;
        self.reader.read_exact(&mut bytes)?;
        let e = index_entry(&bytes);
        if !self.seen.contains_key(&n) {
            position(&e, n)?;
            if let Some((&m, p)) = self.seen.range(..n).next_back() {
                if *p >= e.packed {
                    return Err(order_fault(m, n, *p == e.packed).into());
                }
            }
            if let Some((&m, p)) = self.seen.range(n + 1..).next() {
                if e.packed >= *p {
                    return Err(order_fault(n, m, *p == e.packed).into());
                }
            }
            self.seen.insert(n, e.packed);
        }
        Ok(e)
    }

    /// The ply and moves of `pos`'s entry, if it has one.
    fn find(&mut self, pos: &Position) -> std::io::Result<Option<(u32, Vec<BookMove>)>> {
        // A position with no packed form is in no .ybb.
        let Ok(target) = packed::pack(pos, Dialect::PackedSfen) else {
            return Ok(None);
        };
        let (mut lo, mut hi) = (0, self.header.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let e = self.entry(mid)?;
            match e.packed.cmp(&target) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let (start, size) = moves_span(&self.header, &e, mid, self.len)?;
                    let mut bytes = vec![0u8; size as usize];
                    self.reader.seek(SeekFrom::Start(start))?;
                    self.reader.read_exact(&mut bytes)?;
                    let moves = moves(&self.header, pos, &bytes, start, mid)?;
                    return Ok(Some((e.ply.into(), moves)));
                }
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests;
