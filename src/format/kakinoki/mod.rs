//! What KIF and KI2 share (both come from Kakinoki's formats): header lines,
//! board diagrams with hands, comments, bookmarks, variation blocks and the
//! `まで…` trailer. The dialect decides how a move line reads.
//!
//! Leniency: `：` or `:` after a header key; 先手/後手 or 下手/上手; hands
//! separated by full-width spaces, ASCII spaces or nothing, counts in kanji
//! (up to 十八) or digits, `なし` for none; `#` lines anywhere (skipped), a
//! declaration or IS-SHOGI's separator after a game's lines starting the
//! next game (see [`games`]); blank lines anywhere; anything but the usual
//! words in the `手数----指手--…` line (warned). A line that is none of
//! these is an error if it could be a move, else a warning.
//!
//! How a move line reads is the dialect's ([`Dialect`]).
//!
//! One reader reads text and bytes alike ([`reader`]): UTF-8 or CP932 bytes
//! ([`source`]) have each line offered first to the dialect's fixed-place
//! move line ([`Dialect::FIXED_LINE`]), which reads the commonest move line
//! from its bytes; every other line is checked or decoded alone and read
//! by the line step here ([`LineReader`]).

use crate::error::Error;
use crate::format::japanese::digits::{decimal_digit, digit, kanji_count, KANJI_TEN};
use crate::format::japanese::headers::{hand_of, turn_of};
use crate::format::japanese::move_like::{half_width_katakana, move_like, MoveLike};
use crate::format::japanese::pieces::piece_char;
use crate::format::japanese::read::{is_space, skip_spaces};
use crate::format::japanese::tokens::Charset;
use crate::format::lines::error;
use crate::record::raw::{Event, RawGame, RawHeader, Span};
use crate::record::Warning;
use crate::{Color, Hand, Piece, PieceKind, Setup, Square};
use source::Source;

pub(crate) mod reader;
pub(crate) mod source;
use nom::bytes::complete::{take_till, take_while};
use nom::character::complete::{anychar, one_of};
use nom::combinator::map_opt;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// How one of Kakinoki's formats writes its moves: KIF numbers its move
/// lines (`   1 ７六歩(77)   ( 0:16/00:00:16)`), KI2 marks each move with
/// its side (`▲７六歩    △３四歩`). Everything else is read here.
pub trait Dialect {
    /// Whether a line is one of this dialect's move lines: `body` is the
    /// line without its leading spaces, `first` its first character.
    fn is_move_line(&self, first: char, body: &str) -> bool;

    /// Reads a move line (one [`Dialect::is_move_line`] accepted) into the
    /// game's events, and its warnings for what it read leniently.
    fn move_line<'a>(&self, at: LineAt<'a>, game: &mut RawGame<'a>) -> Result<(), Error>;

    /// The error for a line that reads as a move but is none of this
    /// dialect's move lines (a KIF move without its number, a KI2 move
    /// without ▲ or △).
    fn unmarked_move(&self) -> &'static str;

    /// About how many bytes of text hold a move event, to make room for
    /// the events at once.
    const BYTES_PER_MOVE: usize;

    /// The fast branch of [`Dialect::move_line`]: the dialect's commonest
    /// move line read at fixed places from the bytes of a source, before
    /// the line is split or decoded (see [`FixedLine`]).
    const FIXED_LINE: FixedLine;
}

/// A dialect's fixed-place move line: given line `n` at byte `start` of
/// `source`, when the line is of the form, it pushes the events
/// `move_line` pushes for it and says how long the line is without its
/// ending; otherwise it pushes nothing and says `None`, and the line is
/// read the general way.
pub type FixedLine = for<'b> fn(
    n: u32,
    source: Source<'b>,
    start: usize,
    events: &mut Vec<Event<'b>>,
) -> Option<usize>;

/// A line being read: its number, its text (without its line ending),
/// and that text after its leading spaces.
#[derive(Clone, Copy, Debug)]
pub struct LineAt<'a> {
    /// The line's number, counted from 1.
    pub n: u32,
    /// The line, without its line ending.
    pub line: &'a str,
    /// The line without its leading spaces.
    pub body: &'a str,
}

