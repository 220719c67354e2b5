//! The shortest forced mate of a position and its main line.
//!
//! Iterative deepening over the length: the df-pn prover is asked whether
//! the attacker mates in 1, 3, 5, … plies, and the first bound proved is the
//! shortest mate. The main line is then read off the proofs, one ply at a
//! time: the attacker plays a move that keeps the shortest length, the
//! defender the reply that resists longest (at equal length, one that is
//! not an interposition, so a futile interposition never stretches the
//! line when another reply is as long).

use super::checks::check_moves;
use super::dfpn::{Prover, Verdict};
use crate::{Move, Position};

/// How far and how long the solver may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest mate looked for, in plies (the attacker's and the
    /// defender's moves together; a mate in three is 3).
    pub depth: u32,
    /// The most nodes df-pn may expand, over the whole solve (the main line
    /// and the other first moves included).
    pub nodes: u64,
}

impl Default for Limits {
    /// Mates up to 31 plies, within five million nodes (a few seconds).
    fn default() -> Limits {
        Limits {
            depth: 31,
            nodes: 5_000_000,
        }
    }
}

/// A forced mate found by [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mate {
    /// The main line, from the attacker's first move to the mating move:
    /// the attacker's shortest mate against the defender's longest
    /// resistance. Its length is the mate's length in plies.
    pub line: Vec<Move>,
    /// Every first move of the attacker that mates in the same number of
    /// plies, the main line's first move included, in move generation order.
    pub first_moves: Vec<Move>,
}

impl Mate {
    /// The mate's length in plies (odd: the attacker moves first and last).
    pub fn len(&self) -> usize {
        self.line.len()
    }

    /// Always false: a mate has at least one move. (For clippy's sake.)
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// Whether the first move is the only one that mates this quickly (a
    /// problem with another is unsound: 余詰).
    pub fn unique_first(&self) -> bool {
        self.first_moves.len() == 1
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A forced mate within the depth; the shortest.
    Mate(Mate),
    /// No forced mate within the depth (the defender has no king, or every
    /// line of checks runs out).
    NoMate,
    /// The node budget ran out before an answer.
    Unknown,
}

/// The budget ran out.
pub(crate) struct OutOfNodes;

/// Finds the shortest forced mate of the side to move within `limits`:
/// every attacker move checks, the defender tries every legal reply, and
/// the rules core decides legality (打ち歩詰め included).
pub fn solve(pos: &Position, limits: Limits) -> Outcome {
    let mut prover = Prover::new(limits.nodes);
    match solve_with(&mut prover, pos, limits.depth) {
        Ok(Some(mate)) => Outcome::Mate(mate),
        Ok(None) => Outcome::NoMate,
        Err(OutOfNodes) => Outcome::Unknown,
    }
}

/// [`solve`] with a prover the caller keeps (to ask it more afterwards).
pub(crate) fn solve_with(
    prover: &mut Prover,
    pos: &Position,
    depth: u32,
) -> Result<Option<Mate>, OutOfNodes> {
    if pos.king(!pos.side_to_move()).is_none() {
        return Ok(None);
    }
    let Some(length) = attacker_length(prover, pos, depth)? else {
        return Ok(None);
    };
    let line = main_line(prover, pos, length)?;
    let mut first_moves = Vec::new();
    for mv in check_moves(pos) {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if proved(prover.defender_mated(&child, length - 1))? {
            first_moves.push(mv);
        }
    }
    Ok(Some(Mate { line, first_moves }))
}

fn proved(verdict: Verdict) -> Result<bool, OutOfNodes> {
    match verdict {
        Verdict::Proven => Ok(true),
        Verdict::Disproven => Ok(false),
        Verdict::Unknown => Err(OutOfNodes),
    }
}

/// The shortest mate of the attacker (to move) within `max` plies.
pub(crate) fn attacker_length(
    prover: &mut Prover,
    pos: &Position,
    max: u32,
) -> Result<Option<u32>, OutOfNodes> {
    Ok(shortest(prover, pos, max)?.0)
}

/// The bound from which [`shortest`] first searches at its full bound:
/// the mates in one and three come before it, as they are cheap.
const PROBE_FROM: u32 = 5;

/// The shortest mate of the attacker (to move) within `max` plies, and
/// when there is none, whether there is none at any depth.
///
/// The mates in one and three are looked for first. Then one search at
/// `max` itself, with half the budget left: a disproof there holds for
/// every shorter bound; a proof has a length, and the bound is tightened
/// to two plies below it until no mate is left, so only the last bound
/// is disproved. When that first search runs out, the bound grows two
/// plies at a time instead. Either way the bound grows or shrinks until
/// a disproof that holds at any depth (the attacker's checks run out on
/// every line), so a large `max` costs nothing then.
pub(crate) fn shortest(
    prover: &mut Prover,
    pos: &Position,
    max: u32,
) -> Result<(Option<u32>, bool), OutOfNodes> {
    for plies in (1..=max).step_by(2) {
        if plies == PROBE_FROM && max > plies {
            let verdict = prover.attacker_mates_within(pos, max, prover.left() / 2);
            if verdict == Verdict::Disproven {
                return Ok((None, prover.no_mate_at_any_depth(pos, max)));
            }
            if let Some(length) = prover.proof_length(pos, max) {
                return tighten(prover, pos, length).map(|n| (Some(n), false));
            }
        }
        if proved(prover.attacker_mates(pos, plies))? {
            return Ok((Some(plies), false));
        }
        if prover.no_mate_at_any_depth(pos, plies) {
            return Ok((None, true));
        }
    }
    Ok((None, false))
}

/// The shortest mate of the attacker (to move) given a proof of `length`
/// plies: a mate within two plies fewer is looked for until there is none.
fn tighten(prover: &mut Prover, pos: &Position, mut length: u32) -> Result<u32, OutOfNodes> {
    while length >= PROBE_FROM {
        if !proved(prover.attacker_mates(pos, length - 2))? {
            break;
        }
        match prover.proof_length(pos, length - 2) {
            Some(shorter) => length = shorter,
            None => return Err(OutOfNodes), // proved a moment ago
        }
    }
    Ok(length)
}

/// Whether the defender's reply `mv` (to move, in check) puts a piece
/// between the checker and the king rather than moving the king or taking
/// the checker.
pub fn is_interposition(pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Drop { .. } => true,
        Move::Normal { from, to, .. } => {
            Some(from) != pos.king(pos.side_to_move()) && !pos.checkers().contains(to)
        }
    }
}

