//! Manners through the real binary: aborting a game before each side has
//! moved (not after, not as a spectator; a rated one changes no rating
//! and no record of wins; its record says `*` with a Termination tag; seen
//! on another instance), and the playban: a player who left two rated
//! games waits before the next seek, then may seek again.

mod common;

use common::{assert_error, two_instances, Server, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const PASSWORD: &str = "correct horse battery";

fn blitz() -> Value {
    json!({"type": "realtime", "initial": 300, "increment": 3})
}

fn abort(server: &Server, id: &str, token: &str) -> (u16, Value) {
    server.post(
        &format!("/api/games/{id}/abort"),
        &json!({ "token": token }),
    )
}

/// The first legal move of game `id`.
fn first_move(server: &Server, id: &str) -> String {
    common::legal_moves(&server.state(id))
        .into_iter()
        .next()
        .expect("a legal move")
}

#[test]
fn a_game_is_aborted_before_each_side_has_moved_and_not_after() {
    let server = Server::start();
    let g = server.create_online();
    let state = server.state(&g.id);
    assert_eq!(state["abortable"], true, "{state}");
    // Not by a spectator.
    assert_error(&abort(&server, &g.id, "not-a-seat"), 403, "bad_token");
    let mv = first_move(&server, &g.id);
    server.play_ok(&g.id, g.white(), &mv);
    // After White's first move Black may still abort.
    let (status, state) = abort(&server, &g.id, g.black());
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["status"], "over");
    assert_eq!(state["abortable"], false);
    assert_eq!(state["result"]["reason"], "aborted");
    assert_eq!(state["result"]["score"], "*");
    assert_eq!(state["result"]["winner"], Value::Null);
    assert_eq!(state["result"]["text"], "black aborted the game");
    assert_error(&abort(&server, &g.id, g.white()), 409, "game_over");
    assert_error(&server.play(&g.id, g.white(), &mv), 409, "game_over");

    // The record says so, and imports again as aborted.
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(record.contains("[Result \"*\"]"), "{record}");
    assert!(
        record.contains("[Termination \"aborted:black\"]"),
        "{record}"
    );
    let (status, imported) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["result"]["reason"], "aborted");
    assert_eq!(imported["game"]["status"], "over");
    // Listed as over, with no result.
    let (_, list) = server.get("/api/games?status=over");
    let line = list["games"]
        .as_array()
        .and_then(|l| l.iter().find(|x| x["id"] == g.id.as_str()))
        .cloned()
        .unwrap_or_else(|| panic!("the game in {list}"));
    assert_eq!(line["result"], "*");

    // From the second ply on: too late.
    let g = server.create_online();
    let mv = first_move(&server, &g.id);
    server.play_ok(&g.id, g.white(), &mv);
    let mv = first_move(&server, &g.id);
    server.play_ok(&g.id, g.black(), &mv);
    assert_eq!(server.state(&g.id)["abortable"], false);
    let answer = abort(&server, &g.id, g.white());
    assert_error(&answer, 409, "too_late_to_abort");
    assert_eq!(answer.1["error"]["params"]["plies"], 2);
    assert_eq!(server.state(&g.id)["status"], "ongoing");

    // Over the live socket too.
    let g = server.create_online();
    let mut ws = server.live(&g.id);
    ws.send(&json!({"type": "abort", "token": g.white(), "id": 7}));
    let ack = ws.recv_any_until(|m| m["id"] == 7);
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(server.state(&g.id)["result"]["reason"], "aborted");
}

/// Two accounts paired into a rated blitz game by quick pairing: the
/// game's id and each one's (side, token), first `a`'s.
fn rated_game(server: &Server, a: &str, b: &str) -> (String, [(String, String); 2]) {
    let (mut ws_a, _) = common::lobby_socket(server, Some(a));
    let (mut ws_b, _) = common::lobby_socket(server, Some(b));
    ws_a.send(&json!({"type": "pool", "clock": blitz(), "rated": true}));
    common::next_of(&mut ws_a, "seeking");
    ws_b.send(&json!({"type": "pool", "clock": blitz(), "rated": true}));
    let pa = common::next_of(&mut ws_a, "paired");
    let pb = common::next_of(&mut ws_b, "paired");
    let seat = |p: &Value| {
        (
            p["side"].as_str().unwrap().to_string(),
            p["token"].as_str().unwrap().to_string(),
        )
    };
    (
        pa["game"].as_str().unwrap().to_string(),
        [seat(&pa), seat(&pb)],
    )
}

#[test]
fn an_aborted_rated_game_changes_no_rating_and_no_record() {
    let server = Server::start();
    let ann = common::sign_up_cookie(&server, "ann", PASSWORD);
    let bob = common::sign_up_cookie(&server, "bob", PASSWORD);
    let (id, [(ann_side, ann_token), (_, bob_token)]) = rated_game(&server, &ann, &bob);
    let white = if ann_side == "white" {
        &ann_token
    } else {
        &bob_token
    };
    let mv = first_move(&server, &id);
    server.play_ok(&id, white, &mv);
    let (status, state) = abort(&server, &id, &ann_token);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["rated"], true);
    // Asking for its rating applies it if it counts: it does not.
    let (_, rating) = server.get(&format!("/api/games/{id}/rating"));
    assert_eq!(
        (&rating["rated"], &rating["white"], &rating["black"]),
        (&json!(true), &Value::Null, &Value::Null),
        "{rating}"
    );
    for name in ["ann", "bob"] {
        let (_, profile) = server.get(&format!("/api/users/{name}"));
        assert_eq!(profile["ratings"], json!([]), "{profile}");
        assert_eq!(profile["stats"], json!([]), "{profile}");
        let (_, games) = server.get(&format!("/api/users/{name}/games?status=over"));
        assert_eq!(games["games"][0]["result"], "*", "{games}");
        // No win, loss or draw to find it by.
        for result in ["won", "lost", "drawn"] {
            let (_, games) = server.get(&format!("/api/users/{name}/games?result={result}"));
            assert_eq!(games["games"], json!([]), "{result}: {games}");
        }
    }
}

