//! `kifconv.convert`, `training`, `book_build` and `tsume_check`: the
//! batch library (`kifconv::batch`) run from Python. Each call turns its
//! keywords into a plan and a job, runs it with the interpreter's lock
//! released (on a thread of its own, so that Ctrl-C is honoured at once),
//! and says the outcome the Python way: typed exceptions, `warnings`, a
//! result per input.

use crate::check::Names;
use crate::error::{kif_error, os_error, plain_error, warn};
use crate::names;
use kifconv::batch::jobs::book::BookJob;
use kifconv::batch::jobs::convert::Convert;
use kifconv::batch::jobs::training::Training;
use kifconv::batch::jobs::tsume::{verdict_name, TsumeCheck};
use kifconv::batch::jobs::Reading;
use kifconv::batch::{self, Destination, InputOutcome, Job, Overwrite, Plan, Status, Stop};
use kifconv::names::Source;
use kifconv::training::filter::{self, Filter};
use kifconv::training::uniq::Repeats;
use kifconv::training::Data;
use kifconv::write::Positions;
use pyo3::exceptions::{PyFileExistsError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Files, folders and archives: one path or a list of them.
#[derive(FromPyObject)]
pub enum Inputs {
    One(PathBuf),
    Many(Vec<PathBuf>),
}

impl Inputs {
    fn paths(self) -> Vec<PathBuf> {
        match self {
            Inputs::One(p) => vec![p],
            Inputs::Many(ps) => ps,
        }
    }
}

/// The plan for `inputs`: each input must exist (a missing one is the
/// OS's error, `FileNotFoundError`), `jobs` is bounded, the globs are
/// checked.
/// `jobs` threads; `glob`, `follow` and `hidden` say how folders and
/// archives are walked.
pub(crate) fn plan(
    py: Python<'_>,
    inputs: Inputs,
    jobs: Option<i64>,
    glob: Option<Names>,
    follow: bool,
    hidden: bool,
) -> PyResult<Plan> {
    let inputs = inputs.paths();
    if inputs.is_empty() {
        return Err(PyValueError::new_err(
            "inputs: no input; give files, folders or archives",
        ));
    }
    for input in &inputs {
        if let Err(e) = std::fs::metadata(input) {
            return Err(os_error(py, &e, input));
        }
    }
    let mut plan = Plan::new(inputs);
    plan.jobs = crate::check::jobs(jobs)?;
    plan.filter = batch::Filter::new(&glob.map(|g| g.0).unwrap_or_default())
        .map_err(|e| PyValueError::new_err(format!("glob: {e}")))?;
    plan.follow = follow;
    plan.hidden = hidden;
    Ok(plan)
}

/// `output=` (a folder, else the bytes come back), `force=` and
/// `skip_existing=` into the plan.
pub(crate) fn to_folder(
    plan: &mut Plan,
    output: Option<&PathBuf>,
    force: bool,
    skip_existing: bool,
) -> PyResult<()> {
    if let Some(dir) = output {
        plan.destination = Destination::Folder(dir.clone());
    }
    if force && skip_existing {
        return Err(PyValueError::new_err("force and skip_existing: give one"));
    }
    if skip_existing && output.is_none() {
        return Err(PyValueError::new_err(
            "skip_existing goes with output (a folder)",
        ));
    }
    if force {
        plan.overwrite = Overwrite::Replace;
    } else if skip_existing {
        plan.overwrite = Overwrite::SkipExisting;
    }
    Ok(())
}

/// `errors=`: `"raise"` (the first failed input raises its `KifError`
/// once the run is done) or `"keep"` (failed inputs are kept in the
/// result, or given to `warnings`).
pub(crate) fn keep_errors(errors: &str) -> PyResult<bool> {
    Ok(crate::check::one_of("errors", errors, &["raise", "keep"])? == "keep")
}

/// Keeps every outcome; with `stop_on_failure`, the first input that
/// fails stops the run (as a cancel does).
struct Watch {
    kept: Vec<InputOutcome>,
    stop_on_failure: bool,
    failed: bool,
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl batch::Observer for Watch {
    fn input(&mut self, outcome: InputOutcome) {
        if self.stop_on_failure && matches!(outcome.status, Status::Failed | Status::Partial) {
            self.failed = true;
            self.cancel.store(true, Ordering::Relaxed);
        }
        self.kept.push(outcome);
    }
}

/// Runs `job` on `plan` with the lock released, on a thread of its own;
/// this thread looks for signals meanwhile, so that Ctrl-C cancels the run
/// (nothing half-written stays) and raises `KeyboardInterrupt` at once.
/// Unless `keep`, the first input that fails stops the run and raises its
/// `KifError`. A run that cannot be made is an `OSError`. Warnings are
/// given to `warnings`, each once.
pub(crate) fn run<J: Job>(
    py: Python<'_>,
    plan: &Plan,
    job: &J,
    out: &mut (dyn Write + Send),
    keep: bool,
) -> PyResult<(batch::Summary, J::Finished, Vec<InputOutcome>)>
where
    J::Finished: Send,
{
    let mut interrupt = None;
    let mut watch = Watch {
        kept: Vec::new(),
        stop_on_failure: !keep,
        failed: false,
        cancel: plan.cancel.clone(),
    };
    let ran = py.detach(|| {
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("kifconv-batch".into())
                // The reader follows a JKF record's forks by recursion.
                .stack_size(8 << 20)
                .spawn_scoped(scope, || batch::run(plan, job, out, &mut watch))
                .map_err(|e| Stop::Fatal(format!("cannot start a thread: {e}")))?;
            while !worker.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(20));
                if interrupt.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        interrupt = Some(e);
                        plan.cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
            worker
                .join()
                .unwrap_or_else(|_| Err(Stop::Fatal("the batch failed (a bug)".into())))
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    say(py, &watch.kept, keep)?;
    match ran {
        Ok((summary, finished)) => Ok((summary, finished, watch.kept)),
        Err(stop) => Err(PyOSError::new_err(stop.to_string())),
    }
}

/// Says a run's messages the Python way: every warning to `warnings`,
/// once; the first failed input raises its `KifError` unless `keep`.
fn say(py: Python<'_>, outcomes: &[InputOutcome], keep: bool) -> PyResult<()> {
    let mut said = std::collections::HashSet::new();
    for outcome in outcomes {
        for w in &outcome.warnings {
            if said.insert(w.as_str()) {
                warn(py, w)?;
            }
        }
    }
    if keep {
        return Ok(());
    }
    let failed = outcomes
        .iter()
        .find(|o| matches!(o.status, Status::Failed | Status::Partial));
    let Some((outcome, problem)) = failed.and_then(|o| Some((o, o.errors.first()?))) else {
        return Ok(());
    };
    Err(match &problem.error {
        Some(error) => kif_error(py, error, Some(&outcome.path), &outcome.path),
        None => plain_error(py, Some(&outcome.path), &problem.text),
    })
}

/// With `errors="keep"`, where no result list holds the failed inputs:
/// each of their errors as a `KifWarning`.
fn warn_failures(py: Python<'_>, outcomes: &[InputOutcome]) -> PyResult<()> {
    for outcome in outcomes {
        for e in &outcome.errors {
            warn(py, &e.text)?;
        }
    }
    Ok(())
}

/// How the inputs are read: `format=` and `encoding=` by the command's
/// names (`hcpe`, `hcpe3`, `psv` read training data under any name).
pub(crate) fn reading(format: Option<&str>, encoding: Option<&str>) -> PyResult<Reading> {
    let mut reading = Reading {
        encoding: names::encoding(encoding)?,
        ..Reading::default()
    };
    match format.map(names::source).transpose()? {
        None => {}
        Some(Source::Record(format)) => reading.from = Some(format),
        Some(Source::Training(data)) => reading.from_data = Some(data),
    }
    Ok(reading)
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

impl InputResult {
    fn of(outcome: &InputOutcome) -> InputResult {
        InputResult {
            path: outcome.path.clone(),
            status: outcome.status.name().to_string(),
            games: outcome.games,
            moves: outcome.moves,
            warnings: outcome.warnings.len(),
            error: outcome
                .errors
                .first()
                .map_or(String::new(), |e| e.first_line().to_string()),
            outputs: outcome.outputs.clone(),
        }
    }
}

/// What a batch did: the inputs converted and those that failed, with
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

impl Summary {
    pub(crate) fn of(
        py: Python<'_>,
        summary: &batch::Summary,
        outcomes: &[InputOutcome],
        output: Option<Py<PyBytes>>,
    ) -> PyResult<Summary> {
        let mut result = Summary {
            code: u8::from(summary.failed > 0),
            converted: 0,
            failed: Vec::new(),
            inputs: Vec::new(),
            games: summary.games,
            moves: summary.moves,
            warnings: summary.warnings,
            output,
        };
        for outcome in outcomes {
            let input = Py::new(py, InputResult::of(outcome))?;
            match outcome.status {
                Status::Ok => result.converted += 1,
                Status::Failed | Status::Partial => result.failed.push(input.clone_ref(py)),
                Status::Skipped | Status::Existing => {}
            }
            result.inputs.push(input);
        }
        Ok(result)
    }
}

/// Converts files, folders and archives (zip, 7z, tar.gz, …) to `to`
/// (`usi`, `sfen`, `kif`, `kifu`, `ki2`, `ki2u`, `csa`, `jkf`, `western`)
/// on `jobs` threads (default: every core; at most 4 × the cores) with
/// the interpreter's lock released. Without `output` the converted games
/// come back in `Summary.output`, as the command prints them; with it, a
/// file per input is written into that folder, mirroring relative paths
/// (never over a file without `force`). An input that fails raises its
/// `KifError` once the others are done, or with `errors="keep"` is in
/// `Summary.failed`. Warnings go to `warnings` as `KifWarning`s. Ctrl-C
/// stops the run and raises `KeyboardInterrupt`; no half-written file
/// stays. `skip_existing` resumes a batch into a folder (an input whose
/// outputs all exist is skipped); the game filters (`min_rating`,
/// `rating_of`, `min_moves`, `results`, `require_eval`) choose the games
/// written, as for training data; `hidden` walks hidden files and folders.
#[pyfunction]
#[pyo3(signature = (inputs, to, output = None, jobs = None, *, format = None, encoding = None,
    out_encoding = None, flip = false, mainline = false, ply = None, all_plies = false,
    force = false, glob = None, follow = false, hidden = false, csa_version = None, errors = "raise",
    skip_existing = false, min_rating = None, rating_of = None, min_moves = None, results = None,
    require_eval = false))]
#[allow(clippy::too_many_arguments)]
pub fn convert(
    py: Python<'_>,
    inputs: Inputs,
    to: &str,
    output: Option<PathBuf>,
    jobs: Option<i64>,
    format: Option<String>,
    encoding: Option<String>,
    out_encoding: Option<String>,
    flip: bool,
    mainline: bool,
    ply: Option<usize>,
    all_plies: bool,
    force: bool,
    glob: Option<Names>,
    follow: bool,
    hidden: bool,
    csa_version: Option<String>,
    errors: &str,
    skip_existing: bool,
    min_rating: Option<f64>,
    rating_of: Option<String>,
    min_moves: Option<usize>,
    results: Option<Names>,
    require_eval: bool,
) -> PyResult<Summary> {
    let keep = keep_errors(errors)?;
    let target = names::target(to)?;
    if target.is_training() {
        return Err(PyValueError::new_err(format!(
            "to={to:?}: training data comes from kifconv.training()"
        )));
    }
    if (ply.is_some() || all_plies) && target != kifconv::Target::Sfen {
        return Err(PyValueError::new_err(
            "ply and all_plies go with to=\"sfen\"",
        ));
    }
    if ply.is_some() && all_plies {
        return Err(PyValueError::new_err("ply and all_plies: give one"));
    }
    let mut reading = reading(format.as_deref(), encoding.as_deref())?;
    reading.flip = flip;
    reading.mainline_only = mainline;
    let mut options = kifconv::write::Options::default();
    options.encoding = Some(match out_encoding.as_deref() {
        None => target.encoding(),
        Some(name) => {
            let encoding = names::out_encoding(name)?;
            target
                .allows(encoding)
                .map_err(|e| PyValueError::new_err(format!("out_encoding={name:?}: {e}")))?;
            encoding
        }
    });
    options.positions = match (ply, all_plies) {
        (Some(n), _) => Positions::AfterPlies(n),
        (None, true) => Positions::All,
        (None, false) => Positions::Last,
    };
    options.csa_version = match csa_version.as_deref() {
        None | Some("3.0") => kifconv::write::CsaVersion::V3_0,
        Some("2.2") => kifconv::write::CsaVersion::V2_2,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "csa_version={other:?}: the choices are \"3.0\" and \"2.2\""
            )))
        }
    };
    let filter = game_filter(
        min_rating,
        rating_of.as_deref(),
        min_moves,
        results,
        require_eval,
        None,
    )?;
    let job = Convert {
        target,
        reading,
        options,
        filter,
    };
    let mut plan = plan(py, inputs, jobs, glob, follow, hidden)?;
    to_folder(&mut plan, output.as_ref(), force, skip_existing)?;
    let mut bytes = Vec::new();
    let (summary, _, outcomes) = run(py, &plan, &job, &mut bytes, keep)?;
    let output = output.is_none().then(|| PyBytes::new(py, &bytes).unbind());
    Summary::of(py, &summary, &outcomes, output)
}

