//! The CSA reader's fast path: the lines nearly every CSA file is made of,
//! a move (`+7776FU`, `-0055KA`), its time in whole seconds (`T12`), or
//! both joined by a comma (`+7776FU,T12`), read at fixed places together
//! with their line ending. The reader then neither searches for the end of
//! such a line nor takes it through the general statement reader.
//!
//! A fast path only reads what the general reader reads plainly, without
//! a warning or an error: on anything else (a bad square, an unknown
//! piece, lowercase, a space, a decimal time, a time too long to be sure
//! it fits, a second comma, …) it declines and the general reader reads
//! the line, so every warning and error stays that reader's. (What the
//! line then does to the game, such as a turn taken from the first move,
//! is the reader's too.)

use crate::resolve::spec::{Destination, DropMark, MoveSpec, Promotion};
use crate::{Color, PieceKind, Square};

/// Where the line after a line that ends at `at` starts: past `\n`,
/// `\r\n` or `\r`, or at the end of the text. `None` when the line goes
/// on.
pub(super) fn line_end(text: &[u8], at: usize) -> Option<usize> {
    match text.get(at) {
        None => Some(at),
        Some(b'\n') => Some(at + 1),
        Some(b'\r') if text.get(at + 1) == Some(&b'\n') => Some(at + 2),
        Some(b'\r') => Some(at + 1),
        Some(_) => None,
    }
}

/// A move in the first seven bytes of `text`: its sign, its origin (`00`
/// for a drop), its destination, each file and rank a digit from 1 to 9,
/// and the piece as it stands after the move (`+7776FU`, `-0055KA`,
/// `+2822UM`). `None` for anything else.
pub(super) fn move_statement(text: &str) -> Option<MoveSpec> {
    let &[sign, from_file, from_rank, to_file, to_rank, ..] = text.as_bytes() else {
        return None;
    };
    let color = match sign {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    let to = digit_square(to_file, to_rank)?;
    let piece = PieceKind::from_csa(text.get(5..7)?)?;
    let mut spec = MoveSpec::new(Destination::Square(to), piece);
    spec.color = Some(color);
    if (from_file, from_rank) == (b'0', b'0') {
        spec.drop = DropMark::Drop;
    } else {
        spec.from = Some(digit_square(from_file, from_rank)?);
        spec.promotion = Promotion::ByName;
    }
    Some(spec)
}

/// The square written as two digits from 1 to 9, file then rank.
fn digit_square(file: u8, rank: u8) -> Option<Square> {
    Square::new(file.wrapping_sub(b'0'), rank.wrapping_sub(b'0'))
}

/// The most digits read: any number of seconds this long fits a `u64` of
/// milliseconds. (A longer one is the general reader's.)
const MAX_DIGITS: usize = 15;

/// A time in whole seconds, `T12`, from `at` to the end of the line: its
/// milliseconds and where it ends. Always inlined: called from the
/// reader's loop for every time line, a call of its own cost more than the
/// reading (2.2M instructions on 1,000 CSA files).
#[inline(always)]
pub(super) fn time_statement(text: &[u8], at: usize) -> Option<(u64, usize)> {
    if text.get(at) != Some(&b'T') {
        return None;
    }
    let digits = at + 1;
    let mut seconds = 0u64;
    let mut end = digits;
    while let Some(&digit) = text.get(end).filter(|b| b.is_ascii_digit()) {
        if end - digits == MAX_DIGITS {
            return None;
        }
        seconds = seconds * 10 + u64::from(digit - b'0');
        end += 1;
    }
    if end == digits {
        return None;
    }
    Some((seconds * 1000, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_at_fixed_places() {
        let spec = move_statement("+7776FU").unwrap();
        assert_eq!(spec.color, Some(Color::Black));
        assert_eq!(spec.from, Square::new(7, 7));
        assert_eq!(spec.to, Destination::Square(Square::new(7, 6).unwrap()));
        assert_eq!(spec.promotion, Promotion::ByName);
        let spec = move_statement("-0055KA,T1").unwrap();
        assert_eq!(
            (spec.color, spec.drop),
            (Some(Color::White), DropMark::Drop)
        );
        assert_eq!(spec.piece, PieceKind::Bishop);
        for declined in [
            "",
            "+7776F",
            "*7776FU",
            "+7776fu",
            "+7076FU",
            "+0776FU",
            "+7706FU",
            "+7a76FU",
            "+7776XX",
            "+7776Ｆ",
            "+77７6FU",
        ] {
            assert_eq!(move_statement(declined), None, "{declined:?}");
        }
    }

    #[test]
    fn whole_seconds_and_line_ends() {
        assert_eq!(time_statement(b"T12", 0), Some((12_000, 3)));
        assert_eq!(time_statement(b"+7776FU,T0\n", 8), Some((0, 10)));
        assert_eq!(time_statement(b"T1.5", 0), Some((1_000, 2)));
        assert_eq!(time_statement(b"T", 0), None);
        assert_eq!(time_statement(b"t1", 0), None);
        assert_eq!(time_statement(b"T-1", 0), None);
        let longest = format!("T{}", "9".repeat(MAX_DIGITS));
        assert_eq!(
            time_statement(longest.as_bytes(), 0),
            Some((999_999_999_999_999_000, MAX_DIGITS + 1))
        );
        assert_eq!(time_statement(format!("{longest}9").as_bytes(), 0), None);
        assert_eq!(line_end(b"T1", 2), Some(2));
        assert_eq!(line_end(b"T1\nT", 2), Some(3));
        assert_eq!(line_end(b"T1\r\nT", 2), Some(4));
        assert_eq!(line_end(b"T1\rT", 2), Some(3));
        assert_eq!(line_end(b"T1 ", 2), None);
    }
}
