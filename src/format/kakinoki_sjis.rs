//! The Shift_JIS reading path of Kakinoki's formats, KIF and KI2: a game
//! read line by line from its CP932 bytes, without decoding the whole file
//! (issue #20). Each line the format's fixed-place reader takes (KIF's
//! commonest move line, [`fixed_move_line`]; a KI2 line of plain moves,
//! [`fixed_moves_line`]; each found before the line is split) or the
//! dialect's [`Dialect::sjis_move_line`] reads (a plain KIF move line)
//! gives its events straight from the bytes; every other line
//! (headers, comments, diagrams, terminal words, anything unusual) is
//! decoded on its own, with the whole-file decoder's decoder, and read with
//! the shared per-line step of the Kakinoki reader
//! ([`LineReader`](crate::format::kakinoki::LineReader)), exactly as the
//! general reader reads it in the decoded text.
//!
//! It stands for the general path only where it gives the same game, so it
//! says `None` (and the caller reads the file the general way) unless the
//! file is one game of KIF or KI2 (forced, or told by
//! [`Format::sniff`]'s own rule, see [`sniff_lines`]) whose every decoded
//! line is clean, plain text (no undecodable byte, no control character)
//! and whose reading warns about nothing, and unless the decoder would
//! choose CP932 (the caller's test, [`crate::decode::cp932_if_clean`],
//! asked once the format is known). The builder's warnings are the
//! caller's to check.

use crate::decode::decode_cp932_cleanly;
use crate::format::kakinoki::{may_hold_games, Dialect, LineReader};
use crate::format::ki2::{read::Ki2, sjis_fixed::fixed_moves_line};
use crate::format::kif::{read::Kif, sjis_fixed::fixed_move_line};
use crate::format::{lines, Format};
use crate::record::raw::{Event, RawGame};

/// How many lines [`Format::sniff`] looks at.
const SNIFF_LINES: u32 = 400;

/// Reads the one KIF or KI2 game in `bytes` (CP932), `format` forced or
/// told from the text, decoding into `arena` the lines read the general
/// way; the game, whose spans borrow `arena`, with its format. `None`
/// when the path cannot stand for the general reader (see the module
/// documentation): more than one game, another format or none told, a
/// line that does not decode cleanly or holds a control character, blank
/// input, a syntax error or any warning.
///
/// `clean_cp932` says whether the decoder would choose CP932 for the bytes
/// if they decode cleanly (see [`crate::decode::cp932_if_clean`]): asked
/// only once the format is told KIF or KI2, as it looks at the whole
/// input, and so does the test for several games: the other formats give
/// up after a few lines.
pub(crate) fn read_game<'a>(
    bytes: &[u8],
    format: Option<Format>,
    clean_cp932: impl FnOnce() -> bool,
    arena: &'a mut String,
) -> Option<(Format, RawGame<'a>)> {
    let mut plan = Plan::default();
    let (format, at) = match format {
        Some(format) => (format, Cursor::default()),
        None => sniff_lines(bytes, arena, &mut plan)?,
    };
    if !matches!(format, Format::Kif | Format::Ki2) || !clean_cp932() || may_hold_games(bytes) {
        return None;
    }
    // Room for a move event per 32 bytes of KIF (a line a move) or per 10
    // of KI2 (`▲７六歩    `, 12 bytes), and for every line decoded:
    // growing either is a tenth of the reading.
    let bytes_per_move = if format == Format::Kif { 32 } else { 10 };
    plan.fast.reserve(bytes.len() / bytes_per_move);
    arena.reserve(bytes.len() + bytes.len() / 2);
    let game = match format {
        Format::Kif => plan.read(bytes, at, fixed_move_line, &Kif, arena)?,
        _ => plan.read(bytes, at, fixed_moves_line, &Ki2, arena)?,
    };
    game.warnings.is_empty().then_some((format, game))
}

/// Where the reading of the bytes is: the byte offset of the next line
/// and the number of the last line read.
#[derive(Clone, Copy, Default)]
struct Cursor {
    offset: usize,
    line: u32,
}

