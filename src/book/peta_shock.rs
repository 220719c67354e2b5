//! "Peta-shock": the min-max of a book's values over the book's own graph,
//! as YaneuraOu's `makebook peta_shock` computes it, written as it writes it.
//!
//! Every position of the book is a node. A move is an edge to another node
//! when the position it leads to is in the book (looked up rotated, as
//! FlippedBook does: every node is seen from the side to move as black);
//! any legal move counts, not only the book's own moves. A move that leads
//! nowhere is a leaf and keeps the value the book gave it. Values flow back
//! to the root by negamax: a node's value for its parents is the negation
//! of its best move's, one ply deeper.
//!
//! The steps, in YaneuraOu's order:
//! 1. [`read_nodes`]: the positions and their book moves (value kept,
//!    depth reset to 0);
//! 2. [`link_children`]: every legal move that reaches a book position
//!    becomes an edge;
//! 3. [`settle_acyclic`]: nodes whose moves all end in leaves or settled
//!    nodes get their final value, sweep by sweep;
//! 4. [`find_check_loops`]: the positions on a loop of checks (perpetual
//!    check), which are searched depth first rather than swept;
//! 5. [`seed_cycles`]: the nodes left (on a cycle) start at the draw score,
//!    or at a win or loss on a check loop;
//! 6. [`propagate`]: sweeps until no node's value changes;
//! 7. [`write_nodes`]: the book again in its own order, the moves sorted
//!    best first as YaneuraOu's sort leaves them.
//!
//! A position given twice (or with its rotation) is written twice, and the
//! moves that reach it go to the later one, as in the engine.
//!
//! Memory: the input is read three times rather than held. Per position
//! the run keeps a node of 32 bytes, 12 bytes per move (book moves and
//! linked moves), an 8-byte check key and a hash-table slot of 17 bytes
//! (its Zobrist key, index and control byte; the table is between half and
//! seven eighths full), so 60 to 90 bytes plus 12 per move.

use super::db2016::{BookError, HEADER};
use crate::{Move, Position};
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::{self, BufRead, Write};

/// The largest value a move may carry (YaneuraOu's mate score).
const VALUE_MAX: i16 = 32000;
/// Above any value: the start of a search for the best move.
const VALUE_INF: i16 = i16::MAX;
/// The depth of a line that never ends (a cycle).
const DEPTH_MAX: u16 = 9999;
/// The depth that marks the checking side's move into a perpetual check.
const DEPTH_PERPETUAL_CHECK: u16 = DEPTH_MAX - 2;
/// The depth that marks the checked side's side of a perpetual check.
const DEPTH_PERPETUAL_CHECKED: u16 = DEPTH_MAX - 1;
/// The longest line the sweeps expect; sweeps stop after this many.
const MAX_PLY: u16 = 256;
/// The extra sweeps propagation allows past [`MAX_PLY`].
const EXTRA_SWEEPS: u16 = 100;

/// How to peta-shock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Keep only the moves with the best value of each position
    /// (YaneuraOu's `shrink`).
    pub shrink: bool,
    /// End lines with CRLF, as YaneuraOu does (LF otherwise).
    pub crlf: bool,
}

/// What a run found, as YaneuraOu reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions read and written.
    pub positions: usize,
    /// Positions settled without a cycle (step 3).
    pub settled: usize,
    /// Positions in check.
    pub in_check: usize,
    /// Positions in check on a perpetual-check loop.
    pub check_loop_checked: usize,
    /// Positions on a perpetual-check loop.
    pub check_loop: usize,
    /// Moves not in the book that reach a book position.
    pub converged_moves: usize,
    /// `none` (or `resign`) move lines, which are dropped.
    pub none_moves: usize,
}

/// Why a book could not be peta-shocked.
pub use super::db2016::Failure as Error;

/// A value with the depth of the line that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Vd {
    value: i16,
    depth: u16,
}

impl Vd {
    const fn new(value: i16, depth: u16) -> Vd {
        Vd { value, depth }
    }

