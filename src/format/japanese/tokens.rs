//! The move-text vocabulary of Japanese notation by its code in UTF-8 and
//! CP932: what a character's bytes mean in a move (a side mark, a digit of
//! a square, a piece name, 同, a marker after the piece, the ideographic
//! space), found by table lookups without decoding. The move-text reader
//! (`japanese::read`) reads its text through the UTF-8 table; the
//! fixed-place move lines of KIF and KI2 (`format::kif::fixed`,
//! `format::ki2::fixed`) read bytes in either charset.
//!
//! Each table is built at first use by encoding the characters of the
//! vocabulary tables ([`digits`](super::digits), [`pieces`](super::pieces),
//! [`SIDE_MARKS`] and [`MARKS`]). Every character of the vocabulary is two
//! bytes in CP932 and three in UTF-8; CP932's second codes (the NEC and IBM
//! duplicates) read as [`Token::Other`], leaving the line to the general
//! way.

use super::digits::{digit, KANJI_DIGITS};
use super::pieces::{piece_char, PIECE_NAMES};
use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::{Color, PieceKind, Square};
use std::sync::OnceLock;

/// The charsets the Kakinoki reader reads from bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Charset {
    /// UTF-8: the bytes are the text.
    Utf8,
    /// CP932 (Shift_JIS as Windows writes it).
    Cp932,
}

impl Charset {
    /// The bytes of `c` in this charset, if it has them.
    fn encode(self, c: char) -> Option<Vec<u8>> {
        let mut utf8 = [0; 4];
        let text = c.encode_utf8(&mut utf8);
        match self {
            Charset::Utf8 => Some(text.as_bytes().to_vec()),
            Charset::Cp932 => {
                let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
                (!unmappable).then(|| bytes.into_owned())
            }
        }
    }

    /// The vocabulary by code in this charset, built at first use.
    pub(crate) fn tokens(self) -> &'static Tokens {
        static CP932: OnceLock<Tokens> = OnceLock::new();
        static UTF8: OnceLock<Tokens> = OnceLock::new();
        match self {
            Charset::Cp932 => CP932.get_or_init(|| Tokens::build(self)),
            Charset::Utf8 => UTF8.get_or_init(|| Tokens::build(self)),
        }
    }
}

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

/// The side marks, each with the side it marks: ▲ ☗ ▼ mark Black (先手,
/// 下手); △ ☖ ▽ mark White.
pub(super) const SIDE_MARKS: [(char, Color); 6] = [
    ('▲', Color::Black),
    ('☗', Color::Black),
    ('▼', Color::Black),
    ('△', Color::White),
    ('☖', Color::White),
    ('▽', Color::White),
];

/// The characters a move text uses besides digits, piece names and side
/// marks, each with what it means: 同, the ideographic space, and the
/// markers after the piece (生 is 不成; 不 is a marker only before 成).
pub(super) const MARKS: [(char, Token); 14] = [
    ('同', Token::Same),
    ('\u{3000}', Token::IdeographicSpace),
    ('右', Token::Horizontal(Horizontal::Right)),
    ('左', Token::Horizontal(Horizontal::Left)),
    ('直', Token::Horizontal(Horizontal::Straight)),
    ('上', Token::Vertical(Vertical::Up)),
    ('行', Token::Vertical(Vertical::Up)),
    ('入', Token::Vertical(Vertical::Up)),
    ('引', Token::Vertical(Vertical::Down)),
    ('寄', Token::Vertical(Vertical::Sideways)),
    ('成', Token::Promote),
    ('生', Token::Decline),
    ('不', Token::Not),
    ('打', Token::Drop),
];

/// The meaning of `c` in a table of `(character, meaning)` pairs.
pub(super) fn meaning<T: Copy>(table: &[(char, T)], c: char) -> Option<T> {
    table.iter().find(|&&(key, _)| key == c).map(|&(_, m)| m)
}

