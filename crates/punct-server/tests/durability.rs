//! What `punct serve` acknowledged survives the process dying: killed
//! with SIGKILL (no shutdown at all) and started again on the same data
//! directory, the server shows every acknowledged change and goes on.

mod common;

use common::{assert_error, legal_moves, moves, ply, try_post, Rng, Server, TempDir};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SIDES: [&str; 2] = ["white", "black"];

#[test]
fn acknowledged_moves_survive_sigkill() {
    let dir = TempDir::new("durable");
    let mut server = Server::builder().data_dir(dir.path()).start();
    let g = server.create_online();
    let over = server.create_online();
    let mut rng = Rng::new(11);
    let mut state = server.state(&g.id);
    let mut acked = Vec::new();
    for i in 0..20 {
        let mv = rng.pick(&legal_moves(&state)).clone();
        let (status, after) = server.play(&g.id, g.token(SIDES[i % 2]), &mv);
        assert_eq!(status, 200, "move {i} {mv}: {after}");
        acked.push(mv);
        state = after;
    }
    assert_eq!(moves(&state), acked);
    // Pending offers and finished games are kept too.
    let (status, offered) = server.action(&g.id, "draw", g.white(), "offer");
    assert_eq!(status, 200, "{offered}");
    let (status, resigned) = server.post(
        &format!("/api/games/{}/resign", over.id),
        &json!({"token": over.black()}),
    );
    assert_eq!(status, 200, "{resigned}");

    server.kill();
    assert!(
        server_gone(&server),
        "the killed server still answers at {}",
        server.base
    );

    let server = Server::builder().data_dir(dir.path()).start();
    let after = server.state(&g.id);
    assert_eq!(moves(&after), acked, "every acknowledged move, in order");
    assert_eq!(after["ply"], 20);
    assert_eq!(after["position"], state["position"]);
    assert_eq!(after["version"], offered["version"]);
    assert_eq!(after["draw_offer"], "white");
    assert_eq!(after["to_move"], "white");
    assert_eq!(legal_moves(&after), legal_moves(&state));
    let finished = server.state(&over.id);
    assert_eq!(finished["status"], "over");
    assert_eq!(finished["result"], resigned["result"]);

    // The game goes on where it stopped, with the same tokens.
    assert_error(
        &server.play(&g.id, g.black(), &legal_moves(&after)[0]),
        409,
        "not_your_turn",
    );
    let (status, answered) = server.action(&g.id, "draw", g.black(), "decline");
    assert_eq!(status, 200, "{answered}");
    let mv = rng.pick(&legal_moves(&after)).clone();
    let next = server.play_ok(&g.id, g.white(), &mv);
    assert_eq!(next["ply"], 21);
    assert_eq!(moves(&next)[..20], acked[..]);
    assert_error(&server.play(&over.id, over.white(), &mv), 409, "game_over");
}

/// Whether nothing answers at the server's address any more.
fn server_gone(server: &Server) -> bool {
    std::net::TcpStream::connect(&server.addr).is_err()
}

#[test]
fn a_kill_in_the_middle_of_moving_loses_no_acknowledged_move() {
    kill_in_the_middle_of_moving(&["--sync", "full"]);
}

#[test]
fn a_kill_in_the_middle_of_moving_loses_nothing_with_sync_normal() {
    // `normal` skips the disk flush; a killed process still loses nothing
    // the operating system was handed.
    kill_in_the_middle_of_moving(&["--sync", "normal"]);
}

