//! `kifconv.Engine` (a USI engine driven from Python, every move it sends
//! checked) and `kifconv.analyze` (records annotated by engines): the
//! library's `kifconv::usi` and its analysis job, with the interpreter's
//! lock released while the engine thinks.

use crate::batch::{keep_errors, plan, reading, run, to_folder, Inputs, Summary};
use crate::names;
use kifconv::batch::jobs::analyze::{Analyze, EngineCommand};
use kifconv::batch::jobs::convert::Convert;
use kifconv::training::eval::Dialect;
use kifconv::usi::{self, Analysis, Bound as ScoreBound, Limit, Timeouts, Value};
use kifconv::{Move, Position, Target};
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

pyo3::create_exception!(
    kifconv,
    EngineError,
    PyException,
    "A USI engine failed: it could not start, ended, hung past its timeout, or sent a move \
     that is not legal. The message names the engine and shows the last lines exchanged."
);

fn engine_error(error: usi::EngineError) -> PyErr {
    EngineError::new_err(error.to_string())
}

/// One `info` line of a search, or the last line of one MultiPV rank.
#[pyclass(module = "kifconv", frozen, get_all)]
#[derive(Clone)]
pub struct Info {
    /// 1 for the best line, 2 for the next, …
    multipv: Option<u32>,
    depth: Option<u32>,
    seldepth: Option<u32>,
    nodes: Option<u64>,
    nps: Option<u64>,
    time_ms: Option<u64>,
    hashfull: Option<u32>,
    /// Centipawns for the side to move (None for a mate).
    score_cp: Option<i32>,
    /// Plies to a mate, positive when the side to move mates (None for
    /// centipawns, or a mate the engine gave no count for).
    mate: Option<i32>,
    /// Who mates when `mate` is a mate without a count ("+" or "-").
    mate_sign: Option<&'static str>,
    /// "exact", "lower" or "upper".
    bound: Option<&'static str>,
    /// The moves, USI.
    pv: Vec<String>,
    /// `info string …`.
    string: Option<String>,
}

#[pymethods]
impl Info {
    fn __repr__(&self) -> String {
        format!(
            "Info(multipv={:?}, depth={:?}, nodes={:?}, score_cp={:?}, mate={:?}, pv={:?})",
            self.multipv, self.depth, self.nodes, self.score_cp, self.mate, self.pv
        )
    }
}

fn score_fields(
    score: Option<usi::Score>,
) -> (
    Option<i32>,
    Option<i32>,
    Option<&'static str>,
    Option<&'static str>,
) {
    let Some(score) = score else {
        return (None, None, None, None);
    };
    let bound = Some(match score.bound {
        ScoreBound::Exact => "exact",
        ScoreBound::Lower => "lower",
        ScoreBound::Upper => "upper",
    });
    match score.value {
        Value::Cp(cp) => (Some(cp), None, None, bound),
        Value::Mate { plies: Some(n), .. } => (None, Some(n), None, bound),
        Value::Mate {
            plies: None,
            mating,
        } => (None, None, Some(if mating { "+" } else { "-" }), bound),
    }
}

impl Info {
    fn of_info(info: &usi::Info) -> Info {
        let (score_cp, mate, mate_sign, bound) = score_fields(info.score);
        Info {
            multipv: info.multipv,
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.time_ms,
            hashfull: info.hashfull,
            score_cp,
            mate,
            mate_sign,
            bound,
            pv: info.pv.clone(),
            string: info.string.clone(),
        }
    }

    fn of_pv(pv: &usi::Pv) -> Info {
        let (score_cp, mate, mate_sign, bound) = score_fields(pv.score);
        Info {
            multipv: Some(pv.multipv),
            depth: pv.depth,
            seldepth: pv.seldepth,
            nodes: pv.nodes,
            nps: None,
            time_ms: None,
            hashfull: None,
            score_cp,
            mate,
            mate_sign,
            bound,
            pv: pv.moves.iter().map(Move::to_string).collect(),
            string: None,
        }
    }
}

/// A finished search.
#[pyclass(module = "kifconv", frozen, get_all)]
pub struct Search {
    /// The move chosen (USI), or "resign", or "win".
    bestmove: String,
    /// The reply expected (USI).
    ponder: Option<String>,
    /// The last line of each MultiPV rank, best first; moves checked legal.
    lines: Vec<Info>,
    /// Every `info` line, in order.
    infos: Vec<Info>,
    /// Seconds from `go` to `bestmove`.
    elapsed: f64,
    /// `info` lines kifconv could not read.
    warnings: Vec<String>,
}

#[pymethods]
impl Search {
    fn __repr__(&self) -> String {
        format!(
            "Search(bestmove={:?}, ponder={:?}, lines={})",
            self.bestmove,
            self.ponder,
            self.lines.len()
        )
    }
}

