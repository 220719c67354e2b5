//! ki2: its reader and its writer, and the fixed-place reader of its move
//! lines in Shift_JIS bytes.

pub(crate) mod fixed;
pub mod read;
pub mod write;
