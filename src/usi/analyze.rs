//! A record analysed by an engine: the position after each move searched,
//! and the move annotated with the value and the best line, in a comment
//! dialect kifconv reads back for evaluations (so training data and books
//! made from the record take the engine's values).

use super::engine::{Engine, Limit, Pv};
use super::error::EngineError;
use super::info::{Score, Value};
use crate::format::training::eval::{self, Dialect, Evaluation, Line};
use crate::record::{NodeId, Record};
use crate::{Color, Move};
use std::collections::HashSet;

/// What an analysis searches and how it writes its findings.
#[derive(Clone, Copy, Debug)]
pub struct Analysis {
    /// The bound of each search.
    pub limit: Limit,
    /// Whether the moves of variations are analysed too (else the
    /// mainline's only).
    pub variations: bool,
    /// The comment dialect written.
    pub dialect: Dialect,
}

/// What analysing one record did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Analysed {
    /// Positions searched.
    pub searched: usize,
    /// Positions where the side to move is mated: annotated without a
    /// search.
    pub mated: usize,
    /// Searches that gave no value (an engine that sent no score).
    pub without_value: usize,
}

impl Analysed {
    /// Adds what another analysis did.
    pub fn add(&mut self, other: Analysed) {
        self.searched += other.searched;
        self.mated += other.mated;
        self.without_value += other.without_value;
    }
}

/// Analyses `record` with `engine`: every move (of the mainline, or of
/// every line) gets the comments of the search of the position after it;
/// the comments an earlier analysis wrote in the same dialect are
/// replaced. The engine forgets what it searched before this record, so
/// the result does not depend on what it analysed earlier.
pub fn analyze(
    engine: &mut Engine,
    record: &mut Record,
    analysis: &Analysis,
) -> Result<Analysed, EngineError> {
    engine.forget()?;
    let lines: Vec<Vec<NodeId>> = if analysis.variations {
        record.tree.lines().collect()
    } else {
        vec![record.tree.mainline().collect()]
    };
    let mut done = HashSet::new();
    let mut analysed = Analysed::default();
    for line in lines {
        let mut position = record.start.clone();
        let mut moves: Vec<Move> = Vec::with_capacity(line.len());
        for id in line {
            let Some(mv) = record.tree.node(id).mv else {
                continue;
            };
            // The record's moves were checked as it was read.
            position.play_unchecked(mv);
            moves.push(mv);
            if !done.insert(id) {
                continue;
            }
            let found = if position.legal_moves().is_empty() {
                analysed.mated += 1;
                vec![Line {
                    evaluation: Evaluation::Mate {
                        winner: !position.side_to_move(),
                        plies: None,
                    },
                    pv: Vec::new(),
                    depth: None,
                }]
            } else {
                let search = engine.search(&record.start, &moves, &analysis.limit)?;
                analysed.searched += 1;
                let found = lines_of(&search.pvs, position.side_to_move());
                analysed.without_value += usize::from(found.is_empty());
                found
            };
            let comments = &mut record.tree.node_mut(id).notes_mut().comments;
            comments.retain(|c| !eval::is_analysis(analysis.dialect, c));
            comments.extend(eval::analysis_comments(
                analysis.dialect,
                &position,
                &found,
                engine.name(),
            ));
        }
    }
    Ok(analysed)
}

/// The PVs that carry a score, as lines of black's view.
fn lines_of(pvs: &[Pv], side: Color) -> Vec<Line> {
    pvs.iter()
        .filter_map(|pv| {
            Some(Line {
                evaluation: evaluation(pv.score?, side),
                pv: pv.moves.clone(),
                depth: pv.depth,
            })
        })
        .collect()
}

/// A score for `side`, the side to move, as black's view.
pub fn evaluation(score: Score, side: Color) -> Evaluation {
    match score.value {
        Value::Cp(cp) => Evaluation::Cp(if side == Color::Black { cp } else { -cp }),
        Value::Mate { plies, mating } => Evaluation::Mate {
            winner: if mating { side } else { !side },
            plies: plies.map(i32::unsigned_abs),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usi::info::Bound;

    #[test]
    fn scores_turn_to_black_s_view() {
        let score = |value| Score {
            value,
            bound: Bound::Exact,
        };
        assert_eq!(
            evaluation(score(Value::Cp(40)), Color::Black),
            Evaluation::Cp(40)
        );
        assert_eq!(
            evaluation(score(Value::Cp(40)), Color::White),
            Evaluation::Cp(-40)
        );
        let mate = |plies, mating| score(Value::Mate { plies, mating });
        assert_eq!(
            evaluation(mate(Some(-4), false), Color::White),
            Evaluation::Mate {
                winner: Color::Black,
                plies: Some(4)
            }
        );
        assert_eq!(
            evaluation(mate(None, true), Color::White),
            Evaluation::Mate {
                winner: Color::White,
                plies: None
            }
        );
    }
}
