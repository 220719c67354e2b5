//! The move-text vocabulary of Japanese notation by its Shift_JIS (CP932)
//! code: what a double-byte code means in a move (a digit of a square, a
//! piece name, 同, a promotion or drop mark, the ideographic space), found
//! with two table lookups and without decoding the character. For the
//! fixed-place reader of KIF move lines (`format::kif::sjis_fixed`).
//!
//! The codes are not a second list: the table is built at first use by
//! encoding, with the decoder's own encoding (encoding_rs's `SHIFT_JIS`,
//! which is CP932), each character of the vocabulary tables the readers
//! use, [`digits`](super::digits) and [`pieces`](super::pieces). A
//! character CP932 also writes with a second code (the NEC and IBM
//! duplicates) is found by its first code only: the other reads as
//! [`Token::Other`], and the caller leaves the line to its general path.

use super::digits::{digit, KANJI_DIGITS};
use super::pieces::{piece_char, PIECE_NAMES};
use crate::PieceKind;
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
                    _ => assert!(MARKS.contains(&(c, token)), "{c}"),
                }
            }
        }
        // 9 + 9 digits, 16 piece names, 5 marks.
        assert_eq!(found, 9 + 9 + 16 + MARKS.len());
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
}
