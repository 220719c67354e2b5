//! The move-text vocabulary of Japanese notation by its Shift_JIS (CP932)
//! code: what a double-byte code means in a move (a side mark, a digit of
//! a square, a piece name, 同, a relative marker, a promotion or drop
//! mark, the ideographic space), found with two table lookups and without
//! decoding the character. For the fixed-place readers of KIF and KI2 move
//! lines (`format::kif::sjis_fixed`, `format::ki2::sjis_fixed`).
//!
//! The codes are not a second list: the table is built at first use by
//! encoding, with the decoder's own encoding (encoding_rs's `SHIFT_JIS`,
//! which is CP932), each character of the vocabulary tables the readers
//! use, [`digits`](super::digits) and [`pieces`](super::pieces); the side
//! marks and the markers after a piece name are given the meaning the
//! move-text reader gives them ([`side_mark`], [`move_text`]), and a test
//! checks that no other code means anything to it. A
//! character CP932 also writes with a second code (the NEC and IBM
//! duplicates) is found by its first code only: the other reads as
//! [`Token::Other`], and the caller leaves the line to its general path.

use super::digits::{digit, KANJI_DIGITS};
use super::pieces::{piece_char, PIECE_NAMES};
use super::read::{move_text, side_mark};
use crate::resolve::spec::{DropMark, Horizontal, Promotion, Vertical};
use crate::{Color, PieceKind};
use std::sync::OnceLock;

/// What a double-byte code means in a move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// Nothing below.
    Other,
    /// A full-width digit `１`–`９` (a square's file), with its value.
    FullWidthDigit(u8),
    /// A kanji digit `一`–`九` (a square's rank), with its value.
    KanjiDigit(u8),
    /// A one-character piece name (歩 … 龍, 王, 竜, 全 圭 杏).
    Piece(PieceKind),
    /// 同: the previous move's square.
    Same,
    /// 成: the promotion mark, and the first character of 成香 成桂 成銀.
    Promote,
    /// 不, the first character of 不成.
    Not,
    /// 打: the drop mark.
    Drop,
    /// The ideographic space `　` (U+3000).
    IdeographicSpace,
    /// A side mark (▲ ▼ for Black, △ ▽ for White).
    SideMark(Color),
    /// A horizontal marker after the piece (右 左 直).
    Horizontal(Horizontal),
    /// A vertical marker after the piece (上 行 入, 引, 寄).
    Vertical(Vertical),
    /// 生: no promotion, as 不成.
    Decline,
}

/// The characters [`Token::Same`], [`Token::Promote`], [`Token::Not`],
/// [`Token::Drop`] and [`Token::IdeographicSpace`] stand for, as the move
/// text reader (`japanese::read::move_text`) reads them.
const MARKS: [(char, Token); 5] = [
    ('同', Token::Same),
    ('成', Token::Promote),
    ('不', Token::Not),
    ('打', Token::Drop),
    ('\u{3000}', Token::IdeographicSpace),
];

/// The side marks of the move-text reader ([`side_mark`]), those CP932
/// holds (☗ ☖ it does not); each one's color is `side_mark`'s.
const SIDE_MARKS: [char; 4] = ['▲', '▼', '△', '▽'];

/// The markers after a piece name that are no promotion or drop mark of
/// [`MARKS`]; each one's meaning is what [`move_text`] reads in it.
const MARKERS: [char; 9] = ['右', '左', '直', '上', '行', '入', '引', '寄', '生'];

/// The vocabulary by code: a row per lead byte that starts a code of the
/// vocabulary, a [`Token`] per second byte.
pub(crate) struct Tokens {
    /// The row of each lead byte in `cells`; 0, a row of
    /// [`Token::Other`], for a lead byte that starts no code of the
    /// vocabulary.
    rows: [u8; 256],
    cells: Vec<[Token; 256]>,
    /// The promoted kind 成 + a piece names (成香 is a promoted lance), by
    /// the piece's kind; `None` where 成 + that piece names nothing.
    promoted: [Option<PieceKind>; PIECE_NAMES.len()],
}

