//! `kifconv book build` and `kifconv book query`: the opening-book jobs on
//! the library's [`crate::book`], with the batch runner reading the inputs.

use super::args::{BookBuildArgs, BookMergeArgs, BookQueryArgs, ConvertArgs};
use super::batch;
use super::output::InputRoots;
use super::tools::{self, position};
use crate::book::{build, check, db2016, query};
use crate::record::Record;
use crate::training::filter::{Filter, Rejection};
use crate::training::uniq::SeenGames;
use crate::training::Game;
use crate::{Move, Position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a book build needs beyond the inputs: where, and what goes in.
#[derive(Clone, Debug)]
pub struct BookJob {
    pub output: std::path::PathBuf,
    pub options: build::Options,
    pub min_count: u64,
    pub force: bool,
    /// The memory the counts may take before they go to sorted runs on
    /// disk, in bytes.
    pub memory: usize,
    /// Which games are counted; `None` counts every game.
    pub filter: Option<Filter>,
    /// Count a game whose start and moves repeat an earlier one only once.
    pub uniq: bool,
}

/// One game's share of a book, made on a worker thread.
#[derive(Debug)]
pub enum BookGame {
    /// Its moves, counted; its start and mainline when repeats are to be
    /// found.
    Counted {
        counted: build::Counted,
        game: Option<Box<(Position, Vec<Move>)>>,
    },
    /// Left out by a filter.
    Rejected(Rejection),
}

impl BookGame {
    /// `record`'s share: filtered (the filters replay it), then counted.
    pub fn of(record: &Record, job: &BookJob) -> Result<BookGame, String> {
        if let Some(filter) = &job.filter {
            let game = Game::of(record).map_err(|e| e.to_string())?;
            if let Err(why) = filter.admit(&game) {
                return Ok(BookGame::Rejected(why));
            }
        }
        let counted = build::count(record, &job.options).map_err(|e| e.to_string())?;
        let game = job
            .uniq
            .then(|| Box::new((record.start.clone(), record.tree.mainline_moves().collect())));
        Ok(BookGame::Counted { counted, game })
    }
}

/// The book being counted, in input order, with what was left out.
pub struct BookCounter {
    builder: build::Builder,
    seen: SeenGames,
    games: usize,
    left_out: BTreeMap<Rejection, usize>,
}

impl BookCounter {
    /// Nothing counted yet; runs go beside the book.
    pub fn new(job: &BookJob) -> BookCounter {
        let dir = job
            .output
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        BookCounter {
            builder: build::Builder::new(job.options.clone()).with_memory_limit(job.memory, dir),
            seen: SeenGames::default(),
            games: 0,
            left_out: BTreeMap::new(),
        }
    }

    /// Counts an input's games. An error is the build's, not the input's
    /// (a sorted run could not be written): the build cannot go on.
    pub fn take(&mut self, games: Vec<BookGame>) -> Result<(), String> {
        for game in games {
            let counted = match game {
                BookGame::Rejected(why) => Err(why),
                BookGame::Counted { counted, game } => {
                    if game.is_some_and(|game| !self.seen.insert(&game.0, game.1)) {
                        Err(Rejection::Repeated)
                    } else {
                        Ok(counted)
                    }
                }
            };
            match counted {
                Ok(counted) => {
                    self.builder
                        .add_counted(counted)
                        .map_err(|e| e.to_string())?;
                    self.games += 1;
                }
                Err(why) => *self.left_out.entry(why).or_default() += 1,
            }
        }
        Ok(())
    }

    /// Writes the book into place; gives the summary line:
    /// `book B.db: 9 games, 120 positions, 131 moves; left out: --min-rating 3 games`.
    pub fn finish(self, job: &BookJob) -> Result<String, String> {
        let runs = self.builder.runs();
        let builder = self.builder;
        let (positions, moves) = write_with(job, |out| builder.finish_to(job.min_count, out))?;
        let mut line = format!(
            "book {}: {} games, {positions} positions, {moves} moves",
            job.output.display(),
            self.games
        );
        if runs > 0 {
            line.push_str(" (counted in sorted runs on disk, merged)");
        }
        let left: Vec<String> = self
            .left_out
            .iter()
            .map(|(why, n)| format!("{} {n} games", why.option()))
            .collect();
        if !left.is_empty() {
            line.push_str(&format!("; left out: {}", left.join(", ")));
        }
        Ok(line)
    }
}

/// Builds the book: the inputs read by the batch runner (in input order),
/// counted, written to a temporary file beside the output and linked into
/// place, never over an existing file without --force.
pub fn build(args: BookBuildArgs) -> u8 {
    if let Err(message) = check_output(&args.output, &args.inputs, args.force) {
        eprintln!("error: {message}");
        return 2;
    }
    let job = BookJob {
        output: args.output.clone(),
        options: build::Options {
            flip_fold: args.flip_fold,
            min_ply: args.min_ply.unwrap_or(0),
            max_ply: args.max_ply,
            side: match args.side {
                super::args::BookSide::Both => build::Side::Both,
                super::args::BookSide::Black => build::Side::Black,
                super::args::BookSide::White => build::Side::White,
            },
            variations: args.variations,
        },
        min_count: args.min_count,
        force: args.force,
        memory: args.memory << 20,
        filter: None,
        uniq: args.uniq,
    };
    let mut job = job;
    if args.games.given().iter().any(|(_, given)| *given) {
        match args.games.into_filter(None) {
            Ok(filter) => job.filter = Some(filter),
            Err(message) => {
                eprintln!("error: {message}");
                return 2;
            }
        }
    }
    let mut convert =
        ConvertArgs::for_reading(args.inputs, args.jobs, args.quiet, args.glob, args.follow);
    convert.mainline = !args.variations;
    convert.report = args.report;
    match convert.into_config() {
        Ok(mut config) => {
            config.book = Some(job);
            batch::run(&config)
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

/// Whether a book may be written at `output`, checked before any input is
/// read: not over an existing file without `force`, never over one of the
/// `inputs` (the rule conversion follows, [`InputRoots::contains`]), and
/// into a folder that exists and takes files.
fn check_output(output: &Path, inputs: &[PathBuf], force: bool) -> Result<(), String> {
    if InputRoots::new(inputs).contains(output) {
        return Err(format!(
            "{}: that is one of the inputs; refused",
            output.display()
        ));
    }
    if output.exists() && !force {
        return Err(format!(
            "{} exists; give --force to replace it",
            output.display()
        ));
    }
    let dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let probe = dir.join(format!(".kifconv-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| {
            format!(
                "cannot write the book {} into the folder {}: {e}",
                output.display(),
                dir.display()
            )
        })
}

/// Writes a book.
pub fn write(book: &crate::book::Book, job: &BookJob) -> Result<(), String> {
    let text = db2016::write(book);
    write_with(job, |out| out.write_all(text.as_bytes())).map(|_| ())
}

/// Writes a book through `fill` (which gives back what it wants said) to
/// a temporary file beside the output, then into place.
pub fn write_with<T>(
    job: &BookJob,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> Result<T, String> {
    let dir = job
        .output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let temp = dir.join(format!(
        ".{}.kifconv-{}",
        job.output
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let mut said = None;
    let placed = std::fs::File::create(&temp)
        .and_then(|f| {
            let mut out = std::io::BufWriter::new(f);
            said = Some(fill(&mut out)?);
            out.into_inner().map_err(|e| e.into_error())?.sync_all()
        })
        .and_then(|()| {
            if job.force {
                std::fs::rename(&temp, &job.output)
            } else {
                // A link fails if the name was taken meanwhile: nothing is
                // replaced that was not asked for.
                std::fs::hard_link(&temp, &job.output).and_then(|()| std::fs::remove_file(&temp))
            }
        });
    match (placed, said) {
        (Ok(()), Some(said)) => Ok(said),
        (Err(e), _) => {
            let _ = std::fs::remove_file(&temp);
            Err(format!(
                "cannot write the book {}: {e}",
                job.output.display()
            ))
        }
        (Ok(()), None) => Err(format!("cannot write the book {}", job.output.display())),
    }
}

/// Prints the book's moves for a position (see [`query::lookup_file`]).
pub fn query(args: BookQueryArgs) -> u8 {
    let pos = match position(&args.position) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let answer = std::fs::File::open(&args.book).and_then(|file| {
        let len = file.metadata()?.len();
        query::lookup_file(file, len, &pos)
    });
    let answer = match answer {
        Ok(Some(answer)) => answer,
        Ok(None) => {
            if args.json {
                let value = serde_json::json!({
                    "sfen": pos.sfen(), "found": false, "moves": [],
                });
                tools::print(format!("{value}\n").as_bytes());
            }
            eprintln!("{}: not in the book (nor its rotation)", pos.sfen());
            return 1;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", args.book.display());
            return 2;
        }
    };
    let text = if args.json {
        let moves: Vec<serde_json::Value> = answer
            .moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": m.mv, "ponder": m.ponder, "value": m.value,
                    "depth": m.depth, "count": m.count,
                })
            })
            .collect();
        let value = serde_json::json!({
            "sfen": pos.sfen(), "found": true, "flipped": answer.flipped, "ply": answer.ply,
            "moves": moves,
        });
        format!("{value}\n")
    } else {
        let mut text = String::new();
        if answer.flipped {
            text.push_str("# found as its rotation; the moves are rotated back\n");
        }
        for m in &answer.moves {
            let ponder = m.ponder.as_deref().unwrap_or("none");
            text.push_str(&format!(
                "{} {ponder} {} {} {}\n",
                m.mv, m.value, m.depth, m.count
            ));
        }
        text
    };
    tools::print(text.as_bytes())
}

/// Merges books (see [`crate::book::Book::merge`]) into a new one.
pub fn merge(args: BookMergeArgs) -> u8 {
    if let Err(message) = check_output(&args.output, &args.books, args.force) {
        eprintln!("error: {message}");
        return 2;
    }
    let mut merged = crate::book::Book::default();
    for path in &args.books {
        let read = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                let text = String::from_utf8_lossy(&bytes);
                check::read(&text).map_err(|e| e.to_string())
            });
        match read {
            Ok(read) => {
                for w in &read.warnings {
                    eprintln!("{}: warning: {w}", path.display());
                }
                let held = merged.merge(read.book);
                if held > 0 {
                    eprintln!(
                        "{}: warning: {held} counts added past the largest number a count can hold; kept at that number",
                        path.display()
                    );
                }
            }
            Err(e) => {
                eprintln!("{}: error: {e}", path.display());
                return 1;
            }
        }
    }
    // Ply 0 is never written: a position no book gave a ply takes 1.
    let no_ply = merged
        .entries
        .values_mut()
        .filter(|e| e.ply == 0)
        .fold(0, |n, e| {
            e.ply = 1;
            n + 1
        });
    if no_ply > 0 {
        eprintln!("warning: {no_ply} positions had a ply in no book; written with ply 1");
    }
    let job = BookJob {
        output: args.output,
        options: build::Options::default(),
        min_count: 0,
        force: args.force,
        memory: 0,
        filter: None,
        uniq: false,
    };
    match write(&merged, &job) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
