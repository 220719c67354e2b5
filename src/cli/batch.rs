//! The batch runner: every input converted on worker threads, results taken
//! in input order (so output is the same with one thread or many), files
//! written atomically, failures reported and counted, never fatal.
//!
//! The main thread writes outcomes while the workers convert; workers run
//! at most [`WINDOW`] inputs ahead of the oldest outcome not yet taken, so
//! memory stays bounded however large the archive. With one job there are
//! no workers: everything runs on the main thread.

use super::args::{Config, Destination, Overwrite, Target, Verbosity};
use super::convert::{convert, Converted};
use super::inputs::{self, Input};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// How far the workers may run ahead of the oldest input whose outcome is
/// not yet written: the outcomes held in memory, however large the archive.
const WINDOW: usize = 512;

/// The outcome of one input.
struct Outcome {
    display: String,
    result: Result<Converted, String>,
    /// Problems writing its outputs.
    write_error: Option<String>,
}

/// Totals for the summary and the exit code.
#[derive(Default)]
pub struct Summary {
    pub files: usize,
    pub failed: usize,
    pub games: usize,
    pub moves: usize,
    pub warnings: usize,
}

/// Runs the conversion; returns the exit code.
pub fn run(config: &Config) -> u8 {
    let started = Instant::now();
    let (inputs, problems) = inputs::expand(&config.inputs);
    if let Destination::Directory(dir) = &config.destination {
        if let Err(e) = prepare_directory(dir) {
            eprintln!("error: cannot write to {}: {e}", dir.display());
            return 2;
        }
    }
    // Only outputs written into a folder could overwrite an input.
    let input_files: HashSet<PathBuf> = match config.destination {
        Destination::Stdout => HashSet::new(),
        Destination::Directory(_) => inputs
            .iter()
            .filter_map(|i| match &i.origin {
                inputs::Origin::File(p) => std::fs::canonicalize(p).ok(),
                _ => None,
            })
            .collect(),
    };
    let progress = progress_bar(config, inputs.len() as u64);
    let mut report = Vec::new();
    let mut summary = Summary::default();
    for (display, problem) in &problems {
        eprintln!("{display}: error: {problem}");
        summary.files += 1;
        summary.failed += 1;
        report.push(report_line(display, "failed", 0, 0, 0, problem));
    }
    let stdout = std::io::stdout();
    let mut sink = Sink {
        config,
        progress: &progress,
        out: std::io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        wrote_before: false,
        write_failed: None,
        summary: &mut summary,
        report: &mut report,
    };
    let temp_counter = AtomicU64::new(0);
    let convert = |input: &Input| one(input, config, &input_files, &temp_counter);
    // One job (or no thread to be had): everything on this thread, with no
    // hand-offs between threads.
    let in_workers =
        config.jobs > 1 && in_parallel(&inputs, config.jobs, convert, |o| sink.take(o));
    if !in_workers {
        for input in &inputs {
            if !sink.take(convert(input)) {
                break;
            }
        }
    }
    let mut out = sink.out;
    let write_failed = sink.write_failed.or_else(|| out.flush().err());
    progress.finish_and_clear();
    // A reader that stops reading (`| head`) ends the run quietly; any
    // other failure to write (a full disk) is fatal, and said.
    if let Some(e) = write_failed.filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe) {
        eprintln!("error: cannot write to standard output: {e}");
        return 2;
    }
    if let Some(path) = &config.report {
        let mut text = String::from("path\tstatus\tgames\tmoves\twarnings\tfirst_error\n");
        for line in &report {
            text.push_str(line);
        }
        if let Err(e) = write_atomic(
            path,
            text.as_bytes(),
            Overwrite::Replace,
            &HashSet::new(),
            &temp_counter,
        ) {
            eprintln!("error: cannot write the report {}: {e}", path.display());
            return 2;
        }
    }
    if config.verbosity == Verbosity::Normal {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "{} files, {} games, {} moves, {} warnings, {} failed in {:.2} s ({:.0} games/s)",
            summary.files,
            summary.games,
            summary.moves,
            summary.warnings,
            summary.failed,
            seconds,
            summary.games as f64 / seconds.max(1e-9)
        );
    }
    if summary.failed > 0 {
        1
    } else {
        0
    }
}

/// Takes outcomes in input order: reports them, counts them, and in stdout
/// mode writes their outputs.
struct Sink<'a, W: Write> {
    config: &'a Config,
    progress: &'a ProgressBar,
    out: W,
    /// Whether an output went to stdout already (CSA separates games by `/`).
    wrote_before: bool,
    /// Why stdout stopped taking output (a closed pipe is not an error).
    write_failed: Option<std::io::Error>,
    summary: &'a mut Summary,
    report: &'a mut Vec<String>,
}

