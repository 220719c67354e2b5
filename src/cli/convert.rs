//! One input through the library: read its games, transform them (flip,
//! mainline only), render them in the target format, encode the text.

use super::args::{Config, Destination};
use crate::format::lost;
use crate::read::{read_bytes, read_training, Read};
use crate::record::Record;
use crate::training::{Data, Game};
use crate::write::{self, Options, Positions, WriteError};
use std::path::Path;

/// What converting one input gave: outputs (one per file to write: several
/// when a multi-game input goes to a one-game format), the rendered
/// warnings, and the errors of the games that failed.
#[derive(Debug, Default)]
pub struct Converted {
    pub outputs: Vec<Vec<u8>>,
    pub games: usize,
    pub moves: usize,
    pub warnings: Vec<String>,
    pub errors: Vec<String>,
    /// With a training-data target: the games, for the batch to select
    /// from in input order and encode (no `outputs` then).
    pub training: Vec<Game>,
    /// For `book build`: the games counted here, for the batch to add in
    /// input order.
    pub book: Vec<super::book::BookGame>,
}

/// The kind of training data an input is read as: the one `--from`
/// names, else the one its file name says, unless `--from` names a record
/// format.
pub fn training_input(config: &Config, path: &Path) -> Option<Data> {
    if config.from.is_some() {
        return None;
    }
    config.from_data.or_else(|| Data::from_extension(path))
}

/// Converts one input's bytes. `Err` is a failure of the whole input (it
/// could not be read at all); failed games of a multi-game input are in
/// `errors` beside the games that converted.
pub fn convert(
    bytes: &[u8],
    name: &str,
    path: &Path,
    config: &Config,
) -> Result<Converted, String> {
    let data = training_input(config, path);
    let read = match data {
        Some(data) => read_training(bytes, data),
        None => {
            read_bytes(bytes, path, config.from, config.encoding).map_err(|e| e.render(name))?
        }
    };
    convert_read(read, name, config, data.is_some(), 0)
}

/// Converts what was read from one input (or, for training data read a
/// chunk at a time, from a run of its entries). `training` says the
/// records are training entries: `--to sfen` then writes each one's
/// stored position (its start), not the position after its move, unless
/// `--ply` or `--all-plies` says otherwise. `first` is how many games of
/// the input came before these (for the numbers in messages).
pub fn convert_read(
    read: Read,
    name: &str,
    config: &Config,
    training: bool,
    first: usize,
) -> Result<Converted, String> {
    let mut out = Converted {
        errors: read.errors.iter().map(|e| e.render(name)).collect(),
        ..Converted::default()
    };
    let mut records = read.records;
    for record in &records {
        for w in &record.warnings {
            out.warnings.push(w.render(name));
        }
    }
    // The records stay where the reader put them unless they are changed
    // (each move of a record copied some 200 bytes).
    if config.mainline_only || config.flip {
        records = records
            .into_iter()
            .map(|r| transformed(r, config))
            .collect();
    }
    for record in &records {
        out.games += 1;
        out.moves += mainline_length(&record.tree);
    }
    if records.is_empty() {
        return Ok(out);
    }
    if let Some(job) = &config.book {
        // Replayed, filtered and counted here, on the worker: what the
        // batch holds in its window is the counts, not the records.
        for (i, record) in records.iter().enumerate() {
            match super::book::BookGame::of(record, job) {
                Ok(game) => out.book.push(game),
                Err(e) => out
                    .errors
                    .push(format!("{name}: error: game {}: {e}\n", first + i + 1)),
            }
        }
        return Ok(out);
    }
    if let Some(w) = lost::warning(&records, config.target, config.mainline_only) {
        out.warnings.push(format!("{name}: warning: {w}"));
    }
    if config.training.is_some() {
        // The replay, evaluations and ratings of each game, here on the
        // worker; what is kept is chosen in input order by the batch.
        for (i, record) in records.iter().enumerate() {
            match Game::of(record) {
                Ok(game) => {
                    for w in &game.warnings {
                        out.warnings
                            .push(format!("{name}: warning: game {}: {w}", first + i + 1));
                    }
                    out.training.push(game)
                }
                Err(e) => out
                    .errors
                    .push(format!("{name}: error: game {}: {e}\n", first + i + 1)),
            }
        }
        return Ok(out);
    }
    let positions = match config.positions {
        Positions::Last if training => Positions::AfterPlies(0),
        positions => positions,
    };
    let options = Options {
        encoding: Some(config.out_encoding),
        positions,
        csa_version: config.csa_version,
    };
    let written = match config.destination {
        // Inputs follow one another on standard output: the stream layout.
        // The records come straight from the reader, checked as they were
        // built, so they are not checked again.
        Destination::Stdout => {
            write::write_read(&records, config.target, &options).map(|b| vec![b])
        }
        Destination::Directory(_) => write::write_files_read(&records, config.target, &options),
    };
    out.outputs = written.map_err(|e| match e {
        WriteError::PlyPastEnd { ply, moves } => {
            format!("{name}: error: --ply {ply}: the mainline has only {moves} moves\n")
        }
        WriteError::Unencodable { .. } => {
            format!("{name}: error: {e}; use --out-encoding utf-8 or --to kifu/ki2u")
        }
        e => format!("{name}: error: {e}\n"),
    })?;
    Ok(out)
}

/// `record` changed as asked: its mainline only, flipped.
fn transformed(record: Record, config: &Config) -> Record {
    let record = if config.mainline_only {
        record.mainline_only()
    } else {
        record
    };
    if config.flip {
        record.flip()
    } else {
        record
    }
}

/// How many moves the mainline of `tree` has. A tree without variations,
/// as most are, is a chain: its newest node is the mainline's last, and
/// its ply says how many moves lead to it, with no walk down the chain
/// (a walk cost 17 instructions a move). A node `ply` moves deep whose
/// ply is the number of moves in the tree has every move on its way from
/// the root, so there is no other line.
fn mainline_length(tree: &crate::record::MoveTree) -> usize {
    let moves = tree.len().saturating_sub(1);
    match tree.ids().next_back() {
        Some(newest) if tree.node(newest).ply as usize == moves => moves,
        _ => tree.mainline().count(),
    }
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
