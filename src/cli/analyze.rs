//! `kifconv analyze INPUTS --engine CMD --to FORMAT`: conversion with an
//! engine's analysis in the comments. Its arguments checked into a plan and
//! the analysis job.

use super::args::{AnalyzeArgs, EngineArgs};
use super::convert::{self, Work};
use super::fatal;
use super::run::{Face, Verbosity};
use crate::batch::jobs::analyze::{Analyze, Counts, EngineCommand};
use crate::training::eval::Dialect;
use crate::usi::{Analysis, Limit, Timeouts};
use crate::Target;
use std::time::Duration;

/// Runs the analysis; returns the exit code.
pub fn run(args: AnalyzeArgs) -> u8 {
    let (face, job) = match checked(args) {
        Ok(checked) => checked,
        Err(message) => return fatal(message),
    };
    let mut stdout = std::io::stdout().lock();
    match face.run(&job, &mut stdout) {
        Ok((summary, (left_out, counts))) => {
            if face.verbosity != Verbosity::Quiet {
                if !left_out.is_empty() {
                    eprintln!("{}", super::games::left_out_line(&left_out));
                }
                eprintln!("{}", counts_line(&counts));
            }
            let code = super::run::code(&summary);
            if counts.failed_games > 0 {
                code.max(1)
            } else {
                code
            }
        }
        Err(code) => code,
    }
}

/// The engine as the run starts it: its command, options (`extra` after
/// the command line's) and deadlines.
pub fn engine_command(args: &EngineArgs, extra: &[(String, String)]) -> EngineCommand {
    let mut options = args.options.clone();
    options.extend(extra.iter().cloned());
    EngineCommand {
        command: args.engine.clone(),
        options,
        timeouts: Timeouts {
            handshake: args.timeout.min(Duration::from_secs(60)),
            ready: args.timeout,
            search: args.timeout,
            ..Timeouts::default()
        },
    }
}

fn checked(args: AnalyzeArgs) -> Result<(Face, Analyze), String> {
    let target = args.convert.to;
    let dialect = match target {
        Target::Csa => Dialect::Floodgate,
        Target::Kif | Target::Kifu | Target::Ki2 | Target::Ki2u | Target::Jkf => Dialect::ShogiHome,
        other => {
            return Err(format!(
                "--to {}: an analysis is written in comments; use --to kif, kifu, ki2, ki2u, csa or jkf",
                other.extension()
            ))
        }
    };
    let limit = match (args.nodes, args.movetime, args.depth) {
        (_, Some(ms), _) => Limit::MoveTime(Duration::from_millis(ms)),
        (_, _, Some(depth)) => Limit::Depth(depth),
        (nodes, _, _) => Limit::Nodes(nodes.unwrap_or(100_000)),
    };
    if args.multipv == 0 {
        return Err("--multipv must be at least 1".into());
    }
    let multipv = (args.multipv > 1).then(|| ("MultiPV".to_string(), args.multipv.to_string()));
    let engine = engine_command(&args.engine, multipv.as_slice());
    let engines = args.engine.engines as usize;
    let (mut face, work) = convert::checked(args.convert)?;
    let Work::Convert(convert) = work else {
        unreachable!("the target is a record format");
    };
    // One worker per engine: each takes an engine for an input's games.
    face.plan.jobs = engines;
    let analysis = Analysis {
        limit,
        variations: args.variations,
        dialect,
    };
    Ok((face, Analyze::new(convert, engine, engines, analysis)))
}

/// The summary of what the engines did.
fn counts_line(counts: &Counts) -> String {
    let a = &counts.analysed;
    let mut line = format!("analysed: {} positions searched", a.searched);
    if a.mated > 0 {
        line.push_str(&format!(", {} mated (no search)", a.mated));
    }
    if a.without_value > 0 {
        line.push_str(&format!(", {} searches without a value", a.without_value));
    }
    if counts.failed_games > 0 {
        line.push_str(&format!(", {} games failed", counts.failed_games));
    }
    line
}
