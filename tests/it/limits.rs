//! Limits: huge, deep, long and broken inputs. Each gives a correct result
//! or a clear error, in time linear in its size, without a stack overflow
//! and without memory out of proportion.
//!
//! Every input is generated here; no big file is committed. The default
//! run checks each limit at a size that takes a few seconds in debug; the
//! full sizes are `#[ignore]`d:
//!
//! ```sh
//! cargo test --release --test it limits:: -- --ignored --nocapture --test-threads=1
//! ```
//!
//! Timings and peak memory are printed (`--nocapture`), not asserted,
//! beyond bounds generous enough to catch only a quadratic blow-up.

use crate::util::bin::{
    assert_contains, assert_exit, run, run_measured, run_with_input, s, scratch, stderr,
};
use crate::util::files::{fixtures, under};
use crate::util::games::{kif_text, random_line, KIF_HEAD};
use crate::util::rng::Rng;
use crate::util::write::{self as written, utf16};
use kifconv::read::{read_bytes, read_text, Format, Read};
use kifconv::record::{MoveTree, NodeId, Record};
use kifconv::Error;
use kifconv::{Move, Position, Target};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Helpers

fn usi_line(moves: &[Move]) -> String {
    let mut line = String::with_capacity(24 + 6 * moves.len());
    line.push_str("position startpos moves");
    for mv in moves {
        line.push(' ');
        line.push_str(&mv.to_string());
    }
    line.push('\n');
    line
}

fn record_of(moves: &[Move]) -> Record {
    let mut record = Record::new(Position::startpos());
    let mut tree = MoveTree::with_capacity(moves.len());
    let mut node = NodeId::ROOT;
    for &mv in moves {
        node = tree.push(node, mv);
    }
    record.tree = tree;
    record
}

fn read_one(text: &str, format: Format) -> Record {
    let mut records = read_text(text, format)
        .unwrap_or_else(|e| panic!("{format:?} does not read: {}", e.render("generated")));
    assert_eq!(records.len(), 1, "{format:?}");
    records.remove(0)
}

/// Reads bytes as a file of that name would be read: the format sniffed
/// (or told by the extension), the encoding detected.
fn read_named(bytes: &[u8], name: &str) -> Result<Read, Error> {
    read_bytes(bytes, Path::new(name), None, Default::default())
}

fn mainline(record: &Record) -> Vec<Move> {
    record.tree.mainline_moves().collect()
}

/// Runs `f`, printing how long it took; panics past `bound`.
fn timed<T>(what: &str, bound: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    eprintln!("  {what}: {:.3} s", took.as_secs_f64());
    assert!(took < bound, "{what} took {took:?} (bound {bound:?})");
    out
}

/// This process's peak resident memory, in MiB (Linux only).
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn report_peak(what: &str) {
    if let Some(mib) = peak_mib() {
        eprintln!("  {what}: peak RSS of the test process so far {mib} MiB");
    }
}

/// Runs the binary, printing after `what` how long it took and its peak
/// resident memory; returns its output, that peak in MiB (where it can be
/// measured) and the time.
fn kifconv_timed(what: &str, args: &[&str]) -> (Output, Option<u64>, Duration) {
    let start = Instant::now();
    let (out, kib) = run_measured(args);
    let took = start.elapsed();
    let mib = kib.map(|kib| kib / 1024);
    eprintln!("  {what}: {:.3} s, peak {mib:?} MiB", took.as_secs_f64());
    (out, mib, took)
}

// ---------------------------------------------------------------------------
// A long game

/// A game of `plies` plies, as USI, KIF (written move by move), and as the
/// KI2, CSA and Western writers write it: every one reads back whole.
fn long_game(plies: usize) {
    let moves = timed("generate", Duration::from_secs(600), || {
        random_line(plies, &mut Rng::new(0x1_0000 + plies as u64))
    });
    let line = usi_line(&moves);
    let back = timed("read USI", Duration::from_secs(120), || {
        read_one(&line, Format::Usi)
    });
    assert_eq!(mainline(&back), moves, "USI");
    let kif_game = kif_text(&moves);
    let back = timed("read KIF", Duration::from_secs(120), || {
        read_one(&kif_game, Format::Kif)
    });
    assert_eq!(mainline(&back), moves, "KIF");
    let record = record_of(&moves);
    for (name, format, text) in [
        ("KI2", Format::Ki2, written::text(&record, Target::Ki2)),
        ("CSA", Format::Csa, written::text(&record, Target::Csa)),
        (
            "Western",
            Format::Western,
            written::text(&record, Target::Western),
        ),
        ("JKF", Format::Jkf, written::text(&record, Target::Jkf)),
        (
            "KIF (writer)",
            Format::Kif,
            written::text(&record, Target::Kif),
        ),
    ] {
        let back = timed(&format!("read {name}"), Duration::from_secs(120), || {
            read_one(&text, format)
        });
        assert_eq!(mainline(&back), moves, "{name}");
    }
    assert_eq!(written::usi_line(&record), line.trim_end());
    report_peak("long game");
}

#[test]
fn a_game_of_ten_thousand_plies() {
    long_game(10_000);
}

#[test]
#[ignore = "slow in debug: run with --release -- --ignored"]
fn a_game_of_a_hundred_thousand_plies() {
    long_game(100_000);
}

// ---------------------------------------------------------------------------
// Many variations

/// `count` variations of the first move (`変化：1手`), cycling through the
/// 30 legal first moves: the tree keeps each one, so the root has
/// `count + 1` children.
fn first_move_variations(count: usize) -> String {
    let pos = Position::startpos();
    // Each legal first move as the KIF writer writes it.
    let legal: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| written::kif_moves(&pos, &[mv]).remove(0))
        .collect();
    let mut out = String::from(KIF_HEAD);
    let line = |out: &mut String, mv: &str| {
        out.push_str("   1 ");
        out.push_str(mv);
        out.push('\n');
    };
    line(&mut out, &legal[0]);
    for i in 0..count {
        out.push_str("\n変化：1手\n");
        line(&mut out, &legal[(i + 1) % legal.len()]);
    }
    out
}

