//! `Setup`: a board, two hands and a side to move, not yet checked against
//! the rules; SFEN reading and writing; the standard starting positions.

use super::error::SfenError;
use super::sfen_board::SfenBoard;
use crate::{Color, Hand, Piece, PieceKind, Square};
use std::fmt;

/// A position as written down, before any rule is checked. Turn it into a
/// [`Position`](super::Position) to play moves on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The color to play next.
    pub side_to_move: Color,
    /// The SFEN move number: 1 for the first move of the record.
    pub move_number: u32,
}

/// The SFEN of the standard starting position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The standard starting positions: the even game and the handicaps, in
/// which White (上手) gives up pieces and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap.
    Even,
    /// 香落ち: White's left lance (1a).
    Lance,
    /// 右香落ち: White's right lance (9a).
    RightLance,
    /// 角落ち
    Bishop,
    /// 飛車落ち
    Rook,
    /// 飛香落ち: rook and left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop and left lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop and both lances.
    FourPieces,
    /// 五枚落ち: four pieces and the right knight.
    FivePieces,
    /// 左五枚落ち: four pieces and the left knight.
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, lances and knights.
    SixPieces,
    /// 左七枚落ち: six pieces and the left silver.
    LeftSevenPieces,
    /// 右七枚落ち: six pieces and the right silver.
    RightSevenPieces,
    /// 八枚落ち: six pieces and both silvers.
    EightPieces,
    /// 十枚落ち: everything but the king and the pawns.
    TenPieces,
}

impl Handicap {
    /// All sixteen starts: [`Handicap::Even`] first, then by pieces given.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// White's first rank; the rest of the board is the same in every start.
    const fn white_back_rank(self) -> &'static str {
        match self {
            Handicap::Even | Handicap::Bishop | Handicap::Rook | Handicap::TwoPieces => "lnsgkgsnl",
            Handicap::Lance | Handicap::RookLance | Handicap::ThreePieces => "lnsgkgsn1",
            Handicap::RightLance => "1nsgkgsnl",
            Handicap::FourPieces => "1nsgkgsn1",
            Handicap::FivePieces => "2sgkgsn1",
            Handicap::LeftFivePieces => "1nsgkgs2",
            Handicap::SixPieces => "2sgkgs2",
            Handicap::LeftSevenPieces => "2sgkg3",
            Handicap::RightSevenPieces => "3gkgs2",
            Handicap::EightPieces => "3gkg3",
            Handicap::TenPieces => "4k4",
        }
    }

    /// White's second rank (rook and bishop).
    const fn white_second_rank(self) -> &'static str {
        match self {
            Handicap::Even | Handicap::Lance | Handicap::RightLance => "1r5b1",
            Handicap::Bishop => "1r7",
            Handicap::Rook | Handicap::RookLance => "7b1",
            _ => "9",
        }
    }

    /// The starting position's SFEN.
    pub fn sfen(self) -> String {
        let side = if self == Handicap::Even { 'b' } else { 'w' };
        format!(
            "{}/{}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL {side} - 1",
            self.white_back_rank(),
            self.white_second_rank()
        )
    }

    /// The standard start a setup shows, if it is one (board, empty hands
    /// and side to move; the move number is not compared).
    pub fn detect(setup: &Setup) -> Option<Handicap> {
        /// A board as one byte per square (0 when empty), so that two
        /// boards compare as byte arrays (a `memcmp`) rather than square by
        /// square through `Option<Piece>`'s comparison.
        fn codes(board: &[Option<Piece>; 81]) -> [u8; 81] {
            board.map(|square| {
                square.map_or(0, |p| (1 + 16 * p.color.index() + p.kind.index()) as u8)
            })
        }
        /// Each standard start's board as [`codes`], built once and shared.
        static STARTS: std::sync::OnceLock<[[u8; 81]; Handicap::ALL.len()]> =
            std::sync::OnceLock::new();
        if setup.hands.iter().any(|h| !h.is_empty()) {
            return None;
        }
        let starts = STARTS.get_or_init(|| Handicap::ALL.map(|h| codes(&h.setup_ref().board)));
        let board = codes(&setup.board);
        Handicap::ALL
            .into_iter()
            .zip(starts)
            .find_map(|(h, start)| {
                (*start == board && h.setup_ref().side_to_move == setup.side_to_move).then_some(h)
            })
    }

    /// The starting position.
    pub fn setup(self) -> Setup {
        self.setup_ref().clone()
    }

    /// The starting position, built once per handicap and shared.
    pub fn setup_ref(self) -> &'static Setup {
        static SETUPS: std::sync::OnceLock<Vec<Setup>> = std::sync::OnceLock::new();
        let setups = SETUPS.get_or_init(|| {
            Handicap::ALL
                .iter()
                .map(|h| {
                    Setup::from_sfen(&h.sfen())
                        .expect("the built-in starting positions are valid SFEN")
                })
                .collect()
        });
        &setups[Handicap::ALL
            .iter()
            .position(|&h| h == self)
            .expect("every handicap is listed")]
    }
}

