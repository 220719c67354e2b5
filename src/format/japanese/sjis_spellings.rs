//! For the tests of the fixed-place Shift_JIS readers (`kif::sjis_fixed`,
//! `ki2::sjis_fixed`): text to and from CP932, and every spelling of the
//! parts of a move that both readers take, drawn from the vocabulary
//! tables, so that each reader's test enumerates the same words.

use super::digits::KANJI_DIGITS;
use super::pieces::PIECE_NAMES;

/// `text` in CP932 (every character of it must have a code).
pub(crate) fn sjis(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!unmappable, "{text}");
    bytes.into_owned()
}

/// CP932 `bytes` as text, for a failing test's message.
pub(crate) fn show(bytes: &[u8]) -> String {
    encoding_rs::SHIFT_JIS.decode(bytes).0.into_owned()
}

/// The 81 squares as a move writes them: a full-width digit and a kanji
/// digit (`７六`).
pub(crate) fn squares() -> Vec<String> {
    let mut out = Vec::new();
    for file in '１'..='９' {
        for rank in KANJI_DIGITS {
            out.push(format!("{file}{rank}"));
        }
    }
    out
}

/// Every piece spelling: the one-character names (with 王, 竜, 全, 圭,
/// 杏) and 成香 成桂 成銀.
pub(crate) fn pieces() -> Vec<String> {
    let mut out = Vec::new();
    for name in PIECE_NAMES {
        out.push(name.kind.kanji().to_string());
        out.extend(name.also.iter().map(char::to_string));
        if name.in_move.chars().count() == 2 {
            out.push(name.in_move.to_string());
        }
    }
    out
}
