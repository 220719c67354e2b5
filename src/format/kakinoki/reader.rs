//! The Kakinoki reader's one driver: the games of a [`Source`] read line by
//! line. Each line is first offered to the dialect's fixed-place move line
//! ([`Dialect::fixed_line`]), which reads it from its bytes; every other
//! line is decoded (CP932) or taken as it is (UTF-8) and read by the line
//! step ([`LineReader::line`]).
//!
//! Decoded lines go into an arena that the game's events then borrow, so
//! the reading is in two steps: [`plan`] walks the lines, keeps the fixed
//! lines' events and decodes the others in runs; [`replay`] reads the runs
//! with the line step, in line order with the fixed lines' events.

use super::source::Source;
use super::{explain_encoding, games, Dialect, LineReader};
use crate::decode::decode_cp932_cleanly;
use crate::error::Error;
use crate::format::lines;
use crate::record::raw::{Event, RawGame};

/// A CP932 line that does not decode cleanly, or holds a character the
/// binary test counts: the input is to be decoded whole, by the decoder's
/// own rules, and read as UTF-8.
#[derive(Debug)]
pub(crate) struct Unclean;

/// One game's lines, walked: the fixed lines' events, and the runs of
/// lines to read with the line step.
pub(crate) struct Plan<'b> {
    steps: Vec<Step>,
    fixed: Vec<Event<'b>>,
}

/// A run of lines.
enum Step {
    /// Lines read at fixed places: how many events they gave.
    Fixed(usize),
    /// Lines to read with the line step: the text at `start..end` (of the
    /// UTF-8 source, or of the arena for CP932), the first of them line
    /// `first`.
    Text {
        first: u32,
        start: usize,
        end: usize,
    },
}

/// Walks the games of `source` (see [`games`]): each game's fixed lines
/// read, its other lines decoded into `arena` (CP932) or kept in place
/// (UTF-8).
pub(crate) fn plan<'b>(
    source: Source<'b>,
    dialect: &impl Dialect,
    arena: &mut String,
) -> Result<Vec<Plan<'b>>, Unclean> {
    let split = games(source);
    if let Source::Cp932(bytes) = source {
        // Decoded text is rarely longer than half again its bytes.
        arena.reserve(bytes.len() / 2);
    }
    split
        .into_iter()
        .map(|(lines_before, start, end)| {
            plan_game(source, start, end, lines_before, dialect, arena)
        })
        .collect()
}

/// [`plan`] for the game at bytes `start..end`, whose first line is line
/// `lines_before + 1`.
fn plan_game<'b>(
    source: Source<'b>,
    start: usize,
    end: usize,
    lines_before: u32,
    dialect: &impl Dialect,
    arena: &mut String,
) -> Result<Plan<'b>, Unclean> {
    // A game's bytes end where a line starts: no line read here reaches
    // past them.
    let source = match source {
        Source::Utf8(text) => Source::Utf8(&text[..end]),
        Source::Cp932(bytes) => Source::Cp932(&bytes[..end]),
    };
    let bytes = source.bytes();
    let mut plan = Plan {
        steps: Vec::new(),
        // Room for a move every 10 bytes: a KI2 move (`▲７六歩    `)
        // rarely takes fewer. Growing the list copies it.
        fixed: Vec::with_capacity((end - start) / 10),
    };
    // The first line and the byte offset of the run of lines to read with
    // the line step being gathered.
    let mut pending: Option<(u32, usize)> = None;
    let (mut at, mut n) = (start, lines_before);
    while at < end {
        n = n.saturating_add(1);
        let before = plan.fixed.len();
        let Some(len) = dialect.fixed_line(n, source, at, &mut plan.fixed) else {
            let (_, next) = super::source::line_end(&bytes[at..]);
            pending.get_or_insert((n, at));
            at += next;
            continue;
        };
        if let Some((first, from)) = pending.take() {
            plan.text(source, first, from, at, arena)?;
        }
        let taken = plan.fixed.len() - before;
        match plan.steps.last_mut() {
            Some(Step::Fixed(events)) => *events += taken,
            _ => plan.steps.push(Step::Fixed(taken)),
        }
        at += len;
        at += match bytes.get(at..) {
            Some([b'\r', b'\n', ..]) => 2,
            Some([b'\r' | b'\n', ..]) => 1,
            _ => 0,
        };
    }
    if let Some((first, from)) = pending {
        plan.text(source, first, from, end, arena)?;
    }
    Ok(plan)
}

impl Plan<'_> {
    /// Adds the lines at bytes `from..to`, the first of them line `first`,
    /// as a run to read with the line step.
    fn text(
        &mut self,
        source: Source<'_>,
        first: u32,
        from: usize,
        to: usize,
        arena: &mut String,
    ) -> Result<(), Unclean> {
        let (start, end) = match source {
            Source::Utf8(_) => (from, to),
            Source::Cp932(bytes) => {
                let start = arena.len();
                if !decode_cp932_cleanly(&bytes[from..to], arena) {
                    return Err(Unclean);
                }
                (start, arena.len())
            }
        };
        self.steps.push(Step::Text { first, start, end });
        Ok(())
    }

    /// Whether the game has no line but blank ones, in `text` (the
    /// arena, or the UTF-8 source).
    pub(crate) fn is_blank(&self, text: &str) -> bool {
        self.steps.iter().all(|step| match *step {
            Step::Fixed(_) => false,
            Step::Text { start, end, .. } => text[start..end]
                .chars()
                .all(|c| c.is_whitespace() || c == '\u{feff}'),
        })
    }
}

/// The second step: each game read, its runs of lines (in `text`: the
/// UTF-8 source, or the arena) by the line step, in line order with its
/// fixed lines' events. A syntax error fails its game alone.
pub(crate) fn replay<'a>(
    plans: Vec<Plan<'a>>,
    text: &'a str,
    dialect: &impl Dialect,
) -> Vec<Result<RawGame<'a>, Error>> {
    plans
        .into_iter()
        .map(|plan| replay_game(plan, text, dialect).map_err(explain_encoding))
        .collect()
}

fn replay_game<'a>(
    plan: Plan<'a>,
    text: &'a str,
    dialect: &impl Dialect,
) -> Result<RawGame<'a>, Error> {
    // Room for the fixed lines' events and an event every 16 bytes of
    // the other lines.
    let other: usize = plan
        .steps
        .iter()
        .map(|step| match *step {
            Step::Fixed(_) => 0,
            Step::Text { start, end, .. } => (end - start) / 16 + 1,
        })
        .sum();
    let mut reader = LineReader::new(plan.fixed.len() + other);
    let mut fixed = plan.fixed.into_iter();
    for step in plan.steps {
        match step {
            Step::Fixed(events) => reader.events().extend(fixed.by_ref().take(events)),
            Step::Text { first, start, end } => {
                for (n, line) in lines::numbered(&text[start..end]) {
                    reader.line(first.saturating_add(n - 1), line, dialect)?;
                }
            }
        }
    }
    Ok(reader.finish())
}