impl Setup {
    /// An empty board, empty hands, Black to move, move 1.
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
            move_number: 1,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Setup {
        Handicap::Even.setup()
    }

    /// How many pieces of `kind` (a kind a hand holds) a full set has
    /// beyond those on the board (promoted ones included) and in the hands
    /// of `colors`; `None` when there are more than a set holds.
    pub fn unplaced(&self, kind: PieceKind, colors: &[Color]) -> Option<u8> {
        let total = PieceKind::SET.iter().find(|(k, _)| *k == kind)?.1;
        let on_board = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind.unpromote() == kind)
            .count();
        let held: usize = colors
            .iter()
            .map(|c| usize::from(self.hands[c.index()].count(kind)))
            .sum();
        let left = usize::from(total).checked_sub(on_board + held)?;
        u8::try_from(left).ok()
    }

    /// The squares holding a piece other than a king, in square order.
    pub fn non_king_squares(&self) -> Vec<Square> {
        Square::all()
            .filter(|&sq| self.piece_at(sq).is_some_and(|p| p.kind != PieceKind::King))
            .collect()
    }

    /// The piece on `sq`, or `None` if empty.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts `piece` on `sq`, replacing what was there; `None` empties it.
    /// No rule is checked.
    #[inline]
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Reads SFEN: `board side hand [move-number]`. Only the syntax is
    /// checked; [`Position::from_setup`](super::Position::from_setup) checks
    /// the rules. Fields may be separated by any run of spaces; a missing move
    /// number means 1.
    pub fn from_sfen(text: &str) -> Result<Setup, SfenError> {
        let mut fields = text.split_ascii_whitespace();
        let mut setup = Setup::empty();
        let board = fields
            .next()
            .ok_or(SfenError::MissingField { field: "board" })?;
        parse_board(board, &mut setup)?;
        let side = fields.next().ok_or(SfenError::MissingField {
            field: "side to move",
        })?;
        setup.side_to_move = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(SfenError::BadSide { text: clip(side) }),
        };
        let hand = fields
            .next()
            .ok_or(SfenError::MissingField { field: "hand" })?;
        parse_hands(hand, &mut setup)?;
        if let Some(number) = fields.next() {
            setup.move_number = number
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| SfenError::BadMoveNumber { text: clip(number) })?;
        }
        if let Some(extra) = fields.next() {
            return Err(SfenError::TrailingText { text: clip(extra) });
        }
        Ok(setup)
    }

    /// The canonical SFEN: hands in the order R B G S N L P, Black's first,
    /// `-` when both are empty, then the move number.
    pub fn sfen(&self) -> String {
        let mut out = Vec::with_capacity(96);
        self.push_sfen(&mut out);
        ascii(out)
    }

    /// [`Setup::sfen`] appended to `out` as bytes, with nothing allocated.
    pub fn push_sfen(&self, out: &mut Vec<u8>) {
        push_sfen(
            &self.board,
            &self.hands,
            self.side_to_move,
            self.move_number,
            out,
        );
    }

    /// The position rotated 180°: each piece moves to the opposite square and
    /// changes color, the hands swap, and the other side is to move.
    pub fn flip(&self) -> Setup {
        let mut flipped = Setup::empty();
        for sq in Square::all() {
            flipped.board[sq.flip().index()] = self.board[sq.index()].map(Piece::flip);
        }
        flipped.hands = [self.hands[1], self.hands[0]];
        flipped.side_to_move = !self.side_to_move;
        flipped.move_number = self.move_number;
        flipped
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sfen())
    }
}

