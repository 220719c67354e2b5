//! `kifconv train shuffle|split|uniq|filter|convert|check`: the arguments
//! of the training-file toolkit turned into its options, and its faults
//! and summaries said. The work, the inputs' kind and the outputs'
//! placing are the library's ([`crate::batch::jobs::train_file`]).

use super::args::{
    TrainCheckArgs, TrainConvertArgs, TrainFilterArgs, TrainInputs, TrainMove16, TrainShuffleArgs,
    TrainSplitArgs, TrainUniqArgs, TrainUniqBy,
};
use super::fatal;
use crate::batch::jobs::train_file::{self, Target, Uniq};
use crate::training::move16::Layout;
use crate::training::toolkit::{
    check, convert, dedup, filter, split, Fault, Faults, Listed, Listing, LISTED,
};
use std::path::{Path, PathBuf};

/// Says faults on standard error as they come, those [`Listing`] lists,
/// and counts them with the other errors said.
#[derive(Default)]
struct Said {
    listing: Listing,
    others: u64,
}

impl Said {
    fn say(&mut self, fault: Fault) {
        match self.listing.take(&fault) {
            Listed::Yes => eprintln!("error: {fault}"),
            Listed::FirstUnlisted => eprintln!(
                "error: {}: more faults, counted but not listed",
                fault.path.display()
            ),
            Listed::No => {}
        }
    }

    /// The exit code: 1 when a fault was said.
    fn code(&self) -> u8 {
        u8::from(self.listing.count() + self.others > 0)
    }
}

/// The inputs, output and kind of a command.
fn target(inputs: &[PathBuf], output: &Path, kind: &TrainInputs, force: bool) -> Target {
    Target {
        inputs: inputs.to_vec(),
        format: kind.format,
        output: output.to_path_buf(),
        force,
    }
}

/// Runs `work`, saying its faults as they come, then `path: ` and the
/// summary `summary` makes of what it did (or its error); the exit code.
fn said<T>(
    path: &Path,
    work: impl FnOnce(Faults<'_>) -> Result<T, String>,
    summary: impl FnOnce(T, &mut Said) -> String,
) -> u8 {
    let mut faults = Said::default();
    match work(&mut |f| faults.say(f)) {
        Ok(done) => {
            eprintln!("{}: {}", path.display(), summary(done, &mut faults));
            faults.code()
        }
        Err(e) => fatal(e),
    }
}

pub fn shuffle(args: TrainShuffleArgs) -> u8 {
    let target = target(&args.inputs, &args.output, &args.kind, args.force);
    said(
        &args.output,
        |faults| train_file::shuffle(&target, args.seed, args.memory << 20, faults),
        |done, _| {
            format!(
                "{} records shuffled ({} buckets)",
                done.records, done.buckets
            )
        },
    )
}

pub fn uniq(args: TrainUniqArgs) -> u8 {
    let target = target(&args.inputs, &args.output, &args.kind, args.force);
    let how = Uniq {
        by: match args.by {
            TrainUniqBy::Record => dedup::By::Record,
            TrainUniqBy::Position => dedup::By::Position,
        },
        flip_fold: args.flip_fold,
    };
    said(
        &args.output,
        |faults| train_file::uniq(&target, how, faults),
        |done, _| {
            format!(
                "{} of {} records kept, {} repeats left out",
                done.kept,
                done.read,
                done.read - done.kept
            )
        },
    )
}

pub fn filter(args: TrainFilterArgs) -> u8 {
    let target = target(&args.inputs, &args.output, &args.kind, args.force);
    let tests = filter::Tests {
        max_abs_eval: args.max_abs_eval,
        drop_draws: args.drop_draws,
        min_ply: args.min_ply,
    };
    said(
        &args.output,
        |faults| train_file::filter(&target, &tests, faults),
        |done, _| format!("{} of {} records kept", done.kept, done.read),
    )
}

pub fn convert(args: TrainConvertArgs) -> u8 {
    let inputs = std::slice::from_ref(&args.input);
    let target = target(inputs, &args.output, &args.kind, args.force);
    let layout = match args.move16 {
        TrainMove16::Yaneuraou => Layout::YaneuraOu,
        TrainMove16::Cshogi => Layout::Apery,
    };
    said(
        &args.output,
        |faults| train_file::convert(&target, args.to, layout, faults),
        |done, faults| {
            for loss in &done.losses {
                eprintln!("{}: warning: {loss}", args.output.display());
            }
            for e in &done.errors {
                faults.others += 1;
                eprintln!("error: {}: {e}", args.input.display());
            }
            format!(
                "{} of {} records written as {}",
                done.written,
                done.read,
                convert::name(args.to)
            )
        },
    )
}

pub fn split(args: TrainSplitArgs) -> u8 {
    let inputs = std::slice::from_ref(&args.input);
    let target = target(inputs, Path::new(&args.output), &args.kind, args.force);
    let how = match (args.positions, args.parts) {
        (Some(n), _) => split::How::Positions(n),
        (_, Some(n)) => split::How::Parts(n),
        (None, None) => return fatal("give --positions N or --parts N"),
    };
    said(
        &args.input,
        |faults| train_file::split(&target, how, faults),
        |done, _| {
            format!(
                "{} records in {} parts ({} positions)",
                done.records,
                done.names.len(),
                done.positions
            )
        },
    )
}

pub fn check(args: TrainCheckArgs) -> u8 {
    let kinds = match train_file::check_kinds(&args.inputs, args.kind.format) {
        Ok(kinds) => kinds,
        Err(e) => return fatal(e),
    };
    let mut code = 0;
    for (path, &data) in args.inputs.iter().zip(&kinds) {
        let mut listing = Listing::default();
        let mut text = String::new();
        let checked = check::check(path, data, &mut |fault| {
            if listing.take(&fault) == Listed::Yes {
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
        text.push_str(&checked.summary(path));
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