/// One line of the bytes, split as [`lines::numbered`] splits text: at
/// CRLF, LF or a lone CR.
struct Line<'b> {
    /// The line without its ending.
    text: &'b [u8],
    /// The line with its ending.
    whole: &'b [u8],
    /// Whether it ends in a lone CR.
    lone_cr: bool,
}

impl Cursor {
    /// Moves the cursor past the line at its offset, whose text (without
    /// its ending) is `len` bytes long, and past its ending: as
    /// [`Cursor::next`] would, for a line whose text holds neither CR nor
    /// LF.
    fn skip(&mut self, bytes: &[u8], len: usize) {
        let end = self.offset + len;
        let skip = match bytes.get(end..) {
            Some([b'\r', b'\n', ..]) => 2,
            Some([b'\r' | b'\n', ..]) => 1,
            _ => 0,
        };
        self.offset = end + skip;
        self.line = self.line.saturating_add(1);
    }

    /// The next line, if any, and the cursor moved past it.
    fn next<'b>(&mut self, bytes: &'b [u8]) -> Option<Line<'b>> {
        let rest = bytes.get(self.offset..).filter(|rest| !rest.is_empty())?;
        let (end, skip) = match memchr::memchr2(b'\n', b'\r', rest) {
            None => (rest.len(), 0),
            Some(end) if rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n') => (end, 2),
            Some(end) => (end, 1),
        };
        self.offset += end + skip;
        self.line = self.line.saturating_add(1);
        Some(Line {
            text: &rest[..end],
            whole: &rest[..end + skip],
            lone_cr: skip == 1 && rest[end] == b'\r',
        })
    }
}

/// What reading the bytes gives, in line order: runs of lines read on the
/// fast path, whose events wait in `fast`, and runs decoded into the
/// arena, to be read by the line step.
#[derive(Default)]
struct Plan {
    steps: Vec<Step>,
    /// The events of the lines read on the fast path, in order.
    fast: Vec<Event<'static>>,
    /// The run of lines to decode being gathered: the number of its first
    /// line, and the byte offset where it starts.
    pending: Option<(u32, usize)>,
}

/// A run of lines.
enum Step {
    /// Lines read on the fast path: the number of events they gave.
    Fast(usize),
    /// Lines decoded into the arena at `start..end`, the first of them
    /// line `first`.
    Decoded {
        first: u32,
        start: usize,
        end: usize,
    },
}

