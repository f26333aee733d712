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
        "lists.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/lists.js"),
    ),
    (
        "endgame.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/endgame.js"),
    ),
    (
        "clock.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/clock.js"),
    ),
    (
        "players.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/players.js"),
    ),
    (
        "layout.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/layout.js"),
    ),
    (
        "playerbar.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/playerbar.js"),
    ),
    (
        "stack.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/stack.js"),
    ),
    (
        "key.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/key.js"),
    ),
    (
        "sound.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/sound.js"),
    ),
    (
        "toast.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/toast.js"),
    ),
    (
        "central.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/central.js"),
    ),
    (
        "touch.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/touch.js"),
    ),
    (
        "anim.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/anim.js"),
    ),
    (
        "notify.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/notify.js"),
    ),
    (
        "moves.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../web/moves.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../web/favicon.svg"),
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
