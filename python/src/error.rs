//! kifconv's errors and warnings as Python sees them: [`KifError`], an
//! exception carrying the error's place (path, line, column, the offending
//! text) beside its rendered message, and [`KifWarning`], the category of
//! every leniency, given to Python's `warnings` machinery.

use pyo3::exceptions::{
    PyException, PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    PyUserWarning,
};
use pyo3::prelude::*;
use std::ffi::CString;
use std::path::Path;

pyo3::create_exception!(
    kifconv,
    KifError,
    PyException,
    "A record that cannot be read: `str(error)` is the message rendered as a compiler \
     would print it (path:line:column, the line, a caret); `path`, `line`, `column`, \
     `message`, `kind`, `text`, `ply` and `game` say the same in parts."
);

pyo3::create_exception!(
    kifconv,
    KifWarning,
    PyUserWarning,
    "Something read leniently (a line not understood, bytes replaced, a repaired move), \
     or an input of a batch that failed; the message is located as errors are."
);

/// The name Python sees for an error's kind.
fn kind_name(kind: kifconv::ErrorKind) -> &'static str {
    match kind {
        kifconv::ErrorKind::Io => "io",
        kifconv::ErrorKind::NotARecord => "not_a_record",
        kifconv::ErrorKind::UnknownFormat => "unknown_format",
        kifconv::ErrorKind::Syntax => "syntax",
        kifconv::ErrorKind::Illegal => "illegal",
        kifconv::ErrorKind::Unencodable => "unencodable",
        _ => "other",
    }
}

/// The exception for `error`, read from `path` (`None`: from bytes or
/// text, named `<bytes>` / `<text>` in the message as `shown`).
pub fn kif_error(py: Python<'_>, error: &kifconv::Error, path: Option<&str>, shown: &str) -> PyErr {
    let rendered = error.render(path.unwrap_or(shown));
    let exception = KifError::new_err(rendered.trim_end().to_string());
    let value = exception.value(py);
    let location = &error.location;
    let set = || -> PyResult<()> {
        value.setattr("path", path)?;
        value.setattr("line", location.line)?;
        value.setattr("column", location.column)?;
        value.setattr("message", &error.message)?;
        value.setattr("kind", kind_name(error.kind))?;
        value.setattr("text", &location.text)?;
        value.setattr("ply", location.ply)?;
        value.setattr("game", location.game.map(|(n, _)| n))?;
        Ok(())
    };
    match set() {
        Ok(()) => exception,
        Err(e) => e,
    }
}

/// A [`KifError`] for a message without a place in a record (a batch's
/// failed input, a book that cannot be read): `line` and `column` are 0.
pub fn plain_error(py: Python<'_>, path: Option<&str>, message: &str) -> PyErr {
    let exception = KifError::new_err(message.trim_end().to_string());
    let value = exception.value(py);
    let set = || -> PyResult<()> {
        value.setattr("path", path)?;
        value.setattr("line", 0)?;
        value.setattr("column", 0)?;
        value.setattr("message", message.trim_end())?;
        value.setattr("kind", "other")?;
        value.setattr("text", "")?;
        value.setattr("ply", py.None())?;
        value.setattr("game", py.None())?;
        Ok(())
    };
    match set() {
        Ok(()) => exception,
        Err(e) => e,
    }
}

/// The OSError Python raises for `error` on `path`, as `open()` would:
/// FileNotFoundError, IsADirectoryError, PermissionError… (Python picks
/// the subclass from the errno), with `errno`, `strerror` and `filename`
/// set. A file that cannot be opened is no bad record: not a KifError.
pub fn os_error(py: Python<'_>, error: &std::io::Error, path: &Path) -> PyErr {
    let filename = path.as_os_str();
    if let Some(code) = error.raw_os_error() {
        let strerror = py
            .import("os")
            .and_then(|os| os.getattr("strerror")?.call1((code,)))
            .and_then(|s| s.extract::<String>())
            .unwrap_or_else(|_| error.to_string());
        return PyOSError::new_err((code, strerror, filename.to_owned()));
    }
    let message = format!("{}: {error}", path.display());
    match error.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// Gives `message` to `warnings.warn` as a [`KifWarning`], pointing at the
/// caller's line. A filter that turns warnings into errors makes this the
/// error.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text =
        CString::new(message.trim_end().replace('\0', "\\0")).expect("NUL bytes were replaced");
    PyErr::warn(py, &py.get_type::<KifWarning>(), &text, 1)
}
