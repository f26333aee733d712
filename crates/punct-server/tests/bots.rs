//! Bots through the real binary: API tokens made signed in, shown once
//! and refused once removed; token and cookie never standing in for each
//! other; an account upgraded to a bot only before its first game, and
//! kept out of quick pairing; a bot's seek accepted by a person and
//! announced on the bot's event stream; the game stream's first full
//! state and then each change; a bot's move refused in a game it does not
//! play.

mod common;

use common::{assert_error, http_agent, to_json, Server};
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";

fn sign_up(server: &Server, name: &str) -> String {
    common::sign_up_cookie(server, name, PASSWORD)
}

fn answer(resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>, what: &str) -> (u16, Value) {
    let mut resp = resp.unwrap_or_else(|e| panic!("{what}: {e}"));
    let status = resp.status().as_u16();
    let text = resp
        .body_mut()
        .read_to_string()
        .unwrap_or_else(|e| panic!("{what}: reading: {e}"));
    (status, to_json(&text))
}

/// A request signed in by the session cookie (from the site's own page).
fn with_cookie(
    server: &Server,
    cookie: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let agent = http_agent();
    let cookie = format!("punct_session={cookie}");
    match (method, body) {
        ("GET", _) => answer(
            agent.get(server.url(path)).header("cookie", &cookie).call(),
            path,
        ),
        (_, body) => answer(
            agent
                .post(server.url(path))
                .header("cookie", &cookie)
                .header("origin", &server.base)
                .send_json(body.unwrap_or(json!({}))),
            path,
        ),
    }
}

/// A request signed in by an API token.
fn with_token(server: &Server, token: &str, method: &str, path: &str) -> (u16, Value) {
    let agent = http_agent();
    let auth = format!("Bearer {token}");
    match method {
        "GET" => answer(
            agent
                .get(server.url(path))
                .header("authorization", &auth)
                .call(),
            path,
        ),
        _ => answer(
            agent
                .post(server.url(path))
                .header("authorization", &auth)
                .send_empty(),
            path,
        ),
    }
}

/// A new API token of the account signed in with `cookie`: its secret.
fn new_token(server: &Server, cookie: &str, label: &str) -> String {
    let made = with_cookie(
        server,
        cookie,
        "POST",
        "/api/account/tokens",
        Some(json!({"label": label})),
    );
    assert_eq!(made.0, 201, "{}", made.1);
    made.1["secret"].as_str().expect("a secret").to_string()
}

#[test]
fn a_token_is_shown_once_stored_hashed_and_refused_once_removed() {
    let server = Server::start();
    let cookie = sign_up(&server, "Robo_1");
    let (status, made) = with_cookie(
        &server,
        &cookie,
        "POST",
        "/api/account/tokens",
        Some(json!({"label": "my engine"})),
    );
    assert_eq!(status, 201, "{made}");
    let secret = made["secret"].as_str().expect("the secret").to_string();
    assert!(
        secret.starts_with("punct_") && secret.len() == 49,
        "{secret}"
    );
    let id = made["token"]["id"].as_str().expect("an id").to_string();
    assert_eq!(made["token"]["label"], "my engine");
    assert_eq!(made["token"]["used"], Value::Null);

    // The token signs its account in; its first use is noted.
    let (status, me) = with_token(&server, &secret, "GET", "/api/bot/account");
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["user"]["name"], "Robo_1");
    assert_eq!(me["user"]["bot"], false);

    // Listed without the secret, ever again.
    let (status, list) = with_cookie(&server, &cookie, "GET", "/api/account/tokens", None);
    assert_eq!(status, 200);
    assert_eq!(list["tokens"].as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list["tokens"][0]["id"], id.as_str());
    assert!(list["tokens"][0]["used"].is_i64(), "{list}");
    assert!(!list.to_string().contains(&secret[6..]), "{list}");
    // Only the digest is stored.
    let stored: String = if common::on_postgres() {
        let url = common::postgres_database(&common::database_name_for(&server.data_dir));
        common::psql(&url, "SELECT hash FROM api_tokens").expect("one token row")
    } else {
        let db = rusqlite::Connection::open(server.data_dir.join("games.sqlite3"))
            .expect("the database");
        db.query_row("SELECT hash FROM api_tokens", [], |r| r.get(0))
            .expect("one token row")
    };
    assert_ne!(stored, secret);
    assert!(!stored.contains(&secret[6..]));
    assert_eq!(stored.len(), 64);

    // Bad labels, and removal.
    let bad = with_cookie(
        &server,
        &cookie,
        "POST",
        "/api/account/tokens",
        Some(json!({"label": " "})),
    );
    assert_error(&bad, 400, "bad_label");
    let gone = with_cookie(
        &server,
        &cookie,
        "POST",
        "/api/account/tokens/remove",
        Some(json!({"id": "nosuch"})),
    );
    assert_error(&gone, 404, "unknown_token");
    let removed = with_cookie(
        &server,
        &cookie,
        "POST",
        "/api/account/tokens/remove",
        Some(json!({"id": id})),
    );
    assert_eq!(removed, (200, json!({"removed": true})));
    assert_error(
        &with_token(&server, &secret, "GET", "/api/bot/account"),
        401,
        "invalid_token",
    );
    let (_, list) = with_cookie(&server, &cookie, "GET", "/api/account/tokens", None);
    assert_eq!(list["tokens"], json!([]));
}

