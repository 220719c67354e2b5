//! An archive's entries as walk items, lazily and in archive order: the
//! records it holds (those `--glob` takes) become inputs, archives inside
//! it are opened in turn (to [`MAX_DEPTH`] levels), and an entry that cannot
//! be read is an error for that entry while the rest goes on.
//!
//! A zip file on disk is listed from its central directory and each entry
//! is inflated by the worker that converts it; 7z and tar archives, and
//! archives inside archives, are read in order here, entry by entry.

use super::archive::{self, EntryError, EntryName, Kind, Limits, ZipDirectory};
use super::filter::Filter;
use super::inputs::{self, Input, Item, Origin};
use crate::error::escape_controls;
use std::fs::File;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How deep archives may nest: an archive inside an archive inside an
/// archive, no further.
pub const MAX_DEPTH: usize = 3;

/// Where an archive's entries go: how it is named in messages, the folder
/// its records' outputs go under, and which records to take.
#[derive(Clone)]
struct Place {
    display: String,
    prefix: PathBuf,
    filter: Filter,
    limits: Limits,
    depth: usize,
    /// How many of this archive's entries were macOS metadata, skipped.
    macos: Arc<AtomicUsize>,
}

impl Place {
    fn entry_display(&self, name: &EntryName) -> String {
        format!("{}:{}", self.display, escape_controls(&name.name))
    }

    fn problem(&self, e: EntryError) -> Item {
        match &e.entry {
            Some(name) => Item::Problem {
                display: self.entry_display(name),
                message: e.message,
            },
            None => Item::Problem {
                display: self.display.clone(),
                message: e.message,
            },
        }
    }

    /// The place of an archive found at `name` inside this one.
    fn inner(&self, name: &EntryName) -> Place {
        Place {
            display: self.entry_display(name),
            prefix: self.prefix.join(archive::stem(&name.relative)),
            depth: self.depth + 1,
            macos: Arc::new(AtomicUsize::new(0)),
            ..self.clone()
        }
    }

    /// What an entry read whole becomes.
    fn entry(&self, name: EntryName, bytes: Vec<u8>) -> Box<dyn Iterator<Item = Item> + Send> {
        if name.is_macos_metadata() {
            self.macos.fetch_add(1, Ordering::Relaxed);
            return Box::new(std::iter::empty());
        }
        if self.filter.in_pruned_folder(&name.relative) {
            return Box::new(std::iter::empty());
        }
        if let Some(kind) = archive::kind_of(&name.relative) {
            if self.filter.excludes(&name.relative) {
                return Box::new(std::iter::empty());
            }
            let inner = self.inner(&name);
            if inner.depth > MAX_DEPTH {
                return Box::new(std::iter::once(Item::Problem {
                    display: inner.display,
                    message: format!(
                        "an archive nested deeper than {MAX_DEPTH} levels; not opened"
                    ),
                }));
            }
            let entries = archive::entries(Box::new(Cursor::new(bytes)), kind, self.limits);
            return inner.items(entries);
        }
        if !inputs::is_input_kind(&name.relative) || !self.filter.takes(&name.relative) {
            return Box::new(std::iter::empty());
        }
        Box::new(std::iter::once(Item::Input(Input {
            display: self.entry_display(&name),
            relative: self.prefix.join(&name.relative),
            origin: Origin::Bytes(bytes),
        })))
    }

    /// The items of entries read in order.
    fn items(self, entries: archive::Entries) -> Box<dyn Iterator<Item = Item> + Send> {
        let note = self.macos_note();
        Box::new(
            entries
                .flat_map(move |item| match item {
                    Ok((name, bytes)) => self.entry(name, bytes),
                    Err(e) => Box::new(std::iter::once(self.problem(e))),
                })
                .chain(note),
        )
    }

