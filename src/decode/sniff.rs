//! Which encoding the bytes are in, when nothing forces one: the byte-order mark, a
//! declaration, UTF-8, a test for EUC-JP, CP932, and for damaged input the encoding that
//! leaves the fewest undecodable sequences (the rules of the [module](super) documentation).

use super::{decode_as, decode_cleanly, AsciiTail, Decoded, Detected, Encoding, ExtensionHint};
use super::{BOM, BOM_UTF16_BE, BOM_UTF16_LE};
use encoding_rs::DecoderResult;

/// How far into the input a `#KIF … encoding=` declaration is looked for, in bytes and lines.
pub(super) const DECLARATION_BYTES: usize = 512;
const DECLARATION_LINES: usize = 2;

/// The detection order of the module documentation up to UTF-8: the
/// text, when a byte-order mark or a declaration decides, else
/// [`Detected::Cp932`] for declared CP932 (CP932 if it decodes cleanly)
/// and [`Detected::Utf8`] for the rest (UTF-8 if it is valid).
pub(super) fn detect(bytes: &[u8]) -> Detected<'_> {
    if bytes.starts_with(BOM) {
        return Detected::Decoded(decode_as(bytes, Encoding::Utf8Bom));
    }
    if bytes.starts_with(BOM_UTF16_LE) {
        return Detected::Decoded(decode_as(bytes, Encoding::Utf16Le));
    }
    if bytes.starts_with(BOM_UTF16_BE) {
        return Detected::Decoded(decode_as(bytes, Encoding::Utf16Be));
    }
    if let Some(decoded) = utf16_unmarked(bytes) {
        return Detected::Decoded(decoded);
    }
    match declared_encoding(bytes) {
        // Clean, declared CP932 is CP932, as it is undeclared.
        Some(Encoding::Cp932) => Detected::Cp932(AsciiTail::default()),
        Some(encoding) => decode_cleanly(bytes, encoding).map_or(Detected::Utf8, Detected::Decoded),
        None => Detected::Utf8,
    }
}

/// UTF-16 without its byte-order mark (rule 1 of the module documentation):
/// zero bytes where UTF-16's ASCII characters put them, and the bytes
/// decoding cleanly to text with no NUL character.
fn utf16_unmarked(bytes: &[u8]) -> Option<Decoded<'_>> {
    memchr::memchr(0, bytes)?;
    let encoding = match super::binary::utf16_without_bom(bytes)? {
        "LE" => Encoding::Utf16Le,
        _ => Encoding::Utf16Be,
    };
    let decoded = decode_cleanly(bytes, encoding)?;
    (!decoded.text.contains('\0')).then_some(decoded)
}

/// The rules after UTF-8, for input that is not valid UTF-8: EUC-JP when
/// it clearly is, else CP932 if it decodes cleanly.
pub(super) fn detect_not_utf8(bytes: &[u8]) -> Detected<'_> {
    let tail = AsciiTail::of(bytes);
    if looks_like_euc_jp(bytes, tail) {
        return Detected::Decoded(decode_as(bytes, Encoding::EucJp));
    }
    Detected::Cp932(tail)
}

/// The last rules of the module documentation, for bytes [`detect`]
/// leaves to CP932: CP932 if they decode cleanly, else (when a declared
/// CP932 was taken at its word) UTF-8 or EUC-JP as the rules say, else
/// the least damaged encoding.
pub(super) fn cp932_or_least_damaged(
    bytes: &[u8],
    hint: ExtensionHint,
    tail: AsciiTail,
) -> Decoded<'_> {
    let cp932 = super::transcode_legacy(bytes, Encoding::Cp932, tail);
    if cp932.is_clean() {
        return cp932;
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Decoded::borrowed(text, Encoding::Utf8);
    }
    if looks_like_euc_jp(bytes, tail) {
        return decode_as(bytes, Encoding::EucJp);
    }
    match least_damaged(bytes, declared_encoding(bytes), hint) {
        Encoding::Cp932 => cp932,
        other => decode_as(bytes, other),
    }
}

/// The encoding named by a `#KIF`/`#KI2`/`'CSA` declaration near the start of the input.
pub(super) fn declared_encoding(bytes: &[u8]) -> Option<Encoding> {
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
/// cut short by the end of the input (damage that decoding then reports).
/// `tail` says where the input's ASCII tail starts, if found: the tail
/// changes neither count, so it is not read.
pub(super) fn looks_like_euc_jp(bytes: &[u8], tail: AsciiTail) -> bool {
    let bytes = bytes.get(..tail.start(bytes)).unwrap_or(bytes);
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
pub(super) fn ascii_prefix_len(bytes: &[u8]) -> usize {
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
pub(super) fn count_malformed(bytes: &[u8], encoding: Encoding) -> usize {
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
