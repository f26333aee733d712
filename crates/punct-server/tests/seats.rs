//! Private seats, end to end against the real binary (docs/API.md, "Seats
//! and tokens"): an online game's creator gets only their own seat's
//! token and an invite code; the code claims the other seat once; a seat's
//! holder can swap their token for a new one; neither tokens nor invite
//! codes ever show in a game's state.

mod common;

use common::{assert_error, moves, Server, Ws};
use serde_json::{json, Value};

/// White's first move in the docs' example; legal at the start.
const FIRST: &str = "C@B7/2";
/// A legal answer for black after it.
const SECOND: &str = "T@F3/0";

/// Asserts that `text` (a state or any answer shown to others) contains
/// none of `secrets`.
#[track_caller]
fn assert_hides(text: &str, secrets: &[&str], what: &str) {
    for secret in secrets {
        assert!(!secret.is_empty());
        assert!(
            !text.contains(secret),
            "{what} shows the secret {secret}: {text}"
        );
    }
}

fn resign(server: &Server, id: &str, token: &str) -> (u16, Value) {
    server.post(
        &format!("/api/games/{id}/resign"),
        &json!({ "token": token }),
    )
}

#[test]
fn an_online_game_gives_its_creator_one_seat_and_an_invite() {
    let server = Server::start();
    let g = server.create(json!({"mode": "online", "side": "black"}));
    let body = &g.body;
    let id = g.id.as_str();
    assert_eq!(body["you"], "black");
    let token = g.black();
    assert_eq!(g.white, None, "the other seat has no token yet");
    let code = g.invite.as_deref().expect("an invite code");
    assert_eq!(body["invite"]["side"], "white");
    assert_eq!(code.len(), 24);
    assert!(code
        .bytes()
        .all(|b| b"abcdefghijkmnpqrstuvwxyz23456789".contains(&b)));
    assert_ne!(code, token);
    assert_eq!(
        body["links"],
        json!({
            "white": null,
            "black": format!("/game/{id}#token={token}"),
            "invite": format!("/game/{id}#invite={code}"),
            "spectate": format!("/game/{id}"),
        })
    );
    // The answer holds one token: the creator's.
    let text = body.to_string();
    assert_eq!(
        text.matches(token).count(),
        2,
        "seats and links, nowhere else"
    );
    assert_eq!(body["game"]["invite_open"], "white");
    assert_eq!(body["game"]["imported"], false);
    assert_eq!(body["game"]["tags"], Value::Null);
    assert_hides(
        &body["game"].to_string(),
        &[token, code],
        "the created state",
    );

    let state = server.state(id);
    assert_eq!(state["invite_open"], "white");
    assert_hides(&state.to_string(), &[token, code], "the state");

    // No string acts for the seat nobody holds, the empty one included.
    assert_error(&server.play(id, "", FIRST), 403, "bad_token");
    assert_error(&server.play(id, code, FIRST), 403, "bad_token");
    // The creator (black) waits for white's player.
    let early = server.play(id, token, FIRST);
    assert_error(&early, 409, "not_your_turn");
    let message = early.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("not joined"), "{message}");

    // Other modes have no invite; their links carry the token in the fragment.
    let hot = server.create(json!({"mode": "hotseat"}));
    assert_eq!(hot.body["invite"], Value::Null);
    assert_eq!(hot.body["links"]["invite"], Value::Null);
    assert_eq!(hot.body["game"]["invite_open"], Value::Null);
    assert_eq!(
        hot.body["links"]["white"],
        format!("/game/{}#token={}", hot.id, hot.white())
    );
    let ai = server.create(json!({"mode": "ai", "level": 1}));
    assert_eq!(ai.body["invite"], Value::Null);
    assert_eq!(
        ai.body["links"]["white"],
        format!("/game/{}#token={}", ai.id, ai.white())
    );
    assert_eq!(ai.body["links"]["black"], Value::Null);
}

