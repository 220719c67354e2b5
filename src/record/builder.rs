//! The one game builder every reader goes through: a [`Record`] from a raw
//! game (KIF, KI2, CSA, Western) or step by step (JKF): choose the start,
//! play every move through the resolver, grow the tree of variations,
//! attach comments, times and endings, and turn a final illegal move into a
//! foul.

use crate::error::{Error, Stage};
use crate::record::raw::{Event, RawGame, Said, Span};
use crate::record::{Ending, EndingKind, Foul, Header, MoveTree, NodeId, Record, Warning};
use crate::resolve::spec::{DropMark, MoveSpec};
use crate::resolve::ResolveError;
use crate::{Color, Handicap, Position, Setup, SetupError, Square};
use std::cell::Cell;
use std::collections::HashMap;

/// The start position of a game: the board if there is one, else the
/// start a header names, else the even game; with what is to be said of
/// it (see [`RawGame::start_note`]).
fn start_of(raw: &mut RawGame<'_>) -> (Setup, Option<Handicap>, Option<String>) {
    debug_assert!(
        raw.hands_only.is_none(),
        "the reader puts hands without a board into the start before the builder"
    );
    let note = raw.start_note.take();
    if let Some(board) = raw.board.take() {
        let handicap = Handicap::detect(&board);
        return (board, handicap, note);
    }
    let handicap = raw.named.unwrap_or(Handicap::Even);
    (handicap.setup(), Some(handicap), note)
}

fn resolve_error(span: &Span<'_>, ply: u32, e: &dyn std::fmt::Display) -> Error {
    span.error(Stage::Resolve, e.to_string()).with_ply(ply)
}

/// Whether a move that cannot be resolved is a move against the rules (a
/// foul the game may end with) rather than text that names no one move:
/// the one rule of every reader (KIF, KI2, CSA, Western, JKF).
pub(crate) fn is_foul(error: &ResolveError) -> bool {
    match error {
        ResolveError::Illegal { .. } => true,
        // No legal move of that piece reaches the square (or, for a drop,
        // no legal drop: only board moves were there to reject): the move
        // the text names is against the rules. A legal move rejected by
        // another marker or a claim means the text is wrong: an error.
        ResolveError::NoCandidate { rejected, .. } => rejected
            .iter()
            .all(|(_, why)| *why == crate::resolve::Mismatch::NotADrop),
        _ => false,
    }
}