/// The game filters from keywords, named as Python names them; None when
/// no keyword asks for one.
#[allow(clippy::too_many_arguments)]
fn game_filter(
    min_rating: Option<f64>,
    rating_of: Option<&str>,
    min_moves: Option<usize>,
    results: Option<Names>,
    require_eval: bool,
    max_eval: Option<i32>,
) -> PyResult<Option<Filter>> {
    let asked = min_rating.is_some()
        || rating_of.is_some()
        || min_moves.is_some()
        || results.is_some()
        || require_eval
        || max_eval.is_some();
    if !asked {
        return Ok(None);
    }
    if let Some(r) = min_rating {
        crate::check::non_negative_number("min_rating", r)?;
    }
    if let Some(e) = max_eval.filter(|e| *e <= 0) {
        return Err(PyValueError::new_err(format!(
            "max_eval must be > 0 (got {e})"
        )));
    }
    // `results="toryo,kachi"` splits as `--results toryo,kachi` does.
    let results = results.map(|r| r.split(','));
    if let Some(results) = &results {
        let known = filter::result_names();
        if let Some(unknown) = results.iter().find(|r| !known.contains(r)) {
            return Err(PyValueError::new_err(format!(
                "results: {unknown:?} is no ending kifconv names; the names are {}",
                known.join(", ")
            )));
        }
    }
    Ok(Some(Filter {
        results,
        min_moves,
        min_rating,
        rating_of: match rating_of {
            None | Some("both") => filter::RatingOf::Both,
            Some("loser") => filter::RatingOf::Loser,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "rating_of={other:?}: the choices are \"both\" and \"loser\""
                )))
            }
        },
        require_eval,
        max_eval,
        spare_entering_king: false,
    }))
}

