//! `kifconv book build` and `kifconv book query`: a flip-folded book of a
//! few games, queried for a white-to-move position, which is found through
//! its rotation with the moves rotated back.

use crate::util::bin::{
    assert_contains, assert_exit, run, run_ok, s, scratch, scratch_with, stderr, stderr_line,
    stdout,
};

const GAMES: &str = "position startpos moves 7g7f 3c3d 2g2f\n\
position startpos moves 7g7f 3c3d 6g6f\n\
position startpos moves 7g7f 8c8d\n\
position startpos moves 2g2f 8c8d\n";

#[test]
fn a_flip_folded_book_answers_for_white() {
    let (dir, games) = scratch_with("book", "games.usi", GAMES);
    let book = dir.join("book.db");
    let (g, b) = (games.to_str().unwrap(), book.to_str().unwrap());
    let out = run_ok(&["book", "build", g, "-o", b, "--flip-fold"]);
    assert_contains(&stderr(&out), "positions, ");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n"));
    // Black to move only: white's positions are stored rotated.
    assert!(text
        .lines()
        .filter(|l| l.starts_with("sfen "))
        .all(|l| l.contains(" b ")));
    // After 7g7f, white to move: stored as its rotation, whose moves 7g7f
    // (from 3c3d, twice) and 2g2f (from 8c8d) come back rotated.
    let rotated = "sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n7g7f none 0 0 2\n2g2f none 0 0 1\n";
    assert!(text.contains(rotated), "{text}");
    let out = run_ok(&["book", "query", b, "position startpos moves 7g7f"]);
    assert_eq!(
        stdout(&out),
        "# found as its rotation; the moves are rotated back\n3c3d none 0 0 2\n8c8d none 0 0 1\n"
    );
    // The start itself is stored as it is; SFEN and JSON.
    let out = run(&["book", "query", b, "startpos", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["found"], "exact");
    assert_eq!(json["ply"], 1);
    let first = &json["moves"][0];
    assert_eq!(
        (&first["usi"], &first["japanese"], &first["count"]),
        (&"7g7f".into(), &"▲７六歩".into(), &3.into())
    );
    assert_eq!(
        first["sfen_after"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );
    // White to move, found as its rotation: white's moves, in white's
    // notation, the positions after them white's.
    let out = run(&["book", "query", b, "position startpos moves 7g7f", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["found"], "flipped");
    assert_eq!(json["moves"][0]["usi"], "3c3d");
    assert_eq!(json["moves"][0]["japanese"], "△３四歩");
    assert_eq!(
        json["moves"][0]["sfen_after"],
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    );
    // A position in neither form: exit 1.
    let out = run(&["book", "query", b, "position startpos moves 5g5f"]);
    assert_eq!(out.status.code(), Some(1));
    // The book is not replaced without --force.
    let out = run(&["book", "build", g, "-o", b]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&stderr(&out), "exists; give --force to replace it");
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    run_ok(&[
        "book",
        "build",
        g,
        "-o",
        b,
        "--force",
        "--side",
        "black",
        "--max-ply",
        "1",
    ]);
    assert_eq!(
        std::fs::read_to_string(&book).unwrap(),
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 0 0 3\n2g2f none 0 0 1\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Two books merged: counts of the same move added, the smaller ply kept,
/// moves re-sorted; a book from another tool with comments, CRLF and
/// missing fields is read.
#[test]
fn books_merge() {
    let dir = scratch("book-merge");
    let a = dir.join("a.db");
    let b = dir.join("b.db");
    let c = dir.join("c.db");
    std::fs::write(&a, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 3\n7g7f none 10 0 2\n2g2f none 0 0 1\n").unwrap();
    std::fs::write(&b, "#YANEURAOU-DB2016 1.00\r\n// from elsewhere\r\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\r\n2g2f 8c8d 30 8 5\r\n5g5f\r\n").unwrap();
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    run_ok(&["book", "merge", &s(&a), &s(&b), "-o", &s(&c)]);
    assert_eq!(
        std::fs::read_to_string(&c).unwrap(),
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n2g2f 8c8d 30 8 6\n7g7f none 10 0 2\n5g5f none 0 0 0\n"
    );
    let out = run(&["book", "merge", &s(&a), "-o", &s(&a), "--force"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}

/// The first move's count in a book of the six filter fixtures built with
/// `extra` options (ply 1 only: every one of them opens 7g7f), and the
/// summary line.
fn start_count(dir: &std::path::Path, inputs: &[&str], extra: &[&str]) -> (u64, String) {
    let book = dir.join("filtered.db");
    let mut args = vec!["book", "build"];
    args.extend_from_slice(inputs);
    args.extend_from_slice(&["-o", book.to_str().unwrap(), "--force", "--max-ply", "1"]);
    args.extend_from_slice(extra);
    let out = run_ok(&args);
    let text = std::fs::read_to_string(&book).unwrap();
    let count = text
        .lines()
        .find(|l| l.starts_with("7g7f "))
        .and_then(|l| l.rsplit(' ').next())
        .map_or(0, |n| n.parse().unwrap());
    (count, stderr_line(&out, "book "))
}

/// The game filters of the training-data writers choose the games a book
/// counts, and the summary says what each left out.
#[test]
fn game_filters_choose_the_games_counted() {
    let dir = scratch("book-filters");
    let filters = crate::util::files::fixtures().join("training/filters");
    let f = filters.to_str().unwrap();
    assert_eq!(start_count(&dir, &[f], &[]).0, 6);
    // Both players at 3800 or more: three games (see training_cli.rs).
    let (count, line) = start_count(&dir, &[f], &["--min-rating", "3800"]);
    assert_eq!(count, 3);
    assert!(line.ends_with("left out: --min-rating 3 games"), "{line}");
    // Resigned games of six moves or more: the aborted and the short game go.
    let (count, line) = start_count(&dir, &[f], &["--results", "toryo", "--min-moves", "6"]);
    assert_eq!(count, 4);
    assert!(
        line.ends_with("left out: --results 1 games, --min-moves 1 games"),
        "{line}"
    );
    // Both sides' moves with an evaluation: no-eval goes.
    assert_eq!(start_count(&dir, &[f], &["--require-eval"]).0, 5);
    // A name that is no ending is refused before any work.
    let out = run(&["book", "build", f, "-o", "x.db", "--results", "resign"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--results resign: no such ending"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `--uniq`: a game whose moves repeat one counted before counts once.
#[test]
fn uniq_counts_a_repeated_game_once() {
    let dir = scratch("book-uniq");
    let game = crate::util::files::fixtures().join("training/filters/rated-resign.csa");
    for name in ["a.csa", "b.csa"] {
        std::fs::copy(&game, dir.join(name)).unwrap();
    }
    let (a, b) = (dir.join("a.csa"), dir.join("b.csa"));
    let inputs = [a.to_str().unwrap(), b.to_str().unwrap()];
    assert_eq!(start_count(&dir, &inputs, &[]).0, 2);
    let report = dir.join("report.tsv");
    let (count, line) = start_count(
        &dir,
        &inputs,
        &["--uniq", "--report", report.to_str().unwrap()],
    );
    assert_eq!(count, 1);
    // The report names both inputs, read.
    let report = std::fs::read_to_string(&report).unwrap();
    assert_eq!(
        report.lines().filter(|l| l.contains("\tok\t")).count(),
        2,
        "{report}"
    );
    assert!(line.contains("1 games,"), "{line}");
    assert!(line.ends_with("left out: --uniq 1 games"), "{line}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--variations`: the moves of a record's variations count too (a
/// position the lines share counts once), and nothing warns that the
/// variations were left out.
#[test]
fn variations_count_with_the_option_only() {
    let dir = scratch("book-variations");
    let kif = crate::util::files::fixtures().join("kif/jkf-henka.kif");
    let book = dir.join("v.db");
    let build = |extra: &[&str]| {
        let mut args = vec![
            "book",
            "build",
            kif.to_str().unwrap(),
            "-o",
            book.to_str().unwrap(),
            "--force",
            "--max-ply",
            "2",
        ];
        args.extend_from_slice(extra);
        let out = run_ok(&args);
        assert!(!stderr(&out).contains("left out"), "{}", stderr(&out));
        std::fs::read_to_string(&book).unwrap()
    };
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n";
    // The mainline opens 7g7f 8c8d; a variation 2g2f at move 1, and 3c3d
    // at move 2 after either.
    let main = build(&[]);
    assert!(
        main.contains(&format!("{start}7g7f none 0 0 1\n")),
        "{main}"
    );
    assert_eq!(main.matches("\nsfen ").count(), 2, "{main}");
    let all = build(&["--variations"]);
    assert!(
        all.contains(&format!("{start}2g2f none 0 0 1\n7g7f none 0 0 1\n")),
        "{all}"
    );
    let after_7g7f = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n3c3d none 0 0 1\n8c8d none 0 0 1\n";
    assert!(all.contains(after_7g7f), "{all}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `games` random games of up to 120 plies from the start, in USI, one a
/// line (a game that reaches a position with no legal move stops there):
/// nearly every position is new, so the counts outgrow a small memory.
fn random_games(games: usize, seed: u64) -> String {
    let mut rng = crate::util::rng::Rng::new(seed);
    let mut text = String::new();
    for _ in 0..games {
        let mut pos = kifconv::Position::startpos();
        text.push_str("position startpos moves");
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            text.push_str(&format!(" {mv}"));
            pos.play_unchecked(mv);
        }
        text.push('\n');
    }
    text
}

/// Runs `kifconv ARGS` under bash after `limits` (e.g. `ulimit -n 48`).
fn run_limited(limits: &str, args: &[&str]) -> std::process::Output {
    let script = format!("{limits}; exec \"$0\" \"$@\"");
    std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kifconv"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("bash runs")
}

/// A build whose sorted runs cannot be written fails whole: exit 2, one
/// error naming the run, no book and no run left, and no input blamed.
/// A full disk is made by a file size limit (`ulimit -f`, with SIGXFSZ
/// ignored so that a write past it fails with an error as on a full
/// disk): it needs no mount and no root, and fails the runs' writes while
/// the small files (the probe) are written.
#[test]
fn a_build_whose_runs_cannot_be_written_fails_whole() {
    let (dir, games) = scratch_with("book-full", "games.usi", random_games(60, 34));
    let book = dir.join("book.db");
    let out = run_limited(
        "trap '' XFSZ; ulimit -f 64",
        &[
            "book",
            "build",
            s(&games),
            "-o",
            s(&book),
            "--memory",
            "1",
            "-j",
            "1",
            "--report",
            s(&dir.join("report.tsv")),
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("error: cannot write the sorted run "), "{err}");
    assert!(!err.contains("games.usi: error"), "{err}");
    assert!(!err.contains("files, "), "{err}");
    assert!(!book.exists());
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["games.usi"]);
    let _ = std::fs::remove_dir_all(dir);
}

/// An output folder that does not exist is refused before any input is
/// read (no input is named); so are `--memory 0` and a size that does not
/// fit in bytes.
#[test]
fn a_book_build_checks_its_output_and_memory_first() {
    let (dir, games) = scratch_with("book-folder", "games.usi", GAMES);
    let book = dir.join("no-such-folder/book.db");
    let out = run(&["book", "build", s(&games), "-o", s(&book)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write the book"), "{err}");
    assert!(!err.contains("files, "), "{err}");
    let b = dir.join("b.db");
    for (memory, says) in [
        ("0", "must be at least 1"),
        ("18446744073709551615", "more bytes than"),
    ] {
        let out = run(&["book", "build", s(&games), "-o", s(&b), "--memory", memory]);
        assert_eq!(out.status.code(), Some(2));
        assert_contains(&stderr(&out), says);
        assert!(!b.exists());
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// With little memory and few open files allowed, the runs are merged in
/// passes and the book is the one counted in memory, byte for byte.
#[test]
fn runs_merge_in_passes_under_a_file_limit() {
    let (dir, games) = scratch_with("book-passes", "games.usi", random_games(1500, 3434));
    let (memory, runs) = (dir.join("memory.db"), dir.join("runs.db"));
    run_ok(&["book", "build", s(&games), "-o", s(&memory)]);
    let out = run_limited(
        "ulimit -n 48",
        &["book", "build", s(&games), "-o", s(&runs), "--memory", "1"],
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("counted in sorted runs on disk"), "{err}");
    assert!(
        std::fs::read(&memory).unwrap() == std::fs::read(&runs).unwrap(),
        "the books differ"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    let _ = std::fs::remove_dir_all(dir);
}

/// A book is never written over one of its inputs, even with --force: a
/// file named, or a file of a folder named; `book merge` likewise.
#[test]
fn a_book_is_never_written_over_an_input() {
    let (dir, games) = scratch_with("book-input", "g.usi", GAMES);
    for input in [games.clone(), dir.clone()] {
        let out = run(&["book", "build", s(&input), "-o", s(&games), "--force"]);
        assert_exit(&out, 2);
        assert_contains(&stderr(&out), "one of the inputs");
        assert_eq!(std::fs::read_to_string(&games).unwrap(), GAMES);
    }
    let book = dir.join("a.db");
    run_ok(&["book", "build", s(&games), "-o", s(&book)]);
    let text = std::fs::read(&book).unwrap();
    let out = run(&["book", "merge", s(&book), "-o", s(&book), "--force"]);
    assert_exit(&out, 2);
    assert_contains(&stderr(&out), "one of the inputs");
    assert_eq!(std::fs::read(&book).unwrap(), text);
    let _ = std::fs::remove_dir_all(dir);
}

/// A book of [`GAMES`] (not flip-folded), its text split into its blocks
/// (the header first).
fn book_blocks(dir: &std::path::Path) -> Vec<String> {
    let games = dir.join("games.usi");
    std::fs::write(&games, GAMES).unwrap();
    let book = dir.join("book.db");
    run_ok(&["book", "build", s(&games), "-o", s(&book), "--force"]);
    let text = std::fs::read_to_string(&book).unwrap();
    let mut blocks: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("sfen ") || blocks.is_empty() {
            blocks.push(String::new());
        }
        let last = blocks.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    assert!(blocks.len() > 4, "{text}");
    blocks
}

/// `book query` on a book it cannot search rightly says why, with the
/// line, and exits 2: never "not in the book".
#[test]
fn a_book_query_checks_the_book() {
    let dir = scratch("book-check");
    let blocks = book_blocks(&dir);
    let query = |name: &str, text: &str, position: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = run(&["book", "query", s(&path), position]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(!err.contains("not in the book"), "{name}: {err}");
        err
    };
    let after = "position startpos moves 7g7f";
    // Blocks reversed.
    let mut reversed = blocks[..1].to_vec();
    reversed.extend(blocks[1..].iter().rev().cloned());
    for position in ["startpos", after, "position startpos moves 5g5f"] {
        let err = query("reversed.db", &reversed.concat(), position);
        assert!(err.contains("not sorted") && err.contains("line "), "{err}");
        assert!(err.contains("book merge"), "{err}");
    }
    // A block twice: the position asked about, or the one beside it.
    for i in 1..blocks.len() {
        let mut twice = blocks.clone();
        twice.insert(i, blocks[i].clone());
        let key = blocks[i]
            .lines()
            .next()
            .unwrap()
            .strip_prefix("sfen ")
            .unwrap();
        let err = query("twice.db", &twice.concat(), key);
        assert!(err.contains("again") && err.contains("sort"), "{err}");
    }
    // Not a book at all.
    let readme = crate::util::files::fixtures().join("../README.md");
    let out = run(&["book", "query", s(&readme), "startpos"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("line 1: not a YaneuraOu book"), "{err}");
    // A position written otherwise than kifconv writes it, an impossible
    // one, an illegal move.
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let spaced = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL  b - 1";
    let err = query(
        "spaced.db",
        &format!("{}{spaced}\n7g7f none 0 0 1\n", blocks[0]),
        "startpos",
    );
    assert!(err.contains("line 2: not in kifconv's form"), "{err}");
    let err = query(
        "kings.db",
        &format!(
            "{}sfen kkk6/9/9/9/9/9/9/9/9 b - 1\n1a1b none 0 0 1\n",
            blocks[0]
        ),
        "startpos",
    );
    assert!(err.contains("line 2: an impossible position"), "{err}");
    let err = query(
        "illegal.db",
        &format!("{}{start}\n7g7f none 0 0 1\n7g7e none 0 0 1\n", blocks[0]),
        "startpos",
    );
    assert!(err.contains("line 4: the move 7g7e is illegal"), "{err}");
    // A line with no end: refused at once, reading a bounded number of
    // bytes.
    let long = format!("{}sfen {}", blocks[0], "a".repeat(4 << 20));
    let err = query("long.db", &long, "startpos");
    assert!(err.contains("line 2: longer than 65536 bytes"), "{err}");
    // A miss in a good book: exit 1, and JSON says so.
    let good = dir.join("book.db");
    let out = run(&[
        "book",
        "query",
        s(&good),
        "position startpos moves 5g5f",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["found"], "none");
    assert_eq!(json["ply"], serde_json::Value::Null);
    assert_eq!(json["moves"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(dir);
}

/// `book merge` reads a whole book and mends it, saying what it did with
/// each fault's line: an unsorted book and a position twice are merged, an
/// illegal move dropped, ply 0 never written, a count never wrapped.
#[test]
fn a_book_merge_mends_and_says() {
    let dir = scratch("book-merge-check");
    let blocks = book_blocks(&dir);
    let start = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    let a = dir.join("a.db");
    let mut text = blocks.clone();
    text.reverse();
    let mut text = text.concat().replacen("#YANEURAOU-DB2016 1.00\n", "", 1);
    text.insert_str(0, "#YANEURAOU-DB2016 1.00\n");
    text.push_str(&format!(
        "{start} 0\n7g7f none 0 0 18446744073709551615\n7g7e none 0 0 1\n"
    ));
    std::fs::write(&a, &text).unwrap();
    let sorted = dir.join("sorted.db");
    let out = run(&["book", "merge", s(&a), "-o", s(&sorted)]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    for said in [
        "warning: line 5: not sorted: this position sorts before the one on line 2",
        "warning: line 13: no ply: the position line gives no ply",
        "illegal here: the piece cannot reach that square; dropped",
        "again; their moves are merged",
        "largest number a count can hold",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    let merged = std::fs::read_to_string(&sorted).unwrap();
    assert!(
        merged.contains(&format!("{start} 1\n7g7f none 0 0 18446744073709551615\n")),
        "{merged}"
    );
    assert!(
        !merged.contains(" 0\n7") && !merged.contains("7g7e"),
        "{merged}"
    );
    // The mended copy searches.
    run_ok(&["book", "query", s(&sorted), "position startpos moves 7g7f"]);
    // Not a book: refused with the line.
    let readme = crate::util::files::fixtures().join("../README.md");
    let out = run(&["book", "merge", s(&readme), "-o", s(&dir.join("x.db"))]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&stderr(&out), "line 1: not a YaneuraOu book");
    let _ = std::fs::remove_dir_all(dir);
}

/// `book check` finds one of each planted fault, each on its line, and
/// nothing in a book kifconv built; `book fix` of the faulty book writes a
/// copy that checks clean, and never over its input.
#[test]
fn book_check_finds_each_planted_fault_and_fix_mends_them() {
    let (dir, games) = scratch_with(
        "book-check-fix",
        "games.usi",
        "position startpos moves 7g7f 3c3d 2g2f 8c8d\nposition startpos moves 2g2f 8c8d 7g7f\n",
    );
    let built = dir.join("built.db");
    run_ok(&["book", "build", "-q", s(&games), "-o", s(&built)]);
    let out = run(&["book", "check", s(&built)]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_contains(&stdout(&out), "no faults");

    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    // White to move after 7g7f, and its rotation (black to move).
    let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
    let rotated = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    let lines = [
        "#YANEURAOU-DB2016 1.00".to_string(),
        format!("sfen {after} 2"),       // 2
        "3c3d none 0 0 1".to_string(),   // 3
        format!("sfen {start} b - 1"),   // 4: sorts after line 2: fine
        "7g7f none 0 0 1".to_string(),   // 5
        "7g7e none 0 0 1".to_string(),   // 6: illegal
        "none".to_string(),              // 7: a none line
        "2g2f none 10".to_string(),      // 8: missing columns
        format!("sfen {start} b - 1"),   // 9: twice, and not sorted
        "5g5f none 0 0 1".to_string(),   // 10
        format!("sfen {rotated} 2"),     // 11: the rotation of line 2
        "7g7f none 0 0 1".to_string(),   // 12
        format!("sfen {start}  b - 1"),  // 13: bad SFEN spacing
        "8h2b none 0 0 1".to_string(),   // 14: illegal too
        format!("sfen {start} b 19P 1"), // 15: impossible
        "7g7f none 0 0 1".to_string(),   // 16
    ];
    let faulty = dir.join("faulty.db");
    std::fs::write(&faulty, lines.join("\n") + "\n").unwrap();
    let out = run(&["book", "check", "--flip-fold", s(&faulty)]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let said = stdout(&out);
    for (line, kind) in [
        (6, "illegal move"),
        (7, "`none` move"),
        (8, "missing columns"),
        (9, "position twice"),
        (9, "not sorted"),
        (2, "position and its rotation"),
        (13, "not canonical"),
        (15, "bad position"),
    ] {
        let name = faulty.display();
        assert!(
            said.contains(&format!("{name}:{line}: {kind}: ")),
            "line {line} {kind}:\n{said}"
        );
    }
    assert!(
        said.contains(": 11 faults (5 positions, 5 moves)"),
        "{said}"
    );
    // Without --flip-fold a position beside its rotation is no fault.
    let out = run(&["book", "check", s(&faulty)]);
    assert!(!stdout(&out).contains("rotation"), "{}", stdout(&out));

    // Fixed, and folded: the copy checks clean, even as flip-folded.
    let fixed = dir.join("fixed.db");
    let out = run_ok(&["book", "fix", "--flip-fold", s(&faulty), "-o", s(&fixed)]);
    assert_contains(&stderr(&out), "warning: line 6: illegal move");
    let out = run(&["book", "check", "--flip-fold", s(&fixed)]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = std::fs::read_to_string(&fixed).unwrap();
    assert!(!text.contains(" w "), "{text}");
    // The rotation holds both its own move and the folded 3c3d (as 7g7f):
    // counted twice.
    assert!(
        text.contains(&format!("sfen {rotated} 2\n7g7f none 0 0 2\n")),
        "{text}"
    );
    // Never over the input, and not over an output without --force.
    let out = run(&["book", "sort", s(&faulty), "-o", s(&faulty), "--force"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["book", "sort", s(&faulty), "-o", s(&fixed)]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&stderr(&out), "exists");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--crlf` ends a text book's every line with CRLF, as YaneuraOu writes
/// its books, for build, sort and convert alike; the lines are the same.
#[test]
fn crlf_books_have_the_same_lines() {
    let (dir, games) = scratch_with(
        "book-crlf",
        "games.usi",
        "position startpos moves 7g7f 3c3d 2g2f\n",
    );
    let plain = dir.join("plain.db");
    run_ok(&["book", "build", "-q", s(&games), "-o", s(&plain)]);
    let text = std::fs::read_to_string(&plain).unwrap();
    let want = text.replace('\n', "\r\n");
    let built = dir.join("built.db");
    run_ok(&["book", "build", "-q", "--crlf", s(&games), "-o", s(&built)]);
    assert_eq!(std::fs::read_to_string(&built).unwrap(), want);
    for (command, name) in [("sort", "sorted.db"), ("convert", "converted.db")] {
        let path = dir.join(name);
        let out = if command == "sort" {
            run(&["book", "sort", "--crlf", s(&plain), "-o", s(&path)])
        } else {
            run(&["book", "convert", "--crlf", s(&plain), s(&path)])
        };
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), want, "{command}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