    /// Whether `self` is the better choice: the higher value; on equal
    /// values, never the move into a perpetual check; then the shorter
    /// line when winning or even, the longer when losing.
    fn better(self, other: Vd) -> bool {
        if self.value != other.value {
            return self.value > other.value;
        }
        if self.depth == DEPTH_PERPETUAL_CHECK {
            return false;
        }
        if other.depth == DEPTH_PERPETUAL_CHECK {
            return true;
        }
        if self.value >= 0 {
            self.depth < other.depth
        } else {
            self.depth > other.depth
        }
    }

    /// The value seen from the parent: negated, one ply deeper.
    fn for_parent(self) -> Vd {
        Vd::new(
            self.value.wrapping_neg(),
            self.depth.wrapping_add(1).min(DEPTH_MAX),
        )
    }
}

/// Where a move goes: a leaf with its own value, or a book position.
#[derive(Clone, Copy, Debug)]
enum Target {
    Leaf(Vd),
    Node(u32),
}

/// A move of a node, as black plays it.
#[derive(Clone, Copy, Debug)]
struct Edge {
    mv: Move,
    target: Target,
}

/// A book position, seen with black to move.
#[derive(Debug)]
struct Node {
    moves: Vec<Edge>,
    /// The value its parents see.
    vd: Vd,
    /// White was to move in the book (its moves are written rotated back).
    white: bool,
    checked: bool,
    settled: bool,
    check_loop: bool,
}

/// The book's graph.
struct Graph {
    nodes: Vec<Node>,
    /// The Zobrist key of each position with white to move, to its node.
    /// A later position with the same key replaces an earlier one.
    index: HashMap<u64, u32>,
    /// A second key per node, to tell a Zobrist collision from a match.
    check_keys: Vec<u64>,
}

/// Peta-shocks the DB2016 text that `open` gives (it is called three times
/// and must give the same text each time) into `out`.
pub fn peta_shock<R: BufRead>(
    mut open: impl FnMut() -> io::Result<R>,
    out: &mut dyn Write,
    options: &Options,
) -> Result<Summary, Error> {
    let mut summary = Summary::default();
    let mut graph = read_nodes(open()?, &mut summary)?;
    link_children(open()?, &mut graph, &mut summary)?;
    summary.settled = settle_acyclic(&mut graph.nodes);
    let loops = find_check_loops(&mut graph.nodes, &mut summary.check_loop_checked);
    summary.check_loop = loops.len();
    seed_cycles(&mut graph.nodes);
    propagate(&mut graph.nodes, &loops);
    graph.index = HashMap::new();
    write_nodes(open()?, &graph.nodes, out, options)?;
    summary.positions = graph.nodes.len();
    Ok(summary)
}

/// Peta-shocks a book in memory (written as DB2016 first, so in key
/// order).
pub fn peta_shock_book(book: &super::Book, options: &Options) -> Result<(String, Summary), Error> {
    peta_shock_text(&super::db2016::write(book), options)
}

/// Peta-shocks a book's text held in memory.
pub fn peta_shock_text(text: &str, options: &Options) -> Result<(String, Summary), Error> {
    let mut out = Vec::with_capacity(text.len());
    let summary = peta_shock(|| Ok(text.as_bytes()), &mut out, options)?;
    // The output is made of the input's lines and ASCII.
    let out = String::from_utf8(out).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    Ok((out, summary))
}

/// One line of the input: its number and text (CR, LF and a leading BOM
/// removed).
fn lines<R: BufRead>(input: R) -> impl Iterator<Item = io::Result<(usize, String)>> {
    input.split(b'\n').enumerate().map(|(i, line)| {
        let mut line = line?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if i == 0 && line.starts_with(b"\xEF\xBB\xBF") {
            line.drain(..3);
        }
        let text = String::from_utf8(line).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line {}: not UTF-8: {e}", i + 1),
            )
        })?;
        Ok((i + 1, text))
    })
}

