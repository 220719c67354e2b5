//! Games made up for the tests: random legal lines, random move trees,
//! and a KIF mainline written move by move.

use super::rng::Rng;
use super::write::{kif_move_lines, text};
use kifconv::record::{MoveTree, NodeId, Record};
use kifconv::{Move, Position, Target};

/// The legal moves after which the opponent can still move: playing only
/// these, a game goes on as long as we like.
pub fn moves_that_go_on(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            next.has_legal_move()
        })
        .collect()
}

/// A game of random legal moves from the start position, at most `plies`
/// long, stopping where the side to move has no legal move: each position
/// with the move played from it. (The library's unit tests use it.)
#[allow(dead_code)]
pub fn random_game(plies: usize, rng: &mut Rng) -> Vec<(Position, Move)> {
    let mut pos = Position::startpos();
    let mut game = Vec::with_capacity(plies);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        game.push((pos.clone(), mv));
        pos.play_unchecked(mv);
    }
    game
}

/// `plies` random legal moves from the start position, never ending in
/// mate.
pub fn random_line(plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let choices = moves_that_go_on(&pos);
        assert!(!choices.is_empty(), "stuck at {}", pos.sfen());
        let mv = choices[rng.below(choices.len())];
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

/// The head of a KIF game from the start position.
pub const KIF_HEAD: &str = "手合割：平手\n手数----指手---------消費時間--\n";

/// A KIF mainline from the start position: [`KIF_HEAD`], then the KIF
/// writer's move lines without their times (`   1 ７六歩(77)`).
pub fn kif_text(moves: &[Move]) -> String {
    let mut record = Record::new(Position::startpos());
    let mut at = NodeId::ROOT;
    for &mv in moves {
        at = record.tree.push(at, mv);
    }
    let written = text(&record, Target::Kifu);
    let mut out = String::with_capacity(KIF_HEAD.len() + 24 * moves.len());
    out.push_str(KIF_HEAD);
    for line in kif_move_lines(&written) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A game from the SFEN `sfen` whose mainline is the USI moves `usi`
/// (`7g7f 3c3d`), each checked as it is played.
pub fn game_of(sfen: &str, usi: &str) -> Record {
    let start = Position::from_sfen(sfen).unwrap();
    let mut pos = start.clone();
    let mut record = Record::new(start);
    let mut node = NodeId::ROOT;
    for text in usi.split_whitespace() {
        let mv = Move::from_usi(text).unwrap();
        pos.play(mv).unwrap();
        node = record.tree.push(node, mv);
    }
    record
}

/// A record's mainline moves in USI, a space between each two: `7g7f 3c3d`.
pub fn usi_moves(record: &Record) -> String {
    record
        .tree
        .mainline_moves()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position at `node` of `tree`, played from `start`.
pub fn position_at(start: &Position, tree: &MoveTree, node: NodeId) -> Position {
    let mut path = Vec::new();
    let mut cur = node;
    while let Some(mv) = tree.node(cur).mv {
        path.push(mv);
        cur = tree.node(cur).parent.unwrap();
    }
    let mut pos = start.clone();
    for mv in path.into_iter().rev() {
        pos.play_unchecked(mv);
    }
    pos
}

/// Random lines grown on `tree` (whose root is `start`): a mainline of
/// up to 149 random legal moves, then up to two branches of up to 19 off
/// random nodes, each move differing from the moves already there.
/// `on_move` annotates each new node; `after_line` sees where each line
/// ended (its index, last node and position).
pub fn random_lines(
    rng: &mut Rng,
    start: &Position,
    tree: &mut MoveTree,
    mut on_move: impl FnMut(&mut Rng, &mut MoveTree, NodeId),
    mut after_line: impl FnMut(&mut Rng, &mut MoveTree, usize, NodeId, &Position),
) {
    let lines = 1 + rng.below(3);
    for line in 0..lines {
        let mut node = if line == 0 {
            NodeId::ROOT
        } else {
            let ids: Vec<NodeId> = std::iter::once(NodeId::ROOT).chain(tree.ids()).collect();
            ids[rng.below(ids.len())]
        };
        let mut pos = position_at(start, tree, node);
        let length = rng.below(if line == 0 { 150 } else { 20 });
        for _ in 0..length {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            if tree.children(node).any(|c| tree.node(c).mv == Some(mv)) {
                break;
            }
            node = tree.push(node, mv);
            pos.play_unchecked(mv);
            on_move(rng, tree, node);
        }
        after_line(rng, tree, line, node, &pos);
    }
}

#[test]
fn random_lines_go_on_and_kif_text_numbers_them() {
    let moves = random_line(40, &mut Rng::new(0x51));
    assert_eq!(moves.len(), 40);
    let mut pos = Position::startpos();
    for &mv in &moves {
        pos.play(mv).unwrap();
    }
    assert!(pos.has_legal_move());
    let text = kif_text(&moves);
    assert!(text.starts_with(KIF_HEAD));
    assert_eq!(text.lines().count(), 2 + 40);
    assert!(text.lines().nth(41).unwrap().starts_with("  40 "));
}

#[test]
fn random_trees_are_legal_and_branch() {
    let start = Position::startpos();
    let mut rng = Rng::new(0x7ee5);
    let (mut lines_seen, mut forks) = (0, 0);
    for _ in 0..30 {
        let mut tree = MoveTree::new();
        random_lines(
            &mut rng,
            &start,
            &mut tree,
            |_, _, _| {},
            |_, _, _, _, _| lines_seen += 1,
        );
        for id in tree.ids() {
            let parent = tree.node(id).parent.unwrap();
            let pos = position_at(&start, &tree, parent);
            assert!(pos.is_legal(tree.node(id).mv.unwrap()));
        }
        forks += std::iter::once(NodeId::ROOT)
            .chain(tree.ids())
            .filter(|&id| tree.children(id).count() > 1)
            .count();
    }
    assert!(
        lines_seen > 30 && forks > 0,
        "{lines_seen} lines, {forks} forks"
    );
}
