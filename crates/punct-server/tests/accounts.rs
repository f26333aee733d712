//! Accounts through the real binary: signing up and in with a password,
//! the session cookie and its flags, wrong passwords and the per-account
//! limit, cross-site writes refused, signing out here and everywhere else,
//! a password change, deletion (games stay, the name shows "deleted"),
//! seats played signed out attached, and a rated game between two accounts
//! rated exactly once with its history, profile and leaderboard. Run on
//! SQLite, and again on PostgreSQL by `scripts/test.sh`; the tests across
//! instances need the test cluster.

mod common;

use common::{assert_error, http_agent, legal_moves, two_instances, Server};
use serde_json::{json, Value};

/// A browser, as far as the server can tell: a session cookie it keeps
/// and the `Origin` its page's writes carry.
struct Browser {
    agent: ureq::Agent,
    base: String,
    origin: String,
    cookie: Option<String>,
}

impl Browser {
    fn on(server: &Server) -> Browser {
        Browser {
            agent: http_agent(),
            base: server.base.clone(),
            origin: server.base.clone(),
            cookie: None,
        }
    }

    /// The same browser's cookie on another instance of the site.
    fn moved_to(&self, server: &Server) -> Browser {
        Browser {
            cookie: self.cookie.clone(),
            ..Browser::on(server)
        }
    }

    fn keep_cookie(&mut self, headers: &ureq::http::HeaderMap) -> Option<String> {
        let set = headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("punct_session="))?
            .to_string();
        let value = set
            .split(';')
            .next()
            .and_then(|p| p.split_once('='))
            .map(|(_, v)| v.to_string())
            .unwrap_or_default();
        self.cookie = (!value.is_empty()).then_some(value);
        Some(set)
    }

    fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        origin: Option<&str>,
    ) -> (u16, ureq::http::HeaderMap, Value) {
        let mut req = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header("cookie", format!("punct_session={c}"));
        }
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        let resp = match body {
            Some(b) => self.agent.run(
                req.header("content-type", "application/json")
                    .body(b.to_string())
                    .expect("a request"),
            ),
            None => self.agent.run(req.body(String::new()).expect("a request")),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = resp.into_body().read_to_string().expect("a body");
        self.keep_cookie(&headers);
        (status, headers, common::to_json(&text))
    }

    fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        let origin = self.origin.clone();
        let (s, _, v) = self.send("POST", path, Some(body), Some(&origin));
        (s, v)
    }

    fn get(&mut self, path: &str) -> (u16, Value) {
        let (s, _, v) = self.send("GET", path, None, None);
        (s, v)
    }

    fn sign_up(&mut self, name: &str, password: &str) -> Value {
        let (status, body) = self.post(
            "/api/account/signup",
            &json!({"name": name, "password": password}),
        );
        assert_eq!(status, 201, "signing up {name}: {body}");
        body["user"].clone()
    }

    fn signed_in_as(&mut self) -> Option<String> {
        let (status, body) = self.get("/api/account");
        assert_eq!(status, 200, "{body}");
        body["user"]["name"].as_str().map(str::to_string)
    }
}

const PASSWORD: &str = "correct horse battery";

