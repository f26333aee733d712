//! The HTTP and WebSocket API of `punct serve`, end to end against the
//! real binary (see `docs/API.md`).

mod common;

use common::{assert_error, legal_moves, moves, ply, Rng, Server, Ws};
use punct_core::{Game, Outcome, Record, Variant};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// White's first move in the docs' example; legal at the start.
const FIRST: &str = "C@B7/2";

/// How long a test waits for the AI (50 ms per move) to answer.
const AI_WAIT: Duration = Duration::from_secs(30);

#[test]
fn creating_an_online_game_gives_seats_links_and_the_start_state() {
    let server = Server::start();
    let (status, body) = server.post("/api/games", &json!({"mode": "online"}));
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().expect("an id");
    assert!(!id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()));
    let white = body["seats"]["white"].as_str().expect("a white token");
    // The other seat's token is made when its player claims it (tests/seats.rs).
    assert_eq!(body["seats"]["black"], Value::Null);
    let code = body["invite"]["code"].as_str().expect("an invite code");
    assert_eq!(body["invite"]["side"], "black");
    assert_eq!(body["you"], "white", "the creator's seat defaults to white");
    assert_eq!(
        body["links"]["white"].as_str(),
        Some(format!("/game/{id}#token={white}").as_str())
    );
    assert_eq!(body["links"]["black"], Value::Null);
    assert_eq!(
        body["links"]["invite"].as_str(),
        Some(format!("/game/{id}#invite={code}").as_str())
    );
    assert_eq!(
        body["links"]["spectate"].as_str(),
        Some(format!("/game/{id}").as_str())
    );
    assert_eq!(body["game"]["id"], id);

    let state = server.state(id);
    assert_eq!(state["id"], id);
    assert_eq!(state["mode"], "online");
    assert_eq!(state["variant"], "standard");
    assert!(state["position"].as_str().is_some_and(|p| !p.is_empty()));
    assert_eq!(state["position"], state["start"]);
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["ply"], 0);
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["status"], "ongoing");
    assert_eq!(state["result"], Value::Null);
    assert_eq!(state["draw_offer"], Value::Null);
    assert_eq!(state["takeback_request"], Value::Null);
    assert_eq!(state["ai_thinking"], false);
    assert_eq!(state["invite_open"], "black");
    assert_eq!(state["imported"], false);
    assert_eq!(state["tags"], Value::Null);
    let full = json!({"T": 6, "C": 2, "E": 4, "L": 2, "M": 2, "R": 2});
    assert_eq!(state["reserves"]["white"], full);
    assert_eq!(state["reserves"]["black"], full);
    let legal = legal_moves(&state);
    assert!(legal.len() > 100, "only {} legal moves", legal.len());
    assert!(legal.iter().any(|m| m == FIRST), "{FIRST} is not legal");

    // The hot-seat and AI modes hand out the seats they should.
    let hot = server.create(json!({"mode": "hotseat"}));
    assert_eq!(hot.white, hot.black, "one token holds both hot seats");
    let ai = server.create(json!({"mode": "ai", "level": 1, "side": "black"}));
    assert_eq!(ai.white, None, "the AI's seat has no token");
    assert!(ai.black.is_some());
    assert_eq!(ai.body["links"]["white"], Value::Null);
    assert_eq!(ai.body["game"]["ai"], json!({"level": 1, "side": "white"}));
}

#[test]
fn a_token_learns_which_seats_it_holds() {
    let server = Server::start();
    let g = server.create_online();
    let you = |token: &str| {
        let (status, state) = server.get(&format!("/api/games/{}?token={token}", g.id));
        assert_eq!(status, 200, "{state}");
        state["you"].clone()
    };
    assert_eq!(you(g.white()), json!(["white"]));
    assert_eq!(you(g.black()), json!(["black"]));
    assert_eq!(you("nosuchtoken"), json!([]), "a stranger holds no seat");
    assert_eq!(
        server.state(&g.id)["you"],
        Value::Null,
        "no token, no `you`"
    );
    let hot = server.create(json!({"mode": "hotseat"}));
    let (_, state) = server.get(&format!(
        "/api/games/{}?token={}",
        hot.id,
        hot.white.as_deref().unwrap()
    ));
    assert_eq!(state["you"], json!(["white", "black"]));
    let ai = server.create(json!({"mode": "ai", "level": 1, "side": "black"}));
    let (_, state) = server.get(&format!("/api/games/{}?token={}&ply=0", ai.id, ai.black()));
    assert_eq!(state["you"], json!(["black"]), "replay views say it too");
}

#[test]
fn bad_creations_are_refused() {
    let server = Server::start();
    let cases = [
        (json!({"mode": "chess"}), "bad_mode"),
        (json!({"mode": "online", "variant": "giant"}), "bad_variant"),
        (json!({"mode": "ai", "level": 5}), "bad_level"),
        (json!({"mode": "online", "level": 2}), "bad_level"),
        (json!({"mode": "ai", "side": "green"}), "bad_side"),
    ];
    for (spec, code) in cases {
        assert_error(&server.post("/api/games", &spec), 400, code);
    }
    let (status, body) = server.get("/api/games");
    assert_eq!(status, 200);
    assert_eq!(body["games"], json!([]), "a refused creation made a game");
}

