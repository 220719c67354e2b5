//! Records, positions and errors as JSON for pages: the schema the server's
//! API (`kifconv serve`) and the browser package (`wasm/`) answer with, so
//! a page reads both alike. A move is `{"usi", "japanese", "sfen_after"}`
//! (`japanese` as KI2 writes it, with ▲ or △); an error is `{"line",
//! "column", "message", "text"}` (no line for an input without lines).

use crate::format::japanese::write::marked_moves;
use crate::{Color, Error, Move, Position, Record};
use serde_json::{json, Value};

/// A move of `pos`, legal there: USI, Japanese, the SFEN after it.
pub fn legal_move(pos: &Position, mv: Move) -> Value {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    json!({"usi": mv.to_string(), "japanese": marked_moves(pos, &[mv]), "sfen_after": after.sfen()})
}

/// A position and every legal move of it: `{"sfen", "turn": "b"|"w",
/// "move_number", "check", "moves"}`.
pub fn position(pos: &Position) -> Value {
    let moves: Vec<Value> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| legal_move(pos, mv))
        .collect();
    json!({
        "sfen": pos.sfen(),
        "turn": if pos.side_to_move() == Color::Black { "b" } else { "w" },
        "move_number": pos.move_number(),
        "check": pos.is_check(),
        "moves": moves,
    })
}

/// Records read: `{"games": [{"start", "headers": [[key, value]],
/// "moves": [{"usi", "japanese", "sfen_after", "comment"}], "ending"}],
/// "warnings": [error-shaped]}`, each game's mainline.
pub fn games(records: &[Record]) -> Value {
    let mut warnings = Vec::new();
    let games: Vec<Value> = records
        .iter()
        .map(|record| {
            warnings.extend(record.warnings.iter().map(|w| {
                json!({"line": w.line, "column": w.column, "message": w.message, "text": w.text})
            }));
            game(record)
        })
        .collect();
    json!({"games": games, "warnings": warnings})
}

/// One game: its start, headers, mainline with comments, and ending.
fn game(record: &Record) -> Value {
    let mut pos = record.start.clone();
    let mut moves = Vec::new();
    for id in record.tree.mainline() {
        let node = record.tree.node(id);
        let Some(mv) = node.mv else { continue };
        let mut value = legal_move(&pos, mv);
        let comment = (!node.comments().is_empty()).then(|| node.comments().join("\n"));
        value["comment"] = json!(comment);
        moves.push(value);
        pos.play_unchecked(mv);
    }
    let headers: Vec<Value> = record
        .headers
        .iter()
        .map(|h| json!([h.key, h.value]))
        .collect();
    json!({
        "start": record.start.sfen(),
        "headers": headers,
        "moves": moves,
        "ending": record.ending().map(|e| e.text.clone()),
    })
}

/// An error reading a record or a position, with its place: `line`,
/// `column` and `text` (the source line) are null for an input without
/// lines (binary data, whose message says the byte).
pub fn error(e: &Error) -> Value {
    let line = (e.location.line > 0).then_some(e.location.line);
    json!({
        "line": line,
        "column": line.map(|_| e.location.column),
        "message": e.to_string(),
        "text": line.map(|_| e.location.source_line.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_its_mainline_with_notation_and_positions() {
        let records =
            crate::read_bytes("▲７六歩 △３四歩\n*いい手\nまで2手で中断\n".as_bytes()).unwrap();
        let value = games(&records);
        let game = &value["games"][0];
        assert_eq!(game["moves"][1]["usi"], "3c3d");
        assert_eq!(game["moves"][1]["japanese"], "△３四歩");
        assert_eq!(game["moves"][1]["comment"], "いい手");
        assert_eq!(game["moves"][0]["comment"], Value::Null);
        assert_eq!(
            game["moves"][1]["sfen_after"],
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        assert_eq!(game["start"], Position::startpos().sfen());
        assert_eq!(game["ending"], "まで2手で中断");
    }

    #[test]
    fn a_position_lists_every_legal_move() {
        let value = position(&Position::startpos());
        assert_eq!(value["moves"].as_array().unwrap().len(), 30);
        assert_eq!(
            (&value["turn"], &value["check"]),
            (&json!("b"), &json!(false))
        );
    }

    #[test]
    fn an_error_keeps_its_place() {
        let e = crate::read_bytes("▲７六歩\n▲７六歩\n".as_bytes()).unwrap_err();
        let value = error(&e);
        assert_eq!((&value["line"], &value["column"]), (&json!(2), &json!(1)));
        assert_eq!(value["text"], "▲７六歩");
    }
}
