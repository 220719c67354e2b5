//! The binary training-data formats as formats: the 32-byte packed position
//! ([`packed`]) and the 16-bit moves ([`move16`]) that HCPE ([`hcpe`]),
//! [`hcpe3`], PackedSfenValue ([`psv`]) and YaneuraOu's binary books are made
//! of, bit for bit as cshogi and YaneuraOu write them; a record's mainline as
//! training samples ([`samples`]) with the evaluations ([`eval`]) and the
//! floodgate notes ([`floodgate`]) records carry; and HCPE, hcpe3 and
//! PackedSfenValue files read back as records ([`read`]) or rewritten
//! straight as other training data or SFEN ([`recode`]). They sit with the
//! formats so that reading and writing reach them; the teacher-data toolkit
//! over them is `crate::training`, which also names them for the library's
//! users.

pub mod data;
pub mod eval;
pub mod floodgate;
pub mod hcpe;
pub mod hcpe3;
pub mod move16;
pub mod packed;
pub mod psv;
pub mod read;
pub mod recode;
pub mod samples;

pub use data::Data;
pub use samples::{Game, Sample, TrainingError, Written};