fn many_first_move_variations(count: usize) {
    let text = first_move_variations(count);
    let record = timed(
        &format!("read {count} variations of move 1"),
        Duration::from_secs(60),
        || read_one(&text, Format::Kif),
    );
    assert_eq!(record.tree.children(NodeId::ROOT).count(), count + 1);
    assert_eq!(record.tree.len(), count + 2);
    // Written back (KIF and KI2 keep variations) and read again.
    for (name, format) in [("KIF", Format::Kif), ("KI2", Format::Ki2)] {
        let written = timed(&format!("write {name}"), Duration::from_secs(60), || {
            if format == Format::Kif {
                written::text(&record, Target::Kif)
            } else {
                written::text(&record, Target::Ki2)
            }
        });
        let again = timed(
            &format!("read {name} back"),
            Duration::from_secs(60),
            || read_one(&written, format),
        );
        assert_eq!(
            again.tree.children(NodeId::ROOT).count(),
            count + 1,
            "{name}"
        );
    }
}

#[test]
fn ten_thousand_variations_of_the_first_move() {
    many_first_move_variations(10_000);
}

/// `count` sibling variations at one ply, read from KIF, KI2 and JKF: time
/// linear in the number of siblings (each is added to the end of the
/// sibling list without walking it). Returns the slowest read.
fn sibling_variations(count: usize) -> Duration {
    let record = read_one(&first_move_variations(count), Format::Kif);
    assert_eq!(record.tree.children(NodeId::ROOT).count(), count + 1);
    let mut slowest = Duration::ZERO;
    for (name, format, text) in [
        ("KIF", Format::Kif, written::text(&record, Target::Kif)),
        ("KI2", Format::Ki2, written::text(&record, Target::Ki2)),
        ("JKF", Format::Jkf, written::text(&record, Target::Jkf)),
    ] {
        let start = Instant::now();
        let again = read_one(&text, format);
        let took = start.elapsed();
        eprintln!(
            "  {count} sibling variations of move 1 in {name} ({} bytes): read in {:.3} s",
            text.len(),
            took.as_secs_f64()
        );
        let firsts = |r: &Record| -> Vec<Move> {
            r.tree
                .children(NodeId::ROOT)
                .map(|id| r.tree.node(id).mv.unwrap())
                .collect()
        };
        assert_eq!(firsts(&again), firsts(&record), "{name}");
        slowest = slowest.max(took);
    }
    slowest
}

#[test]
fn two_thousand_sibling_variations() {
    sibling_variations(2_000);
}

#[test]
#[ignore = "measures time: run with --release -- --ignored --nocapture"]
fn forty_thousand_sibling_variations_in_a_second() {
    let slowest = sibling_variations(40_000);
    let bound = if cfg!(debug_assertions) { 20 } else { 1 };
    assert!(
        slowest < Duration::from_secs(bound),
        "40,000 sibling variations took {slowest:?}"
    );
}

/// A line of `plies` plies with one variation at every ply (`変化：N手` for
/// N = 1 … plies, in that order): the two kings walk up and down an empty
/// board, and each variation steps aside instead (a king always has a
/// second move there).
fn variation_at_every_ply(plies: usize) -> (String, Vec<Move>) {
    let mainline = king_walk(plies);
    let mut out = ki2_board_kings();
    out.push_str("手数----指手---------消費時間--\n");
    let start = Position::from_sfen(KINGS).unwrap();
    let mut pos = start.clone();
    let mut alternatives = Vec::with_capacity(plies);
    for (i, mv) in written::kif_moves(&start, &mainline).iter().enumerate() {
        let aside = pos
            .legal_moves()
            .into_iter()
            .find(|&m| m != mainline[i])
            .expect("a king has two moves");
        // A king never moves to the square the other king just left for
        // (the kings would touch): no move here is written with 同.
        alternatives.push(written::kif_moves(&pos, &[aside]).remove(0));
        out.push_str(&format!("{:>4} {mv}\n", i + 1));
        pos.play_unchecked(mainline[i]);
    }
    for (i, mv) in alternatives.iter().enumerate() {
        out.push_str(&format!("\n変化：{}手\n{:>4} {mv}\n", i + 1, i + 1));
    }
    (out, mainline)
}

fn variations_along_a_long_line(plies: usize) -> Duration {
    let (text, moves) = variation_at_every_ply(plies);
    let start = Instant::now();
    let record = read_one(&text, Format::Kif);
    let took = start.elapsed();
    assert_eq!(mainline(&record), moves);
    assert_eq!(record.tree.len(), 2 * plies + 1);
    took
}

#[test]
fn a_thousand_variations_along_a_line() {
    variations_along_a_long_line(1_000);
}

#[test]
#[ignore = "measures scaling: run with --release -- --ignored --nocapture"]
fn ten_thousand_variations_along_a_line_scaling() {
    for plies in [1_000, 2_000, 4_000, 8_000, 10_000] {
        let took = variations_along_a_long_line(plies);
        eprintln!(
            "  {plies} variations, one at each ply of a {plies}-ply line: read in {:.3} s",
            took.as_secs_f64()
        );
    }
}

// ---------------------------------------------------------------------------
// Variations nested deep

