//! `kifconv.Record`: one game as Python sees it — headers, start, the
//! mainline's moves and positions, comments, variations, the ending — and
//! written out again in any format.

use crate::names;
use kifconv::record::NodeId;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

/// One game record: its headers, its start position, the moves of its
/// mainline (USI), the positions they lead to, its comments, its
/// variations and how it ended. `to(format)` writes it in any format.
#[pyclass(module = "kifconv", frozen)]
pub struct Record {
    pub inner: kifconv::Record,
}

#[pymethods]
impl Record {
    /// The headers (開始日時, 先手, Event, …) as a dict, keys as written;
    /// a key given twice keeps its first value.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for header in &self.inner.headers {
            if !dict.contains(&header.key)? {
                dict.set_item(&header.key, &header.value)?;
            }
        }
        Ok(dict)
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

    /// Every position of the mainline as SFEN: the start, then the
    /// position after each move (one more than there are moves).
    fn positions(&self) -> Vec<String> {
        let mut pos = self.inner.start.clone();
        let mut out = vec![pos.sfen()];
        for mv in self.inner.tree.mainline_moves() {
            pos.play_unchecked(mv);
            out.push(pos.sfen());
        }
        out
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

    /// The comments of the mainline by ply: item 0 holds those before the
    /// first move, item N those after move N (one more item than there
    /// are moves; an empty list where there is none).
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        let tree = &self.inner.tree;
        std::iter::once(NodeId::ROOT)
            .chain(tree.mainline())
            .map(|id| tree.node(id).comments.clone())
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
