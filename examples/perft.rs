//! `cargo run --release --example perft -- [DEPTH] [SFEN]`: perft with timing.
use kifconv::{KingRule, Position, Setup};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let sfen: Vec<String> = args.collect();
    let pos = if sfen.is_empty() {
        Position::startpos()
    } else {
        let setup = Setup::from_sfen(&sfen.join(" ")).expect("valid SFEN");
        Position::from_setup(setup, KingRule::MayBeMissing).expect("legal position")
    };
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = pos.perft(d);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft {d} {nodes} ({:.2} Mnps, {secs:.3}s)",
            nodes as f64 / secs / 1e6
        );
    }
}