/// Variations nested `depth` deep: line 0 is two moves; line k branches at
/// ply k+1 from line k-1's last move and adds one more move. The two kings
/// walk an empty board, each move the one nearest the centre (a king there
/// always has a second move to branch with). Returns the KIF text (written
/// line by line, not by the KIF writer), the mainline and the path of the
/// deepest line.
fn nested_variations(depth: usize) -> (String, Vec<Move>, Vec<Move>) {
    let pick = |pos: &Position, avoid: Option<Move>| {
        let centre = |m: &Move| {
            let to = m.to();
            (i32::from(to.file()) - 5).abs() + (i32::from(to.rank()) - 5).abs()
        };
        pos.legal_moves()
            .into_iter()
            .filter(|&m| Some(m) != avoid)
            .min_by_key(centre)
            .expect("a king near the centre has two moves")
    };
    // The kings never take each other's square, so no move is written
    // with 同 and the move before (`previous`) changes nothing.
    let text_of = |pos: &Position, mv: Move, previous: Option<Move>| {
        assert!(previous.is_none_or(|p| p.to() != mv.to()));
        written::kif_moves(pos, &[mv]).remove(0)
    };
    let mut out = ki2_board_kings();
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = Position::from_sfen(KINGS).unwrap();
    // Line 0.
    let first = pick(&pos, None);
    out.push_str(&format!("   1 {}\n", text_of(&pos, first, None)));
    pos.play_unchecked(first);
    let mut last = pick(&pos, None);
    out.push_str(&format!("   2 {}\n", text_of(&pos, last, Some(first))));
    let main = vec![first, last];
    // `pos` is the position before the previous line's last move `last`;
    // `path` leads to it.
    let mut path = vec![first];
    for k in 1..=depth {
        let ply = k + 1;
        let branch = pick(&pos, Some(last));
        let text = text_of(&pos, branch, path.last().copied());
        out.push_str(&format!("\n変化：{ply}手\n{ply:>4} {text}\n"));
        pos.play_unchecked(branch);
        path.push(branch);
        last = pick(&pos, None);
        let text = text_of(&pos, last, Some(branch));
        out.push_str(&format!("{:>4} {text}\n", ply + 1));
    }
    path.push(last);
    (out, main, path)
}

/// The line that takes the last child at every node.
fn last_child_path(record: &Record) -> Vec<Move> {
    let tree = &record.tree;
    let mut out = Vec::new();
    let mut at = NodeId::ROOT;
    while let Some(child) = tree.children(at).last() {
        out.push(tree.node(child).mv.unwrap());
        at = child;
    }
    out
}

fn deep_variations(depth: usize, print: bool) -> Duration {
    let (text, main, path) = nested_variations(depth);
    let start = Instant::now();
    let record = read_one(&text, Format::Kif);
    let took = start.elapsed();
    assert_eq!(record.tree.len(), 2 * depth + 3);
    assert_eq!(mainline(&record), main);
    assert_eq!(last_child_path(&record), path);
    // The writers that keep variations must not recurse either.
    for (name, format) in [("KIF", Format::Kif), ("KI2", Format::Ki2)] {
        let start = Instant::now();
        let written = match format {
            Format::Kif => written::text(&record, Target::Kif),
            _ => written::text(&record, Target::Ki2),
        };
        let write = start.elapsed();
        let start = Instant::now();
        let again = read_one(&written, format);
        let read = start.elapsed();
        assert_eq!(again.tree.len(), 2 * depth + 3, "{name}");
        assert_eq!(last_child_path(&again), path, "{name}");
        if print {
            eprintln!(
                "    {name}: written in {:.3} s, read back in {:.3} s",
                write.as_secs_f64(),
                read.as_secs_f64()
            );
        }
    }
    // JKF nests forks in JSON: written without recursion; the reader stops
    // at 1,024 levels of JSON (forks about 340 deep) with a clear error,
    // never a crash.
    let written = written::text(&record, Target::Jkf);
    match read_text(&written, Format::Jkf) {
        Ok(again) => assert_eq!(last_child_path(&again[0]), path, "JKF"),
        Err(e) => {
            let message = e.render("deep.jkf");
            assert!(depth > 300, "{message}");
            assert!(
                message.contains("nested more than 1024 levels"),
                "{message}"
            );
            if print {
                eprintln!("    JKF written; reading it back: {}", e);
            }
        }
    }
    took
}

#[test]
fn variations_nested_a_thousand_deep() {
    deep_variations(1_000, false);
}

/// As deep as JKF goes (forks within forks, 1,024 levels of JSON), read on
/// a test thread's small stack.
#[test]
fn variations_nested_as_deep_as_jkf_allows() {
    deep_variations(330, false);
}

#[test]
#[ignore = "measures scaling: run with --release -- --ignored --nocapture"]
fn variations_nested_ten_thousand_deep_scaling() {
    for depth in [1_000, 2_000, 4_000, 8_000, 10_000] {
        eprintln!("  nested {depth} deep:");
        let took = deep_variations(depth, true);
        eprintln!("    KIF read in {:.3} s", took.as_secs_f64());
    }
    report_peak("nested variations");
}

// ---------------------------------------------------------------------------
// One very long line

/// Kings walking back and forth on an otherwise empty board, `n` plies.
const KINGS: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
const KING_WALK: [&str; 4] = ["5i5h", "5a5b", "5h5i", "5b5a"];

fn king_walk(n: usize) -> Vec<Move> {
    (0..n)
        .map(|i| Move::from_usi(KING_WALK[i % 4]).unwrap())
        .collect()
}

