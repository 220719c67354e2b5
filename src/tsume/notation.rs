//! A line of moves in JSA notation (the KI2 writer's rules: 同 for a
//! recapture, and exactly the relative markers the rules require), as the
//! solver, the check and the generator print answers.

use crate::format::japanese::write::write_spec;
use crate::resolve::spec::MoveSpec;
use crate::{Move, Position};

/// Each move of `line`, played from `start`, in JSA notation with its side
/// mark (`▲５二金打`, `△同　玉`). Stops at the first move that is not legal
/// in its position.
pub fn jsa_moves(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    let mut previous = None;
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if !pos.is_legal(mv) {
            break;
        }
        let mut text = String::new();
        text.push(pos.side_to_move().triangle());
        write_spec(&mut text, &MoveSpec::from_move(&pos, mv, previous));
        out.push(text);
        pos.play_unchecked(mv);
        previous = Some(mv.to());
    }
    out
}
