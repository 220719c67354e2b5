//! Legal moves: generation, single-move checks, and the candidates a move
//! written without its origin could mean.
//!
//! Legality is decided once per position by a [`Guard`]: the king, the
//! pieces giving check, and the pieces pinned to the king. A board move is
//! then legal when it answers every check and keeps a pinned piece on its
//! line; a king move when its destination is not attacked.

use super::bitboard::{self, between, ray_through, Bitboard};
use super::{IllegalMove, Position};
use crate::{Color, Move, PieceKind, Square};

/// Where moves go as they are generated: a `Vec`, or a counter for perft.
pub trait MoveSink {
    /// Receives one generated legal move.
    fn push(&mut self, mv: Move);
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// Counts moves without storing them.
#[derive(Default)]
struct Counter(u64);

impl MoveSink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// The moves one piece kind could make to one square: a short list that
/// lives on the stack. No kind can have more than 16 (four silvers reaching
/// a square, each promoting or not, is eight).
#[derive(Clone, Copy, Debug)]
pub struct Candidates {
    moves: [Move; 16],
    len: usize,
}

impl Candidates {
    const fn new() -> Candidates {
        Candidates {
            moves: [Move::Drop {
                kind: PieceKind::Pawn,
                to: Square::from_index_unchecked(0),
            }; 16],
            len: 0,
        }
    }
}

impl Candidates {
    /// Keeps the moves for which `keep` is true, in order. Each move is
    /// judged once, in order, and a kept one is copied to the end of the
    /// moves kept so far, which never passes the move being judged (as
    /// `Vec::retain` does): nothing is deleted while walking by index, and
    /// no list is built and copied back.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for next in 0..self.len {
            let mv = self.moves[next];
            if keep(&mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl MoveSink for Candidates {
    #[inline]
    fn push(&mut self, mv: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Candidates {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a Candidates {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Squares where a piece of `kind` could never move again: the last rank
/// for pawns and lances, the last two for knights.
pub(crate) fn dead_squares(color: Color, kind: PieceKind) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => bitboard::relative_ranks_table(color, 1),
        PieceKind::Knight => bitboard::relative_ranks_table(color, 2),
        _ => Bitboard::EMPTY,
    }
}

#[inline]
fn promotion_zone(color: Color) -> Bitboard {
    bitboard::relative_ranks_table(color, 3)
}

/// `RELATIVE_RANKS[color][sq]`: [`Square::relative_rank`], looked up
/// rather than divided out, for the rules asked of every move.
static RELATIVE_RANKS: [[u8; 81]; 2] = {
    let mut table = [[0; 81]; 2];
    let mut sq = 0;
    while sq < 81 {
        let square = Square::from_index_unchecked(sq);
        table[0][sq] = square.relative_rank(Color::Black);
        table[1][sq] = square.relative_rank(Color::White);
        sq += 1;
    }
    table
};

/// The rank of `sq` counted from `color`'s far side (1 to 9).
#[inline]
fn relative_rank(color: Color, sq: Square) -> u8 {
    RELATIVE_RANKS[color.index()][sq.index()]
}

/// Whether `sq` is in `color`'s promotion zone: [`promotion_zone`] for one
/// square, by its rank.
#[inline(always)]
fn in_promotion_zone(color: Color, sq: Square) -> bool {
    relative_rank(color, sq) <= 3
}

/// Whether a piece of `color` and `kind` on `sq` could never move again:
/// [`dead_squares`] for one square, by its rank.
#[inline(always)]
fn is_dead_square(color: Color, kind: PieceKind, sq: Square) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => relative_rank(color, sq) == 1,
        PieceKind::Knight => relative_rank(color, sq) <= 2,
        _ => false,
    }
}

/// Which moves a check or a pin leaves to the side to move.
struct Guard {
    king: Option<Square>,
    pinned: Bitboard,
    /// Where a non-king piece may go: anywhere not its own when not in
    /// check; onto the checker or between it and the king when in check.
    target: Bitboard,
}

impl Guard {
    /// A board move of a non-king piece that reaches its square.
    #[inline]
    fn allows(&self, from: Square, to: Square) -> bool {
        self.target.contains(to)
            && match self.king {
                Some(king) if self.pinned.contains(from) => {
                    bitboard::on_ray_through(king, from, to)
                }
                _ => true,
            }
    }

    /// A drop on an empty square.
    #[inline]
    fn allows_drop(&self, to: Square) -> bool {
        self.target.contains(to)
    }
}

impl Position {
    /// The pieces of `by` that attack `sq`, with `occupied` as the blockers.
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        use PieceKind::*;
        let them = !by;
        let golds = self.by_kind[Gold.index()]
            | self.by_kind[ProPawn.index()]
            | self.by_kind[ProLance.index()]
            | self.by_kind[ProKnight.index()]
            | self.by_kind[ProSilver.index()];
        let kingish =
            self.by_kind[King.index()] | self.by_kind[Horse.index()] | self.by_kind[Dragon.index()];
        let bishops = self.by_kind[Bishop.index()] | self.by_kind[Horse.index()];
        let rooks = self.by_kind[Rook.index()] | self.by_kind[Dragon.index()];
        // A piece of `by` on X attacks `sq` exactly when the same piece of the
        // other color on `sq` would attack X.
        let theirs = self.by_color[by.index()] & occupied;
        let mut attackers = (bitboard::reach(them, Pawn, sq) & self.by_kind[Pawn.index()])
            | (bitboard::reach(them, Knight, sq) & self.by_kind[Knight.index()])
            | (bitboard::reach(them, Silver, sq) & self.by_kind[Silver.index()])
            | (bitboard::reach(them, Gold, sq) & golds)
            | (bitboard::king_attacks(sq) & kingish);
        // Sliders only when one stands on a line through the square at all:
        // most squares of most positions have none.
        let lances = self.by_kind[Lance.index()] & theirs;
        if !(bitboard::lance_ray(them, sq) & lances).is_empty() {
            attackers |= bitboard::lance_attacks(them, sq, occupied) & lances;
        }
        let bishops = bishops & theirs;
        if !(bitboard::bishop_reach(sq) & bishops).is_empty() {
            attackers |= bitboard::bishop_attacks(sq, occupied) & bishops;
        }
        let rooks = rooks & theirs;
        if !(bitboard::rook_reach(sq) & rooks).is_empty() {
            attackers |= bitboard::rook_attacks(sq, occupied) & rooks;
        }
        attackers & theirs
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        !self.checkers().is_empty()
    }

    /// The pieces giving check to the side to move, as the position keeps
    /// them (brought up to date by each move played).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut counter = Counter(0);
        self.generate_legal(&mut counter);
        counter.0 > 0
    }

