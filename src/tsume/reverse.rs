//! Longer problems by the reverse method (逆算法): a sound problem is
//! grown backwards, two plies at a time, from a mate in one.
//!
//! A step takes the problem's start back by one defender move and, before
//! it, one checking move of the attacker. Taking a move back is the move
//! read backwards: the piece returns to its square (unpromoted when it
//! promoted), a captured piece comes back onto the board out of the
//! capturer's hand, and a dropped piece goes back to the hand. Every
//! reversal is confirmed by playing it forward: the earlier position must
//! be legal, the moves legal in it, the attacker's move a check, and the
//! two moves must lead back to the problem. A step is kept only when the
//! longer problem is sound at its new length (the shortest mate, one first
//! move, no rival before the last move, nothing left in hand); the
//! candidates are tried in a random order and the first sound one wins.
//! When no candidate of a step is sound the problem starts over from a new
//! mate in one.
//!
//! At the full length, every piece the problem does without is removed
//! (to the defender's hand), in a random order, as long as it stays sound
//! at the same length. Everything depends on the seed alone.
//!
//! The mate in one may come from a random game or from a list of mates
//! (the mates real games end in): then each growth draws one of them.

use super::check::check;
use super::checks::{gives_check, mate_in_one};
use super::dfpn::Prover;
use super::generate::{candidate, reduce, shuffle, Problem};
use super::quality::{quality, Quality};
use super::solver::{attacker_length, Limits};
use crate::position::{bitboard, KingRule};
use crate::types::SplitMix;
use crate::{Color, Move, Piece, PieceKind, Position, Setup, Square};
use std::collections::HashSet;

/// The nodes the solver may spend on one candidate's soundness.
const CHECK_NODES: u64 = 300_000;
/// The candidates tried at one step before the problem starts over.
const TRIES_PER_STEP: usize = 120;

/// A problem made by [`generate_reverse`], with its features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    /// The problem and its answer.
    pub problem: Problem,
    /// Its features and score.
    pub quality: Quality,
    /// For [`generate_reverse_from`]: the index of the mate it grew from.
    pub mate: Option<usize>,
}

/// The growths [`generate_reverse_from`] tries for each problem asked
/// before it gives up.
const GROWTHS_PER_PROBLEM: usize = 40;

/// Generates `count` distinct sound problems of `moves` plies (odd, 1 or
/// more) by the reverse method from the mates of random games, the same
/// ones for the same seed. With `min_score`, only problems whose score
/// reaches it are kept.
pub fn generate_reverse(moves: u32, count: usize, seed: u64, min_score: Option<i64>) -> Vec<Rated> {
    rated(moves, count, seed, min_score, None)
}

/// [`generate_reverse`] from given mates in one (attacker, Black, to move:
/// the mates of real games, as [`final_mate`](super::final_mate) gives
/// them): each growth starts from one of them, drawn by the seed. It gives
/// up after a number of growths for each problem asked, so it may give
/// fewer than `count` (none without a mate).
pub fn generate_reverse_from(
    mates: &[Position],
    moves: u32,
    count: usize,
    seed: u64,
    min_score: Option<i64>,
) -> Vec<Rated> {
    rated(moves, count, seed, min_score, Some(mates))
}

fn rated(
    moves: u32,
    count: usize,
    seed: u64,
    min_score: Option<i64>,
    mates: Option<&[Position]>,
) -> Vec<Rated> {
    let mut rng = SplitMix::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    if moves.is_multiple_of(2) {
        return out;
    }
    let mut growths = 0;
    while out.len() < count {
        let (mate, grown) = match mates {
            None => (None, grow(&mut rng, moves, None)),
            Some(mates) => {
                if mates.is_empty() || growths >= count.saturating_mul(GROWTHS_PER_PROBLEM) {
                    break;
                }
                growths += 1;
                let i = rng.below(mates.len());
                (Some(i), grow(&mut rng, moves, Some(&mates[i])))
            }
        };
        let Some(problem) = grown else {
            continue;
        };
        if !seen.insert(problem.start.key()) {
            continue;
        }
        let quality = quality(&problem.start, &problem.answer, CHECK_NODES);
        if min_score.is_some_and(|min| quality.score() < min) {
            continue;
        }
        out.push(Rated {
            problem,
            quality,
            mate,
        });
    }
    out
}

