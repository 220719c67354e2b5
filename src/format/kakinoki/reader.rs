//! The Kakinoki reader's one driver: the games of a [`Source`] read line by
//! line. Each line is first offered to the dialect's fixed-place move line
//! ([`Dialect::FIXED_LINE`]), which reads it from its bytes; every other
//! line is checked or decoded ([`Source::clean`]) and read by the line step
//! ([`LineReader::line`]).
//!
//! Decoded lines go into an arena that the game's events then borrow, so
//! the reading is in two steps: [`plan`] walks the lines, keeps the fixed
//! lines' events and decodes the others in runs; [`replay`] reads the runs
//! with the line step, in line order with the fixed lines' events.

use super::source::{line_end, Clean, Source, Unclean};
use super::{explain_encoding, games, Dialect, LineReader};
use crate::error::Error;
use crate::format::lines;
use crate::record::raw::{Event, RawGame};

/// One game's lines, walked: the fixed lines' events, and the runs of
/// lines to read with the line step.
pub(crate) struct Plan<'b> {
    steps: Vec<Step<'b>>,
    fixed: Vec<Event<'b>>,
}

/// A run of lines.
enum Step<'b> {
    /// Lines read at fixed places: how many events they gave.
    Fixed(usize),
    /// Lines to read with the line step, the first of them line `first`.
    Text { first: u32, text: Clean<'b> },
}

/// The first lines of a source, checked or decoded already (to tell the
/// format from them): the bytes they end at, and their text.
#[derive(Default)]
pub(crate) struct Prefix<'b> {
    pub(crate) end: usize,
    pub(crate) runs: Vec<Clean<'b>>,
}

/// Walks the games of `source` (see [`games`]): each game's fixed lines
/// read, its other lines checked or decoded into `arena`. The `prefix`
/// lines are not read again.
pub(crate) fn plan<'b, D: Dialect>(
    source: Source<'b>,
    _: &D,
    arena: &mut String,
    mut prefix: Prefix<'b>,
) -> Result<Vec<Plan<'b>>, Unclean> {
    let split = games(source);
    // Lines that reach into a second game are read again.
    if split.first().is_none_or(|&(_, _, end)| prefix.end > end) {
        arena.clear();
        prefix = Prefix::default();
    }
    if let Source::Cp932(bytes) = source {
        arena.reserve(bytes.len() / 2);
    }
    let mut plans = Vec::with_capacity(split.len());
    for (lines_before, start, end) in split {
        let mut plan = Plan {
            steps: Vec::new(),
            fixed: Vec::with_capacity((end - start) / D::BYTES_PER_MOVE),
        };
        let (mut at, mut n) = (start, lines_before);
        if start == 0 {
            for text in prefix.runs.drain(..) {
                plan.steps.push(Step::Text { first: n + 1, text });
                let lines = lines::numbered(text.text(arena)).count();
                n = n.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
            }
            at = prefix.end;
        }
        plan.walk::<D>(source.until(end), at, n, arena)?;
        plans.push(plan);
    }
    Ok(plans)
}

impl<'b> Plan<'b> {
    /// Walks the lines of `source` from byte `at` on, the first of them
    /// line `n + 1`.
    fn walk<D: Dialect>(
        &mut self,
        source: Source<'b>,
        mut at: usize,
        mut n: u32,
        arena: &mut String,
    ) -> Result<(), Unclean> {
        let bytes = source.bytes();
        // The first line and the byte offset of the run of lines to read
        // with the line step being gathered.
        let mut pending: Option<(u32, usize)> = None;
        while at < bytes.len() {
            n = n.saturating_add(1);
            let before = self.fixed.len();
            let Some(len) = D::FIXED_LINE(n, source, at, &mut self.fixed) else {
                pending.get_or_insert((n, at));
                at += line_end(&bytes[at..]).1;
                continue;
            };
            if let Some((first, from)) = pending.take() {
                let text = source.clean(from, at, arena)?;
                self.steps.push(Step::Text { first, text });
            }
            let taken = self.fixed.len() - before;
            match self.steps.last_mut() {
                Some(Step::Fixed(events)) => *events += taken,
                _ => self.steps.push(Step::Fixed(taken)),
            }
            at += len;
            at += match bytes.get(at..) {
                Some([b'\r', b'\n', ..]) => 2,
                Some([b'\r' | b'\n', ..]) => 1,
                _ => 0,
            };
        }
        if let Some((first, from)) = pending {
            let text = source.clean(from, bytes.len(), arena)?;
            self.steps.push(Step::Text { first, text });
        }
        Ok(())
    }

    /// Whether the game has no line but blank ones (`arena` holds the
    /// decoded ones).
    pub(crate) fn is_blank(&self, arena: &str) -> bool {
        self.steps.iter().all(|step| match *step {
            Step::Fixed(_) => false,
            Step::Text { text, .. } => text
                .text(arena)
                .chars()
                .all(|c| c.is_whitespace() || c == '\u{feff}'),
        })
    }
}

/// The second step: each game read, its runs of lines (in the source, or
/// in `arena`) by the line step, in line order with its fixed lines'
/// events. A syntax error fails its game alone.
pub(crate) fn replay<'a>(
    plans: Vec<Plan<'a>>,
    arena: &'a str,
    dialect: &impl Dialect,
) -> Vec<Result<RawGame<'a>, Error>> {
    plans
        .into_iter()
        .map(|plan| replay_game(plan, arena, dialect).map_err(explain_encoding))
        .collect()
}

fn replay_game<'a>(
    plan: Plan<'a>,
    arena: &'a str,
    dialect: &impl Dialect,
) -> Result<RawGame<'a>, Error> {
    // Room for the fixed lines' events and an event every 16 bytes of
    // the other lines.
    let other: usize = plan
        .steps
        .iter()
        .map(|step| match *step {
            Step::Fixed(_) => 0,
            Step::Text { text, .. } => text.text(arena).len() / 16 + 1,
        })
        .sum();
    let mut reader = LineReader::new(plan.fixed.len() + other);
    // The fixed lines' events not yet taken, from `taken` on.
    let (mut fixed, mut taken) = (plan.fixed, 0);
    for step in plan.steps {
        match step {
            // The fixed lines' events, all the game's so far, are moved.
            Step::Fixed(events) if events == fixed.len() && reader.events().is_empty() => {
                *reader.events() = std::mem::take(&mut fixed);
            }
            Step::Fixed(events) => {
                let run = &fixed[taken..taken + events];
                reader.events().extend_from_slice(run);
                taken += events;
            }
            Step::Text { first, text } => {
                for (n, line) in lines::numbered(text.text(arena)) {
                    reader.line(first.saturating_add(n - 1), line, dialect)?;
                }
            }
        }
    }
    Ok(reader.finish())
}
