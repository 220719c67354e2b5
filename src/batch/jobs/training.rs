//! Training data (HCPE, hcpe3, PackedSfenValue) from every input's games,
//! filtered and chosen in input order.

use super::{Games, Reading};
use crate::batch::job::{Emit, Job, Source, Tally};
use crate::batch::outcome::Problem;
use crate::batch::plan::Plan;
use crate::training::filter::{Filter, Rejection};
use crate::training::recode::Output;
use crate::training::select::{Counts, Selector};
use crate::training::uniq::Repeats;
use crate::training::{Data, Game};

/// What a worker makes of an input: its games, for the filters to choose
/// from in input order, or, when every game goes in whole, their bytes.
pub enum Part {
    /// The games, for the filters.
    Games(Vec<Game>),
    /// The bytes of every game.
    Encoded(Encoded),
}

/// The bytes of an input's games, written by a worker, and what went in
/// (the sum of each game's [`crate::training::Written`]).
pub struct Encoded {
    bytes: Vec<u8>,
    games: usize,
    positions: usize,
    missing: usize,
}

/// Writes the games that pass the filters as `data`.
#[derive(Clone, Debug)]
pub struct Training {
    /// The kind written.
    pub data: Data,
    /// How inputs are read.
    pub reading: Reading,
    /// Which games are kept, and what is cut from them.
    pub filter: Filter,
    /// Leave out repeated games or positions, in input order.
    pub repeats: Option<Repeats>,
    /// With repeated positions: a position rotated 180° is the same.
    pub flip_fold: bool,
}

impl Training {
    /// Whether every game goes in whole, so that a worker writes its
    /// bytes: no filter is on and repeats are kept.
    fn keeps_all(&self) -> bool {
        self.filter.is_off() && self.repeats.is_none()
    }

    /// What a worker makes of `games`: their bytes when every game goes
    /// in whole, else the games.
    fn part(&self, games: Games, name: &str, first: usize) -> (Part, Tally) {
        if !self.keeps_all() {
            let (games, tally) = self.games(games, name, first);
            return (Part::Games(games), tally);
        }
        let (encoded, tally) = self.encoded(games, name, first);
        (Part::Encoded(encoded), tally)
    }

    /// The bytes of every game, each written straight from its record; a
    /// game that cannot be written is an error of the input, and what the
    /// target cannot hold a warning, said as [`Training::games`] and
    /// [`Training::select`] say them.
    fn encoded(&self, games: Games, name: &str, first: usize) -> (Encoded, Tally) {
        let Games {
            records, mut tally, ..
        } = games;
        let mut out = Encoded {
            bytes: Vec::new(),
            games: 0,
            positions: 0,
            missing: 0,
        };
        let (mut said, mut losses) = (Vec::new(), Vec::new());
        for (i, record) in records.iter().enumerate() {
            let game = first + i + 1;
            said.clear();
            match self.data.push_read(record, &mut out.bytes, Some(&mut said)) {
                Ok(written) => {
                    out.games += 1;
                    out.positions += written.positions;
                    out.missing += written.missing;
                    if let Some(loss) = self.data.loss_written(&written) {
                        losses.push(format!("{name}: warning: game {game}: {loss}"));
                    }
                }
                Err(e) => tally
                    .errors
                    .push(Problem::said(name, format!("game {game}: {e}"))),
            }
            for w in &said {
                tally
                    .warnings
                    .push(format!("{name}: warning: game {game}: {w}"));
            }
        }
        tally.warnings.append(&mut losses);
        (out, tally)
    }

    /// The replay, evaluations and ratings of each game (the work a
    /// worker does); what is kept is chosen in input order.
    fn games(&self, games: Games, name: &str, first: usize) -> (Vec<Game>, Tally) {
        let Games {
            records, mut tally, ..
        } = games;
        let mut kept = Vec::with_capacity(records.len());
        for (i, record) in records.iter().enumerate() {
            match Game::of_read(record) {
                Ok(game) => {
                    for w in &game.warnings {
                        tally
                            .warnings
                            .push(format!("{name}: warning: game {}: {w}", first + i + 1));
                    }
                    kept.push(game)
                }
                Err(e) => tally
                    .errors
                    .push(Problem::said(name, format!("game {}: {e}", first + i + 1))),
            }
        }
        (kept, tally)
    }

