//! kif: its reader and its writer.

mod columns;
pub(crate) mod fixed;
pub mod read;
pub mod write;
