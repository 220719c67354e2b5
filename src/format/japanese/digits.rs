//! Numerals in Japanese notation: the digits 1–9 of squares (half-width
//! `7`, full-width `７`, kanji `七`), kanji counts (一 to 十八, as hands
//! write them) and the decimal digits of move numbers and times.
//!
//! The kanji digits are one table, [`KANJI_DIGITS`], which the readers
//! ([`digit`], [`kanji_count`], the token tables) and the writer
//! ([`kanji_number`]) share.

/// 一 to 九: the kanji for 1 to 9, in order (`KANJI_DIGITS[n - 1]` is n).
pub const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// 十: ten, in kanji counts (十 is 10, 十八 is 18).
pub const KANJI_TEN: char = '十';

/// A digit 1–9 written full-width (`７`), half-width (`7`) or in kanji (`七`).
#[inline]
pub fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32 + 1) as u8),
        _ => KANJI_DIGITS
            .iter()
            .position(|&k| k == c)
            .map(|i| i as u8 + 1),
    }
}

/// A decimal digit 0–9, half-width or full-width (as move numbers, times
/// and counts may be written), as its half-width character.
pub fn decimal_digit(c: char) -> Option<char> {
    if c.is_ascii_digit() {
        Some(c)
    } else if is_full_width_digit(c) {
        char::from_u32(c as u32 - '０' as u32 + '0' as u32)
    } else {
        None
    }
}

/// `０` to `９`.
pub fn is_full_width_digit(c: char) -> bool {
    ('０'..='９').contains(&c)
}

/// A kanji count as hands write it: 一 to 九, 十, 十一 to 十八.
pub fn kanji_count(text: &str) -> Option<u8> {
    let (tens, units) = match text.strip_prefix(KANJI_TEN) {
        Some(units) => (10, units),
        None => (0, text),
    };
    let mut chars = units.chars();
    match (chars.next(), chars.next()) {
        (None, _) if tens == 10 => Some(10),
        (Some(unit), None) => Some(tens + digit(unit)?),
        _ => None,
    }
}

/// 一 to 十八, as hands count pieces (and board diagrams number ranks);
/// empty for 0.
pub fn kanji_number(n: u8) -> String {
    let unit = |n: u8| KANJI_DIGITS.get(usize::from(n).wrapping_sub(1));
    let mut out = String::new();
    if n >= 10 {
        out.push(KANJI_TEN);
    }
    if let Some(&c) = unit(n % 10) {
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_digit_written_reads_back_and_every_digit_read_is_a_written_one() {
        // Written: kanji (ranks, counts) and full-width (files, via
        // Square::japanese); every form reads back as its value.
        for n in 1..=9u8 {
            let kanji = kanji_number(n);
            assert_eq!(kanji.chars().count(), 1, "{n}");
            assert_eq!(digit(kanji.chars().next().unwrap()), Some(n));
            let full = char::from_u32('０' as u32 + u32::from(n)).unwrap();
            assert_eq!(digit(full), Some(n));
            assert_eq!(digit(char::from(b'0' + n)), Some(n));
        }
        // Read: every character that reads as a digit is one of its three
        // spellings.
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            if let Some(n) = digit(c) {
                let spellings = [
                    char::from(b'0' + n),
                    char::from_u32('０' as u32 + u32::from(n)).unwrap(),
                    KANJI_DIGITS[usize::from(n) - 1],
                ];
                assert!(spellings.contains(&c), "{c:?} read as {n}");
            }
            if let Some(d) = decimal_digit(c) {
                assert!(c == d || c as u32 - '０' as u32 == d as u32 - '0' as u32);
            }
        }
    }

    #[test]
    fn every_count_written_reads_back() {
        assert_eq!(kanji_number(0), "");
        assert_eq!(kanji_number(1), "一");
        assert_eq!(kanji_number(10), "十");
        assert_eq!(kanji_number(18), "十八");
        for n in 1..=18u8 {
            assert_eq!(kanji_count(&kanji_number(n)), Some(n), "{n}");
        }
        assert_eq!(kanji_count("十九十"), None);
        assert_eq!(kanji_count(""), None);
        assert_eq!(kanji_count("三"), Some(3));
    }
}
