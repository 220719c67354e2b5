//! A problem as a record: the start, 先手：詰方 and 後手：玉方, the answer
//! in JSA notation as a comment, the moves, and the 詰み ending, for the
//! record writers (a tsume KIF is the KIF writer's output of it, with the
//! defender's hand written out piece by piece).

use super::notation::jsa_moves;
use crate::record::{Ending, EndingKind, Header, NodeId};
use crate::{Move, Position, Record};

/// A tsume record of `start` (attacker to move) and its `answer`: headers
/// 先手：詰方 / 後手：玉方 (swapped when White attacks), the answer in JSA
/// notation as the first comment, the moves, and a mate ending.
pub fn problem_record(start: &Position, answer: &[Move]) -> Record {
    let attacker = start.side_to_move();
    let mut record = Record::new(start.clone());
    let (black, white) = if attacker == crate::Color::Black {
        ("詰方", "玉方")
    } else {
        ("玉方", "詰方")
    };
    record.headers = vec![
        Header {
            key: "先手".into(),
            value: black.into(),
        },
        Header {
            key: "後手".into(),
            value: white.into(),
        },
    ];
    let notation = jsa_moves(start, answer).join("");
    record.tree.node_mut(NodeId::ROOT).notes_mut().comments =
        vec![format!("解答：{notation}　まで{}手で詰み", answer.len())];
    let mut id = NodeId::ROOT;
    for &mv in answer {
        id = record.tree.push(id, mv);
    }
    record
        .tree
        .node_mut(id)
        .set_ending(Ending::new(EndingKind::Checkmate, Some(attacker), "詰み"));
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::problem;
    use crate::Target;

    #[test]
    fn a_tsume_kif_reads_back() {
        let start = problem("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let answer = [Move::from_usi("G*5b").unwrap()];
        let record = problem_record(&start, &answer);
        let bytes = crate::write(&[record], Target::Kifu, &Default::default()).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        println!("{text}");
        assert!(text.contains("先手：詰方\n後手：玉方\n"), "{text}");
        assert!(
            text.contains("後手の持駒：飛二　角二　金三　銀四　桂四　香四　歩十七"),
            "{text}"
        );
        assert!(text.contains("*解答：▲５二金　まで1手で詰み\n"), "{text}");
        assert!(text.contains("まで1手で詰み\n"), "{text}");
        let back = crate::read_bytes(text.as_bytes()).unwrap();
        assert_eq!(back[0].start, start);
        assert_eq!(back[0].tree.mainline_moves().collect::<Vec<_>>(), answer);
    }
}
