//! The names Python code gives kifconv's choices — formats to read and
//! write, encodings, colours — and what they stand for. The names are the
//! command line's (`--to`, `--from`, `--encoding`), so that a program and
//! a shell script say the same.

use kifconv::decode::{Encoding, EncodingChoice};
use kifconv::{Color, Format, Target};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// Every format written, by its `--to` name.
const TARGETS: [(&str, Target); 12] = [
    ("usi", Target::Usi),
    ("sfen", Target::Sfen),
    ("kif", Target::Kif),
    ("kifu", Target::Kifu),
    ("ki2", Target::Ki2),
    ("ki2u", Target::Ki2u),
    ("csa", Target::Csa),
    ("jkf", Target::Jkf),
    ("western", Target::Western),
    ("hcpe", Target::Hcpe),
    ("hcpe3", Target::Hcpe3),
    ("psv", Target::Psv),
];

/// Every format read, by its `--from` name.
const FORMATS: [(&str, Format); 6] = [
    ("kif", Format::Kif),
    ("ki2", Format::Ki2),
    ("csa", Format::Csa),
    ("usi", Format::Usi),
    ("jkf", Format::Jkf),
    ("western", Format::Western),
];

/// Every input encoding, by its `--encoding` names.
const ENCODINGS: [(&str, Encoding); 6] = [
    ("utf-8", Encoding::Utf8),
    ("utf8", Encoding::Utf8),
    ("sjis", Encoding::Cp932),
    ("shift_jis", Encoding::Cp932),
    ("cp932", Encoding::Cp932),
    ("euc-jp", Encoding::EucJp),
];

/// Looks `name` up (case-insensitive) in a table; a ValueError lists the
/// names there are.
fn find<T: Copy>(table: &[(&str, T)], what: &str, name: &str) -> PyResult<T> {
    let lower = name.to_ascii_lowercase();
    table
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|&(_, t)| t)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            PyValueError::new_err(format!(
                "{what} {name:?}: no such name; the names are {}",
                names.join(", ")
            ))
        })
}

/// The format to write called `name`.
pub fn target(name: &str) -> PyResult<Target> {
    find(&TARGETS, "format", name)
}

/// The format to read called `name`.
pub fn format(name: &str) -> PyResult<Format> {
    find(&FORMATS, "format", name)
}

/// The input encoding called `name`; `None` (and `auto`) detect it.
pub fn encoding(name: Option<&str>) -> PyResult<EncodingChoice> {
    match name {
        None => Ok(EncodingChoice::Auto),
        Some(n) if n.eq_ignore_ascii_case("auto") => Ok(EncodingChoice::Auto),
        Some(n) => find(&ENCODINGS, "encoding", n).map(EncodingChoice::Forced),
    }
}

/// A colour's name: `black` (先手, moves first) or `white`.
pub fn color(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}
