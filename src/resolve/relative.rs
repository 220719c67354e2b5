//! 上 引 寄 and 左 右 直: the relative markers of Japanese notation, as pure
//! functions of squares. The resolver reads them; the KI2 writer chooses
//! them. Both sides live here so that they cannot drift apart.
//!
//! Everything is seen from the mover's side: for White, "up" is towards
//! rank 9 and "right" towards file 9.

use crate::resolve::spec::{Horizontal, Vertical};
use crate::{Color, Square};

/// The rank counted from the mover's far side (1 = the opponent's back rank).
#[inline]
fn rank_for(color: Color, sq: Square) -> u8 {
    sq.relative_rank(color)
}

/// The file counted from the mover's right (1 = the mover's right edge).
#[inline]
pub fn file_for(color: Color, sq: Square) -> u8 {
    match color {
        Color::Black => sq.file(),
        Color::White => 10 - sq.file(),
    }
}

/// Which way a piece moving from `from` to `to` went: 上, 引 or 寄.
#[inline]
pub fn motion(color: Color, from: Square, to: Square) -> Vertical {
    let (a, b) = (rank_for(color, from), rank_for(color, to));
    match b.cmp(&a) {
        std::cmp::Ordering::Less => Vertical::Up,
        std::cmp::Ordering::Greater => Vertical::Down,
        std::cmp::Ordering::Equal => Vertical::Sideways,
    }
}

/// 直: straight forward on the same file.
#[inline]
pub fn is_straight(color: Color, from: Square, to: Square) -> bool {
    from.file() == to.file() && motion(color, from, to) == Vertical::Up
}

/// Whether the piece on `from` fits `marker` among pieces that could also
/// have moved to `to` from `origins` (which includes `from`): 左 and 右 pick
/// the piece furthest to that side, 直 a straight move forward.
pub fn fits_horizontal(
    marker: Horizontal,
    color: Color,
    from: Square,
    to: Square,
    origins: impl Iterator<Item = Square>,
) -> bool {
    let file = file_for(color, from);
    match marker {
        Horizontal::Straight => is_straight(color, from, to),
        Horizontal::Right => origins.into_iter().all(|o| file_for(color, o) >= file),
        Horizontal::Left => origins.into_iter().all(|o| file_for(color, o) <= file),
    }
}

/// Where `from` lies seen from `to`: right, left, or neither (same file).
fn side_of(color: Color, from: Square, to: Square) -> Option<Horizontal> {
    let (f, t) = (file_for(color, from), file_for(color, to));
    match f.cmp(&t) {
        std::cmp::Ordering::Less => Some(Horizontal::Right),
        std::cmp::Ordering::Greater => Some(Horizontal::Left),
        std::cmp::Ordering::Equal => None,
    }
}

/// The markers the JSA rules ask for when the piece on `from` moves to `to`
/// and pieces of the same kind on `others` (not including `from`) could
/// have moved there too. `pair_kind` is true for dragons and horses, whose
/// left and right are judged against each other rather than against the
/// destination, and which never take 直.
///
/// The rules, in order: nothing if no other piece could go there; the
/// motion alone (上 引 寄) if no other piece moves that way; for other
/// pieces 直 for a straight move forward; else 左 or 右, alone if that
/// settles it, else followed by the motion.
pub fn markers(
    color: Color,
    from: Square,
    to: Square,
    others: &[Square],
    pair_kind: bool,
) -> (Option<Horizontal>, Option<Vertical>) {
    if others.is_empty() {
        return (None, None);
    }
    let how = motion(color, from, to);
    let same_motion = |o: &&Square| motion(color, **o, to) == how;
    if !others.iter().any(|o| same_motion(&o)) {
        return (None, Some(how));
    }
    if pair_kind {
        // Judged against the other pieces: rightmost or leftmost of them all.
        let file = file_for(color, from);
        let side = if others.iter().all(|&o| file_for(color, o) > file) {
            Some(Horizontal::Right)
        } else if others.iter().all(|&o| file_for(color, o) < file) {
            Some(Horizontal::Left)
        } else {
            None
        };
        return match side {
            Some(side) => (Some(side), None),
            None => (None, Some(how)),
        };
    }
    if is_straight(color, from, to) {
        return (Some(Horizontal::Straight), None);
    }
    let side = side_of(color, from, to);
    let alone = others.iter().all(|&o| side_of(color, o, to) != side);
    if alone {
        (side, None)
    } else {
        (side, Some(how))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::from_usi(text).unwrap()
    }

    #[test]
    fn motion_is_seen_by_the_mover() {
        assert_eq!(motion(Color::Black, sq("5i"), sq("5h")), Vertical::Up);
        assert_eq!(motion(Color::White, sq("5i"), sq("5h")), Vertical::Down);
        assert_eq!(motion(Color::White, sq("6h"), sq("5h")), Vertical::Sideways);
        assert!(is_straight(Color::White, sq("5a"), sq("5b")));
        assert!(!is_straight(Color::Black, sq("5a"), sq("5b")));
    }

    #[test]
    fn three_golds_in_a_row() {
        // Black golds on 6i, 5i, 4i can all go to 5h.
        let all = [sq("6i"), sq("5i"), sq("4i")];
        let marks = |from: &str| {
            let from = sq(from);
            let others: Vec<Square> = all.iter().copied().filter(|&o| o != from).collect();
            markers(Color::Black, from, sq("5h"), &others, false)
        };
        assert_eq!(marks("6i"), (Some(Horizontal::Left), None));
        assert_eq!(marks("5i"), (Some(Horizontal::Straight), None));
        assert_eq!(marks("4i"), (Some(Horizontal::Right), None));
    }

    #[test]
    fn dragons_are_judged_against_each_other() {
        // Dragons on 1c and 2b can both go to 2d: both move back.
        assert_eq!(
            markers(Color::Black, sq("1c"), sq("2d"), &[sq("2b")], true),
            (Some(Horizontal::Right), None)
        );
        assert_eq!(
            markers(Color::Black, sq("2b"), sq("2d"), &[sq("1c")], true),
            (Some(Horizontal::Left), None)
        );
        // For White, right and left swap.
        assert_eq!(
            markers(Color::White, sq("1c"), sq("2d"), &[sq("2b")], true),
            (Some(Horizontal::Left), None)
        );
    }
}
