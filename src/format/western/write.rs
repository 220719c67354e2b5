//! Western (Hodges) notation with a tag block, as the Western reader reads
//! it: `1. P-7f P-3d 2. Bx2b+ Sx2b 3. B*4e`. An origin is written only when
//! another piece of the same kind could make the same move (the minimal
//! form, like chess SAN); `x` for a capture, `-` otherwise, `*` for a drop,
//! `+` / `=` where promotion was possible, `#` on a mate, comments in
//! braces.
//!
//! What is written, so that the reader reads back the same record:
//!
//! * Every header as a tag `[Key "Value"]` under Western's key for its
//!   field, or as a `{Key:Value}` comment before the first move when no
//!   tag can hold it ([`header_lines`]). The start is the `[SFEN "…"]` tag
//!   whenever it is not the even game's at move 1, and also when no other
//!   tag would open the game (so that games written one after another read
//!   back as separate games).
//! * Variations in parentheses after the move they replace, PGN style,
//!   nested as the tree nests them: `1. P-7f (1. P-2f P-8d) 1... P-3d`. A
//!   line that could also have ended where it goes on is a variation
//!   holding only the ending. The walk is JKF's ([`forks`]).
//! * The end of each line as the Japanese terminal word the KIF writer
//!   writes ([`japanese::ending_word`]: `投了`, `中断`, `千日手`, …) after
//!   its last move; a foul whose move is known ([`crate::format::foul_move`]) as
//!   that move, with its origin, before the word.
//! * The result token at the end of the move text: the `Result` header when
//!   it is one (`1-0`, `0-1`, `1/2-1/2`, `*`), else the mainline's ending's
//!   (the winner, `1/2-1/2` for 千日手 and 持将棋, `*` otherwise), else
//!   none. A result derived from the ending reads back as a new `Result`
//!   header.
//!
//! What Western cannot hold: times, bookmarks, the `まで…` trailer; endings
//! as the KIF words hold them (a draw by agreement reads back as 持将棋, the
//! move limit, a take-back and an error as 中断, a perpetual check as the
//! foul it is); a comment with a line break reads back as one comment a
//! line, and a comment line with `}` and spaces at either end has its `}`
//! written as `)`.

use crate::format::forks::{self, Inline};
use crate::format::japanese::write as japanese;
use crate::format::lines::split_at_endings;
use crate::record::headers::{written_key, Field, KeyStyle};
use crate::record::{Ending, EndingKind, NodeId, Record};
use crate::{Color, Handicap, Move, PieceKind, Position};
use std::fmt::Write as _;

/// The Western letters of a piece: `P` … `K`, `+P` … `+R` promoted.
pub fn piece_letters(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.usi_letter())
    } else {
        kind.usi_letter().to_string()
    }
}

/// Writes several games, one after another with a blank line between.
pub fn write_all(records: &[Record]) -> String {
    let games: Vec<String> = records.iter().map(write).collect();
    games.join("\n")
}

/// What a header becomes in Western: a tag, a `{key:value}` comment
/// before the first move, or nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written<'a> {
    /// `[key "value"]`.
    Tag(&'a str, &'a str),
    /// The start, as the `[SFEN "…"]` tag.
    Sfen,
    /// `{key:value}`.
    Comment(&'a str, &'a str),
}

/// The headers as the writer writes them, in order: each header under its
/// Western tag ([`written_key`]: `N+` and `先手` are both `Sente`), a `SFEN`
/// header as the start, one no tag can hold (a key with a space, `"` or
/// `]`, a value with a line break or an unescaped `"`) as a comment, CSA's
/// `V` left out. Last, `[Handicap "…"]` in English for a standard handicap
/// start; a handicap header that names the start is left out, one that
/// names another start, or none, is kept as a comment.
pub fn header_lines(record: &Record) -> Vec<Written<'_>> {
    let start = record.start.handicap();
    let start_tag = start
        .filter(|&h| h != Handicap::Even)
        .map(|h| Written::Tag("Handicap", super::tags::english_name(h)));
    let mut out = Vec::with_capacity(record.headers.len() + 1);
    for header in &record.headers {
        if header.key == "SFEN" {
            out.push(Written::Sfen);
            continue;
        }
        let Some(key) = written_key(&header.key, KeyStyle::Western) else {
            continue;
        };
        let value = header.value.as_str();
        let handicap = Field::of_key(key) == Some(Field::Handicap);
        if handicap && start.is_some() && super::tags::handicap_by_name(value) == start {
            continue;
        }
        out.push(match !handicap && tag_holds(key, value) {
            true => Written::Tag(key, value),
            false => Written::Comment(key, value),
        });
    }
    out.extend(start_tag);
    out
}

