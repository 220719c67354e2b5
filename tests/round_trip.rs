//! Round trips: read(write(record)) keeps everything the target format can
//! hold, for every writer, over every fixture and corpus file and over
//! thousands of random games with variations, comments and times.

use kifconv::emit::{csa, japanese, ki2, kif, usi, western};
use kifconv::read::{read_text, Format};
use kifconv::record::{MoveTree, NodeId, Record};
use kifconv::{KingRule, Move, Position, Setup};
use std::fmt::Write as _;
use std::path::Path;

/// What a format can hold, written out so that two records compare by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Usi,
    Kif,
    Ki2,
    Csa,
    Western,
}

fn write(record: &Record, target: Target) -> String {
    match target {
        Target::Usi => usi::position_line(record),
        Target::Kif => kif::write(record, "UTF-8"),
        Target::Ki2 => ki2::write(record),
        Target::Csa => csa::write(record, csa::Version::V3_0),
        Target::Western => western::write(record),
    }
}

fn format_of(target: Target) -> Format {
    match target {
        Target::Usi => Format::Usi,
        Target::Kif => Format::Kif,
        Target::Ki2 => Format::Ki2,
        Target::Csa => Format::Csa,
        Target::Western => Format::Western,
    }
}

/// The start without its move number (only USI and SFEN keep that).
fn start(setup: &Setup) -> String {
    let sfen = setup.sfen();
    sfen.rsplit_once(' ')
        .map(|(s, _)| s.to_string())
        .unwrap_or(sfen)
}