#[test]
fn moves_are_checked_and_failed_requests_change_nothing() {
    let server = Server::start();
    let g = server.create_online();
    let before = server.state(&g.id);

    let after = server.play_ok(&g.id, g.white(), FIRST);
    assert_eq!(moves(&after), [FIRST]);
    assert_eq!(after["ply"], 1);
    assert_eq!(after["last_move"], FIRST);
    assert_eq!(after["to_move"], "black");
    assert!(after["version"].as_i64() > before["version"].as_i64());
    assert_ne!(after["position"], before["position"]);
    assert_eq!(after["reserves"]["white"]["C"], 1, "the C left the reserve");
    assert_eq!(after["reserves"]["black"]["C"], 2);
    assert_eq!(
        server.state(&g.id),
        after,
        "GET shows what the move answered"
    );

    // White again: not white's turn (the error names whose turn it is).
    let turn = server.play(&g.id, g.white(), "T@F3/0");
    assert_error(&turn, 409, "not_your_turn");
    assert_eq!(turn.1["error"]["params"]["side"], "black", "{}", turn.1);
    // A token of no seat.
    assert_error(
        &server.play(&g.id, "nosuchtoken", "T@F3/0"),
        403,
        "bad_token",
    );
    // Black onto the occupied cell.
    let illegal = server.play(&g.id, g.black(), FIRST);
    assert_error(&illegal, 422, "illegal_move");
    assert!(
        illegal.1["error"]["message"]
            .as_str()
            .unwrap()
            .contains(FIRST),
        "the message names the move: {}",
        illegal.1
    );
    // The rule it breaks, as a code with the values it names, for pages
    // that say it in their own language.
    let e = &illegal.1["error"];
    assert_eq!(e["reason"], "add_on_occupied", "{e}");
    assert_eq!(e["params"]["move"], FIRST, "{e}");
    let cell = e["params"]["cell"].as_str().expect("the occupied cell");
    assert!(
        e["message"].as_str().unwrap().contains(cell),
        "the message and the params name the same cell: {e}"
    );
    // Not notation: the params name what was sent; no reason.
    let bad = server.play(&g.id, g.black(), "Z@Z99/9");
    assert_error(&bad, 400, "bad_move");
    assert_eq!(bad.1["error"]["params"]["move"], "Z@Z99/9");
    assert_eq!(bad.1["error"].get("reason"), None, "{}", bad.1);
    assert_error(&server.play(&g.id, g.black(), ""), 400, "bad_move");
    // The stale guard: the move was chosen at another ply.
    let stale = server.post(
        &format!("/api/games/{}/moves", g.id),
        &json!({"move": "T@F3/0", "token": g.black(), "ply": 0}),
    );
    assert_error(&stale, 409, "stale");
    // No such game.
    assert_error(
        &server.play("nosuchgame", g.black(), "T@F3/0"),
        404,
        "unknown_game",
    );
    assert_error(&server.get("/api/games/nosuchgame"), 404, "unknown_game");
    assert_error(&server.get("/api/games/no-such-game!"), 404, "unknown_game");
    assert_error(
        &server.get("/api/games/nosuchgame/record"),
        404,
        "unknown_game",
    );
    assert_error(
        &server.action("nosuchgame", "draw", g.white(), "offer"),
        404,
        "unknown_game",
    );

    let path = format!("/api/games/{}/moves", g.id);
    // Malformed JSON.
    let (status, _, text) = server.post_raw(&path, Some("application/json"), "{\"move\": ");
    assert_error(&(status, common::to_json(&text)), 400, "bad_json");
    // Over 64 KiB.
    let big = format!(
        "{{\"move\": \"T@F3/0\", \"token\": \"{}\", \"pad\": \"{}\"}}",
        g.black(),
        "x".repeat(70 * 1024)
    );
    let (status, _, text) = server.post_raw(&path, Some("application/json"), big);
    assert_error(&(status, common::to_json(&text)), 413, "too_large");
    // An unknown field is refused (the status is checked in
    // `wrong_json_shapes_are_400`).
    let (status, body) = server.post(
        &path,
        &json!({"move": "T@F3/0", "token": g.black(), "colour": "black"}),
    );
    assert!((400..500).contains(&status), "{status} {body}");
    assert_eq!(body["error"]["code"], "bad_json", "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("colour"));

    // None of that changed the game; the right move still works.
    assert_eq!(server.state(&g.id), after);
    let next = server.play_ok(&g.id, g.black(), "T@F3/0");
    assert_eq!(moves(&next), [FIRST, "T@F3/0"]);
    assert_eq!(next["to_move"], "white");
    assert_eq!(
        next["version"].as_i64(),
        after["version"].as_i64().map(|v| v + 1)
    );
    // Moves are read in any letter case and written canonically.
    let third = server.play_ok(&g.id, g.white(), " c@p15/2 ");
    assert_eq!(third["last_move"], "C@P15/2");
}

#[test]
fn racing_moves_on_one_game_land_exactly_once() {
    let server = Server::start();
    let g = server.create_online();
    let legal = legal_moves(&server.state(&g.id));
    let url = server.url(&format!("/api/games/{}/moves", g.id));
    let barrier = std::sync::Barrier::new(8);
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let (url, barrier, mv) = (&url, &barrier, legal[i * 7].clone());
                let token = g.white().to_string();
                scope.spawn(move || {
                    let agent = common::http_agent();
                    barrier.wait();
                    common::try_post(&agent, url, &json!({"move": mv, "token": token}))
                        .expect("an answer")
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let won: Vec<&Value> = answers
        .iter()
        .filter(|(status, _)| *status == 200)
        .map(|(_, body)| body)
        .collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    for answer in answers.iter().filter(|(status, _)| *status != 200) {
        assert_error(answer, 409, "not_your_turn");
    }
    let state = server.state(&g.id);
    assert_eq!(state["ply"], 1);
    assert_eq!(state["moves"], won[0]["moves"]);
}

#[test]
fn wrong_json_shapes_are_400() {
    // docs/API.md: 400 `bad_json`, `not_json` — "the body is not the JSON
    // asked for (missing or unknown field, wrong type)".
    let server = Server::start();
    let g = server.create_online();
    let path = format!("/api/games/{}/moves", g.id);
    let unknown = json!({"move": FIRST, "token": g.white(), "colour": "white"});
    assert_error(&server.post(&path, &unknown), 400, "bad_json");
    let missing = json!({"move": FIRST});
    assert_error(&server.post(&path, &missing), 400, "bad_json");
    let wrong_type = json!({"move": 7, "token": g.white()});
    assert_error(&server.post(&path, &wrong_type), 400, "bad_json");
    assert_error(
        &server.post("/api/games", &json!({"mode": 3})),
        400,
        "bad_json",
    );
    let body = json!({"move": FIRST, "token": g.white()}).to_string();
    let (status, _, text) = server.post_raw(&path, None, body);
    assert_error(&(status, common::to_json(&text)), 400, "not_json");
    assert_eq!(server.state(&g.id)["ply"], 0);
}

#[test]
fn every_error_has_a_json_body() {
    // docs/API.md: "Every error is a 4xx/5xx status with the body
    // {"error": {"code", "message"}}".
    let server = Server::start();
    let g = server.create_online();
    let json_error = |(status, _, text): (u16, ureq::http::HeaderMap, String)| {
        let body = common::to_json(&text);
        assert!(status >= 400, "{status} {text}");
        assert!(
            body["error"]["code"].is_string() && body["error"]["message"].is_string(),
            "status {status} without a JSON error body: {text:?}"
        );
    };
    json_error(server.request("GET", "/api/games?limit=abc"));
    json_error(server.request("GET", &format!("/api/games/{}?ply=x", g.id)));
    json_error(server.request("GET", &format!("/api/games/{}?colour=1", g.id)));
    json_error(server.request("DELETE", "/api/games"));
    json_error(server.request("GET", &format!("/api/games/{}/live", g.id)));
}

#[test]
fn unknown_endpoints_are_json_404s() {
    let server = Server::start();
    assert_error(&server.get("/api/nothing"), 404, "not_found");
    assert_error(&server.get("/static/nothing.js"), 404, "not_found");
    let (status, headers, page) = server.get_text("/");
    assert_eq!(status, 200);
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(!page.is_empty());
    let (status, board) = server.get("/api/board");
    assert_eq!(status, 200);
    assert!(board["cells"].as_array().is_some_and(|c| !c.is_empty()));
    assert_eq!(board["kinds"]["T"]["count"], 6);
}

#[test]
fn online_takeback_is_asked_and_answered() {
    let server = Server::start();
    let g = server.create_online();
    let tb = |token: &str, action: &str| server.action(&g.id, "takeback", token, action);

    assert_error(&tb(g.white(), "request"), 409, "nothing_to_take_back");
    assert_error(&tb(g.black(), "accept"), 409, "no_request");
    server.play_ok(&g.id, g.white(), FIRST);

    // Request and accept.
    let (status, s) = tb(g.white(), "request");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["takeback_request"], "white");
    assert_eq!(s["ply"], 1, "a request alone undoes nothing");
    assert_error(&tb(g.white(), "accept"), 409, "own_request");
    assert_error(&tb(g.black(), "request"), 409, "nothing_to_take_back");
    assert_error(&tb(g.black(), "maybe"), 400, "bad_action");
    assert_error(&tb("nosuchtoken", "accept"), 403, "bad_token");
    let (status, s) = tb(g.black(), "accept");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["ply"], 0);
    assert_eq!(s["moves"], json!([]));
    assert_eq!(s["to_move"], "white");
    assert_eq!(s["takeback_request"], Value::Null);
    assert_eq!(s["position"], s["start"]);
    assert_eq!(server.state(&g.id)["ply"], 0);

    // Request and decline.
    server.play_ok(&g.id, g.white(), FIRST);
    assert_eq!(tb(g.white(), "request").1["takeback_request"], "white");
    let (status, s) = tb(g.black(), "decline");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["takeback_request"], Value::Null);
    assert_eq!(s["ply"], 1);
    assert_eq!(moves(&s), [FIRST]);
    assert!(s["notice"].as_str().is_some_and(|n| n.contains("declines")));
    assert_error(&tb(g.black(), "accept"), 409, "no_request");

    // A move clears a pending request.
    assert_eq!(tb(g.white(), "request").1["takeback_request"], "white");
    let s = server.play_ok(&g.id, g.black(), "T@F3/0");
    assert_eq!(s["takeback_request"], Value::Null);
    assert_error(&tb(g.black(), "accept"), 409, "no_request");
}

