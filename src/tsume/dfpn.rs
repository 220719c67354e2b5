//! Depth-first proof-number search (df-pn) for "does the attacker mate
//! within N plies?", with a transposition table.
//!
//! The tree is an AND/OR tree: at an OR node the attacker picks one of its
//! checking moves, at an AND node the defender must be mated after each of
//! its legal replies. Every node carries a proof number (how many leaves
//! must still be proved to prove it) and a disproof number; df-pn expands
//! the most-proving node depth-first, within thresholds, and stores the
//! numbers in the table so a revisited position costs nothing.
//!
//! The depth bound is part of the question: "mate within N plies". A
//! proof holds within as many plies as its longest line takes, and more;
//! a disproof within N within fewer. So the table keeps, for each
//! position, the length of the shortest proof found (which may be shorter
//! than the bound it was searched with) and the most plies it is disproved
//! within, and one entry answers every bound (the search graph has no cycles, as the plies left
//! fall by one a move). Positions are grouped by board: one whose attacker
//! holds more in hand and defender less than a proved position is proved
//! too, and the other way round for disproofs (hand domination). A budget
//! of nodes bounds the work; a search that runs out answers
//! [`Verdict::Unknown`], never a wrong answer.
//!
//! A disproof also records whether it holds at any depth: it does when
//! every line it rests on ends with the attacker out of checks, never at
//! the bound. Iterative deepening stops there ([`Prover::no_mate_at_any_depth`]),
//! so a large bound costs nothing when the checks run out.

use super::checks::{check_moves, mate_in_one};
use crate::{Hand, Move, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Infinity for proof and disproof numbers; sums stop just below it.
const INF: u32 = 1 << 30;

/// What the search concluded about one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker mates within the plies given.
    Proven,
    /// The attacker cannot force mate within the plies given.
    Disproven,
    /// The node budget ran out first.
    Unknown,
}

/// The table's keys are Zobrist keys already: they need no more hashing.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// The table's bucket of a node: the key of its board and side to move,
/// the hands left out (and the kind of node, so an OR and an AND node of
/// the same position never share one).
fn bucket(pos: &Position, or: bool) -> u64 {
    pos.board_key() ^ if or { 0x9E37_79B9_7F4A_7C15 } else { 0 }
}

/// A node's hands: the attacker's and the defender's.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Hands {
    attacker: Hand,
    defender: Hand,
}

fn hands(pos: &Position, or: bool) -> Hands {
    let attacker = if or {
        pos.side_to_move()
    } else {
        !pos.side_to_move()
    };
    Hands {
        attacker: *pos.hand(attacker),
        defender: *pos.hand(!attacker),
    }
}

impl Hands {
    /// Whether a position with these hands is at least as good for the
    /// attacker as one with `other` on the same board: the attacker holds
    /// at least as much, the defender at most as much. Every move of the
    /// attacker there is legal here, every reply of the defender here is
    /// legal there, and they lead to positions related the same way, so a
    /// proof of `other` holds here and a disproof of this holds there.
    fn dominate(&self, other: &Hands) -> bool {
        self.attacker.covers(&other.attacker) && other.defender.covers(&self.defender)
    }
}

/// No proof known.
const NOT_PROVED: u32 = u32::MAX;
/// A disproof at any depth.
const ANY_DEPTH: u32 = u32::MAX;
/// A disproof that rests on no repetition of the line searched.
const NO_LOOP: usize = usize::MAX;

/// What the table knows of one position (board, side to move and hands):
/// the length of its shortest proof found, the most plies it is disproved
/// within, and the numbers of the search under way at one bound.
///
/// A proof of N plies holds within N and more; a disproof within N holds
/// within fewer. So one entry answers for every bound, and a longer search
/// reuses the proofs of a shorter one.
#[derive(Clone, Copy)]
struct Entry {
    hands: Hands,
    /// The length of the shortest proof known (the plies its longest line
    /// takes), or [`NOT_PROVED`].
    proved: u32,
    /// One more than the most plies a disproof is known for (0: none), or
    /// [`ANY_DEPTH`] when no mate exists at any depth.
    disproved: u32,
    /// The bound the numbers below are for.
    plies: u32,
    pn: u32,
    dn: u32,
}

/// A node's numbers as the table gives them.
#[derive(Clone, Copy)]
struct Known {
    pn: u32,
    dn: u32,
    /// Disproved at any depth.
    any_depth: bool,
    /// Proved: the proof's length in plies.
    proof: u32,
}

impl Known {
    /// Numbers not settled yet.
    const fn open(pn: u32, dn: u32) -> Known {
        Known {
            pn,
            dn,
            any_depth: false,
            proof: NOT_PROVED,
        }
    }

