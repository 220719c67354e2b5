//! `kifconv.convert`, `kifconv.training` and `kifconv.book_build`: the
//! command's batch runner (folders, archives, globs, worker threads, input
//! order) run from Python with the interpreter's lock released. Each call
//! says its options as the command line does and hands them to the same
//! parser (`kifconv::cli::api`), so a program and the command agree.

use crate::error::{plain_error, warn};
use kifconv::cli::api;
use pyo3::exceptions::{PyFileExistsError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::ffi::OsString;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Files, folders and archives: one path or a list of them.
#[derive(FromPyObject)]
pub enum Inputs {
    One(PathBuf),
    Many(Vec<PathBuf>),
}

impl Inputs {
    fn args(self) -> Vec<OsString> {
        match self {
            Inputs::One(p) => vec![p.into_os_string()],
            Inputs::Many(ps) => ps.into_iter().map(PathBuf::into_os_string).collect(),
        }
    }
}

/// An argument vector being built: options pushed only when given.
struct Args(Vec<OsString>);

impl Args {
    fn new(inputs: Inputs) -> Args {
        Args(inputs.args())
    }
    fn flag(&mut self, name: &str, on: bool) {
        if on {
            self.0.push(name.into());
        }
    }
    fn value(&mut self, name: &str, value: Option<impl ToString>) {
        if let Some(v) = value {
            self.0.push(name.into());
            self.0.push(v.to_string().into());
        }
    }
    fn path(&mut self, name: &str, value: Option<&Path>) {
        if let Some(p) = value {
            self.0.push(name.into());
            self.0.push(p.as_os_str().to_owned());
        }
    }
    fn globs(&mut self, globs: Option<Vec<String>>) {
        for g in globs.unwrap_or_default() {
            self.value("--glob", Some(g));
        }
    }
}

/// Runs the command with `args`, the lock released; a usage error is a
/// ValueError, a run that could not be made (exit 2) a KifError.
fn run(
    py: Python<'_>,
    args: Args,
    out: Option<&mut (dyn std::io::Write + Send)>,
) -> PyResult<api::Run> {
    let mut args = args.0;
    args.push("--quiet".into());
    let run = py
        .detach(|| match out {
            None => api::run(args),
            Some(out) => api::run_to(args, out),
        })
        .map_err(PyValueError::new_err)?;
    if run.code == 2 {
        return Err(plain_error(
            py,
            None,
            "the run could not be made (exit 2); the reason was printed to standard error",
        ));
    }
    Ok(run)
}

/// One input of a batch: how it went.
#[pyclass(module = "kifconv", frozen, get_all)]
pub struct InputResult {
    /// The input as messages name it (`archive.zip:entry` in an archive).
    path: String,
    /// `ok`, `partial` (some games failed; the good ones were written),
    /// `failed` or `skipped`.
    status: String,
    /// The games read.
    games: usize,
    /// Their mainline moves.
    moves: usize,
    /// The warnings said about it.
    warnings: usize,
    /// Its first error, located (`path:line:column: error: …`), or "".
    error: String,
    /// The files written for it, with an output folder.
    outputs: Vec<PathBuf>,
}

#[pymethods]
impl InputResult {
    fn __repr__(&self) -> String {
        format!("<kifconv.InputResult {} {}>", self.path, self.status)
    }
}

/// What `convert` did: the inputs converted and those that failed, with
/// their located messages, the totals, and the converted records when no
/// output folder was given.
#[pyclass(module = "kifconv", frozen, get_all)]
pub struct Summary {
    /// The command's exit code: 0 when every input converted, 1 when some
    /// failed.
    code: u8,
    /// The inputs converted whole.
    converted: usize,
    /// The inputs that failed (or partly failed), with their errors.
    failed: Vec<Py<InputResult>>,
    /// Every input, in input order.
    inputs: Vec<Py<InputResult>>,
    /// The games read.
    games: usize,
    /// Their mainline moves.
    moves: usize,
    /// The warnings said.
    warnings: usize,
    /// Without an output folder: every converted game in the target format,
    /// as the command prints them; None with one.
    output: Option<Py<PyBytes>>,
}

#[pymethods]
impl Summary {
    fn __repr__(&self) -> String {
        format!(
            "<kifconv.Summary: {} converted, {} failed, {} games>",
            self.converted,
            self.failed.len(),
            self.games
        )
    }
}

/// Converts files, folders and archives (zip, 7z, tar.gz, …) to `to`
/// (`usi`, `sfen`, `kif`, `kifu`, `ki2`, `ki2u`, `csa`, `jkf`, `western`,
/// `hcpe`, `hcpe3`, `psv`) with the command's batch runner, on `jobs`
/// threads (default: every core) with the interpreter's lock released.
/// Without `output` the converted games come back in `Summary.output`, as
/// the command prints them; with it, a file per input is written into that
/// folder, mirroring relative paths. An input that fails does not stop the
/// run: it is in `Summary.failed` with its located error (also printed to
/// standard error, as the command does).
#[pyfunction]
#[pyo3(signature = (inputs, to, output = None, jobs = None, *, format = None, encoding = None,
    out_encoding = None, flip = false, mainline = false, ply = None, all_plies = false,
    force = false, glob = None, follow = false, csa_version = None))]
