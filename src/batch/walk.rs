//! Finding the inputs, lazily: the command-line paths in order, a folder's
//! entries in name order (one folder's listing in memory at a time),
//! archives entry by entry. Nothing is listed ahead of what the batch
//! takes, so a folder tree or archive of millions of records never becomes
//! a list in memory.
//!
//! In folders, symbolic links are not followed unless asked (`-L`; then a
//! folder or file reached twice, through a loop or a second link, is taken
//! once, known by its device and inode); FIFOs, sockets and devices are
//! skipped with a warning (reading a FIFO would wait forever); a folder that
//! cannot be read is an error for that folder and the walk goes on; the
//! output folder is never walked into; hidden files and folders (names
//! starting with `.`) are skipped unless asked (`--hidden`). Paths named on the command line are
//! taken as they are (a FIFO named there is read).

use super::archive::{self, Limits};
use super::entries;
use super::filter::Filter;
use super::inputs::{self, Input, Item, Origin};
use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::FileType;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the walk goes.
#[derive(Clone, Debug)]
pub struct Options {
    /// Follow symbolic links found in folders (`-L`).
    pub follow: bool,
    /// Walk hidden files and folders (names starting with `.`) found in
    /// folders (`--hidden`).
    pub hidden: bool,
    pub filter: Filter,
    /// A folder never walked into (the output folder), by device and inode.
    pub exclude: Option<(u64, u64)>,
    /// How much archives may inflate to.
    pub limits: Limits,
}

/// One folder's entries still to visit, by name, sorted.
struct Listing {
    /// The folder's path, as read (an entry's path is it joined with the
    /// entry's name, as `DirEntry::path` joins them).
    dir: Arc<Path>,
    /// The folder's path relative to the folder named on the command line
    /// that the walk started from (empty for that folder itself): an
    /// entry's relative path is it joined with the entry's name, which is
    /// what `Path::strip_prefix` gives for the entry's path.
    relative: Arc<Path>,
    entries: std::vec::IntoIter<(OsString, FileType)>,
}

enum Pending {
    /// A command-line path.
    Arg(PathBuf),
    Listing(Listing),
    /// An archive's entries, already items.
    Archive(Box<dyn Iterator<Item = Item> + Send>),
    /// The end of a folder or archive named on the command line: if the
    /// walk found nothing in it, that is said.
    End(Named),
}

/// A folder or archive named on the command line, and how many items the
/// walk had given before it.
struct Named {
    display: String,
    folder: bool,
    before: u64,
}

/// The lazy walk over every input.
pub struct Walk {
    stack: Vec<Pending>,
    options: Options,
    /// With `-L`: folders and files already taken, by device and inode.
    seen: HashSet<(u64, u64)>,
    /// How many inputs and problems the walk has given.
    given: u64,
}

impl Walk {
    pub fn new(paths: &[PathBuf], options: Options) -> Walk {
        Walk {
            stack: paths.iter().rev().cloned().map(Pending::Arg).collect(),
            options,
            seen: HashSet::new(),
            given: 0,
        }
    }

