//! Finding the inputs: files, folders searched recursively, zip archives
//! (entry names in UTF-8 or CP932), standard input; and reading one input's
//! bytes, refusing anything larger than the configured limit.

use super::filter::Filter;
use kifconv::error::escape_controls;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The extensions kifconv reads.
const KNOWN: [&str; 11] = [
    "kif", "kifu", "ki2", "ki2u", "csa", "usi", "sfen", "jkf", "json", "psn", "western",
];

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
#[derive(Clone, Debug)]
pub enum Origin {
    Stdin,
    File(PathBuf),
    ZipEntry { archive: Arc<PathBuf>, index: usize },
}

/// One input: how to name it in messages, where its output goes (relative
/// to the output folder), and where to read it.
#[derive(Clone, Debug)]
pub struct Input {
    pub display: String,
    pub relative: PathBuf,
    pub origin: Origin,
}

/// Whether a file of this name is read as an input when found in a folder.
pub fn is_input_kind(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| KNOWN.contains(&e.to_ascii_lowercase().as_str()))
}

/// How a path is named in messages and the report: control characters
/// escaped, so that a file name cannot move the terminal's cursor.
pub fn shown(path: &Path) -> String {
    escape_controls(&path.display().to_string()).into_owned()
}

/// Whether a file of this name is an archive whose entries are inputs.
pub fn is_archive(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// An entry name: UTF-8 when flagged or valid, else CP932 (old Japanese
/// archivers wrote names in Shift_JIS without saying so).
fn entry_name(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(name) => name.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(raw).0.into_owned(),
    }
}

/// An archive's entries as walk items, lazily: entries of a readable kind
/// that `filter` takes, under `prefix` in the output folder.
pub fn archive_items(
    path: &Path,
    prefix: &Path,
    filter: &Filter,
) -> Box<dyn Iterator<Item = Item> + Send> {
    let display = shown(path);
    let archive = match File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|f| zip::ZipArchive::new(std::io::BufReader::new(f)).map_err(|e| e.to_string()))
    {
        Ok(archive) => archive,
        Err(e) => {
            return Box::new(std::iter::once(Item::Problem {
                display,
                message: format!("cannot read the zip archive: {e}"),
            }))
        }
    };
    let shared = Arc::new(path.to_path_buf());
    let prefix = prefix.to_path_buf();
    let filter = filter.clone();
    let mut archive = archive;
    let count = archive.len();
    Box::new((0..count).filter_map(move |index| {
        let Ok(entry) = archive.by_index_raw(index) else {
            return Some(Item::Problem {
                display: format!("{display}:#{index}"),
                message: "unreadable zip entry".into(),
            });
        };
        if entry.is_dir() {
            return None;
        }
        let name = entry_name(entry.name_raw());
        // Never let an entry name climb out of the output folder.
        let relative: PathBuf = Path::new(&name)
            .components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect();
        if !is_input_kind(&relative) || !filter.takes(&relative) {
            return None;
        }
        Some(Item::Input(Input {
            display: format!("{display}:{}", escape_controls(&name)),
            relative: prefix.join(&relative),
            origin: Origin::ZipEntry {
                archive: shared.clone(),
                index,
            },
        }))
    }))
}

thread_local! {
    /// Each worker thread keeps its own open archives: reading entries needs
    /// a seekable handle, and handles cannot be shared between threads.
    static ARCHIVES: RefCell<HashMap<PathBuf, zip::ZipArchive<std::io::BufReader<File>>>> =
        RefCell::new(HashMap::new());
}

/// Reads an input's bytes, refusing more than `limit`.
pub fn read(input: &Input, limit: u64) -> Result<Vec<u8>, String> {
    let too_big = || format!("larger than the limit of {limit} bytes (see --max-input-size)");
    match &input.origin {
        Origin::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .take(limit + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| e.to_string())?;
            if bytes.len() as u64 > limit {
                return Err(too_big());
            }
            Ok(bytes)
        }
        Origin::File(path) => {
            let file = File::open(path).map_err(|e| e.to_string())?;
            let size = file.metadata().map(|m| m.len()).unwrap_or(0);
            if size > limit {
                return Err(too_big());
            }
            let mut bytes = Vec::with_capacity(size as usize);
            file.take(limit + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| e.to_string())?;
            if bytes.len() as u64 > limit {
                return Err(too_big());
            }
            Ok(bytes)
        }
        Origin::ZipEntry { archive, index } => ARCHIVES.with(|cell| {
            let mut archives = cell.borrow_mut();
            if !archives.contains_key(archive.as_path()) {
                let file = File::open(archive.as_path()).map_err(|e| e.to_string())?;
                let opened = zip::ZipArchive::new(std::io::BufReader::new(file))
                    .map_err(|e| e.to_string())?;
                archives.insert(archive.as_path().to_path_buf(), opened);
            }
            let zip = archives.get_mut(archive.as_path()).expect("just inserted");
            let entry = zip
                .by_index(*index)
                .map_err(|e| format!("cannot read the zip entry: {e}"))?;
            if entry.size() > limit {
                return Err(too_big());
            }
            let mut bytes = Vec::with_capacity(entry.size() as usize);
            // The declared size may lie: read at most one byte past the limit.
            entry
                .take(limit + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot decompress the zip entry: {e}"))?;
            if bytes.len() as u64 > limit {
                return Err(too_big());
            }
            Ok(bytes)
        }),
    }
}
