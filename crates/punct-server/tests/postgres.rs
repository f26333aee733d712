//! The PostgreSQL backend through the real binary and a real PostgreSQL
//! (the throwaway cluster of `scripts/test.sh`): `punct serve` checks the
//! schema at start and says how to migrate; `punct db migrate` applies it
//! once and refuses databases that are not PÜNCT's or are newer; `punct db
//! copy` moves every game between SQLite and PostgreSQL losslessly, and
//! never overwrites a game. Without a cluster these tests say so and pass
//! (`scripts/test.sh` always gives them one, and requires it).

mod common;

use common::{cluster_for as cluster, postgres_database, punct_bin, Server, TempDir};
use rusqlite::Connection;
use serde_json::json;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A database name no other test of this run uses.
fn fresh_name(tag: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!(
        "punct_pg_{tag}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

/// An empty database (no schema) and its URL.
fn empty_database(cluster: &str, tag: &str) -> String {
    let name = fresh_name(tag);
    psql(cluster, &format!("CREATE DATABASE {name}"));
    let base = cluster.rsplit_once('/').unwrap().0;
    format!("{base}/{name}")
}

/// Runs SQL with psql; its output (unaligned, tuples only).
fn psql(url: &str, sql: &str) -> String {
    common::psql(url, sql).unwrap_or_else(|e| panic!("psql {sql}: {e}"))
}

fn punct(args: &[&str]) -> Output {
    Command::new(punct_bin())
        .env_remove("PUNCT_DATABASE_URL")
        .args(args)
        .output()
        .expect("cannot run punct")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `punct serve` on `url` that must refuse to start; its stderr.
fn serve_refuses(url: &str) -> String {
    let out = punct(&["serve", "--port", "0", "--database", url]);
    let (stdout, stderr) = text(&out);
    assert!(
        !out.status.success(),
        "punct serve started on {url}: {stdout}"
    );
    assert!(
        !stdout.contains("open http"),
        "it listened before refusing: {stdout}"
    );
    stderr
}

#[test]
fn serve_refuses_a_database_without_the_schema_and_says_how_to_migrate() {
    let Some(cluster) = cluster("serve_refuses_a_database_without_the_schema") else {
        return;
    };
    let url = empty_database(&cluster, "empty");
    let said = serve_refuses(&url);
    assert!(said.contains("has no PÜNCT tables yet"), "{said}");
    assert!(
        said.contains(&format!("punct db migrate --database '{url}'")),
        "the message gives the command: {said}"
    );
    // Nothing was made by the refused start.
    assert_eq!(
        psql(
            &url,
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ),
        "0"
    );
    // Migrated once, it serves; migrating again changes nothing.
    let out = punct(&["db", "migrate", "--database", &url]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains(
            "applied schema versions 1 (games), 2 (jobs), 3 (instances), 4 (presence), 5 (job_progress), 6 (accounts), 7 (lobby), 8 (ceremonies), 9 (challenges), 10 (chat), 11 (conduct), 12 (notifications); now at 12"
        ),
        "{stdout}"
    );
    let out = punct(&["db", "migrate", "--database", &url]);
    let (stdout, _) = text(&out);
    assert!(stdout.contains("nothing to do"), "{stdout}");
    assert_eq!(
        psql(&url, "SELECT count(*) FROM refinery_schema_history"),
        "12"
    );
}

#[test]
fn a_database_of_a_newer_punct_is_refused() {
    let Some(cluster) = cluster("a_database_of_a_newer_punct_is_refused") else {
        return;
    };
    let url = empty_database(&cluster, "newer");
    assert!(punct(&["db", "migrate", "--database", &url])
        .status
        .success());
    psql(
        &url,
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) \
         VALUES (99, 'from_the_future', '2030-01-01T00:00:00Z', '1')",
    );
    let said = serve_refuses(&url);
    assert!(said.contains("written by a newer punct"), "{said}");
    assert!(said.contains("schema version 99"), "{said}");
    // Migrating does not touch it either.
    let out = punct(&["db", "migrate", "--database", &url]);
    assert!(!out.status.success(), "{:?}", text(&out));
    assert_eq!(
        psql(&url, "SELECT count(*) FROM refinery_schema_history"),
        "13"
    );
}

#[test]
fn a_database_with_other_tables_is_refused_untouched() {
    let Some(cluster) = cluster("a_database_with_other_tables_is_refused_untouched") else {
        return;
    };
    let url = empty_database(&cluster, "foreign");
    psql(&url, "CREATE TABLE users (name TEXT)");
    let said = serve_refuses(&url);
    assert!(said.contains("not a PÜNCT games database"), "{said}");
    assert!(
        said.contains("users"),
        "the message names its tables: {said}"
    );
    let out = punct(&["db", "migrate", "--database", &url]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("not a PÜNCT games database"), "{stderr}");
    assert_eq!(
        psql(&url, "SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = 'public'"),
        "users"
    );
}

#[test]
fn an_unreachable_database_is_a_clear_error() {
    // A port nothing listens on (bound, then let go).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://punct@127.0.0.1:{port}/games");
    let said = serve_refuses(&url);
    assert!(
        said.contains(&format!(
            "cannot connect to PostgreSQL database games on 127.0.0.1:{port}"
        )),
        "{said}"
    );
    let out = punct(&["serve", "--database", "mysql://x"]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("is not a database"), "{stderr}");
}

/// Every stored game of an SQLite file, every column as text, by id.
fn sqlite_rows(file: &Path) -> Vec<Vec<String>> {
    let conn = Connection::open(file).unwrap();
    let mut stmt = conn.prepare("SELECT * FROM games ORDER BY id").unwrap();
    let columns = stmt.column_count();
    stmt.query_map([], |r| {
        (0..columns)
            .map(|i| {
                Ok(match r.get_ref(i)? {
                    rusqlite::types::ValueRef::Null => "NULL".to_string(),
                    rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                    rusqlite::types::ValueRef::Real(x) => x.to_string(),
                    rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    rusqlite::types::ValueRef::Blob(_) => "BLOB".to_string(),
                })
            })
            .collect()
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// Games of every kind the server stores, made through its API; their ids.
fn play_some_games(server: &Server) -> Vec<String> {
    let mut ids = Vec::new();
    // Two people at one screen, a few moves, one resigned.
    let g = server.create(json!({"mode": "hotseat", "name": "Ana ü 日本"}));
    let token = g.white.clone().unwrap();
    for _ in 0..4 {
        let state = server.state(&g.id);
        let mv = common::legal_moves(&state)[0].clone();
        server.play_ok(&g.id, &token, &mv);
    }
    ids.push(g.id);
    let g = server.create(json!({"mode": "hotseat", "variant": "basic"}));
    let (status, body) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": g.white.clone().unwrap()}),
    );
    assert_eq!(status, 200, "{body}");
    ids.push(g.id);
    // Online, timed, both seats taken, an invite-less seat and a clock.
    let g = server.create_online_clock(json!({"type": "realtime", "initial": 300, "increment": 2}));
    let state = server.state(&g.id);
    let mv = common::legal_moves(&state)[0].clone();
    server.play_ok(&g.id, g.white.as_deref().unwrap(), &mv);
    ids.push(g.id);
    // Online with the second seat still open (its invite stored).
    ids.push(server.create(json!({"mode": "online", "name": "Bo"})).id);
    // Against the AI, after its answer.
    let g = server.create(json!({"mode": "ai", "level": 1, "side": "white"}));
    let state = server.state(&g.id);
    let mv = common::legal_moves(&state)[0].clone();
    server.play_ok(&g.id, g.white.as_deref().unwrap(), &mv);
    server.wait_for(&g.id, std::time::Duration::from_secs(30), |s| {
        common::ply(s) == 2
    });
    ids.push(g.id);
    // An imported record, with its own tags.
    let record = "[Event \"Copy test\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"*\"]\n\n*\n";
    let (status, body) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{body}");
    ids.push(body["id"].as_str().unwrap().to_string());
    ids
}

#[test]
fn db_copy_moves_every_game_between_sqlite_and_postgres_losslessly() {
    let Some(_cluster) = cluster("db_copy_moves_every_game_losslessly") else {
        return;
    };
    let dir = TempDir::new("copy-from");
    let ids;
    let mut states = Vec::new();
    {
        // A server of its own on SQLite, whatever backend this run tests.
        let file = format!("sqlite:{}", dir.path().join("games.sqlite3").display());
        let server = Server::builder()
            .data_dir(dir.path())
            .flags(&["--database", &file])
            .start();
        ids = play_some_games(&server);
        for id in &ids {
            states.push(server.state(id));
        }
    }
    let source = dir.path().join("games.sqlite3");
    let pg = postgres_database(&fresh_name("copy"));
    let out = punct(&[
        "db",
        "copy",
        "--from",
        &format!("sqlite:{}", source.display()),
        "--to",
        &pg,
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains(&format!("copied {} games", ids.len())),
        "{stdout}"
    );
    // Served from PostgreSQL, every game reads as it did from SQLite.
    {
        let back = Server::builder().flags(&["--database", &pg]).start();
        for (id, before) in ids.iter().zip(&states) {
            let mut now = back.state(id);
            let mut before = before.clone();
            // (A running clock's reading depends on when it is read.)
            for s in [&mut now, &mut before] {
                if let Some(o) = s.as_object_mut() {
                    o.remove("clock");
                    o.remove("now");
                }
            }
            assert_eq!(now, before, "game {id} differs after the copy");
        }
    }
    // And back into a new SQLite file: the very same rows, column for column.
    let again = TempDir::new("copy-to");
    let target = again.path().join("games.sqlite3");
    let out = punct(&[
        "db",
        "copy",
        "--from",
        &pg,
        "--to",
        &format!("sqlite:{}", target.display()),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(sqlite_rows(&target), sqlite_rows(&source));

    // Copying again writes nothing and says so.
    let out = punct(&[
        "db",
        "copy",
        "--from",
        &format!("sqlite:{}", source.display()),
        "--to",
        &pg,
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains(&"copied 0 games".to_string())
            && stdout.contains(&format!("{} already there", ids.len())),
        "{stdout}"
    );
    // A game that differs in the target is never overwritten.
    psql(
        &pg,
        &format!(
            "UPDATE games SET white_name = 'Changed' WHERE id = '{}'",
            ids[0]
        ),
    );
    let out = punct(&[
        "db",
        "copy",
        "--from",
        &format!("sqlite:{}", source.display()),
        "--to",
        &pg,
    ]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("game {} is in both databases and differs", ids[0])),
        "{stderr}"
    );
    assert_eq!(
        psql(
            &pg,
            &format!("SELECT white_name FROM games WHERE id = '{}'", ids[0])
        ),
        "Changed"
    );
}

#[test]
fn two_instances_race_one_ply_and_each_sees_the_others_moves() {
    let Some(_) = cluster("two_instances_race_one_ply") else {
        return;
    };
    let pg = postgres_database(&fresh_name("two"));
    let a = Server::builder().flags(&["--database", &pg]).start();
    let b = Server::builder().flags(&["--database", &pg]).start();
    let g = a.create(json!({"mode": "hotseat"}));
    let token = g.white.clone().unwrap();
    // Both instances hold the game in memory.
    let state = b.state(&g.id);
    let legal = common::legal_moves(&state);
    // Both play ply 0: exactly one lands.
    let (first, _) = a.play(&g.id, &token, &legal[0]);
    assert_eq!(first, 200);
    let (second, body) = b.post(
        &format!("/api/games/{}/moves", g.id),
        &json!({"token": token, "move": legal[1], "ply": 0}),
    );
    assert_eq!(second, 409, "the second move on ply 0: {body}");
    // B has read the game again: it shows A's move, and plays on from it.
    let state = b.state(&g.id);
    assert_eq!(common::moves(&state), vec![legal[0].clone()]);
    // A watcher on A, which holds the game in memory at ply 1.
    let mut watcher = a.live(&g.id);
    watcher.recv_state_at(1);
    let next = common::legal_moves(&state)[0].clone();
    let (status, body) = b.play(&g.id, &token, &next);
    assert_eq!(status, 200, "{body}");
    // A hears of B's move through the database and pushes it to its socket.
    let pushed = watcher.recv_state_at(2);
    assert_eq!(common::moves(&pushed), vec![legal[0].clone(), next.clone()]);
    assert_eq!(common::ply(&a.state(&g.id)), 2);
}

#[test]
fn the_readiness_check_fails_while_the_database_refuses_and_recovers() {
    let Some(cluster) = cluster("the_readiness_check_fails_while_the_database_refuses") else {
        return;
    };
    let name = fresh_name("health");
    let url = postgres_database(&name);
    let server = Server::builder().flags(&["--database", &url]).start();
    let (status, body) = server.get("/api/health");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["database"]["kind"], "postgres");
    // The database takes no connections, and its open ones are cut.
    psql(
        &cluster,
        &format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false"),
    );
    psql(
        &cluster,
        &format!("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '{name}'"),
    );
    // Checks within a second share one answer: this one asks anew.
    std::thread::sleep(Duration::from_millis(1100));
    let (status, body) = server.get("/api/health");
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["status"], "unavailable");
    let why = body["database"]["error"].as_str().unwrap();
    assert!(
        why.contains(&format!("PostgreSQL database {name}")),
        "{why}"
    );
    // Back: the pool connects again, and the check says so within a
    // second or two (its last answer is reused for a second).
    psql(
        &cluster,
        &format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"),
    );
    server.wait_ready(Duration::from_secs(10));
    // The heartbeat is a write: this instance's row.
    assert_eq!(psql(&url, "SELECT count(*) FROM instances"), "1");
}
