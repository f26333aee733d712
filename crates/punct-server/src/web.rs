//! The web page's files, built into the binary so the server needs nothing
//! else at run time.

/// What the page may load and run: its own files only (no inline script
/// or style, no frames), so injected markup can do nothing. Sent with
/// every answer (security.rs).
/// `'wasm-unsafe-eval'` lets the page's worker compile its own
/// WebAssembly (punct.wasm, served from here like the scripts); it allows
/// no JavaScript `eval`.
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
     script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// (path under `/static/`, content type, content)
macro_rules! files {
    ($($name:literal: $kind:expr),* $(,)?) => {
        &[$(($name, $kind, include_bytes!(concat!("../../../web/", $name)))),*]
    };
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";
const JSON: &str = "application/json; charset=utf-8";

const FILES: &[(&str, &str, &[u8])] = files! {
    "index.html": HTML,
    "app.js": JS,
    "api.js": JS,
    "dom.js": JS,
    "board.js": JS,
    "game.js": JS,
    "gameview.js": JS,
    "analysis.js": JS,
    "start.js": JS,
    "lists.js": JS,
    "lobby.js": JS,
    "lobbyview.js": JS,
    "endgame.js": JS,
    "clock.js": JS,
    "players.js": JS,
    "layout.js": JS,
    "playerbar.js": JS,
    "stack.js": JS,
    "key.js": JS,
    "sound.js": JS,
    "toast.js": JS,
    "central.js": JS,
    "touch.js": JS,
    "anim.js": JS,
    "notify.js": JS,
    "moves.js": JS,
    "chooser.js": JS,
    "i18n.js": JS,
    "nav.js": JS,
    "rules.js": JS,
    "tutorial.js": JS,
    "picker.js": JS,
    "puzzles.js": JS,
    "learnview.js": JS,
    "kbd.js": JS,
    "announce.js": JS,
    "session.js": JS,
    "forms.js": JS,
    "signin.js": JS,
    "account.js": JS,
    "passkeys.js": JS,
    "webauthn.js": JS,
    "tokens.js": JS,
    "chat.js": JS,
    "profile.js": JS,
    "ratingchart.js": JS,
    "ratings.js": JS,
    "leaderboard.js": JS,
    "turns.js": JS,
    "notes.js": JS,
    "bell.js": JS,
    "tabcount.js": JS,
    "tabs.js": JS,
    "engine.js": JS,
    "engine-worker.js": JS,
    "analysisboard.js": JS,
    "editor.js": JS,
    "pwa.js": JS,
    "localgame.js": JS,
    "notfound.js": JS,
    "manifest.webmanifest": "application/manifest+json",
    "style.css": CSS,
    "favicon.svg": SVG,
    // The message catalogues, one per language (i18n.js).
    "i18n/en.json": JSON,
    "i18n/de.json": JSON,
    "i18n/ja.json": JSON,
    "i18n/sk.json": JSON,
};

/// The rules, the AI and the analysis as WebAssembly (crates/punct-wasm,
/// built by build.rs), which the page runs in a Web Worker (engine.js).
/// Empty when built with `PUNCT_NO_WASM=1`: the page then asks the server.
const WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/punct.wasm"));

/// The file at `name` (below `/static/`) with its content type.
pub fn file(name: &str) -> Option<(&'static str, &'static [u8])> {
    if name == "punct.wasm" {
        return (!WASM.is_empty()).then_some(("application/wasm", WASM));
    }
    FILES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, t, b)| (t, b))
}

/// The file at `name` read from `PUNCT_WEB_DIR` (a checkout's `web/`)
/// instead of the built-in copy, when that is set: for working on the page
/// without rebuilding the server. Only the names of built-in files are
/// read, so nothing else of the directory is served.
pub fn from_dir(name: &str) -> Option<(&'static str, Vec<u8>)> {
    static DIR: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let dir = DIR
        .get_or_init(|| std::env::var_os("PUNCT_WEB_DIR").map(Into::into))
        .as_ref()?;
    let (content_type, _) = file(name)?;
    if name == "punct.wasm" {
        return None;
    }
    std::fs::read(dir.join(name))
        .ok()
        .map(|b| (content_type, b))
}

