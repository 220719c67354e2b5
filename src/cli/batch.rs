//! The batch runner: every input converted on worker threads, results taken
//! in input order (so output is the same with one thread or many), files
//! written atomically, failures reported and counted, never fatal.
//!
//! The main thread converts like the workers and, between its own
//! batches, writes outcomes in order; no thread runs more than [`WINDOW`]
//! inputs ahead of the oldest outcome not yet taken, so memory stays
//! bounded however large the archive. With one job there are no workers:
//! everything runs on the main thread.

use super::archive::Limits;
use super::args::{Config, Destination, Verbosity};
use super::convert::{convert, Converted};
use super::inputs::{self, Input, Item};
use super::output::{self, InputRoots, Outputs};
use super::report::{self, Report};
use super::walk::{self, Walk};
use crate::training::filter::Rejection;
use crate::training::select::{Counts, Selector};
use crate::training::Data;
use crate::Target;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// How far the workers may run ahead of the oldest input whose outcome is
/// not yet written: the outcomes held in memory, however large the archive.
const WINDOW: usize = 512;

/// The outcome of one walk item.
enum Outcome {
    /// An input read and converted, or not.
    Converted {
        display: String,
        relative: PathBuf,
        result: Result<Converted, String>,
        /// In folder mode, the outputs written to temporary files (or why
        /// they could not be), for the main thread to name.
        staged: Option<Result<Vec<PathBuf>, String>>,
    },
    /// Something found and left alone, with the reason.
    Skipped { display: String, message: String },
    /// A training file on disk or standard input, left for the main
    /// thread to read a chunk at a time, converting and writing each run
    /// of entries before it reads the next ([`Sink::stream`]).
    Stream {
        display: String,
        relative: PathBuf,
        origin: inputs::Origin,
        data: Data,
    },
}

/// Totals for the summary and the exit code.
#[derive(Default)]
pub struct Summary {
    pub files: usize,
    pub failed: usize,
    pub games: usize,
    pub moves: usize,
    pub warnings: usize,
    /// Things found and left alone, each with a warning (links not
    /// followed, FIFOs, archives' macOS metadata).
    pub skipped: usize,
    /// Inputs left alone because their outputs all exist
    /// (`--skip-existing`): said in one line, not one warning each.
    pub existing: usize,
}

/// Runs the conversion; returns the exit code.
pub fn run(config: &Config) -> u8 {
    if config.training.is_some()
        && config.destination == Destination::Stdout
        && std::io::stdout().is_terminal()
    {
        eprintln!(
            "error: --to {} writes binary data; redirect standard output to a file or a pipe, or give -o DIR",
            config.target.extension()
        );
        return 2;
    }
    run_to(config, std::io::stdout().lock())
}

