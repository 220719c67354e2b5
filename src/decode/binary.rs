//! Input that cannot be a game record in any format, whatever its encoding: empty, blank,
//! binary, or UTF-16 without its byte-order mark.

use super::Decoded;

/// How many characters at the start of the text [`not_a_record`] looks at for binary data.
pub const BINARY_SAMPLE: usize = 4096;

/// Binary data: at least one in this many of the sampled characters is a control character
/// (other than tab, line feed, carriage return, form feed and the DOS end-of-file mark `^Z`)
/// or an undecodable byte, and at least [`BINARY_LEAST`] of them.
pub const BINARY_SHARE: usize = 10;
/// The fewest suspicious characters that make binary data (see [`BINARY_SHARE`]).
pub const BINARY_LEAST: usize = 8;

/// Why decoded input cannot be a game record (see the module documentation), and where that
/// shows: the byte offset in [`Decoded::text`] of the telling character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotARecord {
    /// Byte offset in the decoded text.
    pub offset: usize,
    /// What the input is instead, in words.
    pub reason: String,
}

/// Whether `decoded` (from `bytes`) cannot be a game record in any format, and why: empty or
/// blank input, a NUL character, or binary data. Never looks past the first NUL or the first
/// [`BINARY_SAMPLE`] characters, except to find a NUL (one fast scan).
#[must_use]
pub fn not_a_record(bytes: &[u8], decoded: &Decoded<'_>) -> Option<NotARecord> {
    let text = decoded.text.as_ref();
    let blank = |c: char| c.is_whitespace() || c == '\u{feff}';
    if bytes.is_empty() {
        return Some(NotARecord {
            offset: 0,
            reason: "the input is empty".to_string(),
        });
    }
    if text.chars().all(blank) {
        return Some(NotARecord {
            offset: 0,
            reason: format!(
                "the input holds nothing but white space ({} bytes)",
                bytes.len()
            ),
        });
    }
    if let Some(offset) = memchr::memchr(0, text.as_bytes()) {
        let reason = match utf16_without_bom(bytes) {
            Some(endian) => format!(
                "a NUL character; the bytes look like UTF-16 {endian} without a byte-order mark (save the file as UTF-8, or as UTF-16 with its byte-order mark)"
            ),
            None => "a NUL character: binary data, not text".to_string(),
        };
        return Some(NotARecord { offset, reason });
    }
    if fewer_suspicious_than(text, BINARY_LEAST) {
        // Too few in the whole text to make binary data in its sample.
        return None;
    }
    let mut sampled = 0;
    let mut suspicious = 0;
    let mut first = None;
    for (offset, c) in text.char_indices().take(BINARY_SAMPLE) {
        sampled += 1;
        if is_suspicious(c) {
            suspicious += 1;
            first.get_or_insert(offset);
        }
    }
    match first {
        Some(offset) if suspicious >= BINARY_LEAST && suspicious * BINARY_SHARE >= sampled => {
            Some(NotARecord {
                offset,
                reason: format!(
                    "binary data ({suspicious} of the first {sampled} characters, read as {}, are control characters or undecodable bytes)",
                    decoded.encoding.name()
                ),
            })
        }
        _ => None,
    }
}

/// Whether a character is one the binary test counts: a control character but for tab, line
/// feed, carriage return, form feed and `^Z`, or U+FFFD (what an undecodable byte became).
fn is_suspicious(c: char) -> bool {
    let control = c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1a');
    control || c == char::REPLACEMENT_CHARACTER
}

/// The fast path of [`not_a_record`]'s binary test, for the usual text with no suspicious
/// character at all: whether the whole of `text` holds fewer than `least` characters
/// [`is_suspicious`] counts (then its sample cannot hold `least` either). Each byte is judged
/// with its neighbours ([`suspicious_bytes`]), as arithmetic on four shifted views of the
/// bytes, so the compiler can judge many bytes at once; the count is checked after each block
/// of 64.
fn fewer_suspicious_than(text: &str, least: usize) -> bool {
    let bytes = text.as_bytes();
    let n = bytes.len();
    if n < 4 {
        return (0..n).filter(|&i| suspicious_at(bytes, i)).count() < least;
    }
    // The first two bytes (no two before them) and the last (none after) one by one.
    let mut found = [0, 1, n - 1]
        .into_iter()
        .filter(|&i| suspicious_at(bytes, i))
        .count();
    let (before2, before1, here, after) = (
        &bytes[..n - 3],
        &bytes[1..n - 2],
        &bytes[2..n - 1],
        &bytes[3..],
    );
    const BLOCK: usize = 64;
    for start in (0..here.len()).step_by(BLOCK) {
        let end = (start + BLOCK).min(here.len());
        found += suspicious_bytes(
            &before2[start..end],
            &before1[start..end],
            &here[start..end],
            &after[start..end],
        );
        if found >= least {
            return false;
        }
    }
    found < least
}

