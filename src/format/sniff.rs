//! Telling the format from the text: the first telling line decides.

use super::japanese::move_like::{move_like, MoveLike};
use super::japanese::read::side_mark;
use super::{usen, Format};
use crate::Setup;

impl Format {
    /// The format the text looks like, judged from its first telling lines.
    /// A Kakinoki board diagram (`+---…---+`, `| ・ ・ …|一`) with no move
    /// line after it (a `.bod` file) is KIF, and so are Kakinoki headers
    /// with no move (`先手：…`, `手合割：平手`: a game of no moves).
    pub fn sniff(text: &str) -> Option<Format> {
        let mut sniffer = Sniffer::default();
        for line in text.lines() {
            if let Some(told) = sniffer.line(line) {
                return told;
            }
        }
        sniffer.end()
    }
}

/// [`Format::sniff`] a line at a time, for a reader that decodes the
/// lines (as `str::lines` splits the text) only as far as it takes to
/// tell.
#[derive(Default)]
pub(crate) struct Sniffer {
    lines: u32,
    kakinoki: bool,
}

impl Sniffer {
    /// How many lines are looked at.
    const LINES: u32 = 400;

    /// Looks at the next line: `Some` with the answer once it is known.
    pub(crate) fn line(&mut self, line: &str) -> Option<Option<Format>> {
        if self.lines == Sniffer::LINES {
            return Some(self.end());
        }
        self.lines += 1;
        let body = line.trim_start_matches([' ', '\u{3000}', '\t', '\u{feff}']);
        let first = body.chars().next()?;
        // A Western `;` comment says nothing about the format.
        if first == ';' {
            return None;
        }
        let told = if starts_outside_ascii(first) {
            japanese_line_format(body, first)
        } else {
            line_format(body, first)
        };
        if told.is_some() {
            return Some(told);
        }
        self.kakinoki |= makes_kif_at_the_end(body, first);
        None
    }

    /// The answer after the last line.
    pub(crate) fn end(&self) -> Option<Format> {
        self.kakinoki.then_some(Format::Kif)
    }
}

/// Whether a line that tells no format alone makes a text without a
/// telling line KIF: a board diagram's line or a Kakinoki header.
pub(crate) fn makes_kif_at_the_end(body: &str, first: char) -> bool {
    is_diagram_line(body, first) || is_kakinoki_header(body)
}

/// Whether a line's first character is outside ASCII and not white space:
/// then [`japanese_line_format`] alone tells what the line says, as every
/// other test of [`Format::sniff`] needs an ASCII character first.
fn starts_outside_ascii(first: char) -> bool {
    !first.is_ascii() && !first.is_whitespace()
}

/// The fast path of [`Format::sniff`] for a line [`starts_outside_ascii`]:
/// KIF for a move list's header (`手数----`), KI2 for a side mark (`▲７六歩`),
/// else nothing (the line tells no format, and is no diagram line).
fn japanese_line_format(body: &str, first: char) -> Option<Format> {
    if body.starts_with("手数----") {
        Some(Format::Kif)
    } else if side_mark(first).is_some() {
        Some(Format::Ki2)
    } else {
        None
    }
}

/// What one line tells, by every test in turn (the first that matches
/// decides): JKF's `{`, `#KIF`/`#KI2`, USI and SFEN, USEN, Western tags and
/// moves, CSA lines, KIF's move list header and move numbers, KI2's side
/// marks. `None` when the line tells no format.
fn line_format(body: &str, first: char) -> Option<Format> {
    let after_brace = body[first.len_utf8()..].trim_start();
    if first == '{' && (after_brace.is_empty() || after_brace.starts_with(['"', '}'])) {
        return Some(Format::Jkf);
    }
    if body.starts_with("#KIF") {
        return Some(Format::Kif);
    }
    if body.starts_with("#KI2") {
        return Some(Format::Ki2);
    }
    let sfen = || Setup::from_sfen(body.split(" moves").next().unwrap_or(body)).is_ok();
    if ["position", "startpos", "sfen "]
        .iter()
        .any(|w| body.starts_with(w))
        || (body.contains('/') && sfen())
        || usen::looks_like(body)
    {
        return Some(Format::Usi);
    }
    let tag = body.starts_with('[') && body.ends_with(']') && body.contains('"');
    if tag || is_western_move_line(body) {
        return Some(Format::Western);
    }
    if is_csa_line(body) {
        return Some(Format::Csa);
    }
    if let told @ Some(_) = japanese_line_format(body, first) {
        return told;
    }
    if first.is_ascii_digit() {
        let rest = body.trim_start_matches(|c: char| c.is_ascii_digit());
        if move_like(rest.trim_start_matches([' ', '\u{3000}'])) == MoveLike::Reads {
            return Some(Format::Kif);
        }
    }
    None
}

/// A line of a Kakinoki board diagram (`+---…`, `| ・ ・ …|一`): a text
/// with one and no telling line is KIF (a `.bod` file).
fn is_diagram_line(body: &str, first: char) -> bool {
    body.starts_with("+---") || (first == '|' && body.contains("・"))
}

/// A Kakinoki header line with a key only these formats write: the
/// Japanese key of a header field (`先手：`, `棋戦：`, `手合割：`, by
/// [`crate::record::headers`]) or a hand (`後手の持駒：`).
pub(crate) fn is_kakinoki_header(body: &str) -> bool {
    use super::japanese::handicaps::HANDICAP_KEY;
    use super::japanese::headers::hand_of;
    use crate::record::headers::{Field, KeyStyle};
    let Some((key, _)) = body.split_once(['：', ':']) else {
        return false;
    };
    let key = key.trim_end_matches([' ', '\u{3000}']);
    key == HANDICAP_KEY
        || hand_of(key).is_some()
        || Field::ALL
            .into_iter()
            .any(|field| field.keys(KeyStyle::Japanese).contains(&key))
}

