//! In-site notifications through the real binary: a challenge reaches the
//! challenged player's account socket and list, kept until read; a
//! correspondence move tells the player to move, a resignation the
//! opponent; a clock running low is warned of once per turn by the sweep;
//! marking read (some, all) and the refusals (another account, no
//! session, a foreign Origin, a bad body). On PostgreSQL, across two
//! instances: a challenge made on one reaches the socket on the other, and
//! each move's notification comes once.

mod common;

use common::{assert_error, http_agent, two_instances, Server, Ws};
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";

fn sign_up(server: &Server, name: &str) -> String {
    common::sign_up_cookie(server, name, PASSWORD)
}

/// A request with session `cookie` (if any) and `origin` (if any).
fn call(
    server: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
    origin: Option<&str>,
) -> (u16, Value) {
    let agent = http_agent();
    let cookie = cookie.map(|c| format!("punct_session={c}"));
    let resp = match method {
        "GET" => {
            let mut req = agent.get(server.url(path));
            if let Some(c) = &cookie {
                req = req.header("cookie", c);
            }
            req.call()
        }
        _ => {
            let mut req = agent.post(server.url(path));
            if let Some(c) = &cookie {
                req = req.header("cookie", c);
            }
            if let Some(o) = origin {
                req = req.header("origin", o);
            }
            req.send_json(body.cloned().unwrap_or(json!({})))
        }
    }
    .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = resp.status().as_u16();
    let text = resp.into_body().read_to_string().expect("a body");
    (status, common::to_json(&text))
}

fn list(server: &Server, cookie: &str) -> Value {
    let (status, v) = call(
        server,
        "GET",
        "/api/account/notifications",
        Some(cookie),
        None,
        None,
    );
    assert_eq!(status, 200, "{v}");
    v
}

fn mark(server: &Server, cookie: &str, body: Value) -> (u16, Value) {
    call(
        server,
        "POST",
        "/api/account/notifications/read",
        Some(cookie),
        Some(&body),
        Some(&server.base),
    )
}

/// The account's live socket, its first message (the unread count) read.
fn account_socket(server: &Server, cookie: &str) -> (Ws, u64) {
    let cookie = format!("punct_session={cookie}");
    let mut ws = Ws::connect_with(&server.addr, "/api/account/live", &[("cookie", &cookie)])
        .unwrap_or_else(|e| panic!("the account socket: {e}"));
    let first = ws.try_recv().expect("the unread count");
    assert_eq!(first["type"], "unread", "{first}");
    (ws, first["unread"].as_u64().expect("a count"))
}

/// The next notification on an account socket (skipping counts).
fn next_note(ws: &mut Ws) -> Value {
    let msg = common::next_of(ws, "notification");
    assert!(msg["unread"].as_u64().is_some(), "{msg}");
    msg
}

fn kinds(list: &Value) -> Vec<String> {
    list["notifications"]
        .as_array()
        .expect("notifications")
        .iter()
        .map(|n| n["kind"].as_str().unwrap_or("").to_string())
        .collect()
}

/// `from` challenges `to` (by name) with `clock`, `from` playing white;
/// `to` accepts on its lobby socket. The game and both seats' tokens.
fn challenge_and_accept(
    lobby_from: &mut Ws,
    lobby_to: &mut Ws,
    to: &str,
    clock: Value,
) -> (String, String, String) {
    lobby_from.send(&json!({"type": "challenge", "to": to, "clock": clock, "side": "white"}));
    let seek = common::next_of(lobby_from, "seeking")["seek"].clone();
    common::next_of(lobby_to, "challenge");
    lobby_to.send(&json!({"type": "accept", "seek": seek}));
    let for_to = common::next_of(lobby_to, "paired");
    let for_from = common::next_of(lobby_from, "paired");
    assert_eq!(for_from["side"], "white");
    (
        for_to["game"].as_str().expect("a game").to_string(),
        for_from["token"].as_str().expect("a token").to_string(),
        for_to["token"].as_str().expect("a token").to_string(),
    )
}

fn days(n: u64) -> Value {
    json!({"type": "correspondence", "days": n})
}

/// Plays the first legal move of game `id` with `token`.
fn play_any(server: &Server, id: &str, token: &str) {
    let state = server.state(id);
    let mv = common::legal_moves(&state)
        .into_iter()
        .next()
        .expect("a legal move");
    server.play_ok(id, token, &mv);
}

