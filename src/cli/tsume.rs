//! `kifconv mate --depth`, `kifconv tsume check` and `kifconv tsume
//! generate`: the command-line faces of the library's [`crate::tsume`].

use super::archive;
use super::args::{TsumeCheckArgs, TsumeGenerateArgs, TsumeOutput};
use super::filter::Filter;
use super::inputs::{self, Item};
use super::output;
use super::tools::{position, print};
use super::walk::{self, Walk};
use crate::decode::EncodingChoice;
use crate::read::{read_bytes, Read};
use crate::record::Record;
use crate::tsume::{self, jsa_moves, Limits, Outcome, Soundness};
use std::path::Path;

/// `kifconv mate POSITION --depth N [--nodes N]`: the shortest forced mate,
/// its main line in USI and JSA notation, and whether the first move is
/// unique. Exit 0 for a mate, 1 for none within the depth, 3 for unknown
/// (budget), 2 for a bad position.
pub fn mate(text: &str, depth: u32, nodes: u64) -> u8 {
    let pos = match position(text) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if pos.king(!pos.side_to_move()).is_none() {
        eprintln!("error: the side not to move has no king to mate");
        return 2;
    }
    let (out, code) = match tsume::solve(&pos, Limits { depth, nodes }) {
        Outcome::Mate(mate) => {
            let usi: Vec<String> = mate.line.iter().map(|m| m.to_string()).collect();
            let mut out = format!("mate in {}\n", mate.len());
            out.push_str(&usi.join(" "));
            out.push('\n');
            out.push_str(&jsa_moves(&pos, &mate.line).join(" "));
            out.push('\n');
            if mate.unique_first() {
                out.push_str("first move unique\n");
            } else {
                let others: Vec<String> = mate.first_moves.iter().map(|m| m.to_string()).collect();
                out.push_str(&format!(
                    "first move not unique (余詰): {} mate in {}\n",
                    others.join(" "),
                    mate.len()
                ));
            }
            (out, 0)
        }
        Outcome::NoMate => (format!("no mate within {depth} plies\n"), 1),
        Outcome::Unknown => (format!("unknown: the budget of {nodes} nodes ran out\n"), 3),
    };
    match print(out.as_bytes()) {
        0 => code,
        failed => failed,
    }
}

/// `kifconv tsume check INPUT...`: a report per problem (input, game), the
/// inputs walked as conversion walks them (folders, archives, `--glob`).
/// Exit 1 when a problem is unsound or an input or game cannot be read,
/// else 3 when one is unknown or not proven, else 0.
pub fn check(args: &TsumeCheckArgs) -> u8 {
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
    };
    let filter = match Filter::new(&args.glob) {
        Ok(filter) => filter,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let options = walk::Options {
        follow: args.follow,
        hidden: false,
        filter,
        exclude: None,
        limits: archive::Limits {
            max_entry: args.max_input_size,
            max_total: args.max_total_size,
        },
    };
    let mut failed = false;
    let mut uncertain = false;
    for item in Walk::new(&args.files, options) {
        let input = match item {
            Item::Input(input) => input,
            Item::Problem { display, message } => {
                eprintln!("{display}: error: {message}");
                failed = true;
                continue;
            }
            Item::Skipped { display, message } => {
                eprintln!("{display}: warning: {message}");
                continue;
            }
        };
        let name = input.display;
        let bytes = match inputs::read(input.origin, args.max_input_size) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{name}: error: {e}");
                failed = true;
                continue;
            }
        };
        let read = match read_bytes(&bytes, &input.relative, None, EncodingChoice::Auto) {
            Ok(read) => read,
            Err(e) => {
                eprint!("{}", e.render(&name));
                failed = true;
                continue;
            }
        };
        let mut out = String::new();
        for (game, record) in numbered(&read) {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    eprint!("{}", e.render(&name));
                    failed = true;
                    continue;
                }
            };
            for warning in &record.warnings {
                eprintln!("{}", warning.render(&name));
            }
            let report = tsume::check_record(record, limits);
            match report.soundness() {
                Soundness::Unsound => failed = true,
                Soundness::Unknown | Soundness::NotProven => uncertain = true,
                Soundness::Sound => {}
            }
            write_report(&mut out, &name, game, &record.start, &report, limits);
        }
        let code = print(out.as_bytes());
        if code != 0 {
            return code;
        }
    }
    if failed {
        1
    } else if uncertain {
        3
    } else {
        0
    }
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

