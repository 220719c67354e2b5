//! The bar for the KIF and KI2 readers: every such file in the shared
//! corpus that has an expected output gives exactly its start SFEN, mainline
//! USI moves and final SFEN; the games that end in a foul keep their legal
//! moves and record the foul. Skipped (with a note) when ../shared/corpus is
//! not beside the checkout (a failure with `KIFCONV_REQUIRE_SHARED=1`).

use crate::util::files::read_as;
use crate::util::shared::shared;
use crate::util::write::usi_line;
use kifconv::decode::EncodingChoice;
use kifconv::read::read_bytes;
use kifconv::record::EndingKind;
use std::path::Path;

/// (path, format, status) for every KIF/KIFU/KI2/KI2U row.
fn kakinoki_rows(dir: &Path) -> Vec<(String, String, String)> {
    rows(dir, &["kif", "kifu", "ki2", "ki2u"])
}

/// (path, format, status) for every row with an expected output whose
/// format is one of `formats`.
fn rows(dir: &Path, wanted: &[&str]) -> Vec<(String, String, String)> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let formats: std::collections::HashMap<String, String> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            Some((cols.first()?.to_string(), cols.get(4)?.to_string()))
        })
        .collect();
    let expected = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    expected
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let path = cols[0].to_string();
            let format = formats.get(&path)?.clone();
            wanted
                .contains(&format.as_str())
                .then(|| (path, format, cols[1].to_string()))
        })
        .collect()
}

/// Each game's (startsfen, moves, endsfen) of an expected file.
fn expected_blocks(text: &str) -> Vec<(String, String, String)> {
    text.split("\n\n")
        .filter(|block| block.contains("startsfen:"))
        .map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(|v| v.trim().to_string())
                    .unwrap_or_default()
            };
            (field("startsfen:"), field("moves:"), field("endsfen:"))
        })
        .collect()
}

/// Compares every file of these formats with its expected output; returns
/// the number of files checked and the differences.
fn compare(dir: &Path, formats: &[&str]) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (path, _, status) in rows(dir, formats) {
        if status == "none-parsed" {
            continue;
        }
        let expected_path = dir.join("expected").join(format!("{path}.expected"));
        let expected = expected_blocks(&std::fs::read_to_string(&expected_path).unwrap());
        let bytes = std::fs::read(dir.join(&path)).unwrap();
        checked += 1;
        let read = match read_as(&bytes, &path) {
            Err(e) => {
                failures.push(e.render(&path));
                continue;
            }
            Ok(read) => read,
        };
        for e in &read.errors {
            failures.push(e.render(&path));
        }
        for (i, (start, moves, end)) in expected.iter().enumerate() {
            let Some(record) = read.records.get(i) else {
                failures.push(format!("{path}: game {} missing", i + 1));
                continue;
            };
            let got_moves: Vec<String> = record
                .tree
                .mainline_moves()
                .map(|m| m.to_string())
                .collect();
            let got = (
                record.start.sfen(),
                got_moves.join(" "),
                record.final_position().sfen(),
            );
            if (&got.0, &got.1, &got.2) != (start, moves, end) {
                failures.push(format!(
                    "{path} game {}:\n  start {}\n     vs {start}\n  moves {}\n     vs {moves}\n  end   {}\n     vs {end}",
                    i + 1,
                    got.0,
                    got.1,
                    got.2
                ));
            }
        }
    }
    (checked, failures)
}