#[test]
fn a_token_and_a_cookie_never_stand_in_for_each_other() {
    let server = Server::start();
    let cookie = sign_up(&server, "Robo_2");
    let secret = new_token(&server, &cookie, "engine");
    // Bot routes: the cookie alone is no token; both at once are refused.
    assert_error(
        &with_cookie(&server, &cookie, "GET", "/api/bot/account", None),
        401,
        "no_token",
    );
    let both = answer(
        http_agent()
            .get(server.url("/api/bot/account"))
            .header("authorization", &format!("Bearer {secret}"))
            .header("cookie", &format!("punct_session={cookie}"))
            .call(),
        "both",
    );
    assert_error(&both, 400, "token_and_cookie");
    assert_error(
        &with_token(&server, "punct_nonsense", "GET", "/api/bot/account"),
        401,
        "invalid_token",
    );
    let basic = answer(
        http_agent()
            .get(server.url("/api/bot/account"))
            .header("authorization", "Basic dXNlcjpwYXNz")
            .call(),
        "basic",
    );
    assert_error(&basic, 401, "invalid_token");
    // Cookie routes: the token is no session.
    assert_error(
        &with_token(&server, &secret, "GET", "/api/account/tokens"),
        401,
        "not_signed_in",
    );
    assert_error(
        &with_token(&server, &secret, "POST", "/api/account/tokens"),
        401,
        "not_signed_in",
    );
    let (_, account) = with_token(&server, &secret, "GET", "/api/account");
    assert_eq!(account["user"], Value::Null, "{account}");
    // Tokens are made signed in only.
    let (status, _) = server.post("/api/account/tokens", &json!({"label": "x"}));
    assert_eq!(status, 401);
}

/// A new account made a bot: its session cookie and its token's secret.
fn new_bot(server: &Server, name: &str) -> (String, String) {
    let cookie = sign_up(server, name);
    let secret = new_token(server, &cookie, "engine");
    let (status, up) = with_token(server, &secret, "POST", "/api/bot/account/upgrade");
    assert_eq!(status, 200, "{up}");
    assert_eq!(up["user"]["bot"], true, "{up}");
    (cookie, secret)
}