/// Whether another move follows in the same line of play.
fn more_moves_follow(events: &[Event<'_>]) -> bool {
    for event in events {
        match event {
            Event::Move { .. } => return true,
            Event::Variation { .. } => return false,
            _ => {}
        }
    }
    false
}

/// Where variations branch, found in time that does not grow with the
/// game: the newest node at each ply (a `変化：N手` branches from the
/// newest line that has a move N), and the position every
/// [`Branches::EVERY`] plies along the lines, so that the position at a
/// branch is a few moves away from a snapshot rather than replayed from
/// the start. Nothing is kept until the first variation, so a game without
/// one pays nothing.
#[derive(Clone, Default)]
struct Branches {
    active: bool,
    newest_at_ply: Vec<NodeId>,
    snapshots: HashMap<NodeId, Position>,
}

impl Branches {
    const EVERY: u32 = 32;

    /// Notes a node just added, with the position after its move: nothing
    /// to do until the first variation, which is all most games ask here.
    #[inline(always)]
    fn added(&mut self, tree: &MoveTree, id: NodeId, pos: &Position) {
        if self.active {
            self.note_added(tree, id, pos);
        }
    }

    /// [`Branches::added`] once the tree is indexed. Out of line, so that
    /// the position copied for a snapshot does not weigh on every move.
    #[inline(never)]
    fn note_added(&mut self, tree: &MoveTree, id: NodeId, pos: &Position) {
        let ply = tree.node(id).ply;
        self.note(id, ply);
        if ply.is_multiple_of(Self::EVERY) {
            self.snapshots.insert(id, pos.clone());
        }
    }

    fn note(&mut self, id: NodeId, ply: u32) {
        let ply = ply as usize;
        if self.newest_at_ply.len() <= ply {
            self.newest_at_ply.resize(ply + 1, NodeId::ROOT);
        }
        self.newest_at_ply[ply] = id;
    }

    /// The newest node with a move `ply`, if any.
    fn newest(&mut self, tree: &MoveTree, ply: u32) -> Option<NodeId> {
        if !self.active {
            // The first variation: index the tree so far, oldest first.
            self.active = true;
            for id in tree.ids() {
                self.note(id, tree.node(id).ply);
            }
        }
        self.newest_at_ply
            .get(ply as usize)
            .copied()
            .filter(|&id| id != NodeId::ROOT)
    }

    /// The position at `node`: from the nearest snapshot on the way back
    /// to the start, the moves that lead there (snapshotting as it goes).
    fn position_at(&mut self, start: &Position, tree: &MoveTree, node: NodeId) -> Position {
        let mut path = Vec::new();
        let mut at = node;
        let mut pos = loop {
            if let Some(pos) = self.snapshots.get(&at) {
                break pos.clone();
            }
            match tree.node(at).mv {
                None => break start.clone(),
                Some(mv) => {
                    path.push((at, mv));
                    at = tree
                        .node(at)
                        .parent
                        .expect("a node with a move has a parent");
                }
            }
        };
        for (id, mv) in path.into_iter().rev() {
            pos.play_unchecked(mv);
            if tree.node(id).ply.is_multiple_of(Self::EVERY) {
                self.snapshots.insert(id, pos.clone());
            }
        }
        pos
    }
}

/// The start position of a game and the rules its setup breaks: a
/// standard start (which [`start_of`] names when the setup is one: its
/// board and side to move, empty hands) is copied, already checked; any
/// other setup is checked here.
fn start_position(
    setup: Setup,
    handicap: Option<Handicap>,
) -> Result<(Position, Vec<SetupError>), SetupError> {
    match handicap {
        Some(handicap) => Ok((
            Position::from_handicap(handicap, setup.move_number),
            Vec::new(),
        )),
        None => Position::from_setup_lenient(setup),
    }
}

/// Turns a raw game into a record, resolving every move.
pub fn build(mut raw: RawGame<'_>) -> Result<Record, Error> {
    let (setup, handicap, start_note) = start_of(&mut raw);
    let board_at = raw.board_at;
    let (start, problems) = start_position(setup, handicap).map_err(|e| {
        let mut message = format!("the start position cannot be played: {e}");
        if let Some(note) = &start_note {
            message.push_str(&format!(" ({note})"));
        }
        match board_at.span_for(e.square()) {
            Some(span) => span.error(Stage::Resolve, message),
            None => Error::at(Stage::Resolve, 1, "", 0, "", message),
        }
    })?;
    if let Some(note) = start_note {
        raw.warnings.push(board_at.warning(None, note));
    }
    for problem in problems {
        let message = format!("the start position breaks a rule: {problem}");
        raw.warnings
            .push(board_at.warning(problem.square(), message));
    }
    let mut record = Record::new(start.clone());
    record.handicap = handicap;
    record.headers = raw
        .headers
        .iter()
        .map(|h| Header {
            key: h.key.to_string(),
            value: h.value.to_string(),
        })
        .collect();
    // Room for a node per event: at least one per move, and no walk over
    // the events to count the moves exactly (comments and terminal words
    // are few next to moves).
    let mut builder = Builder {
        warnings: std::mem::take(&mut raw.warnings),
        ..Builder::new(start.clone(), raw.events.len())
    };
    let context = Context {
        start: &start,
        events: &raw.events,
        first_number: record.start.move_number(),
        budget: Cell::new(LOOK_AHEAD_MOVES),
    };
    builder
        .run(&context, 0, 0, false)
        .map_err(|stop| *stop.error)?;
    record.tree = builder.tree;
    record.warnings = builder.warnings;
    if builder.trailer.is_some() {
        record.trailer = builder.trailer;
    }
    Ok(record)
}

/// At most this many ambiguous moves are being decided at once (each
/// trying its candidates with every later move); a deeper one stays an
/// error that says the bound was reached.
pub const LOOK_AHEAD_PENDING: u32 = 8;

/// The work the look-ahead may do for one game, all candidates together:
/// each later move replayed costs 1, each trial costs the moves it copies
/// (so a long game gets fewer trials, and time stays bounded).
pub const LOOK_AHEAD_MOVES: u32 = 2_000_000;

/// What stays the same while a game is built, look-ahead included.
struct Context<'r, 'a> {
    start: &'r Position,
    events: &'r [Event<'a>],
    /// The number of the first move (a diagram may start at 手数＝N).
    first_number: u32,
    /// Moves the look-ahead may still replay.
    budget: Cell<u32>,
}

