//! `kifconv engine check`: the USI conformance report passes for the real
//! engines (YaneuraOu, Fairy-Stockfish) and fails, on the row that names
//! the fault, for tiny scripts that misbehave: an illegal best move, no
//! `readyok`. After each run no engine process is left.

use crate::util::bin::{assert_contains, assert_exit, run, s, scratch, stdout};
use crate::util::engines::{fairy_stockfish, option_args, running, yaneuraou, YANEURAOU_OPTIONS};
use std::path::Path;
use std::time::{Duration, Instant};

/// The report's rows: (PASS or FAIL, the check's name, its evidence), the
/// summary line left out. A name is padded and followed by two spaces.
fn rows(out: &str) -> Vec<(&str, &str, &str)> {
    out.lines()
        .filter_map(|line| line.split_once(' '))
        .filter(|(verdict, _)| matches!(*verdict, "PASS" | "FAIL"))
        .map(|(verdict, rest)| {
            let (name, evidence) = rest.split_once("  ").unwrap_or((rest, ""));
            (verdict, name.trim_end(), evidence.trim_start())
        })
        .collect()
}

/// The verdict and evidence of the row `name`.
fn row<'a>(out: &'a str, name: &str) -> (&'a str, &'a str) {
    rows(out)
        .into_iter()
        .find(|(_, n, _)| *n == name)
        .map(|(verdict, _, evidence)| (verdict, evidence))
        .unwrap_or_else(|| panic!("no row {name}:\n{out}"))
}

/// Asserts the row `name` passed.
fn passed(out: &str, name: &str) {
    assert_eq!(row(out, name).0, "PASS", "{name}:\n{out}");
}

/// Asserts the row `name` failed; its evidence.
fn failed<'a>(out: &'a str, name: &str) -> &'a str {
    let (verdict, evidence) = row(out, name);
    assert_eq!(verdict, "FAIL", "{name}:\n{out}");
    evidence
}

/// Asserts every row passed, and the rows that must be there are.
fn all_pass(out: &str) {
    let rows = rows(out);
    assert_eq!(rows.len(), 18, "{out}");
    assert!(rows.iter().all(|(v, _, _)| *v == "PASS"), "{out}");
    for name in [
        "handshake",
        "isready",
        "position sfen bishop handicap",
        "position sfen 10P in hand moves",
        "go nodes 10000",
        "go movetime 500",
        "go infinite, stop",
        "quit",
    ] {
        row(out, name);
    }
    assert_contains(out, "checks passed");
}

/// The report of `engine check` on the engine at `path` with `options`,
/// which passes every check (exit 0).
fn passing_check(path: &Path, options: &[(&str, &str)]) -> String {
    let mut args = vec!["engine".to_string(), "check".into(), s(path).into()];
    args.extend(option_args(options));
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_exit(&out, 0);
    let text = stdout(&out);
    all_pass(&text);
    text
}

#[test]
fn yaneuraou_passes_every_check() {
    let Some(path) = yaneuraou("material") else {
        return;
    };
    let text = passing_check(&path, &YANEURAOU_OPTIONS);
    assert_contains(row(&text, "handshake").1, "id name YaneuraOu");
    assert_contains(row(&text, "setoption").1, "USI_Hash=16");
}

#[test]
fn fairy_stockfish_passes_every_check() {
    let Some(path) = fairy_stockfish() else {
        return;
    };
    let text = passing_check(&path, &[("Threads", "1"), ("Hash", "16")]);
    assert_contains(row(&text, "handshake").1, "id name Fairy-Stockfish");
}

/// A script engine in `dir` that writes its process id to `dir/pid`, then
/// answers `usi` and runs `cases` (a `case` body) on every other line.
fn script(dir: &Path, cases: &str) -> String {
    let path = dir.join("engine.sh");
    let pid = dir.join("pid");
    let text = format!(
        "echo $$ > '{}'\nwhile read -r line; do\n  case \"$line\" in\n    usi) echo 'id name script'; echo usiok;;\n{cases}\n  esac\ndone\n",
        s(&pid)
    );
    std::fs::write(&path, text).unwrap();
    format!("sh {}", s(&path))
}

/// The report of `engine check` (5 s timeouts) on the script engine that
/// runs `cases` in `dir` (see [`script`]), which fails a check (exit 1).
fn failed_check(dir: &Path, cases: &str) -> String {
    let command = script(dir, cases);
    let out = run(&["engine", "check", &command, "--timeout", "5"]);
    assert_exit(&out, 1);
    stdout(&out)
}

