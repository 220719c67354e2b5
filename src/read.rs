//! Reading a record from bytes or text: choose the format, decode, parse,
//! resolve. The one entry point the binary and library users need: the crate
//! root's [`read`](crate::read()) and [`read_bytes`](crate::read_bytes()) for
//! the usual case, [`read_bytes`] here for a forced format or encoding and
//! the good games of a file with a bad one.

use crate::decode::{self, Decoded, EncodingChoice, ExtensionHint};
use crate::error::{Error, ErrorKind, Stage};
use crate::format::japanese::handicaps::name_the_start;
use crate::format::kakinoki::reader::{self, Prefix};
use crate::format::kakinoki::source::{Clean, Source};
use crate::format::kakinoki::{self, Dialect};
use crate::format::sniff::Sniffer;
use crate::format::training::Data;
use crate::format::{
    csa::read as csa, jkf::read as jkf, ki2::read as ki2, kif::read as kif, lines, usen, usi, wars,
    western::read as western,
};
use crate::record::builder;
use crate::record::raw::RawGame;
use crate::record::{Record, Warning};
use crate::Setup;
use std::path::Path;

pub use crate::format::Format;

/// What was read from one input: the games that could be read, and the
/// errors of those that could not (a file of several games keeps its good
/// games when one is bad).
#[derive(Debug)]
pub struct Read {
    /// The games read, in input order.
    pub records: Vec<Record>,
    /// The errors of the games that could not be read, in input order.
    pub errors: Vec<Error>,
    /// The encoding the input was decoded from (UTF-8 for binary training
    /// data, which is not text).
    pub encoding: decode::Encoding,
}

/// Reads every game of the file at `path`, whatever its format and
/// encoding (told from the content, then the file name). Any game that
/// cannot be read fails the whole file; see [`read_bytes`] to keep the good
/// games. The crate root's `kifconv::read`.
///
/// ```no_run
/// let records = kifconv::read("game.kif").unwrap();
/// println!("{} moves", records[0].tree.mainline_moves().count());
/// ```
pub fn read_path(path: impl AsRef<Path>) -> Result<Vec<Record>, Error> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| Error::io(&e))?;
    all_or_error(read_bytes(&bytes, path, None, EncodingChoice::Auto)?)
}

/// Reads every game of `bytes`, whatever their format and encoding (told
/// from the content). Any game that cannot be read fails the whole input;
/// see [`read_bytes`] to keep the good games, force a format or an
/// encoding, or let a file name help. The crate root's `kifconv::read_bytes`.
///
/// ```
/// // A KI2 record in Shift_JIS, as most old records are.
/// let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("▲７六歩　△３四歩\nまで2手で中断\n");
/// let records = kifconv::read_bytes(&bytes).unwrap();
/// let moves: Vec<String> = records[0].tree.mainline_moves().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["7g7f", "3c3d"]);
///
/// let error = kifconv::read_bytes(b"\x00\x01binary").unwrap_err();
/// assert_eq!(error.kind, kifconv::ErrorKind::NotARecord);
/// ```
pub fn read_any(bytes: &[u8]) -> Result<Vec<Record>, Error> {
    all_or_error(read_bytes(
        bytes,
        Path::new(""),
        None,
        EncodingChoice::Auto,
    )?)
}

/// The records, or the first error when a game failed.
fn all_or_error(read: Read) -> Result<Vec<Record>, Error> {
    match read.errors.into_iter().next() {
        Some(error) => Err(error),
        None => Ok(read.records),
    }
}

/// Reads records from text in a known format. An error in any game fails
/// the whole text; see [`read_games`] to keep the good games.
pub fn read_text(text: &str, format: Format) -> Result<Vec<Record>, Error> {
    read_games(text, format)?.into_iter().collect()
}

/// A position as the tools take it (`startpos`, an SFEN with or without
/// `sfen ` before it, or a USI `position … [moves …]` line), as a record of
/// that one line: its start, its moves and the warnings about its start.
/// Every move must be legal, the last one too (a record may end with a
/// foul; a position to work on may not); an error names the move, its
/// number and its column.
///
/// ```
/// let record = kifconv::read::read_position("position startpos moves 7g7f 3c3d").unwrap();
/// assert_eq!(record.final_position().move_number(), 3);
/// let error = kifconv::read::read_position("position startpos moves 7g7f 7g7f").unwrap_err();
/// assert_eq!((error.location.ply, error.location.column), (Some(2), 30));
/// ```
pub fn read_position(text: &str) -> Result<Record, Error> {
    let line = text.trim();
    if let Some(at) = line.find(['\n', '\r']) {
        return Err(Error::at(
            Stage::Parse,
            1,
            line,
            at,
            "",
            "expected one position on one line",
        ));
    }
    usi::line::build(1, line, usi::line::LastIllegal::Error)
}