#[test]
fn only_an_account_without_games_becomes_a_bot_and_bots_are_kept_out_of_quick_pairing() {
    let server = Server::start();
    let (bot_cookie, bot) = new_bot(&server, "Robo_3");
    // Marked wherever it shows; upgrading again changes nothing.
    let (_, profile) = server.get("/api/users/robo_3");
    assert_eq!(profile["bot"], true, "{profile}");
    let (_, me) = with_token(&server, &bot, "GET", "/api/bot/account");
    assert_eq!(me["user"]["bot"], true);
    assert_eq!(
        with_token(&server, &bot, "POST", "/api/bot/account/upgrade").0,
        200
    );

    // A person who has played a game stays a person.
    let cookie = sign_up(&server, "Person_1");
    let (status, game) = with_cookie(
        &server,
        &cookie,
        "POST",
        "/api/games",
        Some(json!({"mode": "ai", "level": 1})),
    );
    assert_eq!(status, 201, "{game}");
    let secret = new_token(&server, &cookie, "engine");
    assert_error(
        &with_token(&server, &secret, "POST", "/api/bot/account/upgrade"),
        409,
        "has_games",
    );
    let (_, profile) = server.get("/api/users/person_1");
    assert_eq!(profile["bot"], false);

    // The bot's own session cannot put it in the quick-pairing pool.
    let mut ws = common::Ws::connect_with(
        &server.addr,
        "/api/lobby/live",
        &[("cookie", &format!("punct_session={bot_cookie}"))],
    )
    .expect("the lobby socket");
    assert_eq!(ws.recv()["type"], "seeks");
    ws.send(
        &json!({"type": "pool", "clock": {"type": "realtime", "initial": 300, "increment": 3}}),
    );
    let refused = ws.recv();
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["error"]["code"], "bots_not_paired", "{refused}");
}

/// A stream's lines, read on a thread of their own.
struct Stream {
    lines: std::sync::mpsc::Receiver<Option<String>>,
}

impl Stream {
    /// Opens `path` with the bot's token; 200 and NDJSON, or panic.
    fn open(server: &Server, token: &str, path: &str) -> Stream {
        use std::io::BufRead;
        let agent = ureq::Agent::new_with_config(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_per_read(Some(std::time::Duration::from_secs(30)))
                .build(),
        );
        let resp = agent
            .get(server.url(path))
            .header("authorization", &format!("Bearer {token}"))
            .call()
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(resp.status().as_u16(), 200, "{path}");
        assert_eq!(
            resp.headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            Some("application/x-ndjson")
        );
        let reader = std::io::BufReader::new(resp.into_body().into_reader());
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        Stream { lines }
    }

    /// The next line that is not a keep-alive, as JSON; `None` when the
    /// stream ended. Panics after 30 s.
    fn next(&self) -> Option<Value> {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Some(line)) if line.is_empty() => continue,
                Ok(Some(line)) => return Some(serde_json::from_str(&line).expect("a JSON line")),
                Ok(None) => return None,
                Err(e) => panic!("no line within 30 s: {e}"),
            }
        }
    }
}

/// A request with the token and a JSON body.
fn bot_post(server: &Server, token: &str, path: &str, body: Value) -> (u16, Value) {
    answer(
        http_agent()
            .post(server.url(path))
            .header("authorization", &format!("Bearer {token}"))
            .send_json(body),
        path,
    )
}

/// An anonymous lobby socket: accepts seek `seek`; the `paired` message.
fn accept(server: &Server, seek: &str) -> Value {
    let mut ws = common::Ws::connect_with(&server.addr, "/api/lobby/live", &[]).expect("the lobby");
    let first = ws.recv();
    assert!(
        first["seeks"].as_array().is_some_and(|s| s
            .iter()
            .any(|x| x["id"] == seek && x["bot"] == true && x["name"] == "Robo_4")),
        "the bot's seek is listed, marked: {first}"
    );
    ws.send(&json!({"type": "accept", "seek": seek, "name": "Ada"}));
    loop {
        let msg = ws.recv();
        match msg["type"].as_str() {
            Some("paired") => return msg,
            Some("error") => panic!("accepting: {msg}"),
            _ => {}
        }
    }
}

