//! JKF, the JSON Kifu Format of the json-kifu-format project (`.jkf`,
//! `.json`): one game as a JSON object.
//!
//! ```text
//! {"header": {"先手": "…", …},
//!  "initial": {"preset": "HIRATE"},                  (optional; OTHER carries a board)
//!  "moves": [{"comments": ["before the first move"]},
//!            {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6},
//!                      "piece": "FU", "color": 0},
//!             "time": {"now": {"m": 0, "s": 3}, "total": {"h": 0, "m": 0, "s": 3}},
//!             "forks": [[…entries replacing this one…]]},
//!            …,
//!            {"special": "TORYO"}]}
//! ```
//!
//! What is read: every header in input order (a value of several lines
//! as one header a line, with the same key); the start (a named preset,
//! mapped to [`Handicap`], or `OTHER` with a board `board[x-1][y-1]`, both
//! hands and the side to move); each entry's move, comments, time and
//! `special` (CSA's terminal words), and `forks`, the alternative lines that
//! replace the entry they hang on. The first entry of `moves` holds the
//! comments before the first move.
//!
//! JSON is read by the `json` module, which keeps where each value is, so
//! that every error and warning names its line, column and JSON path.
//!
//! Every move is played on the board through the resolver. JKF moves carry
//! their origin, so nothing is guessed: `from` must hold a piece of the
//! mover's of the kind `piece` names (the kind *before* the move; `promote:
//! true` says it promotes), and the move must be legal. A move without
//! `from` is a drop. The redundant fields are checked, never trusted:
//!
//! * `color` that is not the side to move is an error;
//! * `capture` that disagrees with the board is a warning (the board decides;
//!   `from`, `to` and `piece` already fix the move);
//! * `same: true` on a move that does not go to the previous square is a
//!   warning; `same: true` without `to` means the previous square;
//! * `relative` (`L` `C` `R` `U` `M` `D` `H`, the JSA markers) that does not
//!   single out the move is a warning;
//! * `promote: false` where the piece could not promote is a warning;
//! * a piece that must promote (it could never move again) promotes even
//!   without `promote: true`, as on json-kifu-format's board, with a warning.
//! * `piece` naming the piece after promotion (`"piece":"UM"` with
//!   `"promote":true`, as some producers write) is read as the piece before
//!   (`KA`), with a warning: `from`, `to` and `promote` fix the move.
//!
//! The reader drives the game builder ([`crate::record::builder`]) itself,
//! entry by entry, with no raw stage. The parts: `reader.rs` (shared state,
//! objects, colors, pieces, squares), `start.rs` (`initial`), `line.rs`
//! (entries and forks), `moves.rs` (a `move` object).
//!
//! Leniency: a byte-order mark; `null` for any optional field; a missing
//! `header`; unknown keys (warned about); a string for `comments`, and the
//! schema's `comment` string (line breaks make several comment lines);
//! header values that are numbers or booleans (kept as written, with a
//! warning); times with fractional or missing parts. `initial.data` beside a named preset is ignored (the preset
//! decides, as json-kifu-format does) with a warning when they differ. A
//! last move that breaks the rules becomes a foul ending, as in the KIF
//! reader (a `special` right after it names that foul); an illegal move
//! with more moves after it is an error, and so is a move after a
//! `special`. A second `special` in a line is a warning, and so is a move
//! or `special` in the first entry (read as usual) and an entry with
//! neither (its comments stay with the move before).
//! The CSA V3 words `OUTE_SENNICHITE` and `MAX_MOVES` are accepted too; an
//! unknown word is kept as [`EndingKind::Other`](crate::record::EndingKind::Other) with a warning. A fork on
//! an entry whose line ended there has no place in the move tree: it is
//! dropped with a warning.

use super::json::{self, Node, Path, Source, Value};
use super::reader::Reader;
use crate::error::{Error, Stage};
use crate::record::builder::Builder;
use crate::record::{Header, Record};
use crate::{Handicap, Position, Setup};

const ROOT_KEYS: [&str; 3] = ["header", "initial", "moves"];

/// Reads every game of a JKF text: one document (pretty or compact), or
/// NDJSON, one compact document a line as kifconv writes several games
/// ([`crate::format::jkf::write::write_all`]). A text is NDJSON when it has two or
/// more lines that are not blank and its first such line is an object on
/// its own (`{` … `}`); a pretty document's first line is `{` alone. Each
/// line of NDJSON is a game that succeeds or fails alone, its errors and
/// warnings placed on its line of the whole text.
pub fn read_all(text: &str) -> Vec<Result<Record, Error>> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = body
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter(|line| !line.trim().is_empty());
    let first = lines.next().map(str::trim);
    let ndjson = lines.next().is_some()
        && first.is_some_and(|l| l.len() > 2 && l.starts_with('{') && l.ends_with('}'));
    if !ndjson {
        return vec![read(text)];
    }
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| read_at(line, i as u32))
        .collect()
}

