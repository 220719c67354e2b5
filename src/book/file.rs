//! A book file in any of the formats engines read: YaneuraOu's text
//! (DB2016, `.db`), YaneuraOu's binary book (`.ybb`) and Apery's binary
//! book (`.bin`), told by the file's extension unless named. Each format's
//! own module reads and writes it; here a whole book is read or written in
//! the format asked for, and what the format could not hold is said.

use super::query::Answer;
use super::{apery, check, db2016, query, ybb, Book};
use crate::Position;
use std::io::{Read, Seek, Write};
use std::path::Path;

/// A book file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// YaneuraOu's text book, "DB2016".
    Db2016,
    /// YaneuraOu's binary book, "YANE-BINBOOK-V1".
    Ybb,
    /// Apery's binary book.
    Apery,
}

/// The names of the formats, as `--book-format` takes them, with a line
/// of help.
pub const NAMES: [(&str, BookFormat, &str); 3] = [
    ("db", BookFormat::Db2016, "YaneuraOu's text book (DB2016)"),
    (
        "ybb",
        BookFormat::Ybb,
        "YaneuraOu's binary book (YANE-BINBOOK-V1): no ponder, no count",
    ),
    (
        "bin",
        BookFormat::Apery,
        "Apery's binary book: no ply, ponder or depth; counts up to 65535",
    ),
];

impl BookFormat {
    /// The format a file's name says: `.ybb` and `.bin` (any case), and
    /// DB2016 for any other name.
    pub fn of_path(path: &Path) -> BookFormat {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        NAMES
            .iter()
            .find(|(name, _, _)| ext.eq_ignore_ascii_case(name))
            .map_or(BookFormat::Db2016, |&(_, format, _)| format)
    }

    /// The format of a name in [`NAMES`].
    pub fn of_name(name: &str) -> Option<BookFormat> {
        NAMES
            .iter()
            .find(|(n, _, _)| name.eq_ignore_ascii_case(n))
            .map(|&(_, format, _)| format)
    }

    /// The format's name in [`NAMES`].
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|&&(_, format, _)| format == self)
            .map_or("db", |(name, _, _)| name)
    }
}

/// A whole book read, with what reading it mended or could not keep.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The book.
    pub book: Book,
    /// What was mended or lost, a line each.
    pub warnings: Vec<String>,
}

/// Reads a whole book of `format` from `bytes`. An Apery book is walked
/// from the start position: entries it never reaches are counted in a
/// warning. An error says what is wrong and where.
pub fn read(bytes: &[u8], format: BookFormat) -> Result<Loaded, String> {
    match format {
        BookFormat::Db2016 => {
            let text = String::from_utf8_lossy(bytes);
            let read = check::read(&text).map_err(|e| e.to_string())?;
            Ok(Loaded {
                book: read.book,
                warnings: read.warnings.iter().map(ToString::to_string).collect(),
            })
        }
        BookFormat::Ybb => Ok(Loaded {
            book: ybb::read(bytes).map_err(|e| e.to_string())?,
            warnings: Vec::new(),
        }),
        BookFormat::Apery => {
            let read = apery::read(bytes, &[Position::startpos()]).map_err(|e| e.to_string())?;
            Ok(Loaded {
                book: read.book,
                warnings: read.walked.warnings(),
            })
        }
    }
}

/// Writes `book` in `format` to `out`; says what the format could not hold
/// (a warning a line). A position with ply 0 must have been given one.
pub fn write(book: &Book, format: BookFormat, out: &mut dyn Write) -> std::io::Result<Vec<String>> {
    let mut out = out;
    let mut warnings = Vec::new();
    match format {
        BookFormat::Db2016 => out.write_all(db2016::write(book).as_bytes())?,
        BookFormat::Ybb => warnings.extend(ybb::write(book, &mut out)?.losses()),
        BookFormat::Apery => warnings.extend(apery::write(book, &mut out)?.losses()),
    }
    Ok(warnings)
}

/// A binary book checked: its positions and moves (none when it could
/// not be read), and each fault found, a line each.
#[derive(Debug, Default)]
pub struct BinaryChecked {
    /// The positions read.
    pub positions: usize,
    /// The moves read.
    pub moves: usize,
    /// The faults: the one that stops reading (with its entry and byte),
    /// what an Apery walk could not use, and with a flip-folded book each
    /// white-to-move position beside its rotation.
    pub faults: Vec<String>,
}

/// Checks a `.ybb` or `.bin` book: it is read whole (see [`read`]), and
/// whatever reading refuses or leaves out is a fault.
pub fn check_binary(bytes: &[u8], format: BookFormat, flip_folded: bool) -> BinaryChecked {
    let loaded = match read(bytes, format) {
        Ok(loaded) => loaded,
        Err(e) => {
            return BinaryChecked {
                faults: vec![e],
                ..BinaryChecked::default()
            }
        }
    };
    let mut faults = loaded.warnings;
    if flip_folded {
        for key in loaded.book.entries.keys().filter(|k| k.contains(" w ")) {
            let Ok(pos) = Position::from_sfen(&format!("{key} 1")) else {
                continue;
            };
            if loaded.book.entries.contains_key(&super::key(&pos.flip())) {
                faults.push(format!(
                    "a white-to-move position in a flip-folded book, beside its rotation: `sfen {key}`"
                ));
            }
        }
    }
    BinaryChecked {
        positions: loaded.book.entries.len(),
        moves: loaded.book.entries.values().map(|e| e.moves.len()).sum(),
        faults,
    }
}