#[test]
fn a_bots_seek_accepted_by_a_person_is_announced_and_played_through_the_streams() {
    let server = Server::start();
    let (_, bot) = new_bot(&server, "Robo_4");
    let blitz = json!({"type": "realtime", "initial": 300, "increment": 3});
    // A seek lasts while the event stream is open: none, no seek.
    let refused = bot_post(&server, &bot, "/api/bot/seek", json!({"clock": blitz}));
    assert_error(&refused, 409, "no_event_stream");
    let events = Stream::open(&server, &bot, "/api/bot/stream/event");
    let (status, made) = bot_post(
        &server,
        &bot,
        "/api/bot/seek",
        json!({"clock": blitz, "side": "white"}),
    );
    assert_eq!(status, 201, "{made}");
    let seek = made["seek"].as_str().expect("a seek").to_string();

    let paired = accept(&server, &seek);
    let game = paired["game"].as_str().expect("a game").to_string();
    let person = paired["token"].as_str().expect("a token").to_string();
    assert_eq!(paired["side"], "black");
    let start = events.next().expect("gameStart");
    assert_eq!(start["type"], "gameStart", "{start}");
    assert_eq!(start["game"]["id"], game.as_str());
    assert_eq!(start["game"]["side"], "white");
    assert_eq!(start["game"]["my_turn"], true);
    assert_eq!(start["game"]["opponent"]["name"], "Ada");
    assert_eq!(start["game"]["opponent"]["bot"], false);
    assert_eq!(start["game"]["clock"], blitz);
    // The game shows its bot.
    let state = server.state(&game);
    assert_eq!(state["players"]["white"]["bot"], true, "{state}");
    assert_eq!(state["players"]["black"]["bot"], false);

    let stream = Stream::open(&server, &bot, &format!("/api/bot/game/stream/{game}"));
    let full = stream.next().expect("gameFull");
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["you"], "white");
    assert_eq!(full["white"]["name"], "Robo_4");
    assert_eq!(full["white"]["bot"], true);
    assert_eq!(full["black"]["name"], "Ada");
    assert_eq!(full["start"], "standard:w:0:-");
    assert_eq!(full["clock"], blitz);
    assert_eq!(full["state"]["moves"], json!([]));
    // While its game stream is open the bot is at its seat, as a player's
    // live socket would be.
    let mut watcher = server.live(&game);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut seen = Vec::new();
    let presence = loop {
        assert!(
            std::time::Instant::now() < until,
            "no presence with the bot: {seen:?}"
        );
        let msg = watcher.recv_any();
        if msg["type"] == "presence" && msg["white"]["connected"] == true {
            break msg;
        }
        seen.push(msg);
    };
    assert_eq!(presence["black"]["connected"], false, "{presence}");
    drop(watcher);
    // White's clock runs from the pairing on.
    let wtime = full["state"]["wtime"].as_i64().expect("white's time");
    assert!((250_000..=300_000).contains(&wtime), "{full}");
    assert_eq!(full["state"]["btime"], 300_000);

    // The bot moves (the notation's `/` as it is), the person answers.
    let first = common::legal_moves(&state)[0].clone();
    let (status, moved) = with_token(
        &server,
        &bot,
        "POST",
        &format!("/api/bot/game/{game}/move/{first}"),
    );
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["state"]["ply"], 1);
    let after = stream.next().expect("gameState");
    assert_eq!(after["type"], "gameState", "{after}");
    assert_eq!(after["moves"], json!([first]));
    assert_eq!(after["to_move"], "black");
    assert!(
        after["wtime"].as_i64().is_some_and(|t| t > 290_000),
        "{after}"
    );
    // Not its turn now; a move written with %2F is read as one.
    let second = common::legal_moves(&server.state(&game))[0].clone();
    let encoded = second.replace('/', "%2F");
    assert_error(
        &with_token(
            &server,
            &bot,
            "POST",
            &format!("/api/bot/game/{game}/move/{encoded}"),
        ),
        409,
        "not_your_turn",
    );
    server.play_ok(&game, &person, &second);
    let after = stream.next().expect("gameState");
    assert_eq!(after["moves"], json!([first, second]));
    assert_eq!(after["to_move"], "white");
    // An illegal move is the rules' refusal, as anyone's.
    assert_error(
        &with_token(
            &server,
            &bot,
            "POST",
            &format!("/api/bot/game/{game}/move/{first}"),
        ),
        422,
        "illegal_move",
    );

    // The person resigns: the game stream's last line, then its end; the
    // event stream says the game finished.
    let (status, _) = server.post(
        &format!("/api/games/{game}/resign"),
        &json!({"token": person}),
    );
    assert_eq!(status, 200);
    let last = stream.next().expect("the last gameState");
    assert_eq!(
        (last["status"].as_str(), last["winner"].as_str()),
        (Some("over"), Some("white")),
        "{last}"
    );
    assert_eq!(last["result"]["reason"], "resignation");
    assert_eq!(stream.next(), None, "the game stream ends with the game");
    let finish = events.next().expect("gameFinish");
    assert_eq!(finish["type"], "gameFinish", "{finish}");
    assert_eq!(finish["game"]["id"], game.as_str());
    assert_eq!(finish["game"]["result"]["winner"], "white");
}

