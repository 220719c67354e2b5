//! The page's files, embedded in the binary: nothing is read from disk or
//! fetched from elsewhere when the page is served. The page itself
//! ([`index`]) carries the answers of its first view, so that it is whole
//! as soon as it has loaded.

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The page, before the answers of its first view go into it.
const INDEX: &str = include_str!("page/index.html");

/// Where they go: the end of the page's head.
const HEAD_END: &str = "</head>";

/// The page's other files: path, media type, contents.
const FILES: [(&str, &str, &str); 2] = [
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

/// The page with `answers` (a list of `{"path", "params", "body"}`, each an
/// API request and its answer) in a script element the page reads first.
pub fn index(answers: &serde_json::Value) -> Response {
    // JSON in a script element: `</` would end it, so it is escaped
    // (`<\/` means `</` in a JSON string).
    let json = answers.to_string().replace("</", "<\\/");
    let script = format!("<script id=\"preloaded\" type=\"application/json\">{json}</script>\n");
    let html = INDEX.replacen(HEAD_END, &format!("{script}{HEAD_END}"), 1);
    ([(header::CACHE_CONTROL, "no-cache")], Html(html)).into_response()
}

/// The routes of the page's other files.
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_has_a_head_for_the_answers() {
        assert_eq!(super::INDEX.matches(super::HEAD_END).count(), 1);
    }
}
