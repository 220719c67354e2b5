//! KI2's move lines read at fixed places from their bytes, in UTF-8 or
//! CP932, before the line is even split from the text: the fast branch of
//! KI2's line step (`Dialect::FIXED_LINE`). The line read is
//!
//! ```text
//! <spaces><move>[<spaces><move>]…<spaces>
//! ```
//!
//! followed by the end of the line (CR, LF or the end of the bytes):
//! `▲７六歩    △３四歩    ▲２二角成  △同　銀`. Spaces are ASCII or
//! ideographic spaces, any number of them (none between two moves); a
//! move is a side mark (▲ ▼ △ ▽, and ☗ ☖ in UTF-8), a destination, a
//! piece and markers. The destination is a full-width digit and a kanji
//! digit (`７六`), or 同 followed by spaces or none; the piece is a
//! one-character name (歩 … 龍, 王, 竜, 全 圭 杏) or 成 and one (成銀);
//! the markers are any of 右 左 直 上 行 入 引 寄 成 生 打 and 不成, in
//! any order, the last of a kind winning, as the move-text reader reads
//! them. The characters are told by their codes in the charset
//! ([`Charset::tokens`](crate::format::japanese::tokens::Charset::tokens)),
//! with no decoding.
//!
//! Every other line (a tab, a terminal word such as `△投了`, a half-width
//! square, `７六同歩`, a 不 not before 成, a note, no side mark) reads as
//! `None`, and the line step reads it the general way; tests check that
//! this reader reads what that one reads, on every form of the move above.

use crate::format::japanese::tokens::{Token, Tokens};
use crate::format::kakinoki::source::{line_end, spaces_end, Source};
use crate::format::kakinoki::FixedForm;
use crate::record::raw::Event;
use crate::resolve::spec::MoveSpec;

/// KI2's fixed-place move line, of the form the module documentation
/// describes (see [`FixedLine`](crate::format::kakinoki::FixedLine)).
pub(crate) struct MovesLine;

impl FixedForm for MovesLine {
    #[inline(never)]
    fn read<'b, const W: usize>(
        n: u32,
        source: Source<'b>,
        start: usize,
        events: &mut Vec<Event<'b>>,
    ) -> Option<usize> {
        let bytes = &source.bytes()[start..];
        let tokens = source.charset().tokens();
        let (mut at, first) = spaces::<W>(tokens, bytes, 0);
        // Most lines that are no move line fail at the first move.
        let mut read = fixed_move::<W>(tokens, bytes, at, first)?;
        // A span of text names its line; one of bytes finds it when quoted.
        let line_end = match source {
            Source::Text(_) => Some(start + line_end(bytes).0),
            _ => None,
        };
        let before = events.len();
        loop {
            let (spec, after) = read;
            let Some(span) = source.span(n, start, line_end, start + at, start + after) else {
                events.truncate(before);
                return None;
            };
            events.push(Event::unnumbered_move(span, spec));
            let next;
            (at, next) = spaces::<W>(tokens, bytes, after);
            if matches!(bytes.get(at), None | Some(b'\r' | b'\n')) {
                return Some(at);
            }
            let Some(next) = fixed_move::<W>(tokens, bytes, at, next) else {
                events.truncate(before);
                return None;
            };
            read = next;
        }
    }
}

/// The move at `at` in `bytes` (side mark, destination, piece, markers),
/// whose first character is `first`, and where it ends, if it is of the form the module documentation
/// describes and is followed by a space, a side mark or the end of the
/// line (what the general reader requires after a move); `None` for
/// anything else.
#[inline(always)]
fn fixed_move<const W: usize>(
    tokens: &Tokens,
    bytes: &[u8],
    mut at: usize,
    first: Token,
) -> Option<(MoveSpec, usize)> {
    // `▲`.
    let Token::SideMark(color) = first else {
        return None;
    };
    at += W;
    // `７六歩`, or `同　成銀`: after 同, any spaces.
    let (mut spec, end) =
        tokens.destination_and_piece::<W>(bytes, at, |at| spaces::<W>(tokens, bytes, at).0)?;
    at = end;
    spec.color = Some(color);
    // `右`, `上`, `成`, `不成`, `打`…, as many as are written.
    at = tokens.markers::<W>(bytes, at, &mut spec);
    // A space, the next move's side mark, or the end of the line.
    let follows = match bytes.get(at) {
        None | Some(b' ' | b'\r' | b'\n') => true,
        Some(_) => matches!(
            tokens.code::<W>(bytes, at),
            Token::IdeographicSpace | Token::SideMark(_)
        ),
    };
    follows.then_some((spec, at))
}