/// A fixed-place move line made for one width of the vocabulary's
/// characters (two bytes in CP932, three in UTF-8); [`fixed_line`] makes
/// a [`FixedLine`] of it.
pub(crate) trait FixedForm {
    /// The line (see [`FixedLine`]) in a charset whose vocabulary
    /// characters are `W` bytes long.
    fn read<'b, const W: usize>(
        n: u32,
        source: Source<'b>,
        start: usize,
        events: &mut Vec<Event<'b>>,
    ) -> Option<usize>;
}

/// The [`FixedLine`] of the form `F`: its reader for the source's charset.
#[inline]
pub(crate) fn fixed_line<'b, F: FixedForm>(
    n: u32,
    source: Source<'b>,
    start: usize,
    events: &mut Vec<Event<'b>>,
) -> Option<usize> {
    match source.charset() {
        Charset::Cp932 => F::read::<2>(n, source, start, events),
        Charset::Utf8 => F::read::<3>(n, source, start, events),
    }
}

/// A board diagram being read, row by row.
#[derive(Default)]
struct Diagram {
    setup: Option<Setup>,
    rows: u8,
}

impl Diagram {
    fn setup(&mut self) -> &mut Setup {
        self.setup.get_or_insert_with(Setup::empty)
    }
}

/// An error on a line that shows the marks of a wrong decoding says so:
/// U+FFFD (bytes the encoding could not decode), or a run of half-width
/// katakana (UTF-8 read as Shift_JIS: `縺ｧ`-like mojibake).
pub(crate) fn explain_encoding(mut error: Error) -> Error {
    let line = &error.location.source_line;
    let replaced = line.contains('\u{fffd}');
    if replaced {
        error.message.push_str(
            "; the line holds U+FFFD (bytes that could not be decoded): the file may be in another encoding than it was read as (see --encoding) or damaged",
        );
    } else if half_width_katakana(line) >= 2 {
        error.message.push_str(
            "; the line looks like mojibake (half-width katakana where kanji were expected): the file may be UTF-8 read as Shift_JIS (see --encoding)",
        );
    }
    error
}

/// Reads a KIF or KI2 text of one game or several (see [`games`]): each
/// game is read on its own, so a syntax error fails only its game.
pub fn parse_games<'a>(text: &'a str, dialect: &impl Dialect) -> Vec<Result<RawGame<'a>, Error>> {
    // Text is read as it is: never unclean.
    let plans = reader::plan(
        Source::Text(text),
        dialect,
        &mut String::new(),
        Default::default(),
    );
    reader::replay(plans.unwrap_or_default(), "", dialect)
}

/// IS-SHOGI's line between the problems of a multi-problem file.
pub(crate) const SEPARATOR: &str = "#--separator--";

/// Splits a text into its games: for each, the number of lines before it,
/// and where its bytes start and end.
///
/// A declaration line (`#KIF version=2.0 encoding=UTF-8`, `#KI2 version=…`)
/// after a line that is neither blank nor a `#` comment starts a new game,
/// as the writers put one first in every game. So does IS-SHOGI's
/// `#--separator--`, but for one that a `変化：` block follows (激指 writes
/// the same line before each variation of a game).
pub(crate) fn games(source: Source<'_>) -> Vec<(u32, usize, usize)> {
    let len = source.bytes().len();
    if !may_hold_games(source.bytes()) {
        return vec![(0, 0, len)];
    }
    let mut out: Vec<(u32, usize, usize)> = Vec::new();
    let (mut start, mut start_line, mut content) = (0, 0, false);
    for (n, (at, end, _)) in (1..).zip(source.lines(0)) {
        let line = source.text(at, end);
        let declaration = line.starts_with("#KIF version=") || line.starts_with("#KI2 version=");
        let separator = line.trim_end_matches(is_space) == SEPARATOR;
        let boundary = declaration || (separator && !variation_follows(source, at));
        if boundary && content {
            out.push((start_line, start, at));
            (start, start_line, content) = (at, n - 1, false);
        }
        let body = skip_spaces(&line).trim_start_matches('\u{feff}');
        content |= !(body.is_empty() || body.starts_with('#'));
    }
    match out.last_mut() {
        // A boundary with nothing after it (a file ending in a separator)
        // belongs to the game before.
        Some(last) if !content => last.2 = len,
        _ => out.push((start_line, start, len)),
    }
    out
}

