//! `Record`: one game as every reader produces it and every writer consumes
//! it — headers in input order, the start, a tree of moves (mainline and
//! variations) with comments, bookmarks and times, and how each line ended.

pub(crate) mod builder;
mod check;
pub mod headers;
mod notes;
pub(crate) mod raw;

pub use check::RecordError;
pub use headers::Field;
use notes::NoteSlot;
pub use notes::Notes;

use crate::error::escape_controls;
use crate::{Color, Handicap, Move, Position};
use std::fmt;

/// A header line, `key：value` in KIF, `$KEY:value` in CSA, kept as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The key as written (`開始日時`, `EVENT`, a PGN tag name), without the separator.
    pub key: String,
    /// The value after the separator, spaces trimmed; may be empty.
    pub value: String,
}

/// Time spent on a move, and the running total when the record gives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveTime {
    /// Time spent on this move, in milliseconds.
    pub spent_ms: u64,
    /// The mover's total time used so far, in milliseconds, when the record gives one.
    pub total_ms: Option<u64>,
}

/// How a line of play ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndingKind {
    /// 投了, %TORYO
    Resign,
    /// 中断, %CHUDAN
    Abort,
    /// 千日手, %SENNICHITE
    Repetition,
    /// 持将棋, %JISHOGI
    Impasse,
    /// 詰み, %TSUMI
    Checkmate,
    /// 不詰, %FUZUMI
    NoMate,
    /// 切れ負け, 時間切れ, %TIME_UP
    TimeUp,
    /// 反則勝ち: the player to move wins by the opponent's foul.
    FoulWin,
    /// 反則負け: the player to move loses by a foul.
    FoulLoss,
    /// A move in the record broke the rules; the foul says which.
    IllegalMove,
    /// 入玉勝ち, %KACHI
    EnteringKing,
    /// 不戦勝
    DefaultWin,
    /// 不戦敗
    DefaultLoss,
    /// 封じ手
    Sealed,
    /// トライ
    Try,
    /// %OUTE_SENNICHITE: repetition by perpetual check, lost by the checker.
    PerpetualCheck,
    /// %HIKIWAKE: a draw.
    Draw,
    /// %MAX_MOVES: the move limit was reached.
    MaxMoves,
    /// %MATTA: a move was taken back.
    Matta,
    /// %ERROR: the game stopped on an error.
    Error,
    /// A word kifconv does not know; kept as text.
    Other,
}

impl EndingKind {
    /// Every kind of ending, in the order they are declared (a test checks
    /// that the list is whole).
    pub const ALL: [EndingKind; 21] = [
        EndingKind::Resign,
        EndingKind::Abort,
        EndingKind::Repetition,
        EndingKind::Impasse,
        EndingKind::Checkmate,
        EndingKind::NoMate,
        EndingKind::TimeUp,
        EndingKind::FoulWin,
        EndingKind::FoulLoss,
        EndingKind::IllegalMove,
        EndingKind::EnteringKing,
        EndingKind::DefaultWin,
        EndingKind::DefaultLoss,
        EndingKind::Sealed,
        EndingKind::Try,
        EndingKind::PerpetualCheck,
        EndingKind::Draw,
        EndingKind::MaxMoves,
        EndingKind::Matta,
        EndingKind::Error,
        EndingKind::Other,
    ];
}

/// A rule broken by a move that the record still contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foul {
    /// Who broke the rule.
    pub by: Color,
    /// The illegal move as written.
    pub text: String,
    /// Which rule, in words.
    pub reason: String,
    /// The move, when the text named one (an origin and a destination, or
    /// a drop); writers use it to write the foul in their own notation.
    pub mv: Option<Move>,
}

/// The end of a line of play: the terminal word, who won if that is known,
/// and anything attached to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// What ended the line.
    pub kind: EndingKind,
    /// Who won; `None` for a draw, an unfinished game, or when the record does not say.
    pub winner: Option<Color>,
    /// The word as written (`投了`, `%TORYO`, `まで…で中断`).
    pub text: String,
    /// Time written with the terminal word (thinking before resigning, say).
    pub time: Option<MoveTime>,
    /// Comments written after the terminal word.
    pub comments: Vec<String>,
    /// The broken rule, for an illegal move or a foul that names one.
    pub foul: Option<Foul>,
}

