//! `kifconv train`: the training-file toolkit run as a user runs it, on
//! small files made from fixtures with `--to hcpe` and `--to psv`. The
//! game of `fixtures/csa/mog-002-stray-dot.csa` (258 moves, with drops
//! and promotions) is the one whose moves tell the two Move16 layouts
//! apart; the six short games of `fixtures/training/filters` are the
//! small file the others use.

use crate::util::bin::{assert_contains, assert_exit, run, s, scratch, stderr, stdout};
use kifconv::training::move16::{self, Layout};
use kifconv::training::{hcpe, psv};
use std::path::{Path, PathBuf};

const GAME: &str = "fixtures/csa/mog-002-stray-dot.csa";
const GAMES: &str = "fixtures/training/filters";

/// The training data `--to KIND` writes for `input`, saved as `name` in
/// `dir`.
fn made(dir: &Path, input: &str, kind: &str, name: &str) -> PathBuf {
    let out = run(&[input, "--to", kind, "-q"]);
    assert_exit(&out, 0);
    assert!(!out.stdout.is_empty());
    let path = dir.join(name);
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

/// The records of a file of fixed-size entries, sorted.
fn sorted(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    let mut records: Vec<&[u8]> = bytes.chunks(size).collect();
    records.sort_unstable();
    records
}

#[test]
fn shuffle_gives_the_same_records_in_a_seeded_order() {
    let dir = scratch("train-shuffle");
    let input = made(&dir, GAME, "hcpe", "game.hcpe");
    let bytes = std::fs::read(&input).unwrap();
    let shuffled = |seed: &str, name: &str| {
        let output = dir.join(name);
        let out = run(&[
            "train",
            "shuffle",
            s(&input),
            "-o",
            s(&output),
            "--seed",
            seed,
            "--memory",
            "1",
        ]);
        assert_exit(&out, 0);
        assert_contains(&stderr(&out), "258 records shuffled");
        std::fs::read(output).unwrap()
    };
    let a = shuffled("1", "a.hcpe");
    assert_eq!(sorted(&a, hcpe::SIZE), sorted(&bytes, hcpe::SIZE));
    assert_ne!(a, bytes);
    assert_eq!(shuffled("1", "b.hcpe"), a);
    assert_ne!(shuffled("2", "c.hcpe"), a);
    // An output there is not replaced without --force.
    let out = run(&[
        "train",
        "shuffle",
        s(&input),
        "-o",
        s(&dir.join("a.hcpe")),
        "--seed",
        "3",
    ]);
    assert_exit(&out, 2);
    assert_contains(&stderr(&out), "exists; give --force");
    assert_eq!(std::fs::read(dir.join("a.hcpe")).unwrap(), a);
    let out = run(&[
        "train",
        "shuffle",
        s(&input),
        "-o",
        s(&dir.join("a.hcpe")),
        "--seed",
        "3",
        "--force",
    ]);
    assert_exit(&out, 0);
    assert_ne!(std::fs::read(dir.join("a.hcpe")).unwrap(), a);
    // Nor is an input.
    let out = run(&[
        "train",
        "shuffle",
        s(&input),
        "-o",
        s(&input),
        "--seed",
        "3",
        "--force",
    ]);
    assert_exit(&out, 2);
    assert_eq!(std::fs::read(&input).unwrap(), bytes);
}

/// An HCPE file with a fault planted in three of its entries — an illegal
/// move (the start's 7g pawn two squares on), a result code that means
/// nothing, a corrupt position — and a tail cut short: each is named with
/// its entry and the byte offset of the field; the good file has none.
#[test]
fn check_names_each_planted_fault() {
    let dir = scratch("train-check");
    let good = made(&dir, GAMES, "hcpe", "good.hcpe");
    let out = run(&["train", "check", s(&good)]);
    assert_exit(&out, 0);
    assert_contains(&stdout(&out), "good.hcpe: 33 records, 0 faults");

    let mut bytes = std::fs::read(&good).unwrap();
    let at = |entry: usize, field: usize| entry * hcpe::SIZE + field;
    // Entry 0 is the start position, black to move: 7g7e.
    let code = move16::encode(kifconv::Move::from_usi("7g7e").unwrap(), Layout::Apery);
    bytes[at(0, 34)..at(0, 36)].copy_from_slice(&code.to_le_bytes());
    bytes[at(2, 36)] = 3;
    bytes[at(4, 0)..at(4, 32)].fill(0xff);
    bytes.extend_from_slice(&[0; 5]);
    let bad = dir.join("bad.hcpe");
    std::fs::write(&bad, &bytes).unwrap();
    // Files of other kinds are checked each as its own.
    let psv = made(&dir, GAMES, "psv", "good.psv");
    let out = run(&["train", "check", s(&bad), s(&psv)]);
    assert_exit(&out, 1);
    let shown = stdout(&out);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 6, "{shown}");
    assert_contains(
        lines[5],
        "good.psv: 33 records, 0 faults; Move16 cannot tell",
    );
    assert!(
        lines[0].ends_with(
            "bad.hcpe: entry 0 (byte 34): illegal move 7g7e: the piece cannot reach that square"
        ),
        "{shown}"
    );
    assert!(
        lines[1].ends_with("bad.hcpe: entry 2 (byte 112): the result 3 means nothing"),
        "{shown}"
    );
    assert!(
        lines[2].contains("bad.hcpe: entry 4 (byte 152): the packed position"),
        "{shown}"
    );
    assert!(
        lines[3].contains("bad.hcpe: entry 33 (byte 1254): the file ends 5 bytes in"),
        "{shown}"
    );
    assert!(
        lines[4].ends_with("bad.hcpe: 33 records, 4 faults"),
        "{shown}"
    );
}