#[test]
fn an_invite_claims_its_seat_once() {
    let server = Server::start();
    let g = server.create(json!({"mode": "online"}));
    let id = g.id.as_str();
    let code = g.invite.clone().unwrap();
    let before = server.state(id);

    // A wrong code, a malformed body, an unknown game: nothing changes.
    let wrong = server.claim(id, "notthecodeofthisgame1234");
    assert_error(&wrong, 403, "bad_invite");
    assert_error(&server.claim(id, ""), 403, "bad_invite");
    assert_error(
        &server.post(&format!("/api/games/{id}/claim"), &json!({"code": code})),
        400,
        "bad_json",
    );
    assert_error(&server.claim("nosuchgame", &code), 404, "unknown_game");
    assert_eq!(server.state(id), before);

    let (status, claimed) = server.claim(id, &code);
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["side"], "black");
    let token = claimed["token"].as_str().expect("a token");
    assert_eq!(token.len(), 24);
    assert_ne!(token, code, "the seat gets a fresh token, not the code");
    assert_ne!(token, g.white());
    assert_eq!(claimed["link"], format!("/game/{id}#token={token}"));
    assert_eq!(claimed["game"]["invite_open"], Value::Null);
    assert_eq!(claimed["game"]["notice"], "black has joined");
    assert_eq!(claimed["game"]["notice_code"], "joined");
    assert_eq!(claimed["game"]["notice_params"]["side"], "black");
    assert_hides(
        &claimed["game"].to_string(),
        &[token, &code, g.white()],
        "the claimed state",
    );
    let (_, you) = server.get_with_token(&format!("/api/games/{id}"), token);
    assert_eq!(you["you"], json!(["black"]));
    assert_eq!(you["invite_open"], Value::Null);

    // Used: the same code again, or any other, says so (and that one can watch).
    let again = server.claim(id, &code);
    assert_error(&again, 409, "invite_used");
    let message = again.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("watch"), "{message}");
    assert_error(
        &server.claim(id, "notthecodeofthisgame1234"),
        409,
        "invite_used",
    );
    // Games without a waiting seat have nothing to claim.
    let hot = server.create(json!({"mode": "hotseat"}));
    assert_error(&server.claim(&hot.id, &code), 409, "invite_used");

    // The claimer plays black; the creator white.
    server.play_ok(id, g.white(), FIRST);
    let s = server.play_ok(id, token, SECOND);
    assert_eq!(moves(&s), [FIRST, SECOND]);
}

#[test]
fn the_creators_token_never_acts_for_the_opponent() {
    let server = Server::start();
    let g = server.create(json!({"mode": "online"}));
    let id = g.id.as_str();
    let creator = g.white();
    let (_, claimed) = server.claim(id, g.invite.as_deref().unwrap());
    let black = claimed["token"].as_str().unwrap().to_string();

    server.play_ok(id, creator, FIRST);
    // Black's move, black's answers: the creator's token is white's only.
    assert_error(&server.play(id, creator, SECOND), 409, "not_your_turn");
    assert_eq!(server.state(id)["ply"], 1);
    let (status, s) = server.action(id, "draw", creator, "offer");
    assert_eq!((status, &s["draw_offer"]), (200, &json!("white")), "{s}");
    assert_error(
        &server.action(id, "draw", creator, "accept"),
        409,
        "own_offer",
    );
    let (status, s) = server.action(id, "takeback", creator, "request");
    assert_eq!(
        (status, &s["takeback_request"]),
        (200, &json!("white")),
        "{s}"
    );
    assert_error(
        &server.action(id, "takeback", creator, "accept"),
        409,
        "own_request",
    );
    // Strangers' tokens (the invite code included) hold no seat at all.
    for stranger in ["", "x", g.invite.as_deref().unwrap()] {
        assert_error(&server.play(id, stranger, SECOND), 403, "bad_token");
        assert_error(&resign(&server, id, stranger), 403, "bad_token");
        assert_error(
            &server.action(id, "draw", stranger, "accept"),
            403,
            "bad_token",
        );
        assert_error(
            &server.action(id, "takeback", stranger, "accept"),
            403,
            "bad_token",
        );
    }
    // The claimer's token answers both.
    let (status, s) = server.action(id, "takeback", &black, "decline");
    assert_eq!(status, 200, "{s}");
    let (status, s) = server.action(id, "draw", &black, "decline");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["status"], "ongoing");
    // And resigning with the creator's token resigns the creator's side.
    let (status, s) = resign(&server, id, creator);
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["result"]["winner"], "black");
    assert_eq!(s["result"]["text"], "white resigns");
}

