//! Mining a book with engines, as book makers do: a walk from start lines
//! through the book's moves and the engines' own, each new position
//! searched and its candidate moves stored as its book moves.
//!
//! * The walk is breadth-first: positions in ply order, each line's
//!   children in the order of its book moves, so that the same start lines
//!   and the same book always give the same queue.
//! * Each position up to the largest ply that is not in the book yet is
//!   searched (`go nodes N`, MultiPV K). Each PV gives a move: its first
//!   move, the PV's second as the ponder, the value from the mover's view
//!   (a mate as the mate value less the plies to it) and the depth.
//! * The book is flip-folded: a white-to-move position is stored as its
//!   rotation, its moves rotated. A position in the book, or whose rotation
//!   is, is not searched again: its book moves are followed.
//! * A line stops at a position whose best value is beyond the eval limit.
//! * Several engines search different positions at once. Each forgets what
//!   it searched before (its hash cleared), and the walk takes the results
//!   in its own order, so the book does not depend on which engine searched
//!   what.
//! * The book is saved now and then, at the end and when the stop flag is
//!   set; a run started again on the saved book follows the same walk and
//!   searches only what is missing.

use super::check::{VALUE_MAX, VALUE_NONE};
use super::{db2016, key, Book, BookMove, Entry};
use crate::usi::{BestMove, Engine, EngineError, Limit, Search};
use crate::{Color, Move, Position};
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::Duration;

/// A line to start from: a position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The position the line starts at.
    pub start: Position,
    /// The moves played from it.
    pub moves: Vec<Move>,
}

impl Line {
    /// The starting position of a game, no moves.
    pub fn startpos() -> Line {
        Line {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }
}

/// How to mine.
#[derive(Clone, Debug)]
pub struct Options {
    /// What bounds each search.
    pub limit: Limit,
    /// How many candidate moves each search gives (MultiPV).
    pub multipv: u32,
    /// How many engines search at once.
    pub engines: usize,
    /// Positions up to this ply (a game's first position is ply 1) are
    /// searched.
    pub max_ply: u32,
    /// A line is not followed past a position whose best value is beyond
    /// ± this.
    pub eval_limit: Option<i32>,
    /// The book is saved after this many positions searched.
    pub save_every: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limit: Limit::Nodes(10_000),
            multipv: 1,
            engines: 1,
            max_ply: 16,
            eval_limit: None,
            save_every: 100,
        }
    }
}

/// A position the engine failed on: never written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The position, as the `position` command sent for it.
    pub position: String,
    /// The engine's error, with its message and transcript.
    pub error: String,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions searched and stored.
    pub searched: usize,
    /// Positions found in the book as they are (black to move).
    pub present: usize,
    /// Positions found in the book as their rotation (white to move).
    pub flips: usize,
    /// Positions reached again by another line (or as their rotation) in
    /// this run: walked once.
    pub again: usize,
    /// Positions searched for which the engine had no move (it resigned,
    /// or declared a win): not stored.
    pub no_move: usize,
    /// Positions whose best value is beyond the eval limit: their moves
    /// are not followed.
    pub cut: usize,
    /// Positions the engines failed on, each with its error.
    pub failures: Vec<Failure>,
    /// Whether the stop flag ended the run before the walk's end.
    pub interrupted: bool,
}

/// Why mining stopped before its end.
#[derive(Debug)]
pub enum MineError {
    /// A start line's move is not legal (the line's index and why).
    Line(usize, String),
    /// An engine could not be started, or refused the options.
    Start(EngineError),
    /// The book could not be saved.
    Save(std::io::Error),
}

impl std::fmt::Display for MineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MineError::Line(i, why) => write!(f, "start line {}: {why}", i + 1),
            MineError::Start(e) => e.fmt(f),
            MineError::Save(e) => write!(f, "cannot save the book: {e}"),
        }
    }
}

impl std::error::Error for MineError {}

/// Starts an engine (with the caller's command and options).
pub type Starter<'a> = dyn Fn() -> Result<Engine, EngineError> + Sync + 'a;

/// Saves the book.
pub type Saver<'a> = dyn FnMut(&Book) -> std::io::Result<()> + 'a;