/// One line of about `bytes` bytes in each format that allows many moves on
/// a line (USI, KI2, CSA with commas, Western): each reads as one game
/// with every move.
fn one_long_line(bytes: usize) {
    let plies = bytes / 5;
    let moves = king_walk(plies);
    let usi = format!("position sfen {KINGS} moves {}\n", {
        let v: Vec<&str> = (0..plies).map(|i| KING_WALK[i % 4]).collect();
        v.join(" ")
    });
    let ki2_moves = ["▲５八玉", "△５二玉", "▲５九玉", "△５一玉"];
    let mut ki2_text = ki2_board_kings();
    for i in 0..plies / 2 {
        ki2_text.push_str(ki2_moves[i % 4]);
    }
    ki2_text.push('\n');
    let csa_moves = ["+5958OU", "-5152OU", "+5859OU", "-5251OU"];
    let mut csa_text = String::from("V2.2\nP1 *  *  *  *  -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  +OU *  *  *  * \n+\n");
    let csa_plies = plies / 2;
    let csa_list: Vec<&str> = (0..csa_plies).map(|i| csa_moves[i % 4]).collect();
    csa_text.push_str(&csa_list.join(","));
    csa_text.push('\n');
    let western_moves = ["K-5h", "K-5b", "K-5i", "K-5a"];
    let mut western_text = format!("[SFEN \"{KINGS}\"]\n");
    let western_plies = plies / 2;
    for i in 0..western_plies {
        if i % 2 == 0 {
            western_text.push_str(&format!("{}. ", i / 2 + 1));
        }
        western_text.push_str(western_moves[i % 4]);
        western_text.push(' ');
    }
    western_text.push('\n');
    for (name, format, text, n) in [
        ("USI", Format::Usi, &usi, plies),
        ("KI2", Format::Ki2, &ki2_text, plies / 2),
        ("CSA", Format::Csa, &csa_text, csa_plies),
        ("Western", Format::Western, &western_text, western_plies),
    ] {
        let longest = text.lines().map(str::len).max().unwrap();
        let record = timed(
            &format!("{name}: a {longest}-byte line of {n} moves"),
            Duration::from_secs(120),
            || read_one(text, format),
        );
        assert_eq!(mainline(&record), moves[..n], "{name}");
    }
    // Junk on one line: an error, whatever the reader.
    let junk = "歩".repeat(bytes / 3);
    for format in READERS {
        let result = timed(
            &format!("{format:?}: a {}-byte line of junk", junk.len()),
            Duration::from_secs(120),
            || {
                read_bytes(
                    junk.as_bytes(),
                    Path::new("junk"),
                    format,
                    Default::default(),
                )
            },
        );
        match result {
            Err(e) => {
                let rendered = e.render("junk");
                eprintln!("    error: {e} (rendered: {} bytes)", rendered.len());
            }
            Ok(read) => {
                // A reader may keep a line it does not understand, with a
                // warning: nothing is dropped silently, and there are no moves.
                assert!(!read.errors.is_empty() || !read.records.is_empty());
                for record in &read.records {
                    assert!(record.tree.is_empty(), "{format:?}: moves from junk");
                    assert!(
                        !record.warnings.is_empty(),
                        "{format:?}: junk kept silently"
                    );
                }
                eprintln!(
                    "    read with {} warnings",
                    read.records.iter().map(|r| r.warnings.len()).sum::<usize>()
                );
            }
        }
    }
    report_peak("one long line");
}

/// A KI2 start with the two kings alone (a board diagram).
fn ki2_board_kings() -> String {
    written::ki2_board(&Position::from_sfen(KINGS).unwrap())
}

#[test]
fn a_line_of_a_hundred_kilobytes() {
    one_long_line(100_000);
}

#[test]
#[ignore = "slow in debug: run with --release -- --ignored"]
fn a_line_of_ten_megabytes() {
    one_long_line(10_000_000);
}

// ---------------------------------------------------------------------------
// A huge input

/// A KIF of `bytes` bytes: a short game whose first move carries that many
/// bytes of comment lines.
fn kif_with_comments(bytes: usize) -> (Vec<u8>, usize) {
    let mut text = String::with_capacity(bytes + 200);
    text.push_str(KIF_HEAD);
    text.push_str("   1 ７六歩(77)\n");
    let line = "*これはとても長い棋譜のコメントの一行です。0123456789\n";
    let mut lines = 0;
    while text.len() + line.len() < bytes {
        text.push_str(line);
        lines += 1;
    }
    text.push_str("   2 ３四歩(33)\n   3 投了\n");
    (text.into_bytes(), lines)
}

/// USI lines, one short game each, `bytes` bytes in all.
fn many_usi_games(bytes: usize) -> (Vec<u8>, usize) {
    let game = usi_line(&random_line(40, &mut Rng::new(7)));
    let games = bytes / game.len();
    (game.repeat(games).into_bytes(), games)
}

fn huge_input(bytes: usize) {
    let (kif_bytes, lines) = kif_with_comments(bytes);
    let read = timed(
        &format!("KIF of {} bytes", kif_bytes.len()),
        Duration::from_secs(300),
        || read_named(&kif_bytes, "huge.kif").unwrap(),
    );
    let record = &read.records[0];
    assert_eq!(mainline(record).len(), 2);
    let first = record.tree.children(NodeId::ROOT).next().unwrap();
    assert_eq!(record.tree.node(first).comments().len(), lines);
    drop(read);
    report_peak("huge KIF");
    let (usi_bytes, games) = many_usi_games(bytes);
    let read = timed(
        &format!("{games} USI games, {} bytes", usi_bytes.len()),
        Duration::from_secs(300),
        || read_named(&usi_bytes, "huge.usi").unwrap(),
    );
    assert_eq!(read.records.len(), games);
    assert!(read.errors.is_empty());
    assert!(read.records.iter().all(|r| r.tree.len() == 41));
    drop(read);
    report_peak("huge USI");
}

#[test]
fn an_input_of_a_megabyte() {
    huge_input(1 << 20);
}

#[test]
#[ignore = "slow and memory-hungry: run with --release -- --ignored"]
fn an_input_of_a_hundred_megabytes() {
    huge_input(100 << 20);
}

/// `/` lines, `bytes` bytes in all, after `before`.
fn separators(before: &str, bytes: usize) -> Vec<u8> {
    let mut out = before.as_bytes().to_vec();
    out.extend("/\n".repeat(bytes.saturating_sub(before.len()) / 2).bytes());
    out
}

/// A CSA text of nothing but `/` lines is a clear error (no game), and one
/// game followed by them is that game with a capped count of warnings
/// about the empty games: no record and no warning kept per `/`.
fn csa_of_separators(bytes: usize) {
    let only = separators("", bytes);
    let error = timed(
        &format!("CSA of {} bytes of `/` lines", only.len()),
        Duration::from_secs(60),
        || read_named(&only, "slashes.csa").unwrap_err(),
    );
    assert_eq!((error.location.line, error.location.column), (1, 1));
    let count = only.len() / 2;
    assert!(
        error.message.contains(&format!("({count} empty games)")),
        "{}",
        error.render("slashes.csa")
    );
    let after_a_game = separators("PI\n+\n+7776FU\n", bytes);
    let read = timed(
        &format!("a CSA game and {} bytes of `/` lines", after_a_game.len()),
        Duration::from_secs(60),
        || read_named(&after_a_game, "slashes.csa").unwrap(),
    );
    assert_eq!(read.records.len(), 1);
    assert!(read.errors.is_empty());
    let warnings = &read.records[0].warnings;
    assert_eq!(warnings.len(), 11, "{warnings:?}");
    // The first `/` ends the game; ten empty games are reported one by one.
    let slashes = after_a_game.iter().filter(|&&b| b == b'/').count();
    let more = slashes - 1 - 10;
    assert!(
        warnings[10]
            .message
            .starts_with(&format!("and {more} more empty games")),
        "{}",
        warnings[10]
    );
    report_peak("CSA of `/` lines");
}