#[test]
fn nobody_is_offered_anything_before_the_opponent_joins() {
    let server = Server::start();
    let g = server.create(json!({"mode": "online"}));
    let id = g.id.as_str();
    let creator = g.white();
    assert_error(
        &server.action(id, "draw", creator, "offer"),
        409,
        "no_opponent",
    );
    // White may open before black joins…
    let s = server.play_ok(id, creator, FIRST);
    assert_eq!(s["invite_open"], "black");
    // …but there is nobody to ask for a takeback.
    let asked = server.action(id, "takeback", creator, "request");
    assert_error(&asked, 409, "no_opponent");
    assert!(asked.1["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not joined"));
    assert_eq!(server.state(id)["takeback_request"], Value::Null);

    // Resigning is always possible; then the seat cannot be claimed.
    let (status, s) = resign(&server, id, creator);
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["status"], "over");
    assert_eq!(s["invite_open"], "black", "nobody took the seat");
    let late = server.claim(id, g.invite.as_deref().unwrap());
    assert_error(&late, 409, "game_over");
    // A wrong code still says it is wrong, not that the game ended.
    assert_error(
        &server.claim(id, "notthecodeofthisgame1234"),
        403,
        "bad_invite",
    );
}

#[test]
fn a_new_token_retires_the_old_one_everywhere() {
    let server = Server::start();
    let g = server.create_online();
    let id = g.id.as_str();
    let old = g.white().to_string();
    let mut ws = server.live(id);
    assert_eq!(ws.recv()["type"], "state");

    let (status, renewed) = server.renew_token(id, &old);
    assert_eq!(status, 200, "{renewed}");
    let new = renewed["token"].as_str().expect("a token").to_string();
    assert_ne!(new, old);
    assert_eq!(renewed["seats"], json!(["white"]));
    assert_eq!(renewed["link"], format!("/game/{id}#token={new}"));

    // The old token: 403 over HTTP and on the live socket.
    assert_error(&server.play(id, &old, FIRST), 403, "bad_token");
    assert_error(&resign(&server, id, &old), 403, "bad_token");
    assert_error(&server.action(id, "draw", &old, "offer"), 403, "bad_token");
    assert_error(&server.renew_token(id, &old), 403, "bad_token");
    let (_, state) = server.get_with_token(&format!("/api/games/{id}"), &old);
    assert_eq!(state["you"], json!([]));
    ws.send(&json!({"type": "move", "move": FIRST, "token": old, "id": "old"}));
    let (err, _) = ws.recv_until(|m| m["type"] != "state");
    assert_eq!(
        (&err["type"], &err["id"], &err["error"]["code"]),
        (&json!("error"), &json!("old"), &json!("bad_token")),
        "{err}"
    );
    assert_eq!(server.state(id)["ply"], 0);
    // The new one works, over the socket too; black's is untouched.
    ws.send(&json!({"type": "move", "move": FIRST, "token": new, "id": "new"}));
    let (ack, _) = ws.recv_until(|m| m["type"] != "state");
    assert_eq!(ack["type"], "ack", "{ack}");
    server.play_ok(id, g.black(), SECOND);
    let (_, state) = server.get_with_token(&format!("/api/games/{id}"), &new);
    assert_eq!(state["you"], json!(["white"]));
    assert_hides(&state.to_string(), &[&old, &new, g.black()], "the state");

    // Also after the game ended.
    let (status, _) = resign(&server, id, &new);
    assert_eq!(status, 200);
    let (status, after) = server.renew_token(id, &new);
    assert_eq!(status, 200, "{after}");
    assert_error(&server.renew_token(id, &new), 403, "bad_token");

    // Bad requests.
    assert_error(&server.renew_token("nosuchgame", &old), 404, "unknown_game");
    assert_error(
        &server.post(&format!("/api/games/{id}/token"), &json!({"tok": "x"})),
        400,
        "bad_json",
    );
}