    /// Whether the piece on `from` is pinned to `king` and moving to `to`
    /// would leave the pin's line: the one question a move's legality asks
    /// of pins, answered without finding every pin.
    ///
    /// Most pieces that move stand on no line through their king: that
    /// one table look-up is made where the question is asked, and the
    /// rest ([`Position::pinned_off_aligned_line`]) only for the others.
    #[inline(always)]
    fn pinned_off_line(&self, king: Square, from: Square, to: Square) -> bool {
        bitboard::aligned(king, from)
            && self.slider_beyond(king, from)
            && self.pinned_off_aligned_line(king, from, to)
    }

    /// Whether a rook, bishop, horse, dragon or lance of the side not to
    /// move stands anywhere on the ray from `king` through `from`: without
    /// one, nothing can pin a piece on `from` to `king` (before a move), or
    /// be uncovered by a piece leaving `from` (after it). Sliders are few,
    /// so this one test spares most aligned moves the search beyond.
    #[inline(always)]
    pub(super) fn slider_beyond(&self, king: Square, from: Square) -> bool {
        use PieceKind::*;
        let sliders = self.by_kind[Rook.index()]
            | self.by_kind[Bishop.index()]
            | self.by_kind[Dragon.index()]
            | self.by_kind[Horse.index()]
            | self.by_kind[Lance.index()];
        let theirs = sliders & self.by_color[(!self.side).index()];
        !(bitboard::ray_through(king, from) & theirs).is_empty()
    }