/// At most 40 characters of offending text, so an error message stays short.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

fn parse_board(text: &str, setup: &mut Setup) -> Result<(), SfenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount { count: ranks.len() });
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = i as u8 + 1;
        // Files run from 9 down to 1 along a rank.
        let mut squares = 0usize;
        let mut promoted = false;
        let bad = |ch: char| SfenError::BadBoardChar {
            ch,
            rank,
            text: clip(rank_text),
        };
        for ch in rank_text.chars() {
            match ch {
                '+' if !promoted => promoted = true,
                '1'..='9' if !promoted => squares += ch as usize - '0' as usize,
                _ => {
                    let letter = u8::try_from(ch).map_err(|_| bad(ch))?;
                    let base = PieceKind::from_usi_letter(letter).ok_or_else(|| bad(ch))?;
                    let kind = if promoted {
                        base.promote().ok_or_else(|| bad(ch))?
                    } else {
                        base
                    };
                    let color = if letter.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    squares += 1;
                    if squares <= 9 {
                        let sq = Square::new(10 - squares as u8, rank).expect("file 1-9");
                        setup.set_piece(sq, Some(Piece::new(color, kind)));
                    }
                    promoted = false;
                }
            }
            if squares > 9 {
                break;
            }
        }
        if promoted {
            return Err(bad('+'));
        }
        if squares != 9 {
            return Err(SfenError::RankLength {
                rank,
                squares,
                text: clip(rank_text),
            });
        }
    }
    Ok(())
}

fn parse_hands(text: &str, setup: &mut Setup) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let bad = || SfenError::BadHand { text: clip(text) };
    let mut count: Option<u32> = None;
    for byte in text.bytes() {
        match byte {
            b'0'..=b'9' => {
                let n = count.unwrap_or(0) * 10 + u32::from(byte - b'0');
                if n == 0 || n > 99 {
                    return Err(bad());
                }
                count = Some(n);
            }
            _ => {
                let kind = PieceKind::from_usi_letter(byte)
                    .filter(|k| k.is_hand_kind())
                    .ok_or_else(bad)?;
                let color = if byte.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let hand = &mut setup.hands[color.index()];
                let total = u32::from(hand.count(kind)) + count.take().unwrap_or(1);
                // Counts past what any set holds are caught by validation;
                // here they only need to fit.
                hand.set(kind, u8::try_from(total).map_err(|_| bad())?);
            }
        }
    }
    if count.is_some() {
        return Err(bad());
    }
    Ok(())
}

/// Appends the SFEN of a board, hands, side to move and move number to
/// `out`: the one writer of every SFEN.
pub(crate) fn push_sfen(
    board: &[Option<Piece>; 81],
    hands: &[Hand; 2],
    side: Color,
    move_number: u32,
    out: &mut Vec<u8>,
) {
    SfenBoard::of(board).push(out);
    push_sfen_rest(hands, side, move_number, out);
}

/// What follows the board in a SFEN: side to move, hands, move number.
pub(crate) fn push_sfen_rest(hands: &[Hand; 2], side: Color, move_number: u32, out: &mut Vec<u8>) {
    push_side_and_hands(hands, side, out);
    out.push(b' ');
    push_number(move_number, out);
}

/// The side to move and the hands, each after a space: what follows the
/// board in a SFEN key (a SFEN without its move number).
pub(crate) fn push_side_and_hands(hands: &[Hand; 2], side: Color, out: &mut Vec<u8>) {
    out.extend_from_slice(match side {
        Color::Black => b" b ",
        Color::White => b" w ",
    });
    push_hands(hands, out);
}

