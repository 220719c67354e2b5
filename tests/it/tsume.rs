//! The mate solver, `kifconv mate --depth`, `tsume check` and `tsume
//! generate`: against cshogi's answers (committed as data, so no cshogi is
//! needed here), on composed problems, and through the binary.

use crate::util::bin::{assert_exit, run, run_with_input, s, scratch_with, stdout};
use crate::util::files::relative;
use kifconv::position::KingRule;
use kifconv::tsume::{self, Limits, Outcome};
use kifconv::{Position, Setup};
use std::process::Output;

fn problem(sfen: &str) -> Position {
    Position::from_setup(Setup::from_sfen(sfen).unwrap(), KingRule::MayBeMissing).unwrap()
}

/// Replays a main line: every attacker move checks, and it ends in mate.
fn assert_mating_line(pos: &Position, line: &[kifconv::Move]) {
    let mut end = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        assert!(
            end.is_legal(mv),
            "{} ply {}: {mv} illegal",
            pos.sfen(),
            i + 1
        );
        end.play_unchecked(mv);
        if i % 2 == 0 {
            assert!(
                end.is_check(),
                "{} ply {}: {mv} does not check",
                pos.sfen(),
                i + 1
            );
        }
    }
    assert!(end.is_checkmate(), "{}: the line does not mate", pos.sfen());
}

/// The bench positions' search: DfPn's depth, and nodes enough for each.
const BENCH_LIMITS: Limits = Limits {
    depth: 7,
    nodes: 2_000_000,
};

/// fixtures/tsume/cshogi-mates.tsv (scripts/tsume-cshogi-mates.py): 1,000
/// positions from the bench games' last plies, each with its SFEN and
/// cshogi's mate_move_in_1ply, mate_move(3) and DfPn (depth 7) answers.
fn cshogi_mates() -> Vec<(String, Position, [u32; 3])> {
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/tsume/cshogi-mates.tsv"
    ))
    .unwrap();
    let mut rows = Vec::new();
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [sfen, mate1, mate3, dfpn7] = fields[..] else {
            panic!("bad row {line}");
        };
        let answers = [mate1, mate3, dfpn7].map(|a| a.parse().unwrap());
        // Some bench games leave a pawn on the last rank: read as the
        // command reads positions.
        let (pos, _) = Position::from_setup_lenient(Setup::from_sfen(sfen).unwrap()).unwrap();
        rows.push((sfen.to_string(), pos, answers));
    }
    rows
}

/// The solver must agree with cshogi on whether there is a mate and on
/// its length.
#[test]
fn solver_agrees_with_cshogi_on_bench_positions() {
    let mut rows = 0;
    let mut mates = [0usize; 8];
    for (sfen, pos, [mate1, mate3, dfpn7]) in cshogi_mates() {
        let length = match tsume::solve(&pos, BENCH_LIMITS) {
            Outcome::Mate(mate) => {
                assert_mating_line(&pos, &mate.line);
                assert!(mate.first_moves.contains(&mate.line[0]));
                mate.len() as u32
            }
            Outcome::NoMate => 0,
            Outcome::Unknown => panic!("{sfen}: out of nodes"),
        };
        // cshogi's one-ply search misses some mates (discovered checks), so
        // its "yes" is binding and its "no" is not.
        if mate1 == 1 {
            assert_eq!(length, 1, "{sfen}: cshogi mates in one");
        }
        assert_eq!(
            mate3 == 1,
            length == 1 || length == 3,
            "{sfen}: cshogi mate_move(3) says {mate3}, we say {length}"
        );
        // DfPn(7)'s line is a mate, not always the shortest; it found one
        // exactly when there is one within 7 (one of its lines runs to 9).
        assert_eq!(
            dfpn7 > 0,
            length > 0 || dfpn7 > 7,
            "{sfen}: DfPn {dfpn7}, we {length}"
        );
        if length > 0 {
            assert!(length <= dfpn7, "{sfen}: DfPn {dfpn7}, we {length}");
        }
        if length == 0 && dfpn7 > 7 {
            assert!(matches!(
                tsume::solve(&pos, Limits { depth: dfpn7, nodes: 2_000_000 }),
                Outcome::Mate(m) if m.len() as u32 <= dfpn7
            ));
        }
        mates[length as usize] += 1;
        rows += 1;
    }
    assert_eq!(rows, 1000);
    // What the data holds (a change to the data changes these on purpose).
    assert_eq!(mates[1], 43, "{mates:?}");
    assert_eq!(mates[3], 30, "{mates:?}");
    assert!(mates[5] + mates[7] >= 29, "{mates:?}");
}