impl Ending {
    /// An ending as a terminal word alone says it: its kind, its winner and
    /// the word, with no time, no comments and no foul.
    ///
    /// ```
    /// use kifconv::record::{Ending, EndingKind};
    /// use kifconv::Color;
    ///
    /// let resigned = Ending::new(EndingKind::Resign, Some(Color::White), "投了");
    /// assert!(resigned.comments.is_empty() && resigned.foul.is_none());
    /// ```
    pub fn new(kind: EndingKind, winner: Option<Color>, text: impl Into<String>) -> Ending {
        Ending {
            kind,
            winner,
            text: text.into(),
            time: None,
            comments: Vec::new(),
            foul: None,
        }
    }
}

/// A node of the move tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The root: the start position, before any move.
    pub const ROOT: NodeId = NodeId(0);
    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A link between nodes in a node's private fields (first child, last
/// child, next sibling): a [`NodeId`] that is never the root, as the root
/// is no node's child or sibling, so 0 can say "none" and a link takes 4
/// bytes where an `Option<NodeId>` takes 8 (a smaller [`Node`] is less to
/// write per move). It prints as the `Option<NodeId>` it stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Link(u32);

impl Link {
    /// No node.
    const NONE: Link = Link(0);

    /// A link to `id`, which is not the root.
    #[inline]
    fn to(id: NodeId) -> Link {
        debug_assert!(id != NodeId::ROOT, "the root is no node's child or sibling");
        Link(id.0)
    }

    /// The node linked to, if any.
    #[inline]
    fn get(self) -> Option<NodeId> {
        (self.0 != 0).then_some(NodeId(self.0))
    }
}

impl fmt::Debug for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.get(), f)
    }
}

/// One position in the tree: the move that led to it (none at the root),
/// and what the record says about it.
#[derive(Clone, Debug, Eq)]
pub struct Node {
    /// The move that led here; `None` only at the root.
    pub mv: Option<Move>,
    /// Moves played to reach this node: 0 at the root.
    pub ply: u32,
    /// The node before this move; `None` only at the root.
    pub parent: Option<NodeId>,
    first_child: Link,
    /// The newest child, so that adding a variation does not walk the
    /// sibling list (40,000 variations of one move stay linear).
    last_child: Link,
    next_sibling: Link,
    /// Time spent on this move, if the record gives it.
    pub time: Option<MoveTime>,
    /// Comments, bookmarks and ending: most nodes have none, so they live
    /// apart and a plain node owns nothing to free.
    notes: NoteSlot,
}

impl Node {
    /// A node with no child, sibling, comment, bookmark or ending.
    #[inline]
    fn new(mv: Option<Move>, ply: u32, parent: Option<NodeId>, time: Option<MoveTime>) -> Node {
        Node {
            mv,
            ply,
            parent,
            first_child: Link::NONE,
            last_child: Link::NONE,
            next_sibling: Link::NONE,
            time,
            notes: NoteSlot::default(),
        }
    }

    /// Comments after the move (at the root: before the first move).
    #[inline]
    pub fn comments(&self) -> &[String] {
        self.notes.as_ref().map_or(&[], |n| &n.comments)
    }

    /// `&` bookmark names.
    #[inline]
    pub fn bookmarks(&self) -> &[String] {
        self.notes.as_ref().map_or(&[], |n| &n.bookmarks)
    }

    /// How play ended after this node, if the record says.
    #[inline]
    pub fn ending(&self) -> Option<&Ending> {
        self.notes.as_ref()?.ending.as_ref()
    }

    /// The ending, to edit.
    #[inline]
    pub fn ending_mut(&mut self) -> Option<&mut Ending> {
        self.notes.as_mut()?.ending.as_mut()
    }

    /// The comments, bookmarks and ending, to edit: made empty when the
    /// node had none.
    pub fn notes_mut(&mut self) -> &mut Notes {
        self.notes.get_or_insert_with(Box::default)
    }

    /// Ends play after this node with `ending`, replacing any.
    pub fn set_ending(&mut self, ending: Ending) {
        self.notes_mut().ending = Some(ending);
    }
}

/// Nodes are equal when their moves, places and notes are: a node given
/// empty notes equals one never given any.
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.mv == other.mv
            && self.ply == other.ply
            && self.parent == other.parent
            && self.first_child == other.first_child
            && self.last_child == other.last_child
            && self.next_sibling == other.next_sibling
            && self.time == other.time
            && self.comments() == other.comments()
            && self.bookmarks() == other.bookmarks()
            && self.ending() == other.ending()
    }
}

