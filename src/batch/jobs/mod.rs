//! The jobs the command and Python run through the batch runner, one a
//! file, and how they read an input (here: one rule for all of them).

pub mod analyze;
pub mod book;
pub mod book_file;
pub mod convert;
pub mod train_file;
pub mod training;
pub mod tsume;
pub mod tsume_extract;
pub mod tsume_mates;

use super::job::{Emit, Source, Tally};
use super::outcome::Problem;
use crate::decode::EncodingChoice;
use crate::read::{read_bytes, read_training, read_training_from, training_error, Read};
use crate::record::{MoveTree, Record};
use crate::training::recode::{self, Output};
use crate::training::Data;
use crate::Format;

/// How a job reads its inputs: the format and encoding (told from each
/// input when not given) and what is done to each game read.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// Every input read as this record format.
    pub from: Option<Format>,
    /// Every input read as this training data.
    pub from_data: Option<Data>,
    /// The input encoding (told from the bytes unless forced).
    pub encoding: EncodingChoice,
    /// Keep each game's mainline only.
    pub mainline_only: bool,
    /// Rotate each game 180°.
    pub flip: bool,
}

impl Default for Reading {
    fn default() -> Reading {
        Reading {
            from: None,
            from_data: None,
            encoding: EncodingChoice::Auto,
            mainline_only: false,
            flip: false,
        }
    }
}

/// The games of an input (or of a chunk of one), changed as the reading
/// asks, with their count and messages.
pub struct Games {
    /// The games read.
    pub records: Vec<Record>,
    /// Their count, moves and messages.
    pub tally: Tally,
    /// Whether they are training entries (each holds a stored position).
    pub training: bool,
}

/// How many entries (hcpe3: games) of a training file are read at a time
/// when it is read a chunk at a time.
const STREAM_RUN: usize = 1024;

impl Reading {
    /// The kind of training data an input is read as: the one given, else
    /// the one its name says, unless a record format is given.
    pub fn training_data(&self, source: Source<'_>) -> Option<Data> {
        if self.from.is_some() {
            return None;
        }
        self.from_data
            .or_else(|| Data::from_extension(source.relative))
    }

    /// Reads one input's bytes.
    pub fn read(&self, source: Source<'_>, bytes: &[u8]) -> Games {
        let data = self.training_data(source);
        let read = match data {
            Some(data) => read_training(bytes, data),
            None => match read_bytes(bytes, source.relative, self.from, self.encoding) {
                Ok(read) => read,
                Err(e) => {
                    return Games {
                        records: Vec::new(),
                        tally: Tally::failed(Problem::read(source.name, e)),
                        training: false,
                    }
                }
            },
        };
        self.games(read, source.name, data.is_some())
    }

    /// What was read, changed as asked and counted.
    pub fn games(&self, read: Read, name: &str, training: bool) -> Games {
        let mut tally = Tally {
            errors: read
                .errors
                .into_iter()
                .map(|e| Problem::read(name, e))
                .collect(),
            ..Tally::default()
        };
        let mut records = read.records;
        for record in &records {
            for w in &record.warnings {
                tally.warnings.push(w.render(name));
            }
        }
        // The records stay where the reader put them unless they are
        // changed (each move of a record copied some 200 bytes).
        if self.mainline_only || self.flip {
            records = records.into_iter().map(|r| self.changed(r)).collect();
        }
        for record in &records {
            tally.games += 1;
            tally.moves += mainline_length(&record.tree);
        }
        Games {
            records,
            tally,
            training,
        }
    }

