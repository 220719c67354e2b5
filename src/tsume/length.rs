//! A problem's length as composers count it: futile interpositions (無駄合)
//! do not lengthen a mate.
//!
//! A drop between a sliding checker and the king is futile when the
//! attacker takes the dropped piece and the position after the capture,
//! with the piece handed back to the defender, is still mated: the piece
//! did nothing but change hands. Such a reply counts as the position after
//! the capture, without its two plies; a position whose only replies are
//! futile interpositions is mated already (a rook dropped from afar on a
//! king with nowhere to go is a mate in one).
//!
//! Only drops are judged futile: a board piece moved in between (移動合)
//! always counts. The attacker's moves considered at each node are those
//! that mate within the plies the rules allow there, so the count is exact
//! among the rules' mates of the bound given.

use super::checks::check_moves;
use super::dfpn::{Prover, Verdict};
use super::solver::{attacker_length, is_interposition, OutOfNodes};
use crate::position::KingRule;
use crate::{Move, Position};
use std::collections::HashMap;

/// A main line and the plies (from 0) of its futile interpositions.
pub(crate) type Line = (Vec<Move>, Vec<usize>);

/// The analysis of one problem: the prover and what it has counted.
pub(crate) struct Counter<'a> {
    prover: &'a mut Prover,
    memo: HashMap<(u64, u32, bool), Option<u32>>,
}

fn proved(verdict: Verdict) -> Result<bool, OutOfNodes> {
    match verdict {
        Verdict::Proven => Ok(true),
        Verdict::Disproven => Ok(false),
        Verdict::Unknown => Err(OutOfNodes),
    }
}