/// The vocabulary by code, as byte tables: the bytes of a code but its
/// last pick a row of `leaves` (a CP932 lead byte, by `leads`; the first
/// two bytes of a three-byte UTF-8 character, by `pairs`), its last byte
/// a [`Token`] in the row. Row 0 is all [`Token::Other`]: a code of no
/// vocabulary character leads there.
pub(crate) struct Tokens {
    /// How many bytes each code of the vocabulary has.
    width: usize,
    leads: [u16; 256],
    /// By the low four bits of the first byte (`E0`–`EF`) and the low six
    /// of the second (`80`–`BF`).
    pairs: [u16; 1024],
    leaves: Vec<[Token; 256]>,
    /// The promoted kind 成 + a piece names (成香 is a promoted lance), by
    /// the piece's kind; `None` where 成 + that piece names nothing.
    promoted: [Option<PieceKind>; PIECE_NAMES.len()],
}

impl Tokens {
    /// What the code at `at` in `bytes` means; [`Token::Other`] past the
    /// end.
    pub(crate) fn at(&self, bytes: &[u8], at: usize) -> Token {
        match self.width {
            2 => self.code::<2>(bytes, at),
            _ => self.code::<3>(bytes, at),
        }
    }

    /// [`Tokens::at`] for a table whose codes are `W` bytes long, for
    /// readers made for one charset.
    #[inline(always)]
    pub(crate) fn code<const W: usize>(&self, bytes: &[u8], at: usize) -> Token {
        debug_assert_eq!(W, self.width);
        let Some(code) = bytes.get(at..at + W) else {
            return Token::Other;
        };
        let row = if W == 3 {
            match pair(code[0], code[1]) {
                Some(pair) => self.pairs[pair],
                None => return Token::Other,
            }
        } else {
            self.leads[usize::from(code[0])]
        };
        self.leaves[usize::from(row)][usize::from(code[W - 1])]
    }

    /// The digit at `at`, full-width or kanji.
    #[inline(always)]
    pub(crate) fn digit<const W: usize>(&self, bytes: &[u8], at: usize) -> Option<u8> {
        match self.code::<W>(bytes, at) {
            Token::FullWidthDigit(n) | Token::KanjiDigit(n) => Some(n),
            _ => None,
        }
    }

    /// The piece at `at` (`歩`, or `成銀`: 成 and the piece it promotes)
    /// and where it ends.
    #[inline(always)]
    pub(crate) fn piece<const W: usize>(
        &self,
        bytes: &[u8],
        at: usize,
    ) -> Option<(PieceKind, usize)> {
        match self.code::<W>(bytes, at) {
            Token::Piece(kind) => Some((kind, at + W)),
            Token::Promote => {
                let Token::Piece(base) = self.code::<W>(bytes, at + W) else {
                    return None;
                };
                Some((self.promoted[base as usize]?, at + 2 * W))
            }
            _ => None,
        }
    }

    /// The destination and the piece at `at` (`７六歩`, `同　成銀`), as the
    /// move they start, and where they end: the move lines of KIF and KI2
    /// begin alike. `gap` says where the spaces each allows after 同 end.
    #[inline(always)]
    pub(crate) fn destination_and_piece<const W: usize>(
        &self,
        bytes: &[u8],
        at: usize,
        gap: impl Fn(usize) -> usize,
    ) -> Option<(MoveSpec, usize)> {
        let (to, at) = match self.code::<W>(bytes, at) {
            // `７六`: a full-width digit, then a kanji digit.
            Token::FullWidthDigit(file) => {
                let Token::KanjiDigit(rank) = self.code::<W>(bytes, at + W) else {
                    return None;
                };
                (Destination::Square(Square::new(file, rank)?), at + 2 * W)
            }
            Token::Same => (Destination::Same, gap(at + W)),
            _ => return None,
        };
        let (piece, end) = self.piece::<W>(bytes, at)?;
        Some((MoveSpec::new(to, piece), end))
    }

