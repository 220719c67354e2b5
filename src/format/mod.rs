//! The formats: one folder per format with its reader (`read.rs`: text to
//! move specs and start positions) and its writer (`write.rs`: a record to
//! text, replaying the position where the format needs it), and what they
//! share: Japanese notation, the Kakinoki header and board diagram, the raw
//! game the resolver consumes, line splitting.
//!
//! Here too, the names of the formats: [`Format`] (what is read, with its
//! file extensions and, in `sniff.rs`, how it is told from the text) and
//! [`Target`] (what is written, with what each target cannot hold in
//! `lost`, with the `cli` feature).

pub mod csa;
pub mod japanese;
pub mod jkf;
pub mod kakinoki;
pub(crate) mod kakinoki_sjis;
pub mod ki2;
pub mod kif;
pub mod lines;
// What a target cannot hold: only the command warns about it.
#[cfg(feature = "cli")]
pub mod lost;
pub mod raw;
#[cfg(test)]
mod round_trip;
mod sniff;
mod target;
pub mod usen;
pub mod usi;
pub mod wars;
pub mod western;

pub use target::Target;

use crate::record::Ending;
use crate::{Move, Position};
use std::path::Path;

/// The record formats kifconv reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// Kakinoki KIF (`.kif`, `.kifu`).
    Kif,
    /// Kakinoki KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// CSA (`.csa`), several games per file.
    Csa,
    /// USI position lines or bare SFEN, one game per line (`.usi`, `.sfen`);
    /// also ShogiHome's USEN lines (`.usen`).
    Usi,
    /// Western (Hodges) notation with a PGN-like tag block (`.psn`).
    Western,
    /// JSON Kifu Format (`.jkf`, `.json`).
    Jkf,
}

impl Format {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "KIF",
            Format::Ki2 => "KI2",
            Format::Csa => "CSA",
            Format::Usi => "USI",
            Format::Western => "Western notation",
            Format::Jkf => "JKF",
        }
    }

    /// The format a file name suggests, if any.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            // `.bod`: a KIF board diagram with no moves.
            "kif" | "kifu" | "bod" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            "csa" => Some(Format::Csa),
            "usi" | "sfen" | "usen" => Some(Format::Usi),
            "psn" | "western" => Some(Format::Western),
            "jkf" | "json" => Some(Format::Jkf),
            _ => None,
        }
    }
}

/// The illegal move the writer writes for an ending in position `pos`:
/// the foul's move, when the player to move made it, it breaks the rules
/// there, and it names a piece of theirs (a board move from one of their
/// pieces, or a drop of a kind a hand can hold), so that a reader finds the
/// same foul. Other fouls are written as their ending word alone. Every writer
/// that can hold a move uses this one rule.
pub fn foul_move(ending: &Ending, pos: &Position) -> Option<Move> {
    let foul = ending.foul.as_ref()?;
    let mv = foul.mv?;
    let by = pos.side_to_move();
    if foul.by != by || pos.is_legal(mv) {
        return None;
    }
    let named = match mv {
        Move::Normal { from, .. } => pos.piece_at(from).is_some_and(|p| p.color == by),
        Move::Drop { kind, .. } => kind.is_hand_kind(),
    };
    named.then_some(mv)
}
