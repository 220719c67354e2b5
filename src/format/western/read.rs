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
//! The origin, `x`, `-`, `+`, `=` and `#` are claims the resolver checks
//! against the board.
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
//!   none at all. They are checked, not trusted: in pairs or one by one,
//!   whichever fits better (`numbers.rs`), every number that
//!   disagrees being a warning; from the standard start or a handicap the
//!   count begins at 1, after an `[SFEN]` tag at the first number. They
//!   never decide which side moves.
//! - Variations in parentheses, PGN style, after the move they replace,
//!   nested to any depth: `1. P-7f (1. P-2f P-8d (1... P-3d)) 1... P-3d`.
//!   After `)` the line that was interrupted goes on. Their numbers are
//!   checked with the mainline's (each counts from the start). A comment
//!   right after `(` belongs to the position the variation starts from.
//!   An empty variation, `)` with none open, and a `(` never closed are
//!   errors.
//! - A terminal word as the Japanese formats write it (`投了`, `中断`, …: a
//!   token of Japanese text) ends its line, as in KIF. A last move that
//!   breaks the rules is a foul, as in every reader.
//! - A result `1-0`, `0-1`, `1/2-1/2` or `*` ends the game's moves. It is
//!   kept as the `Result` header when there is no `[Result]` tag (but `*`),
//!   and compared with the tag (a warning if they differ) when there is. It
//!   is no ending (a terminal word is). A move after the result is an
//!   error, and so is a result inside a variation.
//!
//! # Leniency
//!
//! Any whitespace between tokens, a byte-order mark, any line endings. What
//! the reader does not understand in the moves is an error with its line
//! and column.

use super::notation::{is_annotation, is_result, is_terminal_word, move_number, move_token, Bad};
use super::numbers::{number_warnings, Numbered};
use super::tags::{handicap_by_name, tag};
use crate::error::{Error, Stage};
use crate::format::japanese::handicaps::HANDICAP_NAMES;
use crate::format::lines;
use crate::record::raw::{Event, RawGame, RawHeader, Span};
use crate::record::Warning;
use crate::{Handicap, Setup};

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

