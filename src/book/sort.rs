//! A sorted, canonical copy of a DB2016 book, in bounded memory: each line
//! checked ([`super::check::Scanner`], which mends what it can and finds
//! every fault), a position given several times merged into one (the
//! counts of a move added, the smaller ply kept), a white-to-move position
//! folded into its rotation when asked, and the positions written in byte
//! order of their key with their moves in the book's order. The positions
//! go through [`super::runs`], so a book larger than memory is sorted in
//! runs on disk.

use super::check::{self, add_move, min_ply, Scanned, Scanner};
use super::db2016;
use super::runs::{Item, Sorter};
use super::{key, BookMove, Entry};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// How a book is sorted.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Store black-to-move positions only: a white-to-move position and its
    /// moves are rotated 180° first.
    pub flip_fold: bool,
    /// About how many bytes the positions held in memory may take; `None`:
    /// no limit.
    pub memory: Option<usize>,
    /// Where the runs go when memory is limited.
    pub dir: Option<PathBuf>,
}

/// The memory a position takes while sorting beside its key and its
/// moves, about.
pub const POSITION_BYTES: usize = 64;

/// The memory a move takes while sorting, about: its text, its ponder's,
/// its numbers and the allocator's slack.
pub const MOVE_BYTES: usize = 112;

/// What a sort did.
#[derive(Debug, Default)]
pub struct Sorted {
    /// The positions written.
    pub positions: usize,
    /// The moves written.
    pub moves: usize,
    /// The positions given more than once (their copies merged).
    pub merged: usize,
    /// The white-to-move positions rotated into black-to-move ones.
    pub folded: usize,
    /// The positions no line gave a ply, written with ply 1.
    pub no_ply: usize,
    /// The moves whose added counts were held at the largest count.
    pub held: usize,
    /// The faults of the input, as the scanner found them.
    pub scanner: Scanner,
    /// How many runs went to disk.
    pub runs: usize,
}

/// A position while sorting: its smallest ply, how many times it was
/// given, how many counts were held, and its moves.
#[derive(Debug, Default)]
struct Position {
    ply: u32,
    copies: u64,
    held: u64,
    moves: Vec<BookMove>,
}

impl Item for Position {
    const FIELDS: usize = 4;

    fn weight(&self) -> usize {
        POSITION_BYTES + self.moves.len() * MOVE_BYTES
    }

    fn add(&mut self, other: Position) {
        self.ply = min_ply(self.ply, other.ply);
        self.copies += other.copies;
        self.held += other.held;
        let entry = &mut Entry {
            ply: 0,
            moves: std::mem::take(&mut self.moves),
        };
        for mv in other.moves {
            self.held += u64::from(add_move(entry, mv));
        }
        self.moves = std::mem::take(&mut entry.moves);
    }

    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}\t{}\t{}\t", self.ply, self.copies, self.held)?;
        for (i, m) in self.moves.iter().enumerate() {
            let ponder = m.ponder.as_deref().unwrap_or("none");
            let sep = if i == 0 { "" } else { "|" };
            write!(
                out,
                "{sep}{} {ponder} {} {} {}",
                m.mv, m.value, m.depth, m.count
            )?;
        }
        Ok(())
    }

    fn read(fields: &[&str]) -> Option<Position> {
        let [ply, copies, held, moves] = fields else {
            return None;
        };
        let moves = moves
            .split('|')
            .filter(|m| !m.is_empty())
            .map(|m| check::move_fields(m).ok())
            .collect::<Option<Vec<BookMove>>>()?;
        Some(Position {
            ply: ply.parse().ok()?,
            copies: copies.parse().ok()?,
            held: held.parse().ok()?,
            moves,
        })
    }
}

/// Sorts the book read from `input` into `out` (see the module notes). An
/// error when the input is no book or cannot be read, or the output or a
/// run cannot be written.
pub fn sort(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    options: &Options,
) -> Result<Sorted, SortError> {
    let mut sorter = Sorter::default();
    if let (Some(bytes), Some(dir)) = (options.memory, &options.dir) {
        sorter = sorter.with_limit(bytes, dir.clone());
    }
    let mut scanner = Scanner::new(false);
    let mut sorted = Sorted::default();
    // The position being read: its key, whether it was rotated, and what
    // it holds so far.
    let mut current: Option<(String, bool, Position)> = None;
    let mut lines = check::Lines::new(input);
    while let Some((n, text)) = lines.next_line()? {
        match scanner.line(n, &text).map_err(SortError::Book)? {
            Scanned::Nothing => {}
            Scanned::Position(p) => {
                if let Some((key, _, held)) = current.take() {
                    sorter.add(&key, held)?;
                }
                let rotate = options.flip_fold && p.position.side_to_move() == crate::Color::White;
                let key = if rotate {
                    sorted.folded += 1;
                    key(&p.position.flip())
                } else {
                    p.canonical
                };
                let held = Position {
                    ply: p.ply,
                    copies: 1,
                    ..Position::default()
                };
                current = Some((key, rotate, held));
            }
            Scanned::Move(mut mv) => {
                let Some((_, rotate, held)) = &mut current else {
                    continue;
                };
                if *rotate {
                    mv = mv.rotated();
                }
                let entry = &mut Entry {
                    ply: 0,
                    moves: std::mem::take(&mut held.moves),
                };
                held.held += u64::from(add_move(entry, mv));
                held.moves = std::mem::take(&mut entry.moves);
            }
        }
        // A dropped position's moves go with it.
        if scanner.dropping() {
            current = None;
        }
    }
    if let Some((key, _, held)) = current.take() {
        sorter.add(&key, held)?;
    }
    scanner.finish().map_err(SortError::Book)?;
    sorted.runs = sorter.spilled();
    writeln!(out, "{}", db2016::HEADER)?;
    let mut text = String::new();
    sorter.finish(|key, position| {
        if position.moves.is_empty() {
            return Ok(());
        }
        sorted.merged += usize::from(position.copies > 1);
        sorted.held += position.held as usize;
        let ply = if position.ply == 0 {
            sorted.no_ply += 1;
            1
        } else {
            position.ply
        };
        let mut entry = Entry {
            ply,
            moves: position.moves,
        };
        entry.sort();
        sorted.positions += 1;
        sorted.moves += entry.moves.len();
        text.clear();
        db2016::write_entry(&mut text, key, &entry);
        out.write_all(text.as_bytes())
    })?;
    out.flush()?;
    sorted.scanner = scanner;
    Ok(sorted)
}

