use super::Color;
use std::fmt;

/// The fourteen kinds of piece: eight as they start, six promoted.
///
/// The first seven are the kinds a hand can hold, in the order `Hand` stores
/// them; `promote` and `unpromote` map between the two halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 歩, `P` / `FU`.
    Pawn = 0,
    /// 香, `L` / `KY`.
    Lance,
    /// 桂, `N` / `KE`.
    Knight,
    /// 銀, `S` / `GI`.
    Silver,
    /// 金, `G` / `KI`; never promotes.
    Gold,
    /// 角, `B` / `KA`.
    Bishop,
    /// 飛, `R` / `HI`.
    Rook,
    /// 玉 or 王, `K` / `OU`; never promotes and is never held in hand.
    King,
    /// と, a promoted pawn: `+P` / `TO`.
    ProPawn,
    /// 杏 (成香), a promoted lance: `+L` / `NY`.
    ProLance,
    /// 圭 (成桂), a promoted knight: `+N` / `NK`.
    ProKnight,
    /// 全 (成銀), a promoted silver: `+S` / `NG`.
    ProSilver,
    /// 馬, a promoted bishop: `+B` / `UM`.
    Horse,
    /// 龍 (竜), a promoted rook: `+R` / `RY`.
    Dragon,
}

use PieceKind::*;

impl PieceKind {
    /// All fourteen kinds in index order: the eight unpromoted ones, then the
    /// six promoted.
    pub const ALL: [PieceKind; 14] = [
        Pawn, Lance, Knight, Silver, Gold, Bishop, Rook, King, ProPawn, ProLance, ProKnight,
        ProSilver, Horse, Dragon,
    ];

    /// The kinds a hand can hold, in index order (pawn first).
    pub const HAND: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];

    /// How many of each hand kind a full set holds, both players together
    /// (kings apart), in [`PieceKind::HAND`] order.
    pub const SET: [(PieceKind, u8); 7] = [
        (Pawn, 18),
        (Lance, 4),
        (Knight, 4),
        (Silver, 4),
        (Gold, 4),
        (Bishop, 2),
        (Rook, 2),
    ];

    /// The kind's position in [`PieceKind::ALL`], 0–13; 0–6 are also the
    /// hand kinds' indices.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind at this index of [`PieceKind::ALL`], or `None` from 14 up.
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 14 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// The promoted kind, if this kind can promote.
    #[inline]
    pub const fn promote(self) -> Option<PieceKind> {
        match self {
            Pawn => Some(ProPawn),
            Lance => Some(ProLance),
            Knight => Some(ProKnight),
            Silver => Some(ProSilver),
            Bishop => Some(Horse),
            Rook => Some(Dragon),
            _ => None,
        }
    }

    /// The kind as it was before promotion (itself if not promoted): what a
    /// captured piece turns into in the captor's hand.
    #[inline]
    pub const fn unpromote(self) -> PieceKind {
        match self {
            ProPawn => Pawn,
            ProLance => Lance,
            ProKnight => Knight,
            ProSilver => Silver,
            Horse => Bishop,
            Dragon => Rook,
            other => other,
        }
    }

    /// Whether this is one of the six promoted kinds.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= ProPawn as u8
    }

    /// Whether the kind has a promoted form (pawn, lance, knight, silver,
    /// bishop, rook): false for gold, king and promoted kinds.
    #[inline]
    pub const fn can_promote(self) -> bool {
        self.promote().is_some()
    }

    /// Whether a hand can hold this kind (and so a drop can place it).
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < King as u8
    }

    /// The USI / SFEN letter of the unpromoted kind, upper case (`P`, `+P`
    /// is written by `Piece`).
    pub const fn usi_letter(self) -> char {
        match self.unpromote() {
            Pawn => 'P',
            Lance => 'L',
            Knight => 'N',
            Silver => 'S',
            Gold => 'G',
            Bishop => 'B',
            Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind named by a USI / SFEN letter, either case.
    pub const fn from_usi_letter(letter: u8) -> Option<PieceKind> {
        Some(match letter.to_ascii_uppercase() {
            b'P' => Pawn,
            b'L' => Lance,
            b'N' => Knight,
            b'S' => Silver,
            b'G' => Gold,
            b'B' => Bishop,
            b'R' => Rook,
            b'K' => King,
            _ => return None,
        })
    }

    /// The two-letter CSA name: `FU`, `TO`, `RY`, …
    pub const fn csa(self) -> &'static str {
        match self {
            Pawn => "FU",
            Lance => "KY",
            Knight => "KE",
            Silver => "GI",
            Gold => "KI",
            Bishop => "KA",
            Rook => "HI",
            King => "OU",
            ProPawn => "TO",
            ProLance => "NY",
            ProKnight => "NK",
            ProSilver => "NG",
            Horse => "UM",
            Dragon => "RY",
        }
    }

    /// The kind named by a CSA name.
    pub fn from_csa(name: &str) -> Option<PieceKind> {
        // The two letters as one number, matched against constants: a
        // few comparisons instead of a byte-by-byte chain.
        let &[a, b] = name.as_bytes() else {
            return None;
        };
        const FU: u16 = u16::from_be_bytes(*b"FU");
        const KY: u16 = u16::from_be_bytes(*b"KY");
        const KE: u16 = u16::from_be_bytes(*b"KE");
        const GI: u16 = u16::from_be_bytes(*b"GI");
        const KI: u16 = u16::from_be_bytes(*b"KI");
        const KA: u16 = u16::from_be_bytes(*b"KA");
        const HI: u16 = u16::from_be_bytes(*b"HI");
        const OU: u16 = u16::from_be_bytes(*b"OU");
        const TO: u16 = u16::from_be_bytes(*b"TO");
        const NY: u16 = u16::from_be_bytes(*b"NY");
        const NK: u16 = u16::from_be_bytes(*b"NK");
        const NG: u16 = u16::from_be_bytes(*b"NG");
        const UM: u16 = u16::from_be_bytes(*b"UM");
        const RY: u16 = u16::from_be_bytes(*b"RY");
        Some(match u16::from_be_bytes([a, b]) {
            FU => Pawn,
            KY => Lance,
            KE => Knight,
            GI => Silver,
            KI => Gold,
            KA => Bishop,
            HI => Rook,
            OU => King,
            TO => ProPawn,
            NY => ProLance,
            NK => ProKnight,
            NG => ProSilver,
            UM => Horse,
            RY => Dragon,
            _ => return None,
        })
    }

    /// The one-character Japanese name, as board diagrams write it:
    /// 歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍.
    pub const fn kanji(self) -> char {
        match self {
            Pawn => '歩',
            Lance => '香',
            Knight => '桂',
            Silver => '銀',
            Gold => '金',
            Bishop => '角',
            Rook => '飛',
            King => '玉',
            ProPawn => 'と',
            ProLance => '杏',
            ProKnight => '圭',
            ProSilver => '全',
            Horse => '馬',
            Dragon => '龍',
        }
    }
}

