//! The composition rules a problem's answer is judged by, beyond "it
//! mates": what else the attacker could play at each of its moves, and
//! what else the defender could play at each of its own.
//!
//! Lengths are counted as composers count them ([`super::length`]): a
//! futile interposition and its capture add nothing. "The answer's length
//! from ply p" is the counted length of the recorded moves from p on.
//!
//! At an attacker move (ply p), another checking move that mates:
//! - in fewer plies than the answer from p: 早詰 (unsound);
//! - in as many, at the answer's last move: 最終手余詰 (tolerated, a note),
//!   unless that is also its first (a mate in one has one answer);
//! - in as many, as the same move at another distance (a piece dropped or
//!   moved further along the same line) or with the other promotion
//!   choice, before the last move: 非限定 (a flaw);
//! - in as many, as a later attacker move of the answer played first, the
//!   answer's move p in its place, the moves between unchanged, every
//!   attacker move still a check, reaching the same position: 手順前後 (a
//!   flaw);
//! - in as many, otherwise: 余詰 (unsound).
//!
//! A move that mates only in more plies is none of these. When its line
//! (the attacker's shortest mate against the defender's longest
//! resistance) comes back to a position of the answer, it is 迂回, a
//! detour, reported as a note and never counted as 余詰.
//!
//! At a defender move (ply p), another legal reply that is not a futile
//! interposition and that lasts:
//! - longer than the answer from p (or escapes the bound): 変長 (unsound:
//!   the answer is not the main line);
//! - exactly as long, the solver's line after it ending with nothing in the
//!   attacker's hand: 変同 (a flaw: two lines are equally the answer). Not
//!   at the defender's last move, where every reply mated at once is as
//!   long as the answer's.

use super::checks::{check_moves, gives_check};
use super::length::Counter;
use super::solver::OutOfNodes;
use crate::format::japanese::write::marked_moves;
use crate::{Move, Position, Square};

/// A composition rule a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// Another attacker move mates as fast, before the last move.
    Yozume,
    /// Another attacker move mates faster than the answer.
    Hayazume,
    /// Another mate at the answer's last move.
    LastMoveYozume,
    /// The answer's move at another distance, or promotion optional.
    Higentei,
    /// A later attacker move of the answer played first, to the same
    /// position.
    TejunZengo,
    /// A defence that lasts longer than the answer's.
    Henchou,
    /// A defence that lasts as long, leaving nothing in hand.
    Hendou,
    /// A longer detour back to the answer's line.
    Ukai,
}

/// How much a finding weighs in the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The problem is unsound.
    Unsound,
    /// The problem is sound with a flaw composers name.
    Flaw,
    /// Reported, and accepted by composers.
    Note,
}

impl Rule {
    /// Its weight in the verdict.
    pub fn severity(self) -> Severity {
        match self {
            Rule::Yozume | Rule::Hayazume | Rule::Henchou => Severity::Unsound,
            Rule::Higentei | Rule::TejunZengo | Rule::Hendou => Severity::Flaw,
            Rule::LastMoveYozume | Rule::Ukai => Severity::Note,
        }
    }

    /// The composers' name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Yozume => "余詰",
            Rule::Hayazume => "早詰",
            Rule::LastMoveYozume => "最終手余詰",
            Rule::Higentei => "非限定",
            Rule::TejunZengo => "手順前後",
            Rule::Henchou => "変長",
            Rule::Hendou => "変同",
            Rule::Ukai => "迂回",
        }
    }
}

/// One rule found at one move of the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The 1-based ply of the answer's move the others stand beside.
    pub ply: usize,
    /// The rule.
    pub rule: Rule,
    /// The other moves at that ply.
    pub moves: Vec<Move>,
    /// Those moves in Japanese notation (`▲８三金打`), as the report
    /// writes them.
    pub japanese: Vec<String>,
    /// The counted length of the answer from that ply.
    pub answer_left: u32,
    /// The counted length after the other moves, from that ply (`None`
    /// for a defence that escapes the bound).
    pub other_left: Option<u32>,
    /// For 迂回: the 1-based ply of the answer's position it comes back to.
    /// For 手順前後: the 1-based ply of the answer's move played first.
    pub other_ply: Option<usize>,
}

