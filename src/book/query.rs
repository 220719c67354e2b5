//! Finding a position's moves in a book, as YaneuraOu's FlippedBook does:
//! the position itself, else its rotation (180°, colours swapped), whose
//! moves are rotated back — so a book that stores black-to-move positions
//! only answers for white too. In a book in memory ([`lookup`]) or by
//! binary search in a sorted book file ([`lookup_file`]), which reads a
//! few lines per probe, never the whole file.

use super::db2016::BookError;
use super::{check, key, Book, BookMove};
use crate::format::japanese::write::marked_moves;
use crate::Position;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

/// A book's answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Whether the rotated position was the one found.
    pub flipped: bool,
    /// The ply stored with the position found.
    pub ply: u32,
    /// The moves, for the position asked about (rotated back when the
    /// rotation was found), most played first.
    pub moves: Vec<BookMove>,
}

/// A book's answer for `pos` (`None`: not in the book, nor its rotation)
/// as the JSON the command (`book query --json`), the server and Python
/// share: `{"sfen", "found": "exact"|"flipped"|"none", "ply", "moves":
/// [{"usi", "japanese", "ponder", "value", "depth", "count",
/// "sfen_after"}]}`, the moves for `pos` itself (rotated back when its
/// rotation was found). A move that is not legal in `pos` (a book is
/// checked as it is read, so never one kifconv answered with) has no
/// Japanese notation and no position after it: `null`.
pub fn to_json(pos: &Position, answer: Option<&Answer>) -> serde_json::Value {
    let found = match answer {
        None => "none",
        Some(a) if a.flipped => "flipped",
        Some(_) => "exact",
    };
    let moves: Vec<serde_json::Value> = answer
        .map_or(&[][..], |a| &a.moves[..])
        .iter()
        .map(|m| {
            let legal = crate::Move::from_usi(&m.mv).ok().and_then(|mv| {
                let mut after = pos.clone();
                after.play(mv).ok()?;
                Some((mv, after))
            });
            serde_json::json!({
                "usi": m.mv,
                "japanese": legal.as_ref().map(|(mv, _)| marked_moves(pos, &[*mv])),
                "ponder": m.ponder,
                "value": m.value,
                "depth": m.depth,
                "count": m.count,
                "sfen_after": legal.map(|(_, after)| after.sfen()),
            })
        })
        .collect();
    serde_json::json!({
        "sfen": pos.sfen(),
        "found": found,
        "ply": answer.map(|a| a.ply),
        "moves": moves,
    })
}

/// The moves rotated back to the position asked about.
pub(super) fn rotated(moves: Vec<BookMove>) -> Vec<BookMove> {
    moves.into_iter().map(BookMove::rotated).collect()
}

/// The book's moves for `pos` (see the module notes).
pub fn lookup(book: &Book, pos: &Position) -> Option<Answer> {
    if let Some(entry) = book.entries.get(&key(pos)) {
        return Some(Answer {
            flipped: false,
            ply: entry.ply,
            moves: entry.moves.clone(),
        });
    }
    let entry = book.entries.get(&key(&pos.flip()))?;
    Some(Answer {
        flipped: true,
        ply: entry.ply,
        moves: rotated(entry.moves.clone()),
    })
}

/// The book's moves for `pos` from a sorted book file of `len` bytes (as
/// kifconv writes them: positions in byte order of their SFEN), checked as
/// it is searched (see [`Search`]). A fault of the book is an error of kind
/// `InvalidData` holding a [`BookError`] with the line (0 when it lies too
/// far into the file to count, the byte offset being in the message).
pub fn lookup_file<R: Read + Seek>(
    file: R,
    len: u64,
    pos: &Position,
) -> std::io::Result<Option<Answer>> {
    let mut search = Search {
        reader: BufReader::new(file),
        len,
        seen: BTreeMap::new(),
    };
    search.header()?;
    if let Some((ply, moves)) = search.find(&key(pos))? {
        return Ok(Some(Answer {
            flipped: false,
            ply,
            moves,
        }));
    }
    Ok(search.find(&key(&pos.flip()))?.map(|(ply, moves)| Answer {
        flipped: true,
        ply,
        moves: rotated(moves),
    }))
}

/// The longest line a book may have.
pub const MAX_LINE: usize = 64 << 10;
/// How far the search reads for the next position line.
pub const MAX_GAP: u64 = 1 << 20;
/// How far into the file a fault's line number is counted.
const MAX_COUNTED: u64 = 16 << 20;