#[test]
fn takeback_against_the_ai_undoes_its_reply_too() {
    let server = Server::start();
    let g = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    let token = g.white();
    assert_error(
        &server.action(&g.id, "takeback", token, "request"),
        409,
        "nothing_to_take_back",
    );
    let start = server.state(&g.id);
    assert_eq!(
        start["ai_thinking"], false,
        "white (the person) moves first"
    );

    let s = server.play_ok(&g.id, token, FIRST);
    assert_eq!(s["to_move"], "black");
    let answered = server.wait_for(&g.id, AI_WAIT, |s| ply(s) == 2);
    assert_eq!(answered["to_move"], "white");
    assert_eq!(answered["ai_thinking"], false);
    assert!(
        legal_moves(&s).contains(&moves(&answered)[1]),
        "the AI played a legal move"
    );

    let (status, s) = server.action(&g.id, "takeback", token, "request");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["ply"], 0, "both plies are undone at once");
    assert_eq!(s["moves"], json!([]));
    assert_eq!(s["to_move"], "white");
    assert_eq!(s["position"], start["position"]);
    assert_eq!(s["takeback_request"], Value::Null);
    // The AI does not move on its own now: it is the person's turn, and
    // no search runs. Had the AI played all the same, the person's move at
    // ply 0 would be refused.
    assert_eq!(s["ai_thinking"], false);
    // And the game goes on.
    let (status, body) = server.post(
        &format!("/api/games/{}/moves", g.id),
        &json!({"token": token, "move": "T@F3/0", "ply": 0}),
    );
    assert_eq!(status, 200, "{body}");
    let again = server.wait_for(&g.id, AI_WAIT, |s| ply(s) == 2);
    assert_eq!(moves(&again)[0], "T@F3/0");
}

/// An analysis on a server with one AI worker answers at once only if
/// the worker is free.
fn analysis_answers_promptly(server: &Server) {
    let t0 = Instant::now();
    let (status, body) = server.post("/api/analyse", &json!({"movetime": 50}));
    assert_eq!(status, 200, "{body}");
    // A worker still held answers only after the minute its search has:
    // far above what a loaded two-core machine takes for a free one.
    assert!(
        t0.elapsed() < Duration::from_secs(30),
        "the analysis waited {:?} for the AI worker",
        t0.elapsed()
    );
}

#[test]
fn a_takeback_or_resignation_stops_the_ai_thinking() {
    // One AI worker that would think a minute per move.
    let server = Server::builder().ai_movetime(60_000).ai_workers(1).start();
    let g = server.create(json!({"mode": "ai", "level": 4, "side": "white"}));
    let s = server.play_ok(&g.id, g.white(), FIRST);
    assert_eq!(s["ai_thinking"], true);
    // The search runs: the takeback stops it, not a job still queued.
    server.wait_ai_running(1, Duration::from_secs(10));
    let (status, s) = server.action(&g.id, "takeback", g.white(), "request");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["ply"], 0);
    assert_eq!(s["ai_thinking"], false);
    analysis_answers_promptly(&server);
    assert_eq!(
        server.state(&g.id)["ply"],
        0,
        "the stopped search played nothing"
    );

    let s = server.play_ok(&g.id, g.white(), "T@F3/0");
    assert_eq!(s["ai_thinking"], true);
    server.wait_ai_running(1, Duration::from_secs(10));
    let (status, s) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": g.white()}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["result"]["winner"], "black");
    assert_eq!(s["ai_thinking"], false);
    analysis_answers_promptly(&server);
    let s = server.state(&g.id);
    assert_eq!(moves(&s), ["T@F3/0"]);
}

