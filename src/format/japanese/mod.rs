//! Japanese notation, as KIF and KI2 (and the summaries other formats
//! borrow) write it. Each vocabulary is one table that the reading and the
//! writing side share: [`digits`], [`pieces`], [`endings`] (terminal words
//! and the `まで…` summary), [`handicaps`] (手合割 names), [`headers`]
//! (side names, hand and turn lines, CSA key names); [`move_like`] is the
//! one test of whether a text could be a move; `tokens` tells the move
//! vocabulary by its codes in UTF-8 and CP932, without decoding them.
//! [`read`] reads move texts, [`write`](mod@write) writes them, with hands,
//! board diagrams and headers.

pub mod digits;
pub mod endings;
pub mod handicaps;
pub mod headers;
pub mod move_like;
pub mod pieces;
pub mod read;
#[cfg(test)]
pub(crate) mod spellings;
pub(crate) mod tokens;
pub mod write;
