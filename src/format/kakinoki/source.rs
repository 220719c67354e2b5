//! What the Kakinoki reader reads: the bytes of a text in UTF-8 or CP932.
//! UTF-8 is the text itself. CP932 is decoded a line at a time, and only
//! where the line step needs the text: a move line of the fixed-place
//! grammar is read from its bytes, and its spans decode the line only when
//! a message quotes them.

use crate::format::japanese::tokens::Charset;
use crate::record::raw::Span;
use std::borrow::Cow;

/// A text's bytes in the charset they are in.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'b> {
    /// UTF-8 text.
    Utf8(&'b str),
    /// CP932 bytes.
    Cp932(&'b [u8]),
}

impl<'b> Source<'b> {
    /// The bytes.
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'b [u8] {
        match self {
            Source::Utf8(text) => text.as_bytes(),
            Source::Cp932(bytes) => bytes,
        }
    }

    /// The charset.
    #[inline(always)]
    pub(crate) fn charset(self) -> Charset {
        match self {
            Source::Utf8(_) => Charset::Utf8,
            Source::Cp932(_) => Charset::Cp932,
        }
    }

    /// The span of bytes `start..end` of line `n`, which runs from
    /// `line_start` to `line_end` (its ending left out); every bound is
    /// where a character starts.
    #[inline(always)]
    pub(crate) fn span(
        self,
        n: u32,
        (line_start, line_end): (usize, usize),
        start: usize,
        end: usize,
    ) -> Span<'b> {
        match self {
            Source::Utf8(text) => Span::of(n, &text[line_start..line_end], &text[start..end]),
            Source::Cp932(bytes) => Span::of_cp932(
                n,
                &bytes[line_start..line_end],
                start - line_start,
                end - line_start,
            ),
        }
    }

    /// The text of bytes `start..end`, decoded if need be (any byte CP932
    /// cannot decode becomes U+FFFD).
    pub(crate) fn text(self, start: usize, end: usize) -> Cow<'b, str> {
        match self {
            Source::Utf8(text) => Cow::Borrowed(&text[start..end]),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_as_text_lines_split() {
        let text = "a\r\nb\nc\rd\n\n";
        let lines: Vec<_> = Source::Utf8(text)
            .lines(0)
            .map(|(start, end, _)| &text[start..end])
            .collect();
        let expected: Vec<_> = crate::format::lines::numbered(text)
            .map(|(_, l)| l)
            .collect();
        assert_eq!(lines, expected);
    }

    #[test]
    fn spans_quote_the_same_text_in_both_charsets() {
        let line = "   1 ７六歩(77)";
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(line);
        let utf8 = Source::Utf8(line).span(3, (0, line.len()), 5, line.len());
        let cp932 = Source::Cp932(&sjis).span(3, (0, sjis.len()), 5, sjis.len());
        assert_eq!(utf8.text, "７六歩(77)");
        assert_eq!(cp932.text_string(), "７六歩(77)");
        let stage = crate::error::Stage::Resolve;
        assert_eq!(utf8.error(stage, "x"), cp932.error(stage, "x"));
        assert_eq!(utf8.warning("x"), cp932.warning("x"));
    }
}
