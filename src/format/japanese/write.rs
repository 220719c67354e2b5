//! Writing Japanese notation, as the KIF and KI2 writers share it: hands,
//! board diagrams, the headers and move specs. The words come from the
//! tables the readers use too; those the other writers use are re-exported
//! here.

pub use super::digits::kanji_number;
pub use super::endings::ending_word;
pub use super::headers::{header_key, is_safe_header_key};
pub use super::pieces::move_piece_name;

use super::handicaps::{handicap_name, HANDICAP_KEY};
use super::headers::{hand_key, is_handicap_side, side_name, TURN_SUFFIX};
use crate::format::lines::split_at_endings;
use crate::record::{Header, NodeId, Record};
use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::{Color, Hand, Handicap, Move, PieceKind, Position, Setup, Square};
use std::fmt::Write as _;

/// `飛　角　金四　` or `なし`: a hand as board diagrams write it.
pub fn hand_text(hand: &Hand) -> String {
    if hand.is_empty() {
        return "なし".to_string();
    }
    let mut out = String::new();
    for &kind in PieceKind::HAND.iter().rev() {
        let n = hand.count(kind);
        if n > 0 {
            out.push(kind.kanji());
            if n > 1 {
                out.push_str(&kanji_number(n));
            }
            out.push('\u{3000}');
        }
    }
    out
}

/// A board diagram with both hands and, for White to move, `後手番`;
/// above it `手数＝N` when the start comes after N moves (SFEN move number
/// N + 1), as Kifu for Windows writes it. `handicap` selects 上手/下手 for
/// the labels.
pub fn board_diagram(setup: &Setup, handicap_labels: bool) -> String {
    let mut out = String::new();
    if setup.move_number != 1 {
        writeln!(out, "手数＝{}", setup.move_number.saturating_sub(1)).unwrap();
    }
    let white_hand = hand_key(Color::White, handicap_labels);
    writeln!(out, "{white_hand}：{}", hand_text(&setup.hands[1])).unwrap();
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    out.push_str("+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("on the board");
            match setup.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(piece) => {
                    out.push(if piece.color == Color::White {
                        'v'
                    } else {
                        ' '
                    });
                    out.push(piece.kind.kanji());
                }
            }
        }
        out.push('|');
        out.push_str(&kanji_number(rank));
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    let black_hand = hand_key(Color::Black, handicap_labels);
    writeln!(out, "{black_hand}：{}", hand_text(&setup.hands[0])).unwrap();
    if setup.side_to_move == Color::White || handicap_labels {
        let side = side_name(setup.side_to_move, handicap_labels);
        writeln!(out, "{side}{TURN_SUFFIX}").unwrap();
    }
    out
}

/// The headers a Japanese writer prints, with the 手合割 line: in input
/// order, CSA keys renamed, 手合割 set from the record's start (or left
/// out when a board diagram follows).
pub fn headers(record: &Record) -> Vec<Header> {
    let mut out: Vec<Header> = Vec::with_capacity(record.headers.len() + 1);
    let preset = preset(record);
    let mut wrote_handicap = false;
    let handicap = |h| Header {
        key: HANDICAP_KEY.to_string(),
        value: handicap_name(h).to_string(),
    };
    for header in &record.headers {
        let Some(key) = header_key(&header.key) else {
            continue;
        };
        if key == HANDICAP_KEY {
            out.extend(preset.map(handicap));
            wrote_handicap = true;
            continue;
        }
        out.push(Header {
            key: key.to_string(),
            value: header.value.clone(),
        });
    }
    if !wrote_handicap {
        out.extend(preset.map(handicap));
    }
    out
}

/// The record's handicap, when its start is that handicap's board with
/// that side to move (the hands and move number aside).
fn preset(record: &Record) -> Option<Handicap> {
    record.handicap.filter(|h| {
        h.setup_ref().board == *record.start.board()
            && h.setup_ref().side_to_move == record.start.side_to_move()
    })
}

/// Whether the record needs a board diagram: its start is no preset, or
/// comes after moves already played (only a diagram's `手数＝N` says so).
pub fn needs_diagram(record: &Record) -> bool {
    preset(record).is_none()
        || Color::ALL
            .into_iter()
            .any(|c| !record.start.hand(c).is_empty())
        || record.start.move_number() != 1
}

/// The number of move `ply` of a record (1 for its first move), counted on
/// from the start's move number as Kifu for Windows counts after a
/// `手数＝N` line: the first move after `手数＝36` is move 37.
pub fn move_number(record: &Record, ply: u32) -> u64 {
    u64::from(ply) + u64::from(record.start.move_number().saturating_sub(1))
}

/// Writes a move spec in Japanese notation, without the side mark:
/// destination (or `同　`), piece, relative markers, 成 / 不成 / 打.
pub fn write_spec(out: &mut String, spec: &MoveSpec) {
    match spec.to {
        Destination::Same => out.push_str("同\u{3000}"),
        Destination::Square(sq) => {
            write!(out, "{}", sq.japanese()).unwrap();
        }
    }
    out.push_str(move_piece_name(spec.piece));
    match spec.horizontal {
        Some(Horizontal::Left) => out.push('左'),
        Some(Horizontal::Right) => out.push('右'),
        Some(Horizontal::Straight) => out.push('直'),
        None => {}
    }
    match spec.vertical {
        Some(Vertical::Up) => out.push('上'),
        Some(Vertical::Down) => out.push('引'),
        Some(Vertical::Sideways) => out.push('寄'),
        None => {}
    }
    match spec.promotion {
        Promotion::Promote => out.push('成'),
        Promotion::Decline => out.push_str("不成"),
        Promotion::Unmarked | Promotion::ByName => {}
    }
    if spec.drop == DropMark::Drop {
        out.push('打');
    }
}