/// A running USI engine; a context manager that ends it.
#[pyclass(module = "kifconv")]
pub struct Engine {
    inner: Mutex<Option<usi::Engine>>,
    name: String,
    pid: u32,
    options: Vec<String>,
}

/// The start and moves a position text gives (see `kifconv.flip`).
fn position(py: Python<'_>, text: &str) -> PyResult<(Position, Vec<Move>)> {
    let record = kifconv::read::read_position(text)
        .map_err(|e| PyValueError::new_err(e.render_argument()))?;
    for warning in &record.warnings {
        crate::error::warn(py, &warning.render("<position>"))?;
    }
    let moves = record.tree.mainline_moves().collect();
    Ok((record.start, moves))
}

fn limit(nodes: Option<u64>, depth: Option<u32>, movetime: Option<f64>) -> PyResult<Limit> {
    match (nodes, depth, movetime) {
        (Some(n), None, None) => Ok(Limit::Nodes(n)),
        (None, Some(d), None) => Ok(Limit::Depth(d)),
        (None, None, Some(s)) if s >= 0.0 && s.is_finite() => {
            Ok(Limit::MoveTime(Duration::from_secs_f64(s)))
        }
        (None, None, Some(s)) => Err(PyValueError::new_err(format!(
            "movetime={s}: seconds, 0 or more"
        ))),
        (None, None, None) => Err(PyValueError::new_err(
            "give one of nodes, depth or movetime",
        )),
        _ => Err(PyValueError::new_err("nodes, depth and movetime: give one")),
    }
}

fn timeouts(timeout: f64) -> PyResult<Timeouts> {
    if !(timeout > 0.0 && timeout.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "timeout={timeout}: seconds, more than 0"
        )));
    }
    let search = Duration::from_secs_f64(timeout);
    Ok(Timeouts {
        handshake: search.min(Duration::from_secs(60)),
        ready: search,
        search,
        ..Timeouts::default()
    })
}

fn option_pairs(options: Option<HashMap<String, String>>) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = options.unwrap_or_default().into_iter().collect();
    // Set in name order: the same engine state whatever the dict's order.
    pairs.sort();
    pairs
}

impl Engine {
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut usi::Engine) -> Result<T, usi::EngineError> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut guard = self
                .inner
                .lock()
                .map_err(|_| EngineError::new_err("the engine is poisoned"))?;
            let engine = guard.as_mut().ok_or_else(|| {
                EngineError::new_err(format!("engine {}: it has quit", self.name))
            })?;
            f(engine).map_err(engine_error)
        })
    }
}

#[pymethods]
impl Engine {
    /// Starts `command` (the program and its arguments; quotes group
    /// words; `ssh host engine` runs a remote one), exchanges `usi`, sets
    /// `options` and waits for `readyok`. `timeout` is how many seconds a
    /// reply may take.
    #[new]
    #[pyo3(signature = (command, options = None, *, timeout = 600.0))]
    fn new(
        py: Python<'_>,
        command: &str,
        options: Option<HashMap<String, String>>,
        timeout: f64,
    ) -> PyResult<Engine> {
        let timeouts = timeouts(timeout)?;
        let options = option_pairs(options);
        let engine = py
            .detach(|| usi::Engine::start(command, &options, timeouts))
            .map_err(engine_error)?;
        Ok(Engine {
            name: engine.name().to_string(),
            pid: engine.id(),
            options: engine.options().iter().map(|o| o.name.clone()).collect(),
            inner: Mutex::new(Some(engine)),
        })
    }

    /// The engine's `id name`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The engine's process id.
    #[getter]
    fn pid(&self) -> u32 {
        self.pid
    }

    /// The names of the options the engine declared.
    #[getter]
    fn options(&self) -> Vec<String> {
        self.options.clone()
    }

    /// Sets an option the engine declared.
    fn set_option(&self, py: Python<'_>, name: String, value: String) -> PyResult<()> {
        self.with(py, move |e| e.set_option(&name, &value))
    }

