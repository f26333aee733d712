//! What operators watch, through the real binary: the readiness check
//! (`/api/health`) asks the database, and `/metrics` counts what happened
//! (Prometheus text format). Runs on both backends.

mod common;

use common::{legal_moves, on_postgres, Server};
use serde_json::json;
use std::time::Duration;

/// The value of the sample `name` (with its labels, as written in the
/// exposition) in `text`.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

fn metrics(server: &Server) -> String {
    let (status, headers, text) = server.get_text("/metrics");
    assert_eq!(status, 200, "{text}");
    let kind = headers.get("content-type").unwrap().to_str().unwrap();
    assert!(kind.contains("openmetrics-text"), "{kind}");
    assert!(text.trim_end().ends_with("# EOF"), "{text}");
    text
}

#[test]
fn the_readiness_check_asks_the_database() {
    let server = Server::start();
    let (status, body) = server.get("/api/health");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "ok");
    let kind = if on_postgres() { "postgres" } else { "sqlite" };
    assert_eq!(body["database"]["kind"], kind);
    assert!(body["database"]["latency_ms"].as_f64().unwrap() >= 0.0);
}

#[test]
fn metrics_count_requests_moves_sockets_the_ai_and_the_database() {
    let server = Server::start();
    let before = metrics(&server);
    assert_eq!(sample(&before, "punct_moves_total"), Some(0.0));
    assert_eq!(sample(&before, "punct_live_sockets"), Some(0.0));

    // Two moves at one screen, watched by one socket.
    let g = server.create(json!({"mode": "hotseat"}));
    let token = g.white.clone().unwrap();
    let mut socket = server.live(&g.id);
    socket.recv_state_at(0);
    for _ in 0..2 {
        let mv = legal_moves(&server.state(&g.id))[0].clone();
        server.play_ok(&g.id, &token, &mv);
    }
    // A refused move is counted as a request, not as a move.
    let (status, _) = server.play(&g.id, &token, "pass");
    assert_eq!(status, 422);
    // A move against the AI, and its answer.
    let ai = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    let mv = legal_moves(&server.state(&ai.id))[0].clone();
    server.play_ok(&ai.id, ai.white.as_deref().unwrap(), &mv);
    server.wait_for(&ai.id, Duration::from_secs(30), |s| common::ply(s) == 2);

    let after = metrics(&server);
    assert_eq!(sample(&after, "punct_moves_total"), Some(4.0), "{after}");
    assert_eq!(sample(&after, "punct_live_sockets"), Some(1.0), "{after}");
    assert!(sample(&after, "punct_games_in_memory").unwrap() >= 2.0);
    assert!(
        sample(
            &after,
            r#"punct_http_requests_total{method="POST",status="201"}"#
        ) >= Some(2.0),
        "{after}"
    );
    assert_eq!(
        sample(
            &after,
            r#"punct_http_requests_total{method="POST",status="422"}"#
        ),
        Some(1.0),
        "{after}"
    );
    // The AI's job waited (briefly) for a worker, once.
    assert_eq!(
        sample(&after, "punct_ai_wait_seconds_count"),
        Some(1.0),
        "{after}"
    );
    assert_eq!(
        sample(&after, "punct_ai_jobs_running"),
        Some(0.0),
        "{after}"
    );
    // Every move was one update; the games were inserted.
    assert!(
        sample(&after, r#"punct_database_seconds_count{op="update"}"#) >= Some(4.0),
        "{after}"
    );
    assert_eq!(
        sample(&after, r#"punct_database_seconds_count{op="insert"}"#),
        Some(2.0),
        "{after}"
    );
    drop(socket);
}

/// Methods a client makes up are counted under `other`: no label, and so
/// no series kept for good, holds what a client sent.
#[test]
fn made_up_methods_grow_no_series() {
    use std::io::{Read, Write};
    let server = Server::start();
    for i in 0..40 {
        let method = format!("INVENTED{i}{}", "X".repeat(2_000));
        let mut tcp = std::net::TcpStream::connect(&server.addr).expect("connect");
        tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            tcp,
            "{method} /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .expect("send");
        let mut answer = String::new();
        let _ = tcp.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 4"), "{i}: {answer}");
    }
    let text = metrics(&server);
    assert!(
        !text.contains("INVENTED"),
        "a made-up method became a label"
    );
    let others: f64 = text
        .lines()
        .filter(|l| l.starts_with(r#"punct_http_requests_total{method="other""#))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(others, 40.0, "{text}");
}

/// Readiness is a real write: while the database file is locked by
/// another writer the instance cannot save, and says so (503); once the
/// lock goes, it is ready again.
#[test]
fn the_readiness_check_fails_while_writes_fail() {
    if on_postgres() {
        return; // the lock taken here is SQLite's
    }
    let dir = common::TempDir::new("readiness");
    let server = Server::builder().data_dir(dir.path()).start();
    assert_eq!(server.get("/api/health").0, 200);
    let db = rusqlite::Connection::open(dir.path().join("games.sqlite3")).unwrap();
    db.execute_batch("BEGIN EXCLUSIVE").unwrap();
    // (A second passes, so no earlier answer is reused.)
    std::thread::sleep(Duration::from_millis(1100));
    let (status, body) = server.get("/api/health");
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["status"], "unavailable", "{body}");
    assert!(
        body["database"]["error"]
            .as_str()
            .is_some_and(|e| !e.is_empty()),
        "{body}"
    );
    db.execute_batch("COMMIT").unwrap();
    server.wait_ready(Duration::from_secs(20));
}
