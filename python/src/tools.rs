//! The small tools: `flip` (a position or a move rotated 180°), `mate`
//! (a position's mates) and `book_query` (a book's moves for a position).
//! A position is given as the command's tools take it: an SFEN (with or
//! without `sfen ` before it), `startpos`, or a USI `position … moves …`
//! line.

use crate::check;
use crate::error::{os_error, plain_error, warn};
use kifconv::{Move, Position};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// The position `text` gives (see `kifconv::read::read_position`): every
/// move checked, a ValueError naming the move and its column when one
/// cannot be played, and each warning about the start given to
/// `warnings.warn`.
fn position(py: Python<'_>, text: &str) -> PyResult<Position> {
    let record = kifconv::read::read_position(text)
        .map_err(|e| PyValueError::new_err(e.render_argument()))?;
    for warning in &record.warnings {
        warn(py, &warning.render("<position>"))?;
    }
    Ok(record.final_position())
}

/// `sfen_or_move` rotated 180° (colours swapped): a USI move (`7g7f` →
/// `3c3d`, `P*5e` → `P*5e`) or a position, given as SFEN, `startpos` or a
/// `position … moves …` line, whose rotation comes back as SFEN. How a
/// book that stores one side only is queried, and its answers mapped back.
#[pyfunction]
pub fn flip(py: Python<'_>, sfen_or_move: &str) -> PyResult<String> {
    let text = sfen_or_move.trim();
    match Move::from_usi(text) {
        Ok(mv) => return Ok(mv.flip().to_string()),
        // One word that is no position: a move written wrong.
        Err(e) if looks_like_a_move(text) => {
            return Err(PyValueError::new_err(format!(
                "neither a USI move nor a position: {e}"
            )))
        }
        Err(_) => {}
    }
    Ok(position(py, text)?.flip().sfen())
}

/// A single word that does not start a position (`startpos`, `sfen`,
/// `position`, an SFEN board with `/`): what a move would be.
fn looks_like_a_move(text: &str) -> bool {
    !text.contains([' ', '/'])
        && !["startpos", "sfen", "position"]
            .iter()
            .any(|w| text.starts_with(w))
}

/// The shortest forced mate of the side to move within `depth` plies
/// (df-pn, every attacker move a check, 打ち歩詰め illegal), as a dict:
/// `length` (plies), `line` (the main line in USI: the attacker's shortest
/// mate against the longest defence), `jsa` (the same in JSA notation),
/// `first_moves` (every first move that mates as fast; more than one is
/// 余詰) and `unique`. None means the search ended without a mate: there is
/// none within `depth`. When no mate can be asked for (the side not to
/// move has no king), ValueError; when the `nodes` budget runs out first,
/// TimeoutError (the answer is unknown, not "no mate"); `depth` and
/// `nodes` must be ≥ 1 (ValueError naming them). The attacker needs no
/// king, as in tsume. The search runs with the interpreter lock released.
#[pyfunction]
#[pyo3(signature = (position, depth = 1, nodes = 5_000_000))]
pub fn mate<'py>(
    py: Python<'py>,
    position: &str,
    depth: i64,
    nodes: i64,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    use kifconv::tsume::{jsa_moves, solve, Limits, Outcome};
    // A depth beyond u32 is no limit at all: the budget ends the search.
    let depth = u32::try_from(check::positive("depth", depth)?).unwrap_or(u32::MAX);
    let nodes = check::positive("nodes", nodes)?;
    let pos = self::position(py, position)?;
    if pos.king(!pos.side_to_move()).is_none() {
        let (defender, attacker) = match pos.side_to_move() {
            kifconv::Color::Black => ("white", "black"),
            kifconv::Color::White => ("black", "white"),
        };
        return Err(PyValueError::new_err(format!(
            "{defender} has no king: no mate can be asked for, {attacker} to move in `{}`",
            position.trim()
        )));
    }
    let outcome = py.detach(|| solve(&pos, Limits { depth, nodes }));
    let found = match outcome {
        Outcome::Mate(found) => found,
        Outcome::NoMate => return Ok(None),
        Outcome::Unknown => {
            return Err(pyo3::exceptions::PyTimeoutError::new_err(format!(
                "unknown: the budget of {nodes} nodes ran out"
            )))
        }
    };
    let usi = |moves: &[Move]| -> Vec<String> { moves.iter().map(|m| m.to_string()).collect() };
    let dict = PyDict::new(py);
    dict.set_item("length", found.len())?;
    dict.set_item("line", usi(&found.line))?;
    dict.set_item("jsa", jsa_moves(&pos, &found.line))?;
    dict.set_item("first_moves", usi(&found.first_moves))?;
    dict.set_item("unique", found.unique_first())?;
    Ok(Some(dict))
}

/// A book's moves for a position, by binary search in the book file
/// (sorted, as kifconv writes them; `.ybb`, `.bin` or text as its
/// extension says, unless `book_format` names one). The answer is a dict
/// as `kifconv book query --json` prints it: `sfen`, `found` (`"exact"`,
/// `"flipped"`: the rotation was found and the moves are rotated back, or
/// `"none"`), `ply` (None when not found), and `moves`, each a dict of
/// `usi`, `japanese`, `ponder`, `value`, `depth`, `count` and
/// `sfen_after`, most played first. A book that cannot be opened raises
/// what `open()` raises (FileNotFoundError, …, with the path); one that is
/// not a book, KifError.
#[pyfunction]
#[pyo3(signature = (book, position, *, book_format = None))]
pub fn book_query<'py>(
    py: Python<'py>,
    book: PathBuf,
    position: &str,
    book_format: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let pos = self::position(py, position)?;
    let format = crate::book::book_format(book_format, &book)?;
    let answer = py
        .detach(|| {
            let file = std::fs::File::open(&book)?;
            let len = file.metadata()?.len();
            kifconv::book::file::lookup(file, len, &pos, format)
        })
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => {
                plain_error(py, Some(&book.to_string_lossy()), &e.to_string())
            }
            _ => os_error(py, &e, &book),
        })?;
    // The command's JSON, read by Python's own json: one schema for both.
    let text = kifconv::book::query::to_json(&pos, answer.as_ref()).to_string();
    py.import("json")?.call_method1("loads", (text,))
}
