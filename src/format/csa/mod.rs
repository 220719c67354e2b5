//! csa: its reader, its writer and the vocabulary they share.

mod board;
mod common;
pub mod header;
pub mod read;
pub mod specials;
pub mod values;
pub mod write;

/// Every CSA syntax error names a slice of its line.
use crate::format::lines::error;
