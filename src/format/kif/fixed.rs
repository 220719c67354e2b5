//! KIF's commonest move line read at fixed places from its bytes, in
//! UTF-8 or CP932, before the line is even split from the text: the fast
//! branch of KIF's line step (`Dialect::FIXED_LINE`). The line read is
//!
//! ```text
//! <spaces><number><spaces><square><piece>[mark][origin]<spaces><time>
//! ```
//!
//! followed by the end of the line (CR, LF or the end of the bytes):
//! `   1 ７六歩(77)        ( 0:03/00:00:03)`. Spaces are ASCII spaces (at
//! least one after the number); the number is one to nine ASCII digits;
//! the square is a full-width digit and a kanji digit (`７六`), or 同,
//! alone or followed by one ideographic or ASCII space; the piece is a
//! one-character name (歩 … 龍, 王, 竜, 全 圭 杏) or 成 and one (成銀);
//! the mark is 成, 不成 or 打; the origin is `(` two ASCII digits 1–9 `)`;
//! the time is the sixteen-byte padded column (`( 0:03/00:00:03)`) with
//! every field after a `:` under 60. The characters are told by their
//! codes in the charset ([`Charset::tokens`]), with no decoding.
//!
//! Every other line (other spacing, the markers 右 左 上 引 寄 直, a
//! full-width origin, no time column or another form of it, a `+` or a
//! note after it, a terminal word) reads as `None`, and the line step
//! reads it the general way. Tests check that this reader reads what the
//! general one reads, on every form of the line above.

use super::columns::padded_time_bytes;
use crate::format::japanese::tokens::Token;
use crate::format::kakinoki::source::{spaces_end, Source};
use crate::format::kakinoki::FixedForm;
use crate::record::raw::Event;
use crate::resolve::spec::{DropMark, Promotion};
use crate::Square;

/// The most digits of a move number read here: no nine-digit number
/// overflows a `u32`.
const MAX_NUMBER_DIGITS: usize = 9;

/// KIF's fixed-place move line, of the form the module documentation
/// describes (see [`FixedLine`](crate::format::kakinoki::FixedLine)).
pub(crate) struct MoveLine;

