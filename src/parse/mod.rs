//! Readers: text to move specs and start positions, syntax only. No reader
//! looks at a board; resolving moves is the next stage's job.

pub mod common;
pub mod csa;
pub mod jkf;
pub mod kakinoki;
pub mod ki2;
pub mod kif;
pub mod lines;
pub mod raw;
pub mod spec;
pub mod usen;
pub mod usi;
pub mod wars;
pub mod western;