#[test]
fn the_ai_answers_a_draw_offer_at_once() {
    let server = Server::start();
    let g = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    // At the start the AI is not behind: it declines.
    let (status, s) = server.action(&g.id, "draw", g.white(), "offer");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["status"], "ongoing");
    assert_eq!(s["draw_offer"], Value::Null, "no offer is left standing");
    assert_eq!(s["notice"], "the AI declines the draw");
    assert_eq!(
        s["notice_code"], "ai_declines_draw",
        "a code for pages to say it"
    );
    assert_eq!(s["notice_params"], json!({}));
    assert_error(
        &server.action(&g.id, "draw", g.white(), "accept"),
        409,
        "no_offer",
    );
    server.play_ok(&g.id, g.white(), FIRST);
    let s = server.wait_for(&g.id, AI_WAIT, |s| ply(s) == 2);
    assert_eq!(s["notice"], Value::Null, "a move clears the notice");
    assert_eq!(s["notice_code"], Value::Null);
}

#[test]
fn the_ai_moves_first_when_the_person_plays_black() {
    let server = Server::start();
    let g = server.create(json!({"mode": "ai", "level": 2, "side": "black"}));
    let s = server.wait_for(&g.id, AI_WAIT, |s| ply(s) == 1);
    assert_eq!(s["to_move"], "black");
    assert_error(&server.play(&g.id, g.black(), "pass"), 422, "illegal_move");
    let mv = legal_moves(&s)[0].clone();
    server.play_ok(&g.id, g.black(), &mv);
    server.wait_for(&g.id, AI_WAIT, |s| ply(s) == 3);
}

#[test]
fn one_token_plays_both_sides_at_one_screen() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    let token = g.white();
    server.play_ok(&g.id, token, FIRST);
    server.play_ok(&g.id, token, "T@F3/0");
    let s = server.play_ok(&g.id, token, "C@P15/2");
    assert_eq!(s["ply"], 3);
    assert_eq!(s["to_move"], "black");
    // A takeback undoes the last move, whoever made it, at once.
    let (status, s) = server.action(&g.id, "takeback", token, "request");
    assert_eq!(status, 200, "{s}");
    assert_eq!(moves(&s), [FIRST, "T@F3/0"]);
    assert_eq!(s["to_move"], "white");
    let (_, s) = server.action(&g.id, "takeback", token, "request");
    assert_eq!(moves(&s), [FIRST]);
    assert_error(&server.play(&g.id, "wrong", "T@F3/0"), 403, "bad_token");
    // Resigning resigns for the side to move.
    let (status, s) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": token}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["result"]["text"], "black resigns");
}

#[test]
fn resigning_loses_and_ends_the_game() {
    let server = Server::start();
    let g = server.create_online();
    server.play_ok(&g.id, g.white(), FIRST);
    assert_error(
        &server.post(
            &format!("/api/games/{}/resign", g.id),
            &json!({"token": "x"}),
        ),
        403,
        "bad_token",
    );
    // Black resigns (on black's turn); white wins.
    let (status, s) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": g.black()}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["status"], "over");
    assert_eq!(s["to_move"], Value::Null);
    assert_eq!(s["legal_moves"], json!([]));
    assert_eq!(s["result"]["score"], "1-0");
    assert_eq!(s["result"]["winner"], "white");
    assert_eq!(s["result"]["reason"], "resignation");
    assert_eq!(s["result"]["text"], "black resigns");
    assert_eq!(server.state(&g.id), s);

    assert_error(&server.play(&g.id, g.black(), "T@F3/0"), 409, "game_over");
    assert_error(&server.play(&g.id, g.white(), "T@F3/0"), 409, "game_over");
    assert_error(
        &server.post(
            &format!("/api/games/{}/resign", g.id),
            &json!({"token": g.white()}),
        ),
        409,
        "game_over",
    );
    assert_error(
        &server.action(&g.id, "draw", g.white(), "offer"),
        409,
        "game_over",
    );
    assert_error(
        &server.action(&g.id, "takeback", g.white(), "request"),
        409,
        "game_over",
    );

    // White may resign on black's turn too.
    let h = server.create_online();
    server.play_ok(&h.id, h.white(), FIRST);
    let (_, s) = server.post(
        &format!("/api/games/{}/resign", h.id),
        &json!({"token": h.white()}),
    );
    assert_eq!(s["result"]["score"], "0-1");
    assert_eq!(s["result"]["winner"], "black");
    assert_eq!(s["result"]["reason"], "resignation");
}

#[test]
fn draws_are_offered_and_answered() {
    let server = Server::start();
    let draw = |g: &common::Created, token: &str, action: &str| {
        server.action(&g.id, "draw", token, action)
    };

    // Offer and accept.
    let g = server.create_online();
    assert_error(&draw(&g, g.black(), "accept"), 409, "no_offer");
    let (status, s) = draw(&g, g.white(), "offer");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["draw_offer"], "white");
    assert_eq!(s["status"], "ongoing");
    assert_error(&draw(&g, g.white(), "accept"), 409, "own_offer");
    assert_error(&draw(&g, g.white(), "haggle"), 400, "bad_action");
    let (status, s) = draw(&g, g.black(), "accept");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["status"], "over");
    assert_eq!(s["result"]["score"], "1/2-1/2");
    assert_eq!(s["result"]["winner"], Value::Null);
    assert_eq!(s["result"]["reason"], "agreement");
    assert_eq!(s["draw_offer"], Value::Null);
    assert_error(&server.play(&g.id, g.white(), FIRST), 409, "game_over");
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(record.contains("[Result \"1/2-1/2\"]"), "{record}");
    assert!(record.contains("[Termination \"agreement\"]"), "{record}");

    // Offer and decline.
    let g = server.create_online();
    draw(&g, g.white(), "offer");
    let (status, s) = draw(&g, g.black(), "decline");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["draw_offer"], Value::Null);
    assert_eq!(s["status"], "ongoing");
    assert!(s["notice"].as_str().is_some_and(|n| n.contains("declines")));
    assert_error(&draw(&g, g.black(), "accept"), 409, "no_offer");

    // Offers cross: the second offer agrees.
    let g = server.create_online();
    draw(&g, g.black(), "offer");
    let (_, s) = draw(&g, g.white(), "offer");
    assert_eq!(s["result"]["reason"], "agreement");

    // Playing on declines the opponent's offer.
    let g = server.create_online();
    assert_eq!(draw(&g, g.white(), "offer").1["draw_offer"], "white");
    let s = server.play_ok(&g.id, g.white(), FIRST);
    assert_eq!(
        s["draw_offer"], "white",
        "the offerer's own move keeps the offer"
    );
    let s = server.play_ok(&g.id, g.black(), "T@F3/0");
    assert_eq!(
        s["draw_offer"],
        Value::Null,
        "the opponent's move declines it"
    );
}

