//! Whether a text is, or starts like, a move in Japanese notation: the one
//! test every KIF and KI2 reader and writer asks before taking a line or a
//! word for something else (a header, a terminal word) — a line that could
//! be a move must never be read, or written, as anything else.
//!
//! With it: whether a word shows the marks of a wrong decoding, which the
//! readers take for a move they could not read rather than a word.

use super::digits::digit;
use super::read::move_text;

/// How far a text goes towards being a move in Japanese notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLike {
    /// It does not start like a move.
    No,
    /// It starts like one, with a square's digit (1–9, half-width,
    /// full-width or kanji) or 同, but does not read as one.
    Starts,
    /// It starts with a move that reads ([`move_text`] reads it).
    Reads,
}

/// How far `text` goes towards being a move (without a side mark).
pub fn move_like(text: &str) -> MoveLike {
    match text.chars().next() {
        Some(c) if digit(c).is_some() || c == '同' => {
            if move_text(text).is_ok() {
                MoveLike::Reads
            } else {
                MoveLike::Starts
            }
        }
        _ => MoveLike::No,
    }
}

/// The half-width katakana in a text (U+FF61 to U+FF9F), which UTF-8 read
/// as Shift_JIS leaves where kanji were.
pub fn half_width_katakana(text: &str) -> usize {
    text.chars()
        .filter(|c| ('\u{ff61}'..='\u{ff9f}').contains(c))
        .count()
}

/// Whether a word that should be Japanese notation shows the marks of a
/// wrong decoding (U+FFFD, half-width katakana).
pub fn looks_misdecoded(word: &str) -> bool {
    word.contains('\u{fffd}') || half_width_katakana(word) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_their_starts() {
        for text in ["７六歩", "76歩", "七六歩", "同　銀", "同歩", "５五角打 x"] {
            assert_eq!(move_like(text), MoveLike::Reads, "{text}");
        }
        for text in ["７", "同", "7x", "九", "１一X"] {
            assert_eq!(move_like(text), MoveLike::Starts, "{text}");
        }
        for text in ["", "投了", "0六歩", "０六歩", "▲７六歩", "十"] {
            assert_eq!(move_like(text), MoveLike::No, "{text}");
        }
    }

    #[test]
    fn misdecoded_words() {
        assert!(looks_misdecoded("７ｧｯ"));
        assert!(looks_misdecoded("\u{fffd}"));
        assert!(!looks_misdecoded("投了"));
        assert_eq!(half_width_katakana("縺ｧ縺ｯ"), 2);
    }
}
