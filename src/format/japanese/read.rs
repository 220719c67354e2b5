//! Reading Japanese notation, as KIF and KI2 share it: spaces, side marks,
//! squares, and the move text itself (`７六歩`, `同　銀右上`, `５五角打`,
//! `２二角成(88)`). Digits are read in [`digits`](super::digits), piece
//! names in [`pieces`](super::pieces).
//!
//! Leniency: digits in any of the three forms, 同 followed by full-width or
//! half-width spaces or nothing, 王 and 玉, 竜 and 龍, 成銀 and 全, 成桂 and
//! 圭, 成香 and 杏, the markers after the piece in any order, 行 and 入 as
//! 上, 生 as 不成.

use super::char_keys::{slots_for, KeyIndex};
use super::digits::leading_digit;
use super::pieces::piece_name;
use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::{Color, Square};

#[cfg(test)]
mod space_tests {
    #[test]
    fn trim_end_spaces_stops_at_text() {
        assert_eq!(super::trim_end_spaces(" x \t\u{3000} "), " x");
        assert_eq!(super::trim_end_spaces("\u{3001}"), "\u{3001}");
        assert_eq!(super::trim_end_spaces("   "), "");
    }

    #[test]
    fn skip_spaces_stops_at_text() {
        assert_eq!(super::skip_spaces(" \t\u{3000} x "), "x ");
        assert_eq!(super::skip_spaces("\u{3001}"), "\u{3001}");
        assert_eq!(super::skip_spaces(""), "");
    }
}

/// ▲ ☗ ▼ mark Black (先手, 下手); △ ☖ ▽ mark White.
pub fn side_mark(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' | '▼' => Some(Color::Black),
        '△' | '☖' | '▽' => Some(Color::White),
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
    // Byte by byte: ASCII space and tab, and the three bytes of U+3000.
    let bytes = text.as_bytes();
    let mut i = 0;
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

/// Reads a move in Japanese notation, without the side mark: destination
/// (or 同), piece, then any of 右 左 直 上 引 寄 行 入 成 不成 生 打 in any
/// order. Returns the spec and the unread rest (a KIF origin `(77)`, a time
/// column, the next move).
pub fn move_text(text: &str) -> Result<(MoveSpec, &str), MoveTextError> {
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
    let (piece, mut rest) = piece_name(rest).ok_or_else(|| {
        err(
            rest,
            "a piece name (歩 香 桂 銀 金 角 飛 玉 王 と 成香 成桂 成銀 馬 龍 竜)",
        )
    })?;
    let mut spec = MoveSpec::new(to, piece);
    while let Some((place, after)) = MARKER_INDEX.find_first(rest) {
        match MARKERS[place].1 {
            Marker::Horizontal(h) => spec.horizontal = Some(h),
            Marker::Vertical(v) => spec.vertical = Some(v),
            Marker::Promotion(p) => spec.promotion = p,
            Marker::Drop => spec.drop = DropMark::Drop,
            Marker::Not => match after.strip_prefix('成') {
                Some(after) => {
                    spec.promotion = Promotion::Decline;
                    rest = after;
                    continue;
                }
                None => break,
            },
        }
        rest = after;
    }
    Ok((spec, rest))
}

/// What a character after the piece name says.
#[derive(Clone, Copy, Debug)]
enum Marker {
    /// 右 左 直.
    Horizontal(Horizontal),
    /// 上 行 入, 引, 寄.
    Vertical(Vertical),
    /// 成, 生.
    Promotion(Promotion),
    /// 不, which is a marker only before 成 (不成).
    Not,
    /// 打.
    Drop,
}

/// The characters [`move_text`] reads after the piece name, each with what
/// it says.
const MARKERS: [(char, Marker); 12] = [
    ('右', Marker::Horizontal(Horizontal::Right)),
    ('左', Marker::Horizontal(Horizontal::Left)),
    ('直', Marker::Horizontal(Horizontal::Straight)),
    ('上', Marker::Vertical(Vertical::Up)),
    ('行', Marker::Vertical(Vertical::Up)),
    ('入', Marker::Vertical(Vertical::Up)),
    ('引', Marker::Vertical(Vertical::Down)),
    ('寄', Marker::Vertical(Vertical::Sideways)),
    ('成', Marker::Promotion(Promotion::Promote)),
    ('生', Marker::Promotion(Promotion::Decline)),
    ('不', Marker::Not),
    ('打', Marker::Drop),
];

/// The characters of [`MARKERS`], in its order.
const MARKER_CHARS: [char; MARKERS.len()] = {
    let mut out = ['\0'; MARKERS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = MARKERS[i].0;
        i += 1;
    }
    out
};

/// [`MARKERS`] by key: the text after a move (a space, the next ▲, a KIF
/// origin) is told from a marker without decoding it.
const MARKER_INDEX: KeyIndex<{ slots_for(&MARKER_CHARS) }> = KeyIndex::new(&MARKER_CHARS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceKind;

    fn sq(text: &str) -> Square {
        Square::from_usi(text).unwrap()
    }

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
    fn every_marker_is_read_and_nothing_else() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let text = format!("７六歩{c}x");
            let (spec, rest) = move_text(&text).unwrap();
            let marker = MARKERS.iter().find(|&&(m, _)| m == c).map(|&(_, m)| m);
            match marker {
                None | Some(Marker::Not) => {
                    assert_eq!(spec, MoveSpec::new(spec.to, PieceKind::Pawn), "{c}");
                    assert_eq!(rest, format!("{c}x"));
                }
                Some(_) => {
                    assert_ne!(spec, MoveSpec::new(spec.to, PieceKind::Pawn), "{c}");
                    assert_eq!(rest, "x");
                }
            }
        }
    }

    #[test]
    fn move_texts() {
        let (spec, rest) = move_text("７六歩(77)").unwrap();
        assert_eq!(spec.to, Destination::Square(sq("7f")));
        assert_eq!(spec.piece, PieceKind::Pawn);
        assert_eq!(rest, "(77)");
        for same in ["同　銀", "同銀", "同 銀"] {
            let (spec, _) = move_text(same).unwrap();
            assert_eq!(spec.to, Destination::Same);
            assert_eq!(spec.piece, PieceKind::Silver);
        }
        let (spec, _) = move_text("５八金左上").unwrap();
        assert_eq!(spec.horizontal, Some(Horizontal::Left));
        assert_eq!(spec.vertical, Some(Vertical::Up));
        let (spec, _) = move_text("５八金上左").unwrap();
        assert_eq!(spec.horizontal, Some(Horizontal::Left));
        let (spec, rest) = move_text("２二角不成　△同銀").unwrap();
        assert_eq!(spec.promotion, Promotion::Decline);
        assert_eq!(rest, "　△同銀");
        let (spec, _) = move_text("２二角生").unwrap();
        assert_eq!(spec.promotion, Promotion::Decline);
        let (spec, _) = move_text("5五成銀行").unwrap();
        assert_eq!(spec.piece, PieceKind::ProSilver);
        assert_eq!(spec.vertical, Some(Vertical::Up));
        let (spec, _) = move_text("５五角打").unwrap();
        assert_eq!(spec.drop, DropMark::Drop);
        assert_eq!(move_text("５歩").unwrap_err().offset, 0);
        assert_eq!(move_text("５五X").unwrap_err().offset, "５五".len());
        assert!(move_text("").is_err());
    }
}