/// What a line is.
enum Line<'a> {
    /// A comment (`#`, `//`) or an empty line.
    Skip,
    /// `sfen ...`: the text after `sfen `.
    Sfen(&'a str),
    /// A move line.
    Move(&'a str),
}

fn classify(text: &str) -> Line<'_> {
    if text.is_empty() || text.starts_with('#') || text.starts_with("//") {
        Line::Skip
    } else if let Some(sfen) = text.strip_prefix("sfen ") {
        Line::Sfen(sfen)
    } else {
        Line::Move(text)
    }
}

fn line_error(line: usize, text: &str, message: impl Into<String>) -> Error {
    Error::Book(BookError {
        line,
        text: text.to_string(),
        message: message.into(),
    })
}

/// A position line's position, its move number (the trailing number) left
/// out.
fn parse_position(line: usize, text: &str) -> Result<Position, Error> {
    let board = text
        .trim_end()
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end();
    Position::from_sfen(board)
        .map_err(|e| line_error(line, text, format!("expected a position in SFEN: {e}")))
}

/// The position as black to move: rotated when white is to move.
fn as_black(pos: &Position) -> Position {
    if pos.side_to_move() == crate::Color::White {
        pos.flip()
    } else {
        pos.clone()
    }
}

/// The position as white to move, the form the index holds.
fn as_white(pos: &Position) -> Position {
    if pos.side_to_move() == crate::Color::White {
        pos.clone()
    } else {
        pos.flip()
    }
}

/// A second key for a position, independent of the Zobrist key.
fn check_key(pos: &Position) -> u64 {
    let mut h = DefaultHasher::new();
    pos.sfen_key().hash(&mut h);
    h.finish()
}

/// Step 1: the nodes in the book's order, each with its book moves as
/// leaves (rotated to black's view; value clamped to the mate score, depth
/// 0, ponder and count ignored).
fn read_nodes<R: BufRead>(input: R, summary: &mut Summary) -> Result<Graph, Error> {
    let mut graph = Graph {
        nodes: Vec::new(),
        index: HashMap::new(),
        check_keys: Vec::new(),
    };
    for line in lines(input) {
        let (number, text) = line?;
        match classify(&text) {
            Line::Skip => {}
            Line::Sfen(sfen) => {
                let pos = parse_position(number, sfen)?;
                let white = as_white(&pos);
                let checked = pos.is_check();
                summary.in_check += usize::from(checked);
                let id = u32::try_from(graph.nodes.len())
                    .map_err(|_| line_error(number, "", "more positions than a book may hold"))?;
                graph.index.insert(white.key(), id);
                graph.check_keys.push(check_key(&white));
                graph.nodes.push(Node {
                    moves: Vec::new(),
                    vd: Vd::new(i16::MIN, 0),
                    white: pos.side_to_move() == crate::Color::White,
                    checked,
                    settled: false,
                    check_loop: checked,
                });
            }
            Line::Move(fields) => {
                let node = graph.nodes.last_mut().ok_or_else(|| {
                    line_error(number, &text, "expected `sfen ...` before the first move")
                })?;
                if let Some(edge) = parse_move(number, fields, node.white)? {
                    node.moves.push(edge);
                } else {
                    summary.none_moves += 1;
                }
            }
        }
    }
    Ok(graph)
}

/// A move line's move and value as a leaf (`None` for a `none` move).
fn parse_move(number: usize, text: &str, white: bool) -> Result<Option<Edge>, Error> {
    let mut fields = text.split_ascii_whitespace();
    let usi = fields.next().unwrap_or("");
    let _ponder = fields.next();
    let value = match fields.next() {
        None => 0,
        Some(v) => v.parse::<i64>().map_err(|_| {
            line_error(
                number,
                text,
                format!("expected a value (an integer), not `{v}`"),
            )
        })?,
    };
    if matches!(usi, "none" | "None" | "resign") {
        return Ok(None);
    }
    let mv = Move::from_usi(usi)
        .map_err(|_| line_error(number, text, "expected a USI move (`7g7f`, `P*5e`)"))?;
    let mv = if white { mv.flip() } else { mv };
    let value = value.clamp(-i64::from(VALUE_MAX), i64::from(VALUE_MAX)) as i16;
    Ok(Some(Edge {
        mv,
        target: Target::Leaf(Vd::new(value, 0)),
    }))
}

