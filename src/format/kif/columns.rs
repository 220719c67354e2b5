//! The columns after a KIF move text: the origin (`(77)`) and the time
//! column (`( 0:16/00:00:16)`). The time column has one grammar
//! ([`time_column`]) and one fast branch for its commonest layout
//! ([`padded_time_bytes`]), which the fixed-place move line reads too.

use crate::format::japanese::digits::digit;
use crate::format::japanese::read::skip_spaces;
use crate::format::kakinoki::source::spaces_end;
use crate::record::raw::Span;
use crate::record::{MoveTime, Warning};
use crate::Square;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, space0};
use nom::combinator::opt;
use nom::multi::fold_many0;
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

/// A run of ASCII digits as a number (saturating: no time overflows).
fn number(input: &str) -> IResult<&str, u64> {
    let (rest, digits) = take_while1(|c: char| c.is_ascii_digit()).parse(input)?;
    let value = digits.bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    Ok((rest, value))
}

/// `12:34` or `1:02:03`, in seconds; folded as it is read, no list built.
fn clock(input: &str) -> IResult<&str, u64> {
    let (rest, first) = preceded(space0, number).parse(input)?;
    fold_many0(
        preceded((char(':'), space0), number),
        move || first,
        |total: u64, part| total.saturating_mul(60).saturating_add(part),
    )
    .parse(rest)
}

/// `( 0:16/00:00:16)`, `(0:4/0:0:4)`, `( 0:16/)`, `( 0:16)`.
pub(crate) fn time_column(input: &str) -> IResult<&str, MoveTime> {
    let (rest, (spent, total)) = delimited(
        (char('('), space0),
        (
            clock,
            opt(preceded((space0, char('/')), opt(preceded(space0, clock)))),
        ),
        (space0, char(')')),
    )
    .parse(input)?;
    Ok((
        rest,
        MoveTime {
            spent_ms: spent.saturating_mul(1000),
            total_ms: total.flatten().map(|t| t.saturating_mul(1000)),
        },
    ))
}

/// `(77)`: the origin square, in ASCII or full-width digits.
pub(super) fn origin(input: &str) -> Option<(Square, &str)> {
    let rest = input
        .strip_prefix('(')
        .or_else(|| input.strip_prefix('（'))?;
    let mut chars = rest.chars();
    let file = chars.next().and_then(digit)?;
    let rank = chars.next().and_then(digit)?;
    let rest = chars.as_str();
    let rest = rest.strip_prefix(')').or_else(|| rest.strip_prefix('）'))?;
    Some((Square::new(file, rank)?, rest))
}

/// The time column after a move or a terminal word, if any, warning about
/// fields of 60 or more and skipping (with a warning) the second column
/// IS-SHOGI writes.
pub(super) fn time_columns<'a>(
    n: u32,
    line: &'a str,
    text: &'a str,
    warnings: &mut Vec<Warning>,
) -> (Option<MoveTime>, &'a str) {
    plain_time_column(text).unwrap_or_else(|| general_time_columns(n, line, text, warnings))
}

/// [`time_columns`] for any text: every form of the column, warnings and
/// all.
fn general_time_columns<'a>(
    n: u32,
    line: &'a str,
    text: &'a str,
    warnings: &mut Vec<Warning>,
) -> (Option<MoveTime>, &'a str) {
    let (time, rest) = trailing_time(text);
    if time.is_none() {
        return (time, rest);
    }
    let column = skip_spaces(&text[..text.len() - rest.len()]);
    warn_sixty(n, line, column, warnings);
    let (second, after) = trailing_time(rest);
    if second.is_some() {
        let written = skip_spaces(&rest[..rest.len() - after.len()]);
        warnings.push(Span::of(n, line, written).warning(
            "a second time column (IS-SHOGI writes two); its meaning is not documented, so it is not kept",
        ));
        return (time, after);
    }
    (time, rest)
}

/// The fast path of [`time_columns`], for the column nearly every file
/// writes (`( 0:16/00:00:16)`, fields under 60) with no second column
/// after it. `None` sends every other text to the general path.
fn plain_time_column(text: &str) -> Option<(Option<MoveTime>, &str)> {
    let text = skip_padding(text);
    let (time, under_sixty) = padded_time_bytes(text.as_bytes())?;
    // The sixteen bytes read are ASCII: the rest starts a character.
    let rest = &text[16..];
    (under_sixty && !skip_spaces(rest).starts_with('(')).then_some((Some(time), rest))
}

