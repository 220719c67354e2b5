//! USI position lines: `position startpos moves 7g7f 3c3d`,
//! `position sfen <sfen> moves …`, and the same without the `position` word.
//!
//! Leniency: any run of spaces or tabs separates tokens; `moves` may be
//! absent when there are no moves; the SFEN move number may be missing.
//! An end token after the last move (`… moves 7g7f resign`, as record
//! files written by GUIs have it; see [`end_token`]) is read as the ending,
//! with a warning (the reader in `read.rs` splits it off with
//! [`split_end_token`]).

use crate::position::SfenError;
use crate::record::raw::Winner;
use crate::record::EndingKind;
use crate::Setup;
use std::fmt;

/// What an end token after the moves means: `resign` (the player to move
/// resigns), `timeout` (loses on time), `win` (declares a win by entering
/// king, 入玉宣言), `rep_draw` (repetition), `draw` (a draw: 持将棋 or
/// agreed), `break` (the game was stopped, 中断).
pub fn end_token(token: &str) -> Option<(EndingKind, Winner)> {
    Some(match token {
        "resign" => (EndingKind::Resign, Winner::Opponent),
        "timeout" => (EndingKind::TimeUp, Winner::Opponent),
        "win" => (EndingKind::EnteringKing, Winner::ToMove),
        "rep_draw" => (EndingKind::Repetition, Winner::Nobody),
        "draw" => (EndingKind::Draw, Winner::Nobody),
        "break" => (EndingKind::Abort, Winner::Nobody),
        _ => return None,
    })
}

/// Splits an end token off the end of a line with moves: the line without
/// it, and the token (a slice of `line`, so it can be located).
pub fn split_end_token(line: &str) -> (&str, Option<&str>) {
    let body = line.trim_end();
    let start = body
        .rfind(|c: char| c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let token = &body[start..];
    let before = body[..start].trim_end();
    let after_moves = before.split_ascii_whitespace().any(|t| t == "moves");
    if start > 0 && after_moves && end_token(token).is_some() {
        (before, Some(token))
    } else {
        (line, None)
    }
}

/// A USI position line, read but not played: the start and the move texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiLine<'a> {
    /// The starting position: the standard one for `startpos`, else the
    /// SFEN's (syntax checked, rules not yet).
    pub start: Setup,
    /// Whether the line said `startpos` (rather than an SFEN).
    pub startpos: bool,
    /// The tokens after `moves`, unparsed; empty when there are none.
    pub moves: Vec<&'a str>,
}

/// Why a line is not a USI position line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiLineError {
    /// Neither `startpos` nor `sfen` where the start should be.
    NoStart {
        /// The token found instead (at most 40 characters; empty at the end
        /// of the line).
        found: String,
    },
    /// The SFEN after `sfen` (or a bare SFEN) does not read.
    Sfen(SfenError),
    /// Something other than `moves` after the position.
    ExpectedMoves {
        /// The token found instead, at most 40 characters.
        found: String,
    },
}

impl fmt::Display for UsiLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiLineError::NoStart { found } => write!(
                f,
                "expected `startpos` or `sfen <position>`, found `{found}`"
            ),
            UsiLineError::Sfen(e) => e.fmt(f),
            UsiLineError::ExpectedMoves { found } => {
                write!(f, "expected `moves` after the position, found `{found}`")
            }
        }
    }
}

impl std::error::Error for UsiLineError {}

/// The SFEN at the head of `tokens`: up to four fields (the last, the
/// move number, optional), ending early at `moves`.
fn sfen<'a>(
    tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Result<Setup, UsiLineError> {
    let mut fields = Vec::with_capacity(4);
    while fields.len() < 4 {
        match tokens.peek() {
            Some(&"moves") | None => break,
            Some(&t) => {
                fields.push(t);
                tokens.next();
            }
        }
    }
    Setup::from_sfen(&fields.join(" ")).map_err(UsiLineError::Sfen)
}

/// Reads one USI position line.
pub fn parse_line(line: &str) -> Result<UsiLine<'_>, UsiLineError> {
    let mut tokens = line.split_ascii_whitespace().peekable();
    if tokens.peek() == Some(&"position") {
        tokens.next();
    }
    let short = |t: &str| t.chars().take(40).collect::<String>();
    let (start, startpos) = match tokens.peek() {
        // A bare SFEN: the board field has the rank separators.
        Some(t) if t.contains('/') => (sfen(&mut tokens)?, false),
        Some(&"startpos") => {
            tokens.next();
            (Setup::startpos(), true)
        }
        Some(&"sfen") => {
            tokens.next();
            (sfen(&mut tokens)?, false)
        }
        found => {
            return Err(UsiLineError::NoStart {
                found: short(found.copied().unwrap_or("")),
            })
        }
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.collect(),
        Some(found) => {
            return Err(UsiLineError::ExpectedMoves {
                found: short(found),
            })
        }
    };
    Ok(UsiLine {
        start,
        startpos,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let line = parse_line("position startpos moves 7g7f 3c3d").unwrap();
        assert!(line.startpos);
        assert_eq!(line.moves, ["7g7f", "3c3d"]);
        let line = parse_line("startpos").unwrap();
        assert!(line.moves.is_empty());
        let line = parse_line("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
        assert!(!line.startpos);
        assert_eq!(line.start.sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
        assert_eq!(line.moves, ["G*5b"]);
        let line = parse_line("sfen 4k4/9/9/9/9/9/9/9/4K4 b G moves G*5b").unwrap();
        assert_eq!(line.moves, ["G*5b"]);
        let line = parse_line("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        assert!(line.moves.is_empty() && !line.startpos);
        let line = parse_line("4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
        assert_eq!(line.moves, ["G*5b"]);
    }

    #[test]
    fn errors() {
        assert!(matches!(parse_line(""), Err(UsiLineError::NoStart { .. })));
        assert!(matches!(
            parse_line("position foo"),
            Err(UsiLineError::NoStart { .. })
        ));
        assert!(matches!(
            parse_line("position startpos 7g7f"),
            Err(UsiLineError::ExpectedMoves { .. })
        ));
        assert!(matches!(
            parse_line("position sfen 4k4/9 b - 1 moves"),
            Err(UsiLineError::Sfen(_))
        ));
    }

    #[test]
    fn end_tokens_are_split_off_after_the_moves() {
        let line = "position startpos moves 7g7f 3c3d resign";
        let (rest, token) = split_end_token(line);
        assert_eq!(
            (rest, token),
            ("position startpos moves 7g7f 3c3d", Some("resign"))
        );
        // The token is a slice of the line, for its column.
        assert_eq!(
            token.unwrap().as_ptr() as usize - line.as_ptr() as usize,
            34
        );
        assert_eq!(split_end_token("startpos moves win").1, Some("win"));
        // Not after the moves, or not a token: nothing split.
        assert_eq!(split_end_token("position startpos resign").1, None);
        assert_eq!(split_end_token("position startpos moves 7g7f").1, None);
        assert_eq!(split_end_token("resign").1, None);
        for (token, kind) in [
            ("resign", EndingKind::Resign),
            ("timeout", EndingKind::TimeUp),
            ("win", EndingKind::EnteringKing),
            ("rep_draw", EndingKind::Repetition),
            ("draw", EndingKind::Draw),
            ("break", EndingKind::Abort),
        ] {
            assert_eq!(end_token(token).unwrap().0, kind);
        }
    }
}
