//! The move numbers of a Western game, checked once the game is read: a
//! game may count in pairs as in chess (`1. P-7f P-3d 2. P-2f`,
//! `1... P-3d`) or one by one (`1.P-7f 2.P-3d`); the count that fits better
//! is taken and every number that disagrees with it is a warning.

use crate::record::raw::{Columns, Span};
use crate::record::Warning;

/// A move number and the move it was written before.
#[derive(Clone, Copy, Debug)]
pub(super) struct Numbered<'a> {
    /// The move's index in the game, from 0.
    pub(super) index: u32,
    pub(super) number: u32,
    pub(super) ellipsis: bool,
    pub(super) span: Span<'a>,
}

/// How a game counts its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Count {
    /// As in chess: `1. P-7f P-3d 2. P-2f`, `1... P-3d`.
    Pairs,
    /// One by one: `1.P-7f 2.P-3d`.
    Plies,
}

impl Count {
    /// The position (from 0) a number claims for its move, if this count
    /// can write it.
    fn slot(self, number: u32, ellipsis: bool) -> Option<i64> {
        let n = i64::from(number) - 1;
        match (self, ellipsis) {
            (Count::Pairs, _) => Some(2 * n + i64::from(ellipsis)),
            (Count::Plies, false) => Some(n),
            (Count::Plies, true) => None,
        }
    }

    /// How this count writes the number of the move at `slot`.
    fn write(self, slot: i64) -> String {
        match self {
            Count::Pairs if slot % 2 == 1 => format!("{}...", slot / 2 + 1),
            Count::Pairs => format!("{}.", slot / 2 + 1),
            Count::Plies => format!("{}.", slot + 1),
        }
    }

    /// Whether a game from a standard start may begin at this offset.
    fn fits_start(self, offset: i64) -> bool {
        match self {
            Count::Pairs => offset == 0 || offset == 1,
            Count::Plies => offset == 0,
        }
    }
}

/// The numbers that disagree with `count` and the slot each should have
/// named, re-counting from each disagreeing number so that one slip is one
/// warning; `None` if the count cannot write some number at all.
fn disagreements(
    count: Count,
    numbered: &[Numbered<'_>],
    fixed_start: bool,
) -> Option<Vec<(usize, i64)>> {
    let mut found = Vec::new();
    let mut offset: Option<i64> = None;
    for (i, n) in numbered.iter().enumerate() {
        let index = i64::from(n.index);
        let here = count.slot(n.number, n.ellipsis)? - index;
        let expected = match offset {
            None if fixed_start && !count.fits_start(here) => Some(index),
            Some(o) if o != here => Some(index + o),
            _ => None,
        };
        if let Some(slot) = expected {
            found.push((i, slot));
        }
        offset = Some(here);
    }
    Some(found)
}

/// The warnings for the move numbers of a game: those that disagree with
/// the count that fits best (pairs when both fit equally). Only the chosen
/// count's warnings are written, their columns counted in one pass.
pub(super) fn number_warnings(numbered: &[Numbered<'_>], fixed_start: bool) -> Vec<Warning> {
    let pairs = disagreements(Count::Pairs, numbered, fixed_start);
    let plies = disagreements(Count::Plies, numbered, fixed_start);
    let (count, found) = match (pairs, plies) {
        (pairs, Some(plies)) if plies.len() < pairs.as_ref().map_or(0, Vec::len) => {
            (Count::Plies, plies)
        }
        (pairs, _) => (Count::Pairs, pairs.unwrap_or_default()),
    };
    let mut columns = Columns::default();
    found
        .into_iter()
        .map(|(i, slot)| {
            let n = &numbered[i];
            n.span.warning_after(
                &mut columns,
                format!(
                    "move number `{}` does not fit the moves before it (expected `{}`)",
                    n.span.text(),
                    count.write(slot)
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(list: &[(u32, u32, bool)]) -> Vec<Numbered<'static>> {
        list.iter()
            .map(|&(index, number, ellipsis)| Numbered {
                index,
                number,
                ellipsis,
                span: Span::of(1, "1.", "1."),
            })
            .collect()
    }

    #[test]
    fn numbers_in_pairs_or_one_by_one() {
        // 1. a b 2. c d 3. e
        let pairs = numbered(&[(0, 1, false), (2, 2, false), (4, 3, false)]);
        assert!(number_warnings(&pairs, true).is_empty());
        // 1. a 1... b 2. c
        let dotted = numbered(&[(0, 1, false), (1, 1, true), (2, 2, false)]);
        assert!(number_warnings(&dotted, true).is_empty());
        // 1... a 2. b c 3. d (White first)
        let white_first = numbered(&[(0, 1, true), (1, 2, false), (3, 3, false)]);
        assert!(number_warnings(&white_first, true).is_empty());
        // 1.a 2.b 3.c
        let plies = numbered(&[(0, 1, false), (1, 2, false), (2, 3, false)]);
        assert!(number_warnings(&plies, true).is_empty());
        // From an SFEN, any first number.
        let late = numbered(&[(0, 40, false), (2, 41, false)]);
        assert!(number_warnings(&late, false).is_empty());
        assert_eq!(number_warnings(&late, true).len(), 1);
        // One slip, one warning.
        let slip = numbered(&[(0, 1, false), (2, 2, false), (4, 5, false), (6, 6, false)]);
        let w = number_warnings(&slip, true);
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("expected `3.`"), "{}", w[0].message);
    }
}
