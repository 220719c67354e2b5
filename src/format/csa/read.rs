//! CSA (the computer-shogi standard record format), versions 2 to 3.0:
//! header lines, a start position, moves with their times, comments and a
//! `%` ending; several games in one file separated by `/` lines.
//!
//! ```text
//! V2.2
//! N+NAKAHARA
//! $EVENT:13th World Computer Shogi Championship
//! PI
//! +
//! +7776FU,T12
//! -3334FU
//! T6
//! %TORYO
//! ```
//!
//! A move names its origin and the piece as it stands after the move (a
//! promotion shows as a change of name); the resolver checks both against
//! the board. Leniency: a missing version line; `P1`–`P9` rows with
//! collapsed spaces; statements joined by commas on one line; `T` times with
//! decimals (V3.0) or without; comments `'`, `'*` and `'**` anywhere (the
//! `'` and one `*` are dropped, so `'**` engine comments keep one `*` as KIF
//! comments do); `'CSA encoding=…` read by the decoder. Warned leniencies:
//! spaces after a comma (`+7776FU, T0`, as Kifu for Windows writes; one
//! warning per game, with the count); a position with no turn line (the
//! first move's sign says who is to move, else 先手); a `V` line that is not
//! the game's one version line (ignored); Shogi Wars' ending words
//! (`GOTE_WIN_TORYO`, with or without `%`) and its one-line form (see
//! [`crate::format::wars`]). A line that is none
//! of these is an error, for its own game only: the other games of the file
//! are read. Nothing between two `/` lines is no game but a warning (the
//! first ten one by one, then a count), and a text without any game is an
//! error.

use super::board::{position_line, Start};
use super::common;
use super::{error, header, specials};
use crate::error::{Error, Stage};
use crate::format::endings;
use crate::format::japanese::read::trim_end_spaces;
use crate::format::lines;
use crate::format::wars;
use crate::record::raw::{Event, RawGame, Span};
use crate::record::{MoveTime, Warning};
use crate::{Color, Setup};

/// One game being read.
struct Game<'a> {
    raw: RawGame<'a>,
    start: Start,
    /// Statements after a comma and spaces (`+7776FU, T0`): how many, and
    /// the warning on the first.
    comma_spaces: usize,
    comma_warning: usize,
    /// Shogi Wars' one-line form: each side's seconds left after its last
    /// move, and how many moves had no time because the seconds rose.
    wars_left: [Option<u64>; 2],
    wars_rose: usize,
}

/// Room made for headers in the first game of a text: `V`, two names,
/// and the `$` lines most files have.
const HEADERS: usize = 8;

impl<'a> Game<'a> {
    /// A game with room for `events` events and, if any, for the few
    /// headers a game has.
    fn with_capacity(events: usize) -> Game<'a> {
        Game {
            raw: RawGame {
                events: Vec::with_capacity(events),
                headers: Vec::with_capacity(if events > 0 { HEADERS } else { 0 }),
                ..RawGame::default()
            },
            start: Start::default(),
            comma_spaces: 0,
            comma_warning: 0,
            wars_left: [None; 2],
            wars_rose: 0,
        }
    }

    /// A move, `s`: when it is the first after a position with no turn
    /// line, its sign says who is to move, with a warning.
    #[inline]
    fn turn_from_move(&mut self, n: u32, line: &str, s: &str) {
        if self.start.awaiting_turn {
            self.take_turn_from_move(n, line, s);
        }
    }

    /// [`Game::turn_from_move`] when no turn line came: rare, kept out of
    /// the move's way.
    #[cold]
    fn take_turn_from_move(&mut self, n: u32, line: &str, s: &str) {
        self.start.awaiting_turn = false;
        let (color, side) = match s.starts_with('-') {
            true => (Color::White, "後手 (-)"),
            false => (Color::Black, "先手 (+)"),
        };
        if let Some(setup) = self.start.setup.as_mut() {
            setup.side_to_move = color;
        }
        self.raw.warnings.push(Span::of(n, line, s).warning(format!(
            "no turn line (`+` or `-`) after the position (line {}); the side of the first move, {side}, is taken as the side to move",
            self.start.last_line.0
        )));
    }

    fn has_content(&self) -> bool {
        !self.raw.headers.is_empty() || !self.raw.events.is_empty() || self.start.setup.is_some()
    }
}