/// The book at `path` to mine further (flip-folded, with a warning when
/// it was not; an empty one when there is no file), and the warnings
/// reading it gave.
pub fn open(path: &Path) -> Result<(Book, Vec<String>), String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Book::default(), Vec::new()))
        }
        Err(e) => return Err(e.to_string()),
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text at byte {} (a DB2016 book is text)",
            e.utf8_error().valid_up_to()
        )
    })?;
    let read = super::check::read(&text).map_err(|e| e.to_string())?;
    let mut warnings: Vec<String> = read.warnings.iter().map(|w| w.to_string()).collect();
    let mut book = read.book;
    let (rotated, _) = book.fold_flips();
    if rotated > 0 {
        warnings.push(format!(
            "{rotated} white-to-move positions stored as their rotations (a mined book is flip-folded)"
        ));
    }
    let no_ply = book.give_plies();
    if no_ply > 0 {
        warnings.push(format!("{no_ply} positions had no ply; given ply 1"));
    }
    Ok((book, warnings))
}

/// Writes `book` as DB2016 text to `path` atomically: a temporary file in
/// the same folder, flushed to disk, then renamed over `path`.
pub fn save(book: &Book, path: &Path) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "book".into(), |n| n.to_string_lossy().into_owned());
    let temporary = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(db2016::write(book).as_bytes())?;
        file.sync_all()
    });
    let renamed = written.and_then(|()| std::fs::rename(&temporary, path));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    renamed
}

/// Where an item of the walk is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// In the book: its moves are followed.
    Present,
    /// To be searched.
    Waiting,
    /// Given to an engine.
    Sent,
    /// Searched (stored, or not for a failure).
    Done,
}

/// A position of the walk: how it was reached and what is known of it.
struct Item {
    /// The start line it comes from.
    line: usize,
    /// The item it was reached from, and the move, for all but a line's
    /// own position.
    parent: Option<(usize, Move)>,
    /// The position, until its moves are followed.
    position: Option<Position>,
    state: State,
}

/// A search to make.
struct Job {
    index: usize,
    start: Position,
    moves: Vec<Move>,
}

/// A search made: `None` when the stop flag was set before it began.
struct Searched {
    index: usize,
    result: Option<Result<Search, EngineError>>,
}

/// The key a position is stored under in a flip-folded book, and whether
/// it is the rotation's.
fn folded(pos: &Position) -> (String, bool) {
    match pos.side_to_move() {
        Color::Black => (key(pos), false),
        Color::White => (key(&pos.flip()), true),
    }
}

/// The `position` command for `start` and `moves`, as the engine was sent
/// it.
fn command(start: &Position, moves: &[Move]) -> String {
    let mut text = if start.is_startpos() {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", start.sfen())
    };
    if !moves.is_empty() {
        text.push_str(" moves");
        for mv in moves {
            text.push(' ');
            text.push_str(&mv.to_string());
        }
    }
    text
}

/// A search's candidates as book moves, from the mover's view: each PV's
/// first move, its second as the ponder, its value (a mate as the mate
/// value less its plies; no score as [`VALUE_NONE`]) and depth, counted
/// once. With no PV, the best move alone, its value unknown.
pub fn candidates(search: &Search) -> Vec<BookMove> {
    let mut moves: Vec<BookMove> = Vec::new();
    for pv in &search.pvs {
        let Some(first) = pv.moves.first() else {
            continue;
        };
        let mv = first.to_string();
        if moves.iter().any(|m| m.mv == mv) {
            continue;
        }
        let value = pv.score.map_or(VALUE_NONE, |s| {
            s.to_cp(VALUE_MAX).clamp(-VALUE_MAX, VALUE_MAX)
        });
        moves.push(BookMove {
            mv,
            ponder: pv.moves.get(1).map(Move::to_string),
            value,
            depth: pv.depth.unwrap_or(0),
            count: 1,
        });
    }
    if moves.is_empty() {
        if let BestMove::Move(mv) = search.best {
            moves.push(BookMove {
                mv: mv.to_string(),
                ponder: search.ponder.map(|p| p.to_string()),
                value: VALUE_NONE,
                depth: 0,
                count: 1,
            });
        }
    }
    moves
}

/// The best value of an entry's moves, leaving out unknown ones.
fn best_value(entry: &Entry) -> Option<i32> {
    entry
        .moves
        .iter()
        .map(|m| m.value)
        .filter(|&v| v != VALUE_NONE)
        .max()
}