impl Tokens {
    /// What the double-byte code `lead`, `trail` means.
    #[inline]
    pub(crate) fn get(&self, lead: u8, trail: u8) -> Token {
        self.cells[usize::from(self.rows[usize::from(lead)])][usize::from(trail)]
    }

    /// What the two bytes at `at` in `bytes` mean; [`Token::Other`] past
    /// the end.
    #[inline]
    pub(crate) fn at(&self, bytes: &[u8], at: usize) -> Token {
        match bytes.get(at..at + 2) {
            Some(&[lead, trail]) => self.get(lead, trail),
            _ => Token::Other,
        }
    }

    /// The kind 成 followed by a piece of kind `kind` names (成銀 is
    /// [`PieceKind::ProSilver`]), if any.
    #[inline]
    pub(crate) fn promoted(&self, kind: PieceKind) -> Option<PieceKind> {
        self.promoted[kind as usize]
    }

    /// Gives `c` the meaning `token` at its CP932 code.
    fn insert(&mut self, c: char, token: Token) {
        let [lead, trail] = code(c);
        let row = match self.rows[usize::from(lead)] {
            0 => {
                let row = u8::try_from(self.cells.len()).expect("few rows");
                self.cells.push([Token::Other; 256]);
                self.rows[usize::from(lead)] = row;
                row
            }
            row => row,
        };
        let cell = &mut self.cells[usize::from(row)][usize::from(trail)];
        assert!(*cell == Token::Other || *cell == token, "{c}: two meanings");
        *cell = token;
    }
}

/// The CP932 code of `c`, a character of the vocabulary (each one is a
/// double-byte character).
fn code(c: char) -> [u8; 2] {
    let mut utf8 = [0; 4];
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut utf8));
    assert!(!unmappable, "{c}: not in CP932");
    <[u8; 2]>::try_from(&*bytes).unwrap_or_else(|_| panic!("{c}: not a double-byte character"))
}

/// The vocabulary by code, built at first use (see the module
/// documentation).
pub(crate) fn tokens() -> &'static Tokens {
    static TOKENS: OnceLock<Tokens> = OnceLock::new();
    TOKENS.get_or_init(|| {
        let mut tokens = Tokens {
            rows: [0; 256],
            cells: vec![[Token::Other; 256]],
            promoted: [None; PIECE_NAMES.len()],
        };
        for c in '１'..='９' {
            let n = digit(c).expect("a full-width digit");
            tokens.insert(c, Token::FullWidthDigit(n));
        }
        for c in KANJI_DIGITS {
            let n = digit(c).expect("a kanji digit");
            tokens.insert(c, Token::KanjiDigit(n));
        }
        // Every one-character name `piece_char` reads: each kind's kanji
        // and its other spellings.
        for name in PIECE_NAMES {
            for c in std::iter::once(name.kind.kanji()).chain(name.also.iter().copied()) {
                debug_assert_eq!(piece_char(c), Some(name.kind));
                tokens.insert(c, Token::Piece(name.kind));
            }
        }
        for (c, token) in MARKS {
            tokens.insert(c, token);
        }
        for c in SIDE_MARKS {
            let color = side_mark(c).expect("a side mark");
            tokens.insert(c, Token::SideMark(color));
        }
        for c in MARKERS {
            tokens.insert(c, marker(c).expect("a marker"));
        }
        // 成香 成桂 成銀: 成, then a one-character name.
        for name in PIECE_NAMES {
            let mut chars = name.in_move.chars();
            if let (Some(first), Some(second), None) = (chars.next(), chars.next(), chars.next()) {
                assert_eq!(tokens.get_char(first), Token::Promote, "{}", name.in_move);
                let base = piece_char(second).expect("a piece name after 成");
                tokens.promoted[base as usize] = Some(name.kind);
            }
        }
        tokens
    })
}

