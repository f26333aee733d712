//! The limits that make `punct serve` safe to open to the internet, each
//! triggered against the real server process: rate limits (429 with
//! `Retry-After`), live-socket caps, slow and oversized clients, the
//! connection cap, the HTTP layer's own refusals as JSON, security
//! headers, the Host and Origin checks, games leaving memory, and
//! shutdown with a deadline.

mod common;

use common::{Server, TempDir};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A server on a fresh directory with `flags`.
fn server(flags: &[&str]) -> (Server, TempDir) {
    let dir = TempDir::new("limits");
    let s = Server::builder().data_dir(dir.path()).flags(flags).start();
    (s, dir)
}

/// Sends `request` (raw bytes) on a new connection and reads the answer
/// until the server closes or `timeout`: (status, headers text, body).
fn raw(addr: &str, request: &[u8], timeout: Duration) -> (u16, String, String) {
    let mut tcp = TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(timeout)).unwrap();
    tcp.write_all(request).expect("send");
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match tcp.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                if complete(&out) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// Whether `out` holds a whole answer (by its content-length).
fn complete(out: &[u8]) -> bool {
    let text = String::from_utf8_lossy(out);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .is_some_and(|n| body.len() >= n)
}

/// Asserts a JSON API error body with `code`.
#[track_caller]
fn assert_json_error(body: &str, code: &str) {
    let v: Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body:?}"));
    assert_eq!(v["error"]["code"], code, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
}

/// The refusal of a live socket that must not open.
#[track_caller]
fn refused(opened: Result<common::Ws, String>, what: &str) -> String {
    match opened {
        Ok(_) => panic!("the socket opened: {what}"),
        Err(e) => e,
    }
}

fn status_of(s: &Server) -> Value {
    let (code, v) = s.get("/api/status");
    assert_eq!(code, 200, "{v}");
    v
}

/// Polls `done` every 50 ms until it holds or `timeout` passes.
fn eventually(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

// ------------------------------------------------------------ rate limits

#[test]
fn creating_games_over_the_rate_is_429_with_retry_after_per_client() {
    let (s, _dir) = server(&["--rate-create", "3/min", "--trust-proxy"]);
    let spec = json!({"mode": "hotseat"});
    for i in 0..3 {
        let (status, _, body) = s.post_as("198.51.100.1", "/api/games", &spec);
        assert_eq!(status, 201, "game {i}: {body}");
    }
    let (status, headers, body) = s.post_as("198.51.100.1", "/api/games", &spec);
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(
        (1..=20).contains(&retry),
        "one game comes back every 20 s: {retry}"
    );
    // Another client has a bucket of its own; a client cannot escape its
    // own by putting another address in front (the proxy's is the last).
    let (status, _, body) = s.post_as("198.51.100.2", "/api/games", &spec);
    assert_eq!(status, 201, "{body}");
    let (status, _, _) = s.post_as("203.0.113.9, 198.51.100.1", "/api/games", &spec);
    assert_eq!(status, 429);
    // Reading is not limited.
    assert_eq!(s.get("/api/games").0, 200);
}

#[test]
fn without_trust_proxy_forwarded_for_is_ignored() {
    let (s, _dir) = server(&["--rate-create", "2/min"]);
    let spec = json!({"mode": "hotseat"});
    for client in ["198.51.100.1", "198.51.100.2"] {
        assert_eq!(s.post_as(client, "/api/games", &spec).0, 201);
    }
    let (status, _, body) = s.post_as("198.51.100.3", "/api/games", &spec);
    assert_eq!(status, 429, "every request came from 127.0.0.1: {body}");
}

#[test]
fn moves_over_http_and_live_sockets_share_one_rate() {
    let (s, _dir) = server(&["--rate-move", "4/min"]);
    let g = s.create(json!({"mode": "hotseat"}));
    let t = g.white();
    let mut state = s.state(&g.id);
    for _ in 0..3 {
        let mv = common::legal_moves(&state)[0].clone();
        state = s.play_ok(&g.id, t, &mv);
    }
    let mut ws = s.live(&g.id);
    ws.recv(); // the state
    let mv = common::legal_moves(&state)[0].clone();
    ws.send(&json!({"type": "move", "move": mv, "token": t, "id": 1}));
    let (ack, _) = ws.recv_until(|m| m["type"] != "state");
    assert_eq!(
        ack["type"], "ack",
        "the 4th action is within the rate: {ack}"
    );
    ws.send(&json!({"type": "resign", "token": t, "id": 2}));
    let (refused, _) = ws.recv_until(|m| m["type"] != "state");
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["id"], 2);
    assert_eq!(refused["error"]["code"], "rate_limited");
    assert!(
        refused["retry_after"].as_u64().is_some_and(|r| r >= 1),
        "{refused}"
    );
    let (status, body) = s.post(&format!("/api/games/{}/resign", g.id), &json!({"token": t}));
    assert_eq!(status, 429, "{body}");
    assert_eq!(
        s.state(&g.id)["status"],
        "ongoing",
        "a refused action changes nothing"
    );
}

