//! Reading a record from bytes or text: choose the format, decode, parse,
//! resolve. The one entry point the binary and library users need.

use crate::decode::{self, Decoded, EncodingChoice, ExtensionHint};
use crate::error::{Error, Stage};
use crate::format::japanese::move_like::{move_like, MoveLike};
use crate::format::japanese::read::side_mark;
use crate::format::{
    csa::read as csa, jkf::read as jkf, ki2::read as ki2, kif::read as kif, lines, usen, wars,
    western::read as western,
};
use crate::record::{Record, Warning};
use crate::resolve::game;
use crate::Setup;
use std::path::Path;

/// The record formats kifconv reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Kakinoki KIF (`.kif`, `.kifu`).
    Kif,
    /// Kakinoki KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// CSA (`.csa`), several games per file.
    Csa,
    /// USI position lines or bare SFEN, one game per line (`.usi`, `.sfen`);
    /// also ShogiHome's USEN lines (`.usen`).
    Usi,
    /// Western (Hodges) notation with a PGN-like tag block (`.psn`).
    Western,
    /// JSON Kifu Format (`.jkf`, `.json`).
    Jkf,
}

impl Format {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "KIF",
            Format::Ki2 => "KI2",
            Format::Csa => "CSA",
            Format::Usi => "USI",
            Format::Western => "Western notation",
            Format::Jkf => "JKF",
        }
    }

    /// The format a file name suggests, if any.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            // `.bod`: a KIF board diagram with no moves.
            "kif" | "kifu" | "bod" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            "csa" => Some(Format::Csa),
            "usi" | "sfen" | "usen" => Some(Format::Usi),
            "psn" | "western" => Some(Format::Western),
            "jkf" | "json" => Some(Format::Jkf),
            _ => None,
        }
    }

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

/// What was read from one input: the games that could be read, and the
/// errors of those that could not (a file of several games keeps its good
/// games when one is bad).
#[derive(Debug)]
pub struct Read {
    pub records: Vec<Record>,
    pub errors: Vec<Error>,
    pub encoding: decode::Encoding,
}

/// Reads records from text in a known format. An error in any game fails
/// the whole text; see [`read_games`] to keep the good games.
pub fn read_text(text: &str, format: Format) -> Result<Vec<Record>, Error> {
    read_games(text, format)?.into_iter().collect()
}

/// Reads every game of a text. In the formats with several games (CSA,
/// USI lines, JKF as NDJSON, and KIF and KI2 streams whose games each start
/// with a `#KIF`/`#KI2` line) each game succeeds or fails on its own; a
/// syntax error in a KIF or KI2 text of one game, or in a single JKF
/// document, fails the text (in Western, each game's moves succeed or fail
/// alone, but a syntax error fails the text).
pub fn read_games(text: &str, format: Format) -> Result<Vec<Result<Record, Error>>, Error> {
    Ok(match format {
        Format::Kif => kakinoki_games(kif::parse_games(text))?,
        Format::Ki2 => kakinoki_games(ki2::parse_games(text))?,
        Format::Csa => csa::games(text)?
            .into_iter()
            .map(|game| game.and_then(game::build).map(wars::settle))
            .collect(),
        Format::Western => western::parse(text)?.into_iter().map(game::build).collect(),
        Format::Jkf => jkf::read_all(text),
        Format::Usi => lines::numbered(text)
            .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
            .map(|(n, line)| {
                if usen::looks_like(line) {
                    usen::read(n, line)
                } else {
                    usi_game(n, line)
                }
            })
            .collect(),
    })
}

/// One USI line as a record; an end token after the moves (`… resign`)
/// becomes the ending, with a warning.
fn usi_game(n: u32, line: &str) -> Result<Record, Error> {
    use crate::format::usi::read::{end_token, split_end_token, EndWinner};
    use crate::record::Ending;
    let (moves, token) = split_end_token(line);
    let mut record = game::build_usi_line(n, moves)?;
    let Some(token) = token else {
        return Ok(record);
    };
    let (kind, who) = end_token(token).expect("split off as an end token");
    let plies = record.tree.mainline().count();
    let to_move = if plies % 2 == 0 {
        record.start.side_to_move
    } else {
        !record.start.side_to_move
    };
    let winner = match who {
        EndWinner::ToMove => Some(to_move),
        EndWinner::Other => Some(!to_move),
        EndWinner::Nobody => None,
    };
    let span = crate::format::raw::Span::of(n, line, token);
    let end = record.tree.mainline_end();
    let node = record.tree.node_mut(end);
    if node.ending.is_some() {
        record.warnings.push(span.warning(
            "an end token after a move that already ends the game (a foul); the token is ignored",
        ));
        return Ok(record);
    }
    node.ending = Some(Box::new(Ending {
        kind,
        winner,
        text: token.to_string(),
        time: None,
        comments: Vec::new(),
        foul: None,
    }));
    record.warnings.push(span.warning(format!(
        "an end token after the moves (not part of a USI position command) read as the ending: {kind:?}{}",
        winner.map_or(String::new(), |w| format!(", won by {w}"))
    )));
    Ok(record)
}

