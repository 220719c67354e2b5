//! 手合割: the names the formats give the standard starts (平手, 香落ち,
//! 二枚落ち, …; `Lance`; `KY`), in one table, [`HANDICAP_NAMES`], that
//! the readers ([`handicap_named`]), the writers ([`handicap_name`]) and
//! the error for an unknown name ([`handicap_names`]) share; and the start
//! a raw game's 手合割 header names, mapped before the builder sees the
//! game ([`name_the_start`]).

use crate::error::{Error, Stage};
use crate::record::raw::{RawGame, RawHeader, Span};
use crate::record::Warning;
use crate::Handicap;

/// The header key that names the start: `手合割：平手`.
pub const HANDICAP_KEY: &str = "手合割";

/// A standard start and its Japanese, English and JKF names.
pub type HandicapNames = (Handicap, &'static str, &'static str, &'static str);

/// Every standard start and its names: in Japanese (KIF and KI2's
/// 手合割), in English (Western's `[Handicap]` tag) and JKF's preset; in
/// [`Handicap::ALL`] order (which is the order the variants are declared
/// in: a test checks both).
pub const HANDICAP_NAMES: [HandicapNames; 16] = {
    use Handicap::*;
    [
        (Even, "平手", "Even", "HIRATE"),
        (Lance, "香落ち", "Lance", "KY"),
        (RightLance, "右香落ち", "Right Lance", "KY_R"),
        (Bishop, "角落ち", "Bishop", "KA"),
        (Rook, "飛車落ち", "Rook", "HI"),
        (RookLance, "飛香落ち", "Rook-Lance", "HIKY"),
        (TwoPieces, "二枚落ち", "2-Piece", "2"),
        (ThreePieces, "三枚落ち", "3-Piece", "3"),
        (FourPieces, "四枚落ち", "4-Piece", "4"),
        (FivePieces, "五枚落ち", "5-Piece", "5"),
        (LeftFivePieces, "左五枚落ち", "Left 5-Piece", "5_L"),
        (SixPieces, "六枚落ち", "6-Piece", "6"),
        (LeftSevenPieces, "左七枚落ち", "Left 7-Piece", "7_L"),
        (RightSevenPieces, "右七枚落ち", "Right 7-Piece", "7_R"),
        (EightPieces, "八枚落ち", "8-Piece", "8"),
        (TenPieces, "十枚落ち", "10-Piece", "10"),
    ]
};

/// The name written after `手合割：`.
pub fn handicap_name(handicap: Handicap) -> &'static str {
    HANDICAP_NAMES[handicap as usize].1
}

/// The standard start with this name.
pub fn handicap_named(name: &str) -> Option<Handicap> {
    start_named(name, |row| row.1)
}

/// The standard start whose name in a row of [`HANDICAP_NAMES`], as
/// `name_in` picks it, is `name`.
pub fn start_named(name: &str, name_in: fn(&HandicapNames) -> &str) -> Option<Handicap> {
    HANDICAP_NAMES
        .iter()
        .find(|row| name_in(row) == name)
        .map(|row| row.0)
}

/// Every name, in table order, separated by `, ` (for error messages).
pub fn handicap_names() -> String {
    let names: Vec<&str> = HANDICAP_NAMES.iter().map(|row| row.1).collect();
    names.join(", ")
}

/// Maps a raw game's 手合割 header to the start it names
/// ([`RawGame::named`]), before the builder sees the game: a later 手合割
/// that differs is a warning (the first is used), text after `#` in it is
/// a warning, and a name that is no standard start is an error unless a
/// board diagram follows. Hands written without a diagram go into the
/// named start (the even game without a 手合割), as the game's board, with
/// a note that says so. Every raw game goes through here, whatever its
/// format.
pub fn name_the_start(mut raw: RawGame<'_>) -> Result<RawGame<'_>, Error> {
    let named = raw.headers.iter().find(|h| h.key == HANDICAP_KEY).cloned();
    if let Some(first) = &named {
        let same = |h: &RawHeader<'_>| h.value.trim() == first.value.trim();
        let conflicts: Vec<Warning> = raw
            .headers
            .iter()
            .filter(|h| h.key == HANDICAP_KEY && !same(h))
            .map(|h| {
                h.span.warning(format!(
                    "a second 手合割 `{}` conflicts with `{}` (line {}); the first is used",
                    h.value.trim(),
                    first.value.trim(),
                    first.span.line
                ))
            })
            .collect();
        raw.warnings.extend(conflicts);
    }
    if raw.board.is_some() {
        return Ok(raw);
    }
    let handicap = match named {
        Some(header) => named_start(&mut raw, header)?,
        None => Handicap::Even,
    };
    raw.named = Some(handicap);
    if let Some(hands) = raw.hands_only.take() {
        let mut setup = handicap.setup();
        setup.hands = hands;
        raw.board = Some(setup);
        raw.start_note = Some(format!(
            "the pieces in hand were written without a board diagram and put in the hands of the {} start",
            handicap_name(handicap)
        ));
    }
    Ok(raw)
}

/// The start a 手合割 header names, or the error that says it names none.
fn named_start(raw: &mut RawGame<'_>, header: RawHeader<'_>) -> Result<Handicap, Error> {
    let value = header
        .value
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
    // `平手#…`: a comment after the name.
    let (name, note) = match value.split_once('#') {
        Some((name, note)) => (name.trim_end(), Some(note)),
        None => (value, None),
    };
    if note.is_some() {
        raw.warnings
            .push(header.span.warning("text after `#` in 手合割 ignored"));
    }
    handicap_named(name).ok_or_else(|| {
        Span::of(header.span.line, header.span.line_text(), header.value).error(
            Stage::Parse,
            format!(
                "手合割 `{name}` is not a standard start and no board diagram follows (expected one of {}, or a diagram)",
                handicap_names()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_has_one_name_that_reads_back() {
        assert_eq!(HANDICAP_NAMES.map(|row| row.0), Handicap::ALL);
        for (handicap, name, _, _) in HANDICAP_NAMES {
            assert_eq!(handicap_name(handicap), name);
            assert_eq!(handicap_named(name), Some(handicap));
        }
        assert_eq!(handicap_named("平手 "), None);
        assert_eq!(handicap_named("香落"), None);
        assert!(handicap_names().starts_with("平手, 香落ち, 右香落ち, "));
        assert!(handicap_names().ends_with(", 八枚落ち, 十枚落ち"));
    }
}