/// Reads one JKF record.
pub fn read(text: &str) -> Result<Record, Error> {
    read_at(text, 0)
}

/// Reads one JKF record that starts `lines_before` lines into a longer
/// text (a line of NDJSON), so that errors and warnings name lines of the
/// whole text.
fn read_at(text: &str, lines_before: u32) -> Result<Record, Error> {
    let source = Source::new(text, lines_before);
    let root = json::parse(&source)?;
    Reader {
        source: &source,
        warnings: Vec::new(),
    }
    .record(&root)
}

impl<'t> Reader<'_, 't> {
    /// The record of the document `root`.
    fn record(mut self, root: &Node<'t>) -> Result<Record, Error> {
        let path = Path::Root;
        if !matches!(root.value, Value::Object(_)) {
            return Err(self.parse_error(
                root,
                format!(
                    "a JKF record is a JSON object with `header` and `moves`, not {}",
                    root.what()
                ),
            ));
        }
        let [header, initial, moves] = self.fields(root, path, ROOT_KEYS)?;
        let headers = match header {
            Some(node) => self.headers(node, Path::Key(&path, "header"))?,
            None => Vec::new(),
        };
        let (setup, handicap) = match initial {
            Some(node) => self.initial(node, Path::Key(&path, "initial"))?,
            None => (Setup::startpos(), Some(Handicap::Even)),
        };
        let start_node = initial.unwrap_or(root);
        let (start, problems) = Position::from_setup_lenient(setup).map_err(|e| {
            self.source.error(
                Stage::Resolve,
                start_node.start,
                start_node.end,
                format!("initial: the start position cannot be played: {e}"),
            )
        })?;
        for problem in problems {
            self.warn(
                start_node,
                format!("initial: the start position breaks a rule: {problem}"),
            );
        }
        let Some(moves) = moves else {
            return Err(self.parse_error(
                root,
                "no `moves` array: a JKF record is an object with `header`, `moves` and optionally `initial`",
            ));
        };
        let Value::Array(entries) = &moves.value else {
            return Err(self.wrong_kind(moves, "moves", "an array"));
        };
        let mut game = Builder::new(start.clone(), entries.len());
        self.line(&mut game, entries, Path::Key(&path, "moves"), true)?;
        let mut record = Record::new(start);
        record.handicap = handicap;
        record.headers = headers;
        let (tree, said) = game.finish();
        record.tree = tree;
        record.warnings = self.warnings;
        record.warnings.extend(said);
        Ok(record)
    }

    /// `header`: every key and value in input order, a value of several
    /// lines as one header a line.
    fn headers(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Vec<Header>, Error> {
        let Value::Object(members) = &node.value else {
            return Err(self.wrong_kind(node, path, "an object of strings"));
        };
        let mut headers = Vec::with_capacity(members.len());
        for member in members {
            let (node, key) = (&member.value, &member.key);
            let value = match &node.value {
                Value::String(s) => s.to_string(),
                _ => {
                    let kept = matches!(node.value, Value::Number(_) | Value::Bool(_));
                    let said = match kept {
                        true => "kept as written",
                        false => "not a string; header ignored",
                    };
                    let message =
                        format!("{path}: the value of `{key}` is {}, {said}", node.what());
                    self.warn(node, message);
                    if !kept {
                        continue;
                    }
                    self.source.text[node.start..node.end].to_string()
                }
            };
            // A value of several lines is several headers with this key.
            for line in crate::format::lines::split_at_endings(&value) {
                headers.push(Header {
                    key: member.key.to_string(),
                    value: line.to_string(),
                });
            }
        }
        Ok(headers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{EndingKind, NodeId};
    use crate::test_util::games::usi_moves;
    use crate::{Color, PieceKind};

    #[test]
    fn reads_the_readme_example() {
        let text = r#"{
  "header": {"先手": "na2hiro", "後手": "うひょ"},
  "moves": [
    {},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},
    {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"KA","promote":false}},
    {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","capture":"KA","same":true}},
    {"move":{"to":{"x":4,"y":5},"color":0,"piece":"KA"}},
    {"special": "CHUDAN"}
  ]
}"#;
        let record = read(text).unwrap();
        assert_eq!(usi_moves(&record), "7g7f 3c3d 8h2b 3a2b B*4e");
        assert_eq!(record.headers[0].key, "先手");
        assert_eq!(record.headers[1].value, "うひょ");
        assert_eq!(record.ending().unwrap().kind, EndingKind::Abort);
        assert!(record.warnings.is_empty(), "{:?}", record.warnings);
    }

    #[test]
    fn headers_keep_their_order() {
        let text = r#"{"header": {"z": "1", "a": "2", "m": "3"}, "moves": [{}]}"#;
        let record = read(text).unwrap();
        let keys: Vec<&str> = record.headers.iter().map(|h| h.key.as_str()).collect();
        assert_eq!(keys, ["z", "a", "m"]);
        // Numbers and booleans are kept as written, other values dropped,
        // each with a warning.
        let text = r#"{"header": {"n": -7.50e1, "b": false, "x": [], "s": "a\nb"}, "moves": [{}]}"#;
        let record = read(text).unwrap();
        let headers: Vec<String> = record
            .headers
            .iter()
            .map(|h| format!("{}={}", h.key, h.value))
            .collect();
        assert_eq!(headers, ["n=-7.50e1", "b=false", "s=a", "s=b"]);
        let warnings: Vec<&str> = record.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            warnings,
            [
                "header: the value of `n` is a number, kept as written",
                "header: the value of `b` is a boolean, kept as written",
                "header: the value of `x` is an array, not a string; header ignored",
            ]
        );
    }

    #[test]
    fn errors_point_into_the_text() {
        let text = "{\n  \"moves\": [\n    {},\n    {\"move\": {\"from\": {\"x\": 7, \"y\": 6}, \"to\": {\"x\": 7, \"y\": 5}, \"piece\": \"FU\"}}\n  ]\n}";
        let e = read(text).unwrap_err();
        assert_eq!(
            (e.location.line, e.location.column, e.location.ply),
            (4, 14, Some(1))
        );
        assert!(e.message.starts_with("moves[1].move"), "{}", e.message);

        let e = read("{\"moves\": [}").unwrap_err();
        assert_eq!((e.location.line, e.location.column), (1, 12));
        assert_eq!(e.location.text, "}");

        let e = read("\u{feff}{\"moves\": [\n {\"move\": 3}]}").unwrap_err();
        assert_eq!((e.location.line, e.location.column), (2, 11));
    }

    /// A JKF record from `(x, y, color, kind)` pieces, with `moves` after
    /// the first entry.
    fn other(pieces: &[(u8, u8, u8, &str)], moves: &str) -> String {
        let files: Vec<String> = (1..=9)
            .map(|x| {
                let squares: Vec<String> = (1..=9)
                    .map(|y| match pieces.iter().find(|p| p.0 == x && p.1 == y) {
                        Some((_, _, c, k)) => format!(r#"{{"color":{c},"kind":"{k}"}}"#),
                        None => "{}".to_string(),
                    })
                    .collect();
                format!("[{}]", squares.join(","))
            })
            .collect();
        format!(
            r#"{{"header":{{}},"initial":{{"preset":"OTHER","data":{{"color":0,"board":[{}],"hands":[{{}},{{"FU":1}}]}}}},"moves":[{{}}{moves}]}}"#,
            files.join(",")
        )
    }

    #[test]
    fn a_piece_that_must_promote_promotes() {
        let text = other(
            &[(5, 9, 0, "OU"), (5, 1, 1, "OU"), (1, 2, 0, "FU")],
            r#",{"move":{"from":{"x":1,"y":2},"to":{"x":1,"y":1},"piece":"FU","color":0}}"#,
        );
        let record = read(&text).unwrap();
        assert_eq!(usi_moves(&record), "1b1a+");
        assert_eq!(record.warnings.len(), 1, "{:?}", record.warnings);
        assert!(record.warnings[0].message.contains("must promote"));
        assert_eq!(record.start.hand(Color::White).count(PieceKind::Pawn), 1);
    }

    #[test]
    fn same_without_to_is_the_previous_square() {
        let text = r#"{"header":{},"moves":[{},
            {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":0}},
            {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","color":1}},
            {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","color":0,"promote":true}},
            {"move":{"from":{"x":3,"y":1},"piece":"GI","color":1,"same":true},"comments":["同銀"]},
            {"comments":["a stray comment"]}]}"#;
        let record = read(text).unwrap();
        assert_eq!(usi_moves(&record), "7g7f 3c3d 8h2b+ 3a2b");
        let last = record.tree.node(record.tree.mainline_end());
        assert_eq!(last.comments(), ["同銀", "a stray comment"]);
        assert_eq!(record.warnings.len(), 1, "{:?}", record.warnings);
    }

    #[test]
    fn the_preset_wins_over_data() {
        let text = r#"{"header":{},"initial":{"preset":"KA","data":{"color":0,"board":{},"hands":[{},{}]}},"moves":[{}]}"#;
        let record = read(text).unwrap();
        assert_eq!(record.handicap, Some(Handicap::Bishop));
        assert!(record.warnings[0].message.contains("the preset is used"));
    }

    #[test]
    fn repeated_keys_use_the_last_value() {
        let text = r#"{"header":{},"moves":[{},{"move":{"from":{"x":2,"y":7},"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#;
        let record = read(text).unwrap();
        assert_eq!(usi_moves(&record), "7g7f");
        assert!(record.warnings[0].message.contains("given twice"));
    }

    #[test]
    fn odd_documents_are_errors_not_panics() {
        for text in [
            "", "null", "[]", "{}", "{\"moves\": {}}", "{\"moves\": [1]}",
            "{\"moves\": [{}, {\"move\": {}}]}",
            "{\"moves\": [{}, {\"move\": {\"to\": {\"x\": 0, \"y\": 1}, \"piece\": \"FU\"}}]}",
            "{\"initial\": {\"preset\": \"OTHER\"}, \"moves\": []}",
            "{\"initial\": {\"preset\": \"OTHER\", \"data\": {\"board\": {}, \"hands\": [{\"OU\": 1}, {}]}}, \"moves\": []}",
            "\u{feff}",
            "{\"moves\": [{}, {\"forks\": 3}]}",
        ] {
            let e = read(text).unwrap_err();
            assert!(e.location.line >= 1 && e.location.column >= 1, "{text}: {e:?}");
        }
        // Nesting 100,000 deep, closed or not: the parser stops at the
        // first value deeper than MAX_DEPTH (the 1,025th `[`), no stack
        // overflow.
        for closing in ["", &"]".repeat(100_000)] {
            let deep = format!("{{\"moves\": {}{closing}}}", "[".repeat(100_000));
            let e = read(&deep).unwrap_err();
            assert_eq!(
                (e.location.line, e.location.column, e.location.text.as_str()),
                (1, 1035, "[")
            );
            assert!(
                e.message
                    .starts_with("JSON nested more than 1024 levels deep"),
                "{}",
                e.message
            );
        }
        // An empty board is a position without kings, which problems allow.
        let record = read("{\"initial\": {\"preset\": \"OTHER\", \"data\": {\"color\": 0, \"board\": {}, \"hands\": [{}, {}]}}, \"moves\": [{}]}").unwrap();
        assert!(record.tree.is_empty());
    }

    #[test]
    fn a_last_drop_that_says_it_promotes_is_an_error_not_a_foul() {
        // The rule of every reader (`record::builder::is_foul`): a legal move
        // (B*5e) that the text contradicts is a text error, not a foul.
        let game = |last: &str| {
            format!(
                r#"{{"header":{{}},"moves":[{{}},
                {{"move":{{"from":{{"x":7,"y":7}},"to":{{"x":7,"y":6}},"piece":"FU"}}}},
                {{"move":{{"from":{{"x":3,"y":3}},"to":{{"x":3,"y":4}},"piece":"FU"}}}},
                {{"move":{{"from":{{"x":8,"y":8}},"to":{{"x":2,"y":2}},"piece":"KA","promote":true}}}},
                {{"move":{{"from":{{"x":3,"y":1}},"to":{{"x":2,"y":2}},"piece":"GI"}}}},
                {{"move":{last}}}]}}"#
            )
        };
        let e = read(&game(r#"{"to":{"x":5,"y":5},"piece":"KA","promote":true}"#)).unwrap_err();
        assert_eq!((e.location.line, e.location.ply), (6, Some(5)));
        assert!(
            e.message
                .contains("B*5e: the text says 成 (promote), this does not"),
            "{}",
            e.message
        );
        // A drop against the rules stays a foul, promote or not: the pawn
        // on 7f makes P*7e 二歩.
        let record = read(&game(r#"{"to":{"x":7,"y":5},"piece":"FU","promote":true}"#)).unwrap();
        let ending = record.ending().unwrap();
        assert_eq!(ending.kind, EndingKind::IllegalMove);
        assert_eq!(ending.foul.as_ref().unwrap().by, Color::Black);
    }

    /// A record of 7g7f, with 7g7f again as a fork of it, and so on
    /// `depth` forks deep.
    fn nested_forks(depth: usize) -> String {
        let m = r#"{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}"#;
        format!(
            r#"{{"header":{{}},"moves":[{{}},{}{{"move":{m}}}{}]}}"#,
            format!(r#"{{"move":{m},"forks":[["#).repeat(depth),
            "]]}".repeat(depth)
        )
    }

    #[test]
    fn forks_nest_339_deep() {
        // As MAX_DEPTH says: the move of a fork line 339 deep is read,
        // one 340 deep is past 1,024 levels of JSON.
        let record = read(&nested_forks(339)).unwrap();
        assert_eq!(record.tree.len(), 341);
        assert_eq!(record.tree.children(NodeId::ROOT).count(), 340);
        let e = read(&nested_forks(340)).unwrap_err();
        assert!(
            e.message
                .starts_with("JSON nested more than 1024 levels deep"),
            "{}",
            e.message
        );
    }
}
