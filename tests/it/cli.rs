//! The `kifconv` binary, run as a user would: single files, folders, zip
//! archives (with Shift_JIS entry names), standard input, failures, output
//! safety, exit codes, the summary and the report.

use crate::util::bin::{
    assert_contains, assert_exit, command, run as kifconv, run_with_input, s, scratch,
    scratch_with, stderr, stdout,
};
use crate::util::files::{relative as tree, under};
use crate::util::shared::shared;
use std::process::{Command, Stdio};

const GAME_KIF: &str =
    "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
const GAME_KI2: &str = "手合割：平手\n▲２六歩    △８四歩\nまで2手で中断\n";
const BROKEN_KIF: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ５五角(88)\n   3 ２六歩(27)\n";

fn sjis(text: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
}

#[test]
fn one_file_to_usi_and_sfen() {
    let out = kifconv(&[
        "fixtures/usi/shogihome-division-input.usi",
        "--to",
        "sfen",
        "-q",
    ]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).lines().collect::<Vec<_>>(),
        [
            "ln1gk2nl/1r1s1sgb1/p1pp1p1pp/1p2p1p2/9/2P1P2P1/PPSP1PP1P/1BG2S1R1/LN2KG1NL w - 14",
            "lns1kg1nl/1r2g1s2/p1ppp1bpp/5pp2/1p5P1/2P3P2/PPBPPPS1P/7R1/LNSGKG1NL b - 15",
            "ln1gk2nl/1r4gs1/p1pspp1pp/3p2p2/1p5P1/2P3P2/PPSPPPN1P/6SR1/LN1GKG2L b Bb 19",
        ]
    );
    let out = kifconv(&["fixtures/kif/jkf-henka.kif"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "position startpos moves 7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 4a3b 6i7h 2b7g+ 8h7g 7a6b\n"
    );
    // Into a pipe, only the warning that USI leaves the variations out: no
    // summary line after a one-file conversion.
    assert_eq!(
        stderr(&out),
        "fixtures/kif/jkf-henka.kif: warning: USI cannot hold variations; left out\n"
    );
    // With -v the summary follows the warning.
    let out = kifconv(&["fixtures/kif/jkf-henka.kif", "-v"]);
    assert_contains(&stderr(&out), "jkf-henka.kif: warning: USI cannot hold variations; left out\n1 files, 1 games, 12 moves, 1 warnings, 0 failed");
}

