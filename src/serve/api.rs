//! The JSON API, a handler a route. Positions come as the tools take them
//! (`startpos`, an SFEN, `position … moves …`); records as their bytes, in
//! any format and encoding. Every error is a status with
//! `{"error": {"line", "column", "message", "text"}}`, and no request
//! names a file: books are named as the server was given them.

use super::books::Books;
use super::page;
use super::Options;
use crate::book::query;
use crate::format::names::{self, TARGETS};
use crate::read::{read_bytes, read_position, Read};
use crate::write::OutputEncoding;
use crate::{view, Error, Position, Record};
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
        .route("/", get(index))
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
        Failure(StatusCode::BAD_REQUEST, json!({ "error": view::error(e) }))
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
    Json(books_json(&shared.books))
}

/// The answer of `/api/books`.
fn books_json(books: &Books) -> Value {
    let books: Vec<Value> = books
        .iter()
        .map(|b| json!({"name": b.name, "format": b.format.name()}))
        .collect();
    json!({ "books": books })
}

/// `GET /api/book?position=…&book=…`: a book's moves for the position (see
/// [`query::to_json`]), with the book's name.
async fn book(State(shared): Ctx, query: Params) -> Result<Json<Value>, Failure> {
    let params = params(query)?;
    let pos = position(&params)?;
    let name = params.get("book").map(String::as_str);
    book_json(&shared.books, name, pos).await.map(Json)
}

/// The answer of `/api/book` for the book `name` (the first when `None`).
async fn book_json(books: &Books, name: Option<&str>, pos: Position) -> Result<Value, Failure> {
    let book = books.get(name).cloned().ok_or_else(|| {
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
    Ok(value)
}

/// `GET /api/moves?position=…`: every legal move, with its notation and
/// the position after it.
async fn moves(query: Params) -> Result<Json<Value>, Failure> {
    let pos = position(&params(query)?)?;
    Ok(Json(view::position(&pos)))
}

/// `GET /api/formats`: every format a record converts to.
async fn formats() -> Json<Value> {
    Json(formats_json())
}

/// The answer of `/api/formats`.
fn formats_json() -> Value {
    let targets: Vec<Value> = TARGETS
        .iter()
        .map(|&(name, target, help)| {
            json!({"name": name, "help": help, "extension": target.extension()})
        })
        .collect();
    json!({ "targets": targets })
}

/// `GET /`: the page, with the answers of its first view in it (see
/// [`page::index`]): the books, the formats, and the start position's
/// moves and first book's moves, as the API answers them.
async fn index(State(shared): Ctx) -> Response {
    let start = Position::startpos();
    let sfen = start.sfen();
    let mut answers = vec![
        json!({"path": "/api/books", "params": {}, "body": books_json(&shared.books)}),
        json!({"path": "/api/formats", "params": {}, "body": formats_json()}),
        json!({"path": "/api/moves", "params": {"position": sfen}, "body": view::position(&start)}),
    ];
    if let Some(first) = shared.books.get(None) {
        let name = first.name.clone();
        // A book that cannot answer leaves the page to ask, and to show
        // the error the API gives.
        if let Ok(body) = book_json(&shared.books, Some(&name), start).await {
            let params = json!({"position": sfen, "book": name});
            answers.push(json!({"path": "/api/book", "params": params, "body": body}));
        }
    }
    page::index(&Value::from(answers))
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
    Ok(Json(view::games(&records)))
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
