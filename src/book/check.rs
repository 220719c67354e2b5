//! Checking a book as it is read: the rules a line of a DB2016 book must
//! keep, one function each, used by the whole-book reader ([`read`], for
//! `book merge`) and by the binary search ([`super::query`]).
//!
//! * A position line is `sfen <board> <turn> <hands> <ply>`, single
//!   spaces, the position possible (two kings, no pawn on its last rank…)
//!   and written as kifconv writes it (hands in the SFEN order, counts
//!   before pieces): a book is sorted by that text, so a position written
//!   otherwise sorts in the wrong place and a search can miss it.
//! * A move line's move is legal in its position (the ponder is not
//!   checked).
//! * The positions are in byte order of their text, each once.
//!
//! [`read`] reads a whole book and repairs what it can, saying so: an
//! unsorted book is read (and written sorted), a repeated position has its
//! moves merged, a position not in kifconv's form is rewritten, an
//! impossible position or an illegal move is dropped. What it cannot read
//! (a move line that is no move, a file that is not a book) is an error.

use super::db2016::BookError;
use super::{key, Book, BookMove, Entry};
use crate::{Move, Position};
use std::borrow::Cow;
use std::collections::HashMap;

/// What books begin with; the version after it may vary.
pub const MAGIC: &str = "#YANEURAOU-DB2016";

/// The hint given with every fault that a sorted, canonical copy mends.
pub const MEND: &str = "`kifconv book merge BOOK -o sorted.db` writes a sorted, canonical copy";

/// A position line read: its key as written, the key as kifconv writes
/// it, the ply (0 when none is written) and the position.
#[derive(Clone, Debug)]
pub struct PositionLine {
    /// The key as written (board, turn, hands).
    pub written: String,
    /// The key as kifconv writes it.
    pub canonical: String,
    /// The ply; 0 when none is written.
    pub ply: u32,
    /// The position.
    pub position: Position,
}

/// Why a position line is refused, or `Ok` with what it holds (a key not
/// in kifconv's form is not refused here: compare `written` and
/// `canonical`).
pub fn position_line(line: &str) -> Result<PositionLine, String> {
    let rest = line
        .strip_prefix("sfen ")
        .ok_or_else(|| "expected a position line `sfen <board> <turn> <hands> <ply>`".to_string())?
        .trim_end();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let (written, ply) = match fields[..] {
        [b, t, h] => (format!("{b} {t} {h}"), 0),
        [b, t, h, ply] => {
            let ply: u32 = ply
                .parse()
                .map_err(|_| format!("the ply `{ply}` is not a whole number"))?;
            (format!("{b} {t} {h}"), ply)
        }
        _ => return Err("a position needs its board, side to move, hands and ply".to_string()),
    };
    let position = Position::from_sfen(&format!("{written} 1"))
        .map_err(|e| format!("an impossible position: {e}"))?;
    let canonical = key(&position);
    // Spacing counts too: the text is what the book is sorted by.
    let written = if rest.split(' ').count() == fields.len() {
        written
    } else {
        rest.to_string()
    };
    Ok(PositionLine {
        written,
        canonical,
        ply,
        position,
    })
}

/// A move line's fields: `<move> [<ponder> [<value> [<depth> [<count>]]]]`
/// (`none` for no ponder; a missing number is 0).
pub fn move_fields(line: &str) -> Result<BookMove, String> {
    let mut fields = line.split_whitespace();
    let mv = fields.next().unwrap_or_default().to_string();
    if Move::from_usi(&mv).is_err() {
        return Err("expected a USI move (`7g7f`, `P*5e`)".to_string());
    }
    let ponder = fields.next().filter(|p| *p != "none").map(str::to_string);
    let mut number = || -> Result<i64, String> {
        fields.next().map_or(Ok(0), |f| {
            f.parse()
                .map_err(|_| "expected a whole number for value, depth or count".to_string())
        })
    };
    let value = number()?;
    let depth = number()?;
    // A count may be past the largest signed number.
    let count = match fields.next() {
        Some(f) => match f.parse::<u64>() {
            Ok(n) => n,
            Err(_) => f
                .parse::<i64>()
                .map_err(|_| "expected a whole number for value, depth or count".to_string())?
                .max(0) as u64,
        },
        None => 0,
    };
    Ok(BookMove {
        mv,
        ponder,
        value: value.clamp(i32::MIN.into(), i32::MAX.into()) as i32,
        depth: depth.clamp(0, u32::MAX.into()) as u32,
        count,
    })
}

