//! kifconv reads shogi game records in every common format, resolves each
//! move on the board, and writes them out again in any format.
//!
//! The data flow, each stage in its own module:
//!
//! ```text
//! bytes ─decode─▶ text ─format::*::read─▶ move specs ─resolve─▶ Record
//! Record ─format::*::write─▶ text ─write::encode─▶ bytes
//! ```
//!
//! [`read()`] and [`read_bytes()`] take a file or bytes in any format and
//! encoding to [`Record`]s; [`write()`] takes records to the bytes of a
//! [`Target`] format:
//!
//! ```
//! use kifconv::{read_bytes, write, Target};
//!
//! let records = read_bytes(b"+7776FU\n-3334FU\n%TORYO\n").unwrap();
//! let kif = write(&records, Target::Kifu, &Default::default()).unwrap();
//! let again = read_bytes(&kif).unwrap();
//! assert_eq!(again[0].tree.mainline_moves().count(), 2);
//! ```
//!
//! This crate root holds no logic: it re-exports the entry points and the
//! vocabulary.
//!
//! ```
//! use kifconv::{Move, Position};
//!
//! let mut pos = Position::startpos();
//! pos.play_usi_line("7g7f 3c3d 8h2b+").unwrap();
//! assert_eq!(pos.sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
//! assert_eq!(Move::from_usi("P*5e").unwrap().flip().to_string(), "P*5e");
//! ```

#![warn(missing_docs)]

pub mod decode;
pub mod error;
pub mod format;
pub mod position;
pub mod read;
pub mod record;
pub mod resolve;
pub mod training;
pub mod types;
pub mod write;

pub use error::{Error, ErrorKind, Location};
pub use format::{Format, Target};
pub use read::{read_any as read_bytes, read_path as read};
pub use record::Record;
pub use write::{write, WriteError};

pub use position::{
    Bitboard, Candidates, Handicap, IllegalMove, KingRule, Position, PositionError, Setup,
    SetupError, SfenError, UsiMoveError,
};
pub use types::{Color, Hand, Move, Piece, PieceKind, Square};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
