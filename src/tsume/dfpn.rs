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
//! The depth bound is part of the question: a node is a position together
//! with the plies left, and the table is keyed by both (the Zobrist key of
//! the position and the plies), so a proof or disproof is exact for that
//! bound and the search graph has no cycles. A budget of nodes bounds the
//! work; a search that runs out answers [`Verdict::Unknown`].
//!
//! A disproof also records whether it holds at any depth: it does when
//! every line it rests on ends with the attacker out of checks, never at
//! the bound. Iterative deepening stops there ([`Prover::no_mate_at_any_depth`]),
//! so a large bound costs nothing when the checks run out.

use super::checks::{check_moves, mate_in_one};
use crate::{Move, Position};
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

/// A node of the table: a position's key with the plies left (and the kind
/// of node, so an OR and an AND node of the same position never collide).
#[derive(Clone, Copy, PartialEq, Eq)]
struct NodeKey(u64);

impl std::hash::Hash for NodeKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0);
    }
}

fn node_key(pos: &Position, plies: u32, or: bool) -> NodeKey {
    let salt = u64::from(plies).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(or);
    NodeKey(pos.key() ^ salt.rotate_left(17))
}

/// A node's proof and disproof numbers, and, for a disproof, whether it
/// holds at any depth (no line of it was cut off by the bound).
#[derive(Clone, Copy)]
struct Entry {
    pn: u32,
    dn: u32,
    any_depth: bool,
}

/// A df-pn prover: the table and the budget, kept across questions so that
/// later searches (a longer bound, a neighbouring position) reuse earlier
/// ones.
pub struct Prover {
    table: HashMap<NodeKey, Entry, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    budget: u64,
}

impl Prover {
    /// A prover that expands at most `budget` nodes over all its searches.
    pub fn new(budget: u64) -> Prover {
        Prover {
            table: HashMap::default(),
            nodes: 0,
            budget,
        }
    }

    /// The nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
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

    /// Whether the side to move (the defender, in check) is mated within
    /// `plies` plies: at once when it has no legal move, otherwise by the
    /// attacker's checks after each of its replies.
    pub fn defender_mated(&mut self, pos: &Position, plies: u32) -> Verdict {
        self.prove(pos, plies, false)
    }

    fn prove(&mut self, pos: &Position, plies: u32, or: bool) -> Verdict {
        let (pn, dn) = self.search(pos, plies, or, INF, INF);
        if pn == 0 {
            Verdict::Proven
        } else if dn == 0 {
            Verdict::Disproven
        } else {
            Verdict::Unknown
        }
    }

    /// Whether a disproof of the attacker (to move) within `plies` holds
    /// at any depth: every line of it ends with the attacker out of checks.
    /// False when the node is not disproved (or not searched).
    pub fn no_mate_at_any_depth(&self, pos: &Position, plies: u32) -> bool {
        self.table
            .get(&node_key(pos, plies, true))
            .is_some_and(|e| e.dn == 0 && e.any_depth)
    }

    fn lookup(&self, key: NodeKey) -> (u32, u32) {
        self.table.get(&key).map_or((1, 1), |e| (e.pn, e.dn))
    }

    fn any_depth(&self, key: NodeKey) -> bool {
        self.table.get(&key).is_some_and(|e| e.any_depth)
    }

    fn store(&mut self, key: NodeKey, numbers: (u32, u32)) -> (u32, u32) {
        self.store_entry(key, numbers, false)
    }

    fn store_entry(&mut self, key: NodeKey, numbers: (u32, u32), any_depth: bool) -> (u32, u32) {
        let (pn, dn) = numbers;
        self.table.insert(key, Entry { pn, dn, any_depth });
        numbers
    }

    /// Expands a node until its proof number reaches `th_pn` or its
    /// disproof number `th_dn` (or the budget runs out); returns them.
    fn search(
        &mut self,
        pos: &Position,
        plies: u32,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32) {
        let key = node_key(pos, plies, or);
        let known = self.lookup(key);
        if known.0 == 0 || known.1 == 0 {
            return known;
        }
        if self.exhausted() {
            return known;
        }
        self.nodes += 1;
        const PROVEN: (u32, u32) = (0, INF);
        const DISPROVEN: (u32, u32) = (INF, 0);
        let moves: Vec<Move> = if or {
            if plies == 0 {
                return self.store(key, DISPROVEN);
            }
            if mate_in_one(pos).is_some() {
                return self.store(key, PROVEN);
            }
            if plies < 3 {
                return self.store(key, DISPROVEN);
            }
            check_moves(pos)
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return self.store(key, PROVEN);
            }
            if plies < 2 {
                return self.store(key, DISPROVEN);
            }
            moves
        };
        if moves.is_empty() {
            // The attacker has no check: no mate at any depth. (A defender
            // with no move was mated above.)
            return self.store_entry(key, DISPROVEN, true);
        }
        let children: Vec<(Position, NodeKey)> = moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let child_key = node_key(&child, plies - 1, !or);
                (child, child_key)
            })
            .collect();
        loop {
            // The numbers of this node from its children's: at an OR node
            // the attacker needs one child proved (pn is the smallest) and
            // all disproved (dn the sum); at an AND node the other way round.
            let mut best = 0;
            let mut first = INF; // the best child's deciding number
            let mut second = INF;
            let mut sum = 0u32;
            let mut other_of_best = 0;
            for (i, (_, child_key)) in children.iter().enumerate() {
                let (cpn, cdn) = self.lookup(*child_key);
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
                let settled =
                    |(_, k): &(Position, NodeKey)| self.lookup(*k).1 == 0 && self.any_depth(*k);
                let any_depth = if or {
                    children.iter().all(settled)
                } else {
                    children.iter().any(settled)
                };
                return self.store_entry(key, (pn, dn), any_depth);
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || self.exhausted() {
                return self.store(key, (pn, dn));
            }
            // The child's thresholds: it stays the most proving (or
            // disproving) child while below the runner-up plus one, and the
            // sum stays below this node's threshold.
            let (child_th_pn, child_th_dn) = if or {
                (
                    th_pn.min(second.saturating_add(1)),
                    th_dn.saturating_sub(dn - other_of_best).max(1),
                )
            } else {
                (
                    th_pn.saturating_sub(pn - other_of_best).max(1),
                    th_dn.min(second.saturating_add(1)),
                )
            };
            let (child, _) = &children[best];
            let child = child.clone();
            self.search(&child, plies - 1, !or, child_th_pn, child_th_dn);
        }
    }
}
