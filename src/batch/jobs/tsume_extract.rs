//! Mining games for mate problems (`tsume extract`): each game of each
//! input mined on a worker ([`crate::tsume::mine`]), the problems taken in
//! input order, a repeat of an earlier problem left out, each written as a
//! tsume KIF naming the game it came from.

use super::tsume::readable;
use crate::batch::job::{Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::plan::Plan;
use crate::decode::EncodingChoice;
use crate::read::read_bytes;
use crate::record::NodeId;
use crate::tsume::{self, Mined, Mining};
use crate::Target;
use std::collections::HashSet;

/// Mines every game of every input.
#[derive(Clone, Copy, Debug)]
pub struct TsumeExtract {
    /// Which positions are tried, and the search limits.
    pub mining: Mining,
    /// The problems' format: KIF in Shift_JIS or UTF-8.
    pub target: Target,
}

/// The problems of one input, with the game each came from.
#[derive(Debug, Default)]
pub struct Part {
    problems: Vec<(usize, Mined)>,
    positions: usize,
    mates: usize,
    unsound: usize,
}

/// What a run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read (every game of every input, mined or not).
    pub games: usize,
    /// Positions tried.
    pub positions: usize,
    /// Positions with a forced mate, before pieces were removed.
    pub mates: usize,
    /// Of those, the ones that gave no sound problem.
    pub unsound: usize,
    /// Sound problems that repeat an earlier one of the run (left out).
    pub repeats: usize,
    /// Problems written.
    pub problems: usize,
    /// The problems' positions seen so far (to leave repeats out).
    seen: HashSet<String>,
}

impl Job for TsumeExtract {
    type Part = Part;
    type State = Counts;
    type Finished = Counts;

    fn extension(&self) -> &str {
        self.target.extension()
    }

    fn start(&self, _plan: &Plan) -> Result<Counts, String> {
        Ok(Counts::default())
    }

    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Part, Tally) {
        let mut part = Part::default();
        let read = match read_bytes(bytes, source.relative, None, EncodingChoice::Auto) {
            Ok(read) => read,
            Err(e) => return (part, Tally::failed(Problem::read(source.name, e))),
        };
        let mut tally = Tally::default();
        for (game, record) in readable(&read, source.name, &mut tally) {
            let found = tsume::mine(record, self.mining);
            part.positions += found.positions;
            part.mates += found.mates;
            part.unsound += found.unsound;
            part.problems
                .extend(found.problems.into_iter().map(|m| (game, m)));
        }
        (part, tally)
    }

    fn take(
        &self,
        counts: &mut Counts,
        source: Source<'_>,
        part: Part,
        tally: &mut Tally,
    ) -> Result<(), String> {
        counts.games += tally.games;
        counts.positions += part.positions;
        counts.mates += part.mates;
        counts.unsound += part.unsound;
        for (game, mined) in part.problems {
            if !counts.seen.insert(mined.start.sfen()) {
                counts.repeats += 1;
                continue;
            }
            match problem_kif(&mined, source.name, game, self.target) {
                Ok(bytes) => {
                    counts.problems += 1;
                    tally.outputs.push(bytes);
                }
                Err(e) => tally.errors.push(Problem::said(source.name, e)),
            }
        }
        Ok(())
    }

    fn finish(&self, counts: Counts) -> Result<Counts, String> {
        Ok(counts)
    }
}

/// A mined problem as a tsume KIF: [`tsume::problem_record`] with a
/// comment naming its source after the answer's.
pub fn problem_kif(
    mined: &Mined,
    name: &str,
    game: usize,
    target: Target,
) -> Result<Vec<u8>, String> {
    let mut record = tsume::problem_record(&mined.start, &mined.answer);
    let rotated = if mined.rotated {
        "（後手の攻めを先後反転）"
    } else {
        ""
    };
    record
        .tree
        .node_mut(NodeId::ROOT)
        .notes_mut()
        .comments
        .push(format!(
            "出典：{name} 第{game}局 {}手目までの局面{rotated}",
            mined.ply
        ));
    crate::write(&[record], target, &Default::default()).map_err(|e| e.to_string())
}
