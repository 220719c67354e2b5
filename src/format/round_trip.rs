//! Round trips: read(write(record)) keeps everything the target format can
//! hold, for every writer (JKF's too), over every fixture and corpus file
//! and over 10,000 random games with variations, comments, bookmarks,
//! times (some in milliseconds), endings of every kind and fouls. What a
//! format holds is said with the formats' own tables (header keys, ending
//! words, the foul rule), so these tests live beside them; JKF's own
//! checks (its canonical form, the schema, keys given twice, NDJSON) are in
//! jkf/round_trip.rs. The round trips of the command's output are in
//! tests/it/round_trip.rs.

use crate::format::jkf::round_trip as jkf_checks;
use crate::format::{
    csa::write as csa, japanese::write as japanese, jkf::write as jkf, ki2::write as ki2,
    kif::write as kif, usi::write as usi, western::write as western, Format,
};
use crate::read::{read_games, read_text};
use crate::record::{Ending, EndingKind, Foul, Header, MoveTime, MoveTree, NodeId, Record};
use crate::test_util::files::{fixture_records, fixtures, under};
use crate::test_util::games::{game_of, position_at, random_lines};
use crate::test_util::rng::Rng;
use crate::test_util::shared::shared;
use crate::test_util::write::first_differences;
use crate::{Color, KingRule, Move, PieceKind, Position, Setup, Square};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// The record as the target's writer writes it.
fn write(record: &Record, target: Format) -> String {
    match target {
        Format::Usi => usi::position_line(record),
        Format::Kif => kif::write(record, "UTF-8"),
        Format::Ki2 => ki2::write_declared(record, "UTF-8"),
        Format::Csa => csa::write(record, csa::Version::V3_0),
        Format::Western => western::write(record),
        Format::Jkf => jkf::write(record),
    }
}

/// The start, without its move number for the format that cannot hold one
/// (CSA); KIF and KI2 keep it as `手数＝N`, USI and Western in the SFEN.
fn start(start: &Position, target: Format) -> String {
    let sfen = start.sfen();
    match target {
        Format::Usi | Format::Kif | Format::Ki2 | Format::Western => sfen,
        Format::Csa | Format::Jkf => sfen
            .rsplit_once(' ')
            .map(|(s, _)| s.to_string())
            .unwrap_or(sfen),
    }
}

/// The time column KIF writes for every move, in seconds: the time spent
/// (0 when none was recorded) and the mover's total, as recorded or else
/// summed over the mover's moves along the line. What KIF holds, so what a
/// record and the KIF read back from it must agree on.
fn kif_times(record: &Record) -> HashMap<NodeId, (u64, u64)> {
    let tree = &record.tree;
    let mut out = HashMap::new();
    // Each node with the totals after it and the player to move there.
    let mut stack = vec![(NodeId::ROOT, [0u64; 2], record.start.side_to_move())];
    while let Some((id, totals, mover)) = stack.pop() {
        for child in tree.children(id) {
            let node = tree.node(child);
            let side = mover.index();
            let spent = node.time.map_or(0, |t| t.spent_ms);
            let mut totals = totals;
            totals[side] = node
                .time
                .and_then(|t| t.total_ms)
                .unwrap_or(totals[side] + spent);
            out.insert(child, (spent / 1000, totals[side] / 1000));
            stack.push((child, totals, !mover));
        }
    }
    out
}

