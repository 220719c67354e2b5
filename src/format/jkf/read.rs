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
//! JSON is parsed by serde_json. A second pass over the (by then known good)
//! text notes where each value starts and ends, so that every error and
//! warning names its line, column and JSON path (`moves[12].move`).
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
//! Unlike the text readers, which stop at move specs, this module builds the
//! [`Record`] itself: JSON has no syntax worth a separate raw stage, and the
//! resolver does the board's part as for every other format.
//!
//! Leniency: a byte-order mark; `null` for any optional field; a missing
//! `header`; unknown keys (warned about); a string for `comments`, and the
//! schema's `comment` string (comments with line breaks become several
//! lines, as a record's comments are lines); header values that are numbers or booleans
//! (kept as written, with a warning); times with fractional or missing
//! parts. `initial.data` beside a named preset is ignored (the preset
//! decides, as json-kifu-format does) with a warning when they differ. A
//! last move that breaks the rules becomes a foul ending, as in the KIF
//! reader (a `special` right after it names that foul); an illegal move
//! with more moves after it is an error, and so is a move after a
//! `special`. A second `special` in a line is a warning, and so is a move
//! or `special` in the first entry (read as usual) and an entry with
//! neither (its comments stay with the move before).
//! The CSA V3 words `OUTE_SENNICHITE` and `MAX_MOVES` are accepted too; an
//! unknown word is kept as [`EndingKind::Other`] with a warning. A fork on an entry whose line ended there (a last
//! `special`, or an illegal last move) has no place in the move tree, whose
//! first child is always the continuation: it is dropped with a warning.

use crate::error::{Error, Stage};
use crate::record::{
    Ending, EndingKind, Foul, Header, MoveTime, MoveTree, NodeId, Record, Warning,
};
use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::resolve::ResolveError;
use crate::{Color, Hand, Handicap, IllegalMove, Move, Piece, PieceKind, Position, Setup, Square};
use std::fmt;

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
    let mut games = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.trim().is_empty() {
            games.push(read_at(line, i as u32));
        }
    }
    games
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
    let body_start = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let body = &text[body_start..];
    // serde_json checks the syntax (IgnoredAny: nothing is built), then
    // the scanner indexes the text it knows to be good.
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(body) {
        return Err(source.syntax_error(&e, body_start));
    }
    let mut scanner = Scanner::new(text, body_start);
    let Some(root) = scanner.document() else {
        return Err(match scanner.too_deep {
            Some(at) => source.error(
                Stage::Parse,
                at,
                (at + 1).min(text.len()),
                format!(
                    "JSON nested more than {MAX_DEPTH} levels deep (forks within forks); not read"
                ),
            ),
            None => source.error(
                Stage::Parse,
                body_start,
                text.len(),
                "the JSON could not be indexed (this is a bug in kifconv's JKF reader)",
            ),
        });
    };
    Reader {
        source: &source,
        warnings: Vec::new(),
        tree: MoveTree::new(),
    }
    .record(&root)
}

// -- Where things are in the text ---------------------------------------------

/// The text with its line starts, to turn byte offsets into line, column
/// and source line.
struct Source<'t> {
    text: &'t str,
    line_starts: Vec<usize>,
    /// The lines of the whole input before `text`.
    lines_before: u32,
}

impl<'t> Source<'t> {
    fn new(text: &'t str, lines_before: u32) -> Source<'t> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Source {
            text,
            line_starts,
            lines_before,
        }
    }

    /// Line number (1-based), the line's text and the offset in it.
    fn locate(&self, offset: usize) -> (u32, &'t str, usize) {
        let offset = offset.min(self.text.len());
        let index = self.line_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.line_starts[index];
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.text.len(), |&e| e - 1);
        let line = self.text.get(start..end).unwrap_or("");
        let line = line.strip_suffix('\r').unwrap_or(line);
        (
            self.lines_before.saturating_add(index as u32 + 1),
            line,
            offset - start,
        )
    }

    /// The text from `start` to `end`, cut at the end of its first line.
    fn snippet(&self, start: usize, end: usize) -> &'t str {
        let text = self.text.get(start..end.max(start)).unwrap_or("");
        let first = text.split('\n').next().unwrap_or("");
        first.strip_suffix('\r').unwrap_or(first)
    }

    fn error(&self, stage: Stage, start: usize, end: usize, message: impl Into<String>) -> Error {
        let (line, line_text, offset) = self.locate(start);
        Error::at(
            stage,
            line,
            line_text,
            offset,
            self.snippet(start, end),
            message,
        )
    }

    fn warning(&self, start: usize, end: usize, message: impl Into<String>) -> Warning {
        let (line, line_text, offset) = self.locate(start);
        let offset = offset.min(line_text.len());
        let column = line_text
            .char_indices()
            .take_while(|&(i, _)| i < offset)
            .count() as u32
            + 1;
        Warning {
            line,
            column,
            text: self.snippet(start, end).chars().take(60).collect(),
            message: message.into(),
        }
    }

    /// A serde_json syntax error, placed where serde_json says.
    fn syntax_error(&self, e: &serde_json::Error, body_start: usize) -> Error {
        let line = e.line().max(1);
        let line_start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        let shift = if line == 1 { body_start } else { 0 };
        // serde_json counts columns in bytes, the offending byte included.
        let mut offset = (line_start + shift + e.column().saturating_sub(1)).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let found = self.text[offset..].chars().next();
        let message = e.to_string();
        let message = match message.rsplit_once(" at line ") {
            Some((head, _)) => head.to_string(),
            None => message,
        };
        let (line, line_text, in_line) = self.locate(offset);
        let text = match found {
            Some(c) if c != '\n' && c != '\r' => c.to_string(),
            _ => String::new(),
        };
        Error::at(
            Stage::Parse,
            line,
            line_text,
            in_line,
            &text,
            format!("not valid JSON: {message}"),
        )
    }
}

/// A JSON path such as `moves[3].forks[0][2].move`, built only when a
/// message needs it.
#[derive(Clone, Copy)]
enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => f.write_str("(top level)"),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

// -- JSON values with their place ---------------------------------------------

/// A JSON value and the bytes it spans.
struct Node<'t> {
    start: usize,
    end: usize,
    value: Value<'t>,
}

