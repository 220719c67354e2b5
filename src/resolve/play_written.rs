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

use super::{claims_nothing, origin_promotion};
use crate::resolve::spec::{Destination, MoveSpec, Promotion};
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

#[cfg(test)]
mod tests {
    use super::play_with_origin;
    use crate::resolve::spec::{CaptureClaim, CheckClaim, Destination, MoveSpec, Promotion};
    use crate::{Color, PieceKind, Position, Square};

    /// On random games from every position of the perft data, a spec for
    /// every origin and destination, each piece kind and each promotion
    /// mark, some with 同 or a side: played in one step exactly when
    /// resolving it succeeds (for the specs the fast path takes), to the
    /// move resolved and the position that move gives.
    #[test]
    fn agrees_with_resolving_then_playing() {
        let data = include_str!("../../tests/it/data/perft.txt");
        let starts = data
            .lines()
            .filter_map(|line| line.strip_prefix("sfen "))
            .map(|sfen| Position::from_sfen(sfen).unwrap());
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let (mut played, mut refused) = (0, 0);
        for start in starts {
            let mut pos = start.clone();
            let mut previous = None;
            for _ in 0..40 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
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
                        let general = spec.to_move(&pos, previous);
                        let mut fast = pos.clone();
                        let got = play_with_origin(&mut fast, &spec, previous);
                        let taken = spec.promotion != Promotion::Decline
                            && spec.capture == CaptureClaim::Unmarked
                            && spec.check == CheckClaim::Unmarked;
                        match got {
                            Some(mv) => {
                                assert_eq!(general, Ok(mv), "{} {spec:?}", pos.sfen());
                                let mut after = pos.clone();
                                after.play_unchecked(mv);
                                assert_eq!(fast, after, "{} {spec:?}", pos.sfen());
                                played += 1;
                            }
                            None => {
                                assert!(general.is_err() || !taken, "{} {spec:?}", pos.sfen());
                                assert_eq!(fast, pos);
                                refused += 1;
                            }
                        }
                    }
                }
                let mv = legal[next() % legal.len()];
                previous = Some(mv.to());
                pos.play_unchecked(mv);
            }
        }
        assert!(played > 5_000 && refused > 100_000, "{played} {refused}");
    }
}