/// Whether the first line that says something after the line at byte
/// `at` of `source` (a separator) starts a variation block (`変化：3手`).
fn variation_follows(source: Source<'_>, at: usize) -> bool {
    source
        .lines(at)
        .skip(1)
        .map(|(start, end, _)| source.text(start, end))
        .find(|line| {
            let body = skip_spaces(line);
            !(body.is_empty() || body.starts_with('#'))
        })
        .is_some_and(|line| skip_spaces(&line).starts_with("変化"))
}

/// Whether [`games`] must walk the lines of a text to split it: some line
/// after the first starts with `#KI` (perhaps a declaration) or with
/// IS-SHOGI's separator. A byte search, which says the same of UTF-8 and
/// CP932 (whose second bytes are never CR, LF or `#`). Both start with
/// `#`, so one scan for that byte finds either.
pub(crate) fn may_hold_games(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'#', bytes).any(|at| {
        let line = &bytes[at..];
        at > 0
            && matches!(bytes[at - 1], b'\n' | b'\r')
            && (line.starts_with(b"#KI") || line.starts_with(SEPARATOR.as_bytes()))
    })
}

/// A KIF or KI2 game being read line by line: the line step, for each
/// line the dialect's [`Dialect::FIXED_LINE`] does not read.
pub(crate) struct LineReader<'a> {
    game: RawGame<'a>,
    diagram: Diagram,
}