/// This release's version: a digest of every file the page is made of
/// (the built-in ones, or `PUNCT_WEB_DIR`'s as they are now), the
/// WebAssembly and the service worker's script. The page's files are also
/// served under `/static/v-<release>/…`, named in the page it serves, and
/// those never change: browsers keep them for good (`immutable`).
pub fn release() -> String {
    static RELEASE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    made_once(&RELEASE, || {
        let mut all = Vec::new();
        for (name, _, bytes) in FILES {
            match from_dir(name) {
                Some((_, b)) => all.extend_from_slice(&b),
                None => all.extend_from_slice(bytes),
            }
        }
        all.extend_from_slice(WASM);
        all.extend_from_slice(worker_template().as_bytes());
        entity_tag(&all).trim_matches('"').to_string()
    })
}

/// `make()`'s answer, made once for the server's life; made afresh each
/// time while `PUNCT_WEB_DIR` serves the page from disk, so that an edit
/// shows at once.
fn made_once<T: Clone>(cell: &'static std::sync::OnceLock<T>, make: impl FnOnce() -> T) -> T {
    if std::env::var_os("PUNCT_WEB_DIR").is_some() {
        return make();
    }
    cell.get_or_init(make).clone()
}

/// The prefix of this release's never-changing file names.
pub fn versioned_prefix() -> String {
    format!("/static/v-{}/", release())
}

/// The page as served: its files named under this release's prefix, and
/// every module the page imports announced at once (`modulepreload`), so
/// the browser fetches them side by side instead of import by import.
pub fn page() -> Vec<u8> {
    static PAGE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    made_once(&PAGE, make_page)
}

fn make_page() -> Vec<u8> {
    let (_, bytes) = from_dir("index.html")
        .map(|(t, b)| (t, std::borrow::Cow::Owned(b)))
        .unwrap_or(("", std::borrow::Cow::Borrowed(FILES[0].2)));
    let prefix = versioned_prefix();
    let preload: String = FILES
        .iter()
        // The worker's script is a worker's, not the page's.
        .filter(|(name, kind, _)| *kind == JS && *name != "engine-worker.js" && *name != "app.js")
        .map(|(name, _, _)| format!("<link rel=\"modulepreload\" href=\"{prefix}{name}\">\n"))
        .collect();
    String::from_utf8_lossy(&bytes)
        .replace("\"/static/", &format!("\"{prefix}"))
        .replacen("</head>", &format!("{preload}</head>"), 1)
        .into_bytes()
}

/// A name under `/static/` without its release prefix, and whether it had
/// this release's (an older one's: a page loaded before a new release,
/// answered with this release's file but not kept for good).
pub fn unversioned(name: &str) -> (&str, bool) {
    match name
        .strip_prefix("v-")
        .and_then(|rest| rest.split_once('/'))
    {
        Some((version, file)) => (file, version == release()),
        None => (name, false),
    }
}

fn worker_template() -> String {
    match std::env::var_os("PUNCT_WEB_DIR") {
        Some(dir) => {
            std::fs::read_to_string(std::path::Path::new(&dir).join("sw.js")).unwrap_or_default()
        }
        None => include_str!("../../../web/sw.js").to_string(),
    }
}

/// The service worker (web/sw.js) as served at `/sw.js`: with this
/// release's version and the list of the page's files (`prefix` and each
/// name: the versioned names the served page asks for, or plain `/static/`
/// on a static copy of the site) written in, so a new release is a new
/// worker that fetches its own files.
pub fn service_worker_for(prefix: &str) -> String {
    let mut files: Vec<String> = vec!["/".to_string()];
    for (name, _, _) in FILES.iter().skip(1) {
        files.push(format!("{prefix}{name}"));
    }
    if !WASM.is_empty() {
        files.push(format!("{prefix}punct.wasm"));
    }
    let list = serde_json::to_string(&files).expect("names serialise");
    worker_template()
        .replace("\"__VERSION__\"", &format!("\"{}\"", release()))
        .replace("__FILES__", &list)
}

