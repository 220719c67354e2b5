//! Analysis: each input's games searched by engines and written, as
//! conversion writes them, with the engine's values and lines in their
//! comments. Each worker thread takes an engine of the pool for an
//! input's games and gives it back.

use super::convert::{Convert, Separator};
use crate::batch::job::{Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::plan::Plan;
use crate::training::filter::Rejection;
use crate::usi::{self, Analysed, Analysis, Engine, EngineError, Timeouts};
use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineCommand {
    /// The command line.
    pub command: String,
    /// The options set after `usi`.
    pub options: Vec<(String, String)>,
    /// How long each reply may take.
    pub timeouts: Timeouts,
}

impl EngineCommand {
    /// Starts one engine.
    pub fn start(&self) -> Result<Engine, EngineError> {
        Engine::start(&self.command, &self.options, self.timeouts)
    }
}

/// Analyses every input's games with `engines` engines at once.
pub struct Analyze {
    /// How the games are read and written.
    pub convert: Convert,
    /// The engine.
    pub engine: EngineCommand,
    /// How many engines search at once.
    pub engines: usize,
    /// What each search is.
    pub analysis: Analysis,
    pool: Pool,
}

/// The engines not in use, how many are alive (idle or busy), and a wait
/// for one.
#[derive(Default)]
struct Pool {
    state: Mutex<(Vec<Engine>, usize)>,
    changed: Condvar,
}

/// What the analysis counted over every input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// What the engines did.
    pub analysed: Analysed,
    /// Games not written because their engine failed.
    pub failed_games: usize,
}

/// An input's part: what the filter left out and what was analysed.
pub struct Part {
    left_out: Vec<Rejection>,
    counts: Counts,
}

/// The gathered state: conversion's, and the counts.
pub struct State {
    separator: Separator,
    counts: Counts,
}

impl Analyze {
    /// The job; its engines start with the run.
    pub fn new(
        convert: Convert,
        engine: EngineCommand,
        engines: usize,
        analysis: Analysis,
    ) -> Analyze {
        Analyze {
            convert,
            engine,
            engines: engines.max(1),
            analysis,
            pool: Pool::default(),
        }
    }

    /// An idle engine, waiting for one when all are busy; `None` when none
    /// is alive.
    fn take_engine(&self) -> Option<Engine> {
        let mut state = self.pool.state.lock().ok()?;
        loop {
            if let Some(engine) = state.0.pop() {
                return Some(engine);
            }
            if state.1 == 0 {
                return None;
            }
            state = self.pool.changed.wait(state).ok()?;
        }
    }

    /// Gives an engine back, or (`None`) says one was lost.
    fn give_back(&self, engine: Option<Engine>) {
        if let Ok(mut state) = self.pool.state.lock() {
            match engine {
                Some(engine) => state.0.push(engine),
                None => state.1 -= 1,
            }
        }
        self.pool.changed.notify_all();
    }
}

impl Job for Analyze {
    type Part = Part;
    type State = State;
    /// The games the filter left out, by why, and the analysis' counts.
    type Finished = (BTreeMap<Rejection, usize>, Counts);

    fn extension(&self) -> &str {
        self.convert.extension()
    }

    fn start(&self, plan: &Plan) -> Result<State, String> {
        let separator = self.convert.start(plan)?;
        // Every engine starts before any input is read: a wrong command
        // line stops the run at once.
        let started: Vec<Result<Engine, EngineError>> = std::thread::scope(|scope| {
            let starting: Vec<_> = (0..self.engines)
                .map(|_| scope.spawn(|| self.engine.start()))
                .collect();
            starting
                .into_iter()
                .map(|t| t.join().expect("starting an engine does not panic"))
                .collect()
        });
        let mut engines = Vec::with_capacity(self.engines);
        for engine in started {
            engines.push(engine.map_err(|e| e.to_string())?);
        }
        let alive = engines.len();
        *self
            .pool
            .state
            .lock()
            .map_err(|_| "the engine pool is poisoned")? = (engines, alive);
        Ok(State {
            separator,
            counts: Counts::default(),
        })
    }

    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Part, Tally) {
        let mut games = self.convert.reading.read(source, bytes);
        let left_out = self.convert.admit(&mut games, source.name);
        let mut counts = Counts::default();
        let Some(mut engine) = self.take_engine() else {
            let tally = Tally::failed(Problem::said(
                source.name,
                "no engine is left to analyse with",
            ));
            return (Part { left_out, counts }, tally);
        };
        let mut kept = Vec::with_capacity(games.records.len());
        for (n, mut record) in std::mem::take(&mut games.records).into_iter().enumerate() {
            match usi::analyze(&mut engine, &mut record, &self.analysis) {
                Ok(analysed) => {
                    counts.analysed.add(analysed);
                    kept.push(record);
                }
                Err(error) => {
                    counts.failed_games += 1;
                    games.tally.errors.push(Problem::said(
                        source.name,
                        format!("game {}: {error}", n + 1),
                    ));
                    // The engine's state is unknown after a failure: a new
                    // one takes its place.
                    drop(engine);
                    match self.engine.start() {
                        Ok(fresh) => engine = fresh,
                        Err(e) => {
                            self.give_back(None);
                            let message =
                                format!("the games after game {} are not written: {e}", n + 1);
                            games.tally.errors.push(Problem::said(source.name, message));
                            games.records = kept;
                            return (
                                Part { left_out, counts },
                                self.convert.write(games, source, bytes),
                            );
                        }
                    }
                }
            }
        }
        self.give_back(Some(engine));
        games.records = kept;
        (
            Part { left_out, counts },
            self.convert.write(games, source, bytes),
        )
    }

    fn take(
        &self,
        state: &mut State,
        source: Source<'_>,
        part: Part,
        tally: &mut Tally,
    ) -> Result<(), String> {
        let counts = &mut state.counts;
        counts.analysed.add(part.counts.analysed);
        counts.failed_games += part.counts.failed_games;
        self.convert
            .take(&mut state.separator, source, part.left_out, tally)
    }

    fn finish(&self, state: State) -> Result<Self::Finished, String> {
        // The engines end here (quit, then a kill after the grace time).
        if let Ok(mut state) = self.pool.state.lock() {
            for engine in state.0.drain(..) {
                engine.quit();
            }
        }
        Ok((self.convert.finish(state.separator)?, state.counts))
    }
}
