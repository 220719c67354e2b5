//! csa: its reader, its writer and the vocabulary they share.

pub mod read;
pub mod specials;
pub mod write;
