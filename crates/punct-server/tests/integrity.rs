//! The games database's integrity, through the real `punct serve`: a
//! database it cannot use (a newer schema, someone else's tables, not
//! SQLite at all) stops it at start with a message, never touched; a
//! database of the release before schema versions is migrated and its
//! games play on; a damaged stored game is a JSON error naming the move;
//! new games never share an id.

mod common;

use common::{assert_error, http_agent, legal_moves, moves, punct_bin, try_post, Server, TempDir};
use punct_core::{Move, Position, Variant};
use rusqlite::Connection;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long `punct serve` may take to start or to give up.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The schema of version 1, as the release before schema versions made it
/// (`PRAGMA user_version` left at 0): the file the server migrates from.
const V1_SCHEMA: &str = include_str!("../../punct-store/src/sqlite/1.sql");

// ------------------------------------------------------------ helpers

/// `punct serve` on a data directory, its stdout and stderr captured.
struct Serve {
    child: Child,
    /// The first stdout line (the address once it listens); `None` when
    /// stdout closed first (it exited).
    first_line: mpsc::Receiver<Option<String>>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

/// How a start went.
enum Started {
    /// It listens at this address (`127.0.0.1:PORT`).
    Listening(String),
    /// It exited by itself, with this status.
    Exited(ExitStatus),
}

impl Serve {
    fn spawn(data_dir: &Path) -> Serve {
        let mut child = Command::new(punct_bin())
            .args(["serve", "--port", "0", "--ai-movetime", "50", "--data-dir"])
            .arg(data_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start punct serve");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, first_line) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = tx.send(lines.next().and_then(Result::ok));
            // Keep draining so the server never blocks on a full pipe.
            for _ in lines {}
        });
        let mut err = child.stderr.take().expect("piped stderr");
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        Serve {
            child,
            first_line,
            stderr: Some(stderr),
        }
    }