    /// [`Position::pinned_off_line`] for a piece on `from`, which stands on
    /// a line through `king`.
    #[inline(never)]
    fn pinned_off_aligned_line(&self, king: Square, from: Square, to: Square) -> bool {
        use PieceKind::*;
        if bitboard::on_ray_through(king, from, to) {
            return false;
        }
        let occupied = self.occupied();
        if !(between(king, from) & occupied).is_empty() {
            return false;
        }
        let Some(beyond) = bitboard::first_beyond(king, from, occupied) else {
            return false;
        };
        let Some(piece) = self.board[beyond.index()] else {
            return false;
        };
        if piece.color == self.side {
            return false;
        }
        match piece.kind {
            Rook | Dragon => bitboard::orthogonal(king, from),
            Bishop | Horse => !bitboard::orthogonal(king, from),
            Lance => bitboard::lance_ray(self.side, king).contains(from),
            _ => false,
        }
    }

    /// The own pieces that stand alone between `king` and an enemy slider.
    fn pinned(&self, king: Square, us: Color) -> Bitboard {
        use PieceKind::*;
        let them = !us;
        let occupied = self.occupied();
        let bishops = self.by_kind[Bishop.index()] | self.by_kind[Horse.index()];
        let rooks = self.by_kind[Rook.index()] | self.by_kind[Dragon.index()];
        let snipers = ((bitboard::bishop_reach(king) & bishops)
            | (bitboard::rook_reach(king) & rooks)
            | (bitboard::lance_ray(us, king) & self.by_kind[Lance.index()]))
            & self.by_color[them.index()];
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.is_empty() && !blockers.has_many() {
                pinned |= blockers & self.by_color[us.index()];
            }
        }
        pinned
    }

    fn guard(&self) -> Guard {
        let us = self.side;
        let own = self.by_color[us.index()];
        match self.king(us) {
            None => Guard {
                king: None,
                pinned: Bitboard::EMPTY,
                target: !own,
            },
            Some(king) => {
                let checkers = self.checkers;
                let target = match checkers.first() {
                    None => !own,
                    Some(_) if checkers.has_many() => Bitboard::EMPTY,
                    Some(checker) => between(king, checker) | Bitboard::from_square(checker),
                };
                Guard {
                    king: Some(king),
                    pinned: self.pinned(king, us),
                    target,
                }
            }
        }
    }

    /// Whether the king of the side to move may step to `to`.
    #[inline]
    fn king_may_go(&self, king: Square, to: Square) -> bool {
        let occupied = self.occupied() ^ Bitboard::from_square(king);
        self.attackers_to(to, !self.side, occupied).is_empty()
    }

    /// Pushes the move of a piece of `kind` from `from` to `to`, promoted,
    /// unpromoted, or both, as the rules allow.
    #[inline]
    fn push_board_move(
        color: Color,
        kind: PieceKind,
        from: Square,
        to: Square,
        sink: &mut impl MoveSink,
    ) {
        let zone = promotion_zone(color);
        if kind.can_promote() && (zone.contains(from) || zone.contains(to)) {
            sink.push(Move::Normal {
                from,
                to,
                promote: true,
            });
            if dead_squares(color, kind).contains(to) {
                return;
            }
        }
        sink.push(Move::Normal {
            from,
            to,
            promote: false,
        });
    }

    /// The files holding an unpromoted pawn of `color`.
    fn pawn_files(&self, color: Color) -> Bitboard {
        self.pieces(color, PieceKind::Pawn).whole_files()
    }

    /// Whether `color` has an unpromoted pawn on `file` (1 to 9): the one
    /// file a pawn drop asks about, without collecting every pawn file.
    #[inline]
    fn has_pawn_on_file(&self, color: Color, file: u8) -> bool {
        !(self.pieces(color, PieceKind::Pawn) & bitboard::FILES[usize::from(file) - 1]).is_empty()
    }

    /// Where the side to move may drop a piece of `kind`, before 打ち歩詰め.
    fn drop_targets(&self, kind: PieceKind, guard: &Guard) -> Bitboard {
        let us = self.side;
        let mut targets = !self.occupied() & guard.target & !dead_squares(us, kind);
        if kind == PieceKind::Pawn {
            targets &= !self.pawn_files(us);
        }
        targets
    }

