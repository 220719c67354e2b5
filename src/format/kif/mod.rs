//! kif: its reader and its writer.

mod columns;
pub mod read;
mod sjis;
pub(crate) mod sjis_fixed;
pub mod write;
