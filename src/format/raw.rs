//! The raw game: what a Kakinoki-style file (KIF, KI2) says, line by line,
//! before any move is played. The resolver turns it into a `Record`.

use crate::record::{MoveTime, Warning};
use crate::resolve::spec::MoveSpec;
use crate::Setup;

/// Where something was written: the line, and the text within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span<'a> {
    pub line: u32,
    pub line_text: &'a str,
    /// Byte offset of `text` within `line_text`.
    pub offset: usize,
    pub text: &'a str,
}

impl<'a> Span<'a> {
    /// The span of `text`, which must be a slice of `line_text`.
    pub fn of(line: u32, line_text: &'a str, text: &'a str) -> Span<'a> {
        let offset = (text.as_ptr() as usize).saturating_sub(line_text.as_ptr() as usize);
        Span {
            line,
            line_text,
            offset: offset.min(line_text.len()),
            text,
        }
    }

    /// A warning about this span.
    pub fn warning(&self, message: impl Into<String>) -> Warning {
        self.warning_after(&mut Columns::default(), message)
    }

    /// A warning about this span, its column counted on from where
    /// `columns` last stopped when that is earlier on the same line: many
    /// warnings on one long line cost one pass over it, not one each.
    pub fn warning_after(&self, columns: &mut Columns, message: impl Into<String>) -> Warning {
        let same_line = columns.line == self.line
            && columns.line_start == self.line_text.as_ptr() as usize
            && columns.offset <= self.offset;
        let (from, column) = if same_line {
            (columns.offset, columns.column)
        } else {
            (0, 1)
        };
        let column = column + self.line_text[from..self.offset].chars().count() as u32;
        *columns = Columns {
            line: self.line,
            line_start: self.line_text.as_ptr() as usize,
            offset: self.offset,
            column,
        };
        Warning {
            line: self.line,
            column,
            text: self.text.chars().take(60).collect(),
            message: message.into(),
        }
    }
}

/// Where [`Span::warning_after`] last counted columns to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Columns {
    line: u32,
    line_start: usize,
    offset: usize,
    column: u32,
}

/// One thing the move section says, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A move. `number` is the move number KIF writes before it.
    Move {
        span: Span<'a>,
        number: Option<u32>,
        spec: MoveSpec,
        time: Option<MoveTime>,
    },
    /// A terminal word (`投了`, `中断`, …) written where a move would be.
    End {
        span: Span<'a>,
        number: Option<u32>,
        word: &'a str,
        time: Option<MoveTime>,
    },
    /// A `*` comment; the text after the first `*` (so `**` engine comments
    /// keep one `*`).
    Comment { span: Span<'a>, text: &'a str },
    /// An `&` bookmark.
    Bookmark { span: Span<'a>, name: &'a str },
    /// `変化：N手`: the moves that follow replace move N of an earlier line.
    Variation { span: Span<'a>, ply: u32 },
    /// The `まで…` summary line.
    Trailer { span: Span<'a>, text: &'a str },
}

/// A header line as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawHeader<'a> {
    pub span: Span<'a>,
    pub key: &'a str,
    pub value: &'a str,
}

/// Everything a Kakinoki-style file says about one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame<'a> {
    pub headers: Vec<RawHeader<'a>>,
    /// The board diagram, if there is one: it overrides 手合割.
    pub board: Option<Setup>,
    /// The line where the diagram starts, for errors about it.
    pub board_line: u32,
    pub events: Vec<Event<'a>>,
    pub warnings: Vec<Warning>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_counted_on_match_columns_counted_afresh() {
        let line = "１．▲７六歩 ２．△３四歩 3. P-2f 4. P-8d";
        let spans: Vec<Span<'_>> = line
            .match_indices(['．', '.'])
            .map(|(i, dot)| Span::of(7, line, &line[i..i + dot.len()]))
            .collect();
        let mut columns = Columns::default();
        for span in &spans {
            assert_eq!(span.warning_after(&mut columns, "x"), span.warning("x"));
        }
        // Going back on the same line, or to another line, starts afresh.
        let first = spans[0];
        assert_eq!(first.warning_after(&mut columns, "x").column, 2);
        let other = Span::of(8, "ab", &"ab"[1..]);
        assert_eq!(other.warning_after(&mut columns, "x").column, 2);
    }
}