/// A PackedSfenValue file's moves rewritten in cshogi's move16: the same
/// positions, the promotions and drops marked as Apery's layout marks them.
fn as_cshogi(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for entry in out.chunks_mut(psv::SIZE) {
        let position = kifconv::training::packed::unpack(
            entry[..32].try_into().unwrap(),
            kifconv::training::packed::Dialect::PackedSfen,
        )
        .unwrap();
        let code = u16::from_le_bytes([entry[34], entry[35]]);
        let mv = move16::decode(&position, code, Layout::YaneuraOu).unwrap();
        entry[34..36].copy_from_slice(&move16::encode(mv, Layout::Apery).to_le_bytes());
    }
    out
}

#[test]
fn check_tells_the_move16_convention_of_packed_sfen_values() {
    let dir = scratch("train-move16");
    let yaneuraou = made(&dir, GAME, "psv", "yaneuraou.psv");
    let bytes = std::fs::read(&yaneuraou).unwrap();
    let cshogi = dir.join("cshogi.psv");
    let rewritten = as_cshogi(&bytes);
    assert_ne!(rewritten, bytes);
    std::fs::write(&cshogi, &rewritten).unwrap();
    let out = run(&["train", "check", s(&yaneuraou), s(&cshogi)]);
    assert_exit(&out, 0);
    let shown = stdout(&out);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 2, "{shown}");
    assert_contains(
        lines[0],
        "yaneuraou.psv: 258 records, 0 faults; Move16 YaneuraOu's: ",
    );
    assert_contains(
        lines[1],
        "cshogi.psv: 258 records, 0 faults; Move16 cshogi's",
    );
    // The moves that tell them apart are the same count both ways.
    let only = |line: &str, word: &str| -> u64 {
        let at = line.find(word).unwrap();
        line[..at].rsplit(' ').nth(1).unwrap().parse().unwrap()
    };
    let told = only(lines[0], "moves legal only as YaneuraOu's");
    assert!(told > 0);
    assert_eq!(only(lines[1], "only as cshogi's"), told);
    // Half of each is mixed: a fault of the file.
    let half = 129 * psv::SIZE;
    let mixed = dir.join("mixed.psv");
    std::fs::write(&mixed, [&bytes[..half], &rewritten[half..]].concat()).unwrap();
    let out = run(&["train", "check", s(&mixed)]);
    assert_exit(&out, 1);
    assert_contains(&stdout(&out), "Move16 mixed");
    // Read as cshogi's, the rewritten file converts back to YaneuraOu's.
    let fixed = dir.join("fixed.psv");
    let out = run(&[
        "train",
        "convert",
        s(&cshogi),
        "-o",
        s(&fixed),
        "--to",
        "psv",
        "--move16",
        "cshogi",
    ]);
    assert_exit(&out, 0);
    assert!(std::fs::read(&fixed).unwrap() == bytes);
    // Read as YaneuraOu's, its promotions and drops are faults.
    let out = run(&[
        "train",
        "convert",
        s(&cshogi),
        "-o",
        s(&dir.join("x.psv")),
        "--to",
        "hcpe",
    ]);
    assert_exit(&out, 1);
    assert_contains(&stderr(&out), "cshogi.psv: entry ");
}