/// [`run`] with what it would print to standard output written to `out`.
pub fn run_to(config: &Config, out: impl Write) -> u8 {
    let started = Instant::now();
    let roots = InputRoots::new(&config.inputs);
    // The report is written like a shell redirection, and never over an
    // input: refused before any work.
    if let Some(path) = config.report.as_deref().filter(|p| p.as_os_str() != "-") {
        if roots.contains(path) {
            eprintln!(
                "error: --report {}: that is one of the inputs; refused",
                path.display()
            );
            return 2;
        }
    }
    let mut options = walk::Options {
        follow: config.follow,
        hidden: config.hidden,
        filter: config.filter.clone(),
        exclude: None,
        limits: Limits {
            max_entry: config.max_input_size,
            max_total: config.max_total_size,
        },
    };
    if let Destination::Directory(dir) = &config.destination {
        if let Err(e) = prepare_directory(dir) {
            eprintln!("error: cannot write to {}: {e}", dir.display());
            return 2;
        }
        // The output folder is never walked into (it may be inside an
        // input folder).
        options.exclude = std::fs::metadata(dir).ok().map(|m| (m.dev(), m.ino()));
    }
    let walk = Walk::new(&config.inputs, options);
    let progress = progress_bar(config);
    let mut report = match config.report.as_deref().map(Report::create).transpose() {
        Ok(report) => report,
        Err(e) => {
            let path = config.report.as_deref().unwrap_or(Path::new("")).display();
            eprintln!("error: cannot write the report {path}: {e}");
            return 2;
        }
    };
    let mut summary = Summary::default();
    let temp_counter = AtomicU64::new(0);
    let mut sink = Sink {
        config,
        selector: config
            .training
            .as_ref()
            .map(|t| Selector::new(t.filter.clone(), t.repeats, t.flip_fold)),
        temp_counter: &temp_counter,
        book: config.book.as_ref().map(super::book::BookCounter::new),
        book_failed: None,
        progress: &progress,
        progress_shown: !progress.is_hidden(),
        out: std::io::BufWriter::with_capacity(1 << 16, out),
        wrote_before: false,
        write_failed: None,
        outputs: Outputs::new(config.overwrite, &roots),
        summary: &mut summary,
        report: &mut report,
    };
    let convert = |item: Item| one(item, config, &temp_counter);
    // One job (or no thread to be had): everything on this thread, with no
    // hand-offs between threads.
    let walk = Mutex::new(walk);
    let in_workers = config.jobs > 1 && in_parallel(&walk, config.jobs, convert, |o| sink.take(o));
    if !in_workers {
        let walk = walk.into_inner().unwrap_or_else(|e| e.into_inner());
        for item in walk {
            if !sink.take(convert(item)) {
                break;
            }
        }
    }
    let selected = sink.selector.map(|s| s.counts);
    if let Some(e) = sink.book_failed {
        // No book, no report, and no run left behind (the counter removes
        // its runs).
        drop(sink.book);
        progress.finish_and_clear();
        if let Some(report) = report {
            report.discard();
        }
        eprintln!("error: {e}");
        return 2;
    }
    let mut book_line = None;
    if let (Some(counter), Some(job)) = (sink.book, &config.book) {
        match counter.finish(job) {
            Ok(line) => book_line = Some(line),
            Err(e) => {
                if let Some(report) = report {
                    report.discard();
                }
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    let mut out = sink.out;
    let write_failed = sink.write_failed.or_else(|| out.flush().err());
    drop(out);
    progress.finish_and_clear();
    // A reader that stops reading (`| head`) ends the run quietly; any
    // other failure to write (a full disk) is fatal, and said.
    if let Some(e) = write_failed.filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe) {
        eprintln!("error: cannot write to standard output: {e}");
        return 2;
    }
    if let Some(report) = report {
        if let Err(e) = report.finish() {
            let path = config.report.as_deref().unwrap_or(Path::new("")).display();
            eprintln!("error: cannot write the report {path}: {e}");
            return 2;
        }
    }
    if config.verbosity != Verbosity::Quiet {
        // The run's summary, for a person watching it or asked for; the
        // job's own line (a book, training data) always.
        let seconds = started.elapsed().as_secs_f64();
        let skipped = if summary.skipped > 0 {
            format!(", {} skipped", summary.skipped)
        } else {
            String::new()
        };
        if config.verbosity == Verbosity::Verbose || std::io::stderr().is_terminal() {
            eprintln!(
            "{} files, {} games, {} moves, {} warnings, {} failed{skipped} in {:.2} s ({:.0} games/s)",
            summary.files,
            summary.games,
            summary.moves,
            summary.warnings,
            summary.failed,
            seconds,
            summary.games as f64 / seconds.max(1e-9)
        );
        }
        if summary.existing > 0 {
            eprintln!(
                "{} {} skipped: {} outputs exist already (--skip-existing)",
                summary.existing,
                if summary.existing == 1 {
                    "input"
                } else {
                    "inputs"
                },
                if summary.existing == 1 {
                    "its"
                } else {
                    "their"
                },
            );
        }
        if let Some(counts) = &selected {
            eprintln!("{}", training_summary(counts));
        }
        if let Some(line) = &book_line {
            eprintln!("{line}");
        }
    }
    if summary.failed > 0 {
        1
    } else {
        0
    }
}

/// What went into training data and what each filter left out:
/// `training data: 9 games, 1024 positions (12 without an evaluation, written as 0); left out: --min-moves 2 games (40 positions), --max-eval 13 positions cut`.
fn training_summary(c: &Counts) -> String {
    let mut out = format!(
        "training data: {} games, {} positions",
        c.games, c.positions
    );
    if c.missing_evals > 0 {
        out.push_str(&format!(
            " ({} without an evaluation, written as 0)",
            c.missing_evals
        ));
    }
    let mut left: Vec<String> = Rejection::ALL
        .iter()
        .filter_map(|r| {
            let (games, positions) = c.removed.get(r)?;
            Some(format!(
                "{} {games} games ({positions} positions)",
                r.option()
            ))
        })
        .collect();
    if c.cut > 0 {
        left.push(format!("--max-eval {} positions cut", c.cut));
    }
    if c.repeated_positions > 0 {
        left.push(format!(
            "--uniq positions {} positions",
            c.repeated_positions
        ));
    }
    if !left.is_empty() {
        out.push_str(&format!("; left out: {}", left.join(", ")));
    }
    out
}

/// Takes outcomes in input order: reports them, counts them, and writes
/// their outputs (to stdout, or by naming the staged files).
struct Sink<'a, W: Write> {
    config: &'a Config,
    progress: &'a ProgressBar,
    /// Whether the progress bar is shown: a hidden one is not counted on
    /// (its `inc` reads the clock, about 700 instructions a file).
    progress_shown: bool,
    out: W,
    /// Whether an output went to stdout already (CSA separates games by `/`).
    wrote_before: bool,
    /// Why stdout stopped taking output (a closed pipe is not an error).
    write_failed: Option<std::io::Error>,
    /// The output files named so far.
    outputs: Outputs<'a>,
    summary: &'a mut Summary,
    report: &'a mut Option<Report>,
    /// With a training-data target: the filters and what they counted.
    selector: Option<Selector>,
    /// For `book build`: the positions counted so far.
    book: Option<super::book::BookCounter>,
    /// Why the book cannot be built (the run stopped there).
    book_failed: Option<String>,
    /// Numbers the temporary files of outputs staged here.
    temp_counter: &'a AtomicU64,
}

impl<W: Write> Sink<'_, W> {
    /// Takes the next outcome; false when output cannot go on (a closed
    /// pipe ends the run quietly).
    fn take(&mut self, outcome: Outcome) -> bool {
        let (config, progress) = (self.config, self.progress);
        let (display, relative, result, staged) = match outcome {
            Outcome::Stream {
                display,
                relative,
                origin,
                data,
            } => return self.stream(display, relative, origin, data),
            Outcome::Skipped { display, message } => {
                self.summary.skipped += 1;
                self.summary.warnings += 1;
                if config.verbosity != Verbosity::Quiet {
                    progress.suspend(|| eprintln!("{display}: warning: {message}"));
                }
                self.line(report::Line {
                    path: &display,
                    status: "skipped",
                    games: 0,
                    moves: 0,
                    warnings: 1,
                    error: &message,
                    outputs: &[],
                });
                return true;
            }
            Outcome::Converted {
                display,
                relative,
                result,
                staged,
            } => (display, relative, result, staged),
        };
        let mut staged = staged;
        self.summary.files += 1;
        if self.progress_shown {
            progress.inc(1);
        }
        let mut converted = match result {
            Err(error) => {
                progress.suspend(|| eprint!("{}", ensure_newline(&error)));
                self.summary.failed += 1;
                self.line(report::Line {
                    path: &display,
                    status: "failed",
                    games: 0,
                    moves: 0,
                    warnings: 0,
                    error: first_line(&error),
                    outputs: &[],
                });
                return true;
            }
            Ok(converted) => converted,
        };
        if let Some(counter) = self.book.as_mut() {
            // The book's own failure (a run that cannot be written) is the
            // build's, not this input's: the run stops.
            if let Err(e) = counter.take(std::mem::take(&mut converted.book)) {
                self.book_failed = Some(e);
                return false;
            }
        }
        if let (Some(selector), Some(training)) = (self.selector.as_mut(), &config.training) {
            // Chosen here, in input order, so that what repeats is the later
            // game whatever the threads.
            let bytes = select_and_encode(selector, training.data, &display, 0, &mut converted);
            if !bytes.is_empty() {
                match &config.destination {
                    Destination::Stdout => converted.outputs = vec![bytes],
                    Destination::Directory(dir) if converted.errors.is_empty() => {
                        let base = output_base(dir, &relative, config);
                        staged = Some(output::stage(&base, &[bytes], self.temp_counter));
                    }
                    Destination::Directory(_) => {}
                }
            }
        }
        let mut status = if converted.errors.is_empty() {
            "ok"
        } else if config.destination == Destination::Stdout {
            // The good games were written; the input still failed.
            "partial"
        } else {
            // All or nothing: no file for an input with a failed game.
            "failed"
        };
        let mut first_error = converted.errors.first().map(|e| first_line(e).to_string());
        let mut written = Vec::new();
        if let (Some(staged), Destination::Directory(dir)) = (staged, &config.destination) {
            let base = output_base(dir, &relative, config);
            let placed = staged.and_then(|temps| self.outputs.commit(&base, &temps));
            match placed {
                Ok(placed) if placed.existed => {
                    // Converted in an earlier run: neither its games nor
                    // its warnings are this run's.
                    self.summary.existing += 1;
                    self.line(report::Line {
                        path: &display,
                        status: "skipped",
                        games: 0,
                        moves: 0,
                        warnings: 0,
                        error: "its outputs exist (--skip-existing)",
                        outputs: &[],
                    });
                    return true;
                }
                Ok(placed) => {
                    for w in placed.warnings {
                        converted.warnings.push(format!("{display}: warning: {w}"));
                    }
                    written = placed.paths;
                }
                Err(e) => {
                    let e = format!("{display}: error: {e}");
                    converted.errors.push(e.clone());
                    status = "failed";
                    first_error.get_or_insert(e);
                }
            }
        }
        self.summary.games += converted.games;
        self.summary.moves += converted.moves;
        self.summary.warnings += converted.warnings.len();
        // The bar is cleared and redrawn only when there is something to
        // say.
        if config.verbosity != Verbosity::Quiet && !converted.warnings.is_empty() {
            progress.suspend(|| {
                for w in &converted.warnings {
                    eprintln!("{w}");
                }
            });
        }
        if !converted.errors.is_empty() {
            progress.suspend(|| {
                for e in &converted.errors {
                    eprint!("{}", ensure_newline(e));
                }
            });
        }
        if status != "ok" {
            self.summary.failed += 1;
        }
        let open = config.destination != Destination::Stdout
            || converted.outputs.iter().all(|bytes| self.write_out(bytes));
        self.line(report::Line {
            path: &display,
            status,
            games: converted.games,
            moves: converted.moves,
            warnings: converted.warnings.len(),
            error: first_error.as_deref().unwrap_or(""),
            outputs: &written,
        });
        open
    }

    /// Writes one output to standard output (CSA's games separated by
    /// `/`); false when it stopped taking output.
    fn write_out(&mut self, bytes: &[u8]) -> bool {
        let written = if self.wrote_before && self.config.target == Target::Csa {
            self.out.write_all(b"/\n")
        } else {
            Ok(())
        };
        if let Err(e) = written.and_then(|()| self.out.write_all(bytes)) {
            self.write_failed = Some(e);
            return false;
        }
        self.wrote_before = true;
        true
    }

    /// Reads a training file a run of entries at a time ([`STREAM_RUN`]),
    /// converting each run and writing it (to standard output, or to the
    /// input's staged output file) before reading the next, so memory
    /// holds a run whatever the file's size; the input is then reported
    /// and counted once, as [`Sink::take`] does for an input read whole.
    /// False when output cannot go on.
    fn stream(
        &mut self,
        display: String,
        relative: PathBuf,
        origin: inputs::Origin,
        data: Data,
    ) -> bool {
        let (config, progress) = (self.config, self.progress);
        let failed = |result| Outcome::Converted {
            display: display.clone(),
            relative: relative.clone(),
            result: Err(result),
            staged: None,
        };
        let reader = match inputs::open(origin) {
            Ok(reader) => reader,
            Err(e) => return self.take(failed(format!("{display}: error: {e}\n"))),
        };
        let base = match &config.destination {
            Destination::Directory(dir) => Some(output_base(dir, &relative, config)),
            Destination::Stdout => None,
        };
        // In folder mode, one staged file written as the runs come.
        let mut file = None;
        if let Some(base) = &base {
            let staged = output::stage(base, &[Vec::new()], self.temp_counter).and_then(|temps| {
                let opened = std::fs::OpenOptions::new().append(true).open(&temps[0]);
                match opened {
                    Ok(f) => Ok((temps, std::io::BufWriter::new(f))),
                    Err(e) => {
                        output::discard(&temps);
                        Err(format!("{}: {e}", base.display()))
                    }
                }
            });
            match staged {
                Ok(staged) => file = Some(staged),
                Err(e) => return self.take(failed(format!("{display}: error: {e}\n"))),
            }
        }
        self.summary.files += 1;
        if self.progress_shown {
            progress.inc(1);
        }
        let (mut games, mut moves, mut warnings, mut errors) = (0, 0, 0, 0);
        let mut first_error = None;
        let mut said = std::collections::HashSet::new();
        let mut entries = data.records(reader);
        let mut open = true;
        // Whether any bytes went to the staged file: an input that gives
        // none writes no file, as one read whole does not.
        let mut wrote = false;
        loop {
            let read = crate::read::read_training_from(entries.by_ref().take(STREAM_RUN));
            if read.records.is_empty() && read.errors.is_empty() {
                break;
            }
            let converted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                super::convert::convert_read(read, &display, config, true, games)
            }));
            let mut converted = match converted {
                Ok(Ok(converted)) => converted,
                Ok(Err(e)) => Converted {
                    errors: vec![e],
                    ..Converted::default()
                },
                Err(_) => Converted {
                    errors: vec![format!("{display}: error: kifconv failed on this input (a bug; please report it with the file)\n")],
                    ..Converted::default()
                },
            };
            let mut outputs = std::mem::take(&mut converted.outputs);
            if let (Some(selector), Some(training)) = (self.selector.as_mut(), &config.training) {
                outputs = vec![select_and_encode(
                    selector,
                    training.data,
                    &display,
                    games,
                    &mut converted,
                )];
            }
            games += converted.games;
            moves += converted.moves;
            // A warning about the input as a whole comes with every run:
            // said once.
            converted.warnings.retain(|w| said.insert(w.clone()));
            warnings += converted.warnings.len();
            if config.verbosity != Verbosity::Quiet && !converted.warnings.is_empty() {
                progress.suspend(|| converted.warnings.iter().for_each(|w| eprintln!("{w}")));
            }
            if !converted.errors.is_empty() {
                progress.suspend(|| {
                    converted
                        .errors
                        .iter()
                        .for_each(|e| eprint!("{}", ensure_newline(e)))
                });
                first_error.get_or_insert_with(|| first_line(&converted.errors[0]).to_string());
                errors += converted.errors.len();
            }
            for bytes in outputs.iter().filter(|b| !b.is_empty()) {
                open = match &mut file {
                    Some((_, f)) => match f.write_all(bytes) {
                        Ok(()) => {
                            wrote = true;
                            true
                        }
                        Err(e) => {
                            let e = format!(
                                "{display}: error: {}: {e}",
                                base.as_deref().unwrap_or(Path::new("")).display()
                            );
                            progress.suspend(|| eprintln!("{e}"));
                            first_error.get_or_insert(e);
                            errors += 1;
                            break;
                        }
                    },
                    None => self.write_out(bytes),
                };
                if !open {
                    break;
                }
            }
            if !open || (file.is_some() && errors > 0) {
                break;
            }
        }
        let mut status = match (errors, &config.destination) {
            (0, _) => "ok",
            (_, Destination::Stdout) => "partial",
            (_, Destination::Directory(_)) => "failed",
        };
        let mut written = Vec::new();
        if let (Some((temps, f)), Some(base)) = (file, &base) {
            let flushed = f.into_inner().map_err(|e| e.into_error().to_string());
            match flushed {
                Ok(_) if errors == 0 && wrote => match self.outputs.commit(base, &temps) {
                    Ok(placed) if placed.existed => {
                        self.summary.existing += 1;
                        status = "skipped";
                        (games, moves, warnings) = (0, 0, 0);
                    }
                    Ok(placed) => {
                        for w in placed.warnings {
                            progress.suspend(|| eprintln!("{display}: warning: {w}"));
                            warnings += 1;
                        }
                        written = placed.paths;
                    }
                    Err(e) => {
                        let e = format!("{display}: error: {e}");
                        progress.suspend(|| eprintln!("{e}"));
                        first_error.get_or_insert(e);
                        status = "failed";
                    }
                },
                Ok(_) => output::discard(&temps),
                Err(e) => {
                    output::discard(&temps);
                    let e = format!("{display}: error: {}: {e}", base.display());
                    progress.suspend(|| eprintln!("{e}"));
                    first_error.get_or_insert(e);
                    status = "failed";
                }
            }
        }
        self.summary.games += games;
        self.summary.moves += moves;
        self.summary.warnings += warnings;
        if status != "ok" && status != "skipped" {
            self.summary.failed += 1;
        }
        self.line(report::Line {
            path: &display,
            status,
            games,
            moves,
            warnings,
            error: first_error.as_deref().unwrap_or(""),
            outputs: &written,
        });
        open
    }

    fn line(&mut self, line: report::Line) {
        if let Some(report) = self.report.as_mut() {
            report.line(line);
        }
    }
}