enum Value<'t> {
    Null,
    Bool(bool),
    /// The number as written.
    Number(&'t str),
    String(String),
    Array(Vec<Node<'t>>),
    Object(Vec<Member<'t>>),
}

struct Member<'t> {
    key: String,
    key_start: usize,
    value: Node<'t>,
}

impl Node<'_> {
    fn what(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// An integer, also when written `7.0`.
    fn as_int(&self) -> Option<i64> {
        let Value::Number(raw) = self.value else {
            return None;
        };
        raw.parse::<i64>().ok().or_else(|| {
            let x = raw.parse::<f64>().ok()?;
            (x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15).then_some(x as i64)
        })
    }

    /// A finite number that is not negative.
    fn as_non_negative(&self) -> Option<f64> {
        let Value::Number(raw) = self.value else {
            return None;
        };
        raw.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
    }
}

/// Notes where each value of a JSON text starts and ends. The text has
/// already been checked by serde_json; anything unexpected gives `None`
/// rather than a panic.
struct Scanner<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    /// Where the text went deeper than [`MAX_DEPTH`], if it did.
    too_deep: Option<usize>,
}

/// How deep JSON may nest. The reader follows forks by recursion, so the
/// depth is bounded; 1,024 levels hold forks about 340 deep.
const MAX_DEPTH: u32 = 1024;

impl<'t> Scanner<'t> {
    fn new(text: &'t str, at: usize) -> Scanner<'t> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            at,
            too_deep: None,
        }
    }

    fn document(&mut self) -> Option<Node<'t>> {
        let node = self.value(0)?;
        self.space();
        (self.at == self.bytes.len()).then_some(node)
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn next(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn value(&mut self, depth: u32) -> Option<Node<'t>> {
        if depth > MAX_DEPTH {
            self.too_deep = Some(self.at);
            return None;
        }
        self.space();
        let start = self.at;
        let value = match *self.bytes.get(self.at)? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                self.space();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                } else {
                    loop {
                        self.space();
                        let key_start = self.at;
                        let key = self.string()?;
                        self.space();
                        (self.next()? == b':').then_some(())?;
                        let value = self.value(depth + 1)?;
                        members.push(Member {
                            key,
                            key_start,
                            value,
                        });
                        self.space();
                        match self.next()? {
                            b',' => {}
                            b'}' => break,
                            _ => return None,
                        }
                    }
                }
                Value::Object(members)
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.space();
                        match self.next()? {
                            b',' => {}
                            b']' => break,
                            _ => return None,
                        }
                    }
                }
                Value::Array(items)
            }
            b'"' => Value::String(self.string()?),
            b't' => self.literal("true", Value::Bool(true))?,
            b'f' => self.literal("false", Value::Bool(false))?,
            b'n' => self.literal("null", Value::Null)?,
            _ => {
                while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') =
                    self.bytes.get(self.at)
                {
                    self.at += 1;
                }
                if self.at == start {
                    return None;
                }
                Value::Number(self.text.get(start..self.at)?)
            }
        };
        Some(Node {
            start,
            end: self.at,
            value,
        })
    }

    fn literal(&mut self, word: &str, value: Value<'t>) -> Option<Value<'t>> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word.as_bytes()).then_some(())?;
        self.at = end;
        Some(value)
    }

    /// A string, decoded by serde_json when it has escapes.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        (self.next()? == b'"').then_some(())?;
        let mut escaped = false;
        loop {
            match self.next()? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.next()?;
                }
                _ => {}
            }
        }
        let raw = self.text.get(start..self.at)?;
        if escaped {
            serde_json::from_str::<String>(raw).ok()
        } else {
            raw.get(1..raw.len() - 1).map(str::to_string)
        }
    }
}

/// The JSON text of a value without the spaces between tokens, shortened.
fn compact(source: &Source<'_>, node: &Node<'_>) -> String {
    let raw = source.text.get(node.start..node.end).unwrap_or("");
    let mut out = String::with_capacity(raw.len().min(100));
    let mut in_string = false;
    let mut escaped = false;
    for c in raw.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !c.is_whitespace() {
            out.push(c);
            in_string = c == '"';
        }
        if out.len() > 160 {
            out.push('…');
            break;
        }
    }
    out
}

// -- Building the record ------------------------------------------------------

const ROOT_KEYS: [&str; 3] = ["header", "initial", "moves"];
const INITIAL_KEYS: [&str; 2] = ["preset", "data"];
const DATA_KEYS: [&str; 3] = ["color", "board", "hands"];
const SQUARE_KEYS: [&str; 2] = ["color", "kind"];
const ENTRY_KEYS: [&str; 6] = ["move", "special", "comments", "comment", "time", "forks"];
const MOVE_KEYS: [&str; 8] = [
    "color", "from", "to", "piece", "same", "promote", "capture", "relative",
];
const PLACE_KEYS: [&str; 2] = ["x", "y"];
const TIME_KEYS: [&str; 2] = ["now", "total"];
const CLOCK_KEYS: [&str; 3] = ["h", "m", "s"];

const PRESETS: [(&str, Handicap); 16] = [
    ("HIRATE", Handicap::Even),
    ("KY", Handicap::Lance),
    ("KY_R", Handicap::RightLance),
    ("KA", Handicap::Bishop),
    ("HI", Handicap::Rook),
    ("HIKY", Handicap::RookLance),
    ("2", Handicap::TwoPieces),
    ("3", Handicap::ThreePieces),
    ("4", Handicap::FourPieces),
    ("5", Handicap::FivePieces),
    ("5_L", Handicap::LeftFivePieces),
    ("6", Handicap::SixPieces),
    ("7_L", Handicap::LeftSevenPieces),
    ("7_R", Handicap::RightSevenPieces),
    ("8", Handicap::EightPieces),
    ("10", Handicap::TenPieces),
];

/// The JKF preset name of a standard start.
pub fn preset_name(handicap: Handicap) -> &'static str {
    PRESETS
        .iter()
        .find(|(_, h)| *h == handicap)
        .map_or("OTHER", |(name, _)| name)
}

/// The standard start a JKF preset name stands for (`OTHER` is none).
pub fn preset(name: &str) -> Option<Handicap> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, h)| *h)
}

