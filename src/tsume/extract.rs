//! Mate problems mined from played games.
//!
//! A game that ends in a mate or a resignation is looked at shortly before
//! its end: the last few positions where the winner is to move. Each is
//! made a problem as composers set one. The winner attacks and moves first;
//! the defender holds every piece not on the board or in the attacker's
//! hand; when White attacks the board is rotated, so Black always attacks.
//! Where the solver finds a forced mate there, the pieces the mate does not
//! need are removed one at a time: first the attacker's king, then the
//! board pieces farthest from the defender's king first, then the
//! attacker's hand. A board piece or a hand piece removed goes to the
//! defender's hand. A removal is kept when the shortest mate keeps its
//! length and the problem does not turn unsound. What
//! [`check`](super::check) finds sound at the end is a problem.

use super::check::check;
use super::checks::mate_in_one;
use super::dfpn::Prover;
use super::solver::{attacker_length, solve, Limits, Outcome};
use crate::position::KingRule;
use crate::record::{EndingKind, Record};
use crate::{Color, Hand, Move, PieceKind, Position, Setup, Square};

/// How games are mined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mining {
    /// How many of the last positions with the winner to move are tried
    /// in each game (1: only the position before the last move).
    pub last: usize,
    /// The longest mate looked for and the node budget, for each solve and
    /// each soundness check.
    pub limits: Limits,
}

impl Default for Mining {
    /// The last three positions of the winner, mates up to 9 plies,
    /// 200,000 nodes a search.
    fn default() -> Mining {
        Mining {
            last: 3,
            limits: Limits {
                depth: 9,
                nodes: 200_000,
            },
        }
    }
}

/// A problem mined from a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mined {
    /// The game's position it comes from: after this many mainline moves.
    pub ply: usize,
    /// Whether the board was rotated (White attacked in the game).
    pub rotated: bool,
    /// The problem, Black to move and attacking.
    pub start: Position,
    /// Its answer: the main line [`check`](super::check) plays.
    pub answer: Vec<Move>,
}

/// What mining one game found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Positions tried.
    pub positions: usize,
    /// Positions where the solver found a forced mate (before pieces were
    /// removed).
    pub mates: usize,
    /// Mates that gave no sound problem.
    pub unsound: usize,
    /// The sound problems, earliest position first.
    pub problems: Vec<Mined>,
}

/// Mines one game: nothing unless it ends in a mate or a resignation.
pub fn mine(record: &Record, mining: Mining) -> Found {
    let mut found = Found::default();
    let ended = record
        .tree
        .node(record.tree.mainline_end())
        .ending()
        .is_some_and(|e| matches!(e.kind, EndingKind::Checkmate | EndingKind::Resign));
    if !ended {
        return found;
    }
    let Some(positions) = mainline_positions(record) else {
        return found;
    };
    // The side to move at the end lost (it is mated, or it resigned): the
    // winner is to move one ply before, three plies before, and so on.
    let end = positions.len() - 1;
    let plies = (1..=mining.last)
        .map(|k| 2 * k - 1)
        .take_while(|&back| back <= end)
        .map(|back| end - back);
    let mut tried = Vec::new();
    for ply in plies {
        found.positions += 1;
        let Some((start, rotated)) = as_problem(&positions[ply]) else {
            continue;
        };
        let Outcome::Mate(_) = solve(&start, mining.limits) else {
            continue;
        };
        found.mates += 1;
        match reduce(start, mining.limits) {
            Some((start, answer)) => tried.push(Mined {
                ply,
                rotated,
                start,
                answer,
            }),
            None => found.unsound += 1,
        }
    }
    tried.reverse();
    found.problems = tried;
    found
}

/// The positions of a game's mainline, its start first; `None` when a
/// move is illegal.
fn mainline_positions(record: &Record) -> Option<Vec<Position>> {
    let mut positions = vec![record.start.clone()];
    for mv in record.tree.mainline_moves() {
        let mut next = positions.last().expect("the start is there").clone();
        next.play(mv).ok()?;
        positions.push(next);
    }
    Some(positions)
}

/// The mate a game ends in, as a mate in one: the position before the
/// mating move made a problem ([`as_problem`]), when a move still mates at
/// once there (the defender now holds every spare piece, so a drop may
/// block the game's mate). `None` when the game does not end with the side
/// to move checkmated.
pub fn final_mate(record: &Record) -> Option<Position> {
    let positions = mainline_positions(record)?;
    let [.., before, end] = positions.as_slice() else {
        return None;
    };
    if !end.is_checkmate() {
        return None;
    }
    let (start, _) = as_problem(before)?;
    mate_in_one(&start).is_some().then_some(start)
}