/// Reads every game of a text. In the formats with several games (CSA,
/// USI lines, JKF as NDJSON, and KIF and KI2 streams whose games each start
/// with a `#KIF`/`#KI2` line) each game succeeds or fails on its own; a
/// syntax error in a KIF or KI2 text of one game, or in a single JKF
/// document, fails the text (in Western, each game's moves succeed or fail
/// alone, but a syntax error fails the text).
///
/// A text cut inside its last line (a download or copy that stopped short)
/// whose last game fails on that line keeps that game's moves before it,
/// with a warning naming the line and why it stopped.
pub fn read_games(text: &str, format: Format) -> Result<Vec<Result<Record, Error>>, Error> {
    let games = parse(text, format).map(Parsed::resolve);
    match without_a_cut_line(text, format, &games) {
        Some(kept) => Ok(kept),
        None => games,
    }
}

/// The games of `text` (KIF, KI2 or CSA) read without the broken end of
/// its last line, when the text ends inside that line and the last game
/// fails there with a syntax error that reaches the end of the text: cut
/// before the word the error is in, else before the line; the last game,
/// which must keep a move, warned of what was left out. `None` otherwise.
fn without_a_cut_line(
    text: &str,
    format: Format,
    games: &Result<Vec<Result<Record, Error>>, Error>,
) -> Option<Vec<Result<Record, Error>>> {
    if !matches!(format, Format::Kif | Format::Ki2 | Format::Csa) || text.ends_with(['\n', '\r']) {
        return None;
    }
    let error = match games {
        Err(e) => e,
        Ok(games) => games.last()?.as_ref().err()?,
    };
    let (last, line) = lines::numbered(text).last()?;
    let reaches_the_end = (error.location.column as usize).saturating_sub(1)
        + error.location.text.chars().count()
        >= line.trim_end().chars().count();
    if error.kind != ErrorKind::Syntax
        || error.location.line != last
        || !reaches_the_end
        || line.trim().is_empty()
    {
        return None;
    }
    let line_start = text.len() - line.len();
    let at = line
        .char_indices()
        .nth(error.location.column.saturating_sub(1) as usize)
        .map_or(line.len(), |(i, _)| i);
    let word_start = line[..at]
        .char_indices()
        .rev()
        .find(|&(_, c)| matches!(c, ' ' | '\u{3000}' | '\t'))
        .map(|(i, c)| i + c.len_utf8())
        .filter(|&i| !line[..i].trim().is_empty());
    let cuts = word_start.into_iter().chain([0]);
    cuts.map(|cut| (cut, &text[..line_start + cut]))
        .filter(|(_, kept)| !kept.trim().is_empty())
        .find_map(|(cut, kept)| {
            let mut games = parse(kept, format).ok()?.resolve();
            let Some(Ok(record)) = games.last_mut().filter(|g| {
                g.as_ref().is_ok_and(|r| !r.tree.is_empty())
            }) else {
                return None;
            };
            let left_out = &line[cut..];
            record.warnings.push(Warning {
                line: last,
                column: line[..cut].chars().count() as u32 + 1,
                text: left_out.trim_end().chars().take(60).collect(),
                message: format!(
                    "the text ends inside this line, whose end does not read ({}); what was read before it is kept",
                    error.message
                ),
            });
            Some(games)
        })
}

/// The games of a text read for their syntax alone: headers, start and
/// moves as the text writes them, no move yet found on a board. The first
/// of the two steps of [`read_games`] (which is [`parse`], then
/// [`Parsed::resolve`]).
///
/// ```
/// use kifconv::read::{parse, Format};
///
/// // Well written, and illegal: the second 7g7f finds no pawn on 7g.
/// let parsed = parse("+7776FU\n-3334FU\n+7776FU\n", Format::Csa).unwrap();
/// let games = parsed.resolve();
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].as_ref().unwrap_err().kind, kifconv::ErrorKind::Illegal);
/// ```
#[derive(Debug)]
pub struct Parsed<'a> {
    games: Games<'a>,
}

