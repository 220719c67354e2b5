//! KI2: moves in Japanese notation without their origin, six to a line,
//! each with only the relative markers the JSA rules require (chosen by
//! [`describe`](crate::resolve::describe)); comments between moves;
//! variations as `変化：N手` blocks; the result in the `まで…` summary.

use super::japanese::{self, board_diagram, trailer, write_spec};
use crate::record::{NodeId, Record};
use crate::resolve::describe;
use crate::{Position, Square};
use std::fmt::Write as _;

/// Moves written on one line.
const MOVES_PER_LINE: usize = 6;
/// Display columns each move is padded to (but the last on a line).
const MOVE_WIDTH: usize = 12;

/// Writes a record as KI2 text.
pub fn write(record: &Record) -> String {
    let mut out = String::with_capacity(256 + 12 * record.tree.len());
    let handicap_labels = record.start != *crate::Handicap::Even.setup_ref()
        && record
            .headers
            .iter()
            .any(|h| h.key == "上手" || h.key == "下手");
    let mut odd_headers = Vec::new();
    for header in japanese::headers(record) {
        if japanese::is_safe_header_key(&header.key) && !header.value.contains(['\n', '\r']) {
            writeln!(out, "{}：{}", header.key, header.value).unwrap();
        } else {
            // Kept, as a comment before the moves, rather than written as a
            // line a reader would take for something else.
            odd_headers
                .push(format!("{}：{}", header.key, header.value).replace(['\n', '\r'], " "));
        }
    }
    if japanese::needs_diagram(record) {
        out.push_str(&board_diagram(&record.start, handicap_labels));
    }
    let (start, _) = Position::from_setup_lenient(record.start.clone())
        .expect("a record's start was checked when it was read");
    for odd in &odd_headers {
        writeln!(out, "*{odd}").unwrap();
    }
    write_comments(&mut out, record, NodeId::ROOT);
    let mut work: Vec<(NodeId, Position, Option<Square>)> = Vec::new();
    match record.tree.children(NodeId::ROOT).next() {
        Some(first) => work.push((first, start, None)),
        None => {
            if let Some(ending) = &record.tree.root().ending {
                writeln!(out, "{}", trailer(0, ending, handicap_labels)).unwrap();
            }
        }
    }
    let mut first_line = true;
    while let Some((first, pos, previous)) = work.pop() {
        if !first_line {
            writeln!(out, "\n変化：{}手", record.tree.node(first).ply).unwrap();
        }
        first_line = false;
        write_line(
            &mut out,
            record,
            first,
            pos,
            previous,
            handicap_labels,
            &mut work,
        );
    }
    out
}

/// One line of play from `first`; its variations are queued, the deepest
/// branch point last so that it is written first.
fn write_line(
    out: &mut String,
    record: &Record,
    first: NodeId,
    mut pos: Position,
    mut previous: Option<Square>,
    handicap_labels: bool,
    work: &mut Vec<(NodeId, Position, Option<Square>)>,
) {
    let tree = &record.tree;
    let mut branches = Vec::new();
    let mut on_line = 0;
    let mut previous_width = 0;
    let mut at = Some(first);
    let mut last = first;
    while let Some(id) = at {
        let node = tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        let first_child = node.parent.and_then(|p| tree.children(p).next()) == Some(id);
        if first_child
            && node
                .parent
                .is_some_and(|p| tree.children(p).nth(1).is_some())
        {
            branches.push((id, pos.clone(), previous));
        }
        let mut text = String::with_capacity(16);
        text.push(pos.side_to_move().triangle());
        write_spec(&mut text, &describe(&pos, mv, previous));
        if on_line == MOVES_PER_LINE {
            out.push('\n');
            on_line = 0;
        }
        if on_line > 0 {
            // Pad the previous move to its width; a move as wide or wider
            // is followed directly by the next one, as Kifu for Windows does.
            for _ in previous_width..MOVE_WIDTH {
                out.push(' ');
            }
        }
        out.push_str(&text);
        previous_width = text.chars().map(display_width).sum();
        on_line += 1;
        if !node.comments.is_empty() {
            out.push('\n');
            on_line = 0;
            write_comments(out, record, id);
        }
        pos.play_unchecked(mv);
        previous = Some(mv.to());
        last = id;
        at = tree.children(id).next();
    }
    if on_line > 0 {
        out.push('\n');
    }
    if let Some(ending) = &tree.node(last).ending {
        writeln!(
            out,
            "{}",
            trailer(tree.node(last).ply, ending, handicap_labels)
        )
        .unwrap();
        for comment in &ending.comments {
            writeln!(out, "*{comment}").unwrap();
        }
    }
    for (id, pos, previous) in branches {
        let parent = tree.node(id).parent.expect("a move's node has a parent");
        let later: Vec<NodeId> = tree.children(parent).skip(1).collect();
        for &sibling in later.iter().rev() {
            work.push((sibling, pos.clone(), previous));
        }
    }
}

fn display_width(c: char) -> usize {
    if c.is_ascii() {
        1
    } else {
        2
    }
}

fn write_comments(out: &mut String, record: &Record, id: NodeId) {
    let node = record.tree.node(id);
    for comment in &node.comments {
        for line in comment.split('\n') {
            writeln!(out, "*{line}").unwrap();
        }
    }
}
