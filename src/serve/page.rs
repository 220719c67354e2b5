//! The page's files, embedded in the binary: nothing is read from disk or
//! fetched from elsewhere when the page is served.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The page's files: path, media type, contents.
const FILES: [(&str, &str, &str); 3] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
];

/// The routes of the page's files.
pub fn router() -> Router {
    let mut router = Router::new();
    for (path, media, body) in FILES {
        router = router.route(
            path,
            get(move || async move {
                (
                    [
                        (header::CONTENT_TYPE, media),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    body,
                )
                    .into_response()
            }),
        );
    }
    router
}
