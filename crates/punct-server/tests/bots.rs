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
    let db =
        rusqlite::Connection::open(server.data_dir.join("games.sqlite3")).expect("the database");
    let stored: String = db
        .query_row("SELECT hash FROM api_tokens", [], |r| r.get(0))
        .expect("one token row");
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
    assert_error(&gone, 404, "no_token");
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
