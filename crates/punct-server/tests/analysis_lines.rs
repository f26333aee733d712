//! Analysis for a player: the engine's three best lines (multi-PV) and the
//! connection solver's verdicts — the side to move's forced win, and the
//! opponent's threat — through `POST /api/analyse` and the game-bound
//! `POST /api/games/{id}/analyse`.

mod common;

use common::{assert_error, legal_moves, Server};
use punct_core::{Move, Position, Side, Status};
use punct_engine::puzzle::{has_winning_move, null_move};
use serde_json::{json, Value};
use std::path::PathBuf;

const FIRST: &str = "C@B7/2";

/// A score object as one number for the side to move: a win sooner is
/// better, a loss later is better.
fn rank(score: &Value) -> i64 {
    if let Some(n) = score["win"].as_i64() {
        1_000_000 - n
    } else if let Some(n) = score["loss"].as_i64() {
        -1_000_000 + n
    } else {
        score["cp"]
            .as_i64()
            .unwrap_or_else(|| panic!("a score: {score}"))
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("an array: {v}"))
        .iter()
        .map(|m| m.as_str().expect("a string").to_string())
        .collect()
}

/// The shipped puzzles (data/puzzles.json).
fn puzzles() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/puzzles.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let all: Value = serde_json::from_str(&text).expect("puzzles.json is JSON");
    all["puzzles"].as_array().expect("a puzzle list").clone()
}

fn puzzle(id: &str) -> Value {
    puzzles()
        .into_iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no puzzle {id}"))
}

fn side_of(word: &str) -> Side {
    match word {
        "white" => Side::White,
        "black" => Side::Black,
        other => panic!("no side {other}"),
    }
}

