//! hcpe3 (dlshogi's game-by-game training data): one block a game, all
//! little-endian —
//!
//! * a 36-byte header: the start position packed as HCP (32 bytes), the
//!   number of moves (u16), the result (u8: bits 0–1 the winner, 0 none,
//!   1 black, 2 white; bit 2 (4) a repetition, bit 3 (8) a win by entering
//!   king, bit 4 (16) the move limit) and the opponent (u8: 0, a game
//!   between two players neither of whom is the one being trained);
//! * per move, 6 bytes: the move in Apery's move16, its evaluation from
//!   the side to move (i16, clamped to ±32767, 0 when the record has none)
//!   and the number of candidates (u16), then 4 bytes per candidate: its
//!   move16 and its visits (u16). A record has one candidate a move, the
//!   move played, with one visit, as dlshogi's `csa_to_hcpe3` writes it.

use super::move16::{self, Layout};
use super::packed::{pack, Dialect, PackError};
use super::samples::{Game, TrainingError};
use crate::record::EndingKind;
use crate::{Color, Move, Position};

/// The header's size in bytes.
pub const HEADER_SIZE: usize = 36;
/// A move's size in bytes, before its candidates.
pub const MOVE_SIZE: usize = 6;
/// A candidate's size in bytes.
pub const CANDIDATE_SIZE: usize = 4;

/// The result byte: the winner in bits 0–1 (as HCPE's result), plus 4 for a
/// repetition (千日手, also by perpetual check), 8 for a win by entering
/// king (入玉宣言, `%KACHI`) and 16 for the move limit (`%MAX_MOVES`, and
/// `%JISHOGI`, which floodgate writes when a game reaches its limit and
/// dlshogi reads as one).
pub fn result(game: &Game) -> u8 {
    result_of(game.winner, game.ending)
}

/// [`result`] for a winner and how the game ended.
pub fn result_of(winner: Option<Color>, ending: Option<EndingKind>) -> u8 {
    let how = match ending {
        Some(EndingKind::Repetition | EndingKind::PerpetualCheck) => 4,
        Some(EndingKind::EnteringKing) => 8,
        Some(EndingKind::MaxMoves | EndingKind::Impasse) => 16,
        _ => 0,
    };
    super::hcpe::result(winner) | how
}

/// The hcpe3 block of a game's samples (all of them, or what a filter
/// kept).
pub fn encode(game: &Game) -> Result<Vec<u8>, TrainingError> {
    let moves = game.samples.len();
    let count = u16::try_from(moves).map_err(|_| TrainingError::TooLong { moves })?;
    let mut out = Vec::with_capacity(HEADER_SIZE + moves * (MOVE_SIZE + CANDIDATE_SIZE));
    push_header(&mut out, game.start(), count, result(game))
        .map_err(|error| TrainingError::Pack { ply: 0, error })?;
    for sample in &game.samples {
        push_move(&mut out, sample.mv, sample.score);
    }
    Ok(out)
}

/// Appends a block's header: the start packed, the move count, the result
/// byte ([`result`]) and opponent 0. Nothing is appended when the start
/// cannot be packed.
pub fn push_header(
    out: &mut Vec<u8>,
    start: &Position,
    count: u16,
    result: u8,
) -> Result<(), PackError> {
    push_packed_header(out, pack(start, Dialect::Hcp)?, count, result);
    Ok(())
}

/// [`push_header`] with the start packed (in HCP).
pub(crate) fn push_packed_header(out: &mut Vec<u8>, start: [u8; 32], count: u16, result: u8) {
    out.extend_from_slice(&start);
    out.extend_from_slice(&count.to_le_bytes());
    out.push(result);
    out.push(0);
}

/// Appends a move: its move16, its score from the side to move, and the
/// move played as the one candidate, with one visit.
pub fn push_move(out: &mut Vec<u8>, mv: Move, score: i16) {
    let mv = move16::encode(mv, Layout::Apery).to_le_bytes();
    out.extend_from_slice(&mv);
    out.extend_from_slice(&score.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&mv);
    out.extend_from_slice(&1u16.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::read::{read_text, Format};

    fn game(csa: &str) -> Game {
        Game::of(&read_text(csa, Format::Csa).unwrap()[0]).unwrap()
    }

    /// The block of a three-move game, field by field.
    #[test]
    fn a_block_field_by_field() {
        let block = encode(&game(
            "V2.2\nPI\n+\n+7776FU\n'** 50\n-3334FU\n'** 80\n+2726FU\n%TORYO\n",
        ))
        .unwrap();
        assert_eq!(block.len(), HEADER_SIZE + 3 * (MOVE_SIZE + CANDIDATE_SIZE));
        let hex: String = block[..32].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c"
        );
        assert_eq!(block[32..36], [3, 0, 1, 0]);
        let u16_at = |i: usize| u16::from_le_bytes([block[i], block[i + 1]]);
        let i16_at = |i: usize| i16::from_le_bytes([block[i], block[i + 1]]);
        // 7g7f by black, 50; 3c3d by white, −80 from white's view; 2g2f, none.
        let moves: Vec<(u16, i16, u16, u16, u16)> = (0..3)
            .map(|m| {
                let at = HEADER_SIZE + m * 10;
                (
                    u16_at(at),
                    i16_at(at + 2),
                    u16_at(at + 4),
                    u16_at(at + 6),
                    u16_at(at + 8),
                )
            })
            .collect();
        assert_eq!(moves[0], (0x1e3b, 50, 1, 0x1e3b, 1));
        assert_eq!(moves[1].1, -80);
        assert_eq!(moves[2].1, 0);
        assert!(moves.iter().all(|m| m.0 == m.3 && m.2 == 1 && m.4 == 1));
    }

    #[test]
    fn result_bits() {
        let end = |word: &str| result(&game(&format!("V2.2\nPI\n+\n+7776FU\n-3334FU\n%{word}\n")));
        // Black to move after two moves.
        assert_eq!(end("TORYO"), 2);
        assert_eq!(end("KACHI"), 1 | 8);
        assert_eq!(end("SENNICHITE"), 4);
        assert_eq!(end("JISHOGI"), 16);
        assert_eq!(end("MAX_MOVES"), 16);
        assert_eq!(end("CHUDAN"), 0);
    }
}