impl<'a> Counter<'a> {
    pub(crate) fn new(prover: &'a mut Prover) -> Counter<'a> {
        Counter {
            prover,
            memo: HashMap::new(),
        }
    }

    /// The counted length of the attacker's (to move) shortest mate within
    /// `bound` rules plies.
    pub(crate) fn attacker(
        &mut self,
        pos: &Position,
        bound: u32,
    ) -> Result<Option<u32>, OutOfNodes> {
        let memo_key = (pos.key(), bound, true);
        if let Some(&known) = self.memo.get(&memo_key) {
            return Ok(known);
        }
        let mut best: Option<u32> = None;
        if bound >= 1 && proved(self.prover.attacker_mates(pos, bound))? {
            for mv in check_moves(pos) {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                if let Some(n) = self.defender(&child, bound - 1)? {
                    best = Some(best.map_or(n + 1, |b| b.min(n + 1)));
                }
            }
        }
        self.memo.insert(memo_key, best);
        Ok(best)
    }

    /// The counted length the defender (to move, in check) survives within
    /// `bound` rules plies: 0 when mated now.
    pub(crate) fn defender(
        &mut self,
        pos: &Position,
        bound: u32,
    ) -> Result<Option<u32>, OutOfNodes> {
        let memo_key = (pos.key(), bound, false);
        if let Some(&known) = self.memo.get(&memo_key) {
            return Ok(known);
        }
        let value = self.defender_uncached(pos, bound)?;
        self.memo.insert(memo_key, value);
        Ok(value)
    }

    fn defender_uncached(&mut self, pos: &Position, bound: u32) -> Result<Option<u32>, OutOfNodes> {
        let replies = pos.legal_moves();
        if replies.is_empty() {
            return Ok(Some(0));
        }
        if bound < 2 || !proved(self.prover.defender_mated(pos, bound))? {
            return Ok(None);
        }
        let mut worst = 0;
        for reply in replies {
            let Some(value) = self.reply(pos, reply, bound)? else {
                return Ok(None);
            };
            worst = worst.max(value);
        }
        Ok(Some(worst))
    }

    /// The counted length after the defender's `reply`, the reply included
    /// (a futile interposition and its capture count nothing).
    pub(crate) fn reply(
        &mut self,
        pos: &Position,
        reply: Move,
        bound: u32,
    ) -> Result<Option<u32>, OutOfNodes> {
        let mut child = pos.clone();
        child.play_unchecked(reply);
        if let Some(value) = self.futile(pos, reply, &child, bound)? {
            return Ok(Some(value));
        }
        Ok(self.attacker(&child, bound - 1)?.map(|n| n + 1))
    }

    /// When `reply` is a futile interposition: the counted length after the
    /// attacker's best capture of the dropped piece.
    pub(crate) fn futile(
        &mut self,
        pos: &Position,
        reply: Move,
        child: &Position,
        bound: u32,
    ) -> Result<Option<u32>, OutOfNodes> {
        let Move::Drop { kind, to } = reply else {
            return Ok(None);
        };
        if bound < 2 || !is_interposition(pos, reply) {
            return Ok(None);
        }
        let mut best: Option<u32> = None;
        for capture in check_moves(child).into_iter().filter(|mv| mv.to() == to) {
            let mut taken = child.clone();
            taken.play_unchecked(capture);
            let Some(returned) = hand_back(&taken, kind) else {
                continue;
            };
            if self.defender(&returned, bound - 2)?.is_none() {
                continue;
            }
            if let Some(n) = self.defender(&taken, bound - 2)? {
                best = Some(best.map_or(n, |b| b.min(n)));
            }
        }
        Ok(best)
    }

    /// The counted main line of a mate from `pos` (attacker to move) within
    /// `bound` rules plies: the attacker's counted-shortest moves, the
    /// defender's counted-longest replies (a plain reply before a futile one
    /// of the same count). A futile interposition the line does play is
    /// followed by its capture; the plies (from 0) of those come second.
    pub(crate) fn main_line(
        &mut self,
        pos: &Position,
        bound: u32,
    ) -> Result<Option<Line>, OutOfNodes> {
        let Some(count) = self.attacker(pos, bound)? else {
            return Ok(None);
        };
        let mut line = Vec::new();
        let mut futile = Vec::new();
        self.attacker_line(pos, bound, count, &mut line, &mut futile)?;
        Ok(Some((line, futile)))
    }

    /// The counted main line from `pos` (the defender to move, in check)
    /// within `bound` rules plies: the defender's longest resistance, then
    /// as [`Counter::main_line`].
    pub(crate) fn defender_main_line(
        &mut self,
        pos: &Position,
        bound: u32,
    ) -> Result<Option<Line>, OutOfNodes> {
        if self.defender(pos, bound)?.is_none() {
            return Ok(None);
        }
        let mut line = Vec::new();
        let mut futile = Vec::new();
        self.defender_line(pos, bound, &mut line, &mut futile)?;
        Ok(Some((line, futile)))
    }

    fn attacker_line(
        &mut self,
        pos: &Position,
        rules_left: u32,
        count: u32,
        line: &mut Vec<Move>,
        futile: &mut Vec<usize>,
    ) -> Result<(), OutOfNodes> {
        for mv in check_moves(pos) {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if self.defender(&child, rules_left.saturating_sub(1))? == Some(count.saturating_sub(1))
            {
                line.push(mv);
                return self.defender_line(&child, rules_left.saturating_sub(1), line, futile);
            }
        }
        Err(OutOfNodes) // the counts disagree: never expected
    }

    fn defender_line(
        &mut self,
        pos: &Position,
        rules_left: u32,
        line: &mut Vec<Move>,
        futile: &mut Vec<usize>,
    ) -> Result<(), OutOfNodes> {
        // Longest count first; then a plain reply before a futile one; then
        // the fewest plies by the rules (the fewest futile drops later).
        let mut chosen: Option<((u32, bool, u32), Move, Position)> = None;
        for reply in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(reply);
            let (value, is_futile) = match self.futile(pos, reply, &child, rules_left)? {
                Some(v) => (v, true),
                None => match self.attacker(&child, rules_left.saturating_sub(1))? {
                    Some(n) => (n + 1, false),
                    None => return Err(OutOfNodes),
                },
            };
            let plies = if is_futile {
                u32::MAX
            } else {
                attacker_length(self.prover, &child, rules_left.saturating_sub(1))?
                    .unwrap_or(u32::MAX)
            };
            let rank = (value, !is_futile, u32::MAX - plies);
            if chosen.as_ref().is_none_or(|(best, ..)| rank > *best) {
                chosen = Some((rank, reply, child));
            }
        }
        let Some(((value, plain, _), reply, child)) = chosen else {
            return Ok(()); // mated
        };
        if plain {
            line.push(reply);
            return self.attacker_line(
                &child,
                rules_left.saturating_sub(1),
                value.saturating_sub(1),
                line,
                futile,
            );
        }
        futile.push(line.len());
        line.push(reply);
        for capture in check_moves(&child)
            .into_iter()
            .filter(|mv| mv.to() == reply.to())
        {
            let mut taken = child.clone();
            taken.play_unchecked(capture);
            if self.defender(&taken, rules_left.saturating_sub(2))? == Some(value) {
                line.push(capture);
                return self.defender_line(&taken, rules_left.saturating_sub(2), line, futile);
            }
        }
        Err(OutOfNodes)
    }
}

/// The position with one piece of `kind` moved from the attacker's hand
/// (the side not to move) to the defender's.
fn hand_back(pos: &Position, kind: crate::PieceKind) -> Option<Position> {
    let mut setup = pos.to_setup();
    let defender = pos.side_to_move();
    let attacker = !defender;
    if setup.hands[attacker.index()].count(kind) == 0 {
        return None;
    }
    setup.hands[attacker.index()].remove(kind);
    setup.hands[defender.index()].add(kind);
    Position::from_setup(setup, KingRule::MayBeMissing).ok()
}