/// Converts the walk's items on `jobs` threads, this one among them, and
/// hands the outcomes to `take` on this thread, in walk order, as soon as
/// each is next in line. Every thread takes the next few items when it is
/// free (walking on under a lock, so the walk is never ahead of the work),
/// so one slow file holds up no one; no thread waits for another except at
/// the [`WINDOW`] bound. This thread converts too: between its own batches
/// it takes whatever is next in line, and it only waits for the other
/// threads when the window is full or the walk is done. (With one thread
/// per core, a thread that only took outcomes would take a core from the
/// converting threads at every batch: `-j 2` on two cores was measured at
/// 1.6–1.8× `-j 1` that way.) `take` returning false stops the others
/// after their current items. Returns false, having taken nothing, when no
/// other thread could be started.
fn in_parallel(
    walk: &Mutex<Walk>,
    jobs: usize,
    convert: impl Fn(Item) -> Outcome + Sync,
    mut take: impl FnMut(Outcome) -> bool,
) -> bool {
    // Threads claim items several at a time and hand each batch's
    // outcomes over together: one hand-off per batch, not per file.
    const BATCH: usize = 64;
    // Batches claimed (numbered in walk order) and batches taken.
    let claimed = AtomicUsize::new(0);
    let taken = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // The next batch of the walk and its number; a batch shorter than
    // [`BATCH`] is the walk's last (an empty one may follow it).
    let claim = || {
        let mut walk = walk.lock().unwrap_or_else(|e| e.into_inner());
        let items: Vec<Item> = walk.by_ref().take(BATCH).collect();
        (claimed.fetch_add(1, Ordering::AcqRel), items)
    };
    // Whether the window has room for another batch.
    let room = || claimed.load(Ordering::Acquire) < taken.load(Ordering::Acquire) + WINDOW / BATCH;
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Outcome>)>();
    let mut others = 0;
    std::thread::scope(|scope| {
        for _ in 1..jobs {
            let sender = sender.clone();
            let (claim, room, stop, convert) = (&claim, &room, &stop, &convert);
            let work = move || loop {
                while !room() && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let (number, items) = claim();
                let last = items.len() < BATCH;
                let outcomes = items.into_iter().map(convert).collect();
                if sender.send((number, outcomes)).is_err() || last {
                    break;
                }
            };
            // The main thread's stack size, not the smaller default for
            // spawned threads: the JKF reader follows forks by recursion.
            let spawned = std::thread::Builder::new()
                .name("kifconv-worker".into())
                .stack_size(8 << 20)
                .spawn_scoped(scope, work);
            others += usize::from(spawned.is_ok());
        }
        drop(sender);
        if others == 0 {
            return;
        }
        // Batches converted and not yet taken, by number; the number of
        // the next to take.
        let mut waiting = BTreeMap::new();
        let mut want = 0;
        // Takes every batch that is next in line; false when `take` said stop.
        let mut take_ready = |waiting: &mut BTreeMap<usize, Vec<Outcome>>, want: &mut usize| {
            while let Some(outcomes) = waiting.remove(want) {
                *want += 1;
                for outcome in outcomes {
                    if !take(outcome) {
                        stop.store(true, Ordering::Relaxed);
                        return false;
                    }
                }
                taken.store(*want, Ordering::Release);
            }
            true
        };
        // This thread's share: convert while the walk lasts, taking what
        // the others finished in between.
        let mut walking = true;
        while walking {
            while let Ok((number, outcomes)) = receiver.try_recv() {
                waiting.insert(number, outcomes);
            }
            if !take_ready(&mut waiting, &mut want) {
                return;
            }
            if room() {
                let (number, items) = claim();
                walking = items.len() == BATCH;
                waiting.insert(number, items.into_iter().map(&convert).collect());
            } else {
                // The window is full: what is next in line is another
                // thread's, so wait for one of theirs.
                match receiver.recv() {
                    Ok((number, outcomes)) => {
                        waiting.insert(number, outcomes);
                    }
                    Err(_) => break,
                }
            }
        }
        // The walk is done: take the others' last batches.
        if !take_ready(&mut waiting, &mut want) {
            return;
        }
        for (number, outcomes) in receiver {
            waiting.insert(number, outcomes);
            if !take_ready(&mut waiting, &mut want) {
                return;
            }
        }
    });
    others > 0
}

