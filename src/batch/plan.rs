//! What a batch reads and where its outputs go: the inputs and how they
//! are walked, the worker threads, the destination, and the switch that
//! stops it.

use super::archive::Limits;
use super::filter::Filter;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A batch's plan, apart from its job.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Files, folders and archives, in order; `-` is standard input.
    pub inputs: Vec<PathBuf>,
    /// Follow symbolic links found in folders.
    pub follow: bool,
    /// Walk hidden files and folders found in folders.
    pub hidden: bool,
    /// Which found files are taken (ripgrep's `--glob`).
    pub filter: Filter,
    /// The largest input, and the most an archive may inflate to.
    pub limits: Limits,
    /// Worker threads, the calling thread among them; at least 1.
    pub jobs: usize,
    /// Where outputs go.
    pub destination: Destination,
    /// Whether existing outputs may be replaced.
    pub overwrite: Overwrite,
    /// Set from another thread to stop the run after the inputs in hand:
    /// nothing half-written stays, and the run ends [`super::Stop::Cancelled`].
    pub cancel: Arc<AtomicBool>,
}

impl Plan {
    /// The plan for `inputs` with everything else as the command's
    /// defaults: every core, outputs to the caller's writer, the limits of
    /// `--max-input-size` and `--max-total-size`.
    pub fn new(inputs: Vec<PathBuf>) -> Plan {
        Plan {
            inputs,
            follow: false,
            hidden: false,
            filter: Filter::default(),
            limits: Limits {
                max_entry: 64 << 20,
                max_total: 16 << 30,
            },
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            destination: Destination::Stream,
            overwrite: Overwrite::Refuse,
            cancel: Arc::default(),
        }
    }
}

/// Where outputs go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// One after another to the writer given to [`super::run`].
    Stream,
    /// A file (or several) an input, under this folder, mirroring the
    /// inputs' relative paths.
    Folder(PathBuf),
}

/// Whether existing outputs may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// Never replace a file.
    Refuse,
    /// Replace files that exist.
    Replace,
    /// An input whose outputs all exist is skipped.
    SkipExisting,
}
