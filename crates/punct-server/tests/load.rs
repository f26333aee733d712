//! Many games at once over live sockets: 200 online games, a socket and a
//! thread per seat, each playing random legal moves. Every move must be
//! acknowledged and pushed; the round trip of each (sending the move to
//! seeing its new state on the mover's socket) is measured and printed
//! (`cargo test -p punct-server --release --test load -- --nocapture`), not
//! judged: timings belong in docs/PERFORMANCE.md, not in assertions.
//!
//! Two runs: players who think (half a second to a second and a half per
//! move, like quick people: the latency a player sees) and players who
//! answer at once (the throughput: every move queues behind the others).
//! The server runs with `--sync full` (the default) unless `PUNCT_LOAD_SYNC`
//! names another mode.

mod common;

use common::{moves, Rng, Server, Ws};
use serde::Deserialize;
use serde_json::json;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const GAMES: usize = 200;
/// Plies per game (or fewer if a game ends first).
const PLIES: u64 = 20;

/// What one seat's thread saw.
#[derive(Default)]
struct Seat {
    /// The moves it played, with the ply each was played at.
    played: Vec<(u64, String)>,
    /// Round trips of its moves.
    round_trips: Vec<Duration>,
    errors: Vec<String>,
    /// The ply and status of the last state it saw.
    last_ply: u64,
    over: bool,
    /// When it sent each of its moves, by the ply it was played at.
    sent: Vec<(u64, Instant)>,
    /// When each ply's state first reached it.
    seen: Vec<(u64, Instant)>,
}

/// A move sent and not yet seen through.
struct Pending {
    id: u64,
    ply: u64,
    sent: Instant,
    acked: bool,
    /// When the state with the new ply arrived.
    seen: Option<Instant>,
}

impl Pending {
    /// The round trip, once the move is acknowledged and its state seen.
    fn done(&self) -> Option<Duration> {
        self.seen
            .filter(|_| self.acked)
            .map(|seen| seen.duration_since(self.sent))
    }
}

/// The fields of a live message a player reads. Only these are parsed, and
/// the moves are borrowed from the text: 400 players parsing every state
/// in full would load the shared machine more than the server does.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default)]
    id: Option<u64>,
    #[serde(borrow, default)]
    game: Option<View<'a>>,
}

#[derive(Deserialize)]
struct View<'a> {
    ply: u64,
    status: &'a str,
    to_move: Option<&'a str>,
    #[serde(borrow)]
    legal_moves: Vec<&'a str>,
}

