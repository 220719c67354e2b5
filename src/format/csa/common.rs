//! The CSA reader's fast path: the lines nearly every CSA file is made of,
//! a move (`+7776FU`, `-0055KA`), its time in whole seconds (`T12`), or
//! both joined by a comma (`+7776FU,T12`), read at fixed places together
//! with their line ending. It reads only what the general reader reads
//! without a warning or an error, and declines anything else.

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
#[inline(always)]
pub(super) fn move_statement(text: &[u8]) -> Option<MoveSpec> {
    let &[sign, from_file, from_rank, to_file, to_rank, a, b, ..] = text else {
        return None;
    };
    let side = match sign {
        b'+' => 0,
        b'-' => 1,
        _ => return None,
    };
    let to = digit_square(to_file, to_rank)?;
    let piece = piece_named(a, b)?;
    let mut spec;
    if (from_file, from_rank) == (b'0', b'0') {
        spec = SPECS[side][DROP][piece.index()];
    } else {
        spec = SPECS[side][BOARD][piece.index()];
        spec.from = Some(digit_square(from_file, from_rank)?);
    }
    spec.to = Destination::Square(to);
    Some(spec)
}

/// The index in [`SPECS`] of a drop, and of a move on the board.
const DROP: usize = 0;
const BOARD: usize = 1;

/// Every spec [`move_statement`] makes, but for its squares (here square
/// 0, the origin's only for a board move): by side (`+`, `-`), drop or
/// board move, and piece.
const SPECS: [[[MoveSpec; 14]; 2]; 2] = {
    let placeholder = Square::from_index_unchecked(0);
    let colors = [Color::Black, Color::White];
    let mut table =
        [[[MoveSpec::new(Destination::Square(placeholder), PieceKind::Pawn); 14]; 2]; 2];
    let mut side = 0;
    while side < 2 {
        let mut i = 0;
        while i < PieceKind::ALL.len() {
            let mut spec = MoveSpec::new(Destination::Square(placeholder), PieceKind::ALL[i]);
            spec.color = Some(colors[side]);
            let mut drop = spec;
            drop.drop = DropMark::Drop;
            table[side][DROP][i] = drop;
            spec.from = Some(placeholder);
            spec.promotion = Promotion::ByName;
            table[side][BOARD][i] = spec;
            i += 1;
        }
        side += 1;
    }
    table
};

/// The square written as two digits from 1 to 9, file then rank.
#[inline(always)]
pub(super) fn digit_square(file: u8, rank: u8) -> Option<Square> {
    let (file, rank) = (file.wrapping_sub(b'1'), rank.wrapping_sub(b'1'));
    if file < 9 && rank < 9 {
        Some(Square::from_index_unchecked(
            usize::from(file) * 9 + usize::from(rank),
        ))
    } else {
        None
    }
}

/// The kind a two-letter CSA name (`FU`, `RY`, …) names, as
/// [`PieceKind::from_csa`] reads it: each of the fourteen names falls in
/// its own slot of [`NAMES`] (see [`name_slot`]).
#[inline(always)]
fn piece_named(a: u8, b: u8) -> Option<PieceKind> {
    let (name, kind) = NAMES[name_slot(a, b)];
    (name == [a, b]).then_some(kind)
}

/// The slot of a two-letter name in [`NAMES`]: the first letter plus 15
/// times the second, modulo 32, which sets the fourteen names apart.
#[inline(always)]
const fn name_slot(a: u8, b: u8) -> usize {
    (a as usize + 15 * b as usize) % 32
}

/// The name of an empty slot of [`NAMES`]: no text holds it.
const NO_NAME: [u8; 2] = [0xFF, 0xFF];

/// The fourteen CSA names, each in its slot (see [`name_slot`]) with its
/// kind; the other slots hold [`NO_NAME`] (and a kind never read).
const NAMES: [([u8; 2], PieceKind); 32] = {
    let mut table = [(NO_NAME, PieceKind::Pawn); 32];
    let mut i = 0;
    while i < PieceKind::ALL.len() {
        let kind = PieceKind::ALL[i];
        let &[a, b] = kind.csa().as_bytes() else {
            panic!("CSA names are two letters")
        };
        let slot = name_slot(a, b);
        assert!(table[slot].0[0] == NO_NAME[0], "two CSA names in one slot");
        table[slot] = ([a, b], kind);
        i += 1;
    }
    table
};

/// The most digits read: any number of seconds this long fits a `u64` of
/// milliseconds. (A longer one is the general reader's.)
const MAX_DIGITS: usize = 15;

/// A time in whole seconds, `T12`, from `at` to the end of the line: its
/// milliseconds and where it ends.
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
        // The seven bytes of a move, whatever follows them; each move's
        // spec is checked field by field below.
        let spec = move_statement(b"-0055KA,T1");
        assert!(spec.is_some() && spec == move_statement(b"-0055KA"));
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
            assert_eq!(move_statement(declined.as_bytes()), None, "{declined:?}");
        }
    }

    /// A move's spec built field by field, as the reader did before
    /// [`SPECS`].
    fn spec_by_fields(
        color: Color,
        from: Option<Square>,
        to: Square,
        piece: PieceKind,
    ) -> MoveSpec {
        let mut spec = MoveSpec::new(Destination::Square(to), piece);
        spec.color = Some(color);
        match from {
            None => spec.drop = DropMark::Drop,
            Some(from) => {
                spec.from = Some(from);
                spec.promotion = Promotion::ByName;
            }
        }
        spec
    }

    #[test]
    fn every_move_reads_as_its_spec_built_field_by_field() {
        let digits = |sq: Square| format!("{}{}", sq.file(), sq.rank());
        let squares: Vec<Square> = (0..81).filter_map(Square::from_index).collect();
        for (sign, color) in [('+', Color::Black), ('-', Color::White)] {
            for &kind in &PieceKind::ALL {
                for &to in &squares {
                    let origins = std::iter::once(None).chain(squares.iter().map(|&sq| Some(sq)));
                    for from in origins {
                        let origin = from.map_or("00".to_string(), digits);
                        let text = format!("{sign}{origin}{}{}", digits(to), kind.csa());
                        assert_eq!(
                            move_statement(text.as_bytes()),
                            Some(spec_by_fields(color, from, to, kind)),
                            "{text}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_name_table_reads_every_two_bytes_as_from_csa_does() {
        for a in 0..=u8::MAX {
            for b in 0..=u8::MAX {
                let name = [a, b];
                if name == NO_NAME {
                    // Never in text.
                    continue;
                }
                let general = std::str::from_utf8(&name)
                    .ok()
                    .and_then(PieceKind::from_csa);
                assert_eq!(piece_named(a, b), general, "{name:?}");
            }
        }
    }

    #[test]
    fn digit_squares_are_the_squares_new_makes() {
        for file in 0..=u8::MAX {
            for rank in 0..=u8::MAX {
                let general = Square::new(file.wrapping_sub(b'0'), rank.wrapping_sub(b'0'));
                assert_eq!(digit_square(file, rank), general, "{file} {rank}");
            }
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
