//! Bytes → text: find out which character encoding a game record was saved in, decode it, and
//! say what was found.
//!
//! Shogi records come from two eras. Older Windows programs and most `.kif`, `.ki2` and `.csa`
//! files on the web use Shift_JIS, in practice Microsoft's code page 932 (CP932) with its NEC and
//! IBM additions such as ①, 髙 and ～. Newer tools write UTF-8 (`.kifu`, `.ki2u`, JKF), often
//! into plain `.kif` files too. A few old CSA files from Unix machines are EUC-JP.
//!
//! # How the encoding is chosen
//!
//! With [`EncodingChoice::Forced`] the bytes are decoded as asked; when UTF-8 is forced, a
//! leading byte-order mark is still removed. With [`EncodingChoice::Auto`] the first rule that
//! applies decides:
//!
//! 1. **Byte-order mark.** Input starting with `EF BB BF` is UTF-8 ([`Encoding::Utf8Bom`]);
//!    `FF FE` is UTF-16 little-endian ([`Encoding::Utf16Le`]) and `FE FF` big-endian
//!    ([`Encoding::Utf16Be`]), as Windows Notepad saves "Unicode" files. The mark is not part
//!    of the text. Without its mark, UTF-16 is told by its zero bytes: most of them at odd
//!    offsets near the start (little-endian) or at even ones (big-endian), as the ASCII
//!    characters of UTF-16 text put them, and the whole decoding cleanly with no NUL
//!    character; other bytes with NULs stay binary data (see [`not_a_record`]).
//! 2. **Declaration.** One of the first two lines, read as ASCII within the first 512 bytes,
//!    starts with `#KIF`, `#KI2` or `'CSA` and contains `encoding=NAME`, where NAME is a label
//!    that [`Encoding::from_label`] knows (`#KIF version=2.0 encoding=Shift_JIS`,
//!    `'CSA encoding=UTF-8`). The declared encoding is used if the bytes decode cleanly in it.
//!    Some real files lie: a tool re-encodes a file to CP932 and leaves its
//!    `encoding=UTF-8` header as it was. Such a declaration is set aside and the rules below
//!    apply. Unknown names are ignored.
//! 3. **UTF-8.** Valid UTF-8 is UTF-8, whatever the file is called. Then the text borrows the
//!    input, with no copy.
//! 4. **Clearly EUC-JP.** The non-ASCII bytes form well-formed EUC-JP sequences: two bytes
//!    in `A1`–`FE`, `8E` and a half-width katakana byte `A1`–`DF`, or `8F` and two bytes in
//!    `A1`–`FE`. One stray byte per 32 good sequences is tolerated, and so is a character cut
//!    short at the end. CP932 text fails this test (its lead bytes `81`–`9F` are not EUC-JP),
//!    while EUC-JP text is often well-formed CP932: so this rule comes first.
//! 5. **CP932**, decoded with encoding_rs's `SHIFT_JIS`. It follows the WHATWG Encoding
//!    Standard, which defines Shift_JIS as CP932, extensions included.
//!
//! If even CP932 leaves bytes it cannot decode, the file is damaged whatever its encoding. Then
//! the encoding with the fewest undecodable sequences is used. Ties go to the declared encoding,
//! then to the one the file name suggests ([`ExtensionHint`]), then to CP932, UTF-8 and EUC-JP in
//! that order. This tie-break is the only place where the file name matters: a `.kif` file
//! holding valid UTF-8 is read as UTF-8.
//!
//! # Text that is not a record
//!
//! [`not_a_record`] says, after decoding, when the input cannot be a game record whatever its
//! format: it is empty or blank, it holds a NUL character (binary data, or UTF-16 without a
//! byte-order mark, whose ASCII characters each have a zero byte), or at least one in
//! [`BINARY_SHARE`] of its first [`BINARY_SAMPLE`] characters are control characters or
//! undecodable bytes. The reader turns that into a located error rather than an empty game.
//!
//! # Leniency
//!
//! Decoding never fails and never panics, whatever the bytes. A byte sequence that cannot be
//! decoded becomes U+FFFD in the text. It is also listed in [`Decoded::malformed`] with its byte
//! offset, line and column (the first [`MAX_REPORTED`] of them), so that callers can warn
//! instead of losing data silently. Line endings are left as they are: CRLF, LF and a lone CR
//! all stay, as does a missing final newline. The parsers deal with them. For the line numbers
//! reported here, each of the three counts as one line break.

