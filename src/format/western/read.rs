//! Western notation (`.psn`): the Hodges style used in English-language
//! shogi books and magazines, under a PGN-like tag block.
//!
//! ```text
//! [Sente "Habu"]
//! [Gote "Moriuchi"]
//! 1. P-7f P-3d 2. P-2f G-3b!? 3. Bx2b+ Sx2b {a quiet line} 4. B*4e
//! ```
//!
//! # Moves
//!
//! `piece [origin] [separator] destination [promotion] [#] [annotation]`:
//!
//! - piece: `P L N S G B R K` (capitals only); promoted pieces `+P +L +N +S +B +R`, and the
//!   letters `T` (tokin), `H` (horse) and `D` (dragon) that 81Dojo writes;
//! - squares: a file digit and a rank letter (`7f`) or two digits (`76`);
//! - origin: a square before the separator (`G6h-5h`, `S72x83+`), needed
//!   only to tell two pieces apart;
//! - separator: `-` claims the move captures nothing, `x` that it captures,
//!   `*` marks a drop; it may be left out (`P76`), claiming nothing;
//! - promotion: `+` promotes, `=` declines (there is no check sign, so a
//!   trailing `+` always means promotion);
//! - `#` claims the move mates;
//! - annotation: `!` `?` `!!` `??` `!?` `?!`, written on the move or as the
//!   next token, kept as a comment on the move.
//!
//! Every move goes to the resolver as a [`MoveSpec`]: the origin, `x`, `-`,
//! `+`, `=` and `#` are claims it checks against the board, never facts it
//! trusts. The reader itself never looks at a board.
//!
//! # Around the moves
//!
//! - Tags `[Key "Value"]`, kept as headers in order (backslash escapes are
//!   kept as written). `[SFEN "…"]` gives the start position;
//!   `[Handicap "…"]` names one of the standard starts, by its Japanese name
//!   (`香落ち`) or an English one (see [`handicap_by_name`]). When both are
//!   given the SFEN is used, with a warning if they disagree.
//! - A tag after moves (or after a result) starts a new game: one file may
//!   hold many games.
//! - Comments: `{…}` (may span lines; one comment per line of it) and `;` to
//!   the end of the line. A comment belongs to the move before it, or to the
//!   start when no move came yet.
//! - Move numbers: `12.` for the move that follows, `12...` (or `12…`,
//!   `12. ...`) for the second move of pair 12, glued to the move or not, or
//!   none at all. They are checked, not trusted: a game may count moves in
//!   pairs as in chess (`1. P-7f P-3d 2. P-2f`, with `1... P-3d` when the
//!   second player's move opens a pair) or one by one (`1.P-7f 2.P-3d`);
//!   whichever reading fits the numbers better is used, and every number
//!   that disagrees with it is a warning. From the standard start or a
//!   handicap the count must begin at 1; after an `[SFEN]` tag the first
//!   number sets the count. Which colour a number names is not checked
//!   (handicap records differ on whether the first move is `1.` or `1...`);
//!   numbers never decide which side moves. (Since they are checked here,
//!   the move events carry no number: the builder counts plies, and a
//!   Western number is not one.)
//! - Variations in parentheses, PGN style, after the move they replace,
//!   nested to any depth: `1. P-7f (1. P-2f P-8d (1... P-3d)) 1... P-3d`.
//!   After `)` the line that was interrupted goes on. Their numbers are
//!   checked with the mainline's (each counts from the start). A comment
//!   right after `(` belongs to the position the variation starts from.
//!   An empty variation, `)` with none open, and a `(` never closed are
//!   errors.
//! - A terminal word as the Japanese formats write it (`投了`, `中断`,
//!   `千日手`, `反則負け`, …: a token of Japanese text) ends its line, as in
//!   KIF; the game builder reads it as KIF's reader does (a word it does not
//!   know is kept as text, with a warning). A last move that breaks the
//!   rules is a foul, as in every reader.
//! - A result `1-0`, `0-1`, `1/2-1/2` or `*` ends the game's moves. It is
//!   kept as the `Result` header when there is no `[Result]` tag (but `*`,
//!   an unknown result, which says nothing), and
//!   compared with the tag (a warning if they differ) when there is. It does
//!   not become an ending: it does not say how the game ended (a terminal
//!   word does). A move after the result is an error, and so is a result
//!   inside a variation.
//!
//! # Leniency
//!
//! Any whitespace between tokens, a byte-order mark, any line endings. What
//! the reader does not understand in the moves is an error with its line
//! and column; nothing is skipped without a word. Empty `{}` comments carry nothing and
//! are dropped.

use crate::error::{Error, Stage};
use crate::format::lines;
use crate::format::raw::{Columns, Event, RawGame, RawHeader, Span};
use crate::record::Warning;
use crate::resolve::spec::{CaptureClaim, CheckClaim, Destination, DropMark, MoveSpec, Promotion};
use crate::{Handicap, PieceKind, Setup, Square};

/// Reads a Western-notation text: one raw game per game in it (none for a
/// text with nothing but blank lines).
pub fn parse(text: &str) -> Result<Vec<RawGame<'_>>, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::default();
    for (n, line) in lines::numbered(text) {
        reader.line(n, line)?;
    }
    reader.finish()
}

// ---------------------------------------------------------------------------
// Tokens: pure functions on text, no state.
// ---------------------------------------------------------------------------

/// Why a token could not be read: where (a byte offset into the token), how
/// much of it is wrong, and what was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bad {
    pub offset: usize,
    pub len: usize,
    pub message: &'static str,
}

/// A move token, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrittenMove<'a> {
    pub spec: MoveSpec,
    /// The move without its annotation.
    pub text: &'a str,
    pub annotation: Option<&'a str>,
}

const PIECE_LETTERS: &str =
    "a piece letter (P L N S G B R K, +P +L +N +S +B +R, or T H D for tokin, horse, dragon)";
const SQUARE: &str = "a square: a file 1-9 then a rank a-i or 1-9 (7f or 76)";