impl Finding {
    /// The finding in one phrase, its ply first.
    pub fn text(&self) -> String {
        let (name, ply) = (self.rule.name(), self.ply);
        // Japanese, as the rest of the report, with USI beside it.
        let moves: Vec<String> = self
            .japanese
            .iter()
            .zip(&self.moves)
            .map(|(japanese, mv)| format!("{japanese} ({mv})"))
            .collect();
        let moves = moves.join(", ");
        let left = self.answer_left;
        let other = self
            .other_left
            .map_or("beyond the bound".into(), |n| n.to_string());
        let why = match self.rule {
            Rule::Yozume => format!("another move mates in {other}, as the answer does"),
            Rule::Hayazume => format!("another move mates in {other}, the answer in {left}"),
            Rule::LastMoveYozume => "other mates on the last move, tolerated".to_string(),
            Rule::Higentei => {
                "the same move at another distance or promotion mates as fast".to_string()
            }
            Rule::TejunZengo => format!(
                "the answer's move {} played first reaches the same position in as many",
                self.other_ply.unwrap_or(ply + 2)
            ),
            Rule::Henchou => {
                format!("another defence lasts {other}, the answer's {left}: not the main line")
            }
            Rule::Hendou => format!("another defence lasts {left} too, leaving nothing in hand"),
            Rule::Ukai => format!(
                "mates in {other} by a detour back to the answer's position after ply {}, not 余詰",
                self.other_ply.unwrap_or(0)
            ),
        };
        format!("ply {ply}: {name} ({why}): {moves}")
    }
}

/// The answer replayed: its moves, the positions before each (and the
/// last), which plies count, and the bound of rules plies it is judged in.
pub(crate) struct Line<'a> {
    pub answer: &'a [Move],
    pub positions: &'a [Position],
    pub counted: &'a [bool],
    pub bound: u32,
}

impl Line<'_> {
    /// The counted length of the answer from 0-based index `i` on.
    fn left(&self, i: usize) -> u32 {
        self.counted[i..].iter().filter(|&&c| c).count() as u32
    }

    /// The rules plies left before the move at index `i`.
    fn rules_left(&self, i: usize) -> u32 {
        self.bound.saturating_sub(i as u32)
    }
}

/// Findings at the attacker's moves: 早詰, 余詰, 最終手余詰, 非限定,
/// 手順前後 and 迂回, in ply order.
pub(crate) fn attacker_findings(
    counter: &mut Counter,
    line: &Line,
    detour: u32,
) -> Result<Vec<Finding>, OutOfNodes> {
    let mut out = Vec::new();
    let last = line.answer.len() - 1;
    for i in (0..line.answer.len()).step_by(2) {
        let pos = &line.positions[i];
        let mine = line.answer[i];
        let left = line.left(i);
        let rules_left = line.rules_left(i);
        let mut found: Vec<(Rule, Move, Option<u32>, Option<usize>)> = Vec::new();
        for mv in check_moves(pos).into_iter().filter(|&m| m != mine) {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let mates = if i == last || rules_left <= 1 {
                (!child.has_legal_move()).then_some(0)
            } else {
                counter.defender(&child, rules_left - 1)?
            };
            let Some(n) = mates.map(|n| n + 1).filter(|&n| n <= left) else {
                if i < last && detour > 0 {
                    // Longer: a detour when its line comes back. (A mate
                    // that needs more rules plies than the bound only for
                    // futile drops is not taken as a rival here.)
                    if let (Some(n), Some(j)) = longer(counter, line, i, &child, detour)? {
                        if n > left {
                            found.push((Rule::Ukai, mv, Some(n), Some(j)));
                        }
                    }
                }
                continue;
            };
            let mut other_ply = None;
            let rule = if n < left {
                Rule::Hayazume
            } else if i == last && i > 0 {
                Rule::LastMoveYozume
            } else if i < last && same_move_otherwise(pos, mine, mv) {
                Rule::Higentei
            } else if let Some(j) = swapped(line, i, mv) {
                other_ply = Some(j + 1);
                Rule::TejunZengo
            } else {
                Rule::Yozume
            };
            found.push((rule, mv, Some(n), other_ply));
        }
        group(&mut out, pos, i + 1, left, found);
    }
    Ok(out)
}

