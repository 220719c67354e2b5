//! Batches: many inputs (files, folders, archives, standard input) read in
//! order on worker threads and handed to a job (conversion, training
//! data, a book's counts, mate problems checked), each input's outcome
//! told in input order, outputs placed without loss.
//!
//! A batch is a [`Plan`] (the inputs, how they are walked, the threads,
//! where outputs go), a [`Job`] and an [`Observer`]; [`run`] runs it. The
//! command and the Python package are faces over this module: they turn
//! their arguments into a plan and a job, and say what the observer is
//! told.
//!
//! ```no_run
//! use kifconv::batch::{self, jobs::convert::Convert, Kept, Plan};
//! let plan = Plan::new(vec!["games/".into()]);
//! let job = Convert {
//!     target: kifconv::Target::Usi,
//!     reading: Default::default(),
//!     options: Default::default(),
//!     filter: None,
//! };
//! let mut usi = Vec::new();
//! let mut kept = Kept::default();
//! let (summary, _left_out) = batch::run(&plan, &job, &mut usi, &mut kept).unwrap();
//! println!("{} games, {} failed", summary.games, summary.failed);
//! ```
//!
//! Behind the `batch` feature (archives, globs); the library without it
//! reads and writes records only.

mod archive;
mod entries;
mod filter;
mod inputs;
pub mod job;
pub mod jobs;
mod outcome;
pub mod output;
mod plan;
mod runner;
mod total;
mod walk;

pub use archive::Limits;
pub use filter::Filter;
pub use inputs::is_input_kind;
pub use job::{Job, Source, Tally};
pub use outcome::{InputOutcome, Kept, Observer, Problem, Status, Stop, Summary};
pub use output::InputRoots;
pub use plan::{Destination, Overwrite, Plan};
pub use runner::run;
pub use total::known_total;
