//! Writers: a record to text in each format, replaying the position as they
//! go where the format needs it.

pub mod csa;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod usi;
pub mod western;