    /// Reads the markers at `at` (`右`, `上`, `成`, `不成`, `打`…, as many
    /// as are written, the last of a kind winning) into `spec`; returns
    /// where they end.
    #[inline(always)]
    pub(crate) fn markers<const W: usize>(
        &self,
        bytes: &[u8],
        mut at: usize,
        spec: &mut MoveSpec,
    ) -> usize {
        loop {
            match self.code::<W>(bytes, at) {
                Token::Horizontal(h) => spec.horizontal = Some(h),
                Token::Vertical(v) => spec.vertical = Some(v),
                Token::Promote => spec.promotion = Promotion::Promote,
                Token::Decline => spec.promotion = Promotion::Decline,
                Token::Drop => spec.drop = DropMark::Drop,
                // 不 is a marker only before 成.
                Token::Not if self.code::<W>(bytes, at + W) == Token::Promote => {
                    spec.promotion = Promotion::Decline;
                    at += W;
                }
                _ => return at,
            }
            at += W;
        }
    }

    /// Gives `code` the meaning `token`.
    fn insert(&mut self, code: &[u8], token: Token) {
        let slot = match *code {
            [a, _] if self.width == 2 => &mut self.leads[usize::from(a)],
            [a, b, _] if self.width == 3 => {
                let at = pair(a, b).unwrap_or_else(|| panic!("{code:?}: not three-byte UTF-8"));
                &mut self.pairs[at]
            }
            _ => panic!("{code:?}: not {} bytes", self.width),
        };
        if *slot == 0 {
            *slot = u16::try_from(self.leaves.len()).expect("few rows");
            self.leaves.push([Token::Other; 256]);
        }
        let leaf = usize::from(*slot);
        let cell = &mut self.leaves[leaf][usize::from(code[code.len() - 1])];
        assert!(
            *cell == Token::Other || *cell == token,
            "{code:?}: two meanings"
        );
        *cell = token;
    }

    /// What the character `c` means in `charset`.
    fn get_char(&self, charset: Charset, c: char) -> Token {
        charset
            .encode(c)
            .map_or(Token::Other, |code| self.at(&code, 0))
    }

    /// The vocabulary by code in `charset` (see the module documentation).
    fn build(charset: Charset) -> Tokens {
        let width = match charset {
            Charset::Utf8 => 3,
            Charset::Cp932 => 2,
        };
        let mut tokens = Tokens {
            width,
            leads: [0; 256],
            pairs: [0; 1024],
            leaves: vec![[Token::Other; 256]],
            promoted: [None; PIECE_NAMES.len()],
        };
        let mut put = |c: char, token: Token| {
            if let Some(code) = charset.encode(c) {
                tokens.insert(&code, token);
            }
        };
        for c in '１'..='９' {
            put(
                c,
                Token::FullWidthDigit(digit(c).expect("a full-width digit")),
            );
        }
        for c in KANJI_DIGITS {
            put(c, Token::KanjiDigit(digit(c).expect("a kanji digit")));
        }
        // Every one-character name `piece_char` reads: each kind's kanji
        // and its other spellings.
        for name in PIECE_NAMES {
            for c in std::iter::once(name.kind.kanji()).chain(name.also.iter().copied()) {
                debug_assert_eq!(piece_char(c), Some(name.kind));
                put(c, Token::Piece(name.kind));
            }
        }
        for (c, token) in MARKS {
            put(c, token);
        }
        // CP932 has no ☗ ☖.
        for (c, color) in SIDE_MARKS {
            put(c, Token::SideMark(color));
        }
        // 成香 成桂 成銀: 成, then a one-character name.
        for name in PIECE_NAMES {
            let mut chars = name.in_move.chars();
            if let (Some(first), Some(second), None) = (chars.next(), chars.next(), chars.next()) {
                let promote = tokens.get_char(charset, first);
                assert_eq!(promote, Token::Promote, "{}", name.in_move);
                let base = piece_char(second).expect("a piece name after 成");
                tokens.promoted[base as usize] = Some(name.kind);
            }
        }
        tokens
    }
}

/// Where the first two bytes of a three-byte UTF-8 character (`E0`–`EF`,
/// then `80`–`BF`) are in [`Tokens::pairs`]; `None` for other bytes.
#[inline(always)]
fn pair(first: u8, second: u8) -> Option<usize> {
    (first & 0xF0 == 0xE0 && second & 0xC0 == 0x80)
        .then(|| usize::from(first & 0x0F) << 6 | usize::from(second & 0x3F))
}

