//! Rules-core benchmarks: perft (move generation and play) and `candidates`
//! (what the resolver asks once per KI2 move).
//!
//! `cargo bench --bench rules`. perft(5) reports its time per run; nodes per
//! second is 19,861,490 divided by that time.

use divan::{black_box, Bencher};
use kifconv::{PieceKind, Position, Square};

fn main() {
    divan::main();
}

/// perft(5) from the start: 19,861,490 leaf nodes.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn perft5_startpos(bencher: Bencher) {
    let start = Position::startpos();
    bencher
        .counter(divan::counter::ItemsCount::new(19_861_490u64))
        .bench(|| assert_eq!(black_box(&start).perft(5), 19_861_490));
}

/// perft(3) on a position with full hands (drops dominate).
#[divan::bench(sample_count = 10)]
fn perft3_drops(bencher: Bencher) {
    let pos = Position::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").unwrap();
    let nodes = pos.perft(3);
    bencher
        .counter(divan::counter::ItemsCount::new(nodes))
        .bench(|| black_box(&pos).perft(3));
}

const MIDDLE_GAME: &str =
    "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62";

/// One `candidates` call per iteration, cycling through kinds and squares
/// that a middle game asks about (some with several candidates, some none).
#[divan::bench]
fn candidates_middle_game(bencher: Bencher) {
    let pos = Position::from_sfen(MIDDLE_GAME).unwrap();
    let queries: Vec<(PieceKind, Square)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let kind = match mv {
                kifconv::Move::Normal { from, .. } => pos.piece_at(from).unwrap().kind,
                kifconv::Move::Drop { kind, .. } => kind,
            };
            (kind, mv.to())
        })
        .collect();
    let mut i = 0;
    bencher
        .counter(divan::counter::ItemsCount::new(1u32))
        .bench_local(|| {
            let (kind, to) = queries[i % queries.len()];
            i += 1;
            black_box(&pos)
                .candidates(black_box(kind), black_box(to))
                .len()
        });
}

/// The same queries, ignoring pins (what the KI2 writer asks).
#[divan::bench]
fn candidates_ignoring_pins(bencher: Bencher) {
    let pos = Position::from_sfen(MIDDLE_GAME).unwrap();
    let squares: Vec<Square> = Square::all().collect();
    let mut i = 0;
    bencher.bench_local(|| {
        let to = squares[i % 81];
        let kind = PieceKind::ALL[i % 14];
        i += 1;
        black_box(&pos).candidates_ignoring_pins(kind, to).len()
    });
}

/// The floor for perft: generating the start position's moves.
#[divan::bench]
fn legal_moves_startpos(bencher: Bencher) {
    let start = Position::startpos();
    let mut moves = Vec::with_capacity(600);
    bencher.bench_local(|| {
        moves.clear();
        black_box(&start).generate_legal(&mut moves);
        moves.len()
    });
}