#[test]
fn the_creator_renews_the_invite_and_the_old_code_claims_nothing() {
    let server = Server::start();
    let g = server.create(json!({"mode": "online", "side": "black"}));
    let id = g.id.as_str();
    let old = g.invite.clone().unwrap();
    let mut ws = server.live(id);
    assert_eq!(ws.recv()["type"], "state");

    // Only the creator's seat token renews it (not the code, not a stranger).
    for stranger in [old.as_str(), "notatokenofthisgame12345"] {
        assert_error(&server.renew_invite(id, stranger), 403, "bad_token");
    }
    assert_error(
        &server.renew_invite("nosuchgame", g.black()),
        404,
        "unknown_game",
    );
    assert_error(
        &server.post(
            &format!("/api/games/{id}/invite"),
            &json!({"token": g.black(), "action": "revoke"}),
        ),
        400,
        "bad_json",
    );

    let before = server.state(id);
    let (status, renewed) = server.renew_invite(id, g.black());
    assert_eq!(status, 200, "{renewed}");
    let new = renewed["invite"]["code"]
        .as_str()
        .expect("a code")
        .to_string();
    assert_eq!(renewed["invite"]["side"], "white");
    assert_eq!(renewed["link"], format!("/game/{id}#invite={new}"));
    assert_eq!(new.len(), 24);
    assert_ne!(new, old);
    assert_ne!(new, g.black());
    // The seat still waits; the state shows neither code; watchers hear of it.
    let after = server.state(id);
    assert_eq!(after["invite_open"], "white");
    assert_eq!(after["version"], before["version"].as_u64().unwrap() + 1);
    assert_hides(&after.to_string(), &[&old, &new, g.black()], "the state");
    let pushed = ws.recv_state_at(0);
    assert_hides(&pushed.to_string(), &[&old, &new], "the pushed state");

    // The old code claims nothing, as any wrong code; the new one claims.
    assert_error(&server.claim(id, &old), 403, "bad_invite");
    assert_eq!(server.state(id)["invite_open"], "white");
    let (status, claimed) = server.claim(id, &new);
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["side"], "white");
    let white = claimed["token"].as_str().unwrap();
    server.play_ok(id, white, FIRST);

    // Claimed, there is no invite left to renew; the old codes say so too.
    let gone = server.renew_invite(id, g.black());
    assert_error(&gone, 409, "invite_used");
    let message = gone.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("claimed"), "{message}");
    assert_error(&server.renew_invite(id, white), 409, "invite_used");
    assert_error(&server.claim(id, &old), 409, "invite_used");
    // Nor has a game at one screen one.
    let hot = server.create(json!({"mode": "hotseat"}));
    assert_error(
        &server.renew_invite(&hot.id, hot.white()),
        409,
        "invite_used",
    );
}

#[test]
fn a_renewed_invite_survives_a_restart() {
    let dir = common::TempDir::new("invite");
    let (id, old, new, creator) = {
        let server = Server::builder().data_dir(dir.path()).start();
        let g = server.create(json!({"mode": "online"}));
        let (status, renewed) = server.renew_invite(&g.id, g.white());
        assert_eq!(status, 200, "{renewed}");
        (
            g.id.clone(),
            g.invite.clone().unwrap(),
            renewed["invite"]["code"].as_str().unwrap().to_string(),
            g.white().to_string(),
        )
    };
    let server = Server::builder().data_dir(dir.path()).start();
    assert_error(&server.claim(&id, &old), 403, "bad_invite");
    let (status, claimed) = server.claim(&id, &new);
    assert_eq!(status, 200, "{claimed}");
    server.play_ok(&id, &creator, FIRST);
    server.play_ok(&id, claimed["token"].as_str().unwrap(), SECOND);
}

