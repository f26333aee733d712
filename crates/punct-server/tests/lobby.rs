//! The lobby through the real binary: a seek seen by every watcher as one
//! small message, accepted into a game whose seats both players hold; a
//! seek gone with its socket; quick pairing of two accounts into one rated
//! game; the rules (rated needs an account, one's own seek, the cap per
//! socket); and across two instances on PostgreSQL, a seek accepted by two
//! players at once and two seekers pairing at once each make one game.

mod common;

use common::{assert_error, cluster_for, http_agent, postgres_database, Server, Ws};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const PASSWORD: &str = "correct horse battery";
const BLITZ: &str = r#"{"type": "realtime", "initial": 300, "increment": 3}"#;

fn blitz() -> Value {
    serde_json::from_str(BLITZ).expect("a clock")
}

/// A lobby socket, signed in with `cookie` if given; its first message
/// (the list of seeks) read.
fn lobby(server: &Server, cookie: Option<&str>) -> (Ws, Value) {
    let cookie = cookie.map(|c| format!("punct_session={c}"));
    let mut headers = vec![];
    if let Some(c) = &cookie {
        headers.push(("cookie", c.as_str()));
    }
    let mut ws = Ws::connect_with(&server.addr, "/api/lobby/live", &headers)
        .unwrap_or_else(|e| panic!("the lobby socket: {e}"));
    let first = ws.try_recv().expect("the list of seeks");
    assert_eq!(first["type"], "seeks", "{first}");
    (ws, first)
}

/// The next message of `kind`, skipping others (seeks coming and going).
fn next(ws: &mut Ws, kind: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        let msg = ws
            .try_recv()
            .unwrap_or_else(|e| panic!("waiting for {kind}: {e}"));
        if msg["type"] == kind {
            return msg;
        }
        if msg["type"] == "error" {
            panic!("waiting for {kind}: {msg}");
        }
    }
    panic!("no {kind} message within 20 s");
}

/// Signs up `name`; the session cookie's value.
fn sign_up(server: &Server, name: &str) -> String {
    let resp = http_agent()
        .post(server.url("/api/account/signup"))
        .header("origin", &server.base)
        .send_json(json!({"name": name, "password": PASSWORD}))
        .expect("signing up");
    assert_eq!(resp.status().as_u16(), 201);
    let set = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie")
        .to_string();
    set.split(';')
        .next()
        .and_then(|p| p.split_once('='))
        .map(|(_, v)| v.to_string())
        .expect("the cookie's value")
}

/// The seats `token` holds in game `id`.
fn seats(server: &Server, id: &str, token: &str) -> Value {
    let resp = http_agent()
        .get(server.url(&format!("/api/games/{id}")))
        .header("x-punct-token", token)
        .call()
        .expect("the game");
    let text = resp.into_body().read_to_string().expect("a body");
    common::to_json(&text)["you"].clone()
}

