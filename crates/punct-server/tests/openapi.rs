//! The API's description, `GET /api/openapi.json`, from the real binary:
//! served as JSON with the security headers and the read bucket's limit,
//! and the answers the fuzzer (scripts/fuzz-api.sh) found at odds with it
//! or with itself, each kept as a regression test.

mod common;

use common::Server;
use serde_json::Value;

#[test]
fn the_description_is_served_as_json_with_the_security_headers_and_a_read_limit() {
    let s = Server::builder().flags(&["--rate-read", "2/min"]).start();
    let (status, headers, text) = s.get_text("/api/openapi.json");
    assert_eq!(status, 200, "{text}");
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"),
        "{headers:?}"
    );
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(doc["paths"]["/api/games/{id}/moves"]["post"].is_object());
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers.contains_key("content-security-policy"));

    // A read: the second is the bucket's last, the third is refused.
    assert_eq!(s.get("/api/openapi.json").0, 200);
    let (status, headers, text) = s.get_text("/api/openapi.json");
    assert_eq!(status, 429, "{text}");
    assert!(headers.contains_key("retry-after"), "{headers:?}");
    assert_eq!(common::to_json(&text)["error"]["code"], "rate_limited");
}

/// The start of a long answer, for a failure's message.
fn short(text: &str) -> String {
    text.chars().take(300).collect()
}

/// A body must be the JSON object asked for (docs/API.md): an array in
/// the order of the fields was taken as that object (found by the fuzzer:
/// `[null, null]` analysed the start position, and a game could be made
/// from a list of values).
#[test]
fn a_request_body_that_is_not_an_object_is_refused() {
    let s = Server::start();
    for (path, body) in [
        ("/api/analyse", "[null, null]"),
        ("/api/analyse", "[]"),
        ("/api/learn/lessons/add/try", r#"["T@A5/3"]"#),
        ("/api/learn/puzzles/one-01/try", r#"[["D7-G7/3"]]"#),
        ("/api/games", r#"[null, "hotseat", null, null, null, null]"#),
        ("/api/games/import", r#"["[Variant \"standard\"]\n\n*\n"]"#),
    ] {
        let (status, _, text) = s.post_raw(path, Some("application/json"), body);
        let answer = common::to_json(&text);
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (400, Some("bad_json")),
            "POST {path} {body}: {}",
            short(&text)
        );
    }
    // The object itself is still taken.
    let (status, _, text) = s.post_raw(
        "/api/learn/lessons/add/try",
        Some("application/json"),
        r#"{"move": "T@A5/3"}"#,
    );
    assert_eq!(status, 200, "{text}");
}

/// Unknown fields and query parameters are refused (docs/API.md), the
/// puzzles' included (found by the fuzzer: a try with an unknown field
/// was judged, and the puzzle of the day took any parameter).
#[test]
fn unknown_fields_and_parameters_are_refused_by_the_puzzles_too() {
    let s = Server::start();
    let (status, _, text) = s.post_raw(
        "/api/learn/puzzles/one-01/try",
        Some("application/json"),
        r#"{"moves": ["D7-G7/3"], "hint": true}"#,
    );
    assert_eq!(status, 400, "{}", short(&text));
    assert_eq!(common::to_json(&text)["error"]["code"], "bad_json");
    let (status, body) = s.get("/api/learn/puzzles/daily?day=2024-01-01");
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "bad_query");
    assert_eq!(s.get("/api/learn/puzzles/daily?date=2024-01-01").0, 200);
}
