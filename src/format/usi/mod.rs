//! usi: its reader and its writer.

pub mod line;
pub mod read;
pub mod write;