/// Why `mv` cannot be played in `pos`, if it cannot.
pub fn illegal(pos: &Position, mv: &str) -> Option<String> {
    let m = Move::from_usi(mv).ok()?;
    pos.check_legal(m)
        .err()
        .map(|reason| format!("the move {mv} is illegal here: {reason}"))
}

/// Whether the first non-empty line says the text is a book: the header,
/// a comment or a position line. The error says what the line is.
pub fn first_line(line_number: usize, line: &str) -> Result<(), BookError> {
    let line = line.trim();
    if line.starts_with(MAGIC) || line.starts_with("sfen ") {
        return Ok(());
    }
    Err(BookError {
        line: line_number,
        text: line.chars().take(120).collect(),
        message: format!(
            "not a YaneuraOu book: it starts neither with `{MAGIC}` nor with a `sfen` line"
        ),
    })
}

/// The largest value a book move may carry: YaneuraOu's mate value.
pub const VALUE_MAX: i32 = 32000;

/// The value YaneuraOu's book tools write for a move whose value is not
/// known (peta-shock leaves it out of its min-max).
pub const VALUE_NONE: i32 = -32768;

/// A kind of fault a book may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// A position line that sorts before the one above it.
    NotSorted,
    /// A position given a second time.
    Repeated,
    /// A white-to-move position whose rotation is in the book too: with
    /// FlippedBook, the engine reads one of them only.
    FlipPresent,
    /// A position that cannot be: its moves are dropped with it.
    Impossible,
    /// A position line not written as kifconv and YaneuraOu write it.
    NotCanonical,
    /// A position line with no ply.
    NoPly,
    /// A move line whose move is `none`.
    NoneMove,
    /// A move line whose first field is no move.
    NotAMove,
    /// A move that cannot be played in its position.
    Illegal,
    /// A move line without its five fields.
    MissingColumns,
    /// A value beyond the mate value.
    ValueOutOfRange,
    /// A move line before any position line.
    NoPosition,
}

impl Fault {
    /// Every kind, in the order `book check` counts them.
    pub const ALL: [Fault; 12] = [
        Fault::NotSorted,
        Fault::Repeated,
        Fault::FlipPresent,
        Fault::Impossible,
        Fault::NotCanonical,
        Fault::NoPly,
        Fault::NoneMove,
        Fault::NotAMove,
        Fault::Illegal,
        Fault::MissingColumns,
        Fault::ValueOutOfRange,
        Fault::NoPosition,
    ];

    /// Its name in a count.
    pub fn name(self) -> &'static str {
        match self {
            Fault::NotSorted => "not sorted",
            Fault::Repeated => "position twice",
            Fault::FlipPresent => "position and its rotation",
            Fault::Impossible => "bad position",
            Fault::NotCanonical => "not canonical",
            Fault::NoPly => "no ply",
            Fault::NoneMove => "`none` move",
            Fault::NotAMove => "not a move",
            Fault::Illegal => "illegal move",
            Fault::MissingColumns => "missing columns",
            Fault::ValueOutOfRange => "value out of range",
            Fault::NoPosition => "move before any position",
        }
    }
}

/// A fault found, where it is and what reading does about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Its kind.
    pub fault: Fault,
    /// Its line, text and what is wrong.
    pub at: BookError,
    /// What reading does about it (`dropped`, `read as …`).
    pub done: String,
}

