//! `--to hcpe`, `--to hcpe3` and `--to psv` from the command, with the
//! filters of dlshogi's scripts: which games of fixtures/training/filters/
//! each filter leaves out (the six games are described below), what the
//! summary says, and that the bytes are the library's for the games kept.
//!
//! | file | ratings (black, white) | moves | end | evals |
//! |---|---|---|---|---|
//! | aborted | 3900, 3900 | 6 (the same six) | %CHUDAN | 1, 11, 21, … |
//! | low-rated-loser | 2000, 3900 | the same six; black resigns | %TORYO | 2, 12, … |
//! | no-eval | 3900, 3900 | the same six | %TORYO | none |
//! | rated-resign | 3900, 3700 | the same six; black resigns | %TORYO | 5, 15, … |
//! | short | 3900, 3900 | 2; black resigns | %TORYO | 3, 13 |
//! | weak-winner | 2000, 3900 | the six and 6i7h; white resigns | %TORYO | 4, 14, … |
//!
//! The evaluations differ from game to game, so every game's bytes are its
//! own.

use crate::util::bin::{
    assert_contains, assert_exit, run, run_ok, run_with_input, s, scratch, stderr, stderr_line,
};
use kifconv::training::{hcpe, psv};

const DIR: &str = "fixtures/training/filters";
const ALL: [&str; 6] = [
    "aborted",
    "low-rated-loser",
    "no-eval",
    "rated-resign",
    "short",
    "weak-winner",
];

/// The HCPE the library writes for one fixture game, all its positions.
fn hcpe_of(name: &str) -> Vec<u8> {
    let records =
        kifconv::read(format!("{}/{DIR}/{name}.csa", env!("CARGO_MANIFEST_DIR"))).unwrap();
    hcpe::entries(&records[0]).unwrap().0.concat()
}

/// Runs `--to hcpe` on the folder with `filters`; the games kept, told by
/// their bytes, and the summary's training line.
fn kept(filters: &[&str]) -> (Vec<&'static str>, String) {
    let mut args = vec![DIR, "--to", "hcpe", "-j", "2"];
    args.extend_from_slice(filters);
    let out = run_ok(&args);
    let mut bytes = out.stdout.as_slice();
    let mut games = Vec::new();
    // Outputs come in input order (the folder's, by name).
    for name in ALL {
        let own = hcpe_of(name);
        if bytes.starts_with(&own) && !own.is_empty() {
            games.push(name);
            bytes = &bytes[own.len()..];
        }
    }
    assert!(bytes.is_empty(), "{} bytes left over", bytes.len());
    (games, stderr_line(&out, "training data:"))
}

/// Every game but `left_out`, in input order.
fn all_but(left_out: &str) -> Vec<&'static str> {
    ALL.into_iter().filter(|g| *g != left_out).collect()
}

/// Asserts that `filters` keep `games`, and how the summary's training
/// line ends.
#[track_caller]
fn assert_kept(filters: &[&str], games: &[&str], line_end: &str) {
    let (kept, line) = kept(filters);
    assert_eq!(kept, games, "{filters:?}");
    assert!(line.ends_with(line_end), "{line}");
}

#[test]
fn no_filter_keeps_every_game() {
    let (games, line) = kept(&[]);
    assert_eq!(games, ALL);
    assert_eq!(
        line,
        "training data: 6 games, 33 positions (6 without an evaluation, written as 0)"
    );
}

#[test]
fn min_moves_leaves_out_the_short_game() {
    assert_kept(
        &["--min-moves", "6"],
        &all_but("short"),
        "left out: --min-moves 1 games (2 positions)",
    );
    let (games, _) = kept(&["--min-moves", "7"]);
    assert_eq!(games, ["weak-winner"]);
}

#[test]
fn min_rating_by_both_players_or_by_the_loser() {
    // Both players at 3800 or more: the two games with a 2000 player and
    // the one with a 3700 player go.
    assert_kept(
        &["--min-rating", "3800"],
        &["aborted", "no-eval", "short"],
        "left out: --min-rating 3 games (19 positions)",
    );
    // The loser's rating: black (2000) lost low-rated-loser, white (3900)
    // lost weak-winner, black (3900) lost rated-resign; aborted has no
    // winner, so both count.
    let (games, _) = kept(&["--min-rating", "3800", "--rating-of", "loser"]);
    assert_eq!(games, all_but("low-rated-loser"));
}

