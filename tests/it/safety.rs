//! Data safety, as the binary is run: a batch killed mid-way leaves only
//! whole outputs, a write that fails is reported and leaves nothing behind
//! (the failing-writer case is a unit test in `src/batch/output.rs`), and
//! inputs are never modified.

use crate::util::bin::{command, run, s, scratch, scratch_with};
use crate::util::files::{contents, fixtures};
use crate::util::games::{kif_text, moves_that_go_on};
use crate::util::shared::shared;
use kifconv::Position;
use std::collections::BTreeMap;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// Runs the binary with a standard output whose reader has gone: nothing
/// is read, and our end is closed at once.
fn with_closed_stdout(args: &[&str]) -> Output {
    let mut child = command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// A long game (never ending early), written as KIF: slow enough to
/// convert that a batch can be caught mid-way.
fn long_kif(plies: usize) -> String {
    let mut pos = Position::startpos();
    let mut moves = Vec::with_capacity(plies);
    for ply in 1..=plies {
        // Shuffle kings and golds rather than play toward a mate: pick the
        // legal move after which the opponent still has one, cycling
        // through the list by ply so that the game does not repeat itself
        // too soon.
        let choices = moves_that_go_on(&pos);
        let mv = choices[(ply * 7919) % choices.len()];
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    kif_text(&moves)
}

#[test]
fn a_killed_batch_leaves_only_whole_outputs() {
    let dir = scratch("killed");
    let (inputs, killed, whole) = (dir.join("in"), dir.join("killed"), dir.join("whole"));
    std::fs::create_dir_all(&inputs).unwrap();
    let game = long_kif(1000);
    const FILES: usize = 2000;
    for i in 0..FILES {
        std::fs::write(inputs.join(format!("game-{i:05}.kif")), &game).unwrap();
    }
    // Start a batch into `killed` and kill it (SIGKILL: no clean-up code
    // runs) once some outputs exist.
    let mut child = command()
        .args([s(&inputs), "-o", s(&killed), "--to", "kif", "-j", "2", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Outputs under their own names (temporary files are hidden).
    let count = |dir: &Path| {
        std::fs::read_dir(dir).map_or(0, |d| {
            d.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| !e.file_name().to_string_lossy().starts_with('.'))
            })
            .count()
        })
    };
    while count(&killed) < 20 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The same batch, run to the end.
    let out = run(&[s(&inputs), "-o", s(&whole), "--to", "kif", "-j", "2", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    let whole = contents(&whole);
    assert_eq!(whole.len(), FILES);
    let killed = contents(&killed);
    let (outputs, temporary): (Vec<_>, Vec<_>) = killed
        .iter()
        .partition(|(path, _)| !path.to_string_lossy().starts_with('.'));
    eprintln!(
        "killed after {} of {FILES} outputs ({} temporary files left)",
        outputs.len(),
        temporary.len()
    );
    assert!(
        outputs.len() < FILES,
        "the batch ended before it was killed"
    );
    assert!(!outputs.is_empty());
    // Every output under its own name is whole: byte for byte what the
    // complete run wrote.
    for (path, bytes) in &outputs {
        assert_eq!(Some(*bytes), whole.get(*path), "{}", path.display());
    }
    // What else is there is a hidden temporary file, never an output name.
    for (path, _) in &temporary {
        let name = path.to_string_lossy();
        assert!(
            name.contains(".kifconv-") && name.ends_with(".tmp"),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file's bytes and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, SystemTime)> {
    contents(dir)
        .into_iter()
        .map(|(path, bytes)| {
            let modified = std::fs::metadata(dir.join(&path))
                .unwrap()
                .modified()
                .unwrap();
            (path, (bytes, modified))
        })
        .collect()
}

#[test]
fn inputs_are_never_modified() {
    let dir = scratch("inputs");
    let inputs = dir.join("fixtures");
    // Every fixture, good and bad, in every format and encoding.
    let source = fixtures();
    for (path, bytes) in contents(&source) {
        let target = inputs.join(&path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    let before = snapshot(&inputs);
    assert!(before.len() > 100);
    let out = dir.join("out");
    for to in ["usi", "sfen", "kif", "kifu", "ki2", "csa", "jkf", "western"] {
        for extra in [&[][..], &["--force", "--flip"][..]] {
            let mut args = vec![s(&inputs), "-o", s(&out), "--to", to, "-q"];
            args.extend_from_slice(extra);
            run(&args);
        }
    }
    // Outputs aimed into the inputs' own folder, over them.
    for to in ["kif", "ki2", "csa", "usi"] {
        run(&[s(&inputs), "-o", s(&inputs), "--to", to, "--force", "-q"]);
    }
    let after = snapshot(&inputs);
    // Converting into the input folder may add files; it changes none.
    for (path, (bytes, modified)) in &before {
        let (now, then) = after.get(path).expect("an input was removed");
        assert!(now == bytes, "{} was modified", path.display());
        assert_eq!(then, modified, "{} was touched", path.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_standard_output_is_a_reported_failure() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("note: no /dev/full here; skipped");
        return;
    };
    let out = command()
        .args(["fixtures/kif", "--to", "usi", "-q"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write to standard output"),
        "{stderr}"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let out = with_closed_stdout(&["fixtures", "--to", "kif", "-q"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("cannot write"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

const KIF_GAME: &str =
    "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
const KI2_GAME: &str = "手合割：平手\n▲２六歩    △８四歩\nまで2手で中断\n";

/// `a.kif` and `a.ki2` in one folder both map to `a.usi`: every run, with
/// one thread or two, into a fresh folder or over the last run's with
/// `--force`, gives the same tree, holding both games.
#[test]
fn clashing_output_names_keep_both_games_whatever_the_threads() {
    let dir = scratch("clash");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("a.kif"), KIF_GAME).unwrap();
    std::fs::write(input.join("a.ki2"), KI2_GAME).unwrap();
    let forced = dir.join("forced");
    let mut trees = Vec::new();
    for run_number in 0..20 {
        let jobs = if run_number % 2 == 0 { "1" } else { "2" };
        let fresh = dir.join(format!("fresh-{run_number}"));
        for (out, force) in [(&fresh, false), (&forced, true)] {
            let mut args = vec![s(&input), "-o", s(out), "--to", "usi", "-j", jobs];
            if force {
                args.push("--force");
            }
            let result = run(&args);
            assert_eq!(result.status.code(), Some(0), "{result:?}");
            let err = String::from_utf8_lossy(&result.stderr);
            assert!(
                err.contains("a.usi is already an output of") && err.contains("written as"),
                "{err}"
            );
            trees.push(contents(out));
        }
    }
    let expected: BTreeMap<PathBuf, Vec<u8>> = [
        // Inputs in name order: a.ki2 comes first and keeps the name.
        ("a.usi", "position startpos moves 2g2f 8c8d\n"),
        ("a~2.usi", "position startpos moves 7g7f 3c3d\n"),
    ]
    .into_iter()
    .map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec()))
    .collect();
    for tree in &trees {
        assert_eq!(tree, &expected);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An input with several games writes all its files or none: game 2 of 3
/// broken leaves no file for the input, and the input counts as failed.
#[test]
fn a_multi_game_input_with_a_bad_game_writes_nothing() {
    let dir = scratch("all-or-none");
    let games = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+7776FU\n-5544KA\n+2726FU\n%TORYO\n/\nPI\n+\n+2726FU\n-8384FU\n%TORYO\n";
    std::fs::write(dir.join("three.csa"), games).unwrap();
    let out = dir.join("out");
    let report = dir.join("report.tsv");
    let result = run(&[
        s(&dir.join("three.csa")),
        "-o",
        s(&out),
        "--to",
        "kifu",
        "--report",
        s(&report),
    ]);
    assert_eq!(result.status.code(), Some(1));
    assert!(contents(&out).is_empty(), "{:?}", contents(&out).keys());
    let tsv = std::fs::read_to_string(&report).unwrap();
    assert!(tsv.contains("three.csa\tfailed\t2\t"), "{tsv}");
    // The failure names the game.
    assert!(tsv.contains(":11:1: error: game 2 of 3: "), "{tsv}");
    // To standard output the good games are written, and the failure said.
    let result = run(&[s(&dir.join("three.csa")), "--to", "usi"]);
    assert_eq!(result.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&result.stdout),
        "position startpos moves 7g7f 3c3d\nposition startpos moves 2g2f 8c8d\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--report` writes like a shell redirection: never over an input, `-`
/// to standard output, through a symbolic link and into a FIFO.
#[test]
fn the_report_is_written_like_a_redirection() {
    let (dir, game) = scratch_with("report", "a.kif", KIF_GAME);
    let result = run(&[s(&game), "--report", s(&game), "--to", "usi"]);
    assert_eq!(result.status.code(), Some(2));
    assert!(result.stdout.is_empty());
    assert!(String::from_utf8_lossy(&result.stderr).contains("one of the inputs"));
    assert_eq!(std::fs::read_to_string(&game).unwrap(), KIF_GAME);
    // An input found in a folder counts too.
    let result = run(&[s(&dir), "--report", s(&game), "--to", "usi"]);
    assert_eq!(result.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&game).unwrap(), KIF_GAME);

    let result = run(&[s(&game), "--report", "-", "--to", "usi", "-q"]);
    assert_eq!(result.status.code(), Some(0));
    let text = String::from_utf8_lossy(&result.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("position startpos moves 7g7f 3c3d"));
    assert_eq!(
        lines.next(),
        Some("path\tstatus\tgames\tmoves\twarnings\tfirst_error\toutputs")
    );
    assert!(lines.next().unwrap().ends_with("a.kif\tok\t1\t2\t0\t\t"));

    let target = dir.join("target.tsv");
    let link = dir.join("link.tsv");
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let result = run(&[s(&game), "--report", s(&link), "--to", "usi", "-q"]);
    assert_eq!(result.status.code(), Some(0));
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("path\t"));

    let fifo = dir.join("fifo.tsv");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let result = run(&[s(&game), "--report", s(&fifo), "--to", "usi", "-q"]);
    assert_eq!(result.status.code(), Some(0));
    assert!(reader.join().unwrap().starts_with("path\t"));
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The small tools end quietly when their reader has gone, and never panic.
#[test]
fn the_tools_end_quietly_on_a_closed_pipe() {
    let tools: [&[&str]; 4] = [
        &["mate", "8k/7P1/8P/9/9/9/9/9/K8 b 2G 1"],
        &[
            "flip",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "7g7f",
        ],
        &["completions", "bash"],
        &["man"],
    ];
    for args in tools {
        for _ in 0..if args[0] == "mate" { 50 } else { 5 } {
            let out = with_closed_stdout(args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
        let out = command()
            .args(args)
            .stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    }
}

/// Two processes converting the same 10,000 CSA games into one folder at
/// once lose no game: every output holds its own game, and an input whose
/// output the other process placed first is reported failed, not replaced.
#[test]
fn two_processes_into_one_folder_lose_no_game() {
    let Some(bench) = shared("bench") else { return };
    let dir = scratch("two-processes");
    let (archive, out) = (bench.join("csa.zip"), dir.join("out"));
    let truth = std::fs::read_to_string(bench.join("games.usi")).unwrap();
    let manifest = std::fs::read_to_string(bench.join("manifest.tsv")).unwrap();
    let reports = [dir.join("one.tsv"), dir.join("two.tsv")];
    let children: Vec<_> = reports
        .iter()
        .map(|report| {
            command()
                .args([s(&archive), "-o", s(&out), "--to", "usi", "-j", "1", "-q"])
                .args(["--report", s(report)])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        child.wait_with_output().unwrap();
    }
    let mut ok_somewhere = BTreeMap::new();
    for report in &reports {
        for line in std::fs::read_to_string(report).unwrap().lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            match cols[1] {
                "ok" => {
                    ok_somewhere.insert(cols[0].to_string(), cols[6].to_string());
                }
                "failed" => assert!(
                    cols[5].contains("appeared") || cols[5].contains("exists"),
                    "{line}"
                ),
                other => panic!("{other}: {line}"),
            }
        }
    }
    let written = contents(&out);
    assert_eq!(written.len(), 10_000);
    for (row, line) in manifest.lines().skip(1).zip(truth.lines()) {
        let path = row.split('\t').nth(1).unwrap();
        let output = PathBuf::from(format!("{path}.usi"));
        let bytes = written.get(&output).expect("every game has its output");
        assert_eq!(
            String::from_utf8_lossy(bytes),
            format!("{line}\n"),
            "{path}"
        );
        let display = format!("{}:{path}.csa", archive.display());
        assert!(ok_somewhere.contains_key(&display), "{display}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