    /// `usinewgame`, then `isready`: the engine forgets earlier searches.
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |e| e.forget())
    }

    /// Searches `position` (SFEN, `startpos` or `position … moves …`) with
    /// one bound: `nodes`, `depth` or `movetime` (seconds). Every move the
    /// engine sends is checked legal; an illegal one raises EngineError.
    #[pyo3(signature = (position, *, nodes = None, depth = None, movetime = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        position: &str,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<f64>,
    ) -> PyResult<Search> {
        let limit = limit(nodes, depth, movetime)?;
        let (start, moves) = self::position(py, position)?;
        let search = self.with(py, move |e| e.search(&start, &moves, &limit))?;
        Ok(Search {
            bestmove: match search.best {
                usi::BestMove::Move(mv) => mv.to_string(),
                usi::BestMove::Resign => "resign".into(),
                usi::BestMove::Win => "win".into(),
            },
            ponder: search.ponder.map(|m| m.to_string()),
            lines: search.pvs.iter().map(Info::of_pv).collect(),
            infos: search.infos.iter().map(Info::of_info).collect(),
            elapsed: search.elapsed.as_secs_f64(),
            warnings: search.warnings,
        })
    }

    /// `go mate` on `position` for `movetime` seconds (None: until the
    /// engine answers): the mate's moves (USI, checked legal), or None when
    /// the engine finds none.
    #[pyo3(signature = (position, *, movetime = None))]
    fn mate(
        &self,
        py: Python<'_>,
        position: &str,
        movetime: Option<f64>,
    ) -> PyResult<Option<Vec<String>>> {
        let time = match movetime {
            Some(s) if s >= 0.0 && s.is_finite() => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(PyValueError::new_err(format!(
                    "movetime={s}: seconds, 0 or more"
                )))
            }
            None => None,
        };
        let (start, moves) = self::position(py, position)?;
        match self.with(py, move |e| e.mate(&start, &moves, time))? {
            usi::Mate::Found(line) => Ok(Some(line.iter().map(Move::to_string).collect())),
            usi::Mate::NoMate | usi::Mate::Timeout => Ok(None),
            usi::Mate::NotImplemented => Err(EngineError::new_err(format!(
                "engine {}: it does not search mates",
                self.name
            ))),
        }
    }

    /// Ends the engine (`quit`, then a kill after a grace time). True when
    /// it ended by itself.
    fn quit(&self, py: Python<'_>) -> bool {
        py.detach(|| {
            let engine = self.inner.lock().ok().and_then(|mut g| g.take());
            engine.is_none_or(|e| e.quit())
        })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.quit(py);
        false
    }

    fn __repr__(&self) -> String {
        format!("Engine(name={:?}, pid={})", self.name, self.pid)
    }
}

/// Records analysed by `engine`: the position after every move searched
/// (with one of `nodes`, `depth`, `movetime`), each move annotated with the
/// value and best line (KIF, KI2 and JKF as ShogiHome writes them, CSA as
/// floodgate does), as `kifconv analyze` does.
#[pyfunction]
#[pyo3(signature = (inputs, to, output = None, *, engine, nodes = None, depth = None, movetime = None,
    multipv = 1, engines = 1, options = None, variations = false, timeout = 600.0, format = None,
    encoding = None, out_encoding = None, force = false, skip_existing = false, glob = None,
    follow = false, hidden = false, errors = "raise"))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    inputs: Inputs,
    to: &str,
    output: Option<PathBuf>,
    engine: String,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<f64>,
    multipv: u32,
    engines: usize,
    options: Option<HashMap<String, String>>,
    variations: bool,
    timeout: f64,
    format: Option<String>,
    encoding: Option<String>,
    out_encoding: Option<String>,
    force: bool,
    skip_existing: bool,
    glob: Option<crate::check::Names>,
    follow: bool,
    hidden: bool,
    errors: &str,
) -> PyResult<Summary> {
    let keep = keep_errors(errors)?;
    let target = names::target(to)?;
    let dialect = match target {
        Target::Csa => Dialect::Floodgate,
        Target::Kif | Target::Kifu | Target::Ki2 | Target::Ki2u | Target::Jkf => Dialect::ShogiHome,
        _ => {
            return Err(PyValueError::new_err(format!(
            "to={to:?}: an analysis is written in comments; use kif, kifu, ki2, ki2u, csa or jkf"
        )))
        }
    };
    let limit = match (nodes, depth, movetime) {
        (None, None, None) => Limit::Nodes(100_000),
        _ => limit(nodes, depth, movetime)?,
    };
    if multipv == 0 || engines == 0 {
        return Err(PyValueError::new_err(
            "multipv and engines must be at least 1",
        ));
    }
    let mut options = option_pairs(options);
    if multipv > 1 {
        options.push(("MultiPV".into(), multipv.to_string()));
    }
    let command = EngineCommand {
        command: engine,
        options,
        timeouts: timeouts(timeout)?,
    };
    let mut write = kifconv::write::Options::default();
    write.encoding = Some(match out_encoding.as_deref() {
        None => target.encoding(),
        Some(name) => names::out_encoding(name)?,
    });
    let convert = Convert {
        target,
        reading: reading(format.as_deref(), encoding.as_deref())?,
        options: write,
        filter: None,
    };
    let analysis = Analysis {
        limit,
        variations,
        dialect,
    };
    let job = Analyze::new(convert, command, engines, analysis);
    let mut plan = plan(py, inputs, Some(engines as i64), glob, follow, hidden)?;
    to_folder(&mut plan, output.as_ref(), force, skip_existing)?;
    let mut bytes = Vec::new();
    let (summary, (_, counts), outcomes) = run(py, &plan, &job, &mut bytes, keep)?;
    if counts.failed_games > 0 && !keep {
        return Err(EngineError::new_err(format!(
            "{} games failed; pass errors=\"keep\" to keep the others",
            counts.failed_games
        )));
    }
    let output = output.is_none().then(|| PyBytes::new(py, &bytes).unbind());
    Summary::of(py, &summary, &outcomes, output)
}

