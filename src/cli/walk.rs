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
//! output folder is never walked into. Paths named on the command line are
//! taken as they are (a FIFO named there is read).

use super::archive::{self, Limits};
use super::entries;
use super::filter::Filter;
use super::inputs::{self, Input, Item, Origin};
use std::collections::HashSet;
use std::fs::FileType;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the walk goes.
#[derive(Clone, Debug)]
pub struct Options {
    /// Follow symbolic links found in folders (`-L`).
    pub follow: bool,
    pub filter: Filter,
    /// A folder never walked into (the output folder), by device and inode.
    pub exclude: Option<(u64, u64)>,
    /// How much archives may inflate to.
    pub limits: Limits,
}

/// One folder's entries still to visit, sorted by name.
struct Listing {
    /// The folder named on the command line that the walk started from, shared by every
    /// entry under it (each entry's relative path is taken from it).
    root: Arc<Path>,
    /// The folder itself, held open so that its files are opened by name
    /// in it ([`Origin::InFolder`]); `None` if it could not be opened so
    /// (its files are then opened by their whole paths).
    folder: Option<Arc<std::fs::File>>,
    entries: std::vec::IntoIter<(PathBuf, FileType)>,
}

enum Pending {
    /// A command-line path.
    Arg(PathBuf),
    Listing(Listing),
    /// An archive's entries, already items.
    Archive(Box<dyn Iterator<Item = Item> + Send>),
}

/// The lazy walk over every input.
pub struct Walk {
    stack: Vec<Pending>,
    options: Options,
    /// With `-L`: folders and files already taken, by device and inode.
    seen: HashSet<(u64, u64)>,
}

impl Walk {
    pub fn new(paths: &[PathBuf], options: Options) -> Walk {
        Walk {
            stack: paths.iter().rev().cloned().map(Pending::Arg).collect(),
            options,
            seen: HashSet::new(),
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
            return self.list(Arc::from(path.as_path()), &path);
        }
        let name = PathBuf::from(path.file_name().unwrap_or(path.as_os_str()));
        if inputs::is_archive(&path) {
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

    /// Reads one folder's listing onto the stack.
    fn list(&mut self, root: Arc<Path>, dir: &Path) -> Option<Item> {
        let read = match std::fs::read_dir(dir) {
            Ok(read) => read,
            Err(e) => return Some(problem(inputs::shown(dir), e.to_string())),
        };
        let folder = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY)
            .open(dir)
            .ok()
            .map(Arc::new);
        let mut named = Vec::new();
        for entry in read {
            match entry.and_then(|e| Ok((e.file_name(), e.path(), e.file_type()?))) {
                Ok(entry) => named.push(entry),
                Err(e) => return Some(problem(inputs::shown(dir), e.to_string())),
            }
        }
        // One folder's entries differ only in their last component: sorted
        // by their names' bytes, the order whole paths compare in, with the
        // name kept from the listing instead of found again in the path at
        // every comparison (no two entries of a folder share a name).
        named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let entries: Vec<_> = named
            .into_iter()
            .map(|(_, path, kind)| (path, kind))
            .collect();
        self.stack.push(Pending::Listing(Listing {
            root,
            folder,
            entries: entries.into_iter(),
        }));
        None
    }

    /// One entry found in a folder (held open as `folder`, if it could be).
    fn entry(
        &mut self,
        root: Arc<Path>,
        folder: Option<Arc<std::fs::File>>,
        path: PathBuf,
        kind: FileType,
    ) -> Option<Item> {
        let display = inputs::shown(&path);
        let relative = relative_to(&root, &path).to_path_buf();
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
            return self.list(root, &path);
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
        let origin = match folder {
            Some(folder) => Origin::InFolder { folder, path },
            None => Origin::File(path),
        };
        Some(Item::Input(Input {
            display,
            relative,
            origin,
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
                    Some((path, kind)) => {
                        let (root, folder) = (listing.root.clone(), listing.folder.clone());
                        self.entry(root, folder, path, kind)
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
            };
            if item.is_some() {
                return item;
            }
        }
    }
}

fn problem(display: String, message: String) -> Item {
    Item::Problem { display, message }
}

/// `path` relative to the folder `root` it was found under, as
/// `Path::strip_prefix` gives it (`path` itself when it is not under
/// `root`). A path the walk found is `root`, a `/` unless `root` ends in
/// one, then names joined by `/` (`DirEntry::path` joins each name to its
/// folder); then the rest after those bytes is what `strip_prefix` gives,
/// without comparing component by component (1,800 instructions a file).
fn relative_to<'p>(root: &Path, path: &'p Path) -> &'p Path {
    let general = || path.strip_prefix(root).unwrap_or(path);
    let (Some(root_text), Some(text)) = (root.to_str(), path.to_str()) else {
        return general();
    };
    if root_text.is_empty() {
        return general();
    }
    let rest = text.strip_prefix(root_text).and_then(|rest| {
        if root_text.ends_with('/') {
            Some(rest)
        } else {
            rest.strip_prefix('/')
        }
    });
    // Plain names joined by single slashes: nothing for strip_prefix to
    // normalise, so the text is its answer.
    let plain = |rest: &str| {
        !rest.is_empty()
            && rest
                .split('/')
                .all(|name| !name.is_empty() && name != "." && name != "..")
    };
    match rest {
        Some(rest) if plain(rest) => Path::new(rest),
        _ => general(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_those_strip_prefix_gives() {
        let roots = [
            "a", "a/", "/", "/tmp/x", ".", "./", "..", "a/.", "a//b", "", "a/b/",
        ];
        let rests = ["c.csa", "d/c.csa", "./c", "d//c", "", "..", "d/", ".hidden"];
        for root in roots {
            for rest in rests {
                for joined in [
                    format!("{root}/{rest}"),
                    format!("{root}{rest}"),
                    rest.to_string(),
                ] {
                    let (root, path) = (Path::new(root), Path::new(&joined));
                    assert_eq!(
                        relative_to(root, path).as_os_str(),
                        path.strip_prefix(root).unwrap_or(path).as_os_str(),
                        "{root:?} {path:?}"
                    );
                }
            }
        }
    }
}
