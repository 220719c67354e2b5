//! What the Kakinoki reader reads: text, or the bytes of a text in UTF-8
//! or CP932. A move line of the fixed-place grammar is read from its bytes;
//! every other line the line step reads is checked (UTF-8) or decoded
//! (CP932) first, cleanly or not at all. A span of a fixed CP932 line
//! keeps its bytes and decodes them only when a message quotes it.

use crate::decode::{decode_cp932_cleanly, decode_utf8_cleanly};
use crate::format::japanese::tokens::Charset;
use crate::record::raw::Span;
use crate::types::Encoding;
use std::borrow::Cow;

/// What the Kakinoki reader reads.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'b> {
    /// Text, read as it is.
    Text(&'b str),
    /// Bytes that are UTF-8 if every line is valid UTF-8.
    Utf8(&'b [u8]),
    /// CP932 bytes.
    Cp932(&'b [u8]),
}

/// A line the bytes do not hold cleanly (see [`Source::clean`]): the
/// input is to be decoded whole, by the decoder's own rules.
#[derive(Debug)]
pub(crate) struct Unclean;

/// The text of some lines the line step reads: in the source, or decoded
/// into an arena (a range of it).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Clean<'b> {
    /// Text of the source itself.
    Source(&'b str),
    /// Text decoded into the arena, at `start..end`.
    Arena(usize, usize),
}

impl<'a> Clean<'a> {
    /// The text, from the source or from `arena`.
    #[inline]
    pub(crate) fn text(self, arena: &'a str) -> &'a str {
        match self {
            Clean::Source(text) => text,
            Clean::Arena(start, end) => &arena[start..end],
        }
    }
}

impl<'b> Source<'b> {
    /// The bytes.
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'b [u8] {
        match self {
            Source::Text(text) => text.as_bytes(),
            Source::Utf8(bytes) | Source::Cp932(bytes) => bytes,
        }
    }

    /// The charset.
    #[inline(always)]
    pub(crate) fn charset(self) -> Charset {
        match self {
            Source::Text(_) | Source::Utf8(_) => Charset::Utf8,
            Source::Cp932(_) => Charset::Cp932,
        }
    }

    /// The source up to byte `end`, where a line starts.
    pub(crate) fn until(self, end: usize) -> Source<'b> {
        match self {
            Source::Text(text) => Source::Text(&text[..end]),
            Source::Utf8(bytes) => Source::Utf8(&bytes[..end]),
            Source::Cp932(bytes) => Source::Cp932(&bytes[..end]),
        }
    }

    /// The text of the whole lines at bytes `from..to`, decoded into
    /// `arena` for CP932. Every character the binary test counts makes
    /// them [`Unclean`], as a byte that does not decode does, but in text
    /// (which that test has passed).
    pub(crate) fn clean(
        self,
        from: usize,
        to: usize,
        arena: &mut String,
    ) -> Result<Clean<'b>, Unclean> {
        match self {
            Source::Text(text) => Ok(Clean::Source(&text[from..to])),
            Source::Utf8(bytes) => decode_utf8_cleanly(&bytes[from..to])
                .map(Clean::Source)
                .ok_or(Unclean),
            Source::Cp932(bytes) => {
                let start = arena.len();
                if decode_cp932_cleanly(&bytes[from..to], arena) {
                    Ok(Clean::Arena(start, arena.len()))
                } else {
                    Err(Unclean)
                }
            }
        }
    }

    /// The span of bytes `start..end` of line `n`, which starts at byte
    /// `line_start` and ends at `line_end` when the caller knows it; every
    /// bound is where a character starts. `None` for UTF-8 bytes that are
    /// not valid (the line is then read the general way).
    #[inline(always)]
    pub(crate) fn span(
        self,
        n: u32,
        line_start: usize,
        line_end: Option<usize>,
        start: usize,
        end: usize,
    ) -> Option<Span<'b>> {
        let line_end = |bytes: &[u8]| {
            line_end.unwrap_or_else(|| line_start + self::line_end(&bytes[line_start..]).0)
        };
        match self {
            Source::Text(text) => Some(Span::of(
                n,
                &text[line_start..line_end(text.as_bytes())],
                &text[start..end],
            )),
            // The line is found when the span is quoted.
            Source::Utf8(bytes) => Some(Span::of_bytes(n, bytes, start, end, Encoding::Utf8)),
            Source::Cp932(bytes) => Some(Span::of_bytes(n, bytes, start, end, Encoding::Cp932)),
        }
    }

    /// The text of bytes `start..end`, decoded if need be (any byte that
    /// does not decode becomes U+FFFD).
    pub(crate) fn text(self, start: usize, end: usize) -> Cow<'b, str> {
        match self {
            Source::Text(text) => Cow::Borrowed(&text[start..end]),
            Source::Utf8(bytes) => String::from_utf8_lossy(&bytes[start..end]),
            Source::Cp932(bytes) => {
                encoding_rs::SHIFT_JIS
                    .decode_without_bom_handling(&bytes[start..end])
                    .0
            }
        }
    }

    /// The lines from byte `at` on: for each, where it starts, where its
    /// text ends and where the next line starts. CRLF, LF and a lone CR
    /// each end a line, as [`lines::numbered`](crate::format::lines::numbered)
    /// splits text.
    pub(crate) fn lines(self, mut at: usize) -> impl Iterator<Item = (usize, usize, usize)> + 'b {
        let bytes = self.bytes();
        std::iter::from_fn(move || {
            let start = at;
            let rest = bytes.get(start..).filter(|rest| !rest.is_empty())?;
            let (end, next) = line_end(rest);
            at = start + next;
            Some((start, start + end, at))
        })
    }
}