#[test]
fn records_round_trip_through_import() {
    let server = Server::start();
    let g = server.create_online();
    let mut rng = Rng::new(7);
    let mut state = server.state(&g.id);
    for i in 0..6 {
        let side = if i % 2 == 0 { "white" } else { "black" };
        let mv = rng.pick(&legal_moves(&state)).clone();
        state = server.play_ok(&g.id, g.token(side), &mv);
    }
    let played = moves(&state);
    assert_eq!(played.len(), 6);

    let (status, headers, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert_eq!(status, 200, "{record}");
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert_eq!(
        disposition,
        format!("attachment; filename=\"punct-{}.pgn\"", g.id)
    );
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/x-punct-record"));
    assert!(
        record.contains(&format!("[GameId \"{}\"]", g.id)),
        "{record}"
    );
    assert!(record.contains("[Variant \"standard\"]"), "{record}");
    assert!(
        record.trim_end().ends_with('*'),
        "an unfinished game: {record}"
    );
    for mv in &played {
        assert!(record.contains(mv.as_str()), "{mv} missing from {record}");
    }

    let (status, imported) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{imported}");
    let new_id = imported["id"].as_str().unwrap();
    assert_ne!(new_id, g.id);
    let copy = server.state(new_id);
    assert_eq!(moves(&copy), played);
    assert_eq!(copy["position"], state["position"]);
    assert_eq!(copy["to_move"], state["to_move"]);
    assert_eq!(copy["status"], "ongoing");
    assert_eq!(
        copy["mode"], "hotseat",
        "imports continue at one screen by default"
    );
    assert_eq!(legal_moves(&copy), legal_moves(&state));
    // Marked as imported, with the record's own tags.
    assert_eq!(copy["imported"], true);
    let tags = copy["tags"].as_array().expect("the record's tags");
    assert!(tags.contains(&json!(["GameId", g.id])), "{tags:?}");
    assert!(
        tags.contains(&json!(["Event", "punct serve game"])),
        "{tags:?}"
    );
    // The copy's record keeps them, and says it was imported here.
    let (_, _, again) = server.get_text(&format!("/api/games/{new_id}/record"));
    assert!(again.contains("[Event \"punct serve game\"]"), "{again}");
    assert!(again.contains(&format!("[GameId \"{new_id}\"]")), "{again}");
    assert!(again.contains("[Imported \""), "{again}");
    // The copy plays on.
    let token = imported["seats"]["white"].as_str().unwrap();
    let mv = legal_moves(&copy)[0].clone();
    assert_eq!(server.play_ok(new_id, token, &mv)["ply"], 7);
    assert_eq!(server.state(&g.id)["ply"], 6, "the original is untouched");

    // A resigned game keeps its result through import.
    server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": g.white()}),
    );
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    let (status, imported) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{imported}");
    let copy = server.state(imported["id"].as_str().unwrap());
    assert_eq!(copy["status"], "over");
    assert_eq!(copy["result"]["score"], "0-1");
    assert_eq!(copy["result"]["reason"], "resignation");

    // A record with an illegal move: the message names it.
    let bad = "[Variant \"standard\"]\n\n1. C@B7/2 C@B7/2 2. T@F3/0 *\n";
    let answer = server.post("/api/games/import", &json!({"record": bad}));
    assert_error(&answer, 422, "bad_record");
    let message = answer.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("C@B7/2"), "{message}");
    assert!(message.contains("move 1"), "{message}");
    // ... and says which move and why as codes (docs/API.md, params and reasons).
    let e = &answer.1["error"];
    assert_eq!(e["reason"], "add_on_occupied", "{e}");
    assert_eq!(
        (&e["params"]["move"], &e["params"]["number"]),
        (&json!("C@B7/2"), &json!(1)),
        "{e}"
    );
    // Not a record at all.
    let answer = server.post("/api/games/import", &json!({"record": "hello world"}));
    assert_error(&answer, 422, "bad_record");
    assert_eq!(answer.1["error"].get("reason"), None, "{}", answer.1);
    // Neither made a game.
    let (_, list) = server.get("/api/games");
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
}

/// Imports `record` (text): the answer.
fn import(server: &Server, record: &str) -> (u16, Value) {
    server.post("/api/games/import", &json!({ "record": record }))
}

/// `record` with the result `outcome` and the Termination tag
/// `termination` (none when `None`), as text.
fn with_result(record: &Record, outcome: Outcome, termination: Option<&str>) -> String {
    let mut rec = record.clone();
    rec.outcome = outcome;
    rec.set_tag("Result", outcome.token());
    rec.tags.retain(|(n, _)| n != "Termination");
    if let Some(t) = termination {
        rec.set_tag("Termination", t);
    }
    rec.to_text()
}

/// Asserts a 422 `bad_record` whose message contains every one of `words`.
#[track_caller]
fn assert_refused(answer: &(u16, Value), words: &[&str]) {
    assert_error(answer, 422, "bad_record");
    let message = answer.1["error"]["message"].as_str().unwrap();
    for w in words {
        assert!(message.contains(w), "`{w}` not in: {message}");
    }
}

