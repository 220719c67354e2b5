//! One input: where its bytes come from (standard input, a file, a zip
//! entry read on demand, or an entry already read from a 7z or tar
//! archive), how it is named, where its output goes; and reading its bytes,
//! refusing anything larger than the configured limit.

use super::archive::{self, Limits, ZipDirectory};
use crate::error::escape_controls;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the walk yields, in order.
pub enum Item {
    /// Something to convert.
    Input(Input),
    /// Something named or found that cannot be read: an error for it.
    Problem { display: String, message: String },
    /// Something found and left alone, with the reason: a warning.
    Skipped { display: String, message: String },
}

/// Where an input's bytes come from.
pub enum Origin {
    Stdin,
    File(PathBuf),
    /// An entry of a zip archive on disk, inflated by the worker that
    /// converts it (zip entries can be read in any order, in parallel).
    ZipEntry {
        archive: Arc<PathBuf>,
        directory: Arc<ZipDirectory>,
        index: usize,
        limits: Limits,
    },
    /// An entry already read (7z and tar archives are read in order, and
    /// archives inside archives from memory).
    Bytes(Vec<u8>),
}

/// One input: how to name it in messages, where its output goes (relative
/// to the output folder), and where to read it.
pub struct Input {
    pub display: String,
    pub relative: PathBuf,
    pub origin: Origin,
}

/// Whether a file of this name is read as an input when found in a folder:
/// its extension names a record format or training data (the readers'
/// own tables).
pub fn is_input_kind(path: &Path) -> bool {
    crate::Format::from_extension(path).is_some()
        || crate::training::Data::from_extension(path).is_some()
}

/// How a path is named in messages and the report: control characters
/// escaped, so that a file name cannot move the terminal's cursor.
pub fn shown(path: &Path) -> String {
    // A name that is UTF-8, as nearly all are, displays as itself: no
    // formatting machinery needed (it cost about 1,700 instructions a file).
    match path.to_str() {
        // Printable ASCII: nothing to escape, no character to look up.
        Some(name) if printable_ascii(name.as_bytes()) => name.to_owned(),
        Some(name) => escape_controls(name).into_owned(),
        None => escape_controls(&path.display().to_string()).into_owned(),
    }
}

/// Whether every byte is printable ASCII (a space to `~`): tested
/// without stopping at the first that is not, so that the bytes are taken
/// many at a time (most names are printable; stopping early saved nothing
/// and cost a branch a byte).
fn printable_ascii(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .fold(true, |all, &b| all & (b.wrapping_sub(b' ') <= b'~' - b' '))
}

/// Whether a file of this name is an archive whose entries are inputs.
pub fn is_archive(path: &Path) -> bool {
    archive::kind_of(path).is_some()
}

/// Why an input larger than `limit` is refused.
fn too_big(limit: u64) -> String {
    format!("larger than the limit of {limit} bytes (see --max-input-size)")
}

/// A file's bytes, refusing more than `limit`.
fn read_file(file: std::io::Result<File>, limit: u64) -> Result<Vec<u8>, String> {
    let file = file.map_err(|e| e.to_string())?;
    // No `metadata` call (a `statx` system call per file): `take` alone
    // enforces the limit, and a fixed first capacity holds nearly every
    // record whole, so that it is read in one call.
    let mut bytes = Vec::with_capacity(FILE_CAPACITY);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(too_big(limit));
    }
    Ok(bytes)
}

thread_local! {
    /// Each worker thread keeps its own open zip archives: reading entries
    /// needs a seekable handle, and handles cannot be shared between threads.
    static ZIPS: RefCell<HashMap<PathBuf, File>> = RefCell::new(HashMap::new());
}

/// The room first made for a file's bytes: more than nearly any game
/// record takes (a long KIF game with comments is some 10 KB), so that
/// one `read` takes the file whole and a second finds its end; a larger
/// file is read on, the room doubled as it fills.
const FILE_CAPACITY: usize = 16 * 1024;

/// Opens an input on disk or standard input to be read a chunk at a time
/// (no size limit: the reader holds a chunk); an archive's entry is
/// refused (it is read whole).
pub fn open(origin: Origin) -> Result<Box<dyn Read>, String> {
    match origin {
        Origin::Stdin => Ok(Box::new(std::io::stdin().lock())),
        Origin::File(path) => Ok(Box::new(File::open(&path).map_err(|e| e.to_string())?)),
        Origin::ZipEntry { .. } | Origin::Bytes(_) => {
            Err("an archive's entry is read whole, not opened".to_string())
        }
    }
}

/// Reads an input's bytes, refusing more than `limit`.
pub fn read(origin: Origin, limit: u64) -> Result<Vec<u8>, String> {
    match origin {
        Origin::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .take(limit + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| e.to_string())?;
            if bytes.len() as u64 > limit {
                return Err(too_big(limit));
            }
            Ok(bytes)
        }
        Origin::File(path) => read_file(File::open(&path), limit),
        Origin::ZipEntry {
            archive,
            directory,
            index,
            limits,
        } => ZIPS.with(|cell| {
            let mut zips = cell.borrow_mut();
            if !zips.contains_key(archive.as_path()) {
                let file = File::open(archive.as_path()).map_err(|e| e.to_string())?;
                zips.insert(archive.as_path().to_path_buf(), file);
            }
            let file = zips.get_mut(archive.as_path()).expect("just inserted");
            archive::read_zip_entry(file, &directory, index, limits)
        }),
        Origin::Bytes(bytes) => Ok(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file is read whole within the limit, refused past it, and one
    /// that is not there fails with the system's message.
    #[test]
    fn a_file_is_read_within_the_limit() {
        let dir = crate::test_util::scratch::scratch("read");
        let path = dir.join("a game.csa");
        std::fs::write(&path, "+7776FU\n").unwrap();
        assert_eq!(
            read(Origin::File(path.clone()), 8),
            Ok(b"+7776FU\n".to_vec())
        );
        assert_eq!(read(Origin::File(path), 7), Err(too_big(7)));
        let missing = read(Origin::File(dir.join("missing.csa")), 1 << 20);
        assert!(
            missing.as_ref().is_err_and(|e| e.contains("os error 2")),
            "{missing:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