/// The moves of a game as a tree. The first child of each node continues
/// its line; later children are variations. Nodes live in one vector, so a
/// game costs one allocation, not one per move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
    /// Whether some move was added to a node other than the newest: until
    /// then the nodes are one line in the order added (node `i`'s parent is
    /// node `i - 1`), which [`MoveTree::line_nodes`] hands out as a slice.
    branched: bool,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    /// A tree holding only the root.
    pub fn new() -> MoveTree {
        MoveTree::with_capacity(0)
    }

    /// An empty tree with room for `moves` moves without reallocating.
    pub fn with_capacity(moves: usize) -> MoveTree {
        let mut nodes = Vec::with_capacity(moves + 1);
        nodes.push(Node::new(None, 0, None, None));
        MoveTree {
            nodes,
            branched: false,
        }
    }

    #[inline]
    /// The node `id`. Panics if `id` is from another tree.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    #[inline]
    /// The node `id`, to edit its comments, time or ending. Panics if `id` is from another tree.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// Every ending in the tree (the root's first, then the nodes' in the
    /// order they were added), to edit: a walk of the nodes with no list
    /// of their ids made first.
    pub fn endings_mut(&mut self) -> impl Iterator<Item = &mut Ending> {
        self.nodes.iter_mut().filter_map(Node::ending_mut)
    }

    /// The root node: comments before the first move, an ending with no move.
    pub fn root(&self) -> &Node {
        self.node(NodeId::ROOT)
    }

    /// Adds `mv` as the last child of `parent`: its continuation if it has
    /// none yet, else a variation.
    pub fn push(&mut self, parent: NodeId, mv: Move) -> NodeId {
        self.push_timed(parent, mv, None)
    }

    /// [`MoveTree::push`] with the move's time: the game builder's way to
    /// add a move, so that the new node is written once, time included,
    /// rather than written and then edited.
    #[inline(always)]
    pub(crate) fn push_timed(
        &mut self,
        parent: NodeId,
        mv: Move,
        time: Option<MoveTime>,
    ) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.branched |= parent.0 + 1 != id.0;
        let link = Link::to(id);
        let above = &mut self.nodes[parent.index()];
        let ply = above.ply + 1;
        let previous = std::mem::replace(&mut above.last_child, link);
        match previous.get() {
            None => above.first_child = link,
            Some(last) => self.nodes[last.index()].next_sibling = link,
        }
        // The node is made once room for it is there (`once_with` reserves
        // before it calls), so it is written straight into the vector
        // rather than built aside and copied over a possible regrowth.
        self.nodes.extend(std::iter::once_with(|| {
            Node::new(Some(mv), ply, Some(parent), time)
        }));
        id
    }

    /// The children of a node, continuation first.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(id).first_child.get(), move |&c| {
            self.node(c).next_sibling.get()
        })
    }

    /// The mainline's nodes after the root, in order.
    pub fn mainline(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(NodeId::ROOT).first_child.get(), move |&c| {
            self.node(c).first_child.get()
        })
    }

    /// The nodes after the root, in order, when the tree is one line (no
    /// variation): the mainline as a slice, walked without following the
    /// links from node to node. `None` once a variation was added.
    #[inline]
    pub fn line_nodes(&self) -> Option<&[Node]> {
        (!self.branched).then(|| &self.nodes[1..])
    }

    /// The mainline's moves.
    pub fn mainline_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.mainline().filter_map(|id| self.node(id).mv)
    }

    /// Every line of play, mainline first: for each node that ends a line
    /// (one with no move after it), the nodes from the first move to it.
    /// A line that branches off another repeats the moves they share.
    ///
    /// ```
    /// use kifconv::record::{MoveTree, NodeId};
    /// use kifconv::Move;
    ///
    /// let mut tree = MoveTree::new();
    /// let m = |usi| Move::from_usi(usi).unwrap();
    /// let first = tree.push(NodeId::ROOT, m("7g7f"));
    /// let main = tree.push(first, m("3c3d"));
    /// let side = tree.push(first, m("8c8d"));
    /// let lines: Vec<Vec<NodeId>> = tree.lines().collect();
    /// assert_eq!(lines, [vec![first, main], vec![first, side]]);
    /// ```
    pub fn lines(&self) -> impl Iterator<Item = Vec<NodeId>> + '_ {
        // Depth first, first children first: the mainline comes out first
        // and each variation after the line it leaves.
        let mut pending = vec![NodeId::ROOT];
        std::iter::from_fn(move || loop {
            let id = pending.pop()?;
            let children: Vec<NodeId> = self.children(id).collect();
            if children.is_empty() && id != NodeId::ROOT {
                let mut line: Vec<NodeId> = std::iter::successors(Some(id), |&n| {
                    self.node(n).parent.filter(|&p| p != NodeId::ROOT)
                })
                .collect();
                line.reverse();
                return Some(line);
            }
            pending.extend(children.into_iter().rev());
        })
    }

    /// The last node of the mainline (the root if there are no moves).
    pub fn mainline_end(&self) -> NodeId {
        // Without a variation, the mainline's nodes are all the nodes, in
        // order.
        if let Some(line) = self.line_nodes() {
            return NodeId(line.len() as u32);
        }
        self.mainline().last().unwrap_or(NodeId::ROOT)
    }

    /// Every node but the root, in the order they were added.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = NodeId> {
        (1..self.nodes.len() as u32).map(NodeId)
    }

    /// The number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no move (only the root).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }
}

