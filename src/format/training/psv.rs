//! PackedSfenValue (YaneuraOu's learning data): 40 bytes a position — the
//! packed position (PackedSfen), the score from the side to move (i16,
//! clamped to ±32767), the move played in YaneuraOu's Move16, the
//! position's ply (its SFEN move number, u16), the result from the side to
//! move (+1 it went on to win, −1 to lose, 0 a draw or no winner) and a pad
//! byte; all little-endian.

use super::move16::{self, Layout};
use super::packed::{pack, Dialect, PackError};
use super::samples::{each_entry, entries_of, read_entries, Game, TrainingError, Written};
use crate::record::Record;
use crate::{Color, Move, Position};

/// One PackedSfenValue's size in bytes.
pub const SIZE: usize = 40;

/// The PackedSfenValue entries of `record`: one for the position before
/// each mainline move (the same positions, moves and evaluations as
/// [`hcpe`](super::hcpe)), with the ply and the result from the side to
/// move. Also says how many moves had no evaluation.
pub fn entries(record: &Record) -> Result<(Vec<[u8; SIZE]>, usize), TrainingError> {
    let game = Game::of(record)?;
    Ok((encode(&game)?, game.missing))
}

/// The PackedSfenValue entries of a game's samples (all of them, or what a
/// filter kept).
pub fn encode(game: &Game) -> Result<Vec<[u8; SIZE]>, TrainingError> {
    let mut bytes = Vec::new();
    push(game, &mut bytes)?;
    Ok(entries_of(&bytes))
}

/// Appends [`encode`]'s entries to `out`; nothing when one fails.
pub(crate) fn push(game: &Game, out: &mut Vec<u8>) -> Result<(), TrainingError> {
    each_entry(game, Dialect::PackedSfen, out, |s, packed| {
        fill(packed, s.side, s.move_number, s.mv, s.score, game.winner)
    })
}

/// Appends the entries of `record`'s mainline to `out` without making its
/// game (see [`read_entries`]); nothing when one fails.
pub(crate) fn push_read(
    record: &Record,
    out: &mut Vec<u8>,
    warnings: Option<&mut Vec<String>>,
) -> Result<Written, TrainingError> {
    read_entries(
        record,
        Dialect::PackedSfen,
        out,
        warnings,
        |s, packed, winner| fill(packed, s.side, s.move_number, s.mv, s.score, winner),
    )
}

/// One entry: `pos` packed, the score from the side to move, the move
/// played from it, the position's move number (saturated at 65535, see
/// [`saturated`]) and the result for the side to move given the game's
/// winner.
pub fn entry(
    pos: &Position,
    mv: Move,
    score: i16,
    winner: Option<Color>,
) -> Result<[u8; SIZE], PackError> {
    Ok(fill(
        pack(pos, Dialect::PackedSfen)?,
        pos.side_to_move(),
        pos.move_number(),
        mv,
        score,
        winner,
    ))
}

/// [`entry`] with the position known by what the entry holds of it: its
/// packed form in the format's dialect, its side to move and its move
/// number.
pub(crate) fn fill(
    packed: [u8; 32],
    side: Color,
    move_number: u32,
    mv: Move,
    score: i16,
    winner: Option<Color>,
) -> [u8; SIZE] {
    let result: i8 = match winner {
        Some(w) if w == side => 1,
        Some(_) => -1,
        None => 0,
    };
    let ply = move_number.min(u32::from(u16::MAX)) as u16;
    let mut entry = [0u8; SIZE];
    entry[..32].copy_from_slice(&packed);
    entry[32..34].copy_from_slice(&score.to_le_bytes());
    entry[34..36].copy_from_slice(&move16::encode(mv, Layout::YaneuraOu).to_le_bytes());
    entry[36..38].copy_from_slice(&ply.to_le_bytes());
    entry[38] = result as u8;
    entry
}

/// What the 16-bit `gamePly` cannot hold in a game's samples: how many
/// positions have a move number over 65535 (written as 65535), and the
/// first such number; `None` when every one fits.
pub fn saturated(game: &Game) -> Option<(usize, u32)> {
    over_ply(game.samples.iter().map(|s| s.move_number))
}

/// [`saturated`] for the positions [`push_read`] wrote.
pub(crate) fn saturated_written(written: &Written) -> Option<(usize, u32)> {
    let first = written.first_move_number;
    over_ply(first..first.saturating_add(written.positions as u32))
}

/// How many of `move_numbers` are over 65535, and the first such.
fn over_ply(move_numbers: impl Iterator<Item = u32>) -> Option<(usize, u32)> {
    let mut over = move_numbers.filter(|&n| n > u32::from(u16::MAX));
    let first = over.next()?;
    Some((1 + over.count(), first))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FORMATS.md's vector: the start, score 50, 7g7f, ply 1, black (to
    /// move) went on to win.
    #[test]
    fn the_reference_entry() {
        let csa = "V2.2\nPI\n+\n+7776FU\n'** 50\n-3334FU\n'** 20\n+2726FU\n%TORYO\n";
        let records = crate::read::read_text(csa, crate::read::Format::Csa).unwrap();
        let (entries, missing) = entries(&records[0]).unwrap();
        assert_eq!((entries.len(), missing), (3, 1));
        let hex: String = entries[0].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c32003b1e01000100"
        );
        // White's move: score −20 from white's view, ply 2, white lost.
        let second = &entries[1];
        assert_eq!(i16::from_le_bytes([second[32], second[33]]), -20);
        assert_eq!(u16::from_le_bytes([second[36], second[37]]), 2);
        assert_eq!(second[38] as i8, -1);
    }
}
