//! Finding the inputs: files, folders searched recursively, zip archives
//! (entry names in UTF-8 or CP932), standard input; and reading one input's
//! bytes, refusing anything larger than the configured limit.

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

fn is_zip(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// Expands the command-line inputs, in the order given; a folder's files in
/// name order. An input that cannot be opened is an error for the caller to
/// report (and count), not a reason to stop.
pub fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<(String, String)>) {
    let mut inputs = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input {
                display: "<stdin>".into(),
                relative: PathBuf::from("stdin"),
                origin: Origin::Stdin,
            });
        } else if path.is_dir() {
            walk(path, path, &mut inputs, &mut problems);
        } else if is_zip(path) {
            zip_entries(path, Path::new(""), &mut inputs, &mut problems);
        } else if path.exists() {
            inputs.push(Input {
                display: path.display().to_string(),
                relative: PathBuf::from(path.file_name().unwrap_or(path.as_os_str())),
                origin: Origin::File(path.clone()),
            });
        } else {
            problems.push((path.display().to_string(), "no such file or folder".into()));
        }
    }
    (inputs, problems)
}

fn walk(root: &Path, dir: &Path, inputs: &mut Vec<Input>, problems: &mut Vec<(String, String)>) {
    // The entry's type comes with the listing: no extra stat per file.
    let mut entries: Vec<(PathBuf, bool)> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| {
                let e = e.ok()?;
                let is_dir = match e.file_type() {
                    Ok(t) if t.is_symlink() => e.path().is_dir(),
                    Ok(t) => t.is_dir(),
                    Err(_) => false,
                };
                Some((e.path(), is_dir))
            })
            .collect(),
        Err(e) => {
            problems.push((dir.display().to_string(), e.to_string()));
            return;
        }
    };
    entries.sort();
    for (path, is_dir) in entries {
        let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        if is_dir {
            walk(root, &path, inputs, problems);
        } else if is_zip(&path) {
            let folder = relative.with_extension("");
            zip_entries(&path, &folder, inputs, problems);
        } else if is_input_kind(&path) {
            inputs.push(Input {
                display: path.display().to_string(),
                relative,
                origin: Origin::File(path),
            });
        }
    }
}

/// An entry name: UTF-8 when flagged or valid, else CP932 (old Japanese
/// archivers wrote names in Shift_JIS without saying so).
fn entry_name(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(name) => name.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(raw).0.into_owned(),
    }
}

fn zip_entries(
    path: &Path,
    prefix: &Path,
    inputs: &mut Vec<Input>,
    problems: &mut Vec<(String, String)>,
) {
    let archive = match File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|f| zip::ZipArchive::new(std::io::BufReader::new(f)).map_err(|e| e.to_string()))
    {
        Ok(archive) => archive,
        Err(e) => {
            problems.push((
                path.display().to_string(),
                format!("cannot read the zip archive: {e}"),
            ));
            return;
        }
    };
    let shared = Arc::new(path.to_path_buf());
    let mut archive = archive;
    for index in 0..archive.len() {
        let Ok(entry) = archive.by_index_raw(index) else {
            problems.push((
                format!("{}:#{index}", path.display()),
                "unreadable zip entry".into(),
            ));
            continue;
        };
        if entry.is_dir() {
            continue;
        }
        let name = entry_name(entry.name_raw());
        // Never let an entry name climb out of the output folder.
        let relative: PathBuf = Path::new(&name)
            .components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect();
        if !is_input_kind(&relative) {
            continue;
        }
        inputs.push(Input {
            display: format!("{}:{name}", path.display()),
            relative: prefix.join(&relative),
            origin: Origin::ZipEntry {
                archive: shared.clone(),
                index,
            },
        });
    }
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