impl<'a> LineReader<'a> {
    /// A reader with room for `events` events.
    pub(crate) fn new(events: usize) -> LineReader<'a> {
        LineReader {
            game: RawGame {
                events: Vec::with_capacity(events),
                ..RawGame::default()
            },
            diagram: Diagram::default(),
        }
    }

    /// The events read so far, for the driver, which adds the events of
    /// the fixed lines.
    pub(crate) fn events(&mut self) -> &mut Vec<Event<'a>> {
        &mut self.game.events
    }

    /// Reads line `n` of the input, `line` (without its line ending).
    pub(crate) fn line(
        &mut self,
        n: u32,
        line: &'a str,
        dialect: &impl Dialect,
    ) -> Result<(), Error> {
        let game = &mut self.game;
        let diagram = &mut self.diagram;
        let body = skip_spaces(line);
        let Some(first) = body.chars().next() else {
            return Ok(());
        };
        match first {
            // A `#` line is a comment of the file, not of the game (the
            // format says so): the declaration, IS-SHOGI's separator and a
            // writer's banner alike.
            '#' => {}
            '*' => game.events.push(Event::Comment {
                span: Span::of(n, line, body),
                text: &body[1..],
            }),
            '&' => game.events.push(Event::Bookmark {
                span: Span::of(n, line, body),
                name: &body[1..],
            }),
            '|' => {
                let rank = Some(diagram.rows + 1);
                let row = Span::of(n, line, body.trim_end_matches(is_space));
                game.board_at.note(row, rank);
                board_row(n, line, body, diagram)?
            }
            '+' if body.starts_with("+--") => {}
            // Move lines come first: they are most of a file.
            _ if dialect.is_move_line(first, body) => {
                dialect.move_line(LineAt { n, line, body }, game)?
            }
            _ if body.starts_with("変化") => {
                let (body, note) = split_note(body);
                game.events.push(variation(n, line, body)?);
                push_note(n, line, note, &mut game.events);
            }
            _ if body.starts_with("まで") => {
                let (body, note) = split_note(body);
                let text = body.trim_end_matches(is_space);
                game.events.push(Event::Trailer {
                    span: Span::of(n, line, body),
                    text,
                    said: super::japanese::endings::trailer_said(text),
                });
                push_note(n, line, note, &mut game.events);
            }
            _ if body.starts_with("手数-")
                || body.starts_with("手数＝")
                || body.starts_with("手数=") =>
            {
                // `手数----指手---------消費時間--` opens the moves; `手数＝N`
                // after a diagram gives the moves played before it.
                let (body, note) = split_note(body);
                push_note(n, line, note, &mut game.events);
                let after = &body["手数".len()..];
                if after.starts_with('-') && !plain_move_header(after) {
                    let odd = after
                        .replace("指手", "")
                        .replace("消費時間", "")
                        .replace(['-', '—', '─'], "");
                    if !odd.trim_matches(is_space).is_empty() {
                        game.warnings.push(
                            Span::of(n, line, body.trim_end_matches(is_space)).warning(
                                "unexpected text in the `手数----指手---------消費時間--` line, skipped",
                            ),
                        );
                    }
                }
                if let Some(number) = after.strip_prefix('＝').or_else(|| after.strip_prefix('='))
                {
                    let digits: String = number.chars().map_while(decimal_digit).collect();
                    if let Ok(played) = digits.parse::<u32>() {
                        diagram.setup().move_number = played.saturating_add(1);
                    }
                }
            }
            _ if is_column_header(body) => {}
            // `後手番`: the side to move after a diagram.
            _ => match turn_of(body.trim_end_matches(is_space)) {
                Some(color) => diagram.setup().side_to_move = color,
                None => header_or_unknown(n, line, body, game, diagram, dialect)?,
            },
        }
        Ok(())
    }

    /// The game read, once every line has been: the board diagram, if
    /// any, checked and kept.
    pub(crate) fn finish(self) -> RawGame<'a> {
        let LineReader { mut game, diagram } = self;
        // A warning about the game as a whole, on no line.
        let whole = |message: String| Warning {
            line: 0,
            column: 0,
            text: String::new(),
            message,
        };
        if let Some(setup) = diagram.setup {
            if diagram.rows > 0 {
                if diagram.rows != 9 {
                    let rows = diagram.rows;
                    game.warnings.push(whole(format!(
                        "the board diagram has {rows} rows, expected 9"
                    )));
                }
                game.board = Some(setup);
                return game;
            }
            if setup.hands.iter().any(|h| !h.is_empty()) {
                // Hands without a diagram: they go into the start the
                // 手合割 names, with a note (`handicaps::name_the_start`).
                game.hands_only = Some(setup.hands);
            }
            if setup.side_to_move == Color::White || setup.move_number != 1 {
                // 後手番 or 手数＝ without a diagram.
                game.warnings.push(whole(
                    "a side to move or move count was given without a board diagram; ignored"
                        .into(),
                ));
            }
        }
        game
    }
}

/// `…#note`: the text before a `#`, and the note after it.
fn split_note(body: &str) -> (&str, Option<&str>) {
    match body.find('#') {
        Some(at) => (&body[..at], Some(&body[at..])),
        None => (body, None),
    }
}

/// A `#` note (`note` starts with its `#`) on a line that is not a
/// comment is kept as a comment.
pub(crate) fn push_note<'a>(
    n: u32,
    line: &'a str,
    note: Option<&'a str>,
    events: &mut Vec<Event<'a>>,
) {
    if let Some(note) = note {
        events.push(Event::Comment {
            span: Span::of(n, line, note),
            text: &note[1..],
        });
    }
}

/// The fast path of the `手数----指手---------消費時間--` line's check: whether
/// `after` (what follows `手数`) is nothing but dashes (`-`, `—`, `─`), spaces
/// and the words 指手 and 消費時間. `false` leaves the line to the general check.
fn plain_move_header(after: &str) -> bool {
    let mut rest = after;
    while let Some(c) = rest.chars().next() {
        rest = if let Some(r) = rest.strip_prefix("指手") {
            r
        } else if let Some(r) = rest.strip_prefix("消費時間") {
            r
        } else if matches!(c, '-' | '—' | '─') || is_space(c) {
            &rest[c.len_utf8()..]
        } else {
            return false;
        };
    }
    true
}

