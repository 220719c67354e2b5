//! Errors with a place. An [`Error`] says what kind of error it is
//! ([`ErrorKind`]), where it is ([`Location`]: line, column, game, ply, the
//! offending text and its source line) and, in its message, what is wrong
//! and what was expected. [`Error::render`] prints it the way a compiler
//! does.
//!
//! Whatever the input holds, nothing rendered here sends a control
//! character to a terminal: file names, messages, the offending text and
//! the source line show each one escaped (`\x1b` for ESC, `\u{85}` for a
//! C1 control; see [`escape_controls`]). Only tabs in the source line stay,
//! so that the caret lines up under them.

use std::borrow::Cow;
use std::fmt;

/// The step of reading in which an error is made: its maker passes it to
/// [`Error::at`], and it sets the error's [`ErrorKind`] unless the maker
/// says otherwise ([`Error::with_kind`]). The error keeps only the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Bytes to text.
    Decode,
    /// Text to move specs: the syntax.
    Parse,
    /// Move specs to moves: the board.
    Resolve,
}

/// What kind of error it is, for a program that reacts to some kinds (the
/// message says the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read (see [`crate::read()`]).
    Io,
    /// The input is no game record in any format: empty, blank, binary data,
    /// UTF-16 without its byte-order mark, or text of which no line was
    /// understood.
    NotARecord,
    /// The format could not be told from the text or the file name.
    UnknownFormat,
    /// The text breaks the syntax of its format.
    Syntax,
    /// The board refused it: a move that is illegal, ambiguous, names no
    /// piece or comes after the end, or a start position the rules do not
    /// allow.
    Illegal,
    /// A character of the input that the output's encoding cannot hold.
    Unencodable,
}

impl From<Stage> for ErrorKind {
    /// The kind an error of each stage is unless its maker says otherwise:
    /// a decoding error is no record, a parse error is syntax, a resolve
    /// error is the board's refusal.
    fn from(stage: Stage) -> ErrorKind {
        match stage {
            Stage::Decode => ErrorKind::NotARecord,
            Stage::Parse => ErrorKind::Syntax,
            Stage::Resolve => ErrorKind::Illegal,
        }
    }
}

/// Where an error is in the input: the place in the text (line, column,
/// the offending text and the whole line it is on) and the place in the
/// games (which game of the file, which ply).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The ply of the move concerned, if any.
    pub ply: Option<u32>,
    /// In a text of several games, which game (1 for the first) and how
    /// many there are.
    pub game: Option<(usize, usize)>,
    /// The offending text, which the rendered caret spans from the column
    /// on (its first 60 characters).
    pub text: String,
    /// The whole source line, for rendering (its first 200 characters).
    pub source_line: String,
}

/// An error reading a record: its [`kind`](Self::kind), its
/// [`location`](Self::location) and its [`message`](Self::message).
///
/// A program can react to the kind and point at the place:
///
/// ```
/// use kifconv::ErrorKind;
///
/// // The second move plays the first one again: the board refuses it.
/// let error = kifconv::read_bytes(b"+7776FU\n-7776FU\n+2726FU\n").unwrap_err();
/// match error.kind {
///     ErrorKind::Illegal => {
///         assert_eq!((error.location.line, error.location.column), (2, 1));
///         assert_eq!(error.location.ply, Some(2));
///         assert_eq!(error.location.text, "-7776FU");
///     }
///     ErrorKind::Syntax => panic!("the text is good CSA"),
///     other => panic!("unexpected {other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of error it is.
    pub kind: ErrorKind,
    /// Where it is.
    pub location: Location,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl Error {
    /// An error at `offset` (a byte offset into `line_text`, which is line
    /// number `line`), concerning `text`, of the kind `stage` gives.
    pub fn at(
        stage: Stage,
        line: u32,
        line_text: &str,
        offset: usize,
        text: &str,
        message: impl Into<String>,
    ) -> Error {
        let offset = floor_char_boundary(line_text, offset.min(line_text.len()));
        Error {
            kind: stage.into(),
            location: Location {
                line,
                column: line_text[..offset].chars().count() as u32 + 1,
                ply: None,
                game: None,
                text: text.chars().take(60).collect(),
                source_line: line_text.chars().take(200).collect(),
            },
            message: message.into(),
        }
    }

    /// The same error at ply `ply` (the message says `move N: …`).
    pub fn with_ply(mut self, ply: u32) -> Error {
        self.location.ply = Some(ply);
        self
    }

    /// The same error, of kind `kind` rather than its stage's.
    pub fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.kind = kind;
        self
    }

    /// An error reading a file, placed at line 1, column 1, with no text.
    pub fn io(error: &std::io::Error) -> Error {
        Error::at(
            Stage::Decode,
            1,
            "",
            0,
            "",
            format!("cannot read the file: {error}"),
        )
        .with_kind(ErrorKind::Io)
    }

    /// The error as a compiler would print it: `path:line:col: error: …`,
    /// then the line with a caret under the offending text (for binary
    /// input, line 0, `path: error: …` whose message names the entry and
    /// its byte offset). Control
    /// characters are escaped (tabs in the source line excepted), and the
    /// caret is placed under the escaped text.
    pub fn render(&self, path: &str) -> String {
        if self.location.line == 0 {
            // Binary input has no lines: the message says the entry and
            // the byte.
            return format!("{}: error: {self}\n", escape_controls(path));
        }
        let Location { line, column, .. } = &self.location;
        let mut out = format!("{}:{line}:{column}: error: {self}\n", escape_controls(path));
        let number = line.to_string();
        let pad = " ".repeat(number.len());
        let (shown, caret) = self.excerpt();
        out.push_str(&format!("{pad} |\n{number} | {shown}\n{pad} | {caret}\n"));
        out
    }

    /// The error in a one-line argument (a position given to a tool): the
    /// message and the column, then the argument with a caret under the
    /// offending text, as [`Error::render`] shows a line.
    pub fn render_argument(&self) -> String {
        let (shown, caret) = self.excerpt();
        format!(
            "{self} (column {})\n  {shown}\n  {caret}",
            self.location.column
        )
    }

    /// The source line as shown, and the line of the caret under the
    /// offending text.
    fn excerpt(&self) -> (String, String) {
        let Location {
            column,
            text,
            source_line,
            ..
        } = &self.location;
        let shown: String = source_line.chars().map(Shown::source).collect();
        // Tabs are copied so that the caret lines up whatever the tab stops.
        let mut caret = String::new();
        for c in source_line.chars().take(column.saturating_sub(1) as usize) {
            match c {
                '\t' => caret.push('\t'),
                c => caret.push_str(&" ".repeat(Shown::source(c).width())),
            }
        }
        let width: usize = text
            .chars()
            .map(|c| Shown::source(c).width())
            .sum::<usize>()
            .max(1);
        caret.push_str(&"^".repeat(width));
        (shown, caret)
    }
}

