//! Reading archives: zip, 7z, tar, tar.gz, tar.xz and tar.zst, entry by
//! entry, within limits, never trusting what an archive declares.
//!
//! The interface the input walker uses:
//!
//! ```text
//! kind_of(name) -> Option<Kind>            the kind, from the file name
//! entries(source, kind, limits) -> Entries every file entry in archive order
//! ZipDirectory::read(file)                 a zip's central directory, for
//! read_zip_entry(file, &dir, i, limits)    inflating its entries in parallel
//! ```
//!
//! - An item is `Ok((EntryName, bytes))` for a file entry, or an
//!   [`EntryError`]: one naming the entry (too large, corrupt, unsupported
//!   method) after which the iteration goes on where the format allows, or one
//!   about the archive as a whole (unreadable, overlapping zip entries, the
//!   total limit passed), which is the last item.
//! - Directories, links, devices and other special entries are skipped;
//!   an empty file is an entry with no bytes.
//! - Names are decoded (UTF-8 when valid or flagged, else CP932) and made
//!   safe: [`EntryName::relative`] keeps only normal path components. Names
//!   may hold control characters: whoever prints them escapes them.
//! - Limits: no entry inflates past [`Limits::max_entry`] bytes (at most one
//!   byte more is read, whatever the archive declares), and no archive past
//!   [`Limits::max_total`]. For 7z and tar the total counts every byte that
//!   is decompressed, the entries skipped for their size included (a solid or
//!   sequential stream cannot jump over them); for zip it counts the bytes
//!   inflated, and [`ZipDirectory`] holds the running total, shared by the
//!   threads that call [`read_zip_entry`].
//! - 7z and tar.* are read on a producer thread that hands entries over a
//!   channel of [`CHANNEL_BOUND`] items, so memory stays bounded by a few
//!   entries; dropping the iterator stops the thread at its next read.
//! - Decoders refuse dictionaries and windows larger than
//!   [`DICTIONARY_LIMIT`].
//!
//! The data of a tar.* entry is handed over before the compressed stream's
//! final checksum (gzip CRC, xz check, zstd content checksum) is read: a
//! mismatch found there is an error item after the last entry. A 7z entry is
//! handed over only once the 7z reader has checked its CRC; a zip entry only
//! once its CRC-32 matched.

mod name;
mod sevenz;
mod stream;
mod tar;
#[cfg(test)]
pub(crate) mod testkit;
mod zip;

use std::fmt;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

pub use self::zip::{read_zip_entry, ZipDirectory};
pub use name::EntryName;

/// An archive kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Zip,
    SevenZ,
    Tar,
    TarGz,
    TarXz,
    TarZst,
}

/// The archive suffixes, longest first where one ends another.
const SUFFIXES: [(&str, Kind); 9] = [
    (".tar.gz", Kind::TarGz),
    (".tar.xz", Kind::TarXz),
    (".tar.zst", Kind::TarZst),
    (".tgz", Kind::TarGz),
    (".txz", Kind::TarXz),
    (".tzst", Kind::TarZst),
    (".tar", Kind::Tar),
    (".zip", Kind::Zip),
    (".7z", Kind::SevenZ),
];

/// The archive suffix of a file name (case-insensitive), with its kind.
/// A lone `.gz`, `.xz` or `.zst` is a compressed file, not an archive.
fn suffix(path: &Path) -> Option<(usize, Kind)> {
    // The suffixes are ASCII: the name's last bytes are compared as they
    // are, with no lowercase copy of the name (an allocation a file).
    let name = path.file_name()?.as_encoded_bytes();
    SUFFIXES
        .iter()
        .find(|(suffix, _)| {
            name.len() > suffix.len()
                && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
        })
        .map(|&(suffix, kind)| (suffix.len(), kind))
}

/// The archive kind a file name says (case-insensitive): `.zip`, `.7z`,
/// `.tar`, `.tar.gz`/`.tgz`, `.tar.xz`/`.txz`, `.tar.zst`/`.tzst`.
pub fn kind_of(name: &Path) -> Option<Kind> {
    suffix(name).map(|(_, kind)| kind)
}

/// The path without its archive suffix: `games/2019.tar.gz` →
/// `games/2019`, the folder an archive's records' outputs go under.
pub fn stem(path: &Path) -> PathBuf {
    match (suffix(path), path.file_name()) {
        (Some((len, _)), Some(name)) => {
            let name = name.to_string_lossy();
            path.with_file_name(&name[..name.len() - len])
        }
        _ => path.to_path_buf(),
    }
}

/// How much an archive may inflate to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Inflated bytes per entry.
    pub max_entry: u64,
    /// Inflated bytes per archive.
    pub max_total: u64,
}

/// A failed item: about one entry (`entry` is `Some`) or the whole archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryError {
    pub entry: Option<EntryName>,
    /// What went wrong, without the entry's name (which may need escaping).
    pub message: String,
}

impl EntryError {
    fn entry(name: &EntryName, message: impl Into<String>) -> EntryError {
        EntryError {
            entry: Some(name.clone()),
            message: message.into(),
        }
    }

    fn archive(message: impl Into<String>) -> EntryError {
        EntryError {
            entry: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(entry) => write!(f, "{}: {}", entry.name.escape_debug(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// One item of [`entries`].
pub type Item = Result<(EntryName, Vec<u8>), EntryError>;

/// The entries of one archive, in archive order.
pub type Entries = Box<dyn Iterator<Item = Item> + Send>;

/// What an archive is read from: a `File`, or a `Cursor<Vec<u8>>` for an
/// archive found inside another. Zip and 7z keep their directory at the end,
/// so the source must seek; tar.* only reads forward.
pub trait Source: Read + Seek + Send {}

impl<T: Read + Seek + Send> Source for T {}

/// Items a producer thread may have ready before the reader takes them.
pub const CHANNEL_BOUND: usize = 4;

/// The largest LZMA/LZMA2 dictionary (7z, xz) or zstd window accepted:
/// every preset of 7-Zip, xz (64 MiB at most) and zstd (128 MiB at `-22`)
/// fits; a header asking for more is refused before anything is allocated.
pub const DICTIONARY_LIMIT: u64 = 256 << 20;

/// Every file entry of an archive, in archive order.
pub fn entries(source: Box<dyn Source>, kind: Kind, limits: Limits) -> Entries {
    match kind {
        Kind::Zip => zip::entries(source, limits),
        Kind::SevenZ => sevenz::entries(source, limits),
        Kind::Tar | Kind::TarGz | Kind::TarXz | Kind::TarZst => tar::entries(source, kind, limits),
    }
}

/// Reads at most `limit + 1` bytes of an entry: more than `limit` means the
/// entry is too large, whatever its header said. `declared` only sizes the
/// first allocation (capped: a declared size can lie).
fn read_bounded(reader: &mut dyn Read, declared: u64, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut data = Vec::with_capacity(declared.min(limit).min(4 << 20) as usize);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut data)?;
    Ok(data)
}

fn too_large(size: u64, limit: u64) -> String {
    format!("larger than the limit of {limit} bytes once decompressed ({size} bytes; see --max-input-size)")
}

fn inflates_past(limit: u64) -> String {
    format!("decompresses to more than the limit of {limit} bytes (see --max-input-size)")
}

fn total_passed(limit: u64) -> String {
    format!(
        "the archive decompresses to more than the limit of {limit} bytes in all; \
         its remaining entries are not read (see --max-total-size)"
    )
}

#[cfg(test)]
mod tests;
