//! `kifconv train shuffle|split|uniq|filter|convert|check`: the arguments
//! of the training-file toolkit turned into its options, and its faults
//! and summaries said. The work, the inputs' kind and the outputs'
//! placing are the library's ([`crate::batch::jobs::train_file`]).

use super::args::{
    TrainCheckArgs, TrainConvertArgs, TrainFilterArgs, TrainInputs, TrainMove16, TrainShuffleArgs,
    TrainSplitArgs, TrainUniqArgs, TrainUniqBy,
};
use crate::batch::jobs::train_file::{self, Target, Uniq};
use crate::training::move16::Layout;
use crate::training::toolkit::{
    check, convert, dedup, filter, split, Fault, Listed, Listing, LISTED,
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

/// Says `summary` (or the error) of a run whose faults `said` counted.
fn said(run: Result<String, String>, said: &Said) -> u8 {
    match run {
        Ok(summary) => {
            eprintln!("{summary}");
            said.code()
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

pub fn shuffle(args: TrainShuffleArgs) -> u8 {
    let target = target(&args.inputs, &args.output, &args.kind, args.force);
    let mut faults = Said::default();
    let run = train_file::shuffle(&target, args.seed, args.memory << 20, &mut |f| {
        faults.say(f)
    })
    .map(|done| {
        format!(
            "{}: {} records shuffled ({} buckets)",
            args.output.display(),
            done.records,
            done.buckets
        )
    });
    said(run, &faults)
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
    let mut faults = Said::default();
    let run = train_file::uniq(&target, how, &mut |f| faults.say(f)).map(|done| {
        format!(
            "{}: {} of {} records kept, {} repeats left out",
            args.output.display(),
            done.kept,
            done.read,
            done.read - done.kept
        )
    });
    said(run, &faults)
}

pub fn filter(args: TrainFilterArgs) -> u8 {
    let target = target(&args.inputs, &args.output, &args.kind, args.force);
    let tests = filter::Tests {
        max_abs_eval: args.max_abs_eval,
        drop_draws: args.drop_draws,
        min_ply: args.min_ply,
    };
    let mut faults = Said::default();
    let run = train_file::filter(&target, &tests, &mut |f| faults.say(f)).map(|done| {
        format!(
            "{}: {} of {} records kept",
            args.output.display(),
            done.kept,
            done.read
        )
    });
    said(run, &faults)
}

pub fn convert(args: TrainConvertArgs) -> u8 {
    let inputs = std::slice::from_ref(&args.input);
    let target = target(inputs, &args.output, &args.kind, args.force);
    let layout = match args.move16 {
        TrainMove16::Yaneuraou => Layout::YaneuraOu,
        TrainMove16::Cshogi => Layout::Apery,
    };
    let mut faults = Said::default();
    let run = train_file::convert(&target, args.to, layout, &mut |f| faults.say(f)).map(|done| {
        for loss in &done.losses {
            eprintln!("{}: warning: {loss}", args.output.display());
        }
        for e in &done.errors {
            faults.others += 1;
            eprintln!("error: {}: {e}", args.input.display());
        }
        format!(
            "{}: {} of {} records written as {}",
            args.output.display(),
            done.written,
            done.read,
            convert::name(args.to)
        )
    });
    said(run, &faults)
}

pub fn split(args: TrainSplitArgs) -> u8 {
    let inputs = std::slice::from_ref(&args.input);
    let target = target(inputs, Path::new(&args.output), &args.kind, args.force);
    let how = match (args.positions, args.parts) {
        (Some(n), _) => split::How::Positions(n),
        (_, Some(n)) => split::How::Parts(n),
        (None, None) => {
            return said(
                Err("give --positions N or --parts N".into()),
                &Said::default(),
            )
        }
    };
    let mut faults = Said::default();
    let run = train_file::split(&target, how, &mut |f| faults.say(f)).map(|done| {
        format!(
            "{}: {} records in {} parts ({} positions)",
            args.input.display(),
            done.records,
            done.names.len(),
            done.positions
        )
    });
    said(run, &faults)
}

pub fn check(args: TrainCheckArgs) -> u8 {
    let kinds = match train_file::check_kinds(&args.inputs, args.kind.format) {
        Ok(kinds) => kinds,
        Err(e) => return said(Err(e), &Said::default()),
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
