//! The AI's workers under load, against the real binary: one client's
//! flood of AI games does not hold up another client's game, the queues
//! are bounded (429 `ai_busy` before anything changes), an analysis whose
//! client hung up stops at once, and an AI move that cannot be saved does
//! not leave its game "thinking" forever.

mod common;

use common::{assert_error, ply, Created, Server};
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// White's first move in the docs' example; legal at the start.
const FIRST: &str = "C@B7/2";

/// Two clients, told apart by `X-Forwarded-For` (servers run with
/// `--trust-proxy`).
const A: &str = "10.0.0.1";
const B: &str = "10.0.0.2";

fn create_as(server: &Server, ip: &str, spec: Value) -> (u16, ureq::http::HeaderMap, Value) {
    server.post_as(ip, "/api/games", &spec)
}

fn created_as(server: &Server, ip: &str, spec: Value) -> Created {
    let (status, _, body) = create_as(server, ip, spec.clone());
    assert_eq!(status, 201, "creating {spec} as {ip}: {body}");
    Created::from_json(body)
}

/// A 429 `ai_busy` with a `Retry-After` of at least a second.
#[track_caller]
fn assert_ai_busy(answer: (u16, ureq::http::HeaderMap, Value)) -> String {
    let (status, headers, body) = answer;
    assert_error(&(status, body.clone()), 429, "ai_busy");
    let retry: u64 = headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("a 429 without a Retry-After in seconds: {headers:?}"));
    assert!(retry >= 1, "Retry-After {retry}");
    body["error"]["message"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_flood_of_ai_games_does_not_hold_up_another_clients_game() {
    const MOVETIME: u64 = 300;
    const FLOOD: usize = 40;
    // Two workers, one job at a time per client (the default for two).
    let server = Server::builder()
        .ai_movetime(MOVETIME)
        .flags(&[
            "--ai-workers",
            "2",
            "--ai-queue-per-client",
            "100",
            "--rate-create",
            "off",
            "--rate-move",
            "off",
            "--trust-proxy",
        ])
        .start();
    let b = created_as(
        &server,
        B,
        json!({"mode": "ai", "level": 4, "side": "white"}),
    );

    // A's games all have the AI to move first: they all queue.
    let t0 = Instant::now();
    let flood: Vec<Created> = (0..FLOOD)
        .map(|_| {
            created_as(
                &server,
                A,
                json!({"mode": "ai", "level": 4, "side": "black"}),
            )
        })
        .collect();
    for g in &flood {
        assert_eq!(g.body["game"]["ai_thinking"], true, "{}", g.body["game"]);
    }
    let flooded = t0.elapsed();

    let moved = Instant::now();
    let (status, _, s) = server.post_as(
        B,
        &format!("/api/games/{}/moves", b.id),
        &json!({"move": FIRST, "token": b.white()}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["ai_thinking"], true);
    let answered = server.wait_for(&b.id, Duration::from_secs(60), |s| ply(s) == 2);
    let b_reply = moved.elapsed();
    assert_eq!(answered["ai_thinking"], false);

    // How far A's flood had got when B had its answer.
    let a_done_then = flood
        .iter()
        .filter(|g| ply(&server.state(&g.id)) >= 1)
        .count();
    let last = &flood[FLOOD - 1];
    let a_last = server.wait_for(&last.id, Duration::from_secs(60), |s| ply(s) == 1);
    let a_last_at = t0.elapsed();
    assert_eq!(a_last["ai_thinking"], false);
    eprintln!(
        "flood: {FLOOD} games of A created in {flooded:?}; B's AI reply {b_reply:?} after its \
         move (movetime {MOVETIME} ms); A's games answered by then: {a_done_then}; A's last game \
         answered {a_last_at:?} after the flood began"
    );

    // B's job started at once on the worker A may not use: about one
    // think time, where waiting behind the flood would take 20.
    assert!(
        b_reply < Duration::from_millis(MOVETIME + 1500),
        "B waited {b_reply:?} for the AI's reply"
    );
    // A's flood keeps to one worker: its last game comes much later.
    assert!(
        a_done_then < FLOOD / 2,
        "{a_done_then} of A's games were answered before B's"
    );
    assert!(
        a_last_at > flooded + b_reply,
        "A's last game was answered ({a_last_at:?}) before B's ({:?})",
        flooded + b_reply
    );
}

#[test]
fn a_clients_ai_queue_is_bounded_and_refusals_change_nothing() {
    // One worker thinking long enough that nothing leaves the queue
    // during the test.
    let server = Server::builder()
        .ai_movetime(5000)
        .flags(&[
            "--ai-workers",
            "1",
            "--ai-queue-per-client",
            "3",
            "--rate-create",
            "off",
            "--rate-move",
            "off",
            "--trust-proxy",
        ])
        .start();
    let ai_first = json!({"mode": "ai", "level": 4, "side": "black"});
    // A's own game where A moves first (no AI job yet).
    let mine = created_as(
        &server,
        A,
        json!({"mode": "ai", "level": 4, "side": "white"}),
    );
    // One running and three waiting.
    for _ in 0..4 {
        created_as(&server, A, ai_first.clone());
    }
    let message = assert_ai_busy(create_as(&server, A, ai_first.clone()));
    assert!(
        message.contains("too many games of yours waiting"),
        "{message}"
    );

    // A move that would need the AI is refused before it is played.
    let before = server.state(&mine.id);
    let path = format!("/api/games/{}/moves", mine.id);
    let refused = server.post_as(A, &path, &json!({"move": FIRST, "token": mine.white()}));
    assert_ai_busy(refused);
    let after = server.state(&mine.id);
    assert_eq!(after["ply"], 0, "the refused move was played");
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["ai_thinking"], false);

    // The refused game was not stored either: A has its five games.
    let (status, list) = server.get("/api/games?limit=50");
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["games"].as_array().map(Vec::len), Some(5), "{list}");

    // Another client is not refused: its games wait in a queue of its own.
    let theirs = created_as(&server, B, ai_first);
    assert_eq!(theirs.body["game"]["ai_thinking"], true);
    let other = created_as(
        &server,
        B,
        json!({"mode": "ai", "level": 4, "side": "white"}),
    );
    let (status, _, s) = server.post_as(
        B,
        &format!("/api/games/{}/moves", other.id),
        &json!({"move": FIRST, "token": other.white()}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["ai_thinking"], true);
}

#[test]
fn analyses_whose_clients_hung_up_stop_at_once() {
    let server = Server::builder()
        .ai_movetime(50)
        .flags(&[
            "--ai-workers",
            "1",
            "--rate-analyse",
            "off",
            "--trust-proxy",
        ])
        .start();
    // The longest analysis the server allows.
    let body = r#"{"movetime": 5000}"#;
    let request = format!(
        "POST /api/analyse HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    // Six analyses of 5 s from one client (one runs, five wait), which
    // hangs up on all of them.
    let sockets: Vec<TcpStream> = (0..6)
        .map(|_| {
            let mut s = TcpStream::connect(&server.addr).expect("connect");
            s.write_all(request.as_bytes()).expect("send the request");
            s
        })
        .collect();
    // All six are in: one running, five waiting.
    let ai_jobs = || {
        let (status, _, text) = server.request("GET", "/metrics");
        assert_eq!(status, 200);
        let value = |name: &str| -> u64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
                .unwrap_or_else(|| panic!("{name} in {text}"))
        };
        (
            value("punct_ai_jobs_running"),
            value("punct_ai_jobs_waiting"),
        )
    };
    let mut seen = (0, 0);
    for _ in 0..400 {
        seen = ai_jobs();
        if seen == (1, 5) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(seen, (1, 5), "the six analyses queued");
    drop(sockets);

    // Left to run, they would hold the worker for 30 s (six times 5 s);
    // stopped at the hang-up, the queue empties as soon as the server
    // notices (the patience here is half that, for a loaded machine).
    let hung_up = Instant::now();
    while ai_jobs() != (0, 0) {
        assert!(
            hung_up.elapsed() < Duration::from_secs(15),
            "hung-up analyses still hold the AI: {:?}",
            ai_jobs()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "the hung-up analyses stopped within {:?}",
        hung_up.elapsed()
    );
    // A fresh client's analysis and the same client's are answered.
    let (status, _, body) = server.post_as("10.0.0.9", "/api/analyse", &json!({"movetime": 200}));
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.post("/api/analyse", &json!({"movetime": 200}));
    assert_eq!(status, 200, "{body}");
}

#[test]
fn an_ai_move_that_cannot_be_saved_is_tried_again_later() {
    let server = Server::builder().ai_movetime(300).flags(&[]).start();
    let g = server.create(json!({"mode": "ai", "level": 4, "side": "white"}));
    let s = server.play_ok(&g.id, g.white(), FIRST);
    assert_eq!(s["ai_thinking"], true);

    // Lock the database before the AI (300 ms) is done: its save waits
    // out the busy timeout (5 s) and fails, again and again.
    let db = rusqlite::Connection::open(server.data_dir.join("games.sqlite3")).expect("open db");
    db.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    db.execute_batch("BEGIN EXCLUSIVE")
        .expect("lock the database");
    let locked = Instant::now();

    let shown = server.wait_for(&g.id, Duration::from_secs(45), |s| {
        s["ai_thinking"] == false
    });
    let gave_up = locked.elapsed();
    assert_eq!(shown["ply"], 1, "the AI's move cannot have landed");
    let notice = shown["notice"].as_str().unwrap_or_default();
    assert!(notice.contains("could not be saved"), "{shown}");
    assert_eq!(shown["status"], "ongoing");

    db.execute_batch("ROLLBACK").expect("unlock the database");
    let unlocked = Instant::now();
    let done = server.wait_for(&g.id, Duration::from_secs(45), |s| ply(s) == 2);
    let landed = unlocked.elapsed();
    eprintln!(
        "save failure: the game stopped \"thinking\" {gave_up:?} after the lock; the AI's move \
         landed {landed:?} after the unlock"
    );
    assert_eq!(done["ai_thinking"], false);
    assert_eq!(done["notice"], Value::Null, "{done}");
    // It is really stored.
    let plies: i64 = db
        .query_row("SELECT plies FROM games WHERE id = ?1", [&g.id], |r| {
            r.get(0)
        })
        .expect("read the game");
    assert_eq!(plies, 2);
}
