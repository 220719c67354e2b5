//! What can go wrong with an engine, with the evidence: the engine's
//! command, the last lines exchanged and what it wrote to its standard
//! error.

use std::fmt;
use std::time::Duration;

/// An engine's failure.
#[derive(Debug)]
pub struct EngineError {
    /// The engine: its `id name` once known, else its command line.
    pub engine: String,
    /// What went wrong (boxed: the error stays small to pass around).
    pub kind: Box<EngineErrorKind>,
    /// The last lines sent (`> `) and received (`< `), oldest first.
    pub transcript: Vec<String>,
    /// The last lines of the engine's standard error.
    pub stderr: Vec<String>,
}

/// The kinds of [`EngineError`].
#[derive(Debug)]
pub enum EngineErrorKind {
    /// The command line is not one (an open quote, nothing in it).
    CommandLine(String),
    /// The program could not be started.
    Start(std::io::Error),
    /// The engine stopped reading its input.
    Send(std::io::Error),
    /// The engine ended while kifconv waited for `waiting_for`.
    Ended {
        /// The reply awaited (`usiok`, `readyok`, `bestmove`, …).
        waiting_for: &'static str,
        /// How it ended, when known (`exit status: 1`, a signal).
        status: Option<String>,
    },
    /// No `waiting_for` came within `after`.
    Timeout {
        /// The reply awaited.
        waiting_for: &'static str,
        /// How long kifconv waited.
        after: Duration,
    },
    /// The engine has no option of this name (its options are listed).
    NoOption {
        /// The name asked for.
        name: String,
        /// The names the engine declared.
        known: Vec<String>,
    },
    /// A move the engine sent is not legal (or not a move) in the position
    /// it was given: never played, never written.
    IllegalMove {
        /// Where the move came: `bestmove`, `ponder`, `pv`, `checkmate`.
        what: &'static str,
        /// The `position` command the engine was given.
        position: String,
        /// The move as the engine wrote it, and the moves before it in
        /// its line (for a PV or a ponder move).
        line: String,
        /// Why it is refused.
        reason: String,
    },
    /// A reply that is not USI where one was due (`bestmove` with no move).
    Garbled {
        /// The reply awaited.
        waiting_for: &'static str,
        /// The line received.
        line: String,
    },
}

impl fmt::Display for EngineErrorKind {
    /// What went wrong, without the engine's name or transcript.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineErrorKind::CommandLine(why) => write!(f, "cannot read the command line: {why}"),
            EngineErrorKind::Start(e) => write!(f, "cannot start it: {e}"),
            EngineErrorKind::Send(e) => write!(f, "it no longer reads its input: {e}"),
            EngineErrorKind::Ended {
                waiting_for,
                status,
            } => {
                write!(f, "it ended while kifconv waited for `{waiting_for}`")?;
                match status {
                    Some(status) => write!(f, " ({status})"),
                    None => Ok(()),
                }
            }
            EngineErrorKind::Timeout { waiting_for, after } => write!(
                f,
                "no `{waiting_for}` within {:.1} s (the engine hangs, or needs a longer --timeout)",
                after.as_secs_f64()
            ),
            EngineErrorKind::NoOption { name, known } if known.is_empty() => {
                write!(f, "it has no option `{name}`; it declared none")
            }
            EngineErrorKind::NoOption { name, known } => write!(
                f,
                "it has no option `{name}`; its options: {}",
                known.join(", ")
            ),
            EngineErrorKind::IllegalMove {
                what,
                position,
                line,
                reason,
            } => write!(
                f,
                "{what} `{line}` is not legal after `{position}`: {reason}"
            ),
            EngineErrorKind::Garbled { waiting_for, line } => {
                write!(f, "`{line}` is not a USI `{waiting_for}` reply")
            }
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine {}: {}", self.engine, self.kind)?;
        if !self.transcript.is_empty() {
            write!(f, "\n  last lines exchanged:")?;
            for line in &self.transcript {
                write!(f, "\n    {line}")?;
            }
        }
        if !self.stderr.is_empty() {
            write!(f, "\n  its standard error ends:")?;
            for line in &self.stderr {
                write!(f, "\n    {line}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for EngineError {}
