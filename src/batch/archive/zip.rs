//! Zip: our own reader of the central directory (ZIP64 included), so that
//! every entry is kept (two entries of one name are two entries), entries
//! whose data overlap are refused before anything is inflated (the
//! overlapping zip bomb), and no declared size is trusted.
//!
//! Methods: stored and deflate; every inflated entry's CRC-32 is checked.
//! Other methods and encrypted entries are an error for that entry.

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::DeflateDecoder;

use super::{
    inflates_past, read_bounded, too_large, total_passed, Entries, EntryError, EntryName, Item,
    Limits, Source,
};

const LOCAL_HEADER: u32 = 0x0403_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const END_OF_DIRECTORY: u32 = 0x0605_4b50;
const ZIP64_END_OF_DIRECTORY: u32 = 0x0606_4b50;
const ZIP64_LOCATOR: u32 = 0x0706_4b50;
/// Fixed sizes of the records.
const LOCAL_LEN: u64 = 30;
const CENTRAL_LEN: usize = 46;
const END_LEN: usize = 22;
const LOCATOR_LEN: usize = 20;
const ZIP64_END_LEN: usize = 56;
/// Extra fields: ZIP64 sizes and offset; Info-ZIP's UTF-8 path.
const EXTRA_ZIP64: u16 = 0x0001;
const EXTRA_UNICODE_PATH: u16 = 0x7075;
const FLAG_ENCRYPTED: u16 = 1;
const FLAG_UTF8: u16 = 1 << 11;
const STORED: u16 = 0;
const DEFLATED: u16 = 8;

/// The methods kifconv does not read, named in the error.
const OTHER_METHODS: [(u16, &str); 11] = [
    (1, "Shrink"),
    (6, "Implode"),
    (9, "Deflate64"),
    (12, "bzip2"),
    (14, "LZMA"),
    (93, "Zstandard"),
    (95, "XZ"),
    (96, "JPEG"),
    (97, "WavPack"),
    (98, "PPMd"),
    (99, "AES encryption"),
];

/// A zip's central directory, read once; entries are then inflated in any
/// order, by any number of threads (each with its own file handle), through
/// [`read_zip_entry`]. It keeps the running total of inflated bytes that
/// [`Limits::max_total`] bounds.
#[derive(Debug)]
pub struct ZipDirectory {
    entries: Vec<Central>,
    inflated: AtomicU64,
}

/// What the central directory says of one entry.
#[derive(Debug)]
struct Central {
    /// The decoded name; its safe relative path is made when asked for, so
    /// that a directory of many entries holds one string each.
    name: Box<str>,
    file: bool,
    flags: u16,
    method: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    /// Where its local header starts.
    offset: u64,
    /// Where the next entry's local header, or the central directory,
    /// starts: its data must end by then.
    end: u64,
}

impl ZipDirectory {
    /// Reads the end records and the central directory. Refuses, before
    /// anything is inflated, an archive whose entries' data overlap.
    pub fn read(file: &mut (impl Read + Seek + ?Sized)) -> Result<ZipDirectory, String> {
        let io = |e: io::Error| format!("cannot read the zip archive: {e}");
        let len = file.seek(SeekFrom::End(0)).map_err(io)?;
        let (cd_offset, cd_size, count) = end_records(file, len)?;
        let mut cd = vec![0; cd_size as usize];
        file.seek(SeekFrom::Start(cd_offset)).map_err(io)?;
        file.read_exact(&mut cd).map_err(io)?;
        let mut entries = central_headers(&cd)?;
        if entries.len() as u64 != count && entries.len() as u64 % 0x1_0000 != count % 0x1_0000 {
            return Err(format!(
                "damaged zip archive: the central directory holds {} entries where its end \
                 record says {count}",
                entries.len()
            ));
        }
        set_ends_refusing_overlaps(&mut entries, cd_offset)?;
        Ok(ZipDirectory {
            entries,
            inflated: AtomicU64::new(0),
        })
    }

    /// How many entries, files or not.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Entry `i`'s name (panics if `i >= len()`).
    pub fn name(&self, i: usize) -> EntryName {
        EntryName::from_text(self.entries[i].name.to_string())
    }

    /// Whether entry `i` is a file, not a directory, link or device (panics
    /// if `i >= len()`).
    pub fn is_file(&self, i: usize) -> bool {
        self.entries[i].file
    }

    #[cfg(test)]
    /// Bytes inflated so far by [`read_zip_entry`] over this archive.
    pub fn inflated(&self) -> u64 {
        self.inflated.load(Ordering::Relaxed)
    }
}

