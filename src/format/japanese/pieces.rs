//! Piece names in Japanese notation: the name a move gives a piece (歩,
//! 成銀, 龍), the one-character name board diagrams and hands give it (歩,
//! 全, 龍: [`PieceKind::kanji`]), and the other spellings readers meet (王
//! for 玉, 竜 for 龍).
//!
//! [`PIECE_NAMES`] is the one table: the readers ([`piece_char`],
//! [`piece_name`]) and the writer ([`move_piece_name`]) both look in it.

use super::char_keys::{chars_of, meaning, slots_for, KeyIndex};
use crate::PieceKind;

/// How Japanese notation names one kind of piece.
#[derive(Clone, Copy, Debug)]
pub struct PieceName {
    /// The kind named.
    pub kind: PieceKind,
    /// The name a move gives it, as the writers write it: 歩 … 玉, と,
    /// 成香 成桂 成銀, 馬 龍. A board diagram uses [`PieceKind::kanji`]
    /// instead, which differs for the three promoted pieces (杏 圭 全).
    pub in_move: &'static str,
    /// Other one-character names read for it (王 for 玉, 竜 for 龍).
    pub also: &'static [char],
}

/// Every piece kind's names, in [`PieceKind`] order.
pub const PIECE_NAMES: [PieceName; 14] = {
    use PieceKind::*;
    const fn name(kind: PieceKind, in_move: &'static str, also: &'static [char]) -> PieceName {
        PieceName {
            kind,
            in_move,
            also,
        }
    }
    [
        name(Pawn, "歩", &[]),
        name(Lance, "香", &[]),
        name(Knight, "桂", &[]),
        name(Silver, "銀", &[]),
        name(Gold, "金", &[]),
        name(Bishop, "角", &[]),
        name(Rook, "飛", &[]),
        name(King, "玉", &['王']),
        name(ProPawn, "と", &[]),
        name(ProLance, "成香", &[]),
        name(ProKnight, "成桂", &[]),
        name(ProSilver, "成銀", &[]),
        name(Horse, "馬", &[]),
        name(Dragon, "龍", &['竜']),
    ]
};

/// Every one-character name readers take, with its kind: each kind's
/// [`PieceKind::kanji`] and its other spellings, flattened from
/// [`PIECE_NAMES`] when compiling (a short array is quicker to search than
/// the table).
const PIECE_CHARS: [(char, PieceKind); 16] = {
    let mut out = [('\0', PieceKind::Pawn); 16];
    let (mut i, mut n) = (0, 0);
    while i < PIECE_NAMES.len() {
        let name = PIECE_NAMES[i];
        out[n] = (name.kind.kanji(), name.kind);
        n += 1;
        let mut j = 0;
        while j < name.also.len() {
            out[n] = (name.also[j], name.kind);
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == out.len(), "every spelling has its place");
    out
};

/// The characters of [`PIECE_CHARS`], in its order.
const PIECE_CHAR_LIST: [char; PIECE_CHARS.len()] = chars_of(&PIECE_CHARS);

/// [`PIECE_CHARS`] by key, for [`piece_name`] (every one-character name
/// takes three bytes, as keys must).
const PIECE_INDEX: KeyIndex<{ slots_for(&PIECE_CHAR_LIST) }> = KeyIndex::new(&PIECE_CHAR_LIST);

/// The piece a one-character name names, from the name's
/// [key](super::char_keys::key), as [`piece_char`] reads it.
#[inline]
pub(crate) fn key_piece(k: u32) -> Option<PieceKind> {
    PIECE_INDEX.find(k).map(|place| PIECE_CHARS[place].1)
}

/// The character that starts a two-character name (成香 成桂 成銀).
const PROMOTED: char = '成';

/// The name a move gives a piece: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍.
pub fn move_piece_name(kind: PieceKind) -> &'static str {
    // PIECE_NAMES is in PieceKind order (checked by a test).
    PIECE_NAMES[kind as usize].in_move
}

/// A piece named by one character, as board diagrams and hands write it
/// (and most moves): 歩 香 桂 銀 金 角 飛 玉 王 と 杏 圭 全 馬 竜 龍.
#[inline]
pub fn piece_char(c: char) -> Option<PieceKind> {
    meaning(&PIECE_CHARS, c)
}

/// The piece named at the start of `text` (one character, or 成香 成桂
/// 成銀), and the rest.
///
/// A one-character name is found by its key, without decoding it.
#[inline]
pub fn piece_name(text: &str) -> Option<(PieceKind, &str)> {
    if let Some((place, rest)) = PIECE_INDEX.find_first(text) {
        return Some((PIECE_CHARS[place].1, rest));
    }
    if text.starts_with(PROMOTED) {
        return PIECE_NAMES
            .iter()
            .find(|name| name.in_move.starts_with(PROMOTED) && text.starts_with(name.in_move))
            .map(|name| (name.kind, &text[name.in_move.len()..]));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_piece_kind_order() {
        for (i, name) in PIECE_NAMES.iter().enumerate() {
            assert_eq!(name.kind as usize, i, "{:?}", name.kind);
        }
    }

    #[test]
    fn every_name_written_reads_back() {
        for name in PIECE_NAMES {
            let kind = name.kind;
            let in_move = move_piece_name(kind);
            assert_eq!(piece_name(in_move), Some((kind, "")), "{in_move}");
            assert_eq!(piece_name(&format!("{in_move}右")), Some((kind, "右")));
            // The board diagram's name.
            assert_eq!(piece_char(kind.kanji()), Some(kind), "{kind:?}");
        }
    }

    #[test]
    fn every_name_read_is_a_written_one_or_a_listed_spelling() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            // piece_name finds by key what piece_char finds by character.
            if c != PROMOTED {
                let text = format!("{c}x");
                assert_eq!(piece_name(&text), piece_char(c).map(|k| (k, "x")), "{c}");
            }
            let Some(kind) = piece_char(c) else {
                continue;
            };
            let name = PIECE_NAMES[kind as usize];
            let written = c == kind.kanji() || name.in_move == c.to_string();
            assert!(written || name.also.contains(&c), "{c} read as {kind:?}");
            assert_eq!(piece_name(&c.to_string()), Some((kind, "")), "{c}");
        }
        // 成 starts a name only before 香 桂 銀.
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let text = format!("成{c}");
            if let Some((kind, rest)) = piece_name(&text) {
                assert_eq!((move_piece_name(kind), rest), (text.as_str(), ""));
            }
        }
    }
}
