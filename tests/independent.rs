//! Our rules against an independent implementation (shogi_legality_lite,
//! a dev-dependency only): the legal moves of every position reached in
//! random games, and the position after each move, must agree exactly.

use kifconv::{KingRule, Move, Position, Setup};
use shogi_core::{PartialPosition, ToUsi};
use shogi_usi_parser::FromUsi;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

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

/// Compares the two at every position of random games from `start` until
/// `positions` positions have been seen; returns how many were compared.
fn compare_random_games(start: &str, positions: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
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
    compared
}

#[test]
fn random_games_from_the_start_agree() {
    let n = compare_random_games(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        12_000,
        0x5eed_0001,
    );
    assert_eq!(n, 12_000);
}

#[test]
fn random_games_with_full_hands_agree() {
    // Many pieces in hand from the first move: drops, 二歩 and 打ち歩詰め everywhere.
    let n = compare_random_games(
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        4_000,
        0x5eed_0002,
    );
    let m = compare_random_games(
        "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
        4_000,
        0x5eed_0003,
    );
    assert_eq!(n + m, 8_000);
}

#[test]
fn handicap_games_agree() {
    let n = compare_random_games(
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        1_000,
        0x5eed_0004,
    );
    assert_eq!(n, 1_000);
}
