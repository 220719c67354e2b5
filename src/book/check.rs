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

/// A whole book read with its faults mended, and what was mended.
#[derive(Debug, Default)]
pub struct Read {
    /// The book, its positions in kifconv's form.
    pub book: Book,
    /// Each fault found and what was done about it, with its line.
    pub warnings: Vec<BookError>,
}

/// Reads a whole book, mending what can be mended (see the module notes);
/// a position with no ply keeps ply 0 here (the caller chooses one).
pub fn read(text: &str) -> Result<Read, BookError> {
    let mut out = Read::default();
    // The current position: its key and position, or None while the
    // position is being dropped (its moves go with it).
    let mut current: Option<Option<(String, Position)>> = None;
    // The line of each position seen, and the last position line's key as
    // written (for the order).
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut last: Option<String> = None;
    let mut unsorted = false;
    let mut started = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim();
        let fault = |message: String| BookError {
            line: i + 1,
            text: raw.chars().take(120).collect(),
            message,
        };
        if line.is_empty() {
            continue;
        }
        if !started {
            first_line(i + 1, line)?;
            started = true;
        }
        if line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        if line.starts_with("sfen ") {
            let p = match position_line(line) {
                Ok(p) => p,
                Err(e) => {
                    out.warnings
                        .push(fault(format!("{e}; dropped, with its moves")));
                    current = Some(None);
                    continue;
                }
            };
            if p.written != p.canonical {
                out.warnings.push(fault(format!(
                    "a position not in kifconv's form; read as `sfen {} {}`",
                    p.canonical, p.ply
                )));
            }
            if !unsorted && last.as_deref().is_some_and(|l| l >= p.written.as_str()) {
                unsorted = true;
                out.warnings.push(fault(
                    "not sorted from here: read whole, and written sorted".to_string(),
                ));
            }
            last = Some(p.written.clone());
            if p.ply == 0 {
                out.warnings
                    .push(fault("a position with no ply (or ply 0)".to_string()));
            }
            match seen.get(&p.canonical) {
                Some(&first) => out.warnings.push(fault(format!(
                    "the position of line {first} again; their moves are merged"
                ))),
                None => {
                    seen.insert(p.canonical.clone(), i + 1);
                }
            }
            let entry = out
                .book
                .entries
                .entry(p.canonical.clone())
                .or_insert(Entry {
                    ply: p.ply,
                    moves: Vec::new(),
                });
            entry.ply = min_ply(entry.ply, p.ply);
            current = Some(Some((p.canonical, p.position)));
            continue;
        }
        let Some(current) = &current else {
            return Err(fault("a move before any `sfen` position line".to_string()));
        };
        let mv = move_fields(line).map_err(fault)?;
        let Some((key, pos)) = current else {
            continue;
        };
        if let Some(why) = illegal(pos, &mv.mv) {
            out.warnings.push(fault(format!("{why}; dropped")));
            continue;
        }
        let entry = out.book.entries.get_mut(key).expect("entered above");
        if add_move(entry, mv) {
            out.warnings.push(fault(
                "a count past the largest number a count can hold; kept at that number".to_string(),
            ));
        }
    }
    if !started {
        return Err(BookError {
            line: 1,
            text: String::new(),
            message: "not a YaneuraOu book: it is empty".to_string(),
        });
    }
    for entry in out.book.entries.values_mut() {
        entry.sort();
    }
    Ok(out)
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
