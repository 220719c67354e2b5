//! Telling the format from the text: the first telling line decides.

use super::japanese::move_like::{move_like, MoveLike};
use super::japanese::read::side_mark;
use super::{usen, Format};
use crate::Setup;

impl Format {
    /// The format the text looks like, judged from its first telling lines.
    /// A Kakinoki board diagram (`+---…---+`, `| ・ ・ …|一`) with no move
    /// line after it (a `.bod` file) is KIF.
    pub fn sniff(text: &str) -> Option<Format> {
        let mut diagram = false;
        for line in text.lines().take(400) {
            let body = line.trim_start_matches([' ', '\u{3000}', '\t', '\u{feff}']);
            let Some(first) = body.chars().next() else {
                continue;
            };
            // A Western `;` comment says nothing about the format.
            if first == ';' {
                continue;
            }
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
            if body.starts_with("position")
                || body.starts_with("startpos")
                || body.starts_with("sfen ")
            {
                return Some(Format::Usi);
            }
            if body.contains('/')
                && Setup::from_sfen(body.split(" moves").next().unwrap_or(body)).is_ok()
            {
                return Some(Format::Usi);
            }
            if usen::looks_like(body) {
                return Some(Format::Usi);
            }
            if body.starts_with('[') && body.ends_with(']') && body.contains('"') {
                return Some(Format::Western);
            }
            if is_western_move_line(body) {
                return Some(Format::Western);
            }
            if is_csa_line(body) {
                return Some(Format::Csa);
            }
            if body.starts_with("手数----") {
                return Some(Format::Kif);
            }
            if side_mark(first).is_some() {
                return Some(Format::Ki2);
            }
            if first.is_ascii_digit() {
                let rest = body.trim_start_matches(|c: char| c.is_ascii_digit());
                if move_like(rest.trim_start_matches([' ', '\u{3000}'])) == MoveLike::Reads {
                    return Some(Format::Kif);
                }
            }
            diagram |= body.starts_with("+---") || (first == '|' && body.contains("・"));
        }
        diagram.then_some(Format::Kif)
    }
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
