//! A position's SFEN board kept rank by rank, so that the SFEN of the next
//! position of a game rewrites only the ranks its move changed.

use crate::{Move, Piece, PieceKind};

/// One rank's SFEN text: at most nine promoted pieces, 18 bytes.
#[derive(Clone, Copy)]
struct Rank {
    text: [u8; 18],
    len: u8,
}

/// The SFEN of a board, rank by rank.
#[derive(Clone)]
pub struct SfenBoard {
    ranks: [Rank; 9],
}

impl SfenBoard {
    /// The SFEN of `board`.
    pub fn of(board: &[Option<Piece>; 81]) -> SfenBoard {
        SfenBoard {
            ranks: std::array::from_fn(|rank| rank_text(board, rank)),
        }
    }

    /// Brought up to `board`, which is the board before with `mv` played:
    /// the ranks the move left and reached are written again.
    pub fn played(&mut self, board: &[Option<Piece>; 81], mv: Move) {
        if let Some(from) = mv.from() {
            let rank = usize::from(from.rank() - 1);
            self.ranks[rank] = rank_text(board, rank);
        }
        let rank = usize::from(mv.to().rank() - 1);
        self.ranks[rank] = rank_text(board, rank);
    }

    /// Appends the board's SFEN, the ranks joined by `/`.
    pub fn push(&self, out: &mut Vec<u8>) {
        // Each rank's whole 18 bytes are copied (a copy of known size),
        // the next one over what was past its end: the longest board
        // leaves the last copy ending at byte 170.
        let mut line = [0u8; 176];
        let mut n = 0;
        for (i, rank) in self.ranks.iter().enumerate() {
            if i > 0 {
                line[n] = b'/';
                n += 1;
            }
            line[n..n + 18].copy_from_slice(&rank.text);
            n += usize::from(rank.len);
        }
        out.extend_from_slice(&line[..n]);
    }
}

/// Rank `rank` (0 is SFEN's first, rank 1) from file 9 to file 1: square
/// indices run file by file, (file - 1) * 9 + (rank - 1).
///
/// The rank's occupied squares are found first, as bits, without a branch;
/// then only those are visited, each after the count of empty squares
/// before it. A branch on each square's being empty would be guessed
/// wrong about every other square.
fn rank_text(board: &[Option<Piece>; 81], rank: usize) -> Rank {
    let mut occupied = 0u32;
    for (i, file) in (0..9).rev().enumerate() {
        occupied |= u32::from(board[file * 9 + rank].is_some()) << i;
    }
    // Room past the longest rank (18 bytes) for a digit not kept.
    let mut text = [0u8; 32];
    let (mut n, mut next) = (0usize, 0u32);
    while occupied != 0 {
        let at = occupied.trailing_zeros();
        occupied &= occupied - 1;
        let gap = at - next;
        text[n & 31] = b'0' + gap as u8;
        n += usize::from(gap != 0);
        if let Some(piece) = board[(8 - at as usize) * 9 + rank] {
            let (token, len) = SFEN_PIECES[piece.color.index()][piece.kind.index()];
            text[n & 31] = token[0];
            text[(n + 1) & 31] = token[1];
            n += len;
        }
        next = at + 1;
    }
    text[n & 31] = b'0' + (9 - next) as u8;
    n += usize::from(next != 9);
    let mut out = Rank {
        text: [0; 18],
        len: n as u8,
    };
    out.text.copy_from_slice(&text[..18]);
    out
}

/// Each piece as SFEN writes it, `[colour][kind]`: `+` for a promoted one,
/// then its letter, upper case for Black; and how many bytes that is.
pub(super) static SFEN_PIECES: [[([u8; 2], usize); 14]; 2] = {
    let mut out = [[([0; 2], 0); 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            if let Some(kind) = PieceKind::from_index(k) {
                let mut letter = kind.usi_letter() as u8;
                if c == 1 {
                    letter = letter.to_ascii_lowercase();
                }
                out[c][k] = if kind.is_promoted() {
                    ([b'+', letter], 2)
                } else {
                    ([letter, 0], 1)
                };
            }
            k += 1;
        }
        c += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    /// Along every game of random legal moves, the board kept up to date
    /// move by move writes what a board written whole does.
    #[test]
    fn kept_up_to_date_it_writes_what_a_whole_board_does() {
        let mut rng = crate::test_util::rng::Rng::new(0x5f3e);
        let mut moves_seen = 0;
        for _ in 0..200 {
            let mut kept = SfenBoard::of(Position::startpos().board());
            for (mut pos, mv) in crate::test_util::games::random_game(150, &mut rng) {
                pos.play_unchecked(mv);
                kept.played(pos.board(), mv);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                kept.push(&mut a);
                SfenBoard::of(pos.board()).push(&mut b);
                assert_eq!(a, b, "{}", pos.sfen());
                assert!(pos.sfen().as_bytes().starts_with(&a), "{}", pos.sfen());
                // And what it writes is the board: read back, it is the
                // same board.
                let read = Position::from_sfen(&pos.sfen()).unwrap();
                assert_eq!(read.board(), pos.board(), "{}", pos.sfen());
                moves_seen += 1;
            }
        }
        assert!(moves_seen > 10_000);
    }
}
