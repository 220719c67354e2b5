//! The vocabulary of shogi: colors, squares, pieces, hands and moves; and
//! the text encoding a record was read from.
//!
//! These types are small, `Copy`, and know nothing about a board. They print
//! themselves in the notations that every format shares (USI, CSA, Japanese).

mod color;
mod encoding;
mod file_name;
mod hand;
mod moves;
mod piece;
mod split_mix;
mod square;

pub use color::Color;
pub use encoding::Encoding;
pub use file_name::extension;
pub use hand::Hand;
pub use moves::{Move, MoveSyntaxError};
pub use piece::{Piece, PieceKind};
pub use split_mix::SplitMix;
pub use square::Square;