mod ascii_tail;
mod binary;
mod clean;
mod sniff;
#[cfg(test)]
mod tests;

pub use crate::types::Encoding;
pub use ascii_tail::AsciiTail;
pub use binary::{not_a_record, NotARecord, BINARY_LEAST, BINARY_SAMPLE, BINARY_SHARE};
pub use clean::{decode_cp932_cleanly, decode_utf8_cleanly};

use std::borrow::Cow;
use std::path::Path;

use encoding_rs::{CoderResult, DecoderResult};

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The UTF-16 byte-order marks.
const BOM_UTF16_LE: &[u8] = b"\xFF\xFE";
const BOM_UTF16_BE: &[u8] = b"\xFE\xFF";

/// How many undecodable sequences [`Decoded::malformed`] lists at most.
pub const MAX_REPORTED: usize = 16;

impl Encoding {
    /// The encoding_rs decoder for this encoding.
    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => encoding_rs::UTF_8,
            Encoding::Cp932 => encoding_rs::SHIFT_JIS,
            Encoding::EucJp => encoding_rs::EUC_JP,
            Encoding::Utf16Le => encoding_rs::UTF_16LE,
            Encoding::Utf16Be => encoding_rs::UTF_16BE,
        }
    }
}

/// How the caller wants the encoding chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EncodingChoice {
    /// Detect it (see the module documentation).
    #[default]
    Auto,
    /// Use this one, whatever the bytes look like.
    Forced(Encoding),
}

/// What the file name suggests about the encoding. It only breaks ties between equally damaged
/// decodings; it never overrides a byte-order mark, a declaration or valid UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExtensionHint {
    /// No hint: an unknown or missing extension.
    #[default]
    None,
    /// `.kifu`, `.ki2u`, `.jkf`, `.json`: formats defined as UTF-8.
    Utf8,
    /// `.kif`, `.ki2`, `.csa`: traditionally Shift_JIS (CP932), though often UTF-8 today.
    Legacy,
}

impl ExtensionHint {
    /// The hint for a file name, from its extension (ignoring ASCII case).
    #[must_use]
    pub fn from_path(path: &Path) -> ExtensionHint {
        const UTF8: [&[u8]; 4] = [b"kifu", b"ki2u", b"jkf", b"json"];
        const LEGACY: [&[u8]; 4] = [b"kif", b"ki2", b"csa", b"bod"];
        let Some(extension) = crate::types::extension(path) else {
            return ExtensionHint::None;
        };
        let is = |list: &[&[u8]]| list.iter().any(|e| extension.eq_ignore_ascii_case(e));
        if is(&UTF8) {
            ExtensionHint::Utf8
        } else if is(&LEGACY) {
            ExtensionHint::Legacy
        } else {
            ExtensionHint::None
        }
    }
}

/// The decoded text and what it was decoded from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text, without a byte-order mark and with its line endings unchanged. It borrows the
    /// input when no conversion was needed (valid UTF-8, or pure ASCII in any encoding).
    pub text: Cow<'a, str>,
    /// The encoding that was used.
    pub encoding: Encoding,
    /// Byte sequences that could not be decoded, in input order and at most the first 16. Each
    /// was replaced by U+FFFD in `text`.
    pub malformed: Vec<Malformed>,
}

impl<'a> Decoded<'a> {
    /// Text that needed no conversion.
    fn borrowed(text: &'a str, encoding: Encoding) -> Decoded<'a> {
        Decoded {
            text: Cow::Borrowed(text),
            encoding,
            malformed: Vec::new(),
        }
    }

    fn is_clean(&self) -> bool {
        self.malformed.is_empty()
    }
}

/// Where an undecodable byte sequence was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// Byte offset of the sequence's first byte in the input (a byte-order mark included).
    pub offset: usize,
    /// 1-based line. CRLF, LF and a lone CR each end a line.
    pub line: u32,
    /// 1-based column in characters of the decoded line (the U+FFFD that replaced the sequence
    /// is at this column).
    pub column: u32,
}

/// Decodes `bytes` to text, choosing the encoding as `choice` says (see the module
/// documentation). Never fails: undecodable bytes become U+FFFD and are listed in
/// [`Decoded::malformed`].
#[must_use]
pub fn decode(bytes: &[u8], choice: EncodingChoice, hint: ExtensionHint) -> Decoded<'_> {
    decode_detected(bytes, detect(bytes, choice), choice, hint)
}

