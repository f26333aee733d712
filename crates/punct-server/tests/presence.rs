//! Presence and abandonment against the real `punct serve`: live sockets
//! say whose seat they hold (`hello`), every socket of the game hears who
//! is there (`presence`) and the server's time (`time`), and a player
//! whose opponent has been gone for `--abandon-after` may claim the win.

mod common;

use common::{assert_error, now_ms, Server, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn realtime() -> Value {
    json!({"type": "realtime", "initial": 600, "increment": 0})
}

/// Opens a live socket and reads what comes on connect: the state, the
/// server's time, the presence.
fn connect(server: &Server, id: &str) -> (Ws, Value) {
    let mut ws = server.live(id);
    let first = ws.recv_any();
    assert_eq!(first["type"], "state", "{first}");
    let time = ws.recv_any();
    assert_eq!(time["type"], "time", "{time}");
    let server_now = time["now"].as_i64().expect("`now` in ms");
    assert!((server_now - now_ms()).abs() < 60_000, "{time}");
    let presence = ws.recv_any();
    assert_eq!(presence["type"], "presence", "{presence}");
    (ws, presence)
}

/// Says hello with `token` and returns the answer.
fn hello(ws: &mut Ws, token: Option<&str>, id: i64) -> Value {
    let mut msg = json!({"type": "hello", "id": id});
    if let Some(t) = token {
        msg["token"] = json!(t);
    }
    ws.send(&msg);
    ws.recv_any_until(|m| m["id"] == id)
}

#[test]
fn presence_counts_players_and_spectators() {
    let server = Server::start();
    let g = server.create_online_clock(realtime());
    let (mut white, first) = connect(&server, &g.id);
    // On connect: counted as a spectator, nobody holds a seat yet, and
    // both players have been away since the game was loaded.
    assert_eq!(first["spectators"], 1, "{first}");
    for side in ["white", "black"] {
        assert_eq!(first[side]["connected"], false, "{first}");
        assert!(first[side]["away_ms"].as_i64().is_some(), "{first}");
    }
    let ack = hello(&mut white, Some(g.white()), 1);
    assert_eq!(ack, json!({"type": "ack", "id": 1, "seats": ["white"]}));
    let (mut black, _) = connect(&server, &g.id);
    assert_eq!(
        hello(&mut black, Some(g.black()), 2)["seats"],
        json!(["black"])
    );
    let (mut spectator, _) = connect(&server, &g.id);
    assert_eq!(hello(&mut spectator, None, 3)["seats"], json!([]));
    // A bad token: an error, and the socket stays, as a spectator.
    let (mut stranger, _) = connect(&server, &g.id);
    let err = hello(&mut stranger, Some("not-a-token"), 4);
    assert_eq!(err["type"], "error", "{err}");
    assert_eq!(err["error"]["code"], "bad_token");
    stranger.send(&json!({"type": "ping", "id": 5}));
    assert_eq!(stranger.recv(), json!({"type": "pong", "id": 5}));

    let everyone = |m: &Value| {
        m["type"] == "presence"
            && m["white"] == json!({"connected": true, "away_ms": null})
            && m["black"] == json!({"connected": true, "away_ms": null})
            && m["spectators"] == 2
    };
    for ws in [&mut white, &mut black, &mut spectator, &mut stranger] {
        ws.recv_any_until(everyone);
    }
    // The players' sockets still get states (presence is not in them).
    server.play_ok(&g.id, g.white(), "C@B7/2");
    let s = spectator.recv_state_at(1);
    assert!(s.get("presence").is_none());

    // Black's socket closes: everyone hears black is away, and for how long.
    drop(black);
    let gone = |m: &Value| m["type"] == "presence" && m["black"]["connected"] == false;
    let seen = spectator.recv_any_until(gone);
    let away = seen["black"]["away_ms"]
        .as_i64()
        .expect("away_ms while away");
    assert!(away >= 0);
    assert_eq!(seen["white"]["connected"], true);
    assert_eq!(seen["spectators"], 2);
    white.recv_any_until(gone);
    // Later, the time away has grown.
    std::thread::sleep(Duration::from_millis(300));
    let (late, on_connect) = connect(&server, &g.id);
    let later = on_connect["black"]["away_ms"].as_i64().expect("still away");
    assert!(later >= away + 300, "away {away} ms, then {later} ms");
    assert_eq!(on_connect["spectators"], 3);
    drop(late);
    drop(stranger);
    spectator.recv_any_until(|m| m["type"] == "presence" && m["spectators"] == 1);
}

#[test]
fn the_ais_side_and_an_open_seat_are_never_away() {
    let server = Server::start();
    let ai = server.create(json!({"mode": "ai", "side": "white"}));
    let (_ws, p) = connect(&server, &ai.id);
    assert_eq!(p["black"], json!({"connected": false, "away_ms": null}));
    assert!(p["white"]["away_ms"].as_i64().is_some());
    let open = server.create(json!({"mode": "online"}));
    let (mut ws, p) = connect(&server, &open.id);
    assert_eq!(p["black"], json!({"connected": false, "away_ms": null}));
    // Once claimed, the seat's player is away until they connect.
    let (status, _) = server.claim(&open.id, open.invite.as_deref().unwrap());
    assert_eq!(status, 200);
    let p = ws.recv_any_until(|m| m["type"] == "presence" && m["black"]["away_ms"].is_i64());
    assert_eq!(p["black"]["connected"], false);
}

#[test]
fn abandonment_is_refused_before_abandon_after_and_allowed_after() {
    let server = Server::builder().flags(&["--abandon-after", "2s"]).start();
    let g = server.create_online_clock(realtime());
    let (mut white, _) = connect(&server, &g.id);
    hello(&mut white, Some(g.white()), 1);
    let (mut black, _) = connect(&server, &g.id);
    hello(&mut black, Some(g.black()), 2);
    white.recv_any_until(|m| m["type"] == "presence" && m["black"]["connected"] == true);

    // Black is here: refused, saying when it could be claimed.
    let answer = server.abandon(&g.id, g.white());
    assert_error(&answer, 409, "not_abandoned");
    assert_error(&server.abandon(&g.id, "wrong"), 403, "bad_token");

    drop(black);
    let closed = Instant::now();
    white.recv_any_until(|m| m["type"] == "presence" && m["black"]["connected"] == false);
    let state = loop {
        let (status, body) = server.abandon(&g.id, g.white());
        if status == 200 {
            break body;
        }
        assert_error(&(status, body.clone()), 409, "not_abandoned");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains(" s"), "says how long: {message}");
        assert!(closed.elapsed() < Duration::from_secs(60), "never allowed");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        closed.elapsed() >= Duration::from_secs(2),
        "allowed {:?} after black left",
        closed.elapsed()
    );
    assert_eq!(state["status"], "over");
    assert_eq!(state["result"]["reason"], "abandonment");
    assert_eq!(state["result"]["winner"], "white");
    assert_eq!(state["result"]["text"], "Black left the game");
    assert_eq!(state["clock"]["running"], Value::Null);
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(
        record.contains("[Termination \"abandonment:black\"]"),
        "{record}"
    );
    assert_error(&server.abandon(&g.id, g.white()), 409, "game_over");
    // The record imports again with its result.
    let (status, imported) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["result"]["text"], "Black left the game");
}

