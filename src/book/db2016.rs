//! YaneuraOu's text book format, "DB2016": a first line
//! `#YANEURAOU-DB2016 1.00`; `#` and `//` lines are comments; a position is
//! `sfen <board> <turn> <hand> <ply>`, then its moves one a line,
//! `<move> <ponder> <value> <depth> <count>` (`none` for no ponder). The
//! writer sorts positions by their SFEN (without the ply) in byte order and
//! moves by count, then value, both descending. The reader
//! ([`super::check::read`]) takes any order, CRLF, and moves with fields
//! missing (value, depth and count 0, no ponder), and checks the rest.

use super::{Book, Entry};

/// The first line.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// The book's text.
pub fn write(book: &Book) -> String {
    let mut out = String::with_capacity(book.entries.len() * 64);
    out.push_str(HEADER);
    out.push('\n');
    for (key, entry) in &book.entries {
        write_entry(&mut out, key, entry);
    }
    out
}

/// One position's lines: `sfen <key> <ply>`, then its moves.
pub fn write_entry(out: &mut String, key: &str, entry: &Entry) {
    out.push_str("sfen ");
    out.push_str(key);
    out.push(' ');
    push_decimal(out, u64::from(entry.ply));
    out.push('\n');
    for m in &entry.moves {
        out.push_str(&m.mv);
        out.push(' ');
        out.push_str(m.ponder.as_deref().unwrap_or("none"));
        out.push(' ');
        if m.value < 0 {
            out.push('-');
        }
        push_decimal(out, u64::from(m.value.unsigned_abs()));
        out.push(' ');
        push_decimal(out, u64::from(m.depth));
        out.push(' ');
        push_decimal(out, m.count);
        out.push('\n');
    }
}

/// A number in decimal, a digit at a time (a book writes five a move).
fn push_decimal(out: &mut String, n: u64) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Why a text book could not be turned into another: a line of it is
/// not DB2016, or reading it or writing the other failed.
#[derive(Debug)]
pub enum Failure {
    /// A line of the input is not DB2016 (the error names it).
    Book(BookError),
    /// Reading the input, or writing the output or a run, failed.
    Io(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Io(e)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Book(e) => e.fmt(f),
            Failure::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Failure {}

/// Writes text with each line ending `\r\n`, as YaneuraOu writes its
/// books.
pub struct Crlf<W>(pub W);

impl<W: std::io::Write> std::io::Write for Crlf<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for (i, part) in buf.split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                self.0.write_all(b"\r\n")?;
            }
            self.0.write_all(part)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Why a book's text cannot be read: the line (1-based; 0 when it was not
/// counted), the text and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line, counted from 1.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        if self.text.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{} (`{}`)", self.message, self.text)
        }
    }
}

impl std::error::Error for BookError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Book, BookError> {
        super::super::check::read(text).map(|r| r.book)
    }

    #[test]
    fn reads_what_it_writes_and_lenient_books() {
        let text = "#YANEURAOU-DB2016 1.00\r\n// a comment\r\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\r\n7g7f 3c3d 30 12 5\r\n2g2f\r\n";
        let book = read(text).unwrap();
        let entry = &book.entries["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"];
        assert_eq!(entry.ply, 1);
        assert_eq!(entry.moves[0].ponder.as_deref(), Some("3c3d"));
        assert_eq!(
            (
                entry.moves[0].value,
                entry.moves[0].depth,
                entry.moves[0].count
            ),
            (30, 12, 5)
        );
        assert_eq!(
            (entry.moves[1].ponder.as_deref(), entry.moves[1].count),
            (None, 0)
        );
        let again = read(&write(&book)).unwrap();
        assert_eq!(again, book);
        assert!(write(&book).contains("\n2g2f none 0 0 0\n"));
    }

    #[test]
    fn crlf_ends_every_line() {
        use std::io::Write as _;
        let mut out = Crlf(Vec::new());
        out.write_all(b"#YANEURAOU-DB2016 1.00\nsfen 9/9 b - 1\n")
            .unwrap();
        out.write_all(b"7g7f none 0 0 1\n").unwrap();
        assert_eq!(
            out.0,
            b"#YANEURAOU-DB2016 1.00\r\nsfen 9/9 b - 1\r\n7g7f none 0 0 1\r\n"
        );
    }

    #[test]
    fn errors_say_the_line() {
        let e = read("#YANEURAOU-DB2016 1.00\n7g7f none 0 0 1\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = read("sfen 9/9/9/9/9/9/9/9/9 b - 1\n7g7x\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "expected a USI move (`7g7f`, `P*5e`)")
        );
        let e = read("sfen 9/9/9/9/9/9/9/9/9 b - 1\n7g7f none ten\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