/// The tests' shorthand for [`games`]: a syntax error in any game fails
/// the whole text.
#[cfg(test)]
pub fn parse(text: &str) -> Result<Vec<RawGame<'_>>, Error> {
    games(text)?.into_iter().collect()
}

/// Reads a CSA text game by game: each game between `/` lines is read, or
/// fails with its syntax error, on its own. An empty stretch between `/`
/// lines is a warning (the first ten one by one, the rest counted); a text
/// with no game is an error.
pub fn games(text: &str) -> Result<Vec<Result<RawGame<'_>, Error>>, Error> {
    let mut games = Vec::with_capacity(1);
    let mut game = Game::with_capacity(text.len() / 12);
    let mut failed: Option<Error> = None;
    let mut empty = EmptyGames::default();
    let mut rest = text;
    let mut n = 0;
    while !rest.is_empty() {
        n += 1;
        // A line after an error is skipped (below): no fast path.
        if failed.is_none() {
            let (read, lines) = common_lines(n, rest, &mut game);
            if lines > 0 {
                rest = &rest[read..];
                n += lines - 1;
                continue;
            }
        }
        let (line, after) = lines::split_first(rest);
        rest = after;
        if line.as_bytes().first() == Some(&b'/') && line.trim() == "/" {
            match failed.take() {
                Some(error) => games.push(Err(error)),
                None if game.has_content() => games.push(Ok(finish(game))),
                None => empty.note(n, line, games.len()),
            }
            game = Game::with_capacity(0);
            continue;
        }
        if failed.is_none() {
            if let Err(error) = game_line(n, line, &mut game) {
                failed = Some(error);
            }
        }
    }
    match failed {
        Some(error) => games.push(Err(error)),
        None if game.has_content() => games.push(Ok(finish(game))),
        None => {}
    }
    if games.is_empty() {
        let first = text.lines().next().unwrap_or("");
        let message = match empty.count {
            0 => "no game: the text has no CSA lines (expected V2.2, N+…, PI, a move such as +7776FU, …)".to_string(),
            count => format!(
                "no game: the text has only `/` separators and blank lines ({count} empty {})",
                if count == 1 { "game" } else { "games" }
            ),
        };
        return Err(Error::at(Stage::Parse, 1, first, 0, first, message));
    }
    empty.attach(&mut games);
    Ok(games)
}

/// One line of a game (not a `/` separator). Kept out of the reading loop.
#[inline(never)]
fn game_line<'a>(n: u32, line: &'a str, game: &mut Game<'a>) -> Result<(), Error> {
    let bytes = line.as_bytes();
    // A header line (`N+…`, `$KEY:…`) keeps its commas in its value.
    if matches!(bytes.first(), Some(b'N' | b'$')) {
        return statement_line(n, line, trim_end_spaces(line), game);
    }
    // A comment takes the rest of the line, commas included.
    if let Some(comment) = line.strip_prefix('\'') {
        comment_line(n, line, comment, game);
        return Ok(());
    }
    // Shogi Wars' one-line form: a whole game, tab-separated.
    if bytes.contains(&b'\t') && is_wars_line(line) {
        return wars_line(n, line, game);
    }
    // Only position lines, moves, times and specials are joined by commas.
    if !line.starts_with(['+', '-', 'T', '%', 'P']) || !line.as_bytes().contains(&b',') {
        let trimmed = trim_end_spaces(line);
        if !trimmed.is_empty() {
            statement_line(n, line, trimmed, game)?;
        }
        return Ok(());
    }
    let mut offset = 0;
    for statement in line.split(',') {
        let start = offset;
        offset += statement.len() + 1;
        let trimmed = trim_end_spaces(statement);
        if trimmed.trim_start().is_empty() {
            continue;
        }
        // A comment after a comma takes the rest of the line.
        if let Some(comment) = line[start..].trim_start().strip_prefix('\'') {
            comment_line(n, line, comment, game);
            break;
        }
        let mut statement = &line[start..start + trimmed.len()];
        if statement.starts_with(' ') && start > 0 {
            // Kifu for Windows writes `+7776FU, T0`.
            statement = statement.trim_start_matches(' ');
            game.comma_spaces += 1;
            if game.comma_spaces == 1 {
                game.comma_warning = game.raw.warnings.len();
                game.raw.warnings.push(
                    Span::of(n, line, statement)
                        .warning("a space after the comma (as Kifu for Windows writes); skipped"),
                );
            }
        }
        statement_line(n, line, statement, game)?;
    }
    Ok(())
}

