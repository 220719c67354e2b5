//! `kifconv.read` and `kifconv.read_text`: a file, bytes or text to
//! records, with the interpreter's lock released while the file is read
//! and parsed, so that threads reading files run in parallel.

use crate::error::{kif_error, warn};
use crate::names;
use crate::record::Record;
use kifconv::decode::{Encoding, EncodingChoice};
use kifconv::Format;
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
/// A game that cannot be read raises KifError with its place; what was
/// read leniently goes to `warnings.warn` as KifWarning.
#[pyfunction]
#[pyo3(signature = (path_or_bytes, format = None, encoding = None))]
pub fn read(
    py: Python<'_>,
    path_or_bytes: &Bound<'_, PyAny>,
    format: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Vec<Record>> {
    let format = format.map(names::format).transpose()?;
    let encoding = names::encoding(encoding)?;
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
                    .map_err(|e| kifconv::Error::io(&e))
                    .and_then(|bytes| read_all(&bytes, path, format, encoding))
            });
            finish(py, result, Some(&shown), "")
        }
        Source::Bytes(bytes) => {
            let result = py.detach(|| read_all(bytes, Path::new(""), format, encoding));
            finish(py, result, None, "<bytes>")
        }
        Source::Owned(bytes) => {
            let result = py.detach(|| read_all(bytes, Path::new(""), format, encoding));
            finish(py, result, None, "<bytes>")
        }
    }
}

/// Reads every game of a str, in `format` or, when None, the format told
/// from the text. Errors and warnings as `read` has them, the text named
/// `<text>`.
#[pyfunction]
#[pyo3(signature = (text, format = None))]
pub fn read_text(py: Python<'_>, text: &str, format: Option<&str>) -> PyResult<Vec<Record>> {
    let format = format.map(names::format).transpose()?;
    let utf8 = EncodingChoice::Forced(Encoding::Utf8);
    let result = py.detach(|| read_all(text.as_bytes(), Path::new(""), format, utf8));
    finish(py, result, None, "<text>")
}

/// The games of `bytes`, or the first game's error (as `kifconv::read`:
/// one bad game fails the input).
fn read_all(
    bytes: &[u8],
    path: &Path,
    format: Option<Format>,
    encoding: EncodingChoice,
) -> Result<Vec<kifconv::Record>, kifconv::Error> {
    let read = kifconv::read::read_bytes(bytes, path, format, encoding)?;
    match read.errors.into_iter().next() {
        Some(error) => Err(error),
        None => Ok(read.records),
    }
}

/// The records for Python, their warnings given to `warnings.warn`; or
/// the error raised.
fn finish(
    py: Python<'_>,
    result: Result<Vec<kifconv::Record>, kifconv::Error>,
    path: Option<&str>,
    shown: &str,
) -> PyResult<Vec<Record>> {
    let records = result.map_err(|e| kif_error(py, &e, path, shown))?;
    let name = path.unwrap_or(shown);
    for record in &records {
        for warning in &record.warnings {
            warn(py, &warning.render(name))?;
        }
    }
    Ok(records.into_iter().map(|inner| Record { inner }).collect())
}