/// A game the rules ended, played at random (additions first, so that the
/// reserves run out soon), as a record.
fn finished_record(seed: u64) -> Record {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(Variant::Standard);
    while !game.position().status().is_over() {
        assert!(game.len() < 2000, "a random game that does not end");
        let legal = game.position().legal_moves();
        let adds: Vec<_> = legal
            .iter()
            .filter(|m| m.to_string().contains('@'))
            .copied()
            .collect();
        let mv = *rng.pick(if adds.is_empty() { &legal } else { &adds });
        game.play(mv).expect("a generated move is legal");
    }
    Record::from_game(&game, &[("Event", "a finished game"), ("White", "Ann")])
}

#[test]
fn imported_results_must_be_shown_by_the_moves() {
    let server = Server::start();
    let rec = finished_record(11);
    let shown = rec.outcome;
    assert_ne!(shown, Outcome::Unfinished);

    // As it is: accepted, the result is the position's own.
    let (status, body) = import(&server, &rec.to_text());
    assert_eq!(status, 201, "{body}");
    let state = &body["game"];
    assert_eq!(state["status"], "over");
    assert_eq!(state["result"]["score"], shown.token());
    let reason = state["result"]["reason"].as_str().unwrap();
    assert!(
        reason == "connection" || reason == "central count",
        "{reason}"
    );
    assert_eq!(state["imported"], true);
    assert!(state["tags"]
        .as_array()
        .unwrap()
        .contains(&json!(["White", "Ann"])));
    // Its record round-trips, with the original players and the import noted.
    let id = body["id"].as_str().unwrap();
    let (_, _, text) = server.get_text(&format!("/api/games/{id}/record"));
    assert!(text.contains("[White \"Ann\"]"), "{text}");
    assert!(text.contains("[Event \"a finished game\"]"), "{text}");
    assert!(text.contains("[Imported \""), "{text}");
    assert!(!text.contains("Termination"), "{text}");
    let (status, again) = import(&server, &text);
    assert_eq!(status, 201, "{again}");
    assert_eq!(again["game"]["result"], state["result"]);
    assert_eq!(again["game"]["moves"], state["moves"]);

    // Another result than the moves show.
    let other = if shown == Outcome::WhiteWins {
        Outcome::BlackWins
    } else {
        Outcome::WhiteWins
    };
    assert_refused(
        &import(&server, &with_result(&rec, other, None)),
        &[other.token()],
    );
    // A resignation or agreement claimed for a game the moves ended.
    let resigned = match shown {
        Outcome::WhiteWins => "resignation:black",
        _ => "resignation:white",
    };
    let claimed = with_result(&rec, shown, Some(resigned));
    assert_refused(&import(&server, &claimed), &["Termination", resigned]);
    // None of the refusals made a game.
    let (_, list) = server.get("/api/games");
    assert_eq!(list["games"].as_array().unwrap().len(), 2);
}

#[test]
fn imported_results_off_the_board_must_be_stated() {
    let server = Server::start();
    let mut game = Game::new(Variant::Standard);
    for mv in [FIRST, "T@F3/0", "C@P15/2"] {
        game.play(mv.parse().unwrap()).unwrap();
    }
    let rec = Record::from_game(&game, &[("Event", "unfinished")]);
    let accepted = |text: String| {
        let (status, body) = import(&server, &text);
        assert_eq!(status, 201, "{text}: {body}");
        body["game"].clone()
    };

    // Unfinished and saying so.
    let s = accepted(with_result(&rec, Outcome::Unfinished, None));
    assert_eq!(s["status"], "ongoing");
    assert_eq!(s["result"], Value::Null);
    // A resignation with the result it gives.
    let s = accepted(with_result(
        &rec,
        Outcome::WhiteWins,
        Some("resignation:black"),
    ));
    assert_eq!(s["result"]["score"], "1-0");
    assert_eq!(s["result"]["reason"], "resignation");
    assert_eq!(s["result"]["text"], "black resigns");
    let s = accepted(with_result(
        &rec,
        Outcome::BlackWins,
        Some("resignation:white"),
    ));
    assert_eq!(s["result"]["winner"], "black");
    // An agreed draw.
    let s = accepted(with_result(&rec, Outcome::Draw, Some("agreement")));
    assert_eq!(s["result"]["reason"], "agreement");
    assert_eq!(s["result"]["score"], "1/2-1/2");

    // A result with no stated reason, or an unknown one.
    let refused = import(&server, &with_result(&rec, Outcome::WhiteWins, None));
    assert_refused(&refused, &["`1-0`", "Termination", "unfinished"]);
    let refused = import(
        &server,
        &with_result(&rec, Outcome::BlackWins, Some("time forfeit")),
    );
    assert_refused(&refused, &["`0-1`", "time forfeit"]);
    // A resignation whose result names the wrong winner.
    let refused = import(
        &server,
        &with_result(&rec, Outcome::WhiteWins, Some("resignation:white")),
    );
    assert_refused(&refused, &["resignation:white", "`0-1`", "not `1-0`"]);
    // An agreement that is not a draw.
    let refused = import(
        &server,
        &with_result(&rec, Outcome::BlackWins, Some("agreement")),
    );
    assert_refused(&refused, &["agreement", "`1/2-1/2`"]);
    // A resignation with the game left unfinished.
    let refused = import(
        &server,
        &with_result(&rec, Outcome::Unfinished, Some("resignation:black")),
    );
    assert_refused(&refused, &["resignation:black", "`*`"]);
    let (_, list) = server.get("/api/games");
    assert_eq!(list["games"].as_array().unwrap().len(), 4);
}

#[test]
fn replay_shows_earlier_plies() {
    let server = Server::start();
    let g = server.create_online();
    let s1 = server.play_ok(&g.id, g.white(), FIRST);
    server.play_ok(&g.id, g.black(), "T@F3/0");
    let (status, at1) = server.get(&format!("/api/games/{}?ply=1", g.id));
    assert_eq!(status, 200, "{at1}");
    assert_eq!(at1["replay"], true);
    assert_eq!(at1["plies_total"], 2);
    assert_eq!(at1["ply"], 1);
    assert_eq!(at1["position"], s1["position"]);
    assert_eq!(moves(&at1), [FIRST]);
    assert_error(
        &server.get(&format!("/api/games/{}?ply=3", g.id)),
        400,
        "bad_ply",
    );
    assert_eq!(server.state(&g.id)["ply"], 2, "replaying changes nothing");
}

