//! The puzzles: the shipped set re-proven exactly, and the API that serves
//! and judges them (docs/API.md, "Puzzles"). The real binary over loopback.

mod common;

use common::*;
use punct_core::{Move, Position, Status};
use punct_engine::puzzle::{self, PuzzleKind};
use serde_json::{json, Value};
use std::collections::HashSet;

fn shipped() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/puzzles.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn moves(v: &Value) -> Vec<Move> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().parse().unwrap())
        .collect()
}

fn sorted(mut v: Vec<Move>) -> Vec<String> {
    let mut t: Vec<String> = v.drain(..).map(|m| m.to_string()).collect();
    t.sort();
    t
}

#[test]
fn the_shipped_puzzles_are_proven_with_exactly_their_solutions() {
    let file = shipped();
    assert!(file["command"]
        .as_str()
        .unwrap()
        .starts_with("punct puzzles generate"));
    let list = file["puzzles"].as_array().unwrap();
    assert!((30..=60).contains(&list.len()), "{} puzzles", list.len());
    let mut ids = HashSet::new();
    let mut positions = HashSet::new();
    for p in list {
        let id = p["id"].as_str().unwrap();
        assert!(ids.insert(id), "{id} twice");
        let pos = Position::from_position_string(p["position"].as_str().unwrap()).unwrap();
        assert!(
            positions.insert(pos.to_position_string()),
            "{id}: position twice"
        );
        assert_eq!(p["side"], pos.side_to_move().name(), "{id}");
        let kind: PuzzleKind = p["kind"].as_str().unwrap().parse().unwrap();
        let proven = puzzle::prove(&pos, kind).unwrap_or_else(|e| panic!("{id}: {e}"));
        let listed = moves(&p["solutions"]);
        assert_eq!(sorted(listed.clone()), sorted(proven), "{id}: solutions");
        assert!(
            !listed.is_empty() && listed.len() <= 3,
            "{id}: {} solutions",
            listed.len()
        );
        if kind == PuzzleKind::WinInTwo {
            let lines = p["lines"].as_array().unwrap();
            assert_eq!(lines.len(), listed.len(), "{id}: one line per solution");
            for line in lines {
                let first: Move = line["first"].as_str().unwrap().parse().unwrap();
                let mut after = pos.clone();
                after.play(first).unwrap();
                let (reply, wins) = puzzle::stubborn_reply(&after).unwrap();
                assert_eq!(line["reply"], reply.to_string(), "{id}: reply to {first}");
                assert_eq!(sorted(moves(&line["wins"])), sorted(wins), "{id}: wins");
            }
        }
    }
    for kind in PuzzleKind::ALL {
        let n = list.iter().filter(|p| p["kind"] == kind.name()).count();
        assert!(n >= 8, "only {n} {kind} puzzles");
    }
}

fn get_ok(server: &Server, path: &str) -> Value {
    let (status, body) = server.get(path);
    assert_eq!(status, 200, "GET {path}: {body}");
    body
}

fn attempt(server: &Server, id: &str, moves: &[&str]) -> (u16, Value) {
    server.post(
        &format!("/api/learn/puzzles/{id}/try"),
        &json!({ "moves": moves }),
    )
}

fn attempt_ok(server: &Server, id: &str, moves: &[&str]) -> Value {
    let answer = attempt(server, id, moves);
    assert_eq!(answer.0, 200, "{id} {moves:?}: {}", answer.1);
    answer.1
}