/// `uniq=`: True or `"games"` for games with the same moves, `"positions"`
/// for positions played the same way again; False or None for neither.
#[derive(FromPyObject)]
pub enum Uniq {
    Flag(bool),
    Name(String),
}

impl Uniq {
    fn repeats(uniq: Option<Uniq>) -> PyResult<Option<Repeats>> {
        match uniq {
            None | Some(Uniq::Flag(false)) => Ok(None),
            Some(Uniq::Flag(true)) => Ok(Some(Repeats::Games)),
            Some(Uniq::Name(n)) if n == "games" => Ok(Some(Repeats::Games)),
            Some(Uniq::Name(n)) if n == "positions" => Ok(Some(Repeats::Positions)),
            Some(Uniq::Name(n)) => Err(PyValueError::new_err(format!(
                "uniq={n:?}: the choices are \"games\" and \"positions\""
            ))),
        }
    }
}

/// Training data for engines from files, folders and archives: `kind` is
/// `hcpe` (cshogi's HuffmanCodedPosAndEval, 38 bytes a position), `hcpe3`
/// (dlshogi's, a block a game) or `psv` (YaneuraOu's PackedSfenValue, 40
/// bytes a position), with the command's filters, byte for byte what
/// `kifconv INPUTS --to KIND` writes. Returns the bytes, or with `numpy`
/// a structured array of cshogi's dtype (hcpe, psv), or with `output`
/// writes them to that file (never over an existing one without `force`)
/// and returns None. An input that fails raises its `KifError` once the
/// run is done, or with `errors="keep"` is left out with a `KifWarning`.
#[pyfunction]
#[pyo3(signature = (inputs, kind = "hcpe", output = None, *, jobs = None, min_rating = None,
    rating_of = None, min_moves = None, results = None, require_eval = false, max_eval = None,
    uniq = None, flip_fold = false, format = None, encoding = None, glob = None, follow = false,
    hidden = false, force = false, errors = "raise", numpy = false))]
