//! Sorting more than memory holds. Items are held with their text key,
//! one after another as they come, in segments of a fixed number, each
//! sorted when full ([`super::merge`] takes the segments out as one
//! order); sorted, the items of one key are added together (in the order
//! they came). Past a limit they go to a sorted run on disk, and the runs
//! are merged at the end, a bounded number at a time. A run is a text file, a line an item (its key, a tab, its
//! fields). The runs are removed when the sorter is finished or dropped,
//! and a run that cannot be written whole is removed at once: a failed
//! job leaves no run behind.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// How many runs the final merge reads at once, by default: more are first
/// merged in groups of this many into longer runs, so that a job opens a
/// bounded number of files however many runs it made (a process may have
/// as few as 256 open; this leaves room for the inputs, the output and the
/// worker threads' files).
pub const FAN_IN: usize = 32;

/// The memory an item held takes beside its key's text and its own
/// weight, about: where its key starts and ends, and the sort's share.
const KEY_BYTES: usize = 24;

/// What a sorter holds for a key.
pub trait Item: Sized {
    /// How many tab-separated fields [`Item::write`] writes.
    const FIELDS: usize;
    /// About how many bytes of memory it takes, beside its key.
    fn weight(&self) -> usize;
    /// Adds an item of the same key.
    fn add(&mut self, other: Self);
    /// Writes the fields, tab-separated, with no line ending.
    fn write(&self, out: &mut dyn Write) -> io::Result<()>;
    /// Reads the fields [`Item::write`] wrote.
    fn read(fields: &[&str]) -> Option<Self>;
}

/// Items by key, in memory and in sorted runs on disk.
pub struct Sorter<T> {
    /// The items held, in segments of [`SEGMENT`] in the order added:
    /// each full one sorted.
    segments: Vec<Segment<T>>,
    /// About how many bytes the items held take.
    held: usize,
    /// How many bytes of items may be held before they go to a run.
    limit: Option<usize>,
    /// Where runs go.
    pub(super) dir: Option<PathBuf>,
    /// How many runs are read at once; more are merged in passes.
    fan_in: usize,
    runs: Runs,
    /// This sorter's number in the process: sorters at work at once name
    /// their runs apart.
    id: u64,
    /// How many runs were made in all (merged ones included).
    made: usize,
    /// How many runs went to disk from memory.
    spilled: usize,
}

impl<T> Default for Sorter<T> {
    fn default() -> Self {
        static SORTERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Sorter {
            segments: Vec::new(),
            held: 0,
            limit: None,
            dir: None,
            fan_in: FAN_IN,
            runs: Runs::default(),
            id: SORTERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            made: 0,
            spilled: 0,
        }
    }
}

impl<T: Item> Sorter<T> {
    /// Holds about `bytes` of items in memory (their keys, the map's
    /// share and [`Item::weight`]); beyond that, sorted runs are written
    /// into `dir`.
    pub fn with_limit(mut self, bytes: usize, dir: PathBuf) -> Self {
        self.limit = Some(bytes);
        self.dir = Some(dir);
        self
    }

    /// Reads at most `n` runs at once (at least 2) instead of [`FAN_IN`].
    pub fn with_fan_in(mut self, n: usize) -> Self {
        self.fan_in = n.max(2);
        self
    }

    /// How many runs went to disk from memory so far.
    pub fn spilled(&self) -> usize {
        self.spilled
    }

    /// Adds `item` under `key` (to be added to the other items of that
    /// key when sorted).
    pub fn add(&mut self, key: &str, item: T) -> io::Result<()> {
        self.held += key.len() + KEY_BYTES + item.weight();
        match self.segments.last_mut() {
            Some(segment) if segment.items.len() < SEGMENT => segment.push(key, item),
            _ => {
                if let Some(full) = self.segments.last_mut() {
                    full.sort();
                }
                let mut segment = Segment::new();
                segment.push(key, item);
                self.segments.push(segment);
            }
        }
        if self.limit.is_some_and(|limit| self.held >= limit) {
            self.spill()?;
        }
        Ok(())
    }

