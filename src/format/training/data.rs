//! The three kinds of training data as one choice: what `--to hcpe`,
//! `--to hcpe3` and `--to psv` write for a game.

use super::samples::{Game, TrainingError, Written};
use super::{hcpe, hcpe3, psv};
use crate::record::Record;
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
        (self == Data::Psv)
            .then(|| psv::saturated(game))
            .flatten()
            .map(saturation)
    }

    /// [`Data::loss`] for what [`Data::push_read`] wrote.
    pub fn loss_written(self, written: &Written) -> Option<String> {
        (self == Data::Psv)
            .then(|| psv::saturated_written(written))
            .flatten()
            .map(saturation)
    }

    /// Appends the bytes of `record`'s mainline to `out`: what
    /// [`Game::of_read`] then [`Data::push`] give, for a record as a
    /// reader returned it, without making the game where an entry is a
    /// position (HCPE, PackedSfenValue); nothing when it fails. A move
    /// with two evaluations is said in `warnings`, when given, as
    /// [`Game::warnings`] says it.
    pub fn push_read(
        self,
        record: &Record,
        out: &mut Vec<u8>,
        warnings: Option<&mut Vec<String>>,
    ) -> Result<Written, TrainingError> {
        match self {
            Data::Hcpe => hcpe::push_read(record, out, warnings),
            Data::Psv => psv::push_read(record, out, warnings),
            Data::Hcpe3 => {
                let game = Game::of_read(record)?;
                self.push(&game, out)?;
                if let Some(warnings) = warnings {
                    warnings.extend(game.warnings.iter().cloned());
                }
                Ok(Written {
                    positions: game.samples.len(),
                    missing: game.missing,
                    first_move_number: game.start().move_number(),
                })
            }
        }
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

/// The warning for `count` positions whose move number PackedSfenValue
/// cannot hold, the first of them `first`.
fn saturation((count, first): (usize, u32)) -> String {
    format!(
        "{count} positions have a move number over 65535 (the first {first}), written as 65535: PackedSfenValue's gamePly has 16 bits"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    /// Each kind's bytes of a record written straight ([`Data::push_read`])
    /// are those of its game ([`Game::of_read`], [`Data::push`]), after
    /// bytes already there, with the same warnings, counts and loss; on a
    /// game with evaluations and a move with two, a handicap start, and a
    /// start past move 65535.
    #[test]
    fn records_written_straight_are_their_games_bytes() {
        let csa =
            "V2.2\nPI\n+\n+7776FU\n'** 50\n'** 60\n-3334FU\n'** -20\n+8822UM\n-3122GI\n%TORYO\n";
        let records = [
            read_text(csa, Format::Csa).unwrap().remove(0),
            read_text(
                "position sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d 7g7f",
                Format::Usi,
            )
            .unwrap()
            .remove(0),
            read_text(
                "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 65535 moves 7g7f 3c3d 2g2f",
                Format::Usi,
            )
            .unwrap()
            .remove(0),
        ];
        for data in [Data::Hcpe, Data::Hcpe3, Data::Psv] {
            for record in &records {
                let game = Game::of_read(record).unwrap();
                let mut want = vec![7u8; 3];
                data.push(&game, &mut want).unwrap();
                let (mut got, mut warnings) = (vec![7u8; 3], Vec::new());
                let written = data
                    .push_read(record, &mut got, Some(&mut warnings))
                    .unwrap();
                assert_eq!(got, want, "{data:?} {}", record.start.sfen());
                assert_eq!(warnings, game.warnings);
                assert_eq!(
                    (written.positions, written.missing),
                    (game.samples().len(), game.missing)
                );
                assert_eq!(data.loss_written(&written), data.loss(&game));
            }
        }
        // The first game's second evaluation and the last game's
        // saturated move numbers were seen.
        let game = Game::of_read(&records[0]).unwrap();
        assert_eq!(game.warnings.len(), 1, "{:?}", game.warnings);
        let last = Game::of_read(&records[2]).unwrap();
        assert!(Data::Psv
            .loss(&last)
            .is_some_and(|l| l.starts_with("2 positions")));
    }
}