    /// The bytes of what `part` holds that goes in, counted: the games the
    /// filters keep, or the bytes written, all of which go in.
    fn chosen(
        &self,
        selector: &mut Selector,
        part: Part,
        name: &str,
        first: usize,
        tally: &mut Tally,
    ) -> Vec<u8> {
        match part {
            Part::Games(games) => self.select(selector, games, name, first, tally),
            Part::Encoded(encoded) => {
                selector.kept(encoded.games, encoded.positions, encoded.missing);
                encoded.bytes
            }
        }
    }

    /// The bytes of the games the filters keep; a game that cannot be
    /// encoded is an error of the input, and what the target cannot hold
    /// a warning. `first` is how many games of the input came before.
    fn select(
        &self,
        selector: &mut Selector,
        games: Vec<Game>,
        name: &str,
        first: usize,
        tally: &mut Tally,
    ) -> Vec<u8> {
        let mut bytes = Vec::new();
        for (i, game) in games.into_iter().enumerate() {
            let Some(game) = selector.take(game) else {
                continue;
            };
            if let Some(loss) = self.data.loss(&game) {
                tally
                    .warnings
                    .push(format!("{name}: warning: game {}: {loss}", first + i + 1));
            }
            if let Err(e) = self.data.push(&game, &mut bytes) {
                tally.errors.push(Problem::said(name, e));
            }
        }
        bytes
    }
}

impl Job for Training {
    type Part = Part;
    type State = Selector;
    type Finished = Counts;

    fn extension(&self) -> &str {
        self.data.target().extension()
    }

    fn start(&self, _plan: &Plan) -> Result<Selector, String> {
        Ok(Selector::new(
            self.filter.clone(),
            self.repeats,
            self.flip_fold,
        ))
    }

    fn work(&self, source: Source<'_>, bytes: &[u8]) -> (Part, Tally) {
        self.part(self.reading.read(source, bytes), source.name, 0)
    }

    /// Chosen here, in input order, so that what repeats is the later game
    /// whatever the threads.
    fn take(
        &self,
        selector: &mut Selector,
        source: Source<'_>,
        part: Part,
        tally: &mut Tally,
    ) -> Result<(), String> {
        let bytes = self.chosen(selector, part, source.name, 0, tally);
        if !bytes.is_empty() {
            tally.outputs.push(bytes);
        }
        Ok(())
    }

    fn streams(&self, source: Source<'_>) -> bool {
        self.reading.training_data(source).is_some()
    }

    fn stream(
        &self,
        selector: &mut Selector,
        source: Source<'_>,
        reader: &mut dyn std::io::Read,
        emit: &mut Emit<'_>,
    ) -> Result<Tally, String> {
        // Every entry goes in as it is: rewritten straight, no game made.
        if selector.keeps_all() && self.reading.recodes(source) {
            let output = Output::Data(self.data);
            let (tally, written) = self.reading.recode(source, reader, emit, output);
            selector.kept(written, written, 0);
            return Ok(tally);
        }
        Ok(self
            .reading
            .stream(source, reader, emit, |games, first, emit| {
                let (part, mut tally) = self.part(games, source.name, first);
                let bytes = self.chosen(selector, part, source.name, first, &mut tally);
                let go_on = emit(&bytes);
                (tally, go_on)
            }))
    }

    fn finish(&self, selector: Selector) -> Result<Counts, String> {
        Ok(selector.counts)
    }
}

/// What went into training data and what each filter left out:
/// `training data: 9 games, 1024 positions (12 without an evaluation,
/// written as 0); left out: --min-moves 2 games (40 positions), --max-eval
/// 13 positions cut`.
pub fn summary_line(c: &Counts) -> String {
    let mut out = format!(
        "training data: {} games, {} positions",
        c.games, c.positions
    );
    if c.missing_evals > 0 {
        out.push_str(&format!(
            " ({} without an evaluation, written as 0)",
            c.missing_evals
        ));
    }
    let mut left: Vec<String> = Rejection::ALL
        .iter()
        .filter_map(|r| {
            let (games, positions) = c.removed.get(r)?;
            Some(format!(
                "{} {games} games ({positions} positions)",
                r.option()
            ))
        })
        .collect();
    if c.cut > 0 {
        left.push(format!("--max-eval {} positions cut", c.cut));
    }
    if c.repeated_positions > 0 {
        left.push(format!(
            "--uniq=positions {} positions",
            c.repeated_positions
        ));
    }
    if !left.is_empty() {
        out.push_str(&format!("; left out: {}", left.join(", ")));
    }
    out
}
