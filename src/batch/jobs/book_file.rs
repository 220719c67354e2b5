//! The book tools that turn one book file into another (`book convert`,
//! `book peta-shock`), for the command and Python alike: the input read,
//! the output written beside its name and put in place, never over the
//! input nor over a file that exists unless asked.

use super::book::{check_output, folder_of, write_with, BookJob, Removed};
use crate::book::check::Fault;
use crate::book::file::BookFormat;
use crate::book::{check, convert, db2016, peta_shock, sort, ybb};
use crate::training::packed::{self, Dialect};
use std::io::Write as _;
use std::path::Path;

/// A book converted: its positions and moves, and what was mended or lost
/// on the way, a line each (naming the file).
#[derive(Debug, Default)]
pub struct Converted {
    /// Positions written.
    pub positions: usize,
    /// Moves written.
    pub moves: usize,
    /// What reading mended or could not keep, and what the output's format
    /// could not hold.
    pub warnings: Vec<String>,
}

/// How a book is converted.
#[derive(Clone, Copy, Debug)]
pub struct Conversion {
    /// Fold white-to-move positions into their rotations.
    pub flip_fold: bool,
    /// Replace an output that exists.
    pub force: bool,
    /// End a text book's lines with CRLF.
    pub crlf: bool,
    /// About how many bytes the conversion may take (beyond it, runs on disk).
    pub memory: usize,
}

/// Converts the book `input` (read as `from`) into `output` (written as
/// `to`) in about `memory` bytes (see [`crate::book::convert`]): the
/// book as text, sorted and mended as `book sort` does it (white-to-move
/// positions folded into their rotations with `flip_fold`, a position
/// with no ply given ply 1), then written in `to` (a text book's lines
/// ending in CRLF with `crlf`). Temporary files and runs go beside the
/// output.
pub fn convert_file(
    input: &Path,
    from: BookFormat,
    output: &Path,
    to: BookFormat,
    how: &Conversion,
) -> Result<Converted, String> {
    let Conversion {
        flip_fold,
        force,
        crlf,
        memory,
    } = *how;
    check_output(output, &[input.to_path_buf()], force)?;
    let name = input.display();
    let dir = folder_of(output);
    let text = convert::text_of(input, from, &dir, memory).map_err(|e| format!("{name}: {e}"))?;
    let mut warnings: Vec<String> = text
        .warnings
        .iter()
        .map(|w| format!("{name}: {w}"))
        .collect();
    let options = sort::Options {
        flip_fold,
        memory: Some(memory),
        dir: Some(dir.clone()),
    };
    let sort_into = |out: &mut dyn std::io::Write| {
        let file = std::fs::File::open(&text.path)?;
        sort::sort(&mut std::io::BufReader::new(file), out, &options).map_err(|e| match e {
            db2016::Failure::Io(e) => e,
            db2016::Failure::Book(e) => std::io::Error::other(e.to_string()),
        })
    };
    let mut job = BookJob::writing(output.to_path_buf(), force, to);
    job.crlf = crlf;
    let (sorted, lost) = if to == BookFormat::Db2016 {
        (write_with(&job, sort_into)?, Vec::new())
    } else {
        let sorted_path = dir.join(format!(".kifconv-sorted-{}.db", std::process::id()));
        let sorted_file = Removed(sorted_path.clone());
        let sorted = std::fs::File::create_new(&sorted_path).and_then(|file| {
            let mut out = std::io::BufWriter::new(file);
            let sorted = sort_into(&mut out)?;
            out.flush()?;
            Ok(sorted)
        });
        let sorted = sorted.map_err(|e| format!("{name}: {e}"))?;
        let lost = write_with(&job, |out| {
            let text = std::fs::File::open(&sorted_file.0)?;
            convert::write_sorted(&mut std::io::BufReader::new(text), to, out, memory, &dir)
        })?;
        (sorted, lost)
    };
    // A binary book's text is in the file's order, not sorted, and its
    // lines are no lines of the book.
    let binary = from != BookFormat::Db2016;
    for finding in &sorted.scanner.findings {
        let warning = finding.warning();
        match (binary, finding.fault) {
            (true, Fault::NotSorted) => {}
            (true, _) => warnings.push(format!("{name}: {}", warning.message)),
            (false, _) => warnings.push(format!("{name}: {warning}")),
        }
    }
    let said = [
        (sorted.no_ply, "positions had no ply; written with ply 1"),
        (
            sorted.held,
            "counts added past the largest number a count can hold; kept at that number",
        ),
    ];
    for (n, what) in said.into_iter().filter(|(n, _)| *n > 0) {
        warnings.push(format!("{name}: {n} {what}"));
    }
    warnings.extend(lost.iter().map(|w| format!("{}: {w}", output.display())));
    Ok(Converted {
        positions: sorted.positions,
        moves: sorted.moves,
        warnings,
    })
}

