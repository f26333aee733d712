//! The calls natively: what each op answers and refuses. The same code
//! compiled to WebAssembly is compared with the native crates by
//! `e2e/tests/wasm.test.mjs`.

use super::handle;
use serde_json::{json, Value};

fn call(request: Value) -> Value {
    serde_json::from_str(&handle(&request.to_string(), &mut |_| {})).unwrap()
}

#[test]
fn a_view_is_the_servers_board_with_the_moves_grouped() {
    let v = call(json!({"op": "view", "moves": ["E@C5/2"]}));
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["pieces"][0]["punct"], "C5");
    assert_eq!(v["outcome"], "ongoing");
    let listed: u64 = v["legal_compact"]
        .as_object()
        .unwrap()
        .values()
        .map(|g| g.as_str().unwrap().split(' ').count() as u64)
        .sum();
    assert_eq!(listed, v["legal_count"].as_u64().unwrap());
    let same = call(json!({"op": "view", "position": v["position"]}));
    assert_eq!(
        same, v,
        "a position string gives the same view as its moves"
    );
}

#[test]
fn a_move_is_checked_with_the_servers_reason() {
    let ok = call(json!({"op": "check", "move": "e@c5/2"}));
    assert_eq!(ok, json!({"legal": true, "move": "E@C5/2"}));
    let no = call(json!({"op": "check", "moves": ["E@C5/2"], "move": "T@C5/0"}));
    assert_eq!(no["legal"], false);
    assert_eq!(no["reason"], "add_on_occupied");
    assert_eq!(no["params"]["cell"], "C5");
    let centre = call(json!({"op": "check", "move": "T@I9/0"}));
    assert_eq!(centre["reason"], "add_in_centre");
}

#[test]
fn play_answers_the_next_view_and_refuses_an_illegal_move() {
    let v = call(json!({"op": "play", "move": "E@C5/2"}));
    assert_eq!(v["move"], "E@C5/2");
    assert_eq!(v["to_move"], "black");
    let no = call(json!({"op": "play", "moves": ["E@C5/2"], "move": "E@C5/2"}));
    assert_eq!(no["error"], "illegal_move");
    assert_eq!(no["index"], 1);
    let bad = call(json!({"op": "view", "moves": ["E@C5/2", "nonsense"]}));
    assert_eq!(bad["error"], "bad_move");
    assert_eq!(bad["index"], 1);
}

#[test]
fn bad_requests_are_named() {
    let text = |r: &str| -> Value { serde_json::from_str(&handle(r, &mut |_| {})).unwrap() };
    assert_eq!(text("[1]")["error"], "bad_request");
    assert_eq!(text("{")["error"], "bad_request");
    assert_eq!(call(json!({"op": "fly"}))["error"], "bad_request");
    assert_eq!(call(json!({}))["error"], "bad_request");
    let pos = call(json!({"op": "view", "position": "standard:w:0:zz"}));
    assert_eq!(pos["error"], "bad_position");
    let variant = call(json!({"op": "view", "variant": "giant"}));
    assert!(variant["message"].as_str().unwrap().contains("giant"));
    let level = call(json!({"op": "ai", "level": 9}));
    assert!(level["message"].as_str().unwrap().starts_with("level"));
    let time = call(json!({"op": "ai", "level": 1, "movetime": 0}));
    assert!(time["message"].as_str().unwrap().starts_with("movetime"));
}

#[test]
fn the_ai_answers_a_legal_move_and_reports_its_depths() {
    let mut reports = Vec::new();
    let answer = handle(
        &json!({"op": "ai", "level": 4, "depth": 2, "moves": ["E@C5/2"]}).to_string(),
        &mut |i| reports.push(i.to_string()),
    );
    let v: Value = serde_json::from_str(&answer).unwrap();
    let mv = v["move"].as_str().unwrap();
    let check = call(json!({"op": "check", "moves": ["E@C5/2"], "move": mv}));
    assert_eq!(check["legal"], true, "{v}");
    assert!(!reports.is_empty());
    let first: Value = serde_json::from_str(&reports[0]).unwrap();
    assert!(first["info"]["depth"].as_u64().is_some());
}

#[test]
fn an_analysis_has_lines_and_the_solvers_verdicts() {
    let v = call(json!({"op": "analyse", "movetime": 300, "moves": ["E@C5/2"]}));
    assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    assert!(v["solver"].is_object() && v["threat"].is_object(), "{v}");
}

#[test]
fn a_status_is_the_views_without_the_board() {
    let request = json!({"moves": ["E@C5/2", "T@O12/0"]});
    let mut view_req = request.clone();
    view_req["op"] = json!("view");
    let mut status_req = request;
    status_req["op"] = json!("status");
    let (v, s) = (call(view_req), call(status_req));
    for key in ["position", "outcome", "to_move", "central", "legal_count"] {
        assert_eq!(s[key], v[key], "{key}");
    }
    assert!(s.get("pieces").is_none());
}

