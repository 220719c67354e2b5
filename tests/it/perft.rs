//! Perft against counts from independent implementations
//! (tests/it/data/perft.txt). Depths up to a few million nodes run every time;
//! `cargo test --release -- --ignored` runs them all.

use kifconv::{KingRule, Position, Setup};

struct Case {
    description: String,
    sfen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut cases: Vec<Case> = Vec::new();
    let mut description = String::new();
    for line in text.lines() {
        if let Some(d) = line.strip_prefix("# ") {
            description = d.to_string();
        } else if let Some(sfen) = line.strip_prefix("sfen ") {
            cases.push(Case {
                description: description.clone(),
                sfen: sfen.to_string(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
            let case = cases.last_mut().expect("perft after sfen");
            case.counts
                .push((depth.parse().unwrap(), nodes.parse().unwrap()));
        }
    }
    cases
}

fn run(max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in cases() {
        let setup = Setup::from_sfen(&case.sfen).unwrap();
        let pos = Position::from_setup(setup, KingRule::BothRequired).unwrap();
        for &(depth, nodes) in case.counts.iter().filter(|(_, n)| *n <= max_nodes) {
            assert_eq!(
                pos.perft(depth),
                nodes,
                "depth {depth}: {}",
                case.description
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_positions_rich_in_drops_pins_and_promotions() {
    assert!(cases().len() >= 8);
    assert!(run(2_000_000) >= 30);
}

#[test]
#[ignore = "deep: a few seconds in release, slow in debug (cargo test --release -- --ignored)"]
fn perft_positions_all_depths() {
    run(u64::MAX);
}
