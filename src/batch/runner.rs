//! The batch runner: every input worked on worker threads, results taken
//! in input order (so outputs are the same with one thread or many),
//! files written atomically, failures reported and counted, never fatal.
//!
//! The calling thread works like the others and, between its own
//! batches, takes outcomes in order; no thread runs more than [`WINDOW`]
//! inputs ahead of the oldest outcome not yet taken, so memory stays
//! bounded however large the archive. With one job there are no workers:
//! everything runs on the calling thread.

use super::inputs::{self, Input, Item, Origin};
use super::job::{Job, Source, Tally};
use super::outcome::{InputOutcome, Observer, Problem, Status, Stop, Summary};
use super::output::{self, InputRoots, Outputs, Staged};
use super::plan::{Destination, Plan};
use super::walk::{self, Walk};
use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

/// How far the workers may run ahead of the oldest input whose outcome is
/// not yet taken: the outcomes held in memory, however large the archive.
const WINDOW: usize = 512;

/// The outcome of one walk item.
enum Outcome<P> {
    /// An input read and worked, or not. `part` is `None` when the job
    /// never saw it (it could not be read).
    Worked {
        display: String,
        relative: PathBuf,
        part: Option<P>,
        tally: Tally,
        /// With an output folder, the outputs written to temporary files
        /// (or why they could not be), for the taking thread to name.
        staged: Option<Result<Staged, String>>,
        base: Option<PathBuf>,
    },
    /// Something found and left alone, with the reason.
    Skipped { display: String, message: String },
    /// An input on disk the job reads a chunk at a time, in order.
    Stream {
        display: String,
        relative: PathBuf,
        origin: Origin,
    },
}

/// Runs `job` over the inputs of `plan`: outputs go to `out` (with
/// [`Destination::Stream`]) or to files, each input's outcome to
/// `observer` in input order. Gives the totals and what the job finished
/// with; a run that cannot go on as a whole is a [`Stop`], with nothing
/// half-written left.
pub fn run<J: Job>(
    plan: &Plan,
    job: &J,
    out: &mut dyn Write,
    observer: &mut dyn Observer,
) -> Result<(Summary, J::Finished), Stop> {
    let roots = InputRoots::new(&plan.inputs);
    let mut options = walk::Options {
        follow: plan.follow,
        hidden: plan.hidden,
        filter: plan.filter.clone(),
        exclude: None,
        limits: plan.limits,
    };
    if let Destination::Folder(dir) = &plan.destination {
        prepare_directory(dir)
            .map_err(|e| Stop::Fatal(format!("cannot write to {}: {e}", dir.display())))?;
        // The output folder is never walked into (it may be inside an
        // input folder).
        options.exclude = std::fs::metadata(dir).ok().map(|m| (m.dev(), m.ino()));
    }
    let state = job.start(plan).map_err(Stop::Fatal)?;
    let walk = Walk::new(&plan.inputs, options);
    let temp_counter = AtomicU64::new(0);
    let mut sink = Sink {
        plan,
        job,
        state,
        out: std::io::BufWriter::with_capacity(1 << 16, out),
        write_failed: None,
        outputs: Outputs::new(plan.overwrite, &roots),
        summary: Summary::default(),
        observer,
        fatal: None,
        cancelled: false,
        temp_counter: &temp_counter,
    };
    let work = |item: Item| one(item, plan, job, &temp_counter);
    let jobs = plan.jobs.max(1);
    let walk = Mutex::new(walk);
    let in_workers = jobs > 1 && in_parallel(&walk, jobs, &plan.cancel, work, |o| sink.take(o));
    if !in_workers {
        let walk = walk.into_inner().unwrap_or_else(|e| e.into_inner());
        for item in walk {
            if !sink.take(work(item)) {
                break;
            }
        }
    }
    let Sink {
        state,
        out,
        write_failed,
        summary,
        fatal,
        cancelled,
        ..
    } = sink;
    // Cancelled after the last outcome was taken: still no finish.
    if cancelled || plan.cancel.load(Ordering::Relaxed) {
        return Err(Stop::Cancelled);
    }
    if let Some(e) = fatal {
        return Err(Stop::Fatal(e));
    }
    let mut out = out;
    let write_failed = write_failed.or_else(|| out.flush().err());
    drop(out);
    // A reader that stops reading (`| head`) ends the run quietly; any
    // other failure to write (a full disk) is fatal.
    if let Some(e) = write_failed.filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe) {
        return Err(Stop::Output(e.to_string()));
    }
    let finished = job.finish(state).map_err(Stop::Fatal)?;
    Ok((summary, finished))
}

