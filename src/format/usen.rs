//! USEN (URL-safe SFEN-extended notation), the compact record form
//! ShogiHome and tsshogi put in URLs: one line, sections split by `~`.
//!
//! ```text
//! ~0.7ku2jm.r
//! ```
//!
//! * The first section is the start: an SFEN without its move number, with
//!   `/` written `_`, spaces written `.` and `+` written `z`; empty for the
//!   standard start.
//! * Every other section is `N.MOVES.END` (`.END` may be left out): the
//!   moves of one line of play,
//!   starting after ply `N` of the line before it (`0` for the first
//!   section, the mainline; a later section is a variation branching from
//!   the previous section's line, which it shares up to ply `N`).
//! * `MOVES` is three base-36 digits (`0-9a-z`) a move: the number
//!   `(from × 81 + to) × 2 + promote`, where a square is
//!   `(rank − 1) × 9 + (file − 1)` and a drop's `from` is 81 plus 9 (gold),
//!   10 (pawn), 11 (lance), 12 (knight), 13 (silver), 14 (bishop) or 15
//!   (rook).
//! * `END` is empty, or `r` (resignation), `t` (loss on time), `j` (持将棋,
//!   and the other draws) or `p` (中断, and every other ending).
//!
//! Every move is checked on the board: an illegal move is an error at its
//! three digits. The definition is taken from tsshogi (MIT), whose
//! `Record.usen` writes and `Record.newByUSEN` reads it.

use crate::error::{Error, Stage};
use crate::format::lines;
use crate::record::raw::Span;
use crate::record::{Ending, EndingKind, MoveTree, NodeId, Record};
use crate::{Move, PieceKind, Position, Setup, Square};