/// Hands in SFEN order: Black's then White's, each R B G S N L P; `-` when
/// both are empty.
pub(crate) fn push_hands(hands: &[Hand; 2], out: &mut Vec<u8>) {
    if hands.iter().all(Hand::is_empty) {
        out.push(b'-');
        return;
    }
    for color in Color::ALL {
        let hand = &hands[color.index()];
        if hand.is_empty() {
            continue;
        }
        for &kind in PieceKind::HAND.iter().rev() {
            let n = hand.count(kind);
            if n >= 2 {
                push_number(u32::from(n), out);
            }
            if n >= 1 {
                let (token, len) = super::sfen_board::SFEN_PIECES[color.index()][kind.index()];
                out.extend_from_slice(&token[..len]);
            }
        }
    }
}

/// A number in decimal. Numbers of up to three digits (hand counts and
/// most move numbers) are appended as one piece of known length.
fn push_number(n: u32, out: &mut Vec<u8>) {
    let digit = |d: u32| b'0' + (d % 10) as u8;
    match n {
        0..=9 => out.push(digit(n)),
        10..=99 => out.extend_from_slice(&[digit(n / 10), digit(n)]),
        100..=999 => out.extend_from_slice(&[digit(n / 100), digit(n / 10), digit(n)]),
        _ => {
            push_number(n / 10, out);
            out.push(digit(n));
        }
    }
}

/// SFEN bytes as a string (they are ASCII).
pub(crate) fn ascii(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 1, 9, 10, 18, 99, 100, 123, 999, 1000, 65_535, u32::MAX] {
            let mut out = b"x".to_vec();
            push_number(n, &mut out);
            assert_eq!(out, format!("x{n}").into_bytes());
        }
    }

    #[test]
    fn startpos_round_trip() {
        let setup = Setup::from_sfen(STARTPOS_SFEN).unwrap();
        assert_eq!(setup.sfen(), STARTPOS_SFEN);
        assert_eq!(Setup::startpos(), setup);
        let king = setup.piece_at(Square::from_usi("5i").unwrap()).unwrap();
        assert_eq!(king, Piece::new(Color::Black, PieceKind::King));
    }

    #[test]
    fn hands_are_written_canonically() {
        let setup = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3pPbSP2g 12").unwrap();
        assert_eq!(setup.sfen(), "4k4/9/9/9/9/9/9/9/4K4 b S2Pb2g3p 12");
        let setup = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w 18P 1").unwrap();
        assert_eq!(setup.hands[0].count(PieceKind::Pawn), 18);
        assert_eq!(setup.sfen(), "4k4/9/9/9/9/9/9/9/4K4 w 18P 1");
        let no_number = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b -").unwrap();
        assert_eq!(no_number.move_number, 1);
    }

    #[test]
    fn handicap_starts() {
        for handicap in Handicap::ALL {
            let setup = handicap.setup();
            assert_eq!(setup.sfen(), handicap.sfen());
            let expected = if handicap == Handicap::Even {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(setup.side_to_move, expected);
        }
        assert_eq!(
            Handicap::TenPieces.sfen(),
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(
            Handicap::LeftSevenPieces.sfen(),
            "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
    }

    #[test]
    fn syntax_errors_quote_the_text() {
        let err = |text| Setup::from_sfen(text).unwrap_err();
        assert!(matches!(
            err(""),
            SfenError::MissingField { field: "board" }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4X4 b - 1"),
            SfenError::BadBoardChar {
                ch: 'X',
                rank: 9,
                ..
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K5 b - 1"),
            SfenError::RankLength {
                rank: 9,
                squares: 10,
                ..
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/4K3/9 b - 1"),
            SfenError::RankLength {
                rank: 8,
                squares: 8,
                ..
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/4K4 b - 1"),
            SfenError::RankCount { count: 8 }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 x - 1"),
            SfenError::BadSide { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b 2 1"),
            SfenError::BadHand { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b K 1"),
            SfenError::BadHand { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b - 0"),
            SfenError::BadMoveNumber { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4+K4 b - 1"),
            SfenError::BadBoardChar { ch: 'K', .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K3+ b - 1"),
            SfenError::BadBoardChar { ch: '+', .. }
        ));
        let message = err("4k4/9/9/9/9/9/9/9/4X4 b - 1").to_string();
        assert!(
            message.contains("`X`") && message.contains("4X4"),
            "{message}"
        );
    }
}
