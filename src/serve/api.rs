//! The JSON API, a handler a route. Positions come as the tools take them
//! (`startpos`, an SFEN, `position … moves …`); records as their bytes, in
//! any format and encoding. Every error is a status with
//! `{"error": {"line", "column", "message", "text"}}`, and no request
//! names a file: books are named as the server was given them.

use super::books::Books;
use super::Options;
use crate::book::query;
use crate::format::japanese::write::marked_moves;
use crate::format::names::{self, TARGETS};
use crate::read::{read_bytes, read_position, Read};
use crate::write::OutputEncoding;
use crate::{Error, Position, Record};
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The header of /api/convert's answer that counts the warnings about
/// the record read.
static WARNINGS: header::HeaderName = header::HeaderName::from_static("kifconv-warnings");

/// What every handler shares.
struct Shared {
    books: Books,
    max_input_size: usize,
    client_timeout: Duration,
}

type Ctx = State<Arc<Shared>>;
type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The API's routes.
pub fn router(options: &Options) -> Router {
    let max_input_size = usize::try_from(options.max_input_size).unwrap_or(usize::MAX);
    let shared = Arc::new(Shared {
        books: options.books.clone(),
        max_input_size,
        client_timeout: options.client_timeout,
    });
    Router::new()
        .route("/api/books", get(books))
        .route("/api/book", get(book))
        .route("/api/moves", get(moves))
        .route("/api/formats", get(formats))
        .route("/api/record", post(record))
        .route("/api/convert", post(convert))
        .fallback(not_found)
        // The body is read by [`body`], which bounds it itself.
        .layer(DefaultBodyLimit::disable())
        .with_state(shared)
}

/// An error answer.
struct Failure(StatusCode, Value);

impl Failure {
    /// A failure with a message and no place.
    fn says(status: StatusCode, message: impl Into<String>) -> Failure {
        Failure(
            status,
            json!({"error": {"line": null, "column": null, "message": message.into(), "text": null}}),
        )
    }

    /// A record's or a position's error, with its place.
    fn located(e: &Error) -> Failure {
        let line = (e.location.line > 0).then_some(e.location.line);
        Failure(
            StatusCode::BAD_REQUEST,
            json!({"error": {
                "line": line,
                "column": line.map(|_| e.location.column),
                "message": e.to_string(),
                "text": line.map(|_| e.location.source_line.clone()),
            }}),
        )
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(self.1)).into_response()
    }
}

async fn not_found() -> Failure {
    Failure::says(StatusCode::NOT_FOUND, "no such page or API")
}

/// The query's parameters, or a 400.
fn params(params: Params) -> Result<HashMap<String, String>, Failure> {
    params
        .map(|Query(p)| p)
        .map_err(|e| Failure::says(StatusCode::BAD_REQUEST, e.body_text()))
}

/// The position the `position` parameter gives.
fn position(params: &HashMap<String, String>) -> Result<Position, Failure> {
    let text = params.get("position").ok_or_else(|| {
        Failure::says(
            StatusCode::BAD_REQUEST,
            "no `position`: give `startpos`, an SFEN or `position … moves …`",
        )
    })?;
    read_position(text)
        .map(|record| record.final_position())
        .map_err(|e| Failure::located(&e))
}

/// `GET /api/books`: the books' names and formats, the default first.
async fn books(State(shared): Ctx) -> Json<Value> {
    let books: Vec<Value> = shared
        .books
        .iter()
        .map(|b| json!({"name": b.name, "format": b.format.name()}))
        .collect();
    Json(json!({ "books": books }))
}

