//! The lobby through the real binary: a seek seen by every watcher as one
//! small message, accepted into a game whose seats both players hold; a
//! seek gone with its socket; quick pairing of two accounts into one rated
//! game; the rules (rated needs an account, one's own seek, the cap per
//! socket); and across two instances on PostgreSQL, a seek accepted by two
//! players at once and two seekers pairing at once each make one game.
//! Challenges: offered to one player only, declined or accepted (also
//! across instances); who may challenge whom, and blocks.

mod common;

use common::{assert_error, http_agent, two_instances, Server, Ws};
use serde_json::{json, Value};
use std::time::Duration;

const PASSWORD: &str = "correct horse battery";
const BLITZ: &str = r#"{"type": "realtime", "initial": 300, "increment": 3}"#;

fn blitz() -> Value {
    serde_json::from_str(BLITZ).expect("a clock")
}

fn lobby(server: &Server, cookie: Option<&str>) -> (Ws, Value) {
    common::lobby_socket(server, cookie)
}

fn next(ws: &mut Ws, kind: &str) -> Value {
    common::next_of(ws, kind)
}

fn sign_up(server: &Server, name: &str) -> String {
    common::sign_up_cookie(server, name, PASSWORD)
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

#[test]
fn a_seek_accepted_on_two_instances_at_once_makes_one_game() {
    let Some((a, b)) = two_instances(
        "a_seek_accepted_on_two_instances_at_once_makes_one_game",
        &[],
    ) else {
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
    let Some((a, b)) = two_instances(
        "two_seekers_pairing_on_two_instances_at_once_make_one_game",
        &[],
    ) else {
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

/// A request as the account of session `cookie` (with the site's Origin,
/// as the page sends it): the status and the body.
fn as_member(server: &Server, method: &str, path: &str, cookie: &str) -> (u16, Value) {
    let cookie = format!("punct_session={cookie}");
    let agent = http_agent();
    let resp = match method {
        "GET" => agent.get(server.url(path)).header("cookie", &cookie).call(),
        _ => agent
            .post(server.url(path))
            .header("cookie", &cookie)
            .header("origin", &server.base)
            .send_json(json!({})),
    }
    .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = resp.status().as_u16();
    let text = resp.into_body().read_to_string().expect("a body");
    (status, common::to_json(&text))
}

#[test]
fn a_challenge_reaches_only_its_player_who_declines_one_and_accepts_another() {
    let server = Server::start();
    let ann = sign_up(&server, "ann");
    let bob = sign_up(&server, "bob");
    let carl = sign_up(&server, "carl");
    let (mut watcher, _) = lobby(&server, None);
    let (mut ws_carl, _) = lobby(&server, Some(&carl));
    let (mut ws_bob, first) = lobby(&server, Some(&bob));
    assert_eq!(first["challenges"], json!({"incoming": [], "outgoing": []}));
    let (mut ws_ann, _) = lobby(&server, Some(&ann));
    // The name in any case, as profiles take it.
    ws_ann.send(
        &json!({"type": "challenge", "id": 7, "to": "BOB", "clock": blitz(),
                        "rated": true, "side": "black"}),
    );
    let seeking = next(&mut ws_ann, "seeking");
    assert_eq!(
        (seeking["kind"].as_str(), seeking["id"].as_i64()),
        (Some("challenge"), Some(7))
    );
    let first_id = seeking["seek"].as_str().expect("an id").to_string();
    let offered = next(&mut ws_bob, "challenge");
    assert_eq!(offered["seek"]["id"], first_id.as_str());
    assert_eq!(offered["seek"]["name"], "ann");
    assert_eq!(offered["seek"]["kind"], "challenge");
    assert!(offered["seek"].get("token").is_none(), "{offered}");
    // Not an open seek: not listed, and others hear nothing of it.
    assert_eq!(server.get("/api/lobby").1["seeks"], json!([]));
    let (_, mine) = as_member(&server, "GET", "/api/challenges", &bob);
    assert_eq!(mine["incoming"][0]["id"], first_id.as_str(), "{mine}");
    assert_eq!(mine["incoming"][0]["to"], "bob");
    let (_, theirs) = as_member(&server, "GET", "/api/challenges", &ann);
    assert_eq!(theirs["outgoing"][0]["to"], "bob", "{theirs}");
    // Nobody but bob takes or declines it.
    ws_carl.send(&json!({"type": "accept", "seek": first_id}));
    assert_eq!(next(&mut ws_carl, "error")["error"]["code"], "seek_gone");
    let path = format!("/api/challenges/{first_id}/decline");
    common::assert_error(
        &as_member(&server, "POST", &path, &carl),
        404,
        "no_challenge",
    );
    // Bob declines it: ann hears it, and it is gone.
    let (status, declined) = as_member(&server, "POST", &path, &bob);
    assert_eq!(status, 200, "{declined}");
    assert_eq!(next(&mut ws_ann, "declined")["seek"], first_id.as_str());
    assert_eq!(next(&mut ws_bob, "removed")["id"], first_id.as_str());
    assert_eq!(
        as_member(&server, "GET", "/api/challenges", &bob).1["incoming"],
        json!([])
    );
    common::assert_error(
        &as_member(&server, "POST", &path, &bob),
        404,
        "no_challenge",
    );

    // A second one, accepted: one rated game, ann black as she asked.
    ws_ann.send(
        &json!({"type": "challenge", "to": "bob", "clock": blitz(), "rated": true,
                        "side": "black"}),
    );
    let second = next(&mut ws_ann, "seeking")["seek"].clone();
    assert_eq!(next(&mut ws_bob, "challenge")["seek"]["id"], second);
    ws_bob.send(&json!({"type": "accept", "id": 3, "seek": second}));
    let for_bob = next(&mut ws_bob, "paired");
    assert_eq!(for_bob["id"], 3, "the answer names its request: {for_bob}");
    let for_ann = next(&mut ws_ann, "paired");
    assert_eq!(for_ann["game"], for_bob["game"]);
    assert_eq!(
        (for_ann["side"].as_str(), for_bob["side"].as_str()),
        (Some("black"), Some("white"))
    );
    let state = server.state(for_ann["game"].as_str().expect("a game"));
    assert_eq!(state["rated"], true);
    assert_eq!(state["players"]["black"]["name"], "ann");
    // The anonymous watcher heard of neither challenge (at most that ids
    // it never saw left).
    watcher.send(&json!({"type": "dance"}));
    loop {
        let msg = watcher.try_recv().expect("an answer");
        match msg["type"].as_str() {
            Some("error") => break,
            Some("removed") => {}
            _ => panic!("the watcher heard {msg}"),
        }
    }
}

#[test]
fn who_may_challenge_whom_and_blocks() {
    let server = Server::start();
    let ann = sign_up(&server, "ann");
    let bob = sign_up(&server, "bob");
    let (mut ws_ann, _) = lobby(&server, Some(&ann));
    let (mut ws_bob, _) = lobby(&server, Some(&bob));
    let (mut anon, _) = lobby(&server, None);
    let challenge = |to: &str| json!({"type": "challenge", "to": to, "clock": blitz()});
    anon.send(&challenge("bob"));
    assert_eq!(next(&mut anon, "error")["error"]["code"], "not_signed_in");
    for (to, code) in [
        ("ann", "own_challenge"),
        ("nobody", "no_user"),
        ("b\u{0}b", "no_user"),
        ("level2", "challenge_ai"),
    ] {
        ws_ann.send(&challenge(to));
        assert_eq!(next(&mut ws_ann, "error")["error"]["code"], code, "{to}");
    }
    ws_ann.send(
        &json!({"type": "challenge", "to": "bob", "clock": blitz(), "pool": true,
                        "side": "purple"}),
    );
    assert_eq!(next(&mut ws_ann, "error")["error"]["code"], "bad_side");

    // Bob blocks ann: no challenge either way, no seek accepted either way.
    let (status, blocked) = as_member(&server, "POST", "/api/users/Ann/block", &bob);
    assert_eq!(
        (status, &blocked),
        (200, &json!({"name": "ann", "blocked": true}))
    );
    let (_, list) = as_member(&server, "GET", "/api/account/blocks", &bob);
    assert_eq!(list["blocks"][0]["name"], "ann", "{list}");
    assert_eq!(
        as_member(&server, "GET", "/api/account/blocks", &ann).1["blocks"],
        json!([])
    );
    common::assert_error(
        &as_member(&server, "POST", "/api/users/bob/block", &bob),
        409,
        "own_account",
    );
    for (ws, to) in [(&mut ws_ann, "bob"), (&mut ws_bob, "ann")] {
        ws.send(&challenge(to));
        let refused = next(ws, "error");
        assert_eq!(refused["error"]["code"], "blocked", "{refused}");
    }
    ws_ann.send(&json!({"type": "seek", "clock": blitz()}));
    let seek = next(&mut ws_ann, "seeking")["seek"].clone();
    ws_bob.send(&json!({"type": "accept", "seek": seek}));
    assert_eq!(next(&mut ws_bob, "error")["error"]["code"], "blocked");
    ws_ann.send(&json!({"type": "cancel", "seek": seek}));
    next(&mut ws_ann, "cancelled");
    // Quick pairing passes over them; a third player is paired.
    ws_ann.send(&json!({"type": "pool", "clock": blitz()}));
    next(&mut ws_ann, "seeking");
    ws_bob.send(&json!({"type": "pool", "clock": blitz()}));
    next(&mut ws_bob, "seeking");
    std::thread::sleep(Duration::from_millis(2500));
    let carl = sign_up(&server, "carl");
    let (mut ws_carl, _) = lobby(&server, Some(&carl));
    ws_carl.send(&json!({"type": "pool", "clock": blitz()}));
    let game = next(&mut ws_carl, "paired")["game"].clone();
    let state = server.state(game.as_str().expect("a game"));
    let names = [
        state["players"]["white"]["name"].as_str().unwrap_or(""),
        state["players"]["black"]["name"].as_str().unwrap_or(""),
    ];
    assert!(names.contains(&"carl"), "{state}");
    // Unblocked: a challenge goes through again.
    let (status, _) = as_member(&server, "POST", "/api/users/ann/unblock", &bob);
    assert_eq!(status, 200);
    let (mut ws_ann2, _) = lobby(&server, Some(&ann));
    ws_ann2.send(&challenge("bob"));
    next(&mut ws_ann2, "seeking");
}

#[test]
fn a_challenge_declined_on_another_instance_reaches_its_challenger() {
    let Some((a, b)) = two_instances(
        "a_challenge_declined_on_another_instance_reaches_its_challenger",
        &[],
    ) else {
        return;
    };
    let ann = sign_up(&a, "ann");
    let bob = sign_up(&b, "bob");
    let (mut ws_bob, _) = lobby(&b, Some(&bob));
    let (mut ws_ann, _) = lobby(&a, Some(&ann));
    ws_ann.send(&json!({"type": "challenge", "to": "bob", "clock": blitz()}));
    let id = next(&mut ws_ann, "seeking")["seek"].clone();
    assert_eq!(next(&mut ws_bob, "challenge")["seek"]["id"], id);
    ws_bob.send(&json!({"type": "decline", "id": 1, "seek": id}));
    assert_eq!(next(&mut ws_bob, "declined_ok")["seek"], id);
    assert_eq!(next(&mut ws_ann, "declined")["seek"], id);
    // Another, accepted over HTTP on B: the game reaches ann on A.
    ws_ann.send(&json!({"type": "challenge", "to": "bob", "clock": blitz()}));
    let id = next(&mut ws_ann, "seeking")["seek"].clone();
    next(&mut ws_bob, "challenge");
    let path = format!("/api/challenges/{}/accept", id.as_str().expect("an id"));
    let (status, paired) = as_member(&b, "POST", &path, &bob);
    assert_eq!(status, 200, "{paired}");
    assert_eq!(next(&mut ws_ann, "paired")["game"], paired["game"]);
}
