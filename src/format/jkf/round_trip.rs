//! JKF's part of the round trips of format/round_trip.rs, which run the JKF
//! writer over every fixture, every corpus file and 10,000 random games
//! like every other writer: every document written is valid against
//! json-kifu-format's JSON schema (fixtures/jkf-schema/), gives no key
//! twice and reads back without a warning, and a file's records written as
//! NDJSON read back line by line.
//!
//! What JKF holds, and so what is compared (see `canonical`): the start
//! without its move number; headers with CSA keys renamed and `V` left out;
//! the whole move tree; comments a line an element, with bookmarks as
//! `&name` comments after them; times in whole seconds, a missing running
//! total being the mover's times added up along the line; endings on every
//! node as the `special` word says them (word, and the winner the word
//! implies), with the foul's side and move when the foul is written as a
//! move.

use super::json::{self, Value};
use crate::format::csa::specials;
use crate::format::jkf::read::read;
use crate::format::{japanese::write as japanese, jkf::write as jkf};
use crate::record::{Header, MoveTime, NodeId, Record};
use crate::test_util::games::game_of;
use crate::test_util::write::first_differences;
use crate::{Color, Move, Position};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/jkf-schema/json-kifu-format.schema.json"
);

/// json-kifu-format's schema, compiled once. It has only local `$ref`s;
/// jsonschema is built without its HTTP and file resolvers, so nothing is
/// fetched.
fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let text = std::fs::read_to_string(SCHEMA).expect("the schema is in fixtures/jkf-schema");
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        jsonschema::validator_for(&schema).expect("the schema compiles")
    })
}

/// Schema errors of a JSON text, as `message at /pointer`.
fn schema_errors(text: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(text).expect("the writer writes JSON");
    validator()
        .iter_errors(&value)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect()
}

/// Comment lines: a record's comments split at line breaks, as JKF keeps
/// them, then the bookmarks as `&name`.
fn notes(comments: &[String], bookmarks: &[String]) -> Vec<String> {
    crate::format::round_trip::lines(comments)
        .into_iter()
        .map(str::to_string)
        .chain(bookmarks.iter().map(|b| format!("&{b}")))
        .collect()
}

/// A time in whole seconds, with the mover's running total when the
/// record has none; updates the running total.
fn time(time: MoveTime, mover: Color, totals: &mut [u64; 2]) -> String {
    let total = time
        .total_ms
        .unwrap_or(totals[mover.index()].saturating_add(time.spent_ms));
    totals[mover.index()] = total;
    format!("{}/{}", time.spent_ms / 1000, total / 1000)
}

/// Everything JKF holds of a record, as text, depth first.
pub(crate) fn canonical(record: &Record) -> String {
    let mut out = String::new();
    let sfen = record.start.sfen();
    let start = sfen.rsplit_once(' ').map_or(sfen.as_str(), |(s, _)| s);
    writeln!(out, "start {start}").unwrap();
    // JKF holds one value a key: the values of a key given more than once
    // go together, at its first place, a line each.
    let mut keys: Vec<&str> = Vec::new();
    let mut values: Vec<Vec<&str>> = Vec::new();
    for header in &record.headers {
        if let Some(key) = japanese::header_key(&header.key) {
            let i = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                keys.push(key);
                values.push(Vec::new());
                keys.len() - 1
            });
            values[i].extend(header.value.split('\n'));
        }
    }
    for (key, lines) in keys.iter().zip(&values) {
        for line in lines {
            writeln!(out, "header {key}: {line:?}").unwrap();
        }
    }
    let tree = &record.tree;
    let pos = record.start.clone();
    let mut stack = vec![(NodeId::ROOT, pos, [0u64; 2])];
    while let Some((id, pos, mut totals)) = stack.pop() {
        let node = tree.node(id);
        let mv = |m: Option<Move>| m.map_or("-".to_string(), |m| m.to_string());
        write!(out, "{} {}", node.ply, mv(node.mv)).unwrap();
        if let Some(parent) = node.parent {
            write!(out, " after {}", mv(tree.node(parent).mv)).unwrap();
        }
        write!(out, " notes {:?}", notes(node.comments(), node.bookmarks())).unwrap();
        if let (Some(t), Some(_)) = (node.time, node.mv) {
            let mover = !pos.side_to_move();
            write!(out, " time {}", time(t, mover, &mut totals)).unwrap();
        }
        if let Some(ending) = node.ending() {
            let to_move = pos.side_to_move();
            match jkf::foul_move(ending, &pos) {
                Some(foul) => write!(
                    out,
                    " end ILLEGAL_MOVE {:?} foul {} {foul}",
                    Some(!to_move),
                    ending.foul.as_ref().unwrap().by
                )
                .unwrap(),
                None => {
                    let word = jkf::special(ending.kind, ending.winner, to_move);
                    let said = specials::ending(word, to_move).map(|(_, winner)| winner);
                    write!(out, " end {word} {said:?}").unwrap();
                }
            }
            write!(out, " notes {:?}", notes(&ending.comments, &[])).unwrap();
            if let Some(t) = ending.time {
                write!(out, " time {}", time(t, to_move, &mut totals.clone())).unwrap();
            }
        }
        out.push('\n');
        let children: Vec<NodeId> = tree.children(id).collect();
        for &child in children.iter().rev() {
            let mut after = pos.clone();
            after.play_unchecked(tree.node(child).mv.unwrap());
            stack.push((child, after, totals));
        }
    }
    out
}

