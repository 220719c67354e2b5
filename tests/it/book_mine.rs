//! `kifconv book mine` with YaneuraOu (`../shared/tools/engines/engine.sh
//! material`): a book dug by two engines is flip-folded, its moves legal,
//! `book check --flip-fold` finds no fault and the engine plays from it;
//! a run interrupted by SIGINT and started again ends with the bytes of a
//! run never interrupted, and so does a run with two engines; no engine
//! process outlives kifconv.

use crate::book_engine::book_move;
use crate::util::bin::{command, s, scratch, stderr};
use crate::util::engines::{option_args, running, yaneuraou, YANEURAOU_OPTIONS};
use kifconv::book::{check, Book};
use kifconv::{Color, Move, Position};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// `book mine BOOK --engine ENGINE` with the engine options every test
/// passes (util::engines::YANEURAOU_OPTIONS), 2,000 nodes and MultiPV 2,
/// up to `max_ply` with `engines` engines, then `args`.
fn mine_args(
    book: &Path,
    engine: &Path,
    max_ply: &str,
    engines: &str,
    args: &[&str],
) -> Vec<String> {
    let mut all: Vec<String> = ["book", "mine", s(book), "--engine", s(engine)]
        .iter()
        .map(|a| a.to_string())
        .collect();
    all.extend(option_args(&YANEURAOU_OPTIONS));
    let search = [
        "--nodes",
        "2000",
        "--multipv",
        "2",
        "--max-ply",
        max_ply,
        "--engines",
        engines,
    ];
    all.extend(search.iter().chain(args).map(|a| a.to_string()));
    all
}

/// The process ids whose parent is `parent` now.
fn children(parent: u32) -> BTreeSet<u32> {
    let mut found = BTreeSet::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The parent's id is the second field after the command's `)`.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            found.insert(pid);
        }
    }
    found
}

/// Runs kifconv with `args`, noting every child process it has while it
/// runs; `interrupt` (if given) says when to send it SIGINT. Its output
/// and the children seen.
fn run_watched(args: &[String], interrupt: Option<&dyn Fn() -> bool>) -> (Output, BTreeSet<u32>) {
    let mut child = command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let mut seen = BTreeSet::new();
    let mut sent = false;
    let began = Instant::now();
    loop {
        seen.extend(children(pid));
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if !sent && interrupt.is_some_and(|now| now()) {
            let status = std::process::Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .status()
                .unwrap();
            assert!(status.success());
            sent = true;
        }
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "kifconv did not finish"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), seen)
}

/// Asserts that none of `pids` (engines kifconv started) still runs.
#[track_caller]
fn assert_ended(pids: &BTreeSet<u32>) {
    // The kernel may take a moment to reap an orphan.
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|&p| running(p)).collect();
    assert!(
        left.is_empty(),
        "engine processes outlived kifconv: {left:?}"
    );
}

/// Reads a mined book.
fn read(path: &Path) -> Book {
    let text = std::fs::read_to_string(path).unwrap();
    let read = check::read(&text).unwrap();
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    read.book
}

/// Asserts what a mined book must be: black-to-move positions only (so
/// none beside its rotation), each with moves that are legal there, a
/// legal ponder after its move, a value within the mate value and a
/// depth; and `book check --flip-fold` finds no fault.
#[track_caller]
fn assert_sound(path: &Path) -> Book {
    let book = read(path);
    assert!(!book.entries.is_empty());
    for (key, entry) in &book.entries {
        let pos = Position::from_sfen(&format!("{key} 1")).unwrap();
        assert_eq!(pos.side_to_move(), Color::Black, "{key}");
        assert!(!book.entries.contains_key(&kifconv::book::key(&pos.flip())));
        assert!(!entry.moves.is_empty(), "{key}");
        for m in &entry.moves {
            let mv = Move::from_usi(&m.mv).unwrap();
            let mut after = pos.clone();
            after
                .play(mv)
                .unwrap_or_else(|e| panic!("{key}: {}: {e}", m.mv));
            if let Some(ponder) = &m.ponder {
                after
                    .play(Move::from_usi(ponder).unwrap())
                    .unwrap_or_else(|e| panic!("{key}: {} {ponder}: {e}", m.mv));
            }
            assert!(m.value.abs() <= check::VALUE_MAX, "{key}: {m:?}");
            assert!(m.depth > 0 && m.count == 1, "{key}: {m:?}");
        }
    }
    let out = command()
        .args(["book", "check", "--flip-fold", s(path)])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    assert!(shown.contains("no faults"), "{shown}");
    book
}

/// The moves the book gives for `pos` (its rotation's, rotated back, for
/// white to move), with their values.
fn book_moves(book: &Book, pos: &Position) -> BTreeSet<(String, i32)> {
    let answer = kifconv::book::query::lookup(book, pos).expect("in the book");
    answer
        .moves
        .iter()
        .map(|m| (m.mv.clone(), m.value))
        .collect()
}

