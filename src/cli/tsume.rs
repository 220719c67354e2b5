//! `kifconv mate --depth`, `kifconv tsume check` and `kifconv tsume
//! generate`: the command-line faces of the library's [`crate::tsume`].

use super::args::{TsumeCheckArgs, TsumeGenerateArgs, TsumeMethod, TsumeOutput};
use super::fatal;
use super::run::{Face, Verbosity};
use super::tools::{position, print};
use crate::batch::jobs::tsume::TsumeCheck;
use crate::batch::jobs::tsume_mates::TsumeMates;
use crate::batch::output;
use crate::batch::Plan;
use crate::record::NodeId;
use crate::tsume::{self, jsa_moves, Limits, Outcome};
use crate::Position;
use std::path::Path;

/// `kifconv mate POSITION --depth N [--nodes N]`: the shortest forced mate,
/// its main line in USI and JSA notation, and whether the first move is
/// unique. Exit 0 for a mate, 1 for none within the depth, 3 for unknown
/// (budget), 2 for a bad position.
pub fn mate(text: &str, depth: u32, nodes: u64) -> u8 {
    let pos = match position(text) {
        Ok(pos) => pos,
        Err(e) => return fatal(e),
    };
    if pos.king(!pos.side_to_move()).is_none() {
        return fatal("the side not to move has no king to mate");
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

/// `kifconv mate - --depth N --timed`: each line of standard input a
/// position, solved in this process with a budget of its own; a line out
/// for each, the microseconds it took and the answer (`mate in K`, `no
/// mate`, `unknown` or `error: …`). Exit 0 unless the output fails.
pub fn mate_timed(sfen: &str, depth: u32, nodes: u64) -> u8 {
    if sfen != "-" {
        return fatal("with --timed the position is `-` (read from standard input)");
    }
    for line in std::io::stdin().lines() {
        let Ok(line) = line else {
            return fatal("standard input could not be read");
        };
        if line.trim().is_empty() {
            continue;
        }
        let started = std::time::Instant::now();
        let answer = match position(&line) {
            Ok(pos) if pos.king(!pos.side_to_move()).is_some() => {
                match tsume::solve(&pos, Limits { depth, nodes }) {
                    Outcome::Mate(mate) => format!("mate in {}", mate.len()),
                    Outcome::NoMate => "no mate".to_string(),
                    Outcome::Unknown => "unknown".to_string(),
                }
            }
            Ok(_) => "error: the side not to move has no king to mate".to_string(),
            Err(e) => format!("error: {e}"),
        };
        let spent = started.elapsed().as_micros();
        let failed = print(format!("{spent}\t{}\n", answer.replace('\n', " ")).as_bytes());
        if failed != 0 {
            return failed;
        }
    }
    0
}

/// `kifconv tsume check INPUT...`: a report per problem (input, game), the
/// inputs walked as conversion walks them (folders, archives, `--glob`),
/// checked on every core. Exit 1 when a problem is unsound or an input or
/// game cannot be read, else 3 when one is unknown or not proven, else 0.
pub fn check(args: TsumeCheckArgs) -> u8 {
    let job = TsumeCheck {
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
        },
        keep: false,
    };
    let face = match args.batch.into_face(args.files) {
        Ok(face) => face,
        Err(message) => return fatal(message),
    };
    let mut stdout = std::io::stdout().lock();
    match face.run(&job, &mut stdout) {
        Ok((summary, verdicts)) if summary.failed > 0 || verdicts.unsound => 1,
        Ok((_, verdicts)) if verdicts.uncertain => 3,
        Ok(_) => 0,
        Err(code) => code,
    }
}

/// `kifconv tsume generate`: N distinct sound problems from the seed, as
/// tsume KIF (to standard output, or one file each into -o DIR) or one SFEN
/// a line. Into a folder that holds an earlier run's problems
/// (`tsume-NNNN.kifu`): refused before anything is written, or with
/// --force replaced, those beyond this run's count removed. With --from,
/// the problems grow from the mates the inputs' games end in. Exit 0; 1
/// when --from's mates gave fewer problems than asked (those made are
/// written) or none; 2 when refused or a file cannot be written.
pub fn generate(args: &TsumeGenerateArgs) -> u8 {
    if args.moves.is_multiple_of(2) {
        return fatal("--moves must be odd: 1, 3, 5, 7, 9 or 11");
    }
    let method = args
        .method
        .unwrap_or(if args.moves <= 3 && args.from.is_empty() {
            TsumeMethod::Random
        } else {
            TsumeMethod::Reverse
        });
    let rated: Made = match method {
        TsumeMethod::Random if args.moves > 3 => {
            return fatal("--method random makes 1 or 3 plies; use --method reverse")
        }
        TsumeMethod::Random if !args.from.is_empty() => {
            return fatal("--from needs --method reverse")
        }
        TsumeMethod::Random if args.min_score.is_some() => {
            return fatal("--min-score needs --method reverse")
        }
        TsumeMethod::Random => tsume::generate(args.moves, args.count as usize, args.seed)
            .into_iter()
            .map(|problem| (problem, None))
            .collect(),
        TsumeMethod::Reverse if args.from.is_empty() => {
            tsume::generate_reverse(args.moves, args.count as usize, args.seed, args.min_score)
                .into_iter()
                .map(|r| (r.problem, Some((r.quality, None))))
                .collect::<Vec<_>>()
        }
        TsumeMethod::Reverse => match from_games(args) {
            Ok(rated) => rated,
            Err(code) => return code,
        },
    };
    if rated.len() < args.count as usize {
        eprintln!(
            "error: only {} problems of {} plies grown from the games' mates ({} asked)",
            rated.len(),
            args.moves,
            args.count
        );
        if rated.is_empty() {
            return 1;
        }
    }
    let short = u8::from(rated.len() < args.count as usize);
    let problems: Vec<&tsume::Problem> = rated.iter().map(|(p, _)| p).collect();
    let target = match args.to {
        TsumeOutput::Kif => crate::Target::Kif,
        _ => crate::Target::Kifu,
    };
    let kif = |i: usize| -> Result<Vec<u8>, String> {
        let (problem, rated) = &rated[i];
        let mut record = tsume::problem_record(&problem.start, &problem.answer);
        if let Some((quality, source)) = rated {
            let comments = &mut record.tree.node_mut(NodeId::ROOT).notes_mut().comments;
            comments.push(quality.comment());
            if let Some(source) = source {
                comments.push(source.clone());
            }
        }
        crate::write(&[record], target, &Default::default()).map_err(|e| e.to_string())
    };
    let dir = match (&args.output, args.to) {
        (Some(dir), TsumeOutput::Kif | TsumeOutput::Kifu) if dir.as_os_str() != "-" => dir,
        _ => {
            let mut out = Vec::new();
            for (i, problem) in problems.iter().enumerate() {
                match args.to {
                    TsumeOutput::Sfen => {
                        out.extend_from_slice(problem.start.sfen().as_bytes());
                        out.push(b'\n');
                    }
                    TsumeOutput::Kif | TsumeOutput::Kifu => match kif(i) {
                        Ok(bytes) => out.extend(bytes),
                        Err(e) => return fatal(e),
                    },
                }
            }
            return match print(&out) {
                0 => short,
                failed => failed,
            };
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        return fatal(format_args!("cannot create {}: {e}", dir.display()));
    }
    let earlier = match earlier_problems(dir) {
        Ok(earlier) => earlier,
        Err(e) => return fatal(format_args!("cannot read {}: {e}", dir.display())),
    };
    // Everything is checked before anything is written: without --force an
    // earlier run's problem in the folder is refused (its files would be
    // replaced, or mixed with this run's).
    if !args.force {
        if let Some((_, name)) = earlier.first() {
            return fatal(format_args!(
                "{} exists (--force replaces the earlier problems there)",
                dir.join(name).display()
            ));
        }
    }
    let mut outputs = Vec::with_capacity(problems.len());
    for i in 0..problems.len() {
        match kif(i) {
            Ok(bytes) => outputs.push(bytes),
            Err(e) => return fatal(e),
        }
    }
    // Each problem goes to a temporary file first and is renamed into
    // place, so that a failure leaves no half-written problem.
    let counter = std::sync::atomic::AtomicU64::new(0);
    let temps = match output::stage(&dir.join("tsume"), &outputs, &counter) {
        Ok(temps) => temps,
        Err(e) => return fatal(format_args!("cannot write {e}")),
    };
    for (i, temp) in temps.iter().enumerate() {
        let path = dir.join(problem_name(i + 1, target.extension()));
        if let Err(e) = std::fs::rename(temp, &path) {
            // The drop removes the temporary files not yet renamed.
            return fatal(format_args!("cannot write {}: {e}", path.display()));
        }
    }
    // With --force, the earlier run's problems beyond this run's count, or
    // of the other KIF encoding, go: the folder holds this run's problems
    // and nothing else of the kind.
    for (number, name) in earlier {
        if number > problems.len() || name != problem_name(number, target.extension()) {
            let path = dir.join(&name);
            if let Err(e) = std::fs::remove_file(&path) {
                return fatal(format_args!(
                    "cannot remove {} (an earlier run's problem): {e}",
                    path.display()
                ));
            }
        }
    }
    short
}

/// Problems made, each with its quality and a comment naming its source
/// (reverse method).
type Made = Vec<(tsume::Problem, Option<(tsume::Quality, Option<String>)>)>;

/// The problems of `tsume generate --from`: the mates of the inputs'
/// games gathered (reading errors said as conversion says them), then
/// grown; each with its quality and a comment naming its game. `Err` is
/// the exit code when the inputs give no mate or cannot be walked.
fn from_games(args: &TsumeGenerateArgs) -> Result<Made, u8> {
    // The walk's defaults: those of the batch flags, which this command
    // does not take.
    let face = Face {
        plan: Plan::new(args.from.clone()),
        verbosity: Verbosity::Normal,
        report: None,
    };
    let mut sink = std::io::sink();
    let (_, gathered) = face.run(&TsumeMates, &mut sink)?;
    if gathered.mates.is_empty() {
        eprintln!(
            "error: none of the {} games read ends in a mate to grow problems from",
            gathered.games
        );
        return Err(1);
    }
    let mates: Vec<Position> = gathered.mates.iter().map(|m| m.mate.clone()).collect();
    let grown = tsume::generate_reverse_from(
        &mates,
        args.moves,
        args.count as usize,
        args.seed,
        args.min_score,
    );
    Ok(grown
        .into_iter()
        .map(|r| {
            let source = r.mate.map(|i| {
                let m = &gathered.mates[i];
                format!("出典：{} 第{}局の詰みから逆算", m.path, m.game)
            });
            (r.problem, Some((r.quality, source)))
        })
        .collect())
}

/// The file name of the `n`th problem: `tsume-0001.kifu` (or `.kif`).
fn problem_name(n: usize, extension: &str) -> String {
    format!("tsume-{n:04}.{extension}")
}

/// The problems a run left in `dir`: the files named exactly as
/// [`problem_name`] names them (`tsume-`, four digits or more, `.kifu` or
/// `.kif`),
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
    let (digits, extension) = name.strip_prefix("tsume-")?.split_once('.')?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: usize = digits.parse().ok()?;
    let named = matches!(extension, "kif" | "kifu") && problem_name(number, extension) == name;
    named.then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_generators_own_names_are_its_problems() {
        assert_eq!(problem_number("tsume-0001.kifu"), Some(1));
        assert_eq!(problem_number("tsume-12345.kifu"), Some(12345));
        assert_eq!(problem_number("tsume-0002.kif"), Some(2));
        for other in [
            "tsume-001.kifu",
            "tsume-00001.kifu",
            "tsume-0001.txt",
            "tsume-0001.kifu.bak",
            "tsume-000a.kifu",
            "my-tsume-0001.kifu",
            "tsume-+001.kifu",
        ] {
            assert_eq!(problem_number(other), None, "{other}");
        }
    }
}
