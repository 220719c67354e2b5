//! CSA's start position: `PI` and the pieces a handicap removes
//! (`PI82HI22KA`), the rows `P1`–`P9` (` * ` or a sign and a piece name
//! for each square, spaces between cells collapsed or not), and `P+` /
//! `P-` with pieces placed (`P+77KA`) or held (`P+00FU`), `00AL` giving
//! that player every piece of the set not placed. A position line that
//! is none of these is an error; text after the ninth square of a row that
//! is not a piece is a warning.

use super::error;
use crate::error::Error;
use crate::record::raw::Span;
use crate::record::Warning;
use crate::{Color, Piece, PieceKind, Setup, Square};
use nom::bytes::complete::take_while_m_n;
use nom::combinator::{all_consuming, consumed};
use nom::multi::many0;
use nom::{IResult, Parser};

/// The start position as it is being read.
#[derive(Default)]
pub(super) struct Start {
    pub(super) setup: Option<Setup>,
    /// `00AL` for this color, applied when the position is complete.
    pub(super) all_to: Option<Color>,
    /// A position was given and no turn line (`+` or `-`) has followed it
    /// yet: the first move's sign will say who is to move.
    pub(super) awaiting_turn: bool,
    /// The last position line, where a missing turn line is reported.
    pub(super) last_line: (u32, String),
}

impl Start {
    /// The position read, with the pieces `00AL` gives: `None` when the
    /// game had no position line.
    pub(super) fn take_board(&mut self) -> Option<Setup> {
        let mut setup = self.setup.take()?;
        if let Some(color) = self.all_to {
            for (kind, _) in PieceKind::SET {
                let remaining = setup.unplaced(kind, &[Color::Black, Color::White]);
                let hand = &mut setup.hands[color.index()];
                hand.set(kind, hand.count(kind) + remaining.unwrap_or(0));
            }
        }
        Some(setup)
    }
}

/// A square as CSA writes it, file then rank (`77`).
fn square(text: &str) -> Option<Square> {
    let &[file, rank] = text.as_bytes() else {
        return None;
    };
    super::common::digit_square(file, rank)
}

/// `PI…`, `P1`–`P9`, `P+…`, `P-…`.
pub(super) fn position_line(
    n: u32,
    line: &str,
    s: &str,
    start: &mut Start,
    warnings: &mut Vec<Warning>,
) -> Result<(), Error> {
    start.awaiting_turn = true;
    start.last_line = (n, line.to_string());
    let rest = &s[1..];
    match rest.as_bytes().first() {
        Some(b'I') => {
            let mut setup = Setup::startpos();
            setup.side_to_move = Color::Black;
            let text = &rest[1..];
            let expected = "expected pieces to remove as square and piece, such as 82HI22KA";
            for (item, (at, name)) in items(n, line, text, expected)? {
                let sq = square(at);
                let kind = PieceKind::from_csa(name);
                match (sq, kind) {
                    (Some(sq), Some(kind)) if setup.piece_at(sq).map(|p| p.kind) == Some(kind) => {
                        setup.set_piece(sq, None)
                    }
                    _ => {
                        return Err(error(
                            n,
                            line,
                            item,
                            "no such piece on that square of the starting position",
                        ))
                    }
                }
            }
            start.setup = Some(setup);
        }
        Some(b'1'..=b'9') => {
            let rank = rest.as_bytes()[0] - b'0';
            let setup = start.setup.get_or_insert_with(Setup::empty);
            row(n, line, &rest[1..], rank, setup, warnings)?;
        }
        Some(b'+') | Some(b'-') => {
            let color = if rest.starts_with('+') {
                Color::Black
            } else {
                Color::White
            };
            let text = &rest[1..];
            let expected = "expected pieces as square and piece, such as 00FU or 77KA";
            let pieces = items(n, line, text, expected)?;
            let setup = start.setup.get_or_insert_with(Setup::empty);
            for (item, (at, name)) in pieces {
                if item == "00AL" {
                    start.all_to = Some(color);
                    continue;
                }
                let kind = PieceKind::from_csa(name)
                    .ok_or_else(|| error(n, line, item, "unknown piece name (expected FU KY KE GI KI KA HI OU TO NY NK NG UM RY, or AL)"))?;
                if at == "00" {
                    if !kind.is_hand_kind() {
                        return Err(error(
                            n,
                            line,
                            item,
                            "only unpromoted pieces other than the king can be in hand",
                        ));
                    }
                    let hand = &mut setup.hands[color.index()];
                    hand.set(kind, hand.count(kind).saturating_add(1));
                } else {
                    let sq = square(at).ok_or_else(|| {
                        error(n, line, item, "expected a square 11-99, or 00 for the hand")
                    })?;
                    setup.set_piece(sq, Some(Piece::new(color, kind)));
                }
            }
        }
        _ => return Err(error(n, line, s, "expected PI, P1-P9, P+ or P-")),
    }
    Ok(())
}