/// `９ ８ ７ ６ ５ ４ ３ ２ １` above a diagram.
pub fn is_column_header(body: &str) -> bool {
    let digits = body.chars().filter(|&c| !is_space(c));
    digits.clone().eq("９８７６５４３２１".chars()) || digits.eq("987654321".chars())
}

/// `変化：3手`, `変化:3手`, `変化：   3手`.
fn variation<'a>(n: u32, line: &'a str, body: &'a str) -> Result<Event<'a>, Error> {
    let rest = &body["変化".len()..];
    let rest = rest
        .strip_prefix('：')
        .or_else(|| rest.strip_prefix(':'))
        .unwrap_or(rest);
    let rest = skip_spaces(rest);
    let digits: String = rest.chars().map_while(decimal_digit).collect();
    match digits.parse::<u32>() {
        Ok(ply) if ply > 0 => Ok(Event::Variation {
            span: Span::of(n, line, body),
            ply,
        }),
        _ => Err(error(
            n,
            line,
            rest,
            "expected the move number a variation starts at, as in `変化：3手`",
        )),
    }
}

/// `|v香v桂v銀v金v玉v金v銀v桂v香|一`, read by hand so that each error
/// message stands where its case is read.
fn board_row(n: u32, line: &str, body: &str, diagram: &mut Diagram) -> Result<(), Error> {
    let err = |at: &str, message: &str| error(n, line, at, message);
    if diagram.rows >= 9 {
        return Err(err(body, "a tenth row in the board diagram"));
    }
    let rank = diagram.rows + 1;
    let mut rest = &body[1..];
    for file in (1..=9u8).rev() {
        let cell = rest;
        let mut chars = rest.chars();
        let mut c = chars
            .next()
            .ok_or_else(|| err(cell, "expected nine squares in the row"))?;
        let mut color = Color::Black;
        if c == 'v' || c == 'V' || c == '^' {
            color = Color::White;
            c = chars
                .next()
                .ok_or_else(|| err(cell, "expected a piece after `v`"))?;
        } else if c == ' ' {
            c = chars
                .next()
                .ok_or_else(|| err(cell, "expected a piece or ・"))?;
        }
        rest = chars.as_str();
        if c == '・' || c == '　' {
            continue;
        }
        let kind = piece_char(c).ok_or_else(|| {
            let written = &cell[..cell.len() - rest.len()];
            err(written, "expected a piece (歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍) or ・ for an empty square")
        })?;
        let sq = Square::new(file, rank).expect("on the board");
        diagram.setup().set_piece(sq, Some(Piece::new(color, kind)));
    }
    if !rest.starts_with('|') {
        return Err(err(rest, "expected `|` after the ninth square"));
    }
    // The rank kanji after the bar, when present, must agree.
    if let Some(written) = rest[1..].chars().next().and_then(digit) {
        if written != rank {
            return Err(err(
                &rest[1..],
                "the rows of the board diagram are out of order",
            ));
        }
    }
    diagram.setup();
    diagram.rows += 1;
    Ok(())
}

/// One piece in hand and its count as written (`金四`, `歩十八`, `飛`),
/// after any spaces.
fn hand_item(input: &str) -> IResult<&str, (PieceKind, &str), ()> {
    let is_count = |c: char| c == KANJI_TEN || digit(c).is_some() || c == '０' || c == '0';
    preceded(
        take_while(is_space),
        (
            map_opt(anychar, |c| piece_char(c).filter(|k| k.is_hand_kind())),
            take_while(is_count),
        ),
    )
    .parse(input)
}

/// A count in hand as written: none (one), kanji (`四`, `十八`) or digits
/// (`18`, `１８`).
fn hand_count(text: &str) -> Option<u8> {
    if text.is_empty() {
        return Some(1);
    }
    kanji_count(text).or_else(|| {
        let digits: String = text.chars().filter_map(decimal_digit).collect();
        digits.parse().ok()
    })
}

