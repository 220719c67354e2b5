//! kif: its reader and its writer.

pub mod read;
mod sjis;
pub mod write;