/// Why a peta-shock failed: a line of the input, or anything else.
#[derive(Debug)]
pub enum PetaShockError {
    /// A line of the input is wrong (the message names the line).
    Line(String),
    /// The output could not be placed, or the input read.
    Other(String),
}

/// Peta-shocks the book `input` into `output` (see
/// [`crate::book::peta_shock`]). A `.ybb` is read whole, peta-shocked in
/// its index's order (the order YaneuraOu's command visits it in) and
/// written as a `.ybb` again; a text book is read as it streams.
pub fn peta_shock_file(
    input: &Path,
    output: &Path,
    options: &peta_shock::Options,
    force: bool,
) -> Result<peta_shock::Summary, PetaShockError> {
    check_output(output, &[input.to_path_buf()], force).map_err(PetaShockError::Other)?;
    let (from, to) = (BookFormat::of_path(input), BookFormat::of_path(output));
    if (from, to) == (BookFormat::Ybb, BookFormat::Ybb) {
        return peta_shock_ybb(input, output, options, force);
    }
    if from != BookFormat::Db2016 || to != BookFormat::Db2016 {
        return Err(PetaShockError::Other(format!(
            "peta-shock reads and writes a text book or a .ybb, the same for both (as YaneuraOu's makebook peta_shock), not {} to {}",
            from.name(),
            to.name()
        )));
    }
    let job = BookJob::writing(output.to_path_buf(), force, BookFormat::Db2016);
    let open = || std::fs::File::open(input).map(std::io::BufReader::new);
    let mut bad_line = None;
    let written = write_with(&job, |out| {
        peta_shock::peta_shock(open, out, options).map_err(|e| match e {
            peta_shock::Error::Io(e) => e,
            peta_shock::Error::Book(e) => {
                let message = e.to_string();
                bad_line = Some(message.clone());
                std::io::Error::other(message)
            }
        })
    });
    match (written, bad_line) {
        (Ok(summary), _) => Ok(summary),
        (Err(_), Some(line)) => Err(PetaShockError::Line(line)),
        (Err(e), None) => Err(PetaShockError::Other(e)),
    }
}

/// [`peta_shock_file`] of a `.ybb` into a `.ybb`.
fn peta_shock_ybb(
    input: &Path,
    output: &Path,
    options: &peta_shock::Options,
    force: bool,
) -> Result<peta_shock::Summary, PetaShockError> {
    let name = input.display();
    let bytes = std::fs::read(input).map_err(|e| PetaShockError::Other(format!("{name}: {e}")))?;
    let book = ybb::read(&bytes).map_err(|e| PetaShockError::Line(e.to_string()))?;
    drop(bytes);
    // The text in the .ybb's index order: by packed position.
    let mut order: Vec<([u8; 32], &String, &crate::book::Entry)> = Vec::new();
    for (key, entry) in &book.entries {
        let packed = crate::Position::from_sfen(&format!("{key} 1"))
            .ok()
            .and_then(|pos| packed::pack(&pos, Dialect::PackedSfen).ok())
            .ok_or_else(|| PetaShockError::Other(format!("{name}: `{key}` cannot be packed")))?;
        order.push((packed, key, entry));
    }
    order.sort_unstable_by_key(|o| o.0);
    let mut text = String::from(db2016::HEADER);
    text.push('\n');
    for (_, key, entry) in order {
        db2016::write_entry(&mut text, key, entry);
    }
    let text_options = peta_shock::Options {
        crlf: false,
        ..*options
    };
    let (shocked, summary) = peta_shock::peta_shock_text(&text, &text_options)
        .map_err(|e| PetaShockError::Line(e.to_string()))?;
    let shocked =
        check::read_in_order(&shocked).map_err(|e| PetaShockError::Other(e.to_string()))?;
    let job = BookJob::writing(output.to_path_buf(), force, BookFormat::Ybb);
    write_with(&job, |mut out| ybb::write(&shocked, &mut out)).map_err(PetaShockError::Other)?;
    Ok(summary)
}
