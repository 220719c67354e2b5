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
//! # The public surface
//!
//! - Reading: [`read()`], [`read_bytes()`] and, in [`mod@read`], a forced
//!   format or encoding ([`read::read_bytes`]), text in a known [`Format`]
//!   ([`read::read_text`], [`read::read_games`]) and the syntax stage alone
//!   ([`read::parse`]).
//! - Writing: [`write()`] and, in [`mod@write`], its [`Options`](write::Options),
//!   the one-file-per-game layout ([`write::write_files`]) and the encoder
//!   ([`write::encode`]); the formats are the [`Target`]s.
//! - The game: [`record`] ([`Record`], its [`MoveTree`](record::MoveTree) of
//!   [`Node`](record::Node)s, endings, headers, times, fouls).
//! - Text from bytes: [`decode`] (which encoding, and the text).
//! - Errors: [`error`] ([`Error`], [`ErrorKind`]).
//! - The rules: [`position`] ([`Position`], legal moves, handicap starts)
//!   and the small value types of [`types`] ([`Move`], [`Square`], …).
//! - One move as text says it: [`resolve`] ([`MoveSpec`](resolve::spec::MoveSpec)
//!   with `to_move` and `from_move`).
//! - Training data for engines: [`training`] (HCPE, PackedSfenValue).
//! - The command line, with the default `cli` feature: `cli::main`, the
//!   whole of the `kifconv` binary.
//!
//! The formats' own readers, writers and tables, the record builder and
//! the resolver's helpers are the crate's own; a library user reaches them
//! through the entry points above.
//!
//! # Layers
//!
//! The modules are layered; each may use its own layer and those to its
//! left, never one to its right:
//!
//! ```text
//! types, error → position → resolve → record → {decode, format}
//!   → {read, write} → {training, book, tsume} → batch → {cli, python}
//! ```
//!
//! `record` and `resolve` name no format: each reader maps its own words
//! (terminal words, 手合割 names) to typed values before the game builder
//! sees them, and the raw game the readers fill in lives with the builder
//! (`record::raw`). The formats of training data (HCPE, hcpe3,
//! PackedSfenValue) sit with the other formats, so that reading and writing
//! reach them; [`training`] names them again beside its toolkit.
//! `tests/it/layout.rs` holds the order as data and fails on an import
//! against it, and on any cycle of imports between files or folders.
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
// The library holds no unsafe code.
#![forbid(unsafe_code)]

pub mod book;
pub mod decode;
pub mod error;
pub(crate) mod format;
pub mod position;
pub mod read;
pub mod record;
pub mod resolve;
pub mod training;
pub mod tsume;
pub mod types;
pub mod usi;
pub mod write;

#[cfg(feature = "batch")]
pub mod batch;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "serve")]
pub mod serve;

// The test helpers shared with tests/it name the crate `kifconv`, as the
// integration tests do.
#[cfg(test)]
extern crate self as kifconv;
#[cfg(test)]
mod test_util;

pub use error::{Error, ErrorKind, Location};
/// The name KIF and KI2 give a standard start after `手合割：` (平手,
/// 香落ち, 二枚落ち, …): `handicap_name(Handicap::TwoPieces)` is `二枚落ち`.
pub use format::japanese::handicaps::handicap_name;
pub use format::{names, Format, Target};
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
