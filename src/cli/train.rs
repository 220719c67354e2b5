//! `kifconv train shuffle|split|uniq|filter|convert|check`: the arguments
//! of the training-file toolkit ([`crate::training::toolkit`]) checked,
//! its outputs placed without replacing files ([`NewFile`]), its faults
//! and summaries said.

use super::args::{
    TrainCheckArgs, TrainConvertArgs, TrainFilterArgs, TrainInputs, TrainMove16, TrainShuffleArgs,
    TrainSplitArgs, TrainUniqArgs, TrainUniqBy,
};
use crate::batch::jobs::book::folder_of;
use crate::batch::output::{InputRoots, NewFile};
use crate::training::move16::Layout;
use crate::training::toolkit::{self, check, convert, dedup, filter, shuffle, split, Fault};
use crate::training::Data;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many faults of a file are listed; the rest are counted.
const LISTED: u64 = 100;

/// The one kind of all `inputs`: --format's, or every extension's.
fn kind(inputs: &[PathBuf], given: &TrainInputs) -> Result<Data, String> {
    if let Some(data) = given.format {
        return Ok(data);
    }
    let mut found = None;
    for path in inputs {
        let data = toolkit::kind_of(path).ok_or_else(|| {
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

/// The output `path` started, unless it is one of the inputs or exists
/// without --force.
fn output(path: &Path, inputs: &[PathBuf], force: bool) -> Result<NewFile, String> {
    if InputRoots::new(inputs).contains(path) {
        return Err(format!(
            "{}: that is one of the inputs; refused",
            path.display()
        ));
    }
    NewFile::create(path, force)
}

/// Says faults on standard error as they come, the first [`LISTED`] of
/// each file, and counts them.
#[derive(Default)]
struct Said {
    count: u64,
    of_file: u64,
    file: Option<PathBuf>,
}

impl Said {
    fn say(&mut self, fault: Fault) {
        self.count += 1;
        if self.file.as_ref() != Some(&fault.path) {
            self.file = Some(fault.path.clone());
            self.of_file = 0;
        }
        self.of_file += 1;
        if self.of_file <= LISTED {
            eprintln!("error: {fault}");
        } else if self.of_file == LISTED + 1 {
            eprintln!(
                "error: {}: more faults, counted but not listed",
                fault.path.display()
            );
        }
    }

    /// The exit code: 1 when a fault was said.
    fn code(&self) -> u8 {
        u8::from(self.count > 0)
    }
}

/// Runs a toolkit command writing one output: `work` fills it, its
/// summary is said and the output placed.
fn one_output(
    inputs: &[PathBuf],
    path: &Path,
    force: bool,
    work: impl FnOnce(&mut dyn Write, &mut Said) -> Result<String, String>,
) -> u8 {
    let mut out = match output(path, inputs, force) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut said = Said::default();
    let summary = match work(&mut out, &mut said) {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if let Err(e) = out.place() {
        eprintln!("error: {e}");
        return 2;
    }
    eprintln!("{summary}");
    said.code()
}

/// A usage error said; exit 2.
fn usage(message: String) -> u8 {
    eprintln!("error: {message}");
    2
}

pub fn shuffle(args: TrainShuffleArgs) -> u8 {
    let data = match kind(&args.inputs, &args.kind) {
        Ok(data) => data,
        Err(e) => return usage(e),
    };
    let options = shuffle::Options {
        seed: args.seed,
        memory: args.memory << 20,
        dir: folder_of(&args.output),
    };
    let inputs = &args.inputs;
    one_output(inputs, &args.output, args.force, |out, said| {
        let done = shuffle::shuffle(inputs, data, &options, out, &mut |f| said.say(f))?;
        Ok(format!(
            "{}: {} records shuffled ({} buckets)",
            args.output.display(),
            done.records,
            done.buckets
        ))
    })
}

pub fn uniq(args: TrainUniqArgs) -> u8 {
    let data = match kind(&args.inputs, &args.kind) {
        Ok(data) => data,
        Err(e) => return usage(e),
    };
    let by = match args.by {
        TrainUniqBy::Record => dedup::By::Record,
        TrainUniqBy::Position => dedup::By::Position,
    };
    if args.flip_fold && by != dedup::By::Position {
        return usage("--flip-fold goes with --by position".into());
    }
    if !dedup::supported(data, by) {
        return usage("hcpe3 records are games: compare them --by record".into());
    }
    let inputs = &args.inputs;
    one_output(inputs, &args.output, args.force, |out, said| {
        let done = dedup::uniq(inputs, data, by, args.flip_fold, out, &mut |f| said.say(f))?;
        Ok(format!(
            "{}: {} of {} records kept, {} repeats left out",
            args.output.display(),
            done.kept,
            done.read,
            done.read - done.kept
        ))
    })
}

pub fn filter(args: TrainFilterArgs) -> u8 {
    let data = match kind(&args.inputs, &args.kind) {
        Ok(data) => data,
        Err(e) => return usage(e),
    };
    let tests = filter::Tests {
        max_abs_eval: args.max_abs_eval,
        drop_draws: args.drop_draws,
        min_ply: args.min_ply,
    };
    if let Some(why) = tests.refusal(data) {
        return usage(why.to_string());
    }
    let inputs = &args.inputs;
    one_output(inputs, &args.output, args.force, |out, said| {
        let done = filter::filter(inputs, data, &tests, out, &mut |f| said.say(f))?;
        Ok(format!(
            "{}: {} of {} records kept",
            args.output.display(),
            done.kept,
            done.read
        ))
    })
}

pub fn convert(args: TrainConvertArgs) -> u8 {
    let inputs = std::slice::from_ref(&args.input);
    let from = match kind(inputs, &args.kind) {
        Ok(data) => data,
        Err(e) => return usage(e),
    };
    let to = args.to;
    let layout = match args.move16 {
        TrainMove16::Yaneuraou => Layout::YaneuraOu,
        TrainMove16::Cshogi => Layout::Apery,
    };
    if layout == Layout::Apery && from != Data::Psv {
        return usage("--move16 reads PackedSfenValue input only".into());
    }
    one_output(inputs, &args.output, args.force, |out, said| {
        let done = convert::convert_as(&args.input, from, Some(layout), to, out, &mut |f| {
            said.say(f)
        })?;
        for loss in &done.losses {
            eprintln!("{}: warning: {loss}", args.output.display());
        }
        for e in &done.errors {
            said.count += 1;
            eprintln!("error: {}: {e}", args.input.display());
        }
        Ok(format!(
            "{}: {} of {} records written as {}",
            args.output.display(),
            done.written,
            done.read,
            convert::name(to)
        ))
    })
}

pub fn split(args: TrainSplitArgs) -> u8 {
    let inputs = std::slice::from_ref(&args.input);
    let data = match kind(inputs, &args.kind) {
        Ok(data) => data,
        Err(e) => return usage(e),
    };
    let how = match (args.positions, args.parts) {
        (Some(n), _) => split::How::Positions(n),
        (_, Some(n)) => split::How::Parts(n),
        (None, None) => return usage("give --positions N or --parts N".into()),
    };
    let plan = match split::plan(&args.input, data, how) {
        Ok(plan) => plan,
        Err(e) => return usage(e),
    };
    let names: Vec<PathBuf> = (0..plan.parts)
        .map(|i| PathBuf::from(split::part_name(&args.output, i, plan.parts, data)))
        .collect();
    // Every name is checked before anything is written.
    for name in &names {
        if InputRoots::new(inputs).contains(name) {
            return usage(format!(
                "{}: that is one of the inputs; refused",
                name.display()
            ));
        }
        if !args.force && name.symlink_metadata().is_ok() {
            return usage(format!(
                "{} exists; give --force to replace it",
                name.display()
            ));
        }
    }
    let mut said = Said::default();
    let mut current: Option<(u64, NewFile)> = None;
    let mut next = 0u64;
    let written = split::split(
        &args.input,
        &plan,
        &mut |f| said.say(f),
        &mut |part, block| {
            if current.as_ref().map(|(i, _)| *i) != Some(part) {
                if let Some((_, file)) = current.take() {
                    file.place().map_err(std::io::Error::other)?;
                }
                // Parts the records skipped are written empty.
                while next < part {
                    let empty = NewFile::create(&names[next as usize], args.force)
                        .map_err(std::io::Error::other)?;
                    empty.place().map_err(std::io::Error::other)?;
                    next += 1;
                }
                let file = NewFile::create(&names[part as usize], args.force)
                    .map_err(std::io::Error::other)?;
                current = Some((part, file));
                next = part + 1;
            }
            current.as_mut().expect("opened above").1.write_all(block)
        },
    );
    let mut finish = || -> Result<(), String> {
        if let Some((_, file)) = current.take() {
            file.place()?;
        }
        for name in &names[next as usize..] {
            NewFile::create(name, args.force)?.place()?;
        }
        Ok(())
    };
    let written = match written {
        Ok(written) => finish().map(|()| written),
        Err(e) => Err(e),
    };
    match written {
        Ok(written) => eprintln!(
            "{}: {written} records in {} parts ({} positions)",
            args.input.display(),
            plan.parts,
            plan.positions
        ),
        Err(e) => return usage(e),
    }
    said.code()
}

pub fn check(args: TrainCheckArgs) -> u8 {
    // Each file is checked as its own kind.
    let mut kinds = Vec::with_capacity(args.inputs.len());
    for path in &args.inputs {
        match kind(std::slice::from_ref(path), &args.kind) {
            Ok(data) => kinds.push(data),
            Err(e) => return usage(e),
        }
    }
    let mut code = 0;
    for (path, &data) in args.inputs.iter().zip(&kinds) {
        let mut listed = 0u64;
        let mut text = String::new();
        let checked = check::check(path, data, &mut |fault| {
            listed += 1;
            if listed <= LISTED {
                text.push_str(&format!("{fault}\n"));
            }
        });
        let checked = match checked {
            Ok(checked) => checked,
            Err(e) => {
                eprintln!("error: {e}");
                code = code.max(1);
                continue;
            }
        };
        if checked.faults > LISTED {
            text.push_str(&format!(
                "{}: {} more faults not listed\n",
                path.display(),
                checked.faults - LISTED
            ));
        }
        text.push_str(&format!(
            "{}: {} records, {} faults",
            path.display(),
            checked.records,
            checked.faults
        ));
        if let Some(layouts) = &checked.layouts {
            text.push_str(&format!("; {}", layouts.describe()));
        }
        text.push('\n');
        if super::tools::print(text.as_bytes()) != 0 {
            return 2;
        }
        if !checked.sound() {
            code = 1;
        }
    }
    code
}
