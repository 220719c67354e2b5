//! KIF's move lines read straight from Shift_JIS (CP932) bytes: the fast
//! path of `Dialect::move_line` that the Shift_JIS reading path
//! (`format::kakinoki_sjis`) tries on every line before decoding it (after
//! the faster, narrower fixed-place reader, [`super::sjis_fixed`], which
//! takes the commonest line and leaves every other to this one).
//!
//! A plain move line (`   1 ７六歩(77)        ( 0:03/00:00:03)`) is ASCII
//! but for its move text: the move number and the origin and time columns
//! are read from the bytes as they are (ASCII is the same in CP932), and
//! only the move text is read a character at a time with
//! [`japanese::sjis::next_char`](crate::format::japanese::sjis::next_char)
//! (the whole-file decoder's own mapping). Each part is read by the
//! general reader's own function ([`move_text`], [`origin`],
//! [`time_columns`]), in the order [`line_event`](super::read::line_event)
//! reads them; only the spacing between them, ASCII spaces, is read here.
//! A line is taken only when it reads as one move, with no note and no
//! warning; anything else (a terminal word, a note, other spacing, a
//! leniency that warns, an error, a character `next_char` does not read)
//! is left to the general path.

use super::columns::{origin, time_columns};
use crate::format::japanese::read::{is_space, move_text};
use crate::format::japanese::sjis::next_char;
use crate::record::raw::{Event, Span};
use crate::record::MoveTime;
use crate::resolve::spec::MoveSpec;

/// The longest move text, in UTF-8 bytes, read on the fast path (a move
/// text is a few characters: `同　成銀右上`); a longer one is left to the
/// general path.
const MAX_MOVE_TEXT: usize = 48;

/// [`Dialect::sjis_move_line`](crate::format::kakinoki::Dialect::sjis_move_line)
/// for KIF: line `n`, in CP932 bytes without its line ending. When it is a
/// plain move line that [`Kif`](super::read::Kif)'s `move_line` reads as one move with no
/// note and no warning, pushes that move's event with a
/// [`Span::undecoded`] span and says `true`. Otherwise pushes nothing and
/// says `false`.
///
/// A line taken starts (after ASCII spaces) with an ASCII digit, so the
/// shared Kakinoki reader hands it to `move_line` too (a digit is none of
/// the marks `#`, `*`, `&`, `|`, `+` it reads first, and a column header
/// reads as no move); and it holds no control character but tab (the
/// move grammar takes none), so it needs no check for binary data.
pub(super) fn move_line(n: u32, line: &[u8], events: &mut Vec<Event<'_>>) -> bool {
    match plain_move(line) {
        Some((number, spec, time)) => {
            events.push(Event::Move {
                span: Span::undecoded(n),
                number: Some(number),
                spec,
                time,
            });
            true
        }
        None => false,
    }
}

