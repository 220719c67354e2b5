//! USI position lines and SFEN.

use crate::record::Record;
use crate::{Position, Setup};
use std::fmt::Write as _;

/// `position startpos moves …` when the game starts from the standard
/// position, else `position sfen <sfen> moves …`; no `moves` part when
/// there are none.
pub fn position_line(record: &Record) -> String {
    let mut out = String::with_capacity(64 + 6 * record.tree.len());
    if record.start == Setup::startpos() {
        out.push_str("position startpos");
    } else {
        out.push_str("position sfen ");
        out.push_str(&record.start.sfen());
    }
    let mut moves = record.tree.mainline_moves().peekable();
    if moves.peek().is_some() {
        out.push_str(" moves");
        for mv in moves {
            write!(out, " {mv}").expect("writing to a String cannot fail");
        }
    }
    out
}

/// The position after the last mainline move.
pub fn final_position(record: &Record) -> Position {
    let (mut pos, _) = Position::from_setup_lenient(record.start.clone())
        .expect("a record's start was checked when it was read");
    for mv in record.tree.mainline_moves() {
        pos.play_unchecked(mv);
    }
    pos
}

/// The SFEN after the last mainline move.
pub fn final_sfen(record: &Record) -> String {
    final_position(record).sfen()
}