#[test]
fn a_bot_acts_only_in_its_own_games_and_its_seeks_go_with_its_event_stream() {
    let server = Server::start();
    let (_, bot) = new_bot(&server, "Robo_5");
    let cookie = sign_up(&server, "Person_2");
    let person = new_token(&server, &cookie, "not a bot");
    let other = server.create_online();
    let mv = common::legal_moves(&server.state(&other.id))[0].clone();
    let path = format!("/api/bot/game/{}/move/{mv}", other.id);
    assert_error(
        &with_token(&server, &bot, "POST", &path),
        403,
        "not_your_game",
    );
    assert_error(
        &with_token(
            &server,
            &bot,
            "POST",
            &format!("/api/bot/game/{}/resign", other.id),
        ),
        403,
        "not_your_game",
    );
    assert_error(
        &with_token(
            &server,
            &bot,
            "GET",
            &format!("/api/bot/game/stream/{}", other.id),
        ),
        403,
        "not_your_game",
    );
    assert_error(
        &with_token(&server, &bot, "POST", "/api/bot/game/nosuch/resign"),
        404,
        "unknown_game",
    );
    // A person's token is no bot's.
    assert_error(
        &with_token(&server, &person, "POST", &path),
        403,
        "not_a_bot",
    );
    assert_error(
        &with_token(&server, &person, "GET", "/api/bot/stream/event"),
        403,
        "not_a_bot",
    );
    assert_eq!(server.state(&other.id)["ply"], 0, "nothing was played");

    // Seeks: cancelled once; the rest withdrawn when the event stream goes.
    let events = Stream::open(&server, &bot, "/api/bot/stream/event");
    let seek = |side: &str| {
        let (status, made) = bot_post(&server, &bot, "/api/bot/seek", json!({"side": side}));
        assert_eq!(status, 201, "{made}");
        made["seek"].as_str().expect("a seek").to_string()
    };
    let a = seek("white");
    let b = seek("black");
    assert_eq!(
        server.get("/api/lobby").1["seeks"].as_array().map(Vec::len),
        Some(2)
    );
    let cancelled = bot_post(&server, &bot, "/api/bot/seek/cancel", json!({"seek": a}));
    assert_eq!(cancelled, (200, json!({"cancelled": a})));
    assert_error(
        &bot_post(&server, &bot, "/api/bot/seek/cancel", json!({"seek": a})),
        404,
        "no_seek",
    );
    let listed = server.get("/api/lobby").1;
    assert_eq!(listed["seeks"][0]["id"], b.as_str(), "{listed}");
    drop(events);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(40);
    while server.get("/api/lobby").1["seeks"] != json!([]) {
        assert!(
            std::time::Instant::now() < until,
            "the seek outlived its event stream"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// Two instances on one new PostgreSQL database; `None` without a cluster.
fn two_instances(test: &str) -> Option<(Server, Server)> {
    common::cluster_for(test)?;
    let url = common::postgres_database(&format!("punct_bots_{}", std::process::id()));
    let a = Server::builder().flags(&["--database", &url]).start();
    let b = Server::builder().flags(&["--database", &url]).start();
    Some((a, b))
}

#[test]
fn a_bot_on_one_instance_hears_of_its_game_and_its_moves_made_on_another() {
    let Some((a, b)) =
        two_instances("a_bot_on_one_instance_hears_of_its_game_and_its_moves_made_on_another")
    else {
        return;
    };
    let (_, bot) = new_bot(&a, "Robo_4");
    let events = Stream::open(&a, &bot, "/api/bot/stream/event");
    let (status, made) = bot_post(&a, &bot, "/api/bot/seek", json!({"side": "black"}));
    assert_eq!(status, 201, "{made}");
    let seek = made["seek"].as_str().expect("a seek").to_string();
    // Accepted on the other instance: announced here through the database.
    let paired = accept(&b, &seek);
    let game = paired["game"].as_str().expect("a game").to_string();
    let person = paired["token"].as_str().expect("a token").to_string();
    let start = events.next().expect("gameStart");
    assert_eq!(
        (start["type"].as_str(), start["game"]["id"].as_str()),
        (Some("gameStart"), Some(game.as_str())),
        "{start}"
    );
    assert_eq!(start["game"]["side"], "black");
    let stream = Stream::open(&a, &bot, &format!("/api/bot/game/stream/{game}"));
    assert_eq!(stream.next().expect("gameFull")["type"], "gameFull");
    let mv = common::legal_moves(&b.state(&game))[0].clone();
    b.play_ok(&game, &person, &mv);
    let after = stream.next().expect("gameState");
    assert_eq!(after["moves"], json!([mv]), "{after}");
    let (status, _) = b.post(
        &format!("/api/games/{game}/resign"),
        &json!({"token": person}),
    );
    assert_eq!(status, 200);
    let finish = events.next().expect("gameFinish");
    assert_eq!(finish["type"], "gameFinish", "{finish}");
    assert_eq!(finish["game"]["result"]["winner"], "black");
}

/// The next two lines of `events`, which come in either order.
fn two_events(events: &Stream) -> Vec<Value> {
    (0..2).map(|_| events.next().expect("an event")).collect()
}

/// A person signed in on `there` challenges the bot listening on `here`:
/// a challenge made before its stream opens is told when it opens; one
/// declined, one withdrawn and one accepted are each told, and the
/// accepted one's game begins on the stream.
fn challenges_reach_the_bot(here: &Server, there: &Server) {
    let (_, bot) = new_bot(here, "Robo_5");
    let person = sign_up(there, "Ada_5");
    let (mut ws, _) = common::lobby_socket(there, Some(&person));
    let blitz = json!({"type": "realtime", "initial": 300, "increment": 3});
    let challenge = |ws: &mut common::Ws| {
        ws.send(&json!({"type": "challenge", "to": "robo_5", "clock": blitz, "side": "white"}));
        let seeking = common::next_of(ws, "seeking");
        seeking["seek"].as_str().expect("an id").to_string()
    };
    let early = challenge(&mut ws);
    let events = Stream::open(here, &bot, "/api/bot/stream/event");
    let told = events.next().expect("the open challenge");
    assert_eq!(told["type"], "challenge", "{told}");
    let c = &told["challenge"];
    assert_eq!(
        (c["id"].as_str(), c["name"].as_str(), c["to"].as_str()),
        (Some(early.as_str()), Some("Ada_5"), Some("Robo_5")),
        "{told}"
    );
    assert_eq!(c["clock"]["initial"], 300, "{told}");

    // Declined: the challenger hears it, the stream says it is gone.
    let path = |id: &str, what: &str| format!("/api/bot/challenge/{id}/{what}");
    let (status, answer) = bot_post(here, &bot, &path(&early, "decline"), json!({}));
    assert_eq!(
        (status, &answer["declined"]),
        (200, &json!(early)),
        "{answer}"
    );
    assert_eq!(common::next_of(&mut ws, "declined")["seek"], early.as_str());
    let gone = events.next().expect("challengeCanceled");
    assert_eq!(gone["type"], "challengeCanceled", "{gone}");
    assert_eq!(gone["challenge"]["id"], early.as_str());
    assert_error(
        &bot_post(here, &bot, &path(&early, "decline"), json!({})),
        404,
        "no_challenge",
    );

    // Withdrawn with the challenger's socket.
    let (mut other, _) = common::lobby_socket(there, Some(&person));
    let withdrawn = challenge(&mut other);
    assert_eq!(
        events.next().expect("challenge")["challenge"]["id"],
        withdrawn.as_str()
    );
    drop(other);
    let gone = events.next().expect("challengeCanceled");
    assert_eq!(
        (gone["type"].as_str(), gone["challenge"]["id"].as_str()),
        (Some("challengeCanceled"), Some(withdrawn.as_str()))
    );
    assert_error(
        &bot_post(here, &bot, &path(&withdrawn, "accept"), json!({})),
        409,
        "seek_gone",
    );

    // Accepted: the game begins for both.
    let taken = challenge(&mut ws);
    assert_eq!(
        events.next().expect("challenge")["challenge"]["id"],
        taken.as_str()
    );
    let (status, answer) = bot_post(here, &bot, &path(&taken, "accept"), json!({}));
    assert_eq!(status, 200, "{answer}");
    let game = answer["game"].as_str().expect("the game").to_string();
    let paired = common::next_of(&mut ws, "paired");
    assert_eq!(paired["game"], game.as_str());
    let mut kinds: Vec<(String, String)> = two_events(&events)
        .iter()
        .map(|e| {
            let id = e["game"]["id"].as_str().or(e["challenge"]["id"].as_str());
            (
                e["type"].as_str().unwrap_or("").to_string(),
                id.unwrap_or("").to_string(),
            )
        })
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        vec![
            ("challengeCanceled".to_string(), taken.clone()),
            ("gameStart".to_string(), game.clone())
        ]
    );
    let state = there.state(&game);
    assert_eq!(state["players"]["black"]["bot"], true, "{state}");
    assert_eq!(state["players"]["white"]["name"], "Ada_5", "{state}");
}

#[test]
fn a_bot_hears_challenges_and_declines_or_accepts_them() {
    let server = Server::start();
    challenges_reach_the_bot(&server, &server);
}

#[test]
fn a_bot_hears_challenges_made_on_another_instance() {
    let Some((a, b)) = two_instances("a_bot_hears_challenges_made_on_another_instance") else {
        return;
    };
    challenges_reach_the_bot(&a, &b);
}

#[test]
fn a_bot_aborts_its_game_before_each_side_has_moved_and_its_stream_says_so() {
    let server = Server::start();
    let (_, bot) = new_bot(&server, "Robo_4");
    let blitz = json!({"type": "realtime", "initial": 300, "increment": 3});
    let events = Stream::open(&server, &bot, "/api/bot/stream/event");
    let (status, made) = bot_post(
        &server,
        &bot,
        "/api/bot/seek",
        json!({"clock": blitz, "side": "black"}),
    );
    assert_eq!(status, 201, "{made}");
    let paired = accept(&server, made["seek"].as_str().expect("a seek"));
    let game = paired["game"].as_str().expect("a game").to_string();
    let person = paired["token"].as_str().expect("a token").to_string();
    assert_eq!(events.next().expect("gameStart")["type"], "gameStart");
    let stream = Stream::open(&server, &bot, &format!("/api/bot/game/stream/{game}"));
    assert_eq!(stream.next().expect("gameFull")["type"], "gameFull");
    // The person (White) moves once; the bot may still abort.
    let first = common::legal_moves(&server.state(&game))[0].clone();
    server.play_ok(&game, &person, &first);
    assert_eq!(stream.next().expect("gameState")["ply"], 1);
    let path = format!("/api/bot/game/{game}/abort");
    let (status, aborted) = with_token(&server, &bot, "POST", &path);
    assert_eq!(status, 200, "{aborted}");
    assert_eq!(aborted["state"]["result"]["reason"], "aborted");
    let last = stream.next().expect("the last gameState");
    assert_eq!(
        (&last["status"], &last["winner"], &last["result"]["reason"]),
        (&json!("over"), &Value::Null, &json!("aborted")),
        "{last}"
    );
    assert_eq!(last["result"]["score"], "*");
    assert_eq!(last["result"]["side"], "black");
    assert_eq!(stream.next(), None, "the game stream ends with the game");
    assert_eq!(events.next().expect("gameFinish")["type"], "gameFinish");
    assert_error(&with_token(&server, &bot, "POST", &path), 409, "game_over");
}
