//! `kifconv book build`, `book query`, `book merge` and `book peta-shock`: the opening-book
//! commands over the library's [`crate::book`]; `build` runs the batch
//! library's book job.

use super::args::{
    BookBuildArgs, BookCheckArgs, BookConvertArgs, BookMergeArgs, BookPetaShockArgs, BookQueryArgs,
    BookSide, BookSortArgs,
};
use super::games;
use super::run::Verbosity;
use super::tools::{self, position};
use crate::batch::jobs::book::{check_output, write, write_with, BookJob};
use crate::batch::jobs::Reading;
use crate::book::check::{Fault, Scanned, Scanner};
use crate::book::file::{self, BookFormat};
use crate::book::{build, sort as book_sort};

/// Builds the book: the inputs read by the batch runner (in input order),
/// counted, written to a temporary file beside the output and linked into
/// place, never over an existing file without --force.
pub fn build(args: BookBuildArgs) -> u8 {
    let filter = match games::filter(args.games, None) {
        Ok(filter) => filter,
        Err(message) => {
            eprintln!("error: {message}");
            return 2;
        }
    };
    let format = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.output));
    let job = BookJob {
        format,
        output: args.output,
        reading: Reading {
            mainline_only: !args.variations,
            ..Reading::default()
        },
        options: build::Options {
            flip_fold: args.flip_fold,
            min_ply: args.min_ply.unwrap_or(0),
            max_ply: args.max_ply,
            side: match args.side {
                BookSide::Both => build::Side::Both,
                BookSide::Black => build::Side::Black,
                BookSide::White => build::Side::White,
            },
            variations: args.variations,
        },
        min_count: args.min_count,
        force: args.force,
        memory: args.memory << 20,
        filter,
        uniq: args.uniq,
    };
    let face = match args.batch.into_face(args.inputs) {
        Ok(face) => face,
        Err(message) => {
            eprintln!("error: {message}");
            return 2;
        }
    };
    match face.run(&job, &mut std::io::sink()) {
        Ok((summary, built)) => {
            for w in &built.warnings {
                eprintln!("{}: warning: {w}", built.output.display());
            }
            if face.verbosity != Verbosity::Quiet {
                eprintln!("{}", built.summary_line());
            }
            super::run::code(&summary)
        }
        Err(code) => code,
    }
}

/// Prints the book's moves for a position (see [`query::lookup_file`]).
pub fn query(args: BookQueryArgs) -> u8 {
    let pos = match position(&args.position) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let format = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.book));
    let answer = std::fs::File::open(&args.book).and_then(|file| {
        let len = file.metadata()?.len();
        file::lookup(file, len, &pos, format)
    });
    let answer = match answer {
        Ok(Some(answer)) => answer,
        Ok(None) => {
            if args.json {
                let value = serde_json::json!({
                    "sfen": pos.sfen(), "found": false, "moves": [],
                });
                tools::print(format!("{value}\n").as_bytes());
            }
            eprintln!("{}: not in the book (nor its rotation)", pos.sfen());
            return 1;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", args.book.display());
            return 2;
        }
    };
    let text = if args.json {
        let moves: Vec<serde_json::Value> = answer
            .moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": m.mv, "ponder": m.ponder, "value": m.value,
                    "depth": m.depth, "count": m.count,
                })
            })
            .collect();
        let value = serde_json::json!({
            "sfen": pos.sfen(), "found": true, "flipped": answer.flipped, "ply": answer.ply,
            "moves": moves,
        });
        format!("{value}\n")
    } else {
        let mut text = String::new();
        if answer.flipped {
            text.push_str("# found as its rotation; the moves are rotated back\n");
        }
        for m in &answer.moves {
            let ponder = m.ponder.as_deref().unwrap_or("none");
            text.push_str(&format!(
                "{} {ponder} {} {} {}\n",
                m.mv, m.value, m.depth, m.count
            ));
        }
        text
    };
    tools::print(text.as_bytes())
}