#[test]
fn a_seek_is_seen_accepted_and_becomes_a_game_both_players_hold() {
    let server = Server::start();
    let (mut watcher, first) = lobby(&server, None);
    assert_eq!(first["seeks"], json!([]));
    let (mut seeker, _) = lobby(&server, None);
    seeker
        .send(&json!({"type": "seek", "id": 1, "clock": blitz(), "side": "white", "name": "Ann"}));
    let seeking = next(&mut seeker, "seeking");
    let seek = seeking["seek"].as_str().expect("a seek id").to_string();
    // Every watcher hears one small message: this seek, no token.
    let added = next(&mut watcher, "added");
    assert_eq!(added["seek"]["id"], seek.as_str());
    assert_eq!(added["seek"]["name"], "Ann");
    assert_eq!(added["seek"]["category"], "blitz");
    assert!(added["seek"].get("token").is_none(), "{added}");
    assert!(added.to_string().len() < 400, "a small message: {added}");
    let (_, listed) = server.get("/api/lobby");
    assert_eq!(listed["seeks"][0]["id"], seek.as_str());

    let (mut acceptor, _) = lobby(&server, None);
    acceptor.send(&json!({"type": "accept", "seek": seek, "name": "Bo"}));
    let mine = next(&mut acceptor, "paired");
    let theirs = next(&mut seeker, "paired");
    let game = mine["game"].as_str().expect("a game").to_string();
    assert_eq!(theirs["game"], game.as_str());
    assert_eq!(
        (theirs["side"].as_str(), mine["side"].as_str()),
        (Some("white"), Some("black"))
    );
    let seeker_token = theirs["token"].as_str().expect("a token");
    let acceptor_token = mine["token"].as_str().expect("a token");
    assert_ne!(seeker_token, acceptor_token);
    assert_eq!(seats(&server, &game, seeker_token), json!(["white"]));
    assert_eq!(seats(&server, &game, acceptor_token), json!(["black"]));
    let state = server.state(&game);
    assert_eq!(state["players"]["white"]["name"], "Ann");
    assert_eq!(state["players"]["black"]["name"], "Bo");
    assert_eq!(state["invite_open"], Value::Null, "{state}");
    assert_eq!(next(&mut watcher, "removed")["id"], seek.as_str());
    // Taken: a second accept finds it gone.
    acceptor.send(&json!({"type": "accept", "seek": seek}));
    let refused = next(&mut acceptor, "error");
    assert_eq!(refused["error"]["code"], "seek_gone", "{refused}");
}

#[test]
fn a_seek_goes_with_its_socket() {
    let server = Server::start();
    let (mut watcher, _) = lobby(&server, None);
    let (mut seeker, _) = lobby(&server, None);
    seeker.send(&json!({"type": "seek", "clock": blitz()}));
    let seek = next(&mut seeker, "seeking")["seek"].clone();
    assert_eq!(next(&mut watcher, "added")["seek"]["id"], seek);
    drop(seeker);
    assert_eq!(next(&mut watcher, "removed")["id"], seek);
    let (_, listed) = server.get("/api/lobby");
    assert_eq!(listed["seeks"], json!([]));
}

#[test]
fn the_lobbys_rules() {
    let server = Server::start();
    let (mut anon, _) = lobby(&server, None);
    anon.send(&json!({"type": "seek", "id": 1, "clock": blitz(), "rated": true}));
    assert_eq!(
        next(&mut anon, "error")["error"]["code"],
        "rated_needs_account"
    );
    anon.send(&json!({"type": "pool", "id": 2}));
    assert_eq!(next(&mut anon, "error")["error"]["code"], "bad_clock");
    anon.send(&json!({"type": "dance"}));
    assert_eq!(next(&mut anon, "error")["error"]["code"], "bad_message");
    for _ in 0..3 {
        anon.send(&json!({"type": "seek", "clock": blitz()}));
        next(&mut anon, "seeking");
    }
    anon.send(&json!({"type": "seek", "clock": blitz()}));
    assert_eq!(next(&mut anon, "error")["error"]["code"], "too_many_seeks");
    // One's own seek is not accepted, by the socket or by the account.
    let cookie = sign_up(&server, "carla");
    let (mut carla, _) = lobby(&server, Some(&cookie));
    carla.send(&json!({"type": "seek", "clock": blitz(), "rated": true}));
    let seek = next(&mut carla, "seeking")["seek"].clone();
    carla.send(&json!({"type": "accept", "seek": seek}));
    assert_eq!(next(&mut carla, "error")["error"]["code"], "own_seek");
    let (mut carla_again, _) = lobby(&server, Some(&cookie));
    carla_again.send(&json!({"type": "accept", "seek": seek}));
    assert_eq!(next(&mut carla_again, "error")["error"]["code"], "own_seek");
    let answer = server.get("/api/lobby/live");
    assert_error(&answer, 400, "not_websocket");
}