/// A binary search in a book file that checks what it reads, so that a
/// book it cannot search rightly is an error rather than a wrong "not in
/// the book":
///
/// * the first non-empty line must be the header or a position line, and a
///   position line must come within [`MAX_GAP`] bytes (else the file is
///   "not a YaneuraOu book"); the first two position lines are read;
/// * no line may be longer than [`MAX_LINE`] bytes, and a position line
///   must follow within [`MAX_GAP`] bytes of wherever the search looks, so
///   that a search reads a bounded number of bytes whatever the file holds;
/// * every probe reads two neighbouring position lines, and every position
///   line read must be possible, in kifconv's form, and in order (strictly:
///   a position twice is a fault) with the nearest lines read before and
///   after it in the file;
/// * the block found (or the place a missing position would be) is read
///   with the position line after it, and its moves must be legal.
///
/// What it cannot see: a fault in a part of the file no probe touches (a
/// book reversed or shuffled is caught by the first probes, but a single
/// pair of blocks swapped, or a position written twice far apart, is caught
/// only when a search lands on it), and illegal moves of positions not
/// asked about. `kifconv book merge` reads a book whole and reports every
/// fault.
struct Search<R> {
    reader: BufReader<R>,
    len: u64,
    /// The position lines read: their start and key.
    seen: BTreeMap<u64, String>,
}

