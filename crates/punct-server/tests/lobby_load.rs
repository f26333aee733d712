//! The lobby under load, for docs/PERFORMANCE.md: printed, not judged
//! (timings belong in the figures, not in assertions).
//!
//! - Pairing latency: two lobby sockets choose the same quick pairing; the
//!   time from the second one's request to both having their `paired`
//!   message (the page then opens the game). On one server, and across two
//!   instances sharing PostgreSQL (where `PUNCT_TEST_DATABASE_URL` names a
//!   cluster). Every round must make one game both hold.
//! - The lobby with many seeks and watchers (`--ignored`): 1,000 open
//!   seeks and 500 watching sockets; what each seek change costs each
//!   watcher in bytes, and the server in CPU time.
//!
//! `cargo test -p punct-server --test lobby_load -- --nocapture`
//! (`-- --ignored --nocapture` for the big one).

mod common;

use common::{cluster_for, postgres_database, Server, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Rate limits and caps off: the load is the point.
const OPEN: [&str; 12] = [
    "--ws-per-client",
    "1000000",
    "--rate-websocket",
    "off",
    "--rate-create",
    "off",
    "--max-connections",
    "1000000",
    "--max-connections-per-client",
    "1000000",
    "--rate-read",
    "off",
];

fn lobby(server: &Server) -> Ws {
    common::lobby_socket(server, None).0
}

fn next(ws: &mut Ws, kind: &str) -> Value {
    common::next_of(ws, kind)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// `rounds` pairings of a socket on `a` with one on `b`: the latencies.
fn pairings(a: &Server, b: &Server, rounds: usize) -> Vec<Duration> {
    let clock = json!({"type": "realtime", "initial": 300, "increment": 3});
    let mut took = Vec::new();
    for round in 0..rounds {
        let mut first = lobby(a);
        let mut second = lobby(b);
        first.send(&json!({"type": "pool", "clock": clock}));
        next(&mut first, "seeking");
        let start = Instant::now();
        second.send(&json!({"type": "pool", "clock": clock}));
        // The second's own answer may come before or after its pairing.
        let p2 = next(&mut second, "paired");
        let p1 = next(&mut first, "paired");
        took.push(start.elapsed());
        assert_eq!(p1["game"], p2["game"], "round {round}");
        assert_ne!(p1["side"], p2["side"], "round {round}");
    }
    took.sort();
    took
}

fn report(label: &str, took: &[Duration]) {
    println!(
        "{label}: {} pairings, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        took.len(),
        percentile(took, 0.5).as_secs_f64() * 1e3,
        percentile(took, 0.99).as_secs_f64() * 1e3,
        took.last().expect("some").as_secs_f64() * 1e3,
    );
}

#[test]
fn pairing_latency_on_one_server_and_across_instances() {
    let server = Server::builder().flags(&OPEN).start();
    report("one server (SQLite)", &pairings(&server, &server, 100));
    if cluster_for("pairing_latency_on_one_server_and_across_instances").is_none() {
        return;
    }
    let url = postgres_database(&format!("punct_lobby_load_{}", std::process::id()));
    let mut flags = OPEN.to_vec();
    flags.extend(["--database", url.as_str()]);
    let a = Server::builder().flags(&flags).start();
    let b = Server::builder().flags(&flags).start();
    report("one instance (PostgreSQL)", &pairings(&a, &a, 100));
    report("two instances (PostgreSQL)", &pairings(&a, &b, 100));
}

/// The server's CPU time so far (user + system, Linux), in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 =
        fields[11].parse::<f64>().expect("utime") + fields[12].parse::<f64>().expect("stime");
    ticks / 100.0
}

#[test]
#[ignore]
fn a_thousand_seeks_and_five_hundred_watchers() {
    const SEEKS: usize = 1000;
    const WATCHERS: usize = 500;
    let server = Server::builder().flags(&OPEN).start();
    let mut watchers: Vec<Ws> = (0..WATCHERS).map(|_| lobby(&server)).collect();
    // A socket holds three seeks at most.
    let mut seekers: Vec<Ws> = (0..SEEKS.div_ceil(3)).map(|_| lobby(&server)).collect();
    let clock = json!({"type": "realtime", "initial": 600, "increment": 5});
    let cpu_before = cpu_seconds(server.pid());
    let start = Instant::now();
    let mut ids = Vec::new();
    for i in 0..SEEKS {
        let ws = &mut seekers[i / 3];
        ws.send(&json!({"type": "seek", "clock": clock, "name": format!("Seeker{i}")}));
        ids.push(next(ws, "seeking")["seek"].clone());
    }
    // Every watcher hears every seek, one message each.
    let mut bytes = 0usize;
    for w in &mut watchers {
        for _ in 0..SEEKS {
            let text = w.try_recv_text().expect("an added seek");
            assert!(text.contains("\"added\""), "{text}");
            bytes += text.len();
        }
    }
    let added_in = start.elapsed();
    let cpu_added = cpu_seconds(server.pid()) - cpu_before;
    // The list a newcomer gets, whole.
    let newcomer = Ws::connect_with(&server.addr, "/api/lobby/live", &[]);
    let list = newcomer
        .expect("a socket")
        .try_recv_text()
        .expect("the list");
    println!(
        "{SEEKS} seeks added with {WATCHERS} watchers in {:.2} s: {:.0} bytes per watcher per \
         seek ({} messages), server CPU {:.1} ms per seek change ({:.1} µs per watcher message); \
         the whole list for a newcomer: {} KB",
        added_in.as_secs_f64(),
        bytes as f64 / (SEEKS * WATCHERS) as f64,
        SEEKS * WATCHERS,
        cpu_added * 1e3 / SEEKS as f64,
        cpu_added * 1e6 / (SEEKS * WATCHERS) as f64,
        list.len() / 1024,
    );
    // Withdrawals: one small message each.
    let cpu_before = cpu_seconds(server.pid());
    for (i, id) in ids.iter().enumerate().take(300) {
        let ws = &mut seekers[i / 3];
        ws.send(&json!({"type": "cancel", "seek": id}));
        next(ws, "cancelled");
    }
    let mut removed_bytes = 0usize;
    for w in &mut watchers {
        for _ in 0..300 {
            removed_bytes += w.try_recv_text().expect("a removal").len();
        }
    }
    println!(
        "300 seeks withdrawn: {:.0} bytes per watcher per removal, server CPU {:.1} ms per change",
        removed_bytes as f64 / (300 * WATCHERS) as f64,
        (cpu_seconds(server.pid()) - cpu_before) * 1e3 / 300.0,
    );
}
