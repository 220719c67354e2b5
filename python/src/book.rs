//! The book tools that read books, not records: `book_convert` (between
//! YaneuraOu's text and binary books and Apery's), `book_check` (every
//! fault of a text book, with its line) and `book_peta_shock` (YaneuraOu's
//! min-max of a book's values), each as the command's `kifconv book`
//! subcommand of that name does it, through the same library calls.

use crate::error::{os_error, plain_error, warn};
use kifconv::batch::jobs::book_file::{convert_file, peta_shock_file, Conversion, PetaShockError};
use kifconv::book::check::{self, Fault, Scanner};
use kifconv::book::file::BookFormat;
use pyo3::exceptions::{PyFileExistsError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};

/// A book format by name (`db`, `ybb`, `bin`), or by the path's extension.
pub fn book_format(name: Option<&str>, path: &Path) -> PyResult<BookFormat> {
    match name {
        None => Ok(BookFormat::of_path(path)),
        Some(name) => BookFormat::of_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "book_format={name:?}: the choices are \"db\", \"ybb\" and \"bin\""
            ))
        }),
    }
}

/// Refuses an output that exists, unless `force`.
fn refuse_existing(output: &Path, force: bool) -> PyResult<()> {
    if output.exists() && !force {
        return Err(PyFileExistsError::new_err(format!(
            "{} exists; give force=True to replace it",
            output.display()
        )));
    }
    Ok(())
}

/// Converts the book `input` into `output`, each in the format its
/// extension says (`.ybb`, `.bin`, else YaneuraOu's text) unless
/// `from_format` / `book_format` name one; `flip_fold` folds white-to-move
/// positions into their rotations; `crlf` ends a text book's lines with
/// CRLF, as YaneuraOu writes them. What the output's format cannot hold
/// (a `.ybb`'s counts, a `.bin`'s ponders …) and what reading mended is
/// given to `warnings.warn`. Returns the `positions` and `moves` written.
/// A book that cannot be read raises KifError; never over the input, nor
/// over an existing output without `force` (FileExistsError).
#[pyfunction]
#[pyo3(signature = (input, output, *, from_format = None, book_format = None,
    flip_fold = false, crlf = false, force = false))]
#[allow(clippy::too_many_arguments)]
pub fn book_convert<'py>(
    py: Python<'py>,
    input: PathBuf,
    output: PathBuf,
    from_format: Option<&str>,
    book_format: Option<&str>,
    flip_fold: bool,
    crlf: bool,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    refuse_existing(&output, force)?;
    let from = self::book_format(from_format, &input)?;
    let to = self::book_format(book_format, &output)?;
    let converted = py
        .detach(|| {
            convert_file(
                &input,
                from,
                &output,
                to,
                &Conversion {
                    flip_fold,
                    force,
                    crlf,
                    memory: 64 << 20,
                },
            )
        })
        .map_err(|e| plain_error(py, Some(&input.to_string_lossy()), &e))?;
    for w in &converted.warnings {
        warn(py, w)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("positions", converted.positions)?;
    dict.set_item("moves", converted.moves)?;
    Ok(dict)
}

/// Every fault of the book `book`, as `kifconv book check` finds them (a
/// `.ybb` or `.bin`, by extension or `book_format`, is read whole, each
/// fault with line 0 and kind `binary book`): a dict of `positions` and `moves` read, `faults` (a list of
/// dicts: `line`, `kind`, `message`, `text`; at most 1,000 of a kind) and
/// `counts` (kind → how many). `flip_fold`: the book is meant for
/// FlippedBook, so a white-to-move position beside its rotation is a
/// fault. A file that is no book raises KifError.
#[pyfunction]
#[pyo3(signature = (book, *, flip_fold = false, book_format = None))]
pub fn book_check<'py>(
    py: Python<'py>,
    book: PathBuf,
    flip_fold: bool,
    book_format: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let format = self::book_format(book_format, &book)?;
    if format != BookFormat::Db2016 {
        let bytes = std::fs::read(&book).map_err(|e| os_error(py, &e, &book))?;
        let checked = py.detach(|| kifconv::book::file::check_binary(&bytes, format, flip_fold));
        let mut faults = Vec::with_capacity(checked.faults.len());
        for fault in &checked.faults {
            let item = PyDict::new(py);
            item.set_item("line", 0)?;
            item.set_item("kind", "binary book")?;
            item.set_item("message", fault)?;
            item.set_item("text", "")?;
            faults.push(item);
        }
        let counts = PyDict::new(py);
        if !faults.is_empty() {
            counts.set_item("binary book", faults.len())?;
        }
        let dict = PyDict::new(py);
        dict.set_item("positions", checked.positions)?;
        dict.set_item("moves", checked.moves)?;
        dict.set_item("faults", faults)?;
        dict.set_item("counts", counts)?;
        return Ok(dict);
    }
    let file = std::fs::File::open(&book).map_err(|e| os_error(py, &e, &book))?;
    let mut scanner = Scanner::new(true);
    if flip_fold {
        scanner = scanner.flip_folded();
    }
    let checked = py
        .detach(|| check::scan(&mut std::io::BufReader::new(file), scanner))
        .map_err(|e| plain_error(py, Some(&book.to_string_lossy()), &e))?;
    let mut faults = Vec::with_capacity(checked.scanner.findings.len());
    for finding in &checked.scanner.findings {
        let item = PyDict::new(py);
        item.set_item("line", finding.at.line)?;
        item.set_item("kind", finding.fault.name())?;
        item.set_item("message", &finding.at.message)?;
        item.set_item("text", &finding.at.text)?;
        faults.push(item);
    }
    let counts = PyDict::new(py);
    for (fault, n) in Fault::ALL.iter().zip(checked.scanner.counts) {
        if n > 0 {
            counts.set_item(fault.name(), n)?;
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("positions", checked.positions)?;
    dict.set_item("moves", checked.moves)?;
    dict.set_item("faults", faults)?;
    dict.set_item("counts", counts)?;
    Ok(dict)
}

/// YaneuraOu's `makebook peta_shock` of the text book `input` into
/// `output`, as `kifconv book peta-shock` does (`shrink`: the best moves
/// only; `crlf`: the engine's line endings). Returns the engine's counts:
/// `positions`, `settled`, `in_check`, `check_loop`, `converged_moves`.
/// A bad line raises KifError naming it; never over an existing output
/// without `force`.
#[pyfunction]
#[pyo3(signature = (input, output, *, shrink = false, crlf = false, force = false))]
pub fn book_peta_shock<'py>(
    py: Python<'py>,
    input: PathBuf,
    output: PathBuf,
    shrink: bool,
    crlf: bool,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    refuse_existing(&output, force)?;
    let options = kifconv::book::peta_shock::Options { shrink, crlf };
    let summary = py
        .detach(|| peta_shock_file(&input, &output, &options, force))
        .map_err(|e| {
            let (PetaShockError::Line(e) | PetaShockError::Other(e)) = e;
            plain_error(py, Some(&input.to_string_lossy()), &e)
        })?;
    if summary.none_moves > 0 {
        warn(
            py,
            &format!(
                "{}: {} `none` move lines dropped",
                input.display(),
                summary.none_moves
            ),
        )?;
    }
    let dict = PyDict::new(py);
    dict.set_item("positions", summary.positions)?;
    dict.set_item("settled", summary.settled)?;
    dict.set_item("in_check", summary.in_check)?;
    dict.set_item("check_loop", summary.check_loop)?;
    dict.set_item("converged_moves", summary.converged_moves)?;
    Ok(dict)
}