#[test]
fn a_challenge_is_kept_until_read_and_only_its_player_reads_it() {
    let server = Server::start();
    let ann = sign_up(&server, "ann");
    let bob = sign_up(&server, "bob");
    let carl = sign_up(&server, "carl");
    let (mut live_bob, unread) = account_socket(&server, &bob);
    assert_eq!(unread, 0);
    let (mut ws_ann, _) = common::lobby_socket(&server, Some(&ann));
    ws_ann.send(&json!({"type": "challenge", "to": "bob", "clock": days(3)}));
    let seek = common::next_of(&mut ws_ann, "seeking")["seek"].clone();
    let msg = next_note(&mut live_bob);
    assert_eq!(msg["unread"], 1, "{msg}");
    let note = &msg["notification"];
    assert_eq!(
        (
            &note["kind"],
            &note["challenge"],
            &note["other"],
            &note["read"]
        ),
        (&json!("challenge"), &seek, &json!("ann"), &json!(false)),
        "{note}"
    );
    let id = note["id"].as_i64().expect("an id");
    // Kept: the list has it, and a socket opened later counts it.
    let listed = list(&server, &bob);
    assert_eq!(listed["unread"], 1);
    assert_eq!(listed["notifications"][0]["id"], id, "{listed}");
    assert_eq!(account_socket(&server, &bob).1, 1);

    // Carl neither sees it nor marks it read.
    assert_eq!(list(&server, &carl)["notifications"], json!([]));
    let (status, v) = mark(&server, &carl, json!({"ids": [id]}));
    assert_eq!((status, &v["unread"]), (200, &json!(0)), "{v}");
    assert_eq!(list(&server, &bob)["unread"], 1);

    // Without a session: 401, over HTTP and for the socket.
    let none = call(
        &server,
        "GET",
        "/api/account/notifications",
        None,
        None,
        None,
    );
    assert_error(&none, 401, "not_signed_in");
    let none = call(
        &server,
        "POST",
        "/api/account/notifications/read",
        None,
        Some(&json!({"all": true})),
        Some(&server.base),
    );
    assert_error(&none, 401, "not_signed_in");
    let refused = Ws::connect_with(&server.addr, "/api/account/live", &[])
        .err()
        .expect("refused");
    assert!(refused.starts_with("HTTP 401"), "{refused}");
    // From another site's page, or without saying: refused.
    for origin in [Some("http://evil.example"), None] {
        let answer = call(
            &server,
            "POST",
            "/api/account/notifications/read",
            Some(&bob),
            Some(&json!({"all": true})),
            origin,
        );
        assert_error(&answer, 403, "cross_origin");
    }
    assert_eq!(list(&server, &bob)["unread"], 1);
    // A marking that names nothing, or both ways: 400.
    for (bad, code) in [
        (json!({}), "bad_marking"),
        (json!({"ids": []}), "bad_marking"),
        (json!({"ids": [id], "all": true}), "bad_marking"),
        (json!({"ids": "all"}), "bad_json"),
        (json!({"every": true}), "bad_json"),
    ] {
        assert_error(&mark(&server, &bob, bad), 400, code);
    }
    let bad = call(
        &server,
        "GET",
        "/api/account/notifications?limit=0",
        Some(&bob),
        None,
        None,
    );
    assert_error(&bad, 400, "bad_query");

    // Bob reads it: the count falls, on his socket too.
    let (status, v) = mark(&server, &bob, json!({"ids": [id]}));
    assert_eq!((status, &v["unread"]), (200, &json!(0)), "{v}");
    assert_eq!(common::next_of(&mut live_bob, "unread")["unread"], 0);
    let listed = list(&server, &bob);
    assert_eq!(listed["notifications"][0]["read"], true, "{listed}");

    // Two more, all read at once.
    for _ in 0..2 {
        ws_ann.send(&json!({"type": "challenge", "to": "bob", "clock": days(3)}));
        common::next_of(&mut ws_ann, "seeking");
        next_note(&mut live_bob);
    }
    assert_eq!(list(&server, &bob)["unread"], 2);
    let (status, v) = mark(&server, &bob, json!({"all": true}));
    assert_eq!((status, &v["unread"]), (200, &json!(0)), "{v}");
    let listed = list(&server, &bob);
    assert_eq!(kinds(&listed), ["challenge"; 3]);
    // Paged.
    let (_, page) = call(
        &server,
        "GET",
        "/api/account/notifications?offset=1&limit=1",
        Some(&bob),
        None,
        None,
    );
    assert_eq!(page["notifications"][0], listed["notifications"][1]);
}

#[test]
fn a_correspondence_move_tells_the_player_to_move_and_a_resignation_the_opponent() {
    let server = Server::start();
    let ann = sign_up(&server, "ann");
    let bob = sign_up(&server, "bob");
    let (mut lobby_ann, _) = common::lobby_socket(&server, Some(&ann));
    let (mut lobby_bob, _) = common::lobby_socket(&server, Some(&bob));
    let (mut live_ann, _) = account_socket(&server, &ann);
    let (mut live_bob, _) = account_socket(&server, &bob);
    let (game, white, black) = challenge_and_accept(&mut lobby_ann, &mut lobby_bob, "bob", days(2));
    assert_eq!(
        next_note(&mut live_bob)["notification"]["kind"],
        "challenge"
    );
    play_any(&server, &game, &white);
    let turn = next_note(&mut live_bob);
    let note = &turn["notification"];
    assert_eq!(
        (&note["kind"], &note["game"], &note["ply"], &note["other"]),
        (&json!("your_turn"), &json!(game), &json!(1), &json!("ann")),
        "{turn}"
    );
    play_any(&server, &game, &black);
    assert_eq!(
        next_note(&mut live_ann)["notification"]["ply"],
        2,
        "ann's turn at ply 2"
    );
    // Bob resigns: ann hears the game is over; bob, who ended it, does not.
    let (status, v) = server.post(
        &format!("/api/games/{game}/resign"),
        &json!({"token": black}),
    );
    assert_eq!(status, 200, "{v}");
    let over = next_note(&mut live_ann);
    assert_eq!(over["notification"]["kind"], "game_over", "{over}");
    assert_eq!(over["notification"]["other"], "bob");
    assert_eq!(kinds(&list(&server, &bob)), ["your_turn", "challenge"]);
    assert_eq!(kinds(&list(&server, &ann)), ["game_over", "your_turn"]);

    // A real-time game's moves make none: the next note bob hears is the
    // next challenge's.
    let blitz = json!({"type": "realtime", "initial": 300, "increment": 3});
    let (game, white, _) = challenge_and_accept(&mut lobby_ann, &mut lobby_bob, "bob", blitz);
    play_any(&server, &game, &white);
    lobby_ann.send(&json!({"type": "challenge", "to": "bob", "clock": days(1)}));
    common::next_of(&mut lobby_ann, "seeking");
    assert_eq!(
        next_note(&mut live_bob)["notification"]["kind"],
        "challenge"
    );
    assert_eq!(
        next_note(&mut live_bob)["notification"]["kind"],
        "challenge"
    );
}