/// Plays `side` on the game's live socket `ws` until it has `PLIES` plies or
/// is over, thinking a random time in `think` (milliseconds) before each move.
fn play_seat(
    mut ws: Ws,
    first: String,
    side: &str,
    token: &str,
    seed: u64,
    think: (u64, u64),
) -> Seat {
    let mut seat = Seat::default();
    let mut rng = Rng::new(seed);
    let mut pending: Option<Pending> = None;
    let mut next_id = 1u64;
    let mut text = first;
    loop {
        let msg: Message = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                seat.errors.push(format!("{side}: {e}: {text}"));
                return seat;
            }
        };
        match (msg.kind, msg.game) {
            ("state", Some(game)) => {
                let ply = game.ply;
                if seat.seen.last().is_none_or(|&(p, _)| p < ply) {
                    seat.seen.push((ply, Instant::now()));
                }
                seat.last_ply = ply;
                seat.over = game.status == "over";
                if let Some(p) = &mut pending {
                    if ply == p.ply + 1 {
                        p.seen = Some(Instant::now());
                    }
                    if let Some(rtt) = p.done() {
                        seat.round_trips.push(rtt);
                        pending = None;
                    }
                }
                if pending.is_none() && (seat.over || ply >= PLIES) {
                    return seat;
                }
                if pending.is_none() && game.to_move == Some(side) {
                    if game.legal_moves.is_empty() {
                        seat.errors.push(format!("no legal move at ply {ply}"));
                        return seat;
                    }
                    let mv = rng.pick(&game.legal_moves).to_string();
                    if think.1 > 0 {
                        let ms = think.0 + rng.below((think.1 - think.0 + 1) as usize) as u64;
                        std::thread::sleep(Duration::from_millis(ms));
                    }
                    let id = next_id;
                    next_id += 1;
                    let sent = Instant::now();
                    ws.send(
                        &json!({"type": "move", "move": mv, "token": token, "ply": ply, "id": id}),
                    );
                    seat.played.push((ply, mv));
                    seat.sent.push((ply, sent));
                    pending = Some(Pending {
                        id,
                        ply,
                        sent,
                        acked: false,
                        seen: None,
                    });
                }
            }
            ("ack", _) => match &mut pending {
                Some(p) if msg.id == Some(p.id) => {
                    p.acked = true;
                    if let Some(rtt) = p.done() {
                        seat.round_trips.push(rtt);
                        pending = None;
                        if seat.over || seat.last_ply >= PLIES {
                            return seat;
                        }
                    }
                }
                _ => seat.errors.push(format!("an unexpected ack: {text}")),
            },
            _ => {
                seat.errors.push(format!("{side}: {text}"));
                return seat;
            }
        }
        text = match ws.try_recv_text() {
            Ok(m) => m,
            Err(e) => {
                seat.errors.push(format!("{side}: {e}"));
                return seat;
            }
        };
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// What a run of games shows.
struct Report {
    games: usize,
    moves: usize,
    /// Sorted.
    round_trips: Vec<Duration>,
    /// From a move sent to its state on the opponent's socket (on another
    /// instance, when the seats are on two); sorted.
    pushed: Vec<Duration>,
    play_time: Duration,
    server_cpu: String,
    client_cpu: String,
}

impl Report {
    fn print(&self, what: &str) {
        let rt = &self.round_trips;
        println!(
            "{what}: {} games, {} moves in {:?} ({:.0} moves/s): \
             round trip p50 {:?}, p99 {:?}, max {:?}; to the opponent's socket p50 {:?}, \
             p99 {:?}; CPU: server {}, test clients {}",
            self.games,
            self.moves,
            self.play_time,
            self.moves as f64 / self.play_time.as_secs_f64(),
            percentile(rt, 0.50),
            percentile(rt, 0.99),
            rt.last().expect("some moves"),
            percentile(&self.pushed, 0.50),
            percentile(&self.pushed, 0.99),
            self.server_cpu,
            self.client_cpu,
        );
    }
}

