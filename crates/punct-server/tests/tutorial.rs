//! The tutorial's API (`/api/learn/lessons`, docs/API.md) against the
//! rules crate: every lesson is a legal, ongoing position with White to
//! move, its state is that position's, its example is judged right and
//! the state after it is the position after it; wrong and illegal tries
//! get the judge's message codes; bad requests get clear errors. The
//! judge's own tests (every right move accepted, the messages of typical
//! wrong moves) are in `src/learn/tutorial.rs`. The real binary over
//! loopback.

mod common;

use common::{assert_error, Server};
use punct_core::{Move, Position, Status};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn position(state: &Value) -> Position {
    let text = state["position"].as_str().expect("a position string");
    Position::from_position_string(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("{v} is not a list"))
        .iter()
        .map(|m| m.as_str().expect("a string").to_string())
        .collect()
}

fn try_move(server: &Server, id: &str, mv: &str) -> Value {
    let (status, body) = server.post(
        &format!("/api/learn/lessons/{id}/try"),
        &json!({ "move": mv }),
    );
    assert_eq!(status, 200, "{id} {mv}: {body}");
    body
}

#[test]
fn the_lessons_are_legal_positions_with_white_to_move_and_their_states() {
    let server = Server::start();
    let (status, list) = server.get("/api/learn/lessons");
    assert_eq!(status, 200, "{list}");
    let lessons = list["lessons"].as_array().expect("a list of lessons");
    assert!(lessons.len() >= 10, "only {} lessons", lessons.len());
    let mut ids = BTreeSet::new();
    for (i, l) in lessons.iter().enumerate() {
        let id = l["id"].as_str().expect("an id");
        assert!(ids.insert(id.to_string()), "{id} twice");
        assert_eq!(l["index"], i);
        assert_eq!(l["count"], lessons.len());
        for part in ["title", "goal", "hint"] {
            assert_eq!(l[part], format!("tutorial.lesson.{id}.{part}"), "{id}");
        }
        assert_eq!(l["to_move"], "white", "{id}: the learner plays White");
        // The list leaves the legal moves out; the lesson itself has them.
        assert!(l["state"].get("legal_moves").is_none(), "{id}");
        let pos = position(&l["state"]);
        assert_eq!(pos.status(), Status::Ongoing, "{id}");
        assert_eq!(l["state"]["status"], "ongoing");
        assert_eq!(l["state"]["to_move"], "white");

        let (status, one) = server.get(&format!("/api/learn/lessons/{id}"));
        assert_eq!(status, 200, "{one}");
        assert_eq!(one["id"], id);
        assert_eq!(one["state"]["position"], l["state"]["position"]);
        assert_eq!(one["state"]["pieces"], l["state"]["pieces"]);
        let legal: BTreeSet<String> = pos.legal_moves().iter().map(Move::to_string).collect();
        assert_eq!(strings(&one["state"]["legal_moves"]), legal, "{id}");
        for cell in l["marks"].as_array().expect("marks") {
            cell.as_str()
                .expect("a cell name")
                .parse::<punct_core::Cell>()
                .expect("a cell");
        }
        let example: Move = l["example"].as_str().unwrap().parse().unwrap();
        assert!(
            pos.is_legal(example),
            "{id}: the example {example} is illegal"
        );
    }
}

#[test]
fn every_example_is_right_and_answers_the_position_after_it() {
    let server = Server::start();
    let (_, list) = server.get("/api/learn/lessons");
    for l in list["lessons"].as_array().unwrap() {
        let id = l["id"].as_str().unwrap();
        let example = l["example"].as_str().unwrap();
        let answer = try_move(&server, id, example);
        assert_eq!(answer["correct"], true, "{id}: {answer}");
        assert_eq!(answer["code"], format!("tutorial.lesson.{id}.done"));
        assert_eq!(answer["move"], example);
        assert_eq!(answer["lesson"], id);
        let mut after = position(&l["state"]);
        after.play(example.parse().unwrap()).unwrap();
        let state = &answer["state"];
        assert_eq!(state["position"], after.to_position_string(), "{id}");
        assert_eq!(state["last_move"], example);
        match after.status() {
            Status::Won(side) => {
                assert_eq!(state["status"], "over");
                assert_eq!(state["result"]["winner"], side.name(), "{id}");
                if let Some(c) = after.connection(side) {
                    assert_eq!(state["result"]["reason"], "connection");
                    let chain: BTreeSet<String> = c.cells.cells().map(|x| x.to_string()).collect();
                    assert_eq!(strings(&state["result"]["chain"]), chain, "{id}");
                } else {
                    assert_eq!(state["result"]["reason"], "central count", "{id}");
                }
            }
            _ => assert_eq!(state["result"], Value::Null, "{id}"),
        }
    }
}

