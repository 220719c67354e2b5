//! western: its reader, its writer, and the notation, tags and move
//! numbers the reader reads.

mod notation;
mod numbers;
pub mod read;
pub mod tags;
pub mod write;
