//! Checking mate problems (`tsume check`): each problem of each input
//! solved on a worker, its report written in input order, the verdicts
//! gathered.

use crate::batch::job::{Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::plan::Plan;
use crate::decode::EncodingChoice;
use crate::read::{read_bytes, Read};
use crate::record::Record;
use crate::tsume::{self, jsa_moves, Limits, Soundness};

/// Checks every problem of every input within `limits`.
#[derive(Clone, Copy, Debug)]
pub struct TsumeCheck {
    /// The depth and node budget of each search.
    pub limits: Limits,
    /// Keep each problem's verdict and report in the result (for a
    /// program; the command prints them instead).
    pub keep: bool,
}

/// One problem checked.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The input it came from, as messages name it.
    pub path: String,
    /// Its number in the input (from 1).
    pub game: usize,
    /// The verdict.
    pub soundness: Soundness,
    /// The report's lines below the verdict (shortest mate, answer, …).
    pub report: String,
}

/// The verdicts so far: whether a problem was unsound, and whether one
/// could not be told.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    /// A problem was unsound.
    pub unsound: bool,
    /// A problem's soundness could not be told (budget, depth).
    pub uncertain: bool,
    /// Every problem, in input order, when the job keeps them.
    pub checked: Vec<Checked>,
}

/// A soundness's name in reports.
pub fn verdict_name(soundness: Soundness) -> &'static str {
    match soundness {
        Soundness::Sound => "sound",
        Soundness::Flawed => "sound with flaws",
        Soundness::Unsound => "unsound",
        Soundness::Unknown => "unknown",
        Soundness::NotProven => "not proven",
    }
}

impl Job for TsumeCheck {
    type Part = Vec<Checked>;
    type State = Verdicts;
    type Finished = Verdicts;

    fn extension(&self) -> &str {
        "txt"
    }

    fn start(&self, _plan: &Plan) -> Result<Verdicts, String> {
        Ok(Verdicts::default())
    }

    /// A report per problem (game) of the input, in its order.
    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Vec<Checked>, Tally) {
        let mut checked = Vec::new();
        let read = match read_bytes(bytes, source.relative, None, EncodingChoice::Auto) {
            Ok(read) => read,
            Err(e) => return (checked, Tally::failed(Problem::read(source.name, e))),
        };
        let mut tally = Tally::default();
        let mut out = String::new();
        for (game, record) in readable(&read, source.name, &mut tally) {
            let report = tsume::check_record(record, self.limits);
            let soundness = report.soundness();
            let mut text = String::new();
            write_report(&mut text, &record.start, &report, self.limits);
            out.push_str(&format!(
                "{}: game {game}: {}\n{text}",
                source.name,
                verdict_name(soundness)
            ));
            checked.push(Checked {
                path: source.name.to_string(),
                game,
                soundness,
                report: text,
            });
        }
        if !out.is_empty() {
            tally.outputs.push(out.into_bytes());
        }
        (checked, tally)
    }

    fn take(
        &self,
        all: &mut Verdicts,
        _: Source<'_>,
        these: Vec<Checked>,
        _: &mut Tally,
    ) -> Result<(), String> {
        for checked in these {
            match checked.soundness {
                Soundness::Unsound => all.unsound = true,
                Soundness::Unknown | Soundness::NotProven => all.uncertain = true,
                Soundness::Sound | Soundness::Flawed => {}
            }
            if self.keep {
                all.checked.push(checked);
            }
        }
        Ok(())
    }

    fn finish(&self, verdicts: Verdicts) -> Result<Verdicts, String> {
        Ok(verdicts)
    }
}

/// The games of one input that could be read, with their numbers (from
/// 1), counted in `tally` with their moves and warnings; the error of each
/// game that could not be read goes to `tally`.
pub(crate) fn readable<'a>(
    read: &'a Read,
    name: &str,
    tally: &mut Tally,
) -> Vec<(usize, &'a Record)> {
    let mut games = Vec::new();
    for (game, record) in numbered(read) {
        match record {
            Ok(record) => {
                tally.games += 1;
                tally.moves += record.tree.mainline_moves().count();
                for warning in &record.warnings {
                    tally.warnings.push(warning.render(name));
                }
                games.push((game, record));
            }
            Err(e) => tally.errors.push(Problem::read(name, e.clone())),
        }
    }
    games
}

