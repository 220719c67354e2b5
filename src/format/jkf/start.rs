//! The start of a JKF record (`initial`): a named preset, or a board with
//! both hands and the side to move.

use super::json::{compact, Node, Path, Value};
use super::preset::{preset, preset_name};
use super::reader::Reader;
use crate::error::{Error, Stage};
use crate::format::japanese::handicaps::HANDICAP_NAMES;
use crate::{Color, Hand, Handicap, Piece, PieceKind, Setup, Square};

const INITIAL_KEYS: [&str; 2] = ["preset", "data"];
const DATA_KEYS: [&str; 3] = ["color", "board", "hands"];
const SQUARE_KEYS: [&str; 2] = ["color", "kind"];

impl<'t> Reader<'_, 't> {
    /// `initial`: a named preset, or `OTHER` with `data`; the start and the
    /// handicap it is, if any.
    pub(super) fn initial(
        &mut self,
        node: &Node<'t>,
        path: Path<'_>,
    ) -> Result<(Setup, Option<Handicap>), Error> {
        let [preset_node, data] = self.fields(node, path, INITIAL_KEYS)?;
        let data_path = Path::Key(&path, "data");
        let named = match preset_node {
            None if data.is_some() => {
                self.warn(
                    node,
                    format!("{path}: no `preset`; read as OTHER since `data` is given"),
                );
                None
            }
            None => {
                return Err(self.parse_error(
                    node,
                    format!(
                        "{path}: no `preset` (expected HIRATE, a handicap, or OTHER with `data`)"
                    ),
                ))
            }
            Some(p) => {
                let name = p.as_str().unwrap_or("");
                match (name, preset(name)) {
                    ("OTHER", _) => None,
                    (_, Some(handicap)) => Some(handicap),
                    _ => {
                        return Err(self.parse_error(
                            p,
                            format!(
                                "{path}.preset: unknown preset {} (expected one of {}, OTHER)",
                                compact(self.source, p),
                                HANDICAP_NAMES.map(|row| row.3).join(", ")
                            ),
                        ))
                    }
                }
            }
        };
        match (named, data) {
            (Some(handicap), None) => Ok((handicap.setup(), Some(handicap))),
            (Some(handicap), Some(data)) => {
                // The preset decides; say so when the board disagrees.
                // Only the preset counts, so data that cannot be read is
                // a warning here, not an error.
                let name = preset_name(handicap);
                match self.board_data(data, data_path) {
                    Ok(given) if given == handicap.setup() => {}
                    Ok(_) => self.warn(
                        data,
                        format!("{path}: `data` differs from preset {name}; the preset is used"),
                    ),
                    Err(e) => self.warn(
                        data,
                        format!("{path}: `data` beside preset {name} is unreadable ({}); the preset is used", e.message),
                    ),
                }
                Ok((handicap.setup(), Some(handicap)))
            }
            (None, None) => Err(self.parse_error(
                node,
                format!("{path}: preset OTHER needs `data` (color, board, hands)"),
            )),
            (None, Some(data)) => {
                let setup = self.board_data(data, data_path)?;
                let handicap = Handicap::ALL.into_iter().find(|h| h.setup() == setup);
                Ok((setup, handicap))
            }
        }
    }

    /// `initial.data`: the side to move, the board and both hands.
    fn board_data(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Setup, Error> {
        let [color, board, hands] = self.fields(node, path, DATA_KEYS)?;
        let mut setup = Setup::empty();
        setup.side_to_move = match color {
            Some(c) => self.color(c, Path::Key(&path, "color"))?,
            None => {
                self.warn(node, format!("{path}: no `color`; Black (0) moves first"));
                Color::Black
            }
        };
        if let Some(board) = board {
            let board_path = Path::Key(&path, "board");
            match &board.value {
                Value::Object(members) if members.is_empty() => {}
                Value::Array(files) if files.len() == 9 => {
                    for (x, file) in files.iter().enumerate() {
                        let file_path = Path::Index(&board_path, x);
                        let squares = match &file.value {
                            Value::Array(squares) if squares.len() == 9 => squares,
                            _ => {
                                return Err(self.parse_error(
                                    file,
                                    format!("{file_path}: expected an array of 9 squares (ranks 1 to 9 of file {})", x + 1),
                                ))
                            }
                        };
                        for (y, square) in squares.iter().enumerate() {
                            let square_path = Path::Index(&file_path, y);
                            let piece = self.square(square, square_path)?;
                            let sq = Square::new(x as u8 + 1, y as u8 + 1).expect("x and y are below 9");
                            setup.set_piece(sq, piece);
                        }
                    }
                }
                _ => {
                    return Err(self.parse_error(
                        board,
                        format!("{board_path}: expected 9 arrays of 9 squares, board[x-1][y-1] for file x and rank y"),
                    ))
                }
            }
        } else {
            self.warn(node, format!("{path}: no `board`; the board is empty"));
        }
        match hands {
            None => self.warn(node, format!("{path}: no `hands`; both hands are empty")),
            Some(hands) => {
                let hands_path = Path::Key(&path, "hands");
                let Value::Array(items) = &hands.value else {
                    return Err(self.parse_error(
                        hands,
                        format!(
                            "{hands_path}: expected an array of two hands, Black's then White's"
                        ),
                    ));
                };
                if items.len() != 2 {
                    return Err(self.parse_error(
                        hands,
                        format!(
                            "{hands_path}: expected two hands (Black's, then White's), found {}",
                            items.len()
                        ),
                    ));
                }
                for (i, item) in items.iter().enumerate() {
                    setup.hands[i] = self.hand(item, Path::Index(&hands_path, i))?;
                }
            }
        }
        Ok(setup)
    }

    /// One square of `board`: `{}` (empty) or `{"color", "kind"}`.
    fn square(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Option<Piece>, Error> {
        if let Value::Null = node.value {
            return Ok(None);
        }
        let [color, kind] = self.fields(node, path, SQUARE_KEYS)?;
        match (color, kind) {
            (None, None) => Ok(None),
            (Some(color), Some(kind)) => {
                let color = self.color(color, Path::Key(&path, "color"))?;
                let kind = self.kind(kind, Path::Key(&path, "kind"))?;
                Ok(Some(Piece::new(color, kind)))
            }
            _ => Err(self.parse_error(
                node,
                format!("{path}: a square holds `color` and `kind` together, or neither"),
            )),
        }
    }

    /// One hand, `{"FU": 2, …}`.
    fn hand(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Hand, Error> {
        let Value::Object(members) = &node.value else {
            return Err(self.wrong_kind(node, path, "an object such as {\"FU\": 2}"));
        };
        let mut hand = Hand::EMPTY;
        for member in members {
            let count_node = &member.value;
            let kind = PieceKind::from_csa(&member.key).ok_or_else(|| {
                self.source.error(
                    Stage::Parse,
                    member.key_start,
                    count_node.start,
                    format!(
                        "{path}: unknown piece `{}` (expected FU KY KE GI KI KA HI)",
                        member.key
                    ),
                )
            })?;
            let count = count_node
                .as_int()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| {
                    self.parse_error(
                        count_node,
                        format!("{path}.{}: expected a count from 0 to 18", member.key),
                    )
                })?;
            if count == 0 {
                continue;
            }
            if !kind.is_hand_kind() {
                return Err(self.source.error(
                    Stage::Parse,
                    member.key_start,
                    count_node.end,
                    format!(
                        "{path}: a hand cannot hold {} ({})",
                        kind.kanji(),
                        kind.csa()
                    ),
                ));
            }
            hand.set(kind, count);
        }
        Ok(hand)
    }
}
