//! USI position lines and SFEN.

use crate::record::Record;

/// `position startpos moves …` when the game starts from the standard
/// position, else `position sfen <sfen> moves …`; no `moves` part when
/// there are none.
pub fn position_line(record: &Record) -> String {
    let mut out = Vec::new();
    push_position_line(record, &mut out);
    // Every byte of the line is ASCII (an SFEN and USI moves): nothing is
    // ever replaced.
    String::from_utf8_lossy(&out).into_owned()
}

/// Appends [`position_line`] to `out` as ASCII bytes, without its line
/// end: the form the USI stream is written in, with no text in between.
pub fn push_position_line(record: &Record, out: &mut Vec<u8>) {
    out.reserve(64 + 6 * record.tree.len());
    if record.start == *crate::Handicap::Even.setup_ref() {
        out.extend_from_slice(b"position startpos");
    } else {
        out.extend_from_slice(b"position sfen ");
        out.extend_from_slice(record.start.sfen().as_bytes());
    }
    let mut moves = record.tree.mainline_moves().peekable();
    if moves.peek().is_some() {
        out.extend_from_slice(b" moves");
        for mv in moves {
            mv.push_usi_ascii(out);
        }
    }
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