/// The digit 1–9 `text` starts with, as [`digit`] reads it, and the rest:
/// from the bytes, without decoding the character (a move's square is two
/// of these).
#[inline]
pub fn leading_digit(text: &str) -> Option<(u8, &str)> {
    let bytes = text.as_bytes();
    match *bytes.first()? {
        b @ b'1'..=b'9' => Some((b - b'0', &text[1..])),
        // Both other forms take three bytes.
        _ => Some((Charset::Utf8.tokens().digit::<3>(bytes, 0)?, &text[3..])),
    }
}

/// The piece named at the start of `text` (one character, or 成香 成桂
/// 成銀), and the rest, found without decoding the name.
#[inline]
pub fn piece_name(text: &str) -> Option<(PieceKind, &str)> {
    let (kind, end) = Charset::Utf8.tokens().piece::<3>(text.as_bytes(), 0)?;
    Some((kind, &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::japanese::pieces::move_piece_name;
    use crate::format::japanese::read::side_mark;

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
            // piece_name finds by bytes what piece_char finds by character.
            if c != '成' {
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

    #[test]
    fn leading_digit_reads_what_digit_reads() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let text = format!("{c}x");
            let expected = digit(c).map(|n| (n, "x"));
            assert_eq!(leading_digit(&text), expected, "{c:?}");
        }
        assert_eq!(leading_digit(""), None);
    }

    /// What `c` means in the vocabulary tables, as a token.
    fn token_of(c: char) -> Token {
        if ('１'..='９').contains(&c) {
            return Token::FullWidthDigit(digit(c).expect("a digit"));
        }
        if let Some(at) = KANJI_DIGITS.iter().position(|&k| k == c) {
            return Token::KanjiDigit(at as u8 + 1);
        }
        if let Some(kind) = piece_char(c) {
            return Token::Piece(kind);
        }
        if let Some(color) = side_mark(c) {
            return Token::SideMark(color);
        }
        meaning(&MARKS, c).unwrap_or(Token::Other)
    }

    #[test]
    fn every_code_means_what_its_character_means() {
        for (charset, side_marks) in [(Charset::Cp932, 4), (Charset::Utf8, 6)] {
            let tokens = charset.tokens();
            let mut found = 0;
            for c in (0..0x1_0000).filter_map(char::from_u32) {
                let Some(code) = charset.encode(c) else {
                    continue;
                };
                let token = tokens.at(&code, 0);
                if code.len() == tokens.width {
                    assert_eq!(token, token_of(c), "{c} in {charset:?}");
                } else {
                    assert_eq!(token, Token::Other, "{c} in {charset:?}");
                }
                found += usize::from(token != Token::Other);
            }
            // No code means anything but those of the characters above.
            let cells = tokens.leaves.iter().flatten();
            assert_eq!(cells.filter(|&&t| t != Token::Other).count(), found);
            // 9 + 9 digits, 16 piece names, the marks and side marks.
            assert_eq!(found, 9 + 9 + 16 + MARKS.len() + side_marks);
            for base in PIECE_NAMES {
                let text = format!("成{}", base.kind.kanji());
                let named = PIECE_NAMES.iter().find(|name| name.in_move == text);
                let promoted = tokens.promoted[base.kind as usize];
                assert_eq!(promoted, named.map(|name| name.kind), "{text}");
            }
        }
    }

    #[test]
    fn short_or_foreign_bytes_mean_nothing() {
        let tokens = Charset::Utf8.tokens();
        let seven = "７".as_bytes();
        assert_eq!(tokens.at(seven, 0), Token::FullWidthDigit(7));
        assert_eq!(tokens.at(&seven[..2], 0), Token::Other);
        assert_eq!(tokens.at(seven, 1), Token::Other);
        assert_eq!(tokens.at(b"abc", 0), Token::Other);
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("７");
        assert_eq!(
            Charset::Cp932.tokens().at(&sjis, 0),
            Token::FullWidthDigit(7)
        );
        assert_eq!(Charset::Cp932.tokens().at(seven, 0), Token::Other);
    }
}
