//! The training-file toolkit over files (`kifconv train`), for the command
//! and Python alike: the inputs' kind told ([`kind_of_all`]), the options
//! checked, each output written beside its name and put in place, never
//! over an input nor over a file that exists unless asked. Faults of the
//! inputs go to the caller as they are found; what was done comes back.

use super::book::folder_of;
use crate::batch::output::{InputRoots, NewFile};
use crate::training::move16::Layout;
use crate::training::toolkit::{convert, dedup, filter, kind_of_all, shuffle, split, Faults};
use crate::training::Data;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where a run writes, and over what.
#[derive(Clone, Debug)]
pub struct Target {
    /// The inputs, read in order.
    pub inputs: Vec<PathBuf>,
    /// Every input read as this kind (`None`: each file's extension says).
    pub format: Option<Data>,
    /// The file written (`split`: the parts' prefix).
    pub output: PathBuf,
    /// Replace outputs that exist.
    pub force: bool,
}

impl Target {
    /// The one kind of the inputs.
    pub fn kind(&self) -> Result<Data, String> {
        kind_of_all(&self.inputs, self.format)
    }

    /// The output `path` started, unless it is one of the inputs or
    /// exists without `force`.
    fn start(&self, path: &Path) -> Result<NewFile, String> {
        if InputRoots::new(&self.inputs).contains(path) {
            return Err(format!(
                "{}: that is one of the inputs; refused",
                path.display()
            ));
        }
        NewFile::create(path, self.force)
    }

    /// Runs `work` into the output, and puts it in place.
    fn write<T>(
        &self,
        work: impl FnOnce(&mut dyn Write) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut out = self.start(&self.output)?;
        let done = work(&mut out)?;
        out.place()?;
        Ok(done)
    }
}

/// `train shuffle`: the records of the inputs in an order `seed` gives,
/// in about `memory` bytes (buckets on disk beside the output beyond it).
pub fn shuffle(
    target: &Target,
    seed: u64,
    memory: usize,
    faults: Faults<'_>,
) -> Result<shuffle::Shuffled, String> {
    let data = target.kind()?;
    let options = shuffle::Options {
        seed,
        memory,
        dir: folder_of(&target.output),
    };
    target.write(|out| shuffle::shuffle(&target.inputs, data, &options, out, faults))
}

/// How `train uniq` compares records.
#[derive(Clone, Copy, Debug)]
pub struct Uniq {
    /// What counts as a repeat.
    pub by: dedup::By,
    /// With [`dedup::By::Position`]: a position rotated 180° is the same.
    pub flip_fold: bool,
}

impl Uniq {
    /// Why these options cannot compare `data`, if they cannot.
    pub fn refusal(&self, data: Data) -> Option<&'static str> {
        if self.flip_fold && self.by != dedup::By::Position {
            return Some("--flip-fold goes with --by position");
        }
        if !dedup::supported(data, self.by) {
            return Some("hcpe3 records are games: compare them --by record");
        }
        None
    }
}

/// `train uniq`: the records of the inputs, repeats left out.
pub fn uniq(target: &Target, how: Uniq, faults: Faults<'_>) -> Result<dedup::Kept, String> {
    let data = target.kind()?;
    if let Some(why) = how.refusal(data) {
        return Err(why.into());
    }
    target.write(|out| dedup::uniq(&target.inputs, data, how.by, how.flip_fold, out, faults))
}

/// `train filter`: the records of the inputs that pass `tests`.
pub fn filter(
    target: &Target,
    tests: &filter::Tests,
    faults: Faults<'_>,
) -> Result<filter::Filtered, String> {
    let data = target.kind()?;
    if let Some(why) = tests.refusal(data) {
        return Err(why.into());
    }
    target.write(|out| filter::filter(&target.inputs, data, tests, out, faults))
}

/// `train convert`: the one input written as `to`, a PackedSfenValue
/// input's moves read in `layout`. What the target cannot hold is in
/// [`convert::Converted::losses`], records that could not be written in
/// its `errors`.
pub fn convert(
    target: &Target,
    to: Data,
    layout: Layout,
    faults: Faults<'_>,
) -> Result<convert::Converted, String> {
    let input = one_input(target)?;
    let from = target.kind()?;
    if layout == Layout::Apery && from != Data::Psv {
        return Err("--move16 reads PackedSfenValue input only".into());
    }
    target.write(|out| convert::convert_as(input, from, Some(layout), to, out, faults))
}

/// The input of a command that reads one.
fn one_input(target: &Target) -> Result<&Path, String> {
    match target.inputs.as_slice() {
        [input] => Ok(input),
        _ => Err(format!(
            "one input is read, {} were given",
            target.inputs.len()
        )),
    }
}

/// What `train split` wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// Records written.
    pub records: u64,
    /// Positions in the input (whole records only).
    pub positions: u64,
    /// The parts, in order (some may be empty).
    pub names: Vec<PathBuf>,
}

/// `train split`: the one input cut into parts named from the output
/// prefix ([`split::part_name`]). Every name is checked before anything
/// is written.
pub fn split(target: &Target, how: split::How, faults: Faults<'_>) -> Result<Parts, String> {
    let input = one_input(target)?;
    let data = target.kind()?;
    let plan = split::plan(input, data, how)?;
    let prefix = target.output.to_string_lossy();
    let names: Vec<PathBuf> = (0..plan.parts)
        .map(|i| PathBuf::from(split::part_name(&prefix, i, plan.parts, data)))
        .collect();
    for name in &names {
        if InputRoots::new(&target.inputs).contains(name) {
            return Err(format!(
                "{}: that is one of the inputs; refused",
                name.display()
            ));
        }
        if !target.force && name.symlink_metadata().is_ok() {
            return Err(format!(
                "{} exists; give --force to replace it",
                name.display()
            ));
        }
    }
    let force = target.force;
    let mut current: Option<(u64, NewFile)> = None;
    let mut next = 0u64;
    let written = split::split(input, &plan, faults, &mut |part, block| {
        if current.as_ref().map(|(i, _)| *i) != Some(part) {
            if let Some((_, file)) = current.take() {
                file.place().map_err(std::io::Error::other)?;
            }
            // Parts the records skipped are written empty.
            while next < part {
                let empty =
                    NewFile::create(&names[next as usize], force).map_err(std::io::Error::other)?;
                empty.place().map_err(std::io::Error::other)?;
                next += 1;
            }
            let file =
                NewFile::create(&names[part as usize], force).map_err(std::io::Error::other)?;
            current = Some((part, file));
            next = part + 1;
        }
        current.as_mut().expect("opened above").1.write_all(block)
    })?;
    if let Some((_, file)) = current.take() {
        file.place()?;
    }
    for name in &names[next as usize..] {
        NewFile::create(name, force)?.place()?;
    }
    Ok(Parts {
        records: written,
        positions: plan.positions,
        names,
    })
}

/// The kind of each of `inputs` for `train check`: `format`, or each
/// file's own (each file is checked as its own kind).
pub fn check_kinds(inputs: &[PathBuf], format: Option<Data>) -> Result<Vec<Data>, String> {
    inputs
        .iter()
        .map(|path| kind_of_all(std::slice::from_ref(path), format))
        .collect()
}
