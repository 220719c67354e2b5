//! `train convert`: a training file rewritten as another kind, a record
//! at a time. HCPE and PackedSfenValue entries are rewritten straight
//! ([`crate::training::recode`]); an hcpe3 game is read as a record and
//! written as the target writes a game (one entry a move). What the
//! target cannot hold is counted and said ([`Converted::losses`]):
//!
//! * PackedSfenValue's `gamePly`: HCPE and hcpe3 store no move number,
//!   so it is dropped; from HCPE it is written as 1, and from hcpe3 it
//!   counts from 1 at each game's stored start.
//! * dlshogi's result flags (repetition, entering king, move limit):
//!   HCPE and PackedSfenValue keep the winner alone.
//! * hcpe3's opponent byte, its candidates and visits beyond the move
//!   played, and its moves marked "do not train" (no candidate), which
//!   become entries like the others.
//! * An entry written as hcpe3 becomes a game of one move.
//!
//! A PackedSfenValue file whose moves are cshogi's move16 (see
//! [`super::check`]) is read so when asked ([`convert_as`]), and written
//! in YaneuraOu's Move16 like any PackedSfenValue.
//!
//! An entry or game that does not read is a fault, left out; the
//! records after it are converted.

use super::{Fault, Faults};
use crate::training::move16::Layout;
use crate::training::read::{self, Records};
use crate::training::recode::{self, Output};
use crate::training::{hcpe3, Data, Game};
use std::io::Write;
use std::path::Path;

/// What `convert` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// Records read whole.
    pub read: u64,
    /// Records written (an hcpe3 game counts once, whatever it becomes).
    pub written: u64,
    /// What the target could not hold, one sentence a kind of loss, with
    /// its count.
    pub losses: Vec<String>,
    /// Records that read but could not be written, with why.
    pub errors: Vec<String>,
}

/// What was lost, counted as the records go.
#[derive(Default)]
struct Losses {
    plies: u64,
    flags: u64,
    opponents: u64,
    candidates: u64,
    untrained: u64,
}

/// Writes `input` (of the kind `from`) to `out` as `to`. Faults of the
/// input go to `faults`.
pub fn convert(
    input: &Path,
    from: Data,
    to: Data,
    out: &mut dyn Write,
    faults: Faults<'_>,
) -> Result<Converted, String> {
    convert_as(input, from, None, to, out, faults)
}

/// [`convert`] with a PackedSfenValue input's moves read in `layout`
/// (`None`: YaneuraOu's, the format's own): a file that `train check`
/// finds in cshogi's move16 is rewritten in YaneuraOu's with
/// `Some(Layout::Apery)` and `to` PackedSfenValue.
pub fn convert_as(
    input: &Path,
    from: Data,
    layout: Option<Layout>,
    to: Data,
    out: &mut dyn Write,
    faults: Faults<'_>,
) -> Result<Converted, String> {
    let layout = layout.filter(|_| from == Data::Psv);
    let copy = from == to && layout.is_none_or(|l| l == Layout::YaneuraOu);
    let file = std::fs::File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let failed = |e: std::io::Error| format!("cannot write: {e}");
    let mut records = Records::new(file, from);
    let mut done = Converted::default();
    let mut lost = Losses::default();
    let mut bytes = Vec::new();
    let mut sequel = recode::Sequel::default();
    loop {
        bytes.clear();
        let next = records.next_with(|block| {
            count_losses(block, from, to, &mut lost);
            if copy {
                bytes.extend_from_slice(block);
                return Ok(Ok(()));
            }
            if let Some(layout) = layout {
                return recode::entry_as(
                    block,
                    from,
                    layout,
                    Output::Data(to),
                    &mut bytes,
                    &mut sequel,
                );
            }
            if recode::by_entry(from) {
                return recode::entry(block, from, Output::Data(to), &mut bytes, &mut sequel);
            }
            let record = read::record(block, from)?;
            Ok(Game::of(&record).and_then(|game| {
                bytes.extend(to.encode(&game)?);
                Ok(())
            }))
        });
        match next {
            None => break,
            Some(Err(error)) => faults(Fault {
                path: input.to_path_buf(),
                error,
            }),
            Some(Ok(written)) => {
                done.read += 1;
                match written {
                    Ok(()) => {
                        out.write_all(&bytes).map_err(failed)?;
                        done.written += 1;
                    }
                    Err(e) => done.errors.push(format!("record {}: {e}", done.read - 1)),
                }
            }
        }
    }
    done.losses = said(&lost, from, to);
    Ok(done)
}

/// Counts what writing the record `block` of `from` as `to` loses.
fn count_losses(block: &[u8], from: Data, to: Data, lost: &mut Losses) {
    if from == to {
        return;
    }
    match from {
        Data::Psv => lost.plies += 1,
        Data::Hcpe => {
            lost.plies += u64::from(to == Data::Psv);
            lost.flags += u64::from(to == Data::Psv && block[36] & !3 != 0);
        }
        Data::Hcpe3 => {
            lost.flags += u64::from(block[34] & !3 != 0);
            lost.opponents += u64::from(block[35] != 0);
            let u16_at = |at: usize| u16::from_le_bytes([block[at], block[at + 1]]);
            let mut at = hcpe3::HEADER_SIZE;
            for _ in 0..u16_at(32) {
                let count = usize::from(u16_at(at + 4));
                let played_alone = count == 1 && u16_at(at + hcpe3::MOVE_SIZE) == u16_at(at);
                lost.untrained += u64::from(count == 0);
                lost.candidates += u64::from(count > 0 && !played_alone);
                at += hcpe3::MOVE_SIZE + hcpe3::CANDIDATE_SIZE * count;
            }
        }
    }
}

/// The sentences for what was lost.
fn said(lost: &Losses, from: Data, to: Data) -> Vec<String> {
    let mut out = Vec::new();
    if lost.plies > 0 {
        out.push(match from {
            Data::Psv => format!(
                "{} entries' gamePly dropped: {} stores no move number",
                lost.plies,
                name(to)
            ),
            _ => format!(
                "{} entries written with gamePly 1: HCPE stores no move number",
                lost.plies
            ),
        });
    }
    if from == Data::Hcpe3 && to == Data::Psv {
        out.push("gamePly counts from 1 at each game's start: hcpe3 stores no move number".into());
    }
    if lost.flags > 0 {
        out.push(format!(
            "{} results' flags (repetition, entering king, move limit) dropped: {} keeps the winner alone",
            lost.flags,
            name(to)
        ));
    }
    if lost.opponents > 0 {
        out.push(format!("{} games' opponent byte dropped", lost.opponents));
    }
    if lost.candidates > 0 {
        out.push(format!(
            "{} moves' candidates and visits dropped (the move played is kept)",
            lost.candidates
        ));
    }
    if lost.untrained > 0 {
        out.push(format!(
            "{} moves marked not to train on (no candidate) written as entries",
            lost.untrained
        ));
    }
    if to == Data::Hcpe3 && from != Data::Hcpe3 {
        out.push("each entry is written as an hcpe3 game of one move".into());
    }
    out
}

/// A kind's name in messages.
pub fn name(data: Data) -> &'static str {
    match data {
        Data::Hcpe => "HCPE",
        Data::Hcpe3 => "hcpe3",
        Data::Psv => "PackedSfenValue",
    }
}