#[test]
fn uniq_by_record_position_and_rotation() {
    let dir = scratch("train-uniq");
    let input = made(&dir, GAMES, "hcpe", "games.hcpe");
    let bytes = std::fs::read(&input).unwrap();
    let twice = dir.join("twice.hcpe");
    std::fs::write(&twice, [&bytes[..], &bytes].concat()).unwrap();
    let uniq = |args: &[&str], name: &str| {
        let output = dir.join(name);
        let mut all = vec!["train", "uniq", s(&twice), "-o", s(&output)];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_exit(&out, 0);
        std::fs::read(output).unwrap()
    };
    let by_record = uniq(&[], "record.hcpe");
    // The fixture's games share their openings (with other evaluations):
    // fewer positions than entries.
    let distinct: std::collections::HashSet<&[u8]> = bytes.chunks(hcpe::SIZE).collect();
    assert_eq!(by_record.len(), distinct.len() * hcpe::SIZE);
    assert!(by_record.len() < 2 * bytes.len());
    let positions: std::collections::HashSet<&[u8]> =
        bytes.chunks(hcpe::SIZE).map(|e| &e[..32]).collect();
    let by_position = uniq(&["--by", "position"], "position.hcpe");
    assert_eq!(by_position.len(), positions.len() * hcpe::SIZE);
    assert!(by_position.len() < by_record.len());
    let folded = uniq(&["--by", "position", "--flip-fold"], "folded.hcpe");
    assert!(folded.len() <= by_position.len());
    let out = run(&[
        "train",
        "uniq",
        s(&twice),
        "-o",
        s(&dir.join("x.hcpe")),
        "--flip-fold",
    ]);
    assert_exit(&out, 2);
}

#[test]
fn filter_by_eval_draws_and_ply() {
    let dir = scratch("train-filter");
    let input = made(&dir, GAME, "psv", "game.psv");
    let bytes = std::fs::read(&input).unwrap();
    let filtered = |args: &[&str], name: &str| {
        let output = dir.join(name);
        let mut all = vec!["train", "filter", s(&input), "-o", s(&output)];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_exit(&out, 0);
        std::fs::read(output).unwrap()
    };
    let ply = |e: &[u8]| u16::from_le_bytes([e[36], e[37]]);
    let want: Vec<u8> = bytes
        .chunks(psv::SIZE)
        .filter(|e| ply(e) >= 100)
        .flatten()
        .copied()
        .collect();
    assert!(!want.is_empty() && want.len() < bytes.len());
    assert!(filtered(&["--min-ply", "100"], "ply.psv") == want);
    assert!(filtered(&[], "all.psv") == bytes);
    // The six games: some with a winner, some without.
    let games = made(&dir, GAMES, "psv", "games.psv");
    let output = dir.join("draws.psv");
    let out = run(&[
        "train",
        "filter",
        s(&games),
        "-o",
        s(&output),
        "--drop-draws",
    ]);
    assert_exit(&out, 0);
    let all = std::fs::read(&games).unwrap();
    let won: Vec<u8> = all
        .chunks(psv::SIZE)
        .filter(|e| e[38] != 0)
        .flatten()
        .copied()
        .collect();
    assert!(!won.is_empty() && won.len() < all.len());
    assert!(std::fs::read(output).unwrap() == won);
    // HCPE has no ply to test.
    let hcpe = made(&dir, GAME, "hcpe", "game.hcpe");
    let out = run(&[
        "train",
        "filter",
        s(&hcpe),
        "-o",
        s(&dir.join("x.hcpe")),
        "--min-ply",
        "3",
    ]);
    assert_exit(&out, 2);
    assert_contains(&stderr(&out), "HCPE stores no move number");
}