/// Step 2: each node's moves become, first, every legal move (in the move
/// generator's order) that reaches a book position, then the book moves
/// that do not, in the book's order (a move given twice counts once).
fn link_children<R: BufRead>(
    input: R,
    graph: &mut Graph,
    summary: &mut Summary,
) -> Result<(), Error> {
    let mut id = 0usize;
    for line in lines(input) {
        let (number, text) = line?;
        let Line::Sfen(sfen) = classify(&text) else {
            continue;
        };
        let pos = as_black(&parse_position(number, sfen)?);
        let book_moves = std::mem::take(&mut graph.nodes[id].moves);
        let mut moves = Vec::with_capacity(book_moves.len());
        for mv in pos.legal_moves_in_engine_order() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let Some(&next) = graph.index.get(&child.key()) else {
                continue;
            };
            if graph.check_keys[next as usize] != check_key(&child) {
                continue;
            }
            if !book_moves.iter().any(|e| e.mv == mv) {
                summary.converged_moves += 1;
            }
            moves.push(Edge {
                mv,
                target: Target::Node(next),
            });
        }
        for edge in book_moves {
            if !moves.iter().any(|e| e.mv == edge.mv) {
                moves.push(edge);
            }
        }
        moves.shrink_to_fit();
        graph.nodes[id].moves = moves;
        id += 1;
    }
    Ok(())
}

/// The value of a move: its own for a leaf, the position's for an edge.
fn edge_vd(nodes: &[Node], edge: &Edge) -> Vd {
    match edge.target {
        Target::Leaf(vd) => vd,
        Target::Node(next) => nodes[next as usize].vd,
    }
}

/// The best of a node's moves, as its parents see it.
fn best_for_parent(nodes: &[Node], node: &Node) -> Vd {
    let mut best = Vd::new(-VALUE_INF, DEPTH_MAX);
    for edge in &node.moves {
        let vd = edge_vd(nodes, edge);
        if vd.better(best) {
            best = vd;
        }
    }
    best.for_parent()
}

/// Step 3: sweeps the nodes in order, settling each one whose moves all
/// end in leaves or settled nodes, until a sweep settles none (or
/// [`MAX_PLY`] sweeps). What is left lies on or above a cycle. Says how
/// many were settled.
fn settle_acyclic(nodes: &mut [Node]) -> usize {
    let mut settled = 0;
    for _ in 0..MAX_PLY {
        let mut count = 0;
        for i in 0..nodes.len() {
            if nodes[i].settled {
                continue;
            }
            let ready = nodes[i].moves.iter().all(|e| match e.target {
                Target::Leaf(_) => true,
                Target::Node(next) => nodes[next as usize].settled,
            });
            if ready {
                nodes[i].vd = best_for_parent(nodes, &nodes[i]);
                nodes[i].settled = true;
                count += 1;
            }
        }
        settled += count;
        if count == 0 {
            break;
        }
    }
    settled
}

/// Whether some position two plies after `i` is still marked on a check
/// loop.
fn loop_two_ahead(nodes: &[Node], i: usize) -> bool {
    nodes[i].moves.iter().any(|e| match e.target {
        Target::Leaf(_) => false,
        Target::Node(next) => nodes[next as usize].moves.iter().any(|e2| match e2.target {
            Target::Leaf(_) => false,
            Target::Node(after) => nodes[after as usize].check_loop,
        }),
    })
}