#[test]
fn a_hot_seat_token_is_renewed_for_both_seats() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    let id = g.id.as_str();
    let old = g.white();
    let (status, renewed) = server.renew_token(id, old);
    assert_eq!(status, 200, "{renewed}");
    assert_eq!(renewed["seats"], json!(["white", "black"]));
    let new = renewed["token"].as_str().unwrap();
    assert_error(&server.play(id, old, FIRST), 403, "bad_token");
    server.play_ok(id, new, FIRST);
    server.play_ok(id, new, SECOND);
    let (_, state) = server.get_with_token(&format!("/api/games/{id}"), new);
    assert_eq!(state["you"], json!(["white", "black"]));
}

#[test]
fn the_token_header_says_which_seats_it_holds() {
    let server = Server::start();
    let g = server.create_online();
    let path = format!("/api/games/{}", g.id);
    let you = |token: &str| server.get_with_token(&path, token).1["you"].clone();
    assert_eq!(you(g.white()), json!(["white"]));
    assert_eq!(you(g.black()), json!(["black"]));
    assert_eq!(you("nosuchtoken"), json!([]));
    // With a replayed ply too; the header wins over a query token.
    let (_, s) = server.get_with_token(&format!("{path}?ply=0&token={}", g.white()), g.black());
    assert_eq!(s["you"], json!(["black"]));
    assert_eq!(s["replay"], true);
}

#[test]
fn watchers_see_the_seat_filled() {
    let server = Server::start();
    let g = server.create(json!({"mode": "online"}));
    let code = g.invite.clone().unwrap();
    let mut ws = server.live(&g.id);
    let first = ws.recv();
    assert_eq!(first["game"]["invite_open"], "black");
    let (status, claimed) = server.claim(&g.id, &code);
    assert_eq!(status, 200, "{claimed}");
    let token = claimed["token"].as_str().unwrap();
    let msg = ws.recv();
    assert_eq!(msg["type"], "state", "{msg}");
    assert_eq!(msg["game"]["invite_open"], Value::Null);
    assert_eq!(msg["game"]["notice"], "black has joined");
    assert_eq!(msg["game"]["version"], claimed["game"]["version"]);
    assert_hides(&msg.to_string(), &[token, &code, g.white()], "a live state");
    // Listings show no secrets either.
    let (_, _, list) = server.get_text("/api/games");
    assert_hides(&list, &[token, &code, g.white()], "the game list");
}

#[test]
fn an_online_import_invites_the_other_seat() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    server.play_ok(&g.id, g.white(), FIRST);
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    let (status, body) = server.post(
        "/api/games/import",
        &json!({"record": record, "mode": "online", "side": "black"}),
    );
    assert_eq!(status, 201, "{body}");
    let imported = common::Created::from_json(body);
    assert_eq!(imported.white, None);
    assert!(imported.black.is_some());
    assert_eq!(imported.body["invite"]["side"], "white");
    assert_eq!(imported.body["game"]["invite_open"], "white");
    // Black (the importer) is to move and may; white's player joins later.
    server.play_ok(&imported.id, imported.black(), SECOND);
    let (status, claimed) = server.claim(&imported.id, imported.invite.as_deref().unwrap());
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["side"], "white");
    assert_eq!(claimed["game"]["ply"], 2);
}

#[test]
fn a_live_socket_with_an_unclaimed_seat_refuses_its_moves() {
    // The seat nobody holds has no token, so nothing sent on the socket acts for it.
    let server = Server::start();
    let g = server.create(json!({"mode": "online"}));
    server.play_ok(&g.id, g.white(), FIRST);
    let mut ws: Ws = server.live(&g.id);
    assert_eq!(ws.recv()["type"], "state");
    for (i, token) in ["", g.white(), g.invite.as_deref().unwrap()]
        .into_iter()
        .enumerate()
    {
        ws.send(&json!({"type": "move", "move": SECOND, "token": token, "id": i}));
        let err = ws.recv();
        assert_eq!(err["type"], "error", "{err}");
        let code = err["error"]["code"].as_str().unwrap();
        assert!(code == "bad_token" || code == "not_your_turn", "{err}");
    }
    assert_eq!(server.state(&g.id)["ply"], 1);
}

