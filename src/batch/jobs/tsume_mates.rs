//! The mates games end in, gathered for `tsume generate --from`: each game
//! of each input that ends with the side to move checkmated gives its mate
//! in one ([`crate::tsume::final_mate`]), in input order, a repeat of an
//! earlier one left out.

use super::tsume::readable;
use crate::batch::job::{Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::plan::Plan;
use crate::decode::EncodingChoice;
use crate::read::read_bytes;
use crate::tsume;
use crate::Position;
use std::collections::HashSet;

/// Gathers the mates of every game of every input.
#[derive(Clone, Copy, Debug, Default)]
pub struct TsumeMates;

/// A game's mate and where it comes from.
#[derive(Clone, Debug)]
pub struct GameMate {
    /// The input, as messages name it.
    pub path: String,
    /// The game's number in the input (from 1).
    pub game: usize,
    /// The mate in one, Black to move.
    pub mate: Position,
}

/// The mates gathered so far, and the positions seen (to leave repeats
/// out).
#[derive(Debug, Default)]
pub struct Mates {
    /// The mates, in input order.
    pub mates: Vec<GameMate>,
    /// Games read.
    pub games: usize,
    seen: HashSet<u64>,
}

impl Job for TsumeMates {
    type Part = Vec<(usize, Position)>;
    type State = Mates;
    type Finished = Mates;

    fn extension(&self) -> &str {
        "txt"
    }

    fn start(&self, _plan: &Plan) -> Result<Mates, String> {
        Ok(Mates::default())
    }

    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Self::Part, Tally) {
        let read = match read_bytes(bytes, source.relative, None, EncodingChoice::Auto) {
            Ok(read) => read,
            Err(e) => return (Vec::new(), Tally::failed(Problem::read(source.name, e))),
        };
        let mut tally = Tally::default();
        let mates = readable(&read, source.name, &mut tally)
            .into_iter()
            .filter_map(|(game, record)| Some((game, tsume::final_mate(record)?)))
            .collect();
        (mates, tally)
    }

    fn take(
        &self,
        all: &mut Mates,
        source: Source<'_>,
        part: Self::Part,
        tally: &mut Tally,
    ) -> Result<(), String> {
        all.games += tally.games;
        for (game, mate) in part {
            if all.seen.insert(mate.key()) {
                all.mates.push(GameMate {
                    path: source.name.to_string(),
                    game,
                    mate,
                });
            }
        }
        Ok(())
    }

    fn finish(&self, mates: Mates) -> Result<Mates, String> {
        Ok(mates)
    }
}