/// The headers as they read back from the target: CSA's under its keys
/// (the version line first), Western's tags as the writer names them (the
/// start, whose `SFEN` tag the writer writes, is compared apart).
fn headers(record: &Record, target: Format, wrote: bool) -> Vec<(String, String)> {
    let pairs = record
        .headers
        .iter()
        .map(|h| (h.key.as_str(), h.value.as_str()));
    match (target, wrote) {
        (Format::Csa, true) => std::iter::once(("V".to_string(), "3.0".to_string()))
            .chain(pairs.filter(|(k, _)| *k != "V").filter_map(|(k, v)| {
                csa::csa_line(k, v)
                    .map(|(k, v)| (k.to_string(), v.trim_end_matches(' ').to_string()))
            }))
            .collect(),
        (Format::Western, true) => western::header_lines(record)
            .into_iter()
            .filter_map(|line| match line {
                western::Written::Tag(k, v) => Some((k.to_string(), v.to_string())),
                _ => None,
            })
            .collect(),
        (Format::Csa | Format::Western, false) => pairs
            .filter(|(k, _)| *k != "SFEN")
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

/// A record as the target holds it, written out so that the record written
/// (`wrote`) and the record read back compare line by line.
fn canonical(record: &Record, target: Format, wrote: bool) -> String {
    if target == Format::Jkf {
        return jkf_checks::canonical(record);
    }
    let mut out = String::new();
    let tree = &record.tree;
    writeln!(out, "start {}", start(&record.start, target)).unwrap();
    let mut heads = headers(record, target, wrote);
    if target == Format::Western && wrote && record.header("Result").is_none() {
        // A result the writer derives from the ending reads back as a
        // header, after the others.
        if let Some(result) = western::result_token(record).filter(|r| *r != "*") {
            heads.push(("Result".to_string(), result.to_string()));
        }
    }
    if !heads.is_empty() {
        writeln!(out, "headers {heads:?}").unwrap();
    }
    let kif_times = if target == Format::Kif {
        kif_times(record)
    } else {
        HashMap::new()
    };
    let with_tree = matches!(target, Format::Kif | Format::Ki2 | Format::Western);
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
        let text = |mv: Option<Move>| mv.map_or("-".into(), |m| m.to_string());
        write!(out, "{} {}", node.ply, text(node.mv)).unwrap();
        if let Some(parent) = node.parent {
            write!(out, " after {}", text(tree.node(parent).mv)).unwrap();
        }
        if matches!(target, Format::Csa | Format::Western) && id == NodeId::ROOT {
            // CSA and Western keep the headers they cannot write as
            // headers as the first comments.
            let mut comments = match target {
                Format::Csa => csa::header_comments(record),
                _ => western::header_comments(record),
            };
            if comments.iter().zip(node.comments()).all(|(a, b)| a == b)
                && node.comments().len() >= comments.len()
            {
                comments.clear();
            }
            comments.extend(node.comments().iter().cloned());
            write!(out, " comments {:?}", lines(&comments)).unwrap();
        } else if target != Format::Usi {
            write!(out, " comments {:?}", lines(node.comments())).unwrap();
        }
        if matches!(target, Format::Kif | Format::Ki2) {
            write!(out, " bookmarks {:?}", node.bookmarks()).unwrap();
        }
        match (target, node.time) {
            (Format::Kif, _) => {
                if let Some((spent, total)) = kif_times.get(&id) {
                    write!(out, " time {spent}/{total}").unwrap()
                }
            }
            (Format::Csa, Some(t)) => write!(out, " time {}", t.spent_ms).unwrap(),
            _ => {}
        }
        let to_move = pos.side_to_move();
        // Western writes an ending wherever it is; the others, at the end
        // of a line.
        let compared = children.is_empty() || target == Format::Western;
        if let (Some(ending), true) = (node.ending(), compared) {
            let foul = crate::format::foul_move(ending, &pos);
            match target {
                Format::Kif => {
                    let word = japanese::ending_word(ending, to_move);
                    write!(out, " end {word} {:?}", ending.winner).unwrap()
                }
                // KI2 holds an ending as its `まで…` summary alone, which
                // does not tell every ending apart (不戦勝 and 投了 are both
                // "…の勝ち"): compared as that summary says it.
                Format::Ki2 => {
                    let summary = crate::format::japanese::endings::trailer(
                        u64::from(node.ply),
                        ending,
                        false,
                    );
                    write!(out, " end {summary}").unwrap()
                }
                Format::Western | Format::Csa => {
                    // The word the format writes, as the player to move
                    // there sees it, and how the record read back holds it.
                    let word = if target == Format::Csa {
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
                    write!(out, " end-comments {:?}", lines(&ending.comments)).unwrap();
                    // CSA holds the ending's time; Western holds no times.
                    if let (Format::Csa, Some(t)) = (target, ending.time) {
                        write!(out, " end-time {}", t.spent_ms).unwrap();
                    }
                }
                _ => {}
            }
            if let Some(f) = &ending.foul {
                match target {
                    Format::Kif => write!(out, " foul {} {:?}", f.by, f.mv).unwrap(),
                    // CSA and Western keep a foul when they write its move.
                    Format::Csa | Format::Western if foul.is_some() => {
                        write!(out, " foul {} {:?}", f.by, f.mv).unwrap()
                    }
                    // KI2 names no origin: the foul, its side and, for a
                    // drop, its move survive, when the text can name the
                    // move at all (KI2 reads back a board move's foul
                    // without its move).
                    Format::Ki2 if f.mv.is_none() || ki2_names_foul(record, id, f.mv) => {
                        let drop = f.mv.filter(|m| m.is_drop());
                        write!(out, " foul {} {drop:?}", f.by).unwrap()
                    }
                    _ => {}
                }
            }
            if with_tree {
                write!(out, " ending comments {:?}", lines(&ending.comments)).unwrap();
            }
        }
        out.push('\n');
    }
    out
}

/// Comments as the formats keep them: a line each.
pub(crate) fn lines(comments: &[String]) -> Vec<&str> {
    comments.iter().flat_map(|c| c.split('\n')).collect()
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

/// Writes `record` as `target`, reads it back and compares; JKF's document
/// also passes JKF's own checks.
fn round_trip(record: &Record, target: Format, name: &str) {
    let text = write(record, target);
    if target == Format::Jkf {
        jkf_checks::check_document(&text, name);
    }
    let back = read_text(&text, target).unwrap_or_else(|e| {
        panic!(
            "{name} as {target:?} does not read back: {}\n{text}",
            e.render(name)
        )
    });
    assert_eq!(back.len(), 1, "{name} as {target:?}");
    if target == Format::Jkf {
        jkf_checks::check_warnings(&back[0], name, &text);
    }
    let (a, b) = (
        canonical(record, target, true),
        canonical(&back[0], target, false),
    );
    if a != b {
        panic!(
            "{name} as {target:?} does not round-trip ({} lines written, {} read):\n{}\n{text}",
            a.lines().count(),
            b.lines().count(),
            first_differences(&a, &b)
        );
    }
}

const TARGETS: [Format; 6] = [
    Format::Usi,
    Format::Kif,
    Format::Ki2,
    Format::Csa,
    Format::Western,
    Format::Jkf,
];

/// Every record of every file through every writer, and each file's
/// records as one NDJSON text; returns the number of records.
fn check_files(paths: &[std::path::PathBuf], targets: &[Format]) -> usize {
    let mut records = 0;
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        let Ok(read) = crate::read::read_bytes(&bytes, path, None, Default::default()) else {
            continue;
        };
        let name = path.display().to_string();
        for (i, record) in read.records.iter().enumerate() {
            // What a reader returns passes the check `kifconv::write` makes
            // (the command skips it for records straight from a reader).
            if let Err(e) = record.check() {
                panic!("{name}: read, but the check fails: {e}");
            }
            for &target in targets {
                round_trip(record, target, &format!("{name} (game {})", i + 1));
            }
        }
        jkf_checks::check_ndjson(&read.records, &name);
        records += read.records.len();
    }
    records
}

#[test]
fn every_fixture_round_trips_through_every_writer() {
    let mut paths = under(&fixtures(), &["bad", "jkf-schema"]);
    paths.retain(|p| p.extension().is_none_or(|e| e != "md"));
    let records = check_files(&paths, &TARGETS);
    assert!(records >= 70, "{records}");
}

#[test]
fn every_corpus_file_round_trips_through_every_writer() {
    let Some(dir) = shared("corpus") else { return };
    let of = |extensions: &[&str]| {
        let mut paths = under(&dir, &["bad", "jkf-schema"]);
        paths.retain(|p| {
            p.extension()
                .is_some_and(|e| extensions.contains(&e.to_str().unwrap_or("")))
        });
        paths
    };
    let text = of(&["kif", "kifu", "ki2", "ki2u", "csa", "usi", "sfen"]);
    let records = check_files(&text, &TARGETS);
    assert!(records >= 250, "{records}");
    // The corpus's JKF files, through the JKF writer.
    let records = records + check_files(&of(&["jkf", "json"]), &[Format::Jkf]);
    assert!(records >= 300, "{records}");
}

// -- Random games ------------------------------------------------------------

/// Even starts with either side to move, a start with every piece in
/// hand, a game's middle, the same later in the game (KIF and KI2 keep the
/// move number as `手数＝N`), and a handicap.
const STARTS: [&str; 7] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 58",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 37",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
];

/// Headers of every kind: KIF keys, CSA keys (a version too), keys and
/// values a Western tag cannot hold, a value of two lines, a key twice.
const HEADERS: [(&str, &str); 16] = [
    ("先手", "羽生善治"),
    ("棋戦", "第1期 \"竜王\" 戦"),
    ("$TIME", "600+10+0"),
    ("$NOTE", "a, b: c"),
    ("対局 場所", "東京"),
    ("備考", "a \"quoted\" word"),
    ("Result", "1/2-1/2"),
    ("場所", "x}y"),
    ("N+", "先手 \"名人\""),
    ("N-", "後手\\back"),
    ("$EVENT", "第1期 竜王戦"),
    ("V", "2.2"),
    ("開始日時", "2024/01/02 10:00:00"),
    ("備考", "line one\nline two"),
    ("手合割", "平手"),
    ("備考", "a second 備考"),
];

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

/// An illegal move for the player to move: one of [`illegal_moves`]
/// (always, as read; else half the time), or a board move of one of their
/// pieces or a drop, found by a few random tries.
fn illegal_move(rng: &mut Rng, pos: &Position, made: Made) -> Option<Move> {
    if made == Made::AsRead || rng.one_in(2) {
        let moves = illegal_moves(pos);
        if !moves.is_empty() || made == Made::AsRead {
            return (!moves.is_empty()).then(|| moves[rng.below(moves.len())]);
        }
    }
    let mover = pos.side_to_move();
    for _ in 0..50 {
        let to = Square::from_index(rng.below(81)).unwrap();
        let mv = if rng.one_in(3) {
            let kind = PieceKind::HAND[rng.below(7)];
            Move::Drop { kind, to }
        } else {
            let from = Square::from_index(rng.below(81)).unwrap();
            if pos.piece_at(from).is_none_or(|p| p.color != mover) || from == to {
                continue;
            }
            Move::Normal {
                from,
                to,
                promote: rng.one_in(3),
            }
        };
        if !pos.is_legal(mv) {
            return Some(mv);
        }
    }
    None
}

/// Whole seconds mostly, some with milliseconds, some with a running total.
fn random_time(rng: &mut Rng) -> MoveTime {
    let spent_ms = if rng.one_in(4) {
        rng.below(600_000) as u64
    } else {
        rng.below(600) as u64 * 1000
    };
    let total_ms = rng.one_in(5).then(|| rng.below(20_000_000) as u64);
    MoveTime { spent_ms, total_ms }
}

/// What a random game's endings and headers are like.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Made {
    /// As readers make them: endings as their words say, one-line headers.
    AsRead,
    /// Any: also endings of any kind with any winner, and a header of two
    /// lines (JKF holds them all).
    Any,
}

