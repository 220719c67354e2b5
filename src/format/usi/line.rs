//! One USI position line as a record: the start, each move checked on the
//! board, and a final illegal move kept as a foul or refused.

use crate::error::{Error, Stage};
use crate::format::usi::read::parse_line;
use crate::record::builder::line_record;
use crate::record::raw::Span;
use crate::record::{Ending, EndingKind, Foul, MoveTree, NodeId, Record};
use crate::Position;

/// What a USI line's last move is when the rules forbid it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastIllegal {
    /// A foul that ends the game, with a warning: a record keeps it, as
    /// the other formats do.
    Foul,
    /// An error, like any other illegal move: a position given to a tool
    /// must be one that can be reached.
    Error,
}

/// Builds a record from one USI position line (`position startpos moves …`,
/// `position sfen … moves …`, or a bare SFEN), line `n` of the input. A
/// final illegal move is what `last` says.
pub fn build(n: u32, line: &str, last_illegal: LastIllegal) -> Result<Record, Error> {
    // An error about the whole line.
    let whole = |stage, message: String| Error::at(stage, n, line, 0, line.trim(), message);
    let parsed = parse_line(line).map_err(|e| whole(Stage::Parse, e.to_string()))?;
    let (start, problems) = Position::from_setup_lenient(parsed.start).map_err(|e| {
        whole(
            Stage::Resolve,
            format!("the start position cannot be played: {e}"),
        )
    })?;
    let mut record = line_record(start.clone(), problems, n);
    let mut tree = MoveTree::with_capacity(parsed.moves.len());
    let mut pos = start;
    let mut current = NodeId::ROOT;
    let last = parsed.moves.len();
    for (i, text) in parsed.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        let span = Span::of(n, line, text);
        let mv = match crate::Move::from_usi(text) {
            Ok(mv) => mv,
            Err(e) => return Err(span.error(Stage::Parse, e.to_string()).with_ply(ply)),
        };
        match pos.check_legal(mv) {
            Ok(()) => {
                current = tree.push(current, mv);
                pos.play_unchecked(mv);
            }
            Err(reason) if i + 1 == last && last_illegal == LastIllegal::Foul => {
                let by = pos.side_to_move();
                record.warnings.push(span.warning(format!(
                    "move {ply} is illegal ({reason}); the game is recorded as lost by {by}'s foul"
                )));
                tree.node_mut(current).set_ending(Ending {
                    kind: EndingKind::IllegalMove,
                    winner: Some(!by),
                    text: text.to_string(),
                    time: None,
                    comments: Vec::new(),
                    foul: Some(Foul {
                        by,
                        text: text.to_string(),
                        reason: reason.to_string(),
                        mv: Some(mv),
                    }),
                });
            }
            Err(reason) => {
                let message = format!("illegal move {mv}: {reason}");
                return Err(span.error(Stage::Resolve, message).with_ply(ply));
            }
        }
    }
    record.tree = tree;
    Ok(record)
}
