//! `kifconv tsume generate --method reverse`: problems of 5 and 7 plies
//! grown backwards from a mate (of a random game, or of a bench game with
//! `--from`), judged by the rules core, by cshogi (its answers for the
//! `--seed 1` problems are committed as data: fixtures/tsume/
//! reverse-cshogi.tsv and reverse-games-cshogi.tsv, written by
//! scripts/tsume-reverse-cshogi.py) and by YaneuraOu's mate engine (run
//! here when ../shared is present).

use crate::tsume_extract::bench_subset;
use crate::util::bin::{assert_exit, run, s, scratch, stderr, stdout};
use crate::util::engines::{yaneuraou, yaneuraou_mate};
use crate::util::files::contents;
use kifconv::usi::Mate;
use kifconv::{Color, Move, Position};
use std::path::Path;
use std::time::{Duration, Instant};

/// The problems of a `-o` folder, in file order: start and answer.
fn problems_in(dir: &Path) -> Vec<(Position, Vec<Move>, String)> {
    let mut out = Vec::new();
    for (path, bytes) in contents(dir) {
        let records = kifconv::read_bytes(&bytes).unwrap();
        let record = &records[0];
        let text = String::from_utf8(bytes).unwrap();
        let moves = record.tree.mainline_moves().collect();
        out.push((
            record.start.clone(),
            moves,
            format!("{}\n{text}", path.display()),
        ));
    }
    out
}

/// The rows of the committed cshogi answers (`fixtures/tsume/NAME`) for
/// problems of `length`: (sfen, shorter mate found, mate found).
fn cshogi_rows(name: &str, length: u32) -> Vec<(String, bool, bool)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/tsume")
        .join(name);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[1] == length.to_string())
        .map(|f| (f[0].to_string(), f[2] == "1", f[3] == "1"))
        .collect()
}

fn generate(moves: &str, count: &str, more: &[&str]) -> std::process::Output {
    let args = [
        &[
            "tsume", "generate", "--moves", moves, "--count", count, "--seed", "1",
        ][..],
        more,
    ]
    .concat();
    run(&args)
}

/// Every answer is legal, checks at every attacker move and ends in mate
/// with the attacker's hand empty, in `moves` plies.
fn assert_answers_mate(problems: &[(Position, Vec<Move>, String)], moves: u32) {
    for (start, answer, text) in problems {
        assert_eq!(answer.len(), moves as usize, "{text}");
        assert!(text.contains("評価："), "{text}");
        let mut pos = start.clone();
        for (i, &mv) in answer.iter().enumerate() {
            pos.play(mv)
                .unwrap_or_else(|e| panic!("{text}\nply {}: {e}", i + 1));
            if i % 2 == 0 {
                assert!(pos.is_check(), "{text}\nply {} does not check", i + 1);
            }
        }
        assert!(pos.is_checkmate(), "{text}\nno mate at the end");
        assert!(pos.hand(Color::Black).is_empty(), "{text}\n駒余り");
    }
}

/// cshogi's committed answers (`fixtures/tsume/NAME`) are for exactly the
/// problems of `sfens`, and say: no shorter mate, a mate at the length.
fn assert_cshogi_agrees(name: &str, sfens: &str, moves: u32) {
    let rows = cshogi_rows(name, moves);
    let ours: Vec<&str> = sfens.lines().collect();
    let theirs: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        ours, theirs,
        "rerun scripts/tsume-reverse-cshogi.py: the problems changed"
    );
    for (sfen, shorter, mate) in &rows {
        assert!(!shorter, "{sfen}: cshogi mates in {}", moves - 2);
        assert!(mate, "{sfen}: cshogi finds no mate in {moves}");
    }
}

/// YaneuraOu's mate engine (`engine`) finds a mate in each problem.
fn assert_yaneuraou_mates(engine: &Path, problems: &[(Position, Vec<Move>, String)]) {
    for (start, _, text) in problems {
        let answer = yaneuraou_mate(engine, start, Duration::from_secs(10));
        let Mate::Found(line) = answer else {
            panic!("{text}\nYaneuraOu: {answer:?}");
        };
        let mut pos = start.clone();
        for &mv in &line {
            pos.play(mv).unwrap();
        }
        assert!(pos.is_checkmate(), "{text}\nYaneuraOu's line does not mate");
    }
}

/// The bar: 20 problems of 5 plies and 10 of 7 from `--seed 1`. Every
/// answer is legal, checks at every attacker move and ends in mate with
/// the attacker's hand empty; cshogi finds no shorter mate; YaneuraOu's
/// mate engine finds a mate; a second run writes the same files.
#[test]
fn reverse_problems_of_five_and_seven_plies_are_sound() {
    let mate_engine = yaneuraou("mate");
    for (moves, count) in [(5u32, 20usize), (7, 10)] {
        let dir = scratch(&format!("tsume-reverse-{moves}"));
        let (a, b) = (dir.join("a"), dir.join("b"));
        let started = Instant::now();
        let out = generate(&moves.to_string(), &count.to_string(), &["-o", s(&a)]);
        assert_exit(&out, 0);
        eprintln!(
            "{count} problems of {moves} plies in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        assert_exit(
            &generate(&moves.to_string(), &count.to_string(), &["-o", s(&b)]),
            0,
        );
        assert_eq!(contents(&a), contents(&b), "the same seed, other files");
        let problems = problems_in(&a);
        assert_eq!(problems.len(), count);
        assert_answers_mate(&problems, moves);
        let sfens = stdout(&generate(
            &moves.to_string(),
            &count.to_string(),
            &["--to", "sfen"],
        ));
        assert_cshogi_agrees("reverse-cshogi.tsv", &sfens, moves);
        if let Some(engine) = &mate_engine {
            assert_yaneuraou_mates(engine, &problems);
        }
    }
}