/// The headers that cannot be written as tags, as the `key:value` comments
/// the writer puts before the first move.
pub fn header_comments(record: &Record) -> Vec<String> {
    header_lines(record)
        .into_iter()
        .filter_map(|line| match line {
            Written::Comment(key, value) => Some(format!("{key}:{value}")),
            _ => None,
        })
        .collect()
}

/// Whether `[key "value"]` reads back as this key and value.
pub fn tag_holds(key: &str, value: &str) -> bool {
    let key_ok = !key.is_empty()
        && !key.contains(|c: char| c.is_whitespace() || matches!(c, '"' | ']' | '['));
    // The reader ends the value at the first `"` no backslash escapes.
    let value_ok = !value.contains(['\n', '\r'])
        && super::tags::closing_quote(&format!("{value}\"")) == Some(value.len());
    let handicap_ok = key != "Handicap" || super::tags::handicap_by_name(value).is_some();
    key_ok && value_ok && handicap_ok
}

/// Writes one game: tags, comments kept for headers, then the numbered
/// moves with their variations, endings and the result.
pub fn write(record: &Record) -> String {
    let mut out = String::new();
    let even_start = record.start == *Handicap::Even.setup_ref();
    let sfen_tag = format!("[SFEN \"{}\"]\n", record.start.sfen());
    let mut wrote_sfen = false;
    for line in header_lines(record) {
        match line {
            // The start is written here, as it is, in place of the header.
            Written::Sfen if !wrote_sfen => {
                out.push_str(&sfen_tag);
                wrote_sfen = true;
            }
            Written::Tag(key, value) => writeln!(out, "[{key} \"{value}\"]").unwrap(),
            Written::Sfen | Written::Comment(..) => {}
        }
    }
    if !wrote_sfen && (!even_start || out.is_empty()) {
        out.push_str(&sfen_tag);
    }
    // Comments before the first move, a line each.
    let comments = header_comments(record);
    for comment in comments.iter().chain(record.tree.root().comments()) {
        for (part, _) in comment_parts(comment) {
            writeln!(out, "{part}").unwrap();
        }
    }
    let mut moves = Moves {
        out: &mut out,
        line: String::new(),
        record,
        first_pair: record.start.move_number().max(1).div_ceil(2),
    };
    forks::walk(
        &record.tree,
        &mut moves,
        (record.start.clone(), Numbering::Always),
    );
    // Every game ends with a result, `*` when none is known (as PGN
    // requires), so that games written one after another stay apart.
    moves.token(result_token(record).unwrap_or("*"));
    moves.flush();
    out
}

/// The result token written after the mainline, if any.
pub fn result_token(record: &Record) -> Option<&str> {
    if let Some(result) = record.header("Result") {
        return super::notation::is_result(result).then_some(result);
    }
    let ending = record.ending()?;
    Some(match (ending.kind, ending.winner) {
        (_, Some(Color::Black)) => "1-0",
        (_, Some(Color::White)) => "0-1",
        (EndingKind::Repetition | EndingKind::Impasse | EndingKind::Draw, None) => "1/2-1/2",
        _ => "*",
    })
}

/// Each line of a comment as the reader reads it back: `{text}` when it
/// holds no `}`, else `;text` (which runs to the end of the text line: the
/// flag says so) when that keeps it exactly, else `{…}` with `}` written
/// `)`. A comment of several lines is one comment a line.
fn comment_parts(comment: &str) -> impl Iterator<Item = (String, bool)> + '_ {
    split_at_endings(comment).map(|line| {
        if !line.contains('}') {
            (format!("{{{line}}}"), false)
        } else if !line.is_empty() && line.trim() == line {
            (format!(";{line}"), true)
        } else {
            (format!("{{{}}}", line.replace('}', ")")), false)
        }
    })
}

/// Whether the next move needs its number even when it is White's: the
/// first move of a line, and the move after a variation closes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Numbering {
    Always,
    BlackOnly,
}

struct Moves<'o, 'r> {
    out: &'o mut String,
    /// The text line being filled, wrapped at about 70 bytes.
    line: String,
    record: &'r Record,
    /// The pair number of the first move: from the start's move number.
    first_pair: u32,
}

impl Moves<'_, '_> {
    /// Adds a token to the text line, starting a new line first when it
    /// would pass 72 bytes (never between `(` or `)` and their neighbour).
    fn token(&mut self, text: &str) {
        let glued = self.line.ends_with('(') || text == ")";
        if !glued && self.line.len() + 1 + text.len() > 72 {
            self.flush();
        }
        if !self.line.is_empty() && !glued {
            self.line.push(' ');
        }
        self.line.push_str(text);
    }

