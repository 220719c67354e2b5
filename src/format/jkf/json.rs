//! A small JSON reader that keeps track of where each value was written,
//! so that errors and warnings about a document can name its line, column
//! and JSON path. Nothing here knows JKF.
//!
//! serde_json checks the syntax first (its [`serde::de::IgnoredAny`]
//! builds nothing, and its errors are the syntax errors reported); then a
//! scanner walks the text, known by then to be good, and notes the bytes
//! each value spans ([`Node`]). Strings with escapes are decoded by
//! serde_json; numbers are kept as written.

use crate::error::{Error, Stage};
use crate::record::Warning;
use std::fmt;

/// Why a text could not be read as JSON.
pub(super) enum Failure {
    /// Not JSON: serde_json's error, placed in the text.
    Syntax(Error),
    /// Values nested deeper than [`MAX_DEPTH`]; the byte offset where the
    /// scan went too deep.
    TooDeep(usize),
    /// serde_json accepted the text and the scanner did not (a bug).
    Unindexed,
}

/// Reads the JSON text of `source` from byte `body_start` on (after a
/// byte-order mark, if there is one) into values with their places.
pub(super) fn parse<'t>(source: &Source<'t>, body_start: usize) -> Result<Node<'t>, Failure> {
    let text = source.text;
    let body = text.get(body_start..).unwrap_or("");
    // serde_json checks the syntax (IgnoredAny: nothing is built), then
    // the scanner indexes the text it knows to be good.
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(body) {
        return Err(Failure::Syntax(source.syntax_error(&e, body_start)));
    }
    let mut scanner = Scanner::new(text, body_start);
    match (scanner.document(), scanner.too_deep) {
        (Some(root), _) => Ok(root),
        (None, Some(at)) => Err(Failure::TooDeep(at)),
        (None, None) => Err(Failure::Unindexed),
    }
}

// -- Where things are in the text ---------------------------------------------

/// The text with its line starts, to turn byte offsets into line, column
/// and source line.
pub(super) struct Source<'t> {
    pub(super) text: &'t str,
    line_starts: Vec<usize>,
    /// The lines of the whole input before `text`.
    lines_before: u32,
}

