//! The legal moves in the order YaneuraOu's generator gives them (its
//! `LEGAL_ALL` list), for tools that must reproduce what the engine writes
//! when it keeps equal moves in generation order.
//!
//! The engine first generates pseudo-legal moves: out of check, by piece
//! group (pawns, lances, knights, silvers, bishops and rooks, then golds,
//! promoted pieces and the king), each group by origin square and then
//! destination in index order, then drops; in check, king steps away from
//! the checkers' lines, then captures and interpositions in the same group
//! order, then drops between. It then removes the illegal ones (the king
//! stepping into an attack, a pinned piece leaving its line) by moving the
//! last move of the list into the removed one's place.

use super::bitboard::{self, Bitboard};
use super::Position;
use crate::{Color, Move, PieceKind, Square};

/// The kinds the engine moves in its "golds, horse, dragon, king" group.
const GOLD_LIKE: [PieceKind; 5] = [
    PieceKind::Gold,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
];

impl Position {
    /// The legal moves in YaneuraOu's `LEGAL_ALL` order (see the module's
    /// comment). Non-promotions are included wherever they are legal.
    pub fn legal_moves_in_engine_order(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        if self.is_check() {
            self.engine_evasions(&mut moves);
        } else {
            let target = !self.pieces_of(self.side) & Bitboard::ALL;
            self.engine_piece_moves(&mut moves, target, target, true);
            let empty = !self.occupied() & Bitboard::ALL;
            self.engine_drops(&mut moves, empty);
        }
        // The engine's filter: an illegal move is overwritten by the last.
        let mut i = 0;
        while i < moves.len() {
            if self.is_legal(moves[i]) {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
        moves
    }

    /// Rank as the side to move counts it (1 is the far rank).
    fn near_rank(&self, sq: Square) -> u8 {
        match self.side {
            Color::Black => sq.rank(),
            Color::White => 10 - sq.rank(),
        }
    }

    fn in_zone(&self, sq: Square) -> bool {
        self.near_rank(sq) <= 3
    }

    /// The squares of the side to move's pieces of `kinds`, in index order.
    fn own_squares(&self, kinds: &[PieceKind]) -> Bitboard {
        kinds
            .iter()
            .fold(Bitboard::EMPTY, |bb, &k| bb | self.pieces(self.side, k))
    }

    /// Board moves to `target` (pawns to `pawn_target`), group by group;
    /// `with_king` adds the king to the last group.
    fn engine_piece_moves(
        &self,
        moves: &mut Vec<Move>,
        target: Bitboard,
        pawn_target: Bitboard,
        with_king: bool,
    ) {
        let us = self.side;
        let occupied = self.occupied();
        let push = |moves: &mut Vec<Move>, from, to, promote| {
            moves.push(Move::Normal { from, to, promote });
        };
        // Pawns: by destination.
        let pawns = self.pieces(us, PieceKind::Pawn);
        let mut pawn_steps = Bitboard::EMPTY;
        for from in pawns {
            pawn_steps |= bitboard::reach(us, PieceKind::Pawn, from);
        }
        for to in pawn_steps & pawn_target {
            let from = match us {
                Color::Black => Square::from_index(to.index() + 1),
                Color::White => Square::from_index(to.index() - 1),
            }
            .expect("a pawn's origin is on the board");
            if self.in_zone(to) {
                push(moves, from, to, true);
                if self.near_rank(to) != 1 {
                    push(moves, from, to, false);
                }
            } else {
                push(moves, from, to, false);
            }
        }
        // Lances: promotions first, then the rest (not onto the last rank).
        for from in self.pieces(us, PieceKind::Lance) {
            let to_bb = bitboard::lance_attacks(us, from, occupied) & target;
            for to in to_bb.filter(|&to| self.in_zone(to)) {
                push(moves, from, to, true);
            }
            for to in to_bb.filter(|&to| self.near_rank(to) != 1) {
                push(moves, from, to, false);
            }
        }
        // Knights: promotion, then the plain move where a knight may stand.
        for from in self.pieces(us, PieceKind::Knight) {
            for to in bitboard::reach(us, PieceKind::Knight, from) & target {
                if self.in_zone(to) {
                    push(moves, from, to, true);
                }
                if self.near_rank(to) >= 3 {
                    push(moves, from, to, false);
                }
            }
        }
        // Silvers, then bishops and rooks together: from the zone every
        // destination may promote; from outside, the zone's first.
        for from in self.pieces(us, PieceKind::Silver) {
            let to_bb = bitboard::reach(us, PieceKind::Silver, from) & target;
            self.push_promotable(moves, from, to_bb);
        }
        for from in self.own_squares(&[PieceKind::Bishop, PieceKind::Rook]) {
            let kind = self.board[from.index()].expect("a set bit is a piece").kind;
            let to_bb = bitboard::attacks(us, kind, from, occupied) & target;
            self.push_promotable(moves, from, to_bb);
        }
        // Golds, promoted pieces, horses, dragons (and the king).
        let mut last_group =
            self.own_squares(&GOLD_LIKE) | self.own_squares(&[PieceKind::Horse, PieceKind::Dragon]);
        if with_king {
            last_group |= self.pieces(us, PieceKind::King);
        }
        for from in last_group {
            let kind = self.board[from.index()].expect("a set bit is a piece").kind;
            for to in bitboard::attacks(us, kind, from, occupied) & target {
                push(moves, from, to, false);
            }
        }
    }

    /// A silver's, bishop's or rook's moves from `from` to `to_bb`.
    fn push_promotable(&self, moves: &mut Vec<Move>, from: Square, to_bb: Bitboard) {
        let both = |moves: &mut Vec<Move>, to| {
            moves.push(Move::Normal {
                from,
                to,
                promote: true,
            });
            moves.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        };
        if self.in_zone(from) {
            for to in to_bb {
                both(moves, to);
            }
        } else {
            for to in to_bb.filter(|&to| self.in_zone(to)) {
                both(moves, to);
            }
            for to in to_bb.filter(|&to| !self.in_zone(to)) {
                moves.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }

    /// Drops onto `target`: pawns first (no second pawn on a file, not on
    /// the last rank, no mate by the drop); then the other kinds square by
    /// square, the last rank first, then the second, then the rest, each
    /// square taking every kind that may stand there (knight, lance,
    /// silver, gold, bishop, rook).
    fn engine_drops(&self, moves: &mut Vec<Move>, target: Bitboard) {
        let hand = self.hands[self.side.index()];
        if hand.is_empty() {
            return;
        }
        if hand.count(PieceKind::Pawn) > 0 {
            let pawns = self.pieces(self.side, PieceKind::Pawn);
            for to in target {
                let file_has_pawn = pawns.into_iter().any(|p| p.file() == to.file());
                if self.near_rank(to) == 1 || file_has_pawn {
                    continue;
                }
                let drop = Move::Drop {
                    kind: PieceKind::Pawn,
                    to,
                };
                // Only a mate by the drop can make it illegal here.
                if self.is_legal(drop) {
                    moves.push(drop);
                }
            }
        }
        let kinds: Vec<PieceKind> = [
            PieceKind::Knight,
            PieceKind::Lance,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ]
        .into_iter()
        .filter(|&k| hand.count(k) > 0)
        .collect();
        if kinds.is_empty() {
            return;
        }
        let drop_all = |moves: &mut Vec<Move>, squares: Bitboard, kinds: &[PieceKind]| {
            for to in squares {
                for &kind in kinds {
                    moves.push(Move::Drop { kind, to });
                }
            }
        };
        let has = |k| kinds.contains(&k);
        if !has(PieceKind::Knight) && !has(PieceKind::Lance) {
            drop_all(moves, target, &kinds);
            return;
        }
        let rank = |n: u8| target.filter(move |&sq| self.near_rank(sq) == n);
        let collect = |it: &mut dyn Iterator<Item = Square>| {
            it.fold(Bitboard::EMPTY, |bb, sq| bb | Bitboard::from_square(sq))
        };
        let first = collect(&mut rank(1));
        let second = collect(&mut rank(2));
        let rest = collect(&mut target.filter(|&sq| self.near_rank(sq) >= 3));
        let no_knight_lance: Vec<PieceKind> = kinds
            .iter()
            .copied()
            .filter(|&k| k != PieceKind::Knight && k != PieceKind::Lance)
            .collect();
        let no_knight: Vec<PieceKind> = kinds
            .iter()
            .copied()
            .filter(|&k| k != PieceKind::Knight)
            .collect();
        drop_all(moves, first, &no_knight_lance);
        drop_all(moves, second, &no_knight);
        drop_all(moves, rest, &kinds);
    }

    /// Evasions: king steps off the checkers' lines (found with the king
    /// lifted), then, against a single checker, captures and
    /// interpositions by the other pieces and drops between.
    fn engine_evasions(&self, moves: &mut Vec<Move>) {
        let us = self.side;
        let Some(king) = self.king(us) else {
            return;
        };
        let without_king = self.occupied() & !Bitboard::from_square(king);
        let checkers = self.checkers();
        let mut lines = Bitboard::EMPTY;
        let mut count = 0;
        let mut last_checker = king;
        for sq in checkers {
            count += 1;
            last_checker = sq;
            let piece = self.board[sq.index()].expect("a checker is a piece");
            lines |= bitboard::attacks(piece.color, piece.kind, sq, without_king);
        }
        for to in bitboard::king_attacks(king) & !(self.pieces_of(us) | lines) {
            moves.push(Move::Normal {
                from: king,
                to,
                promote: false,
            });
        }
        if count > 1 {
            return;
        }
        let between = bitboard::between(last_checker, king);
        let target = between | Bitboard::from_square(last_checker);
        self.engine_piece_moves(moves, target, target, false);
        self.engine_drops(moves, between);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same set as the plain generator, in every position of some
    /// random games (check, pins, drops and promotions included).
    #[test]
    fn same_moves_as_the_generator() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/7R1/LN1GKGSNL b Bb 13",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLPrb2g3s3n3l16p 1",
            "8k/9/7PP/9/9/9/9/9/K8 b P2r2b4g4s4n4l14p 1",
            "ln1g3nl/1r3kg2/p2pppspp/2p3p2/1p5P1/2P1P1P2/PPSP1P2P/2G2K1R1/LN3GSNL b BSb 1",
            "4k4/4r4/9/9/4B4/9/9/9/4K4 b - 1",
        ];
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut ours = pos.legal_moves();
            let mut engine = pos.legal_moves_in_engine_order();
            let n = engine.len();
            ours.sort_by_key(|m| format!("{m:?}"));
            engine.sort_by_key(|m| format!("{m:?}"));
            engine.dedup();
            assert_eq!(engine.len(), n, "{sfen}: a move twice");
            assert_eq!(engine, ours, "{sfen}");
        }
    }

    #[test]
    fn startpos_order() {
        let pos = Position::startpos();
        let text: Vec<String> = pos
            .legal_moves_in_engine_order()
            .into_iter()
            .map(|m| m.to_string())
            .collect();
        // As the engine's `moves` command lists them: pawns by
        // destination, lances, silvers, rook, then golds and king together
        // by origin.
        let engine = "1g1f 2g2f 3g3f 4g4f 5g5f 6g6f 7g7f 8g8f 9g9f 1i1h 9i9h 3i3h 3i4h \
                      7i6h 7i7h 2h1h 2h3h 2h4h 2h5h 2h6h 2h7h 4i3h 4i4h 4i5h 5i4h 5i5h \
                      5i6h 6i5h 6i6h 6i7h";
        assert_eq!(text.join(" "), engine);
    }
}