#[test]
fn a_whole_game_against_the_ai_ends_with_a_result() {
    let server = Server::start();
    let g = server.create(json!({"mode": "ai", "level": 2, "side": "white"}));
    let token = g.white();
    let mut rng = Rng::new(2026);
    let started = Instant::now();
    let mut state = server.state(&g.id);
    while state["status"] == "ongoing" {
        assert!(ply(&state) < 300, "the game did not end in 300 plies");
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game took over two minutes"
        );
        assert_eq!(state["to_move"], "white", "{}", state["ply"]);
        let legal = legal_moves(&state);
        assert!(!legal.is_empty(), "an ongoing game with no legal move");
        let mv = rng.pick(&legal).clone();
        let at = ply(&state);
        let (status, after) = server.post(
            &format!("/api/games/{}/moves", g.id),
            &json!({"move": mv, "token": token, "ply": at}),
        );
        assert_eq!(status, 200, "{mv} at ply {at}: {after}");
        // Wait for the AI's answer, or the end.
        state = server.wait_for(&g.id, AI_WAIT, |s| {
            s["status"] == "over" || (ply(s) == at + 2 && s["ai_thinking"] == false)
        });
        let played = moves(&state);
        assert_eq!(played[at as usize], mv);
    }
    let result = &state["result"];
    let score = result["score"].as_str().expect("a score");
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&score), "{result}");
    let reason = result["reason"].as_str().expect("a reason");
    assert!(
        reason == "connection" || reason == "central count",
        "{result}"
    );
    assert!(result["text"].as_str().is_some_and(|t| !t.is_empty()));
    match score {
        "1-0" => assert_eq!(result["winner"], "white"),
        "0-1" => assert_eq!(result["winner"], "black"),
        _ => assert_eq!(result["winner"], Value::Null),
    }
    if reason == "connection" {
        assert!(result["chain"].as_array().is_some_and(|c| !c.is_empty()));
    }
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["legal_moves"], json!([]));
    assert_eq!(state["ai_thinking"], false);

    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(
        record.contains(&format!("[Result \"{score}\"]")),
        "{score} vs {record}"
    );
    assert!(record.trim_end().ends_with(score), "{record}");
    assert!(record.contains("[Black \"PÜNCT AI level 2\"]"), "{record}");
    assert_error(&server.play(&g.id, token, "pass"), 409, "game_over");

    let (_, over) = server.get("/api/games?status=over");
    let summary = over["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == g.id.as_str())
        .expect("the finished game is listed as over")
        .clone();
    assert_eq!(summary["result"], score);
    assert_eq!(summary["ply"], state["ply"]);
    println!(
        "AI game: {} plies, {} ({reason}) in {:?}",
        state["ply"],
        score,
        started.elapsed()
    );
}

#[test]
fn games_are_listed_and_filtered() {
    let server = Server::start();
    let a = server.create_online();
    let b = server.create_online();
    let c = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    server.play_ok(&a.id, a.white(), FIRST);
    // Changes are timed in milliseconds and listed newest first: the
    // clock must move on before the last one (a wait for the clock
    // itself, not for an event).
    std::thread::sleep(Duration::from_millis(10));
    server.post(
        &format!("/api/games/{}/resign", b.id),
        &json!({"token": b.white()}),
    );

    let ids = |query: &str| -> Vec<String> {
        let (status, body) = server.get(&format!("/api/games{query}"));
        assert_eq!(status, 200, "{body}");
        body["games"]
            .as_array()
            .expect("a list of games")
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let all = ids("");
    assert_eq!(all.len(), 3);
    for id in [&a.id, &b.id, &c.id] {
        assert!(all.contains(id), "{id} not in {all:?}");
    }
    let mut ongoing = ids("?status=ongoing");
    ongoing.sort();
    let mut expected = vec![a.id.clone(), c.id.clone()];
    expected.sort();
    assert_eq!(ongoing, expected);
    assert_eq!(ids("?status=over"), vec![b.id.clone()]);
    assert_eq!(ids("?limit=1").len(), 1);
    assert_error(&server.get("/api/games?status=bogus"), 400, "bad_status");

    let (_, body) = server.get("/api/games?status=ongoing");
    let sa = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == a.id.as_str())
        .unwrap()
        .clone();
    assert_eq!(sa["ply"], 1);
    assert_eq!(sa["mode"], "online");
    assert_eq!(sa["status"], "ongoing");
    // Newest change first: b's resignation was the last change.
    assert_eq!(all[0], b.id);
}

#[test]
fn analysis_suggests_a_legal_move() {
    let server = Server::start();
    let g = server.create_online();
    let state = server.play_ok(&g.id, g.white(), FIRST);
    let legal = legal_moves(&state);

    let (status, a) = server.post("/api/analyse", &json!({"moves": [FIRST], "movetime": 200}));
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["position"], state["position"]);
    let best = a["best"].as_str().expect("a best move");
    assert!(legal.iter().any(|m| m == best), "{best} is not legal");
    let score = a["score"].as_object().expect("a score object");
    assert_eq!(score.len(), 1, "{score:?}");
    assert!(
        ["cp", "win", "loss"]
            .iter()
            .any(|k| score.get(*k).is_some_and(Value::is_i64)),
        "{score:?}"
    );
    let pv: Vec<&str> = a["pv"]
        .as_array()
        .expect("a pv")
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(!pv.is_empty());
    assert!(legal.iter().any(|m| m == pv[0]), "{} is not legal", pv[0]);
    assert!(a["depth"].as_u64().is_some());
    assert!(a["nodes"].as_u64().is_some_and(|n| n > 0));

    // The start position by default, or one given as a string.
    let (status, a) = server.post("/api/analyse", &json!({"movetime": 50}));
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["position"], state["start"]);
    let (status, a) = server.post(
        "/api/analyse",
        &json!({"position": state["position"], "movetime": 50}),
    );
    assert_eq!(status, 200, "{a}");
    assert!(legal.iter().any(|m| m == a["best"].as_str().unwrap()));

    for movetime in [0, 999_999] {
        let answer = server.post("/api/analyse", &json!({"movetime": movetime}));
        assert_error(&answer, 400, "bad_movetime");
    }
    let illegal = server.post("/api/analyse", &json!({"moves": [FIRST, FIRST]}));
    assert_error(&illegal, 422, "illegal_move");
    assert_eq!(
        illegal.1["error"]["reason"], "add_on_occupied",
        "{}",
        illegal.1
    );
    assert_eq!(illegal.1["error"]["params"]["index"], 1, "{}", illegal.1);
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
}