#[test]
fn live_sockets_are_capped_per_client_per_game_and_by_rate() {
    let (s, _dir) = server(&[
        "--ws-per-client",
        "3",
        "--ws-per-game",
        "4",
        "--trust-proxy",
    ]);
    let g = s.create(json!({"mode": "hotseat"}));
    let path = format!("/api/games/{}/live", g.id);
    let a = "198.51.100.1";
    let mut open: Vec<common::Ws> = (0..3)
        .map(|_| {
            common::Ws::connect_with(&s.addr, &path, &[("x-forwarded-for", a)])
                .expect("within the cap")
        })
        .collect();
    let over = refused(
        common::Ws::connect_with(&s.addr, &path, &[("x-forwarded-for", a)]),
        "over the cap",
    );
    assert!(
        over.starts_with("HTTP 429") && over.contains("too_many_sockets"),
        "{over}"
    );
    // The game's own cap: one more from another client, then none.
    open.push(
        common::Ws::connect_with(&s.addr, &path, &[("x-forwarded-for", "198.51.100.2")])
            .expect("4th on the game"),
    );
    let full = refused(
        common::Ws::connect_with(&s.addr, &path, &[("x-forwarded-for", "198.51.100.3")]),
        "game full",
    );
    assert!(
        full.starts_with("HTTP 503") && full.contains("game_full"),
        "{full}"
    );
    assert_eq!(status_of(&s)["live_sockets"], 4);
    // Closing one frees its place.
    let mut first = open.remove(0);
    first.socket.close(None).unwrap();
    let _ = first.socket.read();
    assert!(eventually(Duration::from_secs(5), || status_of(&s)
        ["live_sockets"]
        == 3));
    common::Ws::connect_with(&s.addr, &path, &[("x-forwarded-for", a)]).expect("a place came free");

    let (s, _dir) = server(&["--rate-websocket", "2/min"]);
    let g = s.create(json!({"mode": "hotseat"}));
    let path = format!("/api/games/{}/live", g.id);
    let _one = common::Ws::connect_with(&s.addr, &path, &[]).unwrap();
    let _two = common::Ws::connect_with(&s.addr, &path, &[]).unwrap();
    let third = refused(
        common::Ws::connect_with(&s.addr, &path, &[]),
        "over the rate",
    );
    assert!(
        third.starts_with("HTTP 429") && third.contains("rate_limited"),
        "{third}"
    );
}

// ------------------------------------------------------------ slow and big clients

