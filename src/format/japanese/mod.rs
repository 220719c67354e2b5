//! japanese: its reader and its writer.

pub mod read;
pub mod write;
