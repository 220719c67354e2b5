//! Counting the inputs' games into a YaneuraOu book (`book build`): each
//! game replayed and counted on a worker, the counts gathered in input
//! order (in sorted runs on disk past a memory bound), the book written
//! whole beside its name and put in place, or not at all.

use super::Reading;
use crate::batch::job::{Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::output::InputRoots;
use crate::batch::plan::Plan;
use crate::book::file::{self, BookFormat};
use crate::book::{build, convert, db2016};
use crate::record::Record;
use crate::training::filter::{Filter, Rejection};
use crate::training::uniq::SeenGames;
use crate::training::Game;
use crate::{Move, Position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Counts every input's games into the book `output`.
#[derive(Clone, Debug)]
pub struct BookJob {
    /// The book to write.
    pub output: std::path::PathBuf,
    /// How inputs are read (the mainline only unless the options count
    /// variations).
    pub reading: Reading,
    /// Which positions and moves go in.
    pub options: build::Options,
    /// Moves played fewer times are left out.
    pub min_count: u64,
    /// Replace the book if it exists.
    pub force: bool,
    /// The memory the counts may take before they go to sorted runs on
    /// disk, in bytes.
    pub memory: usize,
    /// Which games are counted; `None` counts every game.
    pub filter: Option<Filter>,
    /// Count a game whose start and moves repeat an earlier one only once.
    pub uniq: bool,
    /// The book's file format.
    pub format: BookFormat,
    /// A text book's lines end in CRLF, as YaneuraOu writes them.
    pub crlf: bool,
}

impl BookJob {
    /// A job that only writes a book to `output`, for the tools that read
    /// books rather than records (merge, sort, convert, peta-shock).
    pub fn writing(output: PathBuf, force: bool, format: BookFormat) -> BookJob {
        BookJob {
            format,
            crlf: false,
            output,
            reading: Reading::default(),
            options: build::Options::default(),
            min_count: 0,
            force,
            memory: 0,
            filter: None,
            uniq: false,
        }
    }
}

/// One game's share of a book, made on a worker thread.
#[derive(Debug)]
pub enum BookGame {
    /// Its moves, counted; its start and mainline when repeats are to be
    /// found.
    Counted {
        /// The game's positions and moves.
        counted: build::Counted,
        /// Its start and mainline, to find repeats.
        game: Option<Box<(Position, Vec<Move>)>>,
    },
    /// Left out by a filter.
    Rejected(Rejection),
}

impl BookGame {
    /// `record`'s share: filtered (the filters replay it), then counted.
    pub fn of(record: &Record, job: &BookJob) -> Result<BookGame, String> {
        if let Some(filter) = &job.filter {
            let game = Game::of_read(record).map_err(|e| e.to_string())?;
            if let Err(why) = filter.admit(&game) {
                return Ok(BookGame::Rejected(why));
            }
        }
        // The records come from a reader: their moves were checked.
        let counted = build::count_read(record, &job.options).map_err(|e| e.to_string())?;
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
        let dir = folder_of(&job.output);
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

    /// Writes the book into place.
    pub fn finish(self, job: &BookJob) -> Result<Built, String> {
        let on_disk = self.builder.runs() > 0;
        let builder = self.builder;
        // The text is written as the runs are merged; a binary book is
        // written from that text, through runs of its own (its index is
        // sorted by other keys).
        let (positions, moves, warnings) = if job.format == BookFormat::Db2016 {
            let (positions, moves) = write_with(job, |out| builder.finish_to(job.min_count, out))?;
            (positions, moves, Vec::new())
        } else {
            let dir = folder_of(&job.output);
            let text = dir.join(format!(".kifconv-built-{}.db", std::process::id()));
            let removed = Removed(text.clone());
            let counted = std::fs::File::create_new(&removed.0).and_then(|file| {
                let mut out = std::io::BufWriter::new(file);
                let counted = builder.finish_to(job.min_count, &mut out)?;
                out.flush()?;
                Ok(counted)
            });
            let (positions, moves) =
                counted.map_err(|e| format!("cannot merge the sorted runs: {e}"))?;
            let memory = if job.memory > 0 {
                job.memory
            } else {
                usize::MAX
            };
            let warnings = write_with(job, |out| {
                let text = std::io::BufReader::new(std::fs::File::open(&removed.0)?);
                let mut text = text;
                convert::write_sorted(&mut text, job.format, out, memory, &dir)
            })?;
            (positions, moves, warnings)
        };
        Ok(Built {
            output: job.output.clone(),
            games: self.games,
            positions,
            moves,
            on_disk,
            left_out: self.left_out,
            warnings,
        })
    }
}

/// A book built.
#[derive(Clone, Debug)]
pub struct Built {
    /// The book written.
    pub output: PathBuf,
    /// The games counted, and the positions and moves written.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Moves written.
    pub moves: usize,
    /// Whether the counts went to sorted runs on disk.
    pub on_disk: bool,
    /// The games each filter left out.
    pub left_out: BTreeMap<Rejection, usize>,
    /// What the book's format could not hold, a line each.
    pub warnings: Vec<String>,
}

impl Built {
    /// `book B.db: 9 games, 120 positions, 131 moves; left out:
    /// --min-rating 3 games`.
    pub fn summary_line(&self) -> String {
        let mut line = format!(
            "book {}: {} games, {} positions, {} moves",
            self.output.display(),
            self.games,
            self.positions,
            self.moves
        );
        if self.on_disk {
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
        line
    }
}

impl Job for BookJob {
    type Part = Vec<BookGame>;
    type State = BookCounter;
    type Finished = Built;

    fn extension(&self) -> &str {
        "db"
    }

    /// The book's place is checked before any input is read.
    fn start(&self, plan: &Plan) -> Result<BookCounter, String> {
        check_output(&self.output, &plan.inputs, self.force)?;
        Ok(BookCounter::new(self))
    }

    /// Replayed, filtered and counted here, on the worker: what the batch
    /// holds in its window is the counts, not the records.
    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Vec<BookGame>, Tally) {
        let games = self.reading.read(source, bytes);
        let mut tally = games.tally;
        let mut counted = Vec::with_capacity(games.records.len());
        for (i, record) in games.records.iter().enumerate() {
            match BookGame::of(record, self) {
                Ok(game) => counted.push(game),
                Err(e) => tally
                    .errors
                    .push(Problem::said(source.name, format!("game {}: {e}", i + 1))),
            }
        }
        (counted, tally)
    }

    /// The book's own failure (a run that cannot be written) is the
    /// build's, not this input's: the run stops.
    fn take(
        &self,
        counter: &mut BookCounter,
        _: Source<'_>,
        games: Vec<BookGame>,
        _: &mut Tally,
    ) -> Result<(), String> {
        counter.take(games)
    }

    fn finish(&self, counter: BookCounter) -> Result<Built, String> {
        counter.finish(self)
    }
}

/// Whether a book may be written at `output`, checked before any input is
/// read: not over an existing file without `force`, never over one of the
/// `inputs` (the rule conversion follows, [`InputRoots::contains`]), and
/// into a folder that exists and takes files.
pub fn check_output(output: &Path, inputs: &[PathBuf], force: bool) -> Result<(), String> {
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
    let dir = &folder_of(output);
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

/// Writes a book in the job's format; says what the format could not
/// hold.
pub fn write(book: &crate::book::Book, job: &BookJob) -> Result<Vec<String>, String> {
    write_with(job, |out| file::write(book, job.format, out))
}

/// Writes a book through `fill` (which gives back what it wants said) to
/// a temporary file beside the output, then into place.
pub fn write_with<T>(
    job: &BookJob,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> Result<T, String> {
    let dir = &folder_of(&job.output);
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
            said = Some(if job.crlf && job.format == BookFormat::Db2016 {
                fill(&mut db2016::Crlf(&mut out))?
            } else {
                fill(&mut out)?
            });
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

/// The folder a book is written into, where its temporary files and runs
/// go.
pub fn folder_of(output: &Path) -> PathBuf {
    output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// A temporary file, removed when dropped.
pub struct Removed(pub PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
