//! 7z, through sevenz-rust2 (LZMA, LZMA2, copy and the BCJ filters; solid
//! or not), on a producer thread: the reader walks the archive with a
//! callback, block by block, decoding each solid block once, in order.
//!
//! Each entry's CRC is checked here before it is handed over. A solid
//! block cannot be jumped into: an entry skipped for its size is still
//! decoded (and counted in the total). After a CRC mismatch or a decoding
//! error in an entry, the rest of its block is skipped and the next block
//! read; an error outside the entries (headers, block set-up) ends the
//! archive.

use std::collections::HashMap;
use std::io;

use sevenz_rust2::{ArchiveEntry, ArchiveReader, EntryDecision, Password};

use super::stream::{self, Cancellable, Sink};
use super::{
    read_bounded, too_large, total_passed, Entries, EntryError, EntryName, Limits, Source,
    DICTIONARY_LIMIT,
};

pub fn entries(source: Box<dyn Source>, limits: Limits) -> Entries {
    stream::spawn(source, "7z", move |source, sink| read(source, limits, sink))
}

fn read(source: Cancellable, limits: Limits, sink: &Sink) {
    let memory_kb = (DICTIONARY_LIMIT / 1024) as usize;
    let mut reader =
        match ArchiveReader::new_with_memory_limit(source, Password::empty(), memory_kb) {
            Ok(reader) => reader,
            Err(e) => {
                sink.send(Err(EntryError::archive(format!(
                    "cannot read the 7z archive: {e}"
                ))));
                return;
            }
        };
    // One decoding thread: memory stays at one dictionary.
    reader.set_thread_count(1);
    let files = &reader.archive().files;
    let mut walk = Walk {
        sink,
        limits,
        total: 0,
        has_stream: files.iter().map(|f| f.has_stream).collect(),
        empty_files: files
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.has_stream && is_plain_file(f))
            .map(|(i, f)| (i, EntryName::from_text(f.name.clone())))
            .collect(),
        cursor: 0,
        ended: false,
    };
    let result = reader.for_each_entries_with_decision(|entry, data| walk.entry(entry, data));
    if walk.ended {
        return;
    }
    match result {
        Ok(()) => {
            walk.empty_files_before(walk.has_stream.len());
        }
        Err(e) => {
            sink.send(Err(EntryError::archive(format!("corrupt 7z archive: {e}"))));
        }
    }
}

/// Where the walk through the archive is.
struct Walk<'s> {
    sink: &'s Sink,
    limits: Limits,
    /// Bytes decoded so far.
    total: u64,
    /// By file index: whether the file has data in a block. The reader calls
    /// back for those in index order, and for the others (empty files,
    /// directories) only at the end; they are put back in their place here.
    has_stream: Vec<bool>,
    empty_files: HashMap<usize, EntryName>,
    /// The index of the next file with data.
    cursor: usize,
    /// Nothing more is sent: the receiver is gone, an error ended the
    /// archive, or the total limit was passed.
    ended: bool,
}

impl Walk<'_> {
    fn send(&mut self, item: super::Item) -> bool {
        if !self.ended && !self.sink.send(item) {
            self.ended = true;
        }
        !self.ended
    }

    /// Sends the empty files whose index is below `end`.
    fn empty_files_before(&mut self, end: usize) {
        while self.cursor < end {
            if let Some(name) = self.empty_files.remove(&self.cursor) {
                if !self.send(Ok((name, Vec::new()))) {
                    return;
                }
            }
            self.cursor += 1;
        }
    }

    fn entry(
        &mut self,
        entry: &ArchiveEntry,
        data: &mut dyn io::Read,
    ) -> Result<EntryDecision, sevenz_rust2::Error> {
        if !entry.has_stream {
            // Called at the end; already sent in their place.
            return Ok(EntryDecision::Continue);
        }
        // This entry is the next file with data.
        let next = (self.cursor..self.has_stream.len())
            .find(|&i| self.has_stream[i])
            .unwrap_or(self.has_stream.len());
        self.empty_files_before(next);
        self.cursor = next + 1;
        if self.ended {
            return Ok(EntryDecision::Stop);
        }
        let name = EntryName::from_text(entry.name.clone());
        self.total = self.total.saturating_add(entry.size);
        if self.total > self.limits.max_total {
            self.send(Err(EntryError::archive(total_passed(
                self.limits.max_total,
            ))));
            self.ended = true;
            return Ok(EntryDecision::Stop);
        }
        if !is_plain_file(entry) {
            return Ok(EntryDecision::Continue);
        }
        let refused = if name.relative.as_os_str().is_empty() {
            Some("the name has no usable path component".to_string())
        } else if entry.size > self.limits.max_entry {
            Some(too_large(entry.size, self.limits.max_entry))
        } else {
            None
        };
        if let Some(message) = refused {
            let sent = self.send(Err(EntryError::entry(&name, message)));
            return Ok(if sent {
                EntryDecision::Continue
            } else {
                EntryDecision::Stop
            });
        }
        // The reader checks the CRC as the entry's last byte is read, and
        // says so with a read error; so does a decoding error.
        let bytes = match read_bounded(data, entry.size, self.limits.max_entry) {
            Ok(bytes) => bytes,
            Err(e) => {
                let sent = self.send(Err(EntryError::entry(
                    &name,
                    format!("corrupt 7z data: {e}; the rest of its block is skipped"),
                )));
                return Ok(if sent {
                    EntryDecision::SkipBlock
                } else {
                    EntryDecision::Stop
                });
            }
        };
        let mut crc = flate2::Crc::new();
        crc.update(&bytes);
        if bytes.len() as u64 != entry.size || (entry.has_crc && u64::from(crc.sum()) != entry.crc)
        {
            let sent = self.send(Err(EntryError::entry(
                &name,
                format!(
                    "corrupt 7z data: CRC {:08x} over {} bytes where the archive says {:08x} \
                     over {}; the rest of its block is skipped",
                    crc.sum(),
                    bytes.len(),
                    entry.crc,
                    entry.size
                ),
            )));
            return Ok(if sent {
                EntryDecision::SkipBlock
            } else {
                EntryDecision::Stop
            });
        }
        let sent = self.send(Ok((name, bytes)));
        Ok(if sent {
            EntryDecision::Continue
        } else {
            EntryDecision::Stop
        })
    }
}

/// Not a directory, an anti-item (a deletion mark), a link or a device.
fn is_plain_file(entry: &ArchiveEntry) -> bool {
    const UNIX_EXTENSION: u32 = 0x8000;
    const REPARSE_POINT: u32 = 0x400;
    const S_IFMT: u32 = 0o170000;
    const S_IFREG: u32 = 0o100000;
    let attributes = if entry.has_windows_attributes {
        entry.windows_attributes
    } else {
        0
    };
    let mode = attributes >> 16;
    !entry.is_directory
        && !entry.is_anti_item
        && attributes & REPARSE_POINT == 0
        && (attributes & UNIX_EXTENSION == 0 || mode & S_IFMT == 0 || mode & S_IFMT == S_IFREG)
}

#[cfg(test)]
mod tests;