/// A plain KIF move line read from its CP932 bytes: the number, the move
/// and its time, as `Kif`'s general `move_line` reads the decoded line
/// when that says nothing but the move; `None` for anything else.
pub(super) fn plain_move(line: &[u8]) -> Option<(u32, MoveSpec, Option<MoveTime>)> {
    // `   1 `: the move number after ASCII spaces (past u32::MAX, the
    // general reader warns).
    let start = line.iter().position(|&b| b != b' ')?;
    let digits = line[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    let number = line[start..start + digits].iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })?;
    let mut at = start + digits;
    // A full-width digit right after the number (`3２六歩`) is more of the
    // number to the general reader, which then finds no square there.
    if let Some(&[0x82, 0x4F..=0x58]) = line.get(at..at + 2) {
        return None;
    }
    while line.get(at) == Some(&b' ') {
        at += 1;
    }
    // The move text runs to the first `(` (never the second byte of a
    // pair) or the end; the rest of the line must be ASCII.
    let end = memchr::memchr(b'(', &line[at..]).map_or(line.len(), |i| at + i);
    let tail = &line[end..];
    if !tail.is_ascii() {
        return None;
    }
    // ASCII bytes are UTF-8: the check cannot fail.
    let tail = std::str::from_utf8(tail).ok()?;
    let mut buffer = [0u8; MAX_MOVE_TEXT];
    let text = decode(&line[at..end], &mut buffer)?;
    let (mut spec, rest) = move_text(text).ok()?;
    // What follows the move text is `rest`, then `tail`. With nothing in
    // `rest`, `tail` may start with the origin; spaces alone in `rest`
    // leave no origin, and the time column skips them; anything else is
    // left to the general path.
    let tail = if rest.is_empty() {
        match origin(tail) {
            Some((from, after)) => {
                spec.from = Some(from);
                after
            }
            None => tail,
        }
    } else if rest.chars().all(is_space) {
        tail
    } else {
        return None;
    };
    let mut warnings = Vec::new();
    let (time, after) = time_columns(0, tail, tail, &mut warnings);
    if !warnings.is_empty() {
        return None;
    }
    // As the general reader ends a move line: spaces, an optional `+`
    // (a variation follows), and nothing else (a `#` note is left to it).
    let after = after.trim_matches(is_space);
    let after = after
        .strip_prefix('+')
        .map_or(after, |r| r.trim_start_matches(is_space));
    after.is_empty().then_some((number, spec, time))
}

/// Decodes CP932 `bytes` into `buffer` with [`next_char`]: the text, or
/// `None` when a byte sequence is not one `next_char` reads (half-width
/// katakana, a byte the decoder maps to a control character, a broken
/// pair) or the text does not fit.
fn decode<'b>(bytes: &[u8], buffer: &'b mut [u8; MAX_MOVE_TEXT]) -> Option<&'b str> {
    let mut rest = bytes;
    let mut len = 0;
    while !rest.is_empty() {
        let (c, used) = next_char(rest)?;
        let width = c.len_utf8();
        c.encode_utf8(buffer.get_mut(len..len + width)?);
        len += width;
        rest = &rest[used..];
    }
    // `buffer[..len]` holds only what `char::encode_utf8` wrote: the check
    // cannot fail.
    std::str::from_utf8(&buffer[..len]).ok()
}

#[cfg(test)]
mod tests {
    use super::super::read::Kif;
    use super::*;
    use crate::format::kakinoki::Dialect;