/// One problem of `moves` plies grown from `mate` (a mate in one) or from
/// a random game's mate, or `None` when its growth got stuck.
fn grow(rng: &mut SplitMix, moves: u32, mate: Option<&Position>) -> Option<Problem> {
    let start = match mate {
        Some(mate) => mate.clone(),
        None => candidate(rng, 1)?,
    };
    let mut problem = reduce(rng, start, 1)?;
    let mut length = 1;
    while length < moves {
        problem = step(rng, &problem, length)?;
        length += 2;
    }
    Some(prune(rng, problem, moves))
}

/// The problem `problem` (of `length` plies) taken back by a defender
/// move and an attacker move, when one such is sound at `length + 2`.
fn step(rng: &mut SplitMix, problem: &Problem, length: u32) -> Option<Problem> {
    let mut earlier = reverse_pairs(&problem.start);
    shuffle(rng, &mut earlier);
    earlier
        .into_iter()
        .filter(|pos| mate_in_one(pos).is_none())
        .take(TRIES_PER_STEP)
        .find_map(|pos| sound(pos, length + 2))
}

/// The problem `pos` with its answer when it is sound at exactly `length`.
fn sound(pos: Position, length: u32) -> Option<Problem> {
    let mut prover = Prover::new(CHECK_NODES);
    if attacker_length(&mut prover, &pos, length).ok()? != Some(length) {
        return None;
    }
    let limits = Limits {
        depth: length,
        nodes: CHECK_NODES,
    };
    let report = check(&pos, &[], limits);
    let ok =
        report.is_sound() && report.length == Some(length) && report.rules_length == Some(length);
    ok.then_some(Problem {
        start: pos,
        answer: report.answer,
    })
}

/// Removes the pieces the problem does without, in a random order: the
/// attacker's king first, then the board's other pieces but the
/// defender's king, each kept out when the problem stays sound at
/// `length`.
fn prune(rng: &mut SplitMix, problem: Problem, length: u32) -> Problem {
    let mut best = problem;
    let mut squares: Vec<Square> = Square::all()
        .filter(|&sq| {
            best.start
                .piece_at(sq)
                .is_some_and(|p| !(p.kind == PieceKind::King && p.color == Color::White))
        })
        .collect();
    shuffle(rng, &mut squares);
    // The attacker's king first: a problem has none unless it needs one.
    squares.sort_by_key(|&sq| best.start.piece_at(sq).map(|p| p.kind != PieceKind::King));
    for sq in squares {
        let mut setup = best.start.to_setup();
        let Some(piece) = setup.piece_at(sq) else {
            continue;
        };
        setup.set_piece(sq, None);
        if piece.kind != PieceKind::King {
            setup.hands[Color::White.index()].add(piece.kind.unpromote());
        }
        let Ok(pos) = Position::from_setup(setup, KingRule::MayBeMissing) else {
            continue;
        };
        if pos.is_check() {
            continue;
        }
        if let Some(smaller) = sound(pos, length) {
            best = smaller;
        }
    }
    best
}

/// Every position, attacker (Black) to move, from which a check of the
/// attacker and a reply of the defender lead to `pos`, without repeats, in
/// a fixed order.
pub(crate) fn reverse_pairs(pos: &Position) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (before_reply, reply) in unmoves(pos, Color::White) {
        if !before_reply.is_check() {
            continue;
        }
        for (before_check, check) in unmoves(&before_reply, Color::Black) {
            if before_check.is_check() || !gives_check(&before_check, check) {
                continue;
            }
            let mut replay = before_check.clone();
            replay.play_unchecked(check);
            if replay.key() != before_reply.key() || !replay.is_legal(reply) {
                continue;
            }
            replay.play_unchecked(reply);
            if replay.key() == pos.key() && seen.insert(before_check.key()) {
                out.push(before_check);
            }
        }
    }
    out
}

