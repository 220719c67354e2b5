//! HCPE and PackedSfenValue entries rewritten straight as training data or
//! SFEN lines, with no record between: each entry's fields are read by
//! [`super::read`]'s rules ([`Entry`]) and written by the writers' own
//! ([`hcpe::entry`], [`psv::entry`], [`hcpe3::push_header`] and
//! [`hcpe3::push_move`], [`crate::Position::push_sfen`]). What is written is
//! what reading the entry as a record and writing that record gives, byte
//! for byte, and an entry that cannot be read is the same error.

use super::move16::Layout;
use super::read::{Entry, Fault};
use super::samples::{clamped, TrainingError};
use super::{hcpe, hcpe3, psv, Data};

/// What entries are rewritten as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Training data of this kind: an HCPE or PackedSfenValue entry, or an
    /// hcpe3 game of one move, per entry.
    Data(Data),
    /// The entry's position as a SFEN line (the position before its move,
    /// as `--to sfen` writes a training entry).
    Sfen,
}

/// Whether entries of `data` can be rewritten one by one: HCPE and
/// PackedSfenValue, whose entries are one position each (hcpe3's are
/// games).
pub fn by_entry(data: Data) -> bool {
    data != Data::Hcpe3
}

/// Appends what one whole entry of `from` (HCPE or PackedSfenValue)
/// becomes as `output` to `out`; nothing is appended when it fails. The
/// outer error is the entry's, at its place in it (as reading it as a
/// record fails); the inner one is writing's (as writing its record
/// fails). The batch library's use of it is the only one.
#[cfg_attr(not(feature = "batch"), allow(dead_code))]
pub(crate) fn entry(
    block: &[u8],
    from: Data,
    output: Output,
    out: &mut Vec<u8>,
) -> Result<Result<(), TrainingError>, Fault> {
    let e = Entry::read(block, from)?;
    Ok(write(&e, output, out))
}

/// [`entry`] with the move read in `layout` rather than the format's own:
/// a PackedSfenValue file written with cshogi's move16 rewritten in
/// YaneuraOu's.
pub(crate) fn entry_as(
    block: &[u8],
    from: Data,
    layout: Layout,
    output: Output,
    out: &mut Vec<u8>,
) -> Result<Result<(), TrainingError>, Fault> {
    let e = Entry::read_as(block, from, layout)?;
    Ok(write(&e, output, out))
}

/// Appends what `e` becomes as `output` to `out`.
fn write(e: &Entry, output: Output, out: &mut Vec<u8>) -> Result<(), TrainingError> {
    // The record's comment holds the stored evaluation, which its sample
    // reads back whole before clamping it.
    let score = clamped(Some(i32::from(e.eval)));
    // A record's start is packed first (see `Game::of`): its error is the
    // start's, ply 0.
    let pack = |error| TrainingError::Pack { ply: 0, error };
    match output {
        Output::Data(Data::Hcpe) => {
            let bytes =
                hcpe::entry(&e.position, e.mv, score, hcpe::result(e.winner)).map_err(pack)?;
            out.extend_from_slice(&bytes);
        }
        Output::Data(Data::Psv) => {
            let bytes = psv::entry(&e.position, e.mv, score, e.winner).map_err(pack)?;
            out.extend_from_slice(&bytes);
        }
        Output::Data(Data::Hcpe3) => {
            let result = hcpe3::result_of(e.winner, Some(e.ending_kind()));
            hcpe3::push_header(out, &e.position, 1, result).map_err(pack)?;
            hcpe3::push_move(out, e.mv, score);
        }
        Output::Sfen => {
            e.position.push_sfen(out);
            out.push(b'\n');
        }
    }
    Ok(())
}