impl<'t> Source<'t> {
    pub(super) fn new(text: &'t str, lines_before: u32) -> Source<'t> {
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

    pub(super) fn error(
        &self,
        stage: Stage,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) -> Error {
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

    pub(super) fn warning(&self, start: usize, end: usize, message: impl Into<String>) -> Warning {
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
    pub(super) fn syntax_error(&self, e: &serde_json::Error, body_start: usize) -> Error {
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
pub(super) enum Path<'p> {
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
pub(super) struct Node<'t> {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) value: Value<'t>,
}

pub(super) enum Value<'t> {
    Null,
    Bool(bool),
    /// The number as written.
    Number(&'t str),
    String(String),
    Array(Vec<Node<'t>>),
    Object(Vec<Member<'t>>),
}

pub(super) struct Member<'t> {
    pub(super) key: String,
    pub(super) key_start: usize,
    pub(super) value: Node<'t>,
}

impl Node<'_> {
    pub(super) fn what(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    pub(super) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// An integer, also when written `7.0`.
    pub(super) fn as_int(&self) -> Option<i64> {
        let Value::Number(raw) = self.value else {
            return None;
        };
        raw.parse::<i64>().ok().or_else(|| {
            let x = raw.parse::<f64>().ok()?;
            (x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15).then_some(x as i64)
        })
    }

    /// A finite number that is not negative.
    pub(super) fn as_non_negative(&self) -> Option<f64> {
        let Value::Number(raw) = self.value else {
            return None;
        };
        raw.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
    }
}

/// Notes where each value of a JSON text starts and ends. The text has
/// already been checked by serde_json ([`parse`]); anything unexpected
/// gives `None` rather than a panic.
struct Scanner<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    /// Where the text went deeper than [`MAX_DEPTH`], if it did.
    too_deep: Option<usize>,
}

/// How deep values may nest: the top-level value is at depth 0, and a
/// value deeper than this stops the scan ([`Failure::TooDeep`]). The
/// scanner reads nested values by recursion, and so does the JKF reader
/// follow forks, so the depth must be bounded here: serde_json's syntax
/// check does not bound it (it skips values with a stack of its own, not
/// with its recursion limit of 128). In a JKF record, 1,024 levels hold
/// forks within forks 339 deep (a fork line's entries sit three levels
/// below the entry the fork hangs on, and a move's `from` two more below
/// its entry).
pub(super) const MAX_DEPTH: u32 = 1024;

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
pub(super) fn compact(source: &Source<'_>, node: &Node<'_>) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The error `text` gives, as (line, column, offending text, message).
    fn syntax(text: &str, lines_before: u32) -> (u32, u32, String, String) {
        let source = Source::new(text, lines_before);
        let body_start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        match parse(&source, body_start) {
            Err(Failure::Syntax(e)) => (
                e.location.line,
                e.location.column,
                e.location.text,
                e.message,
            ),
            Ok(_) => panic!("{text:?} read"),
            Err(_) => panic!("{text:?}: not a syntax error"),
        }
    }

    #[test]
    fn syntax_errors_name_line_column_and_character() {
        // serde_json's column counts bytes; ours counts characters.
        let (line, column, text, message) = syntax("{\n  \"先手\": tru}", 0);
        assert_eq!((line, column, text.as_str()), (2, 12, "}"));
        assert!(
            message.starts_with("not valid JSON: expected ident"),
            "{message}"
        );
        assert!(!message.contains(" at line "), "{message}");
        let (line, column, text, _) = syntax("[1, 2,]", 0);
        assert_eq!((line, column, text.as_str()), (1, 7, "]"));
        // After a byte-order mark, which serde_json never sees: the place is
        // shifted past it (the mark stays the line's first character).
        let (line, column, text, _) = syntax("\u{feff}{\"a\" 1}", 0);
        assert_eq!((line, column, text.as_str()), (1, 7, "1"));
        // The end of the text: nothing to show.
        let (line, column, text, message) = syntax("{\"a\": [1,\n", 0);
        assert_eq!((line, column, text.as_str()), (2, 1, ""));
        assert!(message.contains("EOF"), "{message}");
        // A line of NDJSON: lines counted in the whole text.
        let (line, column, _, _) = syntax("{\"a\": x}", 7);
        assert_eq!((line, column), (8, 7));
    }

    #[test]
    fn nodes_span_their_values() {
        let text = "{\"a\": [1, \"x\\\"y\", null],\n \"b\": true}";
        let source = Source::new(text, 0);
        let Ok(root) = parse(&source, 0) else {
            panic!("not read")
        };
        assert_eq!((root.start, root.end), (0, text.len()));
        let Value::Object(members) = &root.value else {
            panic!("not an object")
        };
        let spanned = |node: &Node<'_>| &text[node.start..node.end];
        assert_eq!(members[0].key, "a");
        assert_eq!(&text[members[0].key_start..], &text[1..]);
        assert_eq!(spanned(&members[0].value), "[1, \"x\\\"y\", null]");
        let Value::Array(items) = &members[0].value.value else {
            panic!("not an array")
        };
        assert_eq!(items[0].as_int(), Some(1));
        assert_eq!(items[1].as_str(), Some("x\"y"));
        assert_eq!(spanned(&items[1]), "\"x\\\"y\"");
        assert_eq!(items[2].what(), "null");
        assert_eq!(members[1].key, "b");
        assert_eq!(members[1].key_start, text.find("\"b\"").unwrap());
        assert_eq!(spanned(&members[1].value), "true");
        // Warnings about a node: line and column in characters, from the
        // node's start.
        let w = source.warning(members[1].value.start, members[1].value.end, "m");
        assert_eq!((w.line, w.column, w.text.as_str()), (2, 7, "true"));
    }

    #[test]
    fn nesting_deeper_than_max_depth_is_refused_where_it_starts() {
        let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        // Depths 0 to MAX_DEPTH: MAX_DEPTH + 1 arrays.
        let text = nested(MAX_DEPTH as usize + 1);
        assert!(parse(&Source::new(&text, 0), 0).is_ok());
        let text = nested(MAX_DEPTH as usize + 2);
        match parse(&Source::new(&text, 0), 0) {
            Err(Failure::TooDeep(at)) => assert_eq!(at, MAX_DEPTH as usize + 1),
            _ => panic!("not refused as too deep"),
        }
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
    fn compact_drops_the_space_between_tokens_only() {
        let text = "{ \"a b\" : [ 1 ,\n 2 ] }";
        let source = Source::new(text, 0);
        let Ok(root) = parse(&source, 0) else {
            panic!("not read")
        };
        assert_eq!(compact(&source, &root), "{\"a b\":[1,2]}");
    }
}