impl Finding {
    /// The fault, its kind first, with what reading did about it, as a
    /// warning.
    pub fn warning(&self) -> BookError {
        let done = if self.done.is_empty() {
            String::new()
        } else {
            format!("; {}", self.done)
        };
        BookError {
            message: format!("{}: {}{done}", self.fault.name(), self.at.message),
            ..self.at.clone()
        }
    }
}

/// What a line of a book holds, once checked.
#[derive(Debug)]
pub enum Scanned {
    /// Nothing to keep: a comment, a blank line, or a line dropped.
    Nothing,
    /// A position line (its key in kifconv's form).
    Position(Box<PositionLine>),
    /// A move of the last position kept.
    Move(BookMove),
}

/// Checks a book a line at a time, keeping what can be kept and finding
/// every fault ([`Fault`]), each with its line and what was done: a
/// position that cannot be is dropped with its moves, an illegal move or
/// a line that is no move is dropped, a position is read in its canonical
/// form, a missing field is read as 0 (`none` for the ponder), a value
/// beyond the mate value is read as the mate value.
#[derive(Debug)]
pub struct Scanner {
    started: bool,
    /// The last position line kept: its key as written, and its line.
    last: Option<(String, usize)>,
    /// The position whose moves are being read: `None` before any,
    /// `Some(None)` while a dropped position's moves go with it.
    current: Option<Option<Position>>,
    /// Each position's first line, when positions are tracked (for
    /// repeated positions and rotations).
    seen: Option<HashMap<String, usize>>,
    /// Whether the book is meant for FlippedBook (black-to-move positions
    /// only), so that a position beside its rotation is a fault.
    flip_folded: bool,
    /// The faults found so far, at most [`Scanner::KEPT`] of each kind.
    pub findings: Vec<Finding>,
    /// How many faults of each kind were found (in [`Fault::ALL`]'s
    /// order).
    pub counts: [usize; Fault::ALL.len()],
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner::new(false)
    }
}

impl Scanner {
    /// A scanner; `track` keeps every position's key, to find a position
    /// given twice anywhere and a position beside its rotation (memory in
    /// proportion to the book).
    pub fn new(track: bool) -> Scanner {
        Scanner {
            started: false,
            last: None,
            current: None,
            seen: track.then(HashMap::new),
            flip_folded: false,
            findings: Vec::new(),
            counts: [0; Fault::ALL.len()],
        }
    }

    /// How many faults of a kind are kept with their lines: a book of
    /// millions of lines may have a fault on each.
    pub const KEPT: usize = 1000;

    /// The book is meant for FlippedBook: a white-to-move position whose
    /// rotation is in the book too is found (with positions tracked).
    pub fn flip_folded(mut self) -> Scanner {
        self.flip_folded = true;
        self
    }

    fn find(&mut self, fault: Fault, n: usize, raw: &str, message: String, done: &str) {
        let count = &mut self.counts[fault as usize];
        *count += 1;
        if *count > Self::KEPT {
            return;
        }
        self.findings.push(Finding {
            fault,
            at: BookError {
                line: n,
                text: raw.trim_end().chars().take(120).collect(),
                message,
            },
            done: done.to_string(),
        });
    }

    /// Whether the last position line was dropped (so its moves go with
    /// it).
    pub fn dropping(&self) -> bool {
        matches!(self.current, Some(None))
    }

