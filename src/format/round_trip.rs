//! Round trips: read(write(record)) keeps everything the target format can
//! hold, for every writer, over every fixture and corpus file and over
//! thousands of random games with variations, comments and times. What a
//! format holds is said with the formats' own tables (header keys, ending
//! words, the foul rule), so these tests live beside them; the round trips
//! of the command's output are in tests/it/round_trip.rs.

use crate::format::{
    csa::write as csa, japanese::write as japanese, ki2::write as ki2, kif::write as kif,
    usi::write as usi, western::write as western,
};
use crate::read::{read_games, read_text, Format};
use crate::record::{Ending, EndingKind, Foul, MoveTree, NodeId, Record};
use crate::test_util::files::{fixture_records, fixtures, under};
use crate::test_util::games::{position_at, random_lines};
use crate::test_util::rng::Rng;
use crate::test_util::shared::shared;
use crate::test_util::write::first_differences;
use crate::{Color, KingRule, Move, PieceKind, Position, Setup, Square};
use std::collections::HashMap;
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
        Target::Ki2 => ki2::write_declared(record, "UTF-8"),
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

/// The start, without its move number for the format that cannot hold one
/// (CSA); KIF and KI2 keep it as `手数＝N`, USI and Western in the SFEN.
fn start(start: &Position, target: Target) -> String {
    let sfen = start.sfen();
    match target {
        Target::Usi | Target::Kif | Target::Ki2 | Target::Western => sfen,
        Target::Csa => sfen
            .rsplit_once(' ')
            .map(|(s, _)| s.to_string())
            .unwrap_or(sfen),
    }
}

/// Who makes move `ply` (1 for the first) of a record.
fn mover(record: &Record, ply: u32) -> Color {
    if ply % 2 == 1 {
        record.start.side_to_move()
    } else {
        !record.start.side_to_move()
    }
}

/// The time column KIF writes for every move, in seconds: the time spent
/// (0 when none was recorded) and the mover's total, as recorded or else
/// summed over the mover's moves along the line. What KIF holds, so what a
/// record and the KIF read back from it must agree on.
fn kif_times(record: &Record) -> HashMap<NodeId, (u64, u64)> {
    let tree = &record.tree;
    let mut out = HashMap::new();
    let mut stack = vec![(NodeId::ROOT, [0u64; 2])];
    while let Some((id, totals)) = stack.pop() {
        for child in tree.children(id) {
            let node = tree.node(child);
            let side = mover(record, node.ply).index();
            let spent = node.time.map_or(0, |t| t.spent_ms);
            let mut totals = totals;
            totals[side] = node
                .time
                .and_then(|t| t.total_ms)
                .unwrap_or(totals[side] + spent);
            out.insert(child, (spent / 1000, totals[side] / 1000));
            stack.push((child, totals));
        }
    }
    out
}

/// The headers a target keeps as comments before the first move.
fn header_comments(record: &Record, target: Target) -> Vec<String> {
    match target {
        Target::Csa => csa::header_comments(record),
        Target::Western => western::header_comments(record),
        _ => Vec::new(),
    }
}