    /// What the general reader gives for a decoded line: its events when
    /// it reads without a warning.
    fn general(line: &str) -> Option<Vec<Event<'_>>> {
        let body = crate::format::japanese::read::skip_spaces(line);
        let first = body.chars().next()?;
        if !Kif.is_move_line(first, body) {
            return None;
        }
        let mut events = Vec::new();
        let mut warnings = Vec::new();
        Kif.move_line(7, line, body, &mut events, &mut warnings)
            .ok()?;
        warnings.is_empty().then_some(events)
    }

    /// Checks one line: taken, it gives the general reader's one move.
    /// Says whether it was taken.
    fn check(line: &str) -> bool {
        let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(line);
        if unmappable {
            return false;
        }
        check_bytes(&bytes)
    }

    fn check_bytes(bytes: &[u8]) -> bool {
        let mut fast = Vec::new();
        if !move_line(7, bytes, &mut fast) {
            assert!(fast.is_empty());
            return false;
        }
        let (decoded, malformed) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
        assert!(!malformed, "{bytes:?}");
        let events = general(&decoded)
            .unwrap_or_else(|| panic!("{decoded}: the general reader warns or fails"));
        let [Event::Move {
            number, spec, time, ..
        }] = events.as_slice()
        else {
            panic!("{decoded}: {events:?}")
        };
        assert_eq!(
            fast,
            [Event::Move {
                span: Span::undecoded(7),
                number: *number,
                spec: *spec,
                time: *time
            }],
            "{decoded}"
        );
        true
    }

    #[test]
    fn plain_lines_read_as_the_general_reader_reads_them() {
        let taken = [
            "   1 ７六歩(77)        ( 0:03/00:00:03)",
            "  12 同　銀(31)        ( 0:10/00:01:03)",
            "  12 同 銀(31)   ( 0:10/00:01:03)",
            "  12 同銀(31)",
            "  33 ８六角打          ( 0:00/00:00:00)",
            "  33 ８六角打",
            "  40 ２二角成(88)      ( 1:02/01:10:00)",
            "  41 同　角不成(31)    ( 0:01/00:00:04)+",
            "  42 ５五成銀(44)      ( 0:01/00:00:04)",
            "  43 ５一龍(59)   ( 0:01/00:00:04)",
            "  43 ５一竜(59)",
            "  44 ５二玉(51)",
            "  44 ５二王(51)",
            "  45 ４四と(45)",
            "1 ７六歩(77)",
            "1 ７六歩(77)(0:4/0:0:4)",
            "   1 ７六歩(77)   ( 0:16/)",
            "   1 ７六歩(77)   ( 0:16)",
            "   1 76歩(77)",
            "   1 ７六歩(77) + ",
            "  99 ５五全(44)",
            "  99 ５五杏(44)",
        ];
        for line in taken {
            assert!(check(line), "{line}");
        }
        // Left to the general path: it warns, fails, reads a terminal
        // word or a note, or the line is spaced or written otherwise.
        let left = [
            "   1 ７六歩(77)   ( 0:75/00:00:75)",
            "   1 ２四桂打     ( 0:07/00:00:07) ( 0:00/00:00:00)",
            "4294967296 ７六歩(77)",
            "   1 ７六歩(77) junk",
            "   1 ７六歩(77) #note",
            "   3 投了",
            "   3 投了         ( 0:03/00:00:03)",
            "   1 ７ｧｯ(77)",
            "   1 ７六X(77)",
            "\t1 ７六歩(77)",
            "　1 ７六歩(77)",
            "１ ７六歩(77)",
            "   3２六歩(27)",
            "  12１四歩(13)   ( 0:01/00:00:01)",
            "   1 ▲７六歩(77)",
            "▲７六歩",
            "*comment",
            "9 8 7 6 5 4 3 2 1",
            "987654321",
            "   1 ７六歩（77）",
            "   1 ７六歩(77)\u{3000}( 0:16/00:00:16)",
            "",
            "  ",
        ];
        for line in left {
            assert!(!check(line), "{line}");
        }
        // Bytes that are no CP932 text, or a control character.
        for bytes in [
            &b"   1 \x82"[..],
            b"   1 \x82\x56\x98\x5a\x95\x80(77)\x01",
            b"   1 \x80",
            b"   1 \x82\x56\xff",
            b"   1 \x82\x56\x98\x5a\x95\x80(77\xb1)",
        ] {
            assert!(!check_bytes(bytes), "{bytes:?}");
        }
    }

    #[test]
    fn every_move_line_of_the_records_beside_the_checkout() {
        // Real lines: the shared corpus and the bench subset, when present
        // (the integration test `sjis_path` requires the corpus).
        let roots = [
            concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"),
            "/tmp/speed-sub/kif-sjis",
        ];
        let (mut lines, mut taken) = (0, 0);
        for root in roots {
            let Ok(entries) = std::fs::read_dir(root) else {
                continue;
            };
            for entry in entries.flatten().take(300) {
                let Ok(bytes) = std::fs::read(entry.path()) else {
                    continue;
                };
                let bytes = match std::str::from_utf8(&bytes) {
                    Ok(text) => match encoding_rs::SHIFT_JIS.encode(text) {
                        (sjis, _, false) => sjis.into_owned(),
                        _ => continue,
                    },
                    Err(_) => bytes,
                };
                for line in bytes.split(|&b| b == b'\n') {
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    lines += 1;
                    taken += usize::from(check_bytes(line));
                }
            }
        }
        assert!(taken <= lines);
    }
}