#[test]
fn mate_depth_prints_the_main_line_in_usi_and_jsa() {
    let out = run(&["mate", "2k6/s8/4+R4/9/9/9/9/9/9 b GB 1", "--depth", "5"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "mate in 3\n5c7c 7a6a G*6b\n▲７三龍 △６一玉 ▲６二金\nfirst move unique\n"
    );
    let out = run(&["mate", "startpos", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "no mate within 3 plies\n"
    );
    let out = run(&[
        "mate",
        "2k6/s8/4+R4/9/9/9/9/9/9 b GB 1",
        "--depth",
        "5",
        "--nodes",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("unknown"));
    // Without --depth, today's mate-in-one listing.
    let out = run(&["mate", "4k4/9/4P4/9/9/9/9/9/9 b G 1"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "G*5b\t▲５二金\nunique mate in one\n"
    );
}

/// The benchmark's mode: positions from standard input, one a line, each
/// answered on a line of its own after the microseconds it took.
#[test]
fn mate_timed_answers_each_line_of_standard_input() {
    let input = "2k6/s8/4+R4/9/9/9/9/9/9 b GB 1\nstartpos\n\nsfen nonsense\n";
    let out = run_with_input(&["mate", "-", "--depth", "5", "--timed"], input.as_bytes());
    assert_exit(&out, 0);
    let text = stdout(&out);
    let lines: Vec<(u64, &str)> = text
        .lines()
        .map(|l| {
            let (micros, answer) = l.split_once('\t').unwrap();
            (micros.parse().unwrap(), answer)
        })
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0].1, "mate in 3");
    assert_eq!(lines[1].1, "no mate");
    assert!(lines[2].1.starts_with("error: "), "{text}");
    // A position on the command line is refused with --timed.
    let out = run(&["mate", "startpos", "--depth", "5", "--timed"]);
    assert_exit(&out, 2);
}

#[test]
fn two_first_moves_are_reported() {
    // A king in the corner behind two pawns: a gold on 1b or on 2b mates.
    let pos = problem("8k/9/7PP/9/9/9/9/9/9 b G 1");
    let Outcome::Mate(mate) = tsume::solve(&pos, Limits::default()) else {
        panic!("no mate");
    };
    let mut firsts: Vec<String> = mate.first_moves.iter().map(|m| m.to_string()).collect();
    firsts.sort();
    assert_eq!(firsts, ["G*1b", "G*2b"]);
    assert_eq!(mate.len(), 1);
    assert!(!mate.unique_first());
    let out = run(&["mate", "8k/9/7PP/9/9/9/9/9/9 b G 1", "--depth", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("first move not unique (余詰)"), "{text}");
}

/// `kifconv tsume check` with `args`: its exit code and standard output.
fn tsume_check(args: &[&str]) -> (i32, String) {
    let out = run(&[&["tsume", "check"], args].concat());
    (out.status.code().unwrap(), stdout(&out))
}

/// `kifconv tsume generate`: `count` problems of `moves` plies from
/// `seed`, with `more` arguments after.
fn tsume_generate(moves: &str, count: &str, seed: &str, more: &[&str]) -> Output {
    let args = ["tsume", "generate", "--moves", moves, "--count", count];
    run(&[&args[..], &["--seed", seed], more].concat())
}

fn check_fixture(name: &str) -> (i32, String) {
    tsume_check(&[&format!("fixtures/tsume/{name}")])
}

#[test]
fn tsume_check_flags_unsound_problems() {
    let (code, text) = check_fixture("two-answers.kifu");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "unsound: ply 1: 余詰 (another move mates in 1, as the answer does): ▲２二金 (G*2b)"
        ),
        "{text}"
    );
    let (code, text) = check_fixture("leftover-piece.kifu");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("unsound: pieces left in hand (駒余り): G"),
        "{text}"
    );
    let (code, text) = check_fixture("answer-not-mate.kifu");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("unsound: the recorded answer does not mate"),
        "{text}"
    );
}