/// One engine's loop: takes jobs until there are none, forgetting before
/// each search; after a failure the engine is ended and another started
/// for the next job.
fn work(
    mut engine: Option<Engine>,
    start: &Starter,
    options: &Options,
    stop: &AtomicBool,
    jobs: &Mutex<Receiver<Job>>,
    done: Sender<Searched>,
) {
    loop {
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        let result = if stop.load(Ordering::SeqCst) {
            None
        } else {
            let searched = match engine.take() {
                Some(e) => Ok(e),
                None => started(start, options),
            }
            .and_then(|mut e| {
                let searched = e
                    .forget()
                    .and_then(|()| e.search(&job.start, &job.moves, &options.limit));
                // After a failure the engine is ended (dropped here).
                if searched.is_ok() {
                    engine = Some(e);
                }
                searched
            });
            Some(searched)
        };
        if done
            .send(Searched {
                index: job.index,
                result,
            })
            .is_err()
        {
            return;
        }
    }
}

/// An engine started, MultiPV set when it has the option (and required
/// when more than one candidate is asked for).
fn started(start: &Starter, options: &Options) -> Result<Engine, EngineError> {
    let mut engine = start()?;
    let has = engine
        .options()
        .iter()
        .any(|o| o.name.eq_ignore_ascii_case("MultiPV"));
    if has || options.multipv > 1 {
        engine.set_option("MultiPV", &options.multipv.to_string())?;
        engine.ready()?;
    }
    Ok(engine)
}

/// The walk, its queue and its counts.
struct Walk<'a> {
    book: &'a mut Book,
    lines: &'a [Line],
    options: &'a Options,
    items: Vec<Item>,
    /// Every position's flip-folded key put in the queue.
    seen: HashSet<String>,
    summary: Summary,
    since_save: usize,
}