/// An ending at `pos` after move `ply`: a terminal word as a reader keeps
/// it, or (`Made::Any`) any kind with any winner; perhaps a time and a
/// comment (of one line or two); and a third of the time a foul (`Made::Any`: perhaps without
/// its move).
fn random_ending(rng: &mut Rng, pos: &Position, ply: u32, made: Made) -> Ending {
    let to_move = pos.side_to_move();
    let mut ending = if made == Made::AsRead || rng.one_in(2) {
        let word = ENDING_WORDS[rng.below(ENDING_WORDS.len())];
        let (kind, winner) = crate::format::endings::ending_for_word(word, to_move);
        Ending::new(kind, winner, word)
    } else {
        let winner = [None, Some(Color::Black), Some(Color::White)][rng.below(3)];
        let kind = EndingKind::ALL[rng.below(EndingKind::ALL.len())];
        Ending::new(kind, winner, "word")
    };
    ending.time = rng.one_in(3).then(|| random_time(rng));
    if rng.one_in(3) {
        let n = rng.below(1000);
        let comment = match rng.one_in(2) {
            true => format!("ending comment {n}"),
            false => format!("ending\ncomment {n}"),
        };
        ending.comments.push(comment);
    }
    if rng.one_in(3) {
        // A foul as read names its move; any foul may not.
        let mv = illegal_move(rng, pos, made).filter(|_| made == Made::AsRead || !rng.one_in(5));
        if mv.is_none() && made == Made::AsRead {
            return ending;
        }
        ending.kind = EndingKind::IllegalMove;
        ending.winner = Some(!to_move);
        ending.foul = Some(Foul {
            by: to_move,
            text: mv.map_or("?".into(), |m| m.to_string()),
            reason: format!("move {} is illegal", ply + 1),
            mv,
        });
    }
    ending
}

