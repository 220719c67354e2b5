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
pub(super) fn is_suspicious(c: char) -> bool {
    let control = c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1a');
    control || c == char::REPLACEMENT_CHARACTER
}

/// The fast path of [`not_a_record`]'s binary test, for the usual text with no suspicious
/// character at all: whether the whole of `text` holds fewer than `least` characters
/// [`is_suspicious`] counts (then its sample cannot hold `least` either). The bytes are
/// screened a block at a time ([`may_end_suspicious`]); only a block the screen lets through
/// is counted byte by byte ([`suspicious_at`]).
pub(super) fn fewer_suspicious_than(text: &str, least: usize) -> bool {
    let bytes = text.as_bytes();
    let mut found = 0;
    for (k, block) in bytes.chunks(SCREENED_BLOCK).enumerate() {
        if !screen_passes(bytes, block) {
            continue;
        }
        let start = k * SCREENED_BLOCK;
        found += (start..start + block.len())
            .filter(|&i| suspicious_at(bytes, i))
            .count();
        if found >= least {
            return false;
        }
    }
    found < least
}

/// Whether [`may_end_suspicious`] lets `block`, a block of `bytes`, through. A short last
/// block is screened as the whole block that ends where the text ends.
#[inline(always)]
fn screen_passes(bytes: &[u8], block: &[u8]) -> bool {
    if block.len() < SCREENED_BLOCK && bytes.len() >= SCREENED_BLOCK {
        may_end_suspicious(&bytes[bytes.len() - SCREENED_BLOCK..])
    } else {
        may_end_suspicious(block)
    }
}

/// How many bytes [`fewer_suspicious_than`] screens at a time.
const SCREENED_BLOCK: usize = 64;

/// Whether any byte of `block` may end a suspicious character ([`suspicious_at`]): a byte
/// below `0x20` but for line feed and carriage return (tab, form feed and `^Z` pass the screen
/// though they are not counted), `0x7F`, `0xC2` or `0xBD`. A superset of what
/// [`suspicious_at`] counts, judged without the neighbouring bytes.
fn may_end_suspicious(block: &[u8]) -> bool {
    let flag = |flags: u8, &c: &u8| {
        let control = (c < 0x20) & (c != b'\n') & (c != b'\r');
        flags | u8::from(control | (c == 0x7F) | (c == 0xC2) | (c == 0xBD))
    };
    let flags = match <&[u8; SCREENED_BLOCK]>::try_from(block) {
        // A whole block (all but the last): a loop of known length, unrolled.
        Ok(whole) => whole.iter().fold(0, flag),
        Err(_) => block.iter().fold(0, flag),
    };
    flags != 0
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

/// `"LE"` or `"BE"` when the zero bytes near the start fall mostly (more than two in three)
/// on odd or on even offsets, as the ASCII characters of UTF-16 text do.
pub(super) fn utf16_without_bom(bytes: &[u8]) -> Option<&'static str> {
    let head = bytes.get(..BINARY_SAMPLE).unwrap_or(bytes);
    let zeros_at = |parity: usize| {
        head.iter()
            .enumerate()
            .filter(|&(i, &b)| i % 2 == parity && b == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    // Japanese text has a few zero bytes of its own (U+3000 is `00 30`):
    // the zeros of the other parity need only be outnumbered.
    if odd >= 2 && even * 2 < odd {
        Some("LE")
    } else if even >= 2 && odd * 2 < even {
        Some("BE")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{fewer_suspicious_than, is_suspicious, BINARY_LEAST};
    use crate::decode::tests::CHOICES;
    use crate::decode::{decode, ExtensionHint};
    use proptest::prelude::*;

    /// The count the fast path stands for, character by character: the
    /// oracle it must agree with, answer for answer.
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

    /// The fast count and the oracle ([`count`]) give the same answer for
    /// `bytes` read in every encoding, at thresholds around the binary test's
    /// own ([`BINARY_LEAST`]).
    fn agrees_with_the_oracle(bytes: &[u8]) -> Result<(), TestCaseError> {
        for choice in CHOICES {
            let decoded = decode(bytes, choice, ExtensionHint::None);
            let text = decoded.text.as_ref();
            for least in [1, 2, BINARY_LEAST - 1, BINARY_LEAST, BINARY_LEAST + 1, 64] {
                prop_assert_eq!(
                    fewer_suspicious_than(text, least),
                    count(text) < least,
                    "{:?} {:?} {}",
                    choice,
                    bytes,
                    least
                );
            }
        }
        Ok(())
    }

    /// Texts around the block and sample edges with `n` suspicious characters (of each kind)
    /// at regular places: the answer is the oracle's, whatever the count and places.
    #[test]
    fn the_binary_test_agrees_with_the_oracle_around_its_edges() {
        let kinds = [
            "\x01", "\x7f", "\u{85}", "\u{FFFD}", "\t", "\x1a", "\x0c", "\u{BD}",
        ];
        for len in [
            1, 2, 3, 4, 63, 64, 65, 127, 128, 129, 4095, 4096, 4097, 9000,
        ] {
            for filler in ["a", "歩", "\r\n", "ｽ"] {
                for kind in kinds {
                    for n in [0, 1, 7, 8, 9, 40, 500] {
                        let mut text = String::new();
                        let step = (len / (n + 1)).max(1);
                        let mut placed = 0;
                        for i in 0..len {
                            if placed < n && i % step == step - 1 {
                                text.push_str(kind);
                                placed += 1;
                            } else {
                                text.push_str(filler);
                            }
                        }
                        agrees_with_the_oracle(text.as_bytes()).unwrap();
                    }
                }
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

        /// Any bytes, biased to those the binary test looks at, give the oracle's answer.
        #[test]
        fn the_binary_test_agrees_with_the_oracle_on_any_bytes(
            bytes in prop::collection::vec(
                prop_oneof![
                    any::<u8>(),
                    0u8..0x21,
                    prop::sample::select(vec![0x7F, 0xC2, 0x80, 0x9F, 0xEF, 0xBF, 0xBD, b'a', b'\n', b'\r', 0x82, 0xA0]),
                ],
                0..600,
            ),
        ) {
            agrees_with_the_oracle(&bytes)?;
        }

        /// Long texts of ordinary characters with a few suspicious ones anywhere: the answer
        /// is the oracle's past the first blocks and past the sample.
        #[test]
        fn the_binary_test_agrees_with_the_oracle_on_long_texts(
            filler in prop::sample::select(vec!["a", "７六歩(77)\r\n", "\u{3000}", " "]),
            len in 1usize..6000,
            places in prop::collection::vec((0usize..6000, prop::sample::select(vec!["\x01", "\u{FFFD}", "\u{90}", "\x7f", "\x00", "\t"])), 0..30),
        ) {
            let mut pieces: Vec<&str> = vec![filler; len];
            for (at, kind) in places {
                if at < pieces.len() {
                    pieces[at] = kind;
                }
            }
            agrees_with_the_oracle(pieces.concat().as_bytes())?;
        }
    }
}