impl Plan {
    /// Reads the lines from `at` on (see [`Plan::read_lines`]) and replays
    /// them into the game, in `dialect`; `None` for blank input or a
    /// syntax error.
    fn read<'a>(
        mut self,
        bytes: &[u8],
        mut at: Cursor,
        fixed: impl Fn(u32, &[u8], &mut Vec<Event<'static>>) -> Option<usize>,
        dialect: &impl Dialect,
        arena: &'a mut String,
    ) -> Option<RawGame<'a>> {
        self.read_lines(bytes, &mut at, fixed, dialect, arena)?;
        // `not_a_record`'s test for blank input: a move line is not blank.
        if self.fast.is_empty() && arena.chars().all(|c| c.is_whitespace() || c == '\u{feff}') {
            return None;
        }
        let arena: &'a String = arena;
        self.replay(arena, dialect)
    }

    /// Decodes `bytes` onto the end of `arena` as a run of lines starting
    /// with line `first`; `false` when they do not decode cleanly.
    fn decode(&mut self, first: u32, bytes: &[u8], arena: &mut String) -> bool {
        let start = arena.len();
        if !decode_cp932_cleanly(bytes, arena) {
            return false;
        }
        self.steps.push(Step::Decoded {
            first,
            start,
            end: arena.len(),
        });
        true
    }

    /// Decodes the pending run of lines, which ends at byte `end`.
    fn flush(&mut self, bytes: &[u8], end: usize, arena: &mut String) -> Option<()> {
        if let Some((first, start)) = self.pending.take() {
            self.decode(first, &bytes[start..end], arena)
                .then_some(())?;
        }
        Some(())
    }

    /// Reads the lines from `at` on: each on the format's fixed-place
    /// reader (`fixed`, which finds the line's end itself: given the
    /// line's number and the bytes from its start on, it pushes the line's
    /// events and says how long the line is without its ending, or pushes
    /// nothing and says `None`; generic, so that it is inlined) or the
    /// dialect's fast path if one takes it, else gathered into runs to
    /// decode.
    fn read_lines(
        &mut self,
        bytes: &[u8],
        at: &mut Cursor,
        fixed: impl Fn(u32, &[u8], &mut Vec<Event<'static>>) -> Option<usize>,
        dialect: &impl Dialect,
        arena: &mut String,
    ) -> Option<()> {
        loop {
            let start = at.offset;
            let before = self.fast.len();
            let n = at.line.saturating_add(1);
            let fast = if let Some(len) = fixed(n, &bytes[start..], &mut self.fast) {
                at.skip(bytes, len);
                true
            } else {
                let Some(line) = at.next(bytes) else {
                    return self.flush(bytes, start, arena);
                };
                dialect.sjis_move_line(at.line, line.text, &mut self.fast)
            };
            if fast {
                self.flush(bytes, start, arena)?;
                let taken = self.fast.len() - before;
                match self.steps.last_mut() {
                    Some(Step::Fast(events)) => *events += taken,
                    _ => self.steps.push(Step::Fast(taken)),
                }
            } else if self.pending.is_none() {
                self.pending = Some((at.line, start));
            }
        }
    }

    /// Reads the game: the fast lines' events and the decoded lines, read
    /// by the line step, in line order. `None` on a syntax error.
    fn replay<'a>(self, arena: &'a str, dialect: &impl Dialect) -> Option<RawGame<'a>> {
        let mut reader = LineReader::new(self.fast.len() + self.steps.len());
        let mut fast = self.fast.into_iter();
        for step in self.steps {
            match step {
                Step::Fast(events) => reader.events().extend(fast.by_ref().take(events)),
                Step::Decoded { first, start, end } => {
                    for (n, line) in lines::numbered(&arena[start..end]) {
                        reader.line(first + (n - 1), line, dialect).ok()?;
                    }
                }
            }
        }
        Some(reader.finish())
    }
}

/// Tells the format as [`Format::sniff`] tells it from the whole text,
/// decoding the lines one by one (into `arena`, as runs of `plan`) up to
/// the first telling one; the format, and where the reading stopped.
///
/// `sniff` looks at the first 400 lines of the text as `str::lines` splits
/// it, one by one, and the first telling line decides; only a board
/// diagram line (`+---…`, `|…・…|`) counts for later: with no telling line,
/// a diagram makes KIF. So each line is sniffed alone: a line that is no
/// diagram line and that `sniff` tells alone is the telling line. A
/// diagram line is taken for one that tells nothing (then, should it tell
/// KIF after all, the answer is KIF whatever follows, or not KIF only
/// because of a later line: after a diagram line, only a later KIF answer
/// is kept, anything else gives up). A Kakinoki header line (`先手：…`),
/// which makes KIF of a text with no telling line, is passed over: such a
/// text reaches the 400th line or the end, and gives up. `str::lines` splits at CRLF and LF
/// only, so a lone CR before the telling line gives up too, as do 400
/// lines with no answer.
fn sniff_lines(bytes: &[u8], arena: &mut String, plan: &mut Plan) -> Option<(Format, Cursor)> {
    let mut at = Cursor::default();
    let mut diagram = false;
    while at.line < SNIFF_LINES {
        let line = at.next(bytes)?;
        if line.lone_cr {
            return None;
        }
        let start = arena.len();
        if !plan.decode(at.line, line.whole, arena) {
            return None;
        }
        let text = arena[start..].trim_end_matches(['\n', '\r']);
        let body = text.trim_start_matches([' ', '\u{3000}', '\t', '\u{feff}']);
        if body.starts_with("+---") || (body.starts_with('|') && body.contains('・')) {
            diagram = true;
            continue;
        }
        // A Kakinoki header tells nothing alone: a text with no telling
        // line after it is left to the general path, which tells KIF.
        if super::sniff::is_kakinoki_header(body) {
            continue;
        }
        if let Some(format) = Format::sniff(text) {
            return (!diagram || format == Format::Kif).then_some((format, at));
        }
    }
    None
}