fn kill_in_the_middle_of_moving(flags: &[&str]) {
    let dir = TempDir::new("midmove");
    let mut server = Server::builder().data_dir(dir.path()).flags(flags).start();
    let g = server.create_online();
    let start = server.state(&g.id);

    // A player moves as fast as it can until the server dies under it.
    let acked = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let player = {
        let (acked, stop, g) = (acked.clone(), stop.clone(), g.clone());
        let url = server.url(&format!("/api/games/{}/moves", g.id));
        std::thread::spawn(move || -> Result<(), String> {
            let agent = common::http_agent();
            let mut rng = Rng::new(5);
            let mut state = start;
            let mut i = 0;
            while !stop.load(Ordering::SeqCst) && state["status"] == "ongoing" {
                let mv = rng.pick(&legal_moves(&state)).clone();
                let body = json!({"move": mv, "token": g.token(SIDES[i % 2]), "ply": i});
                match try_post(&agent, &url, &body) {
                    Ok((200, after)) => {
                        acked.lock().unwrap().push(mv);
                        state = after;
                        i += 1;
                    }
                    Ok((status, body)) => return Err(format!("{status} {body}")),
                    // The server died: this move may or may not be kept.
                    Err(_) => return Ok(()),
                }
            }
            Ok(())
        })
    };
    let t0 = Instant::now();
    while acked.lock().unwrap().len() < 8 && t0.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill();
    stop.store(true, Ordering::SeqCst);
    player
        .join()
        .expect("the player thread")
        .expect("no refused move");
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 8,
        "only {} moves before the kill",
        acked.len()
    );

    let server = Server::builder().data_dir(dir.path()).flags(flags).start();
    let kept = moves(&server.state(&g.id));
    assert!(
        kept.len() == acked.len() || kept.len() == acked.len() + 1,
        "{} moves acknowledged, {} kept",
        acked.len(),
        kept.len()
    );
    assert_eq!(
        kept[..acked.len()],
        acked[..],
        "the acknowledged moves, in order"
    );
    let state = server.state(&g.id);
    let side = state["to_move"].as_str().expect("the game goes on");
    let mv = legal_moves(&state)[0].clone();
    assert_eq!(
        server.play_ok(&g.id, g.token(side), &mv)["ply"].as_u64(),
        Some(kept.len() as u64 + 1)
    );
}

/// The ply of game `id` in the list of games (which reads the database
/// without opening the game).
fn listed_ply(server: &Server, id: &str) -> Option<u64> {
    let (status, body) = server.get("/api/games?status=ongoing");
    assert_eq!(status, 200, "{body}");
    body["games"]
        .as_array()?
        .iter()
        .find(|g| g["id"] == id)
        .and_then(|g| g["ply"].as_u64())
}