/// The piece kinds a drop's `from` names, from 81 + 9 on.
const DROPS: [PieceKind; 7] = [
    PieceKind::Gold,
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// Whether a line looks like USEN: a start of SFEN characters, then a
/// section `~N.MOVES.END`.
pub fn looks_like(line: &str) -> bool {
    let line = line.trim();
    let Some((start, rest)) = line.split_once('~') else {
        return false;
    };
    let start_ok = start
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    let section = rest.split('~').next().unwrap_or("");
    let mut parts = section.split('.');
    let (Some(n), Some(moves), end, None) = (
        parts.next(),
        parts.next(),
        parts.next().unwrap_or(""),
        parts.next(),
    ) else {
        return false;
    };
    start_ok
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && moves.bytes().all(|b| b.is_ascii_alphanumeric())
        && end.len() <= 1
        && end.bytes().all(|b| b.is_ascii_lowercase())
}

/// A square from its USEN number, 0–80.
fn square(n: u32) -> Option<Square> {
    Square::new((n % 9 + 1) as u8, (n / 9 + 1) as u8)
}

/// The move three base-36 digits name, if they name one.
fn decode_move(digits: &str) -> Option<Move> {
    let m = u32::from_str_radix(digits, 36).ok()?;
    if digits.len() != 3
        || !digits
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    {
        return None;
    }
    let (from, to, promote) = (m / 162, (m % 162) / 2, m % 2 == 1);
    let to = square(to)?;
    if from < 81 {
        return Some(Move::Normal {
            from: square(from)?,
            to,
            promote,
        });
    }
    let kind = *DROPS.get(from.checked_sub(81 + 9)? as usize)?;
    (!promote).then_some(Move::Drop { kind, to })
}

/// Reads one USEN line (line `n` of its file) as a record.
pub fn read(n: u32, line: &str) -> Result<Record, Error> {
    let text = line.trim();
    let error = |at: &str, message: &str| lines::error(n, line, at, message);
    let mut sections = text.split('~');
    let start_text = sections.next().unwrap_or("");
    let setup = if start_text.is_empty() {
        Setup::startpos()
    } else {
        let sfen: String = start_text
            .chars()
            .map(|c| match c {
                '_' => '/',
                '.' => ' ',
                'z' => '+',
                c => c,
            })
            .collect();
        Setup::from_sfen(&format!("{sfen} 1")).map_err(|e| {
            error(
                start_text,
                &format!("the USEN start is not a position: {e}"),
            )
        })?
    };
    let (start, problems) = Position::from_setup_lenient(setup).map_err(|e| {
        error(
            start_text,
            &format!("the start position cannot be played: {e}"),
        )
    })?;
    let mut record = crate::record::builder::line_record(start.clone(), problems, n);
    let mut tree = MoveTree::new();
    // The line of play being read: its nodes and positions by ply.
    let mut nodes = vec![NodeId::ROOT];
    let mut positions = vec![start];
    for section in sections {
        // The ending's part may be left out with its dot (`0.7ku2jm`), as
        // tsshogi reads it: no ending.
        let mut parts = section.splitn(3, '.');
        let (Some(ply), Some(moves), end) =
            (parts.next(), parts.next(), parts.next().unwrap_or(""))
        else {
            return Err(error(
                section,
                "expected a USEN section `N.MOVES.END`, such as 0.7ku2jm.r",
            ));
        };
        let branch: usize = ply
            .parse()
            .ok()
            .filter(|&p| p < nodes.len())
            .ok_or_else(|| {
                error(
                    ply,
                    &format!(
                        "a line starting after ply {ply}, but the line before has only {} moves",
                        nodes.len() - 1
                    ),
                )
            })?;
        nodes.truncate(branch + 1);
        positions.truncate(branch + 1);
        if moves.len() % 3 != 0 || !moves.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(error(moves, "expected three base-36 digits a move"));
        }
        for i in (0..moves.len()).step_by(3) {
            let digits = &moves[i..i + 3];
            let ply = nodes.len() as u32;
            let mv = decode_move(digits).ok_or_else(|| {
                error(
                    digits,
                    "not a USEN move (three base-36 digits naming a move)",
                )
                .with_ply(ply)
            })?;
            let pos = positions.last().expect("the start at least");
            if let Err(reason) = pos.check_legal(mv) {
                let message = format!("illegal move {mv}: {reason}");
                let span = Span::of(n, line, digits);
                return Err(span.error(Stage::Resolve, message).with_ply(ply));
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let parent = *nodes.last().expect("the root at least");
            let existing = tree.children(parent).find(|&c| tree.node(c).mv == Some(mv));
            let id = existing.unwrap_or_else(|| tree.push(parent, mv));
            nodes.push(id);
            positions.push(next);
        }
        let kind = match end {
            "" => None,
            "r" => Some(EndingKind::Resign),
            "t" => Some(EndingKind::TimeUp),
            "j" => Some(EndingKind::Impasse),
            "p" => Some(EndingKind::Abort),
            _ => return Err(error(end, "expected an ending: nothing, r, t, j or p")),
        };
        if let Some(kind) = kind {
            let to_move = positions.last().expect("the start at least").side_to_move();
            let winner =
                matches!(kind, EndingKind::Resign | EndingKind::TimeUp).then_some(!to_move);
            let node = *nodes.last().expect("the root at least");
            if tree.node(node).ending().is_some() {
                record.warnings.push(
                    Span::of(n, line, end)
                        .warning("a second ending for the same line; kept the first"),
                );
                continue;
            }
            if tree.children(node).next().is_some() {
                record.warnings.push(Span::of(n, line, end).warning(format!(
                    "an ending as an alternative to move {} of a line that goes on; kept as the ending at ply {}, before that move",
                    tree.node(node).ply + 1,
                    tree.node(node).ply
                )));
            }
            tree.node_mut(node)
                .set_ending(Ending::new(kind, winner, end));
        }
    }
    if nodes.len() == 1 && tree.is_empty() && !text.contains('~') {
        return Err(error(
            text,
            "expected a USEN record: a start, then `~N.MOVES.END`",
        ));
    }
    record.tree = tree;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_decode_as_tsshogi_writes_them() {
        // 7g7f: from 60, to 51: (60 × 81 + 51) × 2 = 9822 = "7ku".
        assert_eq!(decode_move("7ku"), Move::from_usi("7g7f").ok());
        // 8h2b+: from 70, to 10: (70 × 81 + 10) × 2 + 1 = 11361 = "8rl".
        assert_eq!(decode_move("8rl"), Move::from_usi("8h2b+").ok());
        // B*4e: from 81 + 14 = 95, to 39: (95 × 81 + 39) × 2 = 15468 = "bxo".
        assert_eq!(decode_move("bxo"), Move::from_usi("B*4e").ok());
        assert_eq!(decode_move("zzz"), None);
        assert_eq!(decode_move("7KU"), None);
    }

    #[test]
    fn a_record_with_a_variation() {
        // 7g7f 3c3d resign, and a variation 2 … 8c8d from ply 1.
        let record = read(1, "~0.7ku2jm.r~1.36e.p").unwrap();
        let main: Vec<String> = record
            .tree
            .mainline_moves()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(main, ["7g7f", "3c3d"]);
        assert_eq!(record.ending().unwrap().kind, EndingKind::Resign);
        assert_eq!(
            record.tree.ids().count(),
            3,
            "three moves: 7g7f, 3c3d and 8c8d"
        );
        assert!(looks_like("~0.7ku2jm.r~1.36e.p"));
        assert!(!looks_like("position startpos"));
        // Other bytes are an error, never a panic.
        assert!(read(1, "~0.7ku.~1.あ.").is_err());
        assert!(read(1, "~0.7k.").is_err());
        let error = read(1, "~0.7ku7ku.").unwrap_err().location;
        assert_eq!((error.column, error.text.as_str()), (7, "7ku"));
    }
}