    /// Checks line `n` (from 1). An error only when the text is no book.
    pub fn line(&mut self, n: usize, raw: &str) -> Result<Scanned, BookError> {
        let line = raw.trim_end_matches('\r').trim();
        if line.is_empty() {
            return Ok(Scanned::Nothing);
        }
        if !self.started {
            first_line(n, line)?;
            self.started = true;
        }
        if line.starts_with('#') || line.starts_with("//") {
            return Ok(Scanned::Nothing);
        }
        if line.starts_with("sfen ") {
            return Ok(self.position(n, raw, line));
        }
        let Some(current) = &self.current else {
            self.find(
                Fault::NoPosition,
                n,
                raw,
                "a move before any `sfen` position line".to_string(),
                "dropped",
            );
            return Ok(Scanned::Nothing);
        };
        let mut mv = match move_fields(line) {
            Ok(mv) => mv,
            Err(e) => {
                let fault = if line.split_whitespace().next() == Some("none") {
                    Fault::NoneMove
                } else {
                    Fault::NotAMove
                };
                self.find(fault, n, raw, e, "dropped");
                return Ok(Scanned::Nothing);
            }
        };
        let Some(pos) = current else {
            return Ok(Scanned::Nothing);
        };
        if let Some(why) = illegal(pos, &mv.mv) {
            self.find(Fault::Illegal, n, raw, why, "dropped");
            return Ok(Scanned::Nothing);
        }
        let fields = line.split_whitespace().count();
        if fields < 5 {
            self.find(
                Fault::MissingColumns,
                n,
                raw,
                format!("{fields} of the five fields (move, ponder, value, depth, count)"),
                "the others read as `none` and 0",
            );
        }
        if mv.value.unsigned_abs() > VALUE_MAX.unsigned_abs() && mv.value != VALUE_NONE {
            let value = mv.value.clamp(-VALUE_MAX, VALUE_MAX);
            self.find(
                Fault::ValueOutOfRange,
                n,
                raw,
                format!(
                    "the value {} is beyond the mate value ±{VALUE_MAX} ({VALUE_NONE} marks no value)",
                    mv.value
                ),
                &format!("read as {value}"),
            );
            mv.value = value;
        }
        Ok(Scanned::Move(mv))
    }

    /// A position line.
    fn position(&mut self, n: usize, raw: &str, line: &str) -> Scanned {
        let p = match position_line(line) {
            Ok(p) => p,
            Err(e) => {
                self.find(Fault::Impossible, n, raw, e, "dropped, with its moves");
                self.current = Some(None);
                return Scanned::Nothing;
            }
        };
        if p.written != p.canonical {
            let message = "the position is not written as kifconv and YaneuraOu write it (hands in order, single spaces)".to_string();
            let done = format!("read as `sfen {} {}`", p.canonical, p.ply);
            self.find(Fault::NotCanonical, n, raw, message, &done);
        }
        if let Some((last, at)) = &self.last {
            if last.as_str() >= p.written.as_str() {
                let message = format!(
                    "this position sorts before the one on line {at}, so a search can miss it"
                );
                self.find(
                    Fault::NotSorted,
                    n,
                    raw,
                    message,
                    "read whole, and written sorted",
                );
            }
        }
        self.last = Some((p.written.clone(), n));
        if p.ply == 0 {
            self.find(
                Fault::NoPly,
                n,
                raw,
                "the position line gives no ply (or ply 0)".to_string(),
                "written with the smallest ply of its copies, or 1",
            );
        }
        if let Some(seen) = &mut self.seen {
            if let Some(&first) = seen.get(&p.canonical) {
                let message = format!("the position of line {first} again");
                self.find(Fault::Repeated, n, raw, message, "their moves are merged");
            } else {
                seen.insert(p.canonical.clone(), n);
            }
        }
        self.current = Some(Some(p.position.clone()));
        Scanned::Position(Box::new(p))
    }

    /// Ends the book: an empty text is no book; in a flip-folded book with
    /// positions tracked, each white-to-move position whose rotation is in
    /// the book too is found. The findings are left in line order.
    pub fn finish(&mut self) -> Result<(), BookError> {
        if !self.started {
            return Err(BookError {
                line: 1,
                text: String::new(),
                message: "not a YaneuraOu book: it is empty".to_string(),
            });
        }
        if let Some(seen) = self.seen.take().filter(|_| self.flip_folded) {
            let mut pairs: Vec<(usize, usize)> = Vec::new();
            for (key, &n) in &seen {
                if !key.contains(" w ") {
                    continue;
                }
                let Ok(pos) = Position::from_sfen(&format!("{key} 1")) else {
                    continue;
                };
                if let Some(&black) = seen.get(&super::key(&pos.flip())) {
                    pairs.push((n, black));
                }
            }
            for (n, black) in pairs {
                self.find(
                    Fault::FlipPresent,
                    n,
                    "",
                    format!(
                        "a white-to-move position in a flip-folded book, beside its rotation on line {black}: the engine finds this one and never reads the other's moves for it"
                    ),
                    "folded into its rotation by `book sort --flip-fold`",
                );
            }
            self.seen = Some(seen);
        }
        self.findings.sort_by_key(|f| f.at.line);
        Ok(())
    }
}