/// What a format's syntax stage gives.
#[derive(Debug)]
enum Games<'a> {
    /// KIF, KI2 and Western: games for the record builder.
    Raw(Vec<Result<RawGame<'a>, Error>>),
    /// CSA: games for the record builder, then their Shogi Wars endings
    /// settled.
    Csa(Vec<Result<RawGame<'a>, Error>>),
    /// USI and JKF, whose readers find each move on the board as they read
    /// it: the records themselves.
    Built(Vec<Result<Record, Error>>),
}

/// Reads the syntax of every game of a text in a known format (see
/// [`Parsed`]). A syntax error that fails the whole text (as
/// [`read_games`] says) is the error; a game's own syntax error stays with
/// its game. USI and JKF have no separate syntax stage: their games are
/// read whole here, and [`Parsed::resolve`] hands them on.
pub fn parse(text: &str, format: Format) -> Result<Parsed<'_>, Error> {
    let games = match format {
        Format::Kif => Games::Raw(kakinoki_games(kakinoki::parse_games(text, &kif::Kif))?),
        Format::Ki2 => Games::Raw(kakinoki_games(kakinoki::parse_games(text, &ki2::Ki2))?),
        Format::Csa => Games::Csa(csa::games(text)?),
        Format::Western => Games::Raw(western::parse(text)?.into_iter().map(Ok).collect()),
        Format::Jkf => Games::Built(jkf::read_all(text)),
        Format::Usi => Games::Built(
            lines::numbered(text)
                .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
                .map(|(n, line)| {
                    if usen::looks_like(line) {
                        usen::read(n, line)
                    } else {
                        usi_game(n, line)
                    }
                })
                .collect(),
        ),
    };
    Ok(Parsed { games })
}

impl Parsed<'_> {
    /// The second step of [`read_games`]: each game's moves found on the
    /// board and its record built, or the game's error, in text order.
    pub fn resolve(self) -> Vec<Result<Record, Error>> {
        match self.games {
            Games::Raw(games) => games.into_iter().map(|game| game.and_then(build)).collect(),
            Games::Csa(games) => games
                .into_iter()
                .map(|game| game.and_then(build).map(wars::settle))
                .collect(),
            Games::Built(records) => records,
        }
    }
}

/// A raw game's record: its start named first (the 手合割 header, read
/// with the Japanese table), then every move played by the builder.
fn build(game: RawGame<'_>) -> Result<Record, Error> {
    builder::build(name_the_start(game)?)
}

/// One USI line as a record; an end token after the moves (`… resign`)
/// becomes the ending, with a warning.
fn usi_game(n: u32, line: &str) -> Result<Record, Error> {
    use crate::format::usi::read::{end_token, split_end_token};
    use crate::record::Ending;
    let (moves, token) = split_end_token(line);
    let mut record = usi::line::build(n, moves, usi::line::LastIllegal::Foul)?;
    let Some(token) = token else {
        return Ok(record);
    };
    let (kind, who) = end_token(token).expect("split off as an end token");
    let winner = who.color(record.final_position().side_to_move());
    let span = crate::record::raw::Span::of(n, line, token);
    let end = record.tree.mainline_end();
    let node = record.tree.node_mut(end);
    if node.ending().is_some() {
        record.warnings.push(span.warning(
            "an end token after a move that already ends the game (a foul); the token is ignored",
        ));
        return Ok(record);
    }
    node.set_ending(Ending::new(kind, winner, token));
    record.warnings.push(span.warning(format!(
        "an end token after the moves (not part of a USI position command) read as the ending: {kind:?}{}",
        winner.map_or(String::new(), |w| format!(", won by {w}"))
    )));
    Ok(record)
}

/// Binary training data (HCPE, hcpe3, PackedSfenValue, told by the file
/// name): a record per entry or game; an entry that cannot be read is an
/// error without a line (line 0), its message naming the entry and byte.
pub fn read_training(bytes: &[u8], data: Data) -> Read {
    read_training_from(data.records(bytes))
}

/// [`read_training`] over records already being read (a chunk of a file
/// read a chunk at a time takes some of them).
pub fn read_training_from(
    entries: impl Iterator<Item = Result<Record, crate::format::training::read::ReadError>>,
) -> Read {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for entry in entries {
        match entry {
            Ok(record) => records.push(record),
            Err(e) => errors.push(training_error(&e)),
        }
    }
    Read {
        records,
        errors,
        // Binary data has no encoding: its records say none.
        encoding: decode::Encoding::Utf8,
    }
}

/// The error a training entry that cannot be read is: no line (line 0),
/// its message naming the entry and byte.
pub fn training_error(e: &crate::format::training::read::ReadError) -> Error {
    let error = Error::at(Stage::Parse, 0, "", 0, "", e.to_string());
    if e.is_illegal() {
        error.with_kind(ErrorKind::Illegal)
    } else {
        error
    }
}