#[test]
fn renewing_while_the_ai_thinks_does_not_stop_it_for_good() {
    // A renewal is a change of the game, which stops the AI's search of
    // the moment; the AI must still answer.
    let server = Server::builder().ai_movetime(1000).ai_workers(1).start();
    // Level 4 thinks its whole second.
    let g = server.create(json!({"mode": "ai", "level": 4, "side": "white"}));
    let s = server.play_ok(&g.id, g.white(), FIRST);
    assert_eq!(s["ai_thinking"], true);
    server.wait_ai_running(1, std::time::Duration::from_secs(10));
    let (status, renewed) = server.renew_token(&g.id, g.white());
    assert_eq!(status, 200, "{renewed}");
    assert_eq!(server.state(&g.id)["ply"], 1, "renewed while the AI thinks");
    let answered = server.wait_for(&g.id, std::time::Duration::from_secs(30), |s| s["ply"] == 2);
    assert_eq!(answered["to_move"], "white");
    let new = renewed["token"].as_str().unwrap();
    let mv = common::legal_moves(&answered)[0].clone();
    server.play_ok(&g.id, new, &mv);
}

#[test]
fn invites_and_renewed_tokens_survive_a_restart() {
    let dir = common::TempDir::new("seats");
    let (id, code, old, new) = {
        let server = Server::builder().data_dir(dir.path()).start();
        let g = server.create(json!({"mode": "online"}));
        let (status, renewed) = server.renew_token(&g.id, g.white());
        assert_eq!(status, 200, "{renewed}");
        let new = renewed["token"].as_str().unwrap().to_string();
        (
            g.id.clone(),
            g.invite.clone().unwrap(),
            g.white().to_string(),
            new,
        )
    };
    let server = Server::builder().data_dir(dir.path()).start();
    assert_eq!(server.state(&id)["invite_open"], "black");
    assert_error(&server.play(&id, &old, FIRST), 403, "bad_token");
    server.play_ok(&id, &new, FIRST);
    let (status, claimed) = server.claim(&id, &code);
    assert_eq!(status, 200, "{claimed}");
    server.play_ok(&id, claimed["token"].as_str().unwrap(), SECOND);
}

/// Every text a test can read off the server: `(what, text)`.
type Seen = Vec<(String, String)>;

/// Reads `path` and keeps what came back, whatever the status.
fn read_all(server: &Server, path: &str, seen: &mut Seen) -> Value {
    let (status, _, text) = server.get_text(path);
    assert!(status < 500, "GET {path}: {status} {text}");
    seen.push((format!("GET {path}"), text.clone()));
    common::to_json(&text)
}

/// Every message waiting on `ws` within `wait`, kept as `what`.
fn drain(ws: &mut Ws, what: &str, wait: std::time::Duration, seen: &mut Seen) {
    ws.socket
        .get_ref()
        .set_read_timeout(Some(wait))
        .expect("a read timeout");
    while let Ok(text) = ws.try_recv_text_any() {
        seen.push((what.to_string(), text));
    }
}

