//! The books a server answers from, by name: each opened read-only once,
//! then searched by binary search for every request (see
//! [`crate::book::file::lookup`]), so a server's memory does not grow with
//! its books.

use crate::book::file::{self, BookFormat};
use crate::book::query::Answer;
use crate::Position;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One book served.
#[derive(Clone, Debug)]
pub struct ServedBook {
    /// The name requests give it by.
    pub name: String,
    /// The file, for messages.
    pub path: PathBuf,
    /// Its format.
    pub format: BookFormat,
    file: Arc<File>,
    len: u64,
}

/// The books served, in the order given; the first is the default.
#[derive(Clone, Debug, Default)]
pub struct Books(Vec<ServedBook>);

impl ServedBook {
    /// Opens the book at `path` read-only and searches it once for the
    /// start position, so that a file that is no book of `format` (told by
    /// its name when `None`) is refused before the server starts. Its name
    /// is `name`, else the file's name without its extension.
    pub fn open(
        path: &Path,
        name: Option<&str>,
        format: Option<BookFormat>,
    ) -> Result<ServedBook, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let file = File::open(path).map_err(|e| fail(&e))?;
        let len = file.metadata().map_err(|e| fail(&e))?.len();
        let name = match name {
            Some(name) => name.to_string(),
            None => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let book = ServedBook {
            name,
            path: path.to_path_buf(),
            format: format.unwrap_or_else(|| BookFormat::of_path(path)),
            file: Arc::new(file),
            len,
        };
        book.lookup(&Position::startpos()).map_err(|e| fail(&e))?;
        Ok(book)
    }

    /// The book's moves for `pos` (or its rotation's, rotated back).
    pub fn lookup(&self, pos: &Position) -> std::io::Result<Option<Answer>> {
        let reader = At {
            file: &self.file,
            at: 0,
        };
        file::lookup(reader, self.len, pos, self.format)
    }
}

impl Books {
    /// The books; an error when two have one name, or a name is empty.
    pub fn new(books: Vec<ServedBook>) -> Result<Books, String> {
        for (i, book) in books.iter().enumerate() {
            if book.name.is_empty() {
                return Err(format!("{}: a book needs a name", book.path.display()));
            }
            if books[..i].iter().any(|b| b.name == book.name) {
                return Err(format!(
                    "two books are named `{}`: name one with --book PATH=NAME",
                    book.name
                ));
            }
        }
        Ok(Books(books))
    }

    /// The book named `name`, or the first when `None`.
    pub fn get(&self, name: Option<&str>) -> Option<&ServedBook> {
        match name {
            Some(name) => self.0.iter().find(|b| b.name == name),
            None => self.0.first(),
        }
    }

    /// Every book, in order.
    pub fn iter(&self) -> impl Iterator<Item = &ServedBook> {
        self.0.iter()
    }
}

/// A reader of a shared file at its own offset: reads do not move the
/// offset the file's other readers see, so one open file serves every
/// request at once.
struct At<'a> {
    file: &'a File,
    at: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(self.file, buf, self.at)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl Seek for At<'_> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let at = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.file.metadata()?.len().checked_add_signed(d),
            SeekFrom::Current(d) => self.at.checked_add_signed(d),
        };
        self.at = at.ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start")
        })?;
        Ok(self.at)
    }
}
