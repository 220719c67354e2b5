//! `kifconv tsume extract`: mate problems mined from games, over the batch
//! library's [`TsumeExtract`] job.

use super::args::{TsumeExtractArgs, TsumeOutput};
use super::fatal;
use crate::batch::jobs::tsume_extract::TsumeExtract;
use crate::batch::{Destination, Overwrite};
use crate::tsume::{Limits, Mining};

/// `kifconv tsume extract INPUT... [-o DIR]`: the problems as tsume KIF,
/// into DIR (one file each) or to standard output, then a line of counts
/// on standard error (games read, positions tried, mates found, problems
/// written). Exit 0, 1 when an input or game could not be read, 2 for a
/// usage error or a run that could not be made.
pub fn extract(args: TsumeExtractArgs) -> u8 {
    let target = match args.to {
        TsumeOutput::Kif => crate::Target::Kif,
        TsumeOutput::Kifu => crate::Target::Kifu,
        TsumeOutput::Sfen => return fatal("tsume extract writes KIF: --to kif or --to kifu"),
    };
    if args.last == 0 {
        return fatal("--last must be at least 1");
    }
    let job = TsumeExtract {
        mining: Mining {
            last: args.last,
            limits: Limits {
                depth: args.depth,
                nodes: args.nodes,
            },
        },
        target,
    };
    let to_files = args
        .output
        .as_deref()
        .filter(|dir| dir.as_os_str() != "-")
        .map(|dir| dir.to_path_buf());
    let mut face = match args.batch.into_face(args.files) {
        Ok(face) => face,
        Err(message) => return fatal(message),
    };
    if let Some(dir) = to_files {
        face.plan.destination = Destination::Folder(dir);
    }
    face.plan.overwrite = if args.force {
        Overwrite::Replace
    } else {
        Overwrite::Refuse
    };
    let quiet = face.verbosity == super::run::Verbosity::Quiet;
    let mut stdout = std::io::stdout().lock();
    match face.run(&job, &mut stdout) {
        Ok((summary, counts)) => {
            if !quiet {
                eprintln!(
                    "tsume extract: {} games read, {} positions tried, {} mates found ({} unsound once reduced), {} problems written ({} repeats left out)",
                    counts.games,
                    counts.positions,
                    counts.mates,
                    counts.unsound,
                    counts.problems,
                    counts.repeats
                );
            }
            super::run::code(&summary)
        }
        Err(code) => code,
    }
}