#[test]
fn a_clock_running_low_is_warned_of_once_per_turn() {
    // Every correspondence clock counts as low (all of a day's time per
    // move), looked at every second.
    let server = Server::builder()
        .flags(&[
            "--time-low",
            "24h",
            "--time-low-percent",
            "100",
            "--notes-sweep",
            "1",
        ])
        .start();
    let ann = sign_up(&server, "ann");
    let bob = sign_up(&server, "bob");
    let (mut lobby_ann, _) = common::lobby_socket(&server, Some(&ann));
    let (mut lobby_bob, _) = common::lobby_socket(&server, Some(&bob));
    let (mut live_ann, _) = account_socket(&server, &ann);
    let (mut live_bob, _) = account_socket(&server, &bob);
    let (game, white, _) = challenge_and_accept(&mut lobby_ann, &mut lobby_bob, "bob", days(1));
    let low = next_note(&mut live_ann);
    let note = &low["notification"];
    assert_eq!(
        (&note["kind"], &note["game"], &note["ply"]),
        (&json!("time_low"), &json!(game), &json!(0)),
        "{low}"
    );
    play_any(&server, &game, &white);
    // Bob hears his turn and, by a sweep after the move, his clock's
    // warning (in either order).
    assert_eq!(
        next_note(&mut live_bob)["notification"]["kind"],
        "challenge"
    );
    let mut heard: Vec<(String, Value)> = (0..2)
        .map(|_| {
            let n = next_note(&mut live_bob)["notification"].clone();
            (
                n["kind"].as_str().unwrap_or("").to_string(),
                n["ply"].clone(),
            )
        })
        .collect();
    heard.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(
        heard,
        [
            ("time_low".to_string(), json!(1)),
            ("your_turn".to_string(), json!(1))
        ]
    );
    // The sweeps since ann's warning made no second one for her turn.
    assert_eq!(kinds(&list(&server, &ann)), ["time_low"]);
}

#[test]
fn across_two_instances_a_challenge_and_each_move_reach_the_player_once() {
    let Some((a, b)) = two_instances(
        "across_two_instances_a_challenge_and_each_move_reach_the_player_once",
        &[],
    ) else {
        return;
    };
    let ann = sign_up(&a, "ann");
    let bob = sign_up(&b, "bob");
    // Bob's pages are on B, ann plays on A.
    let (mut live_bob, _) = account_socket(&b, &bob);
    let (mut lobby_ann, _) = common::lobby_socket(&a, Some(&ann));
    let (mut lobby_bob, _) = common::lobby_socket(&b, Some(&bob));
    let (game, white, black) = challenge_and_accept(&mut lobby_ann, &mut lobby_bob, "bob", days(3));
    let first = next_note(&mut live_bob);
    assert_eq!(first["notification"]["kind"], "challenge", "{first}");
    assert_eq!(first["notification"]["other"], "ann");
    // Both instances hold the game; each move is told once, from A's
    // commit, to bob's socket on B.
    assert_eq!(b.state(&game)["moves"], json!([]));
    play_any(&a, &game, &white);
    let turn = next_note(&mut live_bob);
    assert_eq!(turn["notification"]["ply"], 1, "{turn}");
    play_any(&b, &game, &black);
    play_any(&a, &game, &white);
    let turn = next_note(&mut live_bob);
    assert_eq!(
        turn["notification"]["ply"], 3,
        "no second note of ply 1: {turn}"
    );
    assert_eq!(turn["unread"], 3);
    let listed = list(&a, &bob);
    assert_eq!(kinds(&listed), ["your_turn", "your_turn", "challenge"]);
    // Read on A: bob's socket on B hears the count.
    let (status, v) = mark(&a, &bob, json!({"all": true}));
    assert_eq!((status, &v["unread"]), (200, &json!(0)), "{v}");
    assert_eq!(common::next_of(&mut live_bob, "unread")["unread"], 0);
}
