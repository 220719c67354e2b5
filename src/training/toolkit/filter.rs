//! `train filter`: the entries of training files that pass every test
//! asked, in order. The tests read the stored fields and nothing else
//! (`train check` decodes the rest):
//!
//! * [`Tests::max_abs_eval`]: the evaluation (from the side to move) at
//!   most this in absolute value.
//! * [`Tests::drop_draws`]: a result with a winner (HCPE's winner bits
//!   1 or 2, PackedSfenValue's `game_result` ±1); a draw, or no result,
//!   is left out.
//! * [`Tests::min_ply`]: PackedSfenValue's `gamePly` at least this. HCPE
//!   and hcpe3 store no move number, so this test is refused for them.
//!
//! hcpe3 games are kept or left out whole: only `drop_draws` applies to
//! them (the game's result); the evaluation test would cut games, so it
//! is refused for hcpe3 (convert to HCPE first).

use super::{blocks_of, for_each_block, Faults};
use crate::training::Data;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The tests; `None` and `false` let everything through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tests {
    /// Keep evaluations of at most this in absolute value.
    pub max_abs_eval: Option<u16>,
    /// Leave out entries and games without a winner.
    pub drop_draws: bool,
    /// Keep PackedSfenValue entries of at least this `gamePly`.
    pub min_ply: Option<u16>,
}

/// What `filter` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filtered {
    /// Records read whole.
    pub read: u64,
    /// Records written.
    pub kept: u64,
}

impl Tests {
    /// Why these tests cannot run on `data`, if they cannot.
    pub fn refusal(&self, data: Data) -> Option<&'static str> {
        match data {
            Data::Hcpe if self.min_ply.is_some() => {
                Some("--min-ply: HCPE stores no move number (PackedSfenValue's gamePly is one)")
            }
            Data::Hcpe3 if self.min_ply.is_some() => {
                Some("--min-ply: hcpe3 stores no move number")
            }
            Data::Hcpe3 if self.max_abs_eval.is_some() => Some(
                "--max-abs-eval: hcpe3 keeps games whole and evaluations are per move (convert to hcpe first)",
            ),
            _ => None,
        }
    }

    /// Whether a whole record of `data` passes.
    pub fn pass(&self, block: &[u8], data: Data) -> bool {
        let u16_at = |at: usize| u16::from_le_bytes([block[at], block[at + 1]]);
        let winner = match data {
            Data::Hcpe => block[36] & 3 != 0,
            Data::Psv => block[38] != 0,
            Data::Hcpe3 => block[34] & 3 != 0,
        };
        if self.drop_draws && !winner {
            return false;
        }
        if data == Data::Hcpe3 {
            return true;
        }
        let eval = u16_at(32) as i16;
        if self
            .max_abs_eval
            .is_some_and(|max| eval.unsigned_abs() > max)
        {
            return false;
        }
        !(data == Data::Psv && self.min_ply.is_some_and(|min| u16_at(36) < min))
    }
}

/// Writes the records of `inputs` (each of the kind `data`) that pass
/// `tests` to `out`. Faults of the inputs go to `faults`.
pub fn filter(
    inputs: &[PathBuf],
    data: Data,
    tests: &Tests,
    out: &mut dyn Write,
    faults: Faults<'_>,
) -> Result<Filtered, String> {
    filtered(data, tests, out, |take| {
        for_each_block(inputs, data, faults, take)
    })
}

/// [`filter`] of the records `reader` gives (named `path` in faults).
pub fn filter_reader(
    reader: impl Read,
    path: &Path,
    data: Data,
    tests: &Tests,
    out: &mut dyn Write,
    faults: Faults<'_>,
) -> Result<Filtered, String> {
    filtered(data, tests, out, |take| {
        blocks_of(reader, path, data, faults, take)
    })
}

/// What [`filter`] and [`filter_reader`] share: the tests checked against
/// `data`, then every block `blocks` gives taken or left.
fn filtered(
    data: Data,
    tests: &Tests,
    out: &mut dyn Write,
    blocks: impl FnOnce(&mut dyn FnMut(&[u8]) -> io::Result<()>) -> Result<(), String>,
) -> Result<Filtered, String> {
    if let Some(why) = tests.refusal(data) {
        return Err(why.to_string());
    }
    let mut filtered = Filtered::default();
    blocks(&mut |block| filtered.take(block, data, tests, out))?;
    Ok(filtered)
}

impl Filtered {
    /// One record read: written to `out` if it passes.
    fn take(
        &mut self,
        block: &[u8],
        data: Data,
        tests: &Tests,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.read += 1;
        if tests.pass(block, data) {
            self.kept += 1;
            out.write_all(block)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::psv;
    use crate::{Move, Position};

    fn entry(ply: u32, eval: i16, won: Option<bool>) -> [u8; psv::SIZE] {
        let sfen = format!("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - {ply}");
        let pos = Position::from_sfen(&sfen).unwrap();
        let winner = won.map(|w| {
            if w {
                crate::Color::Black
            } else {
                crate::Color::White
            }
        });
        psv::entry(&pos, Move::from_usi("7g7f").unwrap(), eval, winner).unwrap()
    }

    #[test]
    fn each_test_on_its_field() {
        let tests = Tests {
            max_abs_eval: Some(300),
            drop_draws: true,
            min_ply: Some(10),
        };
        assert!(tests.pass(&entry(10, -300, Some(false)), Data::Psv));
        assert!(!tests.pass(&entry(10, -301, Some(true)), Data::Psv));
        assert!(!tests.pass(&entry(10, 0, None), Data::Psv));
        assert!(!tests.pass(&entry(9, 0, Some(true)), Data::Psv));
        assert!(Tests::default().pass(&entry(1, i16::MIN, None), Data::Psv));
        assert!(tests.refusal(Data::Hcpe).is_some());
        assert!(tests.refusal(Data::Psv).is_none());
    }
}
