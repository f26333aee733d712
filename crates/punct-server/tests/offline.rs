//! The page's module answers the learning routes as the server does: the
//! same request to the real binary over loopback and to `punct_wasm`'s
//! `api` op (what the page asks offline and on a static copy of the site)
//! gets the same status and the same body, for every lesson and puzzle,
//! right, wrong and illegal tries, and the refusals.

mod common;

use common::Server;
use serde_json::{json, Value};

/// The module's answer to `method path` with `body`, as the page asks it
/// (the path split and decoded, the query as an object).
fn offline(method: &str, path: &str, body: &Value) -> (u16, Value) {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let query: serde_json::Map<String, Value> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let request =
        json!({"op": "api", "method": method, "segments": segments, "query": query, "body": body});
    let answer: Value =
        serde_json::from_str(&punct_wasm::handle(&request.to_string(), &mut |_| {})).unwrap();
    (
        answer["status"].as_u64().unwrap() as u16,
        answer["body"].clone(),
    )
}

fn same(server: &Server, method: &str, path: &str, body: Value) -> Value {
    let online = match method {
        "GET" => server.get(path),
        _ => server.post(path, &body),
    };
    let here = offline(method, path, &body);
    assert_eq!(
        online.0, here.0,
        "{method} {path}: status (server {}, module {})",
        online.1, here.1
    );
    assert_eq!(online.1, here.1, "{method} {path}: the bodies differ");
    online.1
}

#[test]
fn the_module_answers_the_learning_routes_as_the_server_does() {
    let server = Server::start();
    same(&server, "GET", "/api/board", Value::Null);
    same(&server, "GET", "/api/learn/diagrams", Value::Null);

    let lessons = same(&server, "GET", "/api/learn/lessons", Value::Null);
    let lessons = lessons["lessons"].as_array().unwrap();
    assert!(lessons.len() >= 5, "{} lessons", lessons.len());
    for l in lessons {
        let id = l["id"].as_str().unwrap();
        let one = same(
            &server,
            "GET",
            &format!("/api/learn/lessons/{id}"),
            Value::Null,
        );
        let path = format!("/api/learn/lessons/{id}/try");
        // The lesson's example (right), its first legal move (often
        // wrong), a move the rules refuse and a text that is no move.
        let example = one["example"].as_str().unwrap().to_string();
        let first = one["state"]["legal_moves"][0].as_str().unwrap().to_string();
        for mv in [example, first, "pass".to_string(), "Q@Z9/9".to_string()] {
            same(&server, "POST", &path, json!({"move": mv}));
        }
    }
    same(&server, "GET", "/api/learn/lessons/no-such", Value::Null);
    same(
        &server,
        "POST",
        "/api/learn/lessons/no-such/try",
        json!({"move": "pass"}),
    );

    let list = same(&server, "GET", "/api/learn/puzzles", Value::Null);
    let mut wrong_seen = false;
    for p in list["puzzles"].as_array().unwrap() {
        let id = p["id"].as_str().unwrap();
        let full = same(
            &server,
            "GET",
            &format!("/api/learn/puzzles/{id}"),
            Value::Null,
        );
        let path = format!("/api/learn/puzzles/{id}/try");
        let solution = full["solutions"][0].as_str().unwrap().to_string();
        let answer = same(&server, "POST", &path, json!({"moves": [solution]}));
        assert_eq!(answer["correct"], true, "{id}: {answer}");
        // A legal move that is no solution.
        let legal = full["state"]["legal_moves"].as_array().unwrap();
        if let Some(other) = legal
            .iter()
            .find(|m| !full["solutions"].as_array().unwrap().contains(m))
        {
            let answer = same(&server, "POST", &path, json!({"moves": [other]}));
            wrong_seen |= answer["correct"] == false;
        }
        same(&server, "POST", &path, json!({"moves": ["pass"]}));
        same(&server, "POST", &path, json!({"moves": []}));
        same(&server, "POST", &path, json!({"moves": ["x", "y", "z"]}));
    }
    assert!(wrong_seen, "no wrong answer was judged");
    same(
        &server,
        "GET",
        "/api/learn/puzzles/daily?date=2026-11-28",
        Value::Null,
    );
    same(
        &server,
        "GET",
        "/api/learn/puzzles/daily?date=2026-02-30",
        Value::Null,
    );
    same(&server, "GET", "/api/learn/puzzles/nope", Value::Null);
}

#[test]
fn the_module_says_what_needs_the_server() {
    let (status, body) = offline("GET", "/api/games", &Value::Null);
    assert_eq!(status, 404);
    assert_eq!(body["error"]["code"], "offline", "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("/api/games"));
    let (status, body) = offline("GET", "/api/learn/puzzles/daily", &Value::Null);
    assert_eq!(status, 400, "{body}");
    let (status, body) = offline("POST", "/api/learn/lessons/first/try", &json!({}));
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_json"))
    );
}