/// The games of one input in input order with their numbers (from 1):
/// those read, and the errors of those that could not be (each error
/// knows its game's number; the games read fill the numbers left).
fn numbered(read: &Read) -> Vec<(usize, Result<&Record, &crate::Error>)> {
    let mut failed: Vec<(usize, &crate::Error)> = Vec::new();
    for error in &read.errors {
        let number = error.location.game.map_or(usize::MAX, |(n, _)| n);
        failed.push((number, error));
    }
    let mut games = Vec::with_capacity(read.records.len() + failed.len());
    let mut records = read.records.iter();
    let mut errors = failed.into_iter().peekable();
    let mut number = 1;
    loop {
        if let Some(&(n, error)) = errors.peek() {
            if n <= number {
                games.push((number, Err(error)));
                errors.next();
                number += 1;
                continue;
            }
        }
        match records.next() {
            Some(record) => games.push((number, Ok(record))),
            None => break,
        }
        number += 1;
    }
    // Errors without a number (a reader that gave none) come last.
    for (_, error) in errors {
        games.push((number, Err(error)));
        number += 1;
    }
    games
}

/// One problem's report, below its verdict line: a line each, indented.
fn write_report(out: &mut String, start: &crate::Position, report: &tsume::Report, limits: Limits) {
    use std::fmt::Write;
    for problem in report.problems() {
        let _ = writeln!(out, "  unsound: {problem}");
    }
    for flaw in report.flaws() {
        let _ = writeln!(out, "  flaw: {flaw}");
    }
    for note in report.notes() {
        let _ = writeln!(out, "  note: {note}");
    }
    if report.unknown {
        let _ = writeln!(
            out,
            "  unknown: the budget of {} nodes ran out (--nodes)",
            limits.nodes
        );
        return;
    }
    if report.length.is_none() && !report.no_mate {
        let _ = writeln!(
            out,
            "  not proven: no mate within {} plies (--depth)",
            limits.depth
        );
    }
    match (report.length, report.rules_length) {
        (Some(n), Some(r)) if n == r => {
            let _ = writeln!(out, "  shortest mate: {n}");
        }
        (Some(n), Some(r)) => {
            let _ = writeln!(
                out,
                "  shortest mate: {n} ({r} by the rules, counting futile interpositions)"
            );
        }
        _ => {
            let _ = writeln!(out, "  shortest mate: none");
            return;
        }
    }
    let label = if report.recorded {
        "answer"
    } else {
        "main line (no answer recorded)"
    };
    let mut moves = jsa_moves(start, &report.answer).join(" ");
    if moves.is_empty() {
        moves = "(no legal move)".to_string();
    }
    let result = if let Some(illegal) = &report.illegal {
        format!("then move {} is illegal", illegal.ply)
    } else if report.answer_mates {
        format!("mates in {}", report.answer_length)
    } else {
        "does not mate".to_string()
    };
    let _ = writeln!(out, "  {label}: {moves}: {result}");
    if report.recorded && report.main_line != report.answer && !report.main_line.is_empty() {
        let _ = writeln!(
            out,
            "  main line: {}",
            jsa_moves(start, &report.main_line).join(" ")
        );
    }
    if !report.futile.is_empty() {
        // As a composer says it: which drops, and that they do not count.
        let japanese = jsa_moves(start, &report.answer);
        let each: Vec<String> = report
            .futile
            .iter()
            .map(|&ply| match japanese.get(ply - 1) {
                Some(mv) => format!("{mv} (ply {ply})"),
                None => format!("ply {ply}"),
            })
            .collect();
        let (these, are) = if each.len() == 1 {
            (
                "the interposition",
                "is futile (無駄合): captured at once, it is",
            )
        } else {
            (
                "the interpositions",
                "are futile (無駄合): captured at once, they are",
            )
        };
        let _ = writeln!(
            out,
            "  {these} {} {are} not counted in the length",
            each.join(", ")
        );
    }
    if report.answer_mates {
        let hand = if report.leftover.is_empty() {
            "nothing".to_string()
        } else {
            tsume::hand_text(&report.leftover)
        };
        let _ = writeln!(out, "  left in hand: {hand}");
    }
}