/// Why building stopped.
struct Stop {
    error: Box<Error>,
    why: StopKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StopKind {
    /// A move cannot be played: the line of play leading here is wrong.
    Broken,
    /// A later move's text fits several moves that each let the rest be
    /// played: nothing before it is ruled out by that.
    Undecided,
    /// The look-ahead bound was reached.
    Bound,
    /// A quick look-ahead reached an ambiguous move and stopped there:
    /// nothing is ruled out yet.
    Horizon,
}

impl Stop {
    fn broken(error: Error) -> Stop {
        Stop {
            error: Box::new(error),
            why: StopKind::Broken,
        }
    }
}

/// The game builder: the tree so far and where the reader stands in it,
/// with the steps every reader takes (play, comment, bookmark, end, foul,
/// branch). The Kakinoki-style raw games drive it through [`build`]; JKF
/// takes the steps itself. Cloned to try each candidate of an ambiguous
/// move.
#[derive(Clone)]
pub(crate) struct Builder {
    tree: MoveTree,
    warnings: Vec<Warning>,
    pos: Position,
    current: NodeId,
    /// The ply of `current` (moves from the start), kept beside it so that
    /// each move read does not look it up in the tree.
    ply: u32,
    previous: Option<Square>,
    /// Set once the current line has ended (a terminal word or a foul).
    ended: bool,
    /// Set when the current line stopped at a last move that cannot be
    /// decided: what is left of the line is not read.
    cut: bool,
    in_variation: bool,
    branches: Branches,
    trailer: Option<String>,
}

impl Builder {
    /// A builder at `start`, with room for `moves` moves. Its steps warn
    /// of nothing; its warnings are those of [`build`]'s reading.
    pub(crate) fn new(start: Position, moves: usize) -> Builder {
        Builder {
            tree: MoveTree::with_capacity(moves),
            warnings: Vec::new(),
            pos: start,
            current: NodeId::ROOT,
            ply: 0,
            previous: None,
            ended: false,
            cut: false,
            in_variation: false,
            branches: Branches::default(),
            trailer: None,
        }
    }

    /// The position where the reader stands.
    pub(crate) fn position(&self) -> &Position {
        &self.pos
    }

    /// The tree so far.
    pub(crate) fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The node where the reader stands (the last move played).
    pub(crate) fn current(&self) -> NodeId {
        self.current
    }

    /// The destination of the last move, for 同 (JKF's `same`).
    pub(crate) fn previous(&self) -> Option<Square> {
        self.previous
    }

    /// Resolves `spec` where the reader stands.
    pub(crate) fn resolve(&self, spec: &MoveSpec) -> Result<crate::Move, ResolveError> {
        spec.to_move(&self.pos, self.previous)
    }