#[test]
fn an_abort_on_one_instance_is_seen_on_the_other() {
    let Some((a, b)) = two_instances("an_abort_on_one_instance_is_seen_on_the_other", &[]) else {
        return;
    };
    let g = a.create_online();
    // B holds the game live before the abort on A.
    let mut ws = b.live(&g.id);
    ws.recv_any_until(|m| m["type"] == "state");
    let (status, state) = abort(&a, &g.id, g.white());
    assert_eq!(status, 200, "{state}");
    let seen = ws.recv_any_until(|m| m["type"] == "state" && m["game"]["status"] == "over");
    assert_eq!(seen["game"]["result"]["reason"], "aborted", "{seen}");
    assert_error(&abort(&b, &g.id, g.black()), 409, "game_over");
}

/// A POST as the account of session `cookie`, from the site's own page.
fn post_as(server: &Server, path: &str, cookie: &str) -> (u16, Value) {
    let resp = common::http_agent()
        .post(server.url(path))
        .header("cookie", &format!("punct_session={cookie}"))
        .header("origin", &server.base)
        .send_json(json!({}))
        .unwrap_or_else(|e| panic!("POST {path}: {e}"));
    let status = resp.status().as_u16();
    let text = resp.into_body().read_to_string().expect("a body");
    (status, common::to_json(&text))
}

/// `cookie`'s seek on a new lobby socket: the answer (`seeking` or
/// `error`).
fn try_seek(server: &Server, cookie: &str) -> Value {
    let (mut ws, _) = common::lobby_socket(server, Some(cookie));
    ws.send(&json!({"type": "seek", "clock": blitz(), "id": 1}));
    ws.recv_any_until(|m| m["id"] == 1)
}

/// The holder of `token` wins game `id` by abandonment once the opponent
/// has been gone long enough, holding its own seat live meanwhile.
fn claim_abandonment(server: &Server, id: &str, token: &str) {
    let mut ws: Ws = server.live(id);
    ws.send(&json!({"type": "hello", "token": token, "id": 1}));
    ws.recv_any_until(|m| m["id"] == 1);
    let start = Instant::now();
    loop {
        let (status, body) = server.abandon(id, token);
        if status == 200 {
            assert_eq!(body["result"]["reason"], "abandonment");
            return;
        }
        assert_error(&(status, body), 409, "not_abandoned");
        assert!(start.elapsed() < Duration::from_secs(60), "never allowed");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn two_rated_games_left_earn_a_cooldown_before_the_next_seek() {
    let server = Server::builder()
        .flags(&["--abandon-after", "1s", "--playban-base", "3s"])
        .start();
    let ann = common::sign_up_cookie(&server, "ann", PASSWORD);
    let bob = common::sign_up_cookie(&server, "bob", PASSWORD);
    // Ann leaves one game: no cooldown yet.
    let (id, [_, (_, bob_token)]) = rated_game(&server, &ann, &bob);
    claim_abandonment(&server, &id, &bob_token);
    assert_eq!(try_seek(&server, &ann)["type"], "seeking");
    // …and a second: refused, saying how long.
    let (id, [_, (_, bob_token)]) = rated_game(&server, &ann, &bob);
    claim_abandonment(&server, &id, &bob_token);
    let refused = try_seek(&server, &ann);
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["error"]["code"], "playban", "{refused}");
    let seconds = refused["error"]["params"]["seconds"]
        .as_u64()
        .expect("the seconds left");
    assert!((1..=3).contains(&seconds), "{refused}");
    // Quick pairing and accepting a seek too; Bob is free to play.
    let (mut ws, _) = common::lobby_socket(&server, Some(&ann));
    ws.send(&json!({"type": "pool", "clock": blitz(), "id": 2}));
    let pool = ws.recv_any_until(|m| m["id"] == 2);
    assert_eq!(pool["error"]["code"], "playban", "{pool}");
    let (mut bob_ws, _) = common::lobby_socket(&server, Some(&bob));
    bob_ws.send(&json!({"type": "seek", "clock": blitz(), "id": 3}));
    let seek = bob_ws.recv_any_until(|m| m["id"] == 3)["seek"].clone();
    assert!(seek.is_string());
    ws.send(&json!({"type": "accept", "seek": seek, "id": 4}));
    let accept = ws.recv_any_until(|m| m["id"] == 4);
    assert_eq!(accept["error"]["code"], "playban", "{accept}");
    // …and accepting a challenge over HTTP.
    bob_ws.send(&json!({"type": "challenge", "id": 5, "to": "ann", "clock": blitz()}));
    let challenge = bob_ws.recv_any_until(|m| m["id"] == 5);
    let id = challenge["seek"].as_str().expect("a challenge");
    let (status, body) = post_as(&server, &format!("/api/challenges/{id}/accept"), &ann);
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "playban", "{body}");
    // Once the time said has passed, Ann may seek again.
    std::thread::sleep(Duration::from_secs(seconds));
    let mut answer = try_seek(&server, &ann);
    for _ in 0..10 {
        if answer["type"] == "seeking" {
            break;
        }
        // The time said was rounded up to whole seconds; wait what is left.
        let left = answer["error"]["params"]["seconds"].as_u64().unwrap_or(1);
        std::thread::sleep(Duration::from_secs(left));
        answer = try_seek(&server, &ann);
    }
    assert_eq!(answer["type"], "seeking", "{answer}");
}
