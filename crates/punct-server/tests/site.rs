//! The game site's server side: players' names, rematches, fair play
//! (analysis refused while people play), the post-game analysis and the
//! game lists (docs/API.md). The real binary over loopback.

mod common;

use common::*;
use serde_json::{json, Value};
use std::time::Duration;

/// Plays the first legal move for whoever is to move, `n` times.
fn play_some(server: &Server, g: &Created, n: usize) -> Value {
    let mut state = server.state(&g.id);
    for _ in 0..n {
        let side = state["to_move"].as_str().unwrap().to_string();
        let mv = legal_moves(&state)[0].clone();
        state = server.play_ok(&g.id, g.token(&side), &mv);
    }
    state
}

fn resign(server: &Server, id: &str, token: &str) -> Value {
    let (status, body) = server.post(
        &format!("/api/games/{id}/resign"),
        &json!({ "token": token }),
    );
    assert_eq!(status, 200, "{body}");
    body
}

fn record(server: &Server, id: &str) -> String {
    let (status, _, text) = server.get_text(&format!("/api/games/{id}/record"));
    assert_eq!(status, 200, "{text}");
    text
}

#[test]
fn players_choose_names_that_states_lists_and_records_show() {
    let server = Server::start();
    let (status, body) = server.post(
        "/api/games",
        &json!({"mode": "online", "side": "white", "name": "  Ada  "}),
    );
    assert_eq!(status, 201, "{body}");
    let g = Created::from_json(body);
    let code = g.invite.clone().unwrap();
    let (status, claimed) = server.post(
        &format!("/api/games/{}/claim", g.id),
        &json!({"invite": code, "name": "Bo"}),
    );
    assert_eq!(status, 200, "{claimed}");
    let state = server.state(&g.id);
    assert_eq!(
        state["players"]["white"],
        json!({"name": "Ada", "ai": false, "bot": false})
    );
    assert_eq!(
        state["players"]["black"],
        json!({"name": "Bo", "ai": false, "bot": false})
    );
    let rec = record(&server, &g.id);
    assert!(rec.contains("[White \"Ada\"]"), "{rec}");
    assert!(rec.contains("[Black \"Bo\"]"), "{rec}");

    // A player renames their own seat only.
    let black = claimed["token"].as_str().unwrap();
    let (status, state) = server.post(
        &format!("/api/games/{}/name", g.id),
        &json!({"token": black, "name": "Bodil"}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["players"]["black"]["name"], "Bodil");
    assert_eq!(state["players"]["white"]["name"], "Ada");
    let answer = server.post(
        &format!("/api/games/{}/name", g.id),
        &json!({"token": black, "name": "x", "side": "white"}),
    );
    assert_error(&answer, 403, "bad_token");

    // The game list shows the names.
    let (_, list) = server.get(&format!("/api/games?ids={}", g.id));
    assert_eq!(list["games"][0]["players"]["black"]["name"], "Bodil");

    // Names that would spoil a record or a list are refused, saying why.
    for (name, why) in [
        ("x".repeat(41), "at most 40"),
        ("a\u{7}b".to_string(), "control characters"),
        ("say \"hi\"".to_string(), "quotes"),
    ] {
        let answer = server.post("/api/games", &json!({"mode": "online", "name": name}));
        assert_error(&answer, 400, "bad_name");
        assert!(
            answer.1["error"]["message"].as_str().unwrap().contains(why),
            "{}",
            answer.1
        );
    }

    // A name that reads differently from what it is: refused, naming the
    // character by its code point, and nothing changes.
    let before = server.state(&g.id);
    let answer = server.post(
        &format!("/api/games/{}/name", g.id),
        &json!({"token": black, "name": "Bo\u{202E}lidoB"}),
    );
    assert_error(&answer, 400, "bad_name");
    assert_eq!(
        answer.1["error"]["params"]["char"], "U+202E",
        "{}",
        answer.1
    );
    let message = answer.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("U+202E"), "{message}");
    assert!(!message.contains('\u{202E}'), "{message}");
    assert_eq!(server.state(&g.id), before);
    assert!(!record(&server, &g.id).contains('\u{202E}'));
    // Invisible characters and other spaces, at creation and when joining.
    for name in ["Ada\u{200B}", "\u{3164}", "Ada\u{00A0}Lovelace"] {
        let answer = server.post("/api/games", &json!({"mode": "online", "name": name}));
        assert_error(&answer, 400, "bad_name");
    }
    let other = server.create(json!({"mode": "online"}));
    let answer = server.post(
        &format!("/api/games/{}/claim", other.id),
        &json!({"invite": other.invite.clone().unwrap(), "name": "\u{FEFF}Bo"}),
    );
    assert_error(&answer, 400, "bad_name");
    assert_eq!(server.state(&other.id)["invite_open"], "black");
    // A name is stored in NFC: "é" sent as e + U+0301 comes back composed.
    let (status, state) = server.post(
        &format!("/api/games/{}/name", g.id),
        &json!({"token": black, "name": "Rene\u{301}e"}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["players"]["black"]["name"], "Ren\u{E9}e");

    // Against the AI, the AI's seat is named by its level, and the record
    // of a person without a name says `?`.
    let ai = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    let state = server.state(&ai.id);
    assert_eq!(
        state["players"]["black"],
        json!({"name": "PÜNCT AI level 1", "ai": true, "bot": false})
    );
    assert_eq!(state["players"]["white"]["name"], Value::Null);
    let rec = record(&server, &ai.id);
    assert!(rec.contains("[White \"?\"]"), "{rec}");
}

#[test]
fn a_rematch_swaps_the_colours_and_each_player_keeps_their_token() {
    let server = Server::start();
    let (_, body) = server.post(
        "/api/games",
        &json!({"mode": "online", "side": "white", "name": "Ada", "variant": "basic"}),
    );
    let mut g = Created::from_json(body);
    let (_, claimed) = server.post(
        &format!("/api/games/{}/claim", g.id),
        &json!({"invite": g.invite.clone().unwrap(), "name": "Bo"}),
    );
    g.black = claimed["token"].as_str().map(str::to_string);
    let rematch = |token: &str, action: &str| {
        server.post(
            &format!("/api/games/{}/rematch", g.id),
            &json!({"token": token, "action": action}),
        )
    };
    assert_error(&rematch(g.white(), "offer"), 409, "game_on");
    play_some(&server, &g, 2);
    resign(&server, &g.id, g.white());

    assert_error(&rematch(g.white(), "accept"), 409, "no_offer");
    assert_error(&rematch("nobody", "offer"), 403, "bad_token");
    assert_error(&rematch(g.white(), "again"), 400, "bad_action");
    // Declined, then offered again and accepted.
    let (status, state) = rematch(g.black(), "offer");
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["rematch_offer"], "black");
    assert_error(&rematch(g.black(), "offer"), 409, "own_offer");
    let (_, state) = rematch(g.white(), "decline");
    assert_eq!(state["rematch_offer"], Value::Null);
    assert!(
        state["notice"].as_str().unwrap().contains("declines"),
        "{state}"
    );
    rematch(g.black(), "offer");
    let (status, state) = rematch(g.white(), "accept");
    assert_eq!(status, 200, "{state}");
    let new_id = state["rematch"]
        .as_str()
        .expect("the rematch's id")
        .to_string();
    assert_error(&rematch(g.black(), "offer"), 409, "rematch_started");

    let new = server.state(&new_id);
    assert_eq!(new["variant"], "basic");
    assert_eq!(new["mode"], "online");
    assert_eq!(new["ply"], 0);
    assert_eq!(
        new["invite_open"],
        Value::Null,
        "both seats are taken: {new}"
    );
    assert_eq!(new["players"]["white"]["name"], "Bo");
    assert_eq!(new["players"]["black"]["name"], "Ada");
    // Bo (black before) now moves first with the same token; Ada cannot.
    let mv = legal_moves(&new)[0].clone();
    let (status, body) = server.play(&new_id, g.white(), &mv);
    assert_eq!(status, 409, "{body}");
    server.play_ok(&new_id, g.black(), &mv);
}

