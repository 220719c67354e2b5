//! A spec that names its origin (KIF `(77)`, CSA `7776FU`), resolved and
//! played in one step: the way almost every move of those formats goes.
//!
//! [`MoveSpec::to_move`] checks such a spec (the piece on the origin, its
//! kind, the move's legality) and [`Position::play_unchecked`] then plays
//! the move, reading the same squares again. [`play_with_origin`] asks
//! the same questions of a spec that claims nothing more, through
//! [`Position::play_from_if_legal`], which checks and plays at once. It
//! only ever succeeds: a spec it does not take, or a move that fails, is
//! left to the general path, which says why.
//!
//! [`play_marked_drop`] is the same for a spec marked as a drop (CSA
//! `0055FU`, KIF `５五歩打`), which names its move as fully.

use super::{claims_nothing, origin_promotion};
use crate::resolve::spec::{Destination, DropMark, MoveSpec, Promotion};
use crate::{Move, Position, Square};

/// Plays `spec` on `pos` when it names its origin and the move it names is
/// legal, and returns that move: what [`MoveSpec::to_move`] gives, played.
/// `previous` is the destination of the move before, for 同.
///
/// `None`, with `pos` as it was, for anything else: no origin, no previous
/// move for 同, the side marked not to move, 不成 written (whether it could
/// have promoted is asked of the position before the move), a capture or
/// mate claim, or a move [`MoveSpec::to_move`] refuses. The caller then
/// takes the general path.
#[inline]
pub(crate) fn play_with_origin(
    pos: &mut Position,
    spec: &MoveSpec,
    previous: Option<Square>,
) -> Option<Move> {
    let from = spec.from?;
    let to = match spec.to {
        Destination::Square(sq) => sq,
        Destination::Same => previous?,
    };
    let simple = spec.color.is_none_or(|c| c == pos.side_to_move())
        && spec.promotion != Promotion::Decline
        && claims_nothing(spec);
    if !simple {
        return None;
    }
    pos.play_from_if_legal(from, to, |kind| origin_promotion(spec, kind))
}

/// Plays `spec` on `pos` when it is a plain drop (marked as one, of a kind
/// a hand holds, with no relative marker, 成 or 不成, or claim) and that
/// drop is legal, and returns it: what [`MoveSpec::to_move`] gives, played.
/// `previous` is the destination of the move before, for 同.
///
/// `None`, with `pos` as it was, for anything else: the general path then
/// resolves it among the candidates or says why it cannot.
pub(crate) fn play_marked_drop(
    pos: &mut Position,
    spec: &MoveSpec,
    previous: Option<Square>,
) -> Option<Move> {
    let to = match spec.to {
        Destination::Square(sq) => sq,
        Destination::Same => previous?,
    };
    let plain = spec.from.is_none()
        && spec.drop == DropMark::Drop
        && spec.color.is_none_or(|c| c == pos.side_to_move())
        && matches!(spec.promotion, Promotion::Unmarked | Promotion::ByName)
        && spec.horizontal.is_none()
        && spec.vertical.is_none()
        && spec.piece.is_hand_kind()
        && claims_nothing(spec);
    if !plain {
        return None;
    }
    pos.drop_if_legal(spec.piece, to)
}

#[cfg(test)]
mod tests {
    use super::{play_marked_drop, play_with_origin};
    use crate::position::random_games::each_position;
    use crate::resolve::spec::{
        CaptureClaim, CheckClaim, Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical,
    };
    use crate::{Color, Move, PieceKind, Position, Square};

