//! Pieces of Japanese notation that KIF and KI2 share: digits (full-width,
//! half-width and kanji), squares, piece names, side marks, and the move
//! text itself (`７六歩`, `同　銀右上`, `５五角打`, `２二角成(88)`).
//!
//! Leniency: digits in any of the three forms, 同 followed by full-width or
//! half-width spaces or nothing, 王 and 玉, 竜 and 龍, 成銀 and 全, 成桂 and
//! 圭, 成香 and 杏, the markers after the piece in any order, 行 and 入 as
//! 上, 生 as 不成.

use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::{Color, PieceKind, Square};

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

/// A digit 1–9 written full-width (`７`), half-width (`7`) or in kanji (`七`).
pub fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32 + 1) as u8),
        '一' => Some(1),
        '二' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    }
}

/// A kanji count as hands write it: 一 to 九, 十, 十一 to 十八.
pub fn kanji_count(text: &str) -> Option<u8> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    if first == '十' {
        return match rest {
            "" => Some(10),
            _ => {
                let mut rest_chars = rest.chars();
                let unit = rest_chars.next().and_then(digit)?;
                rest_chars.next().is_none().then_some(10 + unit)
            }
        };
    }
    let n = digit(first)?;
    rest.is_empty().then_some(n)
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

/// A piece named by one character, as board diagrams and hands write it
/// (and most moves): 歩 香 桂 銀 金 角 飛 玉 王 と 杏 圭 全 馬 竜 龍.
pub fn piece_char(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c {
        '歩' => Pawn,
        '香' => Lance,
        '桂' => Knight,
        '銀' => Silver,
        '金' => Gold,
        '角' => Bishop,
        '飛' => Rook,
        '玉' | '王' => King,
        'と' => ProPawn,
        '杏' => ProLance,
        '圭' => ProKnight,
        '全' => ProSilver,
        '馬' => Horse,
        '竜' | '龍' => Dragon,
        _ => return None,
    })
}

/// The piece named at the start of `text`, and the rest.
pub fn piece_name(text: &str) -> Option<(PieceKind, &str)> {
    use PieceKind::*;
    let mut chars = text.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let kind = match first {
        '成' => {
            // 成香 成桂 成銀: a promoted piece written with two characters.
            let mut after = rest.chars();
            let kind = match after.next()? {
                '香' => ProLance,
                '桂' => ProKnight,
                '銀' => ProSilver,
                _ => return None,
            };
            return Some((kind, after.as_str()));
        }
        other => piece_char(other)?,
    };
    Some((kind, rest))
}

/// A square written as two digits (`７六`, `76`, `7六`), and the rest.
pub fn square(text: &str) -> Option<(Square, &str)> {
    let mut chars = text.chars();
    let file = chars.next().and_then(digit)?;
    let rank = chars.next().and_then(digit)?;
    Some((Square::new(file, rank)?, chars.as_str()))
}

/// Why a move text could not be read, and where (a byte offset into the
/// text given to [`move_text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTextError {
    pub offset: usize,
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
    loop {
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        let after = chars.as_str();
        match c {
            '右' => spec.horizontal = Some(Horizontal::Right),
            '左' => spec.horizontal = Some(Horizontal::Left),
            '直' => spec.horizontal = Some(Horizontal::Straight),
            '上' | '行' | '入' => spec.vertical = Some(Vertical::Up),
            '引' => spec.vertical = Some(Vertical::Down),
            '寄' => spec.vertical = Some(Vertical::Sideways),
            '成' => spec.promotion = Promotion::Promote,
            '生' => spec.promotion = Promotion::Decline,
            '不' if after.starts_with('成') => {
                spec.promotion = Promotion::Decline;
                rest = &after['成'.len_utf8()..];
                continue;
            }
            '打' => spec.drop = DropMark::Drop,
            _ => break,
        }
        rest = after;
    }
    Ok((spec, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::from_usi(text).unwrap()
    }

    #[test]
    fn digits_and_counts() {
        assert_eq!(digit('７'), Some(7));
        assert_eq!(digit('7'), Some(7));
        assert_eq!(digit('七'), Some(7));
        assert_eq!(digit('0'), None);
        assert_eq!(kanji_count("十八"), Some(18));
        assert_eq!(kanji_count("十"), Some(10));
        assert_eq!(kanji_count("三"), Some(3));
        assert_eq!(kanji_count("十九十"), None);
        assert_eq!(kanji_count(""), None);
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