impl<R: Read + Seek> Search<R> {
    /// A fault at byte `at`: with its line number, counted when it is near
    /// enough to the start.
    fn fault(&mut self, at: u64, text: &[u8], message: String) -> std::io::Error {
        let line = self.line_of(at).unwrap_or(0);
        let message = if line == 0 {
            format!("at byte {at}: {message}")
        } else {
            message
        };
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            BookError {
                line,
                text: String::from_utf8_lossy(&text[..text.len().min(120)])
                    .trim_end()
                    .to_string(),
                message,
            },
        )
    }

    /// The line (from 1) that byte `at` is on, if it is near the start.
    fn line_of(&mut self, at: u64) -> Option<usize> {
        if at > MAX_COUNTED {
            return None;
        }
        self.reader.seek(SeekFrom::Start(0)).ok()?;
        let mut bytes = vec![0; at as usize];
        self.reader.read_exact(&mut bytes).ok()?;
        Some(bytes.iter().filter(|&&b| b == b'\n').count() + 1)
    }

    /// The line starting at `at` (the reader is there), at most
    /// [`MAX_LINE`] bytes; its length in bytes (0 at the end).
    fn line(&mut self, at: u64, line: &mut Vec<u8>) -> std::io::Result<usize> {
        line.clear();
        let n = (&mut self.reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', line)?;
        if n > MAX_LINE {
            let head = line.clone();
            return Err(self.fault(at, &head, format!("longer than {MAX_LINE} bytes")));
        }
        Ok(n)
    }

    /// The line starting at `offset` (see [`Self::line`]), searched for
    /// from `from`: a fault at `from` when it starts more than [`MAX_GAP`]
    /// bytes past it.
    fn line_near(&mut self, from: u64, offset: u64, line: &mut Vec<u8>) -> std::io::Result<usize> {
        if offset - from > MAX_GAP {
            return Err(self.fault(
                from,
                b"",
                format!("no position line in the {MAX_GAP} bytes from here"),
            ));
        }
        self.line(offset, line)
    }

    /// The first non-empty line is the header or a position line, and a
    /// position line comes within [`MAX_GAP`] bytes (or the file ends: an
    /// empty book).
    fn header(&mut self) -> std::io::Result<()> {
        self.reader.seek(SeekFrom::Start(0))?;
        let (mut at, mut line, mut number) = (0u64, Vec::new(), 0);
        let mut started = false;
        while at <= MAX_GAP {
            let n = self.line(at, &mut line)?;
            number += 1;
            if n == 0 {
                return Ok(());
            }
            if line.starts_with(b"sfen ") {
                // The first two positions are checked too: a search for a
                // position past every one it probes never looks there.
                return self.probe(at).map(|_| ());
            }
            let text = String::from_utf8_lossy(&line);
            if !started && !text.trim().is_empty() {
                check::first_line(number, &text)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
                started = true;
            }
            at += n as u64;
        }
        Err(self.fault(
            0,
            b"",
            format!("not a YaneuraOu book: no `sfen` line in its first {MAX_GAP} bytes"),
        ))
    }

    /// The first position line starting at or after byte `at`: its start,
    /// its length and its key, checked; `None` at the end of the file.
    fn next_position(&mut self, at: u64) -> std::io::Result<Option<(u64, usize, String)>> {
        let mut offset = at;
        let mut line = Vec::new();
        if at > 0 {
            // Unless `at` starts a line, go to the start of the next one.
            self.reader.seek(SeekFrom::Start(at - 1))?;
            let mut before = [0u8; 1];
            self.reader.read_exact(&mut before)?;
            if before[0] != b'\n' {
                offset += self.line(at, &mut line)? as u64;
            }
        } else {
            self.reader.seek(SeekFrom::Start(0))?;
        }
        loop {
            let n = self.line_near(at, offset, &mut line)?;
            if n == 0 {
                return Ok(None);
            }
            if line.starts_with(b"sfen ") {
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                let p = match check::position_line(&text) {
                    Ok(p) => p,
                    Err(e) => {
                        let head = line.clone();
                        return Err(self.fault(offset, &head, e));
                    }
                };
                if p.written != p.canonical {
                    let head = line.clone();
                    return Err(self.fault(
                        offset,
                        &head,
                        format!(
                            "not in kifconv's form (it writes `sfen {} {}`), so the book cannot be searched; {}",
                            p.canonical,
                            p.ply,
                            check::MEND
                        ),
                    ));
                }
                self.record(offset, &p.written, &line.clone())?;
                return Ok(Some((offset, n, p.written)));
            }
            offset += n as u64;
        }
    }

    /// Notes a position line read, checking it against the nearest ones
    /// read before and after it in the file.
    fn record(&mut self, start: u64, key: &str, text: &[u8]) -> std::io::Result<()> {
        if self.seen.contains_key(&start) {
            return Ok(());
        }
        let before = self
            .seen
            .range(..start)
            .next_back()
            .map(|(&o, k)| (o, k.clone()));
        let after = self
            .seen
            .range(start + 1..)
            .next()
            .map(|(&o, k)| (o, k.clone()));
        if let Some((o, k)) = before {
            if k.as_str() >= key {
                return Err(self.order_fault(o, &k, start, key, text));
            }
        }
        if let Some((o, k)) = after {
            if key >= k.as_str() {
                let text = format!("sfen {k}");
                return Err(self.order_fault(start, key, o, &k, text.as_bytes()));
            }
        }
        self.seen.insert(start, key.to_string());
        Ok(())
    }

    /// The fault of the position line at `later` (key `k2`) coming after
    /// the one at `earlier` (key `k1`), which is not smaller.
    fn order_fault(
        &mut self,
        earlier: u64,
        k1: &str,
        later: u64,
        k2: &str,
        text: &[u8],
    ) -> std::io::Error {
        let first = self
            .line_of(earlier)
            .map_or(format!("byte {earlier}"), |l| format!("line {l}"));
        let message = if k1 == k2 {
            format!(
                "the position of {first} again, so the book cannot be searched; {}",
                check::MEND
            )
        } else {
            format!(
                "not sorted: this position comes after a greater one ({first}), so the book cannot be searched; {}",
                check::MEND
            )
        };
        self.fault(later, text, message)
    }

    /// Reads the position line at or after `at` and the one after it,
    /// checking both; the first.
    fn probe(&mut self, at: u64) -> std::io::Result<Option<(u64, String)>> {
        let Some((start, n, key)) = self.next_position(at)? else {
            return Ok(None);
        };
        self.next_position(start + n as u64)?;
        Ok(Some((start, key)))
    }

    /// Binary search for the entry of `target`: its ply and moves.
    fn find(&mut self, target: &str) -> std::io::Result<Option<(u32, Vec<BookMove>)>> {
        // Every position line starting before `lo` has a smaller key; every
        // one starting at or after `hi` has a key at least the target's.
        let (mut lo, mut hi) = (0u64, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.probe(mid)? {
                Some((start, key)) if key.as_str() < target => lo = start + 1,
                _ => hi = mid,
            }
        }
        let Some((start, key)) = self.probe(lo)? else {
            return Ok(None);
        };
        if key != target {
            return Ok(None);
        }
        // The moves: the lines after the position line, up to the next one,
        // each legal.
        let pos = Position::from_sfen(&format!("{key} 1"))
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()))?;
        self.reader.seek(SeekFrom::Start(start))?;
        let mut line = Vec::new();
        let mut offset = start + self.line(start, &mut line)? as u64;
        let ply = check::position_line(String::from_utf8_lossy(&line).trim_end())
            .map(|p| p.ply)
            .unwrap_or(0);
        let mut moves = Vec::new();
        loop {
            let n = self.line_near(start, offset, &mut line)?;
            if n == 0 || line.starts_with(b"sfen ") {
                break;
            }
            let text = String::from_utf8_lossy(&line).trim().to_string();
            offset += n as u64;
            if text.is_empty() || text.starts_with('#') || text.starts_with("//") {
                continue;
            }
            let checked =
                check::move_fields(&text).and_then(|mv| match check::illegal(&pos, &mv.mv) {
                    Some(why) => Err(why),
                    None => Ok(mv),
                });
            match checked {
                Ok(mv) => moves.push(mv),
                Err(why) => {
                    let head = line.clone();
                    return Err(self.fault(offset - n as u64, &head, why));
                }
            }
        }
        Ok(Some((ply, moves)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::build::{Builder, Options};
    use super::super::db2016;
    use super::*;
    use crate::read::{read_text, Format};
    use std::io::Cursor;

    /// The position after 7g7f (white to move) is found through its
    /// rotation in a flip-folded book, with white's moves rotated back; the
    /// file search agrees with the search in memory for every position of
    /// the book and for positions not in it.
    #[test]
    fn flipped_lookups_in_memory_and_in_a_file() {
        let games = read_text(
            "position startpos moves 7g7f 3c3d 2g2f 8c8d\nposition startpos moves 7g7f 8c8d 2g2f\nposition startpos moves 2g2f 3c3d\n",
            Format::Usi,
        )
        .unwrap();
        let mut builder = Builder::new(Options {
            flip_fold: true,
            ..Options::default()
        });
        for g in &games {
            builder.add(g).unwrap();
        }
        let book = builder.finish(1).unwrap();
        let text = db2016::write(&book);
        let file = |pos: &Position| {
            lookup_file(Cursor::new(text.as_bytes()), text.len() as u64, pos).unwrap()
        };
        let mut after = Position::startpos();
        after.play_usi_line("7g7f").unwrap();
        let answer = lookup(&book, &after).unwrap();
        assert!(answer.flipped);
        let moves: Vec<(&str, u64)> = answer
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), m.count))
            .collect();
        // Stored as 2g2f and 7g7f (a tie, in text order), rotated back.
        assert_eq!(moves, [("8c8d", 1), ("3c3d", 1)]);
        assert_eq!(file(&after), Some(answer));
        for key in book.entries.keys() {
            let pos = Position::from_sfen(&format!("{key} 1")).unwrap();
            assert_eq!(file(&pos), lookup(&book, &pos), "{key}");
            assert_eq!(file(&pos.flip()), lookup(&book, &pos.flip()), "{key}");
        }
        let mut absent = Position::startpos();
        absent.play_usi_line("5g5f").unwrap();
        assert_eq!(lookup(&book, &absent), None);
        assert_eq!(file(&absent), None);
    }

    /// The fault a search of `text` for the start position finds.
    fn fault(text: &str) -> BookError {
        let e = lookup_file(
            Cursor::new(text.as_bytes()),
            text.len() as u64,
            &Position::startpos(),
        )
        .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        e.into_inner()
            .and_then(|e| e.downcast::<BookError>().ok())
            .map(|e| *e)
            .expect("a book fault")
    }

    /// Faults the search sees, each at its line.
    #[test]
    fn a_search_checks_what_it_reads() {
        let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 0 0 1\n";
        let other = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n3c3d none 0 0 1\n";
        let header = "#YANEURAOU-DB2016 1.00\n";
        let e = fault(&format!("{header}{start}{other}"));
        assert_eq!(e.line, 4);
        assert!(e.message.starts_with("not sorted"), "{e}");
        let e = fault(&format!("{header}{other}{start}{start}"));
        assert_eq!(e.line, 6);
        assert!(e.message.starts_with("the position of line 4 again"), "{e}");
        let e = fault("# A title\n\nSome words.\n");
        assert_eq!(e.line, 1);
        assert!(e.message.starts_with("not a YaneuraOu book"), "{e}");
        let e = fault(&format!("{header}{}", "\n".repeat(MAX_GAP as usize + 10)));
        assert!(e.message.contains("no `sfen` line"), "{e}");
        let e = fault(&format!("{header}sfen {}", "x".repeat(MAX_LINE * 2)));
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("longer than"), "{e}");
        // A header alone is an empty book: not found, no fault.
        let empty = header.as_bytes();
        let found = lookup_file(
            Cursor::new(empty),
            empty.len() as u64,
            &Position::startpos(),
        );
        assert_eq!(found.unwrap(), None);
    }
}