/// One problem's block of the report.
fn write_report(
    out: &mut String,
    name: &str,
    game: usize,
    start: &crate::Position,
    report: &tsume::Report,
    limits: Limits,
) {
    use std::fmt::Write;
    let verdict = match report.soundness() {
        Soundness::Sound => "sound",
        Soundness::Unsound => "unsound",
        Soundness::Unknown => "unknown",
        Soundness::NotProven => "not proven",
    };
    let _ = writeln!(out, "{name}: game {game}: {verdict}");
    for problem in report.problems() {
        let _ = writeln!(out, "  unsound: {problem}");
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
                "  shortest mate: {n} (by the rules {r}: futile interpositions)"
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
        let plies: Vec<String> = report.futile.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            out,
            "  futile interpositions (not counted) at ply {}",
            plies.join(", ")
        );
    }
    if !report.last_rivals.is_empty() {
        let moves: Vec<String> = report.last_rivals.iter().map(|m| m.to_string()).collect();
        let _ = writeln!(
            out,
            "  other mates on the last move (tolerated): {}",
            moves.join(" ")
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

/// `kifconv tsume generate`: N distinct sound problems from the seed, as
/// tsume KIF (to standard output, or one file each into -o DIR) or one SFEN
/// a line. Into a folder that holds an earlier run's problems
/// (`tsume-NNNN.kifu`): refused before anything is written, or with
/// --force replaced, those beyond this run's count removed. Exit 0, or 2
/// when refused or a file cannot be written.
pub fn generate(args: &TsumeGenerateArgs) -> u8 {
    if args.moves == 2 {
        eprintln!("error: --moves must be 1 or 3");
        return 2;
    }
    let problems = tsume::generate(args.moves, args.count as usize, args.seed);
    let kif = |problem: &tsume::Problem| -> Result<Vec<u8>, String> {
        let record = tsume::problem_record(&problem.start, &problem.answer);
        crate::write(&[record], crate::Target::Kifu, &Default::default()).map_err(|e| e.to_string())
    };
    let dir = match (&args.output, args.to) {
        (Some(dir), TsumeOutput::Kif) if !super::args::is_stdout(dir) => dir,
        _ => {
            let mut out = Vec::new();
            for problem in &problems {
                match args.to {
                    TsumeOutput::Sfen => {
                        out.extend_from_slice(problem.start.sfen().as_bytes());
                        out.push(b'\n');
                    }
                    TsumeOutput::Kif => match kif(problem) {
                        Ok(bytes) => out.extend(bytes),
                        Err(e) => {
                            eprintln!("error: {e}");
                            return 2;
                        }
                    },
                }
            }
            return print(&out);
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return 2;
    }
    let earlier = match earlier_problems(dir) {
        Ok(earlier) => earlier,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", dir.display());
            return 2;
        }
    };
    // Everything is checked before anything is written: without --force an
    // earlier run's problem in the folder is refused (its files would be
    // replaced, or mixed with this run's).
    if !args.force {
        if let Some((_, name)) = earlier.first() {
            eprintln!(
                "error: {} exists (--force replaces the earlier problems there)",
                dir.join(name).display()
            );
            return 2;
        }
    }
    let mut outputs = Vec::with_capacity(problems.len());
    for problem in &problems {
        match kif(problem) {
            Ok(bytes) => outputs.push(bytes),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    // Each problem goes to a temporary file first and is renamed into
    // place, so that a failure leaves no half-written problem.
    let counter = std::sync::atomic::AtomicU64::new(0);
    let temps = match output::stage(&dir.join("tsume.kifu"), &outputs, &counter) {
        Ok(temps) => temps,
        Err(e) => {
            eprintln!("error: cannot write {e}");
            return 2;
        }
    };
    for (i, temp) in temps.iter().enumerate() {
        let path = dir.join(problem_name(i + 1));
        if let Err(e) = std::fs::rename(temp, &path) {
            output::discard(&temps[i..]);
            eprintln!("error: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    // With --force, the earlier run's problems beyond this run's count go:
    // the folder holds this run's problems and nothing else of the kind.
    for (number, name) in earlier {
        if number > problems.len() {
            let path = dir.join(&name);
            if let Err(e) = std::fs::remove_file(&path) {
                eprintln!(
                    "error: cannot remove {} (an earlier run's problem): {e}",
                    path.display()
                );
                return 2;
            }
        }
    }
    0
}

/// The file name of the `n`th problem: `tsume-0001.kifu`.
fn problem_name(n: usize) -> String {
    format!("tsume-{n:04}.kifu")
}

/// The problems a run left in `dir`: the files named exactly as
/// [`problem_name`] names them (`tsume-`, four digits or more, `.kifu`),
/// with their numbers, in number order. Nothing else counts.
fn earlier_problems(dir: &Path) -> std::io::Result<Vec<(usize, String)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let Some(number) = problem_number(&name) else {
            continue;
        };
        if entry.file_type()?.is_file() {
            found.push((number, name));
        }
    }
    found.sort();
    Ok(found)
}

/// The number of a name [`problem_name`] gives, if it is one.
fn problem_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("tsume-")?.strip_suffix(".kifu")?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: usize = digits.parse().ok()?;
    (problem_name(number) == name).then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_generators_own_names_are_its_problems() {
        assert_eq!(problem_number("tsume-0001.kifu"), Some(1));
        assert_eq!(problem_number("tsume-12345.kifu"), Some(12345));
        for other in [
            "tsume-001.kifu",
            "tsume-00001.kifu",
            "tsume-0001.kif",
            "tsume-0001.kifu.bak",
            "tsume-000a.kifu",
            "my-tsume-0001.kifu",
            "tsume-+001.kifu",
        ] {
            assert_eq!(problem_number(other), None, "{other}");
        }
    }
}
