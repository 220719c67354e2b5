//! kif: its reader and its writer.

mod columns;
pub mod read;
mod sjis;
pub mod write;
