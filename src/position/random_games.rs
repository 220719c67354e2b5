//! Test support: random games from every start position of the perft
//! data, for the tests that hold a fast path to the general one on every
//! position those games reach.

use super::Position;
use crate::Square;

/// Plays `games` random games of at most `plies` moves from each start of
/// the perft data (`tests/it/data/perft.txt`), drawing each move from a
/// reproducible stream of numbers seeded by `seed`. Before each move,
/// `visit` is given the position, the destination of the move before it
/// (what 同 names), and the stream, for the test to draw its own choices.
pub(crate) fn each_position(
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Position, Option<Square>, &mut dyn FnMut() -> usize),
) {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let data = include_str!("../../tests/it/data/perft.txt");
    for sfen in data.lines().filter_map(|line| line.strip_prefix("sfen ")) {
        let start = Position::from_sfen(sfen).expect("the perft data's positions are valid");
        for _ in 0..games {
            let mut pos = start.clone();
            let mut previous = None;
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                visit(&pos, previous, &mut next);
                let mv = legal[next() % legal.len()];
                previous = Some(mv.to());
                pos.play_unchecked(mv);
            }
        }
    }
}