#[test]
fn quick_pairing_pairs_two_accounts_into_one_rated_game() {
    let server = Server::start();
    let a = sign_up(&server, "anna");
    let b = sign_up(&server, "bert");
    let (mut ws_a, _) = lobby(&server, Some(&a));
    let (mut ws_b, _) = lobby(&server, Some(&b));
    ws_a.send(&json!({"type": "pool", "clock": blitz(), "rated": true}));
    next(&mut ws_a, "seeking");
    ws_b.send(&json!({"type": "pool", "clock": blitz(), "rated": true}));
    let pa = next(&mut ws_a, "paired");
    let pb = next(&mut ws_b, "paired");
    assert_eq!(pa["game"], pb["game"]);
    assert_ne!(pa["side"], pb["side"]);
    let state = server.state(pa["game"].as_str().unwrap());
    assert_eq!(state["rated"], true, "{state}");
    let names = [
        state["players"]["white"]["name"].as_str().unwrap_or(""),
        state["players"]["black"]["name"].as_str().unwrap_or(""),
    ];
    assert!(
        names.contains(&"anna") && names.contains(&"bert"),
        "{state}"
    );
    assert!(state["white_user"].is_string() && state["black_user"].is_string());
}

/// Two instances on one PostgreSQL database of their own.
fn two_instances(test: &str) -> Option<(Server, Server)> {
    cluster_for(test)?;
    static N: AtomicUsize = AtomicUsize::new(0);
    let url = postgres_database(&format!(
        "punct_lobby_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let a = Server::builder().flags(&["--database", &url]).start();
    let b = Server::builder().flags(&["--database", &url]).start();
    Some((a, b))
}

#[test]
fn a_seek_accepted_on_two_instances_at_once_makes_one_game() {
    let Some((a, b)) = two_instances("a_seek_accepted_on_two_instances_at_once_makes_one_game")
    else {
        return;
    };
    for round in 0..5 {
        let (mut seeker, _) = lobby(&a, None);
        seeker.send(&json!({"type": "seek", "clock": blitz()}));
        let seek = next(&mut seeker, "seeking")["seek"].clone();
        // The other instance hears of it through the database.
        let (mut on_b, listed) = lobby(&b, None);
        let mut seen = listed["seeks"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x["id"] == seek));
        let (mut on_a, _) = lobby(&a, None);
        if !seen {
            seen = next(&mut on_b, "added")["seek"]["id"] == seek;
        }
        assert!(seen, "round {round}: instance B never heard of the seek");
        let accept = json!({"type": "accept", "seek": seek});
        on_a.send(&accept);
        on_b.send(&accept);
        let answers: Vec<Value> = [&mut on_a, &mut on_b]
            .into_iter()
            .map(|ws| loop {
                let m = ws.try_recv().expect("an answer");
                if m["type"] == "paired" || m["type"] == "error" {
                    break m;
                }
            })
            .collect();
        let paired: Vec<&Value> = answers.iter().filter(|m| m["type"] == "paired").collect();
        assert_eq!(paired.len(), 1, "round {round}: {answers:?}");
        let other = answers
            .iter()
            .find(|m| m["type"] == "error")
            .expect("one refusal");
        assert_eq!(other["error"]["code"], "seek_gone", "round {round}");
        assert_eq!(next(&mut seeker, "paired")["game"], paired[0]["game"]);
    }
}

#[test]
fn two_seekers_pairing_on_two_instances_at_once_make_one_game() {
    let Some((a, b)) = two_instances("two_seekers_pairing_on_two_instances_at_once_make_one_game")
    else {
        return;
    };
    for round in 0..5 {
        let (mut on_a, _) = lobby(&a, None);
        let (mut on_b, _) = lobby(&b, None);
        let pool = json!({"type": "pool", "clock": blitz()});
        on_a.send(&pool);
        on_b.send(&pool);
        let pa = next(&mut on_a, "paired");
        let pb = next(&mut on_b, "paired");
        assert_eq!(pa["game"], pb["game"], "round {round}");
        assert_ne!(pa["side"], pb["side"], "round {round}");
        let (_, listed) = a.get("/api/lobby");
        assert_eq!(listed["seeks"], json!([]), "round {round}");
    }
}
