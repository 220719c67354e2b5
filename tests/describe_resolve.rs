//! Every legal move, written the way a careful KI2 writer would (only the
//! markers the JSA rules require), resolves back to itself.

use kifconv::resolve::spec::{Destination, DropMark, MoveSpec};
use kifconv::{KingRule, Move, Position, Setup};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Walks random games from `start`, checking every legal move of every
/// position; returns how many moves were checked.
fn check_random_games(start: &str, moves_wanted: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    while checked < moves_wanted {
        let setup = Setup::from_sfen(start).unwrap();
        let mut pos = Position::from_setup(setup, KingRule::BothRequired).unwrap();
        let mut previous = None;
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let spec = MoveSpec::from_move(&pos, mv, previous);
                assert_eq!(
                    spec.to_move(&pos, previous),
                    Ok(mv),
                    "{mv} in {} written as {spec:?}",
                    pos.sfen()
                );
                // Without 同 the move resolves just the same.
                if spec.to == Destination::Same {
                    let mut plain = spec;
                    plain.to = Destination::Square(mv.to());
                    assert_eq!(plain.to_move(&pos, None), Ok(mv));
                }
                // A redundant 打 on a drop is accepted.
                if mv.is_drop() && spec.drop == DropMark::Unmarked {
                    let mut marked = spec;
                    marked.drop = DropMark::Drop;
                    assert_eq!(marked.to_move(&pos, previous), Ok(mv));
                }
                checked += 1;
            }
            let mv: Move = moves[rng.below(moves.len())];
            previous = Some(mv.to());
            pos.play_unchecked(mv);
        }
    }
    checked
}

#[test]
fn every_legal_move_survives_describe_then_resolve() {
    let mut total = check_random_games(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        60_000,
        11,
    );
    // Crowded boards of golds, silvers and promoted pieces, where relative
    // markers are needed most.
    total += check_random_games(
        "4k4/9/1G1G1G1G1/9/2S1S1S1S/9/9/+P+P+P+P1+p+p+p+p/4K4 b RB2N2L4Prb2n2l4p 1",
        30_000,
        12,
    );
    total += check_random_games(
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        20_000,
        13,
    );
    eprintln!("checked {total} moves");
    assert!(total >= 100_000, "{total}");
}

/// Every legal move of random positions, written in Western notation (the
/// minimal form) and read back by the Western reader, is the same move.
#[test]
fn every_legal_move_survives_western_write_then_read() {
    use kifconv::format::western::write::move_text;
    use kifconv::read::{read_text, Format};
    let mut rng = Rng(21);
    let mut checked = 0;
    let starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/1G1G1G1G1/9/2S1S1S1S/9/9/+P+P+P+P1+p+p+p+p/4K4 b RB2N2L4Prb2n2l4p 1",
    ];
    while checked < 100_000 {
        let start = starts[rng.below(starts.len())];
        let mut pos =
            Position::from_setup(Setup::from_sfen(start).unwrap(), KingRule::BothRequired).unwrap();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let sfen = pos.sfen();
            for &mv in &moves {
                let text = format!("[SFEN \"{sfen}\"]\n{}\n", move_text(&pos, mv));
                let records = read_text(&text, Format::Western)
                    .unwrap_or_else(|e| panic!("{mv}: {}\n{text}", e.render("western")));
                assert_eq!(records[0].tree.mainline_moves().next(), Some(mv), "{text}");
                checked += 1;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}