/// A text book's lines, read in turn into one buffer and numbered from 1,
/// as text (bytes that are not UTF-8 replaced).
pub struct Lines<'a> {
    input: &'a mut dyn std::io::BufRead,
    line: Vec<u8>,
    n: usize,
}

impl<'a> Lines<'a> {
    /// The lines of `input`, from where it is.
    pub fn new(input: &'a mut dyn std::io::BufRead) -> Lines<'a> {
        Lines {
            input,
            line: Vec::new(),
            n: 0,
        }
    }

    /// The next line and its number; `None` at the end of the input.
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, Cow<'_, str>)>> {
        self.line.clear();
        if self.input.read_until(b'\n', &mut self.line)? == 0 {
            return Ok(None);
        }
        self.n += 1;
        Ok(Some((self.n, String::from_utf8_lossy(&self.line))))
    }
}

/// A whole book checked line by line: the scanner with its findings, and
/// how many positions and moves were read.
#[derive(Debug)]
pub struct Checked {
    /// The scanner, finished: its findings and counts.
    pub scanner: Scanner,
    /// The position lines read.
    pub positions: usize,
    /// The move lines kept.
    pub moves: usize,
}

/// Checks every line of the book read from `input` with `scanner`. An
/// error when the text is no book or cannot be read.
pub fn scan(input: &mut dyn std::io::BufRead, mut scanner: Scanner) -> Result<Checked, String> {
    let (mut positions, mut moves) = (0, 0);
    let mut lines = Lines::new(input);
    while let Some((n, line)) = lines.next_line().map_err(|e| e.to_string())? {
        match scanner.line(n, &line).map_err(|e| e.to_string())? {
            Scanned::Nothing => {}
            Scanned::Position(_) => positions += 1,
            Scanned::Move(_) => moves += 1,
        }
    }
    scanner.finish().map_err(|e| e.to_string())?;
    Ok(Checked {
        scanner,
        positions,
        moves,
    })
}

/// Calls `each` with every position of a sorted text book read from
/// `text` and its moves, in the file's order. The text must be kifconv's
/// (each position once, in its canonical form, moves legal): the first
/// fault found is an error of kind `InvalidInput`.
pub fn each_entry(
    text: &mut dyn std::io::BufRead,
    mut each: impl FnMut(String, Entry) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let fault = |e: BookError| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string());
    let mut scanner = Scanner::new(false);
    let mut current: Option<(String, Entry)> = None;
    let mut lines = Lines::new(text);
    while let Some((n, line)) = lines.next_line()? {
        match scanner.line(n, &line).map_err(fault)? {
            Scanned::Nothing => {}
            Scanned::Position(p) => {
                if let Some((key, entry)) = current.take() {
                    each(key, entry)?;
                }
                let entry = Entry {
                    ply: p.ply,
                    moves: Vec::new(),
                };
                current = Some((p.canonical, entry));
            }
            Scanned::Move(mv) => {
                if let Some((_, entry)) = &mut current {
                    entry.moves.push(mv);
                }
            }
        }
    }
    if let Some((key, entry)) = current.take() {
        each(key, entry)?;
    }
    match scanner.findings.first() {
        Some(finding) => Err(fault(finding.warning())),
        None => Ok(()),
    }
}

/// A whole book read with its faults mended, and what was mended.
#[derive(Debug, Default)]
pub struct Read {
    /// The book, its positions in kifconv's form.
    pub book: Book,
    /// Each fault found and what was done about it, with its line.
    pub warnings: Vec<BookError>,
}

