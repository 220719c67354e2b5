//! Training data for shogi engines and the books they play from: the
//! 32-byte packed position ([`packed`]) and the 16-bit moves ([`move16`])
//! that HCPE ([`hcpe`]), [`hcpe3`], PackedSfenValue ([`psv`]) and YaneuraOu's binary
//! books are made of, bit for bit as cshogi and YaneuraOu write them, and the
//! evaluations records carry ([`eval`]); HCPE, hcpe3 and PackedSfenValue
//! files read back as records ([`read`]).

pub mod data;
pub mod eval;
pub mod filter;
pub mod floodgate;
pub mod hcpe;
pub mod hcpe3;
pub mod move16;
pub mod packed;
pub mod psv;
pub mod read;
pub mod samples;
pub mod select;
pub mod uniq;

pub use data::Data;
pub use samples::{Game, Sample, TrainingError};
