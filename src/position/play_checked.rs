//! Playing a move checked: the legality check and the move made in one
//! step, the fast branch of [`Position::play`] (and what the resolver
//! calls for a move whose origin is written: KIF `(77)`, CSA `7776FU`).
//!
//! [`Position::check_legal`] followed by [`Position::play_unchecked`] reads
//! the piece on the origin and what stands on the destination twice, and
//! matches on the move's shape twice. [`Position::play_from_if_legal`]
//! reads each once and applies the same rules (the same functions decide
//! them); [`Position::drop_if_legal`] does the same for a drop. Tests check
//! both against that general branch.

use super::Position;
use crate::{Move, Piece, PieceKind, Square};

impl Position {
    /// Plays the board move of the side to move's piece on `from` to `to`
    /// if it is legal, and returns it; `promote` says, from the kind of
    /// the piece found on `from`, whether the move promotes, or `None` to
    /// refuse that piece. Anything refused (no piece of the mover's there,
    /// `promote` said no, or an illegal move) returns `None` and leaves the
    /// position as it was: the caller then asks [`Position::check_legal`]
    /// why, if it wants to know.
    ///
    /// What [`Position::check_legal`] and [`Position::play_unchecked`] do
    /// for `Move::Normal { from, to, promote }` once the promotion is chosen
    /// (a test compares the two on every move of random games, legal and
    /// not).
    ///
    /// Out of line: inlined into the game builder's loop, the whole run
    /// was slower than with this call.
    #[inline(never)]
    pub(crate) fn play_from_if_legal(
        &mut self,
        from: Square,
        to: Square,
        promote: impl FnOnce(PieceKind) -> Option<bool>,
    ) -> Option<Move> {
        let piece = self.board[from.index()].filter(|p| p.color == self.side)?;
        let promote = promote(piece.kind)?;
        let there = self.board[to.index()];
        self.check_own_piece_move(piece.kind, from, to, there, promote)
            .ok()?;
        let mv = Move::Normal { from, to, promote };
        if !self.keeps_king_safe(mv) {
            return None;
        }
        self.move_known_piece(from, to, piece.kind, there, promote);
        self.pass_turn(Some(from), to);
        Some(mv)
    }

    /// Drops a piece of `kind` from the side to move's hand on `to` if
    /// that is legal, and returns the drop; `None`, with the position as
    /// it was, if it is not. What [`Position::check_legal`] and
    /// [`Position::play_unchecked`] do for `Move::Drop { kind, to }` (a test
    /// compares the two on every drop of random games), with the rules
    /// asked and the move made in one call: a record's drops (CSA
    /// `0055FU`, KIF `５五歩打`) come this way.
    pub(crate) fn drop_if_legal(&mut self, kind: PieceKind, to: Square) -> Option<Move> {
        self.check_drop_inline(kind, to).ok()?;
        let mv = Move::Drop { kind, to };
        if !self.keeps_king_safe(mv) {
            return None;
        }
        let us = self.side;
        self.remove_from_hand(us, kind);
        self.put(to, Piece::new(us, kind));
        self.pass_turn(None, to);
        Some(mv)
    }
}

#[cfg(test)]
mod tests {
    use crate::position::random_games::each_position;
    use crate::{Move, PieceKind, Square};

    /// On random games from every position of the perft data, every board
    /// move from every occupied square to every square, promoting and not:
    /// played in one step exactly when `check_legal` accepts it, to the
    /// position `play_unchecked` makes.
    #[test]
    fn plays_what_play_accepts_and_nothing_else() {
        let mut tried = 0;
        each_position(0x9E37_79B9_7F4A_7C15, 2, 30, |pos, _, _| {
            for from in Square::all() {
                if pos.piece_at(from).is_none() {
                    continue;
                }
                for to in Square::all() {
                    for promote in [false, true] {
                        let mv = Move::Normal { from, to, promote };
                        let mut general = pos.clone();
                        let accepted = general.check_legal(mv).is_ok();
                        if accepted {
                            general.play_unchecked(mv);
                        }
                        let mut fast = pos.clone();
                        let played = fast.play_from_if_legal(from, to, |_| Some(promote));
                        assert_eq!(played, accepted.then_some(mv), "{} {mv}", pos.sfen());
                        assert_eq!(fast, general, "{} {mv}", pos.sfen());
                        assert_eq!(fast.key(), general.key());
                        assert_eq!(fast.checkers(), general.checkers());
                        tried += 1;
                    }
                }
                let mut refused = pos.clone();
                assert_eq!(refused.play_from_if_legal(from, from, |_| None), None);
                assert_eq!(refused, *pos);
            }
        });
        assert!(tried > 100_000, "{tried}");
    }

    /// On random games from every position of the perft data, every kind
    /// dropped on every square: played in one step exactly when
    /// `check_legal` accepts it, to the position `play_unchecked` makes.
    #[test]
    fn drops_what_play_accepts_and_nothing_else() {
        let (mut played, mut refused) = (0, 0);
        each_position(0x6A09_E667_F3BC_C908, 2, 40, |pos, _, _| {
            for kind in PieceKind::ALL {
                for to in Square::all() {
                    let mv = Move::Drop { kind, to };
                    let mut general = pos.clone();
                    let accepted = general.check_legal(mv).is_ok();
                    if accepted {
                        general.play_unchecked(mv);
                    }
                    let mut fast = pos.clone();
                    let got = fast.drop_if_legal(kind, to);
                    assert_eq!(got, accepted.then_some(mv), "{} {mv}", pos.sfen());
                    assert_eq!(fast, general, "{} {mv}", pos.sfen());
                    assert_eq!(fast.key(), general.key());
                    assert_eq!(fast.checkers(), general.checkers());
                    if accepted {
                        played += 1;
                    } else {
                        refused += 1;
                    }
                }
            }
        });
        assert!(played > 10_000 && refused > 100_000, "{played} {refused}");
    }
}
