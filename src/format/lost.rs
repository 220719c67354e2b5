//! What an output format cannot hold: one table, and a warning per input
//! that says what of its records was left out (as ShogiHome does on
//! export), so a conversion never drops anything without a word.
//!
//! USI and SFEN are move and position formats: asking for them is asking
//! for the moves or positions alone, so they are warned about variations
//! only (the moves they cannot hold). Writing the mainline only (the
//! command's `--mainline`) asks for variations to be dropped, so they are not
//! warned about then.

use super::Target;
use crate::record::{Ending, EndingKind, Record};
use crate::Color;

/// Something a record can carry that some formats cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Feature {
    /// Moves other than the mainline.
    Variations,
    /// Comments on moves, on the start and on endings.
    Comments,
    /// Bookmarks (KIF's `&` lines).
    Bookmarks,
    /// The time a move or an ending took.
    Times,
    /// The SFEN move number of a start that is not move 1.
    StartMoveNumber,
    /// How a line ended, where the format's ending words cannot say it:
    /// CSA and JKF name an end by a word spoken for the player to move
    /// (`%TORYO`: that player resigned), so a winner the word does not
    /// imply, or an end with no word of its own (不戦勝, 封じ手), is lost.
    Endings,
}

impl Feature {
    /// Every feature, in the order a warning names them.
    pub const ALL: [Feature; 6] = [
        Feature::Variations,
        Feature::Comments,
        Feature::Bookmarks,
        Feature::Times,
        Feature::StartMoveNumber,
        Feature::Endings,
    ];

    /// The feature's name in the warning.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Variations => "variations",
            Feature::Comments => "comments",
            Feature::Bookmarks => "bookmarks",
            Feature::Times => "times",
            Feature::StartMoveNumber => "the start's move number",
            Feature::Endings => "how a game ended (no word of its own says it)",
        }
    }
}

/// Whether `target` holds `feature`: the one table.
pub fn holds(target: Target, feature: Feature) -> bool {
    use Feature::*;
    match target {
        Target::Kif | Target::Kifu => true,
        Target::Ki2 | Target::Ki2u => feature != Times,
        Target::Csa => matches!(feature, Comments | Times),
        Target::Jkf => matches!(feature, Variations | Comments | Times),
        Target::Western => matches!(feature, Variations | Comments | StartMoveNumber | Endings),
        // Asked for as moves or positions alone (see the module notes), as
        // training data is.
        Target::Usi | Target::Sfen | Target::Hcpe | Target::Hcpe3 | Target::Psv => {
            feature != Variations
        }
    }
}

/// Whether `record` carries `feature` that `target` would leave out.
fn carries(record: &Record, feature: Feature, target: Target) -> bool {
    let tree = &record.tree;
    let nodes = || tree.ids().map(|id| tree.node(id));
    match feature {
        // A tree that never branched is one line.
        Feature::Variations => {
            tree.line_nodes().is_none() && tree.ids().any(|id| tree.children(id).nth(1).is_some())
        }
        Feature::Comments => nodes().any(|n| {
            !n.comments().is_empty() || n.ending().is_some_and(|e| !e.comments.is_empty())
        }),
        Feature::Bookmarks => nodes().any(|n| !n.bookmarks().is_empty()),
        Feature::Times => {
            nodes().any(|n| n.time.is_some() || n.ending().is_some_and(|e| e.time.is_some()))
        }
        Feature::StartMoveNumber => record.start.move_number() != 1,
        Feature::Endings => nodes().any(|n| {
            n.ending().is_some_and(|e| {
                let to_move = if n.ply % 2 == 0 {
                    record.start.side_to_move()
                } else {
                    !record.start.side_to_move()
                };
                !said_by_a_word(e, to_move, target)
            })
        }),
    }
}

/// Whether the CSA or JKF special word `target` writes for `ending` says it
/// whole: it reads back as the same winner, and as the same end unless the
/// end is one of the fouls (which share their words).
fn said_by_a_word(ending: &Ending, to_move: Color, target: Target) -> bool {
    use EndingKind::*;
    let word = match target {
        Target::Jkf => crate::format::jkf::write::special(ending.kind, ending.winner, to_move),
        _ => crate::format::csa::write::special(ending.kind, ending.winner, to_move),
    };
    let (kind, winner) = crate::format::endings::ending_for_word(word, to_move);
    let fouls = [FoulWin, FoulLoss, IllegalMove, PerpetualCheck];
    let same_kind = kind == ending.kind || (fouls.contains(&kind) && fouls.contains(&ending.kind));
    winner == ending.winner && same_kind
}

/// The warning for one input's records written as `target`, if anything
/// they carry is left out.
pub fn warning(records: &[Record], target: Target, mainline_only: bool) -> Option<String> {
    let left_out: Vec<&str> = Feature::ALL
        .into_iter()
        .filter(|&f| !holds(target, f))
        .filter(|&f| !(mainline_only && f == Feature::Variations))
        .filter(|&f| records.iter().any(|r| carries(r, f, target)))
        .map(Feature::name)
        .collect();
    if left_out.is_empty() {
        return None;
    }
    Some(format!(
        "{} cannot hold {}; left out",
        target.name(),
        left_out.join(", ")
    ))
}
