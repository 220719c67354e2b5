//! Positions: [`Setup`] (as written, unchecked) and [`Position`] (checked
//! against the rules, ready to play moves on).
//!
//! Nothing here reads or writes record formats beyond SFEN and USI moves.

mod assembly;
pub(crate) mod bitboard;
mod checkers;
#[cfg(debug_assertions)]
mod consistency;
mod engine_order;
mod error;
mod movegen;
mod play_checked;
#[cfg(test)]
pub(crate) mod random_games;
mod setup;
mod sfen_board;
mod zobrist;

pub(crate) use assembly::{Assembly, Census};
pub use bitboard::Bitboard;
pub use error::{
    IllegalMove, PositionError, SetupError, SfenError, UsiMoveError, UsiMoveErrorKind,
};
pub use movegen::{Candidates, MoveSink};
pub(crate) use setup::ascii as ascii_text;
pub use setup::{Handicap, Setup, STARTPOS_SFEN};
pub(crate) use sfen_board::SfenBoard;

use crate::{Color, Hand, Move, Piece, PieceKind, Square};
use std::fmt;

/// Whether a position must have both kings. Problem positions (詰将棋) often
/// leave out the attacker's king; game records never do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KingRule {
    /// Each side has exactly one king.
    #[default]
    BothRequired,
    /// Each side has at most one king; a side without one cannot be checked.
    MayBeMissing,
}

/// A legal shogi position: the board, both hands, the side to move and the
/// move number, with the bitboards and the Zobrist key kept up to date.
///
/// Positions are plain values: copy one to try a move on it.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 14],
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
    /// Each side's king square as its index, or [`NO_KING`]: one byte a
    /// side (an `Option<Square>` takes two), which keeps the position at
    /// its size with the checkers beside it.
    kings: [u8; 2],
    key: u64,
    /// The pieces giving check to the side to move (see `checkers.rs`).
    checkers: Bitboard,
}

/// [`Position`]'s king square for a side without a king (no square has
/// this index).
const NO_KING: u8 = u8::MAX;

