//! Training data for shogi engines and the books they play from: the
//! 32-byte packed position ([`packed`]) and the 16-bit moves ([`move16`])
//! that HCPE ([`hcpe`]), [`hcpe3`], PackedSfenValue ([`psv`]) and YaneuraOu's binary
//! books are made of, bit for bit as cshogi and YaneuraOu write them, and the
//! evaluations records carry ([`eval`]); HCPE, hcpe3 and PackedSfenValue
//! files read back as records ([`read`]) or rewritten straight ([`recode`]).
//!
//! Those formats live with the other formats (reading and writing, a layer
//! below, reach them there) and are named here again; this folder holds
//! the teacher-data toolkit over them: which games to keep ([`filter`],
//! [`select`]) and which repeat one kept before ([`uniq`]), and the
//! toolkit over training files themselves ([`toolkit`]: shuffle, split,
//! uniq, filter, convert, check).

pub mod filter;
pub mod select;
pub mod toolkit;
pub mod uniq;

pub use crate::format::training::{
    data, eval, floodgate, hcpe, hcpe3, move16, packed, psv, read, recode, samples,
};
pub use crate::format::training::{Data, Game, Sample, TrainingError, Written};

/// The game of the first record of a CSA text, for tests.
#[cfg(test)]
pub(crate) fn csa_game(csa: &str) -> Game {
    let records = crate::read::read_text(csa, crate::read::Format::Csa).expect("a CSA game");
    Game::of(&records[0]).expect("a game that replays")
}