    /// A command-line path: standard input, a folder, an archive or a file.
    fn arg(&mut self, path: PathBuf) -> Option<Item> {
        if path.as_os_str() == "-" {
            return Some(Item::Input(Input {
                display: "<stdin>".into(),
                relative: PathBuf::from("stdin"),
                origin: Origin::Stdin,
            }));
        }
        let display = inputs::shown(&path);
        let meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Some(problem(display, "no such file or folder".into()))
            }
            Err(e) => return Some(problem(display, e.to_string())),
        };
        if meta.is_dir() {
            self.seen.insert((meta.dev(), meta.ino()));
            self.push_end(display, true);
            return self.list(path, PathBuf::new());
        }
        let name = PathBuf::from(path.file_name().unwrap_or(path.as_os_str()));
        if inputs::is_archive(&path) {
            self.push_end(display, false);
            self.stack.push(Pending::Archive(entries::archive_items(
                &path,
                Path::new(""),
                &self.options.filter,
                self.options.limits,
            )));
            return None;
        }
        Some(Item::Input(Input {
            display,
            relative: name,
            origin: Origin::File(path),
        }))
    }

    /// Marks where the walk of a named folder or archive ends.
    fn push_end(&mut self, display: String, folder: bool) {
        let before = self.given;
        self.stack.push(Pending::End(Named {
            display,
            folder,
            before,
        }));
    }

    /// Reads the listing of the folder `dir` (at `relative` to the folder
    /// the walk started from) onto the stack.
    fn list(&mut self, dir: PathBuf, relative: PathBuf) -> Option<Item> {
        let read = match std::fs::read_dir(&dir) {
            Ok(read) => read,
            Err(e) => return Some(problem(inputs::shown(&dir), e.to_string())),
        };
        let mut named = Vec::new();
        for entry in read {
            match entry.and_then(|e| Ok((e.file_name(), e.file_type()?))) {
                Ok(entry) => named.push(entry),
                Err(e) => return Some(problem(inputs::shown(&dir), e.to_string())),
            }
        }
        // One folder's entries differ only in their last component: sorted
        // by their names' bytes, the order whole paths compare in (no two
        // entries of a folder share a name). Only the names are kept: each
        // entry's path is joined when the walk comes to it.
        named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        self.stack.push(Pending::Listing(Listing {
            dir: Arc::from(dir),
            relative: Arc::from(relative),
            entries: named.into_iter(),
        }));
        None
    }

    /// One entry named `name` found in the folder `dir`, at
    /// `relative_dir` to the folder the walk started from.
    fn entry(
        &mut self,
        (dir, relative_dir): (&Path, &Path),
        name: OsString,
        kind: FileType,
    ) -> Option<Item> {
        // Hidden files and folders (`.git`) are not walked unless asked,
        // as ripgrep walks: what is named on the command line is read.
        if !self.options.hidden && name.as_bytes().first() == Some(&b'.') {
            return None;
        }
        let path = joined(dir, &name);
        let relative = if relative_dir.as_os_str().is_empty() {
            PathBuf::from(name)
        } else {
            joined(relative_dir, &name)
        };
        let display = inputs::shown(&path);
        let mut kind = kind;
        if kind.is_symlink() {
            let target = std::fs::metadata(&path);
            if !self.options.follow {
                // Only links to what would be read are worth a word.
                let wanted = target.as_ref().is_ok_and(|m| {
                    m.is_dir() || inputs::is_input_kind(&path) || inputs::is_archive(&path)
                });
                return wanted.then(|| Item::Skipped {
                    display,
                    message: "a symbolic link, not followed (use -L to follow links)".into(),
                });
            }
            match target {
                Ok(meta) => kind = meta.file_type(),
                Err(e) => {
                    return Some(Item::Skipped {
                        display,
                        message: format!("a symbolic link that leads nowhere ({e})"),
                    })
                }
            }
        }
        if kind.is_dir() {
            // A folder a `!` glob matches is pruned, as ripgrep prunes it.
            if self.options.filter.excludes(&relative) {
                return None;
            }
            let meta = match std::fs::metadata(&path) {
                Ok(meta) => meta,
                Err(e) => return Some(problem(display, e.to_string())),
            };
            let id = (meta.dev(), meta.ino());
            if self.options.exclude == Some(id) {
                return None;
            }
            if self.options.follow && !self.seen.insert(id) {
                return Some(Item::Skipped {
                    display,
                    message: "a folder already walked (a loop of symbolic links, or a second link to it): skipped".into(),
                });
            }
            return self.list(path, relative);
        }
        let archive = inputs::is_archive(&path);
        let wanted = if archive {
            !self.options.filter.excludes(&relative)
        } else {
            inputs::is_input_kind(&path) && self.options.filter.takes(&relative)
        };
        if !wanted {
            return None;
        }
        if kind.is_fifo() || kind.is_socket() || kind.is_block_device() || kind.is_char_device() {
            let what = if kind.is_fifo() {
                "a FIFO"
            } else if kind.is_socket() {
                "a socket"
            } else {
                "a device"
            };
            return Some(Item::Skipped {
                display,
                message: format!("{what}, not a file: skipped"),
            });
        }
        if self.options.follow {
            // A file reached twice through links is taken once.
            if let Ok(meta) = std::fs::metadata(&path) {
                if !self.seen.insert((meta.dev(), meta.ino())) {
                    return None;
                }
            }
        }
        if archive {
            let folder = archive::stem(&relative);
            self.stack.push(Pending::Archive(entries::archive_items(
                &path,
                &folder,
                &self.options.filter,
                self.options.limits,
            )));
            return None;
        }
        Some(Item::Input(Input {
            display,
            relative,
            origin: Origin::File(path),
        }))
    }
}

