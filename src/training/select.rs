//! The games that go into training data, one after another in input
//! order: each record becomes a [`Game`], passes the [`Filter`] or is left
//! out, is checked for repeats ([`Seen`]) and cut at a mate score, and
//! every game and position left out is counted by the reason.

use super::filter::{Filter, Rejection};
use super::samples::Game;
use super::uniq::{Repeats, Seen};
use std::collections::BTreeMap;

/// How many games and positions went in and were left out, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games kept.
    pub games: usize,
    /// Positions kept.
    pub positions: usize,
    /// Positions kept without an evaluation (written as 0).
    pub missing_evals: usize,
    /// Games left out, and their positions, by the first filter they
    /// failed.
    pub removed: BTreeMap<Rejection, (usize, usize)>,
    /// Positions cut after a mate score (`--max-eval`).
    pub cut: usize,
    /// Positions left out as seen before (`--uniq=positions`).
    pub repeated_positions: usize,
}

/// Filters and repeat checks, with what they have counted so far.
#[derive(Debug)]
pub struct Selector {
    filter: Filter,
    seen: Option<Seen>,
    /// What has been counted so far.
    pub counts: Counts,
}

impl Selector {
    /// A selector with these filters; `repeats` (with `flip_fold` for
    /// positions) when repeats are to be left out.
    pub fn new(filter: Filter, repeats: Option<Repeats>, flip_fold: bool) -> Selector {
        Selector {
            filter,
            seen: repeats.map(|r| Seen::new(r, flip_fold)),
            counts: Counts::default(),
        }
    }

    /// `game` as it goes into training data, or `None` when it is left out
    /// (counted). Games must come in input order for repeats to be the
    /// later ones; [`Game::of`] makes them, on any thread.
    pub fn take(&mut self, mut game: Game) -> Option<Game> {
        let mut verdict = self.filter.admit(&game);
        if verdict.is_ok() && !self.seen.as_mut().is_none_or(|s| s.new_game(&game)) {
            verdict = Err(Rejection::Repeated);
        }
        if let Err(why) = verdict {
            let entry = self.counts.removed.entry(why).or_default();
            entry.0 += 1;
            entry.1 += game.samples.len();
            return None;
        }
        self.counts.cut += self.filter.cut(&mut game);
        if let Some(seen) = &mut self.seen {
            self.counts.repeated_positions += seen.drop_seen_positions(&mut game);
        }
        self.kept(1, game.samples.len(), game.missing);
        Some(game)
    }

    /// Whether every game goes in whole: no filter is on and repeats are
    /// kept. Games then need no [`Selector::take`], only counting
    /// ([`Selector::kept`]).
    pub fn keeps_all(&self) -> bool {
        self.filter.is_off() && self.seen.is_none()
    }

    /// Counts `games` kept with their `positions`, `missing` of them
    /// without an evaluation.
    pub fn kept(&mut self, games: usize, positions: usize, missing: usize) {
        self.counts.games += games;
        self.counts.positions += positions;
        self.counts.missing_evals += missing;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    #[test]
    fn counts_say_what_each_filter_removed() {
        let records = read_text(
            "PI\n+\n+7776FU\n'** 20\n-3334FU\n'** 100000\n+2726FU\n%TORYO\n\
             /\nPI\n+\n+7776FU\n-3334FU\n%SENNICHITE\n\
             /\nPI\n+\n+7776FU\n'** 20\n-3334FU\n'** 100000\n+2726FU\n%TORYO\n\
             /\nPI\n+\n+2726FU\n%TORYO\n",
            Format::Csa,
        )
        .unwrap();
        assert_eq!(records.len(), 4);
        let filter = Filter {
            results: Some(vec!["toryo".into()]),
            min_moves: Some(2),
            max_eval: Some(100000),
            ..Filter::default()
        };
        let mut selector = Selector::new(filter, Some(Repeats::Games), false);
        let kept: Vec<usize> = records
            .iter()
            .filter_map(|r| selector.take(Game::of(r).unwrap()).map(|g| g.samples.len()))
            .collect();
        assert_eq!(kept, [2]);
        let c = &selector.counts;
        assert_eq!((c.games, c.positions, c.cut, c.missing_evals), (1, 2, 1, 0));
        assert_eq!(c.removed[&Rejection::Result], (1, 2));
        assert_eq!(c.removed[&Rejection::Repeated], (1, 3));
        assert_eq!(c.removed[&Rejection::Moves], (1, 1));
    }
}
