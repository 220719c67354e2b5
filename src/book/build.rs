//! Counting records into a book: every mainline position in the chosen
//! plies and the move played from it (by the chosen side), with its
//! evaluation from the mover's view where the record gives one. With flip
//! folding, a white-to-move position and its move are rotated 180° first,
//! so that the book holds black-to-move positions only and a position
//! shares its entry with its mirror (YaneuraOu's FlippedBook looks them up
//! that way).

use super::runs::{Item, Sorter};
use super::{Book, BookMove, Entry};
use crate::position::SfenBoard;
use crate::record::{NodeId, Record, RecordError};
use crate::training::eval;
use crate::{Color, Move, Position};
use std::collections::HashMap;

/// Whose moves go into the book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// Both players'.
    #[default]
    Both,
    /// Black's (先手) only.
    Black,
    /// White's (後手) only.
    White,
}

/// What goes into the book.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Store black-to-move positions only, rotating the others.
    pub flip_fold: bool,
    /// The positions from this ply on (the SFEN move number: 1 is a game's
    /// first position).
    pub min_ply: u32,
    /// The positions up to this ply.
    pub max_ply: Option<u32>,
    /// Whose moves.
    pub side: Side,
    /// Every move of the record's variations too, not only its mainline's.
    pub variations: bool,
}

/// A move's tally while counting: the smallest ply its position was seen
/// at, how often it was played, and the sum and number of its evaluations.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Tally {
    ply: u32,
    count: u64,
    evals: i64,
    with_eval: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.ply = if self.count == 0 {
            other.ply
        } else {
            self.ply.min(other.ply)
        };
        self.count += other.count;
        self.evals += other.evals;
        self.with_eval += other.with_eval;
    }
}