/// The piece at the start of `text`: a letter, `+` and a letter, or one of
/// 81Dojo's `T` `H` `D`.
fn piece(text: &str) -> Result<(PieceKind, &str), Bad> {
    use PieceKind::*;
    let (promoted, rest) = match text.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let at = text.len() - rest.len();
    let bad = |message| {
        let len = rest.chars().next().map_or(0, char::len_utf8);
        Bad {
            offset: at,
            len,
            message,
        }
    };
    let kind = match rest.as_bytes().first() {
        Some(b'P') => Pawn,
        Some(b'L') => Lance,
        Some(b'N') => Knight,
        Some(b'S') => Silver,
        Some(b'G') => Gold,
        Some(b'B') => Bishop,
        Some(b'R') => Rook,
        Some(b'K') => King,
        Some(b'T') if !promoted => ProPawn,
        Some(b'H') if !promoted => Horse,
        Some(b'D') if !promoted => Dragon,
        _ => return Err(bad(PIECE_LETTERS)),
    };
    let kind = match promoted {
        false => kind,
        true => kind
            .promote()
            .ok_or_else(|| bad("a piece that promotes after `+` (P L N S B R)"))?,
    };
    Ok((kind, &rest[1..]))
}

/// A square at the start of `text`: `7f` or `76`.
fn square(text: &str) -> Option<(Square, &str)> {
    let bytes = text.as_bytes();
    let file = match bytes.first()? {
        c @ b'1'..=b'9' => c - b'0',
        _ => return None,
    };
    let rank = match bytes.get(1)? {
        c @ b'a'..=b'i' => c - b'a' + 1,
        c @ b'1'..=b'9' => c - b'0',
        _ => return None,
    };
    Some((Square::new(file, rank)?, &text[2..]))
}

/// The separator at the start of `text`, if any.
fn separator(text: &str) -> Option<(u8, &str)> {
    match text.as_bytes().first() {
        Some(&c @ (b'-' | b'x' | b'*')) => Some((c, &text[1..])),
        _ => None,
    }
}

/// An annotation that is the whole of `text`.
pub(crate) fn is_annotation(text: &str) -> bool {
    matches!(text, "!" | "?" | "!!" | "??" | "!?" | "?!")
}

/// A terminal word as the Japanese formats write it (`投了`, `中断`,
/// `千日手`, …): a token of Japanese text, no ASCII in it. Which ending it
/// is, the game builder decides, as for KIF (a word it does not know is
/// kept as text, with a warning).
pub(crate) fn is_terminal_word(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_ascii() || c.is_whitespace() || c == '…')
}

/// A game result that is the whole of `text`.
pub(crate) fn is_result(text: &str) -> bool {
    matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads a whole move token (`G6h-5h`, `Bx2b+`, `N*5e`, `R*5a#!`).
pub(crate) fn move_token(token: &str) -> Result<WrittenMove<'_>, Bad> {
    let bad = |rest: &str, len: usize, message| Bad {
        offset: token.len() - rest.len(),
        len: len.min(rest.len()),
        message,
    };
    let (kind, rest) = piece(token)?;
    let to_square = |text| square(text).ok_or_else(|| bad(text, 2, SQUARE));
    let (from, sep, to, rest) = match separator(rest) {
        Some((sep, after)) => {
            let (to, after) = to_square(after)?;
            (None, Some(sep), to, after)
        }
        None => {
            let (first, after) = to_square(rest)?;
            match separator(after) {
                Some((sep, after)) => {
                    let (to, after) = to_square(after)?;
                    (Some(first), Some(sep), to, after)
                }
                // `S7283`: origin and destination with nothing between.
                None => match square(after) {
                    Some((to, after)) => (Some(first), None, to, after),
                    None => (None, None, first, after),
                },
            }
        }
    };
    let mut spec = MoveSpec::new(Destination::Square(to), kind);
    spec.from = from;
    match sep {
        Some(b'-') => spec.capture = CaptureClaim::NoCapture,
        Some(b'x') => spec.capture = CaptureClaim::Capture,
        Some(_) if from.is_some() => {
            return Err(Bad {
                offset: token.find('*').unwrap_or(0),
                len: 1,
                message:
                    "a drop (`*`) without an origin square: a dropped piece comes from the hand",
            })
        }
        Some(_) => spec.drop = DropMark::Drop,
        None => {}
    }
    let (promotion, after) = match rest.as_bytes().first() {
        Some(b'+') => (Promotion::Promote, &rest[1..]),
        Some(b'=') => (Promotion::Decline, &rest[1..]),
        _ => (Promotion::Unmarked, rest),
    };
    if promotion != Promotion::Unmarked && spec.drop == DropMark::Drop {
        return Err(bad(
            rest,
            1,
            "nothing after a drop's square but `#` or an annotation: a dropped piece cannot promote",
        ));
    }
    let rest = after;
    spec.promotion = promotion;
    let rest = match rest.strip_prefix('#') {
        Some(after) => {
            spec.check = CheckClaim::Mate;
            after
        }
        None => rest,
    };
    let text = &token[..token.len() - rest.len()];
    if rest.is_empty() {
        return Ok(WrittenMove {
            spec,
            text,
            annotation: None,
        });
    }
    if is_annotation(rest) {
        return Ok(WrittenMove {
            spec,
            text,
            annotation: Some(rest),
        });
    }
    Err(bad(
        rest,
        rest.len(),
        "unexpected text after the move (expected `+`, `=`, `#`, or an annotation: ! ? !! ?? !? ?!)",
    ))
}

