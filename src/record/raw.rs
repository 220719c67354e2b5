//! The raw game: what a file says, line by line, before any move is played.
//! A reader fills one in, its own words already mapped to typed values (a
//! terminal word to what it [`Said`], a named start to its [`Handicap`]);
//! the game builder turns it into a `Record`.

use crate::record::{EndingKind, MoveTime, Warning};
use crate::resolve::spec::MoveSpec;
use crate::types::Encoding;
use crate::{Color, Handicap, Setup};
use std::borrow::Cow;

/// Where something was written: the line, and the text within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span<'a> {
    /// The line number, counted from 1.
    pub line: u32,
    /// Byte offset of the text within its line ([`Span::line_text`]), or,
    /// for a span of bytes ([`Span::of_bytes`]), within the input.
    pub offset: usize,
    quoted: Quoted<'a>,
}

/// What a span quotes: text, or bytes decoded only when a message quotes
/// them (a span stays 48 bytes: the readers keep one a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quoted<'a> {
    /// The whole line (without its ending) and the part of it concerned.
    Text { line_text: &'a str, text: &'a str },
    /// The bytes of the whole input, the line being the one around
    /// `offset`; the length of the text in bytes, with [`CP932`] set when
    /// the bytes are CP932 rather than UTF-8.
    Bytes { input: &'a [u8], len: u32 },
}

/// The bit of a span of bytes' length that says the bytes are CP932.
const CP932: u32 = 1 << 31;