/// A random game: a random start and headers, random legal moves, some
/// variations, comments (some of two lines), bookmarks, times, endings at
/// the ends of lines and now and then on a node whose line goes on, fouls.
fn random_game(rng: &mut Rng, made: Made) -> Record {
    let setup = Setup::from_sfen(STARTS[rng.below(STARTS.len())]).unwrap();
    let start = Position::from_setup(setup, KingRule::BothRequired).unwrap();
    let mut record = Record::new(start.clone());
    record.handicap = record.start.handicap();
    for _ in 0..rng.below(4) {
        let (key, value) = HEADERS[rng.below(HEADERS.len())];
        if made == Made::AsRead && value.contains('\n') {
            continue;
        }
        record.headers.push(Header {
            key: key.into(),
            value: value.into(),
        });
    }
    let mut tree = MoveTree::new();
    if rng.one_in(5) {
        tree.node_mut(NodeId::ROOT)
            .notes_mut()
            .comments
            .push("before the first move".into());
    }
    if rng.one_in(20) {
        tree.node_mut(NodeId::ROOT)
            .notes_mut()
            .bookmarks
            .push("start".into());
    }
    // The mainline, then a few branches off random nodes.
    random_lines(
        rng,
        &start,
        &mut tree,
        |rng, tree, node| {
            let n = tree.node_mut(node);
            if rng.one_in(10) {
                n.notes_mut()
                    .comments
                    .push(format!("comment {}", rng.below(1000)));
            }
            if rng.one_in(50) {
                n.notes_mut().comments.push("two\nlines".into());
            }
            if rng.one_in(20) {
                let i = rng.below(1000);
                let name = [format!("bookmark{i}"), format!("mark {i}")];
                n.notes_mut().bookmarks.push(name[i % 2].clone());
            }
            if !rng.one_in(10) {
                n.time = Some(random_time(rng));
            }
        },
        |rng, tree, _, node, pos| {
            if tree.children(node).next().is_none() && !rng.one_in(3) {
                let ply = tree.node(node).ply;
                tree.node_mut(node)
                    .set_ending(random_ending(rng, pos, ply, made));
            }
        },
    );
    // Now and then the game could have ended where its line goes on.
    if rng.one_in(8) {
        let ids: Vec<NodeId> = std::iter::once(NodeId::ROOT).chain(tree.ids()).collect();
        let at = ids[rng.below(ids.len())];
        if tree.node(at).ending().is_none() {
            let pos = position_at(&start, &tree, at);
            let ply = tree.node(at).ply;
            tree.node_mut(at)
                .set_ending(random_ending(rng, &pos, ply, made));
        }
    }
    record.tree = tree;
    record
}

