//! The JKF reader: the corpus bar (every JKF file in ../shared/corpus with
//! an expected output gives exactly its start SFEN, mainline USI moves and
//! final SFEN), one snapshot per fixture under fixtures/jkf/ (the
//! snapshots live in tests/it/snapshots/), rendered errors for
//! fixtures/jkf/bad/, and no panic on arbitrary or mutated JSON.

use crate::util::games::usi_moves;
use crate::util::shared::shared;
use crate::util::summary::write_head;
use crate::util::write::text as written;
use kifconv::error::Error;
use kifconv::read::{read_games, Format};
use kifconv::record::{EndingKind, NodeId, Record};
use kifconv::{Color, Target};
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/jkf");

/// A JKF text of one game (a document, not NDJSON), read.
fn read_one(text: &str) -> Result<Record, Error> {
    let mut games = read_games(text, Format::Jkf)?;
    assert_eq!(games.len(), 1, "one JKF document");
    games.remove(0)
}

/// The CSA special the CSA writer ends a record with (`TORYO` for
/// `%TORYO`, the side's sign dropped from `+ILLEGAL_ACTION`), or `none`.
fn csa_special(record: &Record) -> String {
    let csa = written(record, Target::Csa);
    csa.lines()
        .rev()
        .find_map(|line| line.strip_prefix('%'))
        .map(|word| word.trim_start_matches(['+', '-']).to_string())
        .unwrap_or_else(|| "none".to_string())
}

