//! A batch job: what is done with each input, and with all of them. The
//! runner ([`super::run`]) walks the inputs, reads each one's bytes and
//! hands them to [`Job::work`] on a worker thread, then gives the result
//! to [`Job::take`] in input order, and at the end calls [`Job::finish`].
//! It places whatever outputs the job makes. A job is one type with this
//! one trait; the runner names none.

use super::outcome::Problem;
use super::plan::Plan;
use std::path::Path;

/// One input as a job sees it.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// How messages name it.
    pub name: &'a str,
    /// Its path relative to the folder or archive it was found in (its
    /// own name when given directly): its extension says its kind.
    pub relative: &'a Path,
    /// Whether outputs go to files (one or more for this input) rather
    /// than one after another to a stream.
    pub to_files: bool,
}

/// What working an input gave so far: its outputs and its messages.
#[derive(Debug, Default)]
pub struct Tally {
    /// Outputs to place: each a file of its own in a folder, or written
    /// in turn to the stream.
    pub outputs: Vec<Vec<u8>>,
    /// The games read.
    pub games: usize,
    /// Their mainline moves.
    pub moves: usize,
    /// Each warning, rendered and located.
    pub warnings: Vec<String>,
    /// The errors: of games that failed, or of the whole input.
    pub errors: Vec<Problem>,
}

impl Tally {
    /// A tally of one error.
    pub fn failed(problem: Problem) -> Tally {
        Tally {
            errors: vec![problem],
            ..Tally::default()
        }
    }
}

/// Where [`Job::stream`] sends its outputs as it goes; false when they
/// cannot go on (a closed pipe, a full disk: the runner knows which).
pub type Emit<'a> = dyn FnMut(&[u8]) -> bool + 'a;

/// A batch job (see the module's documentation).
pub trait Job: Sync {
    /// What a worker makes of one input, for [`Job::take`].
    type Part: Send;
    /// What the job gathers across inputs, in input order.
    type State;
    /// What the job gives back at the end.
    type Finished;

    /// The extension of an output file (`usi`, `hcpe`).
    fn extension(&self) -> &str;

    /// The gathered state, made before any input is read; an error stops
    /// the run there.
    fn start(&self, plan: &Plan) -> Result<Self::State, String>;

    /// Works one input's bytes, on any thread. Outputs made here are
    /// written on that thread too.
    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Self::Part, Tally);

    /// Takes an input's part, in input order; may add outputs and messages
    /// to its tally. An error is the job's own (its state cannot be
    /// saved): the run stops.
    fn take(
        &self,
        state: &mut Self::State,
        source: Source<'_>,
        part: Self::Part,
        tally: &mut Tally,
    ) -> Result<(), String>;

    /// Whether an input on disk is read a chunk at a time through
    /// [`Job::stream`] instead of whole (a training file, whose size has no
    /// bound).
    fn streams(&self, _source: Source<'_>) -> bool {
        false
    }

    /// Reads and works an input a chunk at a time, in input order, on the
    /// calling thread, sending outputs to `emit` as they are made.
    fn stream(
        &self,
        _state: &mut Self::State,
        source: Source<'_>,
        _reader: &mut dyn std::io::Read,
        _emit: &mut Emit<'_>,
    ) -> Result<Tally, String> {
        Ok(Tally::failed(Problem::said(
            source.name,
            "this job reads inputs whole",
        )))
    }

    /// Ends the job once every input was taken.
    fn finish(&self, state: Self::State) -> Result<Self::Finished, String>;
}