#[allow(clippy::too_many_arguments)]
pub fn training(
    py: Python<'_>,
    inputs: Inputs,
    kind: &str,
    output: Option<PathBuf>,
    jobs: Option<i64>,
    min_rating: Option<f64>,
    rating_of: Option<String>,
    min_moves: Option<usize>,
    results: Option<Names>,
    require_eval: bool,
    max_eval: Option<i32>,
    uniq: Option<Uniq>,
    flip_fold: bool,
    format: Option<String>,
    encoding: Option<String>,
    glob: Option<Names>,
    follow: bool,
    hidden: bool,
    force: bool,
    errors: &str,
    numpy: bool,
) -> PyResult<Option<Py<PyAny>>> {
    let keep = keep_errors(errors)?;
    let data = match kind {
        "hcpe" => Data::Hcpe,
        "hcpe3" => Data::Hcpe3,
        "psv" => Data::Psv,
        _ => {
            return Err(PyValueError::new_err(format!(
                "kind={kind:?}: training data is hcpe, hcpe3 or psv"
            )))
        }
    };
    if numpy && output.is_some() {
        return Err(PyValueError::new_err(
            "numpy=True returns an array; it goes without output",
        ));
    }
    let repeats = Uniq::repeats(uniq)?;
    if flip_fold && repeats != Some(Repeats::Positions) {
        return Err(PyValueError::new_err(
            "flip_fold goes with uniq=\"positions\"",
        ));
    }
    if repeats == Some(Repeats::Positions) && data.whole_games() {
        return Err(PyValueError::new_err(
            "uniq=\"positions\" would drop positions from inside games, which hcpe3 keeps whole; use uniq=\"games\"",
        ));
    }
    let mut filter = game_filter(
        min_rating,
        rating_of.as_deref(),
        min_moves,
        results,
        require_eval,
        max_eval,
    )?
    .unwrap_or_default();
    // As dlshogi's scripts: csa_to_hcpe3 spares a %KACHI game from the
    // mate-score cut, csa_to_hcpe does not.
    filter.spare_entering_king = data == Data::Hcpe3;
    let job = Training {
        data,
        reading: reading(format.as_deref(), encoding.as_deref())?,
        filter,
        repeats,
        flip_fold,
    };
    let plan = plan(py, inputs, jobs, glob, follow, hidden)?;
    let Some(path) = output else {
        let mut bytes = Vec::new();
        let (_, _, outcomes) = run(py, &plan, &job, &mut bytes, keep)?;
        warn_failures(py, &outcomes)?;
        let bytes = PyBytes::new(py, &bytes);
        if numpy {
            let module = py.import("kifconv")?;
            return Ok(Some(
                module.call_method1("as_array", (bytes, kind))?.unbind(),
            ));
        }
        return Ok(Some(bytes.into_any().unbind()));
    };
    write_file(py, &path, force, |py, out| {
        let (_, _, outcomes) = run(py, &plan, &job, out, keep)?;
        warn_failures(py, &outcomes)
    })?;
    Ok(None)
}

