//! A small, strict JSON reader (RFC 8259) that keeps track of where each
//! value was written, so that errors and warnings about a document can name
//! its line, column and JSON path. Nothing here knows JKF.
//!
//! One pass reads the text into values with the bytes they span ([`Node`]),
//! or stops at the first fault with an error that names the place, the
//! offending text and what was expected. Strings without escapes borrow
//! the text; numbers are kept as written; an object keeps every member in
//! input order, a key given twice included.

use crate::error::{Error, Stage};
use crate::record::raw::Span;
use crate::record::Warning;
use std::borrow::Cow;
use std::fmt;

/// Reads the JSON text of `source`, after its byte-order mark if it has
/// one, into values with their places.
pub(super) fn parse<'t>(source: &Source<'t>) -> Result<Node<'t>, Error> {
    let text = source.text;
    let mut parser = Parser {
        source,
        text,
        bytes: text.as_bytes(),
        at: text.len() - text.strip_prefix('\u{feff}').unwrap_or(text).len(),
    };
    parser.document().map_err(|e| *e)
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

    /// The text from `start` to `end`, cut at the end of its first line,
    /// as a span of that line, to be quoted by errors and warnings.
    fn span(&self, start: usize, end: usize) -> Span<'t> {
        let offset = start.min(self.text.len());
        let index = self.line_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let line_start = self.line_starts[index];
        let line_end = self
            .line_starts
            .get(index + 1)
            .map_or(self.text.len(), |&e| e - 1);
        let line = self.text.get(line_start..line_end).unwrap_or("");
        let text = self.text.get(start..end.max(start)).unwrap_or("");
        let first = text.split('\n').next().unwrap_or("");
        Span::of(
            self.lines_before.saturating_add(index as u32 + 1),
            line.strip_suffix('\r').unwrap_or(line),
            first.strip_suffix('\r').unwrap_or(first),
        )
    }

    pub(super) fn error(
        &self,
        stage: Stage,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) -> Error {
        self.span(start, end).error(stage, message)
    }

    pub(super) fn warning(&self, start: usize, end: usize, message: impl Into<String>) -> Warning {
        self.span(start, end).warning(message)
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
    /// Borrowed from the text unless it has escapes.
    String(Cow<'t, str>),
    Array(Vec<Node<'t>>),
    Object(Vec<Member<'t>>),
}

pub(super) struct Member<'t> {
    pub(super) key: Cow<'t, str>,
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

// -- The parser ---------------------------------------------------------------

/// How deep values may nest (the top-level value is at depth 0): the
/// parser and the JKF reader recurse. 1,024 levels hold forks within forks
/// 339 deep.
pub(super) const MAX_DEPTH: u32 = 1024;

/// A fault in the text, boxed so that results stay small on the way up.
type Parsed<T> = Result<T, Box<Error>>;

struct Parser<'s, 't> {
    source: &'s Source<'t>,
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl<'t> Parser<'_, 't> {
    fn document(&mut self) -> Parsed<Node<'t>> {
        let node = self.value(0)?;
        self.space();
        if self.at < self.bytes.len() {
            return Err(self.here("expected nothing after the top-level value"));
        }
        Ok(node)
    }

    /// An error from byte `start` to `end`, the text between shown.
    fn fault(&self, start: usize, end: usize, message: impl fmt::Display) -> Box<Error> {
        Box::new(self.source.error(
            Stage::Parse,
            start,
            end,
            format!("not valid JSON: {message}"),
        ))
    }

    /// An error at the character the parser is on (none at the end).
    fn here(&self, message: impl fmt::Display) -> Box<Error> {
        self.fault(self.at, self.char_end(|_| true), message)
    }

    /// An error at the character the parser is on, or at the end of the
    /// text (`ends` says what it ends inside, and what was expected).
    fn unexpected(&self, expected: impl fmt::Display, ends: impl fmt::Display) -> Box<Error> {
        if self.at < self.bytes.len() {
            self.here(expected)
        } else {
            self.here(format_args!("the JSON ends {ends}"))
        }
    }

    /// After a member of `what` (closed by `close`): past a `,` (false) or
    /// past the closing bracket (true).
    fn comma_or_close(&mut self, close: u8, what: &str) -> Parsed<bool> {
        self.space();
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(false)
            }
            Some(b) if b == close => {
                self.at += 1;
                Ok(true)
            }
            _ => {
                let close = close as char;
                Err(self.unexpected(
                    format_args!("expected `,` or `{close}`"),
                    format_args!("inside {what}: expected `,` or `{close}`"),
                ))
            }
        }
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn value(&mut self, depth: u32) -> Parsed<Node<'t>> {
        self.space();
        let start = self.at;
        if depth > MAX_DEPTH {
            return Err(Box::new(self.source.error(
                Stage::Parse,
                start,
                (start + 1).min(self.text.len()),
                format!(
                    "JSON nested more than {MAX_DEPTH} levels deep (forks within forks); not read"
                ),
            )));
        }
        let value = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
            _ => {
                return Err(self.unexpected(
                    "expected a value (an object, an array, a string, a number, `true`, `false` or `null`)",
                    "where a value was expected",
                ))
            }
        };
        Ok(Node {
            start,
            end: self.at,
            value,
        })
    }

    /// Steps over the opening bracket the parser is on and the spaces
    /// after it; whether `close` closes the bracket at once (stepped over
    /// too).
    fn open(&mut self, close: u8) -> bool {
        self.at += 1;
        self.space();
        let empty = self.peek() == Some(close);
        self.at += usize::from(empty);
        empty
    }

    /// Where the character the parser is on ends, to quote it when
    /// `quoted` says so; where it starts otherwise, and at the end of the
    /// text (nothing to quote).
    fn char_end(&self, quoted: impl Fn(char) -> bool) -> usize {
        match self
            .text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
        {
            Some(c) if quoted(c) => self.at + c.len_utf8(),
            _ => self.at,
        }
    }

    /// An object, the parser on its `{`.
    fn object(&mut self, depth: u32) -> Parsed<Value<'t>> {
        if self.open(b'}') {
            return Ok(Value::Object(Vec::new()));
        }
        let mut members = Vec::new();
        loop {
            self.space();
            let key_start = self.at;
            if self.peek() != Some(b'"') {
                let expected = if members.is_empty() {
                    "expected a key (a string in double quotes) or `}`"
                } else if self.peek() == Some(b'}') {
                    "trailing comma: expected a key (a string in double quotes) after `,`"
                } else {
                    "expected a key (a string in double quotes)"
                };
                return Err(self.unexpected(expected, "inside an object, where a key was expected"));
            }
            let key = self.string()?;
            self.space();
            if self.peek() != Some(b':') {
                return Err(self.unexpected(
                    "expected `:` after the key",
                    "inside an object: expected `:` after the key",
                ));
            }
            self.at += 1;
            let value = self.value(depth + 1)?;
            members.push(Member {
                key,
                key_start,
                value,
            });
            if self.comma_or_close(b'}', "an object")? {
                return Ok(Value::Object(members));
            }
        }
    }

    /// An array, the parser on its `[`.
    fn array(&mut self, depth: u32) -> Parsed<Value<'t>> {
        if self.open(b']') {
            return Ok(Value::Array(Vec::new()));
        }
        let mut items = Vec::new();
        loop {
            if !items.is_empty() {
                self.space();
                if self.peek() == Some(b']') {
                    return Err(self.here("trailing comma: expected a value after `,`"));
                }
            }
            items.push(self.value(depth + 1)?);
            if self.comma_or_close(b']', "an array")? {
                return Ok(Value::Array(items));
            }
        }
    }

    /// `true`, `false` or `null`, the parser on its first letter.
    fn literal(&mut self, word: &'static str, value: Value<'t>) -> Parsed<Value<'t>> {
        for &b in word.as_bytes() {
            if self.peek() != Some(b) {
                return Err(self.unexpected(
                    format_args!("expected `{word}`"),
                    format_args!("inside `{word}`"),
                ));
            }
            self.at += 1;
        }
        Ok(value)
    }

    /// A number as written, checked against JSON's grammar: `-`, then `0`
    /// or digits without a leading zero, then `.` and digits, then `e` or
    /// `E`, a sign and digits.
    fn number(&mut self) -> Parsed<&'t str> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        if self.peek() == Some(b'0') {
            self.at += 1;
            if let Some(b'0'..=b'9') = self.peek() {
                return Err(
                    self.bad_number(start, "a number does not start with `0` and another digit")
                );
            }
        } else {
            self.digits(start, "expected a digit after `-`")?;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.digits(start, "expected a digit after `.`")?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.digits(start, "expected a digit in the exponent")?;
        }
        Ok(&self.text[start..self.at])
    }

    /// One digit or more of the number from `start`; else what was
    /// `expected` there.
    fn digits(&mut self, start: usize, expected: &str) -> Parsed<()> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.bad_number(start, expected));
        }
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        Ok(())
    }

    /// A number from `start` that breaks the grammar where the parser is:
    /// the text shown runs to the offending character, included.
    fn bad_number(&self, start: usize, expected: &str) -> Box<Error> {
        let end = self.char_end(|c| c != '\n' && c != '\r');
        self.fault(start, end, format_args!("invalid number: {expected}"))
    }

    /// A string, the parser on its opening quote: borrowed from the text
    /// when it has no escapes, decoded when it has.
    fn string(&mut self) -> Parsed<Cow<'t, str>> {
        self.at += 1;
        let start = self.at;
        // The text decoded up to `run`, from the first escape on.
        let mut decoded: Option<String> = None;
        let mut run = start;
        loop {
            match self.peek() {
                Some(b'"') => {
                    let rest = &self.text[run..self.at];
                    self.at += 1;
                    let Some(mut decoded) = decoded else {
                        return Ok(Cow::Borrowed(rest));
                    };
                    decoded.push_str(rest);
                    return Ok(Cow::Owned(decoded));
                }
                Some(b'\\') => {
                    let capacity = self.at - start + 16;
                    let decoded = decoded.get_or_insert_with(|| String::with_capacity(capacity));
                    decoded.push_str(&self.text[run..self.at]);
                    decoded.push(self.escape()?);
                    run = self.at;
                }
                Some(0x20..) => self.at += 1,
                _ => return Err(self.string_fault()),
            }
        }
    }

    /// A control character in a string, or the end of the text in one.
    fn string_fault(&self) -> Box<Error> {
        match self.peek() {
            Some(b) => self.fault(
                self.at,
                self.at + 1,
                format_args!(
                    "a control character (U+{b:04X}) in a string: expected it written as an escape ({})",
                    match b {
                        b'\n' => "`\\n`".to_string(),
                        b'\r' => "`\\r`".to_string(),
                        b'\t' => "`\\t`".to_string(),
                        _ => format!("`\\u{b:04x}`"),
                    }
                ),
            ),
            None => self.fault(
                self.at,
                self.at,
                "the JSON ends inside a string: expected its closing `\"`",
            ),
        }
    }

    /// One escape, the parser on its backslash.
    fn escape(&mut self) -> Parsed<char> {
        let start = self.at;
        self.at += 1;
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.at += 1;
                return self.unicode_escape(start);
            }
            _ => {
                return Err(self.fault(
                    start,
                    self.char_end(|c| c >= ' '),
                    "invalid escape: expected `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\u` and four hex digits",
                ));
            }
        };
        self.at += 1;
        Ok(c)
    }

    /// A `\uXXXX` escape from `start`, the parser after its `u`; a
    /// surrogate pair is two escapes that make one character.
    fn unicode_escape(&mut self, start: usize) -> Parsed<char> {
        let unit = self.hex4(start)?;
        let code = match unit {
            0xD800..=0xDBFF => {
                let low_start = self.at;
                let low = if self.bytes.get(self.at..self.at + 2) == Some(b"\\u") {
                    self.at += 2;
                    Some(self.hex4(low_start)?)
                } else {
                    None
                };
                match low {
                    Some(low @ 0xDC00..=0xDFFF) => {
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                    }
                    _ => {
                        return Err(self.fault(
                            start,
                            self.at,
                            format_args!(
                                "`\\u{unit:04x}` is the first half of a surrogate pair: expected a second half (`\\udc00` to `\\udfff`) right after it"
                            ),
                        ))
                    }
                }
            }
            0xDC00..=0xDFFF => {
                return Err(self.fault(
                    start,
                    self.at,
                    format_args!(
                        "`\\u{unit:04x}` is the second half of a surrogate pair, with no first half (`\\ud800` to `\\udbff`) before it"
                    ),
                ))
            }
            _ => u32::from(unit),
        };
        // Not a surrogate, so a character.
        char::from_u32(code).ok_or_else(|| self.fault(start, self.at, "invalid escape"))
    }

    /// Four hex digits after `\u` (which starts at `start`).
    fn hex4(&mut self, start: usize) -> Parsed<u16> {
        let mut unit = 0u16;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| (b as char).to_digit(16));
            let Some(digit) = digit else {
                return Err(self.fault(
                    start,
                    self.char_end(|c| c >= ' '),
                    "invalid escape: expected four hex digits after `\\u`",
                ));
            };
            unit = unit * 16 + digit as u16;
            self.at += 1;
        }
        Ok(unit)
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
        match parse(&Source::new(text, lines_before)) {
            Err(e) => (
                e.location.line,
                e.location.column,
                e.location.text,
                e.message,
            ),
            Ok(_) => panic!("{text:?} read"),
        }
    }

    #[test]
    fn syntax_errors_name_line_column_text_and_what_was_expected() {
        // The text, the lines before it (NDJSON counts them in the whole
        // text), and where the error is, its text and what its message
        // says (`=` the whole message after `not valid JSON: `, `~` a part).
        let cases = [
            // Columns count characters.
            ("{\n  \"先手\": tru}", 0, (2, 12, "}"), "=expected `true`"),
            (
                "[1, 2,]",
                0,
                (1, 7, "]"),
                "=trailing comma: expected a value after `,`",
            ),
            ("{\"a\": 1,}", 0, (1, 9, "}"), "~trailing comma"),
            // After a byte-order mark: the mark stays the line's first
            // character.
            (
                "\u{feff}{\"a\" 1}",
                0,
                (1, 7, "1"),
                "=expected `:` after the key",
            ),
            // The end of the text: nothing to show.
            (
                "{\"a\": [1,\n",
                0,
                (2, 1, ""),
                "=the JSON ends where a value was expected",
            ),
            (
                "{\"a\": [1",
                0,
                (1, 9, ""),
                "=the JSON ends inside an array: expected `,` or `]`",
            ),
            ("{\"a\": x}", 7, (8, 7, "x"), "~expected"),
            // What follows the value.
            ("{} {}", 0, (1, 4, "{"), "~nothing after"),
            // Comments are not JSON.
            ("{\"a\": 1 // one\n}", 0, (1, 9, "/"), "~"),
            ("{'a': 1}", 0, (1, 2, "'"), "~expected a key"),
        ];
        for (text, before, (line, column, at), said) in cases {
            let (l, c, t, message) = syntax(text, before);
            assert_eq!((l, c, t.as_str()), (line, column, at), "{text}");
            match said.split_at(1) {
                ("=", whole) => assert_eq!(message, format!("not valid JSON: {whole}"), "{text}"),
                (_, part) => assert!(message.contains(part), "{text}: {message}"),
            }
        }
    }

    #[test]
    fn numbers_follow_the_grammar_and_errors_show_them() {
        for good in ["0", "-0", "12", "-3.25", "1e5", "1E+5", "2.5e-3", "1e400"] {
            let node = parse(&Source::new(good, 0)).unwrap_or_else(|e| panic!("{good}: {e:?}"));
            assert!(matches!(node.value, Value::Number(raw) if raw == good));
        }
        for (bad, shown, message) in [
            (
                "[01]",
                "01",
                "a number does not start with `0` and another digit",
            ),
            ("[-]", "-]", "expected a digit after `-`"),
            ("[1.]", "1.]", "expected a digit after `.`"),
            ("[1.e5]", "1.e", "expected a digit after `.`"),
            ("[1e]", "1e]", "expected a digit in the exponent"),
            ("[1e+]", "1e+]", "expected a digit in the exponent"),
        ] {
            let (_, column, text, got) = syntax(bad, 0);
            assert_eq!((column, text.as_str()), (2, shown), "{bad}");
            assert_eq!(got, format!("not valid JSON: invalid number: {message}"));
        }
        for bad in ["[+1]", "[.5]", "[NaN]", "[Infinity]", "[0x10]", "[1 2]"] {
            syntax(bad, 0);
        }
    }

    /// The string a JSON string literal decodes to.
    fn string(literal: &str) -> Result<String, String> {
        match parse(&Source::new(literal, 0)) {
            Ok(Node {
                value: Value::String(s),
                ..
            }) => Ok(s.into_owned()),
            Ok(_) => panic!("{literal}: not a string"),
            Err(e) => Err(format!(
                "{}|{}|{}",
                e.location.column, e.location.text, e.message
            )),
        }
    }

    #[test]
    fn strings_decode_escapes_and_surrogate_pairs() {
        assert_eq!(string(r#""plain 先手""#).unwrap(), "plain 先手");
        assert!(matches!(
            parse(&Source::new("\"abc\"", 0)).unwrap().value,
            Value::String(Cow::Borrowed("abc"))
        ));
        assert_eq!(
            string(r#""q\" b\\ s\/ \b\f\n\r\t""#).unwrap(),
            "q\" b\\ s/ \u{8}\u{c}\n\r\t"
        );
        assert_eq!(string(r#""\u0041\u00e9\u5148""#).unwrap(), "Aé先");
        assert_eq!(string(r#""x\ud83d\ude00y""#).unwrap(), "x😀y");
        assert_eq!(string(r#""\uD834\uDD1E""#).unwrap(), "𝄞");
        assert_eq!(string(r#""\u0000""#).unwrap(), "\0");
        let error = |literal: &str| string(literal).unwrap_err();
        assert_eq!(
            error(r#""a\qb""#),
            "3|\\q|not valid JSON: invalid escape: expected `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\u` and four hex digits"
        );
        assert_eq!(
            error(r#""\u12g4""#),
            "2|\\u12g|not valid JSON: invalid escape: expected four hex digits after `\\u`"
        );
        // Halves of surrogate pairs alone: the escapes shown, and which half.
        for (literal, shown, half) in [
            (r#""\ud83d!""#, r"\ud83d", r"`\ud83d` is the first"),
            (
                r#""\ud83d\u0041""#,
                r"\ud83d\u0041",
                r"`\ud83d` is the first",
            ),
            (r#""\ude00""#, r"\ude00", r"`\ude00` is the second"),
        ] {
            let said = error(literal);
            let start = format!("2|{shown}|not valid JSON: {half} half");
            assert!(said.starts_with(&start), "{said}");
        }
        assert_eq!(
            error("\"a\tb\""),
            "3|\t|not valid JSON: a control character (U+0009) in a string: expected it written as an escape (`\\t`)"
        );
        assert_eq!(
            error("\"ab"),
            "4||not valid JSON: the JSON ends inside a string: expected its closing `\"`"
        );
    }

    #[test]
    fn keys_given_twice_are_all_kept_in_order() {
        let text = r#"{"b": 1, "a": 2, "b": 3}"#;
        let Value::Object(members) = parse(&Source::new(text, 0)).unwrap().value else {
            panic!("not an object")
        };
        let keys: Vec<&str> = members.iter().map(|m| m.key.as_ref()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
    }

    /// Our value as serde_json's, the last of keys given twice winning
    /// as in serde_json's map.
    fn as_serde(node: &Node<'_>) -> serde_json::Value {
        match &node.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(raw) => serde_json::from_str(raw).unwrap(),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Array(items) => serde_json::Value::Array(items.iter().map(as_serde).collect()),
            Value::Object(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.to_string(), as_serde(&m.value)))
                    .collect(),
            ),
        }
    }

    /// Accepted by this parser exactly when serde_json accepts it, with the
    /// same value.
    fn agrees_with_serde_json(text: &str) -> Result<(), String> {
        let ours = parse(&Source::new(text, 0));
        let theirs = serde_json::from_str::<serde_json::Value>(text);
        match (ours, theirs) {
            (Ok(node), Ok(value)) if as_serde(&node) == value => Ok(()),
            (Err(_), Err(_)) => Ok(()),
            (ours, theirs) => Err(format!(
                "{text:?}: ours {:?}, serde_json {theirs:?}",
                ours.map(|n| as_serde(&n))
            )),
        }
    }

    #[test]
    fn reads_what_serde_json_reads_and_refuses_what_it_refuses() {
        for text in [
            "",
            " ",
            "{}",
            "[]",
            " [ ] ",
            "{\"a\":[1,{\"b\":null}],\"c\":true}",
            "[true,false,null]",
            "[1,]",
            "[,1]",
            "{,}",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\" 1}",
            "{1:2}",
            "[1 2]",
            "[\"\\u00\"]",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\ud800\"",
            "[\"a\u{1}\"]",
            "tru",
            "nulll",
            "[1]x",
            "\u{a0}[]",
            "[\"\\/\"]",
            "-01",
            "-",
            "1.5e+09",
            "[1e-0]",
            "{\"a\":1,\"a\":2}",
            "\"\u{7f}\"",
        ] {
            agrees_with_serde_json(text).unwrap();
        }
    }

    proptest::proptest! {
        #[test]
        fn strings_written_by_serde_json_read_back(s in "\\PC*|[\\u{0}-\\u{7f}]*") {
            let literal = serde_json::to_string(&s).unwrap();
            proptest::prop_assert_eq!(string(&literal).unwrap(), s.clone());
            // Every character as a `\u` escape, surrogate pairs included.
            let escaped: String = s
                .encode_utf16()
                .map(|unit| format!("\\u{unit:04X}"))
                .collect();
            proptest::prop_assert_eq!(string(&format!("\"{escaped}\"")).unwrap(), s);
        }

        #[test]
        fn mutated_documents_agree_with_serde_json(
            at in 0usize..60,
            byte in proptest::sample::select(&b" \t\n\"\\,:[]{}0123456789-+.eEtrufalsn/u\x01x"[..]),
            delete in proptest::bool::ANY,
        ) {
            let base = r#"{"a": [1, -2.5e3, "x\"\u00e9"], "b": {"c": null, "d": true}, "e": false}"#;
            let mut bytes = base.as_bytes().to_vec();
            let at = at.min(bytes.len() - 1);
            if delete {
                bytes.remove(at);
            } else {
                bytes[at] = byte;
            }
            let text = String::from_utf8(bytes).unwrap();
            proptest::prop_assert!(agrees_with_serde_json(&text).is_ok(), "{}", agrees_with_serde_json(&text).unwrap_err());
        }
    }

    #[test]
    fn nodes_span_their_values() {
        let text = "{\"a\": [1, \"x\\\"y\", null],\n \"b\": true}";
        let source = Source::new(text, 0);
        let root = parse(&source).unwrap();
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
        assert!(parse(&Source::new(&text, 0)).is_ok());
        let text = nested(MAX_DEPTH as usize + 2);
        let e = parse(&Source::new(&text, 0)).err().expect("refused");
        assert_eq!(
            (e.location.column, e.location.text.as_str()),
            (MAX_DEPTH + 2, "[")
        );
        assert!(
            e.message.starts_with("JSON nested more than"),
            "{}",
            e.message
        );
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
        let root = parse(&source).unwrap();
        assert_eq!(compact(&source, &root), "{\"a b\":[1,2]}");
    }
}