/// A piece of one color and one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What the piece is, promoted or not.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The same piece seen from the other side: the color changes.
    #[inline]
    pub const fn flip(self) -> Piece {
        Piece {
            color: self.color.flip(),
            kind: self.kind,
        }
    }

    /// The SFEN token: `P`, `+p`, `K`, … (upper case for Black).
    pub fn sfen(self) -> SfenPiece {
        SfenPiece(self)
    }
}

/// Displays a piece as SFEN writes it on the board.
#[derive(Clone, Copy, Debug)]
pub struct SfenPiece(Piece);

impl SfenPiece {
    /// Writes the token to `out` a character at a time (no formatting
    /// machinery: SFEN writes one per piece on the board).
    pub fn write_to(self, out: &mut impl fmt::Write) -> fmt::Result {
        let Piece { color, kind } = self.0;
        if kind.is_promoted() {
            out.write_char('+')?;
        }
        let letter = kind.usi_letter();
        out.write_char(match color {
            Color::Black => letter,
            Color::White => letter.to_ascii_lowercase(),
        })
    }
}

impl fmt::Display for SfenPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_pairs() {
        for kind in PieceKind::ALL {
            if let Some(promoted) = kind.promote() {
                assert!(promoted.is_promoted());
                assert_eq!(promoted.unpromote(), kind);
                assert!(kind.is_hand_kind());
            } else {
                assert_eq!(
                    kind.unpromote().promote(),
                    if kind.is_promoted() { Some(kind) } else { None }
                );
            }
        }
        assert!(!Gold.can_promote());
        assert!(!King.can_promote());
        assert!(!King.is_hand_kind());
    }

    #[test]
    fn names() {
        assert_eq!(Piece::new(Color::White, Horse).sfen().to_string(), "+b");
        assert_eq!(Piece::new(Color::Black, King).sfen().to_string(), "K");
        for kind in PieceKind::ALL {
            assert_eq!(PieceKind::from_csa(kind.csa()), Some(kind));
        }
        assert_eq!(PieceKind::from_usi_letter(b'n'), Some(Knight));
        assert_eq!(PieceKind::from_usi_letter(b'X'), None);
    }
}
