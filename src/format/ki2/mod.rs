//! ki2: its reader and its writer, and the fixed-place reader of its move
//! lines in Shift_JIS bytes.

pub mod read;
pub(crate) mod sjis_fixed;
pub mod write;