/// Step 4: the positions in check that start marked lose the mark, sweep
/// by sweep, when no marked position lies two plies ahead; what remains is
/// on a loop of checks. The positions between two of them (the checking
/// side's) are marked too, going through the checked ones in index order
/// (the engine goes through them in its hash set's order, which can differ
/// only where such a middle position is itself two plies after another
/// loop). Returns every marked node, in index order, and counts the
/// checked ones into `checked_count`.
fn find_check_loops(nodes: &mut [Node], checked_count: &mut usize) -> Vec<u32> {
    for _ in 0..MAX_PLY {
        let mut updated = 0;
        for i in 0..nodes.len() {
            if nodes[i].check_loop && !loop_two_ahead(nodes, i) {
                nodes[i].check_loop = false;
                updated += 1;
            }
        }
        if updated == 0 {
            break;
        }
    }
    let checked: Vec<usize> = (0..nodes.len()).filter(|&i| nodes[i].check_loop).collect();
    *checked_count = checked.len();
    let mut marked: HashSet<u32> = checked.iter().map(|&i| i as u32).collect();
    for i in checked {
        for k in 0..nodes[i].moves.len() {
            let Target::Node(next) = nodes[i].moves[k].target else {
                continue;
            };
            let reaches = nodes[next as usize].moves.iter().any(|e| match e.target {
                Target::Leaf(_) => false,
                Target::Node(after) => nodes[after as usize].check_loop,
            });
            if reaches {
                nodes[next as usize].check_loop = true;
                marked.insert(next);
            }
        }
    }
    let mut marked: Vec<u32> = marked.into_iter().collect();
    marked.sort_unstable();
    marked
}

/// Step 5: an unsettled node starts at the draw score with an endless
/// depth; on a check loop, at a loss for its parent when it is in check
/// and a win otherwise.
fn seed_cycles(nodes: &mut [Node]) {
    for node in nodes.iter_mut().filter(|n| !n.settled) {
        node.vd = if !node.check_loop {
            Vd::new(0, DEPTH_MAX)
        } else if node.checked {
            Vd::new(-VALUE_MAX, DEPTH_MAX)
        } else {
            Vd::new(VALUE_MAX, DEPTH_MAX)
        };
    }
}

/// Step 6: sweeps the unsettled nodes off check loops in order, updating
/// each in place from its children (a depth past [`MAX_PLY`] is taken as
/// endless), then searches every check-loop node depth first; until a
/// sweep changes nothing.
fn propagate(nodes: &mut [Node], loops: &[u32]) {
    for _ in 0..MAX_PLY + EXTRA_SWEEPS {
        let mut changed = 0;
        for i in 0..nodes.len() {
            if nodes[i].settled || nodes[i].check_loop {
                continue;
            }
            let mut best = best_for_parent(nodes, &nodes[i]);
            if best.depth > MAX_PLY {
                best.depth = DEPTH_MAX;
            }
            changed += usize::from(nodes[i].vd != best);
            nodes[i].vd = best;
        }
        let mut path = HashSet::new();
        for &i in loops {
            nodes[i as usize].vd = search_check_loop(nodes, i, &mut path);
        }
        if changed == 0 {
            break;
        }
    }
}

/// The value of a check-loop node for its parent, searching the loop depth
/// first: coming back to a node on the path is a perpetual check, lost by
/// the checking side.
fn search_check_loop(nodes: &[Node], i: u32, path: &mut HashSet<u32>) -> Vd {
    let node = &nodes[i as usize];
    if !node.check_loop {
        return node.vd;
    }
    if path.contains(&i) {
        return if node.checked {
            Vd::new(-VALUE_MAX, DEPTH_PERPETUAL_CHECK)
        } else {
            Vd::new(VALUE_MAX, DEPTH_PERPETUAL_CHECKED)
        };
    }
    path.insert(i);
    let mut best = Vd::new(-VALUE_INF, 0);
    for edge in &node.moves {
        let vd = match edge.target {
            Target::Leaf(vd) => vd,
            Target::Node(next) => search_check_loop(nodes, next, path),
        };
        if vd.better(best) {
            best = vd;
        }
    }
    path.remove(&i);
    best.for_parent()
}