impl Iterator for Walk {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            let item = match self.stack.last_mut()? {
                Pending::Arg(_) => {
                    let Some(Pending::Arg(path)) = self.stack.pop() else {
                        unreachable!("the top is an argument")
                    };
                    self.arg(path)
                }
                Pending::Listing(listing) => match listing.entries.next() {
                    Some((name, kind)) => {
                        let (dir, relative) = (listing.dir.clone(), listing.relative.clone());
                        self.entry((&dir, &relative), name, kind)
                    }
                    None => {
                        self.stack.pop();
                        None
                    }
                },
                Pending::Archive(items) => match items.next() {
                    Some(item) => Some(item),
                    None => {
                        self.stack.pop();
                        None
                    }
                },
                Pending::End(named) => {
                    let empty = named.before == self.given;
                    let Some(Pending::End(named)) = self.stack.pop() else {
                        unreachable!("the top is an end")
                    };
                    empty.then(|| nothing_found(named))
                }
            };
            if let Some(item) = item {
                if !matches!(item, Item::Skipped { .. }) {
                    self.given += 1;
                }
                return Some(item);
            }
        }
    }
}

fn problem(display: String, message: String) -> Item {
    Item::Problem { display, message }
}

/// What is said of a folder or archive named on the command line in which
/// the walk found no input: an error for it, as a missing file is.
fn nothing_found(named: Named) -> Item {
    let what = if named.folder { "folder" } else { "archive" };
    problem(
        named.display,
        format!(
            "no input found in this {what}: no file whose extension names a record format \
             or training data (and that --glob takes)"
        ),
    )
}

/// `name` joined to the folder `dir`, as `Path::join` joins them (a `/`
/// between them unless `dir` is empty or ends in one), in a buffer made
/// once to its size (`DirEntry::path` copied the folder's path, then grew
/// the copy for the name).
fn joined(dir: &Path, name: &OsStr) -> PathBuf {
    let (dir, name) = (dir.as_os_str().as_bytes(), name.as_bytes());
    let mut bytes = Vec::with_capacity(dir.len() + 1 + name.len());
    bytes.extend_from_slice(dir);
    if dir.last().is_some_and(|&b| b != b'/') {
        bytes.push(b'/');
    }
    bytes.extend_from_slice(name);
    PathBuf::from(OsString::from_vec(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry's path is `DirEntry::path`, and its relative path what
    /// `strip_prefix` gives for it from the folder the walk started from,
    /// whatever the spelling of that folder.
    #[test]
    fn paths_and_relative_paths_are_those_of_the_listing() {
        let base = crate::test_util::scratch::scratch("walk");
        let sub = base.join("d").join("e");
        std::fs::create_dir_all(&sub).unwrap();
        for file in [
            base.join("a.csa"),
            base.join("d").join("b.kif"),
            sub.join("c.ki2"),
        ] {
            std::fs::write(file, "+7776FU\n").unwrap();
        }
        let text = base.to_str().unwrap();
        for root in [
            text.to_string(),
            format!("{text}/"),
            format!("{text}//"),
            format!("{text}/."),
            format!("{text}/./"),
            format!("{text}/d/.."),
        ] {
            let walk = Walk::new(
                &[PathBuf::from(&root)],
                Options {
                    follow: false,
                    hidden: false,
                    filter: Filter::default(),
                    exclude: None,
                    limits: Limits {
                        max_entry: 1 << 20,
                        max_total: 1 << 20,
                    },
                },
            );
            let mut found = Vec::new();
            for item in walk {
                let Item::Input(input) = item else {
                    panic!("only inputs here")
                };
                let path = match input.origin {
                    Origin::File(path) => path,
                    _ => panic!("a file in a folder"),
                };
                let root = Path::new(&root);
                assert_eq!(
                    input.relative.as_os_str(),
                    path.strip_prefix(root).unwrap().as_os_str()
                );
                assert_eq!(input.display, inputs::shown(&path));
                found.push(path);
            }
            let listed = |dir: &Path, name: &str| {
                std::fs::read_dir(dir)
                    .unwrap()
                    .map(|e| e.unwrap())
                    .find(|e| e.file_name() == name)
                    .unwrap()
                    .path()
            };
            let root = Path::new(&root);
            let d = listed(root, "d");
            let e = listed(&d, "e");
            assert_eq!(
                found,
                [
                    listed(root, "a.csa"),
                    listed(&d, "b.kif"),
                    listed(&e, "c.ki2")
                ]
            );
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
