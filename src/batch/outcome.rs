//! What a batch says of each input, and of the whole run.

use std::path::PathBuf;

/// How one input went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Read and worked whole.
    Ok,
    /// Some games failed; the good ones went to the stream.
    Partial,
    /// Nothing of it was kept.
    Failed,
    /// Found and left alone (a link not followed, a FIFO, macOS metadata):
    /// its one warning says why.
    Skipped,
    /// Left alone because its outputs all exist (`Overwrite::SkipExisting`).
    Existing,
}

impl Status {
    /// The name reports give it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Partial => "partial",
            Status::Failed => "failed",
            Status::Skipped | Status::Existing => "skipped",
        }
    }
}

/// An error about an input, rendered as the command prints it (located:
/// `path:line:column: error: …`, the line, a caret), with the reader's
/// typed error when it came from one.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The message.
    pub text: String,
    /// The reader's error, with its place.
    pub error: Option<crate::Error>,
}

impl Problem {
    /// An error known only by its message, `name: error: message`.
    pub fn said(name: &str, message: impl std::fmt::Display) -> Problem {
        Problem {
            text: format!("{name}: error: {message}"),
            error: None,
        }
    }

    /// A reader's error, located in the input `name`.
    pub fn read(name: &str, error: crate::Error) -> Problem {
        Problem {
            text: error.render(name).trim_end().to_string(),
            error: Some(error),
        }
    }

    /// The message's first line.
    pub fn first_line(&self) -> &str {
        self.text.lines().next().unwrap_or("")
    }
}

/// One input's outcome, handed to the [`super::Observer`] in input order.
#[derive(Clone, Debug)]
pub struct InputOutcome {
    /// The input as messages name it (`archive.zip:entry` in an archive).
    pub path: String,
    /// How it went.
    pub status: Status,
    /// The games read, and their mainline moves.
    pub games: usize,
    /// Its mainline moves.
    pub moves: usize,
    /// Each warning, rendered and located.
    pub warnings: Vec<String>,
    /// Its errors (a failed input has one at least).
    pub errors: Vec<Problem>,
    /// The files written for it (with an output folder).
    pub outputs: Vec<PathBuf>,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The inputs read (skipped ones not counted).
    pub files: usize,
    /// Those that failed, or partly failed.
    pub failed: usize,
    /// The games read.
    pub games: usize,
    /// Their mainline moves.
    pub moves: usize,
    /// The warnings said.
    pub warnings: usize,
    /// Things found and left alone, each with a warning.
    pub skipped: usize,
    /// Inputs left alone because their outputs all exist.
    pub existing: usize,
}

impl Summary {
    /// Adds an input's outcome.
    pub fn add(&mut self, outcome: &InputOutcome) {
        match outcome.status {
            Status::Skipped => {
                self.skipped += 1;
                self.warnings += outcome.warnings.len();
                return;
            }
            Status::Existing => {
                self.existing += 1;
                self.files += 1;
                return;
            }
            Status::Failed | Status::Partial => self.failed += 1,
            Status::Ok => {}
        }
        self.files += 1;
        self.games += outcome.games;
        self.moves += outcome.moves;
        self.warnings += outcome.warnings.len();
    }
}

/// Why a run ended before its inputs did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The run as a whole could not go on (the output folder cannot be
    /// written, a book's run cannot be saved, the stream fails): the
    /// message says why. Nothing half-written stays.
    Fatal(String),
    /// The stream given to [`super::run`] stopped taking output (a full
    /// disk; a closed pipe is no error: the run just ends).
    Output(String),
    /// [`super::Plan::cancel`] was set.
    Cancelled,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Fatal(why) => f.write_str(why),
            Stop::Output(e) => write!(f, "cannot write the output: {e}"),
            Stop::Cancelled => f.write_str("cancelled"),
        }
    }
}

/// Told of each input as the run takes it, in input order, on the calling
/// thread: the command prints and counts, Python keeps.
pub trait Observer {
    /// Told of one input.
    fn input(&mut self, outcome: InputOutcome);
}

/// An observer that keeps every outcome.
#[derive(Debug, Default)]
pub struct Kept(pub Vec<InputOutcome>);

impl Observer for Kept {
    fn input(&mut self, outcome: InputOutcome) {
        self.0.push(outcome);
    }
}
