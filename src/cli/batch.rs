//! The batch runner: every input converted on a thread pool, results taken
//! in input order (so output is the same with one thread or many), files
//! written atomically, failures reported and counted, never fatal.
//!
//! Work goes in chunks, so memory holds one chunk's outputs at a time
//! however large the archive.

use super::args::{Config, Destination, Overwrite, Target, Verbosity};
use super::convert::{convert, Converted};
use super::inputs::{self, Input};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// How many inputs are converted before their outputs are written.
const CHUNK: usize = 256;

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
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("error: cannot start {} threads: {e}", config.jobs);
            return 2;
        }
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
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut wrote_before = false;
    let temp_counter = AtomicU64::new(0);
    'chunks: for chunk in inputs.chunks(CHUNK) {
        let convert = |input| one(input, config, &input_files, &temp_counter);
        // One thread: no pool, no hand-offs between threads.
        let outcomes: Vec<Outcome> = if config.jobs == 1 {
            chunk.iter().map(convert).collect()
        } else {
            pool.install(|| chunk.par_iter().map(convert).collect())
        };
        for outcome in outcomes {
            summary.files += 1;
            progress.inc(1);
            match outcome.result {
                Err(error) => {
                    progress.suspend(|| eprint!("{}", ensure_newline(&error)));
                    summary.failed += 1;
                    report.push(report_line(
                        &outcome.display,
                        "failed",
                        0,
                        0,
                        0,
                        first_line(&error),
                    ));
                }
                Ok(converted) => {
                    summary.games += converted.games;
                    summary.moves += converted.moves;
                    summary.warnings += converted.warnings.len();
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
                    let mut first_error =
                        converted.errors.first().map(|e| first_line(e).to_string());
                    if let Some(e) = &outcome.write_error {
                        progress.suspend(|| eprintln!("{}: error: {e}", outcome.display));
                        status = "failed";
                        first_error = Some(e.clone());
                    }
                    if status != "ok" {
                        summary.failed += 1;
                    }
                    if config.destination == Destination::Stdout {
                        for bytes in &converted.outputs {
                            if wrote_before
                                && config.target == Target::Csa
                                && out.write_all(b"/\n").is_err()
                            {
                                break 'chunks;
                            }
                            if out.write_all(bytes).is_err() {
                                break 'chunks; // a closed pipe ends quietly
                            }
                            wrote_before = true;
                        }
                    }
                    report.push(report_line(
                        &outcome.display,
                        status,
                        converted.games,
                        converted.moves,
                        converted.warnings.len(),
                        first_error.as_deref().unwrap_or(""),
                    ));
                }
            }
        }
        if out.flush().is_err() {
            break;
        }
    }
    let _ = out.flush();
    progress.finish_and_clear();
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
        .and_then(|bytes| convert(&bytes, &display, &input.relative, config));
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
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        // No fsync: rename alone keeps a killed run from leaving half a
        // file under the final name; syncing each of thousands of small
        // files would triple the run time for a power-loss guarantee.
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
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
