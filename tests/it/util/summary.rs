//! The lines a record's snapshot starts with, written alike by every
//! snapshot test: headers, start, mainline, final position, variations.

use super::games::usi_moves;
use kifconv::record::{NodeId, Record};
use std::fmt::Write as _;

/// Writes the headers, the start position (and its preset), the mainline
/// in USI, the final SFEN, and each variation as its first move and ply.
pub fn write_head(w: &mut String, record: &Record) {
    writeln!(w, "headers:").unwrap();
    for h in &record.headers {
        writeln!(w, "  {}: {}", h.key, h.value).unwrap();
    }
    let handicap = record.handicap.map_or("-", kifconv::handicap_name);
    writeln!(w, "start: {} (preset: {handicap})", record.start.sfen()).unwrap();
    let count = record.tree.mainline_moves().count();
    writeln!(w, "mainline ({count} moves): {}", usi_moves(record)).unwrap();
    writeln!(w, "final: {}", record.final_position().sfen()).unwrap();
    let mut branches = Vec::new();
    for id in std::iter::once(NodeId::ROOT).chain(record.tree.ids()) {
        for (i, child) in record.tree.children(id).enumerate() {
            if i > 0 {
                let node = record.tree.node(child);
                branches.push(format!("{}@{}", node.mv.unwrap(), node.ply));
            }
        }
    }
    let branches = if branches.is_empty() {
        "none".to_string()
    } else {
        branches.join(" ")
    };
    writeln!(w, "variations: {branches}").unwrap();
}
