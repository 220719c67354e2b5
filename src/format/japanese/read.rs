//! Reading Japanese notation, as KIF and KI2 share it: spaces, side marks,
//! squares, and the move text itself (`７六歩`, `同　銀右上`, `５五角打`,
//! `２二角成(88)`). Digits are read in [`digits`](super::digits), piece
//! names in [`pieces`](super::pieces).
//!
//! Leniency: digits in any of the three forms, 同 followed by full-width or
//! half-width spaces or nothing, 王 and 玉, 竜 and 龍, 成銀 and 全, 成桂 and
//! 圭, 成香 and 杏, the markers after the piece in any order, 行 and 入 as
//! 上, 生 as 不成.

use super::tokens::leading_digit;
use super::tokens::piece_name;
use super::tokens::{meaning, Charset, Token, SIDE_MARKS};
use crate::resolve::spec::{Destination, MoveSpec};
use crate::{Color, Square};

/// ▲ ☗ ▼ mark Black (先手, 下手); △ ☖ ▽ mark White.
pub fn side_mark(c: char) -> Option<Color> {
    meaning(&SIDE_MARKS, c)
}

/// The side mark `text` starts with, as [`side_mark`] reads it, and the
/// rest: from the bytes, without decoding the character (KI2 reads one
/// before every move).
#[inline]
pub fn leading_side_mark(text: &str) -> Option<(Color, &str)> {
    match Charset::Utf8.tokens().code::<3>(text.as_bytes(), 0) {
        Token::SideMark(color) => Some((color, &text[3..])),
        _ => None,
    }
}

/// Spaces a record may put between parts: ASCII, full-width, tab.
#[inline]
pub fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\u{3000}' | '\t')
}

/// Skips leading spaces (ASCII, full-width, tabs).
#[inline]
pub fn skip_spaces(text: &str) -> &str {
    // Byte by byte: ASCII space and tab, and the three bytes of U+3000;
    // a run of ASCII spaces first, eight bytes at a time.
    let bytes = text.as_bytes();
    let mut i = ascii_space_run(bytes);
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t') => i += 1,
            Some(0xE3) if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0x80) => {
                i += 3
            }
            _ => return &text[i..],
        }
    }
}

/// How many ASCII spaces `bytes` starts with, up to eight, counted in one
/// step (KI2 pads its moves to columns with runs of them); 0 when fewer
/// than eight bytes are left.
#[inline]
fn ascii_space_run(bytes: &[u8]) -> usize {
    match bytes.first_chunk::<8>() {
        Some(&chunk) => {
            // Each space becomes a zero byte; the first byte is the lowest.
            let diff = u64::from_le_bytes(chunk) ^ u64::from_le_bytes([b' '; 8]);
            diff.trailing_zeros() as usize / 8
        }
        None => 0,
    }
}

/// Drops trailing spaces (ASCII, full-width, tabs), byte by byte.
#[inline]
pub fn trim_end_spaces(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    loop {
        match bytes[..end] {
            [.., b' ' | b'\t'] => end -= 1,
            [.., 0xE3, 0x80, 0x80] => end -= 3,
            _ => return &text[..end],
        }
    }
}

/// A square written as two digits (`７六`, `76`, `7六`), and the rest.
#[inline]
pub fn square(text: &str) -> Option<(Square, &str)> {
    let (file, rest) = leading_digit(text)?;
    let (rank, rest) = leading_digit(rest)?;
    Some((Square::new(file, rank)?, rest))
}

/// Why a move text could not be read, and where (a byte offset into the
/// text given to [`move_text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTextError {
    /// Where reading stopped, in bytes from the start of the text.
    pub offset: usize,
    /// What was expected there (`a square such as ７六 or 同`).
    pub expected: &'static str,
}

impl MoveTextError {
    /// The syntax error on line `n` (`line`) for the move text `text`: at
    /// the character reading stopped at, saying what was expected.
    pub fn error(&self, n: u32, line: &str, text: &str) -> crate::Error {
        let at = &text[self.offset..];
        let len = at.chars().next().map_or(0, char::len_utf8);
        crate::format::lines::error(n, line, &at[..len], format!("expected {}", self.expected))
    }
}

/// Reads a move in Japanese notation, without the side mark: destination
/// (or 同), piece, then any of 右 左 直 上 引 寄 行 入 成 不成 生 打 in any
/// order. Returns the spec and the unread rest (a KIF origin `(77)`, a time
/// column, the next move).
#[inline]
pub fn move_text(text: &str) -> Result<(MoveSpec, &str), MoveTextError> {
    match common_move_text(text) {
        Some(read) => Ok(read),
        None => general_move_text(text),
    }
}

/// The commonest move text, `７六歩` or `７六成銀` (two three-byte digits
/// and a piece name), read at fixed places, then its markers; `None` for
/// any other, which [`general_move_text`] reads. Reads what that would (a
/// test checks).
#[inline]
fn common_move_text(text: &str) -> Option<(MoveSpec, &str)> {
    let (tokens, bytes) = (Charset::Utf8.tokens(), text.as_bytes());
    let file = tokens.digit::<3>(bytes, 0)?;
    let rank = tokens.digit::<3>(bytes, 3)?;
    let (piece, end) = tokens.piece::<3>(bytes, 6)?;
    let mut spec = MoveSpec::new(Destination::Square(Square::new(file, rank)?), piece);
    let rest = markers(&mut spec, &text[end..]);
    Some((spec, rest))
}

