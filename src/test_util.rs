//! The helpers the integration tests share (tests/it/util/), for the unit
//! tests that need them too: the same files, compiled into both, so that
//! each helper is written once. Their `kifconv::` paths name this crate
//! (lib.rs declares the name for tests).
//!
//! The integration tests use every helper; a unit test, some: what the
//! unit tests leave unused is not dead code.

#[allow(dead_code)]
#[path = "../tests/it/util/files.rs"]
pub mod files;
#[allow(dead_code)]
#[path = "../tests/it/util/games.rs"]
pub mod games;
#[allow(dead_code)]
#[path = "../tests/it/util/rng.rs"]
pub mod rng;
#[allow(dead_code)]
#[path = "../tests/it/util/scratch.rs"]
pub mod scratch;
#[allow(dead_code)]
#[path = "../tests/it/util/shared.rs"]
pub mod shared;
#[allow(dead_code)]
#[path = "../tests/it/util/write.rs"]
pub mod write;
