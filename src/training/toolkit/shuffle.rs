//! `train shuffle`: the records of training files in a random order, with
//! bounded memory. Each record goes to one of several buckets, chosen by a
//! seeded random number; each bucket is then read back whole, shuffled in
//! memory (Fisher–Yates) and written, one bucket after another. A random
//! split into buckets followed by a random order within each is a random
//! order of the whole.
//!
//! The buckets are temporary files in a folder the caller names (beside
//! the output), removed when done or on failure. Their number is the
//! inputs' size over the bucket size, which is three eighths of the
//! memory allowed; records waiting to go to a bucket file take a quarter
//! more. A bucket holds about its share of records, so a run takes about
//! the memory allowed; a bucket that the draw made larger than its share
//! is still read whole. With the same seed, inputs and memory, the order
//! is the same.

use super::{for_each_block, Faults};
use crate::training::read::block_len;
use crate::training::{hcpe, psv, Data};
use crate::types::SplitMix;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How to shuffle.
#[derive(Clone, Debug)]
pub struct Options {
    /// The seed of the random order.
    pub seed: u64,
    /// About how many bytes of memory the records may take.
    pub memory: usize,
    /// Where the bucket files go.
    pub dir: PathBuf,
}

/// What a shuffle did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shuffled {
    /// How many records were written.
    pub records: u64,
    /// How many buckets they went through (1: all held in memory).
    pub buckets: usize,
}

/// A bucket: records waiting in memory, and the file they go to.
struct Bucket {
    staged: Vec<u8>,
    file: Option<PathBuf>,
}

/// The bucket files, removed when dropped.
struct Files(Vec<PathBuf>);

impl Drop for Files {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Writes the records of `inputs` (each of the kind `data`) to `out` in a
/// random order (see the module documentation); faults of the inputs go
/// to `faults` and their records are left out.
pub fn shuffle(
    inputs: &[PathBuf],
    data: Data,
    options: &Options,
    out: &mut dyn Write,
    faults: Faults<'_>,
) -> Result<Shuffled, String> {
    let mut total = 0u64;
    for path in inputs {
        let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        total += meta.len();
    }
    let bucket_size = (options.memory / 8 * 3).max(1) as u64;
    let count = total.div_ceil(bucket_size).max(1) as usize;
    let stage = (options.memory / 4 / count).max(4096);
    let mut files = Files(Vec::new());
    let mut buckets = Vec::with_capacity(count);
    for i in 0..count {
        let file = if count == 1 {
            None
        } else {
            let path = bucket_path(&options.dir, i);
            std::fs::File::create_new(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.0.push(path.clone());
            Some(path)
        };
        buckets.push(Bucket {
            staged: Vec::new(),
            file,
        });
    }
    let mut rng = SplitMix::new(options.seed);
    for_each_block(inputs, data, faults, |block| {
        let bucket = &mut buckets[rng.below(count)];
        bucket.staged.extend_from_slice(block);
        if bucket.staged.len() >= stage {
            flush(bucket)?;
        }
        Ok(())
    })?;
    let mut shuffled = Shuffled {
        records: 0,
        buckets: count,
    };
    let failed = |e: io::Error| format!("cannot shuffle: {e}");
    for bucket in &mut buckets {
        flush(bucket).map_err(failed)?;
    }
    // The staging buffers are given back before the buckets are read.
    let paths: Vec<Option<PathBuf>> = buckets.iter().map(|b| b.file.clone()).collect();
    let mut held: Vec<Vec<u8>> = buckets.into_iter().map(|b| b.staged).collect();
    for (i, path) in paths.iter().enumerate() {
        let bytes = match path {
            Some(path) => {
                let bytes = std::fs::read(path).map_err(failed)?;
                let _ = std::fs::remove_file(path);
                bytes
            }
            None => std::mem::take(&mut held[i]),
        };
        shuffled.records += write_shuffled(&bytes, data, &mut rng, out).map_err(failed)?;
    }
    Ok(shuffled)
}

/// A bucket file's name in `dir`, this process's and no other's.
fn bucket_path(dir: &Path, i: usize) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static RUN: AtomicU64 = AtomicU64::new(0);
    let run = RUN.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(
        ".kifconv-shuffle-{}-{run}-{i}.tmp",
        std::process::id()
    ))
}

