//! `train split`: a training file cut into parts, in order, by a number
//! of positions a part or a number of parts. A position is an HCPE or
//! PackedSfenValue entry, or a move of an hcpe3 game; hcpe3 games are
//! never cut, so a part of hcpe3 ends with the game that reaches its
//! share. `--parts N` makes N parts as even as the records allow (a part
//! may be empty when there are fewer records than parts).

use super::shuffle::fixed_size;
use super::{for_each_block, Faults};
use crate::training::Data;
use std::io;
use std::path::Path;

/// How to cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// This many positions a part (at least 1), the last one the rest.
    Positions(u64),
    /// This many parts (at least 1).
    Parts(u64),
}

/// The cut of a file: how many parts, and the positions that close each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    data: Data,
    how: How,
    /// How many positions the file holds (whole records only).
    pub positions: u64,
    /// How many parts will be written.
    pub parts: u64,
}

/// The positions an hcpe3 game block holds: its move count.
fn positions_of(block: &[u8], data: Data) -> u64 {
    match data {
        Data::Hcpe3 => u64::from(u16::from_le_bytes([block[32], block[33]])),
        _ => 1,
    }
}

/// The plan for `path`: from its size for HCPE and PackedSfenValue, from
/// a first pass over its game headers for hcpe3 (faults are said by the
/// pass that writes).
pub fn plan(path: &Path, data: Data, how: How) -> Result<Plan, String> {
    let (positions, parts) = match fixed_size(data) {
        Some(size) => {
            let len = std::fs::metadata(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .len();
            let positions = len / size as u64;
            let parts = match how {
                How::Parts(n) => n,
                How::Positions(n) => positions.div_ceil(n),
            };
            (positions, parts)
        }
        None => {
            // The cut by positions needs no total: the parts are counted
            // in the same pass.
            let (mut positions, mut parts) = (0, 0);
            let mut cut = Cutter::new(how, 0);
            for_each_block(&[path.to_path_buf()], data, &mut |_| {}, |block| {
                let n = positions_of(block, data);
                positions += n;
                parts = parts.max(cut.part_of(n) + 1);
                Ok(())
            })?;
            match how {
                How::Parts(n) => (positions, n),
                How::Positions(_) => (positions, parts),
            }
        }
    };
    let parts = parts.max(1);
    Ok(Plan {
        data,
        how,
        positions,
        parts,
    })
}

/// Which part each record goes to, as the records come.
struct Cutter {
    how: How,
    total: u64,
    /// Positions already given to parts.
    done: u64,
    part: u64,
}

impl Cutter {
    fn new(how: How, total: u64) -> Cutter {
        Cutter {
            how,
            total,
            done: 0,
            part: 0,
        }
    }

    /// The part of the next record, of `positions` positions.
    fn part_of(&mut self, positions: u64) -> u64 {
        // A part is full when the positions before it reach its end.
        let end = |part: u64| match self.how {
            How::Positions(n) => n * (part + 1),
            How::Parts(n) => (self.total as u128 * (part as u128 + 1) / n as u128) as u64,
        };
        let last = match self.how {
            How::Parts(n) => n - 1,
            How::Positions(_) => u64::MAX,
        };
        while self.part < last && self.done >= end(self.part) {
            self.part += 1;
        }
        self.done += positions;
        self.part
    }
}

/// Cuts `path` as `plan` says: each record's bytes go to `emit` with its
/// part's number (0 first), in order; a part with no record gets none
/// (the caller still writes it, empty). Faults go to `faults`. Gives how many records were written.
pub fn split(
    path: &Path,
    plan: &Plan,
    faults: Faults<'_>,
    emit: &mut dyn FnMut(u64, &[u8]) -> io::Result<()>,
) -> Result<u64, String> {
    let mut cut = Cutter::new(plan.how, plan.positions);
    let mut records = 0;
    for_each_block(&[path.to_path_buf()], plan.data, faults, |block| {
        records += 1;
        emit(cut.part_of(positions_of(block, plan.data)), block)
    })?;
    Ok(records)
}

/// The name of part `index` of `parts`: `PREFIX-N.EXT`, N counted from 0
/// and padded to the width of the last.
pub fn part_name(prefix: &str, index: u64, parts: u64, data: Data) -> String {
    let width = (parts.saturating_sub(1)).to_string().len();
    let ext = match data {
        Data::Hcpe => "hcpe",
        Data::Hcpe3 => "hcpe3",
        Data::Psv => "psv",
    };
    format!("{prefix}-{index:0width$}.{ext}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(how: How, sizes: &[u64]) -> Vec<u64> {
        let total = sizes.iter().sum();
        let mut cut = Cutter::new(how, total);
        sizes.iter().map(|&s| cut.part_of(s)).collect()
    }

    #[test]
    fn entries_by_count_and_by_parts() {
        assert_eq!(parts(How::Positions(2), &[1; 5]), [0, 0, 1, 1, 2]);
        assert_eq!(parts(How::Parts(2), &[1; 5]), [0, 0, 1, 1, 1]);
        assert_eq!(parts(How::Parts(3), &[1; 6]), [0, 0, 1, 1, 2, 2]);
        // More parts than records: the records spread, the rest empty.
        assert_eq!(parts(How::Parts(4), &[1; 2]), [1, 3]);
    }

    #[test]
    fn games_are_never_cut() {
        // Games of 3, 3, 3 and 1 moves, 4 positions a part: a part closes
        // once its games reach 4.
        assert_eq!(parts(How::Positions(4), &[3, 3, 3, 1]), [0, 0, 1, 2]);
        assert_eq!(parts(How::Parts(2), &[3, 3, 3, 1]), [0, 0, 1, 1]);
    }

    #[test]
    fn names_are_padded_to_the_last() {
        assert_eq!(part_name("out/p", 3, 12, Data::Psv), "out/p-03.psv");
        assert_eq!(part_name("p", 0, 1, Data::Hcpe3), "p-0.hcpe3");
    }
}