#[test]
fn sign_up_sets_a_safe_cookie_and_signs_in() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    assert_eq!(b.signed_in_as(), None, "signed out to begin with");
    let origin = b.origin.clone();
    let (status, headers, body) = b.send(
        "POST",
        "/api/account/signup",
        Some(&json!({"name": "Alice_1", "password": PASSWORD})),
        Some(&origin),
    );
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["user"]["name"], "Alice_1");
    assert!(body["user"].get("password_hash").is_none());
    let set = headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a session cookie")
        .to_string();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(flag), "the cookie lacks {flag}: {set}");
    }
    // Served over plain http here: a Secure cookie would never come back.
    assert!(!set.contains("Secure"), "{set}");
    assert_eq!(b.signed_in_as().as_deref(), Some("Alice_1"));

    // The name is taken whatever its case or look-alike spelling.
    let mut other = Browser::on(&server);
    for name in ["alice_1", "ALICE_1", "AIice_1", "A1ice_1"] {
        let answer = other.post(
            "/api/account/signup",
            &json!({"name": name, "password": PASSWORD}),
        );
        assert_error(&answer, 409, "name_taken");
    }
    // Names and passwords against the rules, each with its code.
    for (name, password, code) in [
        ("a", PASSWORD, "name_length"),
        ("bad name", PASSWORD, "name_character"),
        ("admin", PASSWORD, "name_reserved"),
        ("Bob", "short", "password_short"),
        ("Bob", "password123", "password_common"),
    ] {
        let answer = other.post(
            "/api/account/signup",
            &json!({"name": name, "password": password}),
        );
        assert_error(&answer, 422, code);
    }
    assert_eq!(other.signed_in_as(), None);
}

