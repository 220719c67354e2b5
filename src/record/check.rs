//! Replaying a record on a board: checking it before it is written (the
//! writers replay the moves, so a record built by hand, not by a reader,
//! which checks as it builds, is checked first, and a move against the
//! rules is an error rather than a panic in a writer), and the positions
//! along its mainline. The start needs no check here: it is a
//! [`Position`], checked when it was made.

use super::{NodeId, Record};
use crate::{IllegalMove, Move, Position};
use std::fmt;

/// Why a record cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// A move in the tree is against the rules where it stands.
    IllegalMove {
        /// The move's ply (1 for the first move of the record).
        ply: u32,
        /// The move.
        mv: Move,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::IllegalMove { ply, mv, reason } => {
                write!(f, "move {ply} ({mv}) is against the rules: {reason}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// Checks that every move of every line is legal where it stands (the
    /// start is a [`Position`], legal by construction). Every record a
    /// reader returns passes; [`crate::write()`] checks each record before
    /// writing it.
    ///
    /// ```
    /// use kifconv::record::Record;
    /// use kifconv::{Move, Position};
    ///
    /// let mut record = Record::new(Position::startpos());
    /// let root = kifconv::record::NodeId::ROOT;
    /// record.tree.push(root, Move::from_usi("7g7f").unwrap());
    /// assert!(record.check().is_ok());
    /// record.tree.push(root, Move::from_usi("7g7e").unwrap());
    /// assert!(record.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), RecordError> {
        let start = self.start.clone();
        // Depth first; a position is cloned only where a line branches.
        let mut pending: Vec<(NodeId, Position)> = vec![(NodeId::ROOT, start)];
        while let Some((id, pos)) = pending.pop() {
            let mut pos = Some(pos);
            let mut children = self.tree.children(id).peekable();
            while let Some(child) = children.next() {
                let node = self.tree.node(child);
                let Some(mv) = node.mv else { continue };
                // The last child takes the position itself.
                let mut next = match children.peek() {
                    Some(_) => pos.clone(),
                    None => pos.take(),
                }
                .expect("taken only by the last child");
                next.play(mv).map_err(|reason| RecordError::IllegalMove {
                    ply: node.ply,
                    mv,
                    reason,
                })?;
                pending.push((child, next));
            }
        }
        Ok(())
    }

    /// The positions along the mainline: the start, then the position
    /// after each move (one more than the moves). An error where a move
    /// breaks the rules, as [`Record::check`] says.
    ///
    /// ```
    /// let records = kifconv::read_bytes(b"position startpos moves 7g7f 3c3d").unwrap();
    /// let positions = records[0].positions().unwrap();
    /// assert_eq!(positions.len(), 3);
    /// assert_eq!(positions[2].sfen(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    /// ```
    pub fn positions(&self) -> Result<Vec<Position>, RecordError> {
        let mut positions = vec![self.start.clone()];
        for id in self.tree.mainline() {
            let node = self.tree.node(id);
            let Some(mv) = node.mv else { continue };
            let mut next = positions.last().expect("the start at least").clone();
            next.play(mv).map_err(|reason| RecordError::IllegalMove {
                ply: node.ply,
                mv,
                reason,
            })?;
            positions.push(next);
        }
        Ok(positions)
    }
}