/// The last steps of [`decode`], from what [`detect`] (or
/// [`detect_utf8`]) found.
#[must_use]
pub fn decode_detected<'a>(
    bytes: &'a [u8],
    detected: Detected<'a>,
    choice: EncodingChoice,
    hint: ExtensionHint,
) -> Decoded<'a> {
    match detected {
        Detected::Decoded(decoded) => decoded,
        Detected::Utf8 => decode_detected(bytes, detect_utf8(bytes), choice, hint),
        Detected::Cp932(tail) => match choice {
            EncodingChoice::Forced(_) => transcode_legacy(bytes, Encoding::Cp932, tail),
            EncodingChoice::Auto => sniff::cp932_or_least_damaged(bytes, hint, tail),
        },
    }
}

/// What [`detect`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detected<'a> {
    /// The text, decoded as the rules say.
    Decoded(Decoded<'a>),
    /// UTF-8, if the bytes are valid UTF-8 (see [`detect_utf8`]).
    Utf8,
    /// CP932, if the bytes decode cleanly in it (they are not ASCII);
    /// else [`decode`] tells the encoding from the whole input. With
    /// where the input's ASCII tail starts, when detecting found it.
    Cp932(AsciiTail),
}

/// The first step of [`decode`]: the rules of the module documentation
/// up to UTF-8, with nothing decoded that a reader of bytes can read
/// itself: input that is UTF-8 if valid is left unchecked
/// ([`Detected::Utf8`]), declared CP932 undecoded ([`Detected::Cp932`]).
/// `choice` forcing CP932 gives [`Detected::Cp932`] too, but for ASCII.
#[must_use]
pub fn detect(bytes: &[u8], choice: EncodingChoice) -> Detected<'_> {
    match choice {
        EncodingChoice::Forced(Encoding::Cp932) => match std::str::from_utf8(bytes) {
            Ok(text) if text.is_ascii() => {
                Detected::Decoded(Decoded::borrowed(text, Encoding::Cp932))
            }
            _ => Detected::Cp932(AsciiTail::default()),
        },
        EncodingChoice::Forced(encoding) => Detected::Decoded(decode_as(bytes, encoding)),
        EncodingChoice::Auto => sniff::detect(bytes),
    }
}

/// The rules from UTF-8 on, for input [`detect`] left to UTF-8: the text
/// if the bytes are valid UTF-8, else EUC-JP, decoded, when it clearly is,
/// else CP932 ([`Detected::Cp932`]). Never [`Detected::Utf8`].
#[must_use]
pub fn detect_utf8(bytes: &[u8]) -> Detected<'_> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Detected::Decoded(Decoded::borrowed(text, Encoding::Utf8)),
        Err(_) => sniff::detect_not_utf8(bytes),
    }
}

/// Decodes `bytes` as `encoding` if that leaves nothing undecodable.
pub(super) fn decode_cleanly(bytes: &[u8], encoding: Encoding) -> Option<Decoded<'_>> {
    match encoding {
        // Checking UTF-8 is cheaper than decoding it.
        Encoding::Utf8 | Encoding::Utf8Bom => std::str::from_utf8(bytes)
            .ok()
            .map(|text| Decoded::borrowed(text, Encoding::Utf8)),
        Encoding::Cp932 | Encoding::EucJp | Encoding::Utf16Le | Encoding::Utf16Be => {
            Some(decode_as(bytes, encoding)).filter(Decoded::is_clean)
        }
    }
}

/// Decodes `bytes` as `encoding`. For UTF-8, a leading byte-order mark is removed and the
/// result says [`Encoding::Utf8Bom`] when there was one; for UTF-16, its own mark is removed.
pub(super) fn decode_as(bytes: &[u8], encoding: Encoding) -> Decoded<'_> {
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => match bytes.strip_prefix(BOM) {
            Some(body) => decode_utf8(body, BOM.len(), Encoding::Utf8Bom),
            None => decode_utf8(bytes, 0, Encoding::Utf8),
        },
        Encoding::Cp932 | Encoding::EucJp => {
            transcode_legacy(bytes, encoding, AsciiTail::default())
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let bom = if encoding == Encoding::Utf16Le {
                BOM_UTF16_LE
            } else {
                BOM_UTF16_BE
            };
            let body = bytes.strip_prefix(bom).unwrap_or(bytes);
            transcode(body, bytes.len() - body.len(), encoding, "")
        }
    }
}

