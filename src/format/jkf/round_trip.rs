//! The JKF writer: `jkf::read::read(jkf::write::write(record))` keeps
//! everything JKF holds, for every fixture, every corpus file and 10,000
//! random games (with variations, comments, bookmarks, times in
//! milliseconds, endings and fouls); every document written is valid
//! against json-kifu-format's JSON schema (fixtures/jkf-schema/), and reads
//! back without a warning.
//!
//! What JKF holds, and so what is compared (see `canonical`): the start
//! without its move number; headers with CSA keys renamed and `V` left out;
//! the whole move tree; comments a line an element, with bookmarks as
//! `&name` comments after them; times in whole seconds, a missing running
//! total being the mover's times added up along the line; endings on every
//! node as the `special` word says them (word, and the winner the word
//! implies), with the foul's side and move when the foul is written as a
//! move.

use crate::format::jkf::read::{ending_for_special, read};
use crate::format::{japanese::write as japanese, jkf::write as jkf};
use crate::record::{Ending, EndingKind, Foul, Header, MoveTime, MoveTree, NodeId, Record};
use crate::test_util::files::{fixtures, under};
use crate::test_util::games::{position_at, random_lines};
use crate::test_util::rng::Rng;
use crate::test_util::shared::shared;
use crate::test_util::write::first_differences;
use crate::{Color, KingRule, Move, PieceKind, Position, Setup, Square};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
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
    comments
        .iter()
        .flat_map(|c| c.split('\n'))
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
fn canonical(record: &Record) -> String {
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
        write!(out, " notes {:?}", notes(&node.comments, &node.bookmarks)).unwrap();
        if let (Some(t), Some(_)) = (node.time, node.mv) {
            let mover = !pos.side_to_move();
            write!(out, " time {}", time(t, mover, &mut totals)).unwrap();
        }
        if let Some(ending) = &node.ending {
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
                    let said = ending_for_special(word, to_move).map(|(_, winner)| winner);
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

/// Any JSON value, read by serde_json, refusing an object that gives a
/// key twice (which JSON allows, but a JavaScript reader keeps only the
/// last of).
#[derive(Debug)]
struct NoDuplicateKeys;

impl<'de> serde::Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("key `{key}` given twice")));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(self)
    }
}

/// Panics if some object of the JSON text gives a key twice.
fn assert_no_duplicate_keys(text: &str, name: &str) {
    if let Err(e) = serde_json::from_str::<NoDuplicateKeys>(text) {
        panic!("{name}: {e}\n{text}");
    }
}