/// A move number at the start of `text`: `12.` or `12...` / `12…`. Returns
/// the number, whether it names the second move of a pair, and the rest.
pub(crate) fn move_number(text: &str) -> Result<(u32, bool, &str), Bad> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &text[digits..];
    let expected = "a move number such as 12. or 12..., or a result (1-0 0-1 1/2-1/2 *)";
    let number = text[..digits].parse::<u32>().map_err(|_| Bad {
        offset: 0,
        len: digits,
        message: "a move number below 4294967296",
    })?;
    let (ellipsis, rest) = if let Some(rest) = rest.strip_prefix("...") {
        (true, rest)
    } else if let Some(rest) = rest.strip_prefix('…') {
        (true, rest)
    } else if let Some(rest) = rest.strip_prefix('.') {
        (false, rest)
    } else {
        let len = rest.chars().next().map_or(0, char::len_utf8);
        return Err(Bad {
            offset: digits,
            len,
            message: expected,
        });
    };
    if rest.starts_with('.') {
        return Err(Bad {
            offset: text.len() - rest.len(),
            len: rest.bytes().take_while(|&b| b == b'.').count(),
            message: "one dot or three after a move number (12. or 12...)",
        });
    }
    Ok((number, ellipsis, rest))
}

/// A tag at the start of `text` (which starts with `[`): key, value, the
/// whole tag, and the rest.
pub(crate) fn tag(text: &str) -> Result<(&str, &str, &str, &str), Bad> {
    let at = |rest: &str| text.len() - rest.len();
    let inner = text[1..].trim_start();
    let key_len = inner
        .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
        .unwrap_or(inner.len());
    if key_len == 0 {
        return Err(Bad {
            offset: at(inner),
            len: inner.chars().next().map_or(0, char::len_utf8),
            message: "a tag name after `[` (as in [Sente \"Name\"])",
        });
    }
    let key = &inner[..key_len];
    let rest = inner[key_len..].trim_start();
    let Some(value_start) = rest.strip_prefix('"') else {
        return Err(Bad {
            offset: at(rest),
            len: rest.chars().next().map_or(0, char::len_utf8),
            message: "a value in double quotes after the tag name (as in [Sente \"Name\"])",
        });
    };
    let value_len = closing_quote(value_start).ok_or(Bad {
        offset: at(rest),
        len: 1,
        message: "a closing `\"` for this tag value on the same line",
    })?;
    let value = &value_start[..value_len];
    let after = value_start[value_len + 1..].trim_start();
    let Some(rest) = after.strip_prefix(']') else {
        return Err(Bad {
            offset: at(after),
            len: after.chars().next().map_or(0, char::len_utf8),
            message: "`]` to close the tag",
        });
    };
    Ok((key, value, &text[..at(rest)], rest))
}

/// The byte index of the `"` that ends a tag value (`\"` and `\\` do not).
fn closing_quote(value: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// English handicap names, as [`handicap_by_name`] accepts them.
pub const ENGLISH_HANDICAPS: [(&str, Handicap); 16] = [
    ("Even", Handicap::Even),
    ("Lance", Handicap::Lance),
    ("Right Lance", Handicap::RightLance),
    ("Bishop", Handicap::Bishop),
    ("Rook", Handicap::Rook),
    ("Rook-Lance", Handicap::RookLance),
    ("2-Piece", Handicap::TwoPieces),
    ("3-Piece", Handicap::ThreePieces),
    ("4-Piece", Handicap::FourPieces),
    ("5-Piece", Handicap::FivePieces),
    ("Left 5-Piece", Handicap::LeftFivePieces),
    ("6-Piece", Handicap::SixPieces),
    ("Left 7-Piece", Handicap::LeftSevenPieces),
    ("Right 7-Piece", Handicap::RightSevenPieces),
    ("8-Piece", Handicap::EightPieces),
    ("10-Piece", Handicap::TenPieces),
];

/// The start a `[Handicap "…"]` tag names: a Japanese name (`香落ち`,
/// `平手`) or an English one from [`ENGLISH_HANDICAPS`]. English names are
/// matched ignoring case, spaces, hyphens and a final `handicap`; `Pieces`
/// may stand for `Piece`, number words for digits (`Two Pieces`), and `Left
/// Lance` and `Rook and Lance` are accepted too.
pub fn handicap_by_name(name: &str) -> Option<Handicap> {
    let name = name.trim();
    if let Some(h) = crate::format::japanese::handicaps::handicap_named(name) {
        return Some(h);
    }
    let key = english_key(name);
    if key == "leftlance" {
        return Some(Handicap::Lance);
    }
    ENGLISH_HANDICAPS
        .iter()
        .find(|(english, _)| english_key(english) == key)
        .map(|&(_, h)| h)
}

/// `Two Pieces Handicap` → `2piece`.
fn english_key(name: &str) -> String {
    let mut key: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if let Some(stem) = key.strip_suffix("handicap") {
        key.truncate(stem.len());
    }
    let words = [
        ("pieces", "piece"),
        ("and", ""),
        ("two", "2"),
        ("three", "3"),
        ("four", "4"),
        ("five", "5"),
        ("six", "6"),
        ("seven", "7"),
        ("eight", "8"),
        ("ten", "10"),
    ];
    for (word, replacement) in words {
        key = key.replace(word, replacement);
    }
    key
}

/// The token at the start of `text`: up to whitespace, `{`, `;`, `(` or
/// `)`.
fn split_token(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')'))
        .unwrap_or(text.len());
    text.split_at(end)
}

// ---------------------------------------------------------------------------
// Move numbers: checked once a game is read.
// ---------------------------------------------------------------------------

/// A move number and the move it was written before.
#[derive(Clone, Copy, Debug)]
struct Numbered<'a> {
    /// The move's index in the game, from 0.
    index: u32,
    number: u32,
    ellipsis: bool,
    span: Span<'a>,
}

/// How a game counts its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Count {
    /// As in chess: `1. P-7f P-3d 2. P-2f`, `1... P-3d`.
    Pairs,
    /// One by one: `1.P-7f 2.P-3d`.
    Plies,
}

impl Count {
    /// The position (from 0) a number claims for its move, if this count
    /// can write it.
    fn slot(self, number: u32, ellipsis: bool) -> Option<i64> {
        let n = i64::from(number) - 1;
        match (self, ellipsis) {
            (Count::Pairs, _) => Some(2 * n + i64::from(ellipsis)),
            (Count::Plies, false) => Some(n),
            (Count::Plies, true) => None,
        }
    }