/// The records of the games of a KIF or KI2 text. A text of one game
/// fails as a whole, as before; in a text of several, each game succeeds or
/// fails on its own.
fn kakinoki_games(
    games: Vec<Result<crate::format::raw::RawGame<'_>, Error>>,
) -> Result<Vec<Result<Record, Error>>, Error> {
    if games.len() == 1 {
        let game = games.into_iter().next().expect("one game")?;
        return Ok(vec![game::build(game)]);
    }
    Ok(games
        .into_iter()
        .map(|game| game.and_then(game::build))
        .collect())
}

/// Reads bytes: decodes them (see [`decode`]), picks the format from
/// `format`, else the content, else the file name, and reads the games.
/// Input that cannot be a record in any format (empty, blank, binary, UTF-16
/// without its byte-order mark: [`decode::not_a_record`]) is a located
/// error, never an empty game.
pub fn read_bytes(
    bytes: &[u8],
    path: &Path,
    format: Option<Format>,
    encoding: EncodingChoice,
) -> Result<Read, Error> {
    let decoded = decode::decode(bytes, encoding, ExtensionHint::from_path(path));
    if let Some(not) = decode::not_a_record(bytes, &decoded) {
        return Err(not_a_record_error(&decoded.text, &not));
    }
    let Decoded {
        text,
        encoding: used,
        malformed,
    } = decoded;
    let format = format
        .or_else(|| Format::sniff(&text))
        .or_else(|| Format::from_extension(path))
        .ok_or_else(|| {
            Error::at(
                Stage::Parse,
                1,
                text.lines().next().unwrap_or(""),
                0,
                "",
                "cannot tell the format (no moves found, and the file name does not say); use --from",
            )
        })?;
    let games = read_games(&text, format)?;
    let mut records = Vec::with_capacity(games.len());
    let mut errors = Vec::new();
    let count = games.len();
    for (number, game) in (1..).zip(games) {
        match game {
            Ok(mut record) => {
                record.encoding = Some(used);
                // Warnings quote the input: nothing in them may drive a terminal.
                for warning in &mut record.warnings {
                    warning.escape_controls();
                }
                for bad in &malformed {
                    record.warnings.push(Warning {
                        line: bad.line,
                        column: bad.column,
                        text: String::new(),
                        message: format!(
                            "bytes that are not valid {} were replaced by U+FFFD",
                            used.name()
                        ),
                    });
                }
                records.push(record);
            }
            // In a file of several games, the error names its game.
            Err(mut e) if count > 1 => {
                e.game = Some((number, count));
                errors.push(e);
            }
            Err(e) => errors.push(e),
        }
    }
    if records.is_empty() && errors.len() == 1 {
        return Err(errors.remove(0));
    }
    if let [only] = records.as_slice() {
        if says_nothing(only) {
            // Text in which no line was understood (a README named `.kif`)
            // is no game, not an empty game.
            let first = &only.warnings[0];
            let line = text
                .lines()
                .nth(first.line.saturating_sub(1) as usize)
                .unwrap_or("");
            return Err(Error::at(
                Stage::Parse,
                first.line,
                line,
                0,
                line,
                format!(
                    "this is not a game record: no header, board, move, comment or ending was understood ({} lines not understood, as {})",
                    only.warnings.len(),
                    format.name()
                ),
            ));
        }
    }
    Ok(Read {
        records,
        errors,
        encoding: used,
    })
}

/// Whether a record read from text holds nothing at all, while the text
/// held lines it warned about.
fn says_nothing(record: &Record) -> bool {
    let root = record.tree.root();
    !record.warnings.is_empty()
        && record.headers.is_empty()
        && record.tree.len() <= 1
        && root.comments.is_empty()
        && root.bookmarks.is_empty()
        && root.ending.is_none()
        && record.trailer.is_none()
        && record.start == Setup::startpos()
}

/// The error for input that is no game record, at the telling character.
fn not_a_record_error(text: &str, not: &decode::NotARecord) -> Error {
    let offset = not.offset.min(text.len());
    let before = text.get(..offset).unwrap_or("");
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = text
        .get(offset..)
        .and_then(|rest| rest.find(['\n', '\r']))
        .map_or(text.len(), |i| offset + i);
    let number = lines::numbered(before).count().max(1)
        + usize::from(before.ends_with(['\n', '\r']) && !before.is_empty());
    let line = text.get(line_start..line_end).unwrap_or("");
    let at = text
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(String::new(), String::from);
    Error::at(
        Stage::Decode,
        u32::try_from(number).unwrap_or(u32::MAX),
        line,
        offset - line_start,
        &at,
        format!("this is not a game record: {}", not.reason),
    )
}
