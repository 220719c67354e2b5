//! Repeats left out of training data and books: a game that repeats a game
//! kept before, start and moves (dlshogi's `--uniq`, which compares moves
//! only, since its games all start from the even position), or a position
//! and move pair seen before; with flip folding, a position and move count
//! as seen when their 180° rotation (colours, hands and side to move
//! swapped) was.
//!
//! "Before" is the input order: the caller hands games over in that order,
//! so what is kept never depends on how many threads read them.

use super::move16::{self, Layout};
use super::packed::{Dialect, Packer};
use super::samples::Game;
use crate::{Move, Position};
use std::collections::{HashMap, HashSet};

/// What counts as a repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeats {
    /// A game whose start (board, hands, side to move) and mainline are
    /// those of one kept before.
    Games,
    /// A position and the move played from it, seen before in a kept
    /// game.
    Positions,
}

/// The games and positions kept so far.
#[derive(Debug)]
pub struct Seen {
    repeats: Repeats,
    flip_fold: bool,
    games: SeenGames,
    positions: HashSet<[u8; 34]>,
}

/// Whole games kept so far, as `--uniq` compares them: the start (board,
/// hands and side to move; not the move number) and every mainline move.
/// Each start is held once, however many games share it.
#[derive(Debug, Default)]
pub struct SeenGames {
    starts: HashMap<String, u32>,
    games: HashSet<(u32, Vec<Move>)>,
}

impl SeenGames {
    /// Whether the game from `start` playing `moves` is new (and now seen).
    pub fn insert(&mut self, start: &Position, moves: Vec<Move>) -> bool {
        let key = start.sfen_key();
        let next = self.starts.len() as u32;
        let id = *self.starts.entry(key).or_insert(next);
        self.games.insert((id, moves))
    }
}

impl Seen {
    /// Nothing seen yet; `flip_fold` counts a rotated position as the same
    /// (for [`Repeats::Positions`]).
    pub fn new(repeats: Repeats, flip_fold: bool) -> Seen {
        Seen {
            repeats,
            flip_fold,
            games: SeenGames::default(),
            positions: HashSet::new(),
        }
    }

    /// For [`Repeats::Games`]: whether `game` is new (and now seen). Always
    /// true for [`Repeats::Positions`].
    pub fn new_game(&mut self, game: &Game) -> bool {
        match self.repeats {
            Repeats::Games => self
                .games
                .insert(game.start(), game.samples.iter().map(|s| s.mv).collect()),
            Repeats::Positions => true,
        }
    }

    /// For [`Repeats::Positions`]: drops the samples of `game` already seen
    /// (and marks the rest seen); says how many it dropped. Does nothing
    /// for [`Repeats::Games`].
    pub fn drop_seen_positions(&mut self, game: &mut Game) -> usize {
        if self.repeats != Repeats::Positions {
            return 0;
        }
        let before = game.samples.len();
        let flip_fold = self.flip_fold;
        let positions = &mut self.positions;
        // One packer for the game's positions and one for their
        // rotations: each codes again only the files a move changed.
        let mut packers = [Packer::new(Dialect::Hcp), Packer::new(Dialect::Hcp)];
        let mut kept = Vec::with_capacity(before);
        let replayed = game.replay(|sample, pos| {
            let k = key(pos, sample.mv, flip_fold, &mut packers);
            kept.push(k.is_none_or(|k| positions.insert(k)));
            Ok::<(), std::convert::Infallible>(())
        });
        let Ok(()) = replayed;
        let mut kept = kept.into_iter();
        game.samples.retain(|_| kept.next().unwrap_or(true));
        game.missing = game.samples.iter().filter(|s| s.eval.is_none()).count();
        before - game.samples.len()
    }
}

/// A position and the move played from it, packed (HCP and move16); with
/// `flip_fold`, the smaller of that and its rotation's. `None` for a
/// position that has no packed form: it is never counted as a repeat.
fn key(pos: &Position, mv: Move, flip_fold: bool, packers: &mut [Packer; 2]) -> Option<[u8; 34]> {
    let [own, rotated] = packers;
    let one = |packer: &mut Packer, position: &Position, mv: Move| -> Option<[u8; 34]> {
        let mut k = [0u8; 34];
        k[..32].copy_from_slice(&packer.pack(position).ok()?);
        k[32..].copy_from_slice(&move16::encode(mv, Layout::Apery).to_le_bytes());
        Some(k)
    };
    let k = one(own, pos, mv)?;
    if !flip_fold {
        return Some(k);
    }
    let flipped = one(rotated, &pos.flip(), mv.flip())?;
    Some(k.min(flipped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    use crate::training::csa_game as game;

    #[test]
    fn a_repeated_game_is_seen_once() {
        let mut seen = Seen::new(Repeats::Games, false);
        let a = game("PI\n+\n+7776FU\n-3334FU\n%TORYO\n");
        let b = game("PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n");
        assert!(seen.new_game(&a));
        assert!(seen.new_game(&b));
        assert!(!seen.new_game(&a.clone()));
    }

    /// The same moves from another start are another game: two handicaps
    /// whose games open alike, or the even start with the other side to
    /// move. The move number alone does not make a game new.
    #[test]
    fn a_game_from_another_start_is_another_game() {
        let mut seen = Seen::new(Repeats::Games, false);
        let even = game("PI\n+\n+7776FU\n-3334FU\n%TORYO\n");
        let lance = game("PI11KY\n-\n-3334FU\n+7776FU\n%TORYO\n");
        let right_lance = game("PI91KY\n-\n-3334FU\n+7776FU\n%TORYO\n");
        let white_first = game("PI\n-\n-3334FU\n+7776FU\n%TORYO\n");
        assert!(seen.new_game(&even));
        assert!(seen.new_game(&lance));
        assert!(seen.new_game(&right_lance));
        assert!(seen.new_game(&white_first));
        assert!(!seen.new_game(&right_lance));
        let usi = |line: &str| Game::of(&read_text(line, Format::Usi).unwrap()[0]).unwrap();
        let later = usi("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 31 moves 7g7f 3c3d");
        assert!(!seen.new_game(&later));
    }

    #[test]
    fn positions_seen_are_dropped_and_rotations_with_flip_fold() {
        // The second game is the first rotated: the start with white to
        // move, 3c3d, is the start with black to move, 7g7f, turned round,
        // and so is the position after it.
        let first = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n";
        let rotated = "PI\n-\n-3334FU\n+7776FU\n%TORYO\n";
        for (flip_fold, dropped) in [(false, 0), (true, 2)] {
            let mut seen = Seen::new(Repeats::Positions, flip_fold);
            let mut a = game(first);
            assert_eq!(seen.drop_seen_positions(&mut a), 0);
            let mut again = game(first);
            assert_eq!(seen.drop_seen_positions(&mut again), 2);
            assert!(again.samples.is_empty());
            let mut b = game(rotated);
            assert_eq!(
                seen.drop_seen_positions(&mut b),
                dropped,
                "flip_fold {flip_fold}"
            );
        }
    }
}