/// The games of a KIF or KI2 text: a text of one game fails as a whole.
fn kakinoki_games(
    mut games: Vec<Result<RawGame<'_>, Error>>,
) -> Result<Vec<Result<RawGame<'_>, Error>>, Error> {
    if games.len() == 1 {
        return games.pop().expect("one game").map(|game| vec![Ok(game)]);
    }
    Ok(games)
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
    // Training data when no format is forced and the file name says so.
    if let (None, Some(data)) = (format, Data::from_extension(path)) {
        return Ok(read_training(bytes, data));
    }
    // KIF and KI2 are read from their bytes, decoding only the lines that
    // need it, unless the format forced or named by the extension is another.
    let maybe_kakinoki = format
        .or_else(|| Format::from_extension(path))
        .is_none_or(|f| matches!(f, Format::Kif | Format::Ki2));
    let hint = ExtensionHint::from_path(path);
    let mut detected = decode::detect(bytes, encoding);
    if detected == decode::Detected::Utf8 {
        if maybe_kakinoki {
            if let Some(read) = read_kakinoki(Source::Utf8(bytes), path, format) {
                return read;
            }
        }
        detected = decode::detect_utf8(bytes);
    }
    if matches!(detected, decode::Detected::Cp932(_)) && maybe_kakinoki {
        if let Some(read) = read_kakinoki(Source::Cp932(bytes), path, format) {
            return read;
        }
    }
    let decoded = decode::decode_detected(bytes, detected, encoding, hint);
    read_decoded(bytes, decoded, path, format)
}

/// [`read_bytes`] of the bytes decoded whole.
fn read_decoded(
    bytes: &[u8],
    decoded: Decoded<'_>,
    path: &Path,
    format: Option<Format>,
) -> Result<Read, Error> {
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
            .with_kind(ErrorKind::UnknownFormat)
        })?;
    let read = gather(read_games(&text, format)?, used, &malformed)?;
    if let Some(only) = says_nothing(&read.records) {
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
        )
        .with_kind(ErrorKind::NotARecord));
    }
    Ok(read)
}

/// The games read from a text decoded from `used`, as [`Read`]: each
/// record told its encoding, its warnings made safe to print and warned of
/// the bytes that were `malformed`; in a file of several games, each error
/// naming its game. A lone game that failed is the error.
fn gather(
    games: Vec<Result<Record, Error>>,
    used: decode::Encoding,
    malformed: &[decode::Malformed],
) -> Result<Read, Error> {
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
                for bad in malformed {
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
                e.location.game = Some((number, count));
                errors.push(e);
            }
            Err(e) => errors.push(e),
        }
    }
    if records.is_empty() && errors.len() == 1 {
        return Err(errors.remove(0));
    }
    Ok(Read {
        records,
        errors,
        encoding: used,
    })
}

/// KIF or KI2 read from the bytes of `source` (see `format::kakinoki`):
/// the format forced, or told from the first lines as [`Format::sniff`]
/// tells it, or named by the file name. `None` leaves the input to
/// [`read_decoded`]: another format; a line that is not clean (see
/// [`Source::clean`]); blank input; a failed game in a text cut inside its
/// last line; a text in which nothing was understood.
fn read_kakinoki(
    source: Source<'_>,
    path: &Path,
    format: Option<Format>,
) -> Option<Result<Read, Error>> {
    let mut arena = String::new();
    let (format, prefix) = match format {
        Some(format) => (format, Prefix::default()),
        None => {
            let (told, prefix) = sniff_bytes(source, &mut arena)?;
            (told.or_else(|| Format::from_extension(path))?, prefix)
        }
    };
    let games = match format {
        Format::Kif => kakinoki_bytes(source, &kif::Kif, arena, prefix)?,
        Format::Ki2 => kakinoki_bytes(source, &ki2::Ki2, arena, prefix)?,
        _ => return None,
    };
    let bytes = source.bytes();
    let cut = !bytes.ends_with(b"\n") && !bytes.ends_with(b"\r");
    let failed = games
        .as_ref()
        .map_or(true, |games| games.iter().any(Result::is_err));
    if cut && failed {
        return None;
    }
    let encoding = match source {
        Source::Cp932(_) => decode::Encoding::Cp932,
        _ => decode::Encoding::Utf8,
    };
    let read = games.and_then(|games| gather(games, encoding, &[]));
    if read
        .as_ref()
        .is_ok_and(|read| says_nothing(&read.records).is_some())
    {
        return None;
    }
    Some(read)
}