#[test]
fn csa_of_a_megabyte_of_separators() {
    csa_of_separators(1 << 20);
}

/// The binary on 64 MiB (the default input limit) of `/` lines, alone and
/// after a game: under 5 s and 200 MiB in release.
#[test]
#[ignore = "writes two 64 MiB files: run with --release -- --ignored"]
fn the_binary_and_sixty_four_mebibytes_of_separators() {
    let dir = scratch("slashes");
    let size = 64 << 20;
    for (name, before, code) in [("only.csa", "", 1), ("after.csa", "PI\n+\n+7776FU\n", 0)] {
        let path = dir.join(name);
        std::fs::write(&path, separators(before, size)).unwrap();
        let (out, mib, took) = kifconv_timed(name, &[s(&path), "--to", "usi"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(err.lines().count() < 40, "{err}");
        if code == 1 {
            assert!(err.contains("no game"), "{err}");
        } else {
            assert!(err.contains("more empty games"), "{err}");
        }
        if !cfg!(debug_assertions) {
            assert!(took < Duration::from_secs(5), "{name}: {took:?}");
            if let Some(mib) = mib {
                assert!(mib < 200, "{name}: {mib} MiB");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The binary refuses an input past --max-input-size, naming the limit, and
/// goes on with the other inputs.
#[test]
fn the_binary_refuses_an_input_past_the_size_limit() {
    let dir = scratch("too-big");
    let (bytes, _) = kif_with_comments(20_000);
    std::fs::write(dir.join("big.kif"), &bytes).unwrap();
    std::fs::write(dir.join("small.usi"), "position startpos moves 7g7f\n").unwrap();
    let out = run(&[
        s(&dir.join("big.kif")),
        s(&dir.join("small.usi")),
        "--max-input-size",
        "10000",
        "-q",
    ]);
    assert_exit(&out, 1);
    assert_contains(&stderr(&out), "larger than the limit of 10000 bytes");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "position startpos moves 7g7f\n"
    );
    // Standard input too.
    let out = run_with_input(
        &["-", "--from", "kif", "--max-input-size", "10000", "-q"],
        &bytes,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&stderr(&out), "larger than the limit of 10000 bytes");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "writes a 100 MB file: run with --release -- --ignored"]
fn the_binary_and_a_hundred_megabyte_file() {
    let dir = scratch("huge-cli");
    let (bytes, _) = kif_with_comments(100 << 20);
    let path = dir.join("huge.kif");
    std::fs::write(&path, &bytes).unwrap();
    drop(bytes);
    // Past the default limit (64 MiB): refused, quickly, in little memory.
    let (out, _, _) = kifconv_timed("default limit", &[s(&path), "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("larger than the limit of 67108864 bytes"));
    // With the limit raised: converted.
    let (out, _, _) = kifconv_timed(
        "limit raised",
        &[
            s(&path),
            "-q",
            "--max-input-size",
            "200000000",
            "--to",
            "usi",
        ],
    );
    assert_exit(&out, 0);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "position startpos moves 7g7f 3c3d\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// Zip archives

const TINY_GAME: &[u8] = b"position startpos moves 7g7f 3c3d\n";

fn zip_of_tiny_games(path: &Path, entries: usize) {
    let file = std::fs::File::create(path).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..entries {
        zip.start_file(format!("games/{:03}/{i:06}.usi", i / 1000), options)
            .unwrap();
        zip.write_all(TINY_GAME).unwrap();
    }
    zip.finish().unwrap();
}

fn zip_with_many_entries(entries: usize) {
    let dir = scratch(&format!("zip-{entries}"));
    let archive = dir.join("many.zip");
    timed("build the zip", Duration::from_secs(300), || {
        zip_of_tiny_games(&archive, entries)
    });
    let out_dir = dir.join("out");
    let (out, _, _) = kifconv_timed(
        &format!("{entries} entries converted"),
        &[
            s(&archive),
            "-o",
            s(&out_dir),
            "-q",
            "--to",
            "usi",
            "-j",
            "1",
        ],
    );
    assert_exit(&out, 0);
    assert_eq!(under(&out_dir, &[]).len(), entries);
    let one = std::fs::read(out_dir.join("games/000/000000.usi")).unwrap();
    assert_eq!(one, TINY_GAME);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_zip_with_a_thousand_entries() {
    zip_with_many_entries(1_000);
}

#[test]
#[ignore = "writes 100,000 files: run with --release -- --ignored"]
fn a_zip_with_a_hundred_thousand_entries() {
    zip_with_many_entries(100_000);
}

/// A zip whose one entry inflates to `size` zero bytes (a few hundred
/// kilobytes compressed). With `lie`, the headers claim 34 bytes.
fn zip_bomb(path: &Path, size: usize, lie: bool) {
    let file = std::fs::File::create(path).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(false);
    zip.start_file("bomb.kif", options).unwrap();
    let chunk = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        zip.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    zip.start_file("fine.usi", options).unwrap();
    zip.write_all(TINY_GAME).unwrap();
    zip.finish().unwrap();
    if lie {
        // Patch the uncompressed size of bomb.kif in its local header
        // (offset 22) and its central directory record (offset 24).
        let mut bytes = std::fs::read(path).unwrap();
        let fake = (TINY_GAME.len() as u32).to_le_bytes();
        assert_eq!(&bytes[..4], b"PK\x03\x04");
        bytes[22..26].copy_from_slice(&fake);
        let central = bytes
            .windows(4)
            .position(|w| w == b"PK\x01\x02")
            .expect("a central directory");
        bytes[central + 24..central + 28].copy_from_slice(&fake);
        std::fs::write(path, bytes).unwrap();
    }
}

fn refuses_a_zip_bomb(size: usize, limit: Option<u64>, lie: bool) {
    let dir = scratch(&format!("bomb-{size}-{lie}"));
    let archive = dir.join("bomb.zip");
    zip_bomb(&archive, size, lie);
    let compressed = std::fs::metadata(&archive).unwrap().len();
    let mut args = vec![s(&archive).to_string(), "-q".into()];
    if let Some(limit) = limit {
        args.push("--max-input-size".into());
        args.push(limit.to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let what = format!(
        "{size} bytes in a {compressed}-byte zip (sizes {})",
        if lie { "lied about" } else { "true" }
    );
    let (out, mib, _) = kifconv_timed(&what, &args);
    let err = stderr(&out);
    let limit = limit.unwrap_or(64 << 20);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Past the limit, or (when the headers lie) past the declared size,
    // which the zip reader checks first: refused either way.
    let refused = err.contains(&format!("than the limit of {limit} bytes"))
        || (lie && err.contains("larger than its declared uncompressed size"));
    assert!(err.contains("bomb.kif") && refused, "{err}");
    // The other entry is still converted.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "position startpos moves 7g7f 3c3d\n"
    );
    if let Some(mib) = mib {
        // The limit, one copy of the entry, and the program itself.
        assert!(
            mib < 64 + 2 * (limit >> 20),
            "peak {mib} MiB for a limit of {limit} bytes"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_zip_bomb_is_refused_past_the_limit() {
    refuses_a_zip_bomb(8 << 20, Some(1 << 20), false);
}

#[test]
fn a_zip_bomb_that_lies_about_its_size_is_refused() {
    refuses_a_zip_bomb(8 << 20, Some(1 << 20), true);
}

#[test]
#[ignore = "inflates 200 MB: run with --release -- --ignored"]
fn a_two_hundred_megabyte_zip_bomb_is_refused() {
    refuses_a_zip_bomb(200 << 20, None, false);
    refuses_a_zip_bomb(200 << 20, None, true);
}

// ---------------------------------------------------------------------------
// Binary junk and broken encodings

fn junk_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let random: Vec<u8> = (0..65_536).map(|_| rng.next() as u8).collect();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&random[..4096]);
    let mut elf = b"\x7fELF\x02\x01\x01\0".to_vec();
    elf.extend_from_slice(&[0u8; 4096]);
    elf.extend_from_slice(&random[..4096]);
    let kif = "手合割：平手\n   1 ７六歩(77)\n";
    vec![
        ("random bytes", random),
        ("zeros", vec![0; 65_536]),
        ("0xff", vec![0xff; 65_536]),
        ("PNG header", png),
        ("ELF header", elf),
        // UTF-16 without its mark reads (below) when it decodes cleanly;
        // with a final odd byte it does not, and is refused with a guess.
        (
            "UTF-16LE KIF without a BOM, cut",
            [utf16(kif, false), b"A".to_vec()].concat(),
        ),
        (
            "UTF-16BE KIF without a BOM, cut",
            [utf16(kif, true), b"A".to_vec()].concat(),
        ),
        ("a lone CR", b"\r".to_vec()),
        ("blank lines", b"\n \r\n\t\n".to_vec()),
        ("empty", Vec::new()),
    ]
}

/// Binary junk, empty or blank input and damaged UTF-16 without its
/// byte-order mark, read with sniffing and with every reader: a located error saying
/// this is not a game record (never an empty game), never a panic.
#[test]
fn binary_junk_is_an_error() {
    for (name, bytes) in junk_inputs() {
        for format in READERS {
            let error = match read_bytes(&bytes, Path::new("junk.kif"), format, Default::default())
            {
                Err(error) => error,
                Ok(read) => panic!(
                    "{name} as {format:?}: {} games, {} errors",
                    read.records.len(),
                    read.errors.len()
                ),
            };
            let rendered = error.render("junk.kif");
            assert!(
                rendered.starts_with(&format!(
                    "junk.kif:{}:{}: error: this is not a game record: ",
                    error.location.line, error.location.column
                )),
                "{name} as {format:?}: {rendered}"
            );
            assert!(error.location.line >= 1 && error.location.column >= 1);
            if name.starts_with("UTF-16") {
                let endian = if name.starts_with("UTF-16LE") {
                    "LE"
                } else {
                    "BE"
                };
                assert!(
                    rendered.contains(&format!("UTF-16 {endian} without a byte-order mark")),
                    "{rendered}"
                );
            }
        }
    }
}

/// The same KIF in UTF-16, with or without its byte-order mark, either
/// way round, reads.
#[test]
fn utf16_with_or_without_a_byte_order_mark_reads() {
    let kif = "手合割：平手\r\n   1 ７六歩(77)\r\n   2 ３四歩(33)\r\n";
    for (bom, big_endian, name) in [
        (&b"\xff\xfe"[..], false, "UTF-16LE"),
        (&b"\xfe\xff"[..], true, "UTF-16BE"),
        (&b""[..], false, "UTF-16LE"),
        (&b""[..], true, "UTF-16BE"),
    ] {
        let bytes = [bom, &utf16(kif, big_endian)].concat();
        let read = read_named(&bytes, "utf16.kif").unwrap();
        assert_eq!(read.encoding.name(), name);
        assert_eq!(
            written::usi_line(&read.records[0]),
            "position startpos moves 7g7f 3c3d"
        );
        assert!(read.records[0].warnings.is_empty());
    }
}

/// The binary on a junk file: an error for that file, exit status 1.
#[test]
fn the_binary_on_binary_junk() {
    let dir = scratch("junk");
    for (i, (name, bytes)) in junk_inputs().into_iter().enumerate() {
        let path = dir.join(format!("junk{i}.kif"));
        std::fs::write(&path, &bytes).unwrap();
        let out = run(&[s(&path), "-q"]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("error: this is not a game record: "),
            "{name}: {}",
            stderr(&out)
        );
        assert!(
            !stderr(&out).contains("panicked"),
            "{name}: {}",
            stderr(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether printed text is safe for a terminal: no control byte but line
/// feeds.
fn no_control_bytes(text: &str) -> bool {
    text.bytes().all(|b| (b >= 0x20 && b != 0x7f) || b == b'\n') && !text.contains('\u{9b}')
}

/// Terminal escape sequences in an input (and in a file name) come out of
/// errors and warnings escaped, in the library and through the binary.
#[test]
fn escape_sequences_in_the_input_are_never_echoed() {
    let error_input = "PI\n+\n+7776FU\u{1b}[2J\u{1b}]0;owned\u{7}\n";
    let error = read_named(error_input.as_bytes(), "e.csa").unwrap_err();
    let rendered = error.render("dir/\u{1b}[31mred.csa");
    assert!(no_control_bytes(&rendered), "{rendered:?}");
    assert!(
        rendered.contains("\\x1b[2J\\x1b]0;owned\\x07"),
        "{rendered}"
    );
    assert!(
        rendered.starts_with("dir/\\x1b[31mred.csa:3:1: error: "),
        "{rendered}"
    );

    let warning_input = "PI\n+\n+7776FU\n%\u{1b}[31mBOOM\u{9b}0m\n";
    let read = read_named(warning_input.as_bytes(), "w.csa").unwrap();
    let warnings = &read.records[0].warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    for printed in [
        warnings[0].render("w\u{1b}.csa"),
        warnings[0].to_string(),
        warnings[0].text.clone(),
        warnings[0].message.clone(),
    ] {
        assert!(no_control_bytes(&printed), "{printed:?}");
    }
    assert!(warnings[0]
        .render("w.csa")
        .contains("\\x1b[31mBOOM\\u{9b}0m"));

    let dir = scratch("escapes");
    for (name, input, code) in [("e.csa", error_input, 1), ("w.csa", warning_input, 0)] {
        let path = dir.join(name);
        std::fs::write(&path, input).unwrap();
        let out = run(&[s(&path), "--to", "usi"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(err.contains("\\x1b["), "{err}");
        assert!(no_control_bytes(&err), "{name}: {err:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn cp932(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!unmappable);
    bytes.into_owned()
}

/// A CP932 file cut in the middle of its last character (a comment): the
/// record reads whole, with a warning about the replaced byte.
#[test]
fn cp932_cut_in_the_middle_of_a_character() {
    let text = format!("{KIF_HEAD}   1 ７六歩(77)\n   2 ３四歩(33)\n*対局後のコメント");
    let mut bytes = cp932(&text);
    bytes.pop();
    assert!(bytes.last().unwrap() >= &0x81, "cut after a lead byte");
    let read = read_named(&bytes, "cut.kif").unwrap();
    assert_eq!(read.encoding.name(), "Shift_JIS (CP932)");
    let record = &read.records[0];
    assert_eq!(
        written::usi_line(record),
        "position startpos moves 7g7f 3c3d"
    );
    let last = record.tree.mainline_end();
    assert_eq!(
        record.tree.node(last).comments(),
        ["対局後のコメン\u{FFFD}"]
    );
    let warning = record
        .warnings
        .iter()
        .find(|w| w.message.contains("U+FFFD"))
        .expect("a warning about the replaced byte");
    assert_eq!((warning.line, warning.column), (5, 9), "{warning}");
}

/// Cut in a header value: still read, with the warning.
#[test]
fn cp932_cut_in_a_header() {
    let mut bytes = cp932("先手：羽生");
    bytes.pop();
    bytes.extend(cp932(&format!("\n{KIF_HEAD}   1 ７六歩(77)\n")));
    let read = read_named(&bytes, "cut.kif").unwrap();
    let record = &read.records[0];
    assert_eq!(record.header("先手"), Some("羽\u{FFFD}"));
    assert!(record
        .warnings
        .iter()
        .any(|w| w.message.contains("U+FFFD") && w.line == 1));
}

/// Cut in the middle of a move, the last line: the moves before it are
/// kept, with a warning at the line that says it ends inside it.
#[test]
fn cp932_cut_in_a_move_keeps_the_moves_before() {
    let text = format!("{KIF_HEAD}   1 ７六歩(77)\n   2 ３四歩");
    let mut bytes = cp932(&text);
    bytes.pop();
    let read = read_named(&bytes, "cut.kif").unwrap();
    let record = &read.records[0];
    assert_eq!(written::usi_line(record), "position startpos moves 7g7f");
    assert!(
        record
            .warnings
            .iter()
            .any(|w| w.line == 4 && w.message.starts_with("the text ends inside this line")),
        "{:?}",
        record.warnings
    );
    // Cut in a move with more after it: an error, as before.
    let text = format!("{KIF_HEAD}   1 ７六歩(77)\n   2 ３四\n   3 ２六歩(27)\n");
    let err = read_named(&cp932(&text), "cut.kif").expect_err("a move cut in half");
    assert_eq!(err.location.line, 4, "{}", err.render("cut.kif"));
}

// ---------------------------------------------------------------------------
// A no-panic check for CI: mutated fixtures of every format

/// Every fixture file (good and bad) with the format its extension names.
fn fixture_files() -> Vec<(PathBuf, Option<Format>)> {
    under(&fixtures(), &["jkf-schema"])
        .into_iter()
        .filter_map(|path| Some((path.clone(), Some(Format::from_extension(&path)?))))
        .collect()
}

/// Edits a file the way a careless editor, a bad transfer or a fuzzer
/// would: bytes replaced, inserted or deleted, lines deleted, duplicated
/// or swapped, the tail cut, a piece of another file spliced in.
fn mutate(bytes: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(out.len() + 1);
        match rng.below(9) {
            0 if at < out.len() => out[at] = rng.next() as u8,
            1 => out.insert(at, rng.next() as u8),
            2 if at < out.len() => {
                out.remove(at);
            }
            3..=5 => {
                let mut lines: Vec<Vec<u8>> = out
                    .split_inclusive(|&b| b == b'\n')
                    .map(<[u8]>::to_vec)
                    .collect();
                if lines.is_empty() {
                    continue;
                }
                let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                match rng.below(3) {
                    0 => {
                        lines.remove(i);
                    }
                    1 => {
                        let line = lines[i].clone();
                        lines.insert(j, line);
                    }
                    _ => lines.swap(i, j),
                }
                out = lines.concat();
            }
            6 => out.truncate(at),
            7 if !other.is_empty() => {
                let from = rng.below(other.len());
                let len = rng.below(other.len() - from + 1).min(200);
                out.splice(at..at, other[from..from + len].iter().copied());
            }
            _ => {
                // An ASCII digit changed: move numbers, squares, counts.
                if let Some(pos) = (at..out.len()).find(|&i| out[i].is_ascii_digit()) {
                    out[pos] = b'0' + rng.below(10) as u8;
                }
            }
        }
    }
    out
}

/// Every reader, and sniffing (`None`).
const READERS: [Option<Format>; 7] = [
    Some(Format::Kif),
    Some(Format::Ki2),
    Some(Format::Csa),
    Some(Format::Usi),
    Some(Format::Western),
    Some(Format::Jkf),
    None,
];

/// What the fuzz targets check, on one input: every reader answers with
/// records or an error whose rendering works; every record read as its
/// own format is written by every writer and reads back with the same
/// start and mainline.
fn check_input(bytes: &[u8], own: Option<Format>) {
    for format in READERS {
        let result = read_bytes(bytes, Path::new("mutated"), format, Default::default());
        let read = match result {
            Ok(read) => read,
            Err(e) => {
                let _ = e.render("mutated");
                continue;
            }
        };
        for e in &read.errors {
            let _ = e.render("mutated");
        }
        if format != own {
            continue;
        }
        for record in &read.records {
            let moves = mainline(record);
            let start = record.start.sfen();
            let start = start.rsplit_once(' ').map_or(start.as_str(), |(s, _)| s);
            for (name, back_format, text) in [
                ("USI", Format::Usi, written::usi_line(record)),
                ("KIF", Format::Kif, written::text(record, Target::Kif)),
                ("KI2", Format::Ki2, written::text(record, Target::Ki2)),
                ("CSA", Format::Csa, written::text(record, Target::Csa)),
                (
                    "Western",
                    Format::Western,
                    written::text(record, Target::Western),
                ),
            ] {
                let back = read_text(&text, back_format).unwrap_or_else(|e| {
                    panic!(
                        "{name} output does not read back: {}\n{text}",
                        e.render("written")
                    )
                });
                assert_eq!(back.len(), 1, "{name}:\n{text}");
                assert_eq!(mainline(&back[0]), moves, "{name} mainline:\n{text}");
                let again = back[0].start.sfen();
                let again = again.rsplit_once(' ').map_or(again.as_str(), |(s, _)| s);
                assert_eq!(again, start, "{name} start:\n{text}");
            }
        }
    }
}

/// Mutated fixtures and random bytes through every reader and writer:
/// every fixture once, then `KIFCONV_NO_PANIC_CASES` mutants (default
/// 6000) from a fixed seed (`KIFCONV_SEED` varies it). A failing input is
/// saved and its path printed.
#[test]
fn mutated_fixtures_of_every_format_never_panic() {
    let mutants: usize = std::env::var("KIFCONV_NO_PANIC_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6000);
    let files: Vec<(Vec<u8>, Option<Format>)> = fixture_files()
        .into_iter()
        .map(|(path, format)| (std::fs::read(path).unwrap(), format))
        .collect();
    assert!(files.len() > 80);
    let mut rng = Rng::new(0x5eed_f00d);
    let start = Instant::now();
    // Every fixture once as it is, then the mutants.
    for case in 0..files.len() + mutants {
        let (bytes, own) = if case < files.len() {
            files[case].clone()
        } else if rng.below(10) == 0 {
            let len = rng.below(400);
            ((0..len).map(|_| rng.next() as u8).collect(), None)
        } else {
            let (base, own) = &files[rng.below(files.len())];
            let (other, _) = &files[rng.below(files.len())];
            (mutate(base, other, &mut rng), *own)
        };
        let outcome = std::panic::catch_unwind(|| check_input(&bytes, own));
        if outcome.is_err() {
            let path = std::env::temp_dir()
                .join(format!("kifconv-no-panic-{}-{case}", std::process::id()));
            std::fs::write(&path, &bytes).unwrap();
            panic!(
                "case {case} (read as {own:?}) failed; input saved to {}",
                path.display()
            );
        }
    }
    eprintln!(
        "  {} inputs in {:.1} s",
        files.len() + mutants,
        start.elapsed().as_secs_f64()
    );
}

// ---------------------------------------------------------------------------
// Huge numbers

/// KIF times with numbers too big for milliseconds in a u64: read without
/// an overflow (a panic in debug builds, a wrapped value in release), and
/// the same by the fast path (the standard `( m:ss/hh:mm:ss)` form) as by
/// the general one (the same numbers spaced out). Found by the read_kif
/// fuzz target.
#[test]
fn huge_kif_times_do_not_overflow() {
    let time_of = |column: &str| {
        let text = format!("{KIF_HEAD}   1 ７六歩(77)   {column}\n");
        let record = read_one(&text, Format::Kif);
        let first = record.tree.children(NodeId::ROOT).next().unwrap();
        record.tree.node(first).time
    };
    for (standard, spaced) in [
        (
            "( 0:02/4643711615777578097:00:04)",
            "( 0:02 / 4643711615777578097:00:04 )",
        ),
        (
            "(307445734561825861:00/00:00:00)",
            "(307445734561825861:00 / 00:00:00 )",
        ),
        (
            "( 0:99999999999999999/00:00:00)",
            "( 0:99999999999999999 / 00:00:00 )",
        ),
    ] {
        assert_eq!(time_of(standard), time_of(spaced), "{standard}");
    }
}