#[test]
fn wrong_passwords_are_refused_and_limited_per_account() {
    let server = Server::builder().flags(&["--rate-account", "off"]).start();
    let mut alice = Browser::on(&server);
    alice.sign_up("alice", PASSWORD);
    let mut b = Browser::on(&server);
    let answer = b.post(
        "/api/account/signin",
        &json!({"name": "alice", "password": "not the password"}),
    );
    assert_error(&answer, 401, "wrong_credentials");
    // An unknown name gets the very same refusal.
    let answer = b.post(
        "/api/account/signin",
        &json!({"name": "nobody", "password": PASSWORD}),
    );
    assert_error(&answer, 401, "wrong_credentials");
    // Right password, any case of the name.
    let (status, body) = b.post(
        "/api/account/signin",
        &json!({"name": "ALICE", "password": PASSWORD}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(b.signed_in_as().as_deref(), Some("alice"));

    // Guessing from any number of clients: the account's own limit holds
    // (the per-client bucket is off in this server).
    let mut refused = None;
    for i in 0..12 {
        let mut guesser = Browser::on(&server);
        let answer = guesser.post(
            "/api/account/signin",
            &json!({"name": "alice", "password": format!("guess number {i}")}),
        );
        if answer.0 == 429 {
            refused = Some((i, answer));
            break;
        }
        assert_error(&answer, 401, "wrong_credentials");
    }
    let (tries, answer) = refused.expect("the account's tries are limited");
    assert!(tries <= 6, "refused only after {tries} wrong tries");
    assert_error(&answer, 429, "account_limited");
    // Even the right password waits now: the limit is the account's.
    let answer = Browser::on(&server).post(
        "/api/account/signin",
        &json!({"name": "alice", "password": PASSWORD}),
    );
    assert_error(&answer, 429, "account_limited");
}

/// A name no account can have (a NUL, a control character) is no one: the
/// database never sees it (PostgreSQL refuses a NUL in text, which was a
/// 500 on sign-in), and every way in answers as for an unknown name.
#[test]
fn names_with_control_characters_are_no_one() {
    let server = Server::builder().flags(&["--rate-account", "off"]).start();
    let mut alice = Browser::on(&server);
    alice.sign_up("alice", PASSWORD);
    let mut b = Browser::on(&server);
    for name in [":\u{0}", "alice\u{0}", "ali\u{7}ce"] {
        let answer = b.post(
            "/api/account/signin",
            &json!({"name": name, "password": PASSWORD}),
        );
        assert_error(&answer, 401, "wrong_credentials");
        let answer = b.post(
            "/api/account/signup",
            &json!({"name": name, "password": PASSWORD}),
        );
        assert_eq!(answer.0, 422, "signing up {name:?}: {}", answer.1);
    }
    for path in ["alice%00", "%00", "ali%07ce"] {
        assert_error(&b.get(&format!("/api/users/{path}")), 404, "no_user");
        assert_error(
            &alice.post(&format!("/api/users/{path}/block"), &json!({})),
            404,
            "no_user",
        );
    }
    assert_eq!(b.signed_in_as(), None);
}

#[test]
fn the_per_client_bucket_limits_sign_ins() {
    let server = Server::builder()
        .flags(&["--rate-account", "3/min"])
        .start();
    let mut b = Browser::on(&server);
    for i in 0..3 {
        let answer = b.post(
            "/api/account/signin",
            &json!({"name": format!("user{i}"), "password": PASSWORD}),
        );
        assert_error(&answer, 401, "wrong_credentials");
    }
    let answer = b.post(
        "/api/account/signin",
        &json!({"name": "user9", "password": PASSWORD}),
    );
    assert_error(&answer, 429, "rate_limited");
}

#[test]
fn cross_site_writes_with_the_cookie_are_refused() {
    let server = Server::start();
    let mut b = Browser::on(&server);
    b.sign_up("carol", PASSWORD);
    for origin in [Some("http://evil.example"), Some("null"), None] {
        let (status, _, body) = b.send("POST", "/api/account/signout", Some(&json!({})), origin);
        assert_error(&(status, body), 403, "cross_origin");
    }
    assert_eq!(
        b.signed_in_as().as_deref(),
        Some("carol"),
        "still signed in"
    );
    // The page's own origin may.
    let (status, body) = b.post("/api/account/signout", &json!({}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(b.cookie, None, "the cookie is cleared");
}

#[test]
fn signing_out_everywhere_else_and_a_new_password_end_other_sessions() {
    let server = Server::start();
    let mut phone = Browser::on(&server);
    phone.sign_up("dave", PASSWORD);
    let mut laptop = Browser::on(&server);
    let (status, _) = laptop.post(
        "/api/account/signin",
        &json!({"name": "dave", "password": PASSWORD}),
    );
    assert_eq!(status, 200);
    let (_, account) = laptop.get("/api/account");
    let sessions = account["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 2, "{account}");
    assert_eq!(
        sessions.iter().filter(|s| s["current"] == true).count(),
        1,
        "{account}"
    );
    let (status, body) = laptop.post("/api/account/signout", &json!({"elsewhere": true}));
    assert_eq!((status, body["ended"].as_u64()), (200, Some(1)), "{body}");
    assert_eq!(phone.signed_in_as(), None, "the phone is signed out");
    assert_eq!(laptop.signed_in_as().as_deref(), Some("dave"));

    // A new password needs the current one, and signs out the others.
    let mut phone = Browser::on(&server);
    phone.post(
        "/api/account/signin",
        &json!({"name": "dave", "password": PASSWORD}),
    );
    let answer = laptop.post(
        "/api/account/password",
        &json!({"current": "wrong wrong wrong", "new": "a brand new secret"}),
    );
    assert_error(&answer, 403, "wrong_password");
    let (status, body) = laptop.post(
        "/api/account/password",
        &json!({"current": PASSWORD, "new": "a brand new secret"}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(phone.signed_in_as(), None);
    assert_eq!(laptop.signed_in_as().as_deref(), Some("dave"));
    let answer = Browser::on(&server).post(
        "/api/account/signin",
        &json!({"name": "dave", "password": PASSWORD}),
    );
    assert_error(&answer, 401, "wrong_credentials");
    let (status, _) = Browser::on(&server).post(
        "/api/account/signin",
        &json!({"name": "dave", "password": "a brand new secret"}),
    );
    assert_eq!(status, 200);
}

#[test]
fn seats_played_signed_out_become_the_accounts_and_deletion_keeps_games() {
    let server = Server::start();
    // A game against the AI played signed out.
    let g = server.create(json!({"mode": "ai", "level": 1, "name": "eve?"}));
    let mut b = Browser::on(&server);
    b.sign_up("eve", PASSWORD);
    let (status, body) = b.post(
        "/api/account/seats",
        &json!({"seats": [
            {"game": g.id, "token": g.white()},
            {"game": g.id, "token": "not-a-token"},
            {"game": "nosuchgame", "token": g.white()},
        ]}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["attached"][0]["sides"], json!(["white"]), "{body}");
    assert_eq!(body["skipped"].as_array().map(Vec::len), Some(2), "{body}");
    let state = server.state(&g.id);
    assert_eq!(state["players"]["white"]["name"], "eve", "{state}");
    assert!(state["white_user"].is_string(), "{state}");
    // An account's seat shows the account's name: it cannot be renamed.
    let answer = server.post(
        &format!("/api/games/{}/name", g.id),
        &json!({"token": g.white(), "name": "mallory"}),
    );
    assert_error(&answer, 409, "account_name");
    let (status, profile) = server.get("/api/users/EVE/games");
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["games"][0]["id"], g.id.as_str(), "{profile}");

    // The download holds the game's record.
    let (status, _, text) = b.send("GET", "/api/account/games", None, None);
    assert_eq!(status, 200);
    assert!(
        text.as_str().is_some_and(|t| t.contains("[White \"eve\"]")),
        "{text}"
    );

    // Deleting needs the password; the games stay, the name shows deleted
    // and stays taken.
    let answer = b.post(
        "/api/account/delete",
        &json!({"password": "nope nope nope"}),
    );
    assert_error(&answer, 403, "wrong_password");
    let (status, body) = b.post("/api/account/delete", &json!({"password": PASSWORD}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(b.signed_in_as(), None);
    assert_eq!(server.state(&g.id)["moves"], server.state(&g.id)["moves"]);
    let (status, profile) = server.get("/api/users/eve");
    assert_eq!(status, 200, "{profile}");
    assert_eq!(
        (profile["name"].as_str(), profile["deleted"].as_bool()),
        (Some("deleted"), Some(true))
    );
    let answer = Browser::on(&server).post(
        "/api/account/signin",
        &json!({"name": "eve", "password": PASSWORD}),
    );
    assert_error(&answer, 401, "wrong_credentials");
    let answer = Browser::on(&server).post(
        "/api/account/signup",
        &json!({"name": "Eve", "password": PASSWORD}),
    );
    assert_error(&answer, 409, "name_taken");
    let (status, _) = server.get(&format!("/api/games/{}", g.id));
    assert_eq!(status, 200, "the game stays");
}

/// Two signed-in players, a rated blitz game between them (White
/// created it, Black claimed it), both seats' tokens.
fn rated_game(white: &mut Browser, black: &mut Browser) -> (String, String, String) {
    let (status, created) = white.post(
        "/api/games",
        &json!({"mode": "online", "rated": true, "clock": {"type": "realtime", "initial": 300, "increment": 3}}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let white_token = created["seats"]["white"]
        .as_str()
        .expect("a seat")
        .to_string();
    let code = created["invite"]["code"]
        .as_str()
        .expect("an invite")
        .to_string();
    let (status, claimed) = black.post(&format!("/api/games/{id}/claim"), &json!({"invite": code}));
    assert_eq!(status, 200, "{claimed}");
    let black_token = claimed["token"].as_str().expect("a token").to_string();
    (id, white_token, black_token)
}

/// Plays two plies, then White resigns: Black wins a rated game.
fn black_wins(server: &Server, id: &str, white: &str, black: &str) {
    for token in [white, black] {
        let state = server.state(id);
        let mv = legal_moves(&state)[0].clone();
        server.play_ok(id, token, &mv);
    }
    let (status, body) = server.post(&format!("/api/games/{id}/resign"), &json!({"token": white}));
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_signed_in_players_seat_follows_the_account_to_another_device() {
    let server = Server::start();
    let mut alice = Browser::on(&server);
    alice.sign_up("alice", PASSWORD);
    let mut bob = Browser::on(&server);
    bob.sign_up("bob", PASSWORD);
    let (id, white, black) = rated_game(&mut alice, &mut bob);
    let path = format!("/api/games/{id}/seat");
    // Alice signs in on a second device, which keeps no token: the page
    // asks for the account's seat (no body, the site's Origin).
    let mut phone = Browser::on(&server);
    let (status, body) = phone.post(
        "/api/account/signin",
        &json!({"name": "alice", "password": PASSWORD}),
    );
    assert_eq!(status, 200, "{body}");
    let origin = server.base.clone();
    let (status, _, seat) = phone.send("POST", &path, None, Some(&origin));
    assert_eq!(status, 200, "{seat}");
    assert_eq!(seat["token"], white.as_str(), "the seat's own token");
    assert_eq!(seat["seats"], json!(["white"]));
    assert_eq!(seat["link"], format!("/game/{id}#token={white}").as_str());
    // Nothing was renewed: the first device plays on with the same token.
    let state = server.state(&id);
    server.play_ok(&id, &white, &legal_moves(&state)[0]);
    let (status, seat) = bob.post(&path, &json!({}));
    assert_eq!(status, 200, "{seat}");
    assert_eq!(seat["token"], black.as_str());
    assert_eq!(seat["seats"], json!(["black"]));

    // Nobody else gets a seat: signed out, another account, another
    // site's page with Alice's cookie, a game that does not exist.
    let answer = Browser::on(&server).post(&path, &json!({}));
    assert_error(&answer, 401, "not_signed_in");
    let mut carol = Browser::on(&server);
    carol.sign_up("carol", PASSWORD);
    assert_error(&carol.post(&path, &json!({})), 403, "not_your_game");
    let (status, _, body) = phone.send("POST", &path, None, Some("http://evil.example"));
    assert_error(&(status, body), 403, "cross_origin");
    assert_error(
        &phone.post("/api/games/nosuchgame/seat", &json!({})),
        404,
        "unknown_game",
    );
}

#[test]
fn a_rated_game_changes_both_ratings_once() {
    let server = Server::start();
    let mut alice = Browser::on(&server);
    alice.sign_up("alice", PASSWORD);
    let mut bob = Browser::on(&server);
    bob.sign_up("bob", PASSWORD);

    // Rated games are for accounts, online, with a clock.
    let answer = Browser::on(&server).post(
        "/api/games",
        &json!({"mode": "online", "rated": true, "clock": {"type": "realtime", "initial": 300, "increment": 3}}),
    );
    assert_error(&answer, 403, "rated_needs_account");
    let answer = alice.post("/api/games", &json!({"mode": "online", "rated": true}));
    assert_error(&answer, 400, "not_ratable");
    let (status, created) = alice.post(
        "/api/games",
        &json!({"mode": "online", "rated": true, "clock": {"type": "realtime", "initial": 300, "increment": 3}}),
    );
    assert_eq!(status, 201);
    let answer = Browser::on(&server).post(
        &format!("/api/games/{}/claim", created["id"].as_str().unwrap()),
        &json!({"invite": created["invite"]["code"]}),
    );
    assert_error(&answer, 403, "rated_needs_account");

    let (id, w, b) = rated_game(&mut alice, &mut bob);
    let state = server.state(&id);
    assert_eq!(state["rated"], true);
    assert_eq!(state["players"]["white"]["name"], "alice");
    assert_eq!(state["players"]["black"]["name"], "bob");
    black_wins(&server, &id, &w, &b);

    let (status, rating) = server.get(&format!("/api/games/{id}/rating"));
    assert_eq!(status, 200, "{rating}");
    assert_eq!(rating["category"], "blitz");
    let white_change = rating["white"]["change"].as_f64().expect("White's change");
    let black_change = rating["black"]["change"].as_f64().expect("Black's change");
    assert!(white_change < 0.0 && black_change > 0.0, "{rating}");
    // Asked again (and the end's own application): the same, once.
    let (_, again) = server.get(&format!("/api/games/{id}/rating"));
    assert_eq!(again, rating);
    let (_, history) = server.get("/api/users/bob/ratings/blitz");
    let points = history["points"].as_array().expect("points");
    assert_eq!(points.len(), 1, "one game, one point: {history}");
    assert_eq!(points[0]["game"], id.as_str());
    let (_, profile) = server.get("/api/users/bob");
    assert_eq!(profile["ratings"][0]["category"], "blitz", "{profile}");
    assert_eq!(profile["ratings"][0]["games"], 1, "{profile}");
    assert_eq!(profile["ratings"][0]["provisional"], true, "{profile}");
    assert!(
        profile["ratings"][0]["rating"]
            .as_i64()
            .is_some_and(|r| r > 1500),
        "{profile}"
    );
    let won: i64 = profile["stats"]
        .as_array()
        .expect("stats")
        .iter()
        .filter_map(|s| s["won"].as_i64())
        .sum();
    assert_eq!(won, 1, "{profile}");
    // Filters: bob's won games, his games as White (none).
    let (_, games) = server.get("/api/users/bob/games?result=won&rated=true");
    assert_eq!(games["games"].as_array().map(Vec::len), Some(1), "{games}");
    let (_, games) = server.get("/api/users/bob/games?side=white");
    assert_eq!(games["games"].as_array().map(Vec::len), Some(0), "{games}");
    let answer = server.get("/api/users/bob/games?result=maybe");
    assert_error(&answer, 400, "bad_result");
    // Provisional ratings stay off the leaderboard.
    let (status, board) = server.get("/api/leaderboard/blitz");
    assert_eq!(status, 200);
    assert_eq!(board["players"], json!([]), "{board}");
    assert_error(&server.get("/api/leaderboard/speedy"), 400, "bad_category");
    assert_error(&server.get("/api/users/nobody"), 404, "no_user");
}

#[test]
fn an_early_end_leaves_ratings_alone() {
    let server = Server::start();
    let mut alice = Browser::on(&server);
    alice.sign_up("alice", PASSWORD);
    let mut bob = Browser::on(&server);
    bob.sign_up("bob", PASSWORD);
    let (id, w, _) = rated_game(&mut alice, &mut bob);
    let (status, body) = server.post(&format!("/api/games/{id}/resign"), &json!({"token": w}));
    assert_eq!(status, 200, "{body}");
    let (_, rating) = server.get(&format!("/api/games/{id}/rating"));
    assert_eq!(rating["white"], Value::Null, "{rating}");
    let (_, profile) = server.get("/api/users/alice");
    assert_eq!(profile["ratings"], json!([]), "{profile}");
}

#[test]
fn a_session_ended_on_one_instance_is_refused_on_another() {
    let Some((a, b)) = two_instances("a_session_ended_on_one_instance_is_refused_on_another", &[])
    else {
        return;
    };
    let mut on_a = Browser::on(&a);
    on_a.sign_up("frank", PASSWORD);
    let mut on_b = on_a.moved_to(&b);
    assert_eq!(on_b.signed_in_as().as_deref(), Some("frank"));
    let (status, _) = on_a.post("/api/account/signout", &json!({}));
    assert_eq!(status, 200);
    assert_eq!(on_b.signed_in_as(), None, "ended on A, refused on B");
    let answer = on_b.post(
        "/api/account/password",
        &json!({"current": PASSWORD, "new": "whatever it is now"}),
    );
    assert_error(&answer, 401, "not_signed_in");
}

#[test]
fn a_rated_result_reaching_two_instances_at_once_is_rated_once() {
    let Some((a, b)) = two_instances(
        "a_rated_result_reaching_two_instances_at_once_is_rated_once",
        &[],
    ) else {
        return;
    };
    let mut alice = Browser::on(&a);
    alice.sign_up("alice", PASSWORD);
    let mut bob = Browser::on(&b);
    bob.sign_up("bob", PASSWORD);
    for round in 0..5 {
        let (id, w, bl) = rated_game(&mut alice, &mut bob);
        black_wins(&a, &id, &w, &bl);
        // Both instances asked at once: each applies if first.
        let path = format!("/api/games/{id}/rating");
        let answers: Vec<Value> = std::thread::scope(|s| {
            let on_a = s.spawn(|| a.get(&path).1);
            let on_b = s.spawn(|| b.get(&path).1);
            [on_a, on_b]
                .into_iter()
                .map(|h| h.join().expect("a thread"))
                .collect()
        });
        assert_eq!(answers[0], answers[1], "round {round}");
        let (_, history) = a.get("/api/users/alice/ratings/blitz");
        assert_eq!(
            history["points"].as_array().map(Vec::len),
            Some(round + 1),
            "round {round}: one point per game: {history}"
        );
    }
    let (_, profile) = b.get("/api/users/bob");
    assert_eq!(profile["ratings"][0]["games"], 5, "{profile}");
}

#[test]
fn a_rated_game_against_an_ai_level_rates_the_level_too() {
    let server = Server::builder().ai_movetime(20).start();
    let mut ada = Browser::on(&server);
    ada.sign_up("ada", PASSWORD);
    let (status, created) = ada.post(
        "/api/games",
        &json!({"mode": "ai", "level": 1, "rated": true,
                "clock": {"type": "realtime", "initial": 600, "increment": 5}}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let me = created["seats"]["white"]
        .as_str()
        .expect("a seat")
        .to_string();
    assert_eq!(created["game"]["black_user"], "ai-level1", "{created}");
    // A rated game: no hints, no free retries.
    let answer = server.post(&format!("/api/games/{id}/analyse"), &json!({}));
    assert_error(&answer, 403, "analysis_off");
    let state = server.state(&id);
    server.play_ok(&id, &me, &legal_moves(&state)[0]);
    let state = server.wait_for(&id, std::time::Duration::from_secs(30), |s| {
        s["ply"].as_u64() == Some(2)
    });
    let answer = server.post(
        &format!("/api/games/{id}/takeback"),
        &json!({"token": me, "action": "request"}),
    );
    assert_error(&answer, 409, "rated_takeback");
    assert_eq!(state["ply"], 2);
    let (status, body) = server.post(&format!("/api/games/{id}/resign"), &json!({"token": me}));
    assert_eq!(status, 200, "{body}");
    let (_, rating) = server.get(&format!("/api/games/{id}/rating"));
    assert!(
        rating["black"]["change"].as_f64().is_some_and(|c| c > 0.0),
        "{rating}"
    );
    let (status, bot) = server.get("/api/users/level1");
    assert_eq!(status, 200, "{bot}");
    assert_eq!(
        (bot["bot"].as_bool(), bot["ratings"][0]["games"].as_i64()),
        (Some(true), Some(1)),
        "{bot}"
    );
    // Nobody takes a level's name.
    let answer = Browser::on(&server).post(
        "/api/account/signup",
        &json!({"name": "Level1", "password": PASSWORD}),
    );
    assert_error(&answer, 422, "name_reserved");
}

#[test]
fn your_turn_lists_the_games_waiting_for_you() {
    let server = Server::start();
    let mut alice = Browser::on(&server);
    alice.sign_up("alice", PASSWORD);
    let mut bob = Browser::on(&server);
    bob.sign_up("bob", PASSWORD);
    assert_error(
        &Browser::on(&server).get("/api/account/turns"),
        401,
        "not_signed_in",
    );
    let (id, w, _) = rated_game(&mut alice, &mut bob);
    let count = |b: &mut Browser| b.get("/api/account/turns").1["count"].as_u64();
    assert_eq!((count(&mut alice), count(&mut bob)), (Some(1), Some(0)));
    let state = server.state(&id);
    server.play_ok(&id, &w, &legal_moves(&state)[0]);
    assert_eq!((count(&mut alice), count(&mut bob)), (Some(0), Some(1)));
    let (_, turns) = bob.get("/api/account/turns");
    assert_eq!(turns["games"][0]["id"], id.as_str(), "{turns}");
}
