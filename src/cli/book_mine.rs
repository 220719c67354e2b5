//! `kifconv book mine`: the arguments checked into start lines, a book and
//! the library's [`crate::book::mine`] options; Ctrl-C sets the stop flag,
//! so that the book is saved and the engines ended.

use super::args::BookMineArgs;
use super::fatal;
use crate::book::file::BookFormat;
use crate::book::mine::{self, Line, MineError, Options};
use crate::book::Book;
use crate::usi::Limit;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Set by Ctrl-C (SIGINT).
static STOP: AtomicBool = AtomicBool::new(false);

/// Mines the book; see the command's help for the exit codes.
pub fn mine(args: BookMineArgs) -> u8 {
    let name = args.book.display().to_string();
    if BookFormat::of_path(&args.book) != BookFormat::Db2016 {
        return fatal(format_args!(
            "{name}: a mined book is DB2016 text (`.db`), not .ybb or .bin"
        ));
    }
    let lines = match &args.from {
        Some(path) => match start_lines(path) {
            Ok(lines) => lines,
            Err(()) => return 2,
        },
        None => vec![Line::startpos()],
    };
    let mut book = match mine::open(&args.book) {
        Ok((book, warnings)) => {
            for w in warnings {
                eprintln!("{name}: warning: {w}");
            }
            book
        }
        Err(message) => return fatal(format_args!("{name}: {message}")),
    };
    if let Err(e) = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst)) {
        eprintln!("warning: Ctrl-C will not save the book: {e}");
    }
    let options = Options {
        limit: Limit::Nodes(args.nodes),
        multipv: args.multipv,
        engines: args.engine.engines as usize,
        max_ply: args.max_ply,
        eval_limit: args.eval_limit,
        save_every: usize::try_from(args.save_every).unwrap_or(usize::MAX),
    };
    let command = super::analyze::engine_command(&args.engine, &[]);
    let start = || command.start();
    let began = Instant::now();
    let mut save = |book: &Book| mine::save(book, &args.book);
    let mined = mine::mine(&mut book, &lines, &start, &options, &STOP, &mut save);
    let summary = match mined {
        Ok(summary) => summary,
        Err(MineError::Line(i, why)) => {
            let from = args
                .from
                .as_deref()
                .map_or("<start>".to_string(), |p| p.display().to_string());
            return fatal(format_args!("{from}: start line {}: {why}", i + 1));
        }
        Err(e) => return fatal(format_args!("{name}: {e}")),
    };
    for failure in &summary.failures {
        eprintln!(
            "{name}: error: `{}` not stored: {}",
            failure.position, failure.error
        );
    }
    let counts = crate::book::counted(&[
        (summary.present, "skipped as present"),
        (summary.flips, "skipped as flips"),
        (summary.again, "reached again"),
        (summary.cut, "past the eval limit"),
        (summary.no_move, "with no engine move"),
        (summary.failures.len(), "errors"),
    ]);
    let mut line = format!("{name}: {} positions searched", summary.searched);
    for count in counts {
        line.push_str(", ");
        line.push_str(&count);
    }
    line.push_str(&format!(
        "; {} positions in the book ({:.1} s)",
        book.entries.len(),
        began.elapsed().as_secs_f64()
    ));
    eprintln!("{line}");
    if summary.interrupted {
        eprintln!("{name}: interrupted; saved: run the same command again to go on");
    }
    u8::from(summary.interrupted || !summary.failures.is_empty())
}

/// The start lines of `path`, one a line (blank and `#` lines skipped);
/// each bad line is said with its place, and then `Err`.
fn start_lines(path: &Path) -> Result<Vec<Line>, ()> {
    let name = path.display().to_string();
    let text = match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                eprintln!("{name}: error: not UTF-8 text at byte {at}");
                return Err(());
            }
        },
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return Err(());
        }
    };
    let mut lines = Vec::new();
    let mut bad = false;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match crate::read::read_position(trimmed) {
            Ok(record) => {
                for w in &record.warnings {
                    let mut w = w.clone();
                    w.line = i as u32 + 1;
                    eprintln!("{}", w.render(&name));
                }
                lines.push(Line {
                    moves: record.tree.mainline_moves().collect(),
                    start: record.start,
                });
            }
            Err(mut e) => {
                e.location.line = i as u32 + 1;
                eprint!("{}", e.render(&name));
                bad = true;
            }
        }
    }
    if bad {
        return Err(());
    }
    if lines.is_empty() {
        eprintln!("{name}: error: no start line (expected `position startpos moves …`, `position sfen … moves …` or an SFEN a line)");
        return Err(());
    }
    Ok(lines)
}
