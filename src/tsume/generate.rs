//! Sound mate problems from random games, reproducible from a seed.
//!
//! Random legal moves are played from the start until a mate (a game that
//! runs past 400 plies starts over). The position before the mate (mate in
//! one) or three plies before it, when the solver finds a mate in three
//! there and none in one, is taken, rotated when White attacks; every piece
//! it does not need is removed, in a random order: first the attacker's king
//! (a problem has none, unless the mate needs it: then it is a 双玉 problem),
//! then the other pieces but the defender's king. A piece is needed when,
//! without it, the mate is no longer of the same length.
//! Removed pieces, and whatever the attacker holds beyond what the mate
//! uses, go to the defender's hand. What [`check`](super::check) then finds
//! sound (one first move, nothing left over, the length asked for) and was
//! not generated before is kept.

use super::check::check;
use super::dfpn::Prover;
use super::solver::{attacker_length, Limits};
use crate::position::KingRule;
use crate::types::SplitMix;
use crate::{Color, Move, PieceKind, Position, Setup, Square};
use std::collections::HashSet;

/// A generated problem: the position (attacker to move) and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The problem position; Black attacks.
    pub start: Position,
    /// The answer: the main line, as [`check`](super::check) plays it.
    pub answer: Vec<Move>,
}

/// Generates `count` distinct sound problems of `moves` plies (1 or 3; any
/// other length gives none), the same ones for the same seed.
pub fn generate(moves: u32, count: usize, seed: u64) -> Vec<Problem> {
    let mut rng = SplitMix::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    if moves != 1 && moves != 3 {
        return out;
    }
    while out.len() < count {
        let Some(candidate) = candidate(&mut rng, moves) else {
            continue;
        };
        let Some(problem) = reduce(&mut rng, candidate, moves) else {
            continue;
        };
        if seen.insert(problem.start.key()) {
            out.push(problem);
        }
    }
    out
}

/// A position from a random game where the side to move mates in exactly
/// `moves` plies, rotated so that Black attacks.
pub(super) fn candidate(rng: &mut SplitMix, moves: u32) -> Option<Position> {
    let mut history = vec![Position::startpos()];
    loop {
        let pos = history.last().expect("the start is there");
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        if history.len() > 400 {
            return None;
        }
        let mv = legal[rng.below(legal.len())];
        let mut next = pos.clone();
        next.play_unchecked(mv);
        history.push(next);
    }
    let end = history.last().expect("the start is there");
    if !end.is_check() || history.len() <= moves as usize {
        return None;
    }
    let pos = &history[history.len() - 1 - moves as usize];
    if pos.is_check() {
        return None;
    }
    let mut prover = Prover::new(200_000);
    if attacker_length(&mut prover, pos, moves).ok()? != Some(moves) {
        return None;
    }
    Some(if pos.side_to_move() == Color::White {
        pos.flip()
    } else {
        pos.clone()
    })
}

/// Whether `pos` still mates in exactly `moves` plies.
fn mates_in(pos: &Position, moves: u32) -> bool {
    let mut prover = Prover::new(200_000);
    matches!(attacker_length(&mut prover, pos, moves), Ok(Some(n)) if n == moves)
}

/// Removes every piece the mate does not need, then keeps the problem if
/// it is sound.
pub(super) fn reduce(rng: &mut SplitMix, pos: Position, moves: u32) -> Option<Problem> {
    let mut setup = pos.to_setup();
    setup.move_number = 1;
    if let Some(king) = Square::all().find(|&sq| {
        setup
            .piece_at(sq)
            .is_some_and(|p| p.kind == PieceKind::King && p.color == Color::Black)
    }) {
        let mut trial = setup.clone();
        trial.set_piece(king, None);
        if let Some(next) = still_mates(&trial, moves) {
            setup = next;
        }
    }
    // Board pieces, then the attacker's hand, in a random order.
    let mut squares = setup.non_king_squares();
    shuffle(rng, &mut squares);
    for sq in squares {
        let piece = setup.piece_at(sq).expect("a piece was there");
        let mut trial = setup.clone();
        trial.set_piece(sq, None);
        trial.hands[Color::White.index()].add(piece.kind.unpromote());
        if let Some(next) = still_mates(&trial, moves) {
            setup = next;
        }
    }
    let mut held: Vec<PieceKind> = setup.hands[Color::Black.index()]
        .kinds()
        .flat_map(|(kind, n)| std::iter::repeat_n(kind, usize::from(n)))
        .collect();
    shuffle(rng, &mut held);
    for kind in held {
        let mut trial = setup.clone();
        trial.hands[Color::Black.index()].remove(kind);
        trial.hands[Color::White.index()].add(kind);
        if let Some(next) = still_mates(&trial, moves) {
            setup = next;
        }
    }
    let start = Position::from_setup(setup, KingRule::MayBeMissing).ok()?;
    let report = check(
        &start,
        &[],
        Limits {
            depth: moves,
            nodes: 500_000,
        },
    );
    let sound =
        report.is_sound() && report.length == Some(moves) && report.rules_length == Some(moves);
    sound.then_some(Problem {
        start,
        answer: report.answer,
    })
}

fn still_mates(trial: &Setup, moves: u32) -> Option<Setup> {
    let pos = Position::from_setup(trial.clone(), KingRule::MayBeMissing).ok()?;
    (!pos.is_check() && mates_in(&pos, moves)).then(|| trial.clone())
}

pub(super) fn shuffle<T>(rng: &mut SplitMix, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sound_problems() {
        let a = generate(1, 5, 7);
        assert_eq!(a, generate(1, 5, 7));
        assert_ne!(a, generate(1, 5, 8));
        for p in &a {
            assert_eq!(p.answer.len(), 1);
            assert_eq!(super::super::mates_in_one(&p.start), p.answer);
            assert_eq!(p.start.side_to_move(), Color::Black);
            assert!(p.start.hand(Color::Black).total() <= 1);
            // No attacker's king where the mate does without it.
            if let Some(king) = p.start.king(Color::Black) {
                let mut setup = p.start.to_setup();
                setup.set_piece(king, None);
                assert!(still_mates(&setup, 1).is_none(), "{}", p.start.sfen());
            }
            // No piece but the kings can go without losing the mate.
            for sq in Square::all() {
                let Some(piece) = p.start.piece_at(sq) else {
                    continue;
                };
                if piece.kind == PieceKind::King {
                    continue;
                }
                let mut setup = p.start.to_setup();
                setup.set_piece(sq, None);
                setup.hands[Color::White.index()].add(piece.kind.unpromote());
                assert!(still_mates(&setup, 1).is_none(), "{} {sq}", p.start.sfen());
            }
        }
    }

    #[test]
    fn splitmix_is_the_published_sequence() {
        // SplitMix64 seeded with 0: its first output is a known constant.
        assert_eq!(SplitMix::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }
}