/// Writes through `fill` to a temporary file beside `path`, then puts it in
/// place: never over an existing file unless `force`; on any failure (an
/// interrupt too) no file stays.
fn write_file(
    py: Python<'_>,
    path: &std::path::Path,
    force: bool,
    fill: impl FnOnce(Python<'_>, &mut (dyn Write + Send)) -> PyResult<()>,
) -> PyResult<()> {
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
    let file = std::fs::File::create_new(&temp).map_err(|e| os_error(py, &e, &temp))?;
    let mut out = std::io::BufWriter::new(file);
    let placed = fill(py, &mut out).and_then(|()| {
        out.flush()
            .and_then(|()| std::fs::rename(&temp, path))
            .map_err(|e| os_error(py, &e, path))
    });
    if placed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    placed
}

/// Counts the mainline positions of files, folders and archives (with
/// `variations`, every line's), and the move played from each, into a
/// YaneuraOu book at `output` (text, or `.ybb` / `.bin` as its extension
/// says unless `book_format` names one), as `kifconv book build` does:
/// `flip_fold` stores black-to-move positions only (a white-to-move one
/// rotated first), `min_ply` and `max_ply` bound the plies, `min_count`
/// drops rarer moves, `side` (`both`, `black`, `white`) says whose moves go
/// in, `uniq` counts a repeated game once, the game filters (`min_rating`,
/// `rating_of`, `min_moves`, `results`, `require_eval`) are the training
/// writers', and `memory` (MiB) bounds the counts held before they go to
/// disk. Never over an existing book without `force`, never over an
/// input. Returns the book's `games`, `positions` and `moves`. An input
/// that fails raises its `KifError` (no book is written), or with
/// `errors="keep"` is left out with a `KifWarning`.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, flip_fold = false, min_ply = None, max_ply = None,
    min_count = None, side = None, variations = false, uniq = false, book_format = None,
    min_rating = None,
    rating_of = None, min_moves = None, results = None, require_eval = false, memory = None,
    force = false, jobs = None, glob = None, follow = false, hidden = false, errors = "raise"))]
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
    book_format: Option<&str>,
    min_rating: Option<f64>,
    rating_of: Option<String>,
    min_moves: Option<usize>,
    results: Option<Names>,
    require_eval: bool,
    memory: Option<usize>,
    force: bool,
    jobs: Option<i64>,
    glob: Option<Names>,
    follow: bool,
    hidden: bool,
    errors: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let keep = keep_errors(errors)?;
    if output.exists() && !force {
        return Err(PyFileExistsError::new_err(format!(
            "{} exists; give force=True to replace it",
            output.display()
        )));
    }
    let memory = memory.unwrap_or(64);
    if memory == 0 || memory.checked_mul(1 << 20).is_none() {
        return Err(PyValueError::new_err(format!(
            "memory must be at least 1 (MiB) and at most {} (got {memory})",
            usize::MAX >> 20
        )));
    }
    let filter = game_filter(
        min_rating,
        rating_of.as_deref(),
        min_moves,
        results,
        require_eval,
        None,
    )?;
    let job = BookJob {
        format: crate::book::book_format(book_format, &output)?,
        crlf: false,
        output: output.clone(),
        reading: Reading {
            mainline_only: !variations,
            ..Reading::default()
        },
        options: kifconv::book::build::Options {
            flip_fold,
            min_ply: min_ply.unwrap_or(0),
            max_ply,
            side: match side.as_deref() {
                None | Some("both") => kifconv::book::build::Side::Both,
                Some("black") => kifconv::book::build::Side::Black,
                Some("white") => kifconv::book::build::Side::White,
                Some(other) => {
                    return Err(PyValueError::new_err(format!(
                        "side={other:?}: the choices are \"both\", \"black\" and \"white\""
                    )))
                }
            },
            variations,
        },
        min_count: min_count.unwrap_or(1),
        force,
        memory: memory << 20,
        filter,
        uniq,
    };
    let plan = plan(py, inputs, jobs, glob, follow, hidden)?;
    // Unless kept, a failed input stops the run before the book is written.
    let (_, built, outcomes) = run(py, &plan, &job, &mut std::io::sink(), keep)?;
    warn_failures(py, &outcomes)?;
    let dict = PyDict::new(py);
    dict.set_item("games", built.games)?;
    dict.set_item("positions", built.positions)?;
    dict.set_item("moves", built.moves)?;
    Ok(dict)
}