    /// Plays a legal move, with its time, as the next move of the line.
    pub(crate) fn play(&mut self, mv: crate::Move, time: Option<crate::record::MoveTime>) {
        self.pos.play_unchecked(mv);
        self.record_played(mv, &time);
    }

    /// Records `mv`, just played on the board, with its time, as the next
    /// move of the line: the node, the ply, the branch bookkeeping and the
    /// square 同 names next. Inlined into each of the ways a move is played.
    #[inline(always)]
    fn record_played(&mut self, mv: crate::Move, time: &Option<crate::record::MoveTime>) {
        self.current = self.tree.push_timed(self.current, mv, *time);
        self.ply += 1;
        self.branches.added(&self.tree, self.current, &self.pos);
        self.previous = Some(mv.to());
    }

    /// Plays `spec`, with its time, as the next move of the line when it
    /// names its origin and is legal, resolving and playing it in one step
    /// ([`crate::resolve::play_with_origin`]): what [`Builder::resolve`]
    /// then [`Builder::play`] do. `false`, with nothing changed, for any
    /// other spec or a move that fails: the general path then plays it or
    /// says why not. The time is taken by reference, so that it is copied
    /// from the event into the new node with no copy aside first.
    #[inline]
    fn play_with_origin(
        &mut self,
        spec: &MoveSpec,
        time: &Option<crate::record::MoveTime>,
    ) -> bool {
        let Some(mv) = crate::resolve::play_with_origin(&mut self.pos, spec, self.previous) else {
            return false;
        };
        self.record_played(mv, time);
        true
    }

    /// Plays `spec`, with its time, as the next move of the line when it is
    /// a plain drop and legal ([`crate::resolve::play_marked_drop`]): what
    /// [`Builder::resolve`] then [`Builder::play`] do. `false`, with nothing
    /// changed, for any other spec or a drop that fails. Only a spec marked
    /// as a drop gets past the inlined test; the rest is out of line, so
    /// that the builder's loop does not carry it for every move.
    #[inline(always)]
    fn play_marked_drop(
        &mut self,
        spec: &MoveSpec,
        time: &Option<crate::record::MoveTime>,
    ) -> bool {
        spec.drop == DropMark::Drop && self.play_marked_drop_out_of_line(spec, time)
    }

    /// [`Builder::play_marked_drop`] past its test of the drop mark.
    #[inline(never)]
    fn play_marked_drop_out_of_line(
        &mut self,
        spec: &MoveSpec,
        time: &Option<crate::record::MoveTime>,
    ) -> bool {
        let Some(mv) = crate::resolve::play_marked_drop(&mut self.pos, spec, self.previous) else {
            return false;
        };
        self.record_played(mv, time);
        true
    }

    /// A comment line where the reader stands: on the last move, or on
    /// the line's ending once the line has ended.
    pub(crate) fn comment(&mut self, text: String) {
        let ended = self.ended;
        let node = self.tree.node_mut(self.current);
        match node.ending_mut().filter(|_| ended) {
            Some(ending) => ending.comments.push(text),
            None => node.notes_mut().comments.push(text),
        }
    }

    /// A bookmark on the last move.
    pub(crate) fn bookmark(&mut self, name: String) {
        self.tree
            .node_mut(self.current)
            .notes_mut()
            .bookmarks
            .push(name);
    }

    /// The ending recorded where the reader stands, if any.
    pub(crate) fn ending_mut(&mut self) -> Option<&mut Ending> {
        self.tree.node_mut(self.current).ending_mut()
    }

    /// Ends the line where the reader stands with `ending`.
    pub(crate) fn end(&mut self, ending: Ending) {
        self.tree.node_mut(self.current).set_ending(ending);
        self.ended = true;
    }

    /// Notes that the line has ended where its ending is already recorded
    /// (a second terminal word, or one on a line a fork starts from).
    pub(crate) fn line_ended(&mut self) {
        self.ended = true;
    }

