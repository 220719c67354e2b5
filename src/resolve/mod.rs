//! Resolving: a [`MoveSpec`] and a [`Position`] become a [`Move`].
//!
//! A spec with an origin (KIF, CSA) is checked, never trusted: the piece
//! must be there, be of the written kind, and the move must be legal. A spec
//! without one (KI2, Western) is matched against every legal move of that
//! kind to that square; each marker the text carries removes the
//! candidates that disagree with it. Exactly one must remain.

mod play_written;
pub(crate) mod relative;
pub mod spec;

pub(crate) use play_written::{play_marked_drop, play_with_origin};

// The resolver cases of the JSA notation rules, as KI2 texts.
#[cfg(test)]
mod table;

use crate::position::Candidates;
use crate::resolve::spec::{
    CaptureClaim, CheckClaim, Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical,
};
use crate::{Color, IllegalMove, Move, PieceKind, Position, Square};
use std::fmt;

/// Why a candidate move does not fit the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// 打 was written, but this is a board move.
    NotADrop,
    /// Nothing says 打, and a board move fits.
    BoardMoveFits,
    /// The text gives a direction or a side, which a drop does not have.
    IsADrop,
    /// 成 was written, but this move does not promote.
    DoesNotPromote,
    /// This move promotes, but 成 was not written.
    Promotes,
    /// 不成 (or `=`) was written, but the piece could not promote here.
    CannotPromote,
    /// The piece moves another way than 上 / 引 / 寄 says.
    Direction(Vertical),
    /// Another piece stands further to the side 左 / 右 names, or the move
    /// is not straight forward (直).
    Side(Horizontal),
    /// `x` was written, but nothing is captured.
    NoCapture,
    /// `-` was written, but a piece is captured.
    Captures,
    /// `#` was written, but the move does not mate.
    NotMate,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::NotADrop => f.write_str("the text says 打 (drop), this is a board move"),
            Mismatch::IsADrop => f.write_str("the text gives a direction or side, this is a drop"),
            Mismatch::BoardMoveFits => {
                f.write_str("a drop, but 打 is not written and a board move fits")
            }
            Mismatch::DoesNotPromote => f.write_str("the text says 成 (promote), this does not"),
            Mismatch::Promotes => f.write_str("this promotes, the text does not say 成"),
            Mismatch::CannotPromote => f.write_str(
                "the text says 不成 (does not promote), but this piece could not promote here",
            ),
            Mismatch::Direction(v) => write!(f, "the piece does not move {}", vertical_word(*v)),
            Mismatch::Side(h) => write!(f, "{} does not fit this piece", horizontal_word(*h)),
            Mismatch::NoCapture => f.write_str("the text says it captures, it does not"),
            Mismatch::Captures => f.write_str("the text says it does not capture, it does"),
            Mismatch::NotMate => f.write_str("the text claims mate, the move does not mate"),
        }
    }
}

fn vertical_word(v: Vertical) -> &'static str {
    match v {
        Vertical::Up => "forward (上)",
        Vertical::Down => "back (引)",
        Vertical::Sideways => "sideways (寄)",
    }
}

fn horizontal_word(h: Horizontal) -> &'static str {
    match h {
        Horizontal::Left => "左 (the leftmost piece)",
        Horizontal::Right => "右 (the rightmost piece)",
        Horizontal::Straight => "直 (straight forward)",
    }
}