/// At least 100 corpus files of `formats` checked, and none differing.
fn formats_match_their_expected_outputs(formats: &[&str]) {
    let Some(dir) = shared("corpus") else { return };
    let (checked, failures) = compare(&dir, formats);
    assert!(checked >= 100, "only {checked} files checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn kif_and_ki2_files_match_their_expected_outputs() {
    formats_match_their_expected_outputs(&["kif", "kifu", "ki2", "ki2u"]);
}

#[test]
fn csa_and_usi_files_match_their_expected_outputs() {
    formats_match_their_expected_outputs(&["csa", "usi"]);
}

#[test]
fn a_multi_game_csa_file_gives_every_game() {
    let Some(dir) = shared("corpus") else { return };
    let path = "maou/rust/maou_shogi/tests/fixtures/kifu/csa_multi_game.csa";
    let bytes = std::fs::read(dir.join(path)).unwrap();
    let read = read_as(&bytes, path).unwrap();
    let lines: Vec<String> = read.records.iter().map(usi_line).collect();
    assert!(lines.len() >= 2, "{lines:?}");
    assert_eq!(lines[0], "position startpos moves 7g7f");
    assert_eq!(lines[1], "position startpos moves 2g2f 3c3d");
}

#[test]
fn games_lost_by_a_foul_keep_their_legal_moves() {
    let Some(dir) = shared("corpus") else { return };
    let mut seen = 0;
    for (path, _, status) in kakinoki_rows(&dir) {
        if status != "none-parsed" {
            continue;
        }
        let bytes = std::fs::read(dir.join(&path)).unwrap();
        let read = read_as(&bytes, &path).unwrap_or_else(|e| panic!("{}", e.render(&path)));
        let record = &read.records[0];
        let ending = record
            .ending()
            .unwrap_or_else(|| panic!("{path}: no ending"));
        assert_eq!(ending.kind, EndingKind::IllegalMove, "{path}");
        let foul = ending.foul.as_ref().unwrap();
        let moves = record.tree.mainline_moves().count();
        assert!(moves > 0, "{path}");
        assert!(
            record
                .warnings
                .iter()
                .any(|w| w.message.contains("illegal")),
            "{path}: the foul must be warned about"
        );
        eprintln!(
            "{path}: {moves} legal moves, then {} by {} ({})",
            foul.text, foul.by, foul.reason
        );
        seen += 1;
    }
    assert!(seen >= 5, "{seen}");
}

/// Nothing is dropped: every comment line, bookmark, move line, terminal
/// word and header of every KIF/KI2 corpus file is in its record (or the
/// record carries a warning saying what was left out).
#[test]
fn every_line_of_every_kif_and_ki2_file_is_accounted_for() {
    let Some(dir) = shared("corpus") else { return };
    let mut files = 0;
    for (path, format, _) in kakinoki_rows(&dir) {
        let bytes = std::fs::read(dir.join(&path)).unwrap();
        let Ok(read) = read_as(&bytes, &path) else {
            panic!("{path} does not read");
        };
        let text = kifconv::decode::decode(&bytes, EncodingChoice::Auto, Default::default()).text;
        let record = &read.records[0];
        let tree = &record.tree;
        let ids = || std::iter::once(kifconv::record::NodeId::ROOT).chain(tree.ids());
        let comments: usize = ids()
            .map(|id| {
                let node = tree.node(id);
                node.comments().len() + node.ending().map_or(0, |e| e.comments.len())
            })
            .sum();
        let bookmarks: usize = ids().map(|id| tree.node(id).bookmarks().len()).sum();
        let endings: Vec<&kifconv::record::Ending> =
            ids().filter_map(|id| tree.node(id).ending()).collect();
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_start_matches([' ', '\u{3000}', '\t']))
            .collect();
        let starts = |c: char| lines.iter().filter(|l| l.starts_with(c)).count();
        // `#` notes after moves, variations and summaries become comments too.
        let notes = lines
            .iter()
            .filter(|l| {
                !l.starts_with('*') && !l.starts_with('#') && l.chars().skip(1).any(|c| c == '#')
            })
            .filter(|l| {
                l.starts_with(|c: char| c.is_ascii_digit())
                    || l.starts_with("変化")
                    || l.starts_with("まで")
                    || l.starts_with("手数")
            })
            .count();
        assert_eq!(comments, starts('*') + notes, "{path}: comments");
        assert_eq!(bookmarks, starts('&'), "{path}: bookmarks");
        // `#` lines are the format's comments, of the file and not the
        // game: skipped, and no warning is about one.
        let file_comments: std::collections::HashSet<u32> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with('#'))
            .map(|(i, _)| i as u32 + 1)
            .collect();
        assert!(
            record
                .warnings
                .iter()
                .all(|w| !file_comments.contains(&w.line)),
            "{path}: a `#` line warned about"
        );
        let warned = record.warnings.len();
        if format.starts_with("kif") {
            // Each numbered line is a move (a node), a terminal word, or the
            // illegal move a foul ending keeps.
            let numbered = starts_with_digit(&lines);
            let words: usize = endings
                .iter()
                .filter(|e| !e.text.starts_with("まで"))
                .map(|e| e.text.split(' ').filter(|w| !w.starts_with('(')).count())
                .sum();
            let set_aside = record
                .warnings
                .iter()
                .filter(|w| w.message.contains("second terminal word"))
                .count();
            assert_eq!(
                tree.len() - 1 + words + set_aside,
                numbered,
                "{path}: move lines"
            );
        } else {
            let marks: usize = lines
                .iter()
                .filter(|l| l.starts_with(|c: char| "▲△▼▽☗☖".contains(c)))
                .map(|l| l.chars().filter(|&c| "▲△▼▽☗☖".contains(c)).count())
                .sum();
            let words = endings
                .iter()
                .filter(|e| !e.text.starts_with("まで"))
                .count();
            assert_eq!(tree.len() - 1 + words, marks, "{path}: moves");
        }
        // Headers: every `key：value` line that is not part of a diagram.
        let header_lines = lines
            .iter()
            .filter(|l| !l.starts_with(['*', '#', '&']))
            .filter(|l| l.contains('：') || l.contains(':'))
            .filter(|l| !l.contains("の持駒") && !l.contains("の持ち駒"))
            .filter(|l| !l.starts_with(|c: char| c.is_ascii_digit()) && !l.starts_with("変化"))
            .filter(|l| {
                !l.starts_with("まで")
                    && !l.starts_with("手数-")
                    && !l.starts_with("手数＝")
                    && !l.starts_with("手数=")
            })
            .filter(|l| !l.starts_with(|c: char| "▲△▼▽☗☖".contains(c)))
            .count();
        assert_eq!(
            record.headers.len(),
            header_lines,
            "{path}: headers ({warned} warnings)"
        );
        files += 1;
    }
    assert!(files >= 170, "{files}");
}

fn starts_with_digit(lines: &[&str]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count()
}

/// Every corpus file, whatever its format, read as KIF and as KI2: a record
/// or an error, never a panic.
#[test]
fn no_corpus_file_makes_the_readers_panic() {
    let Some(dir) = shared("corpus") else { return };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let mut files = 0;
    for line in manifest.lines().skip(1) {
        let path = line.split('\t').next().unwrap();
        let bytes = std::fs::read(dir.join(path)).unwrap();
        for format in [kifconv::read::Format::Kif, kifconv::read::Format::Ki2] {
            let _ = read_bytes(&bytes, Path::new(path), Some(format), EncodingChoice::Auto);
        }
        let _ = read_as(&bytes, path);
        files += 1;
    }
    assert!(files >= 390, "{files}");
}
