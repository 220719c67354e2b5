//! `kifconv analyze` with a real engine (YaneuraOu's material edition):
//! 20 bench games searched at 2,000 nodes a position, every move
//! annotated in the comment dialect its format's programs write, read back
//! as evaluations by `--to hcpe`; the same output twice, with one engine
//! or two; `--skip-existing` resumes; no engine outlives the run.

use crate::util::bin::{run, run_ok, s, scratch, stderr};
use crate::util::engines::{option_args, running, yaneuraou, YANEURAOU_OPTIONS};
use crate::util::shared::shared;
use kifconv::read_bytes;
use kifconv::training::eval;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `dir`, by its path below it, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    out
}

/// The engine as a command line that notes each engine's process id in
/// `pids` before it becomes the engine.
fn engine_line(engine: &Path, pids: &Path) -> String {
    format!("sh -c 'echo $$ >> {}; exec {}'", s(pids), s(engine))
}

/// YaneuraOu, when it and the bench games are there; else `None` (after
/// a note).
fn engine_with_bench() -> Option<PathBuf> {
    let engine = yaneuraou("material")?;
    shared("bench")?;
    Some(engine)
}

/// `kifconv analyze` of the first 20 bench games to `out` as `to`.
fn analyze(engine: &str, out: &Path, to: &str, extra: &[&str]) -> std::process::Output {
    let bench = shared("bench").expect("checked by the caller");
    let zip = bench.join("csa.zip");
    let mut args = vec![
        "analyze",
        s(&zip),
        "--glob",
        "2015/01/game-0000[01][0-9].csa",
        "--glob",
        "2015/01/game-000020.csa",
        "-o",
        s(out),
        "--to",
        to,
        "--engine",
        engine,
        "--nodes",
        "2000",
    ];
    let options = option_args(&YANEURAOU_OPTIONS);
    args.extend(options.iter().map(String::as_str));
    args.extend_from_slice(extra);
    run(&args)
}

/// Each game in `dir` (in path order): the first comment of its first
/// move, whether black makes that move, and the evaluation of every
/// mainline move, black's view (`None` where a move has none).
fn evaluations(dir: &Path) -> Vec<(String, bool, Vec<Option<i32>>)> {
    let mut out = Vec::new();
    for (path, bytes) in files(dir) {
        let records = read_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for record in &records {
            let ids: Vec<_> = record.tree.mainline().collect();
            let first = record.tree.node(ids[0]).comments()[0].clone();
            let black_first = record.start.side_to_move() == kifconv::Color::Black;
            let values = ids.iter().map(|&id| eval::black_view(record, id)).collect();
            out.push((first, black_first, values));
        }
    }
    out
}

