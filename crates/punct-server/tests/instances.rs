//! Several `punct serve` instances on one PostgreSQL database behave as
//! one server: players on different instances and a spectator on a third
//! play a game to its end; an instance killed with SIGKILL loses no
//! acknowledged move and its clients go on through another; offers and
//! takebacks made on one are answered on another; one killed
//! while the AI thinks has its move taken over by another; a flag falls
//! once however many instances hold the game. Needs the test cluster
//! (`scripts/test.sh`); without one the tests say so and pass.

mod common;

use common::{cluster_for, legal_moves, moves, ply, postgres_database, psql, Rng, Server};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Instances that change a game see each other's changes within this.
const CATCH_UP: Duration = Duration::from_secs(10);

/// `n` instances on a database of their own, or `None` without a cluster.
fn instances(test: &str, n: usize) -> Option<Vec<Server>> {
    instances_with(test, n, None, &[]).map(|(servers, _)| servers)
}

/// [`instances`] with the AI's thinking time (ms; `None`: the tests'
/// usual) and more flags for each, and the database's URL.
fn instances_with(
    test: &str,
    n: usize,
    ai_movetime: Option<u64>,
    flags: &[&str],
) -> Option<(Vec<Server>, String)> {
    cluster_for(test)?;
    static N: AtomicUsize = AtomicUsize::new(0);
    let url = postgres_database(&format!(
        "punct_instances_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let mut all = vec!["--database", &url];
    all.extend_from_slice(flags);
    let servers = (0..n)
        .map(|_| match ai_movetime {
            Some(ms) => Server::builder().ai_movetime(ms).flags(&all).start(),
            None => Server::builder().flags(&all).start(),
        })
        .collect();
    Some((servers, url))
}

/// A move for `state`: an addition when there is one, so a game ends
/// within the reserves (a few dozen plies).
fn pick(rng: &mut Rng, state: &Value) -> String {
    let legal = legal_moves(state);
    let additions: Vec<String> = legal.iter().filter(|m| m.contains('@')).cloned().collect();
    rng.pick(if additions.is_empty() {
        &legal
    } else {
        &additions
    })
    .clone()
}

/// Plays `mv` at `at` (the ply the client saw) through `server`.
fn play_at(server: &Server, id: &str, token: &str, mv: &str, at: u64) -> Value {
    let (status, body) = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({"token": token, "move": mv, "ply": at}),
    );
    assert_eq!(
        status, 200,
        "{mv} at ply {at} through {}: {body}",
        server.addr
    );
    body
}

/// An online game from `spec` that White creates on `a` and Black joins
/// on `b`, and the two seats' tokens.
fn online_game_across(a: &Server, b: &Server, spec: Value) -> (common::Created, String, String) {
    let g = a.create(spec);
    let (status, claimed) = b.claim(&g.id, g.invite.as_deref().unwrap());
    assert_eq!(status, 200, "{claimed}");
    let black = claimed["token"].as_str().unwrap().to_string();
    let white = g.white().to_string();
    (g, white, black)
}

#[test]
fn players_on_two_instances_and_a_spectator_on_a_third_play_to_the_end() {
    let Some(servers) = instances("players_on_two_instances", 3) else {
        return;
    };
    let (a, b, c) = (&servers[0], &servers[1], &servers[2]);
    // White creates on A, Black claims the seat on B, someone watches on C.
    let (g, white, black) = online_game_across(a, b, json!({"mode": "online"}));
    let mut spectator = c.live(&g.id);
    spectator.recv_state_at(0);
    let mut rng = Rng::new(7);
    let mut at = 0;
    loop {
        // Each player reads the game from their own instance, as their
        // page does, once it shows the last move.
        let (server, token) = if at % 2 == 0 {
            (a, &white)
        } else {
            (b, &black)
        };
        let state = server.wait_for(&g.id, CATCH_UP, |s| ply(s) == at);
        if state["status"] != "ongoing" {
            break;
        }
        assert!(at < 300, "the game did not end");
        let mv = pick(&mut rng, &state);
        play_at(server, &g.id, token, &mv, at);
        at += 1;
        // The spectator's instance pushes every move, in order.
        let seen = spectator.recv_state_at(at);
        assert_eq!(moves(&seen).last(), Some(&mv), "the spectator's ply {at}");
    }
    // One game, one result, on every instance.
    let finals: Vec<Value> = servers
        .iter()
        .map(|s| s.wait_for(&g.id, CATCH_UP, |s| s["status"] == "over"))
        .collect();
    for f in &finals[1..] {
        assert_eq!(f["moves"], finals[0]["moves"]);
        assert_eq!(f["result"], finals[0]["result"]);
        assert_eq!(f["version"], finals[0]["version"]);
    }
    assert!(
        finals[0]["result"]["score"].is_string(),
        "{}",
        finals[0]["result"]
    );
}

#[test]
fn a_killed_instance_loses_no_acknowledged_move_and_its_clients_go_on_elsewhere() {
    let Some(mut servers) = instances("a_killed_instance", 2) else {
        return;
    };
    let g = servers[0].create(json!({"mode": "hotseat"}));
    let token = g.white().to_string();
    let mut rng = Rng::new(11);
    let mut played = Vec::new();
    for at in 0..6 {
        let state = servers[0].state(&g.id);
        let mv = pick(&mut rng, &state);
        play_at(&servers[0], &g.id, &token, &mv, at);
        played.push(mv);
    }
    let mut watcher = servers[0].live(&g.id);
    watcher.recv_state_at(6);
    servers[0].kill();
    // The socket is gone with its instance; the client reconnects to the
    // other one and finds every acknowledged move.
    assert!(watcher.try_recv().is_err(), "a socket of a killed instance");
    let other = &servers[1];
    let mut again = other.live(&g.id);
    let state = again.recv_state_at(6);
    assert_eq!(moves(&state), played);
    let mv = pick(&mut rng, &state);
    play_at(other, &g.id, &token, &mv, 6);
    played.push(mv);
    assert_eq!(moves(&again.recv_state_at(7)), played);
}

#[test]
fn a_flag_falls_once_however_many_instances_hold_the_game() {
    let Some(servers) = instances("a_flag_falls_once", 3) else {
        return;
    };
    let (a, b) = (&servers[0], &servers[1]);
    let (g, _, _) = online_game_across(
        a,
        b,
        json!({"mode": "online", "clock": {"type": "realtime", "initial": 5, "increment": 0}}),
    );
    let state = a.state(&g.id);
    let mv = legal_moves(&state)[0].clone();
    let moved = play_at(a, &g.id, g.white(), &mv, 0);
    let version = moved["version"].as_i64().unwrap();
    // Every instance holds the game, its timer armed for Black's flag.
    let mut sockets: Vec<_> = servers.iter().map(|s| s.live(&g.id)).collect();
    for socket in &mut sockets {
        socket.recv_state_at(1);
    }
    // Black never moves: the flag falls, written once.
    for (server, socket) in servers.iter().zip(&mut sockets) {
        let (over, _) =
            socket.recv_until(|m| m["type"] == "state" && m["game"]["status"] == "over");
        assert_eq!(
            over["game"]["result"]["reason"], "time",
            "{}",
            over["game"]["result"]
        );
        assert_eq!(
            over["game"]["version"].as_i64(),
            Some(version + 1),
            "one change ends the game, seen through {}",
            server.addr
        );
    }
    // The ended game's post-game analysis is stored once too (each
    // instance queues it; the second finds it done): one more change.
    for server in &servers {
        let done = server.wait_for(&g.id, Duration::from_secs(60), |s| {
            s["review"]["status"] == "done"
        });
        assert_eq!(
            done["version"].as_i64(),
            Some(version + 2),
            "{}",
            server.addr
        );
    }
}

#[test]
fn an_instance_killed_while_the_ai_thinks_has_its_move_taken_over() {
    // Short leases, so the take-over comes soon; long thinking, so the
    // kill lands mid-search.
    let flags = ["--job-lease", "2", "--ai-workers", "1"];
    let test = "an_instance_killed_while_the_ai_thinks";
    let Some((mut servers, url)) = instances_with(test, 3, Some(4000), &flags) else {
        return;
    };
    let g = servers[0].create(json!({"mode": "ai", "level": 4, "side": "white"}));
    let human = g.white().to_string();
    let mut watcher = servers[2].live(&g.id);
    watcher.recv_state_at(0);
    let state = servers[0].state(&g.id);
    let mv = legal_moves(&state)[0].clone();
    play_at(&servers[0], &g.id, &human, &mv, 0);
    assert_eq!(watcher.recv_state_at(1)["ai_thinking"], true);
    // The instance that took the move thinks: it holds the job.
    let a_pid = servers[0].pid();
    let owner = (0..200)
        .find_map(|_| {
            let owner = psql(
                &url,
                &format!(
                    "SELECT owner FROM jobs WHERE game_id = '{}' AND claim IS NOT NULL",
                    g.id
                ),
            )
            .unwrap();
            if owner.is_empty() {
                std::thread::sleep(Duration::from_millis(25));
                None
            } else {
                Some(owner)
            }
        })
        .expect("the AI's move is claimed");
    assert!(
        owner.contains(&format!("-{a_pid}-")),
        "the job is the instance's that took the move (pid {a_pid}): {owner}"
    );
    servers[0].kill();
    // Another instance takes the job over once A's claim runs out, thinks
    // and plays: the spectator on C sees the AI's move, played once.
    let after = watcher.recv_state_at(2);
    assert_eq!(moves(&after)[0], mv);
    assert_eq!(after["ai_thinking"], false);
    let stored = servers[1].wait_for(&g.id, CATCH_UP, |s| ply(s) == 2);
    assert_eq!(stored["moves"], after["moves"]);
    assert_eq!(stored["version"], after["version"]);
    assert_eq!(
        psql(
            &url,
            &format!("SELECT count(*) FROM jobs WHERE game_id = '{}'", g.id)
        )
        .unwrap(),
        "0",
        "the job is done"
    );
    // Taken over, as the survivors' metrics count.
    let taken: f64 = servers[1..]
        .iter()
        .map(|s| {
            let (status, _, text) = s.request("GET", "/metrics");
            assert_eq!(status, 200);
            text.lines()
                .find_map(|l| l.strip_prefix("punct_jobs_taken_over_total "))
                .and_then(|v| v.trim().parse::<f64>().ok())
                .expect("punct_jobs_taken_over_total")
        })
        .sum();
    assert!(taken >= 1.0, "taken over {taken} times");
    // And the game goes on: the human's next move is answered as usual.
    let mv2 = legal_moves(&stored)[0].clone();
    play_at(&servers[1], &g.id, &human, &mv2, 2);
    watcher.recv_state_at(4);
}

#[test]
fn offers_and_takebacks_made_on_one_instance_are_answered_on_another() {
    let Some(servers) = instances("offers_and_takebacks", 3) else {
        return;
    };
    let (a, b, c) = (&servers[0], &servers[1], &servers[2]);
    let (g, white, black) = online_game_across(a, b, json!({"mode": "online"}));
    let mut on_b = b.live(&g.id);
    let mut on_c = c.live(&g.id);
    on_b.recv_state_at(0);
    on_c.recv_state_at(0);
    let mut rng = Rng::new(5);
    let first = pick(&mut rng, &a.state(&g.id));
    play_at(a, &g.id, &white, &first, 0);
    let state = on_b.recv_state_at(1);
    let second = pick(&mut rng, &state);
    play_at(b, &g.id, &black, &second, 1);

    // Black asks on B to take back; White, on A, sees it and accepts.
    let (status, body) = b.action(&g.id, "takeback", &black, "request");
    assert_eq!(status, 200, "{body}");
    let asked = a.wait_for(&g.id, CATCH_UP, |s| s["takeback_request"] == "black");
    assert_eq!(ply(&asked), 2);
    let (status, body) = a.action(&g.id, "takeback", &white, "accept");
    assert_eq!(status, 200, "{body}");
    let (back, _) = on_b.recv_until(|m| m["type"] == "state" && m["game"]["ply"] == 1);
    assert_eq!(moves(&back["game"]), vec![first.clone()]);
    assert!(back["game"]["takeback_request"].is_null());

    // White offers a draw on A; Black accepts it on B: over everywhere,
    // by agreement, at one version.
    let (status, body) = a.action(&g.id, "draw", &white, "offer");
    assert_eq!(status, 200, "{body}");
    let (offered, _) =
        on_b.recv_until(|m| m["type"] == "state" && m["game"]["draw_offer"] == "white");
    assert_eq!(ply(&offered["game"]), 1);
    let (status, body) = b.action(&g.id, "draw", &black, "accept");
    assert_eq!(status, 200, "{body}");
    let (over, _) = on_c.recv_until(|m| m["type"] == "state" && m["game"]["status"] == "over");
    assert_eq!(
        over["game"]["result"]["reason"], "agreement",
        "{}",
        over["game"]["result"]
    );
    let finals: Vec<Value> = servers
        .iter()
        .map(|s| s.wait_for(&g.id, CATCH_UP, |s| s["status"] == "over"))
        .collect();
    for f in &finals {
        assert_eq!(f["version"], over["game"]["version"]);
        assert_eq!(f["result"], over["game"]["result"]);
    }
}

#[test]
fn a_rematch_started_on_two_instances_at_once_begins_once() {
    let Some((servers, url)) = instances_with("a_rematch_raced", 2, Some(50), &[]) else {
        return;
    };
    let (a, b) = (&servers[0], &servers[1]);
    let specs = [
        json!({"mode": "hotseat"}),
        json!({"mode": "ai", "level": 1, "side": "white"}),
    ];
    let mut games = 0;
    for round in 0..12 {
        let spec = &specs[round % 2];
        let g = a.create(spec.clone());
        let token = g.white().to_string();
        let (status, body) = a.post(
            &format!("/api/games/{}/resign", g.id),
            &json!({"token": token}),
        );
        assert_eq!(status, 200, "{body}");
        // Both instances hold the ended game before the race.
        b.wait_for(&g.id, CATCH_UP, |s| s["status"] == "over");
        let barrier = std::sync::Barrier::new(2);
        let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
            let racers: Vec<_> = [a, b]
                .into_iter()
                .map(|server| {
                    let (barrier, id, token) = (&barrier, &g.id, &token);
                    scope.spawn(move || {
                        barrier.wait();
                        server.action(id, "rematch", token, "offer")
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        games += 2;
        let started: Vec<&str> = answers
            .iter()
            .filter(|(status, _)| *status == 200)
            .map(|(_, s)| s["rematch"].as_str().expect("a rematch id"))
            .collect();
        let refused = answers
            .iter()
            .filter(|(status, body)| *status == 409 && body["error"]["code"] == "rematch_started")
            .count();
        // One starts it; the other finds it started.
        assert!(
            started.len() == 1 && refused == 1,
            "round {round} ({spec}): {answers:?}"
        );
        let stored: usize = psql(&url, "SELECT count(*) FROM games")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(stored, games, "round {round} ({spec}): one rematch stored");
        let linked = psql(
            &url,
            &format!("SELECT rematch FROM games WHERE id = '{}'", g.id),
        )
        .unwrap();
        assert_eq!(linked, started[0], "round {round}: the link names it");
    }
}

#[test]
fn a_copy_whose_read_of_another_instances_change_failed_reads_it_again() {
    // A session holds the games table locked, as a stalled PostgreSQL
    // would hold every read: the announcement of the game's next version
    // reaches the instance meanwhile and its read of it times out; the
    // version is committed (by that session) with no announcement of its
    // own. The copy must not stay behind for good.
    let test = "a_copy_whose_read_failed";
    let Some((servers, url)) = instances_with(test, 1, None, &["--db-timeout", "1"]) else {
        return;
    };
    let a = &servers[0];
    let g = a.create(json!({"mode": "hotseat"}));
    let state = a.state(&g.id);
    let mv = legal_moves(&state)[0].clone();
    let next = state["version"].as_i64().unwrap() + 1;
    let locker = {
        let (url, id, mv) = (url.clone(), g.id.clone(), mv.clone());
        std::thread::spawn(move || {
            psql(
                &url,
                &format!(
                    "BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE; \
                     UPDATE games SET moves = '{mv}', plies = 1, version = {next} \
                     WHERE id = '{id}'; SELECT pg_sleep(3); COMMIT"
                ),
            )
        })
    };
    let locked = "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
                  WHERE c.relname = 'games' AND l.mode = 'AccessExclusiveLock' AND l.granted";
    assert!(
        (0..200).any(|_| {
            let held = psql(&url, locked).unwrap() != "0";
            if !held {
                std::thread::sleep(Duration::from_millis(10));
            }
            held
        }),
        "the games table is locked"
    );
    psql(&url, &format!("NOTIFY punct_games, '{} {next}'", g.id)).unwrap();
    locker.join().unwrap().expect("the locking session");
    let caught = a.wait_for(&g.id, CATCH_UP, |s| s["version"] == next);
    assert_eq!(moves(&caught), vec![mv]);
}

/// Says hello on `ws` with `token` (its seat's) and waits for the answer.
fn hold_seat(ws: &mut common::Ws, token: &str) {
    ws.send(&json!({"type": "hello", "id": 1, "token": token}));
    let ack = ws.recv_any_until(|m| m["id"] == 1);
    assert_eq!(ack["type"], "ack", "{ack}");
}

/// An online real-time game, White's seat on `a`, Black's on `b`.
fn timed_game_across(a: &Server, b: &Server) -> (common::Created, String, String) {
    online_game_across(
        a,
        b,
        json!({"mode": "online", "clock": {"type": "realtime", "initial": 600, "increment": 0}}),
    )
}

#[test]
fn presence_is_every_instances_and_a_connected_player_is_not_abandoned_anywhere() {
    let Some((servers, _)) = instances_with("presence_across", 3, None, &["--abandon-after", "2s"])
    else {
        return;
    };
    let (a, b, c) = (&servers[0], &servers[1], &servers[2]);
    let (g, white, black) = timed_game_across(a, b);
    let mut on_a = a.live(&g.id);
    hold_seat(&mut on_a, &white);
    let mut on_b = b.live(&g.id);
    hold_seat(&mut on_b, &black);
    let _watching = c.live(&g.id);
    // Every instance shows both players and C's spectator.
    let everyone = |m: &Value| {
        m["type"] == "presence"
            && m["white"]["connected"] == true
            && m["black"]["connected"] == true
            && m["spectators"] == 1
    };
    on_a.recv_any_until(everyone);
    on_b.recv_any_until(everyone);

    // Long past --abandon-after, neither can claim against the other,
    // on any instance.
    std::thread::sleep(Duration::from_secs(3));
    for server in [a, b, c] {
        common::assert_error(&server.abandon(&g.id, &black), 409, "not_abandoned");
        common::assert_error(&server.abandon(&g.id, &white), 409, "not_abandoned");
    }

    // White leaves A: B sees it, and a claim on B or C is allowed once
    // White has been gone --abandon-after, not before.
    drop(on_a);
    let left = std::time::Instant::now();
    on_b.recv_any_until(|m| m["type"] == "presence" && m["white"]["connected"] == false);
    let over = loop {
        let (status, body) = c.abandon(&g.id, &black);
        if status == 200 {
            break body;
        }
        common::assert_error(&(status, body), 409, "not_abandoned");
        assert!(left.elapsed() < Duration::from_secs(60), "never allowed");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        left.elapsed() >= Duration::from_secs(2),
        "allowed {:?} after White left",
        left.elapsed()
    );
    assert_eq!(over["result"]["text"], "White left the game", "{over}");
}

#[test]
fn a_player_on_an_instance_that_died_counts_as_gone_once_its_rows_expire() {
    let Some((mut servers, _)) =
        instances_with("presence_dead", 2, None, &["--abandon-after", "2s"])
    else {
        return;
    };
    let (g, white, black) = timed_game_across(&servers[0], &servers[1]);
    let mut on_a = servers[0].live(&g.id);
    hold_seat(&mut on_a, &white);
    let mut on_b = servers[1].live(&g.id);
    hold_seat(&mut on_b, &black);
    on_b.recv_any_until(|m| m["type"] == "presence" && m["white"]["connected"] == true);
    // A dies with White's socket: nothing tells B it closed.
    servers[0].kill();
    let died = std::time::Instant::now();
    let b = &servers[1];
    common::assert_error(&b.abandon(&g.id, &black), 409, "not_abandoned");
    // Once A's row has gone unconfirmed long enough, B shows White gone…
    on_b.recv_any_until(|m| m["type"] == "presence" && m["white"]["connected"] == false);
    // …and the claim waits --abandon-after from then.
    let over = loop {
        let (status, body) = b.abandon(&g.id, &black);
        if status == 200 {
            break body;
        }
        common::assert_error(&(status, body), 409, "not_abandoned");
        assert!(died.elapsed() < Duration::from_secs(90), "never allowed");
        std::thread::sleep(Duration::from_millis(200));
    };
    // The row was confirmed at most 5 s before A died and expires 15 s
    // after that; then 2 s more.
    assert!(
        died.elapsed() >= Duration::from_secs(12),
        "allowed {:?} after White's instance died",
        died.elapsed()
    );
    assert_eq!(over["result"]["text"], "White left the game", "{over}");
}

/// A metric's value from `server`'s `/metrics` (0 when it has none yet).
fn metric(server: &Server, name: &str) -> f64 {
    let (status, _, text) = server.request("GET", "/metrics");
    assert_eq!(status, 200);
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0.0, |v| v.trim().parse().expect("a number"))
}

#[test]
fn a_dead_instances_ai_move_is_taken_over_while_every_survivors_worker_is_busy() {
    let flags = ["--job-lease", "2", "--ai-workers", "1"];
    let test = "a_dead_instances_ai_move_busy_survivor";
    let Some((mut servers, url)) = instances_with(test, 2, Some(3000), &flags) else {
        return;
    };
    let (left, right) = servers.split_at_mut(1);
    let (a, b) = (&mut left[0], &right[0]);
    // B's one worker is kept busy: two games against the AI on it, each
    // answered as soon as the AI has moved, so one search runs and
    // another waits all along.
    let busy: Vec<common::Created> = (0..2)
        .map(|_| b.create(json!({"mode": "ai", "level": 4, "side": "white"})))
        .collect();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for g in &busy {
            let stop = &stop;
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let state = b.state(&g.id);
                    if state["status"] != "ongoing" {
                        return;
                    }
                    if state["to_move"] == "white"
                        && !state["ai_thinking"].as_bool().unwrap_or(false)
                    {
                        let mv = legal_moves(&state)[0].clone();
                        b.play(&g.id, g.white(), &mv);
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
        }
        let busy_since = std::time::Instant::now();
        while metric(b, "punct_ai_jobs_running") < 1.0 || metric(b, "punct_ai_jobs_waiting") < 1.0 {
            assert!(busy_since.elapsed() < CATCH_UP, "B never got busy");
            std::thread::sleep(Duration::from_millis(50));
        }

        // On A the AI is to answer a move; A dies while it thinks.
        let g = a.create(json!({"mode": "ai", "level": 4, "side": "white"}));
        let mv = legal_moves(&a.state(&g.id))[0].clone();
        play_at(a, &g.id, g.white(), &mv, 0);
        let held = format!(
            "SELECT owner FROM jobs WHERE game_id = '{}' AND claim IS NOT NULL",
            g.id
        );
        let claimed = (0..400).any(|_| {
            let owner = psql(&url, &held).unwrap();
            owner.contains(&format!("-{}-", a.pid())) || {
                std::thread::sleep(Duration::from_millis(25));
                false
            }
        });
        assert!(claimed, "A never claimed the AI's move");
        a.kill();
        let died = std::time::Instant::now();
        assert_eq!(ply(&b.state(&g.id)), 1, "A died before the AI moved");
        // B takes it over and plays it though its worker never idles:
        // within a lease, its turn in B's queue and a search or two.
        let after = b.wait_for(&g.id, Duration::from_secs(60), |s| ply(s) == 2);
        let waited = died.elapsed();
        assert_eq!(moves(&after)[0], mv);
        assert!(
            metric(b, "punct_ai_jobs_waiting") >= 1.0 || metric(b, "punct_ai_jobs_running") >= 1.0,
            "B stayed busy"
        );
        assert!(metric(b, "punct_jobs_taken_over_total") >= 1.0);
        stop.store(true, Ordering::SeqCst);
        eprintln!("the orphaned move was played {waited:?} after its instance died");
    });
}

#[test]
fn a_review_taken_over_goes_on_from_the_positions_saved() {
    let flags = ["--job-lease", "2", "--review-movetime", "150"];
    let Some((mut servers, url)) = instances_with("a_review_taken_over", 2, None, &flags) else {
        return;
    };
    // A hot-seat game of a few dozen plies, ended on A: A reviews it.
    let a = &servers[0];
    let g = a.create(json!({"mode": "hotseat"}));
    let token = g.white().to_string();
    let mut rng = Rng::new(11);
    let mut state = a.state(&g.id);
    while state["status"] == "ongoing" && ply(&state) < 40 {
        let mv = rng.pick(&legal_moves(&state)).clone();
        state = a.play_ok(&g.id, &token, &mv);
    }
    if state["status"] == "ongoing" {
        let (status, body) = a.post(
            &format!("/api/games/{}/resign", g.id),
            &json!({"token": token}),
        );
        assert_eq!(status, 200, "{body}");
    }
    let positions = ply(&a.state(&g.id)) + 1;
    // Once A has saved some of its work, it dies.
    let saved_sql = format!(
        "SELECT coalesce(json_array_length((progress::json)->'values'), 0) FROM jobs \
         WHERE game_id = '{}'",
        g.id
    );
    let saved = || -> u64 { psql(&url, &saved_sql).unwrap().parse().unwrap_or(0) };
    let started = std::time::Instant::now();
    while saved() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "A saved no work"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    servers[0].kill();
    let kept = saved();
    assert!(kept > 0 && kept < positions, "{kept} of {positions}");
    // B takes the review over and searches only what was left.
    let b = &servers[1];
    let reviewed = b.wait_for(&g.id, Duration::from_secs(90), |s| {
        s["review"]["status"] == "done"
    });
    let values = reviewed["review"]["values"].as_array().expect("values");
    assert_eq!(values.len() as u64, positions);
    assert_eq!(
        metric(b, "punct_review_positions_total"),
        (positions - kept) as f64,
        "B searched what A had not ({kept} of {positions} saved)"
    );
}