/// `text` with each control character (C0, DEL and C1, tab and line breaks
/// included) written as an escape: `\x1b`, `\t`, `\n`, `\u{85}`. Text
/// without one is borrowed. For anything read from an input or a file
/// name that is printed to a terminal.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(Shown::escaped).collect())
}

/// How one character is shown: itself, or an escape.
enum Shown {
    Plain(char),
    Escape(String),
}

impl Shown {
    /// Any control character escaped.
    fn escaped(c: char) -> Shown {
        match c {
            '\t' => Shown::Escape("\\t".into()),
            '\n' => Shown::Escape("\\n".into()),
            '\r' => Shown::Escape("\\r".into()),
            c if (c as u32) < 0x80 && c.is_control() => {
                Shown::Escape(format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => Shown::Escape(format!("\\u{{{:x}}}", c as u32)),
            c => Shown::Plain(c),
        }
    }

    /// In a source line: tabs stay (the caret line copies them).
    fn source(c: char) -> Shown {
        match c {
            '\t' => Shown::Plain('\t'),
            c => Shown::escaped(c),
        }
    }

    /// Columns it takes in a terminal.
    fn width(&self) -> usize {
        match self {
            Shown::Plain(c) => display_width(*c),
            Shown::Escape(text) => text.len(),
        }
    }
}

impl FromIterator<Shown> for String {
    fn from_iter<I: IntoIterator<Item = Shown>>(iter: I) -> String {
        let mut out = String::new();
        for shown in iter {
            match shown {
                Shown::Plain(c) => out.push(c),
                Shown::Escape(text) => out.push_str(&text),
            }
        }
        out
    }
}

/// Columns a character takes in a terminal: two for East Asian wide
/// characters (kanji, kana, full-width forms), else one.
fn display_width(c: char) -> usize {
    match c as u32 {
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x25B2..=0x25BD
        | 0x2616..=0x2617 => 2,
        _ => 1,
    }
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((number, count)) = self.location.game {
            write!(f, "game {number} of {count}: ")?;
        }
        if let Some(ply) = self.location.ply {
            write!(f, "move {ply}: ")?;
        }
        f.write_str(&escape_controls(&self.message))
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_a_compiler() {
        let line = "   5 ５六銀(67)   ( 0:01/00:00:03)";
        let offset = line.find('５').unwrap();
        let err = Error::at(
            Stage::Resolve,
            12,
            line,
            offset,
            "５六銀(67)",
            "no piece on 6g",
        )
        .with_ply(5);
        assert_eq!(err.location.column, 6);
        assert_eq!(err.kind, ErrorKind::Illegal);
        let text = err.render("game.kif");
        assert_eq!(
            text,
            "game.kif:12:6: error: move 5: no piece on 6g\n   |\n12 |    5 ５六銀(67)   ( 0:01/00:00:03)\n   |      ^^^^^^^^^^\n"
        );
    }

    #[test]
    fn control_characters_are_escaped_and_the_caret_follows() {
        let line = "\t+7776FU\u{1b}[2J\u{85}x";
        let offset = line.find('\u{1b}').unwrap();
        let err = Error::at(
            Stage::Parse,
            3,
            line,
            offset,
            "\u{1b}[2J",
            "bad `\u{1b}[2J`\n",
        );
        let text = err.render("a\u{7}b.csa");
        assert_eq!(
            text,
            "a\\x07b.csa:3:9: error: bad `\\x1b[2J`\\n\n  |\n3 | \t+7776FU\\x1b[2J\\u{85}x\n  | \t       ^^^^^^^\n"
        );
        assert!(text.bytes().all(|b| b >= 0x20 || b == b'\n' || b == b'\t'));
        assert_eq!(escape_controls("７六歩"), Cow::Borrowed("７六歩"));
        assert_eq!(escape_controls("a\tb\r\n\u{7f}"), "a\\tb\\r\\n\\x7f");
    }

    #[test]
    fn offsets_inside_a_character_are_clamped() {
        let err = Error::at(Stage::Parse, 1, "７六", 1, "７", "x");
        assert_eq!(err.location.column, 1);
        let err = Error::at(Stage::Parse, 1, "７六", 99, "", "x");
        assert_eq!(err.location.column, 3);
    }
}