#[test]
fn split_into_parts_and_by_positions() {
    let dir = scratch("train-split");
    let input = made(&dir, GAME, "hcpe", "game.hcpe");
    let bytes = std::fs::read(&input).unwrap();
    let prefix = dir.join("part");
    let out = run(&[
        "train",
        "split",
        s(&input),
        "-o",
        s(&prefix),
        "--parts",
        "3",
    ]);
    assert_exit(&out, 0);
    let parts: Vec<Vec<u8>> = (0..3)
        .map(|i| std::fs::read(dir.join(format!("part-{i}.hcpe"))).unwrap())
        .collect();
    assert_eq!(parts.concat(), bytes);
    assert_eq!(parts[0].len(), 86 * hcpe::SIZE);
    let out = run(&[
        "train",
        "split",
        s(&input),
        "-o",
        s(&dir.join("p")),
        "--positions",
        "100",
    ]);
    assert_exit(&out, 0);
    let sizes: Vec<usize> = (0..3)
        .map(|i| {
            std::fs::read(dir.join(format!("p-{i}.hcpe")))
                .unwrap()
                .len()
                / hcpe::SIZE
        })
        .collect();
    assert_eq!(sizes, [100, 100, 58]);
    // Parts there already are not replaced.
    let out = run(&[
        "train",
        "split",
        s(&input),
        "-o",
        s(&prefix),
        "--parts",
        "3",
    ]);
    assert_exit(&out, 2);
    assert_contains(&stderr(&out), "part-0.hcpe exists");
}

#[test]
fn convert_between_kinds_says_what_is_lost() {
    let dir = scratch("train-convert");
    let psv_in = made(&dir, GAME, "psv", "game.psv");
    let hcpe_want = std::fs::read(made(&dir, GAME, "hcpe", "want.hcpe")).unwrap();
    let convert = |input: &Path, to: &str, name: &str| {
        let output = dir.join(name);
        let out = run(&["train", "convert", s(input), "-o", s(&output), "--to", to]);
        assert_exit(&out, 0);
        (std::fs::read(output).unwrap(), stderr(&out))
    };
    let (hcpe_bytes, said) = convert(&psv_in, "hcpe", "game.hcpe");
    assert_eq!(hcpe_bytes, hcpe_want);
    assert_contains(
        &said,
        "warning: 258 entries' gamePly dropped: HCPE stores no move number",
    );
    let (_, said) = convert(&dir.join("game.hcpe"), "psv", "back.psv");
    assert_contains(&said, "258 entries written with gamePly 1");
    let (games, said) = convert(&dir.join("game.hcpe"), "hcpe3", "game.hcpe3");
    assert_contains(&said, "each entry is written as an hcpe3 game of one move");
    let (again, _) = convert(&dir.join("game.hcpe3"), "hcpe", "again.hcpe");
    assert_eq!(again, hcpe_want);
    assert!(!games.is_empty());
    // The game's own hcpe3 block becomes its HCPE entries.
    let hcpe3 = made(&dir, GAME, "hcpe3", "whole.hcpe3");
    let (entries, _) = convert(&hcpe3, "hcpe", "whole.hcpe");
    assert_eq!(entries, hcpe_want);
}

/// The game blocks of an hcpe3 file, by their move and candidate counts.
fn games(bytes: &[u8]) -> Vec<&[u8]> {
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    let (mut blocks, mut start) = (Vec::new(), 0);
    while start < bytes.len() {
        let mut at = start + 36;
        for _ in 0..u16_at(start + 32) {
            at += 6 + 4 * u16_at(at + 4);
        }
        blocks.push(&bytes[start..at]);
        start = at;
    }
    blocks
}

/// hcpe3 games, of many sizes, are shuffled and split whole.
#[test]
fn hcpe3_games_are_shuffled_and_split_whole() {
    let dir = scratch("train-hcpe3");
    let input = made(&dir, GAMES, "hcpe3", "games.hcpe3");
    let bytes = std::fs::read(&input).unwrap();
    let mut want = games(&bytes);
    assert_eq!(want.len(), 6);
    let output = dir.join("shuffled.hcpe3");
    let out = run(&[
        "train",
        "shuffle",
        s(&input),
        "-o",
        s(&output),
        "--seed",
        "5",
    ]);
    assert_exit(&out, 0);
    let shuffled = std::fs::read(&output).unwrap();
    let mut got = games(&shuffled);
    assert_ne!(got, want);
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    let out = run(&["train", "check", s(&output)]);
    assert_exit(&out, 0);
    assert_contains(&stdout(&out), "6 records, 0 faults");
    let out = run(&[
        "train",
        "split",
        s(&input),
        "-o",
        s(&dir.join("g")),
        "--parts",
        "2",
    ]);
    assert_exit(&out, 0);
    let parts: Vec<Vec<u8>> = (0..2)
        .map(|i| std::fs::read(dir.join(format!("g-{i}.hcpe3"))).unwrap())
        .collect();
    assert_eq!(parts.concat(), bytes);
    assert!(parts.iter().all(|p| !games(p).is_empty()));
}