/// A node's moves as written: each with its value, a move into a check
/// loop where it is checked marked so that an equal move is preferred,
/// sorted best first; a move whose value equals the best but whose depth
/// differs is written one lower.
fn output_moves(nodes: &[Node], node: &Node, shrink: bool) -> Vec<(Move, Vd)> {
    let mut moves: Vec<(Move, Vd)> = node
        .moves
        .iter()
        .map(|edge| match edge.target {
            Target::Leaf(vd) => (edge.mv, vd),
            Target::Node(next) => {
                let child = &nodes[next as usize];
                let mut vd = child.vd;
                if child.check_loop && child.checked {
                    vd.depth = DEPTH_PERPETUAL_CHECK;
                }
                (edge.mv, vd)
            }
        })
        .collect();
    super::gnu_sort::sort(&mut moves, |a, b| a.1.better(b.1));
    let Some(&(_, best)) = moves.first() else {
        return moves;
    };
    let mut out = Vec::with_capacity(moves.len());
    for (i, (mv, mut vd)) in moves.into_iter().enumerate() {
        if shrink && vd.value != best.value {
            continue;
        }
        if i > 0 && vd.value == best.value && vd.depth != best.depth {
            vd.value = vd.value.wrapping_sub(1);
        }
        out.push((mv, vd));
    }
    out
}

