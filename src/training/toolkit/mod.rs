//! The toolkit over training files (`kifconv train`): [`shuffle`],
//! [`split`], [`dedup`] (`train uniq`), [`filter`], [`convert`] and
//! [`check`], over HCPE, hcpe3 and PackedSfenValue files. Each reads its
//! inputs a chunk at a time with the training readers' one framing
//! ([`super::read::Records`]), so a file of any size takes the same
//! memory; `shuffle` alone holds a bucket at a time, and `uniq` a 64-bit
//! key per distinct record.
//!
//! A record is an HCPE or PackedSfenValue entry, or an hcpe3 game block.
//! Bytes after the last whole record are a fault of the file, named with
//! its place; the records before it are all used.

pub mod check;
pub mod convert;
pub mod dedup;
pub mod filter;
pub mod shuffle;
pub mod split;

use super::read::{ReadError, Records};
use super::Data;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The kind of training data a file name says: `.hcpe`, `.hcpe3`, `.psv`,
/// and `.pack` for PackedSfenValue (YaneuraOu's teacher files, which it
/// calls "pack"). YaneuraOu also names them `.bin`, which is Apery's book
/// extension too: such a file needs the kind given.
pub fn kind_of(path: &Path) -> Option<Data> {
    Data::from_extension(path).or_else(|| {
        let ext = crate::types::extension(path)?;
        ext.eq_ignore_ascii_case(b"pack").then_some(Data::Psv)
    })
}

/// The one kind of all `inputs`: `given`, or else the kind every file
/// name says ([`kind_of`]). Inputs of two kinds, or a name that says none,
/// are refused.
pub fn kind_of_all(inputs: &[PathBuf], given: Option<Data>) -> Result<Data, String> {
    if let Some(data) = given {
        return Ok(data);
    }
    let mut found = None;
    for path in inputs {
        let data = kind_of(path).ok_or_else(|| {
            format!(
                "{}: the extension names no training data (.hcpe, .hcpe3, .psv, .pack); give --format",
                path.display()
            )
        })?;
        match found {
            Some(other) if other != data => {
                return Err(format!(
                    "{}: {} among {} inputs; every input must be of one kind",
                    path.display(),
                    convert::name(data),
                    convert::name(other)
                ))
            }
            _ => found = Some(data),
        }
    }
    found.ok_or_else(|| "no input".to_string())
}

/// How many faults of a file are listed; the rest are counted.
pub const LISTED: u64 = 100;

/// The faults of a run, counted as they come, and whether each is listed:
/// the first [`LISTED`] of each file are, the rest only counted.
#[derive(Default, Debug)]
pub struct Listing {
    count: u64,
    of_file: u64,
    file: Option<std::path::PathBuf>,
}

/// Whether a fault is listed (see [`Listing::take`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// One of the first [`LISTED`] of its file.
    Yes,
    /// The first of its file past them: say that more are only counted.
    FirstUnlisted,
    /// Past them, only counted.
    No,
}

impl Listing {
    /// Counts `fault` and says whether it is listed.
    pub fn take(&mut self, fault: &Fault) -> Listed {
        self.count += 1;
        if self.file.as_ref() != Some(&fault.path) {
            self.file = Some(fault.path.clone());
            self.of_file = 0;
        }
        self.of_file += 1;
        match self.of_file {
            n if n <= LISTED => Listed::Yes,
            n if n == LISTED + 1 => Listed::FirstUnlisted,
            _ => Listed::No,
        }
    }

    /// How many faults were taken.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// A fault of an input: the file and the error at its place in it.
#[derive(Clone, Debug)]
pub struct Fault {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, and where.
    pub error: ReadError,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

/// Where faults go as they are found: a command prints them, a test
/// keeps them.
pub type Faults<'a> = &'a mut dyn FnMut(Fault);

/// The whole records of a file, as bytes, one after another, in constant
/// memory; a file that ends inside a record gives that as its last
/// fault.
pub struct Blocks<R> {
    records: Records<R>,
    block: Vec<u8>,
}

impl<R: Read> Blocks<R> {
    /// The records of `data` read from `reader`.
    pub fn new(reader: R, data: Data) -> Blocks<R> {
        Blocks {
            records: data.records(reader),
            block: Vec::new(),
        }
    }

    /// The next record's bytes, or where the file went wrong; `None` at
    /// the end.
    pub fn next_block(&mut self) -> Option<Result<&[u8], ReadError>> {
        let block = &mut self.block;
        let result = self.records.next_with(|b| {
            block.clear();
            block.extend_from_slice(b);
            Ok(())
        })?;
        Some(result.map(|()| self.block.as_slice()))
    }
}

/// Every record of `inputs` (each of the kind `data`), in input order,
/// given to `each`; faults go to `faults`. An input that cannot be opened
/// is an error, before or after the others' records.
pub(crate) fn for_each_block(
    inputs: &[PathBuf],
    data: Data,
    faults: Faults<'_>,
    mut each: impl FnMut(&[u8]) -> io::Result<()>,
) -> Result<(), String> {
    for path in inputs {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        blocks_of(file, path, data, faults, &mut each)?;
    }
    Ok(())
}

/// Every record read from `reader` (of the kind `data`, named `path` in
/// faults) given to `each`; faults go to `faults`.
pub(crate) fn blocks_of(
    reader: impl Read,
    path: &Path,
    data: Data,
    faults: Faults<'_>,
    each: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> Result<(), String> {
    let mut blocks = Blocks::new(reader, data);
    while let Some(next) = blocks.next_block() {
        match next {
            Ok(block) => each(block).map_err(|e| e.to_string())?,
            Err(error) => faults(Fault {
                path: path.to_path_buf(),
                error,
            }),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_files_are_packed_sfen_values() {
        assert_eq!(kind_of(Path::new("teacher.PACK")), Some(Data::Psv));
        assert_eq!(kind_of(Path::new("x.hcpe3")), Some(Data::Hcpe3));
        assert_eq!(kind_of(Path::new("x.bin")), None);
    }
}
