//! kifconv for the browser: the functions the npm package (`wasm/js/`)
//! wraps. Each takes bytes or text and answers JSON text or bytes; an error
//! is the JSON of `{"message", "line", "column", "text", "rendered"}` as
//! the string of a thrown value, which the package turns into an `Error`.
//! Records, positions and moves are shaped by [`kifconv::view`], as the
//! server's API answers them.

use kifconv::decode::EncodingChoice;
use kifconv::names::{self, Source};
use kifconv::read::{read_bytes, read_position};
use kifconv::tsume::{self, Limits, Outcome};
use kifconv::{view, Error, Format, Position, Record, Target};
use serde_json::{json, Value};
use std::path::Path;
use wasm_bindgen::prelude::*;

/// An error with its place, as the package throws it.
fn located(e: &Error) -> JsValue {
    let mut value = view::error(e);
    value["rendered"] = json!(e.render("<input>"));
    JsValue::from_str(&value.to_string())
}

/// An error with no place: a bad argument.
fn said(message: impl Into<String>) -> JsValue {
    let value = json!({"message": message.into(), "line": null, "column": null, "text": null, "rendered": null});
    JsValue::from_str(&value.to_string())
}

/// The record format called `name`; `None` tells it from the content.
fn format(name: Option<String>) -> Result<Option<Format>, JsValue> {
    let Some(name) = name else { return Ok(None) };
    match names::find(&names::SOURCES, "format", &name).map_err(said)? {
        Source::Record(format) => Ok(Some(format)),
        Source::Training(_) => Err(said(format!(
            "format {name:?}: training data is not a record"
        ))),
    }
}

/// The input encoding called `name`; `None` detects it.
fn encoding(name: Option<String>) -> Result<EncodingChoice, JsValue> {
    name.map_or(Ok(EncodingChoice::Auto), |n| {
        names::find(&names::INPUT_ENCODINGS, "encoding", &n).map_err(said)
    })
}

/// How to read an input: its format and encoding when not told from the
/// content, and its file name, whose extension helps tell the format.
struct How {
    format: Option<String>,
    encoding: Option<String>,
    name: Option<String>,
}

/// Every game of `bytes`, each one read, else the first game's error.
fn records(bytes: &[u8], how: How) -> Result<Vec<Record>, JsValue> {
    let (format, encoding) = (format(how.format)?, encoding(how.encoding)?);
    let name = Path::new(how.name.as_deref().unwrap_or(""));
    let read = read_bytes(bytes, name, format, encoding).map_err(|e| located(&e))?;
    match read.errors.first() {
        Some(e) => Err(located(e)),
        None => Ok(read.records),
    }
}

/// The games of `bytes` (any format and encoding unless named), as the
/// JSON of [`view::games`].
#[wasm_bindgen(js_name = readJson)]
pub fn read_json(
    bytes: &[u8],
    format: Option<String>,
    encoding: Option<String>,
    name: Option<String>,
) -> Result<String, JsValue> {
    let how = How {
        format,
        encoding,
        name,
    };
    Ok(view::games(&records(bytes, how)?).to_string())
}

/// The games of `bytes` written as `to` (a name of `--to`), rotated 180°
/// when `flip`: text targets in UTF-8 (the package hands them over as
/// strings), training data as its bytes.
#[wasm_bindgen(js_name = convertBytes)]
pub fn convert_bytes(
    bytes: &[u8],
    to: &str,
    flip: bool,
    format: Option<String>,
    encoding: Option<String>,
    name: Option<String>,
) -> Result<Vec<u8>, JsValue> {
    let target = names::find(&names::TARGETS, "format", to).map_err(said)?;
    let how = How {
        format,
        encoding,
        name,
    };
    let mut games = records(bytes, how)?;
    if flip {
        games = games.iter().map(Record::flip).collect();
    }
    let mut options = kifconv::write::Options::default();
    options.encoding = (!target.is_training()).then_some(kifconv::write::OutputEncoding::Utf8);
    kifconv::write(&games, target, &options).map_err(|e| said(e.to_string()))
}

/// Every format `convertBytes` writes: `[{"name", "help", "extension",
/// "binary"}]`.
#[wasm_bindgen(js_name = targetsJson)]
pub fn targets_json() -> String {
    let targets: Vec<Value> = names::TARGETS
        .iter()
        .map(|&(name, target, help): &(&str, Target, &str)| {
            json!({"name": name, "help": help, "extension": target.extension(), "binary": target.is_training()})
        })
        .collect();
    Value::from(targets).to_string()
}

/// A position as the tools take it (`startpos`, an SFEN, `position …
/// moves …`).
fn position(text: &str) -> Result<Position, JsValue> {
    read_position(text)
        .map(|record| record.final_position())
        .map_err(|e| located(&e))
}

/// The position rotated 180°, colours swapped, as SFEN.
#[wasm_bindgen(js_name = flipPosition)]
pub fn flip_position(text: &str) -> Result<String, JsValue> {
    Ok(position(text)?.flip().sfen())
}

/// The position and its legal moves, as the JSON of [`view::position`].
#[wasm_bindgen(js_name = legalMovesJson)]
pub fn legal_moves_json(text: &str) -> Result<String, JsValue> {
    Ok(view::position(&position(text)?).to_string())
}

/// The shortest forced mate of the side to move within `depth` plies and
/// `nodes` nodes: `{"result": "mate"|"none"|"unknown", "length", "usi",
/// "japanese", "first_moves", "unique"}` (the main line; every first move
/// that mates as quickly).
#[wasm_bindgen(js_name = mateJson)]
pub fn mate_json(text: &str, depth: u32, nodes: f64) -> Result<String, JsValue> {
    let pos = position(text)?;
    if depth == 0 {
        return Err(said("depth must be at least 1 (a mate in one is 1)"));
    }
    if pos.king(!pos.side_to_move()).is_none() {
        return Err(said("the side not to move has no king to mate"));
    }
    let limits = Limits {
        depth,
        nodes: nodes.max(1.0) as u64,
    };
    let value = match tsume::solve(&pos, limits) {
        Outcome::Mate(mate) => {
            let usi: Vec<String> = mate.line.iter().map(ToString::to_string).collect();
            let first: Vec<String> = mate.first_moves.iter().map(ToString::to_string).collect();
            json!({
                "result": "mate",
                "length": mate.len(),
                "usi": usi,
                "japanese": tsume::jsa_moves(&pos, &mate.line),
                "first_moves": first,
                "unique": mate.unique_first(),
            })
        }
        Outcome::NoMate => json!({"result": "none"}),
        Outcome::Unknown => json!({"result": "unknown"}),
    };
    Ok(value.to_string())
}