/// Checks mate problems (詰将棋) in files, folders and archives, as `kifconv
/// tsume check` does, on `jobs` threads: each problem's shortest mate
/// within `depth` plies and `nodes` nodes, its alternative first moves
/// and leftover pieces. Returns a list of `(path, game, verdict, report)`
/// in input order, `verdict` one of `sound`, `unsound`, `unknown`, `not
/// proven`, `report` the detail lines. An input that cannot be read raises
/// its `KifError`, or with `errors="keep"` is a `KifWarning`.
#[pyfunction]
#[pyo3(signature = (inputs, *, depth = 31, nodes = 5_000_000, jobs = None, glob = None,
    follow = false, hidden = false, errors = "raise"))]
#[allow(clippy::too_many_arguments)]
pub fn tsume_check(
    py: Python<'_>,
    inputs: Inputs,
    depth: u32,
    nodes: u64,
    jobs: Option<i64>,
    glob: Option<Names>,
    follow: bool,
    hidden: bool,
    errors: &str,
) -> PyResult<Vec<(String, usize, &'static str, String)>> {
    let keep = keep_errors(errors)?;
    let job = TsumeCheck {
        limits: kifconv::tsume::Limits { depth, nodes },
        keep: true,
    };
    let plan = plan(py, inputs, jobs, glob, follow, hidden)?;
    let (_, verdicts, outcomes) = run(py, &plan, &job, &mut std::io::sink(), keep)?;
    warn_failures(py, &outcomes)?;
    Ok(verdicts
        .checked
        .into_iter()
        .map(|c| (c.path, c.game, verdict_name(c.soundness), c.report))
        .collect())
}