#[test]
fn the_editor_places_and_removes_pieces_as_the_rules_allow() {
    let empty = call(json!({"op": "view"}))["position"].clone();
    let one = call(
        json!({"op": "place", "position": empty, "side": "black", "kind": "E",
        "cell": "I9", "rotation": 0}),
    );
    assert_eq!(one["pieces"][0]["side"], "black", "{one}");
    assert_eq!(one["pieces"][0]["level"], 0);
    // A second piece over it rests one level up where its cells are even.
    let two = call(
        json!({"op": "place", "position": one["position"], "side": "black",
        "kind": "E", "cell": "I9", "rotation": 0}),
    );
    assert_eq!(two["pieces"].as_array().unwrap().len(), 2, "{two}");
    assert!(two["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["level"] == 1));
    // White's PÜNCT may not rest on Black's colour.
    let no = call(
        json!({"op": "place", "position": one["position"], "side": "white",
        "kind": "E", "cell": "I9", "rotation": 0}),
    );
    assert_eq!(no["error"], "bad_position", "{no}");
    // Off the board, and a made-up kind.
    let off = (0..6)
        .map(|r| {
            call(
                json!({"op": "place", "position": empty, "side": "white", "kind": "E",
            "cell": "A2", "rotation": r}),
            )
        })
        .find(|a| a.get("error").is_some())
        .expect("a rotation of E on the corner A2 leaves the board");
    assert!(
        off["message"]
            .as_str()
            .unwrap()
            .contains("leaves the board"),
        "{off}"
    );
    let kind = call(
        json!({"op": "place", "position": empty, "side": "white", "kind": "Q",
        "cell": "I9"}),
    );
    assert!(kind["message"].as_str().unwrap().contains("`Q`"), "{kind}");
    // Removing the top piece, then the one under it.
    let back = call(json!({"op": "remove", "position": two["position"], "cell": "I9"}));
    assert_eq!(back["position"], one["position"], "{back}");
    let none = call(json!({"op": "remove", "position": back["position"], "cell": "I9"}));
    assert_eq!(none["position"], empty);
    let nothing = call(json!({"op": "remove", "position": empty, "cell": "I9"}));
    assert_eq!(nothing["error"], "bad_position");
}

#[test]
fn the_editor_says_why_a_piece_cannot_lie_there() {
    let empty = call(json!({"op": "view"}))["position"].clone();
    let one = call(
        json!({"op": "place", "position": empty, "side": "black", "kind": "E",
        "cell": "I9", "rotation": 0}),
    );
    let no = call(
        json!({"op": "place", "position": one["position"], "side": "white",
        "kind": "E", "cell": "I9", "rotation": 0}),
    );
    assert_eq!(no["reason"], "punct_on_opponent", "{no}");
    assert_eq!(no["params"]["cell"], "I9");
    let mut pos = empty.clone();
    for cell in ["B3", "D3", "F3", "H3", "J4", "L5"] {
        pos = call(
            json!({"op": "place", "position": pos, "side": "white", "kind": "T",
            "cell": cell, "rotation": 0}),
        )["position"]
            .clone();
    }
    let seventh = call(
        json!({"op": "place", "position": pos, "side": "white", "kind": "T",
        "cell": "N7", "rotation": 0}),
    );
    assert_eq!(seventh["reason"], "none_in_reserve", "{seventh}");
}

#[test]
fn records_are_read_and_written() {
    let written = call(json!({"op": "record_write", "moves": ["E@C5/2", "T@O12/0"]}));
    let text = written["record"].as_str().expect("a record");
    assert!(text.contains("E@C5/2"), "{text}");
    let read = call(json!({"op": "record_read", "record": text}));
    assert_eq!(read["moves"], json!(["E@C5/2", "T@O12/0"]));
    assert_eq!(read["start"], "standard:w:0:-");
    let from = call(json!({"op": "view", "moves": ["E@C5/2"]}))["position"].clone();
    let written = call(json!({"op": "record_write", "position": from, "moves": ["T@O12/0"]}));
    let read = call(json!({"op": "record_read", "record": written["record"]}));
    assert_eq!(read["start"], from, "{written}");
    let bad = call(json!({"op": "record_read", "record": "1. Q@Z9/9"}));
    assert_eq!(bad["error"], "bad_record", "{bad}");
}

#[test]
fn perft_counts_as_the_rules_crate_does() {
    let v = call(json!({"op": "perft", "depth": 2}));
    let mut pos = punct_core::Position::new(punct_core::Variant::Standard);
    assert_eq!(v["nodes"].as_u64(), Some(pos.perft(2)), "{v}");
}