    /// Proved by a proof of `plies` plies.
    const fn proved(plies: u32) -> Known {
        Known {
            pn: 0,
            dn: INF,
            any_depth: false,
            proof: plies,
        }
    }

    /// Disproved, at any depth or not.
    const fn disproved(any_depth: bool) -> Known {
        Known {
            pn: INF,
            dn: 0,
            any_depth,
            proof: NOT_PROVED,
        }
    }
}

/// A df-pn prover: the table and the budget, kept across questions so that
/// later searches (a longer bound, a neighbouring position) reuse earlier
/// ones.
pub struct Prover {
    table: HashMap<u64, Vec<Entry>, BuildHasherDefault<KeyHasher>>,
    /// The OR nodes of the line being searched, root first: their buckets
    /// and hands.
    path: Vec<(u64, Hands)>,
    nodes: u64,
    budget: u64,
}

impl Prover {
    /// A prover that expands at most `budget` nodes over all its searches.
    pub fn new(budget: u64) -> Prover {
        Prover {
            table: HashMap::default(),
            path: Vec::new(),
            nodes: 0,
            budget,
        }
    }

    /// The nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The nodes left in the budget.
    pub(crate) fn left(&self) -> u64 {
        self.budget.saturating_sub(self.nodes)
    }

    /// Whether the budget has run out.
    pub fn exhausted(&self) -> bool {
        self.nodes >= self.budget
    }

    /// Whether the side to move (the attacker) mates within `plies` plies,
    /// every one of its moves a check.
    pub fn attacker_mates(&mut self, pos: &Position, plies: u32) -> Verdict {
        self.prove(pos, plies, true)
    }

    /// [`Prover::attacker_mates`] spending at most `nodes` more nodes of
    /// the budget; the numbers it leaves in the table serve later searches.
    pub(crate) fn attacker_mates_within(
        &mut self,
        pos: &Position,
        plies: u32,
        nodes: u64,
    ) -> Verdict {
        let budget = self.budget;
        self.budget = budget.min(self.nodes.saturating_add(nodes));
        let verdict = self.prove(pos, plies, true);
        self.budget = budget;
        verdict
    }

    /// Whether the side to move (the defender, in check) is mated within
    /// `plies` plies: at once when it has no legal move, otherwise by the
    /// attacker's checks after each of its replies.
    pub fn defender_mated(&mut self, pos: &Position, plies: u32) -> Verdict {
        self.prove(pos, plies, false)
    }

    fn prove(&mut self, pos: &Position, plies: u32, or: bool) -> Verdict {
        let (pn, dn, _) = self.search(pos, plies, or, INF, INF);
        if pn == 0 {
            Verdict::Proven
        } else if dn == 0 {
            Verdict::Disproven
        } else {
            Verdict::Unknown
        }
    }

    /// The length of the shortest proof known that the attacker (to move)
    /// mates within `plies`: a mate in that many plies at most, found by
    /// the searches so far. `None` when it is not proved.
    pub fn proof_length(&self, pos: &Position, plies: u32) -> Option<u32> {
        let known = self.lookup(pos, plies, true);
        (known.pn == 0).then_some(known.proof)
    }

    /// Whether a disproof of the attacker (to move) within `plies` holds
    /// at any depth: every line of it ends with the attacker out of checks.
    /// False when the node is not disproved (or not searched).
    pub fn no_mate_at_any_depth(&self, pos: &Position, plies: u32) -> bool {
        let known = self.lookup(pos, plies, true);
        known.dn == 0 && known.any_depth
    }

    /// A node's numbers: settled when an entry of the same board with
    /// hands no better for the attacker has a proof of as few plies or
    /// fewer, or one with hands no worse is disproved within as many; the
    /// numbers of the search under way otherwise, (1, 1) for a new node.
    fn lookup(&self, pos: &Position, plies: u32, or: bool) -> Known {
        let mut known = Known::open(1, 1);
        let Some(entries) = self.table.get(&bucket(pos, or)) else {
            return known;
        };
        let here = hands(pos, or);
        for e in entries {
            if e.proved <= plies && here.dominate(&e.hands) {
                return Known::proved(e.proved);
            }
            if e.disproved > plies && e.hands.dominate(&here) {
                return Known::disproved(e.disproved == ANY_DEPTH);
            }
            if e.hands == here && e.plies == plies {
                known = Known::open(e.pn, e.dn);
            }
        }
        known
    }