/// What a JKF `special` (the CSA terminal words) means, with `to_move` the
/// player to move there: the kind of ending and the winner, if known.
/// `None` for a word JKF does not define.
pub fn ending_for_special(word: &str, to_move: Color) -> Option<(EndingKind, Option<Color>)> {
    use EndingKind::*;
    // A foul by `culprit`: a loss for the player to move if it is theirs.
    let foul_by = |culprit: Color| {
        let kind = if culprit == to_move {
            FoulLoss
        } else {
            FoulWin
        };
        (kind, Some(!culprit))
    };
    Some(match word {
        "TORYO" => (Resign, Some(!to_move)),
        "CHUDAN" => (Abort, None),
        "SENNICHITE" => (Repetition, None),
        "TIME_UP" => (TimeUp, Some(!to_move)),
        "ILLEGAL_MOVE" => foul_by(to_move),
        "+ILLEGAL_ACTION" => foul_by(Color::Black),
        "-ILLEGAL_ACTION" => foul_by(Color::White),
        "JISHOGI" => (Impasse, None),
        "KACHI" => (EnteringKing, Some(to_move)),
        "TSUMI" => (Checkmate, Some(!to_move)),
        "FUZUMI" => (NoMate, None),
        "HIKIWAKE" => (Draw, None),
        "MATTA" => (Matta, None),
        "ERROR" => (Error, None),
        // CSA V3 words that the JKF schema does not list yet.
        "OUTE_SENNICHITE" => (PerpetualCheck, Some(to_move)),
        "MAX_MOVES" => (MaxMoves, None),
        _ => return None,
    })
}

/// A resolver error in words, without the list separator at its end.
fn reason(e: &ResolveError) -> String {
    let text = e.to_string();
    text.trim_end_matches(';').to_string()
}

/// Whether a move that cannot be resolved breaks the rules (a foul a game
/// may end with) rather than naming no move at all.
fn is_foul(error: &ResolveError) -> bool {
    matches!(
        error,
        ResolveError::Illegal { .. } | ResolveError::NoCandidate { .. }
    )
}

/// A JKF move object, read but not yet played.
struct MoveFields<'n, 't> {
    spec: MoveSpec,
    capture: Option<(PieceKind, &'n Node<'t>)>,
    same: Option<&'n Node<'t>>,
    relative: Option<(&'n str, &'n Node<'t>)>,
    declined: Option<&'n Node<'t>>,
    /// Where `color` is written, for an error about it.
    color: Option<&'n Node<'t>>,
    /// Where `piece` is written, for a warning about it.
    piece: Option<&'n Node<'t>>,
}

/// A fork to read once its line is done: the entry it hangs on, the node
/// and position before that entry.
struct PendingFork<'n, 't> {
    entry: usize,
    parent: NodeId,
    pos: Position,
    forks: &'n Node<'t>,
}

struct Reader<'s, 't> {
    source: &'s Source<'t>,
    warnings: Vec<Warning>,
    tree: MoveTree,
}

impl<'s, 't> Reader<'s, 't> {
    fn warn(&mut self, node: &Node<'_>, message: impl Into<String>) {
        let warning = self.source.warning(node.start, node.end, message);
        self.warnings.push(warning);
    }

    fn parse_error(&self, node: &Node<'_>, message: impl Into<String>) -> Error {
        self.source
            .error(Stage::Parse, node.start, node.end, message)
    }

    /// The members of an object named in `known` (the last one of each
    /// name; `null` counts as absent), warning about unknown and repeated
    /// keys.
    fn fields<'n, const N: usize>(
        &mut self,
        node: &'n Node<'t>,
        path: Path<'_>,
        known: [&str; N],
    ) -> Result<[Option<&'n Node<'t>>; N], Error> {
        let Value::Object(members) = &node.value else {
            return Err(self.parse_error(
                node,
                format!("{path}: expected an object, found {}", node.what()),
            ));
        };
        let mut found: [Option<&'n Node<'t>>; N] = [None; N];
        let mut seen = [false; N];
        for member in members {
            let key_end = member.value.start;
            match known.iter().position(|k| *k == member.key) {
                Some(i) => {
                    if seen[i] {
                        let warning = self.source.warning(
                            member.key_start,
                            key_end,
                            format!(
                                "{path}: key `{}` given twice; the last one is used",
                                member.key
                            ),
                        );
                        self.warnings.push(warning);
                    }
                    seen[i] = true;
                    found[i] = match member.value.value {
                        Value::Null => None,
                        _ => Some(&member.value),
                    };
                }
                None => {
                    let warning = self.source.warning(
                        member.key_start,
                        key_end,
                        format!(
                            "{path}: unknown key `{}` ignored (expected one of {})",
                            member.key,
                            known.join(", ")
                        ),
                    );
                    self.warnings.push(warning);
                }
            }
        }
        Ok(found)
    }

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
        let (start, problems) = Position::from_setup_lenient(setup.clone()).map_err(|e| {
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
            return Err(self.parse_error(
                moves,
                format!("moves: expected an array, found {}", moves.what()),
            ));
        };
        self.tree = MoveTree::with_capacity(entries.len());
        self.line(
            entries,
            Path::Key(&path, "moves"),
            NodeId::ROOT,
            start,
            true,
        )?;
        let mut record = Record::new(setup);
        record.handicap = handicap;
        record.headers = headers;
        record.tree = self.tree;
        record.warnings = self.warnings;
        Ok(record)
    }

