//! `train uniq`: the records of training files with repeats left out,
//! the first kept, in input order. What counts as a repeat:
//!
//! * [`By::Record`]: the same bytes, the whole record (an hcpe3 game
//!   block whole).
//! * [`By::Position`]: the same position (board, hands, side to move),
//!   whatever the move, evaluation, result or move number stored with it;
//!   with flip folding, a position rotated 180° (colours, hands and side
//!   to move swapped) is the same too. Positions are compared unpacked,
//!   so two packings of one position (YaneuraOu's old hand order) are one.
//!   HCPE and PackedSfenValue only: an hcpe3 game is more than its start.
//!
//! A record is remembered by a 64-bit hash of its key: about 16 bytes of
//! memory for each distinct record kept, whatever the records' size. Two
//! distinct keys sharing a hash would drop the later as a repeat; among a
//! billion distinct records the odds that any pair does are about 3 in a
//! hundred.
//!
//! A record whose position does not unpack (with [`By::Position`]) is kept
//! and said as a fault: nothing is dropped that was not compared.

use super::{blocks_of, Fault, Faults};
use crate::training::packed::{unpack, Dialect, Packer};
use crate::training::read::{ReadError, ReadErrorKind, Unit};
use crate::training::Data;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What counts as a repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The same bytes.
    Record,
    /// The same position.
    Position,
}

/// What `uniq` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// Records read whole.
    pub read: u64,
    /// Records written.
    pub kept: u64,
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A 64-bit hash of `bytes`, the same in every run of one build.
fn hash(bytes: &[u8]) -> u64 {
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new_with_keys(0x6b69_6663_6f6e_7631, 0x7472_6169_6e20_7571);
    h.write(bytes);
    h.finish()
}

/// Whether `by` can compare records of `data`.
pub fn supported(data: Data, by: By) -> bool {
    !(by == By::Position && data == Data::Hcpe3)
}

/// Writes the records of `inputs` (each of the kind `data`) to `out`,
/// leaving out those that repeat one written before (see the module
/// documentation). Faults of the inputs go to `faults`.
pub fn uniq(
    inputs: &[PathBuf],
    data: Data,
    by: By,
    flip_fold: bool,
    out: &mut dyn Write,
    faults: Faults<'_>,
) -> Result<Kept, String> {
    let mut seen = Seen::new(data, by, flip_fold)?;
    for path in inputs {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        seen.take(file, path, out, faults)?;
    }
    Ok(seen.kept)
}

/// The records seen so far, and what was kept of them: `uniq` over
/// sources given one after another, files or bytes.
pub struct Seen {
    data: Data,
    by: By,
    flip_fold: bool,
    keys: HashSet<u64, BuildHasherDefault<Identity>>,
    /// What was read and kept so far.
    pub kept: Kept,
}

impl Seen {
    /// Nothing seen yet, comparing records of `data` `by` (refused when
    /// it cannot).
    pub fn new(data: Data, by: By, flip_fold: bool) -> Result<Seen, String> {
        if !supported(data, by) {
            return Err("hcpe3 records are games: compare them --by record".into());
        }
        Ok(Seen {
            data,
            by,
            flip_fold,
            keys: HashSet::default(),
            kept: Kept::default(),
        })
    }