    /// How this count writes the number of the move at `slot`.
    fn write(self, slot: i64) -> String {
        match self {
            Count::Pairs if slot % 2 == 1 => format!("{}...", slot / 2 + 1),
            Count::Pairs => format!("{}.", slot / 2 + 1),
            Count::Plies => format!("{}.", slot + 1),
        }
    }

    /// Whether a game from a standard start may begin at this offset.
    fn fits_start(self, offset: i64) -> bool {
        match self {
            Count::Pairs => offset == 0 || offset == 1,
            Count::Plies => offset == 0,
        }
    }
}

/// The numbers that disagree with `count` and the slot each should have
/// named, re-counting from each disagreeing number so that one slip is one
/// warning; `None` if the count cannot write some number at all.
fn disagreements(
    count: Count,
    numbered: &[Numbered<'_>],
    fixed_start: bool,
) -> Option<Vec<(usize, i64)>> {
    let mut found = Vec::new();
    let mut offset: Option<i64> = None;
    for (i, n) in numbered.iter().enumerate() {
        let index = i64::from(n.index);
        let here = count.slot(n.number, n.ellipsis)? - index;
        let expected = match offset {
            None if fixed_start && !count.fits_start(here) => Some(index),
            Some(o) if o != here => Some(index + o),
            _ => None,
        };
        if let Some(slot) = expected {
            found.push((i, slot));
        }
        offset = Some(here);
    }
    Some(found)
}

/// The warnings for the move numbers of a game: those that disagree with
/// the count that fits best (pairs when both fit equally). Only the chosen
/// count's warnings are written, their columns counted in one pass.
fn number_warnings(numbered: &[Numbered<'_>], fixed_start: bool) -> Vec<Warning> {
    let pairs = disagreements(Count::Pairs, numbered, fixed_start);
    let plies = disagreements(Count::Plies, numbered, fixed_start);
    let (count, found) = match (pairs, plies) {
        (pairs, Some(plies)) if plies.len() < pairs.as_ref().map_or(0, Vec::len) => {
            (Count::Plies, plies)
        }
        (pairs, _) => (Count::Pairs, pairs.unwrap_or_default()),
    };
    let mut columns = Columns::default();
    found
        .into_iter()
        .map(|(i, slot)| {
            let n = &numbered[i];
            n.span.warning_after(
                &mut columns,
                format!(
                    "move number `{}` does not fit the moves before it (expected `{}`)",
                    n.span.text,
                    count.write(slot)
                ),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The reader: lines to games.
// ---------------------------------------------------------------------------

/// One line of play as written: the mainline, or a variation in
/// parentheses. Its events are in the order written; a variation sits
/// where it was written, after the move it replaces.
#[derive(Default)]
struct Line<'a> {
    items: Vec<Item<'a>>,
    /// The moves played before this line's first move.
    ply: u32,
    moves: u32,
}

enum Item<'a> {
    Event(Event<'a>),
    /// A variation: the line at this index of `Game::lines`, replacing the
    /// move `ply` of this line; the span is its `(`.
    Variation(usize, u32, Span<'a>),
}

/// One game being read.
#[derive(Default)]
struct Game<'a> {
    raw: RawGame<'a>,
    /// Whether anything of this game was read yet.
    seen: bool,
    /// The moves of every line.
    moves: u32,
    /// The mainline first, then each variation as it opens.
    lines: Vec<Line<'a>>,
    /// The variations open, innermost last, with their `(`.
    open: Vec<(usize, Span<'a>)>,
    numbered: Vec<Numbered<'a>>,
    /// A move number waiting for its move.
    pending: Option<(u32, bool, Span<'a>)>,
    result: Option<Span<'a>>,
    sfen: Option<(Setup, Span<'a>)>,
    handicap: Option<(Handicap, Span<'a>)>,
}

impl<'a> Game<'a> {
    /// The line being read.
    fn line(&mut self) -> &mut Line<'a> {
        if self.lines.is_empty() {
            self.lines.push(Line::default());
        }
        let at = self.open.last().map_or(0, |&(i, _)| i);
        &mut self.lines[at]
    }

    fn push(&mut self, event: Event<'a>) {
        self.line().items.push(Item::Event(event));
    }

    /// The events of every line in the order the game builder reads them,
    /// as KIF lists variations: a line's events, then its variations, those
    /// of its later moves first (those of one move in the order written),
    /// each followed by its own. Each variation then starts from the newest
    /// move with its number, which is the one it replaces or a sibling of
    /// it. A work list, not
    /// recursion: variations nest to any depth.
    fn flatten(&mut self) {
        let mut lines = std::mem::take(&mut self.lines);
        let events = &mut self.raw.events;
        let mut work: Vec<(usize, Option<(u32, Span<'a>)>)> = vec![(0, None)];
        while let Some((index, opening)) = work.pop() {
            let Some(line) = lines.get_mut(index) else {
                continue;
            };
            if let Some((ply, span)) = opening {
                events.push(Event::Variation { span, ply });
            }
            let mut variations = Vec::new();
            for item in std::mem::take(&mut line.items) {
                match item {
                    Item::Event(event) => events.push(event),
                    Item::Variation(sub, ply, span) => variations.push((sub, Some((ply, span)))),
                }
            }
            // The variations of one move in the order written (the tree
            // keeps siblings in that order), those of later moves first.
            for group in variations.chunk_by(|a, b| a.1.map(|v| v.0) == b.1.map(|v| v.0)) {
                work.extend(group.iter().rev().copied());
            }
        }
    }

    /// Whether a tag here starts the next game.
    fn has_moves(&self) -> bool {
        self.moves > 0 || self.result.is_some() || self.pending.is_some()
    }

    fn drop_pending(&mut self) {
        if let Some((_, _, span)) = self.pending.take() {
            self.raw
                .warnings
                .push(span.warning("a move number with no move after it"));
        }
    }

    /// The raw game, with its start, result header and number warnings.
    fn finish(mut self) -> RawGame<'a> {
        self.drop_pending();
        self.flatten();
        let fixed_start = self.sfen.is_none();
        let warnings = number_warnings(&self.numbered, fixed_start);
        self.raw.warnings.extend(warnings);
        self.settle_start();
        self.settle_result();
        self.raw
    }

    /// The SFEN tag if there is one, else the handicap tag.
    fn settle_start(&mut self) {
        match (self.sfen.take(), self.handicap) {
            (Some((setup, span)), handicap) => {
                if let Some((h, hspan)) = handicap {
                    if h.setup() != setup {
                        self.raw.warnings.push(hspan.warning(format!(
                            "the Handicap tag names {}, but the SFEN tag gives another position; the SFEN is used",
                            crate::format::japanese::handicaps::handicap_name(h)
                        )));
                    }
                }
                self.raw.board = Some(setup);
                self.raw.board_line = span.line;
            }
            (None, Some((h, span))) => {
                self.raw.board = Some(h.setup());
                self.raw.board_line = span.line;
            }
            (None, None) => {}
        }
    }

    /// The result token becomes the `Result` header, or is compared with it.
    fn settle_result(&mut self) {
        let Some(span) = self.result else { return };
        match self.raw.headers.iter().find(|h| h.key == "Result") {
            Some(tag) if tag.value.trim() != span.text => {
                let message = format!(
                    "the result `{}` disagrees with the Result tag `{}`; the tag is kept",
                    span.text, tag.value
                );
                self.raw.warnings.push(span.warning(message));
            }
            Some(_) => {}
            // `*` says the result is unknown: nothing to keep.
            None if span.text == "*" => {}
            None => self.raw.headers.push(RawHeader {
                span,
                key: "Result",
                value: span.text,
            }),
        }
    }
}

/// The state of reading: the games so far and the one being read.
#[derive(Default)]
struct Reader<'a> {
    games: Vec<RawGame<'a>>,
    game: Game<'a>,
    /// Where an unclosed `{` comment opened.
    open_comment: Option<Span<'a>>,
}

/// An error about `text`, a slice of line `n`.
fn error_at(n: u32, line: &str, text: &str, message: impl Into<String>) -> Error {
    let offset = Span::of(n, line, text).offset;
    Error::at(Stage::Parse, n, line, offset, text, message)
}

/// An error about part of a token.
fn token_error(n: u32, line: &str, token: &str, bad: Bad) -> Error {
    let start = bad.offset.min(token.len());
    let mut end = (start + bad.len).min(token.len());
    while !token.is_char_boundary(end) {
        end += 1;
    }
    let at = &token[start..end];
    let offset = Span::of(n, line, token).offset + start;
    Error::at(
        Stage::Parse,
        n,
        line,
        offset,
        at,
        format!("expected {}", bad.message),
    )
}

impl<'a> Reader<'a> {
    fn line(&mut self, n: u32, line: &'a str) -> Result<(), Error> {
        let mut rest = line;
        if self.open_comment.is_some() {
            rest = self.comment_continues(n, line);
        }
        loop {
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else {
                return Ok(());
            };
            rest = match c {
                '{' => self.brace_comment(n, line, rest),
                ';' => {
                    self.comment(n, line, rest[1..].trim());
                    ""
                }
                '[' => self.tag(n, line, rest)?,
                '(' => self.open_variation(n, line, rest)?,
                ')' => self.close_variation(n, line, rest)?,
                _ => self.token(n, line, rest)?,
            };
        }
    }

    fn finish(mut self) -> Result<Vec<RawGame<'a>>, Error> {
        if let Some(open) = self.open_comment {
            return Err(error_at(
                open.line,
                open.line_text,
                open.text,
                "a comment opened with `{` is never closed (expected `}`)",
            ));
        }
        self.next_game()?;
        Ok(self.games)
    }

    /// Ends the game being read, if anything of it was read.
    fn next_game(&mut self) -> Result<(), Error> {
        if let Some(&(_, open)) = self.game.open.last() {
            return Err(error_at(
                open.line,
                open.line_text,
                open.text,
                "a variation opened with `(` is never closed (expected `)` before the next game or the end)",
            ));
        }
        let game = std::mem::take(&mut self.game);
        if game.seen {
            self.games.push(game.finish());
        }
        Ok(())
    }

    /// `(` at the start of `text`: a variation of the move just read.
    fn open_variation(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let span = Span::of(n, line, &text[..1]);
        if let Some(result) = self.game.result {
            return Err(error_at(
                n,
                line,
                span.text,
                format!(
                    "a variation after the result `{}` on line {} (variations go after the move they replace)",
                    result.text, result.line
                ),
            ));
        }
        self.game.seen = true;
        self.game.drop_pending();
        let current = self.game.line();
        if current.moves == 0 {
            return Err(error_at(
                n,
                line,
                span.text,
                "a variation with no move before it (a variation in parentheses replaces the move just before it)",
            ));
        }
        let ply = current.ply + current.moves;
        let index = self.game.lines.len();
        self.game
            .line()
            .items
            .push(Item::Variation(index, ply, span));
        self.game.lines.push(Line {
            items: Vec::new(),
            ply: ply - 1,
            moves: 0,
        });
        self.game.open.push((index, span));
        Ok(&text[1..])
    }

    /// `)` at the start of `text`: the variation ends, its line goes on.
    fn close_variation(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let span = Span::of(n, line, &text[..1]);
        if self.game.open.is_empty() {
            return Err(error_at(
                n,
                line,
                span.text,
                "`)` with no variation open (expected a move, a move number, a comment or a result)",
            ));
        }
        self.game.drop_pending();
        let (index, open) = self.game.open.pop().expect("checked above");
        let empty = self.game.lines[index]
            .items
            .iter()
            .all(|item| matches!(item, Item::Event(Event::Comment { .. })));
        if empty {
            return Err(error_at(
                open.line,
                open.line_text,
                open.text,
                "an empty variation (expected moves, or a terminal word such as 投了, between `(` and `)`)",
            ));
        }
        Ok(&text[1..])
    }

    fn comment(&mut self, n: u32, line: &'a str, text: &'a str) {
        self.game.seen = true;
        if !text.is_empty() {
            self.game.push(Event::Comment {
                span: Span::of(n, line, text),
                text,
            });
        }
    }

    /// `{…}` from `text` (which starts with `{`); returns what follows it.
    fn brace_comment(&mut self, n: u32, line: &'a str, text: &'a str) -> &'a str {
        let inner = &text[1..];
        match inner.find('}') {
            Some(end) => {
                // A comment closed on its own line is kept exactly, even
                // empty: `{}` is a comment with no text.
                self.game.seen = true;
                let text = &inner[..end];
                self.game.push(Event::Comment {
                    span: Span::of(n, line, text),
                    text,
                });
                &inner[end + 1..]
            }
            None => {
                self.comment(n, line, inner.trim());
                self.open_comment = Some(Span::of(n, line, &text[..1]));
                ""
            }
        }
    }

    /// A line inside a `{` comment; returns what follows the `}`, if any.
    fn comment_continues(&mut self, n: u32, line: &'a str) -> &'a str {
        match line.find('}') {
            Some(end) => {
                self.open_comment = None;
                self.comment(n, line, line[..end].trim());
                &line[end + 1..]
            }
            None => {
                self.comment(n, line, line.trim());
                ""
            }
        }
    }

    /// A tag at the start of `text`; returns what follows it.
    fn tag(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let (key, value, whole, rest) = tag(text).map_err(|bad| token_error(n, line, text, bad))?;
        if self.game.has_moves() {
            self.next_game()?;
        }
        self.game.seen = true;
        let span = Span::of(n, line, whole);
        let value_span = Span::of(n, line, value);
        match key {
            "SFEN" => self.sfen_tag(value_span)?,
            "Handicap" => self.handicap_tag(value_span)?,
            _ => {}
        }
        self.game.raw.headers.push(RawHeader { span, key, value });
        Ok(rest)
    }

    fn sfen_tag(&mut self, value: Span<'a>) -> Result<(), Error> {
        let setup = Setup::from_sfen(value.text.trim()).map_err(|e| {
            error_at(
                value.line,
                value.line_text,
                value.text,
                format!("the SFEN tag is not a valid SFEN: {e}"),
            )
        })?;
        match self.game.sfen {
            Some(_) => self
                .game
                .raw
                .warnings
                .push(value.warning("a second SFEN tag; the first is used")),
            None => self.game.sfen = Some((setup, value)),
        }
        Ok(())
    }

    fn handicap_tag(&mut self, value: Span<'a>) -> Result<(), Error> {
        let handicap = handicap_by_name(value.text).ok_or_else(|| {
            let names: Vec<&str> = ENGLISH_HANDICAPS.iter().map(|(name, _)| *name).collect();
            error_at(
                value.line,
                value.line_text,
                value.text,
                format!(
                    "unknown handicap `{}` (expected one of {}, or a Japanese name such as 香落ち; or give the position in an SFEN tag)",
                    value.text,
                    names.join(", ")
                ),
            )
        })?;
        match self.game.handicap {
            Some(_) => self
                .game
                .raw
                .warnings
                .push(value.warning("a second Handicap tag; the first is used")),
            None => self.game.handicap = Some((handicap, value)),
        }
        Ok(())
    }

    /// A token of the moves at the start of `text`; returns what follows.
    fn token(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let (token, after) = split_token(text);
        self.game.seen = true;
        if is_result(token) {
            self.result(Span::of(n, line, token))?;
            return Ok(after);
        }
        if is_terminal_word(token) {
            self.terminal_word(Span::of(n, line, token))?;
            return Ok(after);
        }
        if is_annotation(token) {
            self.annotation(Span::of(n, line, token))?;
            return Ok(after);
        }
        if token == "..." || token == "…" {
            self.ellipsis(Span::of(n, line, token))?;
            return Ok(after);
        }
        if token.starts_with(|c: char| c.is_ascii_digit()) {
            return self.number(n, line, text);
        }
        self.move_(n, line, token)?;
        Ok(after)
    }

    /// A terminal word (`投了`): the end of the line being read.
    fn terminal_word(&mut self, span: Span<'a>) -> Result<(), Error> {
        if let Some(result) = self.game.result {
            return Err(error_at(
                span.line,
                span.line_text,
                span.text,
                format!(
                    "a terminal word after the result `{}` on line {} (the word goes before the result)",
                    result.text, result.line
                ),
            ));
        }
        self.game.drop_pending();
        self.game.push(Event::End {
            span,
            number: None,
            word: span.text,
            time: None,
        });
        Ok(())
    }

    fn result(&mut self, span: Span<'a>) -> Result<(), Error> {
        if let Some(&(_, open)) = self.game.open.last() {
            return Err(error_at(
                span.line,
                span.line_text,
                span.text,
                format!(
                    "a result inside the variation opened on line {} (expected `)` first: the result ends the game)",
                    open.line
                ),
            ));
        }
        if let Some(first) = self.game.result {
            return Err(error_at(
                span.line,
                span.line_text,
                span.text,
                format!(
                    "a second result for the same game (the first, `{}`, is on line {}; expected a tag such as [Sente \"…\"] to start the next game)",
                    first.text, first.line
                ),
            ));
        }
        self.game.drop_pending();
        self.game.result = Some(span);
        Ok(())
    }

    fn annotation(&mut self, span: Span<'a>) -> Result<(), Error> {
        if self.game.line().moves == 0 || self.game.result.is_some() {
            return Err(error_at(
                span.line,
                span.line_text,
                span.text,
                "an annotation with no move before it (expected it right after a move, as in P-7f!?)",
            ));
        }
        self.game.push(Event::Comment {
            span,
            text: span.text,
        });
        Ok(())
    }

    /// `...` after `12.`: the number names the pair's second move.
    fn ellipsis(&mut self, span: Span<'a>) -> Result<(), Error> {
        match &mut self.game.pending {
            Some((_, ellipsis @ false, number)) => {
                *ellipsis = true;
                // `12. ...` on one line: the number's span covers both.
                if number.line == span.line {
                    let end = span.offset + span.text.len();
                    let whole = &span.line_text[number.offset..end];
                    *number = Span::of(span.line, span.line_text, whole);
                }
                Ok(())
            }
            _ => Err(error_at(
                span.line,
                span.line_text,
                span.text,
                "`...` with no move number such as `12.` just before it",
            )),
        }
    }

    /// A move number at the start of `text`; returns what follows it (a
    /// move may be glued to it: `1.P-7f`).
    fn number(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let (number, ellipsis, rest) =
            move_number(text).map_err(|bad| token_error(n, line, text, bad))?;
        let span = Span::of(n, line, &text[..text.len() - rest.len()]);
        self.game.drop_pending();
        self.game.pending = Some((number, ellipsis, span));
        Ok(rest)
    }

    fn move_(&mut self, n: u32, line: &'a str, token: &'a str) -> Result<(), Error> {
        if let Some(result) = self.game.result {
            return Err(error_at(
                n,
                line,
                token,
                format!(
                    "a move after the result `{}` on line {} (a new game starts with a tag such as [Sente \"…\"])",
                    result.text, result.line
                ),
            ));
        }
        let written = move_token(token).map_err(|bad| token_error(n, line, token, bad))?;
        let current = self.game.line();
        // The move's place in the game (from 0), for the number check.
        let index = current.ply + current.moves;
        current.moves += 1;
        if let Some((number, ellipsis, span)) = self.game.pending.take() {
            self.game.numbered.push(Numbered {
                index,
                number,
                ellipsis,
                span,
            });
        }
        self.game.moves += 1;
        self.game.push(Event::Move {
            span: Span::of(n, line, written.text),
            number: None,
            spec: written.spec,
            time: None,
        });
        if let Some(text) = written.annotation {
            self.game.push(Event::Comment {
                span: Span::of(n, line, text),
                text,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(usi: &str) -> Square {
        Square::from_usi(usi).unwrap()
    }

    fn spec(token: &str) -> MoveSpec {
        move_token(token).unwrap().spec
    }

    #[test]
    fn plain_moves_and_squares() {
        let s = spec("P-7f");
        assert_eq!(s.piece, PieceKind::Pawn);
        assert_eq!(s.to, Destination::Square(sq("7f")));
        assert_eq!(s.from, None);
        assert_eq!(s.capture, CaptureClaim::NoCapture);
        assert_eq!(s.color, None);
        assert_eq!(spec("P-76"), s);
        let bare = spec("P76");
        assert_eq!(bare.capture, CaptureClaim::Unmarked);
        assert_eq!(bare.to, s.to);
    }

    #[test]
    fn separators_and_origins() {
        let s = spec("Sx7d");
        assert_eq!(s.capture, CaptureClaim::Capture);
        let s = spec("N*5e");
        assert_eq!(s.drop, DropMark::Drop);
        assert_eq!(s.capture, CaptureClaim::Unmarked);
        let s = spec("G6h-5h");
        assert_eq!(s.from, Some(sq("6h")));
        assert_eq!(s.to, Destination::Square(sq("5h")));
        assert_eq!(spec("G68-58"), s);
        let s = spec("S72x83+");
        assert_eq!(s.from, Some(sq("7b")));
        assert_eq!(s.to, Destination::Square(sq("8c")));
        assert_eq!(s.promotion, Promotion::Promote);
        let s = spec("S7283");
        assert_eq!(s.from, Some(sq("7b")));
        assert_eq!(s.capture, CaptureClaim::Unmarked);
    }

    #[test]
    fn promotion_pieces_and_claims() {
        assert_eq!(spec("Bx2b+").promotion, Promotion::Promote);
        assert_eq!(spec("Bx2b=").promotion, Promotion::Decline);
        assert_eq!(spec("+Rx2b").piece, PieceKind::Dragon);
        assert_eq!(spec("+B-5e").piece, PieceKind::Horse);
        assert_eq!(spec("+P-5e").piece, PieceKind::ProPawn);
        assert_eq!(spec("+L-5e").piece, PieceKind::ProLance);
        assert_eq!(spec("+N-5e").piece, PieceKind::ProKnight);
        assert_eq!(spec("+S-5e").piece, PieceKind::ProSilver);
        assert_eq!(spec("T-5e").piece, PieceKind::ProPawn);
        assert_eq!(spec("H-5e").piece, PieceKind::Horse);
        assert_eq!(spec("D-5e").piece, PieceKind::Dragon);
        assert_eq!(spec("K-5h").piece, PieceKind::King);
        assert_eq!(spec("R*5a#").check, CheckClaim::Mate);
        let m = move_token("Nx3c+#!?").unwrap();
        assert_eq!(m.text, "Nx3c+#");
        assert_eq!(m.annotation, Some("!?"));
        assert_eq!(m.spec.check, CheckClaim::Mate);
        assert_eq!(m.spec.promotion, Promotion::Promote);
        for a in ["!", "?", "!!", "??", "!?", "?!"] {
            let token = format!("P-7f{a}");
            assert_eq!(move_token(&token).unwrap().annotation, Some(a));
        }
    }

    #[test]
    fn bad_tokens_say_where_and_what() {
        let bad = move_token("Q-5e").unwrap_err();
        assert_eq!((bad.offset, bad.len), (0, 1));
        assert!(bad.message.contains("piece letter"));
        let bad = move_token("+G-5e").unwrap_err();
        assert_eq!((bad.offset, bad.len), (1, 1));
        let bad = move_token("P-0f").unwrap_err();
        assert_eq!((bad.offset, bad.len), (2, 2));
        assert!(bad.message.contains("square"));
        let bad = move_token("P-7j").unwrap_err();
        assert_eq!(bad.offset, 2);
        let bad = move_token("P-7").unwrap_err();
        assert_eq!((bad.offset, bad.len), (2, 1));
        let bad = move_token("P").unwrap_err();
        assert_eq!((bad.offset, bad.len), (1, 0));
        let bad = move_token("P-7f!!!").unwrap_err();
        assert_eq!((bad.offset, bad.len), (4, 3));
        let bad = move_token("N*5e+").unwrap_err();
        assert_eq!((bad.offset, bad.len), (4, 1));
        let bad = move_token("N5g*5e").unwrap_err();
        assert_eq!((bad.offset, bad.len), (3, 1));
        let bad = move_token("Pé").unwrap_err();
        assert_eq!((bad.offset, bad.len), (1, 2));
        assert!(move_token("").is_err());
        assert!(move_token("+").is_err());
    }

    #[test]
    fn move_numbers() {
        assert_eq!(move_number("1.").unwrap(), (1, false, ""));
        assert_eq!(move_number("12...P-3d").unwrap(), (12, true, "P-3d"));
        assert_eq!(move_number("3…").unwrap(), (3, true, ""));
        assert_eq!(move_number("1.P-7f").unwrap(), (1, false, "P-7f"));
        assert_eq!(move_number("12").unwrap_err().offset, 2);
        assert_eq!(move_number("1..").unwrap_err().offset, 2);
        assert_eq!(move_number("1....").unwrap_err().offset, 4);
        assert!(move_number("99999999999.").is_err());
    }

    #[test]
    fn tags() {
        let (key, value, whole, rest) = tag(r#"[Sente "Habu Yoshiharu"] x"#).unwrap();
        assert_eq!(
            (key, value, whole, rest),
            (
                "Sente",
                "Habu Yoshiharu",
                r#"[Sente "Habu Yoshiharu"]"#,
                " x"
            )
        );
        let (_, value, _, _) = tag(r#"[ Event  "A \"big\" one" ]"#).unwrap();
        assert_eq!(value, r#"A \"big\" one"#);
        assert_eq!(tag(r#"[ "x"]"#).unwrap_err().offset, 2);
        assert_eq!(tag("[Sente x]").unwrap_err().offset, 7);
        assert_eq!(tag(r#"[Sente "x]"#).unwrap_err().offset, 7);
        assert_eq!(tag(r#"[Sente "x""#).unwrap_err().offset, 10);
    }

    #[test]
    fn handicap_names() {
        assert_eq!(handicap_by_name("香落ち"), Some(Handicap::Lance));
        assert_eq!(handicap_by_name("平手"), Some(Handicap::Even));
        for (name, h) in ENGLISH_HANDICAPS {
            assert_eq!(handicap_by_name(name), Some(h), "{name}");
        }
        assert_eq!(handicap_by_name("two pieces"), Some(Handicap::TwoPieces));
        assert_eq!(
            handicap_by_name("Left Seven Pieces"),
            Some(Handicap::LeftSevenPieces)
        );
        assert_eq!(
            handicap_by_name("Rook and Lance"),
            Some(Handicap::RookLance)
        );
        assert_eq!(handicap_by_name("Left Lance"), Some(Handicap::Lance));
        assert_eq!(handicap_by_name("Bishop handicap"), Some(Handicap::Bishop));
        assert_eq!(handicap_by_name("Queen"), None);
        assert_eq!(handicap_by_name(""), None);
    }

    fn numbered(list: &[(u32, u32, bool)]) -> Vec<Numbered<'static>> {
        list.iter()
            .map(|&(index, number, ellipsis)| Numbered {
                index,
                number,
                ellipsis,
                span: Span::of(1, "1.", "1."),
            })
            .collect()
    }

    #[test]
    fn numbers_in_pairs_or_one_by_one() {
        // 1. a b 2. c d 3. e
        let pairs = numbered(&[(0, 1, false), (2, 2, false), (4, 3, false)]);
        assert!(number_warnings(&pairs, true).is_empty());
        // 1. a 1... b 2. c
        let dotted = numbered(&[(0, 1, false), (1, 1, true), (2, 2, false)]);
        assert!(number_warnings(&dotted, true).is_empty());
        // 1... a 2. b c 3. d (White first)
        let white_first = numbered(&[(0, 1, true), (1, 2, false), (3, 3, false)]);
        assert!(number_warnings(&white_first, true).is_empty());
        // 1.a 2.b 3.c
        let plies = numbered(&[(0, 1, false), (1, 2, false), (2, 3, false)]);
        assert!(number_warnings(&plies, true).is_empty());
        // From an SFEN, any first number.
        let late = numbered(&[(0, 40, false), (2, 41, false)]);
        assert!(number_warnings(&late, false).is_empty());
        assert_eq!(number_warnings(&late, true).len(), 1);
        // One slip, one warning.
        let slip = numbered(&[(0, 1, false), (2, 2, false), (4, 5, false), (6, 6, false)]);
        let w = number_warnings(&slip, true);
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("expected `3.`"), "{}", w[0].message);
    }

    #[test]
    fn a_whole_text() {
        let text = "[Sente \"A\"]\n1.P-7f {fine} P-3d!? ; a note\n2. P-2f 1-0\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.headers.len(), 2);
        assert_eq!(g.headers[1].key, "Result");
        assert_eq!(g.headers[1].value, "1-0");
        let kinds: Vec<&str> = g
            .events
            .iter()
            .map(|e| match e {
                Event::Move { span, .. } => span.text,
                Event::Comment { text, .. } => text,
                _ => "?",
            })
            .collect();
        assert_eq!(kinds, ["P-7f", "fine", "P-3d", "!?", "a note", "P-2f"]);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
        assert!(parse("").unwrap().is_empty());
        assert!(parse("\n  \n").unwrap().is_empty());
    }

    #[test]
    fn errors_are_located() {
        let err = parse("1. P-7f\n2. Q-2f").unwrap_err();
        assert_eq!((err.line, err.column), (2, 4));
        let err = parse("1. P-7f {never closed\nP-3d").unwrap_err();
        assert_eq!((err.line, err.column), (1, 9));
        let err = parse("1. P-7f (1. P-2f").unwrap_err();
        assert_eq!(err.column, 9);
        let err = parse("1. P-7f (1. P-2f))").unwrap_err();
        assert_eq!(err.column, 18);
        let err = parse("P-7f 1-0 P-3d").unwrap_err();
        assert_eq!(err.column, 10);
        let err = parse("[SFEN \"9/9 q - 1\"]").unwrap_err();
        assert_eq!(err.column, 8);
        let err = parse("! P-7f").unwrap_err();
        assert_eq!(err.column, 1);
    }
}
