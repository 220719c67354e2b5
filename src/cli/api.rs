//! The batch runner for programs (the Python package): the command line's
//! own options, given as an argument vector and read by the same parser,
//! run with what the command would print to standard output and its
//! `--report` kept in memory for the caller instead.
//!
//! Conversion (`kifconv INPUTS… --to …`) and `kifconv book build …` are
//! run this way; error messages about failed inputs still go to standard
//! error as the command says them (with `--quiet`, warnings do not), and
//! each input's first error is in its [`Input`] too.

use super::args::{BookCommand, Cli, Command};
use clap::Parser;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// One input of a run, as the command's `--report` has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The input as messages name it (an archive entry as `archive.zip:entry`).
    pub path: String,
    /// `ok`, `partial` (some games failed, the good ones were written),
    /// `failed` or `skipped`.
    pub status: String,
    /// The games read.
    pub games: usize,
    /// Their mainline moves.
    pub moves: usize,
    /// The warnings said about it.
    pub warnings: usize,
    /// Its first error, located (`path:line:column: error: …`), or empty.
    pub error: String,
    /// The files written for it (with an output folder).
    pub outputs: Vec<PathBuf>,
}

/// What a run gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The command's exit code: 0 when every input converted, 1 when some
    /// failed, 2 when the run could not be made (the reason went to
    /// standard error).
    pub code: u8,
    /// What the command would have printed to standard output: the
    /// converted records when no output folder is given.
    pub output: Vec<u8>,
    /// Every input, in input order (none for `book build`, whose inputs
    /// the command does not report).
    pub inputs: Vec<Input>,
}

/// Numbers the reports of runs made at once by one process.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// Runs the command with `args`, its arguments without the program's name
/// (`["games/", "--to", "usi", "-j", "2"]`, or `["book", "build", …]`).
/// A usage error (an unknown option, a bad value, no input) is `Err` with
/// the parser's message; so is a subcommand other than conversion and
/// `book build`, which programs reach through the library itself.
///
/// ```no_run
/// let run = kifconv::cli::api::run(["games/", "--to", "usi", "--quiet"]).unwrap();
/// assert_eq!(run.code, 0);
/// print!("{}", String::from_utf8_lossy(&run.output));
/// ```
pub fn run<I, T>(args: I) -> Result<Run, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut output = Vec::new();
    let run = run_to(args, &mut output)?;
    Ok(Run { output, ..run })
}

/// [`run`] with what the command would print to standard output written
/// to `out` as it goes (training data straight to a file), not kept in
/// the [`Run`].
pub fn run_to<I, T>(args: I, out: impl std::io::Write) -> Result<Run, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let argv = std::iter::once(OsString::from("kifconv")).chain(args.into_iter().map(Into::into));
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string().trim_end().to_string())?;
    match cli.command {
        None if cli.convert.inputs.is_empty() => {
            Err("no input: give files, folders or archives".into())
        }
        None => {
            let mut config = cli.convert.into_config()?;
            if config.report.is_some() {
                return Err("--report: a program gets the report in the run's inputs".into());
            }
            let report = std::env::temp_dir().join(format!(
                "kifconv-{}-{}.tsv",
                std::process::id(),
                RUNS.fetch_add(1, Ordering::Relaxed)
            ));
            config.report = Some(report.clone());
            let code = super::batch::run_to(&config, out);
            let text = std::fs::read_to_string(&report).unwrap_or_default();
            let _ = std::fs::remove_file(&report);
            Ok(Run {
                code,
                output: Vec::new(),
                inputs: parse_report(&text),
            })
        }
        Some(Command::Book {
            action: BookCommand::Build(args),
        }) => Ok(Run {
            code: super::book::build(args),
            ..Run::default()
        }),
        Some(_) => Err("only conversion and `book build` run this way".into()),
    }
}

/// The inputs of a report's text (see [`super::report`]): its header line
/// skipped, a line per input.
fn parse_report(text: &str) -> Vec<Input> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let mut next = || fields.next().unwrap_or("");
            let path = next().to_string();
            let status = next().to_string();
            let games = next().parse().ok()?;
            let moves = next().parse().ok()?;
            let warnings = next().parse().ok()?;
            let error = next().to_string();
            let outputs = next()
                .split(" | ")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
                .collect();
            Some(Input {
                path,
                status,
                games,
                moves,
                warnings,
                error,
                outputs,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_line_per_input() {
        let text = "path\tstatus\tgames\tmoves\twarnings\tfirst_error\toutputs\n\
                    a.kif\tok\t1\t80\t0\t\tout/a.usi | out/a-2.usi\n\
                    b.csa\tfailed\t0\t0\t0\tb.csa:3:1: error: no piece\t\n";
        let inputs = parse_report(text);
        assert_eq!(inputs.len(), 2);
        assert_eq!(inputs[0].moves, 80);
        assert_eq!(
            inputs[0].outputs,
            [PathBuf::from("out/a.usi"), PathBuf::from("out/a-2.usi")]
        );
        assert_eq!(inputs[1].status, "failed");
        assert_eq!(inputs[1].error, "b.csa:3:1: error: no piece");
        assert!(inputs[1].outputs.is_empty());
    }
}