/// The fast path over a run of common lines at the start of `text` (see
/// [`common_line`]), the first of them line `n`: how many bytes and lines
/// it read; none when the first line is not a common one.
#[inline(never)]
fn common_lines<'a>(n: u32, text: &'a str, game: &mut Game<'a>) -> (usize, u32) {
    let (mut read, mut lines) = (0, 0);
    while let Some((len, count)) = common_line(n + lines, &text[read..], game) {
        read += len;
        lines += count;
    }
    (read, lines)
}

/// The fast path: the common line at the start of `text` (`+7776FU`,
/// `T12` or `+7776FU,T12`, see [`common`]) applied to the game as
/// [`game_line`] would apply it; where the next line starts and how many
/// lines were read (two for a move then its time line, read as one event).
/// `None`, with nothing done, for any other line.
fn common_line<'a>(n: u32, text: &'a str, game: &mut Game<'a>) -> Option<(usize, u32)> {
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b'T') {
        let (spent_ms, end) = common::time_statement(bytes, 0)?;
        let next = common::line_end(bytes, end)?;
        let Some(Event::Move { time: slot, .. }) = game.raw.events.last_mut() else {
            return None;
        };
        *slot = Some(spent(spent_ms));
        return Some((next, 1));
    }
    let spec = common::move_statement(bytes)?;
    let (mut time, end) = match bytes.get(7) {
        Some(b',') => {
            let (spent_ms, end) = common::time_statement(bytes, 8)?;
            (Some(spent_ms), end)
        }
        _ => (None, 7),
    };
    let mut next = common::line_end(bytes, end)?;
    let mut lines = 1;
    // The line and the move are ASCII.
    let (line, s) = (&text[..end], &text[..7]);
    game.turn_from_move(n, line, s);
    if time.is_none() {
        if let Some((spent_ms, after)) = common::time_statement(bytes, next)
            .and_then(|(spent_ms, end)| Some((spent_ms, common::line_end(bytes, end)?)))
        {
            (time, next, lines) = (Some(spent_ms), after, 2);
        }
    }
    game.raw.events.push(Event::Move {
        // The move starts its line.
        span: Span::of(n, line, s),
        number: None,
        spec,
        time: time.map(spent),
    });
    Some((next, lines))
}

/// The empty games met so far: the first [`EmptyGames::REPORTED`] as
/// warnings, the rest counted.
#[derive(Default)]
struct EmptyGames {
    count: usize,
    /// Each warning, with the number of games read before it.
    warnings: Vec<(usize, Warning)>,
    /// The line of the last empty game past those reported.
    last_line: u32,
}

impl EmptyGames {
    /// How many empty games are reported one by one.
    const REPORTED: usize = 10;

    fn note(&mut self, n: u32, line: &str, games_before: usize) {
        self.count += 1;
        if self.count > Self::REPORTED {
            self.last_line = n;
        }
        // The one after those reported becomes the count ([`EmptyGames::attach`]).
        if self.count <= Self::REPORTED + 1 {
            let warning = Span::of(n, line, line.trim()).warning(
                "an empty game (nothing between two `/` lines, or before the first); skipped",
            );
            self.warnings.push((games_before, warning));
        }
    }