impl<W: Write> Sink<'_, W> {
    /// Takes the next outcome; false when output cannot go on (a closed
    /// pipe ends the run quietly).
    fn take(&mut self, outcome: Outcome) -> bool {
        let (config, progress) = (self.config, self.progress);
        self.summary.files += 1;
        progress.inc(1);
        let converted = match outcome.result {
            Err(error) => {
                progress.suspend(|| eprint!("{}", ensure_newline(&error)));
                self.summary.failed += 1;
                self.report.push(report_line(
                    &outcome.display,
                    "failed",
                    0,
                    0,
                    0,
                    first_line(&error),
                ));
                return true;
            }
            Ok(converted) => converted,
        };
        self.summary.games += converted.games;
        self.summary.moves += converted.moves;
        self.summary.warnings += converted.warnings.len();
        if config.verbosity == Verbosity::Normal {
            progress.suspend(|| {
                for w in &converted.warnings {
                    eprintln!("{w}");
                }
            });
        }
        for e in &converted.errors {
            progress.suspend(|| eprint!("{}", ensure_newline(e)));
        }
        let mut status = if converted.errors.is_empty() {
            "ok"
        } else {
            "partial"
        };
        let mut first_error = converted.errors.first().map(|e| first_line(e).to_string());
        if let Some(e) = &outcome.write_error {
            progress.suspend(|| eprintln!("{}: error: {e}", outcome.display));
            status = "failed";
            first_error = Some(e.clone());
        }
        if status != "ok" {
            self.summary.failed += 1;
        }
        let mut open = true;
        if config.destination == Destination::Stdout {
            for bytes in &converted.outputs {
                let written = if self.wrote_before && config.target == Target::Csa {
                    self.out.write_all(b"/\n")
                } else {
                    Ok(())
                };
                if let Err(e) = written.and_then(|()| self.out.write_all(bytes)) {
                    self.write_failed = Some(e);
                    open = false;
                    break;
                }
                self.wrote_before = true;
            }
        }
        self.report.push(report_line(
            &outcome.display,
            status,
            converted.games,
            converted.moves,
            converted.warnings.len(),
            first_error.as_deref().unwrap_or(""),
        ));
        open
    }
}

/// Converts `inputs` on `jobs` worker threads and hands the outcomes to
/// `take` on this thread, in input order, as soon as each is next in line:
/// output is written while the workers go on, and no worker waits for
/// another except at the [`WINDOW`] bound. Each worker takes the next
/// input when it is free, so one slow file holds up no one. `take`
/// returning false stops the workers after their current input. Returns
/// false, having taken nothing, when no worker thread could be started.
fn in_parallel<'i>(
    inputs: &'i [Input],
    jobs: usize,
    convert: impl Fn(&'i Input) -> Outcome + Sync,
    mut take: impl FnMut(Outcome) -> bool,
) -> bool {
    // Workers claim inputs a few at a time and send each batch's outcomes
    // together: one wake-up of this thread per batch, not per file.
    const BATCH: usize = 16;
    let next = AtomicUsize::new(0);
    // How many outcomes `take` has had; workers stay within WINDOW of it.
    let taken = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Outcome>)>();
    let mut workers = 0;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, taken, stop, convert) = (&next, &taken, &stop, &convert);
            let work = move || loop {
                let first = next.fetch_add(BATCH, Ordering::Relaxed);
                if first >= inputs.len() {
                    break;
                }
                while first >= taken.load(Ordering::Acquire) + WINDOW
                    && !stop.load(Ordering::Relaxed)
                {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let batch = &inputs[first..(first + BATCH).min(inputs.len())];
                let outcomes = batch.iter().map(convert).collect();
                if sender.send((first, outcomes)).is_err() {
                    break;
                }
            };
            // The main thread's stack size, not the smaller default for
            // spawned threads: the JKF reader follows forks by recursion.
            let spawned = std::thread::Builder::new()
                .name("kifconv-worker".into())
                .stack_size(8 << 20)
                .spawn_scoped(scope, work);
            workers += usize::from(spawned.is_ok());
        }
        drop(sender);
        if workers == 0 {
            return;
        }
        let mut waiting = BTreeMap::new();
        let mut want = 0;
        for (first, outcomes) in receiver {
            waiting.insert(first, outcomes);
            while let Some(outcomes) = waiting.remove(&want) {
                want += outcomes.len();
                for outcome in outcomes {
                    if !take(outcome) {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                }
                taken.store(want, Ordering::Release);
            }
        }
    });
    workers > 0
}

