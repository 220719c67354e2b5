//! The reader's shared state and the small readers every part of a JKF
//! document uses: an object's known members, a color, a piece kind, a
//! square.

use super::json::{compact, Node, Path, Source, Value};
use crate::error::{Error, Stage};
use crate::record::Warning;
use crate::{Color, PieceKind, Square};

const PLACE_KEYS: [&str; 2] = ["x", "y"];

/// Reads the parts of a JKF document, warning as it goes: the state every
/// part of the reader shares (the start in `start.rs`, lines of play in
/// `line.rs`, moves in `moves.rs`, the document in `read.rs`).
pub(super) struct Reader<'s, 't> {
    pub(super) source: &'s Source<'t>,
    /// Every warning, in the order the text gives rise to them.
    pub(super) warnings: Vec<Warning>,
}

impl<'s, 't> Reader<'s, 't> {
    /// A warning about the value at `node`.
    pub(super) fn warn(&mut self, node: &Node<'_>, message: impl Into<String>) {
        let warning = self.source.warning(node.start, node.end, message);
        self.warnings.push(warning);
    }

    /// A parse error about the value at `node`.
    pub(super) fn parse_error(&self, node: &Node<'_>, message: impl Into<String>) -> Error {
        self.source
            .error(Stage::Parse, node.start, node.end, message)
    }

    /// The error for a value of the wrong kind at `path`: what was
    /// expected there, and what was found.
    pub(super) fn wrong_kind(
        &self,
        node: &Node<'_>,
        path: impl std::fmt::Display,
        expected: &str,
    ) -> Error {
        let found = node.what();
        self.parse_error(node, format!("{path}: expected {expected}, found {found}"))
    }

    /// The members of an object named in `known` (the last one of each
    /// name; `null` counts as absent), warning about unknown and repeated
    /// keys.
    pub(super) fn fields<'n, const N: usize>(
        &mut self,
        node: &'n Node<'t>,
        path: Path<'_>,
        known: [&str; N],
    ) -> Result<[Option<&'n Node<'t>>; N], Error> {
        let Value::Object(members) = &node.value else {
            return Err(self.wrong_kind(node, path, "an object"));
        };
        let mut found: [Option<&'n Node<'t>>; N] = [None; N];
        let mut seen = [false; N];
        for member in members {
            let message = match known.iter().position(|k| *k == member.key) {
                Some(i) => {
                    let repeated = seen[i];
                    seen[i] = true;
                    found[i] = match member.value.value {
                        Value::Null => None,
                        _ => Some(&member.value),
                    };
                    if !repeated {
                        continue;
                    }
                    format!(
                        "{path}: key `{}` given twice; the last one is used",
                        member.key
                    )
                }
                None => format!(
                    "{path}: unknown key `{}` ignored (expected one of {})",
                    member.key,
                    known.join(", ")
                ),
            };
            // The warning is about the key.
            let warning = self
                .source
                .warning(member.key_start, member.value.start, message);
            self.warnings.push(warning);
        }
        Ok(found)
    }

    /// `0` (Black) or `1` (White).
    pub(super) fn color(&self, node: &Node<'t>, path: Path<'_>) -> Result<Color, Error> {
        match node.as_int() {
            Some(0) => Ok(Color::Black),
            Some(1) => Ok(Color::White),
            _ => Err(self.parse_error(
                node,
                format!(
                    "{path}: expected 0 (Black, 先手) or 1 (White, 後手), found {}",
                    compact(self.source, node)
                ),
            )),
        }
    }

    /// A piece kind by its CSA name (`FU`, `UM`, …).
    pub(super) fn kind(&self, node: &Node<'t>, path: Path<'_>) -> Result<PieceKind, Error> {
        node.as_str()
            .and_then(PieceKind::from_csa)
            .ok_or_else(|| {
                self.parse_error(
                    node,
                    format!(
                        "{path}: unknown piece {} (expected one of FU KY KE GI KI KA HI OU TO NY NK NG UM RY)",
                        compact(self.source, node)
                    ),
                )
            })
    }

    /// A square, `{"x": file, "y": rank}`.
    pub(super) fn place(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Square, Error> {
        let [x, y] = self.fields(node, path, PLACE_KEYS)?;
        let coordinate = |this: &Self, value: Option<&Node<'t>>, name: &'static str| {
            let what = if name == "x" { "the file" } else { "the rank" };
            let Some(value) = value else {
                return Err(this.parse_error(node, format!("{path}: no `{name}` ({what}, 1 to 9)")));
            };
            let bad = |at: &Node<'t>| {
                this.parse_error(
                    at,
                    format!(
                        "{path}.{name}: expected an integer from 1 to 9 ({what}), found {}",
                        compact(this.source, at)
                    ),
                )
            };
            value
                .as_int()
                .filter(|n| (1..=9).contains(n))
                .map(|n| n as u8)
                .ok_or_else(|| bad(value))
        };
        let file = coordinate(self, x, "x")?;
        let rank = coordinate(self, y, "y")?;
        Ok(Square::new(file, rank).expect("checked to be 1-9"))
    }
}
