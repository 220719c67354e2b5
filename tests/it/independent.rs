//! Our rules against an independent implementation (shogi_legality_lite,
//! a dev-dependency only): the legal moves of every position reached in
//! random games, and the position after each move, must agree exactly.

use crate::util::rng::Rng;
use kifconv::{KingRule, Move, Position, Setup};
use shogi_core::{PartialPosition, ToUsi};
use shogi_usi_parser::FromUsi;

fn theirs(sfen: &str) -> PartialPosition {
    PartialPosition::from_usi(&format!("sfen {sfen}")).expect("the other crate reads our SFEN")
}

fn sorted_ours(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

fn sorted_theirs(pos: &PartialPosition) -> Vec<String> {
    let mut moves: Vec<String> = shogi_legality_lite::all_legal_moves_partial(pos)
        .iter()
        .map(|m| m.to_usi_owned())
        .collect();
    moves.sort();
    moves
}

/// `is_legal` agrees with `legal_moves` on every move of the side to
/// move's pieces to every square (promoting or not) and every drop.
fn check_single_move_legality(pos: &Position) {
    use kifconv::{PieceKind, Square};
    let legal: std::collections::HashSet<Move> = pos.legal_moves().into_iter().collect();
    let us = pos.side_to_move();
    for from in Square::all().filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.color == us)) {
        for to in Square::all() {
            for promote in [false, true] {
                let mv = Move::Normal { from, to, promote };
                assert_eq!(
                    pos.is_legal(mv),
                    legal.contains(&mv),
                    "{mv} in {}",
                    pos.sfen()
                );
            }
        }
    }
    for kind in PieceKind::HAND {
        for to in Square::all() {
            let mv = Move::Drop { kind, to };
            assert_eq!(
                pos.is_legal(mv),
                legal.contains(&mv),
                "{mv} in {}",
                pos.sfen()
            );
        }
    }
}

/// What the positions compared held: how many were in check, how many
/// had a legal drop or a legal promotion, how many had no legal move.
#[derive(Debug, Default)]
struct Seen {
    checks: usize,
    drops: usize,
    promotions: usize,
    no_move: usize,
}

impl Seen {
    /// Panics unless every count is at least `min`'s: the random games
    /// reached the positions the comparison is for.
    fn assert_at_least(&self, min: Seen) {
        assert!(
            self.checks >= min.checks
                && self.drops >= min.drops
                && self.promotions >= min.promotions
                && self.no_move >= min.no_move,
            "{self:?}, wanted at least {min:?}"
        );
    }
}

/// Compares the two at every position of random games from `start` until
/// `positions` positions have been seen; returns what those held.
fn compare_random_games(start: &str, positions: usize, seed: u64) -> Seen {
    let mut rng = Rng::new(seed);
    let mut seen = Seen::default();
    let mut compared = 0;
    while compared < positions {
        let mut ours =
            Position::from_setup(Setup::from_sfen(start).unwrap(), KingRule::BothRequired).unwrap();
        let mut other = theirs(start);
        for ply in 0..400 {
            let our_moves = sorted_ours(&ours);
            let their_moves = sorted_theirs(&other);
            assert_eq!(
                our_moves,
                their_moves,
                "legal moves differ after {ply} plies at {}",
                ours.sfen()
            );
            // Every listed move passes the single-move check, and flipping the
            // position flips its move list.
            let mut flipped: Vec<String> = ours
                .legal_moves()
                .iter()
                .map(|m| m.flip().to_string())
                .collect();
            flipped.sort();
            assert_eq!(
                flipped,
                sorted_ours(&ours.flip()),
                "flip at {}",
                ours.sfen()
            );
            // Every move that could be written, legal or not, gets the same
            // answer from the single-move check as from the generator.
            if compared % 8 == 0 {
                check_single_move_legality(&ours);
            }
            let legal = ours.legal_moves();
            seen.checks += ours.is_check() as usize;
            seen.drops += legal.iter().any(|m| m.is_drop()) as usize;
            seen.promotions += legal
                .iter()
                .any(|m| matches!(m, Move::Normal { promote: true, .. }))
                as usize;
            seen.no_move += legal.is_empty() as usize;
            compared += 1;
            if our_moves.is_empty() || compared >= positions {
                break;
            }
            let text = &our_moves[rng.below(our_moves.len())];
            let mv = Move::from_usi(text).unwrap();
            assert!(ours.is_legal(mv));
            ours.play(mv).unwrap();
            let their_move = shogi_legality_lite::all_legal_moves_partial(&other)
                .into_iter()
                .find(|m| &m.to_usi_owned() == text)
                .unwrap();
            other.make_move(their_move).unwrap();
            // Same board, hands and side to move after the move.
            let mut their_setup = Setup::from_sfen(&other.to_sfen_owned()).unwrap();
            their_setup.move_number = ours.move_number();
            assert_eq!(ours.to_setup(), their_setup, "after {text}");
            assert_eq!(ours.flip().flip(), ours);
        }
    }
    seen
}

#[test]
fn random_games_from_the_start_agree() {
    let seen = compare_random_games(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        12_000,
        0x5eed_0001,
    );
    seen.assert_at_least(Seen {
        checks: 100,
        drops: 1000,
        promotions: 1000,
        no_move: 1,
    });
}

#[test]
fn random_games_with_full_hands_agree() {
    // Many pieces in hand from the first move: drops, 二歩 and 打ち歩詰め everywhere.
    for (start, seed) in [
        (
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            0x5eed_0002,
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
            0x5eed_0003,
        ),
    ] {
        let seen = compare_random_games(start, 4_000, seed);
        seen.assert_at_least(Seen {
            checks: 30,
            drops: 500,
            promotions: 500,
            no_move: 1,
        });
    }
}

#[test]
fn handicap_games_agree() {
    let seen = compare_random_games(
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        1_000,
        0x5eed_0004,
    );
    seen.assert_at_least(Seen {
        checks: 10,
        drops: 100,
        promotions: 100,
        no_move: 0,
    });
}
