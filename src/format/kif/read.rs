//! KIF (Kakinoki's format, `.kif` in Shift_JIS, `.kifu` in UTF-8): numbered
//! move lines with their origin and an optional time column.
//!
//! ```text
//!    1 ７六歩(77)   ( 0:16/00:00:16)
//!    2 同　歩(33)   ( 0:01/00:00:01)+
//!    3 投了
//! ```
//!
//! Leniency: any spacing; `同　歩`, `同歩`, `同 歩`; digits full-width,
//! half-width or kanji; 不成 accepted (it means no promotion); the time
//! column padded or not (81Dojo writes `(0:4/0:0:4)`), with or without the
//! total; a `+` after the move (a variation follows) ignored. Warned:
//! IS-SHOGI's second time column (`( 0:00/00:00:00) ( 0:00/00:00:00)`),
//! whose meaning no writer documents, is skipped with a warning; a minutes
//! or seconds field of 60 or more is read as written (`0:75` is 75 s) with
//! a warning; a move number past 4294967295 is ignored with a warning. The shared
//! parts (headers, diagrams, comments, variations) are in `kakinoki`.

use super::columns::{origin, time_columns};
use crate::error::Error;
use crate::format::endings;
use crate::format::japanese::digits::is_full_width_digit;
use crate::format::japanese::move_like::{looks_misdecoded, move_like, MoveLike};
use crate::format::japanese::read::{is_space, move_text, side_mark, skip_spaces};
use crate::format::kakinoki::{self, Dialect, FixedLine, LineAt};
use crate::format::lines::error;
use crate::record::raw::{Event, RawGame, Said, Span};
use crate::record::Warning;

/// KIF's move lines, for the shared Kakinoki reader: numbered
/// (`   1 ７六歩(77)`), or, leniently, marked with ▲ or △ instead.
#[derive(Clone, Copy, Debug)]
pub struct Kif;

impl Dialect for Kif {
    #[inline]
    fn is_move_line(&self, first: char, body: &str) -> bool {
        let numbered = (first.is_ascii_digit() || is_full_width_digit(first))
            && !((first == '９' || first == '9') && kakinoki::is_column_header(body));
        numbered || side_mark(first).is_some()
    }

    #[inline]
    fn move_line<'a>(&self, at: LineAt<'a>, game: &mut RawGame<'a>) -> Result<(), Error> {
        let LineAt { n, line, body } = at;
        let (event, note) = move_line(n, line, body, &mut game.warnings)?;
        game.events.push(event);
        kakinoki::push_note(n, line, note, &mut game.events);
        Ok(())
    }

    fn unmarked_move(&self) -> &'static str {
        "a move without its move number (expected `   1 ７六歩(77)`)"
    }

    /// A KIF move line (`   1 ７六歩(77)    ( 0:16/00:00:16)`) is rarely
    /// shorter than 32 bytes.
    const BYTES_PER_MOVE: usize = 32;

    const FIXED_LINE: FixedLine = kakinoki::fixed_line::<super::fixed::MoveLine>;
}

/// The move number at the start of `body`, in ASCII or full-width digits,
/// read byte by byte without building a string: its value (`None` past
/// `u32::MAX`; 0 when there are no digits) and the byte length of its
/// digits. A full-width digit is the three bytes `EF BC 90` to `EF BC 99`.
#[inline]
fn move_number(body: &str) -> (Option<u32>, usize) {
    let bytes = body.as_bytes();
    let mut number: Option<u32> = Some(0);
    let mut end = 0;
    loop {
        let (digit, len) = match bytes.get(end..) {
            Some([d @ b'0'..=b'9', ..]) => (d - b'0', 1),
            Some([0xEF, 0xBC, d @ 0x90..=0x99, ..]) => (d - 0x90, 3),
            _ => return (number, end),
        };
        number = number.and_then(|n| n.checked_mul(10)?.checked_add(u32::from(digit)));
        end += len;
    }
}

/// What a KIF move line (one [`Kif::is_move_line`] accepted) says: the
/// number, then a move or a terminal word; its event, and the `#` note
/// after it, if any.
#[inline]
fn move_line<'a>(
    n: u32,
    line: &'a str,
    body: &'a str,
    warnings: &mut Vec<Warning>,
) -> Result<(Event<'a>, Option<&'a str>), Error> {
    let (number, digits_end) = move_number(body);
    if number.is_none() {
        warnings.push(Span::of(n, line, &body[..digits_end]).warning(format!(
            "move number past {}; ignored (the move is numbered by its place)",
            u32::MAX
        )));
    }
    let number = number.filter(|_| digits_end > 0);
    let rest = skip_spaces(&body[digits_end..]);
    // Some writers put the side mark in KIF too, after the number or in
    // its place.
    let rest = match rest.chars().next() {
        Some(c) if side_mark(c).is_some() => &rest[c.len_utf8()..],
        _ => rest,
    };
    move_or_end(n, line, rest, number, warnings)
}