/// Merges books (see [`crate::book::Book::merge`]) into a new one.
pub fn merge(args: BookMergeArgs) -> u8 {
    if let Err(message) = check_output(&args.output, &args.books, args.force) {
        eprintln!("error: {message}");
        return 2;
    }
    let mut merged = crate::book::Book::default();
    for path in &args.books {
        let read = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| file::read(&bytes, BookFormat::of_path(path)));
        match read {
            Ok(read) => {
                for w in &read.warnings {
                    eprintln!("{}: warning: {w}", path.display());
                }
                let held = merged.merge(read.book);
                if held > 0 {
                    eprintln!(
                        "{}: warning: {held} counts added past the largest number a count can hold; kept at that number",
                        path.display()
                    );
                }
            }
            Err(e) => {
                eprintln!("{}: error: {e}", path.display());
                return 1;
            }
        }
    }
    // Ply 0 is never written: a position no book gave a ply takes 1.
    let no_ply = merged
        .entries
        .values_mut()
        .filter(|e| e.ply == 0)
        .fold(0, |n, e| {
            e.ply = 1;
            n + 1
        });
    if no_ply > 0 {
        eprintln!("warning: {no_ply} positions had a ply in no book; written with ply 1");
    }
    let format = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.output));
    let job = output_job(args.output, args.force, format);
    written(&merged, &job)
}

/// Prints every fault of a book with its line, then their count by kind;
/// exit 1 when any is found.
pub fn check(args: BookCheckArgs) -> u8 {
    use std::io::BufRead;
    let name = args.book.display();
    let mut scanner = Scanner::new(true);
    if args.flip_fold {
        scanner = scanner.flip_folded();
    }
    let (mut positions, mut moves) = (0usize, 0usize);
    let scanned = std::fs::File::open(&args.book)
        .map_err(|e| e.to_string())
        .and_then(|file| {
            let mut input = std::io::BufReader::new(file);
            let mut line = Vec::new();
            let mut n = 0;
            loop {
                line.clear();
                if input
                    .read_until(b'\n', &mut line)
                    .map_err(|e| e.to_string())?
                    == 0
                {
                    break;
                }
                n += 1;
                match scanner
                    .line(n, &String::from_utf8_lossy(&line))
                    .map_err(|e| e.to_string())?
                {
                    Scanned::Nothing => {}
                    Scanned::Position(_) => positions += 1,
                    Scanned::Move(_) => moves += 1,
                }
            }
            scanner.finish().map_err(|e| e.to_string())
        });
    if let Err(e) = scanned {
        eprintln!("error: {name}: {e}");
        return 2;
    }
    let mut text = String::new();
    for finding in &scanner.findings {
        let at = &finding.at;
        text.push_str(&format!(
            "{name}:{}: {}: {}",
            at.line,
            finding.fault.name(),
            at.message
        ));
        if !at.text.is_empty() {
            text.push_str(&format!(" (`{}`)", at.text));
        }
        text.push('\n');
    }
    let found: usize = scanner.counts.iter().sum();
    let counts: Vec<String> = Fault::ALL
        .iter()
        .zip(scanner.counts)
        .filter(|(_, n)| *n > 0)
        .map(|(fault, n)| {
            let listed = if n > Scanner::KEPT {
                format!(" ({} listed)", Scanner::KEPT)
            } else {
                String::new()
            };
            format!("{n} {}{listed}", fault.name())
        })
        .collect();
    if found == 0 {
        text.push_str(&format!(
            "{name}: no faults ({positions} positions, {moves} moves)\n"
        ));
    } else {
        text.push_str(&format!(
            "{name}: {found} faults ({positions} positions, {moves} moves): {}\n",
            counts.join(", ")
        ));
    }
    match tools::print(text.as_bytes()) {
        0 => u8::from(found > 0),
        code => code,
    }
}

/// Writes a sorted, merged, canonical copy of a book (see
/// [`crate::book::sort`]), saying each fault it mended.
pub fn sort(args: BookSortArgs) -> u8 {
    if let Err(message) = check_output(&args.output, std::slice::from_ref(&args.book), args.force) {
        eprintln!("error: {message}");
        return 2;
    }
    let name = args.book.display().to_string();
    let input = match std::fs::File::open(&args.book) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return 2;
        }
    };
    let dir = args
        .output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."))
        .to_path_buf();
    let options = book_sort::Options {
        flip_fold: args.flip_fold,
        memory: Some(args.memory << 20),
        dir: Some(dir),
    };
    let job = output_job(args.output.clone(), args.force, BookFormat::Db2016);
    let mut failure = None;
    let written = write_with(&job, |out| {
        let mut input = std::io::BufReader::new(input);
        book_sort::sort(&mut input, out, &options).map_err(|e| {
            let message = e.to_string();
            failure = Some(message.clone());
            std::io::Error::other(message)
        })
    });
    let sorted = match written {
        Ok(sorted) => sorted,
        Err(e) => {
            let e = failure.unwrap_or(e);
            eprintln!("error: {name}: {e}");
            return 2;
        }
    };
    for finding in &sorted.scanner.findings {
        eprintln!("{name}: warning: {}", finding.warning());
    }
    for (fault, n) in Fault::ALL.iter().zip(sorted.scanner.counts) {
        if n > Scanner::KEPT {
            eprintln!(
                "{name}: warning: {n} faults of kind `{}` in all ({} said above)",
                fault.name(),
                Scanner::KEPT
            );
        }
    }
    if sorted.held > 0 {
        eprintln!(
            "{name}: warning: {} counts added past the largest number a count can hold; kept at that number",
            sorted.held
        );
    }
    if sorted.no_ply > 0 {
        eprintln!(
            "{name}: warning: {} positions had no ply; written with ply 1",
            sorted.no_ply
        );
    }
    eprintln!(
        "{}: {} positions, {} moves; merged: {} positions given more than once; rotated: {}",
        args.output.display(),
        sorted.positions,
        sorted.moves,
        sorted.merged,
        sorted.folded
    );
    0
}