/// A warning about the input: something read leniently, or something kept
/// but not understood. Nothing is dropped without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The line, counted from 1; 0 when the warning concerns the game as a whole.
    pub line: u32,
    /// The column in characters, counted from 1; 0 with line 0.
    pub column: u32,
    /// The text concerned.
    pub text: String,
    /// What was read leniently, or why, in words.
    pub message: String,
}

impl Warning {
    /// The warning as the binary prints it, `path:line:col: warning:
    /// message: `text``, with control characters escaped.
    pub fn render(&self, path: &str) -> String {
        let mut out = format!(
            "{}:{}:{}: warning: {}",
            escape_controls(path),
            self.line,
            self.column,
            escape_controls(&self.message)
        );
        if !self.text.is_empty() {
            out.push_str(&format!(": `{}`", escape_controls(&self.text)));
        }
        out
    }

    /// Escapes the control characters of the text and the message (see
    /// [`escape_controls`]), so that printing them is safe.
    pub fn escape_controls(&mut self) {
        for field in [&mut self.text, &mut self.message] {
            if let std::borrow::Cow::Owned(escaped) = escape_controls(field) {
                *field = escaped;
            }
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} (`{}`)",
            self.line,
            self.column,
            escape_controls(&self.message),
            escape_controls(&self.text)
        )
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The headers in input order, keys as written.
    pub headers: Vec<Header>,
    /// The position before the first move, checked against the rules as
    /// the readers check one (a missing king is allowed, as in tsume; a
    /// piece that could never move is kept with a warning).
    pub start: Position,
    /// The named starting position, when the record gave one (手合割) or the
    /// start is one of them.
    pub handicap: Option<Handicap>,
    /// The moves: mainline, variations, comments, times and endings.
    pub tree: MoveTree,
    /// The `まで…` summary line as written.
    pub trailer: Option<String>,
    /// The encoding the input was decoded from, when it came from bytes.
    pub encoding: Option<crate::types::Encoding>,
    /// What was read leniently, in input order.
    pub warnings: Vec<Warning>,
}

impl Record {
    /// The record rotated 180°: the start position, every move of every
    /// line, the side of every ending and foul, and the headers of one
    /// side (先手 ↔ 後手, 下手 ↔ 上手, N+ ↔ N-, Sente ↔ Gote, the short
    /// names: [`headers::other_side_key`]) swap sides. The named start is
    /// dropped, as a rotated handicap start is no standard one.
    pub fn flip(&self) -> Record {
        let mut flipped = self.clone();
        flipped.start = self.start.flip();
        flipped.handicap = flipped.start.handicap();
        for id in self.tree.ids() {
            let node = flipped.tree.node_mut(id);
            node.mv = node.mv.map(Move::flip);
        }
        for id in std::iter::once(NodeId::ROOT).chain(self.tree.ids()) {
            if let Some(ending) = flipped.tree.node_mut(id).ending_mut() {
                ending.winner = ending.winner.map(|c| !c);
                if let Some(foul) = &mut ending.foul {
                    foul.by = !foul.by;
                    foul.mv = foul.mv.map(Move::flip);
                }
            }
        }
        for header in &mut flipped.headers {
            if let Some(other) = headers::other_side_key(&header.key) {
                header.key = other.to_string();
            }
        }
        flipped
    }