/// [`move_text`] for any text: 同, half-width digits, 成香, a 同 after the
/// square, and every error.
fn general_move_text(text: &str) -> Result<(MoveSpec, &str), MoveTextError> {
    let err = |rest: &str, expected| MoveTextError {
        offset: text.len() - rest.len(),
        expected,
    };
    let (to, rest) = if let Some(rest) = text.strip_prefix('同') {
        (Destination::Same, skip_spaces(rest))
    } else {
        let (sq, rest) = square(text).ok_or_else(|| err(text, "a square such as ７六 or 同"))?;
        // `７六同歩` is sometimes written for a capture on the same square.
        let rest = rest.strip_prefix('同').map_or(rest, skip_spaces);
        (Destination::Square(sq), rest)
    };
    let (piece, rest) = piece_name(rest).ok_or_else(|| {
        err(
            rest,
            "a piece name (歩 香 桂 銀 金 角 飛 玉 王 と 成香 成桂 成銀 馬 龍 竜)",
        )
    })?;
    let mut spec = MoveSpec::new(to, piece);
    let rest = markers(&mut spec, rest);
    Ok((spec, rest))
}

/// Reads the markers after the piece name into `spec`, and returns the
/// rest.
#[inline]
fn markers<'a>(spec: &mut MoveSpec, text: &'a str) -> &'a str {
    let end = Charset::Utf8
        .tokens()
        .markers::<3>(text.as_bytes(), 0, spec);
    &text[end..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::japanese::tokens::MARKS;
    use crate::format::japanese::write::write_spec;
    use crate::PieceKind;

    #[test]
    fn the_piece_error_lists_every_name_read() {
        let expected = move_text("７六X").unwrap_err().expected;
        for name in super::super::pieces::PIECE_NAMES {
            assert!(expected.contains(name.in_move), "{}", name.in_move);
            for c in name.also {
                assert!(expected.contains(*c), "{c}");
            }
        }
    }

    #[test]
    fn the_common_way_reads_what_the_general_way_reads() {
        let digits = ["１", "９", "一", "六", "九", "7", "0", "０", "十"];
        let pieces = [
            "歩", "龍", "竜", "と", "全", "成銀", "同", "同歩", "x", "　歩",
        ];
        let after = ["", "右", "左上", "不成", "不", "成", "打(77)", "　▲", "x"];
        let mut common = 0;
        for file in digits {
            for rank in digits {
                for piece in pieces {
                    for rest in after {
                        let text = format!("{file}{rank}{piece}{rest}");
                        if let Some(read) = common_move_text(&text) {
                            assert_eq!(Ok(read), general_move_text(&text), "{text}");
                            common += 1;
                        }
                        assert_eq!(move_text(&text), general_move_text(&text), "{text}");
                    }
                }
            }
        }
        // Five three-byte digits, six piece names.
        assert_eq!(common, 5 * 5 * 6 * after.len());
    }

    #[test]
    fn every_marker_is_read_and_nothing_else() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let text = format!("７六歩{c}x");
            let (spec, rest) = move_text(&text).unwrap();
            let plain = MoveSpec::new(spec.to, PieceKind::Pawn);
            match meaning(&MARKS, c) {
                Some(
                    Token::Horizontal(_)
                    | Token::Vertical(_)
                    | Token::Promote
                    | Token::Decline
                    | Token::Drop,
                ) => {
                    assert_ne!(spec, plain, "{c}");
                    assert_eq!(rest, "x");
                }
                _ => {
                    assert_eq!(spec, plain, "{c}");
                    assert_eq!(rest, format!("{c}x"));
                }
            }
        }
    }

    #[test]
    fn move_texts() {
        // Each text, its spec as the writer writes it, and what follows.
        for (text, written, rest) in [
            ("７六歩(77)", "７六歩", "(77)"),
            ("同　銀", "同　銀", ""),
            ("同銀", "同　銀", ""),
            ("同 銀", "同　銀", ""),
            ("５八金左上", "５八金左上", ""),
            ("５八金上左", "５八金左上", ""),
            ("２二角不成　△同銀", "２二角不成", "　△同銀"),
            ("２二角生", "２二角不成", ""),
            ("5五成銀行", "５五成銀上", ""),
            ("５五角打", "５五角打", ""),
        ] {
            let (spec, after) = move_text(text).unwrap();
            let mut spelled = String::new();
            write_spec(&mut spelled, &spec);
            assert_eq!((spelled.as_str(), after), (written, rest), "{text}");
        }
        assert_eq!(move_text("５歩").unwrap_err().offset, 0);
        assert_eq!(move_text("５五X").unwrap_err().offset, "５五".len());
        assert!(move_text("").is_err());
    }

    #[test]
    fn spaces_are_skipped_up_to_text() {
        assert_eq!(trim_end_spaces(" x \t\u{3000} "), " x");
        assert_eq!(trim_end_spaces("\u{3001}"), "\u{3001}");
        assert_eq!(trim_end_spaces("   "), "");
        assert_eq!(skip_spaces(" \t\u{3000} x "), "x ");
        assert_eq!(skip_spaces("\u{3001}"), "\u{3001}");
        assert_eq!(skip_spaces(""), "");
        for spaces in 0..20 {
            for tail in ["", "x", "\u{3000}x", "\tx", "x         "] {
                let text = format!("{}{tail}", " ".repeat(spaces));
                let expected = text.trim_start_matches(is_space);
                assert_eq!(skip_spaces(&text), expected, "{text:?}");
            }
        }
    }

    #[test]
    fn leading_side_mark_reads_what_side_mark_reads() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let text = format!("{c}x");
            let expected = side_mark(c).map(|color| (color, "x"));
            assert_eq!(leading_side_mark(&text), expected, "{c:?}");
        }
    }
}