/// Takes outcomes in input order: has the job take them, places their
/// outputs, and tells the observer.
struct Sink<'a, J: Job, W: Write> {
    plan: &'a Plan,
    job: &'a J,
    state: J::State,
    out: W,
    /// Why the stream stopped taking output (a closed pipe is not an error).
    write_failed: Option<std::io::Error>,
    /// The output files named so far.
    outputs: Outputs<'a>,
    summary: Summary,
    observer: &'a mut dyn Observer,
    /// Why the job cannot go on (the run stopped there).
    fatal: Option<String>,
    /// Whether the run stopped because it was cancelled.
    cancelled: bool,
    /// Numbers the temporary files of outputs staged here.
    temp_counter: &'a AtomicU64,
}

impl<J: Job, W: Write> Sink<'_, J, W> {
    /// Takes the next outcome; false when the run cannot go on.
    fn take(&mut self, outcome: Outcome<J::Part>) -> bool {
        if self.plan.cancel.load(Ordering::Relaxed) {
            self.cancelled = true;
            return false;
        }
        match outcome {
            Outcome::Skipped { display, message } => {
                let warning = format!("{display}: warning: {message}");
                self.tell(InputOutcome {
                    path: display,
                    status: Status::Skipped,
                    games: 0,
                    moves: 0,
                    warnings: vec![warning],
                    errors: Vec::new(),
                    outputs: Vec::new(),
                });
                true
            }
            Outcome::Stream {
                display,
                relative,
                origin,
            } => self.stream(display, &relative, origin),
            Outcome::Worked {
                display,
                relative,
                part,
                mut tally,
                mut staged,
                base,
            } => {
                if let Some(part) = part {
                    let source = Source {
                        name: &display,
                        relative: &relative,
                        to_files: base.is_some(),
                    };
                    if let Err(e) = self.job.take(&mut self.state, source, part, &mut tally) {
                        self.fatal = Some(e);
                        return false;
                    }
                }
                // Outputs made in input order are staged here.
                if let Some(base) = &base {
                    if !tally.outputs.is_empty() && tally.errors.is_empty() {
                        let made = std::mem::take(&mut tally.outputs);
                        staged = Some(output::stage(base, &made, self.temp_counter));
                    }
                }
                self.conclude(display, tally, staged, base.as_deref())
            }
        }
    }

    /// Places an input's outputs (names its staged files, or writes them
    /// to the stream), then counts it and tells the observer. False when
    /// the stream stopped taking output.
    fn conclude(
        &mut self,
        display: String,
        mut tally: Tally,
        staged: Option<Result<Staged, String>>,
        base: Option<&Path>,
    ) -> bool {
        let mut written = Vec::new();
        // All or nothing: an input with a failed game places no file (the
        // drop removes what was staged).
        let staged = staged.filter(|_| tally.errors.is_empty());
        if let (Some(staged), Some(base)) = (staged, base) {
            let placed = staged.and_then(|temps| self.outputs.commit(base, temps));
            match placed {
                Ok(placed) if placed.existed => {
                    // Worked in an earlier run: neither its games nor its
                    // warnings are this run's.
                    self.tell(InputOutcome {
                        path: display,
                        status: Status::Existing,
                        games: 0,
                        moves: 0,
                        warnings: Vec::new(),
                        errors: Vec::new(),
                        outputs: Vec::new(),
                    });
                    return true;
                }
                Ok(placed) => {
                    for w in placed.warnings {
                        tally.warnings.push(format!("{display}: warning: {w}"));
                    }
                    written = placed.paths;
                }
                Err(e) => tally.errors.push(Problem::said(&display, e)),
            }
        }
        let open = base.is_some() || tally.outputs.iter().all(|bytes| self.write_out(bytes));
        let status = if tally.errors.is_empty() {
            Status::Ok
        } else if base.is_none() && tally.games > 0 {
            // The good games went to the stream; the input still failed.
            Status::Partial
        } else {
            Status::Failed
        };
        self.tell(InputOutcome {
            path: display,
            status,
            games: tally.games,
            moves: tally.moves,
            warnings: tally.warnings,
            errors: tally.errors,
            outputs: written,
        });
        open
    }

    fn tell(&mut self, outcome: InputOutcome) {
        self.summary.add(&outcome);
        self.observer.input(outcome);
    }

    /// Writes one output to the stream; false when it stopped taking
    /// output.
    fn write_out(&mut self, bytes: &[u8]) -> bool {
        if let Err(e) = self.out.write_all(bytes) {
            self.write_failed = Some(e);
            return false;
        }
        true
    }

    /// Has the job read an input a chunk at a time, its outputs going to
    /// the stream or to one staged file as they come, so memory holds a
    /// chunk whatever the input's size; then concludes it as an input read
    /// whole. False when output cannot go on.
    fn stream(&mut self, display: String, relative: &Path, origin: Origin) -> bool {
        let base = match &self.plan.destination {
            Destination::Folder(dir) => Some(output_base(dir, relative, self.job.extension())),
            Destination::Stream => None,
        };
        let failed = |e: String| Tally::failed(Problem::said(&display, e));
        let mut reader = match inputs::open(origin) {
            Ok(reader) => reader,
            Err(e) => return self.conclude(display.clone(), failed(e), None, None),
        };
        // In folder mode, one staged file written as the outputs come.
        let mut file = None;
        if let Some(base) = &base {
            match output::stage_open(base, self.temp_counter) {
                Ok(opened) => file = Some(opened),
                Err(e) => return self.conclude(display.clone(), failed(e), None, None),
            }
        }
        let source = Source {
            name: &display,
            relative,
            to_files: base.is_some(),
        };
        let (mut wrote, mut file_error) = (false, None);
        let cancel = &self.plan.cancel;
        let (out, write_failed) = (&mut self.out, &mut self.write_failed);
        let mut emit = |bytes: &[u8]| -> bool {
            if cancel.load(Ordering::Relaxed) || bytes.is_empty() {
                return !cancel.load(Ordering::Relaxed);
            }
            let done = match &mut file {
                Some((_, f)) => f.write_all(bytes).map_err(|e| file_error = Some(e)),
                None => out.write_all(bytes).map_err(|e| *write_failed = Some(e)),
            };
            wrote |= done.is_ok();
            done.is_ok()
        };
        let streamed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.job
                .stream(&mut self.state, source, &mut reader, &mut emit)
        }));
        let mut tally = match streamed {
            Ok(Ok(tally)) => tally,
            Ok(Err(e)) => {
                self.fatal = Some(e);
                return false;
            }
            Err(panic) => failed(bug(panic)),
        };
        if self.write_failed.is_some() {
            return false;
        }
        let mut staged = None;
        if let (Some((temps, f)), Some(base)) = (file, &base) {
            let flushed = f.into_inner().map_err(|e| e.into_error());
            match (flushed, file_error) {
                (Ok(_), None) if tally.errors.is_empty() && wrote => staged = Some(Ok(temps)),
                (Ok(_), None) => {}
                (Err(e), _) | (_, Some(e)) => tally
                    .errors
                    .push(Problem::said(&display, format!("{}: {e}", base.display()))),
            }
        }
        self.conclude(display, tally, staged, base.as_deref())
    }
}

