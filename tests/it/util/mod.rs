//! Helpers shared by the test modules, each defined once: running the
//! binary, scratch folders, the real records beside the checkout, a seeded
//! random generator, random games, file walks, hand-made zip archives,
//! records written as text and the head of a record's snapshot.

pub mod bin;
pub mod edits;
pub mod engines;
pub mod files;
pub mod games;
pub mod rng;
pub mod scratch;
pub mod server;
pub mod shared;
pub mod summary;
pub mod write;
pub mod zip;