/// The main line of a mate of exactly `length` plies from `pos`.
fn main_line(prover: &mut Prover, pos: &Position, length: u32) -> Result<Vec<Move>, OutOfNodes> {
    let mut line = Vec::with_capacity(length as usize);
    let mut pos = pos.clone();
    let mut left = length;
    loop {
        // The attacker: the first move that still mates in `left`.
        let mut next = None;
        for mv in check_moves(&pos) {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if proved(prover.defender_mated(&child, left.saturating_sub(1)))? {
                next = Some((mv, child));
                break;
            }
        }
        let Some((mv, child)) = next else {
            return Err(OutOfNodes); // the proofs disagree: never expected
        };
        line.push(mv);
        pos = child;
        // The defender: the longest resistance; at equal length a reply
        // that is not an interposition.
        let mut best: Option<(u32, bool, Move, Position)> = None;
        for reply in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(reply);
            let Some(len) = attacker_length(prover, &child, left.saturating_sub(2))? else {
                return Err(OutOfNodes);
            };
            let plain = !is_interposition(&pos, reply);
            let better = match &best {
                None => true,
                Some((best_len, best_plain, ..)) => {
                    len > *best_len || (len == *best_len && plain && !best_plain)
                }
            };
            if better {
                best = Some((len, plain, reply, child));
            }
        }
        let Some((len, _, reply, child)) = best else {
            return Ok(line); // mated
        };
        line.push(reply);
        pos = child;
        left = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;

    #[test]
    fn mate_in_three_with_its_main_line() {
        // No mate in one; cshogi's mate_move(3) finds 5c7c (a dragon check
        // from the side) for this position.
        let pos = problem("2k6/s8/4+R4/9/9/9/9/9/9 b GB 1");
        assert!(super::super::mate_in_one(&pos).is_none());
        let Outcome::Mate(mate) = solve(&pos, Limits::default()) else {
            panic!("no mate found");
        };
        assert_eq!(mate.len(), 3, "{:?}", mate.line);
        assert!(mate.first_moves.contains(&mate.line[0]));
        let mut end = pos.clone();
        for &mv in &mate.line {
            end.play(mv).unwrap();
        }
        assert!(end.is_checkmate(), "{:?}", mate.line);
        // Depth 1 is too short for it.
        assert_eq!(
            solve(
                &pos,
                Limits {
                    depth: 1,
                    ..Limits::default()
                }
            ),
            Outcome::NoMate
        );
    }

    #[test]
    fn a_long_no_mate_is_disproved_within_a_small_budget() {
        // Seven plies before the end of a bench game: White checks on and
        // on but has no mate (YaneuraOu's mate engine agrees). Its lines of
        // checks come back to positions they passed, which are failures.
        let pos = problem(
            "l3k4/3s1g3/pgn4p+S/PpgpNs3/8p/2pKP2+R1/LP1PlG+pSP/1B1+p3PL/BNP2+p3 w RPnp 114",
        );
        let limits = Limits {
            depth: 31,
            nodes: 100_000,
        };
        assert_eq!(solve(&pos, limits), Outcome::NoMate);
    }

    #[test]
    fn no_mate_and_a_budget() {
        let pos = Position::startpos();
        assert_eq!(
            solve(
                &pos,
                Limits {
                    depth: 5,
                    nodes: 1_000_000
                }
            ),
            Outcome::NoMate
        );
        let pos = problem("2k6/s8/4+R4/9/9/9/9/9/9 b GB 1");
        assert_eq!(
            solve(
                &pos,
                Limits {
                    depth: 31,
                    nodes: 1
                }
            ),
            Outcome::Unknown
        );
    }
}
