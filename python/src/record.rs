//! `kifconv.Record`: one game as Python sees it — headers, start, the
//! mainline's moves and positions, comments, variations, the ending — and
//! written out again in any format.

use crate::compat;
use crate::names;
use kifconv::record::NodeId;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

/// One game record: its headers, its start position, the moves of its
/// mainline (USI), the positions they lead to, its comments, its
/// variations and how it ended. `to(format)` writes it in any format.
#[pyclass(module = "kifconv", frozen)]
pub struct Record {
    pub inner: kifconv::Record,
}

#[pymethods]
impl Record {
    /// The headers (開始日時, 先手, Event, …), a read-only mapping whose
    /// keys are as written (a key given twice keeps its first value), and
    /// which also answers to any other spelling of a well-known field:
    /// `headers["先手"]` is the `N+` of a CSA record, `headers["Event"]`
    /// the `棋戦` of a KIF one. `dict(headers)` is the plain dict.
    #[getter]
    fn headers(slf: Bound<'_, Self>) -> PyResult<Headers> {
        static REGISTERED: PyOnceLock<()> = PyOnceLock::new();
        let py = slf.py();
        REGISTERED.get_or_try_init(py, || -> PyResult<()> {
            let mapping = py.import("collections.abc")?.getattr("Mapping")?;
            mapping.call_method1("register", (py.get_type::<Headers>(),))?;
            Ok(())
        })?;
        Ok(Headers {
            record: slf.unbind(),
        })
    }

    /// The player of Black (先手, 下手, `N+`, `Sente`), or None.
    #[getter]
    fn black_player(&self) -> Option<&str> {
        self.inner.black_player()
    }

    /// The player of White (後手, 上手, `N-`, `Gote`), or None.
    #[getter]
    fn white_player(&self) -> Option<&str> {
        self.inner.white_player()
    }

    /// The event (棋戦, `$EVENT`, `Event`), or None.
    #[getter]
    fn event(&self) -> Option<&str> {
        self.inner.event()
    }

    /// When the game started (開始日時, `$START_TIME`, `Date`), as
    /// written, or None.
    #[getter]
    fn start_time(&self) -> Option<&str> {
        self.inner.start_time()
    }

    /// The time control (持ち時間, `$TIME_LIMIT`, `$TIME`, `TimeControl`),
    /// as written, or None.
    #[getter]
    fn time_control(&self) -> Option<&str> {
        self.inner.time_control()
    }

    /// The position before the first move, as SFEN.
    #[getter]
    fn start_sfen(&self) -> String {
        self.inner.start.sfen()
    }

    /// The moves of the mainline, in USI (`7g7f`, `8h2b+`, `P*5e`).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner
            .tree
            .mainline_moves()
            .map(|m| m.to_string())
            .collect()
    }

    /// The moves of the mainline as cshogi's 32-bit integers, which its
    /// `Board.push` takes: Apery's 16-bit move (as HCPE holds it), with
    /// the kind of the piece moved in bits 16–19 (0 for a drop) and the
    /// kind captured in bits 20–23, numbered as cshogi numbers them.
    fn cshogi_moves(&self) -> Vec<u32> {
        let mut pos = self.inner.start.clone();
        let mut out = Vec::new();
        for mv in self.inner.tree.mainline_moves() {
            out.push(compat::cshogi_move(&pos, mv));
            pos.play_unchecked(mv);
        }
        out
    }

    /// The time spent on each move of the mainline, in seconds; None for
    /// a move the record gives no time for.
    #[getter]
    fn times(&self) -> Vec<Option<f64>> {
        let tree = &self.inner.tree;
        tree.mainline()
            .map(|id| tree.node(id).time.map(seconds))
            .collect()
    }

    /// Every position of the mainline as SFEN: the start, then the
    /// position after each move (one more than there are moves).
    #[getter]
    fn positions(&self) -> Vec<String> {
        let mut pos = self.inner.start.clone();
        let mut out = vec![pos.sfen()];
        for mv in self.inner.tree.mainline_moves() {
            pos.play_unchecked(mv);
            out.push(pos.sfen());
        }
        out
    }

    /// The evaluation of each move of the mainline, from its comment in
    /// black's view (centipawns; a mate as ±100000), as training data reads
    /// it; None for a move without one.
    #[getter]
    fn evals(&self) -> Vec<Option<i32>> {
        let record = &self.inner;
        record
            .tree
            .mainline()
            .map(|id| kifconv::training::eval::black_view(record, id))
            .collect()
    }

    /// How the mainline ended, or None when the record does not say: a
    /// dict with `kind` (CSA's word in lower case, as `training(results=…)`
    /// names it: `toryo`, `tsumi`, `sennichite`, `illegal_move`, …),
    /// `winner` (`"black"`, `"white"` or None) and `text` (as written).
    #[getter]
    fn ending<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(ending) = self.inner.ending() else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item(
            "kind",
            kifconv::training::filter::result_name(Some(ending.kind)),
        )?;
        dict.set_item("winner", ending.winner.map(names::color))?;
        dict.set_item("text", &ending.text)?;
        Ok(Some(dict))
    }

    /// The time written with the ending (spent before resigning, say), in
    /// seconds, or None: the `T` after `%TORYO`, the time on 投了's line.
    #[getter]
    fn ending_time(&self) -> Option<f64> {
        self.inner.ending().and_then(|e| e.time).map(seconds)
    }

    /// The comments written after the ending's line (none without one).
    #[getter]
    fn ending_comments(&self) -> Vec<String> {
        self.inner
            .ending()
            .map(|e| e.comments.clone())
            .unwrap_or_default()
    }

    /// The comments of the mainline by ply: item 0 holds those before the
    /// first move, item N those after move N (one more item than there
    /// are moves; an empty list where there is none).
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        let tree = &self.inner.tree;
        std::iter::once(NodeId::ROOT)
            .chain(tree.mainline())
            .map(|id| tree.node(id).comments().to_vec())
            .collect()
    }

    /// The variations, in the order the record gives them: for each, the
    /// plies played before it branches off (its first move is move
    /// `ply + 1`) and its moves in USI, up to the end of that line. A
    /// variation inside a variation is listed too, from its own branch.
    #[getter]
    fn variations(&self) -> Vec<(u32, Vec<String>)> {
        let tree = &self.inner.tree;
        let mut out = Vec::new();
        for id in tree.ids() {
            let node = tree.node(id);
            let Some(parent) = node.parent else { continue };
            if tree.children(parent).next() == Some(id) {
                continue;
            }
            let line = std::iter::successors(Some(id), |&n| tree.children(n).next());
            let moves = line
                .filter_map(|n| tree.node(n).mv)
                .map(|m| m.to_string())
                .collect();
            out.push((node.ply.saturating_sub(1), moves));
        }
        out
    }

    /// What was read leniently, each warning as `line:column: message
    /// (`text`)` (they were also given to `warnings.warn` when read).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.iter().map(|w| w.to_string()).collect()
    }

    /// The record written as `format` (`usi`, `sfen`, `kif`, `kifu`,
    /// `ki2`, `ki2u`, `csa`, `jkf`, `western`, `hcpe`, `hcpe3`, `psv`),
    /// rotated 180° first with `flip=True`. Text in UTF-8 is a str; the
    /// Shift_JIS formats (`kif`, `ki2`) and the training data are bytes,
    /// as a file holds them.
    #[pyo3(signature = (format, flip = false))]
    fn to<'py>(&self, py: Python<'py>, format: &str, flip: bool) -> PyResult<Bound<'py, PyAny>> {
        let target = names::target(format)?;
        let flipped;
        let record = if flip {
            flipped = self.inner.flip();
            &flipped
        } else {
            &self.inner
        };
        let options = kifconv::write::Options::default();
        let bytes = kifconv::write(std::slice::from_ref(record), target, &options)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let text = !target.is_training()
            && options.encoding_for(target) == kifconv::write::OutputEncoding::Utf8;
        if !text {
            return Ok(PyBytes::new(py, &bytes).into_any());
        }
        Ok(match String::from_utf8(bytes) {
            Ok(s) => PyString::new(py, &s).into_any(),
            Err(e) => PyBytes::new(py, e.as_bytes()).into_any(),
        })
    }

    fn __repr__(&self) -> String {
        let moves = self.inner.tree.mainline().count();
        format!(
            "<kifconv.Record: {moves} moves from {}>",
            self.inner.start.sfen()
        )
    }
}