/// Reads a whole book, mending what can be mended (see [`Scanner`]); a
/// line that is no move (or comes before any position) is an error here,
/// as text that is perhaps no book; an unsorted book is said once. A
/// position with no ply keeps ply 0 (the caller chooses one).
pub fn read(text: &str) -> Result<Read, BookError> {
    let mut out = Read::default();
    let mut scanner = Scanner::new(true);
    let mut key = None;
    for (i, raw) in text.lines().enumerate() {
        match scanner.line(i + 1, raw)? {
            Scanned::Nothing => {}
            Scanned::Position(p) => {
                let entry = out
                    .book
                    .entries
                    .entry(p.canonical.clone())
                    .or_insert(Entry {
                        ply: p.ply,
                        moves: Vec::new(),
                    });
                entry.ply = min_ply(entry.ply, p.ply);
                key = Some(p.canonical);
            }
            Scanned::Move(mv) => {
                let key = key.as_ref().expect("a move comes after its position");
                let entry = out.book.entries.get_mut(key).expect("entered above");
                if add_move(entry, mv) {
                    out.warnings.push(BookError {
                        line: i + 1,
                        text: raw.chars().take(120).collect(),
                        message:
                            "a count past the largest number a count can hold; kept at that number"
                                .to_string(),
                    });
                }
            }
        }
        // A dropped position's moves go with it.
        if scanner.dropping() {
            key = None;
        }
    }
    scanner.finish()?;
    let mut said_unsorted = false;
    for finding in scanner.findings {
        match finding.fault {
            Fault::NotAMove | Fault::NoneMove | Fault::NoPosition => return Err(finding.at),
            Fault::NotSorted if said_unsorted => continue,
            Fault::NotSorted => said_unsorted = true,
            _ => {}
        }
        out.warnings.push(finding.warning());
    }
    out.warnings.sort_by_key(|w| w.line);
    for entry in out.book.entries.values_mut() {
        entry.sort();
    }
    Ok(out)
}

/// Reads a book's text as it is, in any order of positions, each
/// position's moves in the order written (as the tools that write an
/// order of their own need them); its other faults are errors, since only
/// kifconv's own text (and YaneuraOu's four columns, the count read as 0)
/// is read this way.
pub fn read_in_order(text: &str) -> Result<Book, BookError> {
    let mut scanner = Scanner::new(false);
    let mut book = Book::default();
    let mut key = None;
    for (i, line) in text.lines().enumerate() {
        match scanner.line(i + 1, line)? {
            Scanned::Nothing => {}
            Scanned::Position(p) => {
                book.entries.insert(
                    p.canonical.clone(),
                    Entry {
                        ply: p.ply,
                        moves: Vec::new(),
                    },
                );
                key = Some(p.canonical);
            }
            Scanned::Move(mv) => {
                let entry = key.as_ref().and_then(|k| book.entries.get_mut(k));
                entry
                    .expect("a move comes after its position")
                    .moves
                    .push(mv);
            }
        }
    }
    scanner.finish()?;
    // Its own order is kept, and YaneuraOu's four columns (no count) are
    // its form, the count read as 0.
    let fault = scanner
        .findings
        .into_iter()
        .find(|f| !matches!(f.fault, Fault::MissingColumns | Fault::NotSorted));
    match fault {
        Some(finding) => Err(finding.warning()),
        None => Ok(book),
    }
}

/// The smaller of two plies, 0 (none written) giving way to the other.
pub fn min_ply(a: u32, b: u32) -> u32 {
    match (a, b) {
        (0, b) => b,
        (a, 0) => a,
        (a, b) => a.min(b),
    }
}

