//! USI position lines and SFEN.

use crate::record::Record;

/// `position startpos moves …` when the game starts from the standard
/// position, else `position sfen <sfen> moves …`; no `moves` part when
/// there are none.
pub fn position_line(record: &Record) -> String {
    let mut out = String::with_capacity(64 + 6 * record.tree.len());
    if record.start == *crate::Handicap::Even.setup_ref() {
        out.push_str("position startpos");
    } else {
        out.push_str("position sfen ");
        out.push_str(&record.start.sfen());
    }
    let mut moves = record.tree.mainline_moves().peekable();
    if moves.peek().is_some() {
        out.push_str(" moves");
        for mv in moves {
            out.push(' ');
            mv.push_usi(&mut out);
        }
    }
    out
}

/// The SFEN after the last mainline move.
pub fn final_sfen(record: &Record) -> String {
    record.final_position().sfen()
}

/// The position after the first `plies` mainline moves (`--ply N` asks for
/// the position before move N+1), or `None` if the mainline is shorter.
pub fn sfen_after(record: &Record, plies: usize) -> Option<String> {
    let mut pos = record.start.clone();
    let mut moves = record.tree.mainline_moves();
    for _ in 0..plies {
        pos.play_unchecked(moves.next()?);
    }
    Some(pos.sfen())
}

/// Every position of the mainline, the start first: one SFEN per position,
/// the form training-data pipelines read.
pub fn all_plies(record: &Record) -> Vec<String> {
    let mut pos = record.start.clone();
    let mut out = Vec::with_capacity(record.tree.len());
    out.push(pos.sfen());
    for mv in record.tree.mainline_moves() {
        pos.play_unchecked(mv);
        out.push(pos.sfen());
    }
    out
}
