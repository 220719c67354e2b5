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
    let mut sampled = 0;
    let mut suspicious = 0;
    let mut first = None;
    for (offset, c) in text.char_indices().take(BINARY_SAMPLE) {
        sampled += 1;
        let control = c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1a');
        if control || c == char::REPLACEMENT_CHARACTER {
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