impl FixedForm for MoveLine {
    #[inline(always)]
    fn read<'b, const W: usize>(
        n: u32,
        source: Source<'b>,
        start: usize,
        events: &mut Vec<Event<'b>>,
    ) -> Option<usize> {
        let bytes = &source.bytes()[start..];
        let tokens = source.charset().tokens();
        // `   1 `: the number, between spaces.
        let digits = spaces_end(bytes, 0);
        let mut at = digits;
        let mut number = 0u32;
        while let Some(&d @ b'0'..=b'9') = bytes.get(at) {
            if at - digits == MAX_NUMBER_DIGITS {
                return None;
            }
            number = number * 10 + u32::from(d - b'0');
            at += 1;
        }
        if at == digits || bytes.get(at) != Some(&b' ') {
            return None;
        }
        at = spaces_end(bytes, at);
        let text_start = at;
        // `７六歩`, or `同　成銀`: after 同, one space or none.
        let (mut spec, end) =
            tokens.destination_and_piece::<W>(bytes, at, |at| match bytes.get(at) {
                Some(b' ') => at + 1,
                _ if tokens.code::<W>(bytes, at) == Token::IdeographicSpace => at + W,
                _ => at,
            })?;
        at = end;
        // `成`, `不成`, `打`.
        match tokens.code::<W>(bytes, at) {
            Token::Promote => {
                spec.promotion = Promotion::Promote;
                at += W;
            }
            Token::Not if tokens.code::<W>(bytes, at + W) == Token::Promote => {
                spec.promotion = Promotion::Decline;
                at += 2 * W;
            }
            Token::Drop => {
                spec.drop = DropMark::Drop;
                at += W;
            }
            _ => {}
        }
        // `(77)`.
        if let Some(&[b'(', file @ b'1'..=b'9', rank @ b'1'..=b'9', b')']) = bytes.get(at..at + 4) {
            spec.from = Square::new(file - b'0', rank - b'0');
            at += 4;
        }
        let text_end = at;
        // `        ( 0:03/00:00:03)`, then the end of the line.
        at = spaces_end(bytes, at);
        let (time, under_sixty) = padded_time_bytes(bytes.get(at..)?)?;
        at += 16;
        if !(under_sixty && matches!(bytes.get(at), None | Some(b'\r' | b'\n'))) {
            return None;
        }
        let span = source.span(
            n,
            start,
            Some(start + at),
            start + text_start,
            start + text_end,
        )?;
        events.push(Event::Move {
            span,
            number: Some(number),
            spec,
            time: Some(time),
        });
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::japanese::spellings::{self, pieces, sjis, Part};
    use crate::format::japanese::tokens::Charset;
    use crate::format::kakinoki::Dialect;
    use crate::format::kif::read::Kif;
    use crate::test_util::rng::Rng;

    /// Whether the fixed reader reads the CP932 bytes.
    fn reads(bytes: &[u8]) -> bool {
        Kif::FIXED_LINE(7, Source::Cp932(bytes), 0, &mut Vec::new()).is_some()
    }

    /// Every destination the reader takes: the 81 squares, and 同 alone
    /// or with a space.
    fn destinations() -> Vec<String> {
        spellings::destinations(&["", "　", " "])
    }

    const MARKS: [&str; 4] = ["", "成", "不成", "打"];

    /// Every origin: none, and the 81 squares.
    fn origins() -> Vec<String> {
        let squares = (11..=99).filter(|n| n % 10 != 0).map(|n| format!("({n})"));
        std::iter::once(String::new()).chain(squares).collect()
    }

    #[test]
    fn every_line_of_the_form_reads_as_the_general_reader_reads_it() {
        let (destinations, pieces, origins) = (destinations(), pieces(), origins());
        let numbers = ["   1 ", "1 ", "  99  ", "123456789 ", "0 "];
        let times = [
            "        ( 0:03/00:00:03)",
            "( 0:03/00:00:03)",
            " (12:59/99:59:59)",
            "   ( 9:00/00:00:00)",
        ];
        // The whole product of destinations, pieces, marks and origins
        // (523,488 lines); the numbers and times take turns.
        let marks = MARKS.map(String::from).to_vec();
        let parts = [destinations, pieces, marks, origins];
        let read = spellings::every_line(&numbers, &parts, &times, &Kif);
        assert_eq!(read, 84 * 19 * 4 * 82);
    }

    #[test]
    fn near_misses_are_left_to_the_general_reader() {
        let good = [
            "   1 ７六歩(77)        ( 0:03/00:00:03)",
            "  12 同　成銀(31)      ( 0:10/00:01:03)",
            "  33 ８六角打          ( 0:00/00:00:00)",
            "  41 同 角不成(31)     ( 0:01/00:00:04)",
            "  42 ２二角成(88)      ( 1:02/01:10:00)",
        ];
        let tails: [&[u8]; 6] = [b"+", b" ", b" +", b"#", b" ( 0:00/00:00:00)", b"x"];
        // The time column is last: a line cut short, or with anything
        // after it, is never read.
        for text in good {
            let line = sjis(text);
            for place in 0..line.len() {
                assert!(!reads(&line[..place]), "{text}");
            }
            for tail in tails {
                assert!(!reads(&[&line[..], tail].concat()), "{text}");
            }
        }
        let left = [
            "   1 ７六歩(77)",
            "   1 ７六歩",
            "   1 ７六歩右(77)      ( 0:03/00:00:03)",
            "   1 ７六歩（77）      ( 0:03/00:00:03)",
            "   1 ７六歩(77)      ( 0:03/00:00:03)+",
            "   1 ７六歩(77)      ( 0:03/00:00:60)",
            "   1 ７六歩(77)      ( 0:60/00:00:03)",
            "   1 ７六歩(77)      ( 0:03/00:60:03)",
            "   1 ７六歩(77)      (0:3/0:0:3)",
            "   1 ７六歩(77)　    ( 0:03/00:00:03)",
            "   1 76歩(77)        ( 0:03/00:00:03)",
            "   1 ７6歩(77)       ( 0:03/00:00:03)",
            "   1 七六歩(77)      ( 0:03/00:00:03)",
            "   1 同  歩(77)      ( 0:03/00:00:03)",
            "   1 同　　歩(77)    ( 0:03/00:00:03)",
            "   1 ７六成歩(77)    ( 0:03/00:00:03)",
            "   1 ７六歩不(77)    ( 0:03/00:00:03)",
            "   1 ７六歩生(77)    ( 0:03/00:00:03)",
            "   1 ７六歩(07)      ( 0:03/00:00:03)",
            "   1 ７六歩(7)       ( 0:03/00:00:03)",
            "1234567890 ７六歩(77) ( 0:03/00:00:03)",
            "   1７六歩(77)       ( 0:03/00:00:03)",
            "   ７六歩(77)        ( 0:03/00:00:03)",
            "   3 投了            ( 0:03/00:00:03)",
            "",
        ];
        assert!(spellings::near_misses(&good, &tails, &left, &Kif) > 0);
    }

    #[test]
    fn random_lines_read_only_as_the_general_reader_reads_them() {
        // Each part of a line picked among spellings of the form and
        // others, then the line sometimes damaged: what the fixed reader
        // reads, the general reader reads the same.
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let parts = [
            Part::new(&["", " ", "   "], &["\t", "　"]),
            Part::new(&["1", "12", "0", "123456789"], &["1234567890", "", "１"]),
            Part::new(&[" ", "  "], &["", "　", "\t"]),
            Part::new(
                &destinations(),
                &["76", "７6", "七六", "同　　", "同  ", "７", "同同"],
            ),
            Part::new(&pieces(), &["成", "成歩", "成金", "不", "右", "と金"]),
            Part::new(&MARKS, &["不", "生", "右", "成成", "打成"]),
            Part::new(
                &["", "(77)", "(19)"],
                &["(07)", "(7)", "（77）", "(77", "(7７)"],
            ),
            Part::new(&["", " ", "        "], &["　", "\t", " \t "]),
            Part::new(
                &["( 0:03/00:00:03)", "(12:59/00:59:59)"],
                &[
                    "( 0:60/00:00:00)",
                    "(0:3/0:0:3)",
                    "( 0:03/)",
                    "",
                    "( 0:03/00:00:03)+",
                ],
            ),
            Part::new(&["", "\r\n", "\n", "\r", "\r\n   2 ７六歩"], &[" ", "x"]),
        ];
        let mut read = 0;
        for _ in 0..100_000 {
            let mut line = Vec::new();
            for part in &parts {
                part.pick(&mut rng, 4, &mut line);
            }
            spellings::damage(&mut rng, 3, &mut line);
            read += usize::from(spellings::agrees_in(Charset::Cp932, &line, &Kif));
        }
        assert!(read > 1_000, "{read}");
    }
}