/// Decodes UTF-8 that starts `base` bytes into the input, borrowing it when it is valid.
fn decode_utf8(body: &[u8], base: usize, encoding: Encoding) -> Decoded<'_> {
    match std::str::from_utf8(body) {
        Ok(text) => Decoded::borrowed(text, encoding),
        Err(_) => transcode(body, base, encoding, ""),
    }
}

/// CP932 or EUC-JP input as text: the bytes up to its ASCII tail (see [`ascii_tail`]) decoded,
/// the tail copied as it is. ASCII input (all tail) is borrowed.
fn transcode_legacy(bytes: &[u8], encoding: Encoding, tail: AsciiTail) -> Decoded<'_> {
    let (head, tail) = bytes.split_at(tail.start(bytes));
    // The tail is all ASCII, so this cannot fail; if it did, the decoder
    // would read the whole input.
    let Ok(tail) = std::str::from_utf8(tail) else {
        return transcode(bytes, 0, encoding, "");
    };
    if head.is_empty() {
        return Decoded::borrowed(tail, encoding);
    }
    transcode(head, 0, encoding, tail)
}

/// Converts `bytes` (found `base` bytes into the input) into a new string, replacing
/// undecodable sequences with U+FFFD and recording where the first [`MAX_REPORTED`] were;
/// then appends `tail`, text that follows `bytes` in the input and needs no decoding.
fn transcode(bytes: &[u8], base: usize, encoding: Encoding, tail: &str) -> Decoded<'static> {
    let mut decoder = encoding.codec().new_decoder_without_bom_handling();
    let capacity = decoder.max_utf8_buffer_length(bytes.len());
    let mut text = String::with_capacity(capacity.unwrap_or(bytes.len()) + tail.len());
    // (offset in the input, offset in `text`) of the first undecodable
    // sequences; the rest are replaced without being kept track of.
    let mut spots: Vec<(usize, usize)> = Vec::new();
    let mut read = 0;
    // Until the spots are all found, the decoder stops at each undecodable
    // sequence; then it replaces the rest itself. (Each call costs a touch
    // of every page of the text's spare room: a call per sequence of a
    // large binary file took time growing with the square of its size.)
    while spots.len() < MAX_REPORTED {
        let rest = bytes.get(read..).unwrap_or_default();
        let (result, consumed) =
            decoder.decode_to_string_without_replacement(rest, &mut text, true);
        read += consumed;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {
                make_room(&mut text, &decoder, bytes.len().saturating_sub(read))
            }
            DecoderResult::Malformed(bad, after) => {
                let start = read.saturating_sub(usize::from(bad) + usize::from(after));
                spots.push((base + start, text.len()));
                text.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    while spots.len() == MAX_REPORTED {
        let rest = bytes.get(read..).unwrap_or_default();
        let (result, consumed, _) = decoder.decode_to_string(rest, &mut text, true);
        read += consumed;
        match result {
            CoderResult::InputEmpty => break,
            CoderResult::OutputFull => {
                make_room(&mut text, &decoder, bytes.len().saturating_sub(read))
            }
        }
    }
    text.push_str(tail);
    let malformed = locate(&text, &spots);
    Decoded {
        text: Cow::Owned(text),
        encoding,
        malformed,
    }
}

/// Grows `text` so that decoding `remaining` more bytes cannot run out of room.
fn make_room(text: &mut String, decoder: &encoding_rs::Decoder, remaining: usize) {
    let needed = decoder.max_utf8_buffer_length(remaining);
    text.reserve(needed.unwrap_or(remaining).max(4));
}

/// Turns (input offset, text offset) pairs into [`Malformed`] positions, in one pass over
/// the text up to the last of them. CRLF, LF and a lone CR each end a line.
fn locate(text: &str, spots: &[(usize, usize)]) -> Vec<Malformed> {
    // The 1-based line, the characters seen on it, and whether the last
    // was CR (so that a following LF does not end another line).
    let (mut line, mut column, mut after_cr) = (1u32, 0u32, false);
    let mut done = 0;
    spots
        .iter()
        .map(|&(offset, at)| {
            for c in text.get(done..at).unwrap_or_default().chars() {
                match c {
                    '\n' if after_cr => {}
                    '\r' | '\n' => (line, column) = (line.saturating_add(1), 0),
                    _ => column = column.saturating_add(1),
                }
                after_cr = c == '\r';
            }
            done = at.max(done);
            Malformed {
                offset,
                line,
                column: column.saturating_add(1),
            }
        })
        .collect()
}