/// How many pieces of each base kind a set holds, indexed by kind.
const SET_COUNTS: [u32; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_handicap(Handicap::Even, 1)
    }

    /// The position of a standard start (even or handicap) at move
    /// `move_number`: what [`Position::from_setup_lenient`] gives for
    /// [`Handicap::setup`] (with that move number, and no problems), but
    /// built and checked once per process and copied, since most records
    /// start from one.
    pub fn from_handicap(handicap: Handicap, move_number: u32) -> Position {
        let index = Handicap::ALL
            .iter()
            .position(|&h| h == handicap)
            .expect("every handicap is listed");
        let mut pos = standard_starts()[index].clone();
        pos.move_number = move_number;
        pos
    }

    /// Whether this is the standard starting position at move 1, the one
    /// USI names `position startpos`: what `*self == *Handicap::Even.setup_ref()`
    /// asks, with the boards compared through their bitboards (which say
    /// what stands on every square) rather than square by square. The USI
    /// writer asks it of every record.
    pub fn is_startpos(&self) -> bool {
        let start = &standard_starts()[0];
        debug_assert_eq!(Handicap::ALL[0], Handicap::Even);
        self.by_color == start.by_color
            && self.by_kind == start.by_kind
            && self.hands == start.hands
            && self.side == start.side
            && self.move_number == 1
    }

    /// Reads SFEN (with or without the move number) and checks it, requiring
    /// both kings. Use [`Setup::from_sfen`] and [`Position::from_setup`] for
    /// problem positions without the attacker's king.
    pub fn from_sfen(text: &str) -> Result<Position, PositionError> {
        let setup = Setup::from_sfen(text)?;
        Ok(Position::from_setup(setup, KingRule::BothRequired)?)
    }

    /// Checks a setup against the rules: the kings, the number of pieces of
    /// each kind, pieces that could never move, two pawns on a file, and the
    /// side that is not to move standing in check.
    pub fn from_setup(setup: Setup, kings: KingRule) -> Result<Position, SetupError> {
        let (pos, census) = Position::build(&setup);
        pos.validate(kings, &census)?;
        Ok(pos)
    }

    /// Builds the bitboards and key for a setup without checking anything;
    /// gives the count of the pieces on its board beside.
    fn build(setup: &Setup) -> (Position, Census) {
        let mut pos = Position::blank();
        let mut assembly = Assembly::over(&mut pos, setup.side_to_move, setup.move_number);
        for sq in Square::all() {
            if let Some(piece) = setup.piece_at(sq) {
                assembly.put(sq, piece);
            }
        }
        assembly.set_hands(setup.hands);
        let (_, census) = assembly.finish();
        (pos, census)
    }

    /// Like [`Position::from_setup`] with [`KingRule::MayBeMissing`], for
    /// records as people wrote them: problems that do not stop play (a
    /// piece that could never move, two pawns on a file) are returned beside
    /// the position instead of failing. Extra kings, more pieces than a set
    /// holds, and the side not to move in check (its king could be taken)
    /// still fail.
    pub fn from_setup_lenient(setup: Setup) -> Result<(Position, Vec<SetupError>), SetupError> {
        let (pos, census) = Position::build(&setup);
        pos.validate_kings_and_counts(KingRule::MayBeMissing, &census)?;
        // Asked of the whole position first: clearing a file of doubled
        // pawns below could take away the pawn that gives the check.
        pos.validate_waiting_king()?;
        let mut problems = Vec::new();
        let mut check = pos.clone();
        while let Err(problem) = check.validate_play() {
            // Report each problem once: clear the square or file concerned.
            match &problem {
                SetupError::DeadPiece { square, .. } => {
                    let piece_square = *square;
                    check.take(piece_square);
                }
                SetupError::OpponentInCheck { .. } => return Err(problem),
                SetupError::DoublePawn { color, file } => {
                    let pawns = check.pieces(*color, PieceKind::Pawn)
                        & bitboard::FILES[usize::from(*file) - 1];
                    for sq in pawns {
                        check.take(sq);
                    }
                }
                _ => break,
            }
            problems.push(problem);
        }
        Ok((pos, problems))
    }

    fn validate(&self, rule: KingRule, census: &Census) -> Result<(), SetupError> {
        self.validate_kings_and_counts(rule, census)?;
        self.validate_play()
    }

    fn validate_kings_and_counts(&self, rule: KingRule, census: &Census) -> Result<(), SetupError> {
        for color in Color::ALL {
            let kings = self.pieces(color, PieceKind::King);
            if kings.has_many() {
                return Err(SetupError::ExtraKing {
                    color,
                    squares: kings.collect(),
                });
            }
            if kings.is_empty() && rule == KingRule::BothRequired {
                return Err(SetupError::MissingKing { color });
            }
        }
        for base in PieceKind::ALL[..8].iter().copied() {
            let max = SET_COUNTS[base.index()];
            let held = self.hands[0].count(base) + self.hands[1].count(base);
            let count = census.on_board(base) + u32::from(held);
            if count > max {
                return Err(SetupError::TooManyPieces {
                    kind: base,
                    count,
                    max,
                });
            }
        }
        Ok(())
    }

    fn validate_play(&self) -> Result<(), SetupError> {
        for color in Color::ALL {
            for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
                let dead = self.pieces(color, kind) & movegen::dead_squares(color, kind);
                if let Some(square) = dead.first() {
                    return Err(SetupError::DeadPiece {
                        color,
                        kind,
                        square,
                    });
                }
            }
            let pawns = self.pieces(color, PieceKind::Pawn);
            if !pawns.has_two_on_a_file() {
                continue;
            }
            for file in 1..=9u8 {
                if (pawns & bitboard::FILES[usize::from(file) - 1]).has_many() {
                    return Err(SetupError::DoublePawn { color, file });
                }
            }
        }
        self.validate_waiting_king()
    }

    /// Fails if the side not to move stands in check (its king could be
    /// taken).
    fn validate_waiting_king(&self) -> Result<(), SetupError> {
        let waiting = !self.side;
        if let Some(king) = self.king(waiting) {
            if !self
                .attackers_to(king, self.side, self.occupied())
                .is_empty()
            {
                return Err(SetupError::OpponentInCheck {
                    color: waiting,
                    king,
                });
            }
        }
        Ok(())
    }

    // -- Reading the position ----------------------------------------------

    /// The color whose move it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number: 1 before the first move of a record.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Sets the SFEN move number, which no rule reads.
    #[inline]
    pub(crate) fn set_move_number(&mut self, move_number: u32) {
        self.move_number = move_number;
    }

    /// The board, indexed by [`Square::index`], as [`Setup::board`] holds it.
    #[inline]
    pub fn board(&self) -> &[Option<Piece>; 81] {
        &self.board
    }

    /// The piece on `sq`, or `None` if the square is empty.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The pieces `color` holds in hand.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The king's square, if that side has a king.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        Square::from_index(usize::from(self.kings[color.index()]))
    }

    /// The squares holding pieces of this color and kind.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The squares holding pieces of this color.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The sets the board is kept in: each colour's squares, and each
    /// kind's (indexed by [`PieceKind::index`]). Two positions whose sets
    /// agree on a square hold the same piece there.
    #[inline]
    pub(crate) fn sets(&self) -> (&[Bitboard; 2], &[Bitboard; 14]) {
        (&self.by_color, &self.by_kind)
    }

    /// Every square holding a piece of either color.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The Zobrist key of board, hands and side to move (not the move
    /// number): equal positions have equal keys, which is how 千日手 is seen.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of the board and side to move alone, the hands left
    /// out: positions that differ only in the pieces held share it.
    pub fn board_key(&self) -> u64 {
        let mut key = self.key;
        for color in [Color::Black, Color::White] {
            for (kind, n) in self.hands[color.index()].kinds() {
                key ^= zobrist::hand(color, kind, n);
            }
        }
        key
    }

    /// The position as a plain [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: self.hands,
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    /// The standard start this position is, if it is one: the board, empty
    /// hands and the side to move, as [`Handicap::detect`] compares them.
    pub fn handicap(&self) -> Option<Handicap> {
        Handicap::detect(&self.to_setup())
    }

    /// The canonical SFEN.
    pub fn sfen(&self) -> String {
        let mut out = Vec::with_capacity(96);
        self.push_sfen(&mut out);
        setup::ascii(out)
    }

    /// [`Position::sfen`] appended to `out` as bytes, with nothing
    /// allocated.
    pub fn push_sfen(&self, out: &mut Vec<u8>) {
        setup::push_sfen(&self.board, &self.hands, self.side, self.move_number, out);
    }

    /// [`Position::push_sfen`] with the board's SFEN kept by the caller:
    /// `board` must be this position's.
    pub(crate) fn push_sfen_with(&self, board: &SfenBoard, out: &mut Vec<u8>) {
        board.push(out);
        setup::push_sfen_rest(&self.hands, self.side, self.move_number, out);
    }

    /// The canonical SFEN without its move number (board, side to move,
    /// hands): what makes two positions the same, as books key them and
    /// `--uniq` compares starts.
    pub fn sfen_key(&self) -> String {
        let mut out = Vec::with_capacity(96);
        self.push_sfen_key_with(&SfenBoard::of(&self.board), &mut out);
        setup::ascii(out)
    }

    /// [`Position::sfen_key`] appended to `out`, with the board's SFEN
    /// kept by the caller: `board` must be this position's.
    pub(crate) fn push_sfen_key_with(&self, board: &SfenBoard, out: &mut Vec<u8>) {
        board.push(out);
        setup::push_side_and_hands(&self.hands, self.side, out);
    }

    /// The position rotated 180°: board, hands and side to move. Flipping
    /// twice gives the position back. The move number is kept.
    pub fn flip(&self) -> Position {
        Position::build(&self.to_setup().flip()).0
    }

    // -- Changing the position ---------------------------------------------

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        let bit = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()] |= bit;
        self.by_kind[piece.kind.index()] |= bit;
        self.key ^= zobrist::piece(piece.color, piece.kind, sq);
        if piece.kind == PieceKind::King {
            self.kings[piece.color.index()] = sq.index() as u8;
        }
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()].take()?;
        let bit = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= bit;
        self.by_kind[piece.kind.index()] ^= bit;
        self.key ^= zobrist::piece(piece.color, piece.kind, sq);
        if piece.kind == PieceKind::King {
            self.kings[piece.color.index()] = NO_KING;
        }
        Some(piece)
    }

    #[inline]
    fn add_to_hand(&mut self, color: Color, kind: PieceKind) {
        let kind = kind.unpromote();
        let hand = &mut self.hands[color.index()];
        let n = hand.count(kind);
        self.key ^= zobrist::hand(color, kind, n) ^ zobrist::hand(color, kind, n + 1);
        hand.add(kind);
    }

    #[inline]
    fn remove_from_hand(&mut self, color: Color, kind: PieceKind) {
        let hand = &mut self.hands[color.index()];
        let n = hand.count(kind);
        self.key ^= zobrist::hand(color, kind, n) ^ zobrist::hand(color, kind, n - 1);
        hand.remove(kind);
    }

    /// The board half of a board move by the side to move: the piece on
    /// `from` goes to `to` (promoted if asked and it can be), taking what
    /// stands there into hand. One update of each bitboard and of the key
    /// per square, rather than taking the piece off and putting it back.
    #[inline]
    fn move_piece(&mut self, from: Square, to: Square, promote: bool) {
        let piece = self.board[from.index()].expect("a move starts from a piece");
        let captured = self.board[to.index()];
        self.move_known_piece(from, to, piece.kind, captured, promote);
    }

    /// [`Position::move_piece`] with the squares already read: the side to
    /// move's piece of `kind` on `from`, and `captured` what stands on `to`.
    #[inline(always)]
    fn move_known_piece(
        &mut self,
        from: Square,
        to: Square,
        kind: PieceKind,
        captured: Option<Piece>,
        promote: bool,
    ) {
        let us = self.side;
        self.board[from.index()] = None;
        let from_bit = Bitboard::from_square(from);
        let to_bit = Bitboard::from_square(to);
        if let Some(captured) = captured {
            self.by_color[captured.color.index()] ^= to_bit;
            self.by_kind[captured.kind.index()] ^= to_bit;
            self.key ^= zobrist::piece(captured.color, captured.kind, to);
            if captured.kind == PieceKind::King {
                // A king is never captured by a legal move; should an
                // illegal one take it, no hand can hold it.
                self.kings[captured.color.index()] = NO_KING;
            } else {
                self.add_to_hand(us, captured.kind);
            }
        }
        let after = match (promote, kind.promote()) {
            (true, Some(promoted)) => promoted,
            _ => kind,
        };
        self.board[to.index()] = Some(Piece::new(us, after));
        self.by_color[us.index()] ^= from_bit | to_bit;
        self.by_kind[kind.index()] ^= from_bit;
        self.by_kind[after.index()] |= to_bit;
        self.key ^= zobrist::piece(us, kind, from) ^ zobrist::piece(us, after, to);
        if after == PieceKind::King {
            self.kings[us.index()] = to.index() as u8;
        }
    }

    /// Plays a move after checking that it is legal.
    ///
    /// The rules are asked and the move made in one step
    /// ([`Position::play_from_if_legal`], [`Position::drop_if_legal`]);
    /// only a move it refuses is asked of [`Position::check_legal`], which
    /// says why (and, were the two ever to disagree, decides).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let played = match mv {
            Move::Normal { from, to, promote } => {
                self.play_from_if_legal(from, to, |_| Some(promote))
            }
            Move::Drop { kind, to } => self.drop_if_legal(kind, to),
        };
        if played.is_none() {
            self.check_legal(mv)?;
            self.play_unchecked(mv);
        }
        Ok(())
    }

    /// Plays a move known to be legal (one from [`Position::legal_moves`] or
    /// [`Position::candidates`]). An illegal move leaves a position that
    /// breaks the rules; a move from an empty square or a drop of a piece not
    /// in hand panics.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let from = match mv {
            Move::Normal { from, to, promote } => {
                self.move_piece(from, to, promote);
                Some(from)
            }
            Move::Drop { kind, to } => {
                self.remove_from_hand(us, kind);
                self.put(to, Piece::new(us, kind));
                None
            }
        };
        self.pass_turn(from, mv.to());
    }

    /// The end of every move played: the other side to move, the move
    /// number, and the checkers after a move that left `from` (none for a
    /// drop) and ended on `to`.
    #[inline(always)]
    fn pass_turn(&mut self, from: Option<Square>, to: Square) {
        self.side = !self.side;
        self.key ^= zobrist::white_to_move();
        self.move_number += 1;
        self.checkers = self.checkers_after_move(from, to);
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Reads a USI move, checks it and plays it. `ply` is the 1-based number
    /// the error names.
    pub fn play_usi(&mut self, text: &str, ply: u32) -> Result<Move, UsiMoveError> {
        let error = |kind| UsiMoveError {
            ply,
            text: text.chars().take(40).collect(),
            kind,
        };
        let mv = Move::from_usi(text).map_err(|_| error(UsiMoveErrorKind::Syntax))?;
        self.play(mv)
            .map_err(|reason| error(UsiMoveErrorKind::Illegal { mv, reason }))?;
        Ok(mv)
    }

    /// Plays a sequence of USI moves separated by spaces; returns how many
    /// were played.
    pub fn play_usi_line(&mut self, moves: &str) -> Result<u32, UsiMoveError> {
        let mut ply = 0;
        for text in moves.split_ascii_whitespace() {
            ply += 1;
            self.play_usi(text, ply)?;
        }
        Ok(ply)
    }
}