    /// Waits until it listens or exits (panics if neither happens in time).
    fn started(&mut self) -> Started {
        let deadline = Instant::now() + START_TIMEOUT;
        match self.first_line.recv_timeout(START_TIMEOUT) {
            Ok(Some(line)) => {
                let addr = common::listening_addr(&line)
                    .unwrap_or_else(|| panic!("unexpected first line from punct serve: {line:?}"));
                return Started::Listening(addr);
            }
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("punct serve neither listened nor exited within {START_TIMEOUT:?}")
            }
        }
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for punct serve") {
                return Started::Exited(status);
            }
            assert!(
                Instant::now() < deadline,
                "punct serve closed its stdout but did not exit"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Stops it (SIGKILL, if it still runs) and returns all it wrote to
    /// stderr.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.stderr
            .take()
            .expect("stderr is read once")
            .join()
            .expect("the stderr reader")
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `punct serve` on `data_dir`, which must make it refuse to start:
/// returns its exit status and stderr.
fn refused_start(data_dir: &Path) -> (ExitStatus, String) {
    punct_bin(); // built before the clock starts
    let begun = Instant::now();
    let mut serve = Serve::spawn(data_dir);
    let status = match serve.started() {
        Started::Exited(status) => status,
        Started::Listening(addr) => panic!(
            "punct serve started on {addr} with {}; stderr: {}",
            data_dir.display(),
            serve.stop()
        ),
    };
    assert!(
        begun.elapsed() < Duration::from_secs(20),
        "it took {:?} to give up",
        begun.elapsed()
    );
    (status, serve.stop())
}

/// Asserts a refusal: a failure status (not a crash) and `want` on stderr.
#[track_caller]
fn assert_refused(status: ExitStatus, stderr: &str, want: &str) {
    assert!(
        status.code().is_some_and(|c| c != 0 && c != 101),
        "exit status {status:?}, stderr: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "it panicked: {stderr}");
    assert!(stderr.contains(want), "stderr lacks {want:?}: {stderr}");
}

fn db_path(dir: &Path) -> PathBuf {
    dir.join("games.sqlite3")
}

fn user_version(path: &Path) -> i64 {
    Connection::open(path)
        .expect("open the database")
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("read user_version")
}

/// Sets the stored moves of game `id` (the server must be stopped).
fn set_moves(dir: &Path, id: &str, moves: &str) {
    let changed = Connection::open(db_path(dir))
        .expect("open the database")
        .execute("UPDATE games SET moves = ?1 WHERE id = ?2", [moves, id])
        .expect("edit the moves");
    assert_eq!(changed, 1, "game {id} is stored");
}

/// The error message of a JSON error answer.
fn message(answer: &(u16, Value)) -> &str {
    answer.1["error"]["message"].as_str().unwrap_or_default()
}

// ------------------------------------------------------------ refusals

#[test]
fn a_database_of_a_newer_schema_stops_the_server_at_start_untouched() {
    let dir = TempDir::new("newer");
    let db = db_path(dir.path());
    Connection::open(&db)
        .unwrap()
        .execute_batch(&format!(
            "{V1_SCHEMA} ALTER TABLE games ADD COLUMN future TEXT; PRAGMA user_version = 11;"
        ))
        .unwrap();
    let before = std::fs::read(&db).unwrap();
    let (status, stderr) = refused_start(dir.path());
    assert_refused(
        status,
        &stderr,
        &format!(
            "database {} was written by a newer punct (schema version 11; this punct knows \
             versions up to 10): upgrade punct, or start with another --data-dir",
            db.display()
        ),
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "the file is untouched");
    assert_eq!(user_version(&db), 11);
}

#[test]
fn a_database_of_another_schema_stops_the_server_at_start() {
    let cases = [
        (
            V1_SCHEMA.replace("moves       TEXT NOT NULL,", ""),
            "is not a PÜNCT games database: table games has no column `moves`",
        ),
        (
            "CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB);".to_string(),
            "is not a PÜNCT games database: it has no table `games` (its tables: `photos`)",
        ),
    ];
    for (sql, want) in cases {
        let dir = TempDir::new("foreign");
        let db = db_path(dir.path());
        Connection::open(&db).unwrap().execute_batch(&sql).unwrap();
        let before = std::fs::read(&db).unwrap();
        let (status, stderr) = refused_start(dir.path());
        assert_refused(
            status,
            &stderr,
            &format!("database {} {want}", db.display()),
        );
        assert_eq!(std::fs::read(&db).unwrap(), before, "the file is untouched");
    }
}

#[test]
fn a_file_that_is_not_sqlite_stops_the_server_at_start() {
    let dir = TempDir::new("notdb");
    let db = db_path(dir.path());
    let text = "PÜNCT notes: not a database at all\n".repeat(50);
    std::fs::write(&db, &text).unwrap();
    let (status, stderr) = refused_start(dir.path());
    assert_refused(
        status,
        &stderr,
        &format!(
            "database {} is not an SQLite database (SQLite: file is not a database): move it \
             away, or start with another --data-dir",
            db.display()
        ),
    );
    assert_eq!(std::fs::read_to_string(&db).unwrap(), text);
}

// ------------------------------------------------------------ migration

#[test]
fn a_version_1_database_is_migrated_and_its_game_plays_on() {
    let dir = TempDir::new("v1");
    let db = db_path(dir.path());
    // An online game two plies in, as the previous release stored it.
    let mut pos = Position::new(Variant::Standard);
    let start = pos.to_position_string();
    let first: Move = "C@B7/2".parse().unwrap();
    pos.play(first).unwrap();
    let second = pos.legal_moves()[0];
    pos.play(second).unwrap();
    let played = vec![first.to_string(), second.to_string()];
    {
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(V1_SCHEMA).unwrap();
        conn.execute(
            "INSERT INTO games VALUES ('oldgame1', 'standard', 'online', NULL, NULL, \
             'whitetoken1', 'blacktoken1', ?1, ?2, NULL, NULL, NULL, NULL, \
             1700000000000, 1700000000500, 3, 'ongoing', 2)",
            [start.as_str(), played.join(" ").as_str()],
        )
        .unwrap();
    }
    assert_eq!(user_version(&db), 0);

    let mut serve = Serve::spawn(dir.path());
    let addr = match serve.started() {
        Started::Listening(addr) => addr,
        Started::Exited(status) => panic!("exited {status:?}: {}", serve.stop()),
    };
    let agent = http_agent();
    let url = |path: &str| format!("http://{addr}{path}");
    let get = |path: &str| -> (u16, Value) {
        let mut resp = agent.get(url(path)).call().expect("GET");
        let status = resp.status().as_u16();
        (status, resp.body_mut().read_json().expect("a JSON answer"))
    };

    let (status, state) = get("/api/games/oldgame1");
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state), played);
    assert_eq!(state["ply"], 2);
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["status"], "ongoing");
    assert_eq!(state["version"], 3);
    let (status, list) = get("/api/games");
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["games"][0]["id"], "oldgame1", "{list}");

    // The old tokens still hold their seats, and the game goes on.
    let third = legal_moves(&state)[0].clone();
    let (status, after) = try_post(
        &agent,
        &url("/api/games/oldgame1/moves"),
        &json!({"move": third, "token": "blacktoken1"}),
    )
    .unwrap();
    assert_error(&(status, after), 409, "not_your_turn");
    let (status, after) = try_post(
        &agent,
        &url("/api/games/oldgame1/moves"),
        &json!({"move": third, "token": "whitetoken1"}),
    )
    .unwrap();
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["ply"], 3);
    assert_eq!(after["version"], 4);

    let stderr = serve.stop();
    assert!(
        stderr.contains(&format!(
            "migrated database {} from schema version 1 to 10",
            db.display()
        )),
        "no word of the migration on stderr: {stderr}"
    );
    assert_eq!(user_version(&db), 10);
    let (stored, invite, imported, tags): (String, Option<String>, i64, Option<String>) =
        Connection::open(&db)
            .unwrap()
            .query_row(
                "SELECT moves, invite, imported, tags FROM games WHERE id = 'oldgame1'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
    assert_eq!(stored, format!("{} {third}", played.join(" ")));
    assert_eq!((invite, imported, tags), (None, 0, None));

    // Started again, it finds version 2: nothing to migrate, nothing said.
    let mut serve = Serve::spawn(dir.path());
    assert!(matches!(serve.started(), Started::Listening(_)));
    let stderr = serve.stop();
    assert!(!stderr.contains("migrated"), "migrated twice: {stderr}");
}

