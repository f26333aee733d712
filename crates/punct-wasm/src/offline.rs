//! The server's answers the page can have without a server: the board's
//! drawing data and the learning routes (rules diagrams, lessons, puzzles,
//! their judges), from punct-view's `learn`, as the server gives them.
//! Anything else is a 404 naming what works here.

use punct_view::learn::{self, Refusal};
use serde_json::{json, Map, Value};

/// `{"status", "body"}` for the request in `req` (`method`, `segments`,
/// `query`, `body`). Kept as text: the lists are built once as text.
pub(crate) fn answer(req: &Map<String, Value>) -> String {
    let method = req.get("method").and_then(Value::as_str).unwrap_or("GET");
    let segments: Vec<&str> = match req.get("segments") {
        Some(Value::Array(s)) => s.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let query = |name: &str| {
        req.get("query")
            .and_then(|q| q.get(name))
            .and_then(Value::as_str)
    };
    let body = req.get("body").cloned().unwrap_or(Value::Null);
    let text = |t: &str| format!("{{\"status\":200,\"body\":{t}}}");
    let value = |r: Result<Value, Refusal>| match r {
        Ok(v) => json!({"status": 200, "body": v}).to_string(),
        Err(r) => refused(r),
    };
    match (method, segments.as_slice()) {
        ("GET", ["api", "board"]) => text(&learn::board_info().to_string()),
        ("GET", ["api", "learn", "diagrams"]) => match learn::diagrams() {
            Ok(t) => text(t),
            Err(e) => refused(Refusal::new(500, "internal", e.clone())),
        },
        ("GET", ["api", "learn", "lessons"]) => text(learn::lessons()),
        ("GET", ["api", "learn", "lessons", id]) => match learn::lesson(id) {
            Ok(t) => text(t),
            Err(r) => refused(r),
        },
        ("POST", ["api", "learn", "lessons", id, "try"]) => {
            match body.get("move").and_then(Value::as_str) {
                Some(mv) => value(learn::try_lesson(id, mv)),
                None => bad_body("`move`: a move's text"),
            }
        }
        ("GET", ["api", "learn", "puzzles"]) => text(learn::puzzle_list()),
        ("GET", ["api", "learn", "puzzles", "daily"]) => match query("date") {
            Some(date) => value(learn::daily(date)),
            None => refused(Refusal::new(400, "bad_query", "`date`: today, YYYY-MM-DD (the page's clock)")),
        },
        ("GET", ["api", "learn", "puzzles", id]) => value(learn::puzzle(id)),
        ("POST", ["api", "learn", "puzzles", id, "try"]) => {
            let moves: Option<Vec<String>> = body
                .get("moves")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(|m| m.as_str().map(String::from)).collect());
            match moves {
                Some(moves) => value(learn::try_puzzle(id, &moves)),
                None => bad_body("`moves`: an array of move texts"),
            }
        }
        _ => refused(Refusal::new(
            404,
            "offline",
            format!(
                "{method} /{} needs the server; without one the page has /api/board and /api/learn/…",
                segments.join("/")
            ),
        )),
    }
}

fn bad_body(what: &str) -> String {
    refused(Refusal::new(400, "bad_json", what))
}

/// A refusal as the server's error body.
fn refused(r: Refusal) -> String {
    json!({"status": r.status, "body": r.body()}).to_string()
}