#[allow(clippy::too_many_arguments)]
pub fn convert(
    py: Python<'_>,
    inputs: Inputs,
    to: &str,
    output: Option<PathBuf>,
    jobs: Option<usize>,
    format: Option<String>,
    encoding: Option<String>,
    out_encoding: Option<String>,
    flip: bool,
    mainline: bool,
    ply: Option<usize>,
    all_plies: bool,
    force: bool,
    glob: Option<Vec<String>>,
    follow: bool,
    csa_version: Option<String>,
) -> PyResult<Summary> {
    let mut args = Args::new(inputs);
    args.value("--to", Some(to));
    args.path("--output", output.as_deref());
    args.value("--jobs", jobs);
    args.value("--from", format);
    args.value("--encoding", encoding);
    args.value("--out-encoding", out_encoding);
    args.flag("--flip", flip);
    args.flag("--mainline", mainline);
    args.value("--ply", ply);
    args.flag("--all-plies", all_plies);
    args.flag("--force", force);
    args.globs(glob);
    args.flag("--follow", follow);
    args.value("--csa-version", csa_version);
    let run = run(py, args, None)?;
    let mut summary = Summary {
        code: run.code,
        converted: 0,
        failed: Vec::new(),
        inputs: Vec::new(),
        games: 0,
        moves: 0,
        warnings: 0,
        output: output
            .is_none()
            .then(|| PyBytes::new(py, &run.output).unbind()),
    };
    for input in run.inputs {
        summary.games += input.games;
        summary.moves += input.moves;
        summary.warnings += input.warnings;
        let ok = input.status == "ok";
        let failed = matches!(input.status.as_str(), "failed" | "partial");
        let result = Py::new(
            py,
            InputResult {
                path: input.path,
                status: input.status,
                games: input.games,
                moves: input.moves,
                warnings: input.warnings,
                error: input.error,
                outputs: input.outputs,
            },
        )?;
        summary.converted += usize::from(ok);
        if failed {
            summary.failed.push(result.clone_ref(py));
        }
        summary.inputs.push(result);
    }
    Ok(summary)
}