/// Inflates entry `i` of the archive `file` (a handle of the file `dir` was
/// read from), checking its size against `limits.max_entry` and its CRC-32,
/// and adding its size to the archive's total, which must stay within
/// `limits.max_total` (once past it, every later call fails without
/// inflating anything).
pub fn read_zip_entry(
    file: &mut (impl Read + Seek + ?Sized),
    dir: &ZipDirectory,
    i: usize,
    limits: Limits,
) -> Result<Vec<u8>, String> {
    read_entry(file, dir, i, limits).map_err(|(message, _)| message)
}

/// As [`read_zip_entry`]; the flag says the total limit was passed, so that
/// no later entry can be read.
fn read_entry(
    file: &mut (impl Read + Seek + ?Sized),
    dir: &ZipDirectory,
    i: usize,
    limits: Limits,
) -> Result<Vec<u8>, (String, bool)> {
    let entry = dir
        .entries
        .get(i)
        .ok_or_else(|| (format!("no entry {i} in the zip archive"), false))?;
    let fail = |message: String| Err((message, false));
    if !entry.file {
        return fail("not a file (a directory, link or device)".into());
    }
    if EntryName::from_text(entry.name.to_string())
        .relative
        .as_os_str()
        .is_empty()
    {
        return fail("the name has no usable path component".into());
    }
    if entry.flags & FLAG_ENCRYPTED != 0 {
        return fail("encrypted; kifconv does not read encrypted entries".into());
    }
    if entry.method != STORED && entry.method != DEFLATED {
        let name = OTHER_METHODS
            .iter()
            .find(|(m, _)| *m == entry.method)
            .map_or("an unknown method", |(_, name)| name);
        return fail(format!(
            "compressed with {name} (method {}); kifconv reads stored and deflate entries only",
            entry.method
        ));
    }
    if entry.size > limits.max_entry {
        return fail(too_large(entry.size, limits.max_entry));
    }
    if dir.inflated.load(Ordering::Relaxed) > limits.max_total {
        return Err((total_passed(limits.max_total), true));
    }

    let corrupt = |e: io::Error| (format!("cannot read the entry: {e}"), false);
    let mut local = [0; LOCAL_LEN as usize];
    file.seek(SeekFrom::Start(entry.offset)).map_err(corrupt)?;
    file.read_exact(&mut local).map_err(corrupt)?;
    if le32(&local, 0) != LOCAL_HEADER {
        return fail(format!(
            "damaged entry: no local header at byte {}",
            entry.offset
        ));
    }
    let data_start =
        entry.offset + LOCAL_LEN + u64::from(le16(&local, 26)) + u64::from(le16(&local, 28));
    if data_start.saturating_add(entry.compressed) > entry.end {
        return fail(format!(
            "damaged entry: its {} compressed bytes from byte {data_start} run into the next \
             entry or the central directory (byte {})",
            entry.compressed, entry.end
        ));
    }
    file.seek(SeekFrom::Start(data_start)).map_err(corrupt)?;
    let mut raw = (&mut *file).take(entry.compressed);
    let data = if entry.method == STORED {
        read_bounded(&mut raw, entry.size, limits.max_entry)
    } else {
        read_bounded(&mut DeflateDecoder::new(raw), entry.size, limits.max_entry)
    }
    .map_err(|e| (format!("corrupt compressed data: {e}"), false))?;
    let len = data.len() as u64;
    if len > limits.max_entry {
        return fail(inflates_past(limits.max_entry));
    }
    if len != entry.size {
        return fail(format!(
            "damaged entry: it declares {} bytes but holds {len}",
            entry.size
        ));
    }
    let mut crc = flate2::Crc::new();
    crc.update(&data);
    if crc.sum() != entry.crc {
        return fail(format!(
            "damaged entry: CRC-32 {:08x} where the archive says {:08x}",
            crc.sum(),
            entry.crc
        ));
    }
    let total = dir.inflated.fetch_add(len, Ordering::Relaxed) + len;
    if total > limits.max_total {
        return Err((total_passed(limits.max_total), true));
    }
    Ok(data)
}

/// A zip read from a seekable source one entry after the other.
pub fn entries(mut source: Box<dyn Source>, limits: Limits) -> Entries {
    match ZipDirectory::read(&mut source) {
        Ok(dir) => Box::new(Sequential {
            source,
            dir,
            next: 0,
            limits,
        }),
        Err(message) => Box::new(std::iter::once(Err(EntryError::archive(message)))),
    }
}