#[test]
fn the_duplicate_key_check_finds_duplicates() {
    assert!(serde_json::from_str::<NoDuplicateKeys>(r#"{"a":[{"b":1,"c":{"b":2}}]}"#).is_ok());
    let err = serde_json::from_str::<NoDuplicateKeys>(r#"{"a":[{"b":1,"b":2}]}"#).unwrap_err();
    assert!(err.to_string().contains("key `b` given twice"), "{err}");
}

/// Writes `record`, checks the document against the schema (when
/// `validate`) and for keys given twice, reads it back and compares.
/// Returns the document.
fn round_trip(record: &Record, name: &str, validate: bool) -> String {
    let text = jkf::write(record);
    assert_no_duplicate_keys(&text, name);
    if validate {
        let errors = schema_errors(&text);
        assert!(
            errors.is_empty(),
            "{name}: not valid against the schema:\n  {}\n{text}",
            errors.join("\n  ")
        );
    }
    let back = read(&text)
        .unwrap_or_else(|e| panic!("{name} does not read back:\n{}\n{text}", e.render(name)));
    // The warnings expected: a foul, written as its illegal move, is
    // reported as such, and so is a start that breaks a rule (as it did
    // when the record was first read).
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
    compare(record, &back, name, &text);
    text
}

fn compare(record: &Record, back: &Record, name: &str, text: &str) {
    let (a, b) = (canonical(record), canonical(back));
    if a != b {
        panic!(
            "{name} does not round-trip through JKF ({} lines written, {} read):\n{}\n{text}",
            a.lines().count(),
            b.lines().count(),
            first_differences(&a, &b)
        );
    }
}

/// Every record of every file, written one by one and as NDJSON; returns
/// the number of records.
fn check_files(paths: &[PathBuf]) -> usize {
    let mut count = 0;
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        let Ok(read) = crate::read::read_bytes(&bytes, path, None, Default::default()) else {
            continue;
        };
        let name = path.display().to_string();
        for (i, record) in read.records.iter().enumerate() {
            round_trip(record, &format!("{name} (game {})", i + 1), true);
        }
        let lines = jkf::write_all(&read.records);
        assert_eq!(lines.lines().count(), read.records.len(), "{name}");
        // The stream reads back as its games.
        let games = crate::read::read_games(&lines, crate::read::Format::Jkf).unwrap();
        assert_eq!(games.len(), read.records.len(), "{name} as NDJSON");
        for (line, record) in lines.lines().zip(&read.records) {
            let errors = schema_errors(line);
            assert!(errors.is_empty(), "{name} as NDJSON: {errors:?}");
            assert_no_duplicate_keys(line, &name);
            let back = read_line(line, &name);
            compare(record, &back, &name, line);
        }
        count += read.records.len();
    }
    count
}

fn read_line(line: &str, name: &str) -> Record {
    assert!(!line.contains('\n'));
    read(line).unwrap_or_else(|e| panic!("{name} as NDJSON:\n{}", e.render(name)))
}

#[test]
fn every_fixture_round_trips_through_jkf() {
    let mut paths = under(&fixtures(), &["bad", "jkf-schema"]);
    paths.retain(|p| p.extension().is_none_or(|e| e != "md"));
    let records = check_files(&paths);
    eprintln!("{records} fixture records round-tripped through JKF and validated");
    assert!(records >= 70, "{records}");
}

#[test]
fn every_corpus_file_round_trips_through_jkf() {
    let Some(dir) = shared("corpus") else { return };
    let mut paths = under(&dir, &["bad", "jkf-schema"]);
    paths.retain(|p| {
        p.extension().is_some_and(|e| {
            [
                "kif", "kifu", "ki2", "ki2u", "csa", "usi", "sfen", "jkf", "json",
            ]
            .contains(&e.to_str().unwrap_or(""))
        })
    });
    let records = check_files(&paths);
    eprintln!("{records} corpus records round-tripped through JKF and validated");
    assert!(records >= 300, "{records}");
}

// -- Random games ------------------------------------------------------------

const STARTS: [&str; 5] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
];

const KINDS: [EndingKind; 21] = EndingKind::ALL;

const HEADERS: [(&str, &str); 8] = [
    ("N+", "先手 \"名人\""),
    ("N-", "後手\\back"),
    ("$EVENT", "第1期 竜王戦"),
    ("V", "2.2"),
    ("開始日時", "2024/01/02 10:00:00"),
    ("備考", "line one\nline two"),
    ("手合割", "平手"),
    ("備考", "a second 備考"),
];

fn random_time(rng: &mut Rng) -> MoveTime {
    let spent_ms = if rng.one_in(4) {
        rng.below(600_000) as u64
    } else {
        rng.below(600) as u64 * 1000
    };
    let total_ms = rng.one_in(5).then(|| rng.below(20_000_000) as u64);
    MoveTime { spent_ms, total_ms }
}

/// An illegal move for the player to move: a board move of one of their
/// pieces or a drop that breaks the rules, if a few tries find one.
fn illegal_move(rng: &mut Rng, pos: &Position) -> Option<Move> {
    let mover = pos.side_to_move();
    for _ in 0..50 {
        let to = Square::from_index(rng.below(81)).unwrap();
        let mv = if rng.one_in(3) {
            let kind = PieceKind::HAND[rng.below(7)];
            Move::Drop { kind, to }
        } else {
            let from = Square::from_index(rng.below(81)).unwrap();
            if pos.piece_at(from).is_none_or(|p| p.color != mover) || from == to {
                continue;
            }
            Move::Normal {
                from,
                to,
                promote: rng.one_in(3),
            }
        };
        if !pos.is_legal(mv) {
            return Some(mv);
        }
    }
    None
}

fn random_ending(rng: &mut Rng, pos: &Position) -> Ending {
    let winner = [None, Some(Color::Black), Some(Color::White)][rng.below(3)];
    let mut ending = Ending {
        kind: KINDS[rng.below(KINDS.len())],
        winner,
        text: "word".into(),
        time: rng.one_in(3).then(|| random_time(rng)),
        comments: if rng.one_in(3) {
            vec![format!("ending {}", rng.below(100))]
        } else {
            Vec::new()
        },
        foul: None,
    };
    if rng.one_in(3) {
        let by = pos.side_to_move();
        let mv = illegal_move(rng, pos);
        ending.kind = EndingKind::IllegalMove;
        ending.winner = Some(!by);
        ending.foul = Some(Foul {
            by,
            text: mv.map_or("?".into(), |m| m.to_string()),
            reason: "random".into(),
            mv: if rng.one_in(5) { None } else { mv },
        });
    }
    ending
}

/// A random game: a random start, random legal moves, some variations,
/// comments (some of two lines), bookmarks, times (some with milliseconds
/// or a running total), endings at the ends of lines and now and then on a
/// node whose line goes on, fouls, and headers.
fn random_game(rng: &mut Rng) -> Record {
    let setup = Setup::from_sfen(STARTS[rng.below(STARTS.len())]).unwrap();
    let start = Position::from_setup(setup, KingRule::BothRequired).unwrap();
    let mut record = Record::new(start.clone());
    record.handicap = record.start.handicap();
    for _ in 0..rng.below(4) {
        let (key, value) = HEADERS[rng.below(HEADERS.len())];
        record.headers.push(Header {
            key: key.into(),
            value: value.into(),
        });
    }
    let mut tree = MoveTree::new();
    if rng.one_in(5) {
        tree.node_mut(NodeId::ROOT)
            .comments
            .push("before the first move".into());
    }
    if rng.one_in(20) {
        tree.node_mut(NodeId::ROOT).bookmarks.push("start".into());
    }
    // The mainline, then a few branches off random nodes.
    random_lines(
        rng,
        &start,
        &mut tree,
        |rng, tree, node| {
            let n = tree.node_mut(node);
            if rng.one_in(10) {
                n.comments.push(format!("comment {}", rng.below(1000)));
            }
            if rng.one_in(50) {
                n.comments.push("two\nlines".into());
            }
            if rng.one_in(30) {
                n.bookmarks.push(format!("mark {}", rng.below(10)));
            }
            if !rng.one_in(10) {
                n.time = Some(random_time(rng));
            }
        },
        |rng, tree, _, node, pos| {
            if tree.children(node).next().is_none() && rng.one_in(2) {
                tree.node_mut(node).ending = Some(Box::new(random_ending(rng, pos)));
            }
        },
    );
    // Now and then the game could have ended where its line goes on.
    if rng.one_in(8) {
        let ids: Vec<NodeId> = std::iter::once(NodeId::ROOT).chain(tree.ids()).collect();
        let at = ids[rng.below(ids.len())];
        if tree.node(at).ending.is_none() {
            let pos = position_at(&start, &tree, at);
            tree.node_mut(at).ending = Some(Box::new(random_ending(rng, &pos)));
        }
    }
    record.tree = tree;
    record
}

/// How often the random games hit what the JKF writer has to get right.
#[derive(Debug, Default)]
struct Seen {
    moves: usize,
    forks: usize,
    endings: usize,
    endings_where_the_line_goes_on: usize,
    fouls_as_moves: usize,
    fouls_as_words: usize,
    times_with_milliseconds: usize,
    bookmarks: usize,
}

impl Seen {
    fn count(&mut self, record: &Record) {
        let tree = &record.tree;
        let start = record.start.clone();
        let mut stack = vec![(NodeId::ROOT, start)];
        while let Some((id, pos)) = stack.pop() {
            let node = tree.node(id);
            self.moves += node.mv.is_some() as usize;
            self.forks += tree.children(id).count().saturating_sub(1);
            self.bookmarks += node.bookmarks.len();
            self.times_with_milliseconds +=
                node.time.is_some_and(|t| t.spent_ms % 1000 != 0) as usize;
            if let Some(ending) = &node.ending {
                self.endings += 1;
                self.endings_where_the_line_goes_on += tree.children(id).next().is_some() as usize;
                match (jkf::foul_move(ending, &pos), &ending.foul) {
                    (Some(_), _) => self.fouls_as_moves += 1,
                    (None, Some(_)) => self.fouls_as_words += 1,
                    _ => {}
                }
            }
            for child in tree.children(id) {
                let mut after = pos.clone();
                after.play_unchecked(tree.node(child).mv.unwrap());
                stack.push((child, after));
            }
        }
    }
}

#[test]
fn ten_thousand_random_games_round_trip_through_jkf() {
    let mut rng = Rng::new(0x0f0f_1234);
    let mut games = Vec::new();
    let mut seen = Seen::default();
    for i in 0..10_000 {
        let record = random_game(&mut rng);
        round_trip(&record, &format!("random game {i}"), true);
        seen.count(&record);
        if i % 100 == 0 {
            games.push(record);
        }
    }
    eprintln!("10,000 random games round-tripped through JKF and validated: {seen:?}");
    for (what, n) in [
        ("forks", seen.forks),
        (
            "endings where the line goes on",
            seen.endings_where_the_line_goes_on,
        ),
        ("fouls written as moves", seen.fouls_as_moves),
        ("fouls written as words", seen.fouls_as_words),
        ("times with milliseconds", seen.times_with_milliseconds),
        ("bookmarks", seen.bookmarks),
    ] {
        assert!(n >= 100, "only {n} {what}");
    }
    // A hundred of them as one NDJSON text.
    let lines = jkf::write_all(&games);
    assert_eq!(lines.lines().count(), games.len());
    for (i, (line, record)) in lines.lines().zip(&games).enumerate() {
        let name = format!("random game {} as NDJSON", i * 100);
        compare(record, &read_line(line, &name), &name, line);
    }
}

/// The schema is the one json-kifu-format's own outputs are checked
/// against: the JKF that json-kifu-format 5.5.0 wrote for its test files
/// (fixtures/jkf/jkf-*.json) passes it.
#[test]
fn the_schema_accepts_json_kifu_formats_own_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jkf");
    let mut checked = 0;
    for name in [
        "jkf-fork-endings.json",
        "jkf-illegal-specials.json",
        "jkf-left-seven-pieces.json",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let errors = schema_errors(&text);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        checked += 1;
    }
    assert_eq!(checked, 3);
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
    let mut records = Vec::new();
    for usi in ["7g7f 3c3d", "2g2f"] {
        let mut record = Record::new(Position::startpos());
        let mut node = NodeId::ROOT;
        for mv in usi.split(' ') {
            node = record.tree.push(node, Move::from_usi(mv).unwrap());
        }
        records.push(record);
    }
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
