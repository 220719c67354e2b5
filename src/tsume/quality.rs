//! What a composer looks at in a problem, counted on its answer, and one
//! score made of it.
//!
//! The features are read off the start and the answer (the main line): how
//! long it is, how many pieces it uses, what the attacker gives away
//! (sacrifices: attacker pieces the defender captures), where it declines
//! to promote, how often it drops, how often the defender interposes,
//! double checks, how closed the mating net is (the defender's own pieces
//! beside its king at the end), and how many nodes the solver needed.
//!
//! The score is a plain weighted sum of them ([`Quality::score`]; the
//! weights are [`WEIGHTS`]).

use super::dfpn::Prover;
use super::solver::{is_interposition, solve_with};
use crate::position::bitboard;
use crate::{Move, PieceKind, Position};

/// The features of one problem.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quality {
    /// The answer's length in plies.
    pub length: u32,
    /// Pieces on the board at the start, the kings left out.
    pub board_pieces: u32,
    /// Pieces in the attacker's hand at the start.
    pub hand_pieces: u32,
    /// Defender moves of the answer that capture an attacker piece.
    pub sacrifices: u32,
    /// Those where the captured piece is a rook or a bishop (promoted or
    /// not).
    pub major_sacrifices: u32,
    /// Attacker moves that could promote and do not.
    pub non_promotions: u32,
    /// Attacker drops.
    pub drops: u32,
    /// Defender moves that put a piece between the checker and the king.
    pub interpositions: u32,
    /// Attacker moves after which two pieces check.
    pub double_checks: u32,
    /// The squares beside the defender's king at the end held by its own
    /// pieces.
    pub closed: u32,
    /// The nodes the solver expanded to find the mate and its first moves.
    pub nodes: u64,
}

/// The score's weights, one per feature, as (name, weight). The effort
/// term is the weight times the bit length of the node count (so each
/// doubling of the work counts once).
pub const WEIGHTS: [(&str, i64); 11] = [
    ("length", 2),
    ("board_pieces", -2),
    ("hand_pieces", -2),
    ("sacrifices", 10),
    ("major_sacrifices", 10),
    ("non_promotions", 15),
    ("drops", 1),
    ("interpositions", 3),
    ("double_checks", 5),
    ("closed", 2),
    ("nodes", 1),
];

impl Quality {
    /// The features as numbers, in the order of [`WEIGHTS`] (the node
    /// count as its bit length).
    fn values(&self) -> [i64; 11] {
        [
            i64::from(self.length),
            i64::from(self.board_pieces),
            i64::from(self.hand_pieces),
            i64::from(self.sacrifices),
            i64::from(self.major_sacrifices),
            i64::from(self.non_promotions),
            i64::from(self.drops),
            i64::from(self.interpositions),
            i64::from(self.double_checks),
            i64::from(self.closed),
            i64::from(64 - self.nodes.leading_zeros()),
        ]
    }

    /// The weighted sum of the features.
    pub fn score(&self) -> i64 {
        self.values()
            .iter()
            .zip(WEIGHTS)
            .map(|(v, (_, w))| v * w)
            .sum()
    }

    /// One line for a record's comment: the score, then each feature.
    pub fn comment(&self) -> String {
        format!(
            "評価：{} (length {}, board pieces {}, hand pieces {}, sacrifices {}, \
             major sacrifices {}, non-promotions {}, drops {}, interpositions {}, \
             double checks {}, closed {}, nodes {})",
            self.score(),
            self.length,
            self.board_pieces,
            self.hand_pieces,
            self.sacrifices,
            self.major_sacrifices,
            self.non_promotions,
            self.drops,
            self.interpositions,
            self.double_checks,
            self.closed,
            self.nodes
        )
    }
}

