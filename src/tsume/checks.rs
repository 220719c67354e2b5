//! The attacker's moves in a mate problem: the legal moves that give check,
//! whether one move gives check, and the fast test for a mate in one.
//!
//! Every move of the attacker in a tsume must check, so the solver only
//! ever asks for checking moves; the defender's replies are simply its
//! legal moves (in check, every legal move is an evasion).

use crate::position::bitboard;
use crate::{Move, Position};

/// Whether `mv`, a legal move of the side to move, checks the other king:
/// directly (the moved or dropped piece attacks it) or by discovery (the
/// move opens a line from one of the mover's sliders). A side without a king
/// is never in check.
///
/// Decided on the bitboards, without playing the move.
pub fn gives_check(pos: &Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    let Some(king) = pos.king(!us) else {
        return false;
    };
    let occupied = pos.occupied();
    match mv {
        Move::Drop { kind, to } => bitboard::attacks(us, kind, to, occupied).contains(king),
        Move::Normal { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                return false;
            };
            let kind = match (promote, piece.kind.promote()) {
                (true, Some(promoted)) => promoted,
                _ => piece.kind,
            };
            let after =
                (occupied & !crate::Bitboard::from_square(from)) | crate::Bitboard::from_square(to);
            if bitboard::attacks(us, kind, to, after).contains(king) {
                return true;
            }
            // By discovery: the mover's other pieces that reach the king once
            // `from` is empty (the moved piece is not counted from `from`, and
            // a piece captured on `to` is not the mover's). Only a square on
            // a line through the king can open one.
            bitboard::aligned(king, from) && !pos.attackers_to(king, us, after).is_empty()
        }
    }
}

/// Every legal move of the side to move that checks the other king, in the
/// order [`Position::legal_moves`] gives them.
pub fn check_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    moves.retain(|&mv| gives_check(pos, mv));
    moves
}

/// The first move that mates at once, if there is one: a checking move
/// after which the other side has no legal move. The fast path of the
/// solver (a few microseconds on a problem position).
pub fn mate_in_one(pos: &Position) -> Option<Move> {
    let mut found = None;
    for_each_mate_in_one(pos, |mv| {
        found = Some(mv);
        false
    });
    found
}

/// Every move that mates at once, in the order of
/// [`Position::legal_moves`].
pub fn mates_in_one(pos: &Position) -> Vec<Move> {
    let mut found = Vec::new();
    for_each_mate_in_one(pos, |mv| {
        found.push(mv);
        true
    });
    found
}

/// Calls `found` with each mating move until it returns false.
fn for_each_mate_in_one(pos: &Position, mut found: impl FnMut(Move) -> bool) {
    if pos.king(!pos.side_to_move()).is_none() {
        return;
    }
    for mv in pos.legal_moves() {
        if !gives_check(pos, mv) {
            continue;
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if !after.has_legal_move() && !found(mv) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::games::random_game;
    use crate::tsume::problem;

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        // Random games from the start: every legal move of every position,
        // the bitboard answer against the played one.
        let mut rng = crate::test_util::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for _ in 0..60 {
            for (pos, _) in random_game(120, &mut rng) {
                for mv in pos.legal_moves() {
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    assert_eq!(
                        gives_check(&pos, mv),
                        after.is_check(),
                        "{} {mv}",
                        pos.sfen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn mate_in_one_finds_a_head_gold_and_refuses_pawn_drop_mate() {
        // Gold dropped on the king's head, supported by a pawn.
        let pos = problem("4k4/9/4P4/9/9/9/9/9/9 b G 1");
        assert_eq!(mate_in_one(&pos).unwrap().to_string(), "G*5b");
        assert_eq!(mates_in_one(&pos).len(), 1);
        // Only a pawn drop would mate, and that is illegal.
        let pos = problem("3rkr3/3s1s3/9/5N3/9/9/9/9/9 b P 1");
        assert!(mate_in_one(&pos).is_none());
    }
}