/// The served site's service worker.
pub fn service_worker() -> String {
    static WORKER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    made_once(&WORKER, || service_worker_for(&versioned_prefix()))
}

/// The site as static files (`punct site --out DIR`, docs/SITE.md): every
/// path a static host serves, with its bytes. The page is marked
/// `data-site="static"` (api.js): it then asks nothing of a server and
/// plays, judges and analyses with its own module. Each of the page's
/// addresses a static host must find gets its copy of the page (a lesson,
/// a puzzle); a game there is `/game/?id=…`. Refused when built without
/// the module (`PUNCT_NO_WASM=1`): such a site could do nothing.
pub fn static_site() -> Result<Vec<(String, Vec<u8>)>, String> {
    if WASM.is_empty() {
        return Err(
            "this punct was built without the page's WebAssembly (PUNCT_NO_WASM=1), \
             which a site without a server needs: build it without that setting"
                .to_string(),
        );
    }
    let page = std::str::from_utf8(FILES[0].2).map_err(|e| e.to_string())?;
    debug_assert_eq!(FILES[0].0, "index.html");
    let marked = r#"<html lang="en" data-site="static">"#;
    if !page.contains(r#"<html lang="en">"#) {
        return Err("index.html has no `<html lang=\"en\">` to mark".to_string());
    }
    let page = page.replacen(r#"<html lang="en">"#, marked, 1).into_bytes();
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut dirs: Vec<String> = [
        "",
        "rules/",
        "learn/",
        "puzzles/",
        "analysis/",
        "editor/",
        "game/",
    ]
    .iter()
    .map(|d| d.to_string())
    .collect();
    dirs.extend(
        punct_learn::tutorial::LESSONS
            .iter()
            .map(|l| format!("learn/{}/", l.id)),
    );
    dirs.extend(
        punct_learn::puzzles::puzzles()
            .iter()
            .map(|p| format!("puzzles/{}/", p.id)),
    );
    for dir in dirs {
        out.push((format!("{dir}index.html"), page.clone()));
    }
    for (name, _, bytes) in FILES.iter().skip(1) {
        out.push((format!("static/{name}"), bytes.to_vec()));
    }
    out.push(("static/punct.wasm".to_string(), WASM.to_vec()));
    out.push((
        "sw.js".to_string(),
        service_worker_for("/static/").into_bytes(),
    ));
    Ok(out)
}

/// An entity tag of a file's bytes (for `ETag` and `If-None-Match`):
/// the same bytes, the same tag, in every instance of one release.
pub fn entity_tag(bytes: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    // Fixed keys: stable for a given Rust release, which is all a tag
    // needs (a build with another may re-tag, costing one download).
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    format!("\"{:016x}-{:x}\"", hasher.finish(), bytes.len())
}

#[cfg(test)]
mod tests {
    /// Every block of the style sheet is closed where it should be: a
    /// brace left open (a merge once dropped one) puts every later rule
    /// inside a media query that normally does not apply, silently.
    #[test]
    fn the_style_sheets_blocks_are_balanced() {
        let mut depth: i32 = 0;
        let mut line = 1;
        let css = super::FILES
            .iter()
            .find(|(name, _, _)| *name == "style.css")
            .map(|(_, _, bytes)| std::str::from_utf8(bytes).expect("UTF-8"))
            .expect("style.css is embedded");
        let mut chars = css.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\n' => line += 1,
                '/' if chars.peek() == Some(&'*') => {
                    // A comment, to its end.
                    let mut last = ' ';
                    for c in chars.by_ref() {
                        if c == '\n' {
                            line += 1;
                        }
                        if last == '*' && c == '/' {
                            break;
                        }
                        last = c;
                    }
                }
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0, "style.css line {line}: a `}}` closes nothing");
            assert!(
                depth <= 2,
                "style.css line {line}: a block three deep (an unclosed one above?)"
            );
        }
        assert_eq!(depth, 0, "style.css: {depth} block(s) never closed");
    }
}