#[test]
fn abandonment_over_the_live_socket_and_where_it_does_not_apply() {
    let server = Server::builder().flags(&["--abandon-after", "2s"]).start();
    // Black claimed the seat but never connected: away since then.
    let g = server.create_online_clock(realtime());
    let (mut white, _) = connect(&server, &g.id);
    let start = Instant::now();
    let mut id = 0;
    let ack = loop {
        id += 1;
        white.send(&json!({"type": "abandon", "token": g.white(), "id": id}));
        let answer = white.recv_any_until(|m| m["id"] == id);
        if answer["type"] == "ack" {
            break answer;
        }
        assert_eq!(answer["error"]["code"], "not_abandoned", "{answer}");
        assert!(start.elapsed() < Duration::from_secs(60), "never allowed");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(ack["version"].is_i64(), "{ack}");
    let over = white.recv_any_until(|m| m["type"] == "state" && m["game"]["status"] == "over");
    assert_eq!(over["game"]["result"]["text"], "Black left the game");

    // Untimed and correspondence games have no abandonment, nor do games
    // at one screen.
    let untimed = server.create_online();
    assert_error(
        &server.abandon(&untimed.id, untimed.white()),
        409,
        "no_clock",
    );
    let corr = server.create_online_clock(json!({"type": "correspondence", "days": 2}));
    assert_error(&server.abandon(&corr.id, corr.white()), 409, "no_clock");
    let hotseat = server.create(json!({"mode": "hotseat", "clock": realtime()}));
    assert_error(
        &server.abandon(&hotseat.id, hotseat.white()),
        409,
        "not_online",
    );
    // Nobody to leave while the invite is open.
    let waiting = server.create(json!({"mode": "online", "clock": realtime()}));
    assert_error(
        &server.abandon(&waiting.id, waiting.white()),
        409,
        "no_opponent",
    );
}
