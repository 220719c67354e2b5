//! `kifconv book build`, `book query`, `book merge` and `book peta-shock`: the opening-book
//! commands over the library's [`crate::book`]; `build` runs the batch
//! library's book job.

use super::args::{
    BookBuildArgs, BookCheckArgs, BookConvertArgs, BookMergeArgs, BookPetaShockArgs, BookQueryArgs,
    BookSide, BookSortArgs,
};
use super::fatal;
use super::games;
use super::run::Verbosity;
use super::tools::{self, position};
use crate::batch::jobs::book::{check_output, write, write_with, BookJob};
use crate::batch::jobs::book_file::{convert_file, peta_shock_file, Conversion, PetaShockError};
use crate::batch::jobs::Reading;
use crate::book::check::{self, Fault, Scanner};
use crate::book::file::{self, BookFormat};
use crate::book::{build, sort as book_sort};

/// Builds the book: the inputs read by the batch runner (in input order),
/// counted, written to a temporary file beside the output and linked into
/// place, never over an existing file without --force.
pub fn build(args: BookBuildArgs) -> u8 {
    let filter = match games::filter(args.games, None) {
        Ok(filter) => filter,
        Err(message) => return fatal(message),
    };
    let format = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.output));
    let job = BookJob {
        format,
        crlf: args.crlf,
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
        Err(message) => return fatal(message),
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
        Err(e) => return fatal(e),
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
                let value = crate::book::query::to_json(&pos, None);
                tools::print(format!("{value}\n").as_bytes());
            }
            eprintln!("{}: not in the book (nor its rotation)", pos.sfen());
            return 1;
        }
        Err(e) => return fatal(format_args!("{}: {e}", args.book.display())),
    };
    let text = if args.json {
        format!("{}\n", crate::book::query::to_json(&pos, Some(&answer)))
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
        return fatal(message);
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
    let no_ply = merged.give_plies();
    if no_ply > 0 {
        eprintln!("warning: {no_ply} positions had a ply in no book; written with ply 1");
    }
    let format = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.output));
    let mut job = BookJob::writing(args.output, args.force, format);
    job.crlf = args.crlf;
    written(&merged, &job)
}

/// Prints every fault of a book with its line, then their count by kind;
/// exit 1 when any is found.
pub fn check(args: BookCheckArgs) -> u8 {
    let name = args.book.display();
    let format = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.book));
    if format != BookFormat::Db2016 {
        return check_binary(&args, format);
    }
    let mut scanner = Scanner::new(true);
    if args.flip_fold {
        scanner = scanner.flip_folded();
    }
    let checked = std::fs::File::open(&args.book)
        .map_err(|e| e.to_string())
        .and_then(|file| check::scan(&mut std::io::BufReader::new(file), scanner));
    let check::Checked {
        scanner,
        positions,
        moves,
    } = match checked {
        Ok(checked) => checked,
        Err(e) => return fatal(format_args!("{name}: {e}")),
    };
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
        return fatal(message);
    }
    let name = args.book.display().to_string();
    let input = match std::fs::File::open(&args.book) {
        Ok(file) => file,
        Err(e) => return fatal(format_args!("{name}: {e}")),
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
    let mut job = BookJob::writing(args.output.clone(), args.force, BookFormat::Db2016);
    job.crlf = args.crlf;
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
            return fatal(format_args!("{name}: {e}"));
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

/// Writes `book` for `job`, saying what its format could not hold.
fn written(book: &crate::book::Book, job: &BookJob) -> u8 {
    match write(book, job) {
        Ok(warnings) => {
            for w in warnings {
                eprintln!("{}: warning: {w}", job.output.display());
            }
            0
        }
        Err(e) => fatal(e),
    }
}

/// Converts a book between formats (see [`convert_file`]).
pub fn convert(args: BookConvertArgs) -> u8 {
    let to = args
        .book_format
        .unwrap_or_else(|| BookFormat::of_path(&args.output));
    let from = args
        .from
        .unwrap_or_else(|| BookFormat::of_path(&args.input));
    let how = Conversion {
        flip_fold: args.flip_fold,
        force: args.force,
        crlf: args.crlf,
        memory: args.memory << 20,
    };
    match convert_file(&args.input, from, &args.output, to, &how) {
        Ok(converted) => {
            for w in &converted.warnings {
                eprintln!("warning: {w}");
            }
            eprintln!(
                "{}: {} positions, {} moves",
                args.output.display(),
                converted.positions,
                converted.moves
            );
            0
        }
        Err(e) => fatal(e),
    }
}

/// Peta-shocks a book (see [`crate::book::peta_shock`]) into a new one.
pub fn peta_shock(args: BookPetaShockArgs) -> u8 {
    let options = crate::book::peta_shock::Options {
        shrink: args.shrink,
        crlf: args.crlf,
    };
    match peta_shock_file(&args.input, &args.output, &options, args.force) {
        Ok(summary) => {
            eprintln!(
                "{}: {} positions ({} settled without a cycle, {} in check, {} on perpetual-check loops, {} moves joining another position)",
                args.output.display(),
                summary.positions,
                summary.settled,
                summary.in_check,
                summary.check_loop,
                summary.converged_moves,
            );
            if summary.none_moves > 0 {
                eprintln!(
                    "{}: warning: {} `none` move lines dropped",
                    args.input.display(),
                    summary.none_moves
                );
            }
            0
        }
        Err(PetaShockError::Line(e)) => {
            eprintln!("{}: error: {e}", args.input.display());
            1
        }
        Err(PetaShockError::Other(e)) => fatal(e),
    }
}

/// `book check` of a `.ybb` or `.bin`: each fault reading finds, then
/// their count; exit 1 when any.
fn check_binary(args: &BookCheckArgs, format: BookFormat) -> u8 {
    let name = args.book.display();
    let bytes = match std::fs::read(&args.book) {
        Ok(bytes) => bytes,
        Err(e) => return fatal(format_args!("{name}: {e}")),
    };
    let checked = file::check_binary(&bytes, format, args.flip_fold);
    let mut text = String::new();
    for fault in &checked.faults {
        text.push_str(&format!("{name}: {fault}\n"));
    }
    let found = checked.faults.len();
    let (positions, moves) = (checked.positions, checked.moves);
    if found == 0 {
        text.push_str(&format!(
            "{name}: no faults ({positions} positions, {moves} moves)\n"
        ));
    } else {
        text.push_str(&format!(
            "{name}: {found} faults ({positions} positions, {moves} moves)\n"
        ));
    }
    match tools::print(text.as_bytes()) {
        0 => u8::from(found > 0),
        code => code,
    }
}
