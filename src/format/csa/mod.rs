//! csa: its reader, its writer and the vocabulary they share.

mod board;
pub mod header;
pub mod read;
pub mod specials;
pub mod write;

use crate::error::{Error, Stage};
use crate::format::raw::Span;

/// A syntax error about `at`, a slice of line `n`.
fn error(n: u32, line: &str, at: &str, message: impl Into<String>) -> Error {
    Error::at(
        Stage::Parse,
        n,
        line,
        Span::of(n, line, at).offset,
        at,
        message,
    )
}