/// `1. P-7f P-3d`, `1...P-3d`: a numbered Western move.
fn is_western_move_line(body: &str) -> bool {
    let rest = body.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == body.len() || !rest.starts_with('.') {
        return false;
    }
    let rest = rest.trim_start_matches(['.', '…', ' ']);
    let rest = rest.strip_prefix('+').unwrap_or(rest);
    matches!(
        rest.as_bytes(),
        [
            b'P' | b'L' | b'N' | b'S' | b'G' | b'B' | b'R' | b'K' | b'T' | b'H' | b'D',
            ..
        ]
    )
}

/// `$EVENT:…`: a CSA header, its key in ASCII capitals, digits and `_`
/// right before an ASCII colon. A Japanese header with a `$` key
/// (`$START：2019/03/01 13:25:52`, as the KIF and KI2 writers keep a CSA
/// key they have no Japanese name for) is not one.
fn is_csa_header(body: &str) -> bool {
    let Some(rest) = body.strip_prefix('$') else {
        return false;
    };
    let key_end = rest
        .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(rest.len());
    key_end > 0 && rest[key_end..].starts_with(':')
}

/// Lines only CSA has: a version, player names, `$` headers, positions,
/// moves and specials.
fn is_csa_line(body: &str) -> bool {
    let b = body.as_bytes();
    body.starts_with("'CSA")
        || matches!(b, [b'V', b'2' | b'3', ..])
        || body.starts_with("N+")
        || body.starts_with("N-")
        || is_csa_header(body)
        || body.starts_with("PI")
        || matches!(b, [b'P', b'1'..=b'9', rest @ ..] if rest.iter().all(|c| b" *+-".contains(c) || c.is_ascii_uppercase()))
        || matches!(b, [b'P', b'+' | b'-', rest @ ..] if rest.len() % 4 == 0 && rest.chunks(4).all(|c| c[..2].iter().all(u8::is_ascii_digit) && c[2..].iter().all(u8::is_ascii_uppercase)))
        || matches!(
            b,
            [
                b'+' | b'-',
                b'0'..=b'9',
                b'0'..=b'9',
                b'1'..=b'9',
                b'1'..=b'9',
                b'A'..=b'Z',
                b'A'..=b'Z',
                ..
            ]
        )
        || body.starts_with('%')
}

#[cfg(test)]
mod tests {
    use super::{line_format, makes_kif_at_the_end, Format};
    use proptest::prelude::*;

    /// [`Format::sniff`] as it was before its fast path for lines that start
    /// outside ASCII: every test ([`line_format`]) on every line. The oracle
    /// the fast path ([`super::japanese_line_format`]) must agree with.
    fn sniff(text: &str) -> Option<Format> {
        let mut kakinoki = false;
        for line in text.lines().take(400) {
            let body = line.trim_start_matches([' ', '\u{3000}', '\t', '\u{feff}']);
            let Some(first) = body.chars().next() else {
                continue;
            };
            if first == ';' {
                continue;
            }
            if let Some(format) = line_format(body, first) {
                return Some(format);
            }
            kakinoki |= makes_kif_at_the_end(body, first);
        }
        kakinoki.then_some(Format::Kif)
    }

    /// Pieces of lines: what headers, moves and every format's telling
    /// lines start with, white space of all kinds, and the characters the
    /// tests look for further on.
    const PIECES: [&str; 40] = [
        "開始日時：2015/01/02 15:11:55",
        "棋戦：",
        "手合割：平手",
        "手数----指手---------消費時間--",
        "手数",
        "----",
        "▲７六歩",
        "△３四歩",
        "☗",
        "☖",
        "▼",
        "▽",
        "先手：",
        "ｽ",
        "歩",
        "・",
        "｜",
        "/",
        "~",
        ".",
        " moves",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "\u{3000}",
        "\u{a0}",
        "\u{2003}",
        "\u{85}",
        "\u{feff}",
        " ",
        "\t",
        "#KIF",
        "V2.2",
        "+7776FU",
        "1 ７六歩(77)",
        "1. P-7f",
        "|",
        "+---",
        "{",
        ";",
        "abc~0.7g7f.",
        "[Event \"x\"]",
    ];

    /// Texts of a few lines of those pieces: the fast path gives the
    /// oracle's format for each.
    #[test]
    fn sniff_agrees_with_the_oracle_on_every_two_pieces() {
        for a in PIECES {
            for b in PIECES {
                for text in [
                    format!("{a}{b}"),
                    format!("{a}\n{b}"),
                    format!("{b}{a}\n▲７六歩"),
                ] {
                    assert_eq!(Format::sniff(&text), sniff(&text), "{text:?}");
                }
            }
        }
    }

    proptest! {
        /// Random lines of random pieces: the oracle's answer.
        #[test]
        fn sniff_agrees_with_the_oracle(
            lines in prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![prop::sample::select(PIECES.to_vec()).prop_map(String::from), any::<char>().prop_map(String::from)],
                    0..5,
                ),
                0..6,
            ),
        ) {
            let text = lines.iter().map(|l| l.concat()).collect::<Vec<_>>().join("\n");
            prop_assert_eq!(Format::sniff(&text), sniff(&text), "{:?}", text);
        }
    }
}
