//! 手合割: the names KIF and KI2 give the standard starts (平手, 香落ち,
//! 二枚落ち, …), in one table, [`HANDICAP_NAMES`], that the readers
//! ([`handicap_named`]), the writers ([`handicap_name`]) and the error
//! for an unknown name ([`handicap_names`]) share; and the start a raw
//! game's 手合割 header names, mapped before the builder sees the game
//! ([`name_the_start`]).

use crate::error::{Error, Stage};
use crate::record::raw::{RawGame, RawHeader, Span};
use crate::record::Warning;
use crate::Handicap;

/// The header key that names the start: `手合割：平手`.
pub const HANDICAP_KEY: &str = "手合割";

/// Every standard start and its name, in [`Handicap::ALL`] order (which
/// is the order the variants are declared in: a test checks both).
pub const HANDICAP_NAMES: [(Handicap, &str); 16] = [
    (Handicap::Even, "平手"),
    (Handicap::Lance, "香落ち"),
    (Handicap::RightLance, "右香落ち"),
    (Handicap::Bishop, "角落ち"),
    (Handicap::Rook, "飛車落ち"),
    (Handicap::RookLance, "飛香落ち"),
    (Handicap::TwoPieces, "二枚落ち"),
    (Handicap::ThreePieces, "三枚落ち"),
    (Handicap::FourPieces, "四枚落ち"),
    (Handicap::FivePieces, "五枚落ち"),
    (Handicap::LeftFivePieces, "左五枚落ち"),
    (Handicap::SixPieces, "六枚落ち"),
    (Handicap::LeftSevenPieces, "左七枚落ち"),
    (Handicap::RightSevenPieces, "右七枚落ち"),
    (Handicap::EightPieces, "八枚落ち"),
    (Handicap::TenPieces, "十枚落ち"),
];

/// The name written after `手合割：`.
pub fn handicap_name(handicap: Handicap) -> &'static str {
    HANDICAP_NAMES[handicap as usize].1
}

/// The standard start with this name.
pub fn handicap_named(name: &str) -> Option<Handicap> {
    HANDICAP_NAMES
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(h, _)| *h)
}

/// Every name, in table order, separated by `, ` (for error messages).
pub fn handicap_names() -> String {
    let names: Vec<&str> = HANDICAP_NAMES.iter().map(|(_, name)| *name).collect();
    names.join(", ")
}

/// Maps a raw game's 手合割 header to the start it names
/// ([`RawGame::named`]), before the builder sees the game: a later 手合割
/// that differs is a warning (the first is used), text after `#` in it is
/// a warning, and a name that is no standard start is an error unless a
/// board diagram follows. Hands written without a diagram go into the
/// named start (the even game without a 手合割), as the game's board, with
/// a note that says so. Every raw game goes through here whatever its
/// format: a 手合割 header a CSA or Western file carries names its start
/// too.
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
        assert_eq!(HANDICAP_NAMES.map(|(h, _)| h), Handicap::ALL);
        for handicap in Handicap::ALL {
            assert_eq!(HANDICAP_NAMES[handicap as usize].0, handicap);
            let name = handicap_name(handicap);
            assert_eq!(handicap_named(name), Some(handicap));
        }
    }

    #[test]
    fn every_name_read_is_the_written_one() {
        for (handicap, name) in HANDICAP_NAMES {
            assert_eq!(handicap_named(name), Some(handicap));
            assert_eq!(handicap_name(handicap_named(name).unwrap()), name);
        }
        assert_eq!(handicap_named("平手 "), None);
        assert_eq!(handicap_named("香落"), None);
        assert!(handicap_names().starts_with("平手, 香落ち, 右香落ち, "));
        assert!(handicap_names().ends_with(", 八枚落ち, 十枚落ち"));
    }
}