/// Training data for engines from files, folders and archives: `kind` is
/// `hcpe` (cshogi's HuffmanCodedPosAndEval, 38 bytes a position), `hcpe3`
/// (dlshogi's, a block a game) or `psv` (YaneuraOu's PackedSfenValue, 40
/// bytes a position), with the command's filters (`--min-rating`, …,
/// `--uniq`), byte for byte what `kifconv INPUTS --to KIND` writes.
/// Returns the bytes (`numpy.frombuffer(data, dtype)` reads HCPE with
/// cshogi's dtype), or with `output` writes them to that file (never over
/// an existing one without `force`) and returns None. Inputs that fail are
/// left out, each given to `warnings.warn` with its located error.
#[pyfunction]
#[pyo3(signature = (inputs, kind = "hcpe", output = None, *, jobs = None, min_rating = None,
    rating_of = None, min_moves = None, results = None, require_eval = false, max_eval = None,
    uniq = None, flip_fold = false, format = None, encoding = None, glob = None, follow = false,
    force = false))]
#[allow(clippy::too_many_arguments)]
pub fn training(
    py: Python<'_>,
    inputs: Inputs,
    kind: &str,
    output: Option<PathBuf>,
    jobs: Option<usize>,
    min_rating: Option<f64>,
    rating_of: Option<String>,
    min_moves: Option<usize>,
    results: Option<Vec<String>>,
    require_eval: bool,
    max_eval: Option<i32>,
    uniq: Option<Uniq>,
    flip_fold: bool,
    format: Option<String>,
    encoding: Option<String>,
    glob: Option<Vec<String>>,
    follow: bool,
    force: bool,
) -> PyResult<Option<Py<PyBytes>>> {
    if !matches!(kind, "hcpe" | "hcpe3" | "psv") {
        return Err(PyValueError::new_err(format!(
            "kind {kind:?}: training data is hcpe, hcpe3 or psv"
        )));
    }
    let mut args = Args::new(inputs);
    args.value("--to", Some(kind));
    args.value("--jobs", jobs);
    args.value("--min-rating", min_rating);
    args.value("--rating-of", rating_of);
    args.value("--min-moves", min_moves);
    args.value("--results", results.map(|r| r.join(",")));
    args.flag("--require-eval", require_eval);
    args.value("--max-eval", max_eval);
    args.value("--uniq", uniq.and_then(Uniq::name));
    args.flag("--flip-fold", flip_fold);
    args.value("--from", format);
    args.value("--encoding", encoding);
    args.globs(glob);
    args.flag("--follow", follow);
    let (run, bytes) = match output {
        None => {
            let run = run(py, args, None)?;
            let bytes = PyBytes::new(py, &run.output).unbind();
            (run, Some(bytes))
        }
        Some(path) => (write_file(py, args, &path, force)?, None),
    };
    for input in &run.inputs {
        if !input.error.is_empty() {
            warn(py, &input.error)?;
        }
    }
    Ok(bytes)
}

/// `uniq=`: True or `"games"` for games with the same moves, `"positions"`
/// for positions played the same way again; False or None for neither.
#[derive(FromPyObject)]
pub enum Uniq {
    Flag(bool),
    Name(String),
}

impl Uniq {
    fn name(self) -> Option<String> {
        match self {
            Uniq::Flag(true) => Some("games".into()),
            Uniq::Flag(false) => None,
            Uniq::Name(n) => Some(n),
        }
    }
}

