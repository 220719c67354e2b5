//! Every legal move, written the way a careful KI2 writer would (only the
//! markers the JSA rules require), resolves back to itself.

use crate::util::rng::Rng;
use kifconv::resolve::spec::{Destination, DropMark, MoveSpec};
use kifconv::{KingRule, Move, Position, Setup};

/// How many of the moves checked were written with each kind of marker.
#[derive(Debug, Default)]
struct Markers {
    /// 右 左 直.
    horizontal: usize,
    /// 上 引 寄.
    vertical: usize,
    /// 打.
    drop: usize,
    /// 同.
    same: usize,
}

/// Walks random games from `start`, checking every legal move of every
/// position until `moves_wanted` have been checked; adds to `markers` the
/// markers their texts needed.
fn check_random_games(start: &str, moves_wanted: usize, seed: u64, markers: &mut Markers) {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    while checked < moves_wanted {
        let setup = Setup::from_sfen(start).unwrap();
        let mut pos = Position::from_setup(setup, KingRule::BothRequired).unwrap();
        let mut previous = None;
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let spec = MoveSpec::from_move(&pos, mv, previous);
                assert_eq!(
                    spec.to_move(&pos, previous),
                    Ok(mv),
                    "{mv} in {} written as {spec:?}",
                    pos.sfen()
                );
                // Without 同 the move resolves just the same.
                if spec.to == Destination::Same {
                    let mut plain = spec;
                    plain.to = Destination::Square(mv.to());
                    assert_eq!(plain.to_move(&pos, None), Ok(mv));
                }
                // A redundant 打 on a drop is accepted.
                if mv.is_drop() && spec.drop == DropMark::Unmarked {
                    let mut marked = spec;
                    marked.drop = DropMark::Drop;
                    assert_eq!(marked.to_move(&pos, previous), Ok(mv));
                }
                markers.horizontal += spec.horizontal.is_some() as usize;
                markers.vertical += spec.vertical.is_some() as usize;
                markers.drop += (spec.drop == DropMark::Drop) as usize;
                markers.same += (spec.to == Destination::Same) as usize;
                checked += 1;
            }
            let mv: Move = moves[rng.below(moves.len())];
            previous = Some(mv.to());
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn every_legal_move_survives_describe_then_resolve() {
    let mut markers = Markers::default();
    check_random_games(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        60_000,
        11,
        &mut markers,
    );
    // Crowded boards of golds, silvers and promoted pieces, where relative
    // markers are needed most.
    check_random_games(
        "4k4/9/1G1G1G1G1/9/2S1S1S1S/9/9/+P+P+P+P1+p+p+p+p/4K4 b RB2N2L4Prb2n2l4p 1",
        30_000,
        12,
        &mut markers,
    );
    check_random_games(
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        20_000,
        13,
        &mut markers,
    );
    // The games reach the moves the markers are for: every kind is needed
    // (and so tested) hundreds of times at least.
    let counts = [
        markers.horizontal,
        markers.vertical,
        markers.drop,
        markers.same,
    ];
    assert!(counts.iter().all(|&n| n >= 500), "{markers:?}");
}

/// Every legal move of random positions, written in Western notation (the
/// minimal form) by the Western writer and read back by the Western reader,
/// is the same move.
#[test]
fn every_legal_move_survives_western_write_then_read() {
    use crate::util::write::text as written;
    use kifconv::read::{read_text, Format};
    use kifconv::record::{NodeId, Record};
    let mut rng = Rng::new(21);
    let mut checked = 0;
    let starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/1G1G1G1G1/9/2S1S1S1S/9/9/+P+P+P+P1+p+p+p+p/4K4 b RB2N2L4Prb2n2l4p 1",
    ];
    while checked < 100_000 {
        let start = starts[rng.below(starts.len())];
        let mut pos =
            Position::from_setup(Setup::from_sfen(start).unwrap(), KingRule::BothRequired).unwrap();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let mut record = Record::new(pos.clone());
                record.tree.push(NodeId::ROOT, mv);
                let text = written(&record, kifconv::Target::Western);
                let records = read_text(&text, Format::Western)
                    .unwrap_or_else(|e| panic!("{mv}: {}\n{text}", e.render("western")));
                assert_eq!(records[0].tree.mainline_moves().next(), Some(mv), "{text}");
                checked += 1;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}