/// How many of the bytes `here` end the count of a suspicious character (as [`suspicious_at`]
/// says), each judged with the two bytes before it and the one after it (the same places in
/// `before2`, `before1`, `after`; all four of one length, at most 255): branch-free, for the
/// compiler to vectorise.
fn suspicious_bytes(before2: &[u8], before1: &[u8], here: &[u8], after: &[u8]) -> usize {
    let count: u8 = here
        .iter()
        .zip(before1)
        .zip(before2)
        .zip(after)
        .map(|(((&c, &b1), &b2), &a)| {
            let allowed = (c == 0x09) | (c == 0x0A) | (c == 0x0C) | (c == 0x0D) | (c == 0x1A);
            let control = ((c < 0x20) & !allowed) | (c == 0x7F);
            let c1 = (c == 0xC2) & (a & 0xE0 == 0x80);
            let replacement = (c == 0xBD) & (b1 == 0xBF) & (b2 == 0xEF);
            u8::from(control | c1 | replacement)
        })
        .fold(0, u8::wrapping_add);
    usize::from(count)
}

/// Whether the byte at `i` ends the count of a suspicious character ([`is_suspicious`]) in
/// UTF-8 `bytes`: an ASCII control but for tab, line feed, form feed, carriage return and `^Z`;
/// `0x7F`; the lead byte `0xC2` of U+0080 to U+009F; the last byte of U+FFFD (EF BF BD).
fn suspicious_at(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        0x09 | 0x0A | 0x0C | 0x0D | 0x1A => false,
        0x00..=0x1F | 0x7F => true,
        0xC2 => matches!(bytes.get(i + 1), Some(0x80..=0x9F)),
        0xBD => i >= 2 && bytes[i - 2] == 0xEF && bytes[i - 1] == 0xBF,
        _ => false,
    }
}

/// `"LE"` or `"BE"` when the zero bytes near the start fall mostly on odd or on even offsets,
/// as the ASCII characters of UTF-16 text do.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static str> {
    let head = bytes.get(..BINARY_SAMPLE).unwrap_or(bytes);
    let zeros_at = |parity: usize| {
        head.iter()
            .enumerate()
            .filter(|&(i, &b)| i % 2 == parity && b == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    if odd >= 2 && even * 8 <= odd {
        Some("LE")
    } else if even >= 2 && odd * 8 <= even {
        Some("BE")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{fewer_suspicious_than, is_suspicious};
    use proptest::prelude::*;

    /// The count the fast path stands for, character by character.
    fn count(text: &str) -> usize {
        text.chars().filter(|&c| is_suspicious(c)).count()
    }

    #[test]
    fn the_fast_count_sees_every_kind_of_suspicious_character() {
        for (text, n) in [
            ("７六歩(77) ( 0:16/00:00:16)\r\n\t\x0c\x1a", 0),
            ("½ ｽ \u{FFFC} \u{FFFE} \u{A0}", 0),
            ("\x01\x7f\u{80}\u{9f}\u{FFFD}", 5),
            ("\u{FFFD}\u{FFFD}x", 2),
        ] {
            assert_eq!(count(text), n, "{text:?}");
            for least in 1..=6 {
                assert_eq!(
                    fewer_suspicious_than(text, least),
                    n < least,
                    "{text:?} {least}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn the_fast_count_agrees_with_the_characters(
            chars in prop::collection::vec(
                prop_oneof![
                    any::<char>(),
                    prop::char::range('\0', '\u{a0}'),
                    Just('\u{FFFD}'),
                    Just('\u{FF3D}'),
                    Just('\u{3000}'),
                ],
                0..200,
            ),
            least in 1usize..10,
        ) {
            let text: String = chars.into_iter().collect();
            prop_assert_eq!(fewer_suspicious_than(&text, least), count(&text) < least);
        }
    }
}