/// The claim the docs make of seats (and ARCHITECTURE.md's invariant):
/// tokens and invite codes never appear in a state, a record or a server
/// log. An online game is played through every kind of request that
/// carries a secret — a renewed invite, its claim, names, hellos, moves
/// over HTTP and over a live socket, offers, a renewed token, a state read
/// with the token in the header and in the query string, a resignation, a
/// rematch and the new game's moves — with an AI game whose move cannot be
/// saved (a locked database: the server logs it) and an online import
/// beside it; then everything the API offers to read is read (states at
/// every ply, records, lists, the board, status, metrics, health, an
/// analysis, a spectator's socket) and the server's whole output, stdout
/// and stderr, taken after it stopped. No secret may be anywhere in them.
#[test]
fn no_token_or_invite_code_shows_in_any_record_list_socket_or_log() {
    use std::time::Duration;
    let dir = common::TempDir::new("secrets");
    let mut server = Server::builder()
        .data_dir(dir.path())
        // A stalled save gives up at once (the default waits 5 s).
        .flags(&["--db-timeout", "1"])
        // Long enough to lock the database before the AI's move is saved.
        .ai_movetime(500)
        .capture_log()
        .start();
    let mut secrets: Vec<String> = Vec::new();
    let mut seen: Seen = Vec::new();

    // The online game: white creates it, renews the invite, black claims
    // the new one.
    let g = server.create(json!({"mode": "online"}));
    let id = g.id.clone();
    let white = g.white().to_string();
    let first_code = g.invite.clone().expect("an invite");
    secrets.extend([white.clone(), first_code.clone()]);
    let mut spectator = server.live(&id);
    let (status, renewed) = server.renew_invite(&id, &white);
    assert_eq!(status, 200, "{renewed}");
    let code = renewed["invite"]["code"].as_str().unwrap().to_string();
    secrets.push(code.clone());
    assert_error(&server.claim(&id, &first_code), 403, "bad_invite");
    let (status, claimed) = server.claim(&id, &code);
    assert_eq!(status, 200, "{claimed}");
    let black = claimed["token"].as_str().unwrap().to_string();
    secrets.push(black.clone());
    assert_error(&server.claim(&id, &code), 409, "invite_used");
    for (token, name) in [(&white, "Ada"), (&black, "Bea")] {
        let (status, body) = server.post(
            &format!("/api/games/{id}/name"),
            &json!({"token": token, "name": name}),
        );
        assert_eq!(status, 200, "{body}");
    }

    // Both players' sockets say hello with their tokens; white moves over
    // its socket, black over HTTP, with the token in every way it may go.
    let mut white_ws = server.live(&id);
    let mut black_ws = server.live(&id);
    for (ws, token) in [(&mut white_ws, &white), (&mut black_ws, &black)] {
        ws.send(&json!({"type": "hello", "token": token, "id": "hi"}));
        let (ack, _) = ws.recv_until(|m| m["id"] == "hi");
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    white_ws.send(&json!({"type": "move", "move": FIRST, "token": white, "ply": 0, "id": 1}));
    let (ack, _) = white_ws.recv_until(|m| m["id"] == 1);
    assert_eq!(ack["type"], "ack", "{ack}");
    server.play_ok(&id, &black, SECOND);
    let (status, _) = server.get_with_token(&format!("/api/games/{id}"), &white);
    assert_eq!(status, 200);
    read_all(
        &server,
        &format!("/api/games/{id}?token={black}"),
        &mut seen,
    );
    for (what, token, action) in [
        ("draw", &white, "offer"),
        ("draw", &black, "decline"),
        ("takeback", &black, "request"),
        ("takeback", &white, "decline"),
    ] {
        let (status, body) = server.action(&id, what, token, action);
        assert_eq!(status, 200, "{what} {action}: {body}");
    }
    // A refused claim of abandonment, with a token, and a refused move.
    assert_eq!(
        server.abandon(&id, &white).0,
        409,
        "no clock, no abandonment"
    );
    assert_error(&server.play(&id, &black, FIRST), 409, "not_your_turn");
    // White swaps its token for a new one and goes on with it.
    let (status, renewed) = server.renew_token(&id, &white);
    assert_eq!(status, 200, "{renewed}");
    let white2 = renewed["token"].as_str().unwrap().to_string();
    secrets.push(white2.clone());
    let state = server.state(&id);
    let mv = common::legal_moves(&state)[0].clone();
    server.play_ok(&id, &white2, &mv);
    let (status, over) = resign(&server, &id, &black);
    assert_eq!(status, 200, "{over}");
    // A rematch: each keeps their token, for the other colour.
    let (status, offered) = server.action(&id, "rematch", &black, "offer");
    assert_eq!(status, 200, "{offered}");
    let (status, accepted) = server.action(&id, "rematch", &white2, "accept");
    assert_eq!(status, 200, "{accepted}");
    let next = accepted["rematch"]
        .as_str()
        .unwrap_or_else(|| panic!("the rematch's id: {accepted}"))
        .to_string();
    server.play_ok(&next, &black, FIRST);
    server.play_ok(&next, &white2, SECOND);

    // An online import: its importer's token and its invite.
    let (_, _, record) = server.get_text(&format!("/api/games/{id}/record"));
    let (status, body) = server.post(
        "/api/games/import",
        &json!({"record": record, "mode": "online", "side": "white"}),
    );
    assert_eq!(status, 201, "{body}");
    let imported = common::Created::from_json(body);
    secrets.extend([
        imported.white().to_string(),
        imported.invite.clone().unwrap(),
    ]);

    // An AI game whose move cannot be saved (SQLite: the file locked by
    // another connection): the server logs the failure.
    let ai = server.create(json!({"mode": "ai", "level": 4, "side": "white"}));
    secrets.push(ai.white().to_string());
    let s = server.play_ok(&ai.id, ai.white(), FIRST);
    assert_eq!(s["ai_thinking"], true, "{s}");
    let logs_a_failure = !common::on_postgres();
    if logs_a_failure {
        let db = rusqlite::Connection::open(dir.path().join("games.sqlite3")).expect("open db");
        db.execute_batch("BEGIN EXCLUSIVE")
            .expect("lock the database");
        let t0 = std::time::Instant::now();
        while !server.log().contains("saving the AI's move") {
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the failed save was never logged: {}",
                server.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        db.execute_batch("ROLLBACK").expect("unlock");
    }

    // Everything there is to read.
    let ids = [
        id.as_str(),
        next.as_str(),
        imported.id.as_str(),
        ai.id.as_str(),
    ];
    for game in ids {
        let state = read_all(&server, &format!("/api/games/{game}"), &mut seen);
        for ply in 0..=common::ply(&state) {
            read_all(&server, &format!("/api/games/{game}?ply={ply}"), &mut seen);
        }
        read_all(&server, &format!("/api/games/{game}/record"), &mut seen);
        let (status, body) = server.get_with_token(&format!("/api/games/{game}"), &white2);
        assert_eq!(status, 200, "{body}");
        seen.push((format!("GET {game} with a token"), body.to_string()));
    }
    for path in [
        "/api/games".to_string(),
        "/api/games?status=ongoing".to_string(),
        "/api/games?status=over&limit=500".to_string(),
        "/api/games?watch=true".to_string(),
        format!("/api/games?ids={}", ids.join(",")),
        "/api/board".to_string(),
        "/api/status".to_string(),
        "/api/health".to_string(),
        "/metrics".to_string(),
    ] {
        read_all(&server, &path, &mut seen);
    }
    let (status, analysis) = server.post(
        &format!("/api/games/{id}/analyse"),
        &json!({"ply": 2, "movetime": 20}),
    );
    assert_eq!(status, 200, "the finished game's analysis: {analysis}");
    seen.push(("its analysis".into(), analysis.to_string()));
    let wait = Duration::from_millis(300);
    drain(&mut spectator, "the spectator's socket", wait, &mut seen);
    drain(&mut white_ws, "white's socket", wait, &mut seen);
    drain(&mut black_ws, "black's socket", wait, &mut seen);
    assert!(
        seen.iter()
            .filter(|(what, _)| what.ends_with("socket"))
            .count()
            > 10,
        "the sockets saw the game"
    );

    let log = server.stop_and_log(Duration::from_secs(10));
    assert!(log.contains("PÜNCT server: open http://"), "stdout: {log}");
    assert!(
        !logs_a_failure || log.contains(&format!("game {}: saving the AI's move", ai.id)),
        "stderr: {log}"
    );
    seen.push(("the server's output".into(), log));

    for secret in &secrets {
        assert_eq!(secret.len(), 24, "{secret}");
        for (what, text) in &seen {
            assert!(
                !text.contains(secret.as_str()),
                "{what} shows the secret {secret}: {text}"
            );
        }
    }
}