/// Every row of a TSV file after the header, split on tabs.
fn rows(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The inputs whose expected output a JKF file must match: itself, the
/// input a json-kifu-format oracle was made from (`X.expected.jkf.json` is
/// JKF for `X`), or the KIF/KI2/CSA siblings of a shogi-kifu-converter
/// `X.json`.
fn expected_for(path: &str, statuses: &HashMap<String, String>) -> Vec<String> {
    if statuses.contains_key(path) {
        return vec![path.to_string()];
    }
    if let Some(base) = path.strip_suffix(".expected.jkf.json") {
        return statuses
            .contains_key(base)
            .then(|| base.to_string())
            .into_iter()
            .collect();
    }
    if let Some(base) = path.strip_suffix(".json") {
        return ["kif", "kifu", "ki2", "ki2u", "csa"]
            .iter()
            .map(|ext| format!("{base}.{ext}"))
            .filter(|p| statuses.contains_key(p))
            .collect();
    }
    Vec::new()
}

/// (startsfen, moves, endsfen, endgame) of the first game of an expected file.
fn expected_block(text: &str) -> [String; 4] {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    [
        field("startsfen:"),
        field("moves:"),
        field("endsfen:"),
        field("endgame:"),
    ]
}

/// Every move in the tree, variations included, is legal where it stands.
fn assert_tree_is_legal(record: &Record) {
    let start = record.start.clone();
    let mut stack = vec![(NodeId::ROOT, start)];
    while let Some((id, pos)) = stack.pop() {
        for child in record.tree.children(id) {
            let mv = record.tree.node(child).mv.expect("a child has a move");
            let mut next = pos.clone();
            next.play(mv)
                .unwrap_or_else(|e| panic!("{mv} at ply {}: {e}", record.tree.node(child).ply));
            stack.push((child, next));
        }
    }
}

/// Each corpus file's status in EXPECTED.tsv.
fn statuses(corpus: &Path) -> HashMap<String, String> {
    rows(&corpus.join("EXPECTED.tsv"))
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect()
}

/// The corpus's JKF files, as MANIFEST.tsv names them.
fn jkf_paths(corpus: &Path) -> Vec<String> {
    rows(&corpus.join("MANIFEST.tsv"))
        .into_iter()
        .filter(|row| row.get(4).map(String::as_str) == Some("jkf"))
        .map(|row| row[0].clone())
        .collect()
}

#[test]
fn corpus_jkf_files_match_their_expected_outputs() {
    let Some(dir) = shared("corpus") else { return };
    let statuses = statuses(&dir);
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut read = 0;
    for path in &jkf_paths(&dir) {
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let record = match read_one(&text) {
            Ok(record) => record,
            Err(e) => {
                failures.push(e.render(path));
                continue;
            }
        };
        read += 1;
        assert_tree_is_legal(&record);
        for input in expected_for(path, &statuses) {
            if statuses[&input] == "none-parsed" {
                continue;
            }
            let expected_path = dir.join("expected").join(format!("{input}.expected"));
            let [start, moves, end, _] =
                expected_block(&std::fs::read_to_string(expected_path).unwrap());
            let got = [
                record.start.sfen(),
                usi_moves(&record),
                record.final_position().sfen(),
            ];
            for (what, (want, got)) in ["startsfen", "moves", "endsfen"]
                .iter()
                .zip([start, moves, end].iter().zip(got.iter()))
            {
                if want != got {
                    failures.push(format!(
                        "{path} (expected output of {input}): {what}\n  want {want}\n  got  {got}"
                    ));
                }
            }
            compared += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(read >= 85, "only {read} JKF files read");
    assert!(compared >= 80, "only {compared} comparisons made");
    eprintln!("{read} JKF files read, {compared} compared with expected outputs");
}

/// The corpus's terminal words (where its readers agreed on one) are the
/// CSA words of the endings read from the JKF, where the JKF has one.
#[test]
fn corpus_endings_match_where_the_readers_agree() {
    let Some(dir) = shared("corpus") else { return };
    let statuses = statuses(&dir);
    let mut failures = Vec::new();
    for path in &jkf_paths(&dir) {
        let record = read_one(&std::fs::read_to_string(dir.join(path)).unwrap()).unwrap();
        let got = match record.ending() {
            Some(_) => csa_special(&record),
            None => "none".to_string(),
        };
        for input in expected_for(path, &statuses) {
            let expected_path = dir.join("expected").join(format!("{input}.expected"));
            let [.., endgame] = expected_block(&std::fs::read_to_string(expected_path).unwrap());
            // A JKF without a `special` (shogi-kifu-converter's 4.json drops
            // the KI2 summary line) has nothing to compare.
            if endgame.is_empty() || record.ending().is_none() {
                continue;
            }
            if endgame != got {
                failures.push(format!("{path} ({input}): want {endgame}, got {got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// json-kifu-format's own JKF inputs read the same as the JKF it wrote
/// back for them (its oracle for `X.jkf` is `X.jkf.expected.jkf.json`).
#[test]
fn jkf_inputs_agree_with_their_oracles() {
    let Some(dir) = shared("corpus") else { return };
    let mut pairs = 0;
    for row in rows(&dir.join("MANIFEST.tsv")) {
        let path = &row[0];
        let Some(input) = path.strip_suffix(".expected.jkf.json") else {
            continue;
        };
        if !input.ends_with(".jkf") {
            continue;
        }
        let read = |p: &str| read_one(&std::fs::read_to_string(dir.join(p)).unwrap()).unwrap();
        let (a, b) = (read(input), read(path));
        assert_eq!(a.start, b.start, "{input}");
        assert_eq!(usi_moves(&a), usi_moves(&b), "{input}");
        assert_eq!(a.tree.len(), b.tree.len(), "{input}");
        pairs += 1;
    }
    assert!(pairs >= 2, "only {pairs} pairs");
}

fn summary(record: &Record) -> String {
    let mut out = String::new();
    let w = &mut out;
    write_head(w, record);
    let mut endings = Vec::new();
    for id in std::iter::once(NodeId::ROOT).chain(record.tree.ids()) {
        let node = record.tree.node(id);
        if let Some(e) = node.ending() {
            let winner = e.winner.map_or("-".to_string(), |c: Color| c.to_string());
            endings.push(format!(
                "  after ply {}: {:?}, winner {winner}, text {:?}, comments {:?}{}",
                node.ply,
                e.kind,
                e.text,
                e.comments,
                e.foul.as_ref().map_or(String::new(), |f| format!(
                    ", foul by {}: {}",
                    f.by, f.reason
                ))
            ));
        }
    }
    let mut comments = 0;
    let mut timed = 0;
    for id in std::iter::once(NodeId::ROOT).chain(record.tree.ids()) {
        let node = record.tree.node(id);
        comments += node.comments().len();
        timed += usize::from(node.time.is_some());
    }
    writeln!(w, "comments: {comments}, timed moves: {timed}").unwrap();
    for line in record.tree.root().comments() {
        writeln!(w, "root comment: {line}").unwrap();
    }
    if let Some(id) = record
        .tree
        .mainline()
        .find(|&id| record.tree.node(id).time.is_some())
    {
        let node = record.tree.node(id);
        writeln!(w, "first time: ply {}: {:?}", node.ply, node.time.unwrap()).unwrap();
    }
    writeln!(w, "endings:").unwrap();
    for e in endings {
        writeln!(w, "{e}").unwrap();
    }
    let mainline_ending = record
        .ending()
        .map_or("none".to_string(), |e| format!("{:?}", e.kind));
    writeln!(w, "mainline ending: {mainline_ending}").unwrap();
    writeln!(w, "warnings:").unwrap();
    for warning in &record.warnings {
        writeln!(w, "  {warning}").unwrap();
    }
    out
}

fn fixture_name(path: &Path) -> String {
    let relative = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path);
    relative.to_string_lossy().replace('\\', "/")
}

#[test]
fn fixtures() {
    insta::with_settings!({ snapshot_path => "snapshots" }, {
        insta::glob!("../../fixtures/jkf", "*.{jkf,json}", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let record = read_one(&text).unwrap_or_else(|e| panic!("{}", e.render(&fixture_name(path))));
            assert_tree_is_legal(&record);
            insta::assert_snapshot!(summary(&record));
        });
    });
}

#[test]
fn bad_fixtures_are_rendered_errors() {
    insta::with_settings!({ snapshot_path => "snapshots" }, {
        insta::glob!("../../fixtures/jkf", "bad/*", |path| {
            let name = fixture_name(path);
            let text = std::fs::read_to_string(path).unwrap();
            let rendered = match read_one(&text) {
                Ok(record) => panic!("{name} read without error:\n{}", summary(&record)),
                Err(e) => e.render(&name),
            };
            // `path:line:column: error: …`
            let location = rendered
                .strip_prefix(&format!("{name}:"))
                .and_then(|rest| rest.split_once(": error: "))
                .map(|(at, _)| at.to_string())
                .unwrap_or_default();
            let numbers: Vec<u32> = location.split(':').filter_map(|n| n.parse().ok()).collect();
            assert!(
                numbers.len() == 2 && numbers.iter().all(|&n| n > 0),
                "{name}: no line:column in\n{rendered}"
            );
            insta::assert_snapshot!(rendered);
        });
    });
}

#[test]
fn specific_errors_name_the_place() {
    let read = |name: &str| {
        let text = std::fs::read_to_string(Path::new(FIXTURES).join("bad").join(name)).unwrap();
        read_one(&text).unwrap_err()
    };
    let e = read("syntax-error.jkf");
    assert_eq!((e.location.line, e.location.column), (5, 5));
    let e = read("illegal-move-then-more.jkf");
    assert_eq!((e.location.line, e.location.ply), (7, Some(3)));
    assert!(e.message.starts_with("moves[3].move"), "{}", e.message);
    let e = read("wrong-from.jkf");
    assert_eq!((e.location.line, e.location.ply), (6, Some(2)));
    assert!(e.message.contains("no piece"), "{}", e.message);
    let e = read("bad-preset.jkf");
    assert_eq!((e.location.line, e.location.column), (3, 25));
    assert_eq!(e.location.text, "\"HIRA\"");
    let e = read("wrong-color.jkf");
    assert!(
        e.message.contains("not Black's turn") || e.message.contains("White"),
        "{}",
        e.message
    );
    let e = read("move-after-special.jkf");
    assert!(e.message.contains("after the end"), "{}", e.message);
}

#[test]
fn forks_replace_the_entry_they_hang_on() {
    let text = r#"{"header": {}, "moves": [
        {},
        {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU", "color": 0},
         "forks": [[{"move": {"from": {"x": 2, "y": 7}, "to": {"x": 2, "y": 6}, "piece": "FU", "color": 0}},
                    {"move": {"from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4}, "piece": "FU", "color": 1}},
                    {"special": "TORYO"}]]},
        {"move": {"from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "piece": "FU", "color": 1},
         "forks": [[{"move": {"from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4}, "piece": "FU", "color": 1}}]]}
    ]}"#;
    let record = read_one(text).unwrap();
    assert_eq!(usi_moves(&record), "7g7f 3c3d");
    let first: Vec<String> = record
        .tree
        .children(NodeId::ROOT)
        .map(|id| record.tree.node(id).mv.unwrap().to_string())
        .collect();
    assert_eq!(first, ["7g7f", "2g2f"]);
    let after_7f = record.tree.mainline().next().unwrap();
    let second: Vec<String> = record
        .tree
        .children(after_7f)
        .map(|id| record.tree.node(id).mv.unwrap().to_string())
        .collect();
    assert_eq!(second, ["3c3d", "8c8d"]);
    let resigned = record
        .tree
        .ids()
        .find_map(|id| record.tree.node(id).ending())
        .unwrap();
    // In the variation 2g2f 8c8d, Black is to move and resigns.
    assert_eq!(resigned.kind, EndingKind::Resign);
    assert_eq!(resigned.winner, Some(Color::White));
    assert!(record.ending().is_none());
}

#[test]
fn a_final_illegal_move_is_a_foul() {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("kifconv-final-foul.jkf")).unwrap();
    let record = read_one(&text).unwrap();
    assert_eq!(usi_moves(&record), "7g7f 3c3d");
    let ending = record.ending().unwrap();
    assert_eq!(ending.kind, EndingKind::IllegalMove);
    assert_eq!(ending.winner, Some(Color::White));
    let foul = ending.foul.as_ref().unwrap();
    assert_eq!(foul.by, Color::Black);
    assert_eq!(foul.mv.map(|m| m.to_string()).as_deref(), Some("2h2c+"));
}

// -- No panics ----------------------------------------------------------------

fn fixture_texts() -> Vec<String> {
    let mut texts = Vec::new();
    for dir in [PathBuf::from(FIXTURES), Path::new(FIXTURES).join("bad")] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        texts.extend(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()));
    }
    texts
}

/// JSON values that a reader might choke on, put anywhere in a record.
fn odd_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::json;
    prop_oneof![
        Just(json!(null)),
        Just(json!(true)),
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(9)),
        Just(json!(10)),
        Just(json!(-1)),
        Just(json!(1.5)),
        Just(json!(1e300)),
        Just(json!(u64::MAX)),
        Just(json!("")),
        Just(json!("FU")),
        Just(json!("OU")),
        Just(json!("RY")),
        Just(json!("OTHER")),
        Just(json!("TORYO")),
        Just(json!("+ILLEGAL_ACTION")),
        Just(json!("LU")),
        Just(json!([])),
        Just(json!({})),
        Just(json!([[]])),
        Just(json!({"x": 5, "y": 5})),
        Just(json!({"FU": 18})),
        Just(json!({"FU": 300})),
        Just(json!([{"move": {"to": {"x": 5, "y": 5}, "piece": "FU"}}])),
        Just(json!({"move": {"to": {"x": 1, "y": 1}, "piece": "KA", "same": true}})),
        "[a-zA-Z_+\\-0-9]{0,8}".prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
    ]
}

/// Every place in a JSON value, as a JSON pointer.
fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(members) => {
            for (key, item) in members {
                let key = key.replace('~', "~0").replace('/', "~1");
                pointers(item, format!("{at}/{key}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Reads `text`: a record whose every move is legal, or an error with a
/// place; never a panic.
fn check(text: &str) {
    for game in read_games(text, Format::Jkf).unwrap() {
        match game {
            Ok(record) => {
                assert_tree_is_legal(&record);
                let _ = record.final_position().sfen();
            }
            Err(e) => {
                assert!(e.location.line >= 1 && e.location.column >= 1, "{e:?}");
                let _ = e.render("x.jkf");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        check(&text);
    }

    #[test]
    fn jsonish_text_never_panics(text in "[\\[\\]{}\":, 0-9a-zA-Z_.+\\-\n]{0,200}") {
        check(&text);
    }

    #[test]
    fn mutated_bytes_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), 0u8..3, prop::sample::select(b"{}[]\":,0123456789 -.etnuflaxyFUKIOUHI\\".to_vec())), 1..6),
    ) {
        let texts = fixture_texts();
        let mut bytes = pick.get(&texts).as_bytes().to_vec();
        crate::util::edits::apply(&mut bytes, edits);
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_values_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), odd_value()), 1..4),
        pretty in any::<bool>(),
    ) {
        let texts = fixture_texts();
        let Ok(mut value) = serde_json::from_str::<serde_json::Value>(
            pick.get(&texts).trim_start_matches('\u{feff}'),
        ) else {
            return Ok(());
        };
        for (place, replacement) in edits {
            let mut all = Vec::new();
            pointers(&value, String::new(), &mut all);
            let target = place.get(&all).clone();
            if target.is_empty() {
                value = replacement;
            } else if let Some(slot) = value.pointer_mut(&target) {
                *slot = replacement;
            }
        }
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        check(&text);
    }
}