impl<'a> Span<'a> {
    /// The span of `text`, which must be a slice of `line_text`.
    pub fn of(line: u32, line_text: &'a str, text: &'a str) -> Span<'a> {
        let offset = (text.as_ptr() as usize).saturating_sub(line_text.as_ptr() as usize);
        Span {
            line,
            offset: offset.min(line_text.len()),
            quoted: Quoted::Text { line_text, text },
        }
    }

    /// The whole line, without its line ending; empty for a span of bytes
    /// (whose messages [`Span::error`], [`Span::warning`] and
    /// [`Span::text_string`] decode it).
    pub fn line_text(&self) -> &'a str {
        match self.quoted {
            Quoted::Text { line_text, .. } => line_text,
            Quoted::Bytes { .. } => "",
        }
    }

    /// The part of the line concerned; empty for a span of bytes (see
    /// [`Span::line_text`]).
    pub fn text(&self) -> &'a str {
        match self.quoted {
            Quoted::Text { text, .. } => text,
            Quoted::Bytes { .. } => "",
        }
    }

    /// The span of bytes `start..end` of `input` (in `encoding`, UTF-8 or
    /// CP932), on line `n`, decoded only when quoted.
    #[inline]
    pub fn of_bytes(
        n: u32,
        input: &'a [u8],
        start: usize,
        end: usize,
        encoding: Encoding,
    ) -> Span<'a> {
        // A move's text is a few bytes: a longer text is cut when quoted.
        let len = end.saturating_sub(start).min(CP932 as usize - 1) as u32;
        let cp932 = if encoding == Encoding::Cp932 {
            CP932
        } else {
            0
        };
        Span {
            line: n,
            offset: start,
            quoted: Quoted::Bytes {
                input,
                len: len | cp932,
            },
        }
    }

    /// The line, the offset of the text in it and the text, decoded if the
    /// span is in bytes.
    fn quoted(&self) -> (Cow<'a, str>, usize, Cow<'a, str>) {
        let (input, len) = match self.quoted {
            Quoted::Text { line_text, text } => {
                return (Cow::Borrowed(line_text), self.offset, Cow::Borrowed(text))
            }
            Quoted::Bytes { input, len } => (input, len),
        };
        let decode = |bytes: &'a [u8]| {
            if len & CP932 != 0 {
                encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0
            } else {
                String::from_utf8_lossy(bytes)
            }
        };
        // The line around the text runs between line endings.
        let start = self.offset.min(input.len());
        let end = (start + (len & !CP932) as usize).min(input.len());
        let line_start = memchr::memrchr2(b'\r', b'\n', &input[..start]).map_or(0, |at| at + 1);
        let line_end =
            memchr::memchr2(b'\r', b'\n', &input[end..]).map_or(input.len(), |at| end + at);
        let line = &input[line_start..line_end];
        let offset = decode(&line[..start - line_start]).len();
        (decode(line), offset, decode(&input[start..end]))
    }

    /// The text concerned, decoded if need be.
    pub fn text_string(&self) -> String {
        self.quoted().2.into_owned()
    }

    /// An error about this span, of the kind `stage` gives.
    pub fn error(&self, stage: crate::error::Stage, message: impl Into<String>) -> crate::Error {
        let (line_text, offset, text) = self.quoted();
        crate::Error::at(stage, self.line, &line_text, offset, &text, message)
    }

    /// A warning about this span.
    pub fn warning(&self, message: impl Into<String>) -> Warning {
        self.warning_after(&mut Columns::default(), message)
    }

    /// A warning about this span, its column counted on from where
    /// `columns` last stopped when that is earlier on the same line: many
    /// warnings on one long line cost one pass over it, not one each.
    pub fn warning_after(&self, columns: &mut Columns, message: impl Into<String>) -> Warning {
        let Quoted::Text { line_text, text } = self.quoted else {
            let (line_text, offset, text) = self.quoted();
            *columns = Columns::default();
            return Span::of(
                self.line,
                &line_text,
                &line_text[offset..offset + text.len()],
            )
            .warning(message);
        };
        let same_line = columns.line == self.line
            && columns.line_start == line_text.as_ptr() as usize
            && columns.offset <= self.offset;
        let (from, column) = if same_line {
            (columns.offset, columns.column)
        } else {
            (0, 1)
        };
        let column = column + line_text[from..self.offset].chars().count() as u32;
        *columns = Columns {
            line: self.line,
            line_start: line_text.as_ptr() as usize,
            offset: self.offset,
            column,
        };
        Warning {
            line: self.line,
            column,
            text: text.chars().take(60).collect(),
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A move. `number` is the move number KIF writes before it.
    Move {
        /// Where the move's text is.
        span: Span<'a>,
        /// The number written before the move; `None` in formats that
        /// write none (KI2, CSA, …).
        number: Option<u32>,
        /// What the text says about the move, not yet checked on a board.
        spec: MoveSpec,
        /// The time written with the move, if any.
        time: Option<MoveTime>,
    },
    /// A terminal word (`投了`, `中断`, …) written where a move would be.
    End {
        /// Where the word is.
        span: Span<'a>,
        /// The number written before it, as for a move.
        number: Option<u32>,
        /// The word as written.
        word: &'a str,
        /// The time written with it (the thinking before resigning, say).
        time: Option<MoveTime>,
        /// What the word says, as the reader's tables read it.
        said: Said,
    },
    /// A `*` comment; the text after the first `*` (so `**` engine comments
    /// keep one `*`).
    Comment {
        /// Where the comment line is.
        span: Span<'a>,
        /// The comment without its leading `*`.
        text: &'a str,
    },
    /// An `&` bookmark.
    Bookmark {
        /// Where the bookmark line is.
        span: Span<'a>,
        /// The bookmark's name, after the `&`.
        name: &'a str,
    },
    /// `変化：N手`: the moves that follow replace move N of an earlier line.
    Variation {
        /// Where the `変化` line is.
        span: Span<'a>,
        /// The ply the variation branches at, counted from 1.
        ply: u32,
    },
    /// The `まで…` summary line.
    Trailer {
        /// Where the line is.
        span: Span<'a>,
        /// The line's text, trailing spaces removed.
        text: &'a str,
        /// What the line says about the end, if the reader understood it.
        said: Option<Said>,
    },
}

impl<'a> Event<'a> {
    /// A move written with no number and no time (KI2, CSA, Western).
    pub fn unnumbered_move(span: Span<'a>, spec: MoveSpec) -> Event<'a> {
        Event::Move {
            span,
            number: None,
            spec,
            time: None,
        }
    }
}

/// Who a terminal word says won, seen from where it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// No one (an interruption, a draw).
    Nobody,
    /// The player to move there.
    ToMove,
    /// The other player: the one who made the last move.
    Opponent,
    /// This player, whoever is to move (a summary that names the side).
    Player(Color),
}

impl Winner {
    /// The winner's colour, with `to_move` the player to move.
    pub fn color(self, to_move: Color) -> Option<Color> {
        match self {
            Winner::Nobody => None,
            Winner::ToMove => Some(to_move),
            Winner::Opponent => Some(!to_move),
            Winner::Player(color) => Some(color),
        }
    }
}

/// What a terminal word or a summary line says about the end of a game,
/// before the board says who is to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// This kind of ending, won by this player.
    Ending(EndingKind, Winner),
    /// A foul by this player, who loses, whoever is to move.
    FoulBy(Color),
    /// A word the reader does not know: the ending is kept as text.
    /// `misdecoded` when the word looks like text read in the wrong
    /// encoding.
    Unknown {
        /// Whether the word looks misdecoded.
        misdecoded: bool,
    },
}