    /// Ends the line with a foul: the move the text names (`text`, and
    /// `mv` when it is known) breaks the rules for `reason`, and the player
    /// to move loses. Returns that player.
    pub(crate) fn foul(
        &mut self,
        text: String,
        reason: String,
        mv: Option<crate::Move>,
        time: Option<crate::record::MoveTime>,
    ) -> Color {
        let by = self.pos.side_to_move();
        self.end(Ending {
            kind: EndingKind::IllegalMove,
            winner: Some(!by),
            text: text.clone(),
            time,
            comments: Vec::new(),
            foul: Some(Foul {
                by,
                text,
                reason,
                mv,
            }),
        });
        by
    }

    /// Goes back to `node`, at position `pos`, to read another line from
    /// there (a variation).
    pub(crate) fn branch(&mut self, node: NodeId, pos: Position) {
        self.current = node;
        self.ply = self.tree.node(node).ply;
        self.pos = pos;
        self.previous = self.tree.node(node).mv.map(|mv| mv.to());
        self.ended = false;
        self.cut = false;
    }

    /// The tree built, and the warnings of [`build`]'s reading.
    pub(crate) fn finish(self) -> (MoveTree, Vec<Warning>) {
        (self.tree, self.warnings)
    }

    /// Plays the events from `from` on. `depth` counts the ambiguous moves
    /// being decided around this call: above 0 this is look-ahead, where a
    /// move that cannot be played (a foul included) rules the line out.
    ///
    /// A `quick` run stops at the next ambiguous move (a [`StopKind::Horizon`])
    /// instead of deciding it.
    fn run(
        &mut self,
        cx: &Context<'_, '_>,
        from: usize,
        depth: u32,
        quick: bool,
    ) -> Result<(), Stop> {
        // The number a move would have in the record's own count, less its
        // ply: a diagram may start after moves already played (手数＝N).
        let number_offset = cx.first_number.saturating_sub(1);
        for (i, event) in (from..).zip(&cx.events[from..]) {
            if self.cut && !matches!(event, Event::Variation { .. }) {
                continue;
            }
            match event {
                Event::Move {
                    span,
                    number,
                    spec,
                    time,
                } => {
                    let ply = self.ply + 1;
                    if self.ended {
                        return Err(Stop::broken(resolve_error(
                            span,
                            number.unwrap_or(ply),
                            &"a move after the end of the game (expected a variation `変化：N手` first)",
                        )));
                    }
                    if depth > 0 {
                        match cx.budget.get().checked_sub(1) {
                            Some(left) => cx.budget.set(left),
                            None => {
                                return Err(Stop {
                                    error: Box::new(resolve_error(
                                        span,
                                        ply,
                                        &"look-ahead bound reached",
                                    )),
                                    why: StopKind::Bound,
                                })
                            }
                        }
                    }
                    let expected = ply + number_offset;
                    if let Some(n) = number.filter(|&n| n != ply && n != expected) {
                        self.warnings
                            .push(span.warning(format!("move numbered {n}, but it is move {ply}")));
                    }
                    if self.play_with_origin(spec, time) || self.play_marked_drop(spec, time) {
                        continue;
                    }
                    match self.resolve(spec) {
                        Ok(mv) => self.play(mv, *time),
                        Err(ResolveError::PieceMismatch {
                            from,
                            found,
                            written,
                        }) if found.is_promoted() && found.unpromote() == written => {
                            // Some writers name a moving promoted piece by its
                            // unpromoted kind (`７五角(53)` for a horse on 5三):
                            // the origin decides which piece moves.
                            let as_found = MoveSpec {
                                piece: found,
                                ..*spec
                            };
                            let mv = self
                                .resolve(&as_found)
                                .map_err(|e| Stop::broken(resolve_error(span, ply, &e)))?;
                            self.warnings.push(span.warning(format!(
                                "the piece on {from} is {} ({}), written as its unpromoted kind {} ({}); the origin decides it, read as {}",
                                found.kanji(),
                                found.csa(),
                                written.kanji(),
                                written.csa(),
                                found.kanji()
                            )));
                            self.play(mv, *time)
                        }
                        Err(e @ ResolveError::Ambiguous { .. })
                            if cx.events[i + 1..]
                                .iter()
                                .any(|e| matches!(e, Event::Move { .. })) =>
                        {
                            if quick {
                                return Err(Stop {
                                    error: Box::new(resolve_error(span, ply, &e)),
                                    why: StopKind::Horizon,
                                });
                            }
                            return self.deduce(cx, i, ply, &e, depth);
                        }
                        Err(e)
                            if depth == 0
                                && is_foul(&e)
                                && !more_moves_follow(&cx.events[i + 1..]) =>
                        {
                            self.illegal_last_move(span, ply, spec, &e, *time)
                        }
                        // The last move of its line, not its first, fits
                        // several moves and nothing after it decides (an
                        // ambiguous KI2 move). The moves before it are kept;
                        // the rest of the line is not read.
                        Err(e @ ResolveError::Ambiguous { .. })
                            if depth == 0 && ply > 1 && !more_moves_follow(&cx.events[i + 1..]) =>
                        {
                            self.warnings.push(span.warning(format!(
                                "move {ply} cannot be read ({e}); the {} moves before it are kept, and the rest of this line of play is not read",
                                ply - 1
                            )));
                            self.cut = true;
                        }
                        Err(e) => return Err(Stop::broken(resolve_error(span, ply, &e))),
                    }
                }
                Event::End {
                    span,
                    word,
                    time,
                    said,
                    ..
                } => {
                    let to_move = self.pos.side_to_move();
                    let node = self.tree.node_mut(self.current);
                    match node.ending_mut() {
                        Some(ending) if ending.foul.is_some() => {
                            // 反則勝ち / 反則負け after the illegal move: the same foul.
                            ending.text.push(' ');
                            ending.text.push_str(word);
                        }
                        Some(_) => {
                            self.warnings.push(span.warning(
                                "a second terminal word for the same line; kept the first",
                            ))
                        }
                        None => {
                            let (kind, winner) = said.ending(to_move);
                            if let Said::Unknown { misdecoded } = said {
                                let hint = if *misdecoded {
                                    " (it looks misdecoded: the file may be in another encoding than it was read as, see --encoding)"
                                } else {
                                    ""
                                };
                                self.warnings.push(span.warning(format!(
                                    "unknown terminal word `{word}`, kept as text{hint}"
                                )));
                            }
                            node.set_ending(Ending {
                                kind,
                                winner,
                                text: word.to_string(),
                                time: *time,
                                comments: Vec::new(),
                                foul: None,
                            });
                        }
                    }
                    self.ended = true;
                }
                Event::Comment { text, .. } => self.comment(text.to_string()),
                Event::Bookmark { name, .. } => self.bookmark(name.to_string()),
                Event::Variation { span, ply } => {
                    let branch = self.branches.newest(&self.tree, *ply);
                    let Some(branch) = branch else {
                        return Err(Stop::broken(span.error(
                            Stage::Resolve,
                            format!("a variation of move {ply}, but no line has a move {ply}"),
                        )));
                    };
                    let parent = self
                        .tree
                        .node(branch)
                        .parent
                        .expect("a move's node has a parent");
                    let pos = self.branches.position_at(cx.start, &self.tree, parent);
                    self.branch(parent, pos);
                    self.in_variation = true;
                }
                Event::Trailer { span, text, said } => {
                    if !self.in_variation && self.trailer.is_none() {
                        self.trailer = Some(text.to_string());
                    }
                    let to_move = self.pos.side_to_move();
                    let node = self.tree.node_mut(self.current);
                    if node.ending().is_none() {
                        match said.map(|said| said.ending(to_move)) {
                            Some((kind, winner)) => {
                                node.set_ending(Ending::new(kind, winner, *text));
                                self.ended = true;
                            }
                            None => self
                                .warnings
                                .push(span.warning("summary line not understood; kept as text")),
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Records the illegal last move of a line as a foul that ends it.
    fn illegal_last_move(
        &mut self,
        span: &Span<'_>,
        ply: u32,
        spec: &crate::resolve::spec::MoveSpec,
        e: &ResolveError,
        time: Option<crate::record::MoveTime>,
    ) {
        let mv = match e {
            // A drop the text does not mark (`▲５三歩` for 二歩):
            // the text stays the foul, as written.
            ResolveError::Illegal {
                mv: crate::Move::Drop { .. },
                ..
            } if spec.drop != DropMark::Drop => None,
            ResolveError::Illegal { mv, .. } => Some(*mv),
            // An illegal drop: the text names it fully.
            ResolveError::NoCandidate { piece, to, .. }
                if spec.drop == DropMark::Drop && piece.is_hand_kind() =>
            {
                Some(crate::Move::Drop {
                    kind: *piece,
                    to: *to,
                })
            }
            _ => None,
        };
        let by = self.foul(span.text_string(), e.to_string(), mv, time);
        self.warnings.push(span.warning(format!(
            "move {ply} is illegal ({e}); the game is recorded as lost by {by}'s foul"
        )));
    }

    /// Deduction by look-ahead: the move at event `i` fits several
    /// candidates (`ambiguous`). Each is tried with every later event of
    /// the record, mainline and variations; a candidate with which a later
    /// move cannot be played is ruled out. Exactly one left is the move,
    /// with a warning naming the candidates and the moves that ruled the
    /// others out; the builder is then at the end of the record. Several
    /// left stay an error naming them.
    fn deduce(
        &mut self,
        cx: &Context<'_, '_>,
        i: usize,
        ply: u32,
        ambiguous: &ResolveError,
        depth: u32,
    ) -> Result<(), Stop> {
        let Event::Move { span, time, .. } = &cx.events[i] else {
            unreachable!("deduce is called on a move");
        };
        let ResolveError::Ambiguous { candidates, .. } = ambiguous else {
            unreachable!("deduce is called on an ambiguous move");
        };
        let error = |note: String| {
            let mut error = resolve_error(span, ply, ambiguous);
            error.message.push_str(&note);
            error
        };
        let bound = || {
            Stop {
            error: Box::new(error(format!(
                "; the look-ahead bound was reached before the later moves could decide (at most {LOOK_AHEAD_PENDING} ambiguous moves pending, a work budget of {LOOK_AHEAD_MOVES} moves replayed or copied per game)"
            ))),
            why: StopKind::Bound,
        }
        };
        let listed = |moves: &mut dyn Iterator<Item = crate::Move>| {
            moves.map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
        };
        let deduced = |mv: crate::Move, ruled_out: &[(crate::Move, Error)]| {
            let why: Vec<String> = ruled_out
                .iter()
                .map(|(other, e)| format!("with {other}, {}", later_failure(e)))
                .collect();
            span.warning(format!(
                "move {ply} fits {} moves ({}); deduced {mv}, the only one with which every later move can be played: {}",
                candidates.len(),
                listed(&mut candidates.iter().copied()),
                why.join("; ")
            ))
        };
        let charge = || {
            let copied = u32::try_from(self.tree.len()).unwrap_or(u32::MAX);
            match cx.budget.get().checked_sub(copied) {
                Some(left) => {
                    cx.budget.set(left);
                    Ok(())
                }
                None => Err(bound()),
            }
        };
        // A quick look first: each candidate up to the next ambiguous move.
        // When that rules out all but one, the move is decided without
        // anything pending, however many ambiguous moves follow.
        let mut ruled_out: Vec<(crate::Move, Error)> = Vec::new();
        let mut open = Vec::with_capacity(candidates.len());
        for &mv in candidates {
            charge()?;
            let mut trial = self.clone();
            trial.play(mv, *time);
            match trial.run(cx, i + 1, depth + 1, true) {
                Err(stop) if stop.why == StopKind::Broken => ruled_out.push((mv, *stop.error)),
                Err(stop) if stop.why == StopKind::Bound => return Err(bound()),
                _ => open.push(mv),
            }
        }
        if let [mv] = open[..] {
            let warning = deduced(mv, &ruled_out);
            self.play(mv, *time);
            self.warnings.push(warning);
            return self.run(cx, i + 1, depth, false);
        }
        if depth >= LOOK_AHEAD_PENDING {
            return Err(bound());
        }
        let mut playable: Vec<(crate::Move, Builder, Option<Stop>)> = Vec::new();
        for mv in open {
            charge()?;
            let mut trial = self.clone();
            trial.play(mv, *time);
            match trial.run(cx, i + 1, depth + 1, false) {
                Ok(()) => playable.push((mv, trial, None)),
                Err(stop) => match stop.why {
                    StopKind::Broken => ruled_out.push((mv, *stop.error)),
                    StopKind::Undecided => playable.push((mv, trial, Some(stop))),
                    StopKind::Bound | StopKind::Horizon => return Err(bound()),
                },
            }
        }
        match playable.len() {
            0 if ruled_out.windows(2).all(|w| {
                (
                    w[0].1.location.line,
                    w[0].1.location.column,
                    &w[0].1.message,
                ) == (
                    w[1].1.location.line,
                    w[1].1.location.column,
                    &w[1].1.message,
                )
            }) =>
            {
                // The same later move fails whichever is played: that move
                // is the error.
                let (_, mut later) = ruled_out.swap_remove(0);
                later.message.push_str(&format!(
                    " (with each of {} for move {ply} on line {}, whose text fits {})",
                    listed(&mut candidates.iter().copied()),
                    span.line,
                    if candidates.len() == 2 { "both" } else { "all" }
                ));
                Err(Stop::broken(later))
            }
            0 => {
                let why: Vec<String> = ruled_out
                    .iter()
                    .map(|(mv, e)| format!("with {mv}, {}", later_failure(e)))
                    .collect();
                Err(Stop::broken(error(format!(
                    "; none of them lets every later move be played: {}",
                    why.join("; ")
                ))))
            }
            1 => {
                let (mv, trial, stop) = playable.pop().expect("one candidate");
                let warning = deduced(mv, &ruled_out);
                let at = self.warnings.len();
                *self = trial;
                self.warnings.insert(at, warning);
                match stop {
                    None => Ok(()),
                    Some(stop) => Err(stop),
                }
            }
            _ => Err(Stop {
                error: Box::new(error(if playable.len() == candidates.len() {
                    "; each of them lets every later move be played, so the record does not say which".to_string()
                } else {
                    format!(
                        "; {} each let every later move be played, so the record does not say which",
                        listed(&mut playable.iter().map(|(mv, _, _)| *mv))
                    )
                })),
                why: StopKind::Undecided,
            }),
        }
    }
}

/// How a later move failed under a candidate, for the deduction warning.
fn later_failure(e: &Error) -> String {
    let at = match e.location.ply {
        Some(ply) => format!(
            "move {ply} (line {}, `{}`)",
            e.location.line, e.location.text
        ),
        None => format!("line {} (`{}`)", e.location.line, e.location.text),
    };
    format!("{at} cannot be played: {}", e.message)
}

/// A record of one line's game (USI, USEN) starting at `start`, with the
/// named handicap it is, and a warning on line `n` for each rule the start
/// breaks.
pub fn line_record(start: Position, problems: Vec<SetupError>, n: u32) -> Record {
    let mut record = Record::new(start);
    record.handicap = record.start.handicap();
    for problem in problems {
        record.warnings.push(Warning {
            line: n,
            column: 1,
            text: String::new(),
            message: format!("the start position breaks a rule: {problem}"),
        });
    }
    record
}
