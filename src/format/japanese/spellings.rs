//! For the tests of the fixed-place move lines (`kif::fixed`,
//! `ki2::fixed`): text in either charset, every spelling of the parts of
//! a move that both readers take (drawn from the vocabulary tables, so
//! that each reader's test enumerates the same words), and a test of a
//! line against the general reader.

use super::digits::KANJI_DIGITS;
use super::pieces::PIECE_NAMES;
use super::tokens::Charset;
use crate::format::kakinoki::source::Source;
use crate::format::kakinoki::{Dialect, LineAt};
use crate::record::raw::{Event, RawGame};
use crate::record::{MoveTime, Warning};
use crate::resolve::spec::MoveSpec;
use crate::test_util::rng::Rng;

/// `text` in CP932 (every character of it must have a code).
pub(crate) fn sjis(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!unmappable, "{text}");
    bytes.into_owned()
}

/// The 81 squares as a move writes them, a full-width digit and a kanji
/// digit (`７六`), then 同 followed by each of `after_same`.
pub(crate) fn destinations(after_same: &[&str]) -> Vec<String> {
    let squares = ('１'..='９').flat_map(|file| KANJI_DIGITS.map(|rank| format!("{file}{rank}")));
    squares
        .chain(after_same.iter().map(|after| format!("同{after}")))
        .collect()
}

/// Every piece spelling: the one-character names (with 王, 竜, 全, 圭,
/// 杏) and 成香 成桂 成銀.
pub(crate) fn pieces() -> Vec<String> {
    let mut out = Vec::new();
    for name in PIECE_NAMES {
        out.push(name.kind.kanji().to_string());
        out.extend(name.also.iter().map(char::to_string));
        if name.in_move.chars().count() == 2 {
            out.push(name.in_move.to_string());
        }
    }
    out
}