/// How often the random games hit what the writers have to get right.
#[derive(Debug, Default)]
struct Seen {
    forks: usize,
    endings_where_the_line_goes_on: usize,
    fouls_as_moves: usize,
    fouls_as_words: usize,
    times_with_milliseconds: usize,
    bookmarks: usize,
}

impl Seen {
    fn count(&mut self, record: &Record) {
        let tree = &record.tree;
        for id in std::iter::once(NodeId::ROOT).chain(tree.ids()) {
            let node = tree.node(id);
            self.forks += tree.children(id).count().saturating_sub(1);
            self.bookmarks += node.bookmarks().len();
            self.times_with_milliseconds +=
                node.time.is_some_and(|t| t.spent_ms % 1000 != 0) as usize;
            if let Some(ending) = node.ending() {
                self.endings_where_the_line_goes_on += tree.children(id).next().is_some() as usize;
                let pos = position_at(&record.start, tree, id);
                match (crate::format::foul_move(ending, &pos), &ending.foul) {
                    (Some(_), _) => self.fouls_as_moves += 1,
                    (None, Some(_)) => self.fouls_as_words += 1,
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn ten_thousand_random_games_round_trip_through_every_writer() {
    let mut rng = Rng::new(0x0f0f_1234);
    let mut games = Vec::new();
    let mut seen = Seen::default();
    for i in 0..10_000 {
        let record = random_game(&mut rng, Made::AsRead);
        for target in TARGETS {
            round_trip(&record, target, &format!("random game {i}"));
        }
        // JKF holds any ending and header too.
        let any = random_game(&mut rng, Made::Any);
        round_trip(&any, Format::Jkf, &format!("random game {i} (any)"));
        seen.count(&record);
        seen.count(&any);
        if i % 100 == 0 {
            games.push(any);
        }
    }
    for (what, n) in [
        ("forks", seen.forks),
        (
            "endings where the line goes on",
            seen.endings_where_the_line_goes_on,
        ),
        ("fouls written as moves", seen.fouls_as_moves),
        ("fouls written as words", seen.fouls_as_words),
        ("times with milliseconds", seen.times_with_milliseconds),
        ("bookmarks", seen.bookmarks),
    ] {
        assert!(n >= 100, "only {n} {what}: {seen:?}");
    }
    // A hundred of them as one NDJSON text.
    jkf_checks::check_ndjson(&games, "random games");
}

/// Games written one after another, as the binary writes several games to
/// standard output, read back as the same games in the same order.
fn check_stream(records: &[(String, Record)], target: Format) {
    let stream: String = records.iter().map(|(_, r)| write(r, target)).collect();
    let back = read_text(&stream, target).unwrap_or_else(|e| {
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
    for target in [Format::Kif, Format::Ki2] {
        check_stream(&records, target);
    }
}

#[test]
fn random_games_in_one_stream_read_back_as_the_same_games() {
    let mut rng = Rng::new(0x5eed_2024);
    let records: Vec<(String, Record)> = (0..300)
        .map(|i| {
            (
                format!("random game {i}"),
                random_game(&mut rng, Made::AsRead),
            )
        })
        .collect();
    for target in [Format::Kif, Format::Ki2] {
        check_stream(&records, target);
    }
}

/// In a stream of three games, a broken second game fails alone, its error
/// at its line in the stream; the first and third read as written.
#[test]
fn a_broken_game_in_a_stream_fails_alone() {
    let mut record = game_of(STARTS[0], "7g7f 3c3d");
    record.handicap = Some(crate::Handicap::Even);
    // The second game: the first good game with its second move broken.
    for (target, good_move, broken_move) in [
        (Format::Kif, "   2 ３四歩(33)", "   2 ３四X(33)"),
        (Format::Ki2, "▲７六歩    △３四歩", "▲７六歩    △３四X"),
    ] {
        let good = write(&record, target);
        let broken = good.replace(good_move, broken_move);
        assert_ne!(broken, good, "{target:?}: the move to break was found");
        let stream = format!("{good}{broken}{good}");
        let games = read_games(&stream, target).unwrap();
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