/// Converts one walk item, and in folder mode stages its outputs (writes
/// them to temporary files; the main thread names them, in walk order).
fn one(item: Item, config: &Config, counter: &AtomicU64) -> Outcome {
    let input = match item {
        Item::Input(input) => input,
        Item::Problem { display, message } => {
            return Outcome::Converted {
                result: Err(format!("{display}: error: {message}\n")),
                display,
                relative: PathBuf::new(),
                staged: None,
            }
        }
        Item::Skipped { display, message } => return Outcome::Skipped { display, message },
    };
    let Input {
        display,
        relative,
        origin,
    } = input;
    if let Some(data) = streamed(config, &relative, &origin) {
        return Outcome::Stream {
            display,
            relative,
            origin,
            data,
        };
    }
    let result = inputs::read(origin, config.max_input_size)
        .map_err(|e| format!("{display}: error: {e}\n"))
        .and_then(|bytes| {
            // A bug that panics fails this input, not the batch.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                convert(&bytes, &display, &relative, config)
            }))
            .unwrap_or_else(|panic| {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(format!(
                    "{display}: error: kifconv failed on this input (a bug; please report it with the file): {why}\n"
                ))
            })
        });
    let mut staged = None;
    if let (Ok(converted), Destination::Directory(dir)) = (&result, &config.destination) {
        // All or nothing: an input with a failed game writes no file.
        if converted.errors.is_empty() && !converted.outputs.is_empty() {
            let base = output_base(dir, &relative, config);
            staged = Some(output::stage(&base, &converted.outputs, counter));
        }
    }
    Outcome::Converted {
        display,
        relative,
        result,
        staged,
    }
}