struct Sequential {
    source: Box<dyn Source>,
    dir: ZipDirectory,
    next: usize,
    limits: Limits,
}

impl Iterator for Sequential {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        while self.next < self.dir.len() && !self.dir.is_file(self.next) {
            self.next += 1;
        }
        let i = self.next;
        if i >= self.dir.len() {
            return None;
        }
        self.next += 1;
        let name = self.dir.name(i);
        Some(
            match read_entry(&mut self.source, &self.dir, i, self.limits) {
                Ok(data) => Ok((name, data)),
                Err((message, true)) => {
                    self.next = self.dir.len();
                    Err(EntryError::archive(message))
                }
                Err((message, false)) => Err(EntryError::entry(&name, message)),
            },
        )
    }
}

/// Finds the end of central directory record (and the ZIP64 one when
/// present): the central directory's offset, size and entry count.
fn end_records(
    file: &mut (impl Read + Seek + ?Sized),
    len: u64,
) -> Result<(u64, u64, u64), String> {
    let io = |e: io::Error| format!("cannot read the zip archive: {e}");
    // The record is 22 bytes and its comment at most 65,535; a ZIP64
    // locator comes just before it.
    let tail_len = len.min((END_LEN + 0xffff + LOCATOR_LEN) as u64) as usize;
    let tail_start = len - tail_len as u64;
    let mut tail = vec![0; tail_len];
    file.seek(SeekFrom::Start(tail_start)).map_err(io)?;
    file.read_exact(&mut tail).map_err(io)?;
    // From the end: the record whose comment ends the file; failing that,
    // any (trailing bytes after the archive).
    let candidates = (0..=tail_len.saturating_sub(END_LEN))
        .rev()
        .filter(|&at| tail_len >= END_LEN && le32(&tail, at) == END_OF_DIRECTORY);
    let fits = |at: usize| at + END_LEN + le16(&tail, at + 20) as usize;
    let at = candidates
        .clone()
        .find(|&at| fits(at) == tail_len)
        .or_else(|| candidates.clone().find(|&at| fits(at) <= tail_len))
        .ok_or("not a zip archive (no end of central directory record)")?;
    let end = &tail[at..];
    let end_pos = tail_start + at as u64;
    let mut count = u64::from(le16(end, 10));
    let mut cd_size = u64::from(le32(end, 12));
    let mut cd_offset = u64::from(le32(end, 16));
    let mut cd_limit = end_pos;
    if at >= LOCATOR_LEN && le32(&tail, at - LOCATOR_LEN) == ZIP64_LOCATOR {
        let z64_pos = le64(&tail, at - LOCATOR_LEN + 8);
        let locator_pos = end_pos - LOCATOR_LEN as u64;
        if z64_pos
            .checked_add(ZIP64_END_LEN as u64)
            .is_none_or(|e| e > locator_pos)
        {
            return Err("damaged zip archive: its ZIP64 locator points past the end".into());
        }
        let mut z64 = [0; ZIP64_END_LEN];
        file.seek(SeekFrom::Start(z64_pos)).map_err(io)?;
        file.read_exact(&mut z64).map_err(io)?;
        if le32(&z64, 0) != ZIP64_END_OF_DIRECTORY {
            return Err("damaged zip archive: no ZIP64 end record where its locator points".into());
        }
        count = le64(&z64, 32);
        cd_size = le64(&z64, 40);
        cd_offset = le64(&z64, 48);
        cd_limit = z64_pos;
    }
    if cd_offset.checked_add(cd_size).is_none_or(|e| e > cd_limit) {
        return Err(format!(
            "damaged zip archive: its central directory ({cd_size} bytes at byte {cd_offset}) \
             lies outside the file"
        ));
    }
    Ok((cd_offset, cd_size, count))
}