    /// Hangs each warning on the first game read after it, or on the last
    /// game before it, when none follows (a game that failed keeps only
    /// its error).
    fn attach(mut self, games: &mut [Result<RawGame<'_>, Error>]) {
        let more = self.count.saturating_sub(Self::REPORTED);
        if more > 0 {
            if let Some((_, last)) = self.warnings.last_mut() {
                last.message = format!(
                    "and {more} more empty {} like it, the last on line {}; skipped",
                    if more == 1 { "game" } else { "games" },
                    self.last_line
                );
            }
        }
        for (before, warning) in self.warnings {
            let after = games.iter().skip(before).position(Result::is_ok);
            let target = match after {
                Some(i) => Some(before + i),
                None => games[..before.min(games.len())]
                    .iter()
                    .rposition(Result::is_ok),
            };
            if let Some(Ok(game)) = target.map(|i| &mut games[i]) {
                let at = game
                    .warnings
                    .iter()
                    .position(|w| w.line > warning.line)
                    .unwrap_or(game.warnings.len());
                game.warnings.insert(at, warning);
            }
        }
    }
}

fn comment_line<'a>(n: u32, line: &'a str, comment: &'a str, game: &mut Game<'a>) {
    // The encoding declaration is the decoder's.
    if comment.starts_with("CSA encoding=") || comment.starts_with("CSA version=") {
        return;
    }
    let text = comment.strip_prefix('*').unwrap_or(comment);
    game.raw.events.push(Event::Comment {
        span: Span::of(n, line, comment),
        text,
    });
}

fn statement_line<'a>(n: u32, line: &'a str, s: &'a str, game: &mut Game<'a>) -> Result<(), Error> {
    if header::statement(n, line, s, &mut game.raw)? {
        return Ok(());
    }
    let mut chars = s.chars();
    let first = chars.next().expect("statements are not empty");
    match first {
        'P' => {
            // A row `P1`–`P9` is that rank's line; `PI`, `P+`, `P-` are
            // lines of the position as a whole.
            let rank = s[1..]
                .bytes()
                .next()
                .filter(u8::is_ascii_digit)
                .map(|d| d - b'0');
            game.raw.board_at.note(Span::of(n, line, s), rank);
            position_line(n, line, s, &mut game.start, &mut game.raw.warnings)?
        }
        '+' | '-' if s.len() == 1 => {
            game.start.awaiting_turn = false;
            let setup = game.start.setup.get_or_insert_with(Setup::startpos);
            setup.side_to_move = if first == '+' {
                Color::Black
            } else {
                Color::White
            };
        }
        '+' | '-' => {
            game.turn_from_move(n, line, s);
            move_statement(n, line, s, &mut game.raw.events)?
        }
        '%' => end_statement(n, line, s, &s[1..], &mut game.raw),
        '#' if specials::is_server_message(s) => game.raw.events.push(Event::Comment {
            span: Span::of(n, line, s),
            text: s,
        }),
        _ if wars::ending(s).is_some() => end_statement(n, line, s, s, &mut game.raw),
        'T' => {
            let time = time_statement(&s[1..]).ok_or_else(|| {
                error(
                    n,
                    line,
                    s,
                    "expected a time such as T12 or T12.345 (seconds)",
                )
            })?;
            match game
                .raw
                .events
                .iter_mut()
                .rev()
                .find(|e| !matches!(e, Event::Comment { .. }))
            {
                Some(Event::Move { time: slot, .. } | Event::End { time: slot, .. }) => {
                    *slot = Some(time)
                }
                _ => return Err(error(n, line, s, "a time with no move before it")),
            }
        }
        _ => return Err(error(
            n,
            line,
            s,
            "expected a CSA line: V, N+, N-, $KEY:, P…, +, -, a move such as +7776FU, T…, %… or '",
        )),
    }
    Ok(())
}