/// `--from` the games: problems of 5 and 7 plies grown from the mates of
/// the first 60 bench games that end in 詰み. Each names the game whose
/// mate it grew from, a game of the archive that ends in 詰み; the answers
/// hold as above, for cshogi and YaneuraOu too; the same seed gives the
/// same files, and another seed other problems.
#[test]
fn reverse_problems_from_the_mates_of_bench_games_are_sound() {
    let dir = scratch("tsume-reverse-games");
    let Some(zip) = bench_subset(&dir, 60, 0) else {
        return;
    };
    let games: Vec<(String, Vec<u8>)> = crate::util::zip::read_all(&zip);
    let mate_engine = yaneuraou("mate");
    for (moves, count) in [(5u32, 10usize), (7, 5)] {
        let (m, c) = (moves.to_string(), count.to_string());
        let (a, b) = (dir.join(format!("a{moves}")), dir.join(format!("b{moves}")));
        let started = Instant::now();
        let out = generate(&m, &c, &["--from", s(&zip), "-o", s(&a)]);
        assert_exit(&out, 0);
        eprintln!(
            "{count} problems of {moves} plies from the games' mates in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        assert_exit(&generate(&m, &c, &["--from", s(&zip), "-o", s(&b)]), 0);
        assert_eq!(contents(&a), contents(&b), "the same seed, other files");
        let problems = problems_in(&a);
        assert_eq!(problems.len(), count);
        assert_answers_mate(&problems, moves);
        for (_, _, text) in &problems {
            let (_, source) = text.split_once("出典：").expect("the source named");
            let name = source
                .split_once(" 第1局の詰みから逆算")
                .unwrap_or_else(|| panic!("{text}"))
                .0;
            let entry = name.strip_prefix(&format!("{}:", zip.display())).unwrap();
            let (_, bytes) = games.iter().find(|(n, _)| n == entry).unwrap();
            let game = &kifconv::read_bytes(bytes).unwrap()[0];
            let mut end = game.start.clone();
            for mv in game.tree.mainline_moves() {
                end.play(mv).unwrap();
            }
            assert!(end.is_checkmate(), "{name} does not end in a mate");
        }
        let sfens = stdout(&generate(&m, &c, &["--from", s(&zip), "--to", "sfen"]));
        assert_cshogi_agrees("reverse-games-cshogi.tsv", &sfens, moves);
        let other = stdout(&run(&[
            "tsume",
            "generate",
            "--moves",
            &m,
            "--count",
            &c,
            "--seed",
            "2",
            "--from",
            s(&zip),
            "--to",
            "sfen",
        ]));
        assert_ne!(sfens, other, "another seed, the same problems");
        if let Some(engine) = &mate_engine {
            assert_yaneuraou_mates(engine, &problems);
        }
    }
    // Games with no mate give none, and say so; --from is the reverse method's.
    let resigned_dir = dir.join("resigned");
    std::fs::create_dir_all(&resigned_dir).unwrap();
    let resigned = bench_subset(&resigned_dir, 0, 5).unwrap();
    let none = generate("5", "1", &["--from", s(&resigned)]);
    assert_exit(&none, 1);
    assert!(
        stderr(&none).contains("ends in a mate"),
        "{}",
        stderr(&none)
    );
    assert_exit(
        &generate("5", "1", &["--from", s(&zip), "--method", "random"]),
        2,
    );
}

/// Each problem carries its quality; `--min-score` keeps only those that
/// reach it, and the random method refuses lengths it cannot make.
#[test]
fn reverse_problems_carry_their_score_and_min_score_filters() {
    let score = |text: &str| -> Vec<i64> {
        text.lines()
            .filter_map(|l| l.split_once("評価："))
            .map(|(_, rest)| rest.split(' ').next().unwrap().parse().unwrap())
            .collect()
    };
    let all = score(&stdout(&generate("5", "6", &[])));
    assert_eq!(all.len(), 6);
    let min = all.iter().copied().max().unwrap();
    let kept = score(&stdout(&generate(
        "5",
        "3",
        &["--min-score", &min.to_string()],
    )));
    assert_eq!(kept.len(), 3);
    assert!(kept.iter().all(|&k| k >= min), "{kept:?} below {min}");
    assert_ne!(all[..3], kept[..], "--min-score changed nothing");

    let out = generate("5", "1", &["--method", "random"]);
    assert_exit(&out, 2);
    assert_exit(&generate("4", "1", &[]), 2);
    // --moves 3 stays the random method, without a score.
    let three = stdout(&generate("3", "1", &[]));
    assert!(!three.contains("評価："), "{three}");
}