fn canonical(record: &Record, target: Target) -> String {
    let mut out = String::new();
    let tree = &record.tree;
    writeln!(out, "start {}", start(&record.start)).unwrap();
    let with_tree = matches!(target, Target::Kif | Target::Ki2);
    let nodes: Vec<NodeId> = if with_tree {
        dfs(tree)
    } else {
        std::iter::once(NodeId::ROOT)
            .chain(tree.mainline())
            .collect()
    };
    for id in nodes {
        let node = tree.node(id);
        write!(
            out,
            "{} {}",
            node.ply,
            node.mv.map_or("-".into(), |m| m.to_string())
        )
        .unwrap();
        if let Some(parent) = node.parent {
            write!(
                out,
                " after {}",
                tree.node(parent)
                    .mv
                    .map_or("-".into(), |m: Move| m.to_string())
            )
            .unwrap();
        }
        if target == Target::Csa && id == NodeId::ROOT {
            // CSA keeps the headers it has no key for as the first comments.
            let mut comments = csa::header_comments(record);
            if comments.iter().zip(&node.comments).all(|(a, b)| a == b)
                && node.comments.len() >= comments.len()
            {
                comments.clear();
            }
            comments.extend(node.comments.iter().cloned());
            write!(out, " comments {comments:?}").unwrap();
        } else if target != Target::Usi {
            write!(out, " comments {:?}", node.comments).unwrap();
        }
        if target == Target::Kif {
            write!(out, " bookmarks {:?}", node.bookmarks).unwrap();
        }
        match (target, node.time) {
            (Target::Kif, Some(t)) => write!(
                out,
                " time {}/{:?}",
                t.spent_ms / 1000,
                t.total_ms.map(|t| t / 1000)
            )
            .unwrap(),
            (Target::Csa, Some(t)) => write!(out, " time {}", t.spent_ms).unwrap(),
            _ => {}
        }
        let last_of_line = tree.children(id).next().is_none();
        if let (Some(ending), true) = (&node.ending, last_of_line) {
            match target {
                Target::Kif | Target::Ki2 => {
                    let to_move = if node.ply % 2 == 0 {
                        record.start.side_to_move
                    } else {
                        !record.start.side_to_move
                    };
                    let word = japanese::ending_word(ending, to_move);
                    write!(out, " end {word} {:?}", ending.winner).unwrap()
                }
                Target::Csa => {
                    // What the `%` word says, as the player to move there sees it.
                    let to_move = if node.ply % 2 == 0 {
                        record.start.side_to_move
                    } else {
                        !record.start.side_to_move
                    };
                    let word = csa::special(ending.kind, ending.winner, to_move);
                    let said = kifconv::resolve::game::ending_for_word(word, to_move);
                    write!(out, " end {word} {:?}", said.1).unwrap()
                }
                _ => {}
            }
            if let Some(foul) = &ending.foul {
                if matches!(target, Target::Kif | Target::Csa) {
                    write!(out, " foul {} {:?}", foul.by, foul.mv).unwrap();
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Every node, depth first: each line, then the variations of its moves.
fn dfs(tree: &MoveTree) -> Vec<NodeId> {
    let mut out = Vec::with_capacity(tree.len());
    let mut stack = vec![NodeId::ROOT];
    while let Some(id) = stack.pop() {
        out.push(id);
        let children: Vec<NodeId> = tree.children(id).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

fn round_trip(record: &Record, target: Target, name: &str) {
    let text = write(record, target);
    let back = read_text(&text, format_of(target)).unwrap_or_else(|e| {
        panic!(
            "{name} as {target:?} does not read back: {}\n{text}",
            e.render(name)
        )
    });
    assert_eq!(back.len(), 1, "{name} as {target:?}");
    let (a, b) = (canonical(record, target), canonical(&back[0], target));
    if a != b {
        let diff: Vec<String> = a
            .lines()
            .zip(b.lines())
            .filter(|(x, y)| x != y)
            .take(3)
            .map(|(x, y)| format!("  wrote {x}\n  read  {y}"))
            .collect();
        panic!(
            "{name} as {target:?} does not round-trip:\n{}\n{text}",
            diff.join("\n")
        );
    }
}

const TARGETS: [Target; 5] = [
    Target::Usi,
    Target::Kif,
    Target::Ki2,
    Target::Csa,
    Target::Western,
];

fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bad") {
                files_under(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

fn check_files(paths: &[std::path::PathBuf]) -> usize {
    let mut records = 0;
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        let Ok(read) = kifconv::read::read_bytes(&bytes, path, None, Default::default()) else {
            continue;
        };
        for record in &read.records {
            for target in TARGETS {
                round_trip(record, target, &path.display().to_string());
            }
            records += 1;
        }
    }
    records
}

#[test]
fn every_fixture_round_trips_through_every_writer() {
    let mut paths = Vec::new();
    files_under(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut paths,
    );
    paths.retain(|p| !p.extension().is_some_and(|e| e == "md"));
    assert!(check_files(&paths) >= 60);
}

#[test]
fn every_corpus_file_round_trips_through_every_writer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.exists() {
        eprintln!("note: ../shared/corpus not found; skipped");
        return;
    }
    let mut paths = Vec::new();
    files_under(&dir, &mut paths);
    paths.retain(|p| {
        p.extension().is_some_and(|e| {
            ["kif", "kifu", "ki2", "ki2u", "csa", "usi", "sfen"].contains(&e.to_str().unwrap_or(""))
        })
    });
    assert!(check_files(&paths) >= 250);
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

const STARTS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
];

/// A random game: a random start, random legal moves, some variations,
/// comments and times.
fn random_game(rng: &mut Rng) -> Record {
    let setup = Setup::from_sfen(STARTS[rng.below(STARTS.len())]).unwrap();
    let start = Position::from_setup(setup.clone(), KingRule::BothRequired).unwrap();
    let mut record = Record::new(setup);
    record.handicap = kifconv::Handicap::detect(&record.start);
    let mut tree = MoveTree::new();
    // The mainline, then a few branches off random nodes.
    let lines = 1 + rng.below(3);
    for line in 0..lines {
        let (mut node, mut pos) = if line == 0 {
            (NodeId::ROOT, start.clone())
        } else {
            let ids: Vec<NodeId> = std::iter::once(NodeId::ROOT).chain(tree.ids()).collect();
            let at = ids[rng.below(ids.len())];
            let mut pos = start.clone();
            let mut path = Vec::new();
            let mut cur = at;
            while let Some(mv) = tree.node(cur).mv {
                path.push(mv);
                cur = tree.node(cur).parent.unwrap();
            }
            for mv in path.into_iter().rev() {
                pos.play_unchecked(mv);
            }
            (at, pos)
        };
        let length = rng.below(if line == 0 { 150 } else { 20 });
        for _ in 0..length {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            // A variation must differ from the moves already there.
            if tree.children(node).any(|c| tree.node(c).mv == Some(mv)) {
                break;
            }
            node = tree.push(node, mv);
            pos.play_unchecked(mv);
            if rng.below(10) == 0 {
                tree.node_mut(node)
                    .comments
                    .push(format!("comment {}", rng.below(1000)));
            }
            tree.node_mut(node).time = Some(kifconv::record::MoveTime {
                spent_ms: rng.below(600) as u64 * 1000,
                total_ms: None,
            });
        }
    }
    record.tree = tree;
    record
}

#[test]
fn ten_thousand_random_games_round_trip_through_every_writer() {
    let mut rng = Rng(0x0f0f_1234);
    for i in 0..10_000 {
        let record = random_game(&mut rng);
        for target in TARGETS {
            round_trip(&record, target, &format!("random game {i}"));
        }
    }
}