    /// On random games from every position of the perft data, a spec for
    /// every origin and destination, each piece kind and each promotion
    /// mark, some with 同 or a side: played in one step exactly when
    /// resolving it succeeds (for the specs the fast path takes), to the
    /// move resolved and the position that move gives.
    #[test]
    fn agrees_with_resolving_then_playing() {
        let mut counts = (0, 0);
        each_position(0x2545_F491_4F6C_DD1D, 1, 40, |pos, previous, next| {
            for from in Square::all() {
                let Some(piece) = pos.piece_at(from) else {
                    continue;
                };
                for to in Square::all() {
                    let mut spec = MoveSpec::new(Destination::Square(to), piece.kind);
                    spec.from = Some(from);
                    match next() % 16 {
                        0 => spec.piece = PieceKind::ALL[next() % 14],
                        1 => spec.promotion = Promotion::Promote,
                        2 => spec.promotion = Promotion::Decline,
                        3 | 4 => {
                            spec.promotion = Promotion::ByName;
                            spec.piece = piece.kind.promote().unwrap_or(piece.kind);
                        }
                        5 => spec.promotion = Promotion::ByName,
                        6 => spec.color = Some(Color::ALL[next() % 2]),
                        7 if previous == Some(to) => spec.to = Destination::Same,
                        8 => spec.to = Destination::Same,
                        9 => spec.capture = CaptureClaim::Capture,
                        10 => spec.check = CheckClaim::Mate,
                        _ => {}
                    }
                    let mut fast = pos.clone();
                    let got = play_with_origin(&mut fast, &spec, previous);
                    let taken = spec.promotion != Promotion::Decline
                        && spec.capture == CaptureClaim::Unmarked
                        && spec.check == CheckClaim::Unmarked;
                    agree(pos, previous, &spec, taken, got, &fast, &mut counts);
                }
            }
        });
        assert!(counts.0 > 5_000 && counts.1 > 100_000, "{counts:?}");
    }

    /// On random games from every position of the perft data, a drop spec
    /// for every kind and square, some with another marker, 同, a side or
    /// a claim: played in one step exactly when resolving it succeeds (for
    /// the specs the fast path takes), to the move resolved and the
    /// position that move gives.
    #[test]
    fn drops_agree_with_resolving_then_playing() {
        let mut counts = (0, 0);
        each_position(0xBB67_AE85_84CA_A73B, 1, 40, |pos, previous, next| {
            for kind in PieceKind::ALL {
                for to in Square::all() {
                    let mut spec = MoveSpec::new(Destination::Square(to), kind);
                    spec.drop = DropMark::Drop;
                    let mut plain = true;
                    match next() % 16 {
                        0 => spec.drop = DropMark::Unmarked,
                        1 => spec.promotion = Promotion::Promote,
                        2 => spec.promotion = Promotion::Decline,
                        3 => spec.promotion = Promotion::ByName,
                        4 => spec.horizontal = Some(Horizontal::Left),
                        5 => spec.vertical = Some(Vertical::Up),
                        6 => spec.color = Some(Color::ALL[next() % 2]),
                        7 if previous == Some(to) => spec.to = Destination::Same,
                        8 => spec.to = Destination::Same,
                        9 => spec.capture = CaptureClaim::Capture,
                        10 => spec.check = CheckClaim::Mate,
                        11 => spec.from = Some(to),
                        _ => {}
                    }
                    plain &= spec.drop == DropMark::Drop
                        && spec.from.is_none()
                        && spec.capture == CaptureClaim::Unmarked
                        && spec.check == CheckClaim::Unmarked
                        && spec.horizontal.is_none()
                        && spec.vertical.is_none()
                        && matches!(spec.promotion, Promotion::Unmarked | Promotion::ByName);
                    let mut fast = pos.clone();
                    let got = play_marked_drop(&mut fast, &spec, previous);
                    agree(pos, previous, &spec, plain, got, &fast, &mut counts);
                }
            }
        });
        assert!(counts.0 > 5_000 && counts.1 > 100_000, "{counts:?}");
    }

    /// Holds a fast path's answer for `spec` on `pos` to resolving it then
    /// playing: a move it played (`got`, leaving `fast`) is the move
    /// resolved, and `fast` the position that move gives; a refusal leaves
    /// the position as it was, and is only allowed where resolving fails
    /// or the fast path does not take such a spec (`taken` false). Counts
    /// moves played and refused.
    fn agree(
        pos: &Position,
        previous: Option<Square>,
        spec: &MoveSpec,
        taken: bool,
        got: Option<Move>,
        fast: &Position,
        (played, refused): &mut (usize, usize),
    ) {
        let general = spec.to_move(pos, previous);
        match got {
            Some(mv) => {
                assert_eq!(general, Ok(mv), "{} {spec:?}", pos.sfen());
                let mut after = pos.clone();
                after.play_unchecked(mv);
                assert_eq!(*fast, after, "{} {spec:?}", pos.sfen());
                *played += 1;
            }
            None => {
                assert!(general.is_err() || !taken, "{} {spec:?}", pos.sfen());
                assert_eq!(fast, pos);
                *refused += 1;
            }
        }
    }
}