/// The moves of `mover` (the side not to move in `pos`) that could have
/// led to `pos`, each with the position before it, confirmed by playing
/// it forward.
fn unmoves(pos: &Position, mover: Color) -> Vec<(Position, Move)> {
    let mut out = Vec::new();
    let occupied = pos.occupied();
    let mut setup = pos.to_setup();
    setup.side_to_move = mover;
    for to in pos.pieces_of(mover) {
        let piece = pos.piece_at(to).expect("a piece of the mover");
        if piece.kind.is_hand_kind() {
            let mut before = setup.clone();
            before.set_piece(to, None);
            before.hands[mover.index()].add(piece.kind);
            confirm(
                &mut out,
                pos,
                before,
                Move::Drop {
                    kind: piece.kind,
                    to,
                },
            );
        }
        let mut forms = vec![(piece.kind, false)];
        if piece.kind.is_promoted() {
            forms.push((piece.kind.unpromote(), true));
        }
        // What the move may have captured: nothing, or a piece of the
        // other side that went into the mover's hand.
        let mut captures: Vec<Option<Piece>> = vec![None];
        for (kind, _) in pos.hand(mover).kinds() {
            captures.push(Some(Piece::new(!mover, kind)));
            if let Some(promoted) = kind.promote() {
                captures.push(Some(Piece::new(!mover, promoted)));
            }
        }
        for from in Square::all().filter(|&sq| !occupied.contains(sq)) {
            for &(kind, promote) in &forms {
                if !bitboard::attacks(mover, kind, from, occupied).contains(to) {
                    continue;
                }
                for &captured in &captures {
                    let mut before = setup.clone();
                    before.set_piece(from, Some(Piece::new(mover, kind)));
                    before.set_piece(to, captured);
                    if let Some(taken) = captured {
                        before.hands[mover.index()].remove(taken.kind.unpromote());
                    }
                    confirm(&mut out, pos, before, Move::Normal { from, to, promote });
                }
            }
        }
    }
    out
}

/// Keeps `before` and `mv` when the position is legal, the move legal in
/// it, and playing it gives `after`.
fn confirm(out: &mut Vec<(Position, Move)>, after: &Position, before: Setup, mv: Move) {
    let Ok(pos) = Position::from_setup(before, KingRule::MayBeMissing) else {
        return;
    };
    if !pos.is_legal(mv) {
        return;
    }
    let mut replay = pos.clone();
    replay.play_unchecked(mv);
    if replay.key() == after.key() {
        out.push((pos, mv));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;

    #[test]
    fn every_reverse_pair_leads_forward_to_the_problem() {
        let pos = problem("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let earlier = reverse_pairs(&pos);
        assert!(!earlier.is_empty());
        let mut captures = 0;
        for before in &earlier {
            assert_eq!(before.side_to_move(), Color::Black);
            // Some check and some reply lead to the problem.
            let found = super::super::check_moves(before).into_iter().any(|mv| {
                let mut p = before.clone();
                p.play_unchecked(mv);
                p.legal_moves().into_iter().any(|r| {
                    let mut q = p.clone();
                    q.play_unchecked(r);
                    let back = q.key() == pos.key();
                    if back && q.hand(Color::White).total() > p.hand(Color::White).total() {
                        captures += 1;
                    }
                    back
                })
            });
            assert!(found, "{}", before.sfen());
        }
        // The king may have taken an attacker piece on its way to 5a.
        assert!(captures > 0);
    }

    #[test]
    fn the_same_seed_grows_the_same_sound_mates_in_five() {
        let a = generate_reverse(5, 2, 3, None);
        assert_eq!(a, generate_reverse(5, 2, 3, None));
        for rated in &a {
            let p = &rated.problem;
            assert_eq!(p.answer.len(), 5, "{}", p.start.sfen());
            let report = check(
                &p.start,
                &p.answer,
                Limits {
                    depth: 5,
                    nodes: 1_000_000,
                },
            );
            assert!(report.is_sound(), "{} {report:?}", p.start.sfen());
            assert_eq!(rated.quality.length, 5);
        }
    }
}