    fn flush(&mut self) {
        if !self.line.is_empty() {
            self.out.push_str(&self.line);
            self.out.push('\n');
            self.line.clear();
        }
    }

    /// A comment after a move or an ending, on the text line.
    fn comment(&mut self, comment: &str) {
        for (part, ends_line) in comment_parts(comment) {
            self.token(&part);
            if ends_line {
                self.flush();
            }
        }
    }

    /// The pair number of the move at `ply` (1 for the first move).
    fn pair(&self, ply: u32) -> u32 {
        let before = match self.record.start.side_to_move() {
            Color::Black => (ply - 1) / 2,
            Color::White => ply / 2,
        };
        self.first_pair + before
    }

    /// The ending of `node` (nothing if it has none), `pos` the position
    /// there: a foul's move, then the terminal word and its comments.
    fn ending_at(&mut self, node: NodeId, pos: &Position) {
        let Some(ending) = self.record.tree.node(node).ending() else {
            return;
        };
        if let Some(mv) = crate::format::foul_move(ending, pos) {
            let ply = self.record.tree.node(node).ply + 1;
            let text = match pos.side_to_move() {
                Color::Black => format!("{}. {}", self.pair(ply), move_text(pos, mv, false)),
                Color::White => move_text(pos, mv, false),
            };
            self.token(&text);
        }
        self.token(&ending_token(ending, pos.side_to_move()));
        for comment in &ending.comments {
            self.comment(comment);
        }
    }
}

/// Variations in parentheses; the move after one, or first in one, has
/// its number even when it is White's.
impl Inline for Moves<'_, '_> {
    type At = (Position, Numbering);

    fn step(&mut self, id: NodeId, at: &mut Self::At, _: bool, _: bool) {
        let node = self.record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        let (pos, numbering) = at;
        let pair = self.pair(node.ply);
        // A number and its move stay on one text line.
        let text = match pos.side_to_move() {
            Color::Black => format!("{pair}. {}", move_text(pos, mv, true)),
            Color::White if *numbering == Numbering::Always => {
                format!("{pair}... {}", move_text(pos, mv, true))
            }
            Color::White => move_text(pos, mv, true),
        };
        *numbering = Numbering::BlackOnly;
        self.token(&text);
        for comment in node.comments() {
            self.comment(comment);
        }
        pos.play_unchecked(mv);
    }

    fn ending(&mut self, node: NodeId, (pos, _): Self::At) {
        self.ending_at(node, &pos);
    }

    fn open_fork(&mut self, (pos, _): &Self::At, _: bool) -> Self::At {
        self.token("(");
        (pos.clone(), Numbering::Always)
    }

    fn close_fork(&mut self, _: &Self::At) {
        self.token(")");
    }

    fn close_forks(&mut self, (_, numbering): &mut Self::At, _: bool) {
        *numbering = Numbering::Always;
    }
}

/// The terminal word for an ending: the KIF writer's word, which the
/// reader reads as KIF's reader does. An unknown word (kept as text) is
/// written as it was when it is Japanese text the reader takes as a
/// terminal word, else as `中断`.
pub fn ending_token(ending: &Ending, to_move: Color) -> String {
    let word = japanese::ending_word(ending, to_move);
    if super::notation::is_terminal_word(word) {
        word.to_string()
    } else {
        "中断".to_string()
    }
}

/// The Western text of a move: the minimal text of a legal move, and an
/// illegal move (a foul's) with its origin so that the reader finds the
/// same move (and the same foul), not a legal one, without `=` or `#`.
pub fn move_text(pos: &Position, mv: Move, legal: bool) -> String {
    let mut text = String::with_capacity(10);
    match mv {
        Move::Drop { kind, to } => {
            write!(text, "{}*{to}", piece_letters(kind)).unwrap();
        }
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            text.push_str(&piece_letters(kind));
            let twins = !legal
                || pos
                    .candidates(kind, to)
                    .iter()
                    .filter_map(|m| m.from())
                    .any(|other| other != from);
            if twins {
                write!(text, "{from}").unwrap();
            }
            text.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            write!(text, "{to}").unwrap();
            if promote {
                text.push('+');
            } else if legal
                && pos.is_legal(Move::Normal {
                    from,
                    to,
                    promote: true,
                })
            {
                text.push('=');
            }
        }
    }
    if legal {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if after.is_checkmate() {
            text.push('#');
        }
    }
    text
}
