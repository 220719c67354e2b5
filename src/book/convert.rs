//! Books between formats in bounded memory. Any book becomes DB2016 text
//! (a text book is its own; a `.ybb`'s positions are written in its
//! index's order, a `.bin`'s as a walk from the start reaches them), the
//! text is sorted in bounded memory by [`super::sort`], and the sorted
//! text is written in any format through runs on disk.

use super::file::BookFormat;
use super::{apery, db2016, ybb};
use crate::Position;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// A book as DB2016 text in a file: the book itself when it is text, a
/// temporary file (removed when this is dropped) when it is binary.
#[derive(Debug)]
pub struct Text {
    /// The text's file.
    pub path: PathBuf,
    /// Whether the file is ours to remove.
    temporary: bool,
    /// What reading the book could not keep, a line each.
    pub warnings: Vec<String>,
}

impl Drop for Text {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The book in the file `input` of `format` as text (see the module
/// notes), a binary one written to a temporary file in `dir`. Reading
/// holds no more than a position at a time, and for a `.bin` the walk's
/// own (see [`apery::walk`]); a `.bin` of at most half of `memory` bytes is
/// walked in memory.
pub fn text_of(input: &Path, format: BookFormat, dir: &Path, memory: usize) -> io::Result<Text> {
    if format == BookFormat::Db2016 {
        return Ok(Text {
            path: input.to_path_buf(),
            temporary: false,
            warnings: Vec::new(),
        });
    }
    static TEXTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = TEXTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!(".kifconv-text-{}-{n}.db", std::process::id()));
    let file = std::fs::File::create_new(&path)?;
    let mut text = Text {
        path,
        temporary: true,
        warnings: Vec::new(),
    };
    let mut out = io::BufWriter::new(file);
    writeln!(out, "{}", db2016::HEADER)?;
    let mut lines = String::new();
    let write = |pos: &Position, entry: super::Entry| {
        lines.clear();
        db2016::write_entry(&mut lines, &super::key(pos), &entry);
        out.write_all(lines.as_bytes())
    };
    let len = std::fs::metadata(input)?.len();
    let open = || std::fs::File::open(input);
    if format == BookFormat::Ybb {
        ybb::each(open()?, open()?, len, write)?;
    } else {
        let roots = [Position::startpos()];
        let mut entries: Box<dyn apery::Entries> = if len <= memory as u64 / 2 {
            Box::new(apery::InMemory::new(&std::fs::read(input)?)?)
        } else {
            Box::new(apery::OnDisk::open(io::BufReader::new(open()?), len)?)
        };
        let walked = apery::walk(entries.as_mut(), &roots, Some(dir.to_path_buf()), write)?;
        text.warnings = walked.warnings();
    }
    out.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(text)
}

/// Writes the sorted text book read from `text` to `out` in `format`, a
/// binary one through runs on disk in `dir` past about `memory` bytes;
/// says what the format could not hold, a line each.
pub fn write_sorted(
    text: &mut dyn BufRead,
    format: BookFormat,
    out: &mut dyn Write,
    memory: usize,
    dir: &Path,
) -> io::Result<Vec<String>> {
    match format {
        BookFormat::Db2016 => {
            io::copy(text, out)?;
            Ok(Vec::new())
        }
        BookFormat::Ybb => Ok(ybb::write_streamed(text, out, memory, dir)?.losses()),
        BookFormat::Apery => {
            let limit = Some((memory, dir.to_path_buf()));
            Ok(apery::write_text(text, out, limit)?.losses())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{check, Book, BookMove, Entry};
    use crate::test_util::games::random_line;
    use crate::test_util::rng::Rng;

    /// A folder of its own, removed when dropped.
    struct Folder(PathBuf);

    impl Folder {
        fn new(name: &str) -> Folder {
            let dir =
                std::env::temp_dir().join(format!("kifconv-convert-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A book of random games wide enough that one distance from the start
    /// holds more positions than a walk keeps in memory.
    fn wide_book() -> Book {
        let mut rng = Rng::new(39);
        let mut book = Book::default();
        for _ in 0..6_000 {
            let mut pos = Position::startpos();
            for mv in random_line(4, &mut rng) {
                let entry = book.entries.entry(super::super::key(&pos)).or_default();
                entry.ply = pos.move_number();
                let value = rng.below(2000) as i32 - 1000;
                let book_move = BookMove {
                    mv: mv.to_string(),
                    ponder: None,
                    value,
                    depth: 0,
                    count: 1,
                };
                check::add_move(entry, book_move);
                pos.play(mv).unwrap();
            }
        }
        for entry in book.entries.values_mut() {
            entry.sort();
        }
        book
    }

    /// A `.bin` walked on disk, its distances spilled to files, gives what
    /// the walk of the file held in memory gives; a `.ybb`'s text is its
    /// whole read.
    #[test]
    fn binary_books_read_on_disk_as_in_memory() {
        let folder = Folder::new("read");
        let book = wide_book();
        let mut bin = Vec::new();
        apery::write(&book, &mut bin).unwrap();
        let in_memory = apery::read(&bin, &[Position::startpos()]).unwrap();
        let path = folder.0.join("book.bin");
        std::fs::write(&path, &bin).unwrap();
        let file = io::BufReader::new(std::fs::File::open(&path).unwrap());
        let mut entries = apery::OnDisk::open(file, bin.len() as u64).unwrap();
        let mut on_disk = Book::default();
        let walked = apery::walk(
            &mut entries,
            &[Position::startpos()],
            Some(folder.0.clone()),
            |pos, entry| {
                on_disk.entries.insert(super::super::key(pos), entry);
                Ok(())
            },
        )
        .unwrap();
        assert!(walked.spilled > 0, "{walked:?}");
        assert_eq!(
            apery::Walked {
                spilled: 0,
                ..walked
            },
            in_memory.walked
        );
        assert!(on_disk == in_memory.book, "the books differ");
        assert_eq!(on_disk.entries.len(), book.entries.len());
        // The text of both binary formats reads back to their whole reads.
        let mut ybb_bytes = Vec::new();
        ybb::write(&book, &mut ybb_bytes).unwrap();
        let ybb_path = folder.0.join("book.ybb");
        std::fs::write(&ybb_path, &ybb_bytes).unwrap();
        for (path, format, whole) in [
            (&path, BookFormat::Apery, in_memory.book.clone()),
            (&ybb_path, BookFormat::Ybb, ybb::read(&ybb_bytes).unwrap()),
        ] {
            let text = text_of(path, format, &folder.0, 0).unwrap();
            let read = check::read(&std::fs::read_to_string(&text.path).unwrap()).unwrap();
            // The text's moves in the book's order; the whole read's in the
            // file's.
            let mut whole = whole;
            whole.entries.values_mut().for_each(Entry::sort);
            assert!(read.book == whole, "{format:?}: the books differ");
            let temporary = text.path.clone();
            drop(text);
            assert!(!temporary.exists(), "{format:?}");
        }
    }

    /// Sorted text written through runs gives the bytes of the whole-book
    /// writers.
    #[test]
    fn sorted_text_through_runs_gives_the_whole_books_bytes() {
        let folder = Folder::new("write");
        let book = wide_book();
        let text = db2016::write(&book);
        for format in [BookFormat::Apery, BookFormat::Ybb, BookFormat::Db2016] {
            let mut whole = Vec::new();
            super::super::file::write(&book, format, &mut whole).unwrap();
            let mut streamed = Vec::new();
            write_sorted(
                &mut text.as_bytes(),
                format,
                &mut streamed,
                10_000,
                &folder.0,
            )
            .unwrap();
            assert!(streamed == whole, "{format:?}: the bytes differ");
        }
        let left: Vec<_> = std::fs::read_dir(&folder.0).unwrap().collect();
        assert!(left.is_empty(), "runs left behind: {left:?}");
    }
}
