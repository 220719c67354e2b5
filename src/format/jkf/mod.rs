//! JKF, the JSON Kifu Format: its reader and its writer, the JSON reader
//! under them, and the preset names both use.

mod json;
mod line;
mod moves;
mod preset;
pub mod read;
mod reader;
#[cfg(test)]
pub(super) mod round_trip;
mod start;
pub mod write;