/// Plays `n` online games at once on `servers`, a thread and a live socket
/// per seat, and checks every game's moves against what the servers show.
/// With several servers (instances sharing one database) the two seats of
/// a game are on two of them, White's creating the game and Black's
/// claiming the seat.
fn run_games(servers: &[&Server], n: usize, seed: u64, think: (u64, u64)) -> Report {
    let on = |i: usize, side: &str| servers[(2 * i + usize::from(side == "black")) % servers.len()];
    // Every player is a client of their own, as behind a reverse proxy
    // (the server runs with --trust-proxy): the per-client limits hold
    // each player, and none may slow an honest one down.
    let games: Vec<common::Created> = (0..n)
        .map(|i| {
            let (status, _, body) = on(i, "white").post_as(
                &player_ip(i, "white"),
                "/api/games",
                &json!({"mode": "online"}),
            );
            assert_eq!(status, 201, "creating game {i}: {body}");
            let mut g = common::Created::from_json(body);
            let code = g.invite.clone().expect("an invite");
            let path = format!("/api/games/{}/claim", g.id);
            let (status, _, body) =
                on(i, "black").post_as(&player_ip(i, "black"), &path, &json!({ "invite": code }));
            assert_eq!(status, 200, "claiming game {i}: {body}");
            g.black = body["token"].as_str().map(str::to_string);
            g
        })
        .collect();

    // Every seat connects and reads the first state before anyone moves.
    let barrier = Arc::new(Barrier::new(2 * n + 1));
    let mut threads = Vec::new();
    for (i, g) in games.iter().enumerate() {
        for side in ["white", "black"] {
            let token = g.token(side).to_string();
            let (addr, id) = (on(i, side).addr.clone(), g.id.clone());
            let barrier = barrier.clone();
            let seed = seed ^ ((i as u64) << 1) ^ u64::from(side == "black");
            let thread = std::thread::Builder::new()
                .stack_size(512 * 1024)
                .spawn(move || {
                    let path = format!("/api/games/{id}/live");
                    let ip = player_ip(i, side);
                    // Reading the first state at once also answers the
                    // server's opening ping, as a page does.
                    let opened = Ws::connect_with(&addr, &path, &[("x-forwarded-for", &ip)])
                        .map_err(|e| format!("connect: {e}"))
                        .and_then(|mut ws| match ws.try_recv_text() {
                            Ok(m) if m.starts_with(r#"{"type":"state""#) => Ok((ws, m)),
                            other => Err(format!("first message: {other:?}")),
                        });
                    barrier.wait();
                    match opened {
                        Ok((ws, first)) => play_seat(ws, first, side, &token, seed, think),
                        Err(e) => Seat {
                            errors: vec![e],
                            ..Seat::default()
                        },
                    }
                })
                .expect("a seat thread");
            threads.push((i, thread));
        }
    }
    barrier.wait();
    let play_start = Instant::now();
    let pids: Vec<String> = servers.iter().map(|s| s.pid().to_string()).collect();
    let servers_cpu = || -> Option<Duration> { pids.iter().map(|p| common::cpu_time(p)).sum() };
    let server_cpu_before = servers_cpu();
    let client_cpu_before = common::cpu_time("self");
    let mut seats: Vec<Vec<Seat>> = (0..n).map(|_| Vec::new()).collect();
    for (i, t) in threads {
        seats[i].push(t.join().expect("a seat thread panicked"));
    }
    let play_time = play_start.elapsed();
    let cpu = |before: Option<Duration>, after: Option<Duration>| match (before, after) {
        (Some(b), Some(a)) => format!("{:?}", a.saturating_sub(b)),
        _ => "?".to_string(),
    };
    let server_cpu = cpu(server_cpu_before, servers_cpu());
    let client_cpu = cpu(client_cpu_before, common::cpu_time("self"));

    let mut errors = Vec::new();
    let mut round_trips = Vec::new();
    let mut pushed = Vec::new();
    let mut total_moves = 0;
    for (g, pair) in games.iter().zip(&seats) {
        for (k, seat) in pair.iter().enumerate() {
            errors.extend(seat.errors.iter().map(|e| format!("game {}: {e}", g.id)));
            round_trips.extend(&seat.round_trips);
            // Each move, until the opponent's socket showed it.
            let Some(other) = pair.get(1 - k) else {
                continue;
            };
            for &(ply, sent) in &seat.sent {
                if let Some(&(_, seen)) = other.seen.iter().find(|&&(p, _)| p == ply + 1) {
                    pushed.push(seen.duration_since(sent));
                }
            }
        }
        // The moves both seats played, in ply order, are the game's moves.
        let mut played: Vec<&(u64, String)> = pair.iter().flat_map(|s| &s.played).collect();
        played.sort();
        let plies: Vec<u64> = played.iter().map(|(p, _)| *p).collect();
        assert!(
            plies.iter().enumerate().all(|(i, &p)| p == i as u64),
            "game {}: moves played at plies {plies:?}",
            g.id
        );
        let played: Vec<String> = played.iter().map(|(_, m)| m.clone()).collect();
        let acked: usize = pair.iter().map(|s| s.round_trips.len()).sum();
        // (Another instance may take a moment to hear of the last move.)
        let state = servers[0].wait_for(&g.id, Duration::from_secs(10), |s| {
            s["ply"].as_u64() == Some(played.len() as u64)
        });
        assert_eq!(moves(&state), played, "game {}", g.id);
        assert_eq!(
            acked,
            played.len(),
            "game {}: every move acknowledged",
            g.id
        );
        assert!(
            state["ply"].as_u64() == Some(PLIES) || state["status"] == "over",
            "game {} stopped at ply {}",
            g.id,
            state["ply"]
        );
        total_moves += played.len();
    }
    assert!(
        errors.is_empty(),
        "{} errors: {:#?}",
        errors.len(),
        &errors[..errors.len().min(10)]
    );
    round_trips.sort();
    pushed.sort();
    Report {
        games: n,
        moves: total_moves,
        round_trips,
        pushed,
        play_time,
        server_cpu,
        client_cpu,
    }
}

#[test]
fn two_hundred_games_at_once_over_live_sockets() {
    let sync = std::env::var("PUNCT_LOAD_SYNC").unwrap_or_else(|_| "full".to_string());
    let dir = common::TempDir::new("load");
    let server = Server::builder()
        .data_dir(dir.path())
        .flags(&["--sync", &sync, "--trust-proxy"])
        .start();
    println!("punct serve --sync {sync}");
    // A game alone first, for comparison.
    let alone = run_games(&[&server], 1, 1, (0, 0));
    assert!(alone.moves > 0);
    alone.print("one game alone, no thinking");
    for (what, seed, think) in [
        ("200 games, players think 0.5-1.5 s", 2, (500, 1500)),
        ("200 games, players answer at once", 3, (0, 0)),
    ] {
        let started = Instant::now();
        let loaded = run_games(&[&server], GAMES, seed, think);
        // Random games this short rarely end early.
        assert!(
            loaded.moves as u64 >= GAMES as u64 * PLIES * 9 / 10,
            "only {} moves",
            loaded.moves
        );
        loaded.print(what);
        println!(
            "(the whole run, games created and checked: {:?})",
            started.elapsed()
        );
    }
}

/// The same games on three instances sharing one PostgreSQL database,
/// each game's seats on two different instances: every move reaches the
/// opponent through the database's announcements. On one machine the
/// instances share its cores, so this shows what the sharing costs, not
/// how it scales. Needs the test cluster (`scripts/test.sh`).
#[test]
fn two_hundred_games_on_three_instances_sharing_postgres() {
    if common::cluster_for("two_hundred_games_on_three_instances").is_none() {
        return;
    }
    let url = common::postgres_database(&format!("punct_load_{}", std::process::id()));
    let servers: Vec<Server> = (0..3)
        .map(|_| {
            Server::builder()
                .flags(&["--database", &url, "--trust-proxy"])
                .start()
        })
        .collect();
    let servers: Vec<&Server> = servers.iter().collect();
    println!("three instances of punct serve --database {url}");
    for (what, seed, think) in [
        (
            "200 games on 3 instances, players think 0.5-1.5 s",
            4,
            (500, 1500),
        ),
        (
            "200 games on 3 instances, players answer at once",
            5,
            (0, 0),
        ),
    ] {
        let loaded = run_games(&servers, GAMES, seed, think);
        assert!(
            loaded.moves as u64 >= GAMES as u64 * PLIES * 9 / 10,
            "only {} moves",
            loaded.moves
        );
        loaded.print(what);
    }
}

/// The address of game `i`'s player of `side` (a private range, never contacted).
fn player_ip(i: usize, side: &str) -> String {
    let n = 2 * i + usize::from(side == "black");
    format!("10.{}.{}.{}", n >> 16 & 255, n >> 8 & 255, n & 255)
}

/// The server's resident memory (VmRSS, Linux) in bytes.
fn resident(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kb * 1024
}

/// Memory per idle live socket, and the most sockets one server holds on
/// this machine: figures for docs/PERFORMANCE.md, not judged
/// (`cargo test -p punct-server --release --test load -- --ignored --nocapture sockets`).
#[test]
#[ignore]
fn idle_live_sockets_memory() {
    const N: usize = 2000;
    let open_flags = [
        "--ws-per-client",
        "1000000",
        "--ws-per-game",
        "1000000",
        "--rate-websocket",
        "off",
        "--rate-move",
        "off",
        "--max-connections",
        "1000000",
        "--max-connections-per-client",
        "1000000",
    ];
    for (label, query) in [
        (
            "spectator (states without legal moves)",
            "?legal_moves=false",
        ),
        (
            "player, legal moves grouped (what the page opens)",
            "?legal_moves=compact",
        ),
        ("player, full states", ""),
        (
            "page following moves, spectator (holds the version)",
            "?legal_moves=false&updates=moves&version=",
        ),
        (
            "page following moves, player (holds the version)",
            "?legal_moves=compact&updates=moves&version=",
        ),
    ] {
        let dir = common::TempDir::new("sockets");
        let server = Server::builder()
            .data_dir(dir.path())
            .flags(&open_flags)
            .start();
        let g = server.create(json!({"mode": "hotseat"}));
        // A game some way in: pieces on the board, thousands of legal moves.
        let mut state = server.state(&g.id);
        let mut rng = Rng::new(5);
        for _ in 0..10 {
            let mv = rng.pick(&moves_of(&state)).clone();
            state = server.play_ok(&g.id, g.white(), &mv);
        }
        let mut path = format!("/api/games/{}/live{query}", g.id);
        if path.ends_with("version=") {
            // What the page says: the version it read over HTTP.
            path.push_str(&state["version"].to_string());
        }
        let state_len = Ws::connect(&server.addr, &path)
            .expect("a socket")
            .try_recv_text()
            .expect("the state")
            .len();
        std::thread::sleep(Duration::from_millis(500));
        let before = resident(server.pid());
        let mut sockets: Vec<Ws> = (0..N)
            .map(|i| {
                let mut ws =
                    Ws::connect(&server.addr, &path).unwrap_or_else(|e| panic!("socket {i}: {e}"));
                ws.try_recv_text().expect("the first state");
                ws
            })
            .collect();
        std::thread::sleep(Duration::from_secs(1));
        let after = resident(server.pid());
        // One more move: what it costs to tell every socket.
        let mv = rng.pick(&moves_of(&state)).clone();
        server.play_ok(&g.id, g.white(), &mv);
        let sent: usize = sockets
            .iter_mut()
            .map(|ws| ws.try_recv_text().expect("the move's message").len())
            .sum();
        eprintln!(
            "{label}: {N} idle sockets, state message {state_len} bytes: server memory +{} KB, {:.1} KB per socket; one move sent {:.2} MB to them",
            (after - before) / 1024,
            (after - before) as f64 / 1024.0 / N as f64,
            sent as f64 / 1e6
        );
        drop(sockets);
    }

    // The most at once: spectators until the server or this process runs
    // out of file descriptors (or 19,000).
    let dir = common::TempDir::new("sockets");
    let server = Server::builder()
        .data_dir(dir.path())
        .flags(&open_flags)
        .start();
    let g = server.create(json!({"mode": "hotseat"}));
    let path = format!("/api/games/{}/live?legal_moves=false", g.id);
    let before = resident(server.pid());
    let started = Instant::now();
    let mut sockets = Vec::new();
    let stopped = loop {
        if sockets.len() >= 19_000 {
            break "reached 19,000".to_string();
        }
        match Ws::connect(&server.addr, &path).and_then(|mut ws| ws.try_recv_text().map(|_| ws)) {
            Ok(ws) => sockets.push(ws),
            Err(e) => break e,
        }
    };
    let held = sockets.len();
    // Everyone still gets the next move.
    let mv = moves_of(&server.state(&g.id))[0].clone();
    server.play_ok(&g.id, g.white(), &mv);
    let mut reached = 0;
    for ws in &mut sockets {
        if ws.try_recv_text().is_ok_and(|m| m.contains("\"ply\":1")) {
            reached += 1;
        }
    }
    eprintln!(
        "the most sockets: {held} open in {:?} (stopped: {stopped}); server memory +{} MB; a move reached {reached} of them",
        started.elapsed(),
        (resident(server.pid()) - before) / (1024 * 1024)
    );
}

fn moves_of(state: &serde_json::Value) -> Vec<String> {
    common::legal_moves(state)
}