    /// The record without its variations: the mainline, with everything
    /// attached to its moves.
    pub fn mainline_only(&self) -> Record {
        let mut tree = MoveTree::with_capacity(self.tree.len());
        let root = tree.node_mut(NodeId::ROOT);
        *root = Node {
            first_child: Link::NONE,
            last_child: Link::NONE,
            next_sibling: Link::NONE,
            ..self.tree.root().clone()
        };
        let mut at = NodeId::ROOT;
        for id in self.tree.mainline() {
            let node = self.tree.node(id);
            let mv = node.mv.expect("every node but the root has a move");
            at = tree.push(at, mv);
            let copy = tree.node_mut(at);
            copy.time = node.time;
            copy.notes = node.notes.clone();
        }
        Record {
            tree,
            ..self.clone()
        }
    }

    /// A record starting at `start`, with no header, move or warning. The
    /// start is a [`Position`], so a record cannot begin where no game can:
    /// build it with [`Position::from_sfen`], [`Position::from_setup`] or
    /// [`Position::from_setup_lenient`].
    pub fn new(start: Position) -> Record {
        Record {
            headers: Vec::new(),
            start,
            handicap: None,
            tree: MoveTree::new(),
            trailer: None,
            encoding: None,
            warnings: Vec::new(),
        }
    }

    /// The first header with this key; else, when the key is one of a
    /// [`Field`]'s spellings, that field ([`Record::field`]): `先手` finds
    /// the `N+` of a CSA record, `Event` the `棋戦` of a KIF one.
    ///
    /// ```
    /// let records = kifconv::read_bytes(b"N+Habu\n$EVENT:Meijin\nPI\n+\n+7776FU\n").unwrap();
    /// assert_eq!(records[0].header("先手"), Some("Habu"));
    /// assert_eq!(records[0].header("Event"), Some("Meijin"));
    /// assert_eq!(records[0].header("N+"), Some("Habu"));
    /// ```
    pub fn header(&self, key: &str) -> Option<&str> {
        let exact = self.headers.iter().find(|h| h.key == key);
        match exact {
            Some(h) => Some(h.value.as_str()),
            None => self.field(Field::of_key(key)?),
        }
    }

    /// The first header that gives `field`, whatever format's key it is
    /// written under (`N+`, `先手`, `下手` or `Sente` for the black player).
    pub fn field(&self, field: Field) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| Field::of_key(&h.key) == Some(field))
            .map(|h| h.value.as_str())
    }

    /// The player of Black (先手, 下手, `N+`, `Sente`).
    pub fn black_player(&self) -> Option<&str> {
        self.field(Field::BlackPlayer)
    }

    /// The player of White (後手, 上手, `N-`, `Gote`).
    pub fn white_player(&self) -> Option<&str> {
        self.field(Field::WhitePlayer)
    }

    /// The event (棋戦, `$EVENT`, `Event`).
    pub fn event(&self) -> Option<&str> {
        self.field(Field::Event)
    }

    /// When the game started (開始日時, `$START_TIME`, `Date`), as written.
    pub fn start_time(&self) -> Option<&str> {
        self.field(Field::StartTime)
    }

    /// The time control (持ち時間, `$TIME_LIMIT`, `$TIME`, `TimeControl`),
    /// as written.
    pub fn time_control(&self) -> Option<&str> {
        self.field(Field::TimeControl)
    }

    /// The position at the end of the mainline: the start with every
    /// mainline move played (the start itself when there is none).
    ///
    /// ```
    /// let records = kifconv::read_bytes(b"position startpos moves 7g7f 3c3d\n").unwrap();
    /// assert_eq!(
    ///     records[0].final_position().sfen(),
    ///     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    /// );
    /// ```
    ///
    /// The moves are played as they stand: for a record built by hand,
    /// [`Record::check`] says first whether the board allows them.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for mv in self.tree.mainline_moves() {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// How the mainline ended, if the record says.
    pub fn ending(&self) -> Option<&Ending> {
        self.tree.node(self.tree.mainline_end()).ending()
    }
}

#[cfg(test)]
mod ending_kind_tests {
    use super::EndingKind::{self, *};