/// Why a sort failed.
pub use super::db2016::Failure as SortError;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::check::Fault;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    /// The start position after 7g7f: white to move.
    const AFTER: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";

    fn sorted(text: &str, options: &Options) -> (String, Sorted) {
        let mut out = Vec::new();
        let sorted = sort(&mut text.as_bytes(), &mut out, options).unwrap();
        (String::from_utf8(out).unwrap(), sorted)
    }

    /// A faulty book: unsorted, the start position twice (once with its
    /// hands out of order is not possible here, so with no ply), an
    /// illegal move, a `none` line, a line of three fields.
    fn faulty() -> String {
        format!(
            "#YANEURAOU-DB2016 1.00\r\nsfen {AFTER} 2\r\n3c3d none 10 0 2\r\nsfen {START} 0\r\n7g7f 3c3d 40 5 3\r\nnone\r\n2g2f none\r\nsfen {START} 1\r\n7g7f none 50 0 1\r\n7g7e none 0 0 1\r\n"
        )
    }

    #[test]
    fn a_faulty_book_is_written_sorted_merged_and_canonical() {
        let (text, sorted) = sorted(&faulty(), &Options::default());
        // In byte order (`2P6` before `9/P…`). The start position once, ply
        // 1, its 7g7f counts added (the value of the move played more often
        // kept), 2g2f with its fields as 0.
        assert_eq!(
            text,
            format!(
                "#YANEURAOU-DB2016 1.00\nsfen {AFTER} 2\n3c3d none 10 0 2\nsfen {START} 1\n7g7f 3c3d 40 5 4\n2g2f none 0 0 0\n"
            )
        );
        assert_eq!((sorted.positions, sorted.moves, sorted.merged), (2, 3, 1));
        let count = |fault: Fault| sorted.scanner.counts[fault as usize];
        assert_eq!(count(Fault::NotSorted), 1);
        assert_eq!(count(Fault::NoPly), 1);
        assert_eq!(count(Fault::NoneMove), 1);
        assert_eq!(count(Fault::MissingColumns), 1);
        assert_eq!(count(Fault::Illegal), 1);
        // The copy checks clean.
        let mut again = Scanner::new(true);
        for (i, line) in text.lines().enumerate() {
            again.line(i + 1, line).unwrap();
        }
        again.finish().unwrap();
        assert_eq!(again.findings, []);
    }

    #[test]
    fn flip_folding_rotates_white_to_move_positions_and_their_moves() {
        let options = Options {
            flip_fold: true,
            ..Options::default()
        };
        let (text, sorted) = sorted(&faulty(), &options);
        assert_eq!(sorted.folded, 1);
        // 7g7f's position rotated: black to move, 3c3d as 7g7f.
        let rotated = crate::Position::from_sfen(&format!("{AFTER} 1"))
            .unwrap()
            .flip();
        let rotated = key(&rotated);
        assert!(
            text.contains(&format!("sfen {rotated} 2\n7g7f none 10 0 2\n")),
            "{text}"
        );
        assert!(!text.contains(" w "), "{text}");
    }

    #[test]
    fn runs_on_disk_give_what_memory_gives() {
        // Many positions: every position of a few hundred random plies.
        let mut rng = crate::test_util::rng::Rng::new(38);
        let mut text = String::from("#YANEURAOU-DB2016 1.00\n");
        for _ in 0..40 {
            let mut pos = crate::Position::startpos();
            for ply in 1..=12 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                text.push_str(&format!("sfen {} {ply}\n{mv} none 0 0 1\n", key(&pos)));
                pos.play_unchecked(mv);
            }
        }
        let (memory, _) = sorted(&text, &Options::default());
        let dir = crate::test_util::scratch::scratch("book-sort");
        let options = Options {
            memory: Some(20 * (POSITION_BYTES + MOVE_BYTES + 100)),
            dir: Some(dir.clone()),
            ..Options::default()
        };
        let (disk, sorted) = sorted(&text, &options);
        assert!(sorted.runs > 5, "{} runs", sorted.runs);
        assert_eq!(disk, memory);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir(dir);
    }

    #[test]
    fn text_that_is_no_book_is_an_error() {
        let e = sort(
            &mut "hello\n".as_bytes(),
            &mut Vec::new(),
            &Options::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a YaneuraOu book"), "{e}");
    }
}
