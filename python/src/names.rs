//! The names Python code gives kifconv's choices — formats to read and
//! write, encodings, colours — and what they stand for: the library's own
//! tables (`kifconv::format::names`), which the command reads too, so that
//! a program and a shell script say the same.

use kifconv::decode::EncodingChoice;
use kifconv::names::{self, Name, Source};
use kifconv::write::OutputEncoding;
use kifconv::{Color, Format, Target};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// A name looked up in one of the library's tables; a ValueError lists
/// the names there are.
fn find<T: Copy>(table: &[Name<T>], what: &str, name: &str) -> PyResult<T> {
    names::find(table, what, name).map_err(PyValueError::new_err)
}

/// The format to write called `name`.
pub fn target(name: &str) -> PyResult<Target> {
    find(&names::TARGETS, "format", name)
}

/// The record format to read called `name`.
pub fn format(name: &str) -> PyResult<Format> {
    match source(name)? {
        Source::Record(format) => Ok(format),
        Source::Training(_) => Err(PyValueError::new_err(format!(
            "format {name:?}: training data is read by kifconv.convert and kifconv.training, not as a record"
        ))),
    }
}

/// What an input is read as, called `name`: a record format or training
/// data.
pub fn source(name: &str) -> PyResult<Source> {
    find(&names::SOURCES, "format", name)
}

/// The input encoding called `name`; `None` (and `auto`) detect it.
pub fn encoding(name: Option<&str>) -> PyResult<EncodingChoice> {
    name.map_or(Ok(EncodingChoice::Auto), |n| {
        find(&names::INPUT_ENCODINGS, "encoding", n)
    })
}

/// The output encoding called `name`.
pub fn out_encoding(name: &str) -> PyResult<OutputEncoding> {
    find(&names::OUTPUT_ENCODINGS, "out_encoding", name)
}

/// A colour's name: `black` (先手, moves first) or `white`.
pub fn color(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}