/// Runs `args` writing to a temporary file beside `path`, then puts it in
/// place: never over an existing file unless `force`.
fn write_file(py: Python<'_>, args: Args, path: &Path, force: bool) -> PyResult<api::Run> {
    if path.exists() && !force {
        return Err(PyFileExistsError::new_err(format!(
            "{} exists; give force=True to replace it",
            path.display()
        )));
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let temp = path.with_file_name(format!(
        ".{}.kifconv-{}.tmp",
        name.unwrap_or_default(),
        std::process::id()
    ));
    let file = std::fs::File::create_new(&temp)
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", temp.display())))?;
    let mut out = std::io::BufWriter::new(file);
    let placed = run(py, args, Some(&mut out)).and_then(|run| {
        use std::io::Write;
        out.flush()
            .and_then(|()| std::fs::rename(&temp, path))
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        Ok(run)
    });
    if placed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    placed
}

/// Counts the mainline positions of files, folders and archives (with
/// `variations`, every line's), and the move played from each, into a
/// YaneuraOu book (DB2016 text) at `output`, as `kifconv book build` does:
/// `flip_fold` stores black-to-move positions only (a white-to-move one
/// rotated first), `min_ply` and `max_ply` bound the plies, `min_count`
/// drops rarer moves, `side` (`both`, `black`, `white`) says whose moves go
/// in, `uniq` counts a repeated game once, the game filters (`min_rating`,
/// `rating_of`, `min_moves`, `results`, `require_eval`) are the training
/// writers', and `memory` (MiB) bounds the counts held before they go to
/// disk. Never over an existing book without `force`. Returns the book's `positions` and `moves`.
/// Inputs that fail are left out (their errors are printed to standard
/// error) and a KifWarning says so.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, flip_fold = false, min_ply = None, max_ply = None,
    min_count = None, side = None, variations = false, uniq = false, min_rating = None,
    rating_of = None, min_moves = None, results = None, require_eval = false, memory = None,
    force = false, jobs = None, glob = None, follow = false))]
#[allow(clippy::too_many_arguments)]
pub fn book_build<'py>(
    py: Python<'py>,
    inputs: Inputs,
    output: PathBuf,
    flip_fold: bool,
    min_ply: Option<u32>,
    max_ply: Option<u32>,
    min_count: Option<u64>,
    side: Option<String>,
    variations: bool,
    uniq: bool,
    min_rating: Option<f64>,
    rating_of: Option<String>,
    min_moves: Option<usize>,
    results: Option<Vec<String>>,
    require_eval: bool,
    memory: Option<usize>,
    force: bool,
    jobs: Option<usize>,
    glob: Option<Vec<String>>,
    follow: bool,
) -> PyResult<Bound<'py, PyDict>> {
    if output.exists() && !force {
        return Err(PyFileExistsError::new_err(format!(
            "{} exists; give force=True to replace it",
            output.display()
        )));
    }
    let mut args = Args(vec!["book".into(), "build".into()]);
    args.0.extend(inputs.args());
    args.path("--output", Some(&output));
    args.flag("--flip-fold", flip_fold);
    args.value("--min-ply", min_ply);
    args.value("--max-ply", max_ply);
    args.value("--min-count", min_count);
    args.value("--side", side);
    args.flag("--variations", variations);
    args.flag("--uniq", uniq);
    args.value("--min-rating", min_rating);
    args.value("--rating-of", rating_of);
    args.value("--min-moves", min_moves);
    args.value("--results", results.map(|r| r.join(",")));
    args.flag("--require-eval", require_eval);
    args.value("--memory", memory);
    args.flag("--force", force);
    args.value("--jobs", jobs);
    args.globs(glob);
    args.flag("--follow", follow);
    let run = run(py, args, None)?;
    if run.code != 0 {
        warn(
            py,
            &format!(
                "{}: some inputs could not be read and were left out of the book (their errors went to standard error)",
                output.display()
            ),
        )?;
    }
    let (positions, moves) = py
        .detach(|| count_book(&output))
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", output.display())))?;
    let dict = PyDict::new(py);
    dict.set_item("positions", positions)?;
    dict.set_item("moves", moves)?;
    Ok(dict)
}

/// The positions (`sfen …` lines) and moves (the other lines but
/// comments) of a book file, read line by line.
fn count_book(path: &Path) -> std::io::Result<(u64, u64)> {
    let reader = std::io::BufReader::new(std::fs::File::open(path)?);
    let (mut positions, mut moves) = (0, 0);
    for line in reader.split(b'\n') {
        let line = line?;
        let line = line.trim_ascii();
        if line.starts_with(b"sfen ") {
            positions += 1;
        } else if !line.is_empty() && !line.starts_with(b"#") {
            moves += 1;
        }
    }
    Ok((positions, moves))
}
