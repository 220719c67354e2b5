//! The small tools: `flip` (a position or a move rotated 180°), `mate`
//! (a position's mates) and `book_query` (a book's moves for a position).
//! A position is given as the command's tools take it: an SFEN (with or
//! without `sfen ` before it), `startpos`, or a USI `position … moves …`
//! line.

use crate::error::plain_error;
use kifconv::cli::api;
use kifconv::{Move, Position};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// The position `text` gives; a ValueError says what is wrong.
fn position(text: &str) -> PyResult<Position> {
    api::position(text).map_err(PyValueError::new_err)
}

/// `sfen_or_move` rotated 180° (colours swapped): a USI move (`7g7f` →
/// `3c3d`, `P*5e` → `P*5e`) or a position, given as SFEN, `startpos` or a
/// `position … moves …` line, whose rotation comes back as SFEN. How a
/// book that stores one side only is queried, and its answers mapped back.
#[pyfunction]
pub fn flip(sfen_or_move: &str) -> PyResult<String> {
    let text = sfen_or_move.trim();
    if let Ok(mv) = Move::from_usi(text) {
        return Ok(mv.flip().to_string());
    }
    Ok(position(text)?.flip().sfen())
}

/// Every mate in `depth` of a position, as USI moves (an empty list when
/// there is none; more than one: the problem's solution is not unique).
/// This build solves mates in one only: `depth` other than 1 is a
/// ValueError until the mate solver lands.
#[pyfunction]
#[pyo3(signature = (position, depth = 1))]
pub fn mate(py: Python<'_>, position: &str, depth: u32) -> PyResult<Vec<String>> {
    if depth != 1 {
        return Err(PyValueError::new_err(format!(
            "depth {depth}: only depth 1 in this build"
        )));
    }
    let pos = self::position(position)?;
    Ok(py.detach(|| {
        pos.legal_moves()
            .into_iter()
            .filter(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                after.is_checkmate()
            })
            .map(|mv| mv.to_string())
            .collect()
    }))
}

/// A book's moves for a position, by binary search in the book file
/// (sorted, as kifconv writes them), or None when neither the position nor
/// its rotation is there. The answer is a dict as `kifconv book query
/// --json` prints it: `sfen`, `flipped` (the rotation was found; the moves
/// are rotated back), `ply`, and `moves`, each a dict of `move`, `ponder`,
/// `value`, `depth` and `count`, most played first.
#[pyfunction]
pub fn book_query<'py>(
    py: Python<'py>,
    book: PathBuf,
    position: &str,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let pos = self::position(position)?;
    let answer = py
        .detach(|| {
            let file = std::fs::File::open(&book)?;
            let len = file.metadata()?.len();
            kifconv::book::query::lookup_file(file, len, &pos)
        })
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => {
                plain_error(py, Some(&book.to_string_lossy()), &e.to_string())
            }
            _ => PyOSError::new_err(format!("{}: {e}", book.display())),
        })?;
    let Some(answer) = answer else {
        return Ok(None);
    };
    let dict = PyDict::new(py);
    dict.set_item("sfen", pos.sfen())?;
    dict.set_item("flipped", answer.flipped)?;
    dict.set_item("ply", answer.ply)?;
    let mut moves = Vec::with_capacity(answer.moves.len());
    for m in answer.moves {
        let item = PyDict::new(py);
        item.set_item("move", m.mv)?;
        item.set_item("ponder", m.ponder)?;
        item.set_item("value", m.value)?;
        item.set_item("depth", m.depth)?;
        item.set_item("count", m.count)?;
        moves.push(item);
    }
    dict.set_item("moves", moves)?;
    Ok(Some(dict))
}