/// Where the first line of `bytes` ends (its ending left out), and where
/// the next one starts.
#[inline]
pub(crate) fn line_end(bytes: &[u8]) -> (usize, usize) {
    match memchr::memchr2(b'\n', b'\r', bytes) {
        None => (bytes.len(), bytes.len()),
        Some(end) if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') => (end, end + 2),
        Some(end) => (end, end + 1),
    }
}

/// Where the run of ASCII spaces at byte `at` of `bytes` ends. Eight
/// bytes are tested at once while that many are left, so a run's length
/// costs no branch per byte.
#[inline(always)]
pub(crate) fn spaces_end(bytes: &[u8], mut at: usize) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let other = u64::from_le_bytes(*chunk) ^ SPACES;
        if other != 0 {
            // Little-endian: the first byte that is no space is the lowest.
            return at + (other.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_as_text_lines_split() {
        let text = "a\r\nb\nc\rd\n\n";
        let lines: Vec<_> = Source::Text(text)
            .lines(0)
            .map(|(start, end, _)| &text[start..end])
            .collect();
        let expected: Vec<_> = crate::format::lines::numbered(text)
            .map(|(_, l)| l)
            .collect();
        assert_eq!(lines, expected);
    }

    #[test]
    fn space_runs_end_at_the_first_other_byte() {
        for text in [
            "",
            " ",
            "a",
            "   1 ",
            "        ( 0",
            "                 x",
            "\u{3000} ",
            "  \n  ",
        ] {
            for at in 0..=text.len() {
                let bytes = text.as_bytes();
                let end = at + bytes[at..].iter().take_while(|&&b| b == b' ').count();
                assert_eq!(spaces_end(bytes, at), end, "{text:?} at {at}");
            }
        }
    }

    #[test]
    fn spans_quote_the_same_text_from_text_and_bytes() {
        // A line with the next one after it: a span of bytes quotes its
        // line alone.
        let line = "   1 ７六歩(77)";
        let both = format!("{line}\r\n   2 ３四歩(33)");
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&both);
        let text = Source::Text(line).span(3, 0, None, 5, line.len()).unwrap();
        let utf8 = Source::Utf8(both.as_bytes()).span(3, 0, None, 5, line.len());
        let cp932 = Source::Cp932(&sjis).span(3, 0, None, 5, sjis.len() - 17);
        assert_eq!(text.text(), "７六歩(77)");
        let stage = crate::error::Stage::Resolve;
        for bytes in [utf8.unwrap(), cp932.unwrap()] {
            assert_eq!(bytes.text_string(), "７六歩(77)");
            assert_eq!(bytes.error(stage, "x"), text.error(stage, "x"));
            assert_eq!(bytes.warning("x"), text.warning("x"));
        }
    }
}
