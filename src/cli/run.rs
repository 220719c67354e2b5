//! How the command runs a batch and says how it went: the plan's walk from
//! the shared flags ([`BatchArgs`]), messages to standard error as each
//! input is taken, the progress line, the `--report`, the summary line.

use super::args::BatchArgs;
use super::report::{self, Report};
use crate::batch::{self, Filter, InputOutcome, InputRoots, Job, Limits, Observer, Plan, Status};
use crate::batch::{Stop, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Whether to show progress, a summary and warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// Progress and warnings; the summary line when standard error is a
    /// terminal.
    Normal,
    /// Errors only.
    Quiet,
    /// As normal, and the summary line wherever standard error goes.
    Verbose,
}

/// The shared flags, checked: the plan (its inputs and walk), and how the
/// run is said.
pub struct Face {
    pub plan: Plan,
    pub verbosity: Verbosity,
    pub report: Option<PathBuf>,
}

impl BatchArgs {
    /// The plan for `inputs` walked as these flags say; a usage error says
    /// what is wrong.
    pub fn into_face(self, inputs: Vec<PathBuf>) -> Result<Face, String> {
        if self.jobs == Some(0) {
            return Err("--jobs must be at least 1".into());
        }
        let mut plan = Plan::new(inputs);
        plan.filter = Filter::new(&self.glob)?;
        plan.follow = self.follow;
        plan.hidden = self.hidden;
        plan.limits = Limits {
            max_entry: self.max_input_size,
            max_total: self.max_total_size,
        };
        if let Some(jobs) = self.jobs {
            plan.jobs = jobs;
        }
        Ok(Face {
            plan,
            verbosity: if self.quiet {
                Verbosity::Quiet
            } else if self.verbose {
                Verbosity::Verbose
            } else {
                Verbosity::Normal
            },
            report: self.report,
        })
    }
}

impl Face {
    /// Runs `job` on the plan, its stream going to `out`: each input's
    /// messages printed as it is taken, the report written, the summary
    /// line said. A run that could not be made is said and is `Err` with
    /// the exit code (2).
    pub fn run<J: Job>(&self, job: &J, out: &mut dyn Write) -> Result<(Summary, J::Finished), u8> {
        let started = Instant::now();
        // The report is written like a shell redirection, and never over an
        // input: refused before any work.
        let report_path = self.report.as_deref();
        if let Some(path) = report_path.filter(|p| p.as_os_str() != "-") {
            if InputRoots::new(&self.plan.inputs).contains(path) {
                eprintln!(
                    "error: --report {}: that is one of the inputs; refused",
                    path.display()
                );
                return Err(2);
            }
        }
        let report = match report_path.map(Report::create).transpose() {
            Ok(report) => report,
            Err(e) => {
                let path = report_path.unwrap_or(Path::new("")).display();
                eprintln!("error: cannot write the report {path}: {e}");
                return Err(2);
            }
        };
        let progress = progress_bar(self.verbosity, &self.plan);
        let mut printer = Printer {
            verbosity: self.verbosity,
            shown: !progress.is_hidden(),
            progress: &progress,
            report,
        };
        let ran = batch::run(&self.plan, job, out, &mut printer);
        progress.finish_and_clear();
        let report = printer.report;
        let (summary, finished) = match ran {
            Ok(done) => done,
            Err(stop) => {
                if let Some(report) = report {
                    report.discard();
                }
                match stop {
                    Stop::Fatal(e) => eprintln!("error: {e}"),
                    Stop::Output(e) => eprintln!("error: cannot write to standard output: {e}"),
                    Stop::Cancelled => eprintln!("error: cancelled"),
                }
                return Err(2);
            }
        };
        if let Some(report) = report {
            if let Err(e) = report.finish() {
                let path = report_path.unwrap_or(Path::new("")).display();
                eprintln!("error: cannot write the report {path}: {e}");
                return Err(2);
            }
        }
        if self.verbosity != Verbosity::Quiet {
            self.say(&summary, started);
        }
        Ok((summary, finished))
    }