#[test]
fn wrong_and_illegal_tries_say_why() {
    let server = Server::start();
    // Illegal: the rule broken, with its values; no position after it.
    let a = try_move(&server, "add", "T@I9/0");
    assert_eq!(a["correct"], false);
    assert_eq!(a["code"], "tutorial.illegal.add_in_centre");
    assert_eq!(a["params"], json!({"cell": "I9"}));
    assert_eq!(a["state"], Value::Null);
    let a = try_move(&server, "jump", "L8-G3/3");
    assert_eq!(a["code"], "tutorial.illegal.triangle_bridge");
    assert_eq!(
        a["params"],
        json!({"c1": "G3", "c2": "G4", "c3": "H4", "h1": "1", "h2": "0", "h3": "0"})
    );
    let a = try_move(&server, "reach", "pass");
    assert_eq!(a["code"], "tutorial.illegal.pass_with_moves");
    // Case does not matter, and the answer names the move canonically.
    let a = try_move(&server, "reach", "c10-d4/0");
    assert_eq!(a["code"], "tutorial.illegal.not_in_line");
    assert_eq!(a["params"], json!({"from": "C10", "to": "D4"}));
    assert_eq!(a["move"], "C10-D4/0");

    // Legal but not the lesson's goal: what it misses, and the position after it.
    let a = try_move(&server, "rotate", "E@C4/0");
    assert_eq!(a["correct"], false);
    assert_eq!(a["code"], "tutorial.wrong.not_filled");
    assert_eq!(a["params"], json!({"cells": "D4, E4", "count": 2}));
    assert_eq!(a["state"]["last_move"], "E@C4/0");
    assert_eq!(a["state"]["status"], "ongoing");
    assert_eq!(a["state"]["to_move"], "black");
    let a = try_move(&server, "reach", "T@C4/0");
    assert_eq!(a["code"], "tutorial.wrong.not_a_move");
    assert_eq!(a["state"], Value::Null);

    // A block that is no block: Black's winning answer, which wins.
    let a = try_move(&server, "block", "T@B3/0");
    assert_eq!(a["code"], "tutorial.wrong.still_threat");
    let reply = a["reply"].as_str().expect("Black's answer");
    assert_eq!(a["params"]["move"], reply);
    let mut after = position(&a["state"]);
    after.play(reply.parse().unwrap()).unwrap();
    assert_eq!(after.status(), Status::Won(punct_core::Side::Black));
    // A real one.
    let a = try_move(&server, "block", "M@E13/4");
    assert_eq!(a["correct"], true, "{a}");
    assert_eq!(a["reply"], Value::Null);
}

#[test]
fn bad_requests_get_clear_errors() {
    let server = Server::start();
    let answer = server.get("/api/learn/lessons/nope");
    assert_error(&answer, 404, "no_lesson");
    assert_eq!(answer.1["error"]["params"]["id"], "nope");
    assert_error(
        &server.post("/api/learn/lessons/nope/try", &json!({"move": "pass"})),
        404,
        "no_lesson",
    );
    let (status, body) = server.post("/api/learn/lessons/add/try", &json!({"move": "X@Z9/9"}));
    assert_error(&(status, body.clone()), 400, "bad_move");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("X@Z9/9"),
        "{body}"
    );
    assert_error(
        &server.post("/api/learn/lessons/add/try", &json!({})),
        400,
        "bad_json",
    );
    assert_error(
        &server.post(
            "/api/learn/lessons/add/try",
            &json!({"move": "T@A5/3", "token": "x"}),
        ),
        400,
        "bad_json",
    );
    let (status, _, text) =
        server.post_raw("/api/learn/lessons/add/try", Some("text/plain"), "T@A5/3");
    assert_error(&(status, common::to_json(&text)), 400, "not_json");
    let (status, _, text) = server.request("GET", "/api/learn/lessons/add/try");
    assert_error(&(status, common::to_json(&text)), 405, "method_not_allowed");
    // The page's addresses are the page.
    for path in ["/learn", "/learn/add"] {
        let (status, headers, _) = server.get_text(path);
        assert_eq!(status, 200, "{path}");
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
    }
}