/// The process id the script wrote.
fn pid(dir: &Path) -> u32 {
    std::fs::read_to_string(dir.join("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn an_illegal_best_move_fails_the_row_that_names_it() {
    let dir = scratch("engine-check-illegal");
    let text = failed_check(
        &dir,
        "    isready) echo readyok;;\n    go*) echo 'info depth 1 score cp 0'; echo 'bestmove 5e5d';;\n    stop) ;;\n    quit) exit 0;;",
    );
    passed(&text, "handshake");
    passed(&text, "isready");
    let evidence = failed(&text, "position startpos moves (40)");
    assert_contains(
        evidence,
        "bestmove `5e5d` is not legal after `position startpos moves 2g2f 8c8d",
    );
    // So does every other search's.
    let refused = rows(&text)
        .iter()
        .filter(|(_, _, e)| e.starts_with("bestmove `5e5d` is not legal"))
        .count();
    assert_eq!(refused, 12, "{text}");
    // The engine still answers, so every check runs; quit ends it.
    passed(&text, "quit");
    assert_contains(&text, "checks failed");
    assert!(!running(pid(&dir)), "the engine outlived kifconv");
}

#[test]
fn an_engine_that_never_answers_isready_fails_there_and_is_ended_quickly() {
    let dir = scratch("engine-check-no-readyok");
    let command = script(&dir, "    isready) ;;");
    let started = Instant::now();
    let out = run(&[
        "engine",
        "check",
        &command,
        "--timeout",
        "1",
        "--option",
        "Threads=1",
    ]);
    let took = started.elapsed();
    assert_exit(&out, 1);
    let text = stdout(&out);
    passed(&text, "handshake");
    // An option it lacks fails its row, and the checks go on.
    assert_eq!(
        row(&text, "setoption"),
        ("FAIL", "it has no option `Threads`; it declared none")
    );
    let evidence = failed(&text, "isready");
    assert_contains(evidence, "no `readyok` within 1.0 s");
    assert_contains(evidence, "> isready");
    // Every later row says it was not run.
    let evidence = failed(&text, "quit");
    assert_eq!(evidence, "not run: engine ended at row isready");
    let not_run = rows(&text)
        .iter()
        .filter(|(_, _, e)| e.starts_with("not run"))
        .count();
    assert_eq!(not_run, 15, "{text}");
    assert!(took < Duration::from_secs(8), "{took:?}");
    assert!(!running(pid(&dir)), "the engine outlived kifconv");
}

#[test]
fn an_engine_that_cannot_start_is_a_usage_error() {
    let out = run(&["engine", "check", "/no/such/engine"]);
    assert_exit(&out, 2);
    assert_contains(
        &crate::util::bin::stderr(&out),
        "engine /no/such/engine: cannot start it",
    );
    let out = run(&["engine", "check", "x", "--option", "Threads"]);
    assert_exit(&out, 2);
    let out = run(&["engine", "check", "x", "--timeout", "0"]);
    assert_exit(&out, 2);
}

#[test]
fn an_engine_that_dies_mid_search_fails_that_row_and_the_rest_are_not_run() {
    let dir = scratch("engine-check-crash");
    let text = failed_check(
        &dir,
        "    isready) echo readyok;;\n    go*) echo 'out of memory' >&2; exit 3;;",
    );
    passed(&text, "usinewgame");
    let evidence = failed(&text, "position startpos moves (40)");
    assert_contains(evidence, "it ended while kifconv waited for `bestmove`");
    assert_contains(evidence, "its stderr ends: out of memory");
    assert_eq!(
        row(&text, "go depth 5"),
        (
            "FAIL",
            "not run: engine ended at row position startpos moves (40)"
        )
    );
    assert!(!running(pid(&dir)));
}

#[test]
fn an_engine_that_answers_go_infinite_before_stop_fails_that_row() {
    let dir = scratch("engine-check-early");
    // Answers every go at once with a move legal where `go infinite` is
    // asked (after 7g7f 3c3d).
    let text = failed_check(
        &dir,
        "    isready) echo readyok;;\n    go*) echo 'bestmove 2g2f';;",
    );
    let evidence = failed(&text, "go infinite, stop");
    assert_contains(evidence, "after go infinite, before stop was sent");
    // The same answer to a bounded search is fine.
    passed(&text, "go depth 5");
    passed(&text, "quit");
    assert!(!running(pid(&dir)));
}
