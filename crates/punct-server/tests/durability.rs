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

/// The next `state` message on `ws` (time and presence skipped): its
/// game's version and ply.
fn next_state(ws: &mut common::Ws) -> (u64, u64) {
    let (msg, _) = ws.recv_until(|m| m["type"] == "state");
    let game = &msg["game"];
    (game["version"].as_u64().expect("a version"), ply(game))
}

/// Game `id`'s version and plies as the database holds them, read by
/// `db` (which may be the connection holding the lock).
fn stored(db: &rusqlite::Connection, id: &str) -> (i64, i64) {
    db.query_row(
        "SELECT version, plies FROM games WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .expect("read the game's row")
}

/// A player's change that cannot be committed — the database locked by
/// another connection beyond SQLite's own 5 s wait (503
/// `database_unavailable`, to be asked again), or refusing the write (a
/// trigger rolls the transaction back: 500 `internal`) — is answered
/// naming the failed write, leaves the game and
/// its version as they were (in memory and in the file), and reaches no
/// live socket; once the database takes writes again, the same change
/// succeeds, once. A move, a resignation and a draw offer, each in an
/// online game of its own.
#[test]
fn a_players_change_that_cannot_be_committed_changes_nothing_and_is_not_broadcast() {
    if common::on_postgres() {
        return; // the failures made here are SQLite's
    }
    let dir = TempDir::new("uncommitted");
    let server = Server::builder()
        .data_dir(dir.path())
        // Past SQLite's own wait (5 s), so the write fails rather than
        // the call timing out (tested above).
        .flags(&["--db-timeout", "30"])
        .start();
    let games: Vec<common::Created> = (0..3).map(|_| server.create_online()).collect();
    let mut sockets = Vec::new();
    let mut before = Vec::new();
    for g in &games {
        let s = server.play_ok(&g.id, g.white(), "C@B7/2");
        let mut ws = server.live(&g.id);
        assert_eq!(next_state(&mut ws), (s["version"].as_u64().unwrap(), 1));
        sockets.push(ws);
        before.push(s);
    }
    let mv = legal_moves(&before[0])[0].clone();
    // The three changes, each with the token that may make it.
    let changes: [(&str, Value); 3] = [
        ("moves", json!({"token": games[0].black(), "move": mv})),
        ("resign", json!({"token": games[1].black()})),
        (
            "draw",
            json!({"token": games[2].black(), "action": "offer"}),
        ),
    ];
    let send = |i: usize| {
        let (what, body) = &changes[i];
        server.post(&format!("/api/games/{}/{what}", games[i].id), body)
    };
    let db = rusqlite::Connection::open(dir.path().join("games.sqlite3")).unwrap();
    let rows: Vec<(i64, i64)> = games.iter().map(|g| stored(&db, &g.id)).collect();
    // Nothing changed: not the state served, not the row stored.
    let unchanged = |what: &str, db: &rusqlite::Connection| {
        for (i, g) in games.iter().enumerate() {
            let now = server.state(&g.id);
            for field in ["version", "ply", "moves", "status", "result", "draw_offer"] {
                assert_eq!(
                    now[field], before[i][field],
                    "{what}: {} {field}",
                    changes[i].0
                );
            }
            assert_eq!(
                stored(db, &g.id),
                rows[i],
                "{what}: the row of {}",
                changes[i].0
            );
        }
    };
    #[track_caller]
    fn failed(answer: &(u16, Value), cause: &str, status: u16, code: &str) {
        assert_error(answer, status, code);
        let message = answer.1["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("database write failed") && message.contains(cause),
            "{message}"
        );
    }

    // Another connection holds the file: the move waits out SQLite's
    // busy time, then fails.
    db.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let t0 = Instant::now();
    // Refused for now: to be asked again.
    failed(&send(0), "locked", 503, "database_unavailable");
    eprintln!(
        "a move against a locked database failed after {:?}",
        t0.elapsed()
    );
    unchanged("locked", &db);
    db.execute_batch("ROLLBACK").unwrap();

    // A write the database refuses at once: the transaction is rolled
    // back.
    db.execute_batch(
        "CREATE TRIGGER full BEFORE UPDATE ON games \
         BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END;",
    )
    .unwrap();
    for i in 0..3 {
        failed(&send(i), "disk is full", 500, "internal");
    }
    unchanged("refused", &db);
    db.execute_batch("DROP TRIGGER full").unwrap();

    // Nothing was shown: the first state each watcher gets is the one the
    // change makes now, then the next one (a phantom of a failed change
    // would come first, or twice).
    for i in 0..3 {
        let (status, body) = send(i);
        let what = changes[i].0;
        assert_eq!(status, 200, "{what}: {}", body["error"]);
        let version = before[i]["version"].as_u64().unwrap();
        assert_eq!(body["version"].as_u64(), Some(version + 1), "{what}");
        let ply = ply(&before[i]) + u64::from(i == 0);
        assert_eq!(next_state(&mut sockets[i]), (version + 1, ply), "{what}");
        let (status, named) = server.post(
            &format!("/api/games/{}/name", games[i].id),
            &json!({"token": games[i].white(), "name": "Ada"}),
        );
        assert_eq!(status, 200, "{}", named["error"]);
        assert_eq!(next_state(&mut sockets[i]), (version + 2, ply), "{what}");
        assert_eq!(
            stored(&db, &games[i].id),
            (rows[i].0 + 2, rows[i].1 + i64::from(i == 0))
        );
    }
    // Once: the move and the resignation again are refused.
    assert_error(&send(0), 409, "not_your_turn");
    assert_error(&send(1), 409, "game_over");
    assert_eq!(
        moves(&server.state(&games[0].id)),
        vec!["C@B7/2".to_string(), mv]
    );
    assert_eq!(server.state(&games[1].id)["result"]["winner"], "white");
    assert_eq!(server.state(&games[2].id)["draw_offer"], "black");
}