/// A move or a terminal word, numbered `number`, and the `#` note after
/// it, if any.
fn move_or_end<'a>(
    n: u32,
    line: &'a str,
    text: &'a str,
    number: Option<u32>,
    warnings: &mut Vec<Warning>,
) -> Result<(Event<'a>, Option<&'a str>), Error> {
    match move_text(text) {
        Ok((mut spec, rest)) => {
            let rest = match origin(rest) {
                Some((from, rest)) => {
                    spec.from = Some(from);
                    rest
                }
                None => rest,
            };
            let written = &text[..text.len() - rest.len()];
            let span = Span::of(n, line, written.trim_end_matches(is_space));
            let (time, rest) = time_columns(n, line, rest, warnings);
            let rest = rest.trim_matches(is_space);
            let rest = rest
                .strip_prefix('+')
                .map_or(rest, |r| r.trim_start_matches(is_space));
            // `#…` after a move: a note, kept as the move's comment.
            let note = rest.starts_with('#').then_some(rest);
            if note.is_none() && !rest.is_empty() {
                return Err(error(
                    n,
                    line,
                    rest,
                    "unexpected text after the move (expected an origin such as (77), a time such as ( 0:16/00:00:16), or `+`)",
                ));
            }
            let event = Event::Move {
                span,
                number,
                spec,
                time,
            };
            Ok((event, note))
        }
        Err(bad) => {
            // Not a move: a terminal word such as 投了, then perhaps a time.
            let word_end = text
                .char_indices()
                .find(|&(_, c)| is_space(c) || c == '(')
                .map_or(text.len(), |(i, _)| i);
            let word = &text[..word_end];
            // A word that starts like a move (a square, 同, or a second side
            // mark) is a broken move, never a terminal word: read as one, it
            // would be written back as a move line and read as a move.
            if word.is_empty()
                || move_like(word) != MoveLike::No
                || word.starts_with(|c: char| side_mark(c).is_some())
            {
                return Err(bad.error(n, line, text));
            }
            // A numbered line is a terminal word only when it is one: an
            // unknown word is a move that cannot be read (text decoded in the
            // wrong encoding, say), never a game's end.
            let said = endings::said(word);
            if matches!(said, Said::Unknown { .. }) {
                // The decoder's note names a U+FFFD; other mojibake
                // (half-width katakana) is named here.
                let hint = if looks_misdecoded(word) && !line.contains('\u{fffd}') {
                    " (it looks misdecoded: the file may be in another encoding than it was read as, see --encoding)"
                } else {
                    ""
                };
                return Err(error(
                    n,
                    line,
                    word,
                    format!(
                        "expected a move such as ７六歩(77) or a terminal word such as 投了{hint}"
                    ),
                ));
            }
            let (time, rest) = time_columns(n, line, &text[word_end..], warnings);
            let rest = rest.trim_matches(is_space);
            let note = rest.starts_with('#').then_some(rest);
            if note.is_none() && !rest.is_empty() && rest != "+" {
                return Err(error(
                    n,
                    line,
                    rest,
                    "unexpected text after the terminal word",
                ));
            }
            let event = Event::End {
                span: Span::of(n, line, word),
                number,
                word,
                time,
                said,
            };
            Ok((event, note))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::spec::{Destination, MoveSpec, Promotion};
    use crate::{PieceKind, Square};

    #[test]
    fn move_numbers_read_by_bytes_as_by_characters() {
        let by_chars = |body: &str| {
            let mut number = Some(0u32);
            let mut end = 0;
            for (i, c) in body.char_indices() {
                let digit = match c {
                    '0'..='9' => c as u32 - '0' as u32,
                    '０'..='９' => c as u32 - '０' as u32,
                    _ => break,
                };
                number = number.and_then(|n| n.checked_mul(10)?.checked_add(digit));
                end = i + c.len_utf8();
            }
            (number, end)
        };
        for body in [
            "",
            "1 ７六歩(77)",
            "１２3 同　歩",
            "４２９４９６７２９６",
            "4294967295x",
            "\u{ff1a}1",
            "０",
            "9\u{ff0f}",
            "▲７六歩",
        ] {
            assert_eq!(move_number(body), by_chars(body), "{body}");
        }
    }

    /// The game a move line makes.
    fn game(text: &str) -> RawGame<'_> {
        let mut game = RawGame::default();
        let at = LineAt {
            n: 1,
            line: text,
            body: text.trim_start(),
        };
        Kif.move_line(at, &mut game).unwrap();
        game
    }

    /// The spec of the move a move line makes.
    fn spec_of(text: &str) -> MoveSpec {
        match &game(text).events[0] {
            Event::Move { spec, .. } => *spec,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn move_lines() {
        let e = game("   1 ７六歩(77)   ( 0:16/00:00:16)").events;
        let Event::Move {
            number,
            spec,
            time,
            span,
        } = &e[0]
        else {
            panic!("{e:?}")
        };
        assert_eq!(*number, Some(1));
        assert_eq!(spec.from, Square::new(7, 7));
        assert_eq!(spec.to, Destination::Square(Square::new(7, 6).unwrap()));
        assert_eq!(time.unwrap().spent_ms, 16_000);
        assert_eq!(span.text(), "７六歩(77)");
        let promoted = spec_of("  10 ７七角成(22) ( 0:01/00:00:07)+");
        assert_eq!(promoted.promotion, Promotion::Promote);
        assert_eq!(promoted.piece, PieceKind::Bishop);
        assert_eq!(spec_of("11 同　銀(88)").to, Destination::Same);
        let e = game("  13 中断         ( 0:00/00:00:07)").events;
        let Event::End { word, time, .. } = &e[0] else {
            panic!()
        };
        assert_eq!(*word, "中断");
        assert!(time.is_some());
        assert_eq!(spec_of("5 ５五角打").from, None);
        // A side mark in the number's place, or after it.
        for text in ["▲７六歩(77)", "1 △７六歩(77)"] {
            assert_eq!(spec_of(text).from, Square::new(7, 7), "{text}");
        }
    }

    #[test]
    fn leniencies_on_a_move_line_are_warned() {
        let warned = |text: &str| {
            let RawGame {
                events, warnings, ..
            } = game(text);
            let Event::Move { time, .. } = events[0] else {
                panic!("a move: {events:?}")
            };
            (time, warnings)
        };
        // IS-SHOGI's two columns: the first is the time, the second warned.
        let (time, warnings) = warned("   1 ２四桂打     ( 0:07/00:00:07) ( 0:00/00:00:00)");
        assert_eq!(time.unwrap().spent_ms, 7_000);
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            (warnings[0].column, warnings[0].text.as_str()),
            (32, "( 0:00/00:00:00)")
        );
        assert!(warnings[0].message.contains("second time column"));
        // Sixty seconds or more: read as written, warned once per field.
        let (time, warnings) = warned("   1 ７六歩(77)   ( 0:75/00:00:75)");
        assert_eq!(time.unwrap().spent_ms, 75_000);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].message.contains("time field of 75"));
        // Each at its own field: the two are told apart.
        let places: Vec<_> = warnings
            .iter()
            .map(|w| (w.column, w.text.as_str()))
            .collect();
        assert_eq!(places, [(20, "75"), (29, "75")]);
        let (_, warnings) = warned("   1 ７六歩(77)   ( 0:59/01:59:59)");
        assert!(warnings.is_empty(), "{warnings:?}");
        // A move number past 2^32 - 1 is not wrapped: ignored, warned.
        let (_, warnings) = warned("4294967296 ７六歩(77)");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("past 4294967295"));
        let (_, warnings) = warned("4294967295 ７六歩(77)");
        assert!(warnings.is_empty());
    }

    #[test]
    fn a_misdecoded_line_says_so() {
        // UTF-8 read as Shift_JIS: half-width katakana, no U+FFFD.
        let e = kakinoki::parse_games("   1 ７ｧｯ(77)\n", &Kif)
            .remove(0)
            .unwrap_err();
        assert!(
            e.message.contains("UTF-8 read as Shift_JIS"),
            "{}",
            e.message
        );
        // A plain error says nothing about encodings.
        let e = kakinoki::parse_games("   1 ７六歩(77) junk\n", &Kif)
            .remove(0)
            .unwrap_err();
        assert!(!e.message.contains("encoding"), "{}", e.message);
    }

    #[test]
    fn bad_move_lines_point_at_the_problem() {
        let line = "   3 ７六X(77)";
        let err = move_line(3, line, &line[3..], &mut Vec::new()).unwrap_err();
        assert_eq!(err.location.line, 3);
        assert_eq!(err.location.column, 8);
        assert!(err.message.contains("piece name"), "{}", err.message);
        let err =
            move_line(4, "4 ７六歩(77) junk", "4 ７六歩(77) junk", &mut Vec::new()).unwrap_err();
        assert_eq!(err.location.text, "junk");
    }
}