/// A warning for each minutes or seconds field (after a `:`) of 60 or
/// more in a time column: read as written, but no clock shows it. Each
/// warning points at its field, so two such fields in one column give two
/// warnings that differ.
fn warn_sixty(n: u32, line: &str, column: &str, warnings: &mut Vec<Warning>) {
    for (at, _) in column.match_indices(':') {
        let field = skip_spaces(&column[at + 1..]);
        let digits = &field[..field.bytes().take_while(u8::is_ascii_digit).count()];
        if !digits.is_empty() && digits.parse::<u32>().map_or(true, |v| v >= 60) {
            warnings.push(Span::of(n, line, digits).warning(format!(
                "a time field of {digits} (60 or more) in `{column}`; read as written"
            )));
        }
    }
}

/// An optional time column after spaces.
fn trailing_time(text: &str) -> (Option<MoveTime>, &str) {
    match time_column(skip_spaces(text)) {
        Ok((rest, time)) => (Some(time), rest),
        Err(_) => (None, text),
    }
}

/// The fast branch of [`time_column`], for its commonest layout: sixteen
/// bytes at fixed places, `( 0:16/00:00:16)` or `(12:16/00:00:16)`,
/// checked as one number against masks ([`PADDED_PUNCTUATION`],
/// [`PADDED_DIGITS`]): the time, and whether every field after a `:` is
/// under 60; `None` for any other layout.
#[inline(always)]
pub(super) fn padded_time_bytes(bytes: &[u8]) -> Option<(MoveTime, bool)> {
    let b: [u8; 16] = *bytes.first_chunk::<16>()?;
    let word = u128::from_le_bytes(b);
    let punctuation = word & PUNCTUATION_MASK == PUNCTUATION;
    // A digit is 0x30 to 0x39: high half 3, and a low half that stays
    // under 0x10 when 6 is added (no carry leaves its byte: 0x0F + 6).
    let high = word & DIGIT_HIGH_MASK == DIGIT_HIGH;
    let low = ((word & DIGIT_LOW_MASK) + DIGIT_SIX) & DIGIT_CARRY == 0;
    if !(punctuation && high && low && (b[1] == b' ' || b[1].is_ascii_digit())) {
        return None;
    }
    // The digits' values, a space at byte 1 reading as 0; then every byte
    // ten times its digit plus the next, so that each two-digit field is
    // the byte where it starts. No byte carries: 9 * 10 + 9 < 256.
    let values = word & (DIGIT_LOW_MASK | 0x0F << 8);
    let pairs = values * 10 + (values >> 8);
    let two = |i: usize| u64::from((pairs >> (8 * i)) as u8);
    let (minutes, seconds) = (two(1), two(4));
    let (hours, total_minutes, total_seconds) = (two(7), two(10), two(13));
    let time = MoveTime {
        spent_ms: (minutes * 60 + seconds) * 1000,
        total_ms: Some(((hours * 60 + total_minutes) * 60 + total_seconds) * 1000),
    };
    let under_sixty = seconds < 60 && total_minutes < 60 && total_seconds < 60;
    Some((time, under_sixty))
}

/// Where [`padded_time_bytes`]'s layout has its punctuation, and which:
/// `(`, `:`, `/`, `:`, `:`, `)`.
const PADDED_PUNCTUATION: [usize; 6] = [0, 3, 6, 9, 12, 15];
const PUNCTUATION: u128 = placed(&PADDED_PUNCTUATION, b"(:/::)");
const PUNCTUATION_MASK: u128 = placed(&PADDED_PUNCTUATION, &[0xFF; 6]);
/// Where [`padded_time_bytes`]'s layout always has a digit (the byte at
/// 1, a space or a digit, is checked alone), and the masks that test them.
const PADDED_DIGITS: [usize; 9] = [2, 4, 5, 7, 8, 10, 11, 13, 14];
const DIGIT_HIGH_MASK: u128 = placed(&PADDED_DIGITS, &[0xF0; 9]);
const DIGIT_HIGH: u128 = placed(&PADDED_DIGITS, &[0x30; 9]);
const DIGIT_LOW_MASK: u128 = placed(&PADDED_DIGITS, &[0x0F; 9]);
const DIGIT_SIX: u128 = placed(&PADDED_DIGITS, &[0x06; 9]);
const DIGIT_CARRY: u128 = placed(&PADDED_DIGITS, &[0x10; 9]);

/// A 16-byte little-endian word with `values[k]` at byte `places[k]` and
/// zero elsewhere (a mask for [`padded_time_bytes`]).
const fn placed(places: &[usize], values: &[u8]) -> u128 {
    let mut word = 0;
    let mut k = 0;
    while k < places.len() {
        word |= (values[k] as u128) << (8 * places[k]);
        k += 1;
    }
    word
}