/// Adds `mv` to `entry` (to the same move's count if it is there, the
/// value of the move played more often kept); true when the count was
/// held at `u64::MAX` rather than wrapped.
pub fn add_move(entry: &mut Entry, mv: BookMove) -> bool {
    match entry.moves.iter_mut().find(|m| m.mv == mv.mv) {
        Some(m) => {
            if mv.count > m.count {
                m.value = mv.value;
                m.depth = mv.depth;
                m.ponder = mv.ponder.clone();
            }
            let (sum, wrapped) = m.count.overflowing_add(mv.count);
            m.count = if wrapped { u64::MAX } else { sum };
            wrapped
        }
        None => {
            entry.moves.push(mv);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

    #[test]
    fn position_lines() {
        let p = position_line(&format!("sfen {START} 1")).unwrap();
        assert_eq!((p.written.as_str(), p.ply), (START, 1));
        assert_eq!(p.canonical, START);
        // Hands out of order, and a double space: not kifconv's form.
        let p = position_line("sfen 4k4/9/9/9/9/9/9/9/4K4 b PG 1").unwrap();
        assert_eq!(p.canonical, "4k4/9/9/9/9/9/9/9/4K4 b GP");
        assert_ne!(p.written, p.canonical);
        let p = position_line(&format!("sfen {}  1", START.replace(" b", "  b"))).unwrap();
        assert_ne!(p.written, p.canonical);
        // No ply: 0.
        assert_eq!(position_line(&format!("sfen {START}")).unwrap().ply, 0);
        // Three kings' worth of nonsense: impossible.
        let e = position_line("sfen kkk6/9/9/9/9/9/9/9/9 b - 1").unwrap_err();
        assert!(e.starts_with("an impossible position"), "{e}");
        assert!(position_line("sfen 9/9 b").is_err());
    }

    #[test]
    fn moves_must_be_legal() {
        let pos = Position::startpos();
        assert_eq!(illegal(&pos, "7g7f"), None);
        assert!(illegal(&pos, "7g7e").is_some());
        assert!(illegal(&pos, "P*5e").is_some());
    }

    /// The values at the ends of i32 are out of range and held at the
    /// mate value, the lowest one included (whose absolute value i32 cannot
    /// hold).
    #[test]
    fn values_at_the_ends_of_i32_are_held() {
        let text = format!(
            "#YANEURAOU-DB2016 1.00\nsfen {START} 1\n7g7f none -2147483648 0 1\n2g2f none 2147483647 0 1\n"
        );
        let read = read(&text).unwrap();
        let lines: Vec<usize> = read.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, [3, 4], "{:?}", read.warnings);
        let values: Vec<i32> = read.book.entries[START]
            .moves
            .iter()
            .map(|m| m.value)
            .collect();
        assert_eq!(values, [VALUE_MAX, -VALUE_MAX]);
    }

    #[test]
    fn a_whole_book_is_mended_and_said() {
        let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
        let text = format!(
            "#YANEURAOU-DB2016 1.00\nsfen {START} 3\n7g7f none 0 0 18446744073709551615\n7g7e none 0 0 1\nsfen {after}\n3c3d none 0 0 1\nsfen {START} 1\n7g7f none 0 0 5\n"
        );
        let read = read(&text).unwrap();
        let said: Vec<(usize, &str)> = read
            .warnings
            .iter()
            .map(|w| (w.line, w.message.as_str()))
            .collect();
        assert!(
            said.iter().any(|(l, m)| *l == 4 && m.contains("illegal")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|(l, m)| *l == 5 && m.contains("no ply")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|(l, m)| *l == 5 && m.contains("not sorted")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|(l, m)| *l == 7 && m.contains("line 2 again")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|(l, m)| *l == 8 && m.contains("largest")),
            "{said:?}"
        );
        let start = &read.book.entries[START];
        assert_eq!(start.ply, 1);
        assert_eq!(start.moves.len(), 1);
        assert_eq!(start.moves[0].count, u64::MAX);
        assert_eq!(read.book.entries[after].ply, 0);
        let e = super::read("# kifconv\n\nsome text\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.starts_with("not a YaneuraOu book"), "{e}");
        let e = super::read("").unwrap_err();
        assert!(e.message.starts_with("not a YaneuraOu book"), "{e}");
    }
}