    /// The run's summary, for a person watching it or asked for.
    fn say(&self, summary: &Summary, started: Instant) {
        if self.verbosity == Verbosity::Verbose || std::io::stderr().is_terminal() {
            let seconds = started.elapsed().as_secs_f64();
            let skipped = if summary.skipped > 0 {
                format!(", {} skipped", summary.skipped)
            } else {
                String::new()
            };
            eprintln!(
                "{} files, {} games, {} moves, {} warnings, {} failed{skipped} in {:.2} s ({:.0} games/s)",
                summary.files,
                summary.games,
                summary.moves,
                summary.warnings,
                summary.failed,
                seconds,
                summary.games as f64 / seconds.max(1e-9)
            );
        }
        if summary.existing > 0 {
            let (inputs, their) = if summary.existing == 1 {
                ("input", "its")
            } else {
                ("inputs", "their")
            };
            eprintln!(
                "{} {inputs} skipped: {their} outputs exist already (--skip-existing)",
                summary.existing
            );
        }
    }
}

/// The exit code of a run that was made: 1 when some input failed.
pub fn code(summary: &Summary) -> u8 {
    u8::from(summary.failed > 0)
}

/// Says each input's messages as it is taken, moves the progress line, and
/// writes the report's lines.
struct Printer<'a> {
    verbosity: Verbosity,
    /// Whether the progress line is shown: a hidden one is not counted on
    /// (its `inc` reads the clock).
    shown: bool,
    progress: &'a ProgressBar,
    report: Option<Report>,
}

impl Observer for Printer<'_> {
    fn input(&mut self, outcome: InputOutcome) {
        if self.shown && outcome.status != Status::Skipped {
            self.progress.inc(1);
        }
        let quiet = self.verbosity == Verbosity::Quiet;
        // The line is cleared and redrawn only when there is something to
        // say.
        if (!quiet && !outcome.warnings.is_empty()) || !outcome.errors.is_empty() {
            self.progress.suspend(|| {
                let mut stderr = std::io::stderr().lock();
                if !quiet {
                    for w in &outcome.warnings {
                        let _ = writeln!(stderr, "{w}");
                    }
                }
                for e in &outcome.errors {
                    let _ = writeln!(stderr, "{}", e.text);
                }
            });
        }
        if let Some(report) = self.report.as_mut() {
            let error = match outcome.status {
                Status::Skipped => outcome.warnings.first().map_or("", |w| skipped_reason(w)),
                Status::Existing => "its outputs exist (--skip-existing)",
                _ => outcome.errors.first().map_or("", |e| e.first_line()),
            };
            report.line(report::Line {
                path: &outcome.path,
                status: outcome.status.name(),
                games: outcome.games,
                moves: outcome.moves,
                warnings: outcome.warnings.len(),
                error,
                outputs: &outcome.outputs,
            });
        }
    }
}

/// The reason of a skipped input's warning (`path: warning: reason`).
fn skipped_reason(warning: &str) -> &str {
    warning
        .split_once(": warning: ")
        .map_or(warning, |(_, why)| why)
}

/// The progress line on a terminal: files done, the rate, the time taken;
/// with the total and the time left when the inputs say how many there are
/// (files, zip archives: [`batch::known_total`]). It redraws at most ten
/// times a second whatever the file count.
fn progress_bar(verbosity: Verbosity, plan: &Plan) -> ProgressBar {
    let show = verbosity != Verbosity::Quiet && std::io::stderr().is_terminal();
    if !show {
        return ProgressBar::hidden();
    }
    let total = batch::known_total(plan);
    let bar = ProgressBar::with_draw_target(
        total.map(|n| n as u64),
        ProgressDrawTarget::stderr_with_hz(10),
    );
    let template = match total {
        Some(_) => "{bar:30} {human_pos}/{human_len} files  {rate}  {elapsed}, {eta} left",
        None => "{spinner} {human_pos} files  {rate}  {elapsed}",
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let rate = state.per_sec();
                    let _ = if rate >= 100.0 {
                        write!(w, "{rate:.0} files/s")
                    } else {
                        write!(w, "{rate:.1} files/s")
                    };
                },
            ),
    );
    bar
}
