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
//!    of the text. UTF-16 is read only with its mark: without one it is not told apart from
//!    binary data (see [`not_a_record`]).
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
//!    `A1`–`FE`. To allow for damage, one stray byte per 32 good sequences is tolerated, and
//!    so is a character cut short at the end of the input. Real CP932 Japanese text practically
//!    never passes this test. Hiragana, katakana, full-width digits, the ▲△ marks and most
//!    kanji have CP932 lead bytes `81`–`9F`, which EUC-JP never uses except for `8E` and `8F`,
//!    and about half of the CP932 trail bytes are below `A1`, so nearly every other character
//!    is a stray byte. The converse is not true: EUC-JP text is usually also well-formed
//!    CP932, just garbled. That is why this rule comes before the next one.
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

use std::borrow::Cow;
use std::path::Path;

use encoding_rs::{CoderResult, DecoderResult};

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The UTF-16 byte-order marks.
const BOM_UTF16_LE: &[u8] = b"\xFF\xFE";
const BOM_UTF16_BE: &[u8] = b"\xFE\xFF";

/// How many undecodable sequences [`Decoded::malformed`] lists at most.
const MAX_REPORTED: usize = 16;

/// How far into the input a `#KIF … encoding=` declaration is looked for, in bytes and lines.
const DECLARATION_BYTES: usize = 512;
const DECLARATION_LINES: usize = 2;

/// Which encoding the text was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 that started with a byte-order mark (not part of the decoded text).
    Utf8Bom,
    /// Shift_JIS as Windows writes it: code page 932, with the NEC and IBM extensions.
    Cp932,
    /// EUC-JP.
    EucJp,
    /// UTF-16 little-endian, read after its byte-order mark `FF FE` (not part of the text).
    Utf16Le,
    /// UTF-16 big-endian, read after its byte-order mark `FE FF` (not part of the text).
    Utf16Be,
}

impl Encoding {
    /// A name for messages: `"UTF-8"`, `"UTF-8 (BOM)"`, `"Shift_JIS (CP932)"`, `"EUC-JP"`,
    /// `"UTF-16LE (BOM)"` or `"UTF-16BE (BOM)"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 (BOM)",
            Encoding::Cp932 => "Shift_JIS (CP932)",
            Encoding::EucJp => "EUC-JP",
            Encoding::Utf16Le => "UTF-16LE (BOM)",
            Encoding::Utf16Be => "UTF-16BE (BOM)",
        }
    }

    /// Parses a user-supplied name for `--encoding`, or the name in a `#KIF … encoding=`
    /// declaration. Recognises `utf-8`, `utf8`, `sjis`, `shift_jis`, `shift-jis`, `cp932`,
    /// `ms932`, `windows-31j`, `euc-jp` and `eucjp`, ignoring ASCII case, surrounding
    /// whitespace and quotes, and treating `_` and `-` as the same.
    #[must_use]
    pub fn from_label(label: &str) -> Option<Encoding> {
        const LABELS: [(&str, Encoding); 10] = [
            ("utf-8", Encoding::Utf8),
            ("utf8", Encoding::Utf8),
            ("sjis", Encoding::Cp932),
            ("shift-jis", Encoding::Cp932),
            ("shiftjis", Encoding::Cp932),
            ("cp932", Encoding::Cp932),
            ("ms932", Encoding::Cp932),
            ("windows-31j", Encoding::Cp932),
            ("euc-jp", Encoding::EucJp),
            ("eucjp", Encoding::EucJp),
        ];
        let label = label.trim().trim_matches(|c| c == '"' || c == '\'');
        LABELS
            .iter()
            .find(|(known, _)| label_matches(label, known))
            .map(|&(_, encoding)| encoding)
    }

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

/// Whether `label` spells `known` (lowercase, with `-`), ignoring ASCII case and `_`/`-`.
fn label_matches(label: &str, known: &str) -> bool {
    let normalise = |b: u8| match b {
        b'_' => b'-',
        _ => b.to_ascii_lowercase(),
    };
    label.len() == known.len() && label.bytes().map(normalise).eq(known.bytes())
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
        const UTF8: [&str; 4] = ["kifu", "ki2u", "jkf", "json"];
        const LEGACY: [&str; 4] = ["kif", "ki2", "csa", "bod"];
        let Some(extension) = path.extension().and_then(|e| e.to_str()) else {
            return ExtensionHint::None;
        };
        let is = |list: &[&str]| list.iter().any(|e| extension.eq_ignore_ascii_case(e));
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
    match choice {
        EncodingChoice::Forced(encoding) => decode_as(bytes, encoding),
        EncodingChoice::Auto => detect_and_decode(bytes, hint),
    }
}

/// The detection order of the module documentation.
fn detect_and_decode(bytes: &[u8], hint: ExtensionHint) -> Decoded<'_> {
    if bytes.starts_with(BOM) {
        return decode_as(bytes, Encoding::Utf8Bom);
    }
    if bytes.starts_with(BOM_UTF16_LE) {
        return decode_as(bytes, Encoding::Utf16Le);
    }
    if bytes.starts_with(BOM_UTF16_BE) {
        return decode_as(bytes, Encoding::Utf16Be);
    }
    let declared = declared_encoding(bytes);
    if let Some(encoding) = declared {
        if let Some(decoded) = decode_cleanly(bytes, encoding) {
            return decoded;
        }
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Decoded::borrowed(text, Encoding::Utf8);
    }
    if looks_like_euc_jp(bytes) {
        return decode_as(bytes, Encoding::EucJp);
    }
    let cp932 = decode_as(bytes, Encoding::Cp932);
    if cp932.is_clean() {
        return cp932;
    }
    match least_damaged(bytes, declared, hint) {
        Encoding::Cp932 => cp932,
        other => decode_as(bytes, other),
    }
}

