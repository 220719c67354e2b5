//! KIF, as Kifu for Windows writes it: the `#KIF version=2.0 encoding=…`
//! line, headers in input order, 手合割 or a board diagram (with `手数＝N`
//! when the start comes after N moves), the `手数----指手---------消費時間--`
//! line, numbered move lines with their origin and full time columns,
//! comments, bookmarks, the terminal line and `まで…` summary, then each
//! variation as a `変化：N手` block.
//!
//! The `#KIF` line comes first in every game, so that games written one
//! after another read back as several games (see
//! [`kakinoki::games`](crate::format::kakinoki::games)).
//!
//! Every move line has its time column, `( m:ss/hh:mm:ss)`: the time the
//! move took (0 when the record has none) and the mover's running total,
//! as recorded or else summed over the mover's moves along the line.
//!
//! Move lines are numbered on from the start's move number (after
//! `手数＝36`, the first move is 37), as Kifu for Windows numbers them; a
//! `変化：N手` counts moves from the start of the record, as every KIF
//! reader finds the branch point.
//!
//! Variations are written depth first, the deepest branch point of a line
//! first (see [`japanese::write_lines`]).

use crate::format::clock::Clock;
use crate::format::japanese::endings::{ending_word, trailer};
use crate::format::japanese::pieces::move_piece_name;
use crate::format::japanese::write as japanese;
use crate::record::{Ending, EndingKind, NodeId, Record};
use crate::{Move, Position, Square};
use std::fmt::Write as _;

/// Where a line of play stands: the position, the previous move's
/// destination (for 同) and each side's running time.
#[derive(Clone)]
struct Cursor {
    pos: Position,
    previous: Option<Square>,
    clock: Clock,
}

/// Writes a record as KIF text. `encoding` is the name the `#KIF` line
/// declares (`UTF-8` or `Shift_JIS`); encoding the text is the caller's.
pub fn write(record: &Record, encoding: &str) -> String {
    let mut out = String::with_capacity(256 + 40 * record.tree.len());
    writeln!(out, "#KIF version=2.0 encoding={encoding}").unwrap();
    let columns = "手数----指手---------消費時間--\n";
    let handicap_labels = japanese::write_headers(&mut out, record, columns);
    let cursor = Cursor {
        pos: record.start.clone(),
        previous: None,
        clock: Clock::default(),
    };
    let mut lines = Lines {
        record,
        handicap_labels,
    };
    japanese::write_lines(&mut out, record, cursor, &mut lines);
    out
}

/// The KIF writer of lines of play (see [`japanese::write_lines`]).
struct Lines<'a> {
    record: &'a Record,
    handicap_labels: bool,
}

impl japanese::LineWriter for Lines<'_> {
    type At = Cursor;

    fn write_move(&mut self, out: &mut String, id: NodeId, cursor: &mut Cursor, branches: bool) {
        let node = self.record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        let mut text = String::with_capacity(24);
        move_text(&mut text, &cursor.pos, mv, cursor.previous);
        let time = cursor.clock.column(cursor.pos.side_to_move(), node.time);
        write_numbered(out, self.record, node.ply, &text, time, branches);
        japanese::write_notes(out, self.record, id);
        cursor.pos.play_unchecked(mv);
        cursor.previous = Some(mv.to());
    }

    fn end_line(&mut self, out: &mut String, last: NodeId, mut cursor: Cursor) {
        let node = self.record.tree.node(last);
        if let Some(ending) = node.ending() {
            let labels = self.handicap_labels;
            write_ending(out, self.record, ending, node.ply, &mut cursor, labels);
        }
    }
}

/// The KIF move text: `７六歩(77)`, `同　角成(88)`, `５五角打`.
pub fn move_text(text: &mut String, pos: &Position, mv: Move, previous: Option<Square>) {
    let to = mv.to();
    if previous == Some(to) {
        text.push_str("同\u{3000}");
    } else {
        write!(text, "{}", to.japanese()).unwrap();
    }
    match mv {
        Move::Normal { from, promote, .. } => {
            let kind = pos
                .piece_at(from)
                .map_or(crate::PieceKind::Pawn, |p| p.kind);
            text.push_str(move_piece_name(kind));
            if promote {
                text.push('成');
            }
            write!(text, "({}{})", from.file(), from.rank()).unwrap();
        }
        Move::Drop { kind, .. } => {
            text.push_str(move_piece_name(kind));
            text.push('打');
        }
    }
}

/// `   1 ７六歩(77)   ( 0:16/00:00:16)+`: the line of move `ply` (or of
/// the terminal word after move `ply - 1`), numbered as
/// [`japanese::move_number`] says, with its time column (spent and total,
/// in milliseconds), padded as Kifu for Windows pads it.
fn write_numbered(
    out: &mut String,
    record: &Record,
    ply: u32,
    text: &str,
    (spent, total): (u64, u64),
    has_variation: bool,
) {
    let number = japanese::move_number(record, ply);
    write!(out, "{number:>4} {text}").unwrap();
    for _ in japanese::display_width(text)..13 {
        out.push(' ');
    }
    let (spent, total) = (spent / 1000, total / 1000);
    write!(
        out,
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        spent / 60,
        spent % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
    .unwrap();
    if has_variation {
        out.push('+');
    }
    out.push('\n');
}

/// The terminal line after `ply` moves, with its time column, and the
/// summary. A foul whose move is known is written as that move, so that a
/// reader finds the same foul.
fn write_ending(
    out: &mut String,
    record: &Record,
    ending: &Ending,
    ply: u32,
    cursor: &mut Cursor,
    handicap_labels: bool,
) {
    let to_move = cursor.pos.side_to_move();
    let mut word_line = false;
    if let Some(mv) = crate::format::foul_move(ending, &cursor.pos) {
        let mut text = String::new();
        move_text(&mut text, &cursor.pos, mv, cursor.previous);
        let time = cursor.clock.column(to_move, ending.time);
        write_numbered(out, record, ply + 1, &text, time, false);
    } else {
        // A terminal word speaks of the player to move (投了: that player
        // resigns). When the record's winner does not fit the word, the
        // summary line alone says who won.
        let mut word = ending_word(ending, to_move);
        // The reader takes a numbered line for a terminal word only when it
        // is one: an unknown ending is written as 中断, its text kept in a
        // comment.
        let unreadable = ending.kind == EndingKind::Other;
        if unreadable {
            word = "中断";
        }
        let (_, implied) = crate::format::endings::ending_for_word(word, to_move);
        word_line = implied == ending.winner || unreadable;
        if word_line {
            let time = cursor.clock.column(to_move, ending.time);
            write_numbered(out, record, ply + 1, word, time, false);
        }
        if unreadable {
            writeln!(out, "*{}", ending.text.replace(['\n', '\r'], " ")).unwrap();
        }
    }
    japanese::write_comments(out, &ending.comments);
    let moves = japanese::move_number(record, ply);
    let summary = match (ending.kind, word_line) {
        // json-kifu-format reads no `…の入玉勝ち` summary; the 入玉勝ち line
        // above says how the game ended, so the summary says who won.
        (EndingKind::EnteringKing, true) => {
            let plain = Ending {
                kind: EndingKind::Resign,
                ..ending.clone()
            };
            trailer(moves, &plain, handicap_labels)
        }
        _ => trailer(moves, ending, handicap_labels),
    };
    writeln!(out, "{summary}").unwrap();
}