/// Move events as the tests compare them: each one's number, move and
/// time, and where it is as a warning quotes it (the same whatever the
/// charset).
fn compared(events: &[Event<'_>]) -> Vec<(Option<u32>, MoveSpec, Option<MoveTime>, Warning)> {
    events
        .iter()
        .map(|event| match event {
            Event::Move {
                span,
                number,
                spec,
                time,
            } => (*number, *spec, *time, span.warning("")),
            other => panic!("not a move: {other:?}"),
        })
        .collect()
}

/// Checks the bytes of a line in `charset` (perhaps its ending and more
/// after it) against the general reader: when the dialect's fixed line
/// reads it (line 7, from byte 0), the line ends there, decodes cleanly and gives the
/// general reader's events, with no warning, and the same with each line
/// ending after it. Says whether it was read. UTF-8 bytes that are no text
/// are never read (no UTF-8 source holds them).
pub(crate) fn agrees_in<D: Dialect>(charset: Charset, bytes: &[u8], dialect: &D) -> bool {
    let fixed = D::FIXED_LINE;
    let source = match charset {
        Charset::Utf8 => match std::str::from_utf8(bytes) {
            Ok(text) => Source::Text(text),
            Err(_) => return false,
        },
        Charset::Cp932 => Source::Cp932(bytes),
    };
    let mut fast = Vec::new();
    let read = fixed(7, source, 0, &mut fast);
    if charset == Charset::Utf8 {
        // Bytes that may be UTF-8 read as the same text does.
        let mut again = Vec::new();
        assert_eq!(fixed(7, Source::Utf8(bytes), 0, &mut again), read);
        assert_eq!(compared(&again), compared(&fast));
    }
    let Some(len) = read else {
        assert!(fast.is_empty());
        return false;
    };
    assert!(matches!(bytes.get(len), None | Some(b'\r' | b'\n')));
    let line = source.text(0, len);
    assert!(!line.contains('\u{fffd}'), "{line}");
    let body = super::read::skip_spaces(&line);
    let first = body.chars().next().expect("a move line is not blank");
    assert!(dialect.is_move_line(first, body), "{line}");
    let mut game = RawGame::default();
    let at = LineAt {
        n: 7,
        line: &line,
        body,
    };
    let read = dialect.move_line(at, &mut game);
    read.unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(game.warnings.is_empty(), "{line}: {:?}", game.warnings);
    assert_eq!(compared(&fast), compared(&game.events), "{line}");
    for ending in [&b"\r\n"[..], b"\n", b"\r", b"\r\n   2 "] {
        let whole = [&bytes[..len], ending].concat();
        let source = match charset {
            Charset::Utf8 => Source::Text(std::str::from_utf8(&whole).expect("text")),
            Charset::Cp932 => Source::Cp932(&whole),
        };
        let mut again = Vec::new();
        assert_eq!(fixed(7, source, 0, &mut again), Some(len), "{line}");
        assert_eq!(compared(&again), compared(&fast), "{line}");
    }
    true
}

/// [`agrees_in`] for a line of text in both charsets: read in one, it is
/// read in the other.
pub(crate) fn agrees(line: &str, dialect: &impl Dialect) -> bool {
    let utf8 = agrees_in(Charset::Utf8, line.as_bytes(), dialect);
    let cp932 = agrees_in(Charset::Cp932, &sjis(line), dialect);
    assert_eq!(utf8, cp932, "{line}: read in one charset only");
    utf8
}

/// What a near miss puts in place of one byte of a good line: ASCII that
/// means something to a move line, and lead and second bytes of CP932.
const NEAR_BYTES: [u8; 24] = [
    0x00, b' ', b'\t', b'(', b')', b'0', b'1', b'7', b'9', b':', b'+', b'#', b'\r', b'\n', 0x40,
    0x81, 0x82, 0x88, 0x8b, 0x93, 0x95, 0xA2, 0xE0, 0xFF,
];

/// Checks each good line (text, no ending) and its near misses against
/// the general reader with [`agrees_in`]: the line in both charsets; in
/// CP932 with each byte replaced by each of [`NEAR_BYTES`], cut at each
/// byte, and with each of `tails` after it; in UTF-8 cut at each byte.
/// Each line of `left` must be left to the general reader. Says how many
/// of the changed lines the fixed reader read.
pub(crate) fn near_misses(
    good: &[&str],
    tails: &[&[u8]],
    left: &[&str],
    dialect: &impl Dialect,
) -> usize {
    for line in left {
        assert!(!agrees(line, dialect), "{line}");
    }
    let mut read = 0;
    for text in good {
        assert!(agrees(text, dialect), "{text}");
        let line = sjis(text);
        for place in 0..line.len() {
            for byte in NEAR_BYTES {
                let mut changed = line.clone();
                changed[place] = byte;
                read += usize::from(agrees_in(Charset::Cp932, &changed, dialect));
            }
            agrees_in(Charset::Cp932, &line[..place], dialect);
            let cut = &text.as_bytes()[..place.min(text.len())];
            agrees_in(Charset::Utf8, cut, dialect);
        }
        for tail in tails {
            let longer = [&line[..], tail].concat();
            read += usize::from(agrees_in(Charset::Cp932, &longer, dialect));
        }
    }
    read
}

/// A part of a random line: its spellings in CP932, the first `good` of
/// them of the fixed reader's form.
pub(crate) struct Part {
    good: usize,
    spellings: Vec<Vec<u8>>,
}

impl Part {
    /// The part spelled `good` (of the form) or `bad`.
    pub(crate) fn new(good: &[impl AsRef<str>], bad: &[&str]) -> Part {
        let spellings = good.iter().map(|s| s.as_ref()).chain(bad.iter().copied());
        Part {
            good: good.len(),
            spellings: spellings.map(sjis).collect(),
        }
    }

    /// Puts one of the spellings at the end of `line`: most of the time
    /// one of the form, one time in `bad_one_in` any.
    pub(crate) fn pick(&self, rng: &mut Rng, bad_one_in: usize, line: &mut Vec<u8>) {
        let choices = if rng.one_in(bad_one_in) {
            self.spellings.len()
        } else {
            self.good
        };
        line.extend_from_slice(&self.spellings[rng.below(choices)]);
    }
}

/// Damages `line` now and then: a byte changed one time in `change_one_in`,
/// the line cut one time in 6.
pub(crate) fn damage(rng: &mut Rng, change_one_in: usize, line: &mut Vec<u8>) {
    if rng.one_in(change_one_in) && !line.is_empty() {
        let place = rng.below(line.len());
        line[place] = rng.below(256) as u8;
    }
    if rng.one_in(6) {
        line.truncate(rng.below(line.len() + 1));
    }
}

/// Checks every line `{before}{part}…{after}` against the general reader
/// with [`agrees`] (each must be read): the whole product of `parts`, the
/// spellings of `before` and `after` taking turns. Says how many lines.
pub(crate) fn every_line(
    before: &[&str],
    parts: &[Vec<String>],
    after: &[&str],
    dialect: &impl Dialect,
) -> usize {
    let mut at = vec![0; parts.len()];
    let mut read = 0;
    loop {
        let mut line = before[read % before.len()].to_string();
        for (part, &k) in parts.iter().zip(&at) {
            line.push_str(&part[k]);
        }
        line.push_str(after[(read / before.len()) % after.len()]);
        assert!(agrees(&line, dialect), "{line}");
        read += 1;
        // The next choice of parts, the last one turning fastest.
        let mut i = parts.len();
        loop {
            if i == 0 {
                return read;
            }
            i -= 1;
            at[i] += 1;
            if at[i] < parts[i].len() {
                break;
            }
            at[i] = 0;
        }
    }
}