/// Decodes `bytes` as `encoding` if that leaves nothing undecodable.
fn decode_cleanly(bytes: &[u8], encoding: Encoding) -> Option<Decoded<'_>> {
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
fn decode_as(bytes: &[u8], encoding: Encoding) -> Decoded<'_> {
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => match bytes.strip_prefix(BOM) {
            Some(body) => decode_utf8(body, BOM.len(), Encoding::Utf8Bom),
            None => decode_utf8(bytes, 0, Encoding::Utf8),
        },
        // ASCII means the same in all three encodings.
        Encoding::Cp932 | Encoding::EucJp => match std::str::from_utf8(bytes) {
            Ok(text) if text.is_ascii() => Decoded::borrowed(text, encoding),
            _ => transcode(bytes, 0, encoding),
        },
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let bom = if encoding == Encoding::Utf16Le {
                BOM_UTF16_LE
            } else {
                BOM_UTF16_BE
            };
            match bytes.strip_prefix(bom) {
                Some(body) => transcode(body, bom.len(), encoding),
                None => transcode(bytes, 0, encoding),
            }
        }
    }
}

/// Decodes UTF-8 that starts `base` bytes into the input, borrowing it when it is valid.
fn decode_utf8(body: &[u8], base: usize, encoding: Encoding) -> Decoded<'_> {
    match std::str::from_utf8(body) {
        Ok(text) => Decoded::borrowed(text, encoding),
        Err(_) => transcode(body, base, encoding),
    }
}