/// Where the run of spaces (ASCII and ideographic) at `at` in `bytes`
/// ends, and the character there.
#[inline(always)]
fn spaces<const W: usize>(tokens: &Tokens, bytes: &[u8], mut at: usize) -> (usize, Token) {
    loop {
        at = spaces_end(bytes, at);
        match tokens.code::<W>(bytes, at) {
            Token::IdeographicSpace => at += W,
            token => return (at, token),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::Ki2;
    use crate::format::japanese::spellings::{self, pieces, Part};
    use crate::format::japanese::tokens::Charset;
    use crate::test_util::rng::Rng;

    const SIDES: [&str; 4] = ["▲", "▼", "△", "▽"];

    /// Every destination the reader takes: the 81 squares, and 同 alone or
    /// with spaces.
    fn destinations() -> Vec<String> {
        spellings::destinations(&["", "　", " ", "　　", "  ", " 　"])
    }

    /// Every marker the reader takes after a piece.
    const MARKERS: [&str; 12] = [
        "右", "左", "直", "上", "行", "入", "引", "寄", "成", "生", "打", "不成",
    ];

    /// The markers written after a piece: none, each one, and every
    /// ordered pair.
    fn marker_runs() -> Vec<String> {
        let mut out = vec![String::new()];
        out.extend(MARKERS.map(String::from));
        let pairs = MARKERS
            .iter()
            .flat_map(|a| MARKERS.map(|b| format!("{a}{b}")));
        out.extend(pairs);
        out
    }

    #[test]
    fn every_move_of_the_form_reads_as_the_general_reader_reads_it() {
        let (destinations, pieces, markers) = (destinations(), pieces(), marker_runs());
        // What the move is put between, taking turns.
        let before = ["", "  ", "　", " 　 "];
        let after = [
            "",
            "    ",
            "    △３四歩",
            "△同　歩",
            "　▲５五角成  ",
            "  ▽同 と",
        ];
        // The whole product (4 x 87 x 19 x 157 = 1,038,084 moves).
        let sides = SIDES.map(String::from).to_vec();
        let parts = [sides, destinations, pieces, markers];
        let read = spellings::every_line(&before, &parts, &after, &Ki2);
        assert_eq!(read, 4 * 87 * 19 * 157);
    }

    #[test]
    fn near_misses_are_left_to_the_general_reader() {
        let good = [
            "▲７六歩    △３四歩    ▲２二角成  △同　銀",
            "▲５八金左  △６二金寄  ▲３一成香  △同 龍引",
            "▼８六角打△４四歩不成▲同  と直  ▽１一香生",
            "  ▲６九玉  ",
            "　△５五銀右上",
        ];
        let tails: [&[u8]; 6] = [b"x", b"\t", b" #", b" (77)", b"+", b"\x81\xa2"];
        let left = [
            "▲７六歩    △投了",
            "▲７六歩\t△３四歩",
            "\t▲７六歩",
            "▲76歩",
            "▲７6歩",
            "▲七六歩",
            "▲７六同歩",
            "▲同\t歩",
            "▲７六成歩",
            "▲７六歩不",
            "▲７六歩不  △３四歩",
            "▲７六歩x",
            "▲７六歩 x",
            "▲７六歩 #note",
            "７六歩",
            "▲",
            "▲７",
            "▲７六",
            "まで77手で先手の勝ち",
            "",
            "   ",
        ];
        assert!(spellings::near_misses(&good, &tails, &left, &Ki2) > 0);
    }

    #[test]
    fn random_lines_read_only_as_the_general_reader_reads_them() {
        // One to four moves, each part picked among spellings of the form
        // and others, with spaces or none between them, then the line
        // sometimes damaged: what the fixed reader reads, the general
        // reader reads the same.
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let leads = Part::new(&["", " ", "　"], &["\t", "x"]);
        let sides = Part::new(&SIDES, &["", "☆", "+"]);
        let squares = Part::new(
            &destinations(),
            &["76", "７6", "七六", "同\t", "７", "同同", "７六同"],
        );
        let pieces = Part::new(
            &pieces(),
            &["成", "成歩", "成金", "不", "右", "と金", "投了"],
        );
        let markers = Part::new(&MARKERS, &["不", "成不", "(77)", "x", "投了", "\t", "同"]);
        let gaps = Part::new(&["", " ", "    ", "　", "  　 "], &["\t", "x", "#"]);
        let endings = Part::new(&["", "\r\n", "\n", "\r"], &["\r\n▲", " x"]);
        let mut read = 0;
        for _ in 0..100_000 {
            let mut line = Vec::new();
            leads.pick(&mut rng, 10, &mut line);
            for _ in 0..1 + rng.below(4) {
                sides.pick(&mut rng, 10, &mut line);
                squares.pick(&mut rng, 10, &mut line);
                pieces.pick(&mut rng, 10, &mut line);
                if rng.one_in(2) {
                    for _ in 0..1 + rng.below(2) {
                        markers.pick(&mut rng, 10, &mut line);
                    }
                }
                gaps.pick(&mut rng, 10, &mut line);
            }
            endings.pick(&mut rng, 10, &mut line);
            spellings::damage(&mut rng, 4, &mut line);
            read += usize::from(spellings::agrees_in(Charset::Cp932, &line, &Ki2));
        }
        assert!(read > 10_000, "{read}");
    }
}