    /// After the archive's last entry, one warning saying how many macOS
    /// metadata entries were skipped, if any were.
    fn macos_note(&self) -> impl Iterator<Item = Item> + Send {
        let (display, macos) = (self.display.clone(), self.macos.clone());
        std::iter::once_with(move || {
            let n = macos.load(Ordering::Relaxed);
            (n > 0).then(|| Item::Skipped {
                display,
                message: format!(
                    "{n} macOS metadata {} (__MACOSX/, ._name) skipped",
                    if n == 1 { "entry" } else { "entries" }
                ),
            })
        })
        .flatten()
    }
}

/// The items of the archive at `path`, whose records' outputs go under
/// `prefix`.
pub fn archive_items(
    path: &Path,
    prefix: &Path,
    filter: &Filter,
    limits: Limits,
) -> Box<dyn Iterator<Item = Item> + Send> {
    let place = Place {
        display: inputs::shown(path),
        prefix: prefix.to_path_buf(),
        filter: filter.clone(),
        limits,
        depth: 1,
        macos: Arc::new(AtomicUsize::new(0)),
    };
    let Some(kind) = archive::kind_of(path) else {
        return Box::new(std::iter::empty());
    };
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) => {
            return Box::new(std::iter::once(Item::Problem {
                display: place.display,
                message: e.to_string(),
            }))
        }
    };
    if kind != Kind::Zip {
        return place.items(archive::entries(Box::new(file), kind, limits));
    }
    let directory = match ZipDirectory::read(&mut file) {
        Ok(directory) => Arc::new(directory),
        Err(message) => {
            return Box::new(std::iter::once(Item::Problem {
                display: place.display,
                message,
            }))
        }
    };
    let archive = Arc::new(path.to_path_buf());
    let note = place.macos_note();
    Box::new(
        (0..directory.len())
            .flat_map(move |index| -> Box<dyn Iterator<Item = Item> + Send> {
                let name = match choose(&directory, index, &place.filter) {
                    Choice::Leave => return Box::new(std::iter::empty()),
                    Choice::MacOs => {
                        place.macos.fetch_add(1, Ordering::Relaxed);
                        return Box::new(std::iter::empty());
                    }
                    Choice::Archive(name) => {
                        // An archive inside: read now, to list its entries.
                        return match archive::read_zip_entry(&mut file, &directory, index, limits) {
                            Ok(bytes) => place.entry(name, bytes),
                            Err(message) => Box::new(std::iter::once(Item::Problem {
                                display: place.entry_display(&name),
                                message,
                            })),
                        };
                    }
                    Choice::Input(name) => name,
                };
                Box::new(std::iter::once(Item::Input(Input {
                    display: place.entry_display(&name),
                    relative: place.prefix.join(&name.relative),
                    origin: Origin::ZipEntry {
                        archive: archive.clone(),
                        directory: directory.clone(),
                        index,
                        limits,
                    },
                })))
            })
            .chain(note),
    )
}

/// What the walk makes of a zip entry.
pub enum Choice {
    /// Not an input: a folder, a file of another kind, one the globs leave
    /// out.
    Leave,
    /// macOS metadata (`__MACOSX/`, `._name`): left out, with one note.
    MacOs,
    /// An archive inside, whose entries are inputs.
    Archive(EntryName),
    /// An input.
    Input(EntryName),
}

/// The one rule for a zip entry: whether the walk takes it, and as what.
pub fn choose(directory: &ZipDirectory, index: usize, filter: &Filter) -> Choice {
    if !directory.is_file(index) {
        return Choice::Leave;
    }
    let name = directory.name(index);
    if name.is_macos_metadata() {
        return Choice::MacOs;
    }
    if filter.in_pruned_folder(&name.relative) {
        return Choice::Leave;
    }
    if archive::kind_of(&name.relative).is_some() {
        return Choice::Archive(name);
    }
    if !inputs::is_input_kind(&name.relative) || !filter.takes(&name.relative) {
        return Choice::Leave;
    }
    Choice::Input(name)
}