/// `先手の持駒：飛　角　金四　歩十八` or `なし`.
fn hand(n: u32, line: &str, value: &str) -> Result<Hand, Error> {
    let mut hand = Hand::EMPTY;
    let value = value.trim_matches(is_space);
    if value == "なし" {
        return Ok(hand);
    }
    let mut rest = value;
    while let Ok((after, (kind, count))) = hand_item(rest) {
        let count = hand_count(count)
            .ok_or_else(|| error(n, line, count, "expected a count such as 四, 十八 or 18"))?;
        hand.set(kind, hand.count(kind).saturating_add(count));
        rest = after;
    }
    // What is left, if anything, is no piece in hand.
    let rest = skip_spaces(rest);
    match rest.chars().next() {
        None => Ok(hand),
        Some(c) => {
            Err(error(
                n,
                line,
                &rest[..c.len_utf8()],
                "expected a piece in hand (飛 角 金 銀 桂 香 歩) followed by a count such as 四 or 十八",
            ))
        }
    }
}

/// `key：value` or `key:value`, split at the first colon: the key without
/// the spaces before the colon, the value without the spaces around it.
fn header_line(body: &str) -> Option<(&str, &str)> {
    let key_colon: IResult<&str, &str, ()> =
        terminated(take_till(|c| c == '：' || c == ':'), one_of("：:")).parse(body);
    let (value, key) = key_colon.ok()?;
    Some((key.trim_end_matches(is_space), value.trim_matches(is_space)))
}

fn header_or_unknown<'a>(
    n: u32,
    line: &'a str,
    body: &'a str,
    game: &mut RawGame<'a>,
    diagram: &mut Diagram,
    dialect: &impl Dialect,
) -> Result<(), Error> {
    let Some((key, value)) = header_line(body) else {
        return unknown(n, line, body, game, dialect);
    };
    if let Some(color) = hand_of(key) {
        game.board_at
            .note(Span::of(n, line, body.trim_end_matches(is_space)), None);
        diagram.setup().hands[color.index()] = hand(n, line, value)?;
        return Ok(());
    }
    // A key that starts like a move, or like a KIF move number, is no
    // header: writing it back would make a move of it.
    if key.is_empty()
        || move_like(key) != MoveLike::No
        || key.starts_with(|c: char| decimal_digit(c).is_some())
    {
        return unknown(n, line, body, game, dialect);
    }
    game.headers.push(RawHeader {
        span: Span::of(n, line, body),
        key,
        value,
    });
    Ok(())
}