    /// Stores a node's numbers and gives them back, resting on no
    /// repetition.
    fn settle(&mut self, pos: &Position, plies: u32, or: bool, known: Known) -> (u32, u32, usize) {
        self.store_entry(pos, plies, or, known);
        (known.pn, known.dn, NO_LOOP)
    }

    fn store_entry(&mut self, pos: &Position, plies: u32, or: bool, known: Known) {
        let Known {
            pn,
            dn,
            any_depth,
            proof,
        } = known;
        let here = hands(pos, or);
        let entries = self.table.entry(bucket(pos, or)).or_default();
        let i = match entries.iter().position(|e| e.hands == here) {
            Some(i) => i,
            None => {
                entries.push(Entry {
                    hands: here,
                    proved: NOT_PROVED,
                    disproved: 0,
                    plies,
                    pn: 1,
                    dn: 1,
                });
                entries.len() - 1
            }
        };
        let e = &mut entries[i];
        if pn == 0 {
            e.proved = e.proved.min(proof);
        } else if dn == 0 {
            let reach = if any_depth { ANY_DEPTH } else { plies + 1 };
            e.disproved = e.disproved.max(reach);
        } else {
            e.plies = plies;
            e.pn = pn;
            e.dn = dn;
        }
    }

    /// Expands a node until its proof number reaches `th_pn` or its
    /// disproof number `th_dn` (or the budget runs out); returns them, and
    /// for a disproof that rests on a repetition of the line above (not
    /// stored, as it holds on this line only) the index in [`Prover::path`]
    /// of the position repeated, or [`NO_LOOP`].
    fn search(
        &mut self,
        pos: &Position,
        plies: u32,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32, usize) {
        let known = self.lookup(pos, plies, or);
        if known.pn == 0 || known.dn == 0 || self.exhausted() {
            return (known.pn, known.dn, NO_LOOP);
        }
        if !or {
            return self.expand(pos, plies, or, th_pn, th_dn);
        }
        // The attacker back at a position of this line, holding no more
        // and the defender no less: a shortest mate never passes through
        // such a position (from the earlier one, with more plies left, the
        // attacker would mate sooner), so this line is a failure here.
        let here = (bucket(pos, or), hands(pos, or));
        let repeated = self
            .path
            .iter()
            .rposition(|(key, hands)| *key == here.0 && hands.dominate(&here.1));
        if let Some(i) = repeated {
            return (INF, 0, i);
        }
        self.path.push(here);
        let result = self.expand(pos, plies, or, th_pn, th_dn);
        self.path.pop();
        result
    }

