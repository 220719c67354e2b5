//! `kifconv book build`, `book query`, `book merge` and `book peta-shock`: the opening-book
//! commands over the library's [`crate::book`]; `build` runs the batch
//! library's book job.

use super::args::{BookBuildArgs, BookMergeArgs, BookPetaShockArgs, BookQueryArgs, BookSide};
use super::games;
use super::run::Verbosity;
use super::tools::{self, position};
use crate::batch::jobs::book::{check_output, write, write_with, BookJob};
use crate::batch::jobs::Reading;
use crate::book::{build, check, query};

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
    let job = BookJob {
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
    let answer = std::fs::File::open(&args.book).and_then(|file| {
        let len = file.metadata()?.len();
        query::lookup_file(file, len, &pos)
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
            .and_then(|bytes| {
                let text = String::from_utf8_lossy(&bytes);
                check::read(&text).map_err(|e| e.to_string())
            });
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
    let job = BookJob {
        output: args.output,
        reading: Reading::default(),
        options: build::Options::default(),
        min_count: 0,
        force: args.force,
        memory: 0,
        filter: None,
        uniq: false,
    };
    match write(&merged, &job) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
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
    let job = BookJob {
        output: args.output,
        reading: Reading::default(),
        options: build::Options::default(),
        min_count: 0,
        force: args.force,
        memory: 0,
        filter: None,
        uniq: false,
    };
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