/// The first puzzle of `kind` in the shipped file.
fn first_of(kind: &str) -> Value {
    shipped()["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == kind)
        .unwrap()
        .clone()
}

/// A legal move of `pos` that is not in `not`.
fn other_move(pos: &Position, not: &[Move]) -> Move {
    pos.legal_moves()
        .into_iter()
        .find(|m| !not.contains(m) && matches!(m, Move::Add { .. }))
        .unwrap()
}

#[test]
fn the_list_the_daily_puzzle_and_one_puzzle() {
    let server = Server::start();
    let list = get_ok(&server, "/api/learn/puzzles");
    let file = shipped();
    assert_eq!(list["count"], file["puzzles"].as_array().unwrap().len());
    assert_eq!(
        list["kinds"],
        json!(["win-in-one", "stop-the-win", "win-in-two"])
    );
    for (item, p) in list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .zip(file["puzzles"].as_array().unwrap())
    {
        assert_eq!(item["id"], p["id"]);
        assert_eq!(item["kind"], p["kind"]);
        assert_eq!(item["side"], p["side"]);
        assert_eq!(item["state"]["position"], p["position"]);
        assert_eq!(item["state"]["to_move"], p["side"]);
        assert!(item["state"]["pieces"]
            .as_array()
            .is_some_and(|a| !a.is_empty()));
        // The list leaves out what a thumbnail does not need.
        assert!(item["state"].get("legal_moves").is_none());
        assert!(item.get("solutions").is_none());
        assert_eq!(
            item["task"]["code"],
            format!(
                "puzzles.task.{}",
                p["kind"].as_str().unwrap().replace('-', "_")
            )
        );
    }

    // The puzzle of a given day is the same every time and says its date.
    let a = get_ok(&server, "/api/learn/puzzles/daily?date=2026-11-23");
    let b = get_ok(&server, "/api/learn/puzzles/daily?date=2026-11-23");
    assert_eq!(a["date"], "2026-11-23");
    assert_eq!(a["puzzle"]["id"], b["puzzle"]["id"]);
    let days: HashSet<String> = (1..=28)
        .map(|d| {
            get_ok(
                &server,
                &format!("/api/learn/puzzles/daily?date=2026-02-{d:02}"),
            )["puzzle"]["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(days.len() > 8, "28 days, {} puzzles", days.len());
    // Without a date: today (UTC).
    let today = get_ok(&server, "/api/learn/puzzles/daily");
    let date = today["date"].as_str().unwrap();
    assert_eq!(date.len(), 10);
    let same = get_ok(&server, &format!("/api/learn/puzzles/daily?date={date}"));
    assert_eq!(today["puzzle"]["id"], same["puzzle"]["id"]);
    for bad in ["2026-02-30", "tomorrow", "2026-1-1"] {
        assert_error(
            &server.get(&format!("/api/learn/puzzles/daily?date={bad}")),
            400,
            "bad_date",
        );
    }

    // One puzzle: its state with the legal moves, its solutions, the next.
    let p = &file["puzzles"][0];
    let id = p["id"].as_str().unwrap();
    let one = get_ok(&server, &format!("/api/learn/puzzles/{id}"));
    assert_eq!(one["id"], id);
    assert_eq!(one["solutions"], p["solutions"]);
    assert_eq!(one["number"], 1);
    assert_eq!(one["next"], file["puzzles"][1]["id"]);
    assert!(one["state"]["legal_moves"].as_array().unwrap().len() > 10);
    assert_eq!(one["state"]["status"], "ongoing");
    let unknown = server.get("/api/learn/puzzles/no-such-puzzle");
    assert_error(&unknown, 404, "unknown_puzzle");
    assert_eq!(unknown.1["error"]["params"]["id"], "no-such-puzzle");
}

#[test]
fn solving_and_failing_each_kind() {
    let server = Server::start();

    // Win in one: a solution wins; another move does not.
    let p = first_of("win-in-one");
    let id = p["id"].as_str().unwrap();
    let pos = Position::from_position_string(p["position"].as_str().unwrap()).unwrap();
    let me = pos.side_to_move();
    let solutions = moves(&p["solutions"]);
    let win = solutions[0].to_string();
    let r = attempt_ok(&server, id, &[&win]);
    assert_eq!(
        (r["correct"].clone(), r["solved"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(r["code"], "puzzles.solved");
    assert_eq!(r["state"]["result"]["winner"], me.name());
    assert_eq!(r["state"]["last_move"], win);
    assert!(r["next"].is_string());
    let wrong = other_move(&pos, &solutions).to_string();
    let r = attempt_ok(&server, id, &[&wrong]);
    assert_eq!(
        (r["correct"].clone(), r["solved"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(r["code"], "puzzles.wrong.no_win");
    assert_eq!(r["params"]["move"], wrong);

    // Stop the win: a defence solves it; anything else is answered with
    // the opponent's win.
    let p = first_of("stop-the-win");
    let id = p["id"].as_str().unwrap();
    let pos = Position::from_position_string(p["position"].as_str().unwrap()).unwrap();
    let them = pos.side_to_move().opponent();
    let solutions = moves(&p["solutions"]);
    let r = attempt_ok(&server, id, &[&solutions[0].to_string()]);
    assert_eq!(
        (r["correct"].clone(), r["solved"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(r["code"], "puzzles.stopped");
    let wrong = other_move(&pos, &solutions);
    let r = attempt_ok(&server, id, &[&wrong.to_string()]);
    assert_eq!(r["correct"], false);
    assert_eq!(r["code"], "puzzles.wrong.not_stopped");
    let reply: Move = r["reply"].as_str().unwrap().parse().unwrap();
    let mut after = pos.clone();
    after.play(wrong).unwrap();
    after.play(reply).unwrap();
    assert_eq!(after.status(), Status::Won(them));
    assert_eq!(r["state"]["result"]["winner"], them.name());
    assert_eq!(
        r["params"],
        json!({"side": them.name(), "move": reply.to_string()})
    );

    // Win in two: the first move, the site's reply, the second move.
    let p = first_of("win-in-two");
    let id = p["id"].as_str().unwrap();
    let pos = Position::from_position_string(p["position"].as_str().unwrap()).unwrap();
    let me = pos.side_to_move();
    let line = &p["lines"][0];
    let first = line["first"].as_str().unwrap();
    let r = attempt_ok(&server, id, &[first]);
    assert_eq!(
        (r["correct"].clone(), r["solved"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(r["code"], "puzzles.good.reply");
    assert_eq!(r["reply"], line["reply"]);
    assert_eq!(r["state"]["to_move"], me.name());
    assert_eq!(r["state"]["last_move"], line["reply"]);
    let second = line["wins"][0].as_str().unwrap();
    let r = attempt_ok(&server, id, &[first, second]);
    assert_eq!(
        (r["correct"].clone(), r["solved"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(r["state"]["result"]["winner"], me.name());
    // A second move that does not win.
    let mut after_reply = pos.clone();
    after_reply.play(first.parse().unwrap()).unwrap();
    after_reply
        .play(line["reply"].as_str().unwrap().parse().unwrap())
        .unwrap();
    let dud = other_move(&after_reply, &moves(&line["wins"])).to_string();
    let r = attempt_ok(&server, id, &[first, &dud]);
    assert_eq!(
        (r["correct"].clone(), r["solved"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(r["code"], "puzzles.wrong.no_win");
    // A first move that does not force a win is answered by a reply after
    // which there is none.
    let solutions = moves(&p["solutions"]);
    let wrong = other_move(&pos, &solutions);
    let r = attempt_ok(&server, id, &[&wrong.to_string()]);
    assert_eq!(r["correct"], false);
    let reply: Move = r["reply"].as_str().unwrap().parse().unwrap();
    let mut after = pos.clone();
    after.play(wrong).unwrap();
    after.play(reply).unwrap();
    assert!(
        after.status() == Status::Won(me.opponent())
            || (!after.status().is_over() && puzzle::winning_moves(&after).is_empty()),
        "{wrong} {reply}"
    );
    assert!(["puzzles.wrong.refuted", "puzzles.wrong.reply_wins"]
        .contains(&r["code"].as_str().unwrap()));
    assert_error(
        &attempt(&server, id, &[&wrong.to_string(), second]),
        400,
        "not_a_line",
    );
}

#[test]
fn bad_attempts_are_clear_errors() {
    let server = Server::start();
    let p = first_of("win-in-one");
    let id = p["id"].as_str().unwrap();
    assert_error(&attempt(&server, "nope", &["pass"]), 404, "unknown_puzzle");
    assert_error(&attempt(&server, id, &[]), 400, "no_moves");
    assert_error(&attempt(&server, id, &["Z@Z9/9"]), 400, "bad_move");
    let two = attempt(&server, id, &["pass", "pass"]);
    assert_error(&two, 400, "too_many_moves");
    // A move against the rules: 422 with the rule broken.
    let illegal = attempt(&server, id, &["pass"]);
    assert_error(&illegal, 422, "illegal_move");
    assert_eq!(illegal.1["error"]["reason"], "pass_with_moves");
    let (status, body) = server.post(
        &format!("/api/learn/puzzles/{id}/try"),
        &json!({"move": "x"}),
    );
    assert_eq!(status, 400, "{body}");
    let (status, _, text) = server.post_raw(
        &format!("/api/learn/puzzles/{id}/try"),
        Some("application/json"),
        "{not json",
    );
    assert_eq!(status, 400, "{text}");
    // Win in two: more than two moves.
    let p2 = first_of("win-in-two");
    let id2 = p2["id"].as_str().unwrap();
    assert_error(
        &attempt(&server, id2, &["pass", "pass", "pass"]),
        400,
        "too_many_moves",
    );
}
