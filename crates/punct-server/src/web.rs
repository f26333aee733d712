//! The web page's files, built into the binary so the server needs nothing
//! else at run time.

/// What the page may load and run: its own files only (no inline script
/// or style, no frames), so injected markup can do nothing. Sent with
/// every answer (security.rs).
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// (path under `/static/`, content type, content)
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../web/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/api.js"),
    ),
    (
        "dom.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/dom.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/board.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/game.js"),
    ),
    (
        "analysis.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/analysis.js"),
    ),
    (
        "start.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/start.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../web/style.css"),
    ),
];

/// The file at `name` (below `/static/`) with its content type.
pub fn file(name: &str) -> Option<(&'static str, &'static [u8])> {
    FILES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, t, b)| (t, b))
}

/// The page every game link opens.
pub fn index() -> &'static [u8] {
    file("index.html").expect("index.html is built in").1
}
