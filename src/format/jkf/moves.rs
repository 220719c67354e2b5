//! A JKF move object: its fields read into a [`MoveSpec`], the move it
//! names resolved on the game builder's board with JKF's leniencies, and
//! the redundant fields checked against the move played.

use super::json::{compact, Node, Path, Value};
use super::reader::Reader;
use crate::error::{Error, Stage};
use crate::record::builder::Builder;
use crate::resolve::spec::{Destination, DropMark, Horizontal, MoveSpec, Promotion, Vertical};
use crate::resolve::ResolveError;
use crate::{IllegalMove, Move, PieceKind, Square};

const MOVE_KEYS: [&str; 8] = [
    "color", "from", "to", "piece", "same", "promote", "capture", "relative",
];

/// A JKF move object, read but not yet played.
struct MoveFields<'n, 't> {
    spec: MoveSpec,
    capture: Option<(PieceKind, &'n Node<'t>)>,
    same: Option<&'n Node<'t>>,
    relative: Option<(&'n str, &'n Node<'t>)>,
    declined: Option<&'n Node<'t>>,
    /// Where `color` is written, for an error about it.
    color: Option<&'n Node<'t>>,
    /// Where `piece` is written, for a warning about it.
    piece: Option<&'n Node<'t>>,
}

/// A move object read and resolved, not yet played.
pub(super) struct ReadMove<'n, 't> {
    fields: MoveFields<'n, 't>,
    /// The spec as finally read (after the leniencies).
    spec: MoveSpec,
    /// The destination (the previous square for `same` without `to`).
    to: Option<Square>,
    /// The resolver's answer in the builder's position.
    pub(super) resolved: Result<Move, ResolveError>,
}

impl ReadMove<'_, '_> {
    /// The move of the foul when the object names a move against the
    /// rules (`e`): the move as written, whether or not it is legal.
    pub(super) fn foul_move(&self, e: &ResolveError) -> Option<Move> {
        match e {
            ResolveError::Illegal { mv, .. } => Some(*mv),
            _ => written_move(&self.spec, self.to),
        }
    }
}

/// A resolver error in words, without the list separator at its end.
pub(super) fn reason(e: &ResolveError) -> String {
    let text = e.to_string();
    text.trim_end_matches(';').to_string()
}

impl<'t> Reader<'_, 't> {
    /// Reads a `move` object into a spec and the claims to check once the
    /// move is known.
    fn move_fields<'n>(
        &mut self,
        node: &'n Node<'t>,
        path: Path<'_>,
    ) -> Result<MoveFields<'n, 't>, Error> {
        let [color, from, to, piece, same, promote, capture, relative] =
            self.fields(node, path, MOVE_KEYS)?;
        let piece_node = piece;
        let piece = match piece {
            Some(p) => self.kind(p, Path::Key(&path, "piece"))?,
            None => {
                return Err(self.parse_error(
                    node,
                    format!(
                    "{path}: no `piece` (the kind of the moving piece, before it moves: FU, KA, …)"
                ),
                ))
            }
        };
        let bool_of = |this: &mut Self,
                       value: Option<&'n Node<'t>>,
                       name: &str|
         -> Result<Option<(bool, &'n Node<'t>)>, Error> {
            match value {
                None => Ok(None),
                Some(v) => match v.value {
                    Value::Bool(b) => Ok(Some((b, v))),
                    _ => Err(this.parse_error(
                        v,
                        format!(
                            "{path}.{name}: expected true or false, found {}",
                            compact(this.source, v)
                        ),
                    )),
                },
            }
        };
        let same = bool_of(self, same, "same")?;
        let promote = bool_of(self, promote, "promote")?;
        let destination = match to {
            Some(t) => Destination::Square(self.place(t, Path::Key(&path, "to"))?),
            None if matches!(same, Some((true, _))) => Destination::Same,
            None => {
                return Err(self.parse_error(
                    node,
                    format!("{path}: no `to` (the destination {{\"x\": file, \"y\": rank}})"),
                ))
            }
        };
        let mut spec = MoveSpec::new(destination, piece);
        if let Some(c) = color {
            spec.color = Some(self.color(c, Path::Key(&path, "color"))?);
        }
        match from {
            Some(f) => spec.from = Some(self.place(f, Path::Key(&path, "from"))?),
            None => spec.drop = DropMark::Drop,
        }
        let mut declined = None;
        match promote {
            Some((true, _)) => spec.promotion = Promotion::Promote,
            Some((false, node)) => {
                spec.promotion = Promotion::Decline;
                declined = Some(node);
            }
            None => {}
        }
        let capture = match capture {
            Some(c) => Some((self.kind(c, Path::Key(&path, "capture"))?, c)),
            None => None,
        };
        let relative = match relative {
            None => None,
            Some(r) => match r.as_str() {
                Some(text) => Some((text, r)),
                None => {
                    self.warn(
                        r,
                        format!("{path}.relative: expected a string such as \"LU\"; ignored"),
                    );
                    None
                }
            },
        };
        Ok(MoveFields {
            spec,
            capture,
            same: same.filter(|(b, _)| *b).map(|(_, node)| node),
            relative,
            declined,
            color,
            piece: piece_node,
        })
    }

    /// Reads the `move` object at `node` and resolves it on the builder's
    /// board. A `promote: false` where the move could not promote is
    /// ignored, a piece that must promote promotes, and a `piece` named
    /// after its promotion is read as the piece before it, each with a
    /// warning.
    pub(super) fn read_move<'n>(
        &mut self,
        game: &Builder,
        mv_node: &'n Node<'t>,
        move_path: Path<'_>,
    ) -> Result<ReadMove<'n, 't>, Error> {
        let fields = self.move_fields(mv_node, move_path)?;
        let mut spec = fields.spec;
        let to = match spec.to {
            Destination::Square(sq) => Some(sq),
            Destination::Same => game.previous(),
        };
        if let (Some(node), Some(from), Some(to)) = (fields.declined, spec.from, to) {
            let could = game.position().is_legal(Move::Normal {
                from,
                to,
                promote: true,
            });
            if !could {
                self.warn(
                    node,
                    format!("{move_path}.promote: false, but this move could not promote; ignored"),
                );
                spec.promotion = Promotion::Unmarked;
            }
        }
        let mut resolved = game.resolve(&spec);
        if let Err(ResolveError::Illegal {
            reason: IllegalMove::MustPromote,
            ..
        }) = resolved
        {
            // json-kifu-format's board promotes a piece that could
            // never move again by itself; so do we, with a word.
            if spec.promotion == Promotion::Unmarked {
                let mut promoted = spec;
                promoted.promotion = Promotion::Promote;
                if let Ok(m) = game.resolve(&promoted) {
                    self.warn(
                        mv_node,
                        format!("{move_path}: the piece must promote on {} and `promote: true` is missing; read as promoting", m.to()),
                    );
                    spec = promoted;
                    resolved = Ok(m);
                }
            }
        }
        if let Err(ResolveError::PieceMismatch { found, written, .. }) = &resolved {
            // Some producers write the piece after promotion
            // (`"piece":"UM"` with `"promote":true`): `from`, `to`
            // and `promote` fix the move all the same.
            let (found, written) = (*found, *written);
            if spec.promotion == Promotion::Promote
                && written.is_promoted()
                && written.unpromote() == found
            {
                let mut before = spec;
                before.piece = found;
                if let Ok(m) = game.resolve(&before) {
                    self.warn(
                        fields.piece.unwrap_or(mv_node),
                        format!(
                            "{move_path}.piece: {} is the piece after promotion (JKF's `piece` is the piece before it moves); `from`, `to` and `promote: true` fix the move, read as {} promoting",
                            written.csa(),
                            found.csa()
                        ),
                    );
                    spec = before;
                    resolved = Ok(m);
                }
            }
        }
        Ok(ReadMove {
            fields,
            spec,
            to,
            resolved,
        })
    }

    /// The error for a move that cannot be played and is no foul: the
    /// resolver's reason, with a hint where JKF's schema explains it.
    pub(super) fn move_error(
        &self,
        read: &ReadMove<'_, 't>,
        e: &ResolveError,
        mv_node: &Node<'t>,
        move_path: Path<'_>,
        ply: u32,
    ) -> Error {
        let hint = match (e, read.spec.from) {
            (ResolveError::NoCandidate { .. }, None) => " (a JKF move without `from` is a drop)",
            (ResolveError::PieceMismatch { .. }, _) => {
                " (JKF's `piece` is the piece before it moves; `promote: true` says it promotes)"
            }
            _ => "",
        };
        // The move as written, when the source line does
        // not show all of it.
        let shown = match self.source.text.get(mv_node.start..mv_node.end) {
            Some(raw) if !raw.contains('\n') => String::new(),
            _ => format!(" {}", compact(self.source, mv_node)),
        };
        let (at, shown) = match (e, read.fields.color) {
            (ResolveError::WrongSide { .. }, Some(color)) => (color, ".color".to_string()),
            _ => (mv_node, shown),
        };
        let reason = reason(e);
        self.source
            .error(
                Stage::Resolve,
                at.start,
                at.end,
                format!("{move_path}{shown}: {reason}{hint}"),
            )
            .with_ply(ply)
    }

    /// Checks what the JKF move says beyond the move itself (`capture`,
    /// `same`, `relative`), in the builder's position before `mv` is
    /// played; disagreements are warnings.
    pub(super) fn check_claims(
        &mut self,
        game: &Builder,
        read: &ReadMove<'_, 't>,
        mv: Move,
        path: Path<'_>,
    ) {
        let (fields, spec) = (&read.fields, &read.spec);
        let previous = game.previous();
        let captured = game.position().piece_at(mv.to()).map(|p| p.kind);
        if let Some((claimed, node)) = fields.capture {
            match captured {
                None => self.warn(
                    node,
                    format!(
                        "{path}.capture: says {} is captured, but {} is empty",
                        claimed.csa(),
                        mv.to()
                    ),
                ),
                Some(kind) if kind != claimed => self.warn(
                    node,
                    format!(
                        "{path}.capture: says {}, but the piece on {} is {} ({})",
                        claimed.csa(),
                        mv.to(),
                        kind.kanji(),
                        kind.csa()
                    ),
                ),
                Some(_) => {}
            }
        }
        if let Some(node) = fields.same {
            if previous != Some(mv.to()) {
                self.warn(
                    node,
                    format!(
                        "{path}.same: true, but {} is not where the previous move went",
                        mv.to()
                    ),
                );
            }
        }
        if let Some((text, node)) = fields.relative {
            let mut check = MoveSpec::new(spec.to, spec.piece);
            check.promotion = spec.promotion;
            for c in text.chars() {
                match c {
                    'L' => check.horizontal = Some(Horizontal::Left),
                    'C' => check.horizontal = Some(Horizontal::Straight),
                    'R' => check.horizontal = Some(Horizontal::Right),
                    'U' => check.vertical = Some(Vertical::Up),
                    'M' => check.vertical = Some(Vertical::Sideways),
                    'D' => check.vertical = Some(Vertical::Down),
                    'H' => check.drop = DropMark::Drop,
                    _ => {
                        self.warn(
                            node,
                            format!(
                                "{path}.relative: `{text}` is not made of L C R U M D H; ignored"
                            ),
                        );
                        return;
                    }
                }
            }
            match game.resolve(&check) {
                Ok(named) if named == mv => {}
                Ok(named) => self.warn(
                    node,
                    format!("{path}.relative: `{text}` names {named}, not the move played ({mv})"),
                ),
                Err(e) => self.warn(
                    node,
                    format!(
                        "{path}.relative: `{text}` does not single out the move {mv}: {}",
                        reason(&e)
                    ),
                ),
            }
        }
    }
}

/// The move a JKF move object names, whether or not it is legal.
fn written_move(spec: &MoveSpec, to: Option<Square>) -> Option<Move> {
    let to = to?;
    Some(match spec.from {
        Some(from) => Move::Normal {
            from,
            to,
            promote: spec.promotion == Promotion::Promote,
        },
        None if spec.piece.is_hand_kind() => Move::Drop {
            kind: spec.piece,
            to,
        },
        None => return None,
    })
}
