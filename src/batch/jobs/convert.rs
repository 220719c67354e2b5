//! Conversion: each input's games written in the target record format.

use super::{Games, Reading};
use crate::batch::job::{Emit, Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::plan::{Destination, Plan};
use crate::format::lost;
use crate::training::filter::{Filter, Rejection};
use crate::training::recode::Output;
use crate::training::Game;
use crate::write::{self, Options, Positions, WriteError};
use crate::Target;
use std::collections::BTreeMap;

/// Converts every input to `target`.
#[derive(Clone, Debug)]
pub struct Convert {
    /// The format written.
    pub target: Target,
    /// How inputs are read.
    pub reading: Reading,
    /// How the target is written (encoding, positions, CSA version).
    pub options: Options,
    /// Which games are written; `None` writes every game read.
    pub filter: Option<Filter>,
}

/// With CSA to a stream, whether a game went there already (CSA
/// separates games by `/`).
#[derive(Debug, Default)]
pub struct Separator {
    csa_stream: bool,
    wrote: bool,
    /// The games the filter left out, by why.
    left_out: BTreeMap<Rejection, usize>,
}

impl Separator {
    /// Puts the separator before `tally`'s outputs if they follow others.
    fn put(&mut self, tally: &mut Tally) {
        if !self.csa_stream || tally.outputs.is_empty() {
            return;
        }
        if self.wrote {
            tally.outputs.insert(0, b"/\n".to_vec());
        }
        self.wrote = true;
    }
}

impl Convert {
    /// The games the filter keeps, and those it left out, by why (a game
    /// that cannot be replayed is an error).
    pub(crate) fn admit(&self, games: &mut Games, name: &str) -> Vec<Rejection> {
        let Some(filter) = &self.filter else {
            return Vec::new();
        };
        let mut left_out = Vec::new();
        let mut errors = Vec::new();
        let mut n = 0;
        games.records.retain(|record| {
            n += 1;
            let admitted = Game::of_read(record)
                .map_err(|e| errors.push(Problem::said(name, format!("game {n}: {e}"))))
                .and_then(|game| filter.admit(&game).map_err(|why| left_out.push(why)));
            admitted.is_ok()
        });
        games.tally.errors.append(&mut errors);
        left_out
    }

    /// Where `character`, which the output's encoding cannot hold, first
    /// stands in the input `bytes` (decoded as reading decoded them): an
    /// error there, with `message`; `None` when the input does not hold it
    /// (a character of kifconv's own text).
    fn unencodable_at(
        &self,
        bytes: &[u8],
        source: Source<'_>,
        character: char,
        message: &str,
    ) -> Option<crate::Error> {
        let text = self.decoded(bytes, source);
        let at = text.find(character)?;
        Some(unencodable_error(&text, at, message))
    }

    /// The input `bytes` decoded as reading decoded them.
    fn decoded(&self, bytes: &[u8], source: Source<'_>) -> String {
        let hint = crate::decode::ExtensionHint::from_path(source.relative);
        crate::decode::decode(bytes, self.reading.encoding, hint)
            .text
            .into_owned()
    }

    /// With `--lossy`: a warning at every character of the input that
    /// `encoding` cannot hold, which the output writes as 〓.
    fn lossy_warnings(
        &self,
        bytes: &[u8],
        source: Source<'_>,
        encoding: crate::write::OutputEncoding,
    ) -> Vec<String> {
        let text = self.decoded(bytes, source);
        text.char_indices()
            .filter(|&(_, c)| !encoding.holds(c))
            .map(|(at, c)| {
                let message = format!(
                    "{}; written as {}",
                    WriteError::Unencodable {
                        character: c,
                        encoding
                    },
                    crate::write::LOSSY_MARK
                );
                let error = unencodable_error(&text, at, &message);
                let location = &error.location;
                crate::record::Warning {
                    line: location.line,
                    column: location.column,
                    text: location.text.clone(),
                    message: error.message.clone(),
                }
                .render(source.name)
            })
            .collect()
    }

    /// The outputs of `games`: one for the stream, or one a file. `bytes`
    /// are the input's, for the place of a character the output cannot
    /// hold.
    pub(crate) fn write(&self, games: Games, source: Source<'_>, bytes: &[u8]) -> Tally {
        let Games {
            records,
            mut tally,
            training,
        } = games;
        if records.is_empty() {
            return tally;
        }
        if let Some(w) = lost::warning(&records, self.target, self.reading.mainline_only) {
            tally
                .warnings
                .push(format!("{}: warning: {w}", source.name));
        }
        // A training entry's SFEN is its stored position (its start), not
        // the position after its move, unless a ply is asked for.
        let mut options = self.options.clone();
        if training && options.positions == Positions::Last {
            options.positions = Positions::AfterPlies(0);
        }
        // The records come straight from the reader, checked as they were
        // built, so they are not checked again. A lossy write is tried
        // strictly first, to say where each character it replaces stands.
        let lossy = std::mem::take(&mut options.lossy);
        let write = |options: &write::Options| {
            if source.to_files {
                write::write_files_read(&records, self.target, options)
            } else {
                write::write_read(&records, self.target, options).map(|b| vec![b])
            }
        };
        let mut written = write(&options);
        if let (true, Err(WriteError::Unencodable { encoding, .. })) = (lossy, &written) {
            let mut warnings = self.lossy_warnings(bytes, source, *encoding);
            if warnings.is_empty() {
                // Not the input's: a character of kifconv's own text.
                let e = written.as_ref().unwrap_err();
                let mark = write::LOSSY_MARK;
                warnings.push(format!("{}: warning: {e}; written as {mark}", source.name));
            }
            tally.warnings.append(&mut warnings);
            options.lossy = true;
            written = write(&options);
        }
        match written {
            Ok(outputs) => tally.outputs = outputs,
            Err(e) => {
                let message = match e {
                    WriteError::PlyPastEnd { ply, moves } => {
                        format!("--ply {ply}: the mainline has only {moves} moves")
                    }
                    WriteError::Unencodable { character, .. } => {
                        let message = format!("{e}; use --out-encoding utf-8, --to kifu/ki2u, or --lossy to write it as 〓");
                        if let Some(error) = self.unencodable_at(bytes, source, character, &message)
                        {
                            tally.errors.push(Problem::read(source.name, error));
                            return tally;
                        }
                        message
                    }
                    e => e.to_string(),
                };
                tally.errors.push(Problem::said(source.name, message));
            }
        }
        tally
    }
}

/// The error at byte `at` of `text`, a character the output cannot hold.
fn unencodable_error(text: &str, at: usize, message: &str) -> crate::Error {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line_text = text[line_start..line_end].trim_end_matches('\r');
    let line = text[..line_start].matches('\n').count() as u32 + 1;
    let shown = text[at..].chars().next().unwrap_or_default().to_string();
    let error = crate::Error::at(
        crate::error::Stage::Decode,
        line,
        line_text,
        at - line_start,
        &shown,
        message,
    );
    error.with_kind(crate::ErrorKind::Unencodable)
}

impl Job for Convert {
    type Part = Vec<Rejection>;
    type State = Separator;
    /// The games the filter left out, by why.
    type Finished = BTreeMap<Rejection, usize>;

    fn extension(&self) -> &str {
        self.target.extension()
    }

    fn start(&self, plan: &Plan) -> Result<Separator, String> {
        Ok(Separator {
            csa_stream: self.target == Target::Csa && plan.destination == Destination::Stream,
            wrote: false,
            left_out: BTreeMap::new(),
        })
    }

    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Vec<Rejection>, Tally) {
        let mut games = self.reading.read(source, bytes);
        let left_out = self.admit(&mut games, source.name);
        (left_out, self.write(games, source, bytes))
    }

    fn take(
        &self,
        separator: &mut Separator,
        _: Source<'_>,
        left_out: Vec<Rejection>,
        tally: &mut Tally,
    ) -> Result<(), String> {
        for why in left_out {
            *separator.left_out.entry(why).or_default() += 1;
        }
        separator.put(tally);
        Ok(())
    }

    /// A training file is read a chunk at a time when its outputs go to
    /// the stream or to one file of the input's (not a file a game, as KIF
    /// and KI2 are, nor JKF's one document).
    fn streams(&self, source: Source<'_>) -> bool {
        let one_file = !source.to_files
            || !matches!(
                self.target,
                Target::Kif | Target::Kifu | Target::Ki2 | Target::Ki2u | Target::Jkf
            );
        one_file && self.reading.training_data(source).is_some()
    }

    fn stream(
        &self,
        separator: &mut Separator,
        source: Source<'_>,
        reader: &mut dyn std::io::Read,
        emit: &mut Emit<'_>,
    ) -> Result<Tally, String> {
        // Each entry's own position as SFEN, every entry: rewritten
        // straight, no record made.
        let own_position = matches!(
            self.options.positions,
            Positions::Last | Positions::AfterPlies(0)
        );
        if self.target == Target::Sfen
            && own_position
            && self.filter.is_none()
            && self.reading.recodes(source)
        {
            return Ok(self.reading.recode(source, reader, emit, Output::Sfen).0);
        }
        Ok(self
            .reading
            .stream(source, reader, emit, |mut games, _, emit| {
                for why in self.admit(&mut games, source.name) {
                    *separator.left_out.entry(why).or_default() += 1;
                }
                // Training data holds no text: no character to place.
                let mut tally = self.write(games, source, &[]);
                separator.put(&mut tally);
                let go_on = tally.outputs.iter().all(|bytes| emit(bytes));
                tally.outputs.clear();
                (tally, go_on)
            }))
    }

    fn finish(&self, separator: Separator) -> Result<BTreeMap<Rejection, usize>, String> {
        Ok(separator.left_out)
    }
}
