//! The book tools that turn one book file into another (`book convert`,
//! `book peta-shock`), for the command and Python alike: the input read,
//! the output written beside its name and put in place, never over the
//! input nor over a file that exists unless asked.

use super::book::{check_output, write, write_with, BookJob};
use crate::book::file::{self, BookFormat};
use crate::book::{check, db2016, peta_shock, sort, ybb};
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
    /// About how many bytes a text book converted into a `.ybb` may take.
    pub memory: usize,
}

/// Converts the book `input` (read as `from`) into `output` (written as
/// `to`), folding white-to-move positions into their rotations with
/// `flip_fold`; a position with no ply is written with ply 1; `crlf` ends
/// a text book's lines with CRLF. A text book becomes a `.ybb` in about
/// `memory` bytes (sorted, then written through runs on disk beside the
/// output); the other conversions hold the book whole.
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
    if (from, to) == (BookFormat::Db2016, BookFormat::Ybb) {
        return text_to_ybb(input, output, flip_fold, force, memory);
    }
    let name = input.display();
    let bytes = std::fs::read(input).map_err(|e| format!("{name}: {e}"))?;
    let mut loaded = file::read(&bytes, from).map_err(|e| format!("{name}: {e}"))?;
    drop(bytes);
    let mut warnings: Vec<String> = loaded
        .warnings
        .iter()
        .map(|w| format!("{name}: {w}"))
        .collect();
    if flip_fold {
        let (_, held) = loaded.book.fold_flips();
        if held > 0 {
            warnings.push(format!(
                "{name}: {held} counts added past the largest number a count can hold; kept at that number"
            ));
        }
    }
    let no_ply = loaded.book.give_plies();
    if no_ply > 0 {
        warnings.push(format!(
            "{name}: {no_ply} positions had no ply; written with ply 1"
        ));
    }
    let mut job = BookJob::writing(output.to_path_buf(), force, to);
    job.crlf = crlf;
    let lost = write(&loaded.book, &job)?;
    warnings.extend(lost.iter().map(|w| format!("{}: {w}", output.display())));
    Ok(Converted {
        positions: loaded.book.entries.len(),
        moves: loaded.book.entries.values().map(|e| e.moves.len()).sum(),
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

/// [`convert_file`] of a text book into a `.ybb` in bounded memory: the
/// text sorted and mended as `book sort` does it into a temporary file
/// beside the output, then written as a `.ybb` through runs on disk.
fn text_to_ybb(
    input: &Path,
    output: &Path,
    flip_fold: bool,
    force: bool,
    memory: usize,
) -> Result<Converted, String> {
    let name = input.display();
    let dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let sorted_path = dir.join(format!(".kifconv-sorted-{}.db", std::process::id()));
    let sorted_file = Removed(sorted_path.clone());
    let options = sort::Options {
        flip_fold,
        memory: Some(memory),
        dir: Some(dir.clone()),
    };
    let sorted = std::fs::File::open(input)
        .map_err(|e| e.to_string())
        .and_then(|file| {
            let mut out = std::io::BufWriter::new(
                std::fs::File::create_new(&sorted_path).map_err(|e| e.to_string())?,
            );
            let sorted = sort::sort(&mut std::io::BufReader::new(file), &mut out, &options)
                .map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            Ok(sorted)
        })
        .map_err(|e| format!("{name}: {e}"))?;
    let mut warnings: Vec<String> = sorted
        .scanner
        .findings
        .iter()
        .map(|f| format!("{name}: {}", f.warning()))
        .collect();
    if sorted.no_ply > 0 {
        warnings.push(format!(
            "{name}: {} positions had no ply; written with ply 1",
            sorted.no_ply
        ));
    }
    let job = BookJob::writing(output.to_path_buf(), force, BookFormat::Ybb);
    let written = write_with(&job, |out| {
        let text = std::fs::File::open(&sorted_file.0)?;
        ybb::write_streamed(&mut std::io::BufReader::new(text), out, memory, &dir)
    })?;
    let losses = written.losses();
    warnings.extend(losses.iter().map(|w| format!("{}: {w}", output.display())));
    Ok(Converted {
        positions: written.positions as usize,
        moves: written.moves as usize,
        warnings,
    })
}

/// A temporary file, removed when dropped.
struct Removed(std::path::PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