/// A position's moves in a book file of `format`, found by binary search
/// (the position, else its rotation with the moves rotated back), without
/// reading the file whole.
pub fn lookup<R: Read + Seek>(
    file: R,
    len: u64,
    pos: &Position,
    format: BookFormat,
) -> std::io::Result<Option<Answer>> {
    match format {
        BookFormat::Db2016 => query::lookup_file(file, len, pos),
        BookFormat::Ybb => ybb::lookup(file, len, pos),
        BookFormat::Apery => apery::lookup_flipped(file, len, pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_book_is_checked_by_reading_it() {
        let mut book = Book::default();
        let start = super::super::key(&Position::startpos());
        let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
        let rotated = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        for (key, mv) in [(start.as_str(), "7g7f"), (after, "3c3d"), (rotated, "7g7f")] {
            book.entries.insert(
                key.to_string(),
                super::super::Entry {
                    ply: 1,
                    moves: vec![super::super::BookMove {
                        mv: mv.to_string(),
                        ponder: None,
                        value: 0,
                        depth: 0,
                        count: 1,
                    }],
                },
            );
        }
        let mut bytes = Vec::new();
        write(&book, BookFormat::Ybb, &mut bytes).unwrap();
        let checked = check_binary(&bytes, BookFormat::Ybb, false);
        assert_eq!((checked.positions, checked.faults.len()), (3, 0));
        let checked = check_binary(&bytes, BookFormat::Ybb, true);
        assert_eq!(checked.faults.len(), 1, "{:?}", checked.faults);
        assert!(checked.faults[0].contains(after), "{:?}", checked.faults);
        // A damaged file: the fault that stops reading, with its byte.
        let checked = check_binary(&bytes[..bytes.len() - 3], BookFormat::Ybb, false);
        assert_eq!(checked.positions, 0);
        assert!(
            checked.faults[0].starts_with("byte "),
            "{:?}",
            checked.faults
        );
        let checked = check_binary(&bytes[..20], BookFormat::Apery, false);
        assert!(checked.faults[0].contains("entry"), "{:?}", checked.faults);
    }

    #[test]
    fn formats_are_told_by_extension_or_name() {
        let of = |p: &str| BookFormat::of_path(Path::new(p));
        assert_eq!(of("a.ybb"), BookFormat::Ybb);
        assert_eq!(of("a.BIN"), BookFormat::Apery);
        assert_eq!(of("a.db"), BookFormat::Db2016);
        assert_eq!(of("book"), BookFormat::Db2016);
        for (name, format, _) in NAMES {
            assert_eq!(BookFormat::of_name(name), Some(format));
            assert_eq!(format.name(), name);
        }
        assert_eq!(BookFormat::of_name("txt"), None);
    }

    /// A book of a few games, in each format and back: what each format
    /// holds comes back.
    #[test]
    fn every_format_reads_back_what_it_holds() {
        let mut builder = super::super::build::Builder::new(Default::default());
        let text = "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\nposition startpos moves 2g2f 8c8d 7g7f 3c3d\n";
        for record in crate::read::read_text(text, crate::read::Format::Usi).unwrap() {
            builder.add(&record).unwrap();
        }
        let mut book = builder.finish(1).unwrap();
        for (i, entry) in book.entries.values_mut().enumerate() {
            for m in &mut entry.moves {
                m.value = i as i32 * 7 - 20;
            }
        }
        for (_, format, _) in NAMES {
            let mut bytes = Vec::new();
            let warnings = write(&book, format, &mut bytes).unwrap();
            // A .ybb holds no count: the only loss, and said.
            if format == BookFormat::Ybb {
                assert_eq!(warnings.len(), 1, "{warnings:?}");
                assert!(warnings[0].contains("counts left out"), "{warnings:?}");
            } else {
                assert_eq!(warnings, Vec::<String>::new(), "{format:?}");
            }
            let back = read(&bytes, format).unwrap();
            assert_eq!(back.warnings, Vec::<String>::new(), "{format:?}");
            assert_eq!(back.book.entries.len(), book.entries.len(), "{format:?}");
            for (key, entry) in &book.entries {
                let got = &back.book.entries[key];
                let moves = |e: &super::super::Entry| {
                    let mut m: Vec<(String, i32)> =
                        e.moves.iter().map(|m| (m.mv.clone(), m.value)).collect();
                    m.sort();
                    m
                };
                assert_eq!(moves(got), moves(entry), "{format:?} {key}");
                if format != BookFormat::Ybb {
                    let counts: u64 = got.moves.iter().map(|m| m.count).sum();
                    let want: u64 = entry.moves.iter().map(|m| m.count).sum();
                    assert_eq!(counts, want, "{format:?} {key}");
                }
                if format != BookFormat::Apery {
                    assert_eq!(got.ply, entry.ply, "{format:?} {key}");
                }
                // The file's search finds it too.
                let pos = Position::from_sfen(&format!("{key} 1")).unwrap();
                let found = lookup(
                    std::io::Cursor::new(&bytes),
                    bytes.len() as u64,
                    &pos,
                    format,
                )
                .unwrap()
                .unwrap();
                assert!(!found.flipped, "{format:?} {key}");
                assert_eq!(found.moves.len(), entry.moves.len(), "{format:?} {key}");
            }
        }
    }
}
