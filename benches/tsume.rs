//! Mate solver benchmarks: the mate-in-one fast path, and whole solves of
//! composed problems (3, 7 and 11 plies), beside generating the legal
//! moves of the same positions (the baseline, measured in the same run).
//!
//! `cargo bench --bench tsume`.

use divan::{black_box, Bencher};
use kifconv::position::KingRule;
use kifconv::tsume::{self, Limits, Outcome};
use kifconv::{Position, Setup};

fn main() {
    divan::main();
}

fn problem(sfen: &str) -> Position {
    Position::from_setup(Setup::from_sfen(sfen).unwrap(), KingRule::MayBeMissing).unwrap()
}

/// fixtures/tsume/sound-mate1.kifu: 頭金.
const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
/// A middle game without a mate in one (every check tried).
const MIDDLE: &str = "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62";
/// fixtures/tsume/sound-mate3.kifu.
const MATE3: &str = "6p1k/7P1/8s/7sB/9/9/9/9/9 b BRr4g2s4n4l16p 1";
/// fixtures/tsume/sound-mate7.kifu.
const MATE7: &str = "1s7/k8/2R6/g8/9/3+R5/9/9/9 b PS2b3g2s4n4l17p 1";
/// fixtures/kif/skc-everyday-problem.kifu (a mate in 11).
const MATE11: &str = "6l2/6nk1/6R2/5Lppp/9/9/9/9/9 b 2BNr4g4s2n2l15p 1";

#[divan::bench(args = [MATE1, MIDDLE])]
fn legal_moves_baseline(bencher: Bencher, sfen: &str) {
    let pos = problem(sfen);
    bencher.bench(|| black_box(&pos).legal_moves());
}

#[divan::bench(args = [MATE1, MIDDLE])]
fn mate_in_one(bencher: Bencher, sfen: &str) {
    let pos = problem(sfen);
    bencher.bench(|| tsume::mate_in_one(black_box(&pos)));
}

#[divan::bench(args = [MATE3, MATE7, MATE11], sample_count = 20)]
fn solve(bencher: Bencher, sfen: &str) {
    let pos = problem(sfen);
    bencher.bench(|| {
        let outcome = tsume::solve(black_box(&pos), Limits::default());
        assert!(matches!(outcome, Outcome::Mate(_)));
    });
}
