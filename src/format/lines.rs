//! Splitting text into numbered lines, whatever the line endings: CRLF, LF,
//! or a lone CR, with or without a final newline; and the syntax error
//! every line reader makes: one about a slice of a line.

use crate::error::{Error, Stage};
use crate::record::raw::Span;

/// The lines of `text`, numbered from 1, without their line endings.
pub fn numbered(text: &str) -> impl Iterator<Item = (u32, &str)> {
    let mut rest = text;
    (1..).map_while(move |n| {
        if rest.is_empty() {
            return None;
        }
        let (line, after) = split_first(rest);
        rest = after;
        Some((n, line))
    })
}

/// A syntax error about `at`, a slice of line `n` (whose text is `line`):
/// its column is where `at` starts, its text is `at`.
pub(crate) fn error(n: u32, line: &str, at: &str, message: impl Into<String>) -> Error {
    Span::of(n, line, at).error(Stage::Parse, message)
}

/// The first line of `text` without its line ending, and the text after
/// that ending (CRLF, LF or a lone CR; none at the end of the text).
pub fn split_first(text: &str) -> (&str, &str) {
    match first_ending(text) {
        None => (text, ""),
        Some((end, len)) => (&text[..end], &text[end + len..]),
    }
}

/// `text` cut at every line ending (CRLF, LF or a lone CR), as
/// `str::split` cuts at one character: empty text is one empty line, and
/// a line ending at the end leaves an empty line after it. How a comment
/// of several lines becomes lines, in every reader and writer.
pub fn split_at_endings(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match first_ending(text) {
            None => {
                rest = None;
                Some(text)
            }
            Some((end, len)) => {
                rest = Some(&text[end + len..]);
                Some(&text[..end])
            }
        }
    })
}

/// Where the first line ending of `text` starts, and its length in bytes
/// (2 for CRLF, 1 for LF or a lone CR).
#[inline]
fn first_ending(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let end = memchr::memchr2(b'\n', b'\r', bytes)?;
    let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
    Some((end, 1 + usize::from(crlf)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_ending() {
        let lines: Vec<_> = numbered("a\r\nb\nc\rd").collect();
        assert_eq!(lines, [(1, "a"), (2, "b"), (3, "c"), (4, "d")]);
        let lines: Vec<_> = numbered("a\n\nb\n").collect();
        assert_eq!(lines, [(1, "a"), (2, ""), (3, "b")]);
        assert_eq!(numbered("").count(), 0);
        assert_eq!(split_first("a\r\nb"), ("a", "b"));
        assert_eq!(split_first("a\r"), ("a", ""));
        assert_eq!(split_first("a"), ("a", ""));
    }

    #[test]
    fn cut_at_every_ending_as_split_cuts() {
        let cut = |text| split_at_endings(text).collect::<Vec<_>>();
        assert_eq!(cut("a\r\nb\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(cut(""), [""]);
        assert_eq!(cut("a\n"), ["a", ""]);
        assert_eq!(cut("\r\r\n"), ["", "", ""]);
        assert_eq!(cut("x\ry"), ["x", "y"]);
        // Where there is no CR, what `split('\n')` gives.
        for text in ["", "a", "a\n", "\n\nb", "a\nb\n\n"] {
            assert_eq!(cut(text), text.split('\n').collect::<Vec<_>>(), "{text:?}");
        }
    }
}