// ------------------------------------------------------------ damaged games

#[test]
fn a_damaged_stored_game_is_a_json_error_naming_the_move() {
    let dir = TempDir::new("damaged");
    let mut server = Server::builder().data_dir(dir.path()).start();
    let mut games = Vec::new();
    for _ in 0..4 {
        let g = server.create_online();
        let mut state = server.state(&g.id);
        let mut played = Vec::new();
        for side in ["white", "black", "white", "black"] {
            let mv = legal_moves(&state)[0].clone();
            state = server.play_ok(&g.id, g.token(side), &mv);
            played.push(mv);
        }
        games.push((g, played));
    }
    server.kill();

    let [(first, _), (third, played), (illegal, played_i), (sound, sound_moves)] = &games[..]
    else {
        unreachable!()
    };
    set_moves(dir.path(), &first.id, "XYZ C@B7/2");
    set_moves(
        dir.path(),
        &third.id,
        &format!("{} {} XYZ {}", played[0], played[1], played[3]),
    );
    // Well-formed but illegal at ply 3: moving a piece from an empty cell.
    let mut pos = Position::new(Variant::Standard);
    pos.play(played_i[0].parse().unwrap()).unwrap();
    pos.play(played_i[1].parse().unwrap()).unwrap();
    let bad: Move = "G5-G9/4".parse().unwrap();
    assert!(pos.play(bad).is_err(), "{bad} must be illegal here");
    set_moves(
        dir.path(),
        &illegal.id,
        &format!("{} {} {bad}", played_i[0], played_i[1]),
    );

    let server = Server::builder().data_dir(dir.path()).start();
    let answer = server.get(&format!("/api/games/{}", first.id));
    assert_error(&answer, 500, "internal");
    let m = message(&answer);
    assert!(m.contains(&first.id), "{m}");
    assert!(m.contains("move 1") && m.contains("XYZ"), "{m}");
    assert!(!m.contains("move 2"), "{m}");

    let answer = server.get(&format!("/api/games/{}", third.id));
    assert_error(&answer, 500, "internal");
    let m = message(&answer);
    assert!(m.contains(&third.id), "{m}");
    assert!(m.contains("move 3") && m.contains("XYZ"), "{m}");

    let answer = server.get(&format!("/api/games/{}", illegal.id));
    assert_error(&answer, 500, "internal");
    let m = message(&answer);
    assert!(m.contains(&illegal.id), "{m}");
    assert!(
        (m.contains("move 3") || m.contains("ply 3")) && m.contains(&bad.to_string()),
        "{m}"
    );

    // The damage stays with those games: moving in one is refused the same
    // way, and the others are served and played as before.
    let answer = server.play(&first.id, first.white(), "C@B7/2");
    assert_error(&answer, 500, "internal");
    let state = server.state(&sound.id);
    assert_eq!(&moves(&state), sound_moves);
    let mv = legal_moves(&state)[0].clone();
    assert_eq!(server.play_ok(&sound.id, sound.white(), &mv)["ply"], 5);
    let (status, list) = server.get("/api/games?limit=10");
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["games"].as_array().map(Vec::len), Some(4), "{list}");
}

// ------------------------------------------------------------ ids

#[test]
fn every_new_game_gets_its_own_id_and_all_load_back() {
    let dir = TempDir::new("ids");
    let flags = ["--rate-create", "off"];
    let mut server = Server::builder().data_dir(dir.path()).flags(&flags).start();
    let mut created = Vec::new();
    for i in 0..300 {
        let mode = if i % 2 == 0 { "online" } else { "hotseat" };
        created.push(server.create(json!({"mode": mode})));
    }
    let ids: HashSet<&str> = created.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids.len(), 300, "every id differs");
    let (status, list) = server.get("/api/games?limit=500");
    assert_eq!(status, 200, "{list}");
    let listed: HashSet<&str> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(listed, ids);

    // Read back from the database, not from memory: a fresh server.
    server.kill();
    let count: i64 = Connection::open(db_path(dir.path()))
        .unwrap()
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 300);
    let server = Server::builder().data_dir(dir.path()).flags(&flags).start();
    for g in &created {
        let state = server.state(&g.id);
        assert_eq!(state["id"], g.id.as_str());
        assert_eq!(state["ply"], 0);
        assert_eq!(state["mode"], g.body["game"]["mode"]);
        // Each game's tokens are its own.
        let seat = g.white.as_deref().expect("a white seat token");
        let you = server.get(&format!("/api/games/{}?token={seat}", g.id)).1;
        assert_eq!(you["you"][0], "white", "{}", g.id);
    }
}