    /// Whether dropping a pawn of the side to move on `to` would mate
    /// (打ち歩詰め). Only a pawn right in front of the enemy king can check.
    fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(their_king) = self.king(them) else {
            return false;
        };
        if !bitboard::reach(us, PieceKind::Pawn, to).contains(their_king) {
            return false;
        }
        let mut after = self.clone();
        after.put(to, crate::Piece::new(us, PieceKind::Pawn));
        let occupied = after.occupied();
        // A defender other than the king that can take the pawn without
        // exposing its own king.
        let pinned = after.pinned(their_king, them);
        let takers =
            after.attackers_to(to, them, occupied) & !Bitboard::from_square(their_king) & !pinned;
        if !takers.is_empty() {
            return false;
        }
        // The king steps to an unattacked square, perhaps taking the pawn.
        let without_king = occupied ^ Bitboard::from_square(their_king);
        let escapes = bitboard::king_attacks(their_king) & !after.by_color[them.index()];
        for escape in escapes {
            if after.attackers_to(escape, us, without_king).is_empty() {
                return false;
            }
        }
        true
    }

    /// Appends every legal move of the side to move to `sink`.
    pub fn generate_legal(&self, sink: &mut impl MoveSink) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let occupied = self.occupied();
        let guard = self.guard();

        if let Some(king) = guard.king {
            for to in bitboard::king_attacks(king) & !own {
                if self.king_may_go(king, to) {
                    sink.push(Move::Normal {
                        from: king,
                        to,
                        promote: false,
                    });
                }
            }
        }
        if guard.target.is_empty() {
            return; // double check: only the king moves
        }

        let movers = own & !self.by_kind[PieceKind::King.index()];
        for from in movers {
            let kind = self.board[from.index()].expect("a set bit is a piece").kind;
            let mut targets = bitboard::attacks(us, kind, from, occupied) & guard.target;
            if let (Some(king), true) = (guard.king, guard.pinned.contains(from)) {
                targets &= ray_through(king, from);
            }
            for to in targets {
                Self::push_board_move(us, kind, from, to, sink);
            }
        }

        let hand = self.hands[us.index()];
        if hand.is_empty() {
            return;
        }
        for (kind, _) in hand.kinds() {
            let mut targets = self.drop_targets(kind, &guard);
            if kind == PieceKind::Pawn {
                if let Some(their_king) = self.king(!us) {
                    let checking = bitboard::reach(!us, PieceKind::Pawn, their_king);
                    for to in targets & checking {
                        if self.is_pawn_drop_mate(to) {
                            targets &= !Bitboard::from_square(to);
                        }
                    }
                }
            }
            for to in targets {
                sink.push(Move::Drop { kind, to });
            }
        }
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.generate_legal(&mut moves);
        moves
    }

    /// Whether `mv` is legal here, and if not, why.
    #[inline(always)]
    pub fn check_legal(&self, mv: Move) -> Result<(), IllegalMove> {
        self.check_rules(mv)?;
        if !self.keeps_king_safe(mv) {
            return Err(IllegalMove::KingLeftInCheck);
        }
        Ok(())
    }

    /// Whether `mv`, which follows every other rule, leaves the mover's
    /// king unattacked. The common case is answered cheaply, from the
    /// checkers the position keeps and the one line through the moving
    /// piece: not in check, a drop is safe and a board move is unless it
    /// takes a pinned piece off its line. In check, a [`Guard`] decides.
    #[inline(always)]
    pub(super) fn keeps_king_safe(&self, mv: Move) -> bool {
        let Some(king) = self.king(self.side) else {
            return true;
        };
        if !self.checkers.is_empty() {
            return self.answers_check(mv);
        }
        match mv {
            Move::Normal { from, to, .. } if from == king => self.king_may_go(king, to),
            Move::Normal { from, to, .. } => !self.pinned_off_line(king, from, to),
            Move::Drop { .. } => true,
        }
    }

    /// [`Position::keeps_king_safe`] when the side to move is in check
    /// (and has a king): a king move to an unattacked square, or a move
    /// the [`Guard`] allows. Out of line: few moves answer a check.
    #[inline(never)]
    fn answers_check(&self, mv: Move) -> bool {
        match (mv, self.king(self.side)) {
            (Move::Normal { from, to, .. }, Some(king)) if from == king => {
                self.king_may_go(king, to)
            }
            (Move::Normal { from, to, .. }, _) => self.guard().allows(from, to),
            (Move::Drop { to, .. }, _) => self.guard().allows_drop(to),
        }
    }

    /// Whether `mv` can be played here; [`Position::check_legal`] says why not.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv).is_ok()
    }

    /// Every rule but king safety: the piece, its reach, promotion, and the
    /// drop rules (打ち歩詰め included).
    #[inline]
    fn check_rules(&self, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Normal { from, to, promote } => self.check_board_move(from, to, promote),
            Move::Drop { kind, to } => self.check_drop(kind, to),
        }
    }

    /// [`Position::check_rules`] for a board move: the mover's piece on
    /// `from`, its reach to `to`, and promotion. Inlined where it is asked,
    /// as every move of a record that names its origin asks it.
    #[inline(always)]
    fn check_board_move(&self, from: Square, to: Square, promote: bool) -> Result<(), IllegalMove> {
        let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece)?;
        if piece.color != self.side {
            return Err(IllegalMove::NotOwnPiece);
        }
        self.check_own_piece_move(piece.kind, from, to, self.board[to.index()], promote)
    }

    /// [`Position::check_board_move`] once the side to move's piece on
    /// `from` is known to be of `kind`, with `there` what stands on `to`:
    /// its reach and promotion, for callers that have read both squares.
    #[inline(always)]
    pub(super) fn check_own_piece_move(
        &self,
        kind: PieceKind,
        from: Square,
        to: Square,
        there: Option<crate::Piece>,
        promote: bool,
    ) -> Result<(), IllegalMove> {
        let us = self.side;
        if matches!(there, Some(there) if there.color == us) {
            return Err(IllegalMove::OwnPieceOnTarget);
        }
        if !bitboard::reaches(us, kind, from, to, self.occupied()) {
            return Err(IllegalMove::CannotReach);
        }
        let in_zone = in_promotion_zone(us, from) || in_promotion_zone(us, to);
        if promote && !(kind.can_promote() && in_zone) {
            return Err(IllegalMove::CannotPromote);
        }
        if !promote && is_dead_square(us, kind, to) {
            return Err(IllegalMove::MustPromote);
        }
        Ok(())
    }

    /// [`Position::check_rules`] for a drop: the piece in hand, an empty
    /// square where it can move again, 二歩 and 打ち歩詰め.
    #[inline(never)]
    fn check_drop(&self, kind: PieceKind, to: Square) -> Result<(), IllegalMove> {
        self.check_drop_inline(kind, to)
    }

    /// [`Position::check_drop`], inlined where it is asked: in
    /// [`Position::drop_if_legal`], which every drop of a record that marks
    /// its drops goes through.
    #[inline(always)]
    pub(super) fn check_drop_inline(&self, kind: PieceKind, to: Square) -> Result<(), IllegalMove> {
        let us = self.side;
        if !kind.is_hand_kind() || self.hands[us.index()].count(kind) == 0 {
            return Err(IllegalMove::NotInHand);
        }
        if self.board[to.index()].is_some() {
            return Err(IllegalMove::DropOnOccupied);
        }
        if is_dead_square(us, kind, to) {
            return Err(IllegalMove::DropDeadSquare);
        }
        if kind == PieceKind::Pawn {
            if self.has_pawn_on_file(us, to.file()) {
                return Err(IllegalMove::DoublePawn);
            }
            if self.is_pawn_drop_mate(to) {
                return Err(IllegalMove::PawnDropMate);
            }
        }
        Ok(())
    }

    /// The legal moves of the side to move's pieces of `kind` (exactly that
    /// kind: a promoted silver is not a silver) to `to`, drops included; a
    /// move that may promote appears twice, promoting and not.
    ///
    /// This is what a move written without its origin (KI2, Western) can
    /// mean, before its markers are applied.
    pub fn candidates(&self, kind: PieceKind, to: Square) -> Candidates {
        self.collect_candidates(kind, to, true)
    }

    /// Like [`Position::candidates`], but ignoring whether the move leaves
    /// the king in check (pins and checks): the pieces that could reach the
    /// square, which is what KI2 writers count when they choose relative
    /// markers. Every other rule still applies.
    pub fn candidates_ignoring_pins(&self, kind: PieceKind, to: Square) -> Candidates {
        self.collect_candidates(kind, to, false)
    }

    fn collect_candidates(&self, kind: PieceKind, to: Square, legal_only: bool) -> Candidates {
        let mut out = Candidates::new();
        let us = self.side;
        if self.by_color[us.index()].contains(to) {
            return out;
        }
        let occupied = self.occupied();
        // The squares from which a piece of `kind` reaches `to` are the
        // squares the same piece of the other color on `to` would reach.
        let froms = bitboard::attacks(!us, kind, to, occupied) & self.pieces(us, kind);
        let drop =
            kind.is_hand_kind() && self.hands[us.index()].count(kind) > 0 && !occupied.contains(to);
        if froms.is_empty() && !drop {
            return out;
        }
        for from in froms {
            // Promoting or not, the move leaves the same squares.
            let probe = Move::Normal {
                from,
                to,
                promote: false,
            };
            if !legal_only || self.keeps_king_safe(probe) {
                Self::push_board_move(us, kind, from, to, &mut out);
            }
        }
        if drop {
            let mv = Move::Drop { kind, to };
            if (!legal_only || self.keeps_king_safe(mv)) && self.check_rules(mv).is_ok() {
                out.push(mv);
            }
        }
        out
    }

    /// Counts the leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => {
                let mut counter = Counter(0);
                self.generate_legal(&mut counter);
                counter.0
            }
            _ => {
                let mut moves = Vec::with_capacity(256);
                self.generate_legal(&mut moves);
                moves
                    .iter()
                    .map(|&mv| {
                        let mut child = self.clone();
                        child.play_unchecked(mv);
                        child.perft(depth - 1)
                    })
                    .sum()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind a legal move moves (before promotion) or drops.
    fn kind_of(pos: &Position, mv: Move) -> PieceKind {
        match mv {
            Move::Normal { from, .. } => pos.piece_at(from).expect("a piece").kind,
            Move::Drop { kind, .. } => kind,
        }
    }

    #[test]
    fn candidates_and_check_legal_agree_with_generated_moves() {
        // Random games from the start: the candidates of every kind and
        // destination a legal move has are exactly the legal moves of that
        // kind there, and check_legal refuses the ones pins and checks rule
        // out.
        let mut rng = crate::test_util::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut seen = 0;
        for _ in 0..12 {
            for (pos, _) in crate::test_util::games::random_game(150, &mut rng) {
                let legal = pos.legal_moves();
                for &mv in &legal {
                    assert_eq!(pos.check_legal(mv), Ok(()), "{} {mv}", pos.sfen());
                    let kind = kind_of(&pos, mv);
                    let mut expected: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&m| m.to() == mv.to() && kind_of(&pos, m) == kind)
                        .collect();
                    let mut found = pos.candidates(kind, mv.to()).to_vec();
                    expected.sort_by_key(|m| format!("{m}"));
                    found.sort_by_key(|m| format!("{m}"));
                    assert_eq!(found, expected, "{} {kind:?} {}", pos.sfen(), mv.to());
                    for other in pos.candidates_ignoring_pins(kind, mv.to()).iter() {
                        if !legal.contains(other) {
                            assert!(!pos.is_legal(*other), "{} {other}", pos.sfen());
                        }
                    }
                    seen += 1;
                }
            }
        }
        assert!(seen > 10_000, "{seen}");
    }

    #[test]
    fn retain_keeps_the_kept_moves_in_order() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G2S2N2L9Pr2b2g2s2n2l9p 1").unwrap();
        let to = Square::new(5, 5).unwrap();
        let mut all = Candidates::new();
        for kind in [PieceKind::Gold, PieceKind::Silver, PieceKind::Knight] {
            all.push(Move::Drop { kind, to });
        }
        all.push(Move::Drop {
            kind: PieceKind::Lance,
            to,
        });
        // Two neighbours dropped in a row: the classic skipped element.
        let mut kept = all;
        kept.retain(|mv| !matches!(mv, Move::Drop { kind, .. } if *kind == PieceKind::Silver || *kind == PieceKind::Knight));
        assert_eq!(&kept[..], &[all[0], all[3]]);
        let mut none = all;
        none.retain(|_| false);
        assert!(none.is_empty());
        let mut every = all;
        every.retain(|mv| pos.is_legal(*mv));
        assert_eq!(&every[..], &all[..]);
    }

    #[test]
    fn square_tests_agree_with_the_rank_tables() {
        for color in Color::ALL {
            for sq in Square::all() {
                assert_eq!(
                    in_promotion_zone(color, sq),
                    promotion_zone(color).contains(sq)
                );
                for kind in PieceKind::ALL {
                    assert_eq!(
                        is_dead_square(color, kind, sq),
                        dead_squares(color, kind).contains(sq),
                        "{color:?} {kind:?} {sq:?}"
                    );
                }
            }
        }
    }
}