/// The message of a panic caught around a job: a bug, said as one.
fn bug(panic: Box<dyn std::any::Any + Send>) -> String {
    let why = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    format!("kifconv failed on this input (a bug; please report it with the file): {why}")
}

/// Works the walk's items on `jobs` threads, this one among them, and
/// hands the outcomes to `take` on this thread, in walk order, as soon as
/// each is next in line. Every thread takes the next few items when it is
/// free (walking on under a lock, so the walk is never ahead of the work),
/// so one slow file holds up no one; no thread waits for another except at
/// the [`WINDOW`] bound. This thread works too: between its own batches
/// it takes whatever is next in line, and it only waits for the other
/// threads when the window is full or the walk is done. (With one thread
/// per core, a thread that only took outcomes would take a core from the
/// working threads at every batch.) `take` returning false, or `cancel`
/// set, stops the others after their current items. Returns false, having
/// taken nothing, when no other thread could be started.
fn in_parallel<P: Send>(
    walk: &Mutex<Walk>,
    jobs: usize,
    cancel: &AtomicBool,
    work: impl Fn(Item) -> Outcome<P> + Sync,
    mut take: impl FnMut(Outcome<P>) -> bool,
) -> bool {
    // Threads claim items several at a time and hand each batch's
    // outcomes over together: one hand-off per batch, not per file.
    const BATCH: usize = 64;
    // Batches claimed (numbered in walk order) and batches taken.
    let claimed = AtomicUsize::new(0);
    let taken = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed);
    // The next batch of the walk and its number; a batch shorter than
    // [`BATCH`] is the walk's last (an empty one may follow it).
    let claim = || {
        let mut walk = walk.lock().unwrap_or_else(|e| e.into_inner());
        let items: Vec<Item> = walk.by_ref().take(BATCH).collect();
        (claimed.fetch_add(1, Ordering::AcqRel), items)
    };
    // Whether the window has room for another batch.
    let room = || claimed.load(Ordering::Acquire) < taken.load(Ordering::Acquire) + WINDOW / BATCH;
    // A batch's items worked in turn, unless the run stops meanwhile.
    let work_all = |items: Vec<Item>| -> Vec<Outcome<P>> {
        items
            .into_iter()
            .map_while(|item| (!stopped()).then(|| work(item)))
            .collect()
    };
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Outcome<P>>)>();
    let mut others = 0;
    std::thread::scope(|scope| {
        for _ in 1..jobs {
            let sender = sender.clone();
            let (claim, room, stopped, work_all) = (&claim, &room, &stopped, &work_all);
            let worker = move || loop {
                while !room() && !stopped() {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                if stopped() {
                    break;
                }
                let (number, items) = claim();
                let last = items.len() < BATCH;
                if sender.send((number, work_all(items))).is_err() || last {
                    break;
                }
            };
            // The main thread's stack size, not the smaller default for
            // spawned threads: the JKF reader follows forks by recursion.
            let spawned = std::thread::Builder::new()
                .name("kifconv-worker".into())
                .stack_size(8 << 20)
                .spawn_scoped(scope, worker);
            others += usize::from(spawned.is_ok());
        }
        drop(sender);
        if others == 0 {
            return;
        }
        // Batches worked and not yet taken, by number; the number of the
        // next to take.
        let mut waiting = BTreeMap::new();
        let mut want = 0;
        // Takes every batch that is next in line; false when `take` said
        // stop.
        let mut take_ready = |waiting: &mut BTreeMap<usize, Vec<Outcome<P>>>, want: &mut usize| {
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
        // This thread's share: work while the walk lasts, taking what the
        // others finished in between.
        let mut walking = true;
        while walking {
            while let Ok((number, outcomes)) = receiver.try_recv() {
                waiting.insert(number, outcomes);
            }
            if !take_ready(&mut waiting, &mut want) {
                return;
            }
            if stopped() {
                // Cancelled: the next outcome taken says so.
                walking = false;
            } else if room() {
                let (number, items) = claim();
                walking = items.len() == BATCH;
                waiting.insert(number, work_all(items));
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

/// Works one walk item, and in folder mode stages its outputs (writes
/// them to temporary files; the taking thread names them, in walk order).
fn one<J: Job>(item: Item, plan: &Plan, job: &J, counter: &AtomicU64) -> Outcome<J::Part> {
    let failed = |display: String, message: String| Outcome::Worked {
        tally: Tally::failed(Problem::said(&display, message)),
        display,
        relative: PathBuf::new(),
        part: None,
        staged: None,
        base: None,
    };
    let Input {
        display,
        relative,
        origin,
    } = match item {
        Item::Input(input) => input,
        Item::Problem { display, message } => return failed(display, message),
        Item::Skipped { display, message } => return Outcome::Skipped { display, message },
    };
    let base = match &plan.destination {
        Destination::Folder(dir) => Some(output_base(dir, &relative, job.extension())),
        Destination::Stream => None,
    };
    let source = Source {
        name: &display,
        relative: &relative,
        to_files: base.is_some(),
    };
    let on_disk = matches!(origin, Origin::Stdin | Origin::File(_));
    if on_disk && job.streams(source) {
        return Outcome::Stream {
            display,
            relative,
            origin,
        };
    }
    let bytes = match inputs::read(origin, plan.limits.max_entry) {
        Ok(bytes) => bytes,
        Err(e) => return failed(display, e),
    };
    // A bug that panics fails this input, not the batch.
    let worked =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.work(source, &bytes)));
    let (part, mut tally) = match worked {
        Ok((part, tally)) => (Some(part), tally),
        Err(panic) => return failed(display, bug(panic)),
    };
    let mut staged = None;
    if let Some(base) = &base {
        // All or nothing: an input with a failed game writes no file.
        if tally.errors.is_empty() && !tally.outputs.is_empty() {
            let made = std::mem::take(&mut tally.outputs);
            staged = Some(output::stage(base, &made, counter));
        }
    }
    Outcome::Worked {
        display,
        relative,
        part,
        tally,
        staged,
        base,
    }
}

/// Where an input's first output goes: its relative path under `dir`,
/// with the job's extension.
fn output_base(dir: &Path, relative: &Path, extension: &str) -> PathBuf {
    dir.join(relative).with_extension(extension)
}

fn prepare_directory(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    // Can files be made there at all? Fail once, early, rather than once
    // per input.
    let probe = dir.join(format!(".kifconv-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}