#[test]
fn against_the_ai_a_rematch_starts_at_once_and_the_ai_takes_the_other_colour() {
    let dir = TempDir::new("rematch-ai");
    let server = Server::builder()
        .data_dir(dir.path())
        .ai_movetime(50)
        .start();
    let g = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    resign(&server, &g.id, g.white());
    let (status, state) = server.post(
        &format!("/api/games/{}/rematch", g.id),
        &json!({"token": g.white(), "action": "offer"}),
    );
    assert_eq!(status, 200, "{state}");
    let new_id = state["rematch"]
        .as_str()
        .expect("started at once")
        .to_string();
    let new = server.wait_for(&new_id, Duration::from_secs(30), |s| s["ply"] == 1);
    assert_eq!(new["ai"]["side"], "white", "{new}");
    assert_eq!(new["players"]["white"]["ai"], true);
    // The person plays Black now, with the token of the first game.
    let mv = legal_moves(&new)[0].clone();
    server.play_ok(&new_id, g.white(), &mv);
}

#[test]
fn analysis_is_off_while_people_play_and_a_hint_against_the_ai_marks_the_game() {
    let server = Server::start();
    let g = server.create_online();
    play_some(&server, &g, 2);
    let analyse = |id: &str, body: Value| server.post(&format!("/api/games/{id}/analyse"), &body);
    assert_error(
        &analyse(&g.id, json!({"movetime": 20})),
        403,
        "analysis_off",
    );
    // Not an earlier ply either: the game is still being played.
    assert_error(
        &analyse(&g.id, json!({"ply": 1, "movetime": 20})),
        403,
        "analysis_off",
    );
    resign(&server, &g.id, g.black());
    let (status, body) = analyse(&g.id, json!({"ply": 1, "movetime": 20}));
    assert_eq!(status, 200, "{body}");
    assert!(body["best"].is_string(), "{body}");
    assert_error(
        &analyse(&g.id, json!({"ply": 9, "movetime": 20})),
        400,
        "bad_ply",
    );

    // Against the AI: an earlier position is study, the live one a hint.
    let ai = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    let state = play_some_with(&server, &ai, "white");
    assert_eq!(state["assisted"], false);
    let (status, body) = analyse(&ai.id, json!({"ply": 0, "movetime": 20}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.state(&ai.id)["assisted"], false);
    let (status, body) = analyse(&ai.id, json!({"movetime": 20}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.state(&ai.id)["assisted"], true);
    assert!(record(&server, &ai.id).contains("[Assisted \"yes\"]"));
}

/// Waits for the AI's reply after the person (`side`) moves once.
fn play_some_with(server: &Server, g: &Created, side: &str) -> Value {
    let state = server.state(&g.id);
    let mv = legal_moves(&state)[0].clone();
    server.play_ok(&g.id, g.token(side), &mv);
    server.wait_for(&g.id, Duration::from_secs(30), |s| {
        s["ply"] == 2 && s["ai_thinking"] == false
    })
}

#[test]
fn an_ended_game_gets_its_post_game_analysis_in_the_background() {
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    let before = play_some(&server, &g, 4);
    assert_eq!(
        before["review"],
        Value::Null,
        "no review while the game goes on"
    );
    let ended = resign(&server, &g.id, g.white());
    assert!(
        ended["review"]["status"] == "pending" || ended["review"]["status"] == "done",
        "{}",
        ended["review"]
    );
    let state = server.wait_for(&g.id, Duration::from_secs(60), |s| {
        s["review"]["status"] == "done"
    });
    let review = &state["review"];
    let values = review["values"].as_array().unwrap();
    assert_eq!(
        values.len(),
        5,
        "one value per position, the last included: {review}"
    );
    assert!(
        values.iter().all(|v| v.as_i64().unwrap().abs() <= 1000),
        "{review}"
    );
    assert_eq!(review["best"].as_array().unwrap().len(), 5);
    for m in review["mistakes"].as_array().unwrap() {
        assert!(m["loss"].as_i64().unwrap() >= 150, "{m}");
        assert!(
            ["mistake", "blunder"].contains(&m["kind"].as_str().unwrap()),
            "{m}"
        );
    }
    // A game ended without a move has nothing to review.
    let empty = server.create(json!({"mode": "hotseat"}));
    let state = resign(&server, &empty.id, empty.white());
    assert_eq!(state["review"], Value::Null);
}

/// A finished game brought in as a record is reviewed as one played here,
/// its losing move named.
#[test]
fn an_imported_finished_game_gets_its_post_game_analysis() {
    let server = Server::start();
    let record = "[Variant \"standard\"]\n[Result \"1-0\"]\n\n1. L@L7/4 C@K5/1 2. M@I6/4 C@K7/0 \
        3. E@G4/1 E@K12/3 4. E@O8/4 K5-K10/0 5. R@J5/1 L@J14/2 6. C@C2/2 L@J3/4 7. T@B4/0 1-0\n";
    let (status, imported) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["status"], "over");
    let id = imported["id"].as_str().unwrap();
    let state = server.wait_for(id, Duration::from_secs(60), |s| {
        s["review"]["status"] == "done"
    });
    assert_eq!(state["review"]["values"].as_array().unwrap().len(), 14);
    assert_eq!(
        state["review"]["lost"]["side"], "black",
        "{}",
        state["review"]
    );
}

/// A game won by a connection: its review names the loser's move after
/// which the winner wins by force, with the solver's line, among the
/// marked moves.
#[test]
fn the_review_of_a_game_lost_by_connection_names_the_losing_move_with_its_line() {
    // Black wins by connection with E11-H11/1 (public case 6).
    const BLACK_WINS: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 \
        L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1";
    let server = Server::start();
    let g = server.create(json!({"mode": "hotseat"}));
    let moves: Vec<&str> = BLACK_WINS.split_whitespace().collect();
    for mv in &moves {
        server.play_ok(&g.id, g.white(), mv);
    }
    let state = server.wait_for(&g.id, Duration::from_secs(90), |s| {
        s["review"]["status"] == "done"
    });
    let review = &state["review"];
    let lost = &review["lost"];
    assert_eq!(lost["side"], "white", "{review}");
    let ply = lost["ply"].as_u64().unwrap() as usize;
    assert!(
        ply >= 1 && ply < moves.len() && ply % 2 == 1,
        "a move of White's: {lost}"
    );
    assert_eq!(lost["move"], moves[ply - 1]);
    assert!(!lost["line"].as_array().unwrap().is_empty(), "{lost}");
    let marked = review["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["ply"] == lost["ply"])
        .unwrap_or_else(|| panic!("the losing move is not among the marked: {review}"));
    assert_eq!(marked["kind"], "losing");
    assert_eq!(marked["line"], lost["line"]);
}

#[test]
fn lists_show_a_browsers_own_games_and_games_to_watch_without_empty_ones() {
    let server = Server::start();
    let watched = server.create_online();
    play_some(&server, &watched, 1);
    let waiting = server.create(json!({"mode": "online"}));
    let ai = server.create(json!({"mode": "ai", "level": 1, "side": "black"}));
    let hotseat = server.create(json!({"mode": "hotseat"}));

    let ids = |list: &Value| -> Vec<String> {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (status, list) = server.get("/api/games?watch=true");
    assert_eq!(status, 200, "{list}");
    assert_eq!(ids(&list), vec![watched.id.clone()], "{list}");
    let line = &list["games"][0];
    assert_eq!(line["ply"], 1);
    assert_eq!(line["to_move"], "black");

    let (_, list) = server.get(&format!(
        "/api/games?ids={},{},{}",
        waiting.id, hotseat.id, ai.id
    ));
    let mut mine = ids(&list);
    mine.sort();
    let mut want = vec![waiting.id.clone(), hotseat.id.clone(), ai.id.clone()];
    want.sort();
    assert_eq!(mine, want, "a browser's own games, empty ones too: {list}");
    let waiting_line = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == waiting.id.as_str())
        .unwrap();
    assert_eq!(waiting_line["invite_open"], true);

    assert_error(&server.get("/api/games?ids=a;b"), 400, "bad_ids");
    let many = vec!["a"; 201].join(",");
    assert_error(
        &server.get(&format!("/api/games?ids={many}")),
        400,
        "bad_ids",
    );
}