/// An ending, `s`, whose word is `word` (`%TORYO`, or a Shogi Wars word
/// with or without `%`, which is warned).
fn end_statement<'a>(n: u32, line: &'a str, s: &'a str, word: &'a str, raw: &mut RawGame<'a>) {
    if let Some((kind, winner)) = wars::ending(word) {
        raw.warnings.push(Span::of(n, line, s).warning(format!(
            "a Shogi Wars ending word instead of a CSA `%` special; read as {}",
            wars::describe(kind, winner)
        )));
    }
    raw.events
        .push(endings::word_event(Span::of(n, line, s), word));
}

/// Whether a line with a tab is Shogi Wars' one-line form: its first item
/// a move with seconds left (`+7776FU,L600`) or an ending word.
fn is_wars_line(line: &str) -> bool {
    let Some(first) = line.split('\t').find(|item| !item.trim().is_empty()) else {
        return false;
    };
    let first = first.trim();
    match first.split_once(',') {
        Some((mv, left)) => mv.len() == 7 && mv.starts_with(['+', '-']) && left.starts_with('L'),
        None => wars::ending(first).is_some(),
    }
}

/// Shogi Wars' one-line form (see [`wars`]): moves with seconds left,
/// tab-separated, and an ending word.
fn wars_line<'a>(n: u32, line: &'a str, game: &mut Game<'a>) -> Result<(), Error> {
    game.raw.warnings.push(Span::of(n, line, line.trim()).warning(
        "Shogi Wars' one-line form (tab-separated moves with seconds left, L); each move's time is the decrease of its mover's seconds left, and each side's first move has none",
    ));
    for item in line.split('\t') {
        let item = item.trim_matches(' ');
        if item.is_empty() {
            continue;
        }
        if wars::ending(item).is_some() || item.starts_with('%') {
            statement_line(n, line, item, game)?;
            continue;
        }
        let (mv, left) = item.split_once(',').ok_or_else(|| {
            error(
                n,
                line,
                item,
                "expected a move with seconds left, such as +7776FU,L600, or an ending word such as GOTE_WIN_TORYO",
            )
        })?;
        game.turn_from_move(n, line, mv);
        move_statement(n, line, mv, &mut game.raw.events)?;
        let seconds = left
            .strip_prefix('L')
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<u64>().ok())
            .ok_or_else(|| error(n, line, left, "expected seconds left such as L600"))?;
        let side = usize::from(mv.starts_with('-'));
        let before = game.wars_left[side].replace(seconds);
        let time = match before {
            Some(before) if before >= seconds => Some(spent((before - seconds) * 1000)),
            Some(_) => {
                game.wars_rose += 1;
                if game.wars_rose == 1 {
                    game.raw.warnings.push(Span::of(n, line, left).warning(
                        "the seconds left rose since this side's previous move (a clock reset each move?); no time for this move, nor for any other such",
                    ));
                }
                None
            }
            None => None,
        };
        if let Some(Event::Move { time: slot, .. }) = game.raw.events.last_mut() {
            *slot = time;
        }
    }
    Ok(())
}

/// `T12` or `T12.345`.
fn time_statement(text: &str) -> Option<MoveTime> {
    let bytes = text.as_bytes();
    let dot = bytes.iter().position(|&b| b == b'.').unwrap_or(bytes.len());
    let (whole, fraction) = (&bytes[..dot], bytes.get(dot + 1..).unwrap_or(&[]));
    if whole.is_empty() || !whole.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if !fraction.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut seconds = 0u64;
    for &digit in whole {
        seconds = seconds
            .checked_mul(10)?
            .checked_add(u64::from(digit - b'0'))?;
    }
    let mut millis = 0u64;
    for (i, &digit) in fraction.iter().take(3).enumerate() {
        millis += u64::from(digit - b'0') * 10u64.pow(2 - i as u32);
    }
    Some(spent(seconds.checked_mul(1000)?.checked_add(millis)?))
}