/// `moves` from `pos` in Japanese notation, each with its side's mark and
/// `同` for a recapture: `▲７六歩△３四歩▲同　角` (a PV as ShogiHome writes
/// it, a book move as the server shows it). The moves must be legal.
pub fn marked_moves(pos: &Position, moves: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut out = String::new();
    let mut previous = None;
    for &mv in moves {
        out.push(pos.side_to_move().triangle());
        write_spec(&mut out, &MoveSpec::from_move(&pos, mv, previous));
        previous = Some(mv.to());
        pos.play_unchecked(mv);
    }
    out
}

/// A node's comments (`*` lines) and bookmarks (`&` lines), as KIF and
/// KI2 write them.
pub fn write_notes(out: &mut String, record: &Record, id: NodeId) {
    let node = record.tree.node(id);
    write_comments(out, node.comments());
    for bookmark in node.bookmarks() {
        writeln!(out, "&{bookmark}").unwrap();
    }
}

/// A writer of lines of play, for [`write_lines`].
pub trait LineWriter {
    /// Where a line stands before a move: what the writer needs to write
    /// it (the position, the previous move's destination, the clocks).
    type At: Clone;
    /// Writes the move of node `id` and moves `at` past it; `branches`
    /// says whether the node has later siblings.
    fn write_move(&mut self, out: &mut String, id: NodeId, at: &mut Self::At, branches: bool);
    /// Ends the line whose last node is `last` (the root, in a record with
    /// no move).
    fn end_line(&mut self, out: &mut String, last: NodeId, at: Self::At);
}

/// Writes a record's lines of play: the mainline from the start (where
/// the writer stands at `at`), then each variation as a `変化：N手` block.
/// The later siblings of a line's nodes are written depth first, the
/// deepest branch point of a line first, which is the order KIF readers
/// attach them by.
pub fn write_lines<W: LineWriter>(out: &mut String, record: &Record, at: W::At, writer: &mut W) {
    let tree = &record.tree;
    let Some(first) = tree.children(NodeId::ROOT).next() else {
        writer.end_line(out, NodeId::ROOT, at);
        return;
    };
    let mut work = vec![(first, at)];
    let mut first_line = true;
    while let Some((mut id, mut at)) = work.pop() {
        if !first_line {
            writeln!(out, "\n変化：{}手", tree.node(id).ply).unwrap();
        }
        first_line = false;
        // Each node of the line with later siblings, and where it stands.
        let mut branches = Vec::new();
        loop {
            let parent = tree.node(id).parent.expect("a move's node has a parent");
            let later: Vec<NodeId> = tree
                .children(parent)
                .skip_while(|&c| c != id)
                .skip(1)
                .collect();
            // Only a first child queues its later siblings: a line that
            // starts at a later sibling was queued with it.
            let branch = !later.is_empty();
            if branch && tree.children(parent).next() == Some(id) {
                branches.push((later, at.clone()));
            }
            writer.write_move(out, id, &mut at, branch);
            match tree.children(id).next() {
                Some(next) => id = next,
                None => break,
            }
        }
        writer.end_line(out, id, at);
        // The deepest branch point and the first sibling are popped first.
        for (later, at) in branches {
            for &sibling in later.iter().rev() {
                work.push((sibling, at.clone()));
            }
        }
    }
}

/// Comments as `*` lines, one for each line of a comment.
pub fn write_comments(out: &mut String, comments: &[String]) {
    for comment in comments {
        for line in split_at_endings(comment) {
            writeln!(out, "*{line}").unwrap();
        }
    }
}

/// The columns a text takes: two for a full-width character, one for
/// ASCII, as Kifu for Windows pads its lines.
pub fn display_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// The header lines KIF and KI2 share, the board diagram when the start
/// needs one and `columns` (KIF's column line); then, as a comment, the
/// headers that cannot be header lines (a key that reads as something
/// else, a value with a line break), and the start's notes. Says whether
/// the sides are named 下手 and 上手 (a handicap start whose headers name
/// them so).
pub fn write_headers(out: &mut String, record: &Record, columns: &str) -> bool {
    let handicap_labels = record.start != *Handicap::Even.setup_ref()
        && record.headers.iter().any(|h| is_handicap_side(&h.key));
    let mut odd_headers = Vec::new();
    for header in headers(record) {
        if is_safe_header_key(&header.key) && !header.value.contains(['\n', '\r']) {
            writeln!(out, "{}：{}", header.key, header.value).unwrap();
        } else {
            odd_headers
                .push(format!("{}：{}", header.key, header.value).replace(['\n', '\r'], " "));
        }
    }
    if needs_diagram(record) {
        out.push_str(&board_diagram(&record.start.to_setup(), handicap_labels));
    }
    out.push_str(columns);
    write_comments(out, &odd_headers);
    write_notes(out, record, NodeId::ROOT);
    handicap_labels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands() {
        let setup = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R2G18P 1").unwrap();
        assert_eq!(
            hand_text(&setup.hands[0]),
            "飛\u{3000}金二\u{3000}歩十八\u{3000}"
        );
        assert_eq!(hand_text(&setup.hands[1]), "なし");
    }
}
