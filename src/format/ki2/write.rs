//! KI2: moves in Japanese notation without their origin, six to a line,
//! each with only the relative markers the JSA rules require (chosen by
//! [`MoveSpec::from_move`]); comments and bookmarks between
//! moves; variations as `変化：N手` blocks; the result in the `まで…`
//! summary, after a final illegal move and its comments when the game was
//! lost by one (as tsshogi writes it).
//!
//! Every game starts with a `#KI2 version=2.0` line, so that games written
//! one after another read back as several games (see
//! [`kakinoki::games`](crate::format::kakinoki::games)) and the text is
//! known for KI2 at its first line.

use crate::format::japanese::endings::trailer;
use crate::format::japanese::write::{self as japanese, write_spec};
use crate::record::{Ending, NodeId, Record};
use crate::resolve::spec::{DropMark, MoveSpec};
use crate::resolve::{Mismatch, ResolveError};
use crate::{Move, Position, Square};
use std::fmt::Write as _;

/// Moves written on one line.
const MOVES_PER_LINE: usize = 6;
/// Display columns each move is padded to (but the last on a line).
const MOVE_WIDTH: usize = 12;

/// Writes a record as KI2 text whose `#KI2` line declares `encoding`
/// (`UTF-8` or `Shift_JIS`); encoding the text is the caller's.
pub fn write_declared(record: &Record, encoding: &str) -> String {
    let mut out = String::with_capacity(256 + 12 * record.tree.len());
    writeln!(out, "#KI2 version=2.0 encoding={encoding}").unwrap();
    let handicap_labels = japanese::write_headers(&mut out, record, "");
    let start = record.start.clone();
    let mut lines = Lines {
        record,
        handicap_labels,
        moves: MoveLine::default(),
    };
    japanese::write_lines(&mut out, record, (start, None), &mut lines);
    out
}

/// The KI2 writer of lines of play (see [`japanese::write_lines`]), which
/// stands at a position and the previous move's destination.
struct Lines<'a> {
    record: &'a Record,
    handicap_labels: bool,
    moves: MoveLine,
}

impl japanese::LineWriter for Lines<'_> {
    type At = (Position, Option<Square>);

    fn write_move(&mut self, out: &mut String, id: NodeId, at: &mut Self::At, _: bool) {
        let (pos, previous) = at;
        let node = self.record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        let mut text = String::with_capacity(16);
        text.push(pos.side_to_move().triangle());
        write_spec(&mut text, &MoveSpec::from_move(pos, mv, *previous));
        self.moves.push(out, &text);
        if !node.comments().is_empty() || !node.bookmarks().is_empty() {
            self.moves.end(out);
            japanese::write_notes(out, self.record, id);
        }
        pos.play_unchecked(mv);
        *previous = Some(mv.to());
    }

    fn end_line(&mut self, out: &mut String, last: NodeId, (pos, previous): Self::At) {
        let node = self.record.tree.node(last);
        let foul = node
            .ending()
            .and_then(|ending| written_foul(ending, &pos, previous));
        if let Some(text) = &foul {
            self.moves.push(out, text);
        }
        self.moves.end(out);
        if let Some(ending) = node.ending() {
            let labels = self.handicap_labels;
            write_ending(out, self.record, ending, node.ply, foul, labels);
        }
    }
}

/// The moves on the text line being written: six at most, each padded to
/// [`MOVE_WIDTH`] columns before the next.
#[derive(Default)]
struct MoveLine {
    on_line: usize,
    previous_width: usize,
}

impl MoveLine {
    fn push(&mut self, out: &mut String, text: &str) {
        if self.on_line == MOVES_PER_LINE {
            self.end(out);
        }
        if self.on_line > 0 {
            // Pad the previous move to its width; a move as wide or wider
            // is followed directly by the next one, as Kifu for Windows does.
            for _ in self.previous_width..MOVE_WIDTH {
                out.push(' ');
            }
        }
        out.push_str(text);
        self.previous_width = japanese::display_width(text);
        self.on_line += 1;
    }

    /// Ends the text line, if it has moves.
    fn end(&mut self, out: &mut String) {
        if self.on_line > 0 {
            out.push('\n');
            self.on_line = 0;
        }
    }
}

/// The summary of a line that ended after `ply` moves in `pos`, with the
/// ending's comments: after the summary, or, when the final illegal move
/// was written (`foul`), between that move and the summary.
fn write_ending(
    out: &mut String,
    record: &Record,
    ending: &Ending,
    ply: u32,
    foul: Option<String>,
    handicap_labels: bool,
) {
    let summary = trailer(japanese::move_number(record, ply), ending, handicap_labels);
    if foul.is_none() {
        writeln!(out, "{summary}").unwrap();
    }
    japanese::write_comments(out, &ending.comments);
    if foul.is_some() {
        writeln!(out, "{summary}").unwrap();
    }
}

/// The text of the final illegal move of a game lost by it (`▲５五歩打`),
/// when [`foul_move`](crate::format::foul_move) says it is written and the KI2
/// reader reads it back as the same foul: a move no legal move fits. A drop
/// is always marked 打, so that the text names it whole. `None` when the
/// text would name a legal move or none the reader can tell from one (a
/// marker that rules out a legal twin): then the summary alone says who
/// lost.
fn written_foul(ending: &Ending, pos: &Position, previous: Option<Square>) -> Option<String> {
    let mv = crate::format::foul_move(ending, pos)?;
    let mut spec = MoveSpec::from_move(pos, mv, previous);
    if matches!(mv, Move::Drop { .. }) {
        spec.drop = DropMark::Drop;
    }
    // The reader's rule for a foul (`record::builder`): the move the text names
    // is illegal, or no legal move of that piece reaches the square but for
    // board moves that 打 rules out.
    let read_as_foul = match spec.to_move(pos, previous) {
        Err(ResolveError::Illegal { .. }) => true,
        Err(ResolveError::NoCandidate { rejected, .. }) => {
            rejected.iter().all(|(_, why)| *why == Mismatch::NotADrop)
        }
        _ => false,
    };
    read_as_foul.then(|| {
        let mut text = String::with_capacity(16);
        text.push(pos.side_to_move().triangle());
        write_spec(&mut text, &spec);
        text
    })
}