/// The standard starts (even game and handicaps, in [`Handicap::ALL`]'s
/// order) at move 1, built and checked once per process.
fn standard_starts() -> &'static [Position] {
    static STARTS: std::sync::OnceLock<Vec<Position>> = std::sync::OnceLock::new();
    STARTS.get_or_init(|| {
        Handicap::ALL
            .iter()
            .map(|h| {
                let (pos, problems) = Position::from_setup_lenient(h.setup())
                    .expect("the built-in starting positions are legal");
                debug_assert!(problems.is_empty(), "{h:?}: {problems:?}");
                pos
            })
            .collect()
    })
}

/// A setup checked as [`Position::from_sfen`] checks one: both kings
/// required, every rule in force.
impl TryFrom<Setup> for Position {
    type Error = SetupError;

    fn try_from(setup: Setup) -> Result<Position, SetupError> {
        Position::from_setup(setup, KingRule::BothRequired)
    }
}

/// A position equals a setup that shows the same board, hands, side to
/// move and move number (what [`Position::to_setup`] gives back).
impl PartialEq<Setup> for Position {
    fn eq(&self, setup: &Setup) -> bool {
        self.board == setup.board
            && self.hands == setup.hands
            && self.side == setup.side_to_move
            && self.move_number == setup.move_number
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.sfen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_startpos` says what comparing with the even game's setup says:
    /// for every standard start at moves 1 and 2, the even start with White
    /// to move or a piece in hand, and every position of short random games
    /// from the perft data (which pass through the start's board again).
    #[test]
    fn is_startpos_is_the_comparison_with_the_even_setup() {
        let even = Handicap::Even.setup_ref();
        let mut positions: Vec<Position> = Handicap::ALL
            .iter()
            .flat_map(|&h| [Position::from_handicap(h, 1), Position::from_handicap(h, 2)])
            .collect();
        positions.push(Position::from_sfen(&STARTPOS_SFEN.replace(" b ", " w ")).unwrap());
        let pawn_in_hand = STARTPOS_SFEN
            .replace("/PPPPPPPPP/", "/PPPPPPPP1/")
            .replace(" - ", " P ");
        positions.push(Position::from_sfen(&pawn_in_hand).unwrap());
        let data = include_str!("../../tests/it/data/perft.txt");
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for sfen in data.lines().filter_map(|line| line.strip_prefix("sfen ")) {
            let mut pos = Position::from_sfen(sfen).unwrap();
            for _ in 0..12 {
                positions.push(pos.clone());
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.play_unchecked(legal[(state >> 33) as usize % legal.len()]);
            }
        }
        // Rooks aside and back: the start's board and side, at move 5.
        let mut pos = Position::startpos();
        pos.play_usi_line("2h3h 8b7b 3h2h 7b8b").unwrap();
        positions.push(pos);
        let mut starts = 0;
        for pos in &positions {
            assert_eq!(pos.is_startpos(), *pos == *even, "{pos:?}");
            starts += usize::from(pos.is_startpos());
        }
        assert!(
            starts >= 1 && positions.len() > 100,
            "{starts} {}",
            positions.len()
        );
    }

    #[test]
    fn a_standard_start_is_the_checked_setup() {
        for handicap in Handicap::ALL {
            for move_number in [1, 2, 57] {
                let mut setup = handicap.setup();
                setup.move_number = move_number;
                let (checked, problems) = Position::from_setup_lenient(setup).unwrap();
                assert!(problems.is_empty(), "{handicap:?}");
                assert_eq!(Position::from_handicap(handicap, move_number), checked);
            }
        }
    }
}