/// An item of a `PI`, `P+` or `P-` line: its text, its square and its
/// piece name (`82HI`: `82`, `HI`).
type Item<'a> = (&'a str, (&'a str, &'a str));

/// The items of a `PI` or `P+` / `P-` line: a two-character square and a
/// two-letter piece name, four ASCII bytes each, each with its text. An
/// error at line `n` saying what was `expected` when the line does not
/// divide into such items.
fn items<'a>(n: u32, line: &str, input: &'a str, expected: &str) -> Result<Vec<Item<'a>>, Error> {
    if input.is_empty() {
        // A plain `PI`, the usual line.
        return Ok(Vec::new());
    }
    let two = || take_while_m_n(2, 2, |c: char| c.is_ascii());
    let item = consumed((two(), two()));
    let read: IResult<&str, _, ()> = all_consuming(many0(item)).parse(input);
    read.map(|(_, read)| read)
        .map_err(|_| error(n, line, input, expected))
}

/// A `P1`–`P9` row: nine cells, each ` * ` or a sign and a piece name. Spaces
/// between cells may be collapsed. Read by hand, so that each error message
/// stands where its case is read.
fn row(
    n: u32,
    line: &str,
    cells: &str,
    rank: u8,
    setup: &mut Setup,
    warnings: &mut Vec<Warning>,
) -> Result<(), Error> {
    let mut rest = cells;
    for file in (1..=9u8).rev() {
        rest = rest.trim_start_matches(' ');
        let sq = Square::new(file, rank).expect("on the board");
        if let Some(after) = rest.strip_prefix('*') {
            setup.set_piece(sq, None);
            rest = after;
            continue;
        }
        let cell = rest.get(..3).filter(|c| c.is_ascii()).ok_or_else(|| {
            error(
                n,
                line,
                rest,
                format!("expected nine squares in row P{rank} (` * ` or a piece such as +FU)"),
            )
        })?;
        let color = match cell.as_bytes()[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => {
                return Err(error(
                    n,
                    line,
                    cell,
                    "expected ` * `, or + or - and a piece name",
                ))
            }
        };
        let kind = PieceKind::from_csa(&cell[1..]).ok_or_else(|| {
            error(
                n,
                line,
                cell,
                "unknown piece name (expected FU KY KE GI KI KA HI OU TO NY NK NG UM RY)",
            )
        })?;
        setup.set_piece(sq, Some(Piece::new(color, kind)));
        rest = &rest[3..];
    }
    let extra = rest.trim();
    if !extra.is_empty() {
        // A piece after the ninth square is an error; anything else (a
        // stray `.`) is set aside with a warning.
        if extra.starts_with(['+', '-', '*']) {
            return Err(error(
                n,
                line,
                extra,
                format!("more than nine squares in row P{rank}"),
            ));
        }
        warnings.push(Span::of(n, line, extra).warning(format!(
            "text after the ninth square of row P{rank} ignored"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::read::parse;

    #[test]
    fn positions() {
        let rows = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n-\n";
        for (text, sfen) in [
            (
                rows,
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            (
                "PI82HI22KA\n-\n",
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            // 00AL counts the board and both hands.
            (
                "P-11OU\nP+33KI00KI\nP-00FU\nP+00AL\n+\n",
                "8k/9/6G2/9/9/9/9/9/9 b 2R2B3G4S4N4L17Pp 1",
            ),
        ] {
            let games = parse(text).unwrap();
            assert_eq!(games[0].board.as_ref().unwrap().sfen(), sfen, "{text:?}");
        }
        let err = parse("P1-KY-KE-GI-KI-OU-KI-GI-KE\n").unwrap_err();
        assert_eq!(err.location.line, 1);
    }

    #[test]
    fn piece_lists_that_do_not_divide_into_items_are_one_error() {
        for (line, column, text, message) in [
            // The whole list is named when it is not four ASCII bytes an item.
            ("PI82HI2\n", 3, "82HI2", "expected pieces to remove"),
            ("P+77KA0\n", 3, "77KA0", "expected pieces as square"),
            ("P+７７KA\n", 3, "７７KA", "expected pieces as square"),
            // An item that divides but means nothing is named alone.
            ("P+00FU7AKA\n", 7, "7AKA", "expected a square"),
            ("P-00FU77XX\n", 7, "77XX", "unknown piece name"),
        ] {
            let e = parse(line).unwrap_err();
            let at = (e.location.column, e.location.text.as_str());
            assert_eq!(at, (column, text), "{line:?}");
            assert!(e.message.starts_with(message), "{line:?}: {}", e.message);
        }
    }
}