/// What [`move_text`] reads in `c` after a piece name, as a token: a
/// relative marker or 生; `None` for any other character (and for 成, 不
/// and 打, which [`MARKS`] gives).
fn marker(c: char) -> Option<Token> {
    let text = format!("７六歩{c}");
    let (spec, rest) = move_text(&text).ok()?;
    if !rest.is_empty() {
        return None;
    }
    if spec.drop != DropMark::Unmarked {
        return None;
    }
    match (spec.horizontal, spec.vertical, spec.promotion) {
        (Some(h), None, Promotion::Unmarked) => Some(Token::Horizontal(h)),
        (None, Some(v), Promotion::Unmarked) => Some(Token::Vertical(v)),
        (None, None, Promotion::Decline) => Some(Token::Decline),
        _ => None,
    }
}

impl Tokens {
    /// What the character `c` means, by its CP932 code.
    fn get_char(&self, c: char) -> Token {
        let [lead, trail] = code(c);
        self.get(lead, trail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::japanese::pieces::piece_name;
    use crate::format::japanese::sjis::pair_char;

    #[test]
    fn every_code_means_what_its_character_means() {
        let tokens = tokens();
        let mut found = 0;
        for lead in 0..=0xFF_u8 {
            for trail in 0..=0xFF_u8 {
                let token = tokens.get(lead, trail);
                if token == Token::Other {
                    continue;
                }
                found += 1;
                // The decoder reads the code as one character...
                let c = pair_char(lead, trail).expect("a character");
                // ... which means what the token says.
                match token {
                    Token::FullWidthDigit(n) => {
                        assert!(('１'..='９').contains(&c) && digit(c) == Some(n), "{c}");
                    }
                    Token::KanjiDigit(n) => assert_eq!(KANJI_DIGITS[usize::from(n) - 1], c),
                    Token::Piece(kind) => assert_eq!(piece_char(c), Some(kind), "{c}"),
                    Token::SideMark(color) => assert_eq!(side_mark(c), Some(color), "{c}"),
                    Token::Horizontal(_) | Token::Vertical(_) | Token::Decline => {
                        assert_eq!(marker(c), Some(token), "{c}");
                    }
                    _ => assert!(MARKS.contains(&(c, token)), "{c}"),
                }
            }
        }
        // 9 + 9 digits, 16 piece names, 5 marks, 4 side marks, 9 markers.
        assert_eq!(found, 9 + 9 + 16 + MARKS.len() + 4 + 9);
        for name in PIECE_NAMES {
            let promoted = PIECE_NAMES
                .iter()
                .map(|base| tokens.promoted(base.kind))
                .filter(|&k| k == Some(name.kind))
                .count();
            let two_chars = name.in_move.chars().count() == 2;
            assert_eq!(promoted, usize::from(two_chars), "{}", name.in_move);
        }
        for base in PIECE_NAMES {
            let text = format!("成{}", base.kind.kanji());
            let read = piece_name(&text).filter(|(_, rest)| rest.is_empty());
            assert_eq!(read.map(|(k, _)| k), tokens.promoted(base.kind), "{text}");
        }
    }

    #[test]
    fn every_side_mark_and_marker_cp932_holds_has_its_token() {
        // Every character CP932 writes: a side mark to `side_mark`, or a
        // marker to `move_text`, has its token at its (first) code.
        let tokens = tokens();
        let mut found = 0;
        for lead in 0..=0xFF_u8 {
            for trail in 0..=0xFF_u8 {
                let Some(c) = pair_char(lead, trail) else {
                    continue;
                };
                let mut utf8 = [0; 4];
                let (first, _, _) = encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut utf8));
                if *first != [lead, trail] {
                    continue;
                }
                let token = tokens.get(lead, trail);
                if let Some(color) = side_mark(c) {
                    assert_eq!(token, Token::SideMark(color), "{c}");
                    found += 1;
                }
                if let Some(marker) = marker(c) {
                    assert_eq!(token, marker, "{c}");
                    found += 1;
                }
            }
        }
        assert_eq!(found, SIDE_MARKS.len() + MARKERS.len());
    }
}