fn unknown<'a>(
    n: u32,
    line: &'a str,
    body: &'a str,
    game: &mut RawGame<'a>,
    dialect: &impl Dialect,
) -> Result<(), Error> {
    // A line that reads as a move is a move we could not place.
    if move_like(body) == MoveLike::Reads {
        return Err(error(n, line, body, dialect.unmarked_move()));
    }
    game.warnings
        .push(Span::of(n, line, body).warning("line not understood; kept out of the record"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{games, hand, header_line, is_space, may_hold_games, plain_move_header, Source};

    /// The games of a text, as slices of it.
    fn split(text: &str) -> Vec<(u32, &str)> {
        let games = games(Source::Text(text)).into_iter();
        games
            .map(|(n, start, end)| (n, &text[start..end]))
            .collect()
    }
    use crate::PieceKind;

    #[test]
    fn hands_read_every_spelling_of_a_count() {
        let line = "先手の持駒：飛　角 金四　歩十八桂２香１０";
        let held = hand(1, line, &line["先手の持駒：".len()..]).unwrap();
        // 歩 香 桂 銀 金 角 飛.
        let counts = PieceKind::HAND.map(|kind| held.count(kind));
        assert_eq!(counts, [18, 10, 2, 0, 4, 1, 1]);
        assert!(hand(1, "なし", "なし").unwrap().is_empty());
        assert!(hand(1, "　", "　").unwrap().is_empty());
    }

    #[test]
    fn hand_errors_name_the_character_or_the_count() {
        let piece = "expected a piece in hand (飛 角 金 銀 桂 香 歩) followed by a count such as 四 or 十八";
        let count = "expected a count such as 四, 十八 or 18";
        for (line, column, text, message) in [
            ("後手の持駒：金四　王", 10, "王", piece),
            ("後手の持駒：金四x", 9, "x", piece),
            ("後手の持駒：歩十十", 8, "十十", count),
            ("後手の持駒：歩３００", 8, "３００", count),
        ] {
            let e = hand(7, line, &line["後手の持駒：".len()..]).unwrap_err();
            let at = (e.location.line, e.location.column, e.location.text.as_str());
            assert_eq!(
                (at, e.message.as_str()),
                ((7, column, text), message),
                "{line}"
            );
        }
    }

    #[test]
    fn the_plain_move_header_needs_no_warning() {
        let general = |after: &str| {
            after
                .replace("指手", "")
                .replace("消費時間", "")
                .replace(['-', '—', '─'], "")
                .trim_matches(is_space)
                .is_empty()
        };
        for after in [
            "----指手---------消費時間--",
            "----指手---------消費時間-- ",
            "-- 指手 ──── 消費時間 —",
            "----指手----x----消費時間--",
            "----消費指手時間--",
            "----指--手",
            "-",
        ] {
            if plain_move_header(after) {
                assert!(general(after), "{after}");
            }
        }
        assert!(plain_move_header("----指手---------消費時間--"));
        assert!(!plain_move_header("----指手----x----消費時間--"));
    }

    #[test]
    fn a_header_line_splits_at_its_first_colon() {
        assert_eq!(header_line("手合割：平手"), Some(("手合割", "平手")));
        assert_eq!(header_line("棋戦 :　竜王戦 "), Some(("棋戦", "竜王戦")));
        assert_eq!(header_line("備考：a:b"), Some(("備考", "a:b")));
        assert_eq!(header_line("：x"), Some(("", "x")));
        assert_eq!(header_line("まで"), None);
    }

    #[test]
    fn an_is_shogi_separator_starts_the_next_game() {
        let text =
            "手合割：平手\n   1 ７六歩(77)\n#--separator--\r\n   1 ２六歩(27)\n#--separator--\n";
        let games = split(text);
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(
            games[1],
            (2, "#--separator--\r\n   1 ２六歩(27)\n#--separator--\n")
        );
        // At the top, or only after comment lines, it starts nothing.
        assert_eq!(split("#--separator--\n   1 ７六歩(77)\n").len(), 1);
        // 激指 writes the separator before each variation block: one game.
        let gekisashi = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n#--separator--\n変化：2手\n   2 ８四歩(83)\n";
        assert_eq!(split(gekisashi), [(0, gekisashi)]);
    }

    #[test]
    fn only_a_declaration_or_separator_after_the_first_line_is_looked_for() {
        for (text, walk) in [
            ("#KIF version=2.0\n手合割：平手\n", false),
            ("手合割：平手\n*#KIF\n #KI2\n#KX\n#--sep\n", false),
            ("手合割：平手\n#KIF version=2.0\n", true),
            ("▲７六歩\r#--separator--", true),
        ] {
            assert_eq!(may_hold_games(text.as_bytes()), walk, "{text}");
        }
    }

    #[test]
    fn a_declaration_after_a_games_lines_starts_the_next_game() {
        let first = "#KIF version=2.0\n手合割：平手\n   1 ７六歩(77)\n";
        let second = "#KIF version=2.0 encoding=UTF-8\r\n   1 ２六歩(27)\n";
        assert_eq!(
            split(&format!("{first}{second}")),
            [(0, first), (3, second)]
        );
        // A lone CR ends a line too.
        assert_eq!(
            split("▲７六歩\r#KI2 version=2.0\r▲２六歩"),
            [(0, "▲７六歩\r"), (1, "#KI2 version=2.0\r▲２六歩")]
        );
        // Comments and blank lines before a declaration are no game.
        let one = "# Kifu for Windows\n\n#KIF version=2.0\n#KI2 version=2.0\n   1 ７六歩(77)\n";
        assert_eq!(split(one), [(0, one)]);
        // Nor is a declaration that does not start its line.
        let one = "   1 ７六歩(77)\n*#KIF version=2.0\n #KIF version=2.0\n";
        assert_eq!(split(one), [(0, one)]);
    }
}