/// Findings at the defender's moves: 変長 and 変同, in ply order.
pub(crate) fn defender_findings(
    counter: &mut Counter,
    line: &Line,
) -> Result<Vec<Finding>, OutOfNodes> {
    let mut out = Vec::new();
    for i in (1..line.answer.len()).step_by(2) {
        let pos = &line.positions[i];
        let left = line.left(i);
        let rules_left = line.rules_left(i);
        let mut found = Vec::new();
        for reply in pos.legal_moves() {
            if reply == line.answer[i] {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(reply);
            if counter.futile(pos, reply, &child, rules_left)?.is_some() {
                continue;
            }
            let lasts = counter
                .attacker(&child, rules_left.saturating_sub(1))?
                .map(|n| n + 1);
            match lasts {
                Some(n) if n < left => {}
                // At the defender's last move every reply the answer's
                // last move or another mates at once is as long: no 変同.
                Some(n) if n == left && left <= 2 => {}
                Some(n) if n == left => {
                    if ends_empty_handed(counter, &child, rules_left.saturating_sub(1))? {
                        found.push((Rule::Hendou, reply, Some(n), None));
                    }
                }
                other => found.push((Rule::Henchou, reply, other, None)),
            }
        }
        group(&mut out, pos, i + 1, left, found);
    }
    Ok(out)
}

/// Adds one finding per rule found at a ply (in `pos`), its moves in the
/// order found.
fn group(
    out: &mut Vec<Finding>,
    pos: &Position,
    ply: usize,
    left: u32,
    found: Vec<(Rule, Move, Option<u32>, Option<usize>)>,
) {
    let mut rules: Vec<Rule> = found.iter().map(|f| f.0).collect();
    rules.sort();
    rules.dedup();
    for rule in rules {
        let these: Vec<_> = found.iter().filter(|f| f.0 == rule).collect();
        out.push(Finding {
            ply,
            rule,
            moves: these.iter().map(|f| f.1).collect(),
            japanese: these.iter().map(|f| marked_moves(pos, &[f.1])).collect(),
            answer_left: left,
            // The shortest of them (a defence: the longest).
            other_left: if rule == Rule::Henchou {
                these.iter().map(|f| f.2).max().flatten()
            } else {
                these.iter().filter_map(|f| f.2).min()
            },
            other_ply: these.iter().find_map(|f| f.3),
        });
    }
}

/// Whether `other` is the attacker's `mine` at another distance or with
/// the other promotion choice: the same piece from the same square to the
/// same square, promoting or not; the same piece from the same square
/// further or nearer along the same line; the same kind dropped further or
/// nearer along the same line from the defender's king.
fn same_move_otherwise(pos: &Position, mine: Move, other: Move) -> bool {
    match (mine, other) {
        (
            Move::Normal { from, to, promote },
            Move::Normal {
                from: f,
                to: t,
                promote: p,
            },
        ) => from == f && ((to == t && promote != p) || same_ray(from, to, t)),
        (Move::Drop { kind, to }, Move::Drop { kind: k, to: t }) => {
            let king = pos.king(!pos.side_to_move());
            kind == k && king.is_some_and(|king| same_ray(king, to, t))
        }
        _ => false,
    }
}

/// Whether `a` and `b` lie on one straight line out of `origin`, on the
/// same side of it (a rank, a file or a diagonal).
fn same_ray(origin: Square, a: Square, b: Square) -> bool {
    let step = |sq: Square| {
        let df = i32::from(sq.file()) - i32::from(origin.file());
        let dr = i32::from(sq.rank()) - i32::from(origin.rank());
        let straight = df == 0 || dr == 0 || df.abs() == dr.abs();
        (straight && (df, dr) != (0, 0)).then_some((df.signum(), dr.signum()))
    };
    a != b && step(a).is_some() && step(a) == step(b)
}

/// The index of the answer's later attacker move that `other`, played at
/// index `i`, is, when the two swap: `other` first, the answer's moves
/// between them as they are, the answer's move at `i` in its place, every
/// move legal and every attacker move a check, reaching the answer's
/// position after it. `None` when no later move swaps so.
fn swapped(line: &Line, i: usize, other: Move) -> Option<usize> {
    let swaps_with = |j: usize| {
        let mut pos = line.positions[i].clone();
        for k in i..=j {
            let mv = match k {
                _ if k == i => other,
                _ if k == j => line.answer[i],
                _ => line.answer[k],
            };
            let attacker = (k - i).is_multiple_of(2);
            if !pos.is_legal(mv) || (attacker && !gives_check(&pos, mv)) {
                return false;
            }
            pos.play_unchecked(mv);
        }
        pos.key() == line.positions[j + 1].key()
    };
    (i + 2..line.answer.len())
        .step_by(2)
        .find(|&j| line.answer[j] == other && swaps_with(j))
}

/// Whether the solver's line from `pos` (attacker to move) within `bound`
/// ends with nothing in the attacker's hand.
fn ends_empty_handed(
    counter: &mut Counter,
    pos: &Position,
    bound: u32,
) -> Result<bool, OutOfNodes> {
    let attacker = pos.side_to_move();
    let mut end = pos.clone();
    if let Some((moves, _)) = counter.main_line(pos, bound)? {
        for mv in moves {
            end.play_unchecked(mv);
        }
    }
    Ok(end.hand(attacker).is_empty())
}

/// The counted length of a mate from `child` (after another attacker
/// move at index `i`, that move included) within `detour` more rules plies
/// than the answer allows, and, when the solver's line from it comes back
/// to a position of the answer, the 1-based ply after which the answer
/// reaches that position.
fn longer(
    counter: &mut Counter,
    line: &Line,
    i: usize,
    child: &Position,
    detour: u32,
) -> Result<(Option<u32>, Option<usize>), OutOfNodes> {
    let bound = line.rules_left(i).saturating_sub(1) + detour;
    let Some(n) = counter.defender(child, bound)? else {
        return Ok((None, None));
    };
    let Some((moves, _)) = counter.defender_main_line(child, bound)? else {
        return Ok((Some(n + 1), None));
    };
    let mut pos = child.clone();
    for mv in moves {
        pos.play_unchecked(mv);
        let key = pos.key();
        if let Some(j) = (i + 1..line.positions.len()).find(|&j| line.positions[j].key() == key) {
            return Ok((Some(n + 1), Some(j)));
        }
    }
    Ok((Some(n + 1), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;

    fn mv(text: &str) -> Move {
        Move::from_usi(text).unwrap()
    }

    #[test]
    fn the_same_move_otherwise_is_a_distance_or_a_promotion() {
        let pos = problem("8k/9/9/9/9/9/9/9/R8 b L 1");
        // Lances dropped below the king, nearer and further: one ray.
        assert!(same_move_otherwise(&pos, mv("L*1c"), mv("L*1e")));
        // Beside the king, or a rook instead: not the same move.
        assert!(!same_move_otherwise(&pos, mv("L*1c"), mv("L*2c")));
        assert!(!same_move_otherwise(&pos, mv("L*1c"), mv("R*1e")));
        // The rook moved one or three squares along the rank; or up.
        assert!(same_move_otherwise(&pos, mv("9i8i"), mv("9i6i")));
        assert!(!same_move_otherwise(&pos, mv("9i8i"), mv("9i9h")));
        // Promoting or not, on the same square.
        assert!(same_move_otherwise(&pos, mv("9i9a+"), mv("9i9a")));
    }

    #[test]
    fn the_first_and_the_last_attacker_moves_swap() {
        // Golds on 2c and 3b can each go to 2b first, the silver takes
        // it, a lance checks from 1d and the gold on 1e takes it, and the
        // other gold takes the silver: either order reaches one position.
        // The lance drop cannot come first: 3c2b would leave the king in
        // check.
        let start = problem("8k/6G2/6sG1/9/8g/9/9/9/9 b L 1");
        let answer: Vec<Move> = ["2c2b", "3c2b", "L*1d", "1e1d", "3b2b"]
            .into_iter()
            .map(mv)
            .collect();
        let mut positions = vec![start.clone()];
        for &m in &answer {
            let mut next = positions.last().unwrap().clone();
            next.play(m).unwrap();
            positions.push(next);
        }
        let line = Line {
            answer: &answer,
            positions: &positions,
            counted: &[true; 5],
            bound: 5,
        };
        assert_eq!(swapped(&line, 0, mv("3b2b")), Some(4));
        assert_eq!(swapped(&line, 0, mv("L*1d")), None);
        // A move the answer does not play later swaps with nothing.
        assert_eq!(swapped(&line, 0, mv("3b3a")), None);
    }
}