/// The features of the problem `start` (attacker to move) with `answer`,
/// a legal line; the solver is run once more for its effort, within
/// `budget` nodes (what it spent when the budget runs out).
pub fn quality(start: &Position, answer: &[Move], budget: u64) -> Quality {
    let attacker = start.side_to_move();
    let mut q = Quality {
        length: answer.len() as u32,
        hand_pieces: start.hand(attacker).total(),
        ..Quality::default()
    };
    q.board_pieces = start
        .board()
        .iter()
        .flatten()
        .filter(|p| p.kind != PieceKind::King)
        .count() as u32;
    let mut pos = start.clone();
    for (i, &mv) in answer.iter().enumerate() {
        if i % 2 == 0 {
            match mv {
                Move::Drop { .. } => q.drops += 1,
                Move::Normal { from, to, promote } => {
                    let could = !promote
                        && pos.piece_at(from).is_some_and(|p| p.kind.can_promote())
                        && pos.is_legal(Move::Normal {
                            from,
                            to,
                            promote: true,
                        });
                    if could {
                        q.non_promotions += 1;
                    }
                }
            }
        } else {
            if let Some(taken) = pos.piece_at(mv.to()) {
                if taken.color == attacker {
                    q.sacrifices += 1;
                    if matches!(taken.kind.unpromote(), PieceKind::Rook | PieceKind::Bishop) {
                        q.major_sacrifices += 1;
                    }
                }
            }
            if is_interposition(&pos, mv) {
                q.interpositions += 1;
            }
        }
        pos.play_unchecked(mv);
        if i % 2 == 0 && pos.checkers().has_many() {
            q.double_checks += 1;
        }
    }
    if let Some(king) = pos.king(!attacker) {
        q.closed = bitboard::king_attacks(king)
            .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.color != attacker))
            .count() as u32;
    }
    let mut prover = Prover::new(budget);
    let _ = solve_with(&mut prover, start, answer.len() as u32);
    q.nodes = prover.nodes();
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;

    /// The moves of `usi`, each checked legal from `pos` in turn.
    fn line(pos: &Position, usi: &str) -> Vec<Move> {
        let mut pos = pos.clone();
        let moves: Vec<Move> = usi.split(' ').map(|m| Move::from_usi(m).unwrap()).collect();
        for &mv in &moves {
            pos.play(mv).unwrap();
        }
        moves
    }

    #[test]
    fn a_head_gold_counts_one_drop_and_its_closed_king() {
        // The head gold; a lance of the king's own beside it on 4a.
        let pos = problem("4kl3/9/4P4/9/9/9/9/9/9 b G 1");
        let answer = line(&pos, "G*5b");
        let q = quality(&pos, &answer, 100_000);
        assert_eq!(q.length, 1);
        assert_eq!(q.drops, 1);
        assert_eq!(q.board_pieces, 2);
        assert_eq!(q.hand_pieces, 1);
        assert_eq!(q.closed, 1);
        assert_eq!(q.sacrifices, 0);
        assert!(q.nodes >= 1);
        assert_eq!(
            q.score(),
            2 - 4 - 2 + 1 + 2 + i64::from(64 - q.nodes.leading_zeros())
        );
    }

    #[test]
    fn a_rook_given_away_is_a_major_sacrifice() {
        // A rook dropped on the king's head, taken by the king; then a
        // gold taken by a silver.
        let pos = problem("4k4/3s5/9/9/9/9/9/9/9 b RG 1");
        let answer = line(&pos, "R*5b 5a5b G*5c 6b5c");
        let q = quality(&pos, &answer, 1_000);
        assert_eq!((q.sacrifices, q.major_sacrifices), (2, 1));
        assert_eq!(q.drops, 2);
    }

    #[test]
    fn declining_a_promotion_counts() {
        // A silver checks from 4c without promoting.
        let pos = problem("4k4/9/9/3S5/9/9/9/9/9 b - 1");
        let answer = vec![Move::from_usi("6d5c").unwrap()];
        assert!(pos.is_legal(answer[0]));
        let q = quality(&pos, &answer, 1_000);
        assert_eq!(q.non_promotions, 1);
        let promoted = vec![Move::from_usi("6d5c+").unwrap()];
        assert_eq!(quality(&pos, &promoted, 1_000).non_promotions, 0);
    }
}
