//! The players' chat through the real binary: phrases of the fixed set
//! only, said by a seat of an online game (during it and after it), kept
//! with the game, shown to every watcher's socket and to another instance
//! sharing the database; anything else refused with a clear error.

mod common;

use common::{assert_error, Server};
use serde_json::{json, Value};

fn say(server: &Server, id: &str, token: &str, phrase: &str) -> (u16, Value) {
    server.post(
        &format!("/api/games/{id}/chat"),
        &json!({"token": token, "phrase": phrase}),
    )
}

/// The chat of a state as (side, phrase, ply).
fn lines(state: &Value) -> Vec<(String, String, u64)> {
    state["chat"]
        .as_array()
        .expect("the state's chat")
        .iter()
        .map(|l| {
            (
                l["side"].as_str().unwrap_or("").to_string(),
                l["phrase"].as_str().unwrap_or("").to_string(),
                l["ply"].as_u64().unwrap_or(u64::MAX),
            )
        })
        .collect()
}

fn line(side: &str, phrase: &str, ply: u64) -> (String, String, u64) {
    (side.to_string(), phrase.to_string(), ply)
}

#[test]
fn the_seats_say_fixed_phrases_that_every_watcher_sees() {
    let server = Server::start();
    let g = server.create_online();
    let (white, black) = (g.white().to_string(), g.black().to_string());
    assert_eq!(lines(&server.state(&g.id)), vec![], "no chat at first");
    let mut watcher = server.live(&g.id);
    watcher.next_state();

    let (status, state) = say(&server, &g.id, &white, "good_luck");
    assert_eq!(status, 200, "{state}");
    assert_eq!(lines(&state), vec![line("white", "good_luck", 0)]);
    assert_eq!(
        lines(&watcher.next_state()),
        vec![line("white", "good_luck", 0)]
    );
    let mv = common::legal_moves(&state)[0].clone();
    server.play_ok(&g.id, &white, &mv);
    say(&server, &g.id, &black, "have_fun");
    let want = vec![line("white", "good_luck", 0), line("black", "have_fun", 1)];
    assert_eq!(lines(&server.state(&g.id)), want);

    // Nothing else: free text, no seat, a game that is not online.
    let refused = say(&server, &g.id, &white, "you lose");
    assert_error(&refused, 400, "not_a_phrase");
    assert_eq!(
        refused.1["error"]["params"]["phrases"][0], "good_luck",
        "{refused:?}"
    );
    assert_error(
        &say(&server, &g.id, "nobody", "good_game"),
        403,
        "bad_token",
    );
    let hotseat = server.create(json!({"mode": "hotseat"}));
    assert_error(
        &say(&server, &hotseat.id, hotseat.white(), "good_luck"),
        409,
        "not_online",
    );
    let ai = server.create(json!({"mode": "ai", "level": 1}));
    assert_error(
        &say(&server, &ai.id, ai.white(), "good_luck"),
        409,
        "not_online",
    );

    // After the game too; a seat says a dozen at most.
    let (status, _) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": black}),
    );
    assert_eq!(status, 200);
    assert_eq!(say(&server, &g.id, &black, "good_game").0, 200);
    for _ in 0..11 {
        assert_eq!(say(&server, &g.id, &white, "thank_you").0, 200);
    }
    assert_error(&say(&server, &g.id, &white, "thank_you"), 409, "chat_full");
    let state = server.state(&g.id);
    assert_eq!(lines(&state).len(), 3 + 11, "{state}");
    assert_eq!(lines(&state)[2], line("black", "good_game", 1));
}

#[test]
fn a_phrase_said_on_one_instance_is_seen_on_another() {
    let Some((a, b)) =
        common::two_instances("a_phrase_said_on_one_instance_is_seen_on_another", &[])
    else {
        return;
    };
    let g = a.create_online();
    let mut on_b = b.live(&g.id);
    on_b.next_state();
    let (status, _) = say(&a, &g.id, g.white(), "well_played");
    assert_eq!(status, 200);
    let (msg, _) = on_b.recv_until(|m| m["type"] == "state" && m["game"]["chat"] != json!([]));
    assert_eq!(lines(&msg["game"]), vec![line("white", "well_played", 0)]);
    assert_eq!(
        lines(&b.state(&g.id)),
        vec![line("white", "well_played", 0)]
    );
}