/// YaneuraOu plays `moves` from the start and answers `go` from the book
/// `user_book1.db` in `dir`: it lists the book's moves with their values
/// (lines of no node searched) and plays one of them. A raw session: the
/// engine's book PV ends with a word such as `(50.00%)`, which the USI
/// driver refuses as a move.
fn assert_engine_plays_from(engine: &Path, dir: &Path, book: &Book, moves: &[Move]) {
    let mut pos = Position::startpos();
    let mut position = "position startpos".to_string();
    for (i, &mv) in moves.iter().enumerate() {
        pos.play(mv).unwrap();
        position.push_str(if i == 0 { " moves " } else { " " });
        position.push_str(&mv.to_string());
    }
    let lines = book_move(engine, dir, "user_book1.db", false, &position);
    let shown = lines.join("\n");
    // Its book lines (searched no node): each move with its value.
    let listed: BTreeSet<(String, i32)> = lines
        .iter()
        .filter(|l| l.starts_with("info ") && l.contains(" nodes 0 "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = |w: &str| words.iter().position(|x| *x == w).unwrap() + 1;
            (
                words[at("pv")].to_string(),
                words[at("cp")].parse().unwrap(),
            )
        })
        .collect();
    let want = book_moves(book, &pos);
    assert_eq!(listed, want, "{shown}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(want.iter().any(|(m, _)| m == best), "{best}: {shown}");
}

/// The flip-folded keys of the positions `book`'s own moves reach from
/// the start up to `max_ply`, breadth-first, not going past a position
/// whose best value is beyond ±`eval_limit`.
fn reach(book: &Book, max_ply: u32, eval_limit: Option<i32>) -> BTreeSet<String> {
    let folded = |pos: &Position| match pos.side_to_move() {
        Color::Black => kifconv::book::key(pos),
        Color::White => kifconv::book::key(&pos.flip()),
    };
    let mut reached = BTreeSet::new();
    let mut level = vec![Position::startpos()];
    for ply in 1..=max_ply {
        let mut next = Vec::new();
        for pos in &level {
            if !reached.insert(folded(pos)) || ply == max_ply {
                continue;
            }
            let moves = book_moves(book, pos);
            let best = moves.iter().map(|(_, v)| *v).max().unwrap();
            if eval_limit.is_some_and(|limit| best.abs() > limit) {
                continue;
            }
            for (mv, _) in moves {
                let mut child = pos.clone();
                child.play(Move::from_usi(&mv).unwrap()).unwrap();
                next.push(child);
            }
        }
        level = next;
    }
    reached
}

/// Two engines dig from the starting position: the book is flip-folded
/// and sound, every position up to the largest ply on the engines' lines
/// is in it, and YaneuraOu plays from it at the start and (through
/// FlippedBook) with white to move.
#[test]
fn two_engines_dig_a_sound_flip_folded_book() {
    let Some(engine) = yaneuraou("material") else {
        return;
    };
    let dir = scratch("mine-two");
    let book_path = dir.join("user_book1.db");
    let args = mine_args(&book_path, &engine, "6", "2", &[]);
    let (out, engines) = run_watched(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(engines.len() >= 2, "{engines:?}");
    assert_ended(&engines);
    let book = assert_sound(&book_path);
    // The book holds exactly the positions its own moves reach from the
    // start up to ply 6: the walk missed none and went no further.
    let reached = reach(&book, 6, None);
    assert!(reached.len() > 20, "{} positions", reached.len());
    assert_eq!(reached, book.entries.keys().cloned().collect());
    let said = stderr(&out);
    assert!(
        said.contains(&format!("{} positions searched", book.entries.len())),
        "{said}"
    );
    // The engine plays from it, black to move and white to move.
    assert_engine_plays_from(&engine, &dir, &book, &[]);
    let first = book_moves(&book, &Position::startpos());
    let first = Move::from_usi(&first.iter().next().unwrap().0).unwrap();
    assert_engine_plays_from(&engine, &dir, &book, &[first]);
}

/// A start line at ply 5: with two candidates a position and the largest
/// ply 8, a tree of at most 15 positions.
const START: &str = "position startpos moves 7g7f 3c3d 2g2f 8c8d\n";

/// A run interrupted by SIGINT after its first save and started again ends
/// with the bytes of a run never interrupted; so does a run with two
/// engines. No engine outlives any of them.
#[test]
fn an_interrupted_run_goes_on_to_the_same_book() {
    let Some(engine) = yaneuraou("material") else {
        return;
    };
    let dir = scratch("mine-resume");
    let from = dir.join("start.txt");
    std::fs::write(&from, START).unwrap();
    let run_to = |name: &str, engines: &str, interrupt: Option<&dyn Fn() -> bool>| {
        let path = dir.join(name);
        let args = mine_args(
            &path,
            &engine,
            "8",
            engines,
            &["--from", s(&from), "--save-every", "2"],
        );
        let (out, pids) = run_watched(&args, interrupt);
        assert!(!pids.is_empty());
        assert_ended(&pids);
        out
    };
    let whole_path = dir.join("whole.db");
    let out = run_to("whole.db", "1", None);
    assert!(out.status.success(), "{}", stderr(&out));
    let whole = std::fs::read(&whole_path).unwrap();
    let positions = read(&whole_path).entries.len();
    assert!(positions > 4, "{positions} positions");

    // Interrupted once the first save is there.
    let cut_path = dir.join("cut.db");
    let saved = || cut_path.exists();
    let out = run_to("cut.db", "1", Some(&saved));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    let cut = read(&cut_path);
    assert!(
        !cut.entries.is_empty() && cut.entries.len() < positions,
        "{} of {positions} positions when interrupted",
        cut.entries.len()
    );
    // No temporary file is left beside the book.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");

    // Started again: the rest is searched, the rest skipped as present.
    let out = run_to("cut.db", "1", None);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains(&format!(
            "{} positions searched",
            positions - cut.entries.len()
        )),
        "{said}"
    );
    assert!(said.contains("skipped as"), "{said}");
    assert!(
        std::fs::read(&cut_path).unwrap() == whole,
        "the resumed book differs from the whole run's"
    );

    // Two engines, whichever searched what: the same bytes.
    let out = run_to("two.db", "2", None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::read(dir.join("two.db")).unwrap() == whole,
        "two engines' book differs from one engine's"
    );
}

/// An engine that answers every `go` with a move that is not legal: each
/// position is reported with the engine's words and never written; the
/// run exits 1 and leaves an empty book; the engine does not outlive it.
#[test]
fn an_engine_error_is_reported_and_nothing_written() {
    let dir = scratch("mine-liar");
    let script = dir.join("liar.sh");
    // The engine notes its own id: it ends too soon to be seen among
    // kifconv's children.
    let pid_file = dir.join("pids");
    std::fs::write(
        &script,
        format!("echo $$ >> {}\n", s(&pid_file))
            + "while read -r line; do\n\
         case \"$line\" in\n\
         usi) echo 'id name liar'; echo usiok ;;\n\
         isready) echo readyok ;;\n\
         go*) echo 'info depth 1 score cp 0 pv 5e5d'; echo 'bestmove 5e5d' ;;\n\
         quit) exit 0 ;;\n\
         esac\n\
         done\n",
    )
    .unwrap();
    let from = dir.join("start.txt");
    std::fs::write(&from, "startpos\nposition startpos moves 7g7f\n").unwrap();
    let book_path = dir.join("liar.db");
    let args: Vec<String> = [
        "book",
        "mine",
        s(&book_path),
        "--engine",
        &format!("sh {}", s(&script)),
        "--from",
        s(&from),
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let (out, _) = run_watched(&args, None);
    let pids: BTreeSet<u32> = std::fs::read_to_string(&pid_file)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("`position startpos` not stored"), "{said}");
    assert!(
        said.contains("`position startpos moves 7g7f` not stored"),
        "{said}"
    );
    assert!(said.contains("5e5d"), "{said}");
    assert!(said.contains("0 positions searched, 2 errors"), "{said}");
    assert!(read(&book_path).entries.is_empty());
    assert!(!pids.is_empty());
    assert_ended(&pids);
}

/// With --eval-limit, a line stops at a position whose best value is
/// beyond the limit: the book holds exactly what its moves reach when
/// such positions are not followed, and some were not (at 2000 nodes the
/// engine values a position of ply 3 beyond ±50, and the start at 1).
#[test]
fn the_eval_limit_stops_a_line() {
    let Some(engine) = yaneuraou("material") else {
        return;
    };
    let dir = scratch("mine-eval");
    let book_path = dir.join("limited.db");
    let args = mine_args(&book_path, &engine, "5", "2", &["--eval-limit", "20"]);
    let (out, engines) = run_watched(&args, None);
    let said = stderr(&out);
    assert!(out.status.success(), "{said}");
    assert_ended(&engines);
    let book = assert_sound(&book_path);
    let cut = said
        .split([',', ';'])
        .find(|part| part.ends_with(" past the eval limit"))
        .and_then(|part| part.split_whitespace().next()?.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no position past the limit: {said}"));
    assert!(cut > 0 && book.entries.len() > cut, "{said}");
    assert_eq!(
        reach(&book, 5, Some(20)),
        book.entries.keys().cloned().collect()
    );
}