/// The headers as they read back from the target: CSA's under its keys
/// (the version line first), Western's tags as the writer names them (the
/// start, whose `SFEN` tag the writer writes, is compared apart).
fn headers(record: &Record, target: Target, wrote: bool) -> Vec<(String, String)> {
    let pairs = record
        .headers
        .iter()
        .map(|h| (h.key.as_str(), h.value.as_str()));
    match (target, wrote) {
        (Target::Csa, true) => std::iter::once(("V".to_string(), "3.0".to_string()))
            .chain(pairs.filter(|(k, _)| *k != "V").filter_map(|(k, v)| {
                csa::header_key(k).map(|k| (k.to_string(), v.trim_end_matches(' ').to_string()))
            }))
            .collect(),
        (Target::Western, true) => western::header_lines(record)
            .into_iter()
            .filter_map(|line| match line {
                western::Written::Tag(k, v) => Some((k.to_string(), v.to_string())),
                _ => None,
            })
            .collect(),
        (Target::Csa | Target::Western, false) => pairs
            .filter(|(k, _)| *k != "SFEN")
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

/// A record as the target holds it, written out so that the record written
/// (`wrote`) and the record read back compare line by line.
fn canonical(record: &Record, target: Target, wrote: bool) -> String {
    let mut out = String::new();
    let tree = &record.tree;
    writeln!(out, "start {}", start(&record.start, target)).unwrap();
    let mut heads = headers(record, target, wrote);
    if target == Target::Western && wrote && record.header("Result").is_none() {
        // A result the writer derives from the ending reads back as a
        // header, after the others.
        if let Some(result) = western::result_token(record).filter(|r| *r != "*") {
            heads.push(("Result".to_string(), result.to_string()));
        }
    }
    if !heads.is_empty() {
        writeln!(out, "headers {heads:?}").unwrap();
    }
    let kif_times = if target == Target::Kif {
        kif_times(record)
    } else {
        HashMap::new()
    };
    let with_tree = matches!(target, Target::Kif | Target::Ki2 | Target::Western);
    let begin = record.start.clone();
    // Each node with the position before its move (the root: the start).
    let mut stack = vec![(NodeId::ROOT, begin)];
    while let Some((id, before)) = stack.pop() {
        let node = tree.node(id);
        let mut pos = before;
        if let Some(mv) = node.mv {
            pos.play_unchecked(mv);
        }
        let children: Vec<NodeId> = tree.children(id).collect();
        let next: Vec<NodeId> = if with_tree {
            children.clone()
        } else {
            children.iter().copied().take(1).collect()
        };
        for &child in next.iter().rev() {
            stack.push((child, pos.clone()));
        }
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
        if matches!(target, Target::Csa | Target::Western) && id == NodeId::ROOT {
            // CSA and Western keep the headers they cannot write as
            // headers as the first comments.
            let mut comments = header_comments(record, target);
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
        if matches!(target, Target::Kif | Target::Ki2) {
            write!(out, " bookmarks {:?}", node.bookmarks).unwrap();
        }
        match (target, node.time) {
            (Target::Kif, _) => {
                if let Some((spent, total)) = kif_times.get(&id) {
                    write!(out, " time {spent}/{total}").unwrap()
                }
            }
            (Target::Csa, Some(t)) => write!(out, " time {}", t.spent_ms).unwrap(),
            _ => {}
        }
        let to_move = pos.side_to_move();
        // Western writes an ending wherever it is; the others, at the end
        // of a line.
        let compared = children.is_empty() || target == Target::Western;
        if let (Some(ending), true) = (&node.ending, compared) {
            let foul = crate::format::foul_move(ending, &pos);
            match target {
                Target::Kif => {
                    let word = japanese::ending_word(ending, to_move);
                    write!(out, " end {word} {:?}", ending.winner).unwrap()
                }
                // KI2 holds an ending as its `まで…` summary alone, which
                // does not tell every ending apart (不戦勝 and 投了 are both
                // "…の勝ち"): compared as that summary says it.
                Target::Ki2 => {
                    let summary = crate::format::japanese::endings::trailer(
                        u64::from(node.ply),
                        ending,
                        false,
                    );
                    write!(out, " end {summary}").unwrap()
                }
                Target::Western | Target::Csa => {
                    // The word the format writes, as the player to move
                    // there sees it, and how the record read back holds it.
                    let word = if target == Target::Csa {
                        csa::ending_word(ending, to_move)
                    } else {
                        western::ending_token(ending, to_move)
                    };
                    let said = crate::format::endings::ending_for_word(&word, to_move);
                    let (kind, winner) = match (wrote, foul) {
                        (true, None) => said,
                        _ if foul.is_some() => (EndingKind::IllegalMove, ending.winner),
                        _ => (ending.kind, ending.winner),
                    };
                    write!(out, " end {word} {kind:?} {winner:?}").unwrap();
                    write!(out, " end-comments {:?}", ending.comments).unwrap();
                    // CSA holds the ending's time; Western holds no times.
                    if let (Target::Csa, Some(t)) = (target, ending.time) {
                        write!(out, " end-time {}", t.spent_ms).unwrap();
                    }
                }
                _ => {}
            }
            if let Some(f) = &ending.foul {
                match target {
                    Target::Kif => write!(out, " foul {} {:?}", f.by, f.mv).unwrap(),
                    // CSA and Western keep a foul when they write its move.
                    Target::Csa | Target::Western if foul.is_some() => {
                        write!(out, " foul {} {:?}", f.by, f.mv).unwrap()
                    }
                    // KI2 names no origin: the foul, its side and, for a
                    // drop, its move survive, when the text can name the
                    // move at all (KI2 reads back a board move's foul
                    // without its move).
                    Target::Ki2 if f.mv.is_none() || ki2_names_foul(record, id, f.mv) => {
                        let drop = f.mv.filter(|m| m.is_drop());
                        write!(out, " foul {} {drop:?}", f.by).unwrap()
                    }
                    _ => {}
                }
            }
            if with_tree {
                write!(out, " ending comments {:?}", ending.comments).unwrap();
            }
        }
        out.push('\n');
    }
    out
}

/// Whether KI2, which names no origin, can name the illegal move `mv` made
/// after node `id`: a drop (written with 打), or a board move when no legal
/// move of that piece reaches that square (else the text names that legal
/// move, or markers that rule it out, and no reader can tell the illegal
/// one from it).
fn ki2_names_foul(record: &Record, id: NodeId, mv: Option<Move>) -> bool {
    let start = record.start.clone();
    let pos = position_at(&start, &record.tree, id);
    match mv {
        None => false,
        Some(Move::Drop { .. }) => true,
        Some(Move::Normal { from, to, .. }) => pos.piece_at(from).is_some_and(|piece| {
            piece.color == pos.side_to_move() && pos.candidates(piece.kind, to).is_empty()
        }),
    }
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
    let (a, b) = (
        canonical(record, target, true),
        canonical(&back[0], target, false),
    );
    if a != b {
        panic!(
            "{name} as {target:?} does not round-trip:\n{}\n{text}",
            first_differences(&a, &b)
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

fn check_files(paths: &[std::path::PathBuf]) -> usize {
    let mut records = 0;
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        let Ok(read) = crate::read::read_bytes(&bytes, path, None, Default::default()) else {
            continue;
        };
        for record in &read.records {
            // What a reader returns passes the check `kifconv::write` makes
            // (the command skips it for records straight from a reader).
            if let Err(e) = record.check() {
                panic!("{}: read, but the check fails: {e}", path.display());
            }
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
    let mut paths = under(&fixtures(), &["bad"]);
    paths.retain(|p| p.extension().is_none_or(|e| e != "md"));
    assert!(check_files(&paths) >= 60);
}

#[test]
fn every_corpus_file_round_trips_through_every_writer() {
    let Some(dir) = shared("corpus") else { return };
    let mut paths = under(&dir, &["bad"]);
    paths.retain(|p| {
        p.extension().is_some_and(|e| {
            ["kif", "kifu", "ki2", "ki2u", "csa", "usi", "sfen"].contains(&e.to_str().unwrap_or(""))
        })
    });
    assert!(check_files(&paths) >= 250);
}

const STARTS: [&str; 6] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    // Positions after moves already played (KIF and KI2: `手数＝N`).
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 58",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 37",
];

/// The moves against the rules that a player could still make in `pos`
/// with a piece of theirs: a pinned piece or the king moving into check, a
/// check left unanswered, a second pawn on a file.
fn illegal_moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for to in Square::all() {
        for kind in PieceKind::ALL {
            for mv in pos.candidates_ignoring_pins(kind, to).iter() {
                if !pos.is_legal(*mv) {
                    out.push(*mv);
                }
            }
        }
        let pawn = Move::Drop {
            kind: PieceKind::Pawn,
            to,
        };
        if pos.hand(pos.side_to_move()).count(PieceKind::Pawn) > 0
            && pos.piece_at(to).is_none()
            && !pos.is_legal(pawn)
        {
            out.push(pawn);
        }
    }
    out
}

/// How a random game's mainline ends: nothing, a terminal word, or a final
/// illegal move (a foul).
fn random_ending(rng: &mut Rng, pos: &Position, ply: u32) -> Option<Ending> {
    let to_move = pos.side_to_move();
    let ending = Ending::new;
    let mut ending = match rng.below(5) {
        0 => return None,
        1 => ending(EndingKind::Resign, Some(!to_move), "投了"),
        2 => ending(EndingKind::Abort, None, "中断"),
        3 => ending(EndingKind::Repetition, None, "千日手"),
        _ => {
            let illegal = illegal_moves(pos);
            if illegal.is_empty() {
                return None;
            }
            let mv = illegal[rng.below(illegal.len())];
            let mut foul = ending(EndingKind::IllegalMove, Some(!to_move), &mv.to_string());
            foul.foul = Some(Foul {
                by: to_move,
                text: mv.to_string(),
                reason: format!("move {} is illegal", ply + 1),
                mv: Some(mv),
            });
            foul
        }
    };
    if rng.below(3) == 0 {
        ending
            .comments
            .push(format!("ending comment {}", rng.below(1000)));
    }
    Some(ending)
}

/// A random game: a random start, random legal moves, some variations,
/// comments, bookmarks and times, and perhaps an ending or a foul.
fn random_game(rng: &mut Rng) -> Record {
    let setup = Setup::from_sfen(STARTS[rng.below(STARTS.len())]).unwrap();
    let start = Position::from_setup(setup, KingRule::BothRequired).unwrap();
    let mut record = Record::new(start.clone());
    record.handicap = record.start.handicap();
    let mut tree = MoveTree::new();
    // The mainline, then a few branches off random nodes.
    random_lines(
        rng,
        &start,
        &mut tree,
        |rng, tree, node| {
            if rng.below(10) == 0 {
                tree.node_mut(node)
                    .comments
                    .push(format!("comment {}", rng.below(1000)));
            }
            if rng.below(20) == 0 {
                tree.node_mut(node)
                    .bookmarks
                    .push(format!("bookmark{}", rng.below(1000)));
            }
            tree.node_mut(node).time = Some(crate::record::MoveTime {
                spent_ms: rng.below(600) as u64 * 1000,
                total_ms: None,
            });
        },
        |rng, tree, line, node, pos| {
            if line == 0 {
                let ply = tree.node(node).ply;
                tree.node_mut(node).ending = random_ending(rng, pos, ply).map(Box::new);
            }
        },
    );
    // Endings on some lines, as a reader would have read their words.
    let leaves: Vec<NodeId> = std::iter::once(NodeId::ROOT)
        .chain(tree.ids())
        .filter(|&id| tree.children(id).next().is_none())
        .collect();
    for id in leaves {
        if rng.below(3) != 0 {
            continue;
        }
        let word = ENDING_WORDS[rng.below(ENDING_WORDS.len())];
        let to_move = if tree.node(id).ply.is_multiple_of(2) {
            record.start.side_to_move()
        } else {
            !record.start.side_to_move()
        };
        let (kind, winner) = crate::format::endings::ending_for_word(word, to_move);
        let comments = match rng.below(4) {
            0 => vec![format!("ended {}", rng.below(100))],
            _ => Vec::new(),
        };
        let time = (rng.below(2) == 0).then(|| crate::record::MoveTime {
            spent_ms: rng.below(100) as u64 * 1000,
            total_ms: None,
        });
        tree.node_mut(id).ending = Some(Box::new(crate::record::Ending {
            kind,
            winner,
            text: word.to_string(),
            time,
            comments,
            foul: None,
        }));
    }
    for _ in 0..rng.below(4) {
        let (key, value) = HEADERS[rng.below(HEADERS.len())];
        record.headers.push(crate::record::Header {
            key: key.to_string(),
            value: value.to_string(),
        });
    }
    record.tree = tree;
    record
}

/// Terminal words of KIF and CSA, as readers keep them.
const ENDING_WORDS: [&str; 18] = [
    "投了",
    "中断",
    "千日手",
    "持将棋",
    "詰み",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不戦勝",
    "封じ手",
    "TORYO",
    "OUTE_SENNICHITE",
    "+ILLEGAL_ACTION",
    "-ILLEGAL_ACTION",
    "HIKIWAKE",
    "MAX_MOVES",
    "KACHI",
];

/// Headers of every kind: KIF keys, CSA keys, keys and values a Western
/// tag cannot hold.
const HEADERS: [(&str, &str); 8] = [
    ("先手", "羽生善治"),
    ("棋戦", "第1期 \"竜王\" 戦"),
    ("$TIME", "600+10+0"),
    ("$NOTE", "a, b: c"),
    ("対局 場所", "東京"),
    ("備考", "a \"quoted\" word"),
    ("Result", "1/2-1/2"),
    ("場所", "x}y"),
];

#[test]
fn ten_thousand_random_games_round_trip_through_every_writer() {
    let mut rng = Rng::new(0x0f0f_1234);
    for i in 0..10_000 {
        let record = random_game(&mut rng);
        for target in TARGETS {
            round_trip(&record, target, &format!("random game {i}"));
        }
    }
}

/// Games written one after another, as the binary writes several games to
/// standard output, read back as the same games in the same order.
fn check_stream(records: &[(String, Record)], target: Target) {
    let stream: String = records.iter().map(|(_, r)| write(r, target)).collect();
    let back = read_text(&stream, format_of(target)).unwrap_or_else(|e| {
        panic!(
            "the {target:?} stream does not read back: {}",
            e.render("stream")
        )
    });
    assert_eq!(back.len(), records.len(), "games in the {target:?} stream");
    for ((name, record), back) in records.iter().zip(&back) {
        assert_eq!(
            canonical(record, target, true),
            canonical(back, target, false),
            "{name} in the {target:?} stream"
        );
    }
    // Sniffed, with no name to go by, the stream is still those games.
    let read = crate::read::read_bytes(
        stream.as_bytes(),
        Path::new("stream"),
        None,
        Default::default(),
    )
    .unwrap();
    assert!(read.errors.is_empty(), "{target:?}: {:?}", read.errors);
    assert_eq!(read.records.len(), records.len(), "{target:?} sniffed");
}

#[test]
fn every_fixture_in_one_stream_reads_back_as_the_same_games() {
    let records = fixture_records();
    assert!(records.len() >= 60);
    for target in [Target::Kif, Target::Ki2] {
        check_stream(&records, target);
    }
}

#[test]
fn random_games_in_one_stream_read_back_as_the_same_games() {
    let mut rng = Rng::new(0x5eed_2024);
    let records: Vec<(String, Record)> = (0..300)
        .map(|i| (format!("random game {i}"), random_game(&mut rng)))
        .collect();
    for target in [Target::Kif, Target::Ki2] {
        check_stream(&records, target);
    }
}

/// In a stream of three games, a broken second game fails alone, its error
/// at its line in the stream; the first and third read as written.
#[test]
fn a_broken_game_in_a_stream_fails_alone() {
    let mut record = Record::new(Position::startpos());
    record.handicap = Some(crate::Handicap::Even);
    let mut tree = MoveTree::new();
    let first = tree.push(NodeId::ROOT, Move::from_usi("7g7f").unwrap());
    tree.push(first, Move::from_usi("3c3d").unwrap());
    record.tree = tree;
    for (target, broken_move) in [
        (Target::Kif, "   2 ３四X(33)"),
        (Target::Ki2, "▲７六歩    △３四X"),
    ] {
        let good = write(&record, target);
        // The second game: the first good game with its second move broken.
        let broken = good.replace(
            match target {
                Target::Kif => "   2 ３四歩(33)",
                _ => "▲７六歩    △３四歩",
            },
            broken_move,
        );
        assert_ne!(broken, good, "{target:?}: the move to break was found");
        let stream = format!("{good}{broken}{good}");
        let games = read_games(&stream, format_of(target)).unwrap();
        assert_eq!(games.len(), 3, "{target:?}");
        for game in [&games[0], &games[2]] {
            let back = game.as_ref().unwrap();
            assert_eq!(
                canonical(back, target, false),
                canonical(&record, target, true)
            );
        }
        let error = games[1].as_ref().unwrap_err();
        let line = good.lines().count()
            + 1
            + broken
                .lines()
                .position(|l| l.starts_with(broken_move))
                .unwrap();
        assert_eq!(
            error.location.line as usize,
            line,
            "{target:?}: {}",
            error.render("stream")
        );
        assert_eq!(error.location.text, "X", "{target:?}");
        let column = broken_move.chars().take_while(|&c| c != 'X').count() + 1;
        assert_eq!(error.location.column as usize, column, "{target:?}");
    }
}
