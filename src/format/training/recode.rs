//! HCPE and PackedSfenValue entries rewritten straight as training data or
//! SFEN lines, with no record between: each entry's fields are read by
//! [`super::read`]'s rules ([`Entry`]) and written by the writers' own
//! ([`hcpe::entry`], [`psv::entry`], [`hcpe3::push_header`] and
//! [`hcpe3::push_move`], [`crate::Position::push_sfen`]). What is written is
//! what reading the entry as a record and writing that record gives, byte
//! for byte, and an entry that cannot be read is the same error.

use super::move16::Layout;
use super::packed::{self, Dialect};
pub(crate) use super::read::Sequel;
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
/// fails). `sequel` is what the entry before in the same file left: one
/// for each file, from [`Sequel::default`].
#[cfg_attr(not(feature = "batch"), allow(dead_code))]
pub(crate) fn entry(
    block: &[u8],
    from: Data,
    output: Output,
    out: &mut Vec<u8>,
    sequel: &mut Sequel,
) -> Result<Result<(), TrainingError>, Fault> {
    entry_as(block, from, Entry::layout(from), output, out, sequel)
}

/// [`entry`] with the move read in `layout` rather than the format's own:
/// a PackedSfenValue file written with cshogi's move16 rewritten in
/// YaneuraOu's.
#[inline(always)]
pub(crate) fn entry_as(
    block: &[u8],
    from: Data,
    layout: Layout,
    output: Output,
    out: &mut Vec<u8>,
    sequel: &mut Sequel,
) -> Result<Result<(), TrainingError>, Fault> {
    let e = Entry::read_repacked(block, from, layout, dialect(output), sequel)?;
    Ok(write(&e, output, out))
}

/// The packed positions' dialect of what entries are rewritten as, if
/// they hold any.
fn dialect(output: Output) -> Option<Dialect> {
    match output {
        Output::Data(Data::Hcpe | Data::Hcpe3) => Some(Dialect::Hcp),
        Output::Data(Data::Psv) => Some(Dialect::PackedSfen),
        Output::Sfen => None,
    }
}

/// Appends what `e` becomes as `output` to `out`.
#[inline(always)]
fn write(e: &Entry, output: Output, out: &mut Vec<u8>) -> Result<(), TrainingError> {
    // The record's comment holds the stored evaluation, which its sample
    // reads back whole before clamping it.
    let score = clamped(Some(i32::from(e.eval)));
    // A record's start is packed first (see `Game::of`): its error is the
    // start's, ply 0.
    let pack = |error| TrainingError::Pack { ply: 0, error };
    // The position as packed while it was read, or packed now.
    let packed = |d| match e.repacked {
        Some(bytes) if dialect(output) == Some(d) => Ok(bytes),
        _ => packed::pack(e.position, d).map_err(pack),
    };
    match output {
        Output::Data(Data::Hcpe) => {
            let result = hcpe::result(e.winner);
            let bytes = hcpe::fill(packed(Dialect::Hcp)?, e.mv, score, result);
            out.extend_from_slice(&bytes);
        }
        Output::Data(Data::Psv) => {
            let bytes = psv::fill(
                packed(Dialect::PackedSfen)?,
                e.position.side_to_move(),
                e.position.move_number(),
                e.mv,
                score,
                e.winner,
            );
            out.extend_from_slice(&bytes);
        }
        Output::Data(Data::Hcpe3) => {
            let result = hcpe3::result_of(e.winner, Some(e.ending_kind()));
            hcpe3::push_packed_header(out, packed(Dialect::Hcp)?, 1, result);
            hcpe3::push_move(out, e.mv, score);
        }
        Output::Sfen => {
            e.position.push_sfen(out);
            out.push(b'\n');
        }
    }
    Ok(())
}