/// [`skip_spaces`] for the run of ASCII spaces that pads a KIF move out to
/// its time column: the ASCII spaces found by [`spaces_end`], then
/// whatever spacing follows.
fn skip_padding(text: &str) -> &str {
    // Every byte before the end of the run is an ASCII space, so the end
    // starts a character.
    skip_spaces(&text[spaces_end(text.as_bytes(), 0)..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_columns() {
        for (text, spent_ms, total_ms) in [
            ("( 0:16/00:00:16)", 16_000, Some(16_000)),
            ("(0:4/0:0:4)", 4_000, Some(4_000)),
            ("( 1:02/01:10:00)", 62_000, Some(4_200_000)),
            ("( 0:16/)", 16_000, None),
            ("( 0:16)", 16_000, None),
            ("(00:01 / 00:00:01)", 1_000, Some(1_000)),
        ] {
            let time = MoveTime { spent_ms, total_ms };
            assert_eq!(time_column(text).unwrap().1, time, "{text}");
        }
        // The fast branch and the grammar agree.
        for text in [
            "( 0:16/00:00:16)",
            "(0:4/0:0:4)",
            "( 1:02/01:10:00)+",
            "(12:00/10:00:00)",
            "(99:99/99:99:99) x",
            "(123:00/10:00:00)",
            "(  1:00/10:00:00)",
            "( 0:16/00:00:16",
        ] {
            if let Some((time, _)) = padded_time_bytes(text.as_bytes()) {
                assert!(text.len() >= 16 && !text.starts_with("(  "), "{text}");
                assert_eq!(time_column(text).unwrap(), (&text[16..], time), "{text}");
            }
        }
        // Each field at every two-digit value, the others fixed.
        for field in 0..5 {
            for value in 0..100 {
                let mut f = [3, 16, 1, 10, 59];
                f[field] = value;
                let [m, s, h, tm, ts] = f;
                let text = format!("({m:>2}:{s:02}/{h:02}:{tm:02}:{ts:02})");
                let (time, under_sixty) = padded_time_bytes(text.as_bytes()).expect(&text);
                assert_eq!(time_column(&text).unwrap(), ("", time), "{text}");
                assert_eq!(under_sixty, s < 60 && tm < 60 && ts < 60, "{text}");
            }
        }
        // The fast path of the whole column answers as the general one
        // does, or leaves the text to it.
        let mut fast_taken = 0;
        for text in [
            "   ( 0:16/00:00:16)",
            "( 0:16/00:00:16)+",
            "\u{3000}( 0:16/00:00:16) # note",
            "( 0:16/00:00:16) ( 0:00/00:00:00)",
            "( 0:16/00:00:16)\u{3000}(0:1/0:0:1)",
            "( 0:60/00:00:16)",
            "( 0:16/00:60:16)",
            "( 0:16/00:00:60)",
            "( 0:059/00:00:016)",
            "( 99:16/99:00:16)",
            "( 0:16/99999999999999999999:00:16)",
            "( 0:16/)",
            "",
            " +",
        ] {
            let mut general_warnings = Vec::new();
            let general = general_time_columns(1, text, text, &mut general_warnings);
            if let Some(fast) = plain_time_column(text) {
                fast_taken += 1;
                assert_eq!(fast, general, "{text}");
                assert!(general_warnings.is_empty(), "{text}");
            }
            let mut warnings = Vec::new();
            assert_eq!(
                super::time_columns(1, text, text, &mut warnings),
                general,
                "{text}"
            );
            assert_eq!(warnings, general_warnings, "{text}");
        }
        assert_eq!(fast_taken, 3);
        assert!(
            time_column("(77)x").is_err() || time_column("(77)x").unwrap().1.total_ms.is_none()
        );
    }

    #[test]
    fn the_padded_layout_takes_nothing_the_general_parser_reads_otherwise() {
        let base = *b"( 0:16/00:00:16)";
        let bytes = [
            b'(', b')', b' ', b'/', b':', b'0', b'9', b'.', b';', b'a', 0xFF,
        ];
        for place in 0..16 {
            for &byte in &bytes {
                let mut column = base;
                column[place] = byte;
                let Ok(text) = std::str::from_utf8(&column) else {
                    continue;
                };
                let Some((time, _)) = padded_time_bytes(text.as_bytes()) else {
                    continue;
                };
                let (general_rest, general) = time_column(text).unwrap();
                assert_eq!((time, &text[16..]), (general, general_rest), "{text}");
            }
        }
    }

    #[test]
    fn padding_is_skipped_as_any_spacing_is() {
        for text in [
            "",
            " ",
            "        ( 0:16/00:00:16)",
            "       \u{3000}x",
            "                 \t (",
            "12345678",
            "        ",
        ] {
            assert_eq!(skip_padding(text), skip_spaces(text), "{text:?}");
        }
    }
}
