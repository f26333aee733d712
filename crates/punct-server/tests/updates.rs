//! Live sockets that follow moves (`?updates=moves`): after the first
//! state, a move comes as an `update` of a few hundred bytes (the move,
//! the version, the clock, what else changed), an offer as an update
//! without a move, and the whole state only where the socket cannot
//! follow: the game's end, a `sync` asked for, a socket that missed one.
//! A socket that does not ask keeps whole states.

mod common;

use common::*;
use serde_json::{json, Value};

const MOVES: &str = "?updates=moves&legal_moves=false";

fn open(server: &Server, id: &str, query: &str) -> Ws {
    let addr = server
        .url("")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    Ws::connect(&addr, &format!("/api/games/{id}/live{query}")).expect("live socket")
}

/// The next message that is not `time`, `presence` or `ack`, as its
/// text (to measure) and its JSON.
fn next(ws: &mut Ws) -> (String, Value) {
    loop {
        let text = ws.try_recv_text().expect("a message");
        let value = to_json(&text);
        if value["type"] != "ack" {
            return (text, value);
        }
    }
}

#[test]
fn a_socket_that_follows_moves_gets_moves_and_a_state_only_when_it_must() {
    let server = Server::start();
    let mut g = server.create(json!({
        "mode": "online",
        "clock": {"type": "realtime", "initial": 300, "increment": 3},
    }));
    let code = g.invite.clone().unwrap();
    let (status, body) = server.claim(&g.id, &code);
    assert_eq!(status, 200, "{body}");
    g.black = body["token"].as_str().map(str::to_string);
    let (white, black) = (g.white().to_string(), g.black().to_string());

    let mut watcher = open(&server, &g.id, MOVES);
    let mut states = open(&server, &g.id, "?legal_moves=false");
    let (_, first) = next(&mut watcher);
    assert_eq!(
        first["type"], "state",
        "the first message is the whole state"
    );
    let mut version = first["game"]["version"].as_i64().unwrap();
    assert_eq!(next(&mut states).1["type"], "state");

    // Moves: each an update under 300 bytes, following the last version.
    for (i, (token, mv)) in [(&white, "E@C5/2"), (&black, "T@O12/0"), (&white, "C@B7/2")]
        .into_iter()
        .enumerate()
    {
        server.play_ok(&g.id, token, mv);
        let (text, u) = next(&mut watcher);
        assert_eq!(u["type"], "update", "{text}");
        assert_eq!(u["move"], mv);
        assert_eq!(u["ply"], i + 1);
        assert_eq!(u["previous"].as_i64(), Some(version));
        assert!(u["version"].as_i64().unwrap() > version);
        version = u["version"].as_i64().unwrap();
        assert!(
            u["changes"]["clock"].is_object(),
            "the clocks come with the move: {text}"
        );
        for board in [
            "pieces",
            "stacks",
            "position",
            "legal_moves",
            "legal_compact",
            "moves",
        ] {
            assert!(
                u.get(board).is_none() && u["changes"].get(board).is_none(),
                "{board}: {text}"
            );
        }
        assert!(
            text.len() <= 300,
            "a move's update is {} bytes: {text}",
            text.len()
        );
        eprintln!("{} bytes: {text}", text.len());
        // The socket that asked for nothing gets the whole state.
        let (_, s) = next(&mut states);
        assert_eq!(
            (s["type"].as_str(), s["game"]["ply"].as_u64()),
            (Some("state"), Some(i as u64 + 1))
        );
    }

    // An offer: an update with no move, naming it.
    let (status, body) = server.action(&g.id, "draw", &black, "offer");
    assert_eq!(status, 200, "{body}");
    let (text, u) = next(&mut watcher);
    assert_eq!(u["type"], "update", "{text}");
    assert!(u.get("move").is_none());
    assert_eq!(u["changes"]["draw_offer"], "black");
    assert_eq!(u["ply"], 3);

    // The next move lapses it: named in the same update.
    server.play_ok(&g.id, &black, "R@L13/1");
    let (text, u) = next(&mut watcher);
    assert_eq!(u["move"], "R@L13/1", "{text}");
    assert_eq!(u["changes"]["draw_offer"], Value::Null, "{text}");

    // `sync`: the whole state, and the next move follows from it.
    watcher.send(&json!({"type": "sync"}));
    let (_, s) = next(&mut watcher);
    assert_eq!(s["type"], "state");
    assert_eq!(s["game"]["ply"], 4);
    server.play_ok(&g.id, &white, "L@E4/2");
    assert_eq!(next(&mut watcher).1["move"], "L@E4/2");

    // The end: a whole state (the result, the board no longer to move).
    let (status, body) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": black}),
    );
    assert_eq!(status, 200, "{body}");
    let (_, end) = next(&mut watcher);
    assert_eq!(end["type"], "state");
    assert_eq!(end["game"]["status"], "over");
    assert!(end["game"]["result"].is_object());
}

#[test]
fn updates_is_a_known_word() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    let addr = server
        .url("")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let refused = Ws::connect(&addr, &format!("/api/games/{}/live?updates=diffs", g.id));
    assert_eq!(refused.err().as_deref(), Some("HTTP 400"));
}

#[test]
fn a_socket_that_holds_the_games_version_gets_no_whole_state() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    server.play_ok(&g.id, g.white(), "E@C5/2");
    let version = server.state(&g.id)["version"].as_i64().unwrap();

    let mut held = open(&server, &g.id, &format!("{MOVES}&version={version}"));
    let (text, first) = next(&mut held);
    assert_eq!(first["type"], "update", "{text}");
    assert_eq!(
        (first["version"].as_i64(), first["previous"].as_i64()),
        (Some(version), Some(version))
    );
    assert_eq!(first["ply"], 1);
    assert!(first.get("move").is_none());
    assert!(text.len() < 200, "{text}");
    // The next move follows from it.
    server.play_ok(&g.id, g.white(), "T@O12/0");
    let (_, u) = next(&mut held);
    assert_eq!(
        (u["type"].as_str(), u["move"].as_str()),
        (Some("update"), Some("T@O12/0"))
    );

    // An older version: the whole state.
    let mut behind = open(&server, &g.id, &format!("{MOVES}&version={}", version - 1));
    assert_eq!(next(&mut behind).1["type"], "state");
    // Without updates=moves the version changes nothing.
    let mut states = open(&server, &g.id, &format!("?version={}", version + 1));
    assert_eq!(next(&mut states).1["type"], "state");
}
