//! The three kinds of training data as one choice: what `--to hcpe`,
//! `--to hcpe3` and `--to psv` write for a game.

use super::samples::{Game, TrainingError};
use super::{hcpe, hcpe3, psv};
use crate::Target;

/// A kind of training data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Data {
    /// HCPE: an entry per position.
    Hcpe,
    /// hcpe3: a block per game.
    Hcpe3,
    /// PackedSfenValue: an entry per position.
    Psv,
}

impl Data {
    /// The kind a target writes, if it is training data.
    pub fn of(target: Target) -> Option<Data> {
        match target {
            Target::Hcpe => Some(Data::Hcpe),
            Target::Hcpe3 => Some(Data::Hcpe3),
            Target::Psv => Some(Data::Psv),
            _ => None,
        }
    }

    /// The target that writes this kind.
    pub fn target(self) -> Target {
        match self {
            Data::Hcpe => Target::Hcpe,
            Data::Hcpe3 => Target::Hcpe3,
            Data::Psv => Target::Psv,
        }
    }

    /// The kind a file name's extension says (`.hcpe`, `.hcpe3`, `.psv`,
    /// in any ASCII case).
    pub fn from_extension(path: &std::path::Path) -> Option<Data> {
        const EXTENSIONS: [(&str, Data); 3] = [
            ("hcpe", Data::Hcpe),
            ("hcpe3", Data::Hcpe3),
            ("psv", Data::Psv),
        ];
        let ext = crate::types::extension(path)?;
        EXTENSIONS
            .iter()
            .find(|(name, _)| ext.eq_ignore_ascii_case(name.as_bytes()))
            .map(|&(_, data)| data)
    }

    /// The records of a file of this kind: one per entry (HCPE,
    /// PackedSfenValue) or per game (hcpe3), or the error of each entry
    /// that cannot be read (see [`super::read`]).
    pub fn read(self, bytes: &[u8]) -> Vec<Result<crate::record::Record, super::read::ReadError>> {
        self.records(bytes).collect()
    }

    /// The records of a file of this kind read from `reader` a chunk at a
    /// time, one after another, in constant memory (see
    /// [`super::read::Records`]).
    pub fn records<R: std::io::Read>(self, reader: R) -> super::read::Records<R> {
        super::read::Records::new(reader, self)
    }

    /// Whether the data is kept game by game (a game's positions cannot be
    /// dropped from its middle).
    pub fn whole_games(self) -> bool {
        self == Data::Hcpe3
    }

    /// What writing `game` as this kind loses, said as a warning: a move
    /// number over 65535 written to PackedSfenValue's 16-bit `gamePly`
    /// saturates at 65535 (HCPE and hcpe3 store no move number).
    pub fn loss(self, game: &Game) -> Option<String> {
        if self != Data::Psv {
            return None;
        }
        let (count, first) = psv::saturated(game)?;
        Some(format!(
            "{count} positions have a move number over 65535 (the first {first}), written as 65535: PackedSfenValue's gamePly has 16 bits"
        ))
    }

    /// The bytes of `game` (all its samples, or what a filter kept).
    pub fn encode(self, game: &Game) -> Result<Vec<u8>, TrainingError> {
        let mut bytes = Vec::new();
        self.push(game, &mut bytes)?;
        Ok(bytes)
    }

    /// Appends [`Data::encode`]'s bytes to `out`; nothing when it fails.
    pub fn push(self, game: &Game, out: &mut Vec<u8>) -> Result<(), TrainingError> {
        match self {
            Data::Hcpe => hcpe::push(game, out),
            Data::Hcpe3 => {
                out.extend_from_slice(&hcpe3::encode(game)?);
                Ok(())
            }
            Data::Psv => psv::push(game, out),
        }
    }
}