/// Converts one input, and in folder mode writes its outputs.
fn one(
    input: &Input,
    config: &Config,
    input_files: &HashSet<PathBuf>,
    counter: &AtomicU64,
) -> Outcome {
    let display = input.display.clone();
    let result = inputs::read(input, config.max_input_size)
        .map_err(|e| format!("{display}: error: {e}\n"))
        .and_then(|bytes| {
            // A bug that panics fails this input, not the batch.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                convert(&bytes, &display, &input.relative, config)
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
    let mut write_error = None;
    if let (Ok(converted), Destination::Directory(dir)) = (&result, &config.destination) {
        let base = dir
            .join(&input.relative)
            .with_extension(config.target.extension());
        for (i, bytes) in converted.outputs.iter().enumerate() {
            let path = if i == 0 {
                base.clone()
            } else {
                numbered(&base, i + 1)
            };
            if let Err(e) = write_atomic(&path, bytes, config.overwrite, input_files, counter) {
                write_error = Some(format!("{}: {e}", path.display()));
                break;
            }
        }
    }
    Outcome {
        display,
        result,
        write_error,
    }
}

/// `game.kif` → `game-2.kif`.
fn numbered(path: &Path, n: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}-{n}.{ext}"))
}

fn prepare_directory(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    // Can files be made there at all? Fail once, early, rather than once
    // per input.
    let probe = dir.join(format!(".kifconv-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// Writes `bytes` to a temporary file beside `path` and renames it into
/// place: a reader never sees half a file, and a failed write leaves none.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    overwrite: Overwrite,
    inputs: &HashSet<PathBuf>,
    counter: &AtomicU64,
) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    if let Ok(canonical) = std::fs::canonicalize(path) {
        if inputs.contains(&canonical) {
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                "this output would overwrite an input; refused",
            ));
        }
        if overwrite == Overwrite::Refuse {
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                "the output exists (use --force to replace it)",
            ));
        }
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let n = counter.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.kifconv-{}-{n}.tmp", std::process::id()));
    write_through_temp(path, &temp, bytes, |p: &Path| std::fs::File::create(p))
}

/// Writes `bytes` to `temp` through the writer `create` opens, then renames
/// `temp` to `path`. On any failure the temporary file is removed and
/// `path` is left as it was.
fn write_through_temp<W: Write>(
    path: &Path,
    temp: &Path,
    bytes: &[u8],
    create: impl FnOnce(&Path) -> std::io::Result<W>,
) -> std::io::Result<()> {
    let written = (|| {
        let mut file = create(temp)?;
        file.write_all(bytes)?;
        file.flush()?;
        // No fsync: rename alone keeps a killed run from leaving half a
        // file under the final name; syncing each of thousands of small
        // files would triple the run time for a power-loss guarantee.
        drop(file);
        std::fs::rename(temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(temp);
    }
    written
}

fn progress_bar(config: &Config, total: u64) -> ProgressBar {
    let show =
        config.verbosity == Verbosity::Normal && std::io::stderr().is_terminal() && total > 1;
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} files  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn report_line(
    path: &str,
    status: &str,
    games: usize,
    moves: usize,
    warnings: usize,
    error: &str,
) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    format!(
        "{}\t{status}\t{games}\t{moves}\t{warnings}\t{}\n",
        clean(path),
        clean(error)
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A file on a disk that fills up after `room` bytes.
    struct FillingDisk {
        file: std::fs::File,
        room: usize,
    }

    impl Write for FillingDisk {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "no space left on device",
                ));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.file.write(&buf[..n])
        }

        fn flush(&mut self) -> std::io::Result<()> {
            self.file.flush()
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kifconv-batch-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_full_disk_leaves_no_partial_file_and_the_old_one_intact() {
        let dir = scratch("full");
        let (path, temp) = (dir.join("game.usi"), dir.join(".game.usi.tmp"));
        fn full(room: usize) -> impl FnOnce(&Path) -> std::io::Result<FillingDisk> {
            move |p| {
                Ok(FillingDisk {
                    file: std::fs::File::create(p)?,
                    room,
                })
            }
        }
        // A new output: the error is returned, and no file is left at all.
        let e = write_through_temp(&path, &temp, &[b'x'; 100], full(10)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::StorageFull);
        assert!(!path.exists() && !temp.exists());
        // Replacing an output: the old one stays whole.
        std::fs::write(&path, b"old output\n").unwrap();
        write_through_temp(&path, &temp, &[b'x'; 100], full(10)).unwrap_err();
        assert_eq!(std::fs::read(&path).unwrap(), b"old output\n");
        assert!(!temp.exists());
        // With room enough, the new bytes replace the old.
        write_through_temp(&path, &temp, b"new output\n", full(1000)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new output\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