/// Step 7: the header and the count of positions, then each position line
/// as the book has it and its moves (`move none value depth`).
fn write_nodes<R: BufRead>(
    input: R,
    nodes: &[Node],
    out: &mut dyn Write,
    options: &Options,
) -> Result<(), Error> {
    let eol = if options.crlf { "\r\n" } else { "\n" };
    write!(out, "{HEADER}{eol}# NOE:{}{eol}", nodes.len())?;
    let mut id = 0usize;
    let mut text_move = String::with_capacity(8);
    for line in lines(input) {
        let (_, text) = line?;
        let Line::Sfen(_) = classify(&text) else {
            continue;
        };
        write!(out, "{text}{eol}")?;
        let node = &nodes[id];
        for (mv, vd) in output_moves(nodes, node, options.shrink) {
            let mv = if node.white { mv.flip() } else { mv };
            text_move.clear();
            mv.push_usi(&mut text_move);
            write!(out, "{text_move} none {} {}{eol}", vd.value, vd.depth)?;
        }
        id += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

    /// The output's lines for the position starting with `board`.
    fn moves_of<'a>(out: &'a str, board: &str) -> Vec<&'a str> {
        out.lines()
            .skip_while(|l| !l.starts_with(&format!("sfen {board} ")))
            .skip(1)
            .take_while(|l| !l.starts_with("sfen "))
            .collect()
    }

    fn shock(text: &str) -> String {
        peta_shock_text(text, &Options::default()).unwrap().0
    }

    /// The start position and the one after 7g7f (white to move), whose
    /// reply 3c3d is a leaf of value `leaf`.
    fn two_plies(leaf: i32) -> String {
        format!(
            "#YANEURAOU-DB2016 1.00\n\
             sfen {START} b - 1\n7g7f 3c3d 10 0 5\n2g2f none 20 0 3\n\
             sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
             3c3d none {leaf} 0 4\n"
        )
    }

    #[test]
    fn a_leaf_value_reaches_the_root() {
        // 7g7f leads to a book position: it takes minus its best reply's
        // value, one ply deeper, and the moves are sorted again.
        let out = shock(&two_plies(50));
        assert_eq!(moves_of(&out, START), ["2g2f none 20 0", "7g7f none -50 1"]);
        let out = shock(&two_plies(-80));
        assert_eq!(moves_of(&out, START), ["7g7f none 80 1", "2g2f none 20 0"]);
        assert!(out.starts_with("#YANEURAOU-DB2016 1.00\n# NOE:2\n"));
    }

    #[test]
    fn shrink_keeps_the_best_moves_and_crlf_ends_lines() {
        let options = Options {
            shrink: true,
            crlf: true,
        };
        let out = peta_shock_text(&two_plies(50), &options).unwrap().0;
        let lf = out.replace("\r\n", "\n");
        assert_eq!(moves_of(&lf, START), ["2g2f none 20 0"]);
        assert_eq!(out.matches("\r\n").count(), out.lines().count());
    }

    #[test]
    fn a_white_position_is_found_through_its_rotation() {
        // The position after 7g7f stored rotated (black to move), as a
        // flip-folded book holds it: 3c3d is 7g7f there.
        let text = format!(
            "#YANEURAOU-DB2016 1.00\n\
             sfen {START} b - 1\n7g7f none 10 0 5\n\
             sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n\
             7g7f none -35 0 4\n"
        );
        let out = shock(&text);
        assert_eq!(moves_of(&out, START), ["7g7f none 35 1"]);
    }

    #[test]
    fn a_repetition_is_a_draw() {
        // Rooks shuffling back to the start: every move of the cycle is
        // worth the draw score, at the endless depth; a worse way out is
        // kept below it.
        let text = format!(
            "#YANEURAOU-DB2016 1.00\n\
             sfen {START} b - 1\n2h1h none 100 0 1\n9g9f none -40 0 1\n\
             sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B6R/LNSGKGSNL w - 2\n8b9b none 100 0 1\n\
             sfen lnsgkgsnl/r6b1/ppppppppp/9/9/9/PPPPPPPPP/1B6R/LNSGKGSNL b - 3\n1h2h none 100 0 1\n\
             sfen lnsgkgsnl/r6b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 4\n9b8b none 100 0 1\n"
        );
        let out = shock(&text);
        assert_eq!(
            moves_of(&out, START),
            ["2h1h none 0 9999", "9g9f none -40 0"]
        );
        assert_eq!(
            moves_of(
                &out,
                "lnsgkgsnl/r6b1/ppppppppp/9/9/9/PPPPPPPPP/1B6R/LNSGKGSNL"
            ),
            ["1h2h none 0 9999"]
        );
    }

    #[test]
    fn a_perpetual_check_is_lost_by_the_checker() {
        // Black's rook checks along ranks a and b while the king steps
        // between 5a and 5b; the checked side's book moves stay in the
        // loop, and the checking side's are marked as a perpetual check.
        let text = "#YANEURAOU-DB2016 1.00\n\
             sfen R3k4/9/9/9/9/9/9/9/4K4 w - 2\n5a5b none 0 0 1\n\
             sfen 9/R3k4/9/9/9/9/9/9/4K4 w - 4\n5b5a none 0 0 1\n\
             sfen 4k4/R8/9/9/9/9/9/9/4K4 b - 3\n9b9a none 0 0 1\n\
             sfen R8/4k4/9/9/9/9/9/9/4K4 b - 3\n9a9b none 0 0 1\n";
        let (out, summary) = peta_shock_text(text, &Options::default()).unwrap();
        assert_eq!(summary.check_loop_checked, 2, "{out}");
        assert!(out.contains("\n9a9b none -32000 9997\n"), "{out}");
        assert!(out.contains("\n9b9a none -32000 9997\n"), "{out}");
    }

    #[test]
    fn the_memory_per_position_is_as_documented() {
        assert!(std::mem::size_of::<Node>() <= 32);
        assert!(std::mem::size_of::<Edge>() <= 12);
    }

    #[test]
    fn a_book_in_memory_is_peta_shocked_in_key_order() {
        let book = super::super::check::read(&two_plies(50)).unwrap().book;
        let out = peta_shock_book(&book, &Options::default()).unwrap().0;
        assert_eq!(moves_of(&out, START), ["2g2f none 20 0", "7g7f none -50 1"]);
        // The position after 7g7f sorts first.
        assert!(out.lines().nth(2).unwrap().contains("/2P6/"), "{out}");
    }

    #[test]
    fn bad_lines_are_errors_with_their_line() {
        let e = peta_shock_text("sfen 9/9/9 b - 1\n", &Options::default()).unwrap_err();
        assert!(matches!(&e, Error::Book(b) if b.line == 1), "{e}");
        let text = format!("sfen {START} b - 1\n7g7x none 0 0 1\n");
        let e = peta_shock_text(&text, &Options::default()).unwrap_err();
        assert!(matches!(&e, Error::Book(b) if b.line == 2), "{e}");
        let e = peta_shock_text("7g7f none 0 0 1\n", &Options::default()).unwrap_err();
        assert!(matches!(&e, Error::Book(b) if b.line == 1), "{e}");
    }
}