/// Why a record could not be counted.
#[derive(Debug)]
pub enum BuildError {
    /// Its moves do not replay.
    Record(RecordError),
    /// A run could not be written to disk (the build cannot go on).
    Spill(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Record(e) => e.fmt(f),
            BuildError::Spill(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for BuildError {}

/// One record's positions and moves, tallied and ready for
/// [`Builder::add_counted`]: small beside the record, so that a batch can
/// count on its worker threads and hand these over in input order.
///
/// The texts of its tallies (`position<TAB>move`) share one buffer: a
/// record's count is two allocations however long it is, so that a book
/// counted on worker threads and tallied on another leaves no small blocks
/// to be freed across threads (which the allocator is slow to give back).
#[derive(Clone, Debug, Default)]
pub struct Counted {
    text: String,
    /// Where each tally's text ends in `text`, and the tally.
    tallies: Vec<(usize, Tally)>,
}

impl Counted {
    /// How many moves were counted.
    pub fn len(&self) -> usize {
        self.tallies.len()
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.tallies.is_empty()
    }

    fn push(&mut self, position: &str, mv: Move, tally: Tally) {
        self.text.push_str(position);
        self.text.push('\t');
        mv.push_usi(&mut self.text);
        self.tallies.push((self.text.len(), tally));
    }

    /// Each tally with its text.
    fn iter(&self) -> impl Iterator<Item = (&str, Tally)> {
        let mut start = 0;
        self.tallies.iter().map(move |&(end, t)| {
            let text = &self.text[start..end];
            start = end;
            (text, t)
        })
    }
}

/// Counts `record`: each move of its mainline (of its whole tree with
/// [`Options::variations`]; a position shared by two lines counts once)
/// whose position is in the chosen plies and whose mover is the chosen
/// side, with its evaluation from the mover's view, rotated first with
/// [`Options::flip_fold`] when white moves. A record whose counted moves
/// do not replay is an error; moves past [`Options::max_ply`] are not
/// looked at (a reader checked them as it built the record).
pub fn count(record: &Record, o: &Options) -> Result<Counted, BuildError> {
    counted(record, o, true)
}

/// [`count`] for a record as a reader returned it, whose moves were
/// checked as it was built: they are not checked again (as
/// [`crate::training::Game::of_read`] takes them). A record built or changed
/// by hand must go through [`count`].
pub fn count_read(record: &Record, o: &Options) -> Result<Counted, BuildError> {
    counted(record, o, false)
}

/// [`count`], each counted move checked first when `check` says so.
fn counted(record: &Record, o: &Options, check: bool) -> Result<Counted, BuildError> {
    let tree = &record.tree;
    let ids: Box<dyn Iterator<Item = NodeId>> = if o.variations {
        Box::new(tree.ids())
    } else {
        Box::new(tree.mainline())
    };
    // The position before each node's move, by node: a parent always comes
    // before its children in the tree, and in either list.
    let mut before: HashMap<NodeId, Position> = HashMap::new();
    let after_parent = |parent: NodeId, before: &HashMap<NodeId, Position>| {
        if parent == NodeId::ROOT {
            Some(record.start.clone())
        } else {
            let mut pos = before.get(&parent)?.clone();
            pos.play_unchecked(tree.node(parent).mv?);
            Some(pos)
        }
    };
    // The node just counted and its position: the parent of the next one
    // along a line, whose position is then played on from it, in place.
    // Its board's SFEN is kept beside it, rank by rank.
    let mut last: Option<(NodeId, Position, SfenBoard)> = None;
    // Room for the moves of a line up to the last ply counted, so that
    // the buffers are not grown move by move.
    let moves = tree.line_nodes().map_or(0, <[_]>::len);
    let moves = o.max_ply.map_or(moves, |max| moves.min(max as usize));
    let mut key_text = Vec::with_capacity(KEY_CAPACITY);
    let mut counted = Counted {
        text: String::with_capacity(moves * KEY_CAPACITY),
        tallies: Vec::with_capacity(moves),
    };
    for id in ids {
        let node = tree.node(id);
        let (Some(mv), Some(parent)) = (node.mv, node.parent) else {
            continue;
        };
        // Past the last ply counted, a line counts nothing more.
        let past = (record.start.move_number() + node.ply).saturating_sub(1);
        if o.max_ply.is_some_and(|max| past > max) {
            // The mainline goes no further back than this.
            if o.variations {
                continue;
            }
            break;
        }
        // Along a line the position is played on where it is held.
        let (pos, board) = match &mut last {
            Some((previous, pos, board)) if *previous == parent => {
                let Some(played) = tree.node(parent).mv else {
                    continue;
                };
                pos.play_unchecked(played);
                board.played(pos.board(), played);
                *previous = id;
                (pos, board)
            }
            _ => {
                let Some(pos) = after_parent(parent, &before) else {
                    continue;
                };
                let board = SfenBoard::of(pos.board());
                let (_, pos, board) = last.insert((id, pos, board));
                (pos, board)
            }
        };
        if check {
            pos.check_legal(mv).map_err(|reason| {
                BuildError::Record(RecordError::IllegalMove {
                    ply: node.ply,
                    mv,
                    reason,
                })
            })?;
        }
        let ply = pos.move_number();
        let mover = pos.side_to_move();
        let wanted = match o.side {
            Side::Both => true,
            Side::Black => mover == Color::Black,
            Side::White => mover == Color::White,
        };
        if wanted && ply >= o.min_ply && o.max_ply.is_none_or(|max| ply <= max) {
            let value = eval::mover_view(record, id, mover);
            key_text.clear();
            let mv = if o.flip_fold && mover == Color::White {
                let flipped = pos.flip();
                flipped.push_sfen_key_with(&SfenBoard::of(flipped.board()), &mut key_text);
                mv.flip()
            } else {
                pos.push_sfen_key_with(board, &mut key_text);
                mv
            };
            counted.push(
                std::str::from_utf8(&key_text).expect("a SFEN is ASCII"),
                mv,
                Tally {
                    ply,
                    count: 1,
                    evals: value.map_or(0, i64::from),
                    with_eval: u64::from(value.is_some()),
                },
            );
        }
        if o.variations {
            before.insert(id, pos.clone());
        }
    }
    Ok(counted)
}

/// Room for one `position<TAB>move` text: a SFEN key and a move are
/// rarely longer.
const KEY_CAPACITY: usize = 128;

/// Records counted so far: tallies by `position<TAB>move` (the tab sorts
/// before every character of either, so that the texts sort as the pairs
/// would), in memory and, past a limit, in sorted runs on disk
/// ([`super::runs`]).
#[derive(Default)]
pub struct Builder {
    options: Options,
    tallies: Sorter<Tally>,
}

/// The memory a tally takes, about: the key and move text, the map's own
/// share, and the allocator's slack.
pub const TALLY_BYTES: usize = 400;

/// The part of [`TALLY_BYTES`] that is the key (`position<TAB>move`) with
/// the map's share of it.
const KEY_TEXT: usize = 150;

impl Item for Tally {
    const FIELDS: usize = 4;

    fn weight(&self) -> usize {
        TALLY_BYTES - KEY_TEXT
    }

    fn add(&mut self, other: Tally) {
        Tally::add(self, other);
    }

    fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let Tally {
            ply,
            count,
            evals,
            with_eval,
        } = self;
        write!(out, "{ply}\t{count}\t{evals}\t{with_eval}")
    }

    fn read(fields: &[&str]) -> Option<Tally> {
        let [ply, count, evals, with_eval] = fields else {
            return None;
        };
        Some(Tally {
            ply: ply.parse().ok()?,
            count: count.parse().ok()?,
            evals: evals.parse().ok()?,
            with_eval: with_eval.parse().ok()?,
        })
    }
}

impl Builder {
    /// An empty book to count into, in memory.
    pub fn new(options: Options) -> Builder {
        Builder {
            options,
            tallies: Sorter::default(),
        }
    }

    /// Holds at most about `bytes` of tallies in memory; beyond that,
    /// sorted runs are written into `dir` (removed when finished).
    pub fn with_memory_limit(mut self, bytes: usize, dir: std::path::PathBuf) -> Builder {
        self.tallies = self.tallies.with_limit(bytes, dir);
        self
    }

    /// Reads at most `n` runs at once (at least 2) instead of
    /// [`super::runs::FAN_IN`].
    pub fn with_fan_in(mut self, n: usize) -> Builder {
        self.tallies = self.tallies.with_fan_in(n);
        self
    }

    /// How many runs went to disk from memory so far.
    pub fn runs(&self) -> usize {
        self.tallies.spilled()
    }

    /// Counts `record` (see [`count`]); a record whose moves do not replay
    /// is an error and counts nothing.
    pub fn add(&mut self, record: &Record) -> Result<(), BuildError> {
        let counted = count(record, &self.options)?;
        self.add_counted(counted)
    }

    /// Adds a record's tallies, made by [`count`] (on any thread) with
    /// this builder's options.
    pub fn add_counted(&mut self, counted: Counted) -> Result<(), BuildError> {
        for (text, t) in counted.iter() {
            self.tallies
                .add(text, t)
                .map_err(|e| BuildError::Spill(e.to_string()))?;
        }
        Ok(())
    }

    /// The book, in memory: moves played at least `min_count` times
    /// (positions left with none are dropped); a move's value is the mean
    /// of its evaluations (rounded toward zero), 0 without any; depth 0;
    /// no ponder.
    pub fn finish(self, min_count: u64) -> std::io::Result<Book> {
        let mut book = Book::default();
        self.finish_each(min_count, |k, entry| {
            book.entries.insert(k.to_string(), entry);
            Ok(())
        })?;
        Ok(book)
    }

    /// The book's text written to `out` as [`super::db2016::write`] would
    /// write [`Builder::finish`]'s book, entry by entry, merging the runs
    /// on disk without holding the book; says how many positions and moves
    /// it wrote.
    pub fn finish_to(
        self,
        min_count: u64,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<(usize, usize)> {
        writeln!(out, "{}", super::db2016::HEADER)?;
        let (mut positions, mut moves) = (0, 0);
        let mut text = String::new();
        self.finish_each(min_count, |k, entry| {
            positions += 1;
            moves += entry.moves.len();
            text.clear();
            super::db2016::write_entry(&mut text, k, &entry);
            out.write_all(text.as_bytes())
        })?;
        Ok((positions, moves))
    }

    /// Each entry in key order, to `each`.
    fn finish_each(
        self,
        min_count: u64,
        mut each: impl FnMut(&str, Entry) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        // The position whose moves are being gathered, and its moves: both
        // kept from one position to the next, not made again.
        let (mut key, mut moves) = (String::new(), Vec::new());
        let mut emit = |key: &str, moves: &mut Vec<(String, Tally)>| {
            let entry = entry(moves, min_count);
            moves.clear();
            match entry {
                Some(entry) => each(key, entry),
                None => Ok(()),
            }
        };
        self.tallies.finish(|text, t| {
            // The move is a few bytes at the end: a plain backward search
            // finds the tab before a vector search would start.
            let tab = text.bytes().rposition(|b| b == b'\t');
            let (k, mv) = match tab {
                Some(at) => (
                    text.get(..at).unwrap_or(text),
                    text.get(at + 1..).unwrap_or(""),
                ),
                None => (text, ""),
            };
            if key != k || moves.is_empty() {
                if !moves.is_empty() {
                    emit(&key, &mut moves)?;
                }
                key.clear();
                key.push_str(k);
            }
            moves.push((mv.to_string(), t));
            Ok(())
        })?;
        if !moves.is_empty() {
            emit(&key, &mut moves)?;
        }
        Ok(())
    }
}

/// A position's entry from its moves' tallies.
fn entry(moves: &mut Vec<(String, Tally)>, min_count: u64) -> Option<Entry> {
    let ply = moves.iter().map(|(_, t)| t.ply).min()?;
    let mut entry = Entry {
        ply,
        moves: moves
            .drain(..)
            .filter(|(_, t)| t.count >= min_count)
            .map(|(mv, t)| BookMove {
                mv,
                ponder: None,
                value: if t.with_eval == 0 {
                    0
                } else {
                    (t.evals / t.with_eval as i64) as i32
                },
                depth: 0,
                count: t.count,
            })
            .collect(),
    };
    if entry.moves.is_empty() {
        return None;
    }
    entry.sort();
    Some(entry)
}

#[cfg(test)]
mod tests {
    use super::super::runs::FAN_IN;
    use super::*;
    use crate::read::{read_text, Format};

    fn records(usi: &str) -> Vec<Record> {
        read_text(usi, Format::Usi).unwrap()
    }

    /// The moves of the book's position `key` with their counts.
    fn counts<'b>(book: &'b Book, key: &str) -> Vec<(&'b str, u64)> {
        book.entries[key]
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), m.count))
            .collect()
    }

    #[test]
    fn counts_and_flip_folds() {
        let games = records(
            "position startpos moves 7g7f 3c3d 2g2f\nposition startpos moves 7g7f 8c8d\nposition startpos moves 2g2f\n",
        );
        let mut plain = Builder::new(Options::default());
        let mut folded = Builder::new(Options {
            flip_fold: true,
            ..Options::default()
        });
        for g in &games {
            plain.add(g).unwrap();
            folded.add(g).unwrap();
        }
        let plain = plain.finish(1).unwrap();
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        assert_eq!(counts(&plain, start), [("7g7f", 2), ("2g2f", 1)]);
        // After 7g7f, white to move: folded, it is stored rotated (a white
        // pawn on 3d, black to move), its replies 3c3d and 8c8d as 7g7f and
        // 2g2f.
        let folded = folded.finish(1).unwrap();
        assert!(folded.entries.keys().all(|k| k.contains(" b ")));
        let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
        assert!(plain.entries.contains_key(after));
        assert!(!folded.entries.contains_key(after));
        let rotated = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        assert_eq!(counts(&folded, rotated), [("2g2f", 1), ("7g7f", 1)]);
        assert_eq!(folded.entries[rotated].ply, 2);
    }

    /// Counting in runs on disk (a limit of a few tallies) gives the same
    /// book, and the same text, as counting in memory.
    /// A record as read counts the same whether its moves are checked
    /// again or not; a move pushed by hand against the rules is refused by
    /// the count that checks.
    #[test]
    fn records_as_read_count_the_same_unchecked_and_a_bad_move_is_refused() {
        let games = records(
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\nposition startpos moves 2g2f 8c8d\n",
        );
        let list = |c: &Counted| {
            c.iter()
                .map(|(text, tally)| (text.to_string(), tally))
                .collect::<Vec<_>>()
        };
        let folded = Options {
            flip_fold: true,
            ..Options::default()
        };
        for options in [Options::default(), folded] {
            for game in &games {
                let checked = count(game, &options).unwrap();
                let read = count_read(game, &options).unwrap();
                assert!(!list(&read).is_empty());
                assert_eq!(list(&checked), list(&read));
            }
        }
        let mut bad = games[1].clone();
        let end = bad.tree.mainline_end();
        bad.tree.push(end, Move::from_usi("5a5c").unwrap());
        assert!(
            matches!(
                count(&bad, &Options::default()),
                Err(BuildError::Record(RecordError::IllegalMove { ply: 3, .. }))
            ),
            "{:?}",
            count(&bad, &Options::default()).map(|c| list(&c))
        );
    }

    #[test]
    fn runs_on_disk_give_the_same_book() {
        let mut text = String::new();
        let mut rng = crate::test_util::rng::Rng::new(7);
        for _ in 0..40 {
            let mut pos = crate::Position::startpos();
            let mut line = String::from("position startpos moves");
            for _ in 0..12 {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len().min(3))];
                line.push_str(&format!(" {mv}"));
                pos.play_unchecked(mv);
            }
            text.push_str(&line);
            text.push('\n');
        }
        let games = records(&text);
        let dir = std::env::temp_dir().join(format!("kifconv-book-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A fan-in of 2 merges the runs in several passes first.
        for (flip_fold, fan_in) in [(false, FAN_IN), (true, FAN_IN), (false, 2), (true, 3)] {
            let options = Options {
                flip_fold,
                max_ply: Some(10),
                ..Options::default()
            };
            let mut memory = Builder::new(options.clone());
            // Two builders at work in one folder at once (two threads of a
            // program) keep their runs apart.
            let on_disk = || {
                Builder::new(options.clone())
                    .with_memory_limit(5 * TALLY_BYTES, dir.clone())
                    .with_fan_in(fan_in)
            };
            let (mut disk, mut beside) = (on_disk(), on_disk());
            for g in &games {
                memory.add(g).unwrap();
                disk.add(g).unwrap();
                beside.add(g).unwrap();
            }
            assert!(disk.runs() > 3, "{} runs", disk.runs());
            let book = memory.finish(1).unwrap();
            for builder in [disk, beside] {
                let mut streamed = Vec::new();
                builder.finish_to(1, &mut streamed).unwrap();
                assert_eq!(
                    String::from_utf8(streamed).unwrap(),
                    super::super::db2016::write(&book)
                );
            }
            assert!(book
                .entries
                .values()
                .any(|e| e.moves.iter().any(|m| m.count > 1)));
        }
        // The runs are gone.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A run that cannot be written (here: its folder is a file) is an
    /// error naming the run, and leaves no file; runs made before it are
    /// removed when the builder is dropped.
    #[test]
    fn a_run_that_cannot_be_written_is_an_error_and_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("kifconv-book-fail-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let games = records(
            "position startpos moves 7g7f 3c3d 2g2f 8c8d\nposition startpos moves 2g2f 8c8d 7g7f\n",
        );
        let mut builder =
            Builder::new(Options::default()).with_memory_limit(2 * TALLY_BYTES, dir.clone());
        builder.add(&games[0]).unwrap();
        assert!(builder.runs() >= 1);
        assert!(std::fs::read_dir(&dir).unwrap().count() >= 1);
        // The folder runs go to is now a file: the next run fails.
        builder.tallies.dir = Some(dir.join("not-a-folder"));
        std::fs::write(dir.join("not-a-folder"), "").unwrap();
        let e = builder.add(&games[1]).unwrap_err();
        assert!(matches!(e, BuildError::Spill(_)), "{e}");
        assert!(
            e.to_string().starts_with("cannot write the sorted run "),
            "{e}"
        );
        drop(builder);
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["not-a-folder"]);
        let _ = std::fs::remove_dir_all(dir);
    }
}