    /// [`Prover::search`] below the table look-up and the repetition test.
    fn expand(
        &mut self,
        pos: &Position,
        plies: u32,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32, usize) {
        self.nodes += 1;
        const DISPROVEN: Known = Known::disproved(false);
        let moves: Vec<Move> = if or {
            if plies == 0 {
                return self.settle(pos, plies, or, DISPROVEN);
            }
            if mate_in_one(pos).is_some() {
                return self.settle(pos, plies, or, Known::proved(1));
            }
            if plies < 3 {
                return self.settle(pos, plies, or, DISPROVEN);
            }
            check_moves(pos)
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return self.settle(pos, plies, or, Known::proved(0));
            }
            if plies < 2 {
                return self.settle(pos, plies, or, DISPROVEN);
            }
            moves
        };
        if moves.is_empty() {
            // The attacker has no check: no mate at any depth. (A defender
            // with no move was mated above.)
            return self.settle(pos, plies, or, Known::disproved(true));
        }
        let children: Vec<Position> = moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                child
            })
            .collect();
        let mut numbers: Vec<Known> = Vec::with_capacity(children.len());
        // The children disproved by a repetition of this line: the index
        // in the path of the position repeated, or NO_LOOP.
        let mut looped = vec![NO_LOOP; children.len()];
        loop {
            // The numbers of this node from its children's: at an OR node
            // the attacker needs one child proved (pn is the smallest) and
            // all disproved (dn the sum); at an AND node the other way round.
            let mut best = 0;
            let mut first = INF; // the best child's deciding number
            let mut second = INF;
            let mut sum = 0u32;
            let mut other_of_best = 0;
            numbers.clear();
            numbers.extend(children.iter().zip(&looped).map(|(c, &l)| {
                if l == NO_LOOP {
                    self.lookup(c, plies - 1, !or)
                } else {
                    DISPROVEN
                }
            }));
            for (i, known) in numbers.iter().enumerate() {
                let (cpn, cdn) = (known.pn, known.dn);
                let (decide, add) = if or { (cpn, cdn) } else { (cdn, cpn) };
                sum = sum.saturating_add(add).min(INF);
                if decide < first {
                    second = first;
                    first = decide;
                    best = i;
                    other_of_best = add;
                } else if decide < second {
                    second = decide;
                }
            }
            // A child settled against this node's side makes `first` zero
            // and decides the node; otherwise a large sum stays finite.
            if sum >= INF && first != 0 {
                sum = INF - 1;
            }
            let (pn, dn) = if or { (first, sum) } else { (sum, first) };
            if dn == 0 {
                // Disproved: at an OR node every child is, at an AND node
                // one is; it holds at any depth when they do.
                let settled = |k: &Known| k.dn == 0 && k.any_depth;
                let any_depth = if or {
                    numbers.iter().all(settled)
                } else {
                    numbers.iter().any(settled)
                };
                // The repetition it rests on: at an OR node the highest of
                // any child's, at an AND node none when a disproved child
                // rests on none.
                let disproved = numbers.iter().zip(&looped).filter(|(k, _)| k.dn == 0);
                let rests_on = if or {
                    disproved.map(|(_, &l)| l).min()
                } else {
                    disproved.map(|(_, &l)| l).max()
                }
                .unwrap_or(NO_LOOP);
                // This node's own index in the path (an AND node has none):
                // a repetition of itself or below is settled here.
                let own = if or { self.path.len() - 1 } else { NO_LOOP };
                if rests_on != NO_LOOP && rests_on < own {
                    return (pn, dn, rests_on);
                }
                return self.settle(pos, plies, or, Known::disproved(any_depth));
            }
            if pn == 0 {
                // Proved: at an OR node by its shortest proved child, at an
                // AND node by all of them, as long as the longest.
                let proofs = numbers.iter().filter(|k| k.pn == 0).map(|k| k.proof);
                let child = if or { proofs.min() } else { proofs.max() };
                let proof = child.unwrap_or(0).saturating_add(1);
                return self.settle(pos, plies, or, Known::proved(proof));
            }
            if pn >= th_pn || dn >= th_dn || self.exhausted() {
                return self.settle(pos, plies, or, Known::open(pn, dn));
            }
            // The child's thresholds: it stays the most proving (or
            // disproving) child while below the runner-up plus a quarter
            // (the 1+ε trick: fewer switches between close siblings), and
            // the sum stays below this node's threshold.
            let beyond_second = second.saturating_add(second / 4).saturating_add(1).min(INF);
            let (child_th_pn, child_th_dn) = if or {
                (
                    th_pn.min(beyond_second),
                    th_dn.saturating_sub(dn - other_of_best).max(1),
                )
            } else {
                (
                    th_pn.saturating_sub(pn - other_of_best).max(1),
                    th_dn.min(beyond_second),
                )
            };
            let (_, cdn, rests_on) =
                self.search(&children[best], plies - 1, !or, child_th_pn, child_th_dn);
            if cdn == 0 && rests_on != NO_LOOP {
                looped[best] = rests_on;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;

    #[test]
    fn a_proof_holds_for_a_better_hand_and_a_disproof_for_a_worse() {
        let mut prover = Prover::new(1_000);
        // A gold on the king's head mates; proved once, it is proved with
        // a silver more in the attacker's hand without expanding a node.
        let gold = problem("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(prover.attacker_mates(&gold, 1), Verdict::Proven);
        let nodes = prover.nodes();
        let more = problem("4k4/9/4P4/9/9/9/9/9/9 b GS 1");
        assert_eq!(prover.attacker_mates(&more, 1), Verdict::Proven);
        assert_eq!(prover.nodes(), nodes);
        // Within more plies too.
        assert_eq!(prover.attacker_mates(&more, 5), Verdict::Proven);
        assert_eq!(prover.nodes(), nodes);
        // A pawn more in the defender's hand is not covered by the proof.
        let defended = problem("4k4/9/4P4/9/9/9/9/9/9 b Gp 1");
        assert_eq!(prover.attacker_mates(&defended, 1), Verdict::Proven);
        assert!(prover.nodes() > nodes);
        // With a silver alone there is no mate in one; the disproof holds
        // with nothing in hand and within fewer plies.
        let silver = problem("4k4/9/4P4/9/9/9/9/9/9 b S 1");
        assert_eq!(prover.attacker_mates(&silver, 1), Verdict::Disproven);
        let nodes = prover.nodes();
        let empty = problem("4k4/9/4P4/9/9/9/9/9/9 b - 1");
        assert_eq!(prover.attacker_mates(&empty, 1), Verdict::Disproven);
        assert_eq!(prover.attacker_mates(&silver, 0), Verdict::Disproven);
        assert_eq!(prover.nodes(), nodes);
    }
}