/// The token at the start of `text`: up to whitespace, `{`, `;`, `(` or
/// `)`.
fn split_token(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')'))
        .unwrap_or(text.len());
    text.split_at(end)
}

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
    /// each followed by its own.
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
                self.raw.board_at.note(span, None);
            }
            (None, Some((h, span))) => {
                self.raw.board = Some(h.setup());
                self.raw.board_at.note(span, None);
            }
            (None, None) => {}
        }
    }

    /// The result token becomes the `Result` header, or is compared with it.
    fn settle_result(&mut self) {
        let Some(span) = self.result else { return };
        match self.raw.headers.iter().find(|h| h.key == "Result") {
            Some(tag) if tag.value.trim() != span.text() => {
                let message = format!(
                    "the result `{}` disagrees with the Result tag `{}`; the tag is kept",
                    span.text(),
                    tag.value
                );
                self.raw.warnings.push(span.warning(message));
            }
            Some(_) => {}
            // `*` says the result is unknown: nothing to keep.
            None if span.text() == "*" => {}
            None => self.raw.headers.push(RawHeader {
                span,
                key: "Result",
                value: span.text(),
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

/// Keeps the value of the first of a tag given twice, and warns of a
/// second.
fn keep_first<'a, T>(
    slot: &mut Option<(T, Span<'a>)>,
    value: (T, Span<'a>),
    warnings: &mut Vec<Warning>,
    tag: &str,
) {
    match slot {
        Some(_) => warnings.push(
            value
                .1
                .warning(format!("a second {tag} tag; the first is used")),
        ),
        None => *slot = Some(value),
    }
}

/// The start an `[SFEN "…"]` tag gives.
fn sfen_tag(value: Span<'_>) -> Result<Setup, Error> {
    Setup::from_sfen(value.text().trim()).map_err(|e| {
        value.error(
            Stage::Parse,
            format!("the SFEN tag is not a valid SFEN: {e}"),
        )
    })
}

/// The standard start a `[Handicap "…"]` tag names.
fn handicap_tag(value: Span<'_>) -> Result<Handicap, Error> {
    handicap_by_name(value.text()).ok_or_else(|| {
        let names: Vec<&str> = HANDICAP_NAMES.iter().map(|row| row.2).collect();
        value.error(
            Stage::Parse,
            format!(
                "unknown handicap `{}` (expected one of {}, or a Japanese name such as 香落ち; or give the position in an SFEN tag)",
                value.text(),
                names.join(", ")
            ),
        )
    })
}

/// A syntax error about `span`.
fn refuse<T>(span: Span<'_>, message: impl Into<String>) -> Result<T, Error> {
    Err(span.error(Stage::Parse, message))
}

/// An error about part of a token.
fn token_error(n: u32, line: &str, token: &str, bad: Bad) -> Error {
    let start = bad.offset.min(token.len());
    let mut end = (start + bad.len).min(token.len());
    while !token.is_char_boundary(end) {
        end += 1;
    }
    let message = format!("expected {}", bad.message);
    lines::error(n, line, &token[start..end], message)
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
            return refuse(
                open,
                "a comment opened with `{` is never closed (expected `}`)",
            );
        }
        self.next_game()?;
        Ok(self.games)
    }

    /// Ends the game being read, if anything of it was read.
    fn next_game(&mut self) -> Result<(), Error> {
        if let Some(&(_, open)) = self.game.open.last() {
            return refuse(
                open,
                "a variation opened with `(` is never closed (expected `)` before the next game or the end)",
            );
        }
        let game = std::mem::take(&mut self.game);
        if game.seen {
            self.games.push(game.finish());
        }
        Ok(())
    }

    /// The error for `what` written after the game's result (`hint` says
    /// where it goes), if the game has one.
    fn before_result(&self, span: Span<'a>, what: &str, hint: &str) -> Result<(), Error> {
        match self.game.result {
            Some(result) => refuse(
                span,
                format!(
                    "{what} after the result `{}` on line {} ({hint})",
                    result.text(),
                    result.line
                ),
            ),
            None => Ok(()),
        }
    }

    /// `(` at the start of `text`: a variation of the move just read.
    fn open_variation(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let span = Span::of(n, line, &text[..1]);
        self.before_result(
            span,
            "a variation",
            "variations go after the move they replace",
        )?;
        self.game.seen = true;
        self.game.drop_pending();
        let current = self.game.line();
        if current.moves == 0 {
            return refuse(
                span,
                "a variation with no move before it (a variation in parentheses replaces the move just before it)",
            );
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
            return refuse(
                span,
                "`)` with no variation open (expected a move, a move number, a comment or a result)",
            );
        }
        self.game.drop_pending();
        let (index, open) = self.game.open.pop().expect("checked above");
        let empty = self.game.lines[index]
            .items
            .iter()
            .all(|item| matches!(item, Item::Event(Event::Comment { .. })));
        if empty {
            return refuse(
                open,
                "an empty variation (expected moves, or a terminal word such as 投了, between `(` and `)`)",
            );
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
        let game = &mut self.game;
        let warnings = &mut game.raw.warnings;
        match key {
            "SFEN" => {
                let setup = sfen_tag(value_span)?;
                keep_first(&mut game.sfen, (setup, value_span), warnings, key)
            }
            "Handicap" => {
                let handicap = handicap_tag(value_span)?;
                keep_first(&mut game.handicap, (handicap, value_span), warnings, key)
            }
            _ => {}
        }
        game.raw.headers.push(RawHeader { span, key, value });
        Ok(rest)
    }

    /// A token of the moves at the start of `text`; returns what follows.
    fn token(&mut self, n: u32, line: &'a str, text: &'a str) -> Result<&'a str, Error> {
        let (token, after) = split_token(text);
        self.game.seen = true;
        let span = Span::of(n, line, token);
        match token {
            _ if is_result(token) => self.result(span)?,
            _ if is_terminal_word(token) => self.terminal_word(span)?,
            _ if is_annotation(token) => self.annotation(span)?,
            "..." | "…" => self.ellipsis(span)?,
            _ if token.starts_with(|c: char| c.is_ascii_digit()) => {
                return self.number(n, line, text)
            }
            _ => self.move_(n, line, token)?,
        }
        Ok(after)
    }

    /// A terminal word (`投了`): the end of the line being read.
    fn terminal_word(&mut self, span: Span<'a>) -> Result<(), Error> {
        self.before_result(span, "a terminal word", "the word goes before the result")?;
        self.game.drop_pending();
        self.game
            .push(crate::format::endings::word_event(span, span.text()));
        Ok(())
    }

    fn result(&mut self, span: Span<'a>) -> Result<(), Error> {
        if let Some(&(_, open)) = self.game.open.last() {
            return refuse(
                span,
                format!(
                    "a result inside the variation opened on line {} (expected `)` first: the result ends the game)",
                    open.line
                ),
            );
        }
        if let Some(first) = self.game.result {
            return refuse(
                span,
                format!(
                    "a second result for the same game (the first, `{}`, is on line {}; expected a tag such as [Sente \"…\"] to start the next game)",
                    first.text(), first.line
                ),
            );
        }
        self.game.drop_pending();
        self.game.result = Some(span);
        Ok(())
    }

    fn annotation(&mut self, span: Span<'a>) -> Result<(), Error> {
        if self.game.line().moves == 0 || self.game.result.is_some() {
            return refuse(
                span,
                "an annotation with no move before it (expected it right after a move, as in P-7f!?)",
            );
        }
        self.game.push(Event::Comment {
            span,
            text: span.text(),
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
                    let end = span.offset + span.text().len();
                    let whole = &span.line_text()[number.offset..end];
                    *number = Span::of(span.line, span.line_text(), whole);
                }
                Ok(())
            }
            _ => refuse(
                span,
                "`...` with no move number such as `12.` just before it",
            ),
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
        self.before_result(
            Span::of(n, line, token),
            "a move",
            "a new game starts with a tag such as [Sente \"…\"]",
        )?;
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
        let span = Span::of(n, line, written.text);
        self.game.push(Event::unnumbered_move(span, written.spec));
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
                Event::Move { span, .. } => span.text(),
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
        for (text, at) in [
            ("1. P-7f\n2. Q-2f", (2, 4)),
            ("1. P-7f {never closed\nP-3d", (1, 9)),
            ("1. P-7f (1. P-2f", (1, 9)),
            ("1. P-7f (1. P-2f))", (1, 18)),
            ("P-7f 1-0 P-3d", (1, 10)),
            ("[SFEN \"9/9 q - 1\"]", (1, 8)),
            ("! P-7f", (1, 1)),
        ] {
            let err = parse(text).unwrap_err();
            assert_eq!((err.location.line, err.location.column), at, "{text:?}");
        }
    }
}
