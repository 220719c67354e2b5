//! `kifconv.read` and `kifconv.read_text`: a file, bytes or text to
//! records, with the interpreter's lock released while the file is read
//! and parsed, so that threads reading files run in parallel.

use crate::check;
use crate::error::{kif_error, os_error, warn};
use crate::names;
use crate::record::Record;
use kifconv::decode::{Encoding, EncodingChoice};
use kifconv::read::Read;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use std::path::{Path, PathBuf};

/// Where the bytes come from, and the name messages give them.
enum Source<'a> {
    File(PathBuf),
    Bytes(&'a [u8]),
    Owned(Vec<u8>),
}

/// Reads every game of a file (a path: str or os.PathLike) or of bytes,
/// whatever the format and encoding (told from the content, then the file
/// name) unless `format` (`kif`, `ki2`, `csa`, `usi`, `jkf`, `western`) or
/// `encoding` (`utf-8`, `sjis`, `euc-jp`) says. Training data (`.hcpe`,
/// `.hcpe3`, `.psv` files) reads as a record per entry or game.
///
/// A file that cannot be opened raises what `open()` raises
/// (FileNotFoundError, IsADirectoryError, PermissionError, with the path).
/// A game that cannot be read raises KifError with its place; with
/// `errors="keep"` the other games of the file are kept and each bad
/// game's error goes to `warnings.warn` as KifWarning instead (KifError
/// still when no game at all can be read). What was read leniently goes to
/// `warnings.warn` as KifWarning.
#[pyfunction]
#[pyo3(signature = (path_or_bytes, format = None, encoding = None, *, errors = "raise"))]
pub fn read(
    py: Python<'_>,
    path_or_bytes: &Bound<'_, PyAny>,
    format: Option<&str>,
    encoding: Option<&str>,
    errors: &str,
) -> PyResult<Vec<Record>> {
    let format = format.map(names::format).transpose()?;
    let encoding = names::encoding(encoding)?;
    let keep = keep(errors)?;
    let source = if let Ok(bytes) = path_or_bytes.cast::<PyBytes>() {
        Source::Bytes(bytes.as_bytes())
    } else if let Ok(array) = path_or_bytes.cast::<PyByteArray>() {
        Source::Owned(array.to_vec())
    } else if let Ok(path) = path_or_bytes.extract::<PathBuf>() {
        Source::File(path)
    } else {
        return Err(PyTypeError::new_err(
            "read() takes a path (str or os.PathLike) or bytes",
        ));
    };
    match &source {
        Source::File(path) => {
            let shown = path.to_string_lossy().into_owned();
            let result = py.detach(|| {
                std::fs::read(path)
                    .map(|bytes| kifconv::read::read_bytes(&bytes, path, format, encoding))
            });
            let result = result.map_err(|e| os_error(py, &e, path))?;
            finish(py, result, keep, Some(&shown), "")
        }
        Source::Bytes(bytes) => {
            let result =
                py.detach(|| kifconv::read::read_bytes(bytes, Path::new(""), format, encoding));
            finish(py, result, keep, None, "<bytes>")
        }
        Source::Owned(bytes) => {
            let result =
                py.detach(|| kifconv::read::read_bytes(bytes, Path::new(""), format, encoding));
            finish(py, result, keep, None, "<bytes>")
        }
    }
}

/// Reads every game of a str, in `format` or, when None, the format told
/// from the text. Errors, `errors="keep"` and warnings as `read` has them,
/// the text named `<text>`.
#[pyfunction]
#[pyo3(signature = (text, format = None, *, errors = "raise"))]
pub fn read_text(
    py: Python<'_>,
    text: &str,
    format: Option<&str>,
    errors: &str,
) -> PyResult<Vec<Record>> {
    let format = format.map(names::format).transpose()?;
    let keep = keep(errors)?;
    let utf8 = EncodingChoice::Forced(Encoding::Utf8);
    let result =
        py.detach(|| kifconv::read::read_bytes(text.as_bytes(), Path::new(""), format, utf8));
    finish(py, result, keep, None, "<text>")
}

/// Whether `errors` (`raise` or `keep`) keeps a file's good games when
/// others fail.
fn keep(errors: &str) -> PyResult<bool> {
    Ok(check::one_of("errors", errors, &["raise", "keep"])? == "keep")
}

/// The records for Python, their warnings given to `warnings.warn`; or
/// the error raised: the input's, or its first bad game's (as
/// `kifconv::read`: one bad game fails the input) unless `keep`, which
/// warns each bad game's error once and raises only when no game is left.
fn finish(
    py: Python<'_>,
    result: Result<Read, kifconv::Error>,
    keep: bool,
    path: Option<&str>,
    shown: &str,
) -> PyResult<Vec<Record>> {
    let read = result.map_err(|e| kif_error(py, &e, path, shown))?;
    let name = path.unwrap_or(shown);
    if let Some(first) = read.errors.first() {
        if !keep || read.records.is_empty() {
            return Err(kif_error(py, first, path, shown));
        }
    }
    for error in &read.errors {
        warn(py, &error.render(name))?;
    }
    for record in &read.records {
        for warning in &record.warnings {
            warn(py, &warning.render(name))?;
        }
    }
    Ok(read
        .records
        .into_iter()
        .map(|inner| Record { inner })
        .collect())
}
