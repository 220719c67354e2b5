//! `kifconv mate --depth`, `kifconv tsume check` and `kifconv tsume
//! generate`: the command-line faces of the library's [`crate::tsume`].

use super::args::{TsumeCheckArgs, TsumeGenerateArgs, TsumeOutput};
use super::tools::{position, print};
use crate::tsume::{self, jsa_moves, Limits, Outcome};

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

/// `kifconv tsume check FILE...`: a report per problem (file, game),
/// exit 1 when a problem is unsound or a file cannot be read.
pub fn check(args: &TsumeCheckArgs) -> u8 {
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
    };
    let mut out = String::new();
    let mut code = 0;
    for path in &args.files {
        let name = path.display().to_string();
        let records = match crate::read(path) {
            Ok(records) => records,
            Err(e) => {
                eprint!("{}", e.render(&name));
                code = 1;
                continue;
            }
        };
        for (i, record) in records.iter().enumerate() {
            let answer: Vec<_> = record.tree.mainline_moves().collect();
            let report = tsume::check(&record.start, &answer, limits);
            if !report.is_sound() {
                code = 1;
            }
            write_report(&mut out, &name, i + 1, &record.start, &report);
        }
    }
    match print(out.as_bytes()) {
        0 => code,
        failed => failed,
    }
}

/// One problem's block of the report.
fn write_report(
    out: &mut String,
    name: &str,
    game: usize,
    start: &crate::Position,
    report: &tsume::Report,
) {
    use std::fmt::Write;
    let verdict = if report.is_sound() {
        "sound"
    } else {
        "unsound"
    };
    let _ = writeln!(out, "{name}: game {game}: {verdict}");
    for problem in report.problems() {
        let _ = writeln!(out, "  unsound: {problem}");
    }
    if report.unknown {
        return;
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
    let moves = jsa_moves(start, &report.answer).join(" ");
    let result = if report.answer_mates {
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
/// a line. Exit 0, or 2 when a file cannot be written.
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
    for (i, problem) in problems.iter().enumerate() {
        let path = dir.join(format!("tsume-{:04}.kifu", i + 1));
        if path.exists() && !args.force {
            eprintln!("error: {} exists (--force replaces it)", path.display());
            return 2;
        }
        let written = kif(problem).and_then(|bytes| {
            std::fs::write(&path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        });
        if let Err(e) = written {
            eprintln!("error: {e}");
            return 2;
        }
    }
    0
}