#[test]
fn a_slow_header_and_an_idle_connection_are_closed() {
    let (s, _dir) = server(&["--header-timeout", "1"]);
    let started = Instant::now();
    let mut tcp = TcpStream::connect(&s.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    tcp.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let mut buf = [0u8; 256];
    let n = tcp.read(&mut buf).unwrap_or(0);
    assert_eq!(
        n,
        0,
        "closed without an answer: {:?}",
        String::from_utf8_lossy(&buf[..n])
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "closed after {:?}",
        started.elapsed()
    );

    // A kept-alive connection that goes quiet after a request is closed too.
    let mut tcp = TcpStream::connect(&s.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    tcp.write_all(b"GET /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let mut answer = Vec::new();
    let started = Instant::now();
    loop {
        match tcp.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    assert!(answer.starts_with(b"HTTP/1.1 200"), "answered first");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "then closed when idle"
    );
}

#[test]
fn a_live_socket_that_stops_reading_is_dropped() {
    let (s, _dir) = server(&["--ws-send-timeout", "1", "--rate-move", "off"]);
    let g = s.create(json!({"mode": "hotseat"}));
    let t = g.white().to_string();
    // This watcher never reads.
    let _stalled =
        common::Ws::connect_with(&s.addr, &format!("/api/games/{}/live", g.id), &[]).unwrap();
    assert_eq!(status_of(&s)["live_sockets"], 1);
    // Each move and takeback pushes a full state (tens of KB) to it: more
    // than the kernel's socket buffers hold, so its sends stall.
    let mut state = s.state(&g.id);
    let mut rounds = 0;
    let dropped = eventually(Duration::from_secs(60), || {
        rounds += 1;
        let mv = common::legal_moves(&state)[0].clone();
        s.play_ok(&g.id, &t, &mv);
        let (status, back) = s.action(&g.id, "takeback", &t, "request");
        assert_eq!(status, 200, "{back}");
        state = back;
        status_of(&s)["live_sockets"] == 0
    });
    assert!(
        dropped,
        "the stalled socket is still open after {rounds} rounds"
    );
    eprintln!("the stalled reader was dropped after {rounds} rounds");
    // Everyone else goes on.
    let mut ws = s.live(&g.id);
    assert_eq!(ws.recv()["type"], "state");
}

#[test]
fn an_oversized_live_message_gets_a_close_frame() {
    let (s, _dir) = server(&[]);
    let g = s.create(json!({"mode": "hotseat"}));
    for size in [20 * 1024, 100 * 1024] {
        let mut ws = s.live(&g.id);
        ws.recv();
        let big = format!("{{\"type\":\"ping\",\"id\":\"{}\"}}", "x".repeat(size));
        ws.send_text(&big);
        let close = loop {
            match ws.socket.read() {
                Ok(tungstenite::Message::Close(c)) => break c,
                Ok(_) => continue,
                Err(e) => panic!("no close frame for {size} bytes: {e}"),
            }
        };
        let close = close.expect("a close frame with a code");
        assert_eq!(u16::from(close.code), 1009, "{close:?}");
        assert!(close.reason.contains("16 KiB"), "{close:?}");
    }
}

#[test]
fn connections_over_the_cap_get_a_json_503() {
    let (s, _dir) = server(&["--max-connections", "4"]);
    let idle: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(&s.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let (status, head, body) = raw(
        &s.addr,
        b"GET /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        Duration::from_secs(10),
    );
    assert_eq!(status, 503, "{body}");
    assert!(head.contains("retry-after:"), "{head}");
    assert_json_error(&body, "too_many_connections");
    drop(idle);
    assert!(
        eventually(Duration::from_secs(5), || raw(
            &s.addr,
            b"GET /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            Duration::from_secs(10)
        )
        .0 == 200),
        "places come free when connections close"
    );
}

#[cfg(unix)]
#[test]
fn a_server_short_of_file_descriptors_answers_instead_of_hanging() {
    // Measured before the connection layer: under a 256-file limit, 300
    // idle connections made real requests time out.
    let dir = TempDir::new("limits");
    let s = Server::builder()
        .data_dir(dir.path())
        .open_files(256)
        .flags(&["--header-timeout", "3"])
        .start();
    let idle: Vec<TcpStream> = (0..300)
        .filter_map(|_| TcpStream::connect(&s.addr).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // The server holds what its file limit allows (256 less 64) and
    // refuses the rest at once; a real request gets an answer, not a
    // time-out (`raw` fails on no answer).
    let request = b"GET /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let (status, _, body) = raw(&s.addr, request, Duration::from_secs(20));
    match status {
        503 => assert_json_error(&body, "too_many_connections"),
        200 => {}
        other => panic!("{other}: {body}"),
    }
    // Idle connections run out of time and places come free.
    assert!(
        eventually(Duration::from_secs(20), || raw(
            &s.addr,
            request,
            Duration::from_secs(20)
        )
        .0 == 200),
        "requests are served again once the idle connections are closed"
    );
    drop(idle);
}

// ------------------------------------------------------------ the HTTP layer

#[test]
fn the_http_layer_refuses_in_json() {
    let (s, _dir) = server(&[]);
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (
            b"GET /a\x01b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            b"GET / HTTP/1.1\r\nBad Header Name: x\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            format!(
                "GET /{} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "a".repeat(10_000)
            )
            .into_bytes(),
            414,
            "uri_too_long",
        ),
        (
            format!(
                "GET /{} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "a".repeat(100_000)
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{}\r\n",
                (0..120)
                    .map(|i| format!("x-h{i}: v\r\n"))
                    .collect::<String>()
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nx-big: {}\r\n\r\n",
                "v".repeat(70_000)
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
        (
            b"GET /api/games/%FF%FE HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
    ];
    for (request, status, code) in cases {
        let shown = String::from_utf8_lossy(&request[..request.len().min(40)]).to_string();
        let (got, head, body) = raw(&s.addr, &request, Duration::from_secs(10));
        assert_eq!(got, status, "{shown:?}: {body}");
        assert!(
            head.contains("content-type: application/json"),
            "{shown:?}: {head}"
        );
        assert_json_error(&body, code);
    }
    // The server still serves.
    assert_eq!(s.get("/api/board").0, 200);
}

// ------------------------------------------------------------ defence in depth

#[test]
fn every_answer_carries_the_security_headers() {
    let (s, _dir) = server(&[]);
    let g = s.create(json!({"mode": "hotseat"}));
    for path in [
        "/",
        &format!("/game/{}", g.id),
        "/static/app.js",
        "/api/board",
        "/api/nope",
    ] {
        let (_, headers, _) = s.get_text(path);
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
    }
}

#[test]
fn other_hosts_are_refused_by_a_loopback_server() {
    let (s, _dir) = server(&[]);
    for host in ["evil.example", "evil.example:8080", "127.0.0.1.nip.example"] {
        let req = format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let (status, _, body) = raw(&s.addr, req.as_bytes(), Duration::from_secs(10));
        assert_eq!(status, 421, "{host}: {body}");
        assert_json_error(&body, "bad_host");
    }
    for host in ["127.0.0.1", "localhost:1234", "[::1]:80"] {
        let req = format!("GET /api/board HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        assert_eq!(
            raw(&s.addr, req.as_bytes(), Duration::from_secs(10)).0,
            200,
            "{host}"
        );
    }
    // With a public address, only its host (and loopback names, as the
    // server listens on loopback) is answered.
    let (s, _dir) = server(&["--public-url", "https://punct.example.org"]);
    let req = b"GET /api/board HTTP/1.1\r\nHost: punct.example.org\r\nConnection: close\r\n\r\n";
    assert_eq!(raw(&s.addr, req, Duration::from_secs(10)).0, 200);
    let req = b"GET /api/board HTTP/1.1\r\nHost: other.example.org\r\nConnection: close\r\n\r\n";
    assert_eq!(raw(&s.addr, req, Duration::from_secs(10)).0, 421);
    // Operators' tools call an instance by its own address: the health
    // check and the metrics answer any host.
    for path in ["/api/health", "/metrics"] {
        let req =
            format!("GET {path} HTTP/1.1\r\nHost: 10.0.0.11:8080\r\nConnection: close\r\n\r\n");
        assert_eq!(
            raw(&s.addr, req.as_bytes(), Duration::from_secs(10)).0,
            200,
            "{path}"
        );
    }
}

#[test]
fn live_sockets_from_other_origins_are_refused() {
    let (s, _dir) = server(&["--allowed-origin", "https://friend.example"]);
    let g = s.create(json!({"mode": "hotseat"}));
    let path = format!("/api/games/{}/live", g.id);
    let own = format!("http://{}", s.addr);
    for ok in [own.as_str(), "https://friend.example"] {
        let mut ws = common::Ws::connect_with(&s.addr, &path, &[("origin", ok)])
            .unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert_eq!(ws.recv()["type"], "state");
    }
    let mut ws = common::Ws::connect_with(&s.addr, &path, &[]).expect("no origin: not a browser");
    assert_eq!(ws.recv()["type"], "state");
    for bad in ["http://evil.example", "null", "https://friend.example.evil"] {
        let e = refused(
            common::Ws::connect_with(&s.addr, &path, &[("origin", bad)]),
            bad,
        );
        assert!(
            e.starts_with("HTTP 403") && e.contains("bad_origin"),
            "{bad}: {e}"
        );
    }
}

// ------------------------------------------------------------ memory

/// `legal_compact` (additions grouped by kind and rotation, the rest
/// under "moves") as the list of moves it stands for.
fn expand(compact: &Value) -> Vec<String> {
    let mut legal = Vec::new();
    for (key, items) in compact.as_object().expect("legal_compact is an object") {
        for item in items.as_str().expect("a group is a string").split(' ') {
            legal.push(match key.split_once('/') {
                Some((kind, rotation)) => format!("{kind}@{item}/{rotation}"),
                None => item.to_string(),
            });
        }
    }
    legal.sort();
    legal
}

#[test]
fn live_states_come_with_all_without_or_with_grouped_legal_moves() {
    let (s, _dir) = server(&[]);
    let g = s.create(json!({"mode": "hotseat"}));
    let mut state = s.state(&g.id);
    let mut rng = common::Rng::new(3);
    for _ in 0..12 {
        let mv = rng.pick(&common::legal_moves(&state)).clone();
        state = s.play_ok(&g.id, g.white(), &mv);
    }
    let first = |query: &str| {
        let mut ws =
            common::Ws::connect_with(&s.addr, &format!("/api/games/{}/live{query}", g.id), &[])
                .unwrap();
        ws.recv()["game"].clone()
    };
    let full = first("");
    let light = first("?legal_moves=false");
    let compact = first("?legal_moves=compact");
    let mut legal = common::legal_moves(&full);
    legal.sort();
    assert!(legal.len() > 100, "a position with many moves");
    assert!(legal.iter().any(|m| m.contains('-')), "relocations too");
    assert_eq!(expand(&compact["legal_compact"]), legal);
    assert!(light.get("legal_moves").is_none() && light.get("legal_compact").is_none());
    assert!(compact.get("legal_moves").is_none());
    let strip = |mut v: Value| {
        let o = v.as_object_mut().unwrap();
        o.remove("legal_moves");
        o.remove("legal_compact");
        v
    };
    assert_eq!(strip(full.clone()), strip(light));
    assert_eq!(strip(full), strip(compact));
    let refused = refused(
        common::Ws::connect_with(
            &s.addr,
            &format!("/api/games/{}/live?legal_moves=some", g.id),
            &[],
        ),
        "a bad value",
    );
    assert!(
        refused.starts_with("HTTP 400") && refused.contains("bad_query"),
        "{refused}"
    );
}

#[test]
fn finished_and_idle_games_leave_memory_and_come_back() {
    let (s, _dir) = server(&["--idle-game", "2"]);
    let over = s.create(json!({"mode": "hotseat"}));
    let (status, resigned) = s.post(
        &format!("/api/games/{}/resign", over.id),
        &json!({"token": over.white()}),
    );
    assert_eq!(status, 200, "{resigned}");
    let idle = s.create(json!({"mode": "hotseat"}));
    let watched = s.create(json!({"mode": "hotseat"}));
    let mut ws = s.live(&watched.id);
    ws.recv();
    assert_eq!(status_of(&s)["games_in_memory"], 3);
    assert!(
        eventually(Duration::from_secs(15), || status_of(&s)["games_in_memory"]
            == 1),
        "only the watched game stays: {}",
        status_of(&s)
    );
    // Read back on demand, exactly as they were.
    assert_eq!(s.state(&over.id)["result"], resigned["result"]);
    let mv = common::legal_moves(&s.state(&idle.id))[0].clone();
    s.play_ok(&idle.id, idle.white(), &mv);
    assert_eq!(s.state(&idle.id)["ply"], 1);
}

// ------------------------------------------------------------ shutdown

#[cfg(unix)]
#[test]
fn shutdown_does_not_wait_for_a_half_sent_request() {
    let dir = TempDir::new("limits");
    let mut s = Server::builder()
        .data_dir(dir.path())
        .flags(&["--header-timeout", "600", "--shutdown-grace", "2"])
        .start();
    let g = s.create(json!({"mode": "hotseat"}));
    let mut half = TcpStream::connect(&s.addr).unwrap();
    half.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"mo",
    )
    .unwrap();
    let mut ws = s.live(&g.id);
    ws.recv();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    s.terminate();
    let status = s.wait_exit(Duration::from_secs(15));
    assert!(status.is_some(), "still running 15 s after SIGTERM");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "took {:?} for a 2 s grace",
        started.elapsed()
    );
    // The live socket was told why it closes.
    let closed = loop {
        match ws.socket.read() {
            Ok(tungstenite::Message::Close(c)) => break c,
            Ok(_) => continue,
            Err(e) => panic!("no close frame: {e}"),
        }
    };
    assert_eq!(closed.map(|c| u16::from(c.code)), Some(1001));
}

/// The writes and costly reads that once took no token: a name, a
/// rematch, a game's analysis, a list, a state, a socket's hello.
#[test]
fn every_write_and_costly_read_takes_a_token() {
    let (s, _dir) = server(&[
        "--rate-seat",
        "2/min",
        "--rate-create",
        "2/min",
        "--rate-analyse",
        "1/min",
        "--rate-list",
        "2/min",
        "--rate-read",
        "40/min",
        "--rate-move",
        "3/min",
    ]);
    let refused = |(status, body): (u16, Value), what: &str| {
        assert_eq!(status, 429, "{what}: {body}");
        assert_eq!(body["error"]["code"], "rate_limited", "{what}: {body}");
    };
    // Names: the seat's bucket.
    let g = s.create(json!({"mode": "hotseat"}));
    let t = g.white().to_string();
    let name = format!("/api/games/{}/name", g.id);
    for n in ["Ada", "Bea"] {
        let (status, body) = s.post(&name, &json!({"token": t, "name": n}));
        assert_eq!(status, 200, "{body}");
    }
    refused(
        s.post(&name, &json!({"token": t, "name": "Cy"})),
        "a third name",
    );

    // A rematch takes a new game's token: with the two spent (a game
    // made here and one more), it is refused before it begins.
    let resign = format!("/api/games/{}/resign", g.id);
    assert_eq!(s.post(&resign, &json!({"token": t})).0, 200);
    s.create(json!({"mode": "hotseat"}));
    let rematch = format!("/api/games/{}/rematch", g.id);
    refused(
        s.post(&rematch, &json!({"token": t, "action": "offer"})),
        "a rematch",
    );
    assert_eq!(s.state(&g.id)["rematch"], Value::Null, "no rematch began");

    // A game's analysis: the analyses' bucket.
    let analyse = format!("/api/games/{}/analyse", g.id);
    let (status, body) = s.post(&analyse, &json!({"ply": 0, "movetime": 20}));
    assert_eq!(status, 200, "{body}");
    refused(
        s.post(&analyse, &json!({"ply": 0, "movetime": 20})),
        "a second analysis",
    );

    // A socket's hello counts as a game action: the resignation took one
    // of the three, two hellos the others, and a third is refused.
    let mut ws = s.live(&g.id);
    for id in 1..=3 {
        ws.send(&json!({"type": "hello", "token": t, "id": id}));
        let (answer, _) = ws.recv_until(|m| m["id"] == id);
        if id <= 2 {
            assert_eq!(answer["type"], "ack", "hello {id}: {answer}");
        } else {
            assert_eq!(answer["error"]["code"], "rate_limited", "{answer}");
        }
    }

    // Lists have a bucket of their own; states and records another.
    for _ in 0..2 {
        assert_eq!(s.get("/api/games").0, 200);
    }
    refused(s.get("/api/games"), "a third list");
    let mut reads = 0;
    while s.get(&format!("/api/games/{}", g.id)).0 == 200 {
        reads += 1;
        assert!(reads <= 40, "reads past their burst");
    }
    refused(s.get(&format!("/api/games/{}/record", g.id)), "a record");
}