/// The first key that some object of a JSON text gives twice (which JSON
/// allows, but a JavaScript reader keeps only the last of). The json
/// module keeps every member of an object, a key given twice included.
fn duplicate_key(text: &str) -> Option<String> {
    let root = json::parse(&json::Source::new(text, 0)).expect("the writer writes JSON");
    let mut stack = vec![&root];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => {
                let mut seen = HashSet::new();
                for member in members {
                    if !seen.insert(&member.key) {
                        return Some(member.key.to_string());
                    }
                    stack.push(&member.value);
                }
            }
            _ => {}
        }
    }
    None
}

/// Panics if some object of the JSON text gives a key twice.
fn assert_no_duplicate_keys(text: &str, name: &str) {
    if let Some(key) = duplicate_key(text) {
        panic!("{name}: key `{key}` given twice\n{text}");
    }
}

#[test]
fn the_duplicate_key_check_finds_duplicates() {
    assert_eq!(duplicate_key(r#"{"a":[{"b":1,"c":{"b":2}}]}"#), None);
    let twice = duplicate_key(r#"{"a":[{"b":1,"b":2}]}"#);
    assert_eq!(twice.as_deref(), Some("b"));
}

/// The checks of a JKF document written: valid against the schema, and no
/// key given twice.
pub(crate) fn check_document(text: &str, name: &str) {
    assert_no_duplicate_keys(text, name);
    let errors = schema_errors(text);
    assert!(
        errors.is_empty(),
        "{name}: not valid against the schema:\n  {}\n{text}",
        errors.join("\n  ")
    );
}

/// The warnings expected on reading back a JKF document: a foul, written
/// as its illegal move, is reported as such, and so is a start that breaks
/// a rule (as it did when the record was first read). No other.
pub(crate) fn check_warnings(back: &Record, name: &str, text: &str) {
    let unexpected: Vec<_> = back
        .warnings
        .iter()
        .filter(|w| {
            !w.message.contains("the game is recorded as lost by")
                && !w
                    .message
                    .starts_with("initial: the start position breaks a rule")
        })
        .collect();
    assert!(
        unexpected.is_empty(),
        "{name}: warnings on reading back: {unexpected:?}\n{text}"
    );
}

/// `records` written as NDJSON: a line a record, which reads back as that
/// many games, each line valid, without a key twice, and the record again.
pub(crate) fn check_ndjson(records: &[Record], name: &str) {
    let lines = jkf::write_all(records);
    assert_eq!(lines.lines().count(), records.len(), "{name}");
    let games = crate::read::read_games(&lines, crate::read::Format::Jkf).unwrap();
    assert_eq!(games.len(), records.len(), "{name} as NDJSON");
    for (i, (line, record)) in lines.lines().zip(records).enumerate() {
        let name = format!("{name} (game {}) as NDJSON", i + 1);
        check_document(line, &name);
        assert!(!line.contains('\n'));
        let back = read(line).unwrap_or_else(|e| panic!("{name}:\n{}", e.render(&name)));
        let (a, b) = (canonical(record), canonical(&back));
        if a != b {
            panic!(
                "{name} does not round-trip:\n{}\n{line}",
                first_differences(&a, &b)
            );
        }
    }
}

/// The schema is the one json-kifu-format's own outputs are checked
/// against: the JKF that json-kifu-format 5.5.0 wrote for its test files
/// (fixtures/jkf/jkf-*.json) passes it.
#[test]
fn the_schema_accepts_json_kifu_formats_own_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jkf");
    for name in [
        "jkf-fork-endings.json",
        "jkf-illegal-specials.json",
        "jkf-left-seven-pieces.json",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let errors = schema_errors(&text);
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

/// The schema is strict where it matters: what it rejects, it rejects.
#[test]
fn the_schema_rejects_what_json_kifu_format_does_not_define() {
    let good = r#"{"header":{},"moves":[{},{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#;
    assert!(schema_errors(good).is_empty());
    for bad in [
        // No color.
        r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#,
        // A time without its total.
        r#"{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":5,"y":5},"piece":"FU"},"time":{"now":{"m":0,"s":1}}}]}"#,
        // A CSA V3 word.
        r#"{"header":{},"moves":[{},{"special":"MAX_MOVES"}]}"#,
        // An unknown key on an entry.
        r#"{"header":{},"moves":[{},{"bookmarks":["a"]}]}"#,
    ] {
        assert!(!schema_errors(bad).is_empty(), "{bad}");
    }
}

#[test]
fn ndjson_reads_as_several_games_each_failing_alone() {
    use crate::read::{read_games, Format};
    let start = Position::startpos().sfen();
    let records = ["7g7f 3c3d", "2g2f"].map(|usi| game_of(&start, usi));
    let text = jkf::write_all(&records);
    let games = read_games(&text, Format::Jkf).unwrap();
    assert_eq!(games.len(), 2);
    for (game, record) in games.iter().zip(&records) {
        assert_eq!(game.as_ref().unwrap().tree, record.tree);
    }
    // A broken line between them fails alone, located on its own line.
    let lines: Vec<&str> = text.lines().collect();
    let broken = format!(
        "{}\n\n{{\"header\":{{}},\"moves\":[{{}},{{\"move\":7}}]}}\n{}\n",
        lines[0], lines[1]
    );
    let games = read_games(&broken, Format::Jkf).unwrap();
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let err = games[1].as_ref().unwrap_err();
    assert_eq!(err.location.line, 3, "{}", err.render("x"));
    let bad_json = format!("{}\n{{\"header\":\n", lines[0]);
    let games = read_games(&bad_json, Format::Jkf).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].as_ref().unwrap_err().location.line, 2);
    // A pretty document is one game, and so is a compact one alone.
    let pretty = jkf::write(&records[0]);
    assert_eq!(read_games(&pretty, Format::Jkf).unwrap().len(), 1);
    assert_eq!(read_games(lines[0], Format::Jkf).unwrap().len(), 1);
}

#[test]
fn a_key_given_twice_is_one_member_read_back_as_each_header() {
    let mut record = Record::new(Position::startpos());
    for (key, value) in [("N+", "A"), ("備考", "x"), ("先手", "B"), ("備考", "y")] {
        record.headers.push(Header {
            key: key.into(),
            value: value.into(),
        });
    }
    let text = jkf::write(&record);
    assert_no_duplicate_keys(&text, "headers");
    assert!(text.contains("\"先手\": \"A\\nB\""), "{text}");
    let back = read(&text).unwrap();
    let headers: Vec<(&str, &str)> = back
        .headers
        .iter()
        .map(|h| (h.key.as_str(), h.value.as_str()))
        .collect();
    assert_eq!(
        headers,
        [("先手", "A"), ("先手", "B"), ("備考", "x"), ("備考", "y")]
    );
}