#[test]
fn the_ai_moves_after_a_restart_when_it_was_its_turn() {
    let dir = TempDir::new("ai");
    let wait = Duration::from_secs(30);

    // First run: two rounds against the AI (level 4 uses all its time).
    let mut server = Server::builder().data_dir(dir.path()).start();
    let g = server.create(json!({"mode": "ai", "level": 4, "side": "white"}));
    let token = g.white();
    let mut rng = Rng::new(3);
    let mut state = server.state(&g.id);
    for round in 0..2u64 {
        let mv = rng.pick(&legal_moves(&state)).clone();
        server.play_ok(&g.id, token, &mv);
        state = server.wait_for(&g.id, wait, |s| ply(s) == 2 * round + 2);
    }
    let before = moves(&state);
    server.kill();

    // Second run: the AI thinks a minute per move; the server dies while
    // it thinks.
    let mut server = Server::builder()
        .data_dir(dir.path())
        .ai_movetime(60_000)
        .start();
    let s = server.state(&g.id);
    assert_eq!(moves(&s), before, "the AI's moves were kept");
    assert_eq!(s["ai_thinking"], false);
    let mv = rng.pick(&legal_moves(&s)).clone();
    let s = server.play_ok(&g.id, token, &mv);
    assert_eq!(s["ai_thinking"], true);
    std::thread::sleep(Duration::from_millis(300));
    let s = server.state(&g.id);
    assert_eq!(s["ply"], 5, "the AI is still thinking");
    assert_eq!(s["ai_thinking"], true);
    server.kill();

    // Third run: the AI answers by itself, before anyone opens the game.
    let server = Server::builder().data_dir(dir.path()).start();
    let t0 = Instant::now();
    while listed_ply(&server, &g.id) != Some(6) {
        assert!(
            t0.elapsed() < wait,
            "the AI did not move after the restart (ply {:?})",
            listed_ply(&server, &g.id)
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let s = server.state(&g.id);
    assert_eq!(moves(&s)[..4], before[..]);
    assert_eq!(moves(&s)[4], mv);
    assert_eq!(s["to_move"], "white");
    assert_eq!(s["ai_thinking"], false);
    let next = rng.pick(&legal_moves(&s)).clone();
    server.play_ok(&g.id, token, &next);
    server.wait_for(&g.id, wait, |s| ply(s) == 8 || s["status"] == "over");
}

#[cfg(unix)]
#[test]
fn sigterm_stops_promptly_with_live_sockets_open() {
    let dir = TempDir::new("term");
    let mut server = Server::builder().data_dir(dir.path()).start();
    let g = server.create_online();
    let s = server.play_ok(&g.id, g.white(), "C@B7/2");
    let mut watchers: Vec<common::Ws> = (0..3).map(|_| server.live(&g.id)).collect();
    for ws in &mut watchers {
        assert_eq!(ws.recv()["type"], "state");
    }
    server.terminate();
    let status = server
        .wait_exit(Duration::from_secs(10))
        .expect("the server still runs 10 s after SIGTERM");
    assert!(status.success(), "exit status {status}");
    for ws in &mut watchers {
        // The socket ends (a close frame or the connection closing).
        let end = ws.try_recv();
        assert!(end.is_err(), "a message after shutdown: {end:?}");
    }
    let server = Server::builder().data_dir(dir.path()).start();
    let after: Value = server.state(&g.id);
    assert_eq!(after["moves"], s["moves"]);
    assert_eq!(after["version"], s["version"]);
}

/// A stalled database holds no request and no game: past `--db-timeout`
/// the move is answered 503 `database_timeout` with `Retry-After`, the
/// game stays as it was, and once the database is back the same move
/// plays.
#[test]
fn a_stalled_database_gives_a_fast_503_and_leaves_the_game_as_it_was() {
    if common::on_postgres() {
        return; // the stall made here is SQLite's lock
    }
    let dir = TempDir::new("stalled");
    let server = Server::builder()
        .data_dir(dir.path())
        .flags(&["--db-timeout", "1"])
        .start();
    let g = server.create(json!({"mode": "hotseat"}));
    let token = g.white().to_string();
    let before = server.state(&g.id);
    let mv = legal_moves(&before)[0].clone();
    // Another writer holds the file (longer than SQLite's own 5 s wait,
    // so the stalled write fails rather than lands late).
    let db = rusqlite::Connection::open(dir.path().join("games.sqlite3")).unwrap();
    db.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let t0 = Instant::now();
    let (status, headers, body) = server.post_raw(
        &format!("/api/games/{}/moves", g.id),
        Some("application/json"),
        json!({"token": token, "move": mv, "ply": 0}).to_string(),
    );
    let waited = t0.elapsed();
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("database_timeout"), "{body}");
    assert!(headers.get("retry-after").is_some(), "{headers:?}");
    assert!(waited < Duration::from_secs(4), "held {waited:?}");
    // Reads of the game are not held behind it either.
    let during = server.state(&g.id);
    assert_eq!(during["version"], before["version"], "{during}");
    assert_eq!(ply(&during), 0);
    std::thread::sleep(Duration::from_secs(6).saturating_sub(t0.elapsed()));
    db.execute_batch("COMMIT").unwrap();
    drop(db);
    let after = server.play_ok(&g.id, &token, &mv);
    assert_eq!(ply(&after), 1);
    assert_eq!(moves(&after), vec![mv]);
}