/// Reads `ws` until a `state` message; any other message first fails.
fn next_state(ws: &mut Ws) -> Value {
    let msg = ws.recv();
    assert_eq!(msg["type"], "state", "{msg}");
    msg["game"].clone()
}

#[test]
fn live_sockets_push_every_change_to_everyone() {
    let server = Server::start();
    let g = server.create_online();
    let mut white = server.live(&g.id);
    let mut black = server.live(&g.id);
    let mut spectator = server.live(&g.id);
    for ws in [&mut white, &mut black, &mut spectator] {
        let s = next_state(ws);
        assert_eq!(s["id"], g.id.as_str());
        assert_eq!(s["ply"], 0);
        assert_eq!(s["to_move"], "white");
        assert!(legal_moves(&s).iter().any(|m| m == FIRST));
    }

    // White moves over the socket: an ack, then the state, for white;
    // the state for the others.
    white.send(&json!({"type": "move", "move": FIRST, "token": g.white(), "ply": 0, "id": 1}));
    let (ack, skipped) = white.recv_until(|m| m["type"] == "ack");
    assert!(skipped.iter().all(|m| m["type"] == "state"), "{skipped:?}");
    assert_eq!(ack["id"], 1);
    let version = ack["version"].as_i64().expect("a version");
    for ws in [&mut white, &mut black, &mut spectator] {
        let s = ws.recv_state_at(1);
        assert_eq!(moves(&s), [FIRST]);
        assert_eq!(s["to_move"], "black");
        assert_eq!(s["version"].as_i64(), Some(version));
    }

    // A bad token: an error with the request's id, nothing changes.
    black.send(&json!({"type": "move", "move": "T@F3/0", "token": "wrong", "id": "b1"}));
    let err = black.recv();
    assert_eq!(err["type"], "error", "{err}");
    assert_eq!(err["id"], "b1");
    assert_eq!(err["error"]["code"], "bad_token");
    // The right token, wrong turn; then an illegal move.
    white.send(&json!({"type": "move", "move": "T@F3/0", "token": g.white(), "id": 2}));
    let err = white.recv();
    assert_eq!(
        (&err["type"], &err["error"]["code"]),
        (&json!("error"), &json!("not_your_turn"))
    );
    black.send(&json!({"type": "move", "move": FIRST, "token": g.black(), "id": 3}));
    let err = black.recv();
    assert_eq!(err["error"]["code"], "illegal_move", "{err}");
    assert_eq!(err["error"]["reason"], "add_on_occupied", "{err}");
    assert_eq!(err["error"]["params"]["move"], FIRST, "{err}");
    assert_eq!(err["id"], 3);

    // Malformed messages get errors and the socket stays usable.
    black.send_text("this is not json");
    let err = black.recv();
    assert_eq!(err["type"], "error", "{err}");
    assert_eq!(err["error"]["code"], "bad_json");
    // A message is an object: the fields' values in a list are not one
    // (serde alone would read this as a ping).
    black.send_text(r#"["ping", 9]"#);
    let err = black.recv();
    assert_eq!(err["error"]["code"], "bad_json", "{err}");
    black.send(&json!({"type": "dance", "id": 4}));
    let err = black.recv();
    assert_eq!(err["error"]["code"], "bad_message", "{err}");
    assert_eq!(err["id"], 4);
    black
        .socket
        .send(tungstenite::Message::binary(vec![1u8, 2, 3]))
        .unwrap();
    let err = black.recv();
    assert_eq!(err["error"]["code"], "bad_message", "{err}");
    black.send(&json!({"type": "ping", "id": 5}));
    assert_eq!(black.recv(), json!({"type": "pong", "id": 5}));
    assert_eq!(
        server.state(&g.id)["ply"],
        1,
        "no failed request changed the game"
    );

    // Black moves over the socket.
    black.send(&json!({"type": "move", "move": "T@F3/0", "token": g.black(), "id": 6}));
    let ack = black.recv();
    assert_eq!(
        (&ack["type"], &ack["id"]),
        (&json!("ack"), &json!(6)),
        "{ack}"
    );
    for ws in [&mut white, &mut black, &mut spectator] {
        // Each socket's next message is the new state: the failed
        // requests pushed nothing.
        let s = next_state(ws);
        assert_eq!(s["ply"], 2);
        assert_eq!(moves(&s), [FIRST, "T@F3/0"]);
    }

    // Changes over HTTP are pushed too.
    server.play_ok(&g.id, g.white(), "C@P15/2");
    for ws in [&mut white, &mut black, &mut spectator] {
        assert_eq!(next_state(ws)["ply"], 3);
    }
    // A draw offer over the socket reaches the others.
    black.send(&json!({"type": "draw", "action": "offer", "token": g.black(), "id": 7}));
    assert_eq!(black.recv()["type"], "ack");
    assert_eq!(next_state(&mut spectator)["draw_offer"], "black");
    assert_eq!(next_state(&mut white)["draw_offer"], "black");
    assert_eq!(next_state(&mut black)["draw_offer"], "black");

    // Reconnecting starts with the current state.
    drop(spectator);
    let mut again = server.live(&g.id);
    let s = next_state(&mut again);
    assert_eq!(s["ply"], 3);
    assert_eq!(s["draw_offer"], "black");
    assert_eq!(s, server.state(&g.id));

    // Resigning over the socket ends the game for everyone.
    white.send(&json!({"type": "resign", "token": g.white(), "id": 8}));
    assert_eq!(white.recv()["type"], "ack");
    for ws in [&mut white, &mut black, &mut again] {
        let s = next_state(ws);
        assert_eq!(s["status"], "over");
        assert_eq!(s["result"]["winner"], "black");
    }
}

#[test]
fn live_socket_of_an_unknown_game_is_refused() {
    let server = Server::start();
    let err = Ws::connect(&server.addr, "/api/games/nosuchgame/live")
        .err()
        .expect("no socket for an unknown game");
    assert_eq!(err, "HTTP 404");
}
