//! The formats: one folder per format with its reader (`read.rs`: text to
//! move specs and start positions) and its writer (`write.rs`: a record to
//! text, replaying the position where the format needs it), and what they
//! share: Japanese notation, the Kakinoki header and board diagram, line
//! splitting. Each reader fills in the raw game of [`crate::record::raw`].
//!
//! Here too, the names of the formats: [`Format`] (what is read, with its
//! file extensions and, in `sniff.rs`, how it is told from the text) and
//! [`Target`] (what is written, with what each target cannot hold in
//! `lost`, with the `batch` feature).

pub(crate) mod clock;
pub mod csa;
pub mod endings;
pub(crate) mod forks;
pub mod japanese;
pub mod jkf;
pub mod kakinoki;
pub mod ki2;
pub mod kif;
pub mod lines;
pub mod names;
// What a target cannot hold: only batch conversion warns about it.
#[cfg(feature = "batch")]
pub mod lost;
#[cfg(test)]
mod round_trip;
pub(crate) mod sniff;
mod target;
pub mod training;
pub mod usen;
pub mod usi;
pub mod wars;
pub mod western;

pub use target::{OutputEncoding, Target};

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

    /// The format a file name suggests, if any (the extension compared
    /// ASCII case-insensitively).
    pub fn from_extension(path: &Path) -> Option<Format> {
        const EXTENSIONS: [(&str, Format); 13] = [
            ("kif", Format::Kif),
            ("kifu", Format::Kif),
            // `.bod`: a KIF board diagram with no moves.
            ("bod", Format::Kif),
            ("ki2", Format::Ki2),
            ("ki2u", Format::Ki2),
            ("csa", Format::Csa),
            ("usi", Format::Usi),
            ("sfen", Format::Usi),
            ("usen", Format::Usi),
            ("psn", Format::Western),
            ("western", Format::Western),
            ("jkf", Format::Jkf),
            ("json", Format::Jkf),
        ];
        let ext = crate::types::extension(path)?;
        EXTENSIONS
            .iter()
            .find(|(name, _)| ext.eq_ignore_ascii_case(name.as_bytes()))
            .map(|&(_, format)| format)
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

#[cfg(test)]
mod extension_tests {
    use super::*;

    /// The formats are those the lowercase extension names: every
    /// extension of the table, in any case, and a few others (paths of
    /// every shape are `types::extension`'s, tested there).
    #[test]
    fn extensions_are_those_of_path_extension() {
        let names = [
            "a.csa",
            "A.CSA",
            "a.Kif",
            "x.kifu",
            "x.bod",
            "x.ki2",
            "dir/a.ki2u",
            "x.usi",
            "x.sfen",
            "x.usen",
            "x.psn",
            "x.western",
            "x.jkf",
            "x.JSON",
            "dir.kif/a",
            ".csa",
            "",
            "a/b.tar.gz",
            "x.hcpe",
            "ｘ.ｃｓａ",
        ];
        for name in names {
            let path = Path::new(name);
            let lower = path
                .extension()
                .and_then(|e| e.to_str())
                .map(|e| e.to_ascii_lowercase());
            let expected = match lower.as_deref() {
                Some("kif" | "kifu" | "bod") => Some(Format::Kif),
                Some("ki2" | "ki2u") => Some(Format::Ki2),
                Some("csa") => Some(Format::Csa),
                Some("usi" | "sfen" | "usen") => Some(Format::Usi),
                Some("psn" | "western") => Some(Format::Western),
                Some("jkf" | "json") => Some(Format::Jkf),
                _ => None,
            };
            assert_eq!(Format::from_extension(path), expected, "{name:?}");
        }
    }
}