#[test]
fn results_keep_the_endings_named() {
    assert_kept(
        &["--results", "toryo"],
        &all_but("aborted"),
        "left out: --results 1 games (6 positions)",
    );
    let (games, _) = kept(&["--results", "chudan,tsumi"]);
    assert_eq!(games, ["aborted"]);
    let out = run(&[DIR, "--to", "hcpe", "--results", "resign"]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(
        &stderr(&out),
        "--results resign: no such ending; the names are ",
    );
}

#[test]
fn require_eval_and_uniq_and_the_order_of_filters() {
    let (games, _) = kept(&["--require-eval"]);
    assert_eq!(games, all_but("no-eval"));
    // The four games with the same six moves: the first in input order
    // stays.
    assert_kept(
        &["--uniq"],
        &["aborted", "short", "weak-winner"],
        "left out: --uniq 3 games (18 positions)",
    );
    // A game left out by a filter is not "seen": after --results toryo,
    // the first of the four kept is low-rated-loser.
    assert_kept(
        &["--results", "toryo", "--uniq"],
        &["low-rated-loser", "short", "weak-winner"],
        "left out: --results 1 games (6 positions), --uniq 2 games (12 positions)",
    );
}

/// --uniq=positions drops each (position, move) seen before: of the six
/// games only the first's six and weak-winner's seventh are new.
#[test]
fn uniq_positions_keeps_each_position_and_move_once() {
    let out = run_ok(&[DIR, "--to", "psv", "--uniq=positions"]);
    assert_eq!(out.stdout.len(), 7 * psv::SIZE);
    assert_contains(&stderr(&out), "left out: --uniq=positions 26 positions");
    let out = run(&[DIR, "--to", "hcpe3", "--uniq=positions"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--uniq` before an input takes no value from it: the input is read.
#[test]
fn uniq_before_an_input_leaves_the_input_alone() {
    let before = run_ok(&["--to", "hcpe", "--uniq", DIR]);
    let after = run(&[DIR, "--to", "hcpe", "--uniq"]);
    assert_eq!(before.stdout, after.stdout);
    assert!(!before.stdout.is_empty());
    let out = run(&["--to", "hcpe", "--uniq", "positions"]);
    assert_eq!(out.status.code(), Some(1), "positions is an input here");
}

#[test]
fn max_eval_cuts_a_game_at_its_first_mate_score() {
    // The fixtures' evals are 5, 15, 25, …: at 25 the game is cut after
    // its third move.
    let out = run_ok(&[
        &format!("{DIR}/rated-resign.csa"),
        "--to",
        "hcpe",
        "--max-eval",
        "25",
    ]);
    assert_eq!(out.stdout, hcpe_of("rated-resign")[..3 * hcpe::SIZE]);
    assert_contains(&stderr(&out), "--max-eval 3 positions cut");
}

/// The game filters choose games for every target; what cuts positions
/// or compares training entries stays with training data.
#[test]
fn game_filters_go_with_every_target() {
    let all = run(&[DIR, "--to", "usi"]);
    let kept = run_ok(&[DIR, "--to", "usi", "--min-moves", "6"]);
    let lines = |out: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    let (all, kept_lines) = (lines(&all), lines(&kept));
    assert!(kept_lines.len() < all.len(), "{kept_lines:?}");
    for line in &kept_lines {
        assert!(all.contains(line), "{line}");
        let moves = line
            .split(" moves ")
            .nth(1)
            .map_or(0, |m| m.split(' ').count());
        assert!(moves >= 6, "{line}");
    }
    let left = all.len() - kept_lines.len();
    assert_contains(
        &stderr(&kept),
        &format!("left out: --min-moves {left} games"),
    );
    let out = run(&[DIR, "--to", "usi", "--max-eval", "3000"]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(
        &stderr(&out),
        "--max-eval goes with --to hcpe, hcpe3 or psv",
    );
}

/// With -o, one file an input (the games kept from it), named with the
/// format's extension; an input with no game kept writes no file.
#[test]
fn one_file_an_input_with_o() {
    let dir = scratch("training-o");
    run_ok(&[
        DIR,
        "--to",
        "hcpe",
        "--min-moves",
        "6",
        "-o",
        dir.to_str().unwrap(),
    ]);
    let names = crate::util::files::relative(&dir);
    assert_eq!(
        names,
        [
            "aborted.hcpe",
            "low-rated-loser.hcpe",
            "no-eval.hcpe",
            "rated-resign.hcpe",
            "weak-winner.hcpe"
        ]
    );
    assert_eq!(
        std::fs::read(dir.join("weak-winner.hcpe")).unwrap(),
        hcpe_of("weak-winner")
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Training files are inputs too (told by their extension): HCPE read
/// back as one record an entry, written as PackedSfenValue and back to the
/// same HCPE; a file cut inside an entry keeps the entries before it and
/// names the byte where the cut one starts.
#[test]
fn training_files_read_back_and_convert() {
    let dir = scratch("training-in");
    let hcpe_path = dir.join("games.hcpe");
    let out = run(&[DIR, "--to", "hcpe", "-q"]);
    std::fs::write(&hcpe_path, &out.stdout).unwrap();
    let sfen = run_ok(&[hcpe_path.to_str().unwrap(), "--to", "sfen", "-q"]);
    let lines = String::from_utf8(sfen.stdout).unwrap();
    // One record an entry; each is its stored position (what cshogi's
    // `Board.set_hcp` gives), not the one after the stored move.
    assert_eq!(lines.lines().count(), out.stdout.len() / hcpe::SIZE);
    assert!(
        lines.starts_with(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
             lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1\n"
        ),
        "{lines}"
    );
    let psv_path = dir.join("games.psv");
    let psv = run(&[hcpe_path.to_str().unwrap(), "--to", "psv", "-q"]);
    std::fs::write(&psv_path, &psv.stdout).unwrap();
    assert_eq!(psv.stdout.len(), out.stdout.len() / hcpe::SIZE * psv::SIZE);
    let back = run(&[psv_path.to_str().unwrap(), "--to", "hcpe", "-q"]);
    assert_eq!(back.stdout, out.stdout);

    let cut = dir.join("cut.hcpe");
    std::fs::write(&cut, &out.stdout[..hcpe::SIZE * 2 + 10]).unwrap();
    let read = run(&[cut.to_str().unwrap(), "--to", "usi"]);
    assert_eq!(read.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&read.stdout).lines().count(), 2);
    assert_contains(&stderr(&read), "cut.hcpe: error: entry 2 (byte 76): the file ends 10 bytes in, 28 bytes short of a whole one");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--from hcpe|hcpe3|psv` reads training data under any name (a
/// YaneuraOu `.bin`, an `x.dat`): the same records as the file named
/// `.hcpe` or `.psv`; without it such a name is not read as training data.
#[test]
fn from_reads_training_data_under_any_name() {
    let dir = scratch("training-from");
    let hcpe_bytes = run(&[DIR, "--to", "hcpe", "-q"]).stdout;
    let named = dir.join("games.hcpe");
    std::fs::write(&named, &hcpe_bytes).unwrap();
    let bin = dir.join("x.bin");
    std::fs::write(&bin, &hcpe_bytes).unwrap();
    let want = run_ok(&[s(&named), "--to", "usi", "-q"]);
    let got = run_ok(&[s(&bin), "--from", "hcpe", "--to", "usi", "-q"]);
    assert_eq!(got.stdout, want.stdout);
    assert_eq!(
        String::from_utf8_lossy(&got.stdout).lines().count(),
        hcpe_bytes.len() / hcpe::SIZE
    );
    let without = run(&[s(&bin), "--to", "usi", "-q"]);
    assert_exit(&without, 1);

    let psv_bytes = run(&[s(&named), "--to", "psv", "-q"]).stdout;
    let dat = dir.join("x.dat");
    std::fs::write(&dat, &psv_bytes).unwrap();
    let back = run_ok(&[s(&dat), "--from", "psv", "--to", "hcpe", "-q"]);
    assert_eq!(back.stdout, hcpe_bytes);
    let _ = std::fs::remove_dir_all(dir);
}

/// A training file is read a run of entries at a time, not whole: a file
/// of N entries, larger than `--max-input-size` (which bounds what is read
/// into memory), gives N records, to standard output and to a file with
/// `-o`, the same bytes back; a cut in a later run names its entry and
/// byte.
#[test]
fn training_files_stream_whatever_their_size() {
    let dir = scratch("training-stream");
    let one = run(&[DIR, "--to", "hcpe", "-q"]).stdout;
    let mut big = Vec::new();
    while big.len() < 5000 * hcpe::SIZE {
        big.extend_from_slice(&one);
    }
    let n = big.len() / hcpe::SIZE;
    let path = dir.join("big.hcpe");
    std::fs::write(&path, &big).unwrap();
    let limit = (big.len() / 4).to_string();
    let sfen = run_ok(&[s(&path), "--to", "sfen", "--max-input-size", &limit, "-v"]);
    assert_eq!(String::from_utf8_lossy(&sfen.stdout).lines().count(), n);
    assert_contains(&stderr(&sfen), &format!("{n} games"));
    let copied = run_ok(&[s(&path), "--to", "hcpe", "--max-input-size", &limit]);
    assert_eq!(copied.stdout, big);
    let out = dir.join("out");
    run_ok(&[
        s(&path),
        "--to",
        "hcpe",
        "-q",
        "--max-input-size",
        &limit,
        "-o",
        s(&out),
    ]);
    assert_eq!(std::fs::read(out.join("big.hcpe")).unwrap(), big);
    // Every entry is a game of one move: --min-moves 2 leaves them all
    // out, and no file is written.
    let none = dir.join("none");
    let filtered = run_ok(&[s(&path), "--to", "hcpe", "--min-moves", "2", "-o", s(&none)]);
    assert_contains(&stderr(&filtered), &format!("--min-moves {n} games"));
    assert!(!none.join("big.hcpe").exists());

    let cut = dir.join("cut.hcpe");
    let at = (n - 3) * hcpe::SIZE + 7;
    std::fs::write(&cut, &big[..at]).unwrap();
    let read = run(&[s(&cut), "--to", "usi", "--max-input-size", &limit]);
    assert_eq!(read.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&read.stdout).lines().count(), n - 3);
    let message = format!(
        "cut.hcpe: error: entry {} (byte {}): the file ends 7 bytes in",
        n - 3,
        (n - 3) * hcpe::SIZE
    );
    assert_contains(&stderr(&read), &message);
    // Nothing is written for an input that failed, with -o.
    let cut_out = dir.join("cut-out");
    let failed = run(&[s(&cut), "--to", "hcpe", "-q", "-o", s(&cut_out)]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(!cut_out.join("cut.hcpe").exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// Binary data is not written to a terminal: run under `script` (a
/// pseudo-terminal), `--to hcpe` refuses with exit 2 before reading
/// anything. Where `script` is missing the test says so and fails, rather
/// than passing unseen.
#[test]
fn binary_is_refused_on_a_terminal() {
    let command = format!(
        "{} {DIR}/short.csa --to hcpe",
        env!("CARGO_BIN_EXE_kifconv")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("`script` (util-linux) runs the command on a pseudo-terminal");
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error: --to hcpe writes binary data; redirect standard output to a file or a pipe, or give -o DIR"),
        "{text}"
    );
}

/// Evaluations in KIF comments, in the forms Kifu for Windows, ShogiHome
/// and ShogiGUI write (black's view), go into HCPE from the mover's view,
/// as CSA's `'**` do.
#[test]
fn kif_comment_evaluations_go_into_training_data() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n**評価値=120\n   2 ３四歩(33)\n*#評価値=80\n   3 ２六歩(27)\n**対局 深さ 8 ノード数 12345 評価値 -35 読み筋 △８四歩(83)\n   4 ８四歩(83)\n";
    let out = crate::util::bin::run_with_input(
        &["-", "--from", "kif", "--to", "hcpe", "-q"],
        kif.as_bytes(),
    );
    assert!(out.status.success());
    let evals: Vec<i16> = out
        .stdout
        .chunks(hcpe::SIZE)
        .map(|e| i16::from_le_bytes([e[32], e[33]]))
        .collect();
    // Black moved 1 and 3, white 2 (80 black's view: −80 for white); move
    // 4 has none.
    assert_eq!(evals, [120, -80, -35, 0]);
}

/// A move number over 65535 does not fit PackedSfenValue's 16-bit
/// `gamePly`: it is written as 65535, with a warning that says so; one
/// that fits is written as it is, without one.
#[test]
fn psv_move_numbers_over_65535_saturate_with_a_warning() {
    let psv_of = |usi: &str| {
        let out = crate::util::bin::run_with_input(
            &["-", "--from", "usi", "--to", "psv"],
            usi.as_bytes(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        out
    };
    let ply = |entry: &[u8]| u16::from_le_bytes([entry[36], entry[37]]);
    let start = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    let over = psv_of(&format!("{start} 65535 moves 7g7f 3c3d\n"));
    assert_eq!(over.stdout.len(), 2 * psv::SIZE);
    assert_eq!(
        (ply(&over.stdout[..40]), ply(&over.stdout[40..])),
        (65535, 65535)
    );
    assert_contains(&stderr(&over), "warning: game 1: 1 positions have a move number over 65535 (the first 65536), written as 65535");
    let fits = psv_of(&format!("{start} 65534 moves 7g7f\n"));
    assert_eq!(ply(&fits.stdout), 65534);
    assert!(!stderr(&fits).contains("65535"), "{}", stderr(&fits));
}

/// `--max-eval` and a win by entering king, as dlshogi's scripts: HCPE
/// ends the game at its first mate score (csa_to_hcpe), hcpe3 keeps it
/// whole (csa_to_hcpe3).
#[test]
fn max_eval_cuts_an_entering_king_win_for_hcpe_only() {
    let kachi = "PI\n+\n+7776FU\n'** 100000\n-3334FU\n'** -100000\n+2726FU\n%KACHI\n";
    let hcpe_out = run_with_input(
        &["-", "--from", "csa", "--to", "hcpe", "--max-eval", "100000"],
        kachi.as_bytes(),
    );
    assert!(hcpe_out.status.success(), "{}", stderr(&hcpe_out));
    assert_eq!(hcpe_out.stdout.len(), hcpe::SIZE);
    assert_contains(&stderr(&hcpe_out), "--max-eval 2 positions cut");
    let hcpe3_out = run_with_input(
        &[
            "-",
            "--from",
            "csa",
            "--to",
            "hcpe3",
            "--max-eval",
            "100000",
        ],
        kachi.as_bytes(),
    );
    assert!(hcpe3_out.status.success(), "{}", stderr(&hcpe3_out));
    // The header and three moves of one candidate each.
    assert_eq!(hcpe3_out.stdout.len(), 36 + 3 * 10);
    assert!(
        !stderr(&hcpe3_out).contains("cut"),
        "{}",
        stderr(&hcpe3_out)
    );
}

/// `--results jishogi` keeps floodgate's games stopped at the move limit
/// (no `%` line, `'summary:max_moves` after the last move), as dlshogi's
/// `%JISHOGI` does.
#[test]
fn results_jishogi_keeps_floodgate_max_moves_games() {
    let limit = "PI\n+\n+7776FU\n-3334FU\n'summary:max_moves:a draw:b draw\n";
    let kept = run_with_input(
        &["-", "--from", "csa", "--to", "hcpe", "--results", "jishogi"],
        limit.as_bytes(),
    );
    assert!(kept.status.success(), "{}", stderr(&kept));
    assert_eq!(kept.stdout.len(), 2 * hcpe::SIZE);
    let toryo = run_with_input(
        &["-", "--from", "csa", "--to", "hcpe", "--results", "toryo"],
        limit.as_bytes(),
    );
    assert!(toryo.stdout.is_empty());
}

/// Kifu for Windows' and ShogiHome's mate notes (`**詰み=先手勝ち:7手`,
/// `*#詰み=後手勝ち`) are mate scores, ±100000 black's view, so that
/// `--max-eval 100000` ends the game there; a move with two evaluations
/// uses the first, with a warning.
#[test]
fn kif_mate_notes_are_mate_scores_and_two_evaluations_warn() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n**評価値=120\n**評価値=130\n   2 ３四歩(33)\n*#詰み=後手勝ち\n   3 ２六歩(27)\n**詰み=先手勝ち:7手\n   4 ８四歩(83)\n";
    let eval = |entry: &[u8]| i16::from_le_bytes([entry[32], entry[33]]);
    let out = run_with_input(&["-", "--from", "kif", "--to", "hcpe"], kif.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let evals: Vec<i16> = out.stdout.chunks(hcpe::SIZE).map(eval).collect();
    // The mover's view, clamped: white's mate is +32767 for white.
    assert_eq!(evals, [120, 32767, 32767, 0]);
    assert_contains(
        &stderr(&out),
        "warning: game 1: move 1: two evaluations (120 and 130, black's view); the first is used",
    );
    let cut = run_with_input(
        &[
            "-",
            "--from",
            "kif",
            "--to",
            "hcpe",
            "--max-eval",
            "100000",
            "-q",
        ],
        kif.as_bytes(),
    );
    assert_eq!(cut.stdout.len(), 2 * hcpe::SIZE);
}