    fn headers(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Vec<Header>, Error> {
        let Value::Object(members) = &node.value else {
            return Err(self.parse_error(
                node,
                format!(
                    "{path}: expected an object of strings, found {}",
                    node.what()
                ),
            ));
        };
        let mut headers = Vec::with_capacity(members.len());
        for member in members {
            let value = match &member.value.value {
                Value::String(s) => s.clone(),
                Value::Number(raw) => {
                    self.warn(
                        &member.value,
                        format!(
                            "{path}: the value of `{}` is a number, kept as written",
                            member.key
                        ),
                    );
                    raw.to_string()
                }
                Value::Bool(b) => {
                    self.warn(
                        &member.value,
                        format!(
                            "{path}: the value of `{}` is a boolean, kept as written",
                            member.key
                        ),
                    );
                    b.to_string()
                }
                _ => {
                    self.warn(
                        &member.value,
                        format!(
                            "{path}: the value of `{}` is {}, not a string; header ignored",
                            member.key,
                            member.value.what()
                        ),
                    );
                    continue;
                }
            };
            // A header is a line in every other format: a value of several
            // lines is several headers with this key (as kifconv's writer
            // writes a key given more than once).
            for line in value.split('\n') {
                headers.push(Header {
                    key: member.key.clone(),
                    value: line.strip_suffix('\r').unwrap_or(line).to_string(),
                });
            }
        }
        Ok(headers)
    }

    fn initial(
        &mut self,
        node: &Node<'t>,
        path: Path<'_>,
    ) -> Result<(Setup, Option<Handicap>), Error> {
        let [preset_node, data] = self.fields(node, path, INITIAL_KEYS)?;
        let data_path = Path::Key(&path, "data");
        let named = match preset_node {
            None if data.is_some() => {
                self.warn(
                    node,
                    format!("{path}: no `preset`; read as OTHER since `data` is given"),
                );
                None
            }
            None => {
                return Err(self.parse_error(
                    node,
                    format!(
                        "{path}: no `preset` (expected HIRATE, a handicap, or OTHER with `data`)"
                    ),
                ))
            }
            Some(p) => {
                let name = p.as_str().unwrap_or("");
                match (name, preset(name)) {
                    ("OTHER", _) => None,
                    (_, Some(handicap)) => Some(handicap),
                    _ => {
                        return Err(self.parse_error(
                            p,
                            format!(
                                "{path}.preset: unknown preset {} (expected one of {}, OTHER)",
                                compact(self.source, p),
                                PRESETS.map(|(n, _)| n).join(", ")
                            ),
                        ))
                    }
                }
            }
        };
        match (named, data) {
            (Some(handicap), None) => Ok((handicap.setup(), Some(handicap))),
            (Some(handicap), Some(data)) => {
                // The preset decides; say so when the board disagrees.
                // Only the preset counts, so data that cannot be read is
                // a warning here, not an error.
                let name = preset_name(handicap);
                match self.board_data(data, data_path) {
                    Ok(given) if given == handicap.setup() => {}
                    Ok(_) => self.warn(
                        data,
                        format!("{path}: `data` differs from preset {name}; the preset is used"),
                    ),
                    Err(e) => self.warn(
                        data,
                        format!("{path}: `data` beside preset {name} is unreadable ({}); the preset is used", e.message),
                    ),
                }
                Ok((handicap.setup(), Some(handicap)))
            }
            (None, None) => Err(self.parse_error(
                node,
                format!("{path}: preset OTHER needs `data` (color, board, hands)"),
            )),
            (None, Some(data)) => {
                let setup = self.board_data(data, data_path)?;
                let handicap = Handicap::ALL.into_iter().find(|h| h.setup() == setup);
                Ok((setup, handicap))
            }
        }
    }

    fn board_data(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Setup, Error> {
        let [color, board, hands] = self.fields(node, path, DATA_KEYS)?;
        let mut setup = Setup::empty();
        setup.side_to_move = match color {
            Some(c) => self.color(c, Path::Key(&path, "color"))?,
            None => {
                self.warn(node, format!("{path}: no `color`; Black (0) moves first"));
                Color::Black
            }
        };
        if let Some(board) = board {
            let board_path = Path::Key(&path, "board");
            match &board.value {
                Value::Object(members) if members.is_empty() => {}
                Value::Array(files) if files.len() == 9 => {
                    for (x, file) in files.iter().enumerate() {
                        let file_path = Path::Index(&board_path, x);
                        let squares = match &file.value {
                            Value::Array(squares) if squares.len() == 9 => squares,
                            _ => {
                                return Err(self.parse_error(
                                    file,
                                    format!("{file_path}: expected an array of 9 squares (ranks 1 to 9 of file {})", x + 1),
                                ))
                            }
                        };
                        for (y, square) in squares.iter().enumerate() {
                            let square_path = Path::Index(&file_path, y);
                            let piece = self.square(square, square_path)?;
                            let sq = Square::new(x as u8 + 1, y as u8 + 1).expect("x and y are below 9");
                            setup.set_piece(sq, piece);
                        }
                    }
                }
                _ => {
                    return Err(self.parse_error(
                        board,
                        format!("{board_path}: expected 9 arrays of 9 squares, board[x-1][y-1] for file x and rank y"),
                    ))
                }
            }
        } else {
            self.warn(node, format!("{path}: no `board`; the board is empty"));
        }
        match hands {
            None => self.warn(node, format!("{path}: no `hands`; both hands are empty")),
            Some(hands) => {
                let hands_path = Path::Key(&path, "hands");
                let Value::Array(items) = &hands.value else {
                    return Err(self.parse_error(
                        hands,
                        format!(
                            "{hands_path}: expected an array of two hands, Black's then White's"
                        ),
                    ));
                };
                if items.len() != 2 {
                    return Err(self.parse_error(
                        hands,
                        format!(
                            "{hands_path}: expected two hands (Black's, then White's), found {}",
                            items.len()
                        ),
                    ));
                }
                for (i, item) in items.iter().enumerate() {
                    setup.hands[i] = self.hand(item, Path::Index(&hands_path, i))?;
                }
            }
        }
        Ok(setup)
    }

    fn square(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Option<Piece>, Error> {
        if let Value::Null = node.value {
            return Ok(None);
        }
        let [color, kind] = self.fields(node, path, SQUARE_KEYS)?;
        match (color, kind) {
            (None, None) => Ok(None),
            (Some(color), Some(kind)) => {
                let color = self.color(color, Path::Key(&path, "color"))?;
                let kind = self.kind(kind, Path::Key(&path, "kind"))?;
                Ok(Some(Piece::new(color, kind)))
            }
            _ => Err(self.parse_error(
                node,
                format!("{path}: a square holds `color` and `kind` together, or neither"),
            )),
        }
    }

    fn hand(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Hand, Error> {
        let Value::Object(members) = &node.value else {
            return Err(self.parse_error(
                node,
                format!(
                    "{path}: expected an object such as {{\"FU\": 2}}, found {}",
                    node.what()
                ),
            ));
        };
        let mut hand = Hand::EMPTY;
        for member in members {
            let count_node = &member.value;
            let kind = PieceKind::from_csa(&member.key).ok_or_else(|| {
                self.source.error(
                    Stage::Parse,
                    member.key_start,
                    count_node.start,
                    format!(
                        "{path}: unknown piece `{}` (expected FU KY KE GI KI KA HI)",
                        member.key
                    ),
                )
            })?;
            let count = count_node
                .as_int()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| {
                    self.parse_error(
                        count_node,
                        format!("{path}.{}: expected a count from 0 to 18", member.key),
                    )
                })?;
            if count == 0 {
                continue;
            }
            if !kind.is_hand_kind() {
                return Err(self.source.error(
                    Stage::Parse,
                    member.key_start,
                    count_node.end,
                    format!(
                        "{path}: a hand cannot hold {} ({})",
                        kind.kanji(),
                        kind.csa()
                    ),
                ));
            }
            hand.set(kind, count);
        }
        Ok(hand)
    }

    fn color(&self, node: &Node<'t>, path: Path<'_>) -> Result<Color, Error> {
        match node.as_int() {
            Some(0) => Ok(Color::Black),
            Some(1) => Ok(Color::White),
            _ => Err(self.parse_error(
                node,
                format!(
                    "{path}: expected 0 (Black, 先手) or 1 (White, 後手), found {}",
                    compact(self.source, node)
                ),
            )),
        }
    }

    fn kind(&self, node: &Node<'t>, path: Path<'_>) -> Result<PieceKind, Error> {
        node.as_str()
            .and_then(PieceKind::from_csa)
            .ok_or_else(|| {
                self.parse_error(
                    node,
                    format!(
                        "{path}: unknown piece {} (expected one of FU KY KE GI KI KA HI OU TO NY NK NG UM RY)",
                        compact(self.source, node)
                    ),
                )
            })
    }

    fn place(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Square, Error> {
        let [x, y] = self.fields(node, path, PLACE_KEYS)?;
        let coordinate = |this: &Self, value: Option<&Node<'t>>, name: &'static str| {
            let what = if name == "x" { "the file" } else { "the rank" };
            let Some(value) = value else {
                return Err(this.parse_error(node, format!("{path}: no `{name}` ({what}, 1 to 9)")));
            };
            let bad = |at: &Node<'t>| {
                this.parse_error(
                    at,
                    format!(
                        "{path}.{name}: expected an integer from 1 to 9 ({what}), found {}",
                        compact(this.source, at)
                    ),
                )
            };
            value
                .as_int()
                .filter(|n| (1..=9).contains(n))
                .map(|n| n as u8)
                .ok_or_else(|| bad(value))
        };
        let file = coordinate(self, x, "x")?;
        let rank = coordinate(self, y, "y")?;
        Ok(Square::new(file, rank).expect("checked to be 1-9"))
    }

    /// Comment lines from `comments` (an array of strings, or one string)
    /// and `comment` (one string).
    fn comments(
        &mut self,
        comments: Option<&Node<'t>>,
        comment: Option<&Node<'t>>,
        path: Path<'_>,
    ) -> Vec<String> {
        let mut lines = Vec::new();
        for (node, name) in [(comments, "comments"), (comment, "comment")] {
            let Some(node) = node else { continue };
            match &node.value {
                Value::String(s) => lines.extend(comment_lines(s)),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        match &item.value {
                            Value::String(s) => lines.extend(comment_lines(s)),
                            _ => self.warn(
                                item,
                                format!(
                                    "{path}.{name}[{i}]: a comment is a string, not {}; ignored",
                                    item.what()
                                ),
                            ),
                        }
                    }
                }
                _ => self.warn(
                    node,
                    format!(
                        "{path}.{name}: expected an array of strings, found {}; ignored",
                        node.what()
                    ),
                ),
            }
        }
        lines
    }

    /// `{"now": {h?, m, s}, "total": {h, m, s}}`. A time that cannot be
    /// read is dropped with a warning: it does not change the game.
    fn time(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Option<MoveTime>, Error> {
        let [now, total] = self.fields(node, path, TIME_KEYS)?;
        let Some(now) = now else {
            self.warn(node, format!("{path}: no `now`; time ignored"));
            return Ok(None);
        };
        let Some(spent_ms) = self.clock(now, Path::Key(&path, "now"))? else {
            return Ok(None);
        };
        let total_ms = match total {
            Some(total) => self.clock(total, Path::Key(&path, "total"))?,
            None => None,
        };
        Ok(Some(MoveTime { spent_ms, total_ms }))
    }

    fn clock(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Option<u64>, Error> {
        let parts = self.fields(node, path, CLOCK_KEYS)?;
        let mut seconds = 0.0;
        for (part, scale) in parts.into_iter().zip([3600.0, 60.0, 1.0]) {
            let Some(part) = part else { continue };
            match part.as_non_negative() {
                Some(x) => seconds += x * scale,
                None => {
                    self.warn(
                        part,
                        format!("{path}: expected a number that is not negative, found {}; time ignored", compact(self.source, part)),
                    );
                    return Ok(None);
                }
            }
        }
        // `as` saturates: an absurd time stays a number.
        Ok(Some((seconds * 1000.0).round() as u64))
    }

    /// Reads a `move` object into a spec and the claims to check once the
    /// move is known.
    fn move_fields<'n>(
        &mut self,
        node: &'n Node<'t>,
        path: Path<'_>,
    ) -> Result<MoveFields<'n, 't>, Error> {
        let [color, from, to, piece, same, promote, capture, relative] =
            self.fields(node, path, MOVE_KEYS)?;
        let piece_node = piece;
        let piece = match piece {
            Some(p) => self.kind(p, Path::Key(&path, "piece"))?,
            None => {
                return Err(self.parse_error(
                    node,
                    format!(
                    "{path}: no `piece` (the kind of the moving piece, before it moves: FU, KA, …)"
                ),
                ))
            }
        };
        let bool_of = |this: &mut Self,
                       value: Option<&'n Node<'t>>,
                       name: &str|
         -> Result<Option<(bool, &'n Node<'t>)>, Error> {
            match value {
                None => Ok(None),
                Some(v) => match v.value {
                    Value::Bool(b) => Ok(Some((b, v))),
                    _ => Err(this.parse_error(
                        v,
                        format!(
                            "{path}.{name}: expected true or false, found {}",
                            compact(this.source, v)
                        ),
                    )),
                },
            }
        };
        let same = bool_of(self, same, "same")?;
        let promote = bool_of(self, promote, "promote")?;
        let destination = match to {
            Some(t) => Destination::Square(self.place(t, Path::Key(&path, "to"))?),
            None if matches!(same, Some((true, _))) => Destination::Same,
            None => {
                return Err(self.parse_error(
                    node,
                    format!("{path}: no `to` (the destination {{\"x\": file, \"y\": rank}})"),
                ))
            }
        };
        let mut spec = MoveSpec::new(destination, piece);
        if let Some(c) = color {
            spec.color = Some(self.color(c, Path::Key(&path, "color"))?);
        }
        match from {
            Some(f) => spec.from = Some(self.place(f, Path::Key(&path, "from"))?),
            None => spec.drop = DropMark::Drop,
        }
        let mut declined = None;
        match promote {
            Some((true, _)) => spec.promotion = Promotion::Promote,
            Some((false, node)) => {
                spec.promotion = Promotion::Decline;
                declined = Some(node);
            }
            None => {}
        }
        let capture = match capture {
            Some(c) => Some((self.kind(c, Path::Key(&path, "capture"))?, c)),
            None => None,
        };
        let relative = match relative {
            None => None,
            Some(r) => match r.as_str() {
                Some(text) => Some((text, r)),
                None => {
                    self.warn(
                        r,
                        format!("{path}.relative: expected a string such as \"LU\"; ignored"),
                    );
                    None
                }
            },
        };
        Ok(MoveFields {
            spec,
            capture,
            same: same.filter(|(b, _)| *b).map(|(_, node)| node),
            relative,
            declined,
            color,
            piece: piece_node,
        })
    }

    /// Reads one line of play: `entries` from the position after `parent`.
    /// Forks are read after the line, so that the line's own moves come
    /// first among their siblings.
    fn line(
        &mut self,
        entries: &'_ [Node<'t>],
        path: Path<'_>,
        parent: NodeId,
        mut pos: Position,
        top: bool,
    ) -> Result<(), Error> {
        let mut current = parent;
        let mut previous = self.tree.node(parent).mv.map(Move::to);
        // The entry whose `special` (or illegal move) ended the line.
        let mut ended: Option<usize> = None;
        // Set when an illegal last move ended the line: the next `special`
        // names that foul.
        let mut foul_open = false;
        let mut pending: Vec<PendingFork<'_, 't>> = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let entry_path = Path::Index(&path, i);
            let [mv, special, comments, comment, time, forks] =
                self.fields(entry, entry_path, ENTRY_KEYS)?;
            let mut notes = self.comments(comments, comment, entry_path);
            let time = match time {
                Some(t) => self.time(t, Path::Key(&entry_path, "time"))?,
                None => None,
            };
            if let Some(forks) = forks {
                pending.push(PendingFork {
                    entry: i,
                    parent: current,
                    pos: pos.clone(),
                    forks,
                });
            }
            if top && i == 0 {
                if mv.is_none() && special.is_none() {
                    self.tree.node_mut(NodeId::ROOT).comments.append(&mut notes);
                    if time.is_some() {
                        self.warn(
                            entry,
                            format!("{entry_path}: a time before the first move; ignored"),
                        );
                    }
                    continue;
                }
                self.warn(
                    entry,
                    format!("{entry_path}: the first entry normally holds only the comments before the first move; its move or special is read as usual"),
                );
            }
            let mut placed_notes = false;
            if let Some(mv_node) = mv {
                let move_path = Path::Key(&entry_path, "move");
                let ply = self.tree.node(current).ply + 1;
                if let Some(end) = ended {
                    return Err(self
                        .source
                        .error(
                            Stage::Resolve,
                            mv_node.start,
                            mv_node.end,
                            format!(
                                "{move_path}: a move after the end of the line at {}[{end}]",
                                path
                            ),
                        )
                        .with_ply(ply));
                }
                let fields = self.move_fields(mv_node, move_path)?;
                let mut spec = fields.spec;
                let to = match spec.to {
                    Destination::Square(sq) => Some(sq),
                    Destination::Same => previous,
                };
                if let (Some(node), Some(from), Some(to)) = (fields.declined, spec.from, to) {
                    let could = pos.is_legal(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                    if !could {
                        self.warn(
                            node,
                            format!("{move_path}.promote: false, but this move could not promote; ignored"),
                        );
                        spec.promotion = Promotion::Unmarked;
                    }
                }
                let mut resolved = spec.to_move(&pos, previous);
                if let Err(ResolveError::Illegal {
                    reason: IllegalMove::MustPromote,
                    ..
                }) = resolved
                {
                    // json-kifu-format's board promotes a piece that could
                    // never move again by itself; so do we, with a word.
                    if spec.promotion == Promotion::Unmarked {
                        let mut promoted = spec;
                        promoted.promotion = Promotion::Promote;
                        if let Ok(m) = promoted.to_move(&pos, previous) {
                            self.warn(
                                mv_node,
                                format!("{move_path}: the piece must promote on {} and `promote: true` is missing; read as promoting", m.to()),
                            );
                            spec = promoted;
                            resolved = Ok(m);
                        }
                    }
                }
                if let Err(ResolveError::PieceMismatch { found, written, .. }) = &resolved {
                    // Some producers write the piece after promotion
                    // (`"piece":"UM"` with `"promote":true`): `from`, `to`
                    // and `promote` fix the move all the same.
                    let (found, written) = (*found, *written);
                    if spec.promotion == Promotion::Promote
                        && written.is_promoted()
                        && written.unpromote() == found
                    {
                        let mut before = spec;
                        before.piece = found;
                        if let Ok(m) = before.to_move(&pos, previous) {
                            self.warn(
                                fields.piece.unwrap_or(mv_node),
                                format!(
                                    "{move_path}.piece: {} is the piece after promotion (JKF's `piece` is the piece before it moves); `from`, `to` and `promote: true` fix the move, read as {} promoting",
                                    written.csa(),
                                    found.csa()
                                ),
                            );
                            spec = before;
                            resolved = Ok(m);
                        }
                    }
                }
                match resolved {
                    Ok(m) => {
                        self.check_claims(&pos, m, &fields, &spec, previous, move_path);
                        current = self.tree.push(current, m);
                        let node = self.tree.node_mut(current);
                        node.time = time;
                        node.comments.append(&mut notes);
                        placed_notes = true;
                        pos.play_unchecked(m);
                        previous = Some(m.to());
                    }
                    Err(e)
                        if is_foul(&e)
                            && !entries[i + 1..].iter().any(|later| has_key(later, "move")) =>
                    {
                        let by = pos.side_to_move();
                        let text = compact(self.source, mv_node);
                        self.warn(
                            mv_node,
                            format!("{move_path}: move {ply} is illegal ({}); the game is recorded as lost by {by}'s foul", reason(&e)),
                        );
                        self.tree.node_mut(current).ending = Some(Box::new(Ending {
                            kind: EndingKind::IllegalMove,
                            winner: Some(!by),
                            text: text.clone(),
                            time,
                            comments: std::mem::take(&mut notes),
                            foul: Some(Foul {
                                by,
                                text,
                                reason: reason(&e),
                                mv: match &e {
                                    ResolveError::Illegal { mv, .. } => Some(*mv),
                                    _ => written_move(&spec, to),
                                },
                            }),
                        }));
                        placed_notes = true;
                        ended = Some(i);
                        foul_open = true;
                    }
                    Err(e) => {
                        let hint = match (&e, spec.from) {
                            (ResolveError::NoCandidate { .. }, None) => {
                                " (a JKF move without `from` is a drop)"
                            }
                            (ResolveError::PieceMismatch { .. }, _) => {
                                " (JKF's `piece` is the piece before it moves; `promote: true` says it promotes)"
                            }
                            _ => "",
                        };
                        // The move as written, when the source line does
                        // not show all of it.
                        let shown = match self.source.text.get(mv_node.start..mv_node.end) {
                            Some(raw) if !raw.contains('\n') => String::new(),
                            _ => format!(" {}", compact(self.source, mv_node)),
                        };
                        let (at, shown) = match (&e, fields.color) {
                            (ResolveError::WrongSide { .. }, Some(color)) => {
                                (color, ".color".to_string())
                            }
                            _ => (mv_node, shown),
                        };
                        let reason = reason(&e);
                        return Err(self
                            .source
                            .error(
                                Stage::Resolve,
                                at.start,
                                at.end,
                                format!("{move_path}{shown}: {reason}{hint}"),
                            )
                            .with_ply(ply));
                    }
                }
            }
            if let Some(special_node) = special {
                let special_path = Path::Key(&entry_path, "special");
                let Some(word) = special_node.as_str() else {
                    return Err(self.parse_error(
                        special_node,
                        format!(
                            "{special_path}: expected a word such as \"TORYO\", found {}",
                            special_node.what()
                        ),
                    ));
                };
                if mv.is_some() && !foul_open {
                    self.warn(
                        special_node,
                        format!("{entry_path}: `move` and `special` in one entry; read as the move, then the special"),
                    );
                }
                let to_move = pos.side_to_move();
                let node = self.tree.node_mut(current);
                match &mut node.ending {
                    Some(ending) if foul_open && ending.foul.is_some() => {
                        // The special that names the foul just recorded.
                        ending.text.push(' ');
                        ending.text.push_str(word);
                        ending.comments.append(&mut notes);
                        placed_notes = true;
                        foul_open = false;
                    }
                    Some(ending) => {
                        ending.comments.append(&mut notes);
                        placed_notes = true;
                        self.warn(
                            special_node,
                            format!("{special_path}: a second terminal word for the same line; kept the first"),
                        );
                    }
                    None => {
                        let (kind, winner) = match ending_for_special(word, to_move) {
                            Some(meaning) => meaning,
                            None => {
                                self.warn(
                                    special_node,
                                    format!(
                                        "{special_path}: unknown special `{word}`, kept as text"
                                    ),
                                );
                                (EndingKind::Other, None)
                            }
                        };
                        let node = self.tree.node_mut(current);
                        node.ending = Some(Box::new(Ending {
                            kind,
                            winner,
                            text: word.to_string(),
                            time: if mv.is_some() { None } else { time },
                            comments: if placed_notes {
                                Vec::new()
                            } else {
                                std::mem::take(&mut notes)
                            },
                            foul: None,
                        }));
                        placed_notes = true;
                    }
                }
                ended = Some(ended.unwrap_or(i));
            }
            if mv.is_none() && special.is_none() {
                self.warn(
                    entry,
                    format!("{entry_path}: an entry with neither `move` nor `special`; its comments are kept with the move before"),
                );
            }
            if !placed_notes && !notes.is_empty() {
                let node = self.tree.node_mut(current);
                match (&mut node.ending, ended) {
                    (Some(ending), Some(_)) => ending.comments.append(&mut notes),
                    _ => node.comments.append(&mut notes),
                }
            }
        }
        for fork in pending {
            let fork_path = Path::Index(&path, fork.entry);
            let forks_path = Path::Key(&fork_path, "forks");
            let Value::Array(lines) = &fork.forks.value else {
                return Err(self.parse_error(
                    fork.forks,
                    format!("{forks_path}: expected an array of lines (arrays of entries)"),
                ));
            };
            for (j, line) in lines.iter().enumerate() {
                let line_path = Path::Index(&forks_path, j);
                let Value::Array(fork_entries) = &line.value else {
                    return Err(self.parse_error(
                        line,
                        format!(
                            "{line_path}: expected an array of entries, found {}",
                            line.what()
                        ),
                    ));
                };
                let parent_node = self.tree.node(fork.parent);
                let line_ended_here = self.tree.children(fork.parent).next().is_none()
                    && parent_node.ending.is_some();
                if line_ended_here && fork_entries.iter().any(|e| has_key(e, "move")) {
                    self.warn(
                        line,
                        format!("{line_path}: a variation of an entry where its line ended; the move tree cannot hold it, dropped"),
                    );
                    continue;
                }
                self.line(
                    fork_entries,
                    line_path,
                    fork.parent,
                    fork.pos.clone(),
                    false,
                )?;
            }
        }
        Ok(())
    }

    /// Checks what the JKF move says beyond the move itself; disagreements
    /// are warnings.
    fn check_claims(
        &mut self,
        pos: &Position,
        mv: Move,
        fields: &MoveFields<'_, 't>,
        spec: &MoveSpec,
        previous: Option<Square>,
        path: Path<'_>,
    ) {
        let captured = pos.piece_at(mv.to()).map(|p| p.kind);
        if let Some((claimed, node)) = fields.capture {
            match captured {
                None => self.warn(
                    node,
                    format!(
                        "{path}.capture: says {} is captured, but {} is empty",
                        claimed.csa(),
                        mv.to()
                    ),
                ),
                Some(kind) if kind != claimed => self.warn(
                    node,
                    format!(
                        "{path}.capture: says {}, but the piece on {} is {} ({})",
                        claimed.csa(),
                        mv.to(),
                        kind.kanji(),
                        kind.csa()
                    ),
                ),
                Some(_) => {}
            }
        }
        if let Some(node) = fields.same {
            if previous != Some(mv.to()) {
                self.warn(
                    node,
                    format!(
                        "{path}.same: true, but {} is not where the previous move went",
                        mv.to()
                    ),
                );
            }
        }
        if let Some((text, node)) = fields.relative {
            let mut check = MoveSpec::new(spec.to, spec.piece);
            check.promotion = spec.promotion;
            for c in text.chars() {
                match c {
                    'L' => check.horizontal = Some(Horizontal::Left),
                    'C' => check.horizontal = Some(Horizontal::Straight),
                    'R' => check.horizontal = Some(Horizontal::Right),
                    'U' => check.vertical = Some(Vertical::Up),
                    'M' => check.vertical = Some(Vertical::Sideways),
                    'D' => check.vertical = Some(Vertical::Down),
                    'H' => check.drop = DropMark::Drop,
                    _ => {
                        self.warn(
                            node,
                            format!(
                                "{path}.relative: `{text}` is not made of L C R U M D H; ignored"
                            ),
                        );
                        return;
                    }
                }
            }
            match check.to_move(pos, previous) {
                Ok(named) if named == mv => {}
                Ok(named) => self.warn(
                    node,
                    format!("{path}.relative: `{text}` names {named}, not the move played ({mv})"),
                ),
                Err(e) => self.warn(
                    node,
                    format!(
                        "{path}.relative: `{text}` does not single out the move {mv}: {}",
                        reason(&e)
                    ),
                ),
            }
        }
    }
}

/// A comment string as lines: a record's comments are lines, and one
/// written with line breaks in it becomes several (an empty one stays).
fn comment_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line).to_string())
}