/// Checks a verdict's shape: every field there, `line` empty unless won.
#[track_caller]
fn check_verdict_shape(v: &Value) {
    let verdict = v["verdict"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(["win", "none", "unknown"].contains(&verdict), "{v}");
    assert!(
        ["white", "black"].contains(&v["side"].as_str().unwrap()),
        "{v}"
    );
    assert_eq!(v["depth"], 3, "{v}");
    assert!(v["nodes"].is_u64() && v["time_ms"].is_u64(), "{v}");
    if verdict == "win" {
        assert!(
            v["moves"].as_u64().is_some_and(|n| (1..=3).contains(&n)),
            "{v}"
        );
        assert!(
            ["connection", "end"].contains(&v["by"].as_str().unwrap()),
            "{v}"
        );
        assert!(!strings(&v["line"]).is_empty(), "{v}");
    } else {
        assert!(v["moves"].is_null() && v["by"].is_null(), "{v}");
        assert!(strings(&v["line"]).is_empty(), "{v}");
    }
}

/// Plays a proven verdict's line from `pos`: every move legal, the
/// attacker's `moves` moves alternating with the listed replies, and the
/// end a win of the attacker (by a connection when it says so).
#[track_caller]
fn replay_wins(pos: &Position, v: &Value) -> Position {
    let side = side_of(v["side"].as_str().unwrap());
    assert_eq!(pos.side_to_move(), side, "the attacker moves first: {v}");
    let line = strings(&v["line"]);
    let moves = v["moves"].as_u64().unwrap() as usize;
    assert_eq!(line.len(), 2 * moves - 1, "{v}");
    let mut p = pos.clone();
    for (i, text) in line.iter().enumerate() {
        assert_eq!(
            p.status(),
            Status::Ongoing,
            "the game ended before {text}: {v}"
        );
        let mv: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
        p.play(mv)
            .unwrap_or_else(|e| panic!("move {i} of the line, {text}, is illegal: {e}; {v}"));
    }
    assert_eq!(p.status(), Status::Won(side), "the line does not win: {v}");
    if v["by"] == "connection" {
        assert!(p.is_connected(side), "{v}");
    }
    p
}

#[test]
fn three_distinct_legal_lines_best_first() {
    let server = Server::start();
    let (status, a) = server.post("/api/analyse", &json!({"moves": [FIRST], "movetime": 1500}));
    assert_eq!(status, 200, "{a}");
    let mut pos = Position::new(punct_core::Variant::Standard);
    pos.play(FIRST.parse().unwrap()).unwrap();
    let legal: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();

    let lines = a["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "three lines: {a}");
    let firsts: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    for (i, l) in lines.iter().enumerate() {
        let pv = strings(&l["pv"]);
        assert_eq!(pv.first().map(String::as_str), Some(firsts[i]), "{l}");
        assert!(
            legal.iter().any(|m| m == firsts[i]),
            "{} is not legal",
            firsts[i]
        );
        // The whole line is playable.
        let mut p = pos.clone();
        for m in &pv {
            p.play(m.parse().unwrap())
                .unwrap_or_else(|e| panic!("line {i}: {m} is illegal: {e}; {l}"));
        }
        assert!(l["depth"].as_u64().is_some_and(|d| d >= 1), "{l}");
    }
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    let ranks: Vec<i64> = lines.iter().map(|l| rank(&l["score"])).collect();
    assert!(
        ranks[0] >= ranks[1] && ranks[1] >= ranks[2],
        "best first: {a}"
    );
    // The first line is the move the engine chose: the fields from before
    // the lines say the same.
    assert_eq!(a["best"], lines[0]["move"], "{a}");
    assert_eq!(a["score"], lines[0]["score"], "{a}");
    assert_eq!(a["pv"], lines[0]["pv"], "{a}");
    assert!(a["nodes"].as_u64().is_some_and(|n| n > 0), "{a}");

    // A quiet opening: neither side forces anything.
    for key in ["solver", "threat"] {
        check_verdict_shape(&a[key]);
        assert_ne!(a[key]["verdict"], "win", "{key}: {a}");
    }
    assert_eq!(a["solver"]["side"], "black", "{a}");
    assert_eq!(a["threat"]["side"], "white", "{a}");
}

#[test]
fn a_win_in_two_is_proven_with_a_line_that_wins() {
    let server = Server::start();
    // two-03: Black wins in two; two-11: White wins in two, by the game's
    // end rather than a connection.
    for id in ["two-03", "two-11"] {
        let p = puzzle(id);
        let text = p["position"].as_str().unwrap();
        let pos = Position::from_position_string(text).unwrap();
        let (status, a) = server.post("/api/analyse", &json!({"position": text, "movetime": 3000}));
        assert_eq!(status, 200, "{id}: {a}");
        let v = &a["solver"];
        check_verdict_shape(v);
        assert_eq!(v["verdict"], "win", "{id}: {a}");
        assert_eq!(v["side"], p["side"], "{id}: {a}");
        assert_eq!(v["moves"], 2, "{id}: the shortest win: {a}");
        replay_wins(&pos, v);
        // A real proof: after the first move, every reply of the defender
        // leaves the attacker a win at once.
        let mut after = pos.clone();
        after.play(strings(&v["line"])[0].parse().unwrap()).unwrap();
        for reply in after.legal_moves() {
            let mut q = after.clone();
            q.play(reply).unwrap();
            assert!(
                q.status() == Status::Won(pos.side_to_move()) || has_winning_move(&q),
                "{id}: {reply} parries the claimed win: {a}"
            );
        }
        check_verdict_shape(&a["threat"]);
        // The engine's best line is a legal first move too.
        let legal: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
        assert!(
            legal.contains(&a["best"].as_str().unwrap().to_string()),
            "{a}"
        );
    }
}

#[test]
fn the_opponents_forced_win_is_told_as_a_threat() {
    let server = Server::start();
    // two-03 with the turn passed: White to move, and Black threatens the
    // win in two the puzzle asks for.
    let p = puzzle("two-03");
    let pos = Position::from_position_string(p["position"].as_str().unwrap()).unwrap();
    let passed = null_move(&pos).expect("the turn can pass");
    let (status, a) = server.post(
        "/api/analyse",
        &json!({"position": passed.to_position_string(), "movetime": 3000}),
    );
    assert_eq!(status, 200, "{a}");
    let threat = &a["threat"];
    check_verdict_shape(threat);
    assert_eq!(threat["side"], "black", "{a}");
    assert_eq!(threat["verdict"], "win", "{a}");
    assert!(threat["moves"].as_u64().unwrap() <= 2, "{a}");
    // The threat's line starts from the position with the turn passed back.
    replay_wins(&pos, threat);
    check_verdict_shape(&a["solver"]);
    assert_eq!(a["solver"]["side"], "white", "{a}");
}

#[test]
fn the_game_bound_analysis_has_lines_and_verdicts_and_bad_input_stays_clear() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    let state = server.play_ok(&g.id, g.white(), FIRST);
    let (status, a) = server.post(
        &format!("/api/games/{}/analyse", g.id),
        &json!({"movetime": 400}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["position"], state["position"]);
    let legal = legal_moves(&state);
    let lines = a["lines"].as_array().expect("lines");
    assert!(!lines.is_empty() && lines.len() <= 3, "{a}");
    for l in lines {
        assert!(legal.iter().any(|m| *m == l["move"]), "{l}");
    }
    check_verdict_shape(&a["solver"]);
    check_verdict_shape(&a["threat"]);

    // Errors say what is wrong, as before.
    for movetime in [0, 999_999] {
        assert_error(
            &server.post("/api/analyse", &json!({"movetime": movetime})),
            400,
            "bad_movetime",
        );
    }
    assert_error(
        &server.post("/api/analyse", &json!({"moves": [FIRST, FIRST]})),
        422,
        "illegal_move",
    );
    assert_error(
        &server.post("/api/analyse", &json!({"moves": ["nonsense"]})),
        400,
        "bad_move",
    );
    assert_error(
        &server.post("/api/analyse", &json!({"position": "nonsense"})),
        400,
        "bad_position",
    );
    // The number of lines is the server's choice, not a request field.
    let (status, body) = server.post("/api/analyse", &json!({"multipv": 5}));
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("multipv")),
        "{body}"
    );
    // A finished position: nothing to analyse.
    let p = puzzle("one-01");
    let mut won = Position::from_position_string(p["position"].as_str().unwrap()).unwrap();
    won.play(p["solutions"][0].as_str().unwrap().parse().unwrap())
        .unwrap();
    assert!(won.status().is_over());
    assert_error(
        &server.post(
            "/api/analyse",
            &json!({"position": won.to_position_string()}),
        ),
        409,
        "game_over",
    );
}