    /// Reads a training file a chunk of entries at a time, handing each
    /// chunk's games to `each` with the number of games before them, until
    /// the file ends or `each` says stop. A warning about the input as a
    /// whole comes with every chunk: it is kept once. Gives the input's
    /// tally (outputs excluded: `each` sends them on).
    pub fn stream(
        &self,
        source: Source<'_>,
        reader: &mut dyn std::io::Read,
        emit: &mut Emit<'_>,
        mut each: impl FnMut(Games, usize, &mut Emit<'_>) -> (Tally, bool),
    ) -> Tally {
        let data = self
            .training_data(source)
            .expect("only training files are streamed");
        let mut entries = data.records(reader);
        let mut total = Tally::default();
        let mut said = std::collections::HashSet::new();
        loop {
            let read = read_training_from(entries.by_ref().take(STREAM_RUN));
            if read.records.is_empty() && read.errors.is_empty() {
                break;
            }
            let games = self.games(read, source.name, true);
            let (mut tally, go_on) = each(games, total.games, emit);
            tally.warnings.retain(|w| said.insert(w.clone()));
            total.games += tally.games;
            total.moves += tally.moves;
            total.warnings.append(&mut tally.warnings);
            total.errors.append(&mut tally.errors);
            if !go_on {
                break;
            }
        }
        total
    }

    /// Whether an input is rewritten entry by entry ([`Reading::recode`]):
    /// HCPE and PackedSfenValue, unless games are flipped.
    pub fn recodes(&self, source: Source<'_>) -> bool {
        !self.flip && self.training_data(source).is_some_and(recode::by_entry)
    }

    /// [`Reading::stream`] for a job that writes every entry of an input
    /// [`Reading::recodes`] as `output`, with no record made: each entry is
    /// rewritten straight ([`recode`]), and the bytes of each run of
    /// entries go to `emit`. The bytes and the tally are those of the
    /// entries read as records and written. Also gives how many entries
    /// were written.
    pub fn recode(
        &self,
        source: Source<'_>,
        reader: &mut dyn std::io::Read,
        emit: &mut Emit<'_>,
        output: Output,
    ) -> (Tally, usize) {
        let data = self
            .training_data(source)
            .expect("only training files are rewritten");
        let mut entries = data.records(reader);
        let mut total = Tally::default();
        let mut written = 0;
        let mut out = Vec::new();
        let mut sequel = recode::Sequel::default();
        loop {
            out.clear();
            let mut ended = true;
            for _ in 0..STREAM_RUN {
                let Some(result) = entries
                    .next_with(|block| recode::entry(block, data, output, &mut out, &mut sequel))
                else {
                    break;
                };
                ended = false;
                match result {
                    Ok(wrote) => {
                        // A record read counts, whether it is written.
                        total.games += 1;
                        total.moves += 1;
                        match wrote {
                            Ok(()) => written += 1,
                            Err(e) => total.errors.push(Problem::said(
                                source.name,
                                format!("game {}: {e}", total.games),
                            )),
                        }
                    }
                    Err(e) => total
                        .errors
                        .push(Problem::read(source.name, training_error(&e))),
                }
            }
            if ended || !emit(&out) {
                break;
            }
        }
        (total, written)
    }

    /// `record` changed as asked: its mainline only, flipped.
    fn changed(&self, record: Record) -> Record {
        // A tree of one line is its own mainline: kept, not copied.
        let record = if self.mainline_only && !is_chain(&record.tree) {
            record.mainline_only()
        } else {
            record
        };
        if self.flip {
            record.flip()
        } else {
            record
        }
    }
}

/// How many moves the mainline of `tree` has. A tree without variations,
/// as most are, is a chain: its newest node is the mainline's last, and
/// its ply says how many moves lead to it, with no walk down the chain. A
/// node `ply` moves deep whose ply is the number of moves in the tree has
/// every move on its way from the root, so there is no other line.
fn mainline_length(tree: &MoveTree) -> usize {
    if is_chain(tree) {
        tree.len().saturating_sub(1)
    } else {
        tree.mainline().count()
    }
}

/// Whether `tree` is one line, by its newest node (see
/// [`mainline_length`]).
fn is_chain(tree: &MoveTree) -> bool {
    let moves = tree.len().saturating_sub(1);
    tree.ids()
        .next_back()
        .is_none_or(|newest| tree.node(newest).ply as usize == moves)
}

#[cfg(test)]
mod tests {
    use super::mainline_length;
    use crate::record::{MoveTree, NodeId};
    use crate::Move;

    #[test]
    fn the_mainline_length_is_the_walked_one() {
        let m = |usi| Move::from_usi(usi).unwrap();
        let mut tree = MoveTree::new();
        assert_eq!(mainline_length(&tree), 0);
        let first = tree.push(NodeId::ROOT, m("7g7f"));
        let second = tree.push(first, m("3c3d"));
        assert_eq!(mainline_length(&tree), 2);
        // A variation added last, shorter or as long as the mainline.
        tree.push(first, m("8c8d"));
        assert_eq!(mainline_length(&tree), 2);
        tree.push(second, m("2g2f"));
        assert_eq!(mainline_length(&tree), tree.mainline().count());
        let side = tree.push(NodeId::ROOT, m("2g2f"));
        tree.push(side, m("8c8d"));
        assert_eq!(mainline_length(&tree), tree.mainline().count());
    }
}