/// The games of KIF or KI2 (`dialect`) in `source`, built; `None` when a
/// line is not clean or the input is blank (see [`read_kakinoki`]). The
/// `prefix` lines are read already (CP932 ones decoded into `arena`).
fn kakinoki_bytes<'b>(
    source: Source<'b>,
    dialect: &impl Dialect,
    mut arena: String,
    prefix: Prefix<'b>,
) -> Option<Result<Vec<Result<Record, Error>>, Error>> {
    let plans = reader::plan(source, dialect, &mut arena, prefix).ok()?;
    if plans.iter().all(|plan| plan.is_blank(&arena)) {
        return None;
    }
    let games = kakinoki_games(reader::replay(plans, &arena, dialect));
    Some(games.map(|games| games.into_iter().map(|game| game.and_then(build)).collect()))
}

/// The format `source` looks like, as [`Format::sniff`] tells it from its
/// first lines, each checked or decoded alone (CP932 into `arena`); with
/// the lines looked at before the one that tells, which the reading goes
/// on from. `Some(None)` when no line tells, and `None` when a line it
/// looks at is not clean.
fn sniff_bytes<'b>(source: Source<'b>, arena: &mut String) -> Option<(Option<Format>, Prefix<'b>)> {
    let bytes = source.bytes();
    let mut sniffer = Sniffer::default();
    let mut prefix = Prefix::default();
    // The lines as `str::lines` splits text: at LF, a CR before it left
    // out, and no line after a final LF.
    while prefix.end < bytes.len() {
        let at = prefix.end;
        let next = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |end| at + end + 1);
        let text = source.clean(at, next, arena).ok()?;
        let line = text.text(arena);
        let line = line.strip_suffix('\n').unwrap_or(line);
        // The line that tells is left to the reading, which may read it
        // at fixed places (a KI2 file is told by its first move line).
        if let Some(told) = sniffer.line(line.strip_suffix('\r').unwrap_or(line)) {
            return Some((told, prefix));
        }
        prefix.end = next;
        // Decoded lines follow one another in the arena: one run.
        match (prefix.runs.last_mut(), text) {
            (Some(Clean::Arena(_, last)), Clean::Arena(start, end)) if *last == start => {
                *last = end
            }
            _ => prefix.runs.push(text),
        }
    }
    Some((sniffer.end(), prefix))
}

/// The one record read from a text when it holds nothing at all, while
/// the text held lines it warned about.
fn says_nothing(records: &[Record]) -> Option<&Record> {
    let [record] = records else {
        return None;
    };
    let root = record.tree.root();
    let nothing = !record.warnings.is_empty()
        && record.headers.is_empty()
        && record.tree.len() <= 1
        && root.comments().is_empty()
        && root.bookmarks().is_empty()
        && root.ending().is_none()
        && record.trailer.is_none()
        && record.start == Setup::startpos();
    nothing.then_some(record)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(bytes: &[u8], name: &str) -> ErrorKind {
        read_bytes(bytes, Path::new(name), None, EncodingChoice::Auto)
            .unwrap_err()
            .kind
    }

    #[test]
    fn each_error_has_its_kind() {
        for (bytes, name, expected) in [
            (&b""[..], "a.kif", ErrorKind::NotARecord),
            (b"hello\n", "notes", ErrorKind::UnknownFormat),
            (b"hello\nworld\n", "notes.kif", ErrorKind::NotARecord),
            (b"+7776FU\n-7776FU\n+2726FU\n", "a.csa", ErrorKind::Illegal),
            (b"+7776FU\n-33XXFU\n", "a.csa", ErrorKind::Syntax),
        ] {
            assert_eq!(kind(bytes, name), expected, "{name} {bytes:?}");
        }
    }

    #[test]
    fn the_strict_entry_points_fail_on_any_bad_game() {
        let two = b"position startpos moves 7g7f\nposition startpos moves 7g7f 7g7f 2g2f\n";
        let read = read_bytes(two, Path::new(""), None, EncodingChoice::Auto).unwrap();
        assert_eq!((read.records.len(), read.errors.len()), (1, 1));
        let error = read_any(two).unwrap_err();
        assert_eq!(
            (error.kind, error.location.game),
            (ErrorKind::Illegal, Some((2, 2)))
        );
        let io = read_path("/nonexistent/kifconv/game.kif").unwrap_err();
        assert_eq!(io.kind, ErrorKind::Io);
    }
}