#[test]
fn plies_flip_and_mainline() {
    let out = kifconv(&[
        "fixtures/kif/jkf-henka.kif",
        "--to",
        "sfen",
        "--all-plies",
        "-q",
    ]);
    // Thirteen positions, then the empty line that ends the game.
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[13], "");
    let out = kifconv(&[
        "fixtures/kif/jkf-henka.kif",
        "--to",
        "sfen",
        "--ply",
        "1",
        "-q",
    ]);
    assert_eq!(
        stdout(&out),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n"
    );
    let out = kifconv(&["fixtures/kif/jkf-henka.kif", "--to", "usi", "--flip", "-q"]);
    assert!(stdout(&out).starts_with("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d 2g2f"));
    let out = kifconv(&[
        "fixtures/kif/jkf-henka.kif",
        "--to",
        "kifu",
        "--mainline",
        "-q",
    ]);
    assert!(!stdout(&out).contains("変化"));
    let out = kifconv(&["fixtures/kif/jkf-henka.kif", "--to", "kifu", "-q"]);
    assert!(stdout(&out).contains("変化：3手"));
    // --ply with another target is a usage error.
    let out = kifconv(&["fixtures/kif/jkf-henka.kif", "--to", "kif", "--ply", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_folder_is_converted_into_a_mirrored_tree() {
    let dir = scratch("folder");
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("a.kif"), sjis(GAME_KIF)).unwrap();
    std::fs::write(input.join("sub/b.ki2"), sjis(GAME_KI2)).unwrap();
    std::fs::write(input.join("notes.txt"), "not a record").unwrap();
    let output = dir.join("out");
    let out = kifconv(&[s(&input), "-o", s(&output), "--to", "usi", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(output.join("a.usi")).unwrap(),
        "position startpos moves 7g7f 3c3d\n"
    );
    assert_eq!(
        std::fs::read_to_string(output.join("sub/b.usi")).unwrap(),
        "position startpos moves 2g2f 8c8d\n"
    );
    assert!(!output.join("notes.usi").exists());
    // Again without --force: the outputs exist, nothing is replaced.
    let out = kifconv(&[s(&input), "-o", s(&output), "--to", "usi", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&stderr(&out), "use --force");
    let out = kifconv(&[s(&input), "-o", s(&output), "--to", "usi", "-q", "--force"]);
    assert!(out.status.success());
    // The inputs are untouched.
    assert_eq!(std::fs::read(input.join("a.kif")).unwrap(), sjis(GAME_KIF));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_zip_with_shift_jis_names_and_one_corrupt_entry() {
    let dir = scratch("zip");
    let archive = dir.join("records.zip");
    let name_a = sjis("棋譜/第一局.kif");
    let name_b = sjis("棋譜/第二局.kif");
    let name_c = sjis("棋譜/第三局.ki2");
    std::fs::write(
        &archive,
        crate::util::zip::stored(&[
            (&name_a, &sjis(GAME_KIF)),
            (&name_b, &sjis(BROKEN_KIF)),
            (&name_c, &sjis(GAME_KI2)),
        ]),
    )
    .unwrap();
    let output = dir.join("out");
    let report = dir.join("report.tsv");
    let out = kifconv(&[
        s(&archive),
        "-o",
        s(&output),
        "--report",
        s(&report),
        "--to",
        "kifu",
        "-v",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    // The failure is reported once, with its place inside the archive.
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    assert!(
        err.contains("records.zip:棋譜/第二局.kif:4:6: error: move 2: no piece of the mover's on the origin square 8h"),
        "{err}"
    );
    assert!(err.contains("3 files, 2 games"), "{err}");
    // Every valid entry converted, under its decoded name; nothing for the bad one.
    assert!(
        output.join("records/棋譜/第一局.kifu").exists()
            || output.join("棋譜/第一局.kifu").exists()
    );
    let converted: Vec<_> = under(&output, &[]);
    assert_eq!(converted.len(), 2, "{converted:?}");
    assert!(converted
        .iter()
        .all(|p| !p.to_string_lossy().contains("第二局")));
    assert!(converted
        .iter()
        .all(|p| !p.to_string_lossy().contains(".tmp")));
    let tsv = std::fs::read_to_string(&report).unwrap();
    assert!(tsv.starts_with("path\tstatus\tgames\tmoves\twarnings\tfirst_error\toutputs\n"));
    assert!(tsv.contains("第一局.kif\tok\t1\t2\t0\t"), "{tsv}");
    assert!(tsv.contains("第二局.kif\tfailed\t0\t0\t0\t"), "{tsv}");
    // To standard output, in archive order, the good games only.
    let out = kifconv(&[s(&archive), "--to", "usi", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "position startpos moves 7g7f 3c3d\nposition startpos moves 2g2f 8c8d\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn standard_input() {
    let out = run_with_input(&["-", "--from", "ki2", "-q"], &sjis(GAME_KI2));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "position startpos moves 2g2f 8c8d\n");
}

/// `-o -` is standard output, as `-` is standard input and `--report -`
/// standard output: the output goes there, and no folder named `-` is made.
#[test]
fn output_dash_is_standard_output() {
    let dir = scratch("output-dash");
    std::fs::write(dir.join("game.kif"), sjis(GAME_KIF)).unwrap();
    let out = command()
        .current_dir(&dir)
        .args(["game.kif", "-o", "-", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "position startpos moves 7g7f 3c3d\n");
    assert!(!dir.join("-").exists());
    // The same for the mate problems `tsume generate` writes as KIF.
    let out = command()
        .current_dir(&dir)
        .args(["tsume", "generate", "--moves", "1", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_contains(&stdout(&out), "手数----指手");
    assert!(!dir.join("-").exists());
}

/// With no input named and standard input not a terminal, standard input
/// is read (`kifconv < game.kif`); an empty one is a failed input.
#[test]
fn no_input_named_reads_standard_input() {
    let run = |input: &[u8]| run_with_input(&["--to", "usi", "-q"], input);
    let out = run(GAME_KI2.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "position startpos moves 2g2f 8c8d\n");
    let out = run(b"");
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&stderr(&out), "<stdin>");
}

#[test]
fn exit_codes() {
    // Usage errors: 2.
    assert_eq!(
        kifconv(&["x.kif", "--to", "nonsense"]).status.code(),
        Some(2)
    );
    assert_eq!(kifconv(&["x.kif", "-j", "0"]).status.code(), Some(2));
    // A missing input is a failed input: 1.
    let out = kifconv(&["does-not-exist.kif", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("does-not-exist.kif: error: no such file"));
    // --help and --version: 0.
    let help = kifconv(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Examples:"));
    assert!(kifconv(&["--version"]).status.success());
}

#[test]
fn a_read_only_output_folder_is_a_fatal_error() {
    let dir = scratch("readonly");
    std::fs::write(dir.join("a.kif"), sjis(GAME_KIF)).unwrap();
    let output = dir.join("out");
    std::fs::create_dir_all(&output).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root can write anywhere; the check only means something for others.
    let probe = output.join("probe");
    let writable = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    let out = kifconv(&[s(&dir.join("a.kif")), "-o", s(&output), "-q"]);
    if writable {
        assert!(out.status.success());
    } else {
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("cannot write to"));
        assert!(under(&output, &[]).is_empty());
    }
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_folder_that_cannot_be_made_is_a_fatal_error() {
    // Root may write into read-only folders; a file where the folder should
    // be cannot be written into by anyone.
    let dir = scratch("notadir");
    std::fs::write(dir.join("a.kif"), sjis(GAME_KIF)).unwrap();
    std::fs::write(dir.join("out"), b"a file").unwrap();
    let out = kifconv(&[s(&dir.join("a.kif")), "-o", s(&dir.join("out")), "-q"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("cannot write to"));
    assert_eq!(std::fs::read(dir.join("out")).unwrap(), b"a file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_never_overwrites_an_input() {
    let dir = scratch("self");
    std::fs::write(dir.join("a.usi"), "position startpos moves 7g7f\n").unwrap();
    let out = kifconv(&[
        s(&dir.join("a.usi")),
        "-o",
        s(&dir),
        "--to",
        "usi",
        "--force",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&stderr(&out), "would overwrite an input");
    assert_eq!(
        std::fs::read_to_string(dir.join("a.usi")).unwrap(),
        "position startpos moves 7g7f\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_thread_and_two_give_the_same_bytes() {
    let one = kifconv(&["fixtures", "--to", "kifu", "-j", "1", "-q"]);
    let two = kifconv(&["fixtures", "--to", "kifu", "-j", "2", "-q"]);
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.status.code(), two.status.code());
}

/// More files than the window of outcomes held in memory, across
/// folders, some of them failing: every thread count writes every game in
/// the walk's order, and reports every failure in that order too.
#[test]
fn many_files_come_out_in_walk_order_with_any_number_of_threads() {
    let dir = scratch("many-files");
    let firsts = ["7g7f", "2g2f", "5g5f", "1g1f", "9g9f", "6g6f", "3g3f"];
    let replies = ["3c3d", "8c8d", "5c5d", "1c1d", "9c9d"];
    let mut expected = Vec::new();
    let mut broken = Vec::new();
    for i in 0..1500 {
        let folder = dir.join(format!("{:02}", i / 100));
        std::fs::create_dir_all(&folder).unwrap();
        let name = format!("{i:04}.usi");
        if i % 97 == 13 {
            std::fs::write(folder.join(&name), "position startpos moves 7g7f x9\n").unwrap();
            broken.push(name);
            continue;
        }
        let line = format!(
            "position startpos moves {} {}",
            firsts[i % firsts.len()],
            replies[(i / firsts.len()) % replies.len()]
        );
        std::fs::write(folder.join(&name), format!("{line}\n")).unwrap();
        expected.push(line);
    }
    for jobs in ["1", "2", "3", "5"] {
        let out = kifconv(&[s(&dir), "--to", "usi", "-j", jobs]);
        assert_eq!(out.status.code(), Some(1), "-j {jobs}: {}", stderr(&out));
        assert_eq!(
            stdout(&out).lines().collect::<Vec<_>>(),
            expected,
            "-j {jobs}"
        );
        let err = stderr(&out);
        // `DIR/NN/NNNN.usi:1:30: error: …`: the file's name.
        let failed: Vec<&str> = err
            .lines()
            .filter(|l| l.contains(": error:"))
            .filter_map(|l| l.rsplit('/').next()?.split(':').next())
            .collect();
        assert_eq!(failed, broken, "-j {jobs}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flip_and_mate_tools() {
    let out = kifconv(&[
        "flip",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        "3c3d",
        "8c8d",
        "4a3b",
    ]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n7g7f 2g2f 6i7h\n"
    );
    // The same position as a position line; a move that is not legal
    // there (black's, or a drop of a piece not in hand) is refused.
    let line = kifconv(&["flip", "position startpos moves 7g7f", "3c3d"]);
    assert_eq!(
        stdout(&line),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n7g7f\n"
    );
    for bad in ["2g2f", "P*5e", "8h2b+"] {
        let out = kifconv(&["flip", "position startpos moves 7g7f", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert_contains(&stderr(&out), bad);
    }
    let out = kifconv(&["mate", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "G*5b\t▲５二金\nunique mate in one\n");
    let out = kifconv(&["mate", "8k/7P1/8P/9/9/9/9/9/K8 b 2G 1"]);
    assert_eq!(
        stdout(&out),
        "G*1b\t▲１二金\nG*2a\t▲２一金\n2 mates in one (not unique: 余詰)\n"
    );
    let out = kifconv(&[
        "mate",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ]);
    assert_eq!(stdout(&out), "no mate in one\n");
    // One ply as more: 1 when there is no mate, 0 when there is.
    assert_eq!(out.status.code(), Some(1));
    let deeper = kifconv(&["mate", "startpos", "--depth", "3"]);
    assert_eq!(deeper.status.code(), Some(1));
    let one = kifconv(&["mate", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "--depth", "1"]);
    assert_eq!(one.status.code(), Some(0));
    let zero = kifconv(&["mate", "startpos", "--depth", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    assert_eq!(kifconv(&["flip", "not an sfen"]).status.code(), Some(2));
}

#[test]
fn completions_and_man_page() {
    let out = kifconv(&["completions", "bash"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("kifconv"));
    let out = kifconv(&["man"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains(".TH kifconv"));
    // A subcommand's page, and one for each into a folder.
    let out = kifconv(&["man", "book", "build"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains(".TH kifconv-book-build"));
    assert_contains(&stdout(&out), r"\-\-flip\-fold");
    let dir = scratch("man");
    let pages = dir.join("pages");
    let out = kifconv(&["man", "--dir", s(&pages)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let names = tree(&pages);
    assert_eq!(
        names,
        [
            "kifconv-analyze.1",
            "kifconv-book-build.1",
            "kifconv-book-check.1",
            "kifconv-book-convert.1",
            "kifconv-book-merge.1",
            "kifconv-book-mine.1",
            "kifconv-book-peta-shock.1",
            "kifconv-book-query.1",
            "kifconv-book-sort.1",
            "kifconv-book.1",
            "kifconv-completions.1",
            "kifconv-engine-check.1",
            "kifconv-engine.1",
            "kifconv-flip.1",
            "kifconv-man.1",
            "kifconv-mate.1",
            "kifconv-serve.1",
            "kifconv-train-check.1",
            "kifconv-train-convert.1",
            "kifconv-train-filter.1",
            "kifconv-train-shuffle.1",
            "kifconv-train-split.1",
            "kifconv-train-uniq.1",
            "kifconv-train.1",
            "kifconv-tsume-check.1",
            "kifconv-tsume-extract.1",
            "kifconv-tsume-generate.1",
            "kifconv-tsume.1",
            "kifconv.1"
        ]
    );
    // Not over the pages already there without --force.
    let out = kifconv(&["man", "--dir", s(&pages)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(kifconv(&["man", "--dir", s(&pages), "--force"])
        .status
        .success());
    let _ = std::fs::remove_dir_all(dir);
}

/// What a format cannot hold is said, once per input, never dropped
/// silently.
#[test]
fn what_a_format_cannot_hold_is_a_warning() {
    let (dir, game) = scratch_with(
        "lost",
        "rich.kifu",
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:03/00:00:03)+\n*a comment\n&bookmark\n   2 ３四歩(33)   ( 0:05/00:00:05)\n\n変化：2手\n   2 ８四歩(83)   ( 0:01/00:00:01)\n",
    );
    let warned = |args: &[&str]| {
        let mut all = vec![s(&game)];
        all.extend_from_slice(args);
        let out = kifconv(&all);
        assert_exit(&out, 0);
        stderr(&out)
            .lines()
            .filter(|l| l.contains("cannot hold"))
            .map(|l| l.split(": warning: ").nth(1).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(warned(&["--to", "kifu"]), Vec::<String>::new());
    assert_eq!(
        warned(&["--to", "ki2u"]),
        ["KI2 cannot hold times; left out"]
    );
    assert_eq!(
        warned(&["--to", "csa"]),
        ["CSA cannot hold variations, bookmarks; left out"]
    );
    assert_eq!(
        warned(&["--to", "csa", "--mainline"]),
        ["CSA cannot hold bookmarks; left out"]
    );
    assert_eq!(
        warned(&["--to", "usi"]),
        ["USI cannot hold variations; left out"]
    );
    assert_eq!(
        warned(&["--to", "sfen", "--mainline"]),
        Vec::<String>::new()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CSA and JKF end a game with a word spoken for the player to move
/// (`%TORYO`: that player resigns), so an end no word says (封じ手; a win
/// by the player who just moved) is warned about, and an end a word says
/// is not. KIF says both in its summary line.
#[test]
fn an_end_no_special_word_says_is_a_warning() {
    let dir = scratch("lost-ending");
    // After two moves black is to move: 投了 there is black's, so white
    // wins; black winning there is said by no word.
    let ends = [
        ("sealed.kifu", "まで2手で封じ手", true),
        ("out-of-turn.kifu", "まで2手で先手の勝ち", true),
        ("resigned.kifu", "まで2手で後手の勝ち", false),
    ];
    for (name, summary, lost) in ends {
        let game = dir.join(name);
        std::fs::write(
            &game,
            format!("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n{summary}\n"),
        )
        .unwrap();
        for to in ["csa", "jkf", "kifu"] {
            let out = kifconv(&[s(&game), "--to", to]);
            assert_exit(&out, 0);
            let warned = stderr(&out).contains("cannot hold how a game ended");
            assert_eq!(
                warned,
                lost && to != "kifu",
                "{name} as {to}: {}",
                stderr(&out)
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two symbolic links to `..` inside a folder: without `-L` they are not
/// followed (a warning each); with `-L` the walk follows them once and
/// still converts each real file once. Either way it finishes at once.
#[test]
fn symbolic_link_loops_are_walked_once() {
    let dir = scratch("links");
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("a.kif"), GAME_KIF).unwrap();
    std::fs::write(input.join("sub/b.ki2"), GAME_KI2).unwrap();
    std::os::unix::fs::symlink("..", input.join("sub/up1")).unwrap();
    std::os::unix::fs::symlink("..", input.join("sub/up2")).unwrap();
    std::os::unix::fs::symlink("a.kif", input.join("same.kif")).unwrap();
    for follow in [false, true] {
        let out_dir = dir.join(format!("out-{follow}"));
        let mut args = vec![s(&input), "-o", s(&out_dir), "--to", "usi"];
        if follow {
            args.push("-L");
        }
        let started = std::time::Instant::now();
        let out = kifconv(&args);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_exit(&out, 0);
        assert_eq!(tree(&out_dir), ["a.usi", "sub/b.usi"], "-L {follow}");
        let err = stderr(&out);
        if follow {
            // up1 leads to `in` itself, already walked; so does up2.
            assert_eq!(err.matches("a folder already walked").count(), 2, "{err}");
        } else {
            assert_eq!(err.matches("not followed").count(), 3, "{err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO in a folder is skipped with a warning rather than read (which
/// would wait forever); other files convert.
#[test]
fn a_fifo_in_a_folder_is_skipped_with_a_warning() {
    let dir = scratch("fifo");
    std::fs::write(dir.join("a.kif"), GAME_KIF).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.join("x.kif"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = kifconv(&[s(&dir), "--to", "usi"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "position startpos moves 7g7f 3c3d\n");
    assert_contains(&stderr(&out), "x.kif: warning: a FIFO, not a file: skipped");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--glob` takes or leaves out the files of folders and archives.
#[test]
fn globs_choose_what_folders_and_archives_yield() {
    let dir = scratch("glob");
    std::fs::create_dir_all(dir.join("old")).unwrap();
    std::fs::write(dir.join("a.kif"), GAME_KIF).unwrap();
    std::fs::write(dir.join("b.ki2"), GAME_KI2).unwrap();
    std::fs::write(dir.join("old/c.kif"), GAME_KIF).unwrap();
    let archive = dir.join("more.zip");
    std::fs::write(
        &archive,
        crate::util::zip::stored(&[
            (b"d.kif", GAME_KIF.as_bytes()),
            (b"e.ki2", GAME_KI2.as_bytes()),
        ]),
    )
    .unwrap();
    let names = |globs: &[&str]| {
        let mut args = vec![s(&dir), "--to", "usi", "--report", "-", "-q"];
        for g in globs {
            args.extend(["--glob", g]);
        }
        let out = kifconv(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
            .lines()
            .filter(|l| l.contains("\tok\t"))
            .map(|l| {
                let path = l.split('\t').next().unwrap();
                path.rsplit(['/', ':']).next().unwrap().to_string()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&[]), ["a.kif", "b.ki2", "d.kif", "e.ki2", "c.kif"]);
    assert_eq!(names(&["*.kif"]), ["a.kif", "d.kif", "c.kif"]);
    assert_eq!(names(&["*.kif", "!old/**"]), ["a.kif", "d.kif"]);
    assert_eq!(names(&["!*.ki2"]), ["a.kif", "d.kif", "c.kif"]);
    let out = kifconv(&[s(&dir), "--glob", "[", "-q"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On a terminal, the progress line redraws at most about ten times a
/// second: converting the 10,000 bench games writes little to it. The
/// zip's directory says how many inputs there are: the line shows the
/// total and the time left.
#[test]
fn progress_on_a_terminal_stays_small() {
    let Some(bench) = shared("bench") else { return };
    let archive = bench.join("kif-sjis.zip");
    let dir = scratch("progress");
    let typescript = dir.join("typescript");
    let command = format!(
        "{} {} --to usi > /dev/null",
        env!("CARGO_BIN_EXE_kifconv"),
        archive.display()
    );
    let status = Command::new("script")
        .args(["-q", "-e", "-c", &command, s(&typescript)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let written = std::fs::read(&typescript).unwrap();
    let text = String::from_utf8_lossy(&written);
    assert!(text.contains("10000 files, 10000 games"), "{text}");
    assert!(
        text.contains("/10,000 files") && text.contains(" left"),
        "{text}"
    );
    assert!(
        written.len() < 50_000,
        "{} bytes of terminal output",
        written.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Text in which nothing is understood, named like a record, is no game:
/// an error, never an empty game with exit 0.
#[test]
fn a_text_that_is_no_record_is_an_error() {
    let (dir, path) = scratch_with(
        "readme",
        "README.kif",
        "This is a README.\nIt talks about shogi.\n",
    );
    let out = kifconv(&[s(&path), "--to", "usi"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_contains(&stderr(&out), "README.kif:1:1: error: this is not a game record: no header, board, move, comment or ending was understood (2 lines not understood, as KIF)");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `.bod` (a board diagram) and `.usen` files found in a folder are read.
#[test]
fn bod_and_usen_files_in_a_folder_are_read() {
    let dir = scratch("bod-usen");
    let fixtures = crate::util::files::fixtures();
    let bod = std::fs::read_dir(fixtures.join("kif"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "bod"))
        .expect("a .bod fixture");
    let usen = std::fs::read_dir(fixtures.join("usi"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "usen"))
        .expect("a .usen fixture");
    std::fs::copy(&bod, dir.join("problem.bod")).unwrap();
    std::fs::copy(&usen, dir.join("game.usen")).unwrap();
    let out = kifconv(&[s(&dir), "--to", "sfen", "--report", "-", "-q"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("game.usen\tok\t"), "{text}");
    assert!(text.contains("problem.bod\tok\t1\t0\t"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `--ply` past the end of a game is an error that names its input.
#[test]
fn a_ply_error_names_its_input() {
    let out = kifconv(&[
        "fixtures/kif/jkf-henka.kif",
        "--to",
        "sfen",
        "--ply",
        "99",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "fixtures/kif/jkf-henka.kif: error: --ply 99: the mainline has only 12 moves\n"
    );
}

#[test]
fn a_folder_is_read_in_the_byte_order_of_its_names_whatever_the_creation_order() {
    let dir = scratch("walk-order");
    // Created out of order; names that sort differently as numbers, in
    // upper and lower case, and by their UTF-8 bytes.
    let games = [
        ("b.usi", "7g7f"),
        ("10.usi", "2g2f"),
        ("a.usi", "5g5f"),
        ("9.usi", "1g1f"),
        ("B.usi", "9g9f"),
        ("角.usi", "3g3f"),
    ];
    for (name, mv) in games {
        std::fs::write(dir.join(name), format!("position startpos moves {mv}\n")).unwrap();
    }
    for jobs in ["1", "2"] {
        let out = kifconv(&[s(&dir), "--to", "usi", "-q", "-j", jobs]);
        assert!(out.status.success(), "{}", stderr(&out));
        let moves: Vec<String> = stdout(&out)
            .lines()
            .map(|l| l.rsplit(' ').next().unwrap().to_string())
            .collect();
        // 10 < 9 < B < a < b < 角 as bytes.
        assert_eq!(
            moves,
            ["2g2f", "1g1f", "9g9f", "5g5f", "7g7f", "3g3f"],
            "-j {jobs}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder named like a subcommand (`book`) is read as `./book`, and
/// `kifconv book …` in its folder says so after clap's error.
#[test]
fn a_folder_named_like_a_subcommand() {
    let dir = scratch("subcommand-folder");
    std::fs::create_dir(dir.join("book")).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/shogihome-v3.csa"),
        dir.join("book/game.csa"),
    )
    .unwrap();
    let out = command()
        .current_dir(&dir)
        .args(["book", "--to", "usi"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(
            "note: `book` is a subcommand; to read the file or folder named book, write ./book\n"
        ),
        "{}",
        stderr(&out)
    );
    let out = command()
        .current_dir(&dir)
        .args(["./book", "--to", "usi"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("position startpos moves 2g2f"));
    // Where no such folder is, no note.
    let out = command().args(["book", "--to", "usi"]).output().unwrap();
    assert!(!stderr(&out).contains("note:"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
}

/// The names of formats and encodings are the library's one table
/// (`kifconv::names`), read as Python reads them: any ASCII case, the
/// aliases taken but not listed in the help.
#[test]
fn format_and_encoding_names_come_from_one_table() {
    let game = crate::util::files::fixtures().join("csa");
    let lower = kifconv(&[s(&game), "--to", "kifu", "-q"]);
    let upper = kifconv(&[s(&game), "--to", "KIFU", "--encoding", "AUTO", "-q"]);
    assert!(upper.status.success(), "{}", stderr(&upper));
    assert!(upper.stdout == lower.stdout, "the same names read the same");
    let alias = kifconv(&[
        s(&game),
        "--encoding",
        "Shift_JIS",
        "--out-encoding",
        "utf8",
    ]);
    assert_ne!(alias.status.code(), Some(2), "{}", stderr(&alias));
    let help = stdout(&kifconv(&["--help"]));
    for (name, _, listed) in kifconv::names::INPUT_ENCODINGS {
        assert_eq!(
            help.contains(&format!("- {name}:")),
            !listed.is_empty(),
            "{name}"
        );
    }
    for (name, _, _) in kifconv::names::TARGETS {
        assert!(help.contains(&format!("- {name}:")), "{name}");
    }
}

/// The games of one input written with `-o` are named so that a listing
/// of the folder is in game order: twelve CSA games, `g-01.kif` (one move)
/// to `g-12.kif` (twelve moves).
#[test]
fn the_games_of_one_input_are_named_in_game_order() {
    let moves = "+7776FU -3334FU +2726FU -8384FU +2625FU -8485FU +6978KI -4132KI +2524FU -2324FU +2824HI -8586FU";
    let moves: Vec<&str> = moves.split(' ').collect();
    let games: Vec<String> = (1..=12)
        .map(|n| format!("V2.2\nPI\n+\n{}\n", moves[..n].join("\n")))
        .collect();
    let (dir, input) = scratch_with("game-names", "g.csa", games.join("/\n"));
    let out = dir.join("out");
    let result = kifconv(&[s(&input), "-o", s(&out), "--to", "kif"]);
    assert!(result.status.success(), "{}", stderr(&result));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=12).map(|n| format!("g-{n:02}.kif")).collect();
    assert_eq!(names, expected);
    for (n, name) in names.iter().enumerate() {
        let usi = kifconv(&[s(&out.join(name)), "--to", "usi"]);
        let played = stdout(&usi).split_whitespace().count() - 3;
        assert_eq!(played, n + 1, "{name}");
    }
    // Every position of every game: an empty line ends each game, and the
    // whole reads back, a position a line.
    let sfen = kifconv(&[s(&input), "--to", "sfen", "--all-plies"]);
    let text = stdout(&sfen);
    let blocks: Vec<&str> = text.trim_end().split("\n\n").collect();
    assert_eq!(blocks.len(), 12);
    for (n, block) in blocks.iter().enumerate() {
        assert_eq!(block.lines().count(), n + 2, "game {}", n + 1);
    }
    let back = run_with_input(&["-", "--to", "sfen"], text.as_bytes());
    assert!(back.status.success(), "{}", stderr(&back));
    let positions: usize = (1..=12).map(|n| n + 1).sum();
    assert_eq!(stdout(&back).lines().count(), positions);
}

/// A character Shift_JIS cannot hold (𠮷, outside JIS X 0208) fails the
/// input at that character's line and column, with the line shown; UTF-8
/// output holds it.
#[test]
fn an_unencodable_character_is_an_error_at_its_place() {
    let (_dir, input) = scratch_with(
        "unencodable",
        "yoshida.kifu",
        "先手：山田\n後手：𠮷田\n▲７六歩 △３四歩\n",
    );
    let out = kifconv(&[s(&input), "--to", "kif"]);
    assert_exit(&out, 1);
    let err = stderr(&out);
    assert_contains(
        &err,
        "yoshida.kifu:2:4: error: `𠮷` cannot be written in Shift_JIS",
    );
    assert_contains(&err, "2 | 後手：𠮷田");
    assert!(out.stdout.is_empty());
    let out = kifconv(&[s(&input), "--to", "kifu"]);
    assert_exit(&out, 0);
    assert_contains(&stdout(&out), "後手：𠮷田");
}

/// With `--lossy` each character Shift_JIS cannot hold is written as 〓,
/// with a warning at its line and column; the rest is unchanged.
#[test]
fn lossy_writes_an_unencodable_character_as_a_mark_with_a_warning() {
    let (_dir, input) = scratch_with(
        "lossy",
        "yoshida.kifu",
        "先手：山田\n後手：𠮷田\n▲７六歩\n*𠮷の一手\n△３四歩\n",
    );
    let out = kifconv(&[s(&input), "--to", "kif", "--lossy"]);
    assert_exit(&out, 0);
    let err = stderr(&out);
    assert_contains(
        &err,
        "yoshida.kifu:2:4: warning: `𠮷` cannot be written in Shift_JIS (CP932); written as 〓",
    );
    assert_contains(&err, "yoshida.kifu:4:2: warning: `𠮷`");
    let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(&out.stdout);
    assert!(!bad);
    assert_contains(&text, "後手：〓田");
    assert_contains(&text, "*〓の一手");
    assert_contains(&text, "先手：山田");
    // Without a character to replace, --lossy changes nothing.
    let plain = kifconv(&["fixtures/kif/shogihome-sjis.kif", "--to", "kif"]);
    let lossy = kifconv(&["fixtures/kif/shogihome-sjis.kif", "--to", "kif", "--lossy"]);
    assert_eq!(plain.stdout, lossy.stdout);
    assert_eq!(stderr(&plain), stderr(&lossy));
}

/// JSON is UTF-8 by definition: `--out-encoding` is refused with `--to jkf`
/// rather than writing Shift_JIS JSON.
#[test]
fn out_encoding_does_not_apply_to_json() {
    let out = kifconv(&[
        "fixtures/kif/jkf-henka.kif",
        "--to",
        "jkf",
        "--out-encoding",
        "sjis",
    ]);
    assert_exit(&out, 2);
    assert_contains(&stderr(&out), "JSON is UTF-8 by definition");
    assert!(out.stdout.is_empty());
    let out = kifconv(&[
        "fixtures/kif/jkf-henka.kif",
        "--to",
        "jkf",
        "--out-encoding",
        "utf-8",
    ]);
    assert_exit(&out, 0);
}
