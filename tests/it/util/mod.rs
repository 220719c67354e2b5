//! Helpers shared by the test modules, each defined once: running the
//! binary, scratch folders, the real records beside the checkout, a seeded
//! random generator, random games, file walks, hand-made zip archives and
//! records written as text.

pub mod bin;
pub mod edits;
pub mod engines;
pub mod files;
pub mod games;
pub mod rng;
pub mod server;
pub mod shared;
pub mod write;
pub mod zip;