/// A move's time, with no running total (CSA gives none).
fn spent(spent_ms: u64) -> MoveTime {
    MoveTime {
        spent_ms,
        total_ms: None,
    }
}

/// `+7776FU`, `-0055KA`: the seven bytes [`common::move_statement`]
/// reads, and no more. Appends the move.
fn move_statement<'a>(
    n: u32,
    line: &'a str,
    s: &'a str,
    events: &mut Vec<Event<'a>>,
) -> Result<(), Error> {
    let spec = common::move_statement(s.as_bytes())
        .filter(|_| s.len() == 7)
        .ok_or_else(|| {
            error(
                n,
                line,
                s,
                "expected a move: sign, origin (00 for a drop), destination and piece, such as +7776FU or -0055KA",
            )
        })?;
    events.push(Event::unnumbered_move(Span::of(n, line, s), spec));
    Ok(())
}

/// Completes a game: applies `00AL` and hands the start to the builder.
fn finish(mut game: Game<'_>) -> RawGame<'_> {
    if game.comma_spaces > 1 {
        let more = game.comma_spaces - 1;
        game.raw.warnings[game.comma_warning].message = format!(
            "a space after the comma (as Kifu for Windows writes); skipped, here and {more} more {} in this game",
            if more == 1 { "time" } else { "times" }
        );
    }
    if game.start.awaiting_turn {
        let (n, line) = &game.start.last_line;
        let mut warning = Span::of(*n, line, line).warning(
            "no turn line (`+` or `-`) after the position and no move to tell; 先手 (+) to move assumed",
        );
        warning.text = line.trim().to_string();
        game.raw.warnings.push(warning);
    }
    game.raw.board = game.start.take_board();
    game.raw
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general reader alone, every line through [`game_line`]: the
    /// first game's result, as [`games`] gives it.
    fn general(text: &str) -> Result<RawGame<'_>, Error> {
        let mut game = Game::with_capacity(0);
        for (n, line) in lines::numbered(text) {
            game_line(n, line, &mut game)?;
        }
        Ok(finish(game))
    }

    #[test]
    fn the_fast_path_reads_as_the_general_reader() {
        let mut lines: Vec<String> = Vec::new();
        for piece in [
            "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
        ] {
            lines.push(format!("+2726{piece}"));
            lines.push(format!("-0055{piece}"));
        }
        lines.extend(
            [
                "+7776FU",
                "-3334FU",
                "+0055KA",
                "-0000FU",
                "+0076FU",
                "+7700FU",
                "+7076FU",
                "+0776FU",
                "+7706FU",
                "+7760FU",
                "+7a76FU",
                "+7776fu",
                "+7776Fu",
                "+7776XX",
                "+7776FU ",
                "+7776FU  ",
                " +7776FU",
                "+7776FUX",
                "+7776ＦＵ",
                "+7776FUあ",
                "+77７6FU",
                "+",
                "-",
                "+7776",
                "*7776FU",
                "T",
                "T0",
                "T007",
                "T12",
                "T1.5",
                "T1.",
                "T-1",
                "T 5",
                "T5 ",
                "Tx",
                "t5",
                "T999999999999999",
                "T9999999999999999",
                "T99999999999999999",
                "T99999999999999999999",
                "+7776FU,T12",
                "+7776FU,T0",
                "+7776FU,T",
                "+7776FU,",
                "+7776FU,T12,",
                "+7776FU, T12",
                "+7776FU,T12 ",
                "+7776FU,T1.5",
                "+7776FU,t12",
                "+7776FU,T12,T3",
                "+7776FU,'x",
                "+7776fu,T12",
                "+7076FU,T12",
                "+7776FU,T99999999999999999999",
                "'",
                "'a comment",
                "'*engine",
                "'**x",
                "%TORYO",
                "%TORYO,T5",
                "%KACHI",
                "SENTE_WIN_TORYO",
                "V2.2",
                "N+a",
                "$EVENT:x,y",
                "",
            ]
            .map(String::from),
        );
        // The fast reader's first game reads as the general reader's.
        let same = |text: &str| {
            let fast = games(text).map(|mut games| games.remove(0));
            let fast = fast.and_then(|game| game);
            assert_eq!(
                format!("{fast:?}"),
                format!("{:?}", general(text)),
                "{text:?}"
            );
        };
        let endings = ["\n", "\r\n", "\r"];
        for line in &lines {
            for ending in endings {
                for before in [
                    "PI\n+\n",
                    "PI\n",
                    "PI\n+\n+7776FU\n",
                    "PI\n+\n+7776FU\n'c\n",
                    "PI\n+\n%TORYO\n",
                ] {
                    for after in ["", ending, "T3\n-3334FU\nT4"] {
                        same(&format!("{before}{line}{ending}{after}"));
                        // The line alone, as the text's last.
                        same(&format!("{before}{line}"));
                    }
                }
            }
        }
    }

    #[test]
    fn times() {
        assert_eq!(time_statement("12").unwrap().spent_ms, 12_000);
        assert_eq!(time_statement("12.345").unwrap().spent_ms, 12_345);
        assert_eq!(time_statement("0.5").unwrap().spent_ms, 500);
        assert!(time_statement("").is_none());
        assert!(time_statement("1x").is_none());
    }

    #[test]
    fn a_game_with_comma_joined_statements() {
        let games = parse("V2.2\nN+a\nN-b\nPI\n+\n+7776FU,T12\n-3334FU\nT6\n%TORYO\n").unwrap();
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.headers.len(), 3);
        assert_eq!(game.events.len(), 3);
        let Event::Move { time, spec, .. } = &game.events[0] else {
            panic!()
        };
        assert_eq!(time.unwrap().spent_ms, 12_000);
        assert_eq!(spec.from, crate::Square::new(7, 7));
    }

    #[test]
    fn a_bad_game_fails_alone() {
        let text = "PI\n+\n+7776FU\n/\nPI\n+\nX\n+7776FU\n/\nPI\n+\n+2726FU\n";
        let games = games(text).unwrap();
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok() && games[2].is_ok());
        let error = &games[1].as_ref().unwrap_err().location;
        assert_eq!((error.line, error.column, error.text.as_str()), (7, 1, "X"));
        // The whole-text reader fails on it.
        assert_eq!(parse(text).unwrap_err().location.line, 7);
    }

    #[test]
    fn an_empty_game_is_a_warning_on_a_neighbour() {
        // Each game's warnings, by line.
        for (text, warned) in [
            // Before the first game: on the first game.
            ("/\nPI\n+\n", vec![vec![1]]),
            // Between two games: on the second; blank lines are nothing.
            ("PI\n+\n/\n\n  \n/\nPI\n+\n", vec![vec![], vec![6]]),
            // After the last game: on the last. A final `/` alone is no
            // empty game.
            ("PI\n+\n/\n/\n", vec![vec![4]]),
            ("PI\n+\n/\n", vec![vec![]]),
        ] {
            let games = parse(text).unwrap();
            let lines: Vec<Vec<u32>> = games
                .iter()
                .map(|game| game.warnings.iter().map(|w| w.line).collect())
                .collect();
            assert_eq!(lines, warned, "{text:?}");
            for warning in games.iter().flat_map(|game| &game.warnings) {
                assert!(warning.message.contains("empty game"), "{text:?}");
            }
        }
    }

    #[test]
    fn empty_games_past_the_first_ten_are_counted() {
        let text = format!("PI\n+\n{}", "/\n".repeat(1_001));
        let games = parse(&text).unwrap();
        assert_eq!(games.len(), 1);
        let warnings = &games[0].warnings;
        assert_eq!(warnings.len(), EmptyGames::REPORTED + 1);
        let last = warnings.last().unwrap();
        assert_eq!(last.line, 3 + EmptyGames::REPORTED as u32 + 1);
        assert_eq!(
            last.message,
            "and 990 more empty games like it, the last on line 1003; skipped"
        );
    }

    #[test]
    fn no_game_is_an_error() {
        for (text, says) in [
            ("", "no CSA lines"),
            ("\n \n", "no CSA lines"),
            ("/", "1 empty game)"),
            ("/\n/\n\n/\n", "3 empty games"),
        ] {
            let error = games(text).unwrap_err();
            assert_eq!(
                (error.location.line, error.location.column),
                (1, 1),
                "{text:?}"
            );
            assert!(error.message.contains(says), "{text:?}: {}", error.message);
        }
    }

    fn spent(game: &RawGame<'_>) -> Vec<Option<u64>> {
        game.events
            .iter()
            .filter_map(|e| match e {
                Event::Move { time, .. } => Some(time.map(|t| t.spent_ms / 1000)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn shogi_wars_one_line_times_are_the_decrease_of_seconds_left() {
        let games =
            parse("+7776FU,L600\t-3334FU,L598\t+2726FU,L590\t-8384FU,L599\tGOTE_WIN_TORYO\n")
                .unwrap();
        let game = &games[0];
        // Each side's first move has no time; the seconds left rose for
        // the second -: no time, with a warning.
        assert_eq!(spent(game), [None, None, Some(10), None]);
        assert!(matches!(
            game.events.last(),
            Some(Event::End {
                word: "GOTE_WIN_TORYO",
                ..
            })
        ));
        let messages: Vec<_> = game
            .warnings
            .iter()
            .map(|w| (w.column, w.message.as_str()))
            .collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].1.starts_with("Shogi Wars' one-line form"));
        assert_eq!(game.warnings[1].text, "L599");
        assert!(messages[2].1.contains("resignation, 後手 wins"));
        // A bad item is a located error; a move needs its sign.
        for (text, column, at) in [
            ("+7776FU,L600\t-3334FU,X5\n", 22, "X5"),
            ("+7776FU,L600\t*3334FU,L598\n", 14, "*3334FU"),
        ] {
            let error = parse(text).unwrap_err();
            let location = (error.location.column, error.location.text.as_str());
            assert_eq!(location, (column, at), "{text:?}");
        }
    }

    #[test]
    fn a_space_after_a_comma_is_one_warning_per_game() {
        let games = parse("PI\n+\n+7776FU, T0\n-3334FU,  T3\n").unwrap();
        assert_eq!(spent(&games[0]), [Some(0), Some(3)]);
        let [warning] = &games[0].warnings[..] else {
            panic!("{:?}", games[0].warnings)
        };
        let at = (warning.line, warning.column, warning.text.as_str());
        assert_eq!(at, (3, 10, "T0"));
        assert!(warning
            .message
            .ends_with("here and 1 more time in this game"));
    }

    #[test]
    fn a_position_without_a_turn_line_takes_the_first_move_or_black() {
        let board = "P1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9+OU *  *  *  *  *  *  *  * \n";
        let text = format!("{board}-1112OU\n");
        let games = parse(&text).unwrap();
        assert_eq!(games[0].board.as_ref().unwrap().side_to_move, Color::White);
        let [warning] = &games[0].warnings[..] else {
            panic!("{:?}", games[0].warnings)
        };
        assert_eq!((warning.line, warning.text.as_str()), (10, "-1112OU"));
        let games = parse(board).unwrap();
        assert_eq!(games[0].board.as_ref().unwrap().side_to_move, Color::Black);
        assert_eq!(games[0].warnings[0].line, 9);
        assert!(games[0].warnings[0]
            .message
            .contains("先手 (+) to move assumed"));
        // With the turn line: no warning.
        let text = format!("{board}-\n-1112OU\n");
        assert!(parse(&text).unwrap()[0].warnings.is_empty());
    }

    #[test]
    fn v_lines_other_than_the_version_are_warned() {
        let games = parse("V2.2\nV3.0\nVX\nPI\n+\n").unwrap();
        assert_eq!(games[0].headers.len(), 1);
        let lines: Vec<_> = games[0].warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, [2, 3]);
    }
}