/// A job that only writes a book to `output` (for merge, sort and
/// convert, which read books, not records).
fn output_job(output: std::path::PathBuf, force: bool, format: BookFormat) -> BookJob {
    BookJob {
        format,
        output,
        reading: Reading::default(),
        options: build::Options::default(),
        min_count: 0,
        force,
        memory: 0,
        filter: None,
        uniq: false,
    }
}

/// Writes `book` for `job`, saying what its format could not hold.
fn written(book: &crate::book::Book, job: &BookJob) -> u8 {
    match write(book, job) {
        Ok(warnings) => {
            for w in warnings {
                eprintln!("{}: warning: {w}", job.output.display());
            }
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Converts a book between formats (see [`crate::book::file`]).
pub fn convert(args: BookConvertArgs) -> u8 {
    if let Err(message) = check_output(&args.output, std::slice::from_ref(&args.input), args.force)
    {
        eprintln!("error: {message}");
        return 2;
    }
    let from = args
        .from
        .unwrap_or_else(|| BookFormat::of_path(&args.input));
    let to = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.output));
    let name = args.input.display();
    let loaded = std::fs::read(&args.input)
        .map_err(|e| e.to_string())
        .and_then(|bytes| file::read(&bytes, from));
    let mut loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return 2;
        }
    };
    for w in &loaded.warnings {
        eprintln!("{name}: warning: {w}");
    }
    if args.flip_fold {
        let (folded, held) = loaded.book.fold_flips();
        if folded > 0 {
            eprintln!("{name}: {folded} white-to-move positions folded into their rotations");
        }
        if held > 0 {
            eprintln!("{name}: warning: {held} counts added past the largest number a count can hold; kept at that number");
        }
    }
    let no_ply = loaded
        .book
        .entries
        .values_mut()
        .filter(|e| e.ply == 0)
        .fold(0, |n, e| {
            e.ply = 1;
            n + 1
        });
    if no_ply > 0 {
        eprintln!("{name}: warning: {no_ply} positions had no ply; written with ply 1");
    }
    let job = output_job(args.output, args.force, to);
    written(&loaded.book, &job)
}

/// Peta-shocks a book (see [`crate::book::peta_shock`]) into a new one.
pub fn peta_shock(args: BookPetaShockArgs) -> u8 {
    use crate::book::peta_shock::{self as ps, Error};
    if let Err(message) = check_output(&args.output, std::slice::from_ref(&args.input), args.force)
    {
        eprintln!("error: {message}");
        return 2;
    }
    let options = ps::Options {
        shrink: args.shrink,
        crlf: args.crlf,
    };
    let job = output_job(args.output, args.force, BookFormat::Db2016);
    let input = &args.input;
    let open = || std::fs::File::open(input).map(std::io::BufReader::new);
    let mut bad_line = None;
    let written = write_with(&job, |out| {
        ps::peta_shock(open, out, &options).map_err(|e| match e {
            Error::Io(e) => e,
            Error::Book(e) => {
                let message = e.to_string();
                bad_line = Some(e);
                std::io::Error::other(message)
            }
        })
    });
    match (written, bad_line) {
        (Ok(summary), _) => {
            eprintln!(
                "{}: {} positions ({} settled without a cycle, {} in check, {} on perpetual-check loops, {} moves joining another position)",
                job.output.display(),
                summary.positions,
                summary.settled,
                summary.in_check,
                summary.check_loop,
                summary.converged_moves,
            );
            if summary.none_moves > 0 {
                eprintln!(
                    "{}: warning: {} `none` move lines dropped",
                    input.display(),
                    summary.none_moves
                );
            }
            0
        }
        (Err(_), Some(e)) => {
            eprintln!("{}: error: {e}", input.display());
            1
        }
        (Err(e), None) => {
            eprintln!("error: {e}");
            2
        }
    }
}
