//! `kifconv book peta-shock` against YaneuraOu's `makebook peta_shock`.
//!
//! The fixture in `data/peta_shock` (made by
//! `scripts/peta-shock-fixture.sh`): the first 40 bench games and planted
//! lines (a repetition from the start position, a perpetual check from both
//! sides), counted flip-folded to ply 10 with hashed values (`book.db`),
//! and what the engine wrote for it (`yaneuraou.db`). The live tests run
//! the engine from `../shared/tools/engines` when it is there.

use crate::util::bin::{assert_exit, run, run_ok, s, scratch, scratch_with, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/peta_shock")
}

/// kifconv's peta-shock of `book` (CRLF when asked).
fn kifconv_peta_shock(book: &Path, crlf: bool) -> Vec<u8> {
    let dir = scratch("peta");
    let out = dir.join("out.db");
    let mut args = vec!["book", "peta-shock", s(book), s(&out)];
    if crlf {
        args.push("--crlf");
    }
    run_ok(&args);
    std::fs::read(out).unwrap()
}

#[test]
fn the_fixture_comes_out_as_yaneuraou_wrote_it() {
    let expected = std::fs::read(data().join("yaneuraou.db")).unwrap();
    let ours = kifconv_peta_shock(&data().join("book.db"), true);
    assert!(ours == expected, "{}", first_difference(&ours, &expected));
    // LF by default: the same lines.
    let lf = kifconv_peta_shock(&data().join("book.db"), false);
    let expected_lf = String::from_utf8(expected).unwrap().replace("\r\n", "\n");
    assert_eq!(String::from_utf8(lf).unwrap(), expected_lf);
}

#[test]
fn the_fixture_has_what_it_is_meant_to_test() {
    // The planted lines are there: draws of a repetition, the perpetual
    // check's marked moves, and values backed up from deeper leaves.
    let expected = std::fs::read_to_string(data().join("yaneuraou.db")).unwrap();
    assert!(expected.contains(" 0 9999\r\n"), "no cycle drawn");
    assert!(expected.contains(" -32000 9997\r\n"), "no perpetual check");
    let deeper = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sfen"))
        .filter(|l| l.split(' ').nth(3).is_some_and(|d| d != "0" && d != "1"))
        .count();
    assert!(
        deeper > 20,
        "{deeper} moves backed up from two plies or more"
    );
}

#[test]
fn a_bad_line_is_named_and_no_output_is_left_or_replaced() {
    let (dir, book) = scratch_with(
        "peta-bad",
        "bad.db",
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none ten 0 1\n",
    );
    let out = dir.join("out.db");
    let done = run(&["book", "peta-shock", s(&book), s(&out)]);
    assert_eq!(done.status.code(), Some(1));
    let message = stderr(&done);
    assert!(
        message.contains("bad.db: error: line 3:") && message.contains("`ten`"),
        "{message}"
    );
    assert!(!out.exists());
    // An existing output is kept without --force.
    std::fs::write(&out, "mine").unwrap();
    let done = run(&["book", "peta-shock", s(&data().join("book.db")), s(&out)]);
    assert_exit(&done, 2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
}

/// YaneuraOu's material edition.
fn engine() -> Option<PathBuf> {
    crate::util::engines::yaneuraou("material")
}

/// Runs the engine with `commands` on its standard input; its output.
fn drive(engine: &Path, commands: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(commands.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_engine_agrees_live() {
    let Some(engine) = engine() else { return };
    let dir = scratch("peta-engine");
    std::fs::copy(data().join("book.db"), dir.join("book.db")).unwrap();
    let log = drive(
        &engine,
        &format!(
            "setoption name BookDir value {}\nmakebook peta_shock book.db engine.db\nquit\n",
            dir.display()
        ),
    );
    let theirs = std::fs::read(dir.join("engine.db")).unwrap_or_else(|e| panic!("{e}\n{log}"));
    let ours = kifconv_peta_shock(&dir.join("book.db"), true);
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
}

#[test]
fn legal_moves_come_in_the_engines_order() {
    let Some(engine) = engine() else { return };
    // Every position of the fixture, as it is and rotated, and positions
    // in check, with drops and with pins.
    let book = std::fs::read_to_string(data().join("book.db")).unwrap();
    let mut sfens: Vec<String> = book
        .lines()
        .filter_map(|l| l.strip_prefix("sfen "))
        .map(str::to_string)
        .collect();
    sfens.extend(
        [
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLPrb2g3s3n3l16p 1",
            "4k4/4r4/9/9/4B4/9/9/9/4K4 b - 1",
            "4k4/9/9/9/1b7/9/3P5/4S4/4K4 b RGNL2Prb3g3s3n3l14p 1",
            "8k/9/7PP/9/9/9/9/9/K8 b P2r2b4g4s4n4l14p 1",
            "ln1g3nl/1r3kg2/p2pppspp/2p3p2/1p5P1/2P1P1P2/PPSP1P2P/2G2K1R1/LN3GSNL b BSb 1",
            "4k4/9/9/9/9/9/9/4r4/4K4 b GSN2Lrb3g3s3nl18p 1",
        ]
        .map(str::to_string),
    );
    let flipped: Vec<String> = sfens
        .iter()
        .map(|sfen| kifconv::Position::from_sfen(sfen).unwrap().flip().sfen())
        .collect();
    sfens.extend(flipped);
    let commands: String = sfens
        .iter()
        .map(|sfen| format!("position sfen {sfen}\nmoves\n"))
        .chain(["quit\n".to_string()])
        .collect();
    let out = drive(&engine, &commands);
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), sfens.len(), "{out}");
    for (sfen, line) in sfens.iter().zip(lines) {
        let pos = kifconv::Position::from_sfen(sfen).unwrap();
        let ours: Vec<String> = pos
            .legal_moves_in_engine_order()
            .into_iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(ours.join(" "), line.trim_end(), "{sfen}");
    }
}

/// The first line that differs, for a failure message.
fn first_difference(ours: &[u8], theirs: &[u8]) -> String {
    let ours = String::from_utf8_lossy(ours);
    let theirs = String::from_utf8_lossy(theirs);
    for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
        if a != b {
            return format!("line {}: kifconv `{a}`, YaneuraOu `{b}`", i + 1);
        }
    }
    format!(
        "{} lines (kifconv) against {} (YaneuraOu)",
        ours.lines().count(),
        theirs.lines().count()
    )
}