/// Digs the book at `book` (DB2016 text, flip-folded; created when
/// missing) with `engine`, as `kifconv book mine` does: the positions
/// reached from `start` (position texts; the starting position by default)
/// and the book's moves up to `max_ply`, each searched `nodes` nodes with
/// MultiPV `multipv` unless it or its rotation is in the book. Saved every
/// `save_every` positions, at the end and on Ctrl-C (then
/// `KeyboardInterrupt` is raised). Returns the counts; each position an
/// engine failed on is a `KifWarning` (and in `failures`).
#[pyfunction]
#[pyo3(signature = (book, *, engine, nodes = 10_000, multipv = 1, engines = 1, start = None,
    max_ply = 16, eval_limit = None, save_every = 100, options = None, timeout = 600.0))]
#[allow(clippy::too_many_arguments)]
pub fn book_mine(
    py: Python<'_>,
    book: PathBuf,
    engine: String,
    nodes: u64,
    multipv: u32,
    engines: usize,
    start: Option<Vec<String>>,
    max_ply: u32,
    eval_limit: Option<i32>,
    save_every: usize,
    options: Option<HashMap<String, String>>,
    timeout: f64,
) -> PyResult<Py<pyo3::types::PyDict>> {
    use kifconv::book::mine::{self, Line, Options};
    use std::sync::atomic::{AtomicBool, Ordering};
    if nodes == 0 || multipv == 0 || engines == 0 || save_every == 0 {
        return Err(PyValueError::new_err(
            "nodes, multipv, engines and save_every must be at least 1",
        ));
    }
    if kifconv::book::file::BookFormat::of_path(&book) != kifconv::book::file::BookFormat::Db2016 {
        return Err(PyValueError::new_err(format!(
            "book={}: a mined book is DB2016 text (.db)",
            book.display()
        )));
    }
    let lines = match start {
        None => vec![Line::startpos()],
        Some(texts) => {
            let mut lines = Vec::with_capacity(texts.len());
            for text in texts {
                let (start, moves) = position(py, &text)?;
                lines.push(Line { start, moves });
            }
            lines
        }
    };
    let (mut opened, warnings) =
        mine::open(&book).map_err(|e| PyValueError::new_err(format!("{}: {e}", book.display())))?;
    for w in warnings {
        crate::error::warn(py, &format!("{}: {w}", book.display()))?;
    }
    let command = EngineCommand {
        command: engine,
        options: option_pairs(options),
        timeouts: timeouts(timeout)?,
    };
    let settings = Options {
        limit: Limit::Nodes(nodes),
        multipv,
        engines,
        max_ply,
        eval_limit,
        save_every,
    };
    let stop = AtomicBool::new(false);
    let mut interrupt = None;
    let mined = py.detach(|| {
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| {
                let start = || command.start();
                let mut save = |b: &kifconv::book::Book| mine::save(b, &book);
                mine::mine(&mut opened, &lines, &start, &settings, &stop, &mut save)
            });
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(20));
                if interrupt.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        interrupt = Some(e);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            worker.join().expect("mining does not panic")
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    let summary = mined.map_err(|e| EngineError::new_err(format!("{}: {e}", book.display())))?;
    for failure in &summary.failures {
        crate::error::warn(
            py,
            &format!(
                "{}: `{}` not stored: {}",
                book.display(),
                failure.position,
                failure.error
            ),
        )?;
    }
    let out = pyo3::types::PyDict::new(py);
    out.set_item("searched", summary.searched)?;
    out.set_item("present", summary.present)?;
    out.set_item("flips", summary.flips)?;
    out.set_item("again", summary.again)?;
    out.set_item("cut", summary.cut)?;
    out.set_item("no_move", summary.no_move)?;
    out.set_item(
        "failures",
        summary
            .failures
            .iter()
            .map(|f| (f.position.clone(), f.error.clone()))
            .collect::<Vec<_>>(),
    )?;
    out.set_item("positions", opened.entries.len())?;
    Ok(out.unbind())
}
