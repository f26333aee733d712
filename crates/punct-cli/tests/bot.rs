//! `punct bot` against the real server: `punct serve` on a free port of
//! 127.0.0.1, a bot account with its API token, and `punct bot` driving
//! `punct engine` (an external engine over the protocol) through a whole
//! game against a person whose moves this test posts over the HTTP API;
//! and its clear refusals (a bad address, a refused token, an engine that
//! does not start, a server that is not there).

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_punct");
const PASSWORD: &str = "correct horse battery";

/// `punct serve` on a free port, killed when dropped.
struct Server {
    child: Child,
    base: String,
    addr: String,
    dir: PathBuf,
    /// Its data directory outlives it (a restart finds it).
    keep: bool,
}

impl Server {
    fn start() -> Server {
        let dir = std::env::temp_dir().join(format!(
            "punct-bot-test-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        Server::start_in(dir, 0)
    }

    /// A server on `port` (0: any free one) keeping its games in `dir`.
    fn start_in(dir: PathBuf, port: u16) -> Server {
        std::fs::create_dir_all(&dir).expect("a data directory");
        let mut child = Command::new(BIN)
            .env_remove("PUNCT_DATABASE_URL")
            .args(["serve", "--bind", "127.0.0.1", "--ai-movetime", "50"])
            .args(["--port", &port.to_string()])
            .arg("--data-dir")
            .arg(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("punct serve");
        let stdout = child.stdout.take().expect("its stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = tx.send(lines.next());
            for _ in lines {} // never a full pipe
        });
        let first = rx
            .recv_timeout(Duration::from_secs(60))
            .ok()
            .flatten()
            .and_then(Result::ok)
            .expect("punct serve said where it listens");
        let addr = first
            .strip_prefix("PÜNCT server: open http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("an unexpected first line: {first}"))
            .to_string();
        Server {
            child,
            base: format!("http://{addr}"),
            addr,
            dir,
            keep: false,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build(),
    )
}

fn json_of(resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut resp = resp.expect("an answer");
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().expect("a body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A new account: its session cookie (`punct_session=…`).
fn sign_up(server: &Server, name: &str) -> String {
    let resp = agent()
        .post(server.url("/api/account/signup"))
        .header("origin", &server.base)
        .send_json(json!({"name": name, "password": PASSWORD}))
        .expect("signing up");
    assert_eq!(resp.status().as_u16(), 201);
    let cookie = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string();
    cookie
}

/// A new account (to be made a bot): its API token.
fn bot_token(server: &Server, name: &str) -> String {
    let cookie = sign_up(server, name);
    let (status, made) = json_of(
        agent()
            .post(server.url("/api/account/tokens"))
            .header("origin", &server.base)
            .header("cookie", &cookie)
            .send_json(json!({"label": "test"})),
    );
    assert_eq!(status, 201, "{made}");
    made["secret"].as_str().expect("a secret").to_string()
}

/// `punct bot` with `args`, its output captured.
fn bot(args: &[&str], token: &str) -> Child {
    Command::new(BIN)
        .arg("bot")
        .args(args)
        .env("PUNCT_BOT_TOKEN", token)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("punct bot")
}

/// Waits (bounded) for `child` to exit: its code and standard error.
fn finish(mut child: Child, within: Duration) -> (Option<i32>, String) {
    let until = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().expect("its status") {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return (status.code(), err);
        }
        if Instant::now() > until {
            let _ = child.kill();
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("punct bot did not exit within {within:?}; it said:\n{err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A lobby socket (anonymous): the next JSON text message.
fn recv(ws: &mut tungstenite::WebSocket<TcpStream>) -> Value {
    loop {
        match ws.read().expect("a lobby message") {
            tungstenite::Message::Text(t) => {
                return serde_json::from_str(t.as_str()).expect("JSON")
            }
            tungstenite::Message::Close(_) => panic!("the lobby socket closed"),
            _ => {}
        }
    }
}

/// Waits in the lobby for the bot's seek and accepts it: the game's id,
/// the person's token and side.
fn accept_bots_seek(server: &Server) -> (String, String, String) {
    let stream = TcpStream::connect(&server.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    let (mut ws, _) = tungstenite::client(format!("ws://{}/api/lobby/live", server.addr), stream)
        .expect("the lobby socket");
    let first = recv(&mut ws);
    let mut seek = first["seeks"]
        .as_array()
        .and_then(|s| s.iter().find(|x| x["bot"] == true))
        .map(|x| x["id"].clone());
    while seek.is_none() {
        let msg = recv(&mut ws);
        if msg["type"] == "added" && msg["seek"]["bot"] == true {
            seek = Some(msg["seek"]["id"].clone());
        }
    }
    ws.send(tungstenite::Message::text(
        json!({"type": "accept", "seek": seek, "name": "Ada"}).to_string(),
    ))
    .expect("sending");
    loop {
        let msg = recv(&mut ws);
        match msg["type"].as_str() {
            Some("paired") => {
                let s = |k: &str| msg[k].as_str().expect(k).to_string();
                return (s("game"), s("token"), s("side"));
            }
            Some("error") => panic!("accepting the seek: {msg}"),
            _ => {}
        }
    }
}

/// Plays pseudo-random legal moves for the person (black) in `game`
/// until it ends: its last state.
fn play_as_person(server: &Server, game: &str, person: &str) -> Value {
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < until, "the game did not end within 120 s");
        let (status, state) = json_of(
            agent()
                .get(server.url(&format!("/api/games/{game}")))
                .call(),
        );
        assert_eq!(status, 200, "{state}");
        if state["status"] == "over" {
            return state;
        }
        if state["to_move"] == "black" {
            let legal = state["legal_moves"].as_array().expect("legal moves");
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = &legal[(seed % legal.len() as u64) as usize];
            let (status, answer) = json_of(
                agent()
                    .post(server.url(&format!("/api/games/{game}/moves")))
                    .send_json(json!({"move": mv, "token": person})),
            );
            assert!(status == 200 || status == 409, "{status} {answer}");
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn punct_bot_plays_a_whole_game_with_an_external_engine() {
    let server = Server::start();
    let token = bot_token(&server, "Robo");
    let engine = format!("cmd:{BIN} engine --engine random");
    let child = bot(
        &[
            "--server",
            &server.base,
            "--engine",
            &engine,
            "--seek",
            "untimed",
            "--side",
            "white",
            "--movetime",
            "50",
            "--games",
            "1",
            "--upgrade",
        ],
        &token,
    );
    let (game, person, side) = accept_bots_seek(&server);
    assert_eq!(side, "black");
    let state = play_as_person(&server, &game, &person);
    let plies = state["ply"].as_u64().expect("plies");
    assert!(plies >= 2, "{state}");
    assert_eq!(state["players"]["white"]["name"], "Robo");
    assert_eq!(state["players"]["white"]["bot"], true);
    // The bot moved every other ply, and stops after its one game.
    let (code, said) = finish(child, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("is a bot account now"), "{said}");
    assert!(
        said.contains(&format!("game {game}: playing white against Ada")),
        "{said}"
    );
    assert!(said.contains(&format!("game {game}: over")), "{said}");
    let moves = said.matches(&format!("game {game}: white plays ")).count() as u64;
    assert_eq!(moves, plies.div_ceil(2), "{said}");
}

#[test]
fn punct_bot_declines_and_accepts_challenges_by_its_options() {
    let server = Server::start();
    let token = bot_token(&server, "Robo");
    let person = sign_up(&server, "Ada");
    let engine = format!("cmd:{BIN} engine --engine random");
    let child = bot(
        &[
            "--server",
            &server.base,
            "--engine",
            &engine,
            "--movetime",
            "20",
            "--games",
            "1",
            "--upgrade",
            "--challenges",
            "casual",
        ],
        &token,
    );
    // Challenged once it is a bot (before or after its stream opens: it
    // hears of open challenges when the stream opens).
    let until = Instant::now() + Duration::from_secs(60);
    while json_of(agent().get(server.url("/api/users/robo")).call()).1["bot"] != true {
        assert!(Instant::now() < until, "not a bot within 60 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    use tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/api/lobby/live", server.addr)
        .into_client_request()
        .expect("a request");
    let headers = request.headers_mut();
    headers.insert("cookie", person.parse().expect("a header"));
    headers.insert("origin", server.base.parse().expect("a header"));
    let stream = TcpStream::connect(&server.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    let (mut ws, _) = tungstenite::client(request, stream).expect("the lobby socket");
    let next_of = |ws: &mut tungstenite::WebSocket<TcpStream>, kind: &str| loop {
        let msg = recv(ws);
        assert_ne!(msg["type"], "error", "waiting for {kind}: {msg}");
        if msg["type"] == kind {
            return msg;
        }
    };
    let challenge = |ws: &mut tungstenite::WebSocket<TcpStream>, body: Value| {
        ws.send(tungstenite::Message::text(body.to_string()))
            .expect("sending");
        next_of(ws, "seeking")["seek"].clone()
    };
    let blitz = json!({"type": "realtime", "initial": 300, "increment": 3});
    let rated = challenge(
        &mut ws,
        json!({"type": "challenge", "to": "Robo", "rated": true, "clock": blitz}),
    );
    assert_eq!(next_of(&mut ws, "declined")["seek"], rated);
    let casual = challenge(
        &mut ws,
        json!({"type": "challenge", "to": "Robo", "side": "black"}),
    );
    let paired = next_of(&mut ws, "paired");
    assert_eq!(paired["seek"], casual);
    let (game, token) = (
        paired["game"].as_str().expect("a game"),
        paired["token"].as_str().expect("a token"),
    );
    let state = play_as_person(&server, game, token);
    assert_eq!(state["players"]["white"]["name"], "Robo");
    let (code, said) = finish(child, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{said}");
    let id = |v: &Value| v.as_str().expect("an id").to_string();
    assert!(
        said.contains(&format!(
            "challenge {} from Ada: declined (it accepts casual challenges only)",
            id(&rated)
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "challenge {} from Ada: accepted (casual)",
            id(&casual)
        )),
        "{said}"
    );
    assert!(said.contains(&format!("game {game}: over")), "{said}");
}

#[test]
fn punct_bot_says_clearly_what_stops_it() {
    // A bad address: bad input, before anything starts.
    let (code, said) = finish(
        bot(&["--server", "ftp://x", "--engine", "random"], "punct_x"),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("--server"), "{said}");
    // An engine that cannot be started.
    let (code, said) = finish(
        bot(
            &[
                "--server",
                "http://127.0.0.1:9",
                "--engine",
                "cmd:/nonexistent/engine",
            ],
            "punct_x",
        ),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("cannot start `/nonexistent/engine`"),
        "{said}"
    );
    // An engine that does not speak the protocol.
    let (code, said) = finish(
        bot(
            &["--server", "http://127.0.0.1:9", "--engine", "cmd:true"],
            "punct_x",
        ),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("handshake"), "{said}");
    // No server there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let (code, said) = finish(
        bot(
            &[
                "--server",
                &format!("http://127.0.0.1:{port}"),
                "--engine",
                "random",
            ],
            "punct_x",
        ),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("cannot reach"), "{said}");
    // A token the server refuses; an account that is not a bot.
    let server = Server::start();
    let fake = format!("punct_{}", "A".repeat(43));
    let (code, said) = finish(
        bot(&["--server", &server.base, "--engine", "random"], &fake),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("refused the token"), "{said}");
    let token = bot_token(&server, "Person");
    let (code, said) = finish(
        bot(&["--server", &server.base, "--engine", "random"], &token),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("Person is not a bot"), "{said}");
}

#[test]
fn punct_bot_comes_back_after_the_server_went_away() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let dir = std::env::temp_dir().join(format!("punct-bot-test-back-{}", std::process::id()));
    let mut server = Server::start_in(dir.clone(), port);
    server.keep = true;
    let token = bot_token(&server, "Robo");
    let engine = format!("cmd:{BIN} engine --engine random");
    let child = bot(
        &[
            "--server",
            &server.base,
            "--engine",
            &engine,
            "--seek",
            "untimed",
            "--side",
            "white",
            "--movetime",
            "20",
            "--games",
            "1",
            "--upgrade",
        ],
        &token,
    );
    // Its seek is up: then the server goes, and comes back on that port
    // with the same database.
    let until = Instant::now() + Duration::from_secs(60);
    while json_of(agent().get(server.url("/api/lobby")).call()).1["seeks"] == json!([]) {
        assert!(Instant::now() < until, "no seek within 60 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(server);
    std::thread::sleep(Duration::from_millis(300));
    let server = Server::start_in(dir, port);
    let (game, person, _) = accept_bots_seek(&server);
    let state = play_as_person(&server, &game, &person);
    assert_eq!(state["status"], "over");
    let (code, said) = finish(child, Duration::from_secs(60));
    eprintln!("punct bot said:\n{said}");
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("opening it again"), "{said}");
    assert!(said.contains(&format!("game {game}: over")), "{said}");
}
