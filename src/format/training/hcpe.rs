//! HCPE (cshogi's HuffmanCodedPosAndEval): 38 bytes a position — the packed
//! position (HCP), the evaluation from the side to move (i16, clamped to
//! ±32767), the move played in Apery's move16, the game's result (0 a draw
//! or unknown, 1 black won, 2 white won) and a pad byte; all little-endian.

use super::move16::{self, Layout};
use super::packed::{pack, Dialect, PackError};
use super::samples::{each_entry, entries_of, read_entries, Game, TrainingError, Written};
use crate::record::Record;
use crate::{Color, Move, Position};

/// One HCPE entry's size in bytes.
pub const SIZE: usize = 38;

/// A game's result as HCPE stores it: 1 black won, 2 white won, 0 a draw
/// or an end with no winner.
pub fn result(winner: Option<Color>) -> u8 {
    match winner {
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
        None => 0,
    }
}

/// The HCPE entries of `record`: one for the position before each mainline
/// move, with that move, its evaluation (from the comment after it, the
/// side to move's view; 0 when there is none) and the game's result. Also
/// says how many moves had no evaluation.
pub fn entries(record: &Record) -> Result<(Vec<[u8; SIZE]>, usize), TrainingError> {
    let game = Game::of(record)?;
    Ok((encode(&game)?, game.missing))
}

/// The HCPE entries of a game's samples (all of them, or what a filter
/// kept).
pub fn encode(game: &Game) -> Result<Vec<[u8; SIZE]>, TrainingError> {
    let mut bytes = Vec::new();
    push(game, &mut bytes)?;
    Ok(entries_of(&bytes))
}

/// Appends [`encode`]'s entries to `out`; nothing when one fails.
pub(crate) fn push(game: &Game, out: &mut Vec<u8>) -> Result<(), TrainingError> {
    let game_result = result(game.winner);
    each_entry(game, Dialect::Hcp, out, |s, packed| {
        fill(packed, s.mv, s.score, game_result)
    })
}

/// Appends the entries of `record`'s mainline to `out` without making its
/// game (see [`read_entries`]); nothing when one fails.
pub(crate) fn push_read(
    record: &Record,
    out: &mut Vec<u8>,
    warnings: Option<&mut Vec<String>>,
) -> Result<Written, TrainingError> {
    read_entries(record, Dialect::Hcp, out, warnings, |s, packed, winner| {
        fill(packed, s.mv, s.score, result(winner))
    })
}

/// One entry: `pos` packed, the score from the side to move, the move
/// played from it and the game's result byte ([`result`]).
pub fn entry(pos: &Position, mv: Move, score: i16, result: u8) -> Result<[u8; SIZE], PackError> {
    Ok(fill(pack(pos, Dialect::Hcp)?, mv, score, result))
}

/// [`entry`] with the position packed (`packed` is `pos` packed in the
/// format's dialect).
pub(crate) fn fill(packed: [u8; 32], mv: Move, score: i16, result: u8) -> [u8; SIZE] {
    let mut entry = [0u8; SIZE];
    entry[..32].copy_from_slice(&packed);
    entry[32..34].copy_from_slice(&score.to_le_bytes());
    entry[34..36].copy_from_slice(&move16::encode(mv, Layout::Apery).to_le_bytes());
    entry[36] = result;
    entry
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// FORMATS.md's vector: the start, eval −123, 7g7f, black won.
    #[test]
    fn the_reference_entry() {
        let csa = "V2.2\nPI\n+\n+7776FU\n'** -123 3c3d\n-3334FU\n+2726FU\n%TORYO\n";
        let records = crate::read::read_text(csa, crate::read::Format::Csa).unwrap();
        let (entries, missing) = entries(&records[0]).unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(missing, 2);
        assert_eq!(
            hex(&entries[0]),
            "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c85ff3b1e0100"
        );
    }

    /// Evaluations as dlshogi's csa_to_hcpe reads them: the `'**` score
    /// after a move is black's view, stored from the side to move (the
    /// mover), clamped to ±32767; a move without one stores 0. White
    /// resigned after black's fifth move, so every entry's result is 1.
    #[test]
    fn evals_are_the_movers_view_clamped() {
        let csa = "V2.2\nPI\n+\n+7776FU\n'** 50 3c3d\n-3334FU\n'** 80 2g2f\n+2726FU\n'** -100000\n-8384FU\n+2625FU\n'** 40000\n%TORYO\n";
        let records = crate::read::read_text(csa, crate::read::Format::Csa).unwrap();
        let (entries, missing) = entries(&records[0]).unwrap();
        let evals: Vec<i16> = entries
            .iter()
            .map(|e| i16::from_le_bytes([e[32], e[33]]))
            .collect();
        // 50 by black; 80 black's view by white: −80; −100000 by black:
        // clamped; none; 40000 by black: clamped.
        assert_eq!(evals, [50, -80, -32767, 0, 32767]);
        assert_eq!(missing, 1);
        assert!(entries.iter().all(|e| e[36] == 1 && e[37] == 0));
    }
}