    /// Every key once, in byte order, with its items added together.
    pub fn finish(mut self, mut each: impl FnMut(&str, T) -> io::Result<()>) -> io::Result<()> {
        if self.runs.0.is_empty() {
            return self.drain_sorted(&mut each);
        }
        if !self.segments.is_empty() {
            self.spill()?;
        }
        self.merge_passes()?;
        let runs = std::mem::take(&mut self.runs.0);
        let merged = merge_added(&runs, &mut each);
        for run in &runs {
            let _ = std::fs::remove_file(run);
        }
        merged
    }

    /// Writes the items held to a sorted run on disk.
    fn spill(&mut self) -> io::Result<()> {
        let path = self.run_path();
        write_run(&path, |out| {
            self.drain_sorted(&mut |key, item| write_line(out, key, &item))
        })?;
        self.runs.0.push(path);
        self.spilled += 1;
        Ok(())
    }

    /// The items held, taken out in key order, those of one key added
    /// together in the order they came.
    fn drain_sorted(&mut self, each: &mut dyn FnMut(&str, T) -> io::Result<()>) -> io::Result<()> {
        self.held = 0;
        let mut segments = std::mem::take(&mut self.segments);
        if let Some(last) = segments.last_mut() {
            last.sort();
        }
        let (texts, runs): (Vec<String>, Vec<_>) =
            segments.into_iter().map(|s| (s.text, s.items)).unzip();
        let key = |run: usize, &(start, end, _): &(u32, u32, T)| {
            (texts
                .get(run)
                .and_then(|t| t.get(start as usize..end as usize)))
            .unwrap_or_default()
        };
        // Compared as bytes, with no test of char boundaries.
        let bytes = |run: usize, &(start, end, _): &(u32, u32, T)| {
            let text = texts.get(run).map(String::as_bytes);
            text.and_then(|t| t.get(start as usize..end as usize))
                .unwrap_or_default()
        };
        let mut last: Option<(&str, T)> = None;
        let order = |(r, a): (usize, &(u32, u32, T)), (q, b): (usize, &(u32, u32, T))| {
            bytes(r, a).cmp(bytes(q, b))
        };
        super::merge::merge(runs, order, |(run, entry)| {
            let key = key(run, &entry);
            let item = entry.2;
            match &mut last {
                Some((k, held)) if *k == key => held.add(item),
                _ => {
                    if let Some((k, held)) = last.replace((key, item)) {
                        each(k, held)?;
                    }
                }
            }
            Ok::<(), io::Error>(())
        })?;
        if let Some((k, held)) = last {
            each(k, held)?;
        }
        Ok(())
    }

    /// The name of the next run.
    fn run_path(&mut self) -> PathBuf {
        let dir = self.dir.clone().unwrap_or_else(std::env::temp_dir);
        let name = format!(
            "kifconv-book-{}-{}-{}.run",
            std::process::id(),
            self.id,
            self.made
        );
        self.made += 1;
        dir.join(name)
    }

    /// Merges the runs, [`Sorter::fan_in`] at a time, into longer runs
    /// until no more than that many are left.
    fn merge_passes(&mut self) -> io::Result<()> {
        while self.runs.0.len() > self.fan_in {
            let group: Vec<_> = self.runs.0.drain(..self.fan_in).collect();
            let path = self.run_path();
            let written = write_run(&path, |out| {
                merge_added::<T>(&group, &mut |key, item| write_line(out, key, &item))
            });
            for run in &group {
                let _ = std::fs::remove_file(run);
            }
            written?;
            self.runs.0.push(path);
        }
        Ok(())
    }
}

/// How many items a segment holds: sorted while its keys are still in
/// the processor's caches, and merged with the others at the end. A sort
/// of all the items at once would read keys from all over memory at each
/// of its passes.
const SEGMENT: usize = 16 * 1024;

/// Room for a key in a segment's text, about: a SFEN key and a move are
/// rarely longer.
const KEY_ROOM: usize = 128;

/// Up to [`SEGMENT`] items, with their keys' text: each item is where its
/// key starts and ends in `text`, and the item.
struct Segment<T> {
    text: String,
    items: Vec<(u32, u32, T)>,
}

impl<T> Segment<T> {
    /// An empty segment, with room for its items and their keys made at
    /// once (so that it is not copied as it grows).
    fn new() -> Segment<T> {
        Segment {
            text: String::with_capacity(SEGMENT * KEY_ROOM),
            items: Vec::with_capacity(SEGMENT),
        }
    }