    /// Writes the records `reader` gives (named `path` in faults) to
    /// `out`, but those seen before.
    pub fn take(
        &mut self,
        reader: impl Read,
        path: &Path,
        out: &mut dyn Write,
        faults: Faults<'_>,
    ) -> Result<(), String> {
        let dialect = match self.data {
            Data::Psv => Dialect::PackedSfen,
            _ => Dialect::Hcp,
        };
        let (by, flip_fold) = (self.by, self.flip_fold);
        let (keys, kept) = (&mut self.keys, &mut self.kept);
        let faults = std::cell::RefCell::new(faults);
        let mut index = 0usize;
        let mut offset = 0usize;
        let read_fault = &mut |f| (faults.borrow_mut())(f);
        // One packer for the entries' positions and one for their
        // rotations: a file's positions mostly follow one another.
        let mut packers = [Packer::new(dialect), Packer::new(dialect)];
        blocks_of(reader, path, self.data, read_fault, &mut |block| {
            let key = match by {
                By::Record => Ok(hash(block)),
                By::Position => position_key(block, &mut packers, flip_fold),
            };
            kept.read += 1;
            let new = match key {
                Ok(key) => keys.insert(key),
                Err(kind) => {
                    (faults.borrow_mut())(Fault {
                        path: path.to_path_buf(),
                        error: ReadError {
                            unit: Unit::Entry,
                            index,
                            offset,
                            ply: None,
                            kind,
                        },
                    });
                    true
                }
            };
            index += 1;
            offset += block.len();
            if new {
                kept.kept += 1;
                out.write_all(block)?;
            }
            Ok(())
        })
    }
}

/// The key of an entry's position: the hash of its canonical packing, or
/// with `flip_fold` the smaller of its own and its rotation's.
/// `packers` pack in the entries' dialect.
fn position_key(
    block: &[u8],
    packers: &mut [Packer; 2],
    flip_fold: bool,
) -> Result<u64, ReadErrorKind> {
    let [own, rotated] = packers;
    let dialect = own.dialect();
    let packed: &[u8; 32] = block[..32]
        .try_into()
        .expect("an entry is 32 bytes and more");
    let pos = unpack(packed, dialect).map_err(ReadErrorKind::Position)?;
    // A position that unpacks has both kings and packs again.
    let key =
        |packer: &mut Packer, p: &crate::Position| packer.pack(p).map(|b| hash(&b)).unwrap_or(0);
    let key_own = key(own, &pos);
    Ok(if flip_fold {
        key_own.min(key(rotated, &pos.flip()))
    } else {
        key_own
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::hcpe;
    use crate::{Move, Position};

    fn entry(sfen: &str, usi: &str, eval: i16) -> Vec<u8> {
        let pos = Position::from_sfen(sfen).unwrap();
        hcpe::entry(&pos, Move::from_usi(usi).unwrap(), eval, 1)
            .unwrap()
            .to_vec()
    }

    fn run(bytes: &[u8], by: By, flip_fold: bool) -> (Vec<u8>, usize) {
        let dir = std::env::temp_dir().join(format!(
            "kifconv-dedup-{}-{by:?}-{flip_fold}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.hcpe");
        std::fs::write(&path, bytes).unwrap();
        let mut out = Vec::new();
        let mut faults = 0;
        uniq(&[path], Data::Hcpe, by, flip_fold, &mut out, &mut |_| {
            faults += 1
        })
        .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        (out, faults)
    }

    /// The three ways to compare, on the start position (7g7f, eval 1),
    /// the same again, the start with another move, and the start rotated
    /// (white to move, the same board turned round: 3c3d is 7g7f turned).
    #[test]
    fn record_position_and_rotation() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let turned = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        let a = entry(start, "7g7f", 1);
        let b = entry(start, "2g2f", 1);
        let c = entry(turned, "3c3d", 1);
        let file = [a.clone(), a.clone(), b.clone(), c.clone()].concat();
        assert_eq!(run(&file, By::Record, false).0, [&a[..], &b, &c].concat());
        assert_eq!(run(&file, By::Position, false).0, [&a[..], &c].concat());
        assert_eq!(run(&file, By::Position, true).0, a);
    }

    /// A position that does not unpack is kept and said.
    #[test]
    fn an_unreadable_position_is_kept_and_said() {
        let bad = vec![0xff; hcpe::SIZE];
        let (out, faults) = run(&[bad.clone(), bad.clone()].concat(), By::Position, false);
        assert_eq!((out.len(), faults), (2 * hcpe::SIZE, 2));
    }
}