impl Walk<'_> {
    /// Puts a position in the queue, unless it is past the largest ply or
    /// already in it.
    fn enqueue(&mut self, line: usize, parent: Option<(usize, Move)>, position: Position) {
        if position.move_number() > self.options.max_ply {
            return;
        }
        let (k, flipped) = folded(&position);
        if !self.seen.insert(k.clone()) {
            self.summary.again += 1;
            return;
        }
        let state = if self.book.entries.contains_key(&k) {
            if flipped {
                self.summary.flips += 1;
            } else {
                self.summary.present += 1;
            }
            State::Present
        } else {
            State::Waiting
        };
        self.items.push(Item {
            line,
            parent,
            position: Some(position),
            state,
        });
    }

    /// The moves from item `index`'s start line to it.
    fn path(&self, index: usize) -> (Position, Vec<Move>) {
        let mut moves = Vec::new();
        let mut at = index;
        while let Some((parent, mv)) = self.items[at].parent {
            moves.push(mv);
            at = parent;
        }
        let line = &self.lines[self.items[index].line];
        let mut all = line.moves.clone();
        all.extend(moves.into_iter().rev());
        (line.start.clone(), all)
    }

    /// Follows item `index`'s book moves (rotated back for a rotation),
    /// in the book's order, unless its best value is beyond the limit.
    fn follow(&mut self, index: usize) {
        let Some(position) = self.items[index].position.take() else {
            return;
        };
        let (k, flipped) = folded(&position);
        let Some(entry) = self.book.entries.get(&k) else {
            return;
        };
        if let (Some(limit), Some(best)) = (self.options.eval_limit, best_value(entry)) {
            if best.unsigned_abs() > limit.unsigned_abs() {
                self.summary.cut += 1;
                return;
            }
        }
        let moves: Vec<Move> = entry
            .moves
            .iter()
            .filter_map(|m| Move::from_usi(&m.mv).ok())
            .map(|m| if flipped { m.flip() } else { m })
            .collect();
        let line = self.items[index].line;
        for mv in moves {
            let mut child = position.clone();
            if child.play(mv).is_ok() {
                self.enqueue(line, Some((index, mv)), child);
            }
        }
    }

    /// Stores a search's result for item `index`.
    fn store(
        &mut self,
        index: usize,
        result: Option<Result<Search, EngineError>>,
        stop: &AtomicBool,
        save: &mut Saver,
    ) -> Result<(), MineError> {
        self.items[index].state = State::Done;
        match result {
            None => {}
            Some(Ok(search)) => {
                let moves = candidates(&search);
                if moves.is_empty() {
                    self.summary.no_move += 1;
                    return Ok(());
                }
                let position = self.items[index]
                    .position
                    .as_ref()
                    .expect("a position searched is not followed yet");
                let (k, flipped) = folded(position);
                let mut entry = Entry {
                    ply: position.move_number(),
                    moves: if flipped {
                        moves.into_iter().map(BookMove::rotated).collect()
                    } else {
                        moves
                    },
                };
                entry.sort();
                self.book.entries.insert(k, entry);
                self.summary.searched += 1;
                self.since_save += 1;
                if self.since_save >= self.options.save_every.max(1) {
                    save(self.book).map_err(MineError::Save)?;
                    self.since_save = 0;
                }
            }
            // An engine ended by the same interrupt is no failure.
            Some(Err(_)) if stop.load(Ordering::SeqCst) => {}
            Some(Err(e)) => {
                let (start, moves) = self.path(index);
                self.summary.failures.push(Failure {
                    position: command(&start, &moves),
                    error: e.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// Mines `book` from `lines` (see the module's notes): starts
/// `options.engines` engines with `start`, walks, and saves the book with
/// `save` every `options.save_every` positions searched, at the end and
/// when `stop` is set (then the searches under way end first).
pub fn mine(
    book: &mut Book,
    lines: &[Line],
    start: &Starter,
    options: &Options,
    stop: &AtomicBool,
    save: &mut Saver,
) -> Result<Summary, MineError> {
    let mut walk = Walk {
        book,
        lines,
        options,
        items: Vec::new(),
        seen: HashSet::new(),
        summary: Summary::default(),
        since_save: 0,
    };
    for (i, line) in lines.iter().enumerate() {
        let mut position = line.start.clone();
        for mv in &line.moves {
            position
                .play(*mv)
                .map_err(|e| MineError::Line(i, format!("{mv}: {e}")))?;
        }
        walk.enqueue(i, None, position);
    }
    let count = options.engines.max(1);
    let engines: Vec<Result<Engine, EngineError>> = std::thread::scope(|s| {
        let starting: Vec<_> = (0..count)
            .map(|_| s.spawn(|| started(start, options)))
            .collect();
        starting
            .into_iter()
            .map(|h| h.join().expect("starting an engine does not panic"))
            .collect()
    });
    let mut ready = Vec::with_capacity(count);
    for engine in engines {
        ready.push(engine.map_err(MineError::Start)?);
    }
    let (send_job, jobs) = mpsc::channel::<Job>();
    let jobs = Mutex::new(jobs);
    let (send_done, done) = mpsc::channel::<Searched>();
    std::thread::scope(|s| {
        for engine in ready {
            let send_done = send_done.clone();
            let jobs = &jobs;
            s.spawn(move || work(Some(engine), start, options, stop, jobs, send_done));
        }
        drop(send_done);
        let walked = walk.run(count, send_job, &done, stop, save);
        // Whatever was searched when the walk ended is kept.
        for searched in done.iter() {
            walk.store(searched.index, searched.result, stop, save)?;
        }
        walked?;
        save(walk.book).map_err(MineError::Save)
    })?;
    Ok(walk.summary)
}

impl Walk<'_> {
    /// Dispatches searches to `count` engines and follows the queue in
    /// order until it ends or `stop` is set; dropping `send_job` at the
    /// end lets the engines' loops end.
    fn run(
        &mut self,
        count: usize,
        send_job: Sender<Job>,
        done: &Receiver<Searched>,
        stop: &AtomicBool,
        save: &mut Saver,
    ) -> Result<(), MineError> {
        let (mut head, mut next, mut in_flight) = (0, 0, 0);
        loop {
            if stop.load(Ordering::SeqCst) {
                self.summary.interrupted = true;
                return Ok(());
            }
            while head < self.items.len()
                && matches!(self.items[head].state, State::Present | State::Done)
            {
                self.follow(head);
                head += 1;
            }
            while in_flight < count && next < self.items.len() {
                if self.items[next].state == State::Waiting {
                    let (start, moves) = self.path(next);
                    self.items[next].state = State::Sent;
                    let job = Job {
                        index: next,
                        start,
                        moves,
                    };
                    if send_job.send(job).is_err() {
                        return Ok(());
                    }
                    in_flight += 1;
                }
                next += 1;
            }
            if head == self.items.len() && in_flight == 0 {
                return Ok(());
            }
            match done.recv_timeout(Duration::from_millis(50)) {
                Ok(searched) => {
                    in_flight -= 1;
                    self.store(searched.index, searched.result, stop, save)?;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usi::{Bound, Pv, Score, Value};

    fn pv(multipv: u32, score: Option<Value>, depth: u32, moves: &str) -> Pv {
        Pv {
            multipv,
            score: score.map(|value| Score {
                value,
                bound: Bound::Exact,
            }),
            depth: Some(depth),
            seldepth: None,
            nodes: None,
            moves: moves
                .split_whitespace()
                .map(|m| Move::from_usi(m).unwrap())
                .collect(),
        }
    }

    fn search(pvs: Vec<Pv>) -> Search {
        Search {
            best: BestMove::Move(Move::from_usi("2g2f").unwrap()),
            ponder: Some(Move::from_usi("8c8d").unwrap()),
            pvs,
            infos: Vec::new(),
            warnings: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }

    /// Each PV gives its first move, the second as ponder, its value (a
    /// mate counted from the mate value) and depth; a repeated first move
    /// and an empty PV give none; no score is "no value".
    #[test]
    fn candidates_are_the_pvs_first_moves() {
        let mate = Value::Mate {
            plies: Some(3),
            mating: true,
        };
        let mated = Value::Mate {
            plies: Some(4),
            mating: false,
        };
        let got = candidates(&search(vec![
            pv(1, Some(mate), 9, "2g2f 8c8d 2f2e"),
            pv(2, Some(Value::Cp(-35)), 8, "7g7f"),
            pv(3, Some(Value::Cp(10)), 8, "2g2f 3c3d"),
            pv(4, None, 7, ""),
            pv(5, None, 7, "5g5f 5c5d"),
            pv(6, Some(mated), 6, "1g1f"),
        ]));
        let shown: Vec<(&str, Option<&str>, i32, u32)> = got
            .iter()
            .map(|m| (m.mv.as_str(), m.ponder.as_deref(), m.value, m.depth))
            .collect();
        assert_eq!(
            shown,
            [
                ("2g2f", Some("8c8d"), 31997, 9),
                ("7g7f", None, -35, 8),
                ("5g5f", Some("5c5d"), VALUE_NONE, 7),
                ("1g1f", None, -31996, 6),
            ]
        );
        assert!(got.iter().all(|m| m.count == 1));
        // No PV: the best move and its ponder, the value unknown.
        let alone = candidates(&search(Vec::new()));
        assert_eq!(
            (
                alone[0].mv.as_str(),
                alone[0].ponder.as_deref(),
                alone[0].value
            ),
            ("2g2f", Some("8c8d"), VALUE_NONE)
        );
        let mut resigned = search(Vec::new());
        resigned.best = BestMove::Resign;
        assert!(candidates(&resigned).is_empty());
    }

    /// A white-to-move position is keyed by its rotation; the `position`
    /// command is the one the engine is sent.
    #[test]
    fn keys_fold_and_commands_say_the_line() {
        let mut pos = Position::startpos();
        assert_eq!(folded(&pos), (key(&pos), false));
        pos.play(Move::from_usi("7g7f").unwrap()).unwrap();
        let (k, flipped) = folded(&pos);
        assert!(flipped && k.contains(" b "), "{k}");
        assert_eq!(
            command(&Position::startpos(), &[Move::from_usi("7g7f").unwrap()]),
            "position startpos moves 7g7f"
        );
        assert_eq!(command(&pos, &[]), format!("position sfen {}", pos.sfen()));
    }

    /// Saving writes the book's text in place and leaves no temporary
    /// file; saving again replaces it.
    #[test]
    fn save_replaces_the_book_atomically() {
        let dir = crate::test_util::scratch::scratch("mine-save");
        let path = dir.join("b.db");
        std::fs::write(&path, "old").unwrap();
        let mut book = Book::default();
        book.entries.insert(
            key(&Position::startpos()),
            Entry {
                ply: 1,
                moves: candidates(&search(vec![pv(1, Some(Value::Cp(5)), 3, "2g2f")])),
            },
        );
        save(&book, &path).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            db2016::write(&book)
        );
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["b.db"]);
        // A folder that does not exist: an error, nothing written.
        assert!(save(&book, &dir.join("no/such/b.db")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