    fn push(&mut self, key: &str, item: T) {
        let start = self.text.len() as u32;
        self.text.push_str(key);
        self.items.push((start, self.text.len() as u32, item));
    }

    /// Sorts the items by their keys, as bytes (the order of their text);
    /// items of one key stay in the order they came: ties are broken by
    /// where the key starts, so an unstable sort gives the stable sort's.
    fn sort(&mut self) {
        let text = self.text.as_bytes();
        let key = |&(start, end, _): &(u32, u32, T)| {
            text.get(start as usize..end as usize).unwrap_or_default()
        };
        self.items
            .sort_unstable_by(|a, b| key(a).cmp(key(b)).then(a.0.cmp(&b.0)));
    }
}

/// The runs on disk, removed when dropped.
#[derive(Default)]
struct Runs(Vec<PathBuf>);

impl Drop for Runs {
    fn drop(&mut self) {
        for run in &self.0 {
            let _ = std::fs::remove_file(run);
        }
    }
}

/// A run's line for an item.
fn write_line<T: Item>(out: &mut dyn Write, key: &str, item: &T) -> io::Result<()> {
    out.write_all(key.as_bytes())?;
    out.write_all(b"\t")?;
    item.write(out)?;
    out.write_all(b"\n")
}

/// Writes a run at `path` through `fill`; on failure the file is removed
/// and the error names it.
fn write_run(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    // A new file only: a run never replaces another file.
    let written = std::fs::File::create_new(path).and_then(|file| {
        let mut out = io::BufWriter::new(file);
        fill(&mut out)?;
        out.flush()
    });
    written.map_err(|e| {
        let _ = std::fs::remove_file(path);
        io::Error::new(
            e.kind(),
            format!("cannot write the sorted run {}: {e}", path.display()),
        )
    })
}

/// Reads the runs in step and hands every key over once, in order, with
/// its items added together.
fn merge_added<T: Item>(
    runs: &[PathBuf],
    each: &mut dyn FnMut(&str, T) -> io::Result<()>,
) -> io::Result<()> {
    let mut last: Option<(String, T)> = None;
    merge_runs::<T>(runs, &mut |key, item| match &mut last {
        Some((k, held)) if k == key => {
            held.add(item);
            Ok(())
        }
        _ => match last.replace((key.to_string(), item)) {
            Some((k, held)) => each(&k, held),
            None => Ok(()),
        },
    })?;
    match last {
        Some((k, held)) => each(&k, held),
        None => Ok(()),
    }
}

