//! KI2 (`.ki2` in Shift_JIS, `.ki2u` in UTF-8): moves in Japanese notation
//! without their origin, several to a line, each after ▲ or △.
//!
//! ```text
//! ▲７六歩    △３四歩    ▲２二角成  △同　銀
//! まで77手で先手の勝ち
//! ```
//!
//! Leniency: any spacing between moves, or none (`▲７六歩△３四歩`);
//! ▲ △ ▼ ▽ ☗ ☖; relative markers in any order; 生 for 不成; terminal
//! words written as moves (`△投了`). The result is kept in the trailer.

use crate::error::Error;
use crate::format::japanese::move_like::{looks_misdecoded, move_like, MoveLike};
use crate::format::japanese::read::{
    is_space, leading_side_mark, move_text, side_mark, skip_spaces,
};
use crate::format::kakinoki::{self, Dialect, FixedLine, LineAt};
use crate::format::lines::error;
use crate::record::raw::{Event, RawGame, Span};

/// KI2's move lines, for the shared Kakinoki reader: moves each marked
/// with ▲ or △, several to a line.
#[derive(Clone, Copy, Debug)]
pub struct Ki2;

impl Dialect for Ki2 {
    #[inline]
    fn is_move_line(&self, first: char, _body: &str) -> bool {
        side_mark(first).is_some()
    }

    fn move_line<'a>(&self, at: LineAt<'a>, game: &mut RawGame<'a>) -> Result<(), Error> {
        moves_line(at.n, at.line, at.body, &mut game.events)
    }

    fn unmarked_move(&self) -> &'static str {
        "a move without ▲ or △ before it"
    }

    /// A KI2 move (`▲７六歩    `) rarely takes fewer than 10 bytes.
    const BYTES_PER_MOVE: usize = 10;

    const FIXED_LINE: FixedLine = kakinoki::fixed_line::<super::fixed::MovesLine>;
}

/// A line of moves: `▲７六歩    △３四歩`.
fn moves_line<'a>(
    n: u32,
    line: &'a str,
    body: &'a str,
    events: &mut Vec<Event<'a>>,
) -> Result<(), Error> {
    let mut rest = body;
    loop {
        rest = skip_spaces(rest);
        if rest.is_empty() {
            return Ok(());
        }
        let Some((color, text)) = leading_side_mark(rest) else {
            return Err(error(
                n,
                line,
                first_char(rest),
                "expected ▲ or △ before the next move",
            ));
        };
        match move_text(text) {
            Ok((mut spec, after)) => {
                spec.color = Some(color);
                let span = Span::of(n, line, &rest[..rest.len() - after.len()]);
                events.push(Event::unnumbered_move(span, spec));
                rest = after;
                if !rest.is_empty() && !starts_with_space_or_mark(rest) {
                    return Err(error(
                        n,
                        line,
                        first_char(rest),
                        "unexpected text after the move (expected a space or the next ▲ / △)",
                    ));
                }
            }
            Err(bad) => {
                // A terminal word written as a move: `△投了`.
                let end = text
                    .char_indices()
                    .find(|&(_, c)| is_space(c) || side_mark(c).is_some())
                    .map_or(text.len(), |(i, _)| i);
                let word = &text[..end];
                // A word that starts like a move is a move we could not read.
                let broken = move_like(word) != MoveLike::No || looks_misdecoded(word);
                if word.is_empty() || bad.offset > 0 || broken {
                    return Err(bad.error(n, line, text));
                }
                let span = Span::of(n, line, word);
                events.push(crate::format::endings::word_event(span, word));
                rest = &text[end..];
            }
        }
    }
}

/// The first character of `text` (empty if `text` is), as errors show it.
fn first_char(text: &str) -> &str {
    let len = text.chars().next().map_or(0, char::len_utf8);
    &text[..len]
}

/// Whether `text` starts with what may follow a move: a space or the next
/// move's side mark. An ASCII space, the commonest, is told by its byte.
#[inline]
fn starts_with_space_or_mark(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b' ' | b'\t') => true,
        _ => text.starts_with('\u{3000}') || leading_side_mark(text).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    #[test]
    fn several_moves_to_a_line() {
        let mut events = Vec::new();
        let line = "▲７六歩    △３四歩▲２二角成　△同　銀";
        moves_line(1, line, line, &mut events).unwrap();
        assert_eq!(events.len(), 4);
        let Event::Move { spec, span, .. } = &events[1] else {
            panic!()
        };
        assert_eq!(spec.color, Some(Color::White));
        assert_eq!(span.text(), "△３四歩");
        let line = "▲７六歩 △投了";
        let mut events = Vec::new();
        moves_line(2, line, line, &mut events).unwrap();
        assert!(matches!(events[1], Event::End { word: "投了", .. }));
    }

    #[test]
    fn errors_point_at_the_text() {
        let mut events = Vec::new();
        let line = "▲７六歩 △３四X";
        let err = moves_line(5, line, line, &mut events).unwrap_err();
        assert_eq!((err.location.line, err.location.column), (5, 9));
        let line = "▲７六歩x";
        let err = moves_line(5, line, line, &mut events).unwrap_err();
        assert_eq!(err.location.text, "x");
    }

    #[test]
    fn a_misdecoded_line_says_so() {
        let e = kakinoki::parse_games("▲７六歩    △３\u{fffd}歩\n", &Ki2)
            .remove(0)
            .unwrap_err();
        assert!(e.message.contains("U+FFFD"), "{}", e.message);
    }
}