/// Appends a bucket's waiting records to its file (none for a bucket held
/// in memory).
fn flush(bucket: &mut Bucket) -> io::Result<()> {
    let Some(path) = &bucket.file else {
        return Ok(());
    };
    if bucket.staged.is_empty() {
        return Ok(());
    }
    let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
    file.write_all(&bucket.staged)?;
    bucket.staged.clear();
    Ok(())
}

/// Writes the whole records of `bytes` to `out` in a random order; gives
/// how many.
fn write_shuffled(
    bytes: &[u8],
    data: Data,
    rng: &mut SplitMix,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let size = fixed_size(data);
    let mut starts = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        starts.push(at);
        at += match size {
            Some(size) => size,
            None => block_len(&bytes[at..]).map_err(|_| io::Error::other("a bucket cut short"))?,
        };
    }
    for i in (1..starts.len()).rev() {
        let j = rng.below(i + 1);
        starts.swap(i, j);
    }
    for &start in &starts {
        let len = match size {
            Some(size) => size,
            None => {
                block_len(&bytes[start..]).map_err(|_| io::Error::other("a bucket cut short"))?
            }
        };
        out.write_all(&bytes[start..start + len])?;
    }
    Ok(starts.len() as u64)
}

/// The size of a record of `data`, when all have one.
pub(crate) fn fixed_size(data: Data) -> Option<usize> {
    match data {
        Data::Hcpe => Some(hcpe::SIZE),
        Data::Psv => Some(psv::SIZE),
        Data::Hcpe3 => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `n` distinct HCPE-sized records (their index in the first
    /// bytes) into a file under a fresh folder.
    fn records(name: &str, n: u32) -> (PathBuf, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("kifconv-shuffle-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut bytes = Vec::new();
        for i in 0..n {
            let mut entry = [0u8; hcpe::SIZE];
            entry[..4].copy_from_slice(&i.to_le_bytes());
            bytes.extend_from_slice(&entry);
        }
        let path = dir.join("in.hcpe");
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    fn order(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks(hcpe::SIZE)
            .map(|c| u32::from_le_bytes(c[..4].try_into().unwrap()))
            .collect()
    }

    fn run(dir: &Path, path: &Path, seed: u64, memory: usize) -> (Vec<u8>, Shuffled) {
        let options = Options {
            seed,
            memory,
            dir: dir.to_path_buf(),
        };
        let mut out = Vec::new();
        let mut faults = Vec::new();
        let done = shuffle(
            &[path.to_path_buf()],
            Data::Hcpe,
            &options,
            &mut out,
            &mut |f| faults.push(f),
        )
        .unwrap();
        assert!(faults.is_empty());
        (out, done)
    }

    /// Through many buckets or one, every record comes out once, in
    /// another order; the same seed gives the same order, another seed
    /// another; no bucket file is left.
    #[test]
    fn a_shuffle_is_a_seeded_permutation() {
        let n = 5000;
        let (dir, path) = records("perm", n);
        for memory in [4096, 1 << 20] {
            let (a, done) = run(&dir, &path, 1, memory);
            assert_eq!(done.records, u64::from(n));
            assert_eq!(done.buckets > 1, memory == 4096, "{done:?}");
            let order_a = order(&a);
            let mut sorted = order_a.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>());
            assert_ne!(order_a, sorted);
            assert_eq!(run(&dir, &path, 1, memory).0, a);
            assert_ne!(run(&dir, &path, 2, memory).0, a);
        }
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "bucket files left: {left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Each record lands anywhere: over many seeds, the first record's
    /// place is spread over the whole output, not kept near the start.
    #[test]
    fn records_travel_the_whole_output() {
        let n = 200;
        let (dir, path) = records("spread", n);
        let mut halves = [0; 2];
        for seed in 0..200 {
            let (out, _) = run(&dir, &path, seed, 4096);
            let place = order(&out).iter().position(|&r| r == 0).unwrap();
            halves[usize::from(place >= n as usize / 2)] += 1;
        }
        assert!(halves.iter().all(|&h| h > 60), "{halves:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