/// Reads the runs in step, handing every line's item over in key order.
fn merge_runs<T: Item>(
    runs: &[PathBuf],
    take: &mut dyn FnMut(&str, T) -> io::Result<()>,
) -> io::Result<()> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    type Lines = io::Lines<io::BufReader<std::fs::File>>;
    let mut readers: Vec<Lines> = Vec::with_capacity(runs.len());
    for run in runs {
        readers.push(io::BufReader::new(std::fs::File::open(run)?).lines());
    }
    let next = |lines: &mut Lines| -> io::Result<Option<(String, T)>> {
        let Some(line) = lines.next().transpose()? else {
            return Ok(None);
        };
        let bad = || {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "a run line kifconv did not write",
            )
        };
        let fields: Vec<&str> = line.rsplitn(T::FIELDS + 1, '\t').collect();
        let Some((key, fields)) = fields.split_last() else {
            return Err(bad());
        };
        let fields: Vec<&str> = fields.iter().rev().copied().collect();
        let item = T::read(&fields).ok_or_else(bad)?;
        Ok(Some((key.to_string(), item)))
    };
    // The heap orders by key, then run; the items wait in their slots.
    let mut slots: Vec<Option<T>> = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::new();
    for (i, lines) in readers.iter_mut().enumerate() {
        let first = next(lines)?;
        slots.push(first.map(|(key, item)| {
            heap.push(Reverse((key, i)));
            item
        }));
    }
    while let Some(Reverse((key, i))) = heap.pop() {
        let item = slots[i].take().expect("a key in the heap has its item");
        take(&key, item)?;
        if let Some((key, item)) = next(&mut readers[i])? {
            slots[i] = Some(item);
            heap.push(Reverse((key, i)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count, as the simplest item.
    #[derive(Debug, PartialEq)]
    struct Count(u64);

    impl Item for Count {
        const FIELDS: usize = 1;
        fn weight(&self) -> usize {
            8
        }
        fn add(&mut self, other: Self) {
            self.0 += other.0;
        }
        fn write(&self, out: &mut dyn Write) -> io::Result<()> {
            write!(out, "{}", self.0)
        }
        fn read(fields: &[&str]) -> Option<Self> {
            fields[0].parse().ok().map(Count)
        }
    }

    fn sorted(limit: Option<usize>, fan_in: usize, keys: &[&str]) -> Vec<(String, u64)> {
        let dir = std::env::temp_dir().join(format!(
            "kifconv-runs-{}-{limit:?}-{fan_in}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let mut sorter = Sorter::default().with_fan_in(fan_in);
        if let Some(limit) = limit {
            // A limit of `limit` keys, in bytes.
            sorter = sorter.with_limit(limit * (6 + KEY_BYTES + 8), dir.clone());
        }
        for key in keys {
            sorter.add(key, Count(1)).unwrap();
        }
        let spilled = sorter.spilled();
        assert_eq!(spilled > 0, limit.is_some_and(|l| l < keys.len()));
        let mut out = Vec::new();
        sorter
            .finish(|key, count| {
                out.push((key.to_string(), count.0));
                Ok(())
            })
            .unwrap();
        // No run is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir(dir);
        out
    }

    #[test]
    fn runs_on_disk_give_what_memory_gives() {
        // Keys with tabs in them, repeated, out of order.
        let keys: Vec<String> = (0..500)
            .map(|i| format!("k{}\tm{}", (i * 37) % 101, i % 3))
            .collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let in_memory = sorted(None, FAN_IN, &keys);
        assert!(in_memory.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(in_memory.iter().map(|(_, n)| n).sum::<u64>(), 500);
        for (limit, fan_in) in [(1, 2), (7, 2), (7, 3), (50, 32)] {
            assert_eq!(
                sorted(Some(limit), fan_in, &keys),
                in_memory,
                "{limit} {fan_in}"
            );
        }
    }

    /// The places items came in, in the order they were added together.
    #[derive(Debug, PartialEq)]
    struct Places(Vec<usize>);

    impl Item for Places {
        const FIELDS: usize = 1;
        fn weight(&self) -> usize {
            8
        }
        fn add(&mut self, other: Self) {
            self.0.extend(other.0);
        }
        fn write(&self, out: &mut dyn Write) -> io::Result<()> {
            let places: Vec<String> = self.0.iter().map(usize::to_string).collect();
            write!(out, "{}", places.join(","))
        }
        fn read(fields: &[&str]) -> Option<Self> {
            let places = fields[0].split(',').map(|p| p.parse().ok());
            places.collect::<Option<Vec<_>>>().map(Places)
        }
    }

    #[test]
    fn items_over_many_segments_come_out_in_key_order_each_key_in_arrival_order() {
        // Keys sharing long beginnings, each held many times, spread over
        // several segments.
        let n = 3 * SEGMENT + 17;
        let keys: Vec<String> = (0..n)
            .map(|i| format!("lnsgkgsnl/1r5b1/ppppppppp/{}\t{}", (i * 7919) % 1013, i % 2))
            .collect();
        let mut sorter = Sorter::default();
        for (i, key) in keys.iter().enumerate() {
            sorter.add(key, Places(vec![i])).unwrap();
        }
        let mut out: Vec<(String, Vec<usize>)> = Vec::new();
        sorter
            .finish(|key, places| {
                out.push((key.to_string(), places.0));
                Ok(())
            })
            .unwrap();
        let mut expected = std::collections::BTreeMap::<String, Vec<usize>>::new();
        for (i, key) in keys.iter().enumerate() {
            expected.entry(key.clone()).or_default().push(i);
        }
        let expected: Vec<(String, Vec<usize>)> = expected.into_iter().collect();
        assert_eq!(out, expected);
    }
}
