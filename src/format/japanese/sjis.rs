//! Shift_JIS (CP932) text read one character at a time, without decoding
//! the whole file: for the readers' fast paths, which read a plain move line
//! in the bytes it was saved in (see `Dialect::sjis_move_line` in
//! `format::kakinoki`).
//!
//! The mapping is the decoder's own: encoding_rs's `SHIFT_JIS` (the WHATWG
//! Shift_JIS, which is CP932) is asked once for every double-byte code, and
//! its answers are kept in a table. So a character read here is the
//! character the whole-file decoder gives for the same bytes, provided the
//! reading starts where a character starts (the start of a line: neither
//! line feed nor carriage return is ever the second byte of a pair).
//!
//! Only ASCII and double-byte characters are read. A half-width katakana
//! byte, the single bytes CP932 maps to control or private characters, a
//! lone lead byte or a pair the decoder cannot map all read as `None`: the
//! caller leaves that line to the general reader, which sees it decoded.

// Until the readers' fast paths use it.
#![cfg_attr(not(test), allow(dead_code))]

use std::sync::OnceLock;

/// Lead bytes of double-byte characters: `81`–`9F` and `E0`–`FC`.
const LEADS: usize = 31 + 29;
/// Second bytes are read from `40` to `FC` (`7F` is none, and maps to
/// nothing in the table).
const TRAILS: usize = 0xFC - 0x40 + 1;

/// The row of a lead byte in [`table`].
#[inline]
fn lead_row(lead: u8) -> Option<usize> {
    match lead {
        0x81..=0x9F => Some(usize::from(lead - 0x81)),
        0xE0..=0xFC => Some(usize::from(lead - 0xE0) + 31),
        _ => None,
    }
}

/// What every double-byte code decodes to, row by lead byte and column by
/// second byte; `'\0'` where the decoder maps nothing (no pair decodes to
/// NUL). Built from one decoding per lead byte, of each pair on a line of
/// its own: a pair read as one character, and not as U+FFFD, is mapped.
fn table() -> &'static [char] {
    static TABLE: OnceLock<Box<[char]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec!['\0'; LEADS * TRAILS].into_boxed_slice();
        let mut row_bytes = Vec::with_capacity(3 * TRAILS);
        for lead in (0x81..=0x9F).chain(0xE0..=0xFC) {
            let row = lead_row(lead).expect("a lead byte");
            row_bytes.clear();
            for trail in 0x40..=0xFC_u8 {
                row_bytes.extend_from_slice(&[lead, trail, b'\n']);
            }
            let (decoded, _) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&row_bytes);
            for (column, pair) in decoded.split_terminator('\n').enumerate() {
                let mut chars = pair.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    if c != char::REPLACEMENT_CHARACTER {
                        table[row * TRAILS + column] = c;
                    }
                }
            }
        }
        table
    })
}

/// The character the double-byte code `lead`, `trail` decodes to, if any.
#[inline]
pub fn pair_char(lead: u8, trail: u8) -> Option<char> {
    let row = lead_row(lead)?;
    let column = usize::from(trail.checked_sub(0x40)?);
    if column >= TRAILS {
        return None;
    }
    Some(table()[row * TRAILS + column]).filter(|&c| c != '\0')
}

/// The first character of `bytes` (which must start where a character
/// starts) and how many bytes it takes: an ASCII byte, or a double-byte
/// character. `None` at the end, and for anything else (see the module
/// documentation).
#[inline]
pub fn next_char(bytes: &[u8]) -> Option<(char, usize)> {
    match *bytes {
        [b, ..] if b.is_ascii() => Some((char::from(b), 1)),
        [lead, trail, ..] => pair_char(lead, trail).map(|c| (c, 2)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_decoder_reads() {
        let text = "▲７六歩　△３四歩(77) 同　成銀\u{3000}まで";
        let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
        assert!(!unmappable);
        let mut rest: &[u8] = &bytes;
        let mut read = String::new();
        while let Some((c, len)) = next_char(rest) {
            read.push(c);
            rest = &rest[len..];
        }
        assert!(rest.is_empty());
        assert_eq!(read, text);
    }

    #[test]
    fn every_pair_agrees_with_the_decoder_in_context() {
        // Each pair between two ASCII letters, decoded as part of a text.
        for lead in 0..=0xFF_u8 {
            for trail in 0..=0xFF_u8 {
                let bytes = [b'a', lead, trail, b'z'];
                let (whole, _, malformed) = encoding_rs::SHIFT_JIS.decode(&bytes);
                match pair_char(lead, trail) {
                    Some(c) => {
                        assert!(!malformed, "{lead:02X} {trail:02X}");
                        assert_eq!(whole, format!("a{c}z"), "{lead:02X} {trail:02X}");
                    }
                    // Not a lead byte, or a pair the decoder does not read
                    // cleanly as one character.
                    None => assert!(
                        lead_row(lead).is_none() || malformed || whole.chars().count() != 3,
                        "{lead:02X} {trail:02X}: {whole}"
                    ),
                }
            }
        }
    }

    #[test]
    fn what_is_not_read() {
        assert_eq!(next_char(b""), None);
        // A half-width katakana byte, a lone lead byte, a bad second byte.
        assert_eq!(next_char(b"\xB1"), None);
        assert_eq!(next_char(b"\x82"), None);
        assert_eq!(next_char(b"\x82\x7F"), None);
        assert_eq!(next_char(b"\x80"), None);
        assert_eq!(next_char(b"A\x82"), Some(('A', 1)));
    }
}