#[test]
fn tsume_check_passes_sound_problems_in_every_format() {
    for (name, length) in [
        ("sound-mate1.kifu", 1),
        ("sound-mate3.kifu", 3),
        ("sound-mate3.ki2u", 3),
        ("sound-mate5.kifu", 5),
        ("sound-mate5.csa", 5),
        ("sound-mate7.kifu", 7),
        ("sound-mate7-board.bod", 7),
    ] {
        let (code, text) = check_fixture(name);
        assert_eq!(code, 0, "{name}: {text}");
        assert!(
            text.contains(&format!("shortest mate: {length}\n")),
            "{name}: {text}"
        );
        assert!(
            text.contains(&format!("mates in {length}\n")),
            "{name}: {text}"
        );
    }
    // Several files at once; one unsound makes the exit 1.
    let (code, text) = tsume_check(&[
        "fixtures/tsume/sound-mate1.kifu",
        "fixtures/tsume/two-answers.kifu",
    ]);
    assert_eq!(code, 1, "{text}");
}

#[test]
fn futile_interpositions_do_not_lengthen_a_mate() {
    // A CSA problem with P-00AL (the defender holds every other piece): by
    // the rules the king can run and the defender drop golds in the
    // bishop's way for 9 plies; those drops are futile, and the recorded
    // three-ply answer is the problem's length.
    let (code, text) = tsume_check(&["fixtures/csa/skc-tsume.csa"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("shortest mate: 3 (9 by the rules, counting futile interpositions)"),
        "{text}"
    );
    // A rook dropped from afar on a cornered king: every interposition is
    // futile, so it is a mate in one.
    let pos = problem("7lk/9/7G1/9/9/9/9/9/9 b R2b3g4s4n3l18p 1");
    let answer = [kifconv::Move::from_usi("R*1i").unwrap()];
    let report = tsume::check(&pos, &answer, Limits::default());
    assert!(report.answer_mates, "{report:?}");
    assert_eq!(report.answer_length, 1);
    assert_eq!(report.length, Some(1));
    // (A rook dropped next to the king mates too: a rival.)
    assert!(report
        .first_rivals
        .contains(&kifconv::Move::from_usi("R*1b").unwrap()));
}

#[test]
fn tsume_generate_writes_sound_problems_kifconv_reads_back() {
    let dir = crate::util::bin::scratch("tsume-generate");
    let out_dir = dir.join("out");
    let args = |dir: &std::path::Path| tsume_generate("3", "4", "5", &["-o", s(dir)]);
    assert_eq!(args(&out_dir).status.code(), Some(0));
    let names = relative(&out_dir);
    assert_eq!(
        names,
        [
            "tsume-0001.kifu",
            "tsume-0002.kifu",
            "tsume-0003.kifu",
            "tsume-0004.kifu"
        ]
    );
    // Again into the same folder: refused without --force.
    assert_eq!(args(&out_dir).status.code(), Some(2));
    let again = dir.join("again");
    args(&again);
    for name in &names {
        let text = std::fs::read_to_string(out_dir.join(name)).unwrap();
        assert_eq!(text, std::fs::read_to_string(again.join(name)).unwrap());
        assert!(text.contains("先手：詰方\n後手：玉方\n"), "{text}");
        assert!(text.contains("後手の持駒："), "{text}");
        assert!(!text.contains("残り"), "{text}");
        assert!(text.ends_with("まで3手で詰み\n"), "{text}");
        let (code, report) = tsume_check(&[s(&out_dir.join(name))]);
        assert_eq!(code, 0, "{report}");
        assert!(report.contains("shortest mate: 3\n"), "{report}");
    }
    // `--to kif` is Shift_JIS, as everywhere: the same problems as
    // `.kif` files, and with --force they take the place of the `.kifu` ones.
    let sjis = tsume_generate(
        "3",
        "4",
        "5",
        &["--to", "kif", "--force", "-o", s(&out_dir)],
    );
    assert_exit(&sjis, 0);
    for name in &names {
        let kif = out_dir.join(name).with_extension("kif");
        let bytes = std::fs::read(&kif).unwrap();
        let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
        assert!(
            !bad && std::str::from_utf8(&bytes).is_err(),
            "{}",
            kif.display()
        );
        let utf8 = std::fs::read_to_string(again.join(name)).unwrap();
        let body = |t: &str| t.split_once('\n').unwrap().1.to_string();
        assert!(
            text.starts_with("#KIF version=2.0 encoding=Shift_JIS\n"),
            "{text}"
        );
        assert_eq!(body(&text), body(&utf8));
        assert!(
            !out_dir.join(name).exists(),
            "{name} was left beside the .kif"
        );
    }
    // One SFEN a line, the same problems.
    let text = stdout(&tsume_generate("1", "5", "2", &["--to", "sfen"]));
    assert_eq!(text.lines().count(), 5);
    for sfen in text.lines() {
        let pos = problem(sfen);
        assert_eq!(tsume::mates_in_one(&pos).len(), 1, "{sfen}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every bench position with a mate within 7 plies: the check's own main
/// line (no answer recorded) mates, in the counted length, never longer
/// than the rules' length.
#[test]
fn the_checks_main_line_mates_on_bench_positions() {
    let mut checked = 0;
    for (sfen, pos, [_, _, dfpn7]) in cshogi_mates() {
        if dfpn7 == 0 {
            continue;
        }
        let report = tsume::check(&pos, &[], BENCH_LIMITS);
        let Some(length) = report.length else {
            continue; // DfPn's one 9-ply line
        };
        assert!(report.answer_mates, "{sfen}: {report:?}");
        assert_eq!(report.answer_length, length, "{sfen}");
        assert!(length <= report.rules_length.unwrap(), "{sfen}");
        checked += 1;
    }
    assert!(checked >= 100, "{checked}");
}

/// A huge --depth costs nothing when the attacker's checks run out: with
/// no check at all, or with checks that all end without another, the
/// answer is "no mate" within a budget of a hundred nodes (each bound of
/// the iterative deepening used to spend at least one).
#[test]
fn a_huge_depth_is_cheap_when_the_checks_run_out() {
    // Black has a lone king and a gold in hand far from White's king: no
    // check at all.
    for sfen in [
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        "8k/9/9/9/9/9/9/9/K8 b G 1",
        // A gold in hand beside the king: checks, each answered by a
        // capture or an escape after which nothing checks.
        "4k4/9/9/9/9/9/9/9/4K4 b G 1",
    ] {
        let out = run(&["mate", sfen, "--depth", "1001", "--nodes", "100"]);
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "no mate within 1001 plies\n",
            "{sfen}"
        );
        assert_eq!(out.status.code(), Some(1), "{sfen}");
    }
    // A mate is still found with a huge bound.
    let out = run(&["mate", "2k6/s8/4+R4/9/9/9/9/9/9 b GB 1", "--depth", "1001"]);
    assert_eq!(out.status.code(), Some(0));
}

/// The sound mate in seven with a budget too small to prove it: unknown,
/// exit 3, never "unsound".
#[test]
fn a_budget_that_runs_out_is_unknown_not_unsound() {
    let (code, text) = tsume_check(&["fixtures/tsume/sound-mate7.kifu", "--nodes", "100"]);
    assert_eq!(code, 3, "{text}");
    assert!(
        text.starts_with("fixtures/tsume/sound-mate7.kifu: game 1: unknown\n"),
        "{text}"
    );
    assert!(!text.contains("unsound"), "{text}");
    // A depth too short for it: not proven, exit 3 too.
    let (code, text) = tsume_check(&["fixtures/tsume/sound-mate7.kifu", "--depth", "5"]);
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("game 1: not proven\n"), "{text}");
    assert!(text.contains("no mate within 5 plies"), "{text}");
    // With an unsound problem beside it, 1 wins over 3.
    let (code, text) = tsume_check(&[
        "fixtures/tsume/sound-mate7.kifu",
        "fixtures/tsume/two-answers.kifu",
        "--depth",
        "5",
    ]);
    assert_eq!(code, 1, "{text}");
}

/// A folder is walked as conversion walks one: every problem in it is
/// checked (the `.tsv` beside them is no record and is left alone), and
/// the exit code is the worst verdict's.
#[test]
fn tsume_check_walks_a_folder() {
    let out = run(&["tsume", "check", "fixtures/tsume/"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let mut verdicts: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
    verdicts.sort();
    assert_eq!(
        verdicts,
        [
            "fixtures/tsume/answer-not-mate.kifu: game 1: unsound",
            "fixtures/tsume/flaw-hendou.kifu: game 1: sound with flaws",
            "fixtures/tsume/flaw-higentei-drop.kifu: game 1: sound with flaws",
            "fixtures/tsume/flaw-higentei-promotion.kifu: game 1: sound with flaws",
            "fixtures/tsume/flaw-tejun-zengo.kifu: game 1: unsound",
            "fixtures/tsume/leftover-piece.kifu: game 1: unsound",
            "fixtures/tsume/note-last-move-yozume.kifu: game 1: sound",
            "fixtures/tsume/note-ukai.kifu: game 1: sound",
            "fixtures/tsume/sound-mate1.kifu: game 1: sound",
            "fixtures/tsume/sound-mate3.ki2u: game 1: sound",
            "fixtures/tsume/sound-mate3.kifu: game 1: sound",
            "fixtures/tsume/sound-mate5.csa: game 1: sound",
            "fixtures/tsume/sound-mate5.kifu: game 1: sound",
            "fixtures/tsume/sound-mate7-board.bod: game 1: sound",
            "fixtures/tsume/sound-mate7.kifu: game 1: sound",
            "fixtures/tsume/two-answers.kifu: game 1: unsound",
            "fixtures/tsume/unsound-hayazume.kifu: game 1: unsound",
            "fixtures/tsume/unsound-henchou.kifu: game 1: unsound",
            "fixtures/tsume/unsound-yozume.kifu: game 1: unsound",
        ],
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
    // Only the sound ones (--glob, as conversion takes it): exit 0.
    let (code, text) = tsume_check(&["fixtures/tsume/", "--glob", "sound-*"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(text.matches(": sound\n").count(), 7, "{text}");
}

/// A USI file of three problems whose second line cannot be read: the
/// other two are checked, the second is named on standard error, exit 1.
#[test]
fn tsume_check_reports_every_readable_problem_of_a_multi_game_input() {
    let (dir, path) = scratch_with(
        "tsume-multi",
        "problems.usi",
        "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b\n\
         position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b 5a4a 9i9h\n\
         position sfen 6p1k/7P1/8s/7sB/9/9/9/9/9 b RBr4g2s4n4l16p 1 moves R*2a 1a1b B*2c\n",
    );
    let shown = path.to_str().unwrap();
    let out = run(&["tsume", "check", shown]);
    let text = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}{stderr}");
    let verdicts: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        verdicts,
        [
            format!("{shown}: game 1: sound"),
            format!("{shown}: game 3: sound")
        ],
        "{text}"
    );
    assert!(text.contains("shortest mate: 3\n"), "{text}");
    assert!(!text.contains("game 2"), "{text}");
    assert!(
        stderr.contains(&format!("{shown}:2:69: error: game 2 of 3: move 2:")),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A recorded answer with an illegal move is unsound, the move named: the
/// last move illegal (the reader keeps it as a foul ending, with a warning
/// shown on standard error), or one in a USI line.
#[test]
fn an_illegal_move_in_the_answer_is_unsound_and_named() {
    let dir = crate::util::bin::scratch("tsume-illegal");
    let sound = std::fs::read_to_string("fixtures/tsume/sound-mate3.kifu").unwrap();
    // ▲２三角打 becomes ▲２二角打, a drop on the pawn at 2b.
    let bad = sound.replace("   3 ２三角打", "   3 ２二角打");
    assert_ne!(bad, sound);
    let path = dir.join("illegal.kifu");
    std::fs::write(&path, bad).unwrap();
    let out = run(&["tsume", "check", path.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("game 1: unsound\n"), "{text}");
    assert!(
        text.contains(
            "unsound: the recorded answer's move 3 (B*2b) is illegal: a piece cannot be dropped on an occupied square\n"
        ),
        "{text}"
    );
    assert!(
        stderr.contains("illegal.kifu:21:6: warning: move 3 is illegal"),
        "{stderr}"
    );
    // A USI answer whose defender move leaves its king in check.
    let path = dir.join("illegal.usi");
    std::fs::write(
        &path,
        "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b 5a5b\n",
    )
    .unwrap();
    let (code, text) = tsume_check(&[s(&path)]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("unsound: the recorded answer's move 2 (5a5b) is illegal"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
/// `tsume generate --force` into a folder of a larger earlier run leaves
/// exactly this run's problems (other files untouched); without --force
/// the folder is refused before anything is written.
#[test]
fn tsume_generate_force_leaves_exactly_this_runs_problems() {
    let dir = crate::util::bin::scratch("tsume-generate-force");
    let out_dir = dir.join("out");
    let generate = |count: &str, seed: &str, force: bool| {
        let force: &[&str] = if force { &["--force"] } else { &[] };
        tsume_generate("1", count, seed, &[&["-o", s(&out_dir)], force].concat())
    };
    let names = || relative(&out_dir);
    assert_eq!(generate("5", "1", false).status.code(), Some(0));
    // Files that are not the generator's are never touched.
    for other in ["notes.txt", "tsume-01.kifu", "tsume-0001.txt"] {
        std::fs::write(out_dir.join(other), "mine").unwrap();
    }
    let before = names();
    // Without --force: refused, nothing written.
    let first = std::fs::read(out_dir.join("tsume-0001.kifu")).unwrap();
    let out = generate("2", "9", false);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(names(), before);
    assert_eq!(
        std::fs::read(out_dir.join("tsume-0001.kifu")).unwrap(),
        first
    );
    // With --force, a smaller run: its two problems, and the earlier run's
    // three others gone.
    let out = generate("2", "9", true);
    assert_exit(&out, 0);
    assert_eq!(
        names(),
        [
            "notes.txt",
            "tsume-0001.kifu",
            "tsume-0001.txt",
            "tsume-0002.kifu",
            "tsume-01.kifu"
        ]
    );
    let fresh = dir.join("fresh");
    tsume_generate("1", "2", "9", &["-o", s(&fresh)]);
    for name in ["tsume-0001.kifu", "tsume-0002.kifu"] {
        assert_eq!(
            std::fs::read(out_dir.join(name)).unwrap(),
            std::fs::read(fresh.join(name)).unwrap()
        );
    }
    for other in ["notes.txt", "tsume-01.kifu", "tsume-0001.txt"] {
        assert_eq!(std::fs::read(out_dir.join(other)).unwrap(), b"mine");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
