//! The sizes of the vocabulary types, asserted, so that a change that
//! makes one larger is seen (and, if meant, its number changed here). The
//! small `Copy` types are the same size everywhere; the ones that hold
//! vectors or boxes are checked on 64-bit targets.

use kifconv::record::{Ending, Header, MoveTime, MoveTree, Node, NodeId, Record};
use kifconv::resolve::spec::MoveSpec;
use kifconv::{Bitboard, Color, Hand, Move, Piece, PieceKind, Position, Setup, Square};
use std::mem::size_of;

/// Every (type, size, expected) that differs, each on its own line.
fn mismatches(sizes: &[(&str, usize, usize)]) -> String {
    sizes
        .iter()
        .filter(|(_, size, expected)| size != expected)
        .map(|(name, size, expected)| format!("{name}: {size} bytes, was {expected}\n"))
        .collect()
}

#[test]
fn the_small_types_keep_their_sizes() {
    let sizes = [
        ("Color", size_of::<Color>(), 1),
        ("PieceKind", size_of::<PieceKind>(), 1),
        ("Piece", size_of::<Piece>(), 2),
        ("Square", size_of::<Square>(), 1),
        ("Option<Square>", size_of::<Option<Square>>(), 2),
        ("Move", size_of::<Move>(), 3),
        ("Option<Move>", size_of::<Option<Move>>(), 3),
        ("Hand", size_of::<Hand>(), 7),
        ("Bitboard", size_of::<Bitboard>(), 16),
        ("NodeId", size_of::<NodeId>(), 4),
        ("MoveTime", size_of::<MoveTime>(), 24),
        ("MoveSpec", size_of::<MoveSpec>(), 12),
    ];
    let report = mismatches(&sizes);
    assert!(report.is_empty(), "{report}");
}

#[cfg(target_pointer_width = "64")]
#[test]
fn the_larger_types_keep_their_sizes() {
    let sizes = [
        ("Position", size_of::<Position>(), 464),
        ("Setup", size_of::<Setup>(), 184),
        ("Node", size_of::<Node>(), 64),
        // 24 + the flag that says the tree has no variation, so its
        // mainline is its nodes in order (issue #20: the USI writer walks
        // it as a slice).
        ("MoveTree", size_of::<MoveTree>(), 32),
        ("Header", size_of::<Header>(), 48),
        ("Ending", size_of::<Ending>(), 136),
        ("Record", size_of::<Record>(), 576),
    ];
    let report = mismatches(&sizes);
    assert!(report.is_empty(), "{report}");
}

#[test]
fn a_changed_size_is_reported() {
    let report = mismatches(&[("A", 4, 4), ("B", 8, 4)]);
    assert_eq!(report, "B: 8 bytes, was 4\n");
}
