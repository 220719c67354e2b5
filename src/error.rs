//! Errors with a place: which stage failed (decoding, reading, resolving),
//! on which line and column, at which ply, the offending text, and what was
//! expected. [`Error::render`] prints them the way a compiler does.

use std::fmt;

/// The stage of reading that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Bytes to text.
    Decode,
    /// Text to move specs: the syntax.
    Parse,
    /// Move specs to moves: the board.
    Resolve,
}

/// An error reading a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub stage: Stage,
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The ply of the move concerned, if any.
    pub ply: Option<u32>,
    /// The offending text.
    pub text: String,
    /// What is wrong, and what was expected.
    pub message: String,
    /// The whole source line, for rendering.
    pub source_line: String,
}

impl Error {
    /// An error at `offset` (a byte offset into `line_text`, which is line
    /// number `line`), concerning `text`.
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
            stage,
            line,
            column: line_text[..offset].chars().count() as u32 + 1,
            ply: None,
            text: text.chars().take(60).collect(),
            message: message.into(),
            source_line: line_text.chars().take(200).collect(),
        }
    }

    pub fn with_ply(mut self, ply: u32) -> Error {
        self.ply = Some(ply);
        self
    }

    /// The error as a compiler would print it: `path:line:col: error: …`,
    /// then the line with a caret under the offending text.
    pub fn render(&self, path: &str) -> String {
        let mut out = format!("{path}:{}:{}: error: {self}\n", self.line, self.column);
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        out.push_str(&format!("{pad} |\n{number} | {}\n", self.source_line));
        let before: String = self
            .source_line
            .chars()
            .take(self.column.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let indent: usize = before.chars().map(display_width).sum();
        let width: usize = self.text.chars().map(display_width).sum::<usize>().max(1);
        out.push_str(&format!(
            "{pad} | {}{}\n",
            " ".repeat(indent),
            "^".repeat(width)
        ));
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
        if let Some(ply) = self.ply {
            write!(f, "move {ply}: ")?;
        }
        f.write_str(&self.message)
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
        assert_eq!(err.column, 6);
        let text = err.render("game.kif");
        assert_eq!(
            text,
            "game.kif:12:6: error: move 5: no piece on 6g\n   |\n12 |    5 ５六銀(67)   ( 0:01/00:00:03)\n   |      ^^^^^^^^^^\n"
        );
    }

    #[test]
    fn offsets_inside_a_character_are_clamped() {
        let err = Error::at(Stage::Parse, 1, "７六", 1, "７", "x");
        assert_eq!(err.column, 1);
        let err = Error::at(Stage::Parse, 1, "７六", 99, "", "x");
        assert_eq!(err.column, 3);
    }
}
