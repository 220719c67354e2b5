//! `kifconv INPUTS… --to FORMAT`: conversion, or training data with a
//! training target. Its arguments checked into a plan and a job.

use super::args::{ConvertArgs, CsaVersion, TrainingArgs, Uniq};
use super::fatal;
use super::games;
use super::run::Face;
use crate::batch::jobs::convert::Convert;
use crate::batch::jobs::training::{self, Training};
use crate::batch::jobs::Reading;
use crate::batch::{Destination, Overwrite};
use crate::format::names::Source;
use crate::training::uniq::Repeats;
use crate::training::Data;
use crate::write::Positions;
use crate::Target;
use std::io::IsTerminal;
use std::path::PathBuf;

/// The job a conversion runs.
pub(super) enum Work {
    Convert(Convert),
    Training(Training),
}

/// Runs the conversion; returns the exit code.
pub fn run(args: ConvertArgs) -> u8 {
    let (face, work) = match checked(args) {
        Ok(checked) => checked,
        Err(message) => return fatal(message),
    };
    let stream = face.plan.destination == Destination::Stream;
    let mut stdout = std::io::stdout().lock();
    match work {
        Work::Convert(job) => match face.run(&job, &mut stdout) {
            Ok((summary, left_out)) => {
                if face.verbosity != super::run::Verbosity::Quiet && !left_out.is_empty() {
                    eprintln!("{}", games::left_out_line(&left_out));
                }
                super::run::code(&summary)
            }
            Err(code) => code,
        },
        Work::Training(job) => {
            if stream && stdout.is_terminal() {
                eprintln!(
                    "error: --to {} writes binary data; redirect standard output to a file or a pipe, or give -o DIR",
                    job.data.target().extension()
                );
                return 2;
            }
            match face.run(&job, &mut stdout) {
                Ok((summary, counts)) => {
                    if face.verbosity != super::run::Verbosity::Quiet {
                        eprintln!("{}", training::summary_line(&counts));
                    }
                    super::run::code(&summary)
                }
                Err(code) => code,
            }
        }
    }
}

/// Checks the arguments into a plan and a job; a usage error says what is
/// wrong.
pub(super) fn checked(args: ConvertArgs) -> Result<(Face, Work), String> {
    let mut inputs = args.inputs;
    if inputs.is_empty() {
        if std::io::stdin().is_terminal() {
            return Err(
                "no input: give files, folders or archives, or `-` for standard input (see --help)"
                    .into(),
            );
        }
        inputs.push(PathBuf::from("-"));
    }
    if (args.ply.is_some() || args.all_plies) && args.to != Target::Sfen {
        return Err("--ply and --all-plies go with --to sfen".into());
    }
    let to_files = args.output.as_deref().filter(|dir| dir.as_os_str() != "-");
    if args.skip_existing && to_files.is_none() {
        return Err("--skip-existing goes with -o DIR (outputs written to files)".into());
    }
    let mut face = args.batch.into_face(inputs)?;
    if let Some(dir) = to_files {
        face.plan.destination = Destination::Folder(dir.to_path_buf());
    }
    face.plan.overwrite = if args.force {
        Overwrite::Replace
    } else if args.skip_existing {
        Overwrite::SkipExisting
    } else {
        Overwrite::Refuse
    };
    let (from, from_data) = match args.from {
        None => (None, None),
        Some(Source::Record(format)) => (Some(format), None),
        Some(Source::Training(data)) => (None, Some(data)),
    };
    let reading = Reading {
        from,
        from_data,
        encoding: args.encoding,
        mainline_only: args.mainline,
        flip: args.flip,
    };
    if let Some(data) = Data::of(args.to) {
        return Ok((
            face,
            Work::Training(training_job(args.training, data, reading)?),
        ));
    }
    let training_only = [
        ("--max-eval", args.training.max_eval.is_some()),
        ("--uniq", args.training.uniq.is_some()),
        ("--flip-fold", args.training.flip_fold),
    ];
    if let Some((option, _)) = training_only.iter().find(|(_, given)| *given) {
        return Err(format!("{option} goes with --to hcpe, hcpe3 or psv"));
    }
    if let Some(encoding) = args.out_encoding {
        args.to
            .allows(encoding)
            .map_err(|e| format!("--out-encoding: {e}"))?;
    }
    let filter = games::filter(args.training.games, None)?;
    let options = crate::write::Options {
        encoding: Some(args.out_encoding.unwrap_or(args.to.encoding())),
        positions: match (args.ply, args.all_plies) {
            (Some(n), _) => Positions::AfterPlies(n),
            (None, true) => Positions::All,
            (None, false) => Positions::Last,
        },
        csa_version: match args.csa_version {
            CsaVersion::V3 => crate::format::csa::write::Version::V3_0,
            CsaVersion::V2 => crate::format::csa::write::Version::V2_2,
        },
        lossy: args.lossy,
    };
    let job = Convert {
        target: args.to,
        reading,
        options,
        filter,
    };
    Ok((face, Work::Convert(job)))
}

/// The training job for `data`: the filters of dlshogi's scripts, and
/// combinations that cannot be refused.
fn training_job(args: TrainingArgs, data: Data, reading: Reading) -> Result<Training, String> {
    if args.flip_fold && args.uniq != Some(Uniq::Positions) {
        return Err("--flip-fold goes with --uniq=positions".into());
    }
    if args.uniq == Some(Uniq::Positions) && data.whole_games() {
        return Err(
            "--uniq=positions would drop positions from inside games, which hcpe3 keeps whole; use --uniq=games"
                .into(),
        );
    }
    let mut filter = games::filter(args.games, args.max_eval)?.unwrap_or_default();
    filter.max_eval = args.max_eval;
    // As dlshogi's scripts: csa_to_hcpe3 spares a %KACHI game from the
    // mate-score cut, csa_to_hcpe does not.
    filter.spare_entering_king = data == Data::Hcpe3;
    Ok(Training {
        data,
        reading,
        filter,
        repeats: args.uniq.map(|u| match u {
            Uniq::Games => Repeats::Games,
            Uniq::Positions => Repeats::Positions,
        }),
        flip_fold: args.flip_fold,
    })
}