/// The move a JKF move object names, whether or not it is legal.
fn written_move(spec: &MoveSpec, to: Option<Square>) -> Option<Move> {
    let to = to?;
    Some(match spec.from {
        Some(from) => Move::Normal {
            from,
            to,
            promote: spec.promotion == Promotion::Promote,
        },
        None if spec.piece.is_hand_kind() => Move::Drop {
            kind: spec.piece,
            to,
        },
        None => return None,
    })
}

/// Whether an entry is an object with this key (not `null`).
fn has_key(entry: &Node<'_>, key: &str) -> bool {
    match &entry.value {
        Value::Object(members) => members
            .iter()
            .any(|m| m.key == key && !matches!(m.value.value, Value::Null)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(record: &Record) -> String {
        record
            .tree
            .mainline_moves()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

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
        assert_eq!(moves(&record), "7g7f 3c3d 8h2b 3a2b B*4e");
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
    }

    #[test]
    fn presets_match_the_handicaps() {
        for (name, handicap) in PRESETS {
            assert_eq!(preset(name), Some(handicap));
            assert_eq!(preset_name(handicap), name);
            let text = format!(
                r#"{{"header": {{}}, "initial": {{"preset": "{name}"}}, "moves": [{{}}]}}"#
            );
            let record = read(&text).unwrap();
            assert_eq!(record.handicap, Some(handicap));
            assert_eq!(record.start, handicap.setup());
        }
        assert_eq!(preset("OTHER"), None);
    }

    #[test]
    fn specials_name_the_winner() {
        use EndingKind::*;
        let b = Color::Black;
        let w = Color::White;
        assert_eq!(ending_for_special("TORYO", b), Some((Resign, Some(w))));
        assert_eq!(ending_for_special("TSUMI", w), Some((Checkmate, Some(b))));
        assert_eq!(
            ending_for_special("KACHI", b),
            Some((EnteringKing, Some(b)))
        );
        assert_eq!(ending_for_special("TIME_UP", b), Some((TimeUp, Some(w))));
        assert_eq!(
            ending_for_special("ILLEGAL_MOVE", b),
            Some((FoulLoss, Some(w)))
        );
        // `+`: Black broke the rules, whoever is to move.
        assert_eq!(
            ending_for_special("+ILLEGAL_ACTION", b),
            Some((FoulLoss, Some(w)))
        );
        assert_eq!(
            ending_for_special("+ILLEGAL_ACTION", w),
            Some((FoulWin, Some(w)))
        );
        assert_eq!(
            ending_for_special("-ILLEGAL_ACTION", b),
            Some((FoulWin, Some(b)))
        );
        assert_eq!(ending_for_special("HIKIWAKE", b), Some((Draw, None)));
        assert_eq!(ending_for_special("RESIGN", b), None);
    }

    #[test]
    fn paths_read_like_javascript() {
        let root = Path::Root;
        let moves = Path::Key(&root, "moves");
        let entry = Path::Index(&moves, 5);
        let forks = Path::Key(&entry, "forks");
        let line = Path::Index(&forks, 0);
        let inner = Path::Index(&line, 2);
        assert_eq!(
            Path::Key(&inner, "move").to_string(),
            "moves[5].forks[0][2].move"
        );
    }

    #[test]
    fn errors_point_into_the_text() {
        let text = "{\n  \"moves\": [\n    {},\n    {\"move\": {\"from\": {\"x\": 7, \"y\": 6}, \"to\": {\"x\": 7, \"y\": 5}, \"piece\": \"FU\"}}\n  ]\n}";
        let e = read(text).unwrap_err();
        assert_eq!((e.line, e.column, e.ply), (4, 14, Some(1)));
        assert!(e.message.starts_with("moves[1].move"), "{}", e.message);

        let e = read("{\"moves\": [}").unwrap_err();
        assert_eq!((e.line, e.column), (1, 12));
        assert_eq!(e.text, "}");

        let e = read("\u{feff}{\"moves\": [\n {\"move\": 3}]}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 11));
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
        assert_eq!(moves(&record), "1b1a+");
        assert_eq!(record.warnings.len(), 1, "{:?}", record.warnings);
        assert!(record.warnings[0].message.contains("must promote"));
        assert_eq!(record.start.hands[1].count(PieceKind::Pawn), 1);
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
        assert_eq!(moves(&record), "7g7f 3c3d 8h2b+ 3a2b");
        let last = record.tree.node(record.tree.mainline_end());
        assert_eq!(last.comments, ["同銀", "a stray comment"]);
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
        assert_eq!(moves(&record), "7g7f");
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
            assert!(e.line >= 1 && e.column >= 1, "{text}: {e:?}");
        }
        // serde_json refuses to nest deeper than 128 levels; no stack overflow.
        let deep = format!("{{\"moves\": {}", "[".repeat(100_000));
        assert!(read(&deep).is_err());
        // An empty board is a position without kings, which problems allow.
        let record = read("{\"initial\": {\"preset\": \"OTHER\", \"data\": {\"color\": 0, \"board\": {}, \"hands\": [{}, {}]}}, \"moves\": [{}]}").unwrap();
        assert!(record.tree.is_empty());
    }
}