/// `GET /api/book?position=…&book=…`: a book's moves for the position (see
/// [`query::to_json`]), with the book's name.
async fn book(State(shared): Ctx, query: Params) -> Result<Json<Value>, Failure> {
    let params = params(query)?;
    let pos = position(&params)?;
    let name = params.get("book").map(String::as_str);
    let book = shared.books.get(name).cloned().ok_or_else(|| {
        let message = match name {
            Some(name) => format!("no book is named `{name}`"),
            None => "no book is served".to_string(),
        };
        Failure::says(StatusCode::NOT_FOUND, message)
    })?;
    // A search reads the file: off the threads that serve connections.
    let found = tokio::task::spawn_blocking(move || {
        let answer = book.lookup(&pos);
        (book, pos, answer)
    })
    .await;
    let (book, pos, answer) =
        found.map_err(|e| Failure::says(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let answer = answer.map_err(|e| {
        Failure::says(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("book `{}`: {e}", book.name),
        )
    })?;
    let mut value = query::to_json(&pos, answer.as_ref());
    value["book"] = json!(book.name);
    Ok(Json(value))
}

/// A move in `pos` as the page shows it: USI, Japanese, the SFEN after.
fn move_json(pos: &Position, mv: crate::Move) -> Value {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    json!({"usi": mv.to_string(), "japanese": marked_moves(pos, &[mv]), "sfen_after": after.sfen()})
}

/// `GET /api/moves?position=…`: every legal move, with its notation and
/// the position after it.
async fn moves(query: Params) -> Result<Json<Value>, Failure> {
    let pos = position(&params(query)?)?;
    let moves: Vec<Value> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| move_json(&pos, mv))
        .collect();
    Ok(Json(json!({
        "sfen": pos.sfen(),
        "turn": if pos.side_to_move() == crate::Color::Black { "b" } else { "w" },
        "move_number": pos.move_number(),
        "check": pos.is_check(),
        "moves": moves,
    })))
}

/// `GET /api/formats`: every format a record converts to.
async fn formats() -> Json<Value> {
    let targets: Vec<Value> = TARGETS
        .iter()
        .map(|&(name, target, help)| {
            json!({"name": name, "help": help, "extension": target.extension()})
        })
        .collect();
    Json(json!({ "targets": targets }))
}

/// The request's body, whole, within the size and time limits.
async fn body(shared: &Shared, body: Body) -> Result<Bytes, Failure> {
    let limit = shared.max_input_size;
    match tokio::time::timeout(shared.client_timeout, axum::body::to_bytes(body, limit)).await {
        Err(_) => Err(Failure::says(
            StatusCode::REQUEST_TIMEOUT,
            "the request's body came too slowly",
        )),
        Ok(Err(_)) => Err(Failure::says(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {limit} bytes (--max-input-size), or was cut off"),
        )),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// The games of a body, every one read; the first game's error otherwise.
fn games(bytes: &[u8]) -> Result<Vec<Record>, Failure> {
    let read: Read = read_bytes(bytes, Path::new(""), None, Default::default())
        .map_err(|e| Failure::located(&e))?;
    match read.errors.first() {
        Some(e) => Err(Failure::located(e)),
        None => Ok(read.records),
    }
}

/// `POST /api/record`: a record's mainline, move by move, for the page to
/// step through, with the warnings about it.
async fn record(State(shared): Ctx, request: Body) -> Result<Json<Value>, Failure> {
    let bytes = body(&shared, request).await?;
    let records = tokio::task::spawn_blocking(move || games(&bytes))
        .await
        .map_err(|e| Failure::says(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let mut warnings = Vec::new();
    let games: Vec<Value> = records
        .iter()
        .map(|record| {
            warnings.extend(record.warnings.iter().map(|w| {
                json!({"line": w.line, "column": w.column, "message": w.message, "text": w.text})
            }));
            game_json(record)
        })
        .collect();
    Ok(Json(json!({"games": games, "warnings": warnings})))
}

/// One game: its start, headers, mainline with comments, and ending.
fn game_json(record: &Record) -> Value {
    let mut pos = record.start.clone();
    let mut moves = Vec::new();
    for id in record.tree.mainline() {
        let node = record.tree.node(id);
        let Some(mv) = node.mv else { continue };
        let mut value = move_json(&pos, mv);
        let comment = (!node.comments.is_empty()).then(|| node.comments.join("\n"));
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

/// `POST /api/convert?to=FORMAT`: the body's games written as FORMAT, as
/// the command writes them.
async fn convert(State(shared): Ctx, query: Params, request: Body) -> Result<Response, Failure> {
    let params = params(query)?;
    let to = params.get("to").map_or("", String::as_str);
    let target = names::find(&TARGETS, "format", to)
        .map_err(|e| Failure::says(StatusCode::BAD_REQUEST, e))?;
    let bytes = body(&shared, request).await?;
    let (written, warnings) = tokio::task::spawn_blocking(move || {
        let records = games(&bytes)?;
        let warnings: usize = records.iter().map(|r| r.warnings.len()).sum();
        crate::write::write_read(&records, target, &Default::default())
            .map(|written| (written, warnings))
            .map_err(|e| Failure::says(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))
    })
    .await
    .map_err(|e| Failure::says(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let media = if target.is_training() {
        "application/octet-stream"
    } else if target == crate::Target::Jkf {
        "application/json"
    } else {
        match target.encoding() {
            OutputEncoding::ShiftJis => "text/plain; charset=Shift_JIS",
            OutputEncoding::Utf8 => "text/plain; charset=utf-8",
        }
    };
    // What was read leniently is counted here; /api/record lists it.
    let headers = [
        (header::CONTENT_TYPE, media.to_string()),
        (WARNINGS.clone(), warnings.to_string()),
    ];
    Ok((headers, written).into_response())
}