impl Said {
    /// The kind of ending and the winner, with `to_move` the player to
    /// move where the word is written. A foul is a win by foul for the
    /// player to move when the other broke the rules, else a loss.
    pub fn ending(self, to_move: Color) -> (EndingKind, Option<Color>) {
        match self {
            Said::Ending(kind, winner) => (kind, winner.color(to_move)),
            Said::FoulBy(culprit) => {
                let kind = if culprit == to_move {
                    EndingKind::FoulLoss
                } else {
                    EndingKind::FoulWin
                };
                (kind, Some(!culprit))
            }
            Said::Unknown { .. } => (EndingKind::Other, None),
        }
    }
}

/// A header line as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawHeader<'a> {
    /// Where the header line is.
    pub span: Span<'a>,
    /// The key, before the colon (or the tag name), spaces trimmed.
    pub key: &'a str,
    /// The value after it, spaces trimmed; may be empty.
    pub value: &'a str,
}

/// Everything a file says about one game, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame<'a> {
    /// The header lines, in file order.
    pub headers: Vec<RawHeader<'a>>,
    /// The board diagram, if there is one: it overrides a named start.
    pub board: Option<Setup>,
    /// The standard start a header names (KIF's 手合割), as the reader
    /// mapped it; the even game when there is neither this nor a board.
    pub named: Option<Handicap>,
    /// What is to be said of the start, in a warning when it can be played
    /// and in the error when it cannot (hands the reader put into a named
    /// start, say).
    pub start_note: Option<String>,
    /// Where the diagram is written, for errors and warnings about it.
    pub board_at: BoardAt<'a>,
    /// Hands written without a board diagram (`先手の持駒：歩` and no `|`
    /// row): the reader puts them into the start the header names, as the
    /// board, before the builder sees the game.
    pub hands_only: Option<[crate::Hand; 2]>,
    /// The move section: moves, comments and variations in file order.
    pub events: Vec<Event<'a>>,
    /// What the reader accepted leniently so far, before any move is
    /// played.
    pub warnings: Vec<Warning>,
}

/// Where a start position is written: its first line, and the line of
/// each rank when the diagram gives every rank a line of its own (KIF's
/// `|` rows, CSA's `P1`–`P9`). An error about the start quotes the rank
/// of the square it names, or else the first line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardAt<'a> {
    /// The diagram's first line; `None` when there is no diagram.
    pub first: Option<Span<'a>>,
    /// The line of rank 1 to 9 (index 0 to 8), where one was read.
    pub ranks: [Option<Span<'a>>; 9],
}

impl<'a> BoardAt<'a> {
    /// Notes a line of the diagram: `rank` (1–9) when the line is that
    /// rank's row.
    pub fn note(&mut self, span: Span<'a>, rank: Option<u8>) {
        self.first.get_or_insert(span);
        if let Some(rank @ 1..=9) = rank {
            self.ranks[rank as usize - 1].get_or_insert(span);
        }
    }

    /// The line to quote about `square` (or about the whole diagram): the
    /// square's rank row where there is one, else the first row read, else
    /// the first line (a hand line, `PI`, an SFEN tag).
    pub fn span_for(&self, square: Option<crate::Square>) -> Option<Span<'a>> {
        square
            .and_then(|sq| self.ranks[sq.rank() as usize - 1])
            .or_else(|| self.ranks.iter().flatten().next().copied())
            .or(self.first)
    }

    /// A warning about the start (about `square`, where it names one), on
    /// the line [`Self::span_for`] gives; at line 1 with no text when no
    /// line of the start was noted.
    pub fn warning(&self, square: Option<crate::Square>, message: impl Into<String>) -> Warning {
        match self.span_for(square) {
            Some(span) => span.warning(message),
            None => Warning {
                line: 1,
                column: 1,
                text: String::new(),
                message: message.into(),
            },
        }
    }
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
