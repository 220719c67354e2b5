//! YaneuraOu's text book format, "DB2016": a first line
//! `#YANEURAOU-DB2016 1.00`; `#` and `//` lines are comments; a position is
//! `sfen <board> <turn> <hand> <ply>`, then its moves one a line,
//! `<move> <ponder> <value> <depth> <count>` (`none` for no ponder). The
//! writer sorts positions by their SFEN (without the ply) in byte order and
//! moves by count, then value, both descending; the reader takes any
//! order, CRLF, and moves with fields missing (value, depth and count 0,
//! no ponder).

use super::{Book, BookMove, Entry};
use std::fmt::Write as _;

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
    let _ = writeln!(out, "sfen {key} {}", entry.ply);
    for m in &entry.moves {
        let ponder = m.ponder.as_deref().unwrap_or("none");
        let _ = writeln!(out, "{} {ponder} {} {} {}", m.mv, m.value, m.depth, m.count);
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

/// The position line's key (SFEN without ply) and ply, if `line` is one.
pub fn position_line(line: &str) -> Option<(&str, u32)> {
    let rest = line.strip_prefix("sfen ")?.trim_end();
    match rest.rsplit_once(' ') {
        Some((key, ply)) if ply.bytes().all(|b| b.is_ascii_digit()) && key.contains(' ') => {
            Some((key, ply.parse().unwrap_or(0)))
        }
        // Three fields: no ply.
        _ => Some((rest, 0)),
    }
}

/// Reads a book's text.
pub fn read(text: &str) -> Result<Book, BookError> {
    let mut book = Book::default();
    let mut current: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let error = |message: &str| BookError {
            line: i + 1,
            text: raw.chars().take(120).collect(),
            message: message.to_string(),
        };
        if let Some((key, ply)) = position_line(line) {
            let fields = key.split(' ').count();
            if fields != 3 {
                return Err(error("a position needs its board, side to move and hands"));
            }
            let entry = book.entries.entry(key.to_string()).or_insert(Entry {
                ply,
                moves: Vec::new(),
            });
            entry.ply = entry.ply.min(ply);
            current = Some(key.to_string());
            continue;
        }
        let Some(key) = &current else {
            return Err(error("a move before any `sfen` position line"));
        };
        let mut fields = line.split_whitespace();
        let mv = fields.next().unwrap_or_default().to_string();
        if crate::Move::from_usi(&mv).is_err() {
            return Err(error("expected a USI move (`7g7f`, `P*5e`)"));
        }
        let ponder = fields.next().filter(|p| *p != "none").map(str::to_string);
        let number = |field: Option<&str>| -> Result<i64, BookError> {
            field.map_or(Ok(0), |f| {
                f.parse()
                    .map_err(|_| error("expected a whole number for value, depth or count"))
            })
        };
        let value = number(fields.next())?;
        let depth = number(fields.next())?;
        let count = number(fields.next())?;
        let entry = book
            .entries
            .get_mut(key)
            .expect("the current position was entered");
        entry.moves.push(BookMove {
            mv,
            ponder,
            value: value.clamp(i32::MIN.into(), i32::MAX.into()) as i32,
            depth: depth.clamp(0, u32::MAX.into()) as u32,
            count: count.max(0) as u64,
        });
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;

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