/// A game's position as a problem: the side to move attacks, the other
/// side's hand is every piece not on the board or in the attacker's hand,
/// the board rotated when White attacks (so Black does). Also says whether
/// it was rotated. `None` when the position has more of a kind than a set
/// holds, or the defender has no king.
pub fn as_problem(pos: &Position) -> Option<(Position, bool)> {
    let rotated = pos.side_to_move() == Color::White;
    let pos = if rotated { pos.flip() } else { pos.clone() };
    let mut setup = pos.to_setup();
    setup.move_number = 1;
    let mut rest = Hand::default();
    for (kind, _) in PieceKind::SET {
        rest.set(kind, setup.unplaced(kind, &[Color::Black])?);
    }
    setup.hands[Color::White.index()] = rest;
    let start = Position::from_setup(setup, KingRule::MayBeMissing).ok()?;
    start.king(Color::White)?;
    Some((start, rotated))
}

/// What [`check`] says of a problem without an answer: the shortest mate
/// as counted, whether it is sound, and the answer. `None` when there is
/// no mate or the budget ran out.
fn verdict(pos: &Position, limits: Limits) -> Option<(u32, bool, Vec<Move>)> {
    let report = check(pos, &[], limits);
    if report.unknown {
        return None;
    }
    let length = report.length?;
    Some((length, report.is_sound(), report.answer))
}

/// Removes the pieces the mate of `start` does not need (see the module's
/// documentation), then gives the problem and its answer when it is
/// sound. A first pass keeps every removal that leaves the shortest mate
/// as long; when that ends unsound, a second pass from `start` keeps a
/// removal only when the problem also stays as sound as it was.
pub fn reduce(start: Position, limits: Limits) -> Option<(Position, Vec<Move>)> {
    let (length, sound, answer) = verdict(&start, limits)?;
    let quick = removals(&start, |pos| {
        let mut prover = Prover::new(limits.nodes);
        matches!(attacker_length(&mut prover, pos, limits.depth), Ok(Some(n)) if n == length)
    });
    if let Ok(pos) = Position::from_setup(quick, KingRule::MayBeMissing) {
        if let Some((n, true, line)) = verdict(&pos, limits) {
            if n == length {
                return Some((pos, line));
            }
        }
    }
    let mut now = (sound, answer);
    let careful = removals(&start, |pos| match verdict(pos, limits) {
        Some((n, s, line)) if n == length && (s || !now.0) => {
            now = (s, line);
            true
        }
        _ => false,
    });
    let (sound, answer) = now;
    if !sound {
        return None;
    }
    let start = Position::from_setup(careful, KingRule::MayBeMissing).ok()?;
    Some((start, answer))
}

/// The setup left once every piece `keeps` lets go is removed, in the
/// module's order. `keeps` is asked of each legal trial position.
fn removals(start: &Position, mut keeps: impl FnMut(&Position) -> bool) -> Setup {
    let mut setup = start.to_setup();
    let mut try_it = |trial: Setup, setup: &mut Setup| {
        let Ok(pos) = Position::from_setup(trial.clone(), KingRule::MayBeMissing) else {
            return;
        };
        if !pos.is_check() && keeps(&pos) {
            *setup = trial;
        }
    };
    if let Some(king) = start.king(Color::Black) {
        let mut trial = setup.clone();
        trial.set_piece(king, None);
        try_it(trial, &mut setup);
    }
    let Some(target) = start.king(Color::White) else {
        return setup;
    };
    let distance = |sq: Square| {
        let files = sq.file().abs_diff(target.file());
        let ranks = sq.rank().abs_diff(target.rank());
        files.max(ranks)
    };
    let mut squares = setup.non_king_squares();
    // Farthest first; at equal distance, in square order.
    squares.sort_by_key(|&sq| std::cmp::Reverse(distance(sq)));
    for sq in squares {
        let piece = setup.piece_at(sq).expect("a piece was there");
        let mut trial = setup.clone();
        trial.set_piece(sq, None);
        trial.hands[Color::White.index()].add(piece.kind.unpromote());
        try_it(trial, &mut setup);
    }
    for kind in PieceKind::HAND.into_iter().rev() {
        for _ in 0..setup.hands[Color::Black.index()].count(kind) {
            let mut trial = setup.clone();
            trial.hands[Color::Black.index()].remove(kind);
            trial.hands[Color::White.index()].add(kind);
            try_it(trial, &mut setup);
        }
    }
    setup
}