/// Why a spec could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// 同 on the first move.
    NoPreviousMove,
    /// The text marks the move for the player who is not to move.
    WrongSide {
        /// The side the text marks, which is not the side to move.
        written: Color,
    },
    /// The written origin holds no piece of the mover's.
    NoPieceAtOrigin {
        /// The origin as written.
        from: Square,
    },
    /// The written origin holds a piece of another kind.
    PieceMismatch {
        /// The origin as written.
        from: Square,
        /// The kind of the mover's piece standing there.
        found: PieceKind,
        /// The kind the text names.
        written: PieceKind,
    },
    /// The move the text names is against the rules.
    Illegal {
        /// The move the text names.
        mv: Move,
        /// The rule it breaks here.
        reason: IllegalMove,
    },
    /// No candidate fits: each with the first marker it disagrees with.
    /// Empty when no piece of that kind can reach the square at all.
    NoCandidate {
        /// The kind the text names.
        piece: PieceKind,
        /// The destination (同 already replaced by the previous move's square).
        to: Square,
        /// Each move of that kind to that square, with the first marker it
        /// disagrees with.
        rejected: Vec<(Move, Mismatch)>,
    },
    /// Several candidates fit the text.
    Ambiguous {
        /// The kind the text names.
        piece: PieceKind,
        /// The destination.
        to: Square,
        /// Every legal move that fits the text, two or more.
        candidates: Vec<Move>,
    },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoPreviousMove => {
                f.write_str("同 (same square) on the first move: there is no previous move")
            }
            ResolveError::WrongSide { written } => {
                write!(
                    f,
                    "the move is marked for {written}, but it is not {written}'s turn"
                )
            }
            ResolveError::NoPieceAtOrigin { from } => {
                write!(f, "no piece of the mover's on the origin square {from}")
            }
            ResolveError::PieceMismatch {
                from,
                found,
                written,
            } => write!(
                f,
                "the piece on {from} is {} ({}), not {} ({}) as written",
                found.kanji(),
                found.csa(),
                written.kanji(),
                written.csa()
            ),
            ResolveError::Illegal { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
            ResolveError::NoCandidate {
                piece,
                to,
                rejected,
            } if rejected.is_empty() => {
                write!(f, "no {} ({}) can move to {to}", piece.kanji(), piece.csa())
            }
            ResolveError::NoCandidate {
                piece,
                to,
                rejected,
            } => {
                write!(
                    f,
                    "no {} ({}) move to {to} fits the text:",
                    piece.kanji(),
                    piece.csa()
                )?;
                for (mv, why) in rejected {
                    write!(f, " {mv}: {why};")?;
                }
                Ok(())
            }
            ResolveError::Ambiguous {
                piece,
                to,
                candidates,
            } => {
                write!(
                    f,
                    "ambiguous: {} moves of {} ({}) to {to} fit the text:",
                    candidates.len(),
                    piece.kanji(),
                    piece.csa()
                )?;
                for mv in candidates {
                    write!(f, " {mv}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// A move marked as a drop (CSA `00`, KI2 打, Western `*`) that is legal
/// and fits every marker: the one move the candidates would leave, found
/// without collecting them (the drop mark rules out every board move).
/// Anything else goes the long way, which explains what is wrong.
fn marked_drop(pos: &Position, spec: &MoveSpec, to: Square) -> Option<Move> {
    let plain = spec.drop == DropMark::Drop
        && matches!(spec.promotion, Promotion::Unmarked | Promotion::ByName)
        && spec.horizontal.is_none()
        && spec.vertical.is_none()
        && spec.piece.is_hand_kind();
    let mv = Move::Drop {
        kind: spec.piece,
        to,
    };
    (plain && pos.is_legal(mv) && claim_mismatch(pos, spec, mv).is_none()).then_some(mv)
}

/// A spec that names its origin (KIF, CSA): the piece there must be the
/// mover's and of the written kind, and the move legal. Kept out of line:
/// inlined into the builder's loop, the loop grew slower.
#[inline(never)]
fn resolve_with_origin(
    pos: &Position,
    spec: &MoveSpec,
    from: Square,
    to: Square,
) -> Result<Move, ResolveError> {
    let piece = pos
        .piece_at(from)
        .filter(|p| p.color == pos.side_to_move())
        .ok_or(ResolveError::NoPieceAtOrigin { from })?;
    let promote = origin_promotion(spec, piece.kind).ok_or(ResolveError::PieceMismatch {
        from,
        found: piece.kind,
        written: spec.piece,
    })?;
    let mv = Move::Normal { from, to, promote };
    pos.check_legal(mv)
        .map_err(|reason| ResolveError::Illegal { mv, reason })?;
    let declined_in_vain = spec.promotion == Promotion::Decline && !could_promote(pos, from, to);
    let mismatch = declined_in_vain
        .then_some(Mismatch::CannotPromote)
        .or_else(|| claim_mismatch(pos, spec, mv));
    if let Some(why) = mismatch {
        return Err(ResolveError::NoCandidate {
            piece: spec.piece,
            to,
            rejected: vec![(mv, why)],
        });
    }
    Ok(mv)
}

/// Whether a spec that names its origin promotes the piece of `kind`
/// found there, or `None` when that piece is not the one written: the
/// written kind, or (the promotion named by the piece, CSA `7372NG`) its
/// promoted kind.
#[inline(always)]
fn origin_promotion(spec: &MoveSpec, kind: PieceKind) -> Option<bool> {
    let promote = match spec.promotion {
        Promotion::ByName => kind != spec.piece && kind.promote() == Some(spec.piece),
        other => other == Promotion::Promote,
    };
    let written_before_move = match spec.promotion {
        Promotion::ByName if promote => kind,
        _ => spec.piece,
    };
    (kind == written_before_move).then_some(promote)
}

fn resolve_by_candidates(
    pos: &Position,
    spec: &MoveSpec,
    to: Square,
) -> Result<Move, ResolveError> {
    let all = pos.candidates(spec.piece, to);
    let fits = filter(pos, spec, all, to, |_, _| {});
    match fits.len() {
        1 => Ok(fits[0]),
        0 => {
            let mut rejected = Vec::with_capacity(all.len());
            filter(pos, spec, all, to, |mv, why| rejected.push((mv, why)));
            if let Some(illegal) = illegal_drop(pos, spec, to, &rejected) {
                return Err(illegal);
            }
            Err(ResolveError::NoCandidate {
                piece: spec.piece,
                to,
                rejected,
            })
        }
        _ => Err(ResolveError::Ambiguous {
            piece: spec.piece,
            to,
            candidates: fits.to_vec(),
        }),
    }
}

/// When nothing fits and the text can only mean a drop (a piece that can
/// be held, no board move rejected for anything but not being a drop), the
/// rule that drop breaks, named (二歩, 打ち歩詰め, …) rather than "no piece
/// can move there". A piece not in hand is named only when 打 was written
/// and no board move reaches the square.
fn illegal_drop(
    pos: &Position,
    spec: &MoveSpec,
    to: Square,
    rejected: &[(Move, Mismatch)],
) -> Option<ResolveError> {
    let plain = spec.piece.is_hand_kind()
        && matches!(spec.promotion, Promotion::Unmarked | Promotion::ByName)
        && spec.horizontal.is_none()
        && spec.vertical.is_none()
        && rejected.iter().all(|(_, why)| *why == Mismatch::NotADrop);
    if !plain {
        return None;
    }
    let mv = Move::Drop {
        kind: spec.piece,
        to,
    };
    match pos.check_legal(mv) {
        // Not in hand says less than the board move 打 rules out.
        Err(IllegalMove::NotInHand) if spec.drop != DropMark::Drop || !rejected.is_empty() => None,
        Err(reason) => Some(ResolveError::Illegal { mv, reason }),
        Ok(()) => None,
    }
}

/// Applies the markers one after another, each removing the candidates that
/// disagree with it; `rejected` hears of each removal and why.
fn filter(
    pos: &Position,
    spec: &MoveSpec,
    mut fits: Candidates,
    to: Square,
    mut rejected: impl FnMut(Move, Mismatch),
) -> Candidates {
    let mut keep = |fits: &mut Candidates, test: &dyn Fn(&Move) -> Option<Mismatch>| {
        fits.retain(|mv| match test(mv) {
            None => true,
            Some(why) => {
                rejected(*mv, why);
                false
            }
        });
    };
    keep(&mut fits, &|mv| mismatch_alone(pos, spec, mv));
    if spec.drop == DropMark::Unmarked && fits.iter().any(|mv| !mv.is_drop()) {
        keep(&mut fits, &|mv| {
            mv.is_drop().then_some(Mismatch::BoardMoveFits)
        });
    }
    if let Some(side) = spec.horizontal.filter(|&h| h != Horizontal::Straight) {
        // 左 and 右 are judged among every piece that moves the written way,
        // pinned ones included, as writers count them: a marker that only a
        // pinned twin fits names an illegal move.
        let mut among = pos.candidates_ignoring_pins(spec.piece, to);
        among.retain(|mv| match mv.from() {
            Some(from) => direction_mismatch(pos.side_to_move(), spec, from, to).is_none(),
            None => false,
        });
        keep(&mut fits, &|mv| {
            (!fits_side(pos, side, mv, &among, to)).then_some(Mismatch::Side(side))
        });
    }
    if !claims_nothing(spec) {
        keep(&mut fits, &|mv| claim_mismatch(pos, spec, *mv));
    }
    fits
}

/// The markers that judge a candidate on its own: drop, promotion,
/// direction and 直.
fn mismatch_alone(pos: &Position, spec: &MoveSpec, mv: &Move) -> Option<Mismatch> {
    let color = pos.side_to_move();
    match *mv {
        Move::Drop { .. } => {
            match spec.promotion {
                Promotion::Promote => return Some(Mismatch::DoesNotPromote),
                Promotion::Decline => return Some(Mismatch::CannotPromote),
                Promotion::Unmarked | Promotion::ByName => {}
            }
            if spec.vertical.is_some() || spec.horizontal.is_some() {
                return Some(Mismatch::IsADrop);
            }
            None
        }
        Move::Normal { from, to, promote } => {
            if spec.drop == DropMark::Drop {
                return Some(Mismatch::NotADrop);
            }
            match (spec.promotion, promote) {
                (Promotion::Promote, false) => return Some(Mismatch::DoesNotPromote),
                (Promotion::Decline, false) if !could_promote(pos, from, to) => {
                    return Some(Mismatch::CannotPromote)
                }
                (Promotion::Unmarked | Promotion::Decline | Promotion::ByName, true) => {
                    return Some(Mismatch::Promotes)
                }
                _ => {}
            }
            direction_mismatch(color, spec, from, to)
        }
    }
}

/// Whether the piece on `from` could have promoted moving to `to`.
fn could_promote(pos: &Position, from: Square, to: Square) -> bool {
    pos.is_legal(Move::Normal {
        from,
        to,
        promote: true,
    })
}

/// 上 引 寄 and 直, which judge a board move by itself.
fn direction_mismatch(color: Color, spec: &MoveSpec, from: Square, to: Square) -> Option<Mismatch> {
    if let Some(v) = spec.vertical {
        if relative::motion(color, from, to) != v {
            return Some(Mismatch::Direction(v));
        }
    }
    if spec.horizontal == Some(Horizontal::Straight) && !relative::is_straight(color, from, to) {
        return Some(Mismatch::Side(Horizontal::Straight));
    }
    None
}

/// 左 / 右 among the board moves still in the running.
fn fits_side(pos: &Position, side: Horizontal, mv: &Move, among: &Candidates, to: Square) -> bool {
    match mv.from() {
        None => false,
        Some(from) => relative::fits_horizontal(
            side,
            pos.side_to_move(),
            from,
            to,
            among.iter().filter_map(|m| m.from()),
        ),
    }
}

/// Whether the spec claims nothing about capture or mate (every KIF, KI2
/// and CSA spec): then [`claim_mismatch`] has nothing to test.
#[inline]
fn claims_nothing(spec: &MoveSpec) -> bool {
    spec.capture == CaptureClaim::Unmarked && spec.check == CheckClaim::Unmarked
}

/// Capture and mate claims, tested on the board. Most specs claim
/// nothing, which is answered where it is asked; the test of a claim
/// (which may copy the position to look for mate) is out of line.
#[inline(always)]
fn claim_mismatch(pos: &Position, spec: &MoveSpec, mv: Move) -> Option<Mismatch> {
    if claims_nothing(spec) {
        return None;
    }
    claimed_mismatch(pos, spec, mv)
}

/// [`claim_mismatch`] for a spec that claims a capture, no capture or mate.
#[inline(never)]
fn claimed_mismatch(pos: &Position, spec: &MoveSpec, mv: Move) -> Option<Mismatch> {
    let captures = pos.piece_at(mv.to()).is_some();
    match (spec.capture, captures) {
        (CaptureClaim::Capture, false) => return Some(Mismatch::NoCapture),
        (CaptureClaim::NoCapture, true) => return Some(Mismatch::Captures),
        _ => {}
    }
    if spec.check == CheckClaim::Mate {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if !after.is_checkmate() {
            return Some(Mismatch::NotMate);
        }
    }
    None
}

impl MoveSpec {
    /// The move this spec names in `pos` (the spec resolved): `previous`
    /// is the destination of the move before, for 同. The inverse of
    /// [`MoveSpec::from_move`].
    #[inline]
    pub fn to_move(&self, pos: &Position, previous: Option<Square>) -> Result<Move, ResolveError> {
        let spec = self;
        let to = match spec.to {
            Destination::Square(sq) => sq,
            Destination::Same => previous.ok_or(ResolveError::NoPreviousMove)?,
        };
        if let Some(written) = spec.color {
            if written != pos.side_to_move() {
                return Err(ResolveError::WrongSide { written });
            }
        }
        match spec.from {
            Some(from) => resolve_with_origin(pos, spec, from, to),
            None => {
                marked_drop(pos, spec, to).map_or_else(|| resolve_by_candidates(pos, spec, to), Ok)
            }
        }
    }

    /// The spec a careful writer of Japanese notation (KI2) gives for a legal
    /// move: destination (同 when it repeats `previous`), the piece, and only
    /// the markers the JSA rules require: relative markers counted over the
    /// pieces that could reach the square ignoring pins, 打 only when a board
    /// piece could also go there, 成 / 不成 only where promotion was possible.
    ///
    /// [`MoveSpec::to_move`] in the same position gives `mv` back.
    pub fn from_move(pos: &Position, mv: Move, previous: Option<Square>) -> MoveSpec {
        let color = pos.side_to_move();
        let to = mv.to();
        let destination = if previous == Some(to) {
            Destination::Same
        } else {
            Destination::Square(to)
        };
        match mv {
            Move::Drop { kind, .. } => {
                let mut spec = MoveSpec::new(destination, kind);
                let board_piece_reaches = pos
                    .candidates_ignoring_pins(kind, to)
                    .iter()
                    .any(|m| !m.is_drop());
                if board_piece_reaches {
                    spec.drop = DropMark::Drop;
                }
                spec
            }
            Move::Normal { from, promote, .. } => {
                let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let mut spec = MoveSpec::new(destination, kind);
                let reach = pos.candidates_ignoring_pins(kind, to);
                let mut others = [from; 16];
                let mut n = 0;
                for other in reach.iter().filter_map(|m| m.from()).filter(|&o| o != from) {
                    if !others[..n].contains(&other) {
                        others[n] = other;
                        n += 1;
                    }
                }
                let pair_kind = matches!(kind, PieceKind::Dragon | PieceKind::Horse);
                let (horizontal, vertical) =
                    relative::markers(color, from, to, &others[..n], pair_kind);
                spec.horizontal = horizontal;
                spec.vertical = vertical;
                let could_promote = reach
                    .iter()
                    .any(|m| m.from() == Some(from) && m.is_promotion());
                spec.promotion = match (promote, could_promote) {
                    (true, _) => Promotion::Promote,
                    (false, true) => Promotion::Decline,
                    (false, false) => Promotion::Unmarked,
                };
                spec
            }
        }
    }
}