/// Converts `bytes` (found `base` bytes into the input) into a new string, replacing
/// undecodable sequences with U+FFFD and recording where the first [`MAX_REPORTED`] were.
fn transcode(bytes: &[u8], base: usize, encoding: Encoding) -> Decoded<'static> {
    let mut decoder = encoding.codec().new_decoder_without_bom_handling();
    let capacity = decoder.max_utf8_buffer_length(bytes.len());
    let mut text = String::with_capacity(capacity.unwrap_or(bytes.len()));
    // (offset in the input, offset in `text`) of each undecodable sequence.
    let mut spots: Vec<(usize, usize)> = Vec::new();
    let mut read = 0;
    let mut finished = false;
    while !finished && spots.len() < MAX_REPORTED {
        let rest = bytes.get(read..).unwrap_or_default();
        let (result, consumed) =
            decoder.decode_to_string_without_replacement(rest, &mut text, true);
        read += consumed;
        match result {
            DecoderResult::InputEmpty => finished = true,
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
    // Enough has been reported: replace whatever else is bad without keeping track of it.
    while !finished {
        let rest = bytes.get(read..).unwrap_or_default();
        let (result, consumed, _) = decoder.decode_to_string(rest, &mut text, true);
        read += consumed;
        match result {
            CoderResult::InputEmpty => finished = true,
            CoderResult::OutputFull => {
                make_room(&mut text, &decoder, bytes.len().saturating_sub(read))
            }
        }
    }
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
/// the text up to the last of them.
fn locate(text: &str, spots: &[(usize, usize)]) -> Vec<Malformed> {
    let mut cursor = LineCursor::new();
    let mut done = 0;
    spots
        .iter()
        .map(|&(offset, at)| {
            cursor.advance(text.get(done..at).unwrap_or_default());
            done = at.max(done);
            Malformed {
                offset,
                line: cursor.line,
                column: cursor.column.saturating_add(1),
            }
        })
        .collect()
}

/// How many characters at the start of the text [`not_a_record`] looks at for binary data.
pub const BINARY_SAMPLE: usize = 4096;

/// Binary data: at least one in this many of the sampled characters is a control character
/// (other than tab, line feed, carriage return, form feed and the DOS end-of-file mark `^Z`)
/// or an undecodable byte, and at least [`BINARY_LEAST`] of them.
pub const BINARY_SHARE: usize = 10;
const BINARY_LEAST: usize = 8;

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

/// Keeps track of the line and column while walking through text.
struct LineCursor {
    /// 1-based line number.
    line: u32,
    /// Characters seen so far on this line.
    column: u32,
    /// Whether the last character was CR (so that a following LF does not end another line).
    after_cr: bool,
}

impl LineCursor {
    fn new() -> LineCursor {
        LineCursor {
            line: 1,
            column: 0,
            after_cr: false,
        }
    }

    fn advance(&mut self, text: &str) {
        for c in text.chars() {
            match c {
                '\r' => self.new_line(),
                '\n' if self.after_cr => {}
                '\n' => self.new_line(),
                _ => self.column = self.column.saturating_add(1),
            }
            self.after_cr = c == '\r';
        }
    }

    fn new_line(&mut self) {
        self.line = self.line.saturating_add(1);
        self.column = 0;
    }
}

/// The encoding named by a `#KIF`/`#KI2`/`'CSA` declaration near the start of the input.
fn declared_encoding(bytes: &[u8]) -> Option<Encoding> {
    let head = bytes.get(..DECLARATION_BYTES).unwrap_or(bytes);
    lines(head)
        .take(DECLARATION_LINES)
        .find_map(declaration_in_line)
}

/// The lines of `bytes`, split at CRLF, LF and lone CR (the breaks themselves left out).
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(bytes);
    std::iter::from_fn(move || {
        let current = rest?;
        let Some(end) = current.iter().position(|&b| b == b'\n' || b == b'\r') else {
            rest = None;
            return Some(current);
        };
        let crlf = current.get(end..end + 2) == Some(b"\r\n");
        rest = current.get(end + if crlf { 2 } else { 1 }..);
        current.get(..end)
    })
}

/// The encoding declared in one line: `#KIF version=2.0 encoding=UTF-8`, the same with `#KI2`,
/// or `'CSA encoding=SHIFT_JIS`. The keyword and `encoding` ignore ASCII case.
fn declaration_in_line(line: &[u8]) -> Option<Encoding> {
    const KEYWORDS: [&[u8]; 3] = [b"#KIF", b"#KI2", b"'CSA"];
    const KEY: &[u8] = b"encoding";
    let starts_with = |prefix: &[u8]| {
        line.get(..prefix.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
    };
    if !KEYWORDS.iter().any(|keyword| starts_with(keyword)) {
        return None;
    }
    let key = line
        .windows(KEY.len())
        .position(|window| window.eq_ignore_ascii_case(KEY))?;
    let value = line.get(key + KEY.len()..)?.trim_ascii_start();
    let value = value.strip_prefix(b"=")?.trim_ascii_start();
    let end = value
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b';' || b == b',')
        .unwrap_or(value.len());
    let label = std::str::from_utf8(value.get(..end)?).ok()?;
    Encoding::from_label(label)
}

/// Whether the bytes are clearly EUC-JP: some non-ASCII text, all of it in well-formed EUC-JP
/// sequences, except at most one stray byte per [`EUC_JP_TOLERANCE`] sequences and a sequence
/// cut short by the end of the input (damage that decoding then reports). See the module
/// documentation for why CP932 text practically never passes.
fn looks_like_euc_jp(bytes: &[u8]) -> bool {
    let mut good = 0;
    let mut bad = 0;
    let mut at = 0;
    while let Some(rest) = bytes.get(at..).filter(|rest| !rest.is_empty()) {
        // Runs of ASCII, most of a record, are skipped eight bytes at a time.
        let ascii = ascii_prefix_len(rest);
        if ascii > 0 {
            at += ascii;
            continue;
        }
        match euc_jp_sequence(rest) {
            EucJpSequence::Ascii => at += 1,
            EucJpSequence::Multibyte(len) => {
                good += 1;
                at += len;
            }
            EucJpSequence::Truncated => break,
            EucJpSequence::Invalid => {
                bad += 1;
                at += 1;
                // Stop as soon as even a perfect remainder could not make up for it.
                let best_possible = good + bytes.len().saturating_sub(at) / 2;
                if too_damaged(best_possible, bad) {
                    return false;
                }
            }
        }
    }
    good > 0 && !too_damaged(good, bad)
}

/// How many bytes at the start of `bytes` are ASCII.
fn ascii_prefix_len(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut len = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let high = word & HIGH;
        if high != 0 {
            return len + (high.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len + chunks
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .unwrap_or(chunks.remainder().len())
}

/// One stray byte is forgiven per this many well-formed EUC-JP sequences. CP932 Japanese
/// text has a stray byte (for EUC-JP) in nearly every other character.
const EUC_JP_TOLERANCE: usize = 32;

fn too_damaged(good: usize, bad: usize) -> bool {
    bad.saturating_mul(EUC_JP_TOLERANCE) > good
}

/// What starts at the first byte of a (non-empty) slice, read as EUC-JP.
#[derive(Debug, PartialEq, Eq)]
enum EucJpSequence {
    /// An ASCII byte.
    Ascii,
    /// A well-formed character of this many bytes: a JIS X 0208 pair, `8E` and a half-width
    /// katakana, or `8F` and a JIS X 0212 pair.
    Multibyte(usize),
    /// The start of a well-formed character that the input ends in the middle of.
    Truncated,
    /// A byte that cannot start a character here.
    Invalid,
}

fn euc_jp_sequence(bytes: &[u8]) -> EucJpSequence {
    const JIS: std::ops::RangeInclusive<u8> = 0xA1..=0xFE;
    const HALF_WIDTH_KANA: std::ops::RangeInclusive<u8> = 0xA1..=0xDF;
    let Some((&first, tail)) = bytes.split_first() else {
        return EucJpSequence::Invalid;
    };
    let (len, trail) = match first {
        0x00..=0x7F => return EucJpSequence::Ascii,
        0x8E => (2, HALF_WIDTH_KANA),
        0x8F => (3, JIS),
        0xA1..=0xFE => (2, JIS),
        _ => return EucJpSequence::Invalid,
    };
    let present = tail.get(..len - 1).unwrap_or(tail);
    if !present.iter().all(|b| trail.contains(b)) {
        EucJpSequence::Invalid
    } else if present.len() < len - 1 {
        EucJpSequence::Truncated
    } else {
        EucJpSequence::Multibyte(len)
    }
}

/// For a file no encoding decodes cleanly: the encoding that leaves the fewest undecodable
/// sequences, ties going to the declared one, then the hinted one, then CP932, UTF-8, EUC-JP.
fn least_damaged(bytes: &[u8], declared: Option<Encoding>, hint: ExtensionHint) -> Encoding {
    let hinted = match hint {
        ExtensionHint::Utf8 => Encoding::Utf8,
        ExtensionHint::Legacy | ExtensionHint::None => Encoding::Cp932,
    };
    let utf8 = count_malformed(bytes, Encoding::Utf8);
    let cp932 = count_malformed(bytes, Encoding::Cp932);
    let euc_jp = count_malformed(bytes, Encoding::EucJp);
    let damage = |encoding: &Encoding| match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => utf8,
        Encoding::Cp932 => cp932,
        Encoding::EucJp => euc_jp,
        // Only ever chosen by its byte-order mark.
        Encoding::Utf16Le | Encoding::Utf16Be => usize::MAX,
    };
    let preference = [
        declared,
        Some(hinted),
        Some(Encoding::Cp932),
        Some(Encoding::Utf8),
        Some(Encoding::EucJp),
    ];
    preference
        .into_iter()
        .flatten()
        // `min_by_key` keeps the first of equal minima, so the order above breaks ties.
        .min_by_key(damage)
        .unwrap_or(Encoding::Cp932)
}

/// How many undecodable sequences decoding `bytes` as `encoding` meets, without keeping the text.
fn count_malformed(bytes: &[u8], encoding: Encoding) -> usize {
    let mut decoder = encoding.codec().new_decoder_without_bom_handling();
    let mut scratch = [0u8; 4096];
    let mut read = 0;
    let mut count = 0;
    loop {
        let rest = bytes.get(read..).unwrap_or_default();
        let (result, consumed, _) =
            decoder.decode_to_utf8_without_replacement(rest, &mut scratch, true);
        read += consumed;
        match result {
            DecoderResult::InputEmpty => return count,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(..) => count += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_prefix_len_finds_the_first_high_byte() {
        for len in 0..20 {
            let mut bytes = vec![b'a'; 20];
            assert_eq!(ascii_prefix_len(&bytes[..len]), len);
            if len < 20 {
                bytes[len] = 0xA4;
                assert_eq!(ascii_prefix_len(&bytes), len, "high byte at {len}");
            }
        }
    }

    const KIFU: &str = "先手：羽生善治\n後手：谷川浩司\n▲７六歩　△３四歩\n";

    fn auto(bytes: &[u8]) -> Decoded<'_> {
        decode(bytes, EncodingChoice::Auto, ExtensionHint::None)
    }

    fn encode(text: &str, encoding: &'static encoding_rs::Encoding) -> Vec<u8> {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(!unmappable, "{text:?} is not all in {}", encoding.name());
        bytes.into_owned()
    }

    fn cp932(text: &str) -> Vec<u8> {
        encode(text, encoding_rs::SHIFT_JIS)
    }

    fn euc_jp(text: &str) -> Vec<u8> {
        encode(text, encoding_rs::EUC_JP)
    }

    fn at(offset: usize, line: u32, column: u32) -> Malformed {
        Malformed {
            offset,
            line,
            column,
        }
    }

    fn is_borrowed(decoded: &Decoded<'_>) -> bool {
        matches!(decoded.text, Cow::Borrowed(_))
    }

    const ALL_CHOICES: [EncodingChoice; 5] = [
        EncodingChoice::Auto,
        EncodingChoice::Forced(Encoding::Utf8),
        EncodingChoice::Forced(Encoding::Utf8Bom),
        EncodingChoice::Forced(Encoding::Cp932),
        EncodingChoice::Forced(Encoding::EucJp),
    ];

    const ALL_HINTS: [ExtensionHint; 3] = [
        ExtensionHint::None,
        ExtensionHint::Utf8,
        ExtensionHint::Legacy,
    ];

    #[test]
    fn empty_input_is_empty_text() {
        for choice in ALL_CHOICES {
            let decoded = decode(b"", choice, ExtensionHint::Legacy);
            assert_eq!(decoded.text, "");
            assert!(decoded.malformed.is_empty());
            assert!(is_borrowed(&decoded));
        }
        assert_eq!(auto(b"").encoding, Encoding::Utf8);
    }

    #[test]
    fn bom_means_utf8_and_is_not_part_of_the_text() {
        let bytes = [BOM, KIFU.as_bytes()].concat();
        let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Legacy);
        assert_eq!(decoded.encoding, Encoding::Utf8Bom);
        assert_eq!(decoded.text, KIFU);
        assert!(is_borrowed(&decoded));
    }

    #[test]
    fn bom_wins_over_a_declaration() {
        let bytes = [
            BOM,
            b"#KIF version=2.0 encoding=Shift_JIS\n",
            KIFU.as_bytes(),
        ]
        .concat();
        assert_eq!(auto(&bytes).encoding, Encoding::Utf8Bom);
    }

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|unit| {
                if big_endian {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn utf16_with_a_bom_is_decoded() {
        for (bom, big_endian, encoding) in [
            (BOM_UTF16_LE, false, Encoding::Utf16Le),
            (BOM_UTF16_BE, true, Encoding::Utf16Be),
        ] {
            let bytes = [bom, &utf16(KIFU, big_endian)].concat();
            for hint in ALL_HINTS {
                let decoded = decode(&bytes, EncodingChoice::Auto, hint);
                assert_eq!(decoded.encoding, encoding);
                assert_eq!(decoded.text, KIFU);
                assert!(decoded.malformed.is_empty());
                assert_eq!(not_a_record(&bytes, &decoded), None);
            }
            // Forced, with or without its mark.
            for input in [bytes.clone(), utf16(KIFU, big_endian)] {
                let forced = decode(
                    &input,
                    EncodingChoice::Forced(encoding),
                    ExtensionHint::None,
                );
                assert_eq!(forced.text, KIFU);
            }
            // A final odd byte is damage, located after the BOM and the text.
            let cut = [bytes.as_slice(), b"\x41"].concat();
            let decoded = auto(&cut);
            assert_eq!(decoded.text, format!("{KIFU}\u{FFFD}"));
            assert_eq!(decoded.malformed, [at(cut.len() - 1, 4, 1)]);
        }
    }

    #[test]
    fn what_is_not_a_record() {
        let reason = |bytes: &[u8]| not_a_record(bytes, &auto(bytes)).map(|n| (n.offset, n.reason));
        assert_eq!(reason(b""), Some((0, "the input is empty".into())));
        assert_eq!(
            reason("\r\n \u{3000}\n".as_bytes()),
            Some((
                0,
                "the input holds nothing but white space (7 bytes)".into()
            ))
        );
        assert_eq!(
            reason([BOM, b"\n"].concat().as_slice()).map(|r| r.0),
            Some(0)
        );
        // UTF-16 without its mark: NUL characters, with a guess.
        let (offset, why) = reason(&utf16("PI\n+\n", false)).unwrap();
        assert_eq!(offset, 1);
        assert!(why.contains("UTF-16 LE without a byte-order mark"), "{why}");
        let (offset, why) = reason(&utf16("PI\n+\n", true)).unwrap();
        assert_eq!(offset, 0);
        assert!(why.contains("UTF-16 BE"), "{why}");
        let (_, why) = reason(&[0; 100]).unwrap();
        assert_eq!(why, "a NUL character: binary data, not text");
        // Binary data: control characters and undecodable bytes.
        let (offset, why) = reason(b"ab\x01\x02\x03\x04\x05\x06\x07\x08cd").unwrap();
        assert_eq!(offset, 2);
        assert!(
            why.starts_with("binary data (8 of the first 12 characters"),
            "{why}"
        );
        assert!(reason(&[0xFF; 64]).unwrap().1.starts_with("binary data"));
        // A few control characters in text are not binary data.
        assert_eq!(reason(b"PI\n+\n+7776FU\x1b[31m\n\x0c\x1a"), None);
        assert_eq!(reason(KIFU.as_bytes()), None);
    }

    #[test]
    fn forcing_utf8_still_removes_a_bom() {
        let bytes = [BOM, b"abc"].concat();
        for encoding in [Encoding::Utf8, Encoding::Utf8Bom] {
            let decoded = decode(
                &bytes,
                EncodingChoice::Forced(encoding),
                ExtensionHint::None,
            );
            assert_eq!(decoded.text, "abc");
            assert_eq!(decoded.encoding, Encoding::Utf8Bom);
        }
        let plain = decode(
            b"abc",
            EncodingChoice::Forced(Encoding::Utf8Bom),
            ExtensionHint::None,
        );
        assert_eq!(plain.encoding, Encoding::Utf8);
    }

    #[test]
    fn valid_utf8_is_borrowed_not_copied() {
        let decoded = auto(KIFU.as_bytes());
        assert_eq!(decoded.encoding, Encoding::Utf8);
        assert!(is_borrowed(&decoded));
        assert_eq!(decoded.text, KIFU);
    }

    #[test]
    fn utf8_in_a_kif_file_is_utf8() {
        let decoded = decode(KIFU.as_bytes(), EncodingChoice::Auto, ExtensionHint::Legacy);
        assert_eq!(decoded.encoding, Encoding::Utf8);
        assert_eq!(decoded.text, KIFU);
    }

    #[test]
    fn cp932_text_is_detected() {
        let bytes = cp932(KIFU);
        for hint in ALL_HINTS {
            let decoded = decode(&bytes, EncodingChoice::Auto, hint);
            assert_eq!(decoded.encoding, Encoding::Cp932);
            assert_eq!(decoded.text, KIFU);
            assert!(decoded.malformed.is_empty());
        }
    }

    #[test]
    fn cp932_extensions_decode() {
        // NEC row 13 (①), an IBM extension (髙), and 0x8160 as Windows reads it (U+FF5E, not
        // the U+301C of JIS X 0208).
        let cases: [(&[u8], &str); 3] = [
            (b"\x87\x40", "①"),
            (b"\xFB\xFC", "髙"),
            (b"\x81\x60", "\u{FF5E}"),
        ];
        for (bytes, expected) in cases {
            let forced = decode(
                bytes,
                EncodingChoice::Forced(Encoding::Cp932),
                ExtensionHint::None,
            );
            assert_eq!(forced.text, expected);
            assert!(forced.malformed.is_empty());
            // Detected in context. (FB FC alone is also a valid EUC-JP pair: two bytes are too
            // few to tell the encodings apart.)
            let line = [cp932("先手：").as_slice(), bytes].concat();
            let detected = auto(&line);
            assert_eq!(detected.encoding, Encoding::Cp932);
            assert_eq!(detected.text, format!("先手：{expected}"));
        }
        let name = [
            b"\x8E\xE8\x8D\x87\x81\x46".as_slice(),
            b"\x87\x40\x8D\xB2\x8B\xB4\xFB\xFC\x81\x60",
        ]
        .concat();
        assert_eq!(auto(&name).text, "手合：①佐橋髙～");
    }

    #[test]
    fn euc_jp_text_is_detected() {
        let bytes = euc_jp(KIFU);
        for hint in ALL_HINTS {
            let decoded = decode(&bytes, EncodingChoice::Auto, hint);
            assert_eq!(decoded.encoding, Encoding::EucJp, "hint {hint:?}");
            assert_eq!(decoded.text, KIFU);
            assert!(decoded.malformed.is_empty());
        }
        // Half-width katakana (single shift 2) and JIS X 0212 (single shift 3) are EUC-JP too.
        // (encoding_rs encodes no JIS X 0212, so 丂 is written out: 8F B0 A1.)
        let bytes = [euc_jp("先手：ﾊﾌﾞ ").as_slice(), b"\x8F\xB0\xA1"].concat();
        let decoded = auto(&bytes);
        assert_eq!(
            (decoded.encoding, decoded.text.as_ref()),
            (Encoding::EucJp, "先手：ﾊﾌﾞ 丂")
        );
    }

    #[test]
    fn euc_jp_is_also_well_formed_cp932_which_is_why_it_is_tested_first() {
        let bytes = euc_jp("後手：谷川浩司");
        assert_eq!(count_malformed(&bytes, Encoding::Cp932), 0);
        assert!(looks_like_euc_jp(&bytes));
    }

    #[test]
    fn cp932_is_not_mistaken_for_euc_jp() {
        for text in [
            KIFU,
            "N+羽生善治\nN-谷川浩司\n+7776FU\n",
            "同　歩",
            "▲",
            "７六",
        ] {
            assert!(!looks_like_euc_jp(&cp932(text)), "{text}");
        }
        assert!(!looks_like_euc_jp(b"plain ASCII"));
    }

    #[test]
    fn declared_encoding_wins_over_valid_utf8() {
        // C3 A9 is "é" in UTF-8 and "ﾃｩ" (two half-width katakana) in CP932.
        let bytes = b"#KIF version=2.0 encoding=Shift_JIS\r\n\xC3\xA9\r\n";
        let decoded = auto(bytes);
        assert_eq!(decoded.encoding, Encoding::Cp932);
        assert_eq!(
            decoded.text,
            "#KIF version=2.0 encoding=Shift_JIS\r\nﾃｩ\r\n"
        );
        let undeclared = auto(b"\xC3\xA9\r\n");
        assert_eq!(
            (undeclared.encoding, undeclared.text.as_ref()),
            (Encoding::Utf8, "é\r\n")
        );
    }

    #[test]
    fn declarations_in_every_format_are_read() {
        let cases: [(&[u8], Option<Encoding>); 9] = [
            (b"#KIF version=2.0 encoding=UTF-8\r\n", Some(Encoding::Utf8)),
            (
                b"#KIF version=2.0 encoding=Shift_JIS\n",
                Some(Encoding::Cp932),
            ),
            (b"#KI2 version=2.0 encoding=EUC-JP", Some(Encoding::EucJp)),
            (b"'CSA encoding=SHIFT_JIS\nV2.2\n", Some(Encoding::Cp932)),
            (b"V2.2\r'CSA encoding=UTF-8\r", Some(Encoding::Utf8)),
            (b"# comment\n\n#KIF encoding=UTF-8\n", None),
            (b"#KIF version=2.0 encoding=ISO-2022-JP\n", None),
            (b"x #KIF encoding=UTF-8\n", None),
            (b"#KIF version=2.0\n", None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(
                declared_encoding(bytes),
                expected,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        let far = [
            [b' '; DECLARATION_BYTES].as_slice(),
            b"\n#KIF encoding=UTF-8\n",
        ]
        .concat();
        assert_eq!(declared_encoding(&far), None);
    }

    #[test]
    fn declared_euc_jp_and_declared_utf8_are_used() {
        let euc = [
            b"#KIF version=2.0 encoding=EUC-JP\n".as_slice(),
            &euc_jp(KIFU),
        ]
        .concat();
        assert_eq!(auto(&euc).encoding, Encoding::EucJp);
        let utf8 = format!("'CSA encoding=UTF-8\n{KIFU}");
        let decoded = decode(utf8.as_bytes(), EncodingChoice::Auto, ExtensionHint::Legacy);
        assert_eq!(decoded.encoding, Encoding::Utf8);
        assert!(is_borrowed(&decoded));
    }

    #[test]
    fn a_declaration_the_bytes_contradict_is_set_aside() {
        // As in real files: CP932 bytes under a header that still says UTF-8.
        let header = "#KIF version=2.0 encoding=UTF-8\r\n";
        let bytes = cp932(&format!("{header}{KIFU}"));
        let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Legacy);
        assert_eq!(decoded.encoding, Encoding::Cp932);
        assert_eq!(decoded.text, format!("{header}{KIFU}"));
        assert!(decoded.malformed.is_empty());
    }

    #[test]
    fn ascii_declared_as_shift_jis_is_still_borrowed() {
        let bytes = b"#KIF version=2.0 encoding=Shift_JIS\n1 7g7f\n";
        let decoded = auto(bytes);
        assert_eq!(decoded.encoding, Encoding::Cp932);
        assert!(is_borrowed(&decoded));
    }

    #[test]
    fn cp932_cut_inside_a_character_is_reported() {
        let mut bytes = cp932(KIFU.trim_end());
        bytes.pop(); // half of 歩
        let decoded = auto(&bytes);
        assert_eq!(decoded.encoding, Encoding::Cp932);
        assert_eq!(decoded.malformed, [at(bytes.len() - 1, 3, 9)]);
        assert_eq!(
            decoded.text,
            "先手：羽生善治\n後手：谷川浩司\n▲７六歩　△３四\u{FFFD}"
        );
    }

    #[test]
    fn malformed_lines_count_crlf_lf_and_lone_cr_once_each() {
        let bytes = b"a\r\nb\rc\n\r\nd\xFFe\r\xFF";
        let decoded = decode(
            bytes,
            EncodingChoice::Forced(Encoding::Utf8),
            ExtensionHint::None,
        );
        assert_eq!(decoded.malformed, [at(10, 5, 2), at(13, 6, 1)]);
        assert_eq!(decoded.text, "a\r\nb\rc\n\r\nd\u{FFFD}e\r\u{FFFD}");
    }

    #[test]
    fn malformed_columns_count_characters() {
        let bytes = [cp932("▲７六歩").as_slice(), b"\xFD", b"\n\x81"].concat();
        let decoded = auto(&bytes);
        assert_eq!(decoded.encoding, Encoding::Cp932);
        assert_eq!(decoded.malformed, [at(8, 1, 5), at(10, 2, 1)]);
    }

    #[test]
    fn malformed_offsets_count_the_bom() {
        let decoded = auto(b"\xEF\xBB\xBFab\xFF");
        assert_eq!(decoded.encoding, Encoding::Utf8Bom);
        assert_eq!(decoded.malformed, [at(5, 1, 3)]);
    }

    #[test]
    fn an_ascii_byte_after_a_lead_byte_is_kept() {
        let decoded = decode(
            b"\x82\nX",
            EncodingChoice::Forced(Encoding::Cp932),
            ExtensionHint::None,
        );
        assert_eq!(decoded.text, "\u{FFFD}\nX");
        assert_eq!(decoded.malformed, [at(0, 1, 1)]);
    }

    #[test]
    fn only_the_first_malformed_sequences_are_listed_but_all_are_replaced() {
        let bytes = b"\xFF\n".repeat(40);
        let decoded = auto(&bytes);
        assert_eq!(decoded.malformed.len(), MAX_REPORTED);
        assert_eq!(decoded.malformed[15], at(30, 16, 1));
        assert_eq!(decoded.text, "\u{FFFD}\n".repeat(40));
    }

    #[test]
    fn a_damaged_file_takes_the_least_damaged_encoding() {
        let bytes = [KIFU.as_bytes(), b"\xFF", KIFU.as_bytes()].concat();
        assert!(count_malformed(&bytes, Encoding::Cp932) > 1);
        let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Legacy);
        assert_eq!(decoded.encoding, Encoding::Utf8);
        assert_eq!(decoded.malformed, [at(KIFU.len(), 4, 1)]);

        let bytes = [cp932(KIFU).as_slice(), b"\xFF"].concat();
        let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Utf8);
        assert_eq!(decoded.encoding, Encoding::Cp932);
    }

    #[test]
    fn damaged_euc_jp_is_still_euc_jp() {
        // Cut in the middle of a character.
        let mut bytes = euc_jp(KIFU.trim_end());
        bytes.pop();
        let decoded = auto(&bytes);
        assert_eq!(decoded.encoding, Encoding::EucJp);
        assert_eq!(decoded.malformed, [at(bytes.len() - 1, 3, 9)]);
        // A stray byte in a longer text.
        let long = KIFU.repeat(3);
        let bytes = [euc_jp(&long).as_slice(), b"\x80", &euc_jp(&long)].concat();
        let decoded = auto(&bytes);
        assert_eq!(decoded.encoding, Encoding::EucJp);
        assert_eq!(decoded.malformed, [at(euc_jp(&long).len(), 10, 1)]);
        assert_eq!(decoded.text, format!("{long}\u{FFFD}{long}"));
    }

    #[test]
    fn ties_go_to_the_declaration_then_the_hint_then_cp932() {
        let bytes = b"abc\xFF";
        let with = |hint| decode(bytes, EncodingChoice::Auto, hint).encoding;
        assert_eq!(with(ExtensionHint::Utf8), Encoding::Utf8);
        assert_eq!(with(ExtensionHint::Legacy), Encoding::Cp932);
        assert_eq!(with(ExtensionHint::None), Encoding::Cp932);
        let declared = auto(b"#KIF encoding=EUC-JP\nabc\xFF");
        assert_eq!(declared.encoding, Encoding::EucJp);
        assert_eq!(declared.malformed, [at(24, 2, 4)]);
    }

    #[test]
    fn forced_encodings_are_obeyed() {
        let bytes = euc_jp(KIFU);
        let forced = decode(
            &bytes,
            EncodingChoice::Forced(Encoding::Cp932),
            ExtensionHint::None,
        );
        assert_eq!(forced.encoding, Encoding::Cp932);
        assert_ne!(forced.text, KIFU);
        let bytes = cp932(KIFU);
        let forced = decode(
            &bytes,
            EncodingChoice::Forced(Encoding::EucJp),
            ExtensionHint::None,
        );
        assert_eq!(forced.encoding, Encoding::EucJp);
        assert!(!forced.malformed.is_empty());
    }

    #[test]
    fn line_endings_and_a_missing_final_newline_are_kept() {
        for text in ["a\r\nb", "a\rb\r", "a\nb\n", "▲７六歩\r\n△３四歩"] {
            assert_eq!(auto(text.as_bytes()).text, text);
            assert_eq!(auto(&cp932(text)).text, text);
        }
    }

    #[test]
    fn labels() {
        let cases = [
            ("utf-8", Some(Encoding::Utf8)),
            ("UTF-8", Some(Encoding::Utf8)),
            ("utf8", Some(Encoding::Utf8)),
            ("Utf_8", Some(Encoding::Utf8)),
            ("sjis", Some(Encoding::Cp932)),
            ("SJIS", Some(Encoding::Cp932)),
            ("Shift_JIS", Some(Encoding::Cp932)),
            ("SHIFT_JIS", Some(Encoding::Cp932)),
            ("shift-jis", Some(Encoding::Cp932)),
            ("cp932", Some(Encoding::Cp932)),
            ("CP932", Some(Encoding::Cp932)),
            ("MS932", Some(Encoding::Cp932)),
            ("Windows-31J", Some(Encoding::Cp932)),
            ("euc-jp", Some(Encoding::EucJp)),
            ("EUC_JP", Some(Encoding::EucJp)),
            ("eucjp", Some(Encoding::EucJp)),
            (" \"UTF-8\" ", Some(Encoding::Utf8)),
            ("", None),
            ("utf-16", None),
            ("latin1", None),
            ("utf-8x", None),
            ("ＵＴＦ-８", None),
        ];
        for (label, expected) in cases {
            assert_eq!(Encoding::from_label(label), expected, "{label:?}");
        }
    }

    #[test]
    fn names() {
        let names = [
            Encoding::Utf8,
            Encoding::Utf8Bom,
            Encoding::Cp932,
            Encoding::EucJp,
        ]
        .map(Encoding::name);
        assert_eq!(
            names,
            ["UTF-8", "UTF-8 (BOM)", "Shift_JIS (CP932)", "EUC-JP"]
        );
    }

    #[test]
    fn extension_hints() {
        let cases = [
            ("game.kifu", ExtensionHint::Utf8),
            ("game.KI2U", ExtensionHint::Utf8),
            ("game.jkf", ExtensionHint::Utf8),
            ("game.json", ExtensionHint::Utf8),
            ("game.kif", ExtensionHint::Legacy),
            ("dir.x/GAME.KIF", ExtensionHint::Legacy),
            ("game.ki2", ExtensionHint::Legacy),
            ("game.csa", ExtensionHint::Legacy),
            ("game.txt", ExtensionHint::None),
            ("kif", ExtensionHint::None),
            ("", ExtensionHint::None),
        ];
        for (path, expected) in cases {
            assert_eq!(
                ExtensionHint::from_path(Path::new(path)),
                expected,
                "{path}"
            );
        }
    }

    /// A tiny deterministic generator (xorshift64), enough to make varied byte strings.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Random input shaped like the interesting cases: lead bytes, line breaks, BOMs and
    /// declarations appear far more often than in uniform noise.
    fn random_input(rng: &mut XorShift) -> Vec<u8> {
        const PREFIXES: [&[u8]; 5] = [
            b"",
            BOM,
            b"#KIF version=2.0 encoding=UTF-8\r\n",
            b"#KIF version=2.0 encoding=Shift_JIS\n",
            b"'CSA encoding=EUC-JP\r",
        ];
        const PIECES: [u8; 10] = [b'\r', b'\n', b'a', 0x81, 0x82, 0x8E, 0x8F, 0xA4, 0xE3, 0xFF];
        let mut bytes = PREFIXES[rng.below(PREFIXES.len())].to_vec();
        for _ in 0..rng.below(48) {
            let byte = match rng.below(3) {
                0 => PIECES[rng.below(PIECES.len())],
                _ => rng.next() as u8,
            };
            bytes.push(byte);
        }
        bytes
    }

    /// Line breaks before `offset`, counted on the raw bytes (CR, LF and CRLF are ASCII and
    /// survive every decoding unchanged).
    fn line_of(bytes: &[u8], offset: usize) -> u32 {
        let before = &bytes[..offset];
        let breaks = before
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\r' || (b == b'\n' && (i == 0 || before[i - 1] != b'\r')))
            .count();
        breaks as u32 + 1
    }

    #[test]
    fn random_bytes_never_panic_and_every_report_is_consistent() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let bytes = random_input(&mut rng);
            for choice in ALL_CHOICES {
                for hint in ALL_HINTS {
                    let decoded = decode(&bytes, choice, hint);
                    let context = format!("{bytes:02X?} {choice:?} {hint:?}");
                    assert!(decoded.malformed.len() <= MAX_REPORTED, "{context}");
                    let replacements = decoded.text.matches(char::REPLACEMENT_CHARACTER).count();
                    assert!(replacements >= decoded.malformed.len(), "{context}");
                    assert!(
                        decoded
                            .malformed
                            .windows(2)
                            .all(|w| w[0].offset < w[1].offset),
                        "{context}"
                    );
                    for spot in &decoded.malformed {
                        assert!(spot.offset < bytes.len(), "{context}");
                        assert!(spot.column >= 1, "{context}");
                        assert_eq!(spot.line, line_of(&bytes, spot.offset), "{context}");
                    }
                    if choice == EncodingChoice::Auto && decoded.encoding == Encoding::Utf8 {
                        if let Ok(text) = std::str::from_utf8(&bytes) {
                            assert_eq!(decoded.text, text, "{context}");
                            assert!(is_borrowed(&decoded), "{context}");
                        }
                    }
                }
            }
        }
    }

    /// Reads a file of the shared corpus, or `None` (with a note) when the corpus is absent.
    fn corpus_file(path: &str) -> Option<Vec<u8>> {
        let full = format!("{}/../shared/corpus/{path}", env!("CARGO_MANIFEST_DIR"));
        match std::fs::read(&full) {
            Ok(bytes) => Some(bytes),
            Err(error) => {
                eprintln!("skipped: cannot read {full}: {error}");
                None
            }
        }
    }

    /// Decodes a corpus file as the converter would, with the hint from its name.
    fn decode_corpus_file<'a>(path: &str, bytes: &'a [u8]) -> Decoded<'a> {
        decode(
            bytes,
            EncodingChoice::Auto,
            ExtensionHint::from_path(Path::new(path)),
        )
    }

    #[test]
    fn corpus_pairs_in_cp932_and_utf8_decode_to_the_same_text() {
        let pairs = [
            ("shogihome/encoding/sjis.kif", "shogihome/encoding/utf8.kif"),
            ("shogihome/encoding/sjis.ki2", "shogihome/encoding/utf8.ki2"),
            (
                "maou/tests/maou/app/converter/resources/test_dir/input/test_data_sjis.kif",
                "maou/rust/maou_shogi/tests/fixtures/kifu/kif_gen_test_data_1.kifu",
            ),
        ];
        for (sjis_path, utf8_path) in pairs {
            let (Some(sjis), Some(utf8)) = (corpus_file(sjis_path), corpus_file(utf8_path)) else {
                continue;
            };
            let from_sjis = decode_corpus_file(sjis_path, &sjis);
            let from_utf8 = decode_corpus_file(utf8_path, &utf8);
            assert_eq!(from_sjis.encoding, Encoding::Cp932, "{sjis_path}");
            assert_eq!(from_utf8.encoding, Encoding::Utf8, "{utf8_path}");
            assert!(from_sjis.malformed.is_empty() && from_utf8.malformed.is_empty());
            assert!(is_borrowed(&from_utf8));
            assert_eq!(from_sjis.text, from_utf8.text, "{sjis_path} vs {utf8_path}");
        }
    }

    #[test]
    fn corpus_euc_jp_csa_file() {
        let path = "json-kifu-format/csa/2005_YAMADA_GPS.csa";
        let Some(bytes) = corpus_file(path) else {
            return;
        };
        let decoded = decode_corpus_file(path, &bytes);
        assert_eq!(decoded.encoding, Encoding::EucJp);
        assert!(decoded.malformed.is_empty());
        assert!(decoded
            .text
            .starts_with("'対局者\nN+gps\nN-山田将棋 Version 2.18"));
    }

    /// Every corpus file decodes cleanly, in the encoding its manifest records.
    #[test]
    fn corpus_files_decode_as_their_manifest_says() {
        let Some(manifest) = corpus_file("MANIFEST.tsv") else {
            return;
        };
        let manifest = String::from_utf8(manifest).expect("the manifest is UTF-8");
        let mut checked = 0;
        for row in manifest.lines().skip(1) {
            let fields: Vec<&str> = row.split('\t').collect();
            let (Some(path), Some(recorded)) = (fields.first(), fields.get(5)) else {
                continue;
            };
            let Some(bytes) = corpus_file(path) else {
                continue;
            };
            let decoded = decode_corpus_file(path, &bytes);
            assert!(
                decoded.malformed.is_empty(),
                "{path}: {:?}",
                decoded.malformed
            );
            match *recorded {
                // Pure ASCII reads the same in every encoding; a declaration may name any.
                "ascii" => {
                    assert!(is_borrowed(&decoded) && decoded.text.as_bytes() == bytes.as_slice())
                }
                "utf-8" => assert_eq!(decoded.encoding, Encoding::Utf8, "{path}"),
                "utf-8-bom" => assert_eq!(decoded.encoding, Encoding::Utf8Bom, "{path}"),
                "cp932" => assert_eq!(decoded.encoding, Encoding::Cp932, "{path}"),
                "euc-jp" => assert_eq!(decoded.encoding, Encoding::EucJp, "{path}"),
                other => panic!("{path}: unknown encoding {other:?} in the manifest"),
            }
            checked += 1;
        }
        eprintln!("checked {checked} corpus files");
    }
}