/// A record's headers as a read-only mapping (`Record.headers`): keys as
/// written, in input order, a key given twice with its first value; a key
/// not written that spells a well-known field (先手 for `N+`, `Event` for
/// 棋戦) finds that field's header, as `kifconv::Record::header` does.
#[pyclass(module = "kifconv", name = "_Headers", frozen, mapping)]
pub struct Headers {
    record: Py<Record>,
}

impl Headers {
    /// The keys as written, each once, in input order, with their first value.
    fn pairs<'a>(&self, record: &'a kifconv::Record) -> Vec<(&'a str, &'a str)> {
        let mut out: Vec<(&str, &str)> = Vec::with_capacity(record.headers.len());
        for header in &record.headers {
            if !out.iter().any(|(k, _)| *k == header.key) {
                out.push((&header.key, &header.value));
            }
        }
        out
    }

    /// The value for `key`: as written, else by its field.
    fn lookup(&self, key: &Bound<'_, PyAny>) -> Option<String> {
        let key = key.extract::<&str>().ok()?;
        self.record.get().inner.header(key).map(str::to_string)
    }

    /// The headers as a plain dict, keys as written.
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (key, value) in self.pairs(&self.record.get().inner) {
            dict.set_item(key, value)?;
        }
        Ok(dict)
    }
}

#[pymethods]
impl Headers {
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<String> {
        self.lookup(key)
            .ok_or_else(|| PyKeyError::new_err(key.clone().unbind()))
    }

    #[pyo3(signature = (key, default = None))]
    fn get(&self, key: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> Option<Py<PyAny>> {
        let py = key.py();
        match self.lookup(key) {
            Some(value) => Some(PyString::new(py, &value).into_any().unbind()),
            None => default,
        }
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        self.lookup(key).is_some()
    }

    fn __len__(&self) -> usize {
        self.pairs(&self.record.get().inner).len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.keys(py)?.into_any().try_iter().map(Bound::into_any)
    }

    /// The keys as written.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let record = &self.record.get().inner;
        PyList::new(py, self.pairs(record).into_iter().map(|(k, _)| k))
    }

    /// The values, in the order of the keys.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let record = &self.record.get().inner;
        PyList::new(py, self.pairs(record).into_iter().map(|(_, v)| v))
    }

    /// The `(key, value)` pairs, keys as written.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let record = &self.record.get().inner;
        PyList::new(py, self.pairs(record))
    }

    /// Equal to a mapping with the same keys as written and values.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let py = other.py();
        let other = match other.cast::<Headers>() {
            Ok(headers) => headers.get().dict(py)?.into_any(),
            Err(_) => other.clone(),
        };
        self.dict(py)?.eq(other)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Headers({})", self.dict(py)?.repr()?))
    }
}

/// A move's time in seconds.
fn seconds(time: kifconv::record::MoveTime) -> f64 {
    time.spent_ms as f64 / 1000.0
}