/// The training data of an input's games that the filters keep, chosen
/// here, in input order, so that what repeats is the later game whatever
/// the threads; a game that cannot be encoded is an error of the input,
/// and what the target cannot hold a warning.
/// `first` is how many games of the input came before these.
fn select_and_encode(
    selector: &mut Selector,
    data: Data,
    display: &str,
    first: usize,
    converted: &mut Converted,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (i, game) in std::mem::take(&mut converted.training)
        .into_iter()
        .enumerate()
    {
        let Some(game) = selector.take(game) else {
            continue;
        };
        if let Some(loss) = data.loss(&game) {
            converted.warnings.push(format!(
                "{display}: warning: game {}: {loss}",
                first + i + 1
            ));
        }
        match data.encode(&game) {
            Ok(b) => bytes.extend_from_slice(&b),
            Err(e) => converted.errors.push(format!("{display}: error: {e}\n")),
        }
    }
    bytes
}

/// How many entries (hcpe3: games) of a training file are read, converted
/// and written at a time.
const STREAM_RUN: usize = 1024;

/// The kind of training data an input is, when it is read a chunk at a
/// time ([`Sink::stream`]): a training file on disk or standard input,
/// converted to standard output or to one file of the input's (not one
/// file a game, as KIF and KI2 are, nor JKF's one pretty document), and not
/// counted into a book. A training file inside an archive is read whole
/// (its entry is inflated into memory, within `--max-input-size`).
fn streamed(config: &Config, relative: &Path, origin: &inputs::Origin) -> Option<Data> {
    let on_disk = matches!(
        origin,
        inputs::Origin::Stdin | inputs::Origin::File(_) | inputs::Origin::InFolder { .. }
    );
    let one_file = config.destination == Destination::Stdout
        || !matches!(
            config.target,
            Target::Kif | Target::Kifu | Target::Ki2 | Target::Ki2u | Target::Jkf
        );
    if !on_disk || !one_file || config.book.is_some() {
        return None;
    }
    super::convert::training_input(config, relative)
}

/// Where an input's first output goes: its relative path under `dir`,
/// with the target's extension.
fn output_base(dir: &Path, relative: &Path, config: &Config) -> PathBuf {
    dir.join(relative).with_extension(config.target.extension())
}

fn prepare_directory(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    // Can files be made there at all? Fail once, early, rather than once
    // per input.
    let probe = dir.join(format!(".kifconv-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// The progress line on a terminal: files done, the rate, the time taken.
/// The walk is lazy, so there is no total. It redraws at most ten times a
/// second whatever the file count.
fn progress_bar(config: &Config) -> ProgressBar {
    let show = config.verbosity != Verbosity::Quiet && std::io::stderr().is_terminal();
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {human_pos} files  {rate}  {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let rate = state.per_sec();
                    let _ = if rate >= 100.0 {
                        write!(w, "{rate:.0} files/s")
                    } else {
                        write!(w, "{rate:.1} files/s")
                    };
                },
            ),
    );
    bar
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn ensure_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}