#[test]
fn analyses_twenty_games_the_same_each_time_and_hcpe_takes_the_values() {
    let Some(engine) = engine_with_bench() else {
        return;
    };
    let dir = scratch("analyze");
    let pids = dir.join("pids");
    let line = engine_line(&engine, &pids);
    let kif = dir.join("kif");
    let done = analyze(&line, &kif, "kif", &[]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert!(stderr(&done).contains("analysed: "), "{}", stderr(&done));
    let first = files(&kif);
    assert_eq!(first.len(), 20);
    // Every move has a value, in ShogiHome's form.
    let games = evaluations(&kif);
    let moves: usize = games.iter().map(|(_, _, v)| v.len()).sum();
    assert!(moves > 2000, "{moves} moves");
    for (comment, _, values) in &games {
        assert!(
            comment.starts_with("#評価値=") || comment.starts_with("#詰み="),
            "{comment}"
        );
        assert!(values.iter().all(Option::is_some), "a move without a value");
    }
    // The same again, and with two engines searching other games.
    for (name, extra) in [("again", &[][..]), ("two", &["--engines", "2"][..])] {
        let other = dir.join(name);
        let done = analyze(&line, &other, "kif", extra);
        assert!(done.status.success(), "{name}: {}", stderr(&done));
        assert!(files(&other) == first, "{name}: the output differs");
    }
    // floodgate's form in CSA: the same values.
    let csa = dir.join("csa");
    let done = analyze(&line, &csa, "csa", &[]);
    assert!(done.status.success(), "{}", stderr(&done));
    let in_csa = evaluations(&csa);
    assert!(
        in_csa
            .iter()
            .all(|(comment, _, _)| comment.starts_with("* ")),
        "{:?}",
        in_csa[0].0
    );
    let values = |games: &[(String, bool, Vec<Option<i32>>)]| {
        games.iter().map(|(_, _, v)| v.clone()).collect::<Vec<_>>()
    };
    assert!(
        values(&in_csa) == values(&games),
        "CSA's values differ from KIF's"
    );
    // --to hcpe takes them: each entry's value is its move's, from the
    // mover's view, clamped as HCPE stores it.
    let done = run_ok(&[s(&kif), "--to", "hcpe"]);
    let bytes = done.stdout;
    assert_eq!(bytes.len(), moves * 38);
    let stored: Vec<i16> = bytes
        .chunks(38)
        .map(|e| i16::from_le_bytes([e[32], e[33]]))
        .collect();
    let want: Vec<i16> = games
        .iter()
        .flat_map(|(_, black_first, v)| {
            v.iter().enumerate().map(move |(i, value)| {
                let black_moves = (i % 2 == 0) == *black_first;
                let value = value.unwrap();
                let mover = if black_moves { value } else { -value };
                mover.clamp(-32767, 32767) as i16
            })
        })
        .collect();
    let first_difference = stored.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(
        first_difference, None,
        "HCPE's value differs from the comment's"
    );
    let nonzero = stored.iter().filter(|&&v| v != 0).count();
    assert!(
        nonzero * 2 > stored.len(),
        "{nonzero} of {} values are not zero",
        stored.len()
    );
    // Every engine started was ended.
    let started = std::fs::read_to_string(&pids).unwrap();
    let started: Vec<u32> = started.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(started.len(), 1 + 1 + 2 + 1);
    for pid in started {
        assert!(!running(pid), "engine {pid} outlived kifconv");
    }
}

#[test]
fn skip_existing_analyses_only_what_is_missing() {
    let Some(engine) = engine_with_bench() else {
        return;
    };
    let dir = scratch("analyze-resume");
    let line = engine_line(&engine, &dir.join("pids"));
    let out = dir.join("out");
    // A first run cut short: only two games' outputs are there.
    let done = analyze(&line, &out, "ki2", &["--glob", "!*game-0000[01][0-9].csa"]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(files(&out).len(), 1);
    let partial = files(&out);
    let done = analyze(&line, &out, "ki2", &["--skip-existing"]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert!(stderr(&done).contains("skipped"), "{}", stderr(&done));
    let resumed = files(&out);
    assert_eq!(resumed.len(), 20);
    for (path, bytes) in &partial {
        assert_eq!(&resumed[path], bytes, "{}: kept as it was", path.display());
    }
    // A whole run gives the same files.
    let whole = dir.join("whole");
    let done = analyze(&line, &whole, "ki2", &[]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert!(files(&whole) == resumed);
}

#[test]
fn an_analysis_needs_a_format_with_comments_and_an_engine_that_starts() {
    let dir = scratch("analyze-usage");
    let (_, file) = crate::util::bin::scratch_with("analyze-in", "g.csa", "PI\n+\n+7776FU\n");
    // Each usage error: exit 2, and what stderr says.
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["analyze", s(&file)];
        all.extend_from_slice(args);
        let done = run(&all);
        assert_eq!(done.status.code(), Some(2), "{}", stderr(&done));
        assert!(stderr(&done).contains(says), "{}", stderr(&done));
    };
    refused(
        &["--to", "usi", "--engine", "x"],
        "an analysis is written in comments",
    );
    refused(
        &["--to", "kif", "--engine", "/no/such/engine", "-o", s(&dir)],
        "cannot start it",
    );
    refused(
        &["--to", "kif", "--engine", "e", "--option", "Threads"],
        "is not NAME=VALUE",
    );
}