    /// A kind's place in [`EndingKind::ALL`]; the match stops the build
    /// when a kind is added and not given a place.
    fn place(kind: EndingKind) -> usize {
        match kind {
            Resign => 0,
            Abort => 1,
            Repetition => 2,
            Impasse => 3,
            Checkmate => 4,
            NoMate => 5,
            TimeUp => 6,
            FoulWin => 7,
            FoulLoss => 8,
            IllegalMove => 9,
            EnteringKing => 10,
            DefaultWin => 11,
            DefaultLoss => 12,
            Sealed => 13,
            Try => 14,
            PerpetualCheck => 15,
            Draw => 16,
            MaxMoves => 17,
            Matta => 18,
            Error => 19,
            Other => 20,
        }
    }

    #[test]
    fn all_lists_every_kind_once_in_order() {
        for (i, kind) in EndingKind::ALL.into_iter().enumerate() {
            assert_eq!(place(kind), i, "{kind:?}");
        }
    }
}

#[cfg(test)]
mod tree_tests {
    use super::NodeId;

    /// Every line of a record with nested variations: one per node with no
    /// move after it, each a chain of parent and child from a first move,
    /// the mainline first, and together they hold every node.
    #[test]
    fn lines_are_every_path_from_the_first_move_to_an_end() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/kif/jkf-henka.kif");
        let record = crate::read(std::path::Path::new(path)).unwrap().remove(0);
        let tree = &record.tree;
        assert!(tree.line_nodes().is_none());
        let lines: Vec<Vec<NodeId>> = tree.lines().collect();
        let ends = tree.ids().filter(|&id| tree.children(id).next().is_none());
        assert_eq!(lines.len(), ends.count());
        assert!(lines.len() >= 3, "{} lines", lines.len());
        assert_eq!(lines[0], tree.mainline().collect::<Vec<_>>());
        let mut seen = std::collections::HashSet::new();
        for line in &lines {
            assert_eq!(tree.node(line[0]).parent, Some(NodeId::ROOT));
            for pair in line.windows(2) {
                assert_eq!(tree.node(pair[1]).parent, Some(pair[0]));
            }
            assert!(tree.children(*line.last().unwrap()).next().is_none());
            seen.extend(line.iter().copied());
        }
        assert_eq!(seen.len(), tree.len() - 1);
    }

    /// A tree with no variation hands out its mainline as a slice, in
    /// order; the first variation added ends that.
    #[test]
    fn a_tree_without_variations_is_its_mainline_as_a_slice() {
        use super::MoveTree;
        use crate::Move;
        let m = |usi| Move::from_usi(usi).unwrap();
        let mut tree = MoveTree::new();
        assert_eq!(tree.line_nodes().map(<[_]>::len), Some(0));
        let mut at = NodeId::ROOT;
        for usi in ["7g7f", "3c3d", "2g2f"] {
            at = tree.push(at, m(usi));
        }
        let slice: Vec<_> = tree.line_nodes().unwrap().iter().map(|n| n.mv).collect();
        let linked: Vec<_> = tree.mainline().map(|id| tree.node(id).mv).collect();
        assert_eq!(slice, linked);
        assert_eq!(slice.len(), 3);
        let first = tree.mainline().next().unwrap();
        tree.push(first, m("8c8d"));
        assert!(tree.line_nodes().is_none());
        // A move added after a variation, on the newest node, does not
        // make the tree one line again.
        let newest = tree.ids().last().unwrap();
        tree.push(newest, m("2f2e"));
        assert!(tree.line_nodes().is_none());
    }
}

#[cfg(test)]
mod drop_tests {
    use super::{Ending, EndingKind, MoveTree, NodeId};
    use crate::Move;

    /// A tree a million plies deep, with a variation nested at every ply
    /// of its first half and comments, bookmarks and endings along it, is
    /// dropped on a thread with a 64 KiB stack: its nodes live in one
    /// vector, so dropping it never recurses, however deep it is.
    #[test]
    fn a_very_deep_tree_drops_on_a_small_stack() {
        let mv = Move::from_usi("7g7f").unwrap();
        let mut tree = MoveTree::new();
        let mut at = NodeId::ROOT;
        for ply in 0..1_000_000u32 {
            let next = tree.push(at, mv);
            if ply < 500_000 {
                tree.push(at, mv);
            }
            if ply % 1000 == 0 {
                let notes = tree.node_mut(next).notes_mut();
                notes.comments.push(format!("ply {ply}"));
                notes.bookmarks.push("mark".to_owned());
                notes.ending = Some(Ending::new(EndingKind::Other, None, "x"));
            }
            at = next;
        }
        assert_eq!(tree.mainline_moves().count(), 1_000_000);
        std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || drop(tree))
            .unwrap()
            .join()
            .unwrap();
    }
}
