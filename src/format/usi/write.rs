//! USI position lines and SFEN.

use crate::position::SfenBoard;
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
    if record.start.is_startpos() {
        out.extend_from_slice(b"position startpos");
    } else {
        out.extend_from_slice(b"position sfen ");
        out.extend_from_slice(record.start.sfen().as_bytes());
    }
    match record.tree.line_nodes() {
        // No variation: the mainline is the tree's nodes in order, walked
        // as a slice.
        Some(nodes) => push_moves(nodes.iter().map(|n| n.mv.as_ref()), nodes.len(), out),
        None => {
            let tree = &record.tree;
            let count = tree.mainline().count();
            push_moves(
                tree.mainline().map(|id| tree.node(id).mv.as_ref()),
                count,
                out,
            );
        }
    }
}

/// Appends ` moves` and each of `moves` (`count` of them, `None`
/// skipped) in USI, or nothing when there are none: each move stores its
/// eight-byte word in room made once and advances by its length; the room
/// left over is cut off. The moves are read where they are stored
/// ([`Move::usi_ascii_word`](crate::Move::usi_ascii_word) says why).
fn push_moves<'m>(
    moves: impl Iterator<Item = Option<&'m crate::Move>>,
    count: usize,
    out: &mut Vec<u8>,
) {
    if count == 0 {
        return;
    }
    out.extend_from_slice(b" moves");
    let start = out.len();
    out.resize(start + 6 * count + 2, 0);
    let room = &mut out[start..];
    let mut at = 0;
    for mv in moves {
        let Some(mv) = mv else { continue };
        let (word, len) = mv.usi_ascii_word();
        if let Some(slot) = room.get_mut(at..at + 8) {
            slot.copy_from_slice(&word.to_le_bytes());
        }
        at += len;
    }
    out.truncate(start + at);
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

/// Every position of the mainline, the start first, appended to `out`: one
/// SFEN line per position, the form training-data pipelines read, then an
/// empty line that ends the game, so that games stay apart when outputs
/// are joined (the readers skip empty lines).
pub fn push_all_plies(record: &Record, out: &mut Vec<u8>) {
    let mut pos = record.start.clone();
    // The board's SFEN is kept rank by rank: a move rewrites its ranks.
    let mut board = SfenBoard::of(pos.board());
    pos.push_sfen_with(&board, out);
    out.push(b'\n');
    for mv in record.tree.mainline_moves() {
        pos.play_unchecked(mv);
        board.played(pos.board(), mv);
        pos.push_sfen_with(&board, out);
        out.push(b'\n');
    }
    out.push(b'\n');
}
