//! Piece names in Japanese notation: the name a move gives a piece (歩,
//! 成銀, 龍), the one-character name board diagrams and hands give it (歩,
//! 全, 龍: [`PieceKind::kanji`]), and the other spellings readers meet (王
//! for 玉, 竜 for 龍).
//!
//! [`PIECE_NAMES`] is the one table: the readers ([`piece_char`], and
//! the token tables built from it) and the writer ([`move_piece_name`])
//! both look in it.

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

/// The name a move gives a piece: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍.
pub fn move_piece_name(kind: PieceKind) -> &'static str {
    // PIECE_NAMES is in PieceKind order (checked by a test).
    PIECE_NAMES[kind as usize].in_move
}

/// A piece named by one character, as board diagrams and hands write it
/// (and most moves): 歩 香 桂 銀 金 角 飛 玉 王 と 杏 圭 全 馬 竜 龍.
pub fn piece_char(c: char) -> Option<PieceKind> {
    let named = |name: &&PieceName| name.kind.kanji() == c || name.also.contains(&c);
    PIECE_NAMES.iter().find(named).map(|name| name.kind)
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
}