/// Parses every central header of the directory `cd`.
fn central_headers(cd: &[u8]) -> Result<Vec<Central>, String> {
    let mut entries = Vec::new();
    let mut at = 0;
    while at < cd.len() {
        let damaged = |what: &str| {
            format!(
                "damaged zip archive: central directory entry {} {what}",
                entries.len() + 1
            )
        };
        if cd.len() - at < CENTRAL_LEN || le32(cd, at) != CENTRAL_HEADER {
            return Err(damaged("is not a central header"));
        }
        let h = &cd[at..];
        let name_len = le16(h, 28) as usize;
        let extra_len = le16(h, 30) as usize;
        let comment_len = le16(h, 32) as usize;
        let next = at + CENTRAL_LEN + name_len + extra_len + comment_len;
        if next > cd.len() {
            return Err(damaged("runs past the central directory"));
        }
        let raw_name = &h[CENTRAL_LEN..CENTRAL_LEN + name_len];
        let extra = &h[CENTRAL_LEN + name_len..CENTRAL_LEN + name_len + extra_len];
        let flags = le16(h, 8);
        let mut size = u64::from(le32(h, 24));
        let mut compressed = u64::from(le32(h, 20));
        let mut offset = u64::from(le32(h, 42));
        let mut unicode_name = None;
        for (id, field) in extra_fields(extra) {
            if id == EXTRA_ZIP64 {
                // Only the fields whose 32-bit value is saturated, in order.
                let mut values = field.chunks_exact(8).map(|b| le64(b, 0));
                for value in [&mut size, &mut compressed, &mut offset] {
                    if *value == 0xffff_ffff {
                        *value = values
                            .next()
                            .ok_or_else(|| damaged("lacks its ZIP64 sizes"))?;
                    }
                }
            } else if id == EXTRA_UNICODE_PATH && field.len() > 5 && field[0] == 1 {
                let mut crc = flate2::Crc::new();
                crc.update(raw_name);
                if crc.sum() == le32(field, 1) {
                    unicode_name = Some(&field[5..]);
                }
            }
        }
        let name = match unicode_name {
            Some(utf8) if flags & FLAG_UTF8 == 0 && std::str::from_utf8(raw_name).is_err() => {
                EntryName::decode(utf8, true)
            }
            _ => EntryName::decode(raw_name, flags & FLAG_UTF8 != 0),
        };
        let file = is_file(&name.name, le16(h, 4) >> 8, le32(h, 38));
        entries.push(Central {
            name: name.name.into_boxed_str(),
            file,
            flags,
            method: le16(h, 10),
            crc: le32(h, 16),
            compressed,
            size,
            offset,
            end: 0,
        });
        at = next;
    }
    Ok(entries)
}

/// The extra fields of a header, as (id, data); a truncated last field is
/// ignored.
fn extra_fields(mut extra: &[u8]) -> impl Iterator<Item = (u16, &[u8])> {
    std::iter::from_fn(move || {
        if extra.len() < 4 {
            return None;
        }
        let (id, len) = (le16(extra, 0), le16(extra, 2) as usize);
        let field = extra.get(4..4 + len)?;
        extra = &extra[4 + len..];
        Some((id, field))
    })
}

/// Whether an entry is a plain file: not a directory (a name ending in a
/// separator, or the DOS directory attribute) and, when made on Unix, of
/// the regular file type (not a link, device or fifo).
fn is_file(name: &str, host: u16, external: u32) -> bool {
    const UNIX: u16 = 3;
    const DOS_DIRECTORY: u32 = 0x10;
    const S_IFMT: u32 = 0o170000;
    const S_IFREG: u32 = 0o100000;
    let mode = external >> 16;
    !name.ends_with(['/', '\\'])
        && external & DOS_DIRECTORY == 0
        && (host != UNIX || mode & S_IFMT == 0 || mode & S_IFMT == S_IFREG)
}

/// Sets each entry's `end` (the next local header in offset order, or the
/// central directory) and refuses the archive if two entries' data overlap.
/// Each data range is taken at its smallest (a local header with an empty
/// name, no extra field), so a sound archive is never refused; the true end
/// is checked when the entry is read.
fn set_ends_refusing_overlaps(entries: &mut [Central], cd_offset: u64) -> Result<(), String> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| entries[i].offset);
    for pair in order.windows(2) {
        let (a, b) = (&entries[pair[0]], &entries[pair[1]]);
        let a_end = a
            .offset
            .saturating_add(LOCAL_LEN)
            .saturating_add(a.compressed);
        if a_end > b.offset {
            return Err(format!(
                "refused: the data of entries \"{}\" (bytes {}..{a_end}) and \"{}\" (from byte \
                 {}) overlap, as in a zip bomb; nothing was decompressed",
                a.name.escape_debug(),
                a.offset,
                b.name.escape_debug(),
                b.offset
            ));
        }
    }
    for (k, &i) in order.iter().enumerate() {
        let next = order.get(k + 1).map_or(cd_offset, |&j| entries[j].offset);
        entries[i].end = next.min(cd_offset);
    }
    Ok(())
}

fn le16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("four bytes"))
}

fn le64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

#[cfg(test)]
mod tests;
