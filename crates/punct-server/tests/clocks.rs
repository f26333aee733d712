//! Clocks against the real `punct serve`: time controls at creation, the
//! server ending games on time by itself (once, also racing a move, also
//! after a restart), increments, takebacks, the AI keeping time, and the
//! clock in states, summaries and records.

mod common;

use common::{assert_error, legal_moves, now_ms, Server, TempDir};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const FIRST: &str = "C@B7/2";

/// Waits (bounded) until the game is over.
fn wait_over(server: &Server, id: &str) -> Value {
    server.wait_for(id, Duration::from_secs(60), |s| s["status"] == "over")
}

fn ms(v: &Value) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("not a number of ms: {v}"))
}

/// When the running clock runs out (server ms), from a state.
fn deadline(state: &Value) -> i64 {
    let clock = &state["clock"];
    let side = clock["running"].as_str().expect("a running clock");
    ms(&clock["since"]) + ms(&clock[format!("{side}_ms").as_str()])
}

#[test]
fn bad_clocks_are_refused_with_the_field_and_the_range() {
    let server = Server::start();
    let cases = [
        (json!("blitz"), "`clock` must be an object"),
        (json!({"initial": 60}), "`clock.type` is missing"),
        (
            json!({"type": "bullet"}),
            "none, realtime or correspondence",
        ),
        (json!({"type": "realtime"}), "`clock.initial` is missing"),
        (
            json!({"type": "realtime", "initial": 3, "increment": 0}),
            "`clock.initial` must be a whole number of seconds from 5 to 10800, not 3",
        ),
        (
            json!({"type": "realtime", "initial": 20000}),
            "from 5 to 10800",
        ),
        (
            json!({"type": "realtime", "initial": 60, "increment": -1}),
            "`clock.increment` must be a whole number of seconds from 0 to 180",
        ),
        (
            json!({"type": "realtime", "initial": 60, "increment": 200}),
            "from 0 to 180",
        ),
        (
            json!({"type": "realtime", "initial": "60"}),
            "`clock.initial` must be a whole number",
        ),
        (
            json!({"type": "correspondence", "days": 30}),
            "`clock.days` must be a whole number of days from 1 to 14, not 30",
        ),
        (
            json!({"type": "correspondence", "initial": 60}),
            "`clock.initial` is not a field of a correspondence clock",
        ),
    ];
    for (clock, want) in &cases {
        let answer = server.post("/api/games", &json!({"mode": "hotseat", "clock": clock}));
        assert_error(&answer, 400, "bad_clock");
        let message = answer.1["error"]["message"].as_str().unwrap();
        assert!(message.contains(want), "{clock}: {message}");
    }
    // Importing takes the same field.
    let rec = server.create(json!({"mode": "hotseat"}));
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", rec.id));
    let answer = server.post(
        "/api/games/import",
        &json!({"record": record, "clock": {"type": "correspondence", "days": 0}}),
    );
    assert_error(&answer, 400, "bad_clock");
    // Nothing was created by the refusals.
    let (_, list) = server.get("/api/games?limit=500");
    assert_eq!(list["games"].as_array().unwrap().len(), 1, "{list}");
}

#[test]
fn untimed_and_correspondence_games_show_their_clocks() {
    let server = Server::start();
    for clock in [None, Some(json!({"type": "none"})), Some(Value::Null)] {
        let mut spec = json!({"mode": "hotseat"});
        if let Some(c) = clock {
            spec["clock"] = c;
        }
        let g = server.create(spec);
        assert_eq!(g.body["game"]["clock"], Value::Null);
    }
    let g =
        server.create(json!({"mode": "hotseat", "clock": {"type": "correspondence", "days": 3}}));
    let clock = &g.body["game"]["clock"];
    let three_days = 3 * 86_400_000i64;
    assert_eq!(clock["type"], "correspondence");
    assert_eq!(clock["days"], 3);
    assert_eq!(
        (ms(&clock["white_ms"]), ms(&clock["black_ms"])),
        (three_days, three_days)
    );
    // At one screen the clock starts at once.
    assert_eq!(clock["running"], "white");
    let since = ms(&clock["since"]);
    let s = server.play_ok(&g.id, g.white(), FIRST);
    // A move resets the mover's days; the other side's clock runs.
    assert_eq!(ms(&s["clock"]["white_ms"]), three_days);
    assert_eq!(s["clock"]["running"], "black");
    assert!(ms(&s["clock"]["since"]) >= since);
    // Summaries carry the time control only.
    let (_, list) = server.get("/api/games?limit=500");
    let summary = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == g.id.as_str())
        .expect("the game is listed")
        .clone();
    assert_eq!(
        summary["clock"],
        json!({"type": "correspondence", "days": 3})
    );
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(
        record.contains("[TimeControl \"3 days per move\"]"),
        "{record}"
    );
}

#[test]
fn an_online_game_where_nobody_moves_flags_by_itself_once() {
    let server = Server::start();
    let mut g = server.create(
        json!({"mode": "online", "clock": {"type": "realtime", "initial": 5, "increment": 0}}),
    );
    // The clock waits for the second player.
    let clock = &g.body["game"]["clock"];
    assert_eq!(
        (
            clock["type"].as_str(),
            clock["initial"].as_i64(),
            clock["increment"].as_i64()
        ),
        (Some("realtime"), Some(5), Some(0))
    );
    assert_eq!(
        (ms(&clock["white_ms"]), ms(&clock["black_ms"])),
        (5000, 5000)
    );
    assert_eq!(
        (&clock["running"], &clock["since"]),
        (&Value::Null, &Value::Null)
    );
    let (status, claimed) = server.claim(&g.id, g.invite.as_deref().unwrap());
    assert_eq!(status, 200, "{claimed}");
    g.black = claimed["token"].as_str().map(str::to_string);
    let state = &claimed["game"];
    assert_eq!(state["clock"]["running"], "white");
    let due = deadline(state);
    let version = state["version"].as_i64().unwrap();

    let over = wait_over(&server, &g.id);
    let mut ws = server.live(&g.id);
    assert_eq!(ws.next_state()["version"], over["version"]);
    assert_eq!(over["result"]["reason"], "time", "{}", over["result"]);
    assert_eq!(over["result"]["winner"], "black");
    assert_eq!(over["result"]["score"], "0-1");
    assert_eq!(over["result"]["text"], "White ran out of time");
    assert_eq!(
        over["version"].as_i64(),
        Some(version + 1),
        "the flag is one change"
    );
    assert_eq!(ms(&over["clock"]["white_ms"]), 0);
    assert_eq!(ms(&over["clock"]["black_ms"]), 5000);
    assert_eq!(over["clock"]["running"], Value::Null);
    assert!(
        ms(&over["updated"]) >= due,
        "the flag fell at {} before the deadline {due}",
        over["updated"]
    );
    // A move after the deadline: time_out, and nothing changes.
    let answer = server.play(&g.id, g.white(), FIRST);
    assert_error(&answer, 409, "time_out");
    assert!(answer.1["error"]["message"]
        .as_str()
        .unwrap()
        .contains("White ran out of time"));
    assert_eq!(server.state(&g.id)["version"].as_i64(), Some(version + 1));
    // Nor later: the next change a watcher sees is the next one made (a
    // name), one version on.
    let (status, named) = server.post(
        &format!("/api/games/{}/name", g.id),
        &json!({"token": g.white(), "name": "Ada"}),
    );
    assert_eq!(status, 200, "{named}");
    let next = ws.next_state();
    assert_eq!(next["players"]["white"]["name"], "Ada", "{next}");
    assert_eq!(next["version"].as_i64(), Some(version + 2));

    // The record says why and how; importing it keeps the result.
    let (_, _, record) = server.get_text(&format!("/api/games/{}/record", g.id));
    assert!(record.contains("[Termination \"time:white\"]"), "{record}");
    assert!(record.contains("[TimeControl \"5+0\"]"), "{record}");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    let (status, imported) = server.post("/api/games/import", &json!({"record": record}));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["game"]["result"]["reason"], "time");
    assert_eq!(imported["game"]["result"]["text"], "White ran out of time");
}

#[test]
fn a_move_racing_the_deadline_either_lands_or_the_flag_falls_once() {
    let server = Server::start();
    let offsets = [-60i64, -20, 0, 20, 60];
    let games: Vec<_> = offsets
        .iter()
        .map(|_| {
            server.create_online_clock(json!({"type": "realtime", "initial": 5, "increment": 0}))
        })
        .collect();
    let states: Vec<Value> = games.iter().map(|g| server.state(&g.id)).collect();
    let outcomes: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .iter()
            .zip(&states)
            .zip(offsets)
            .map(|((g, state), offset)| {
                let server = &server;
                scope.spawn(move || {
                    // Waiting for the clock to reach the deadline is the
                    // thing under test.
                    let at = deadline(state) + offset;
                    let wait = at - now_ms();
                    if wait > 0 {
                        std::thread::sleep(Duration::from_millis(wait as u64));
                    }
                    server.play(&g.id, g.white(), FIRST)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // Every game as it is right after its move, read before any waiting:
    // the black flags of the games whose moves landed fall about 5 s after
    // them, within the offsets of each other, so a game read after waiting
    // for another's flag may already show its own.
    let nows: Vec<Value> = games.iter().map(|g| server.state(&g.id)).collect();
    let mut landed = 0;
    for (((g, before), (status, body)), now) in games.iter().zip(&states).zip(&outcomes).zip(nows) {
        let version = before["version"].as_i64().unwrap();
        match status {
            200 => {
                landed += 1;
                // The move came in time: white has time left, black's runs.
                assert_eq!(now["ply"], 1);
                assert!(ms(&now["clock"]["white_ms"]) > 0, "{}", now["clock"]);
                assert_eq!(now["version"].as_i64(), Some(version + 1));
                // Black does not answer: black's flag falls, once.
                let over = wait_over(&server, &g.id);
                assert_eq!(over["result"]["text"], "Black ran out of time");
                assert_eq!(over["version"].as_i64(), Some(version + 2));
            }
            409 => {
                assert_eq!(body["error"]["code"], "time_out", "{body}");
                assert_eq!(now["status"], "over");
                assert_eq!(now["ply"], 0);
                assert_eq!(now["result"]["text"], "White ran out of time");
                assert_eq!(
                    now["version"].as_i64(),
                    Some(version + 1),
                    "one flag: now {} {} {}",
                    now["status"],
                    now["result"],
                    now["clock"]
                );
            }
            other => panic!("game {}: {other} {body}", g.id),
        }
    }
    // Nothing more happens to any of them but, where a move was played,
    // the post-game review (review.rs), which lands once, later: waited
    // for where it comes. Then no second flag: the next change made (a
    // name) is the very next version.
    for (g, before) in games.iter().zip(&states) {
        let moved = server.state(&g.id)["ply"] == 1;
        let a = if moved {
            server.wait_for(&g.id, Duration::from_secs(60), |s| {
                s["review"]["status"] == "done"
            })
        } else {
            server.state(&g.id)
        };
        let (status, named) = server.post(
            &format!("/api/games/{}/name", g.id),
            &json!({"token": g.white(), "name": "Ada"}),
        );
        assert_eq!(status, 200, "{named}");
        assert_eq!(
            named["version"].as_i64(),
            Some(a["version"].as_i64().unwrap() + 1),
            "a change between {a} and {named}"
        );
        assert_eq!(named["result"], a["result"]);
        let reviewed = i64::from(moved);
        let flagged = a["version"].as_i64().unwrap() - before["version"].as_i64().unwrap();
        assert_eq!(flagged - reviewed, 2 - i64::from(!moved), "{a}");
    }
    eprintln!("{landed} of {} racing moves landed", offsets.len());
}

#[test]
fn the_increment_is_added_and_a_takeback_restarts_the_clock() {
    let server = Server::start();
    let g = server.create_online_clock(json!({"type": "realtime", "initial": 60, "increment": 2}));
    let s0 = server.state(&g.id);
    let since0 = ms(&s0["clock"]["since"]);
    let s1 = server.play_ok(&g.id, g.white(), FIRST);
    let since1 = ms(&s1["clock"]["since"]);
    assert_eq!(s1["clock"]["running"], "black");
    assert_eq!(
        ms(&s1["clock"]["white_ms"]),
        60_000 - (since1 - since0) + 2000,
        "white's time used is charged and 2 s added"
    );
    assert_eq!(ms(&s1["clock"]["black_ms"]), 60_000);
    let reply = legal_moves(&s1)[0].clone();
    let s2 = server.play_ok(&g.id, g.black(), &reply);
    let since2 = ms(&s2["clock"]["since"]);
    let black_after = ms(&s2["clock"]["black_ms"]);
    assert_eq!(black_after, 60_000 - (since2 - since1) + 2000);
    assert_eq!(s2["clock"]["running"], "white");

    // Black takes its move back: black's clock runs again from the
    // takeback, its time is not given back.
    let (status, body) = server.action(&g.id, "takeback", g.black(), "request");
    assert_eq!(status, 200, "{body}");
    let (status, s3) = server.action(&g.id, "takeback", g.white(), "accept");
    assert_eq!(status, 200, "{s3}");
    assert_eq!(s3["ply"], 1);
    assert_eq!(s3["clock"]["running"], "black");
    assert!(ms(&s3["clock"]["since"]) >= since2);
    assert_eq!(ms(&s3["clock"]["black_ms"]), black_after);
    // White was charged the time it had used when the takeback came.
    assert!(ms(&s3["clock"]["white_ms"]) <= ms(&s2["clock"]["white_ms"]));

    // Resigning stops the clock.
    let (status, s4) = server.post(
        &format!("/api/games/{}/resign", g.id),
        &json!({"token": g.white()}),
    );
    assert_eq!(status, 200, "{s4}");
    assert_eq!(s4["clock"]["running"], Value::Null);
    assert_eq!(s4["clock"]["since"], Value::Null);
}

#[test]
fn a_running_clock_survives_a_restart() {
    let dir = TempDir::new("clock-restart");
    let mut server = Server::builder().data_dir(dir.path()).start();
    let g = server.create_online_clock(json!({"type": "realtime", "initial": 5, "increment": 0}));
    let state = server.state(&g.id);
    let due = deadline(&state);
    server.kill();
    let server = Server::builder().data_dir(dir.path()).start();
    // Only the list is read (it does not load the game): the server finds
    // the running clock by itself.
    let start = Instant::now();
    let summary = loop {
        let (status, list) = server.get(&format!("/api/games?ids={}", g.id));
        assert_eq!(status, 200, "{list}");
        let summary = list["games"][0].clone();
        if summary["status"] == "over" {
            break summary;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no flag: {summary}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(summary["result"], "0-1");
    let over = server.state(&g.id);
    assert_eq!(over["result"]["text"], "White ran out of time");
    assert_eq!(
        over["version"].as_i64(),
        Some(state["version"].as_i64().unwrap() + 1)
    );
    assert!(ms(&over["updated"]) >= due);
}

#[test]
fn the_ai_keeps_time_in_a_timed_game() {
    let server = Server::start();
    let g = server.create(json!({
        "mode": "ai", "level": 4, "side": "white",
        "clock": {"type": "realtime", "initial": 10, "increment": 0}
    }));
    let mut state = g.body["game"].clone();
    assert_eq!(state["clock"]["running"], "white");
    let mut black = 10_000;
    for round in 0..4 {
        let mv = legal_moves(&state)[0].clone();
        let ply = state["ply"].as_u64().unwrap();
        server.play_ok(&g.id, g.white(), &mv);
        state = server.wait_for(&g.id, Duration::from_secs(60), |s| {
            s["ply"].as_u64() == Some(ply + 2) || s["status"] == "over"
        });
        assert_eq!(
            state["status"], "ongoing",
            "round {round}: {}",
            state["result"]
        );
        let now = ms(&state["clock"]["black_ms"]);
        assert!(
            now <= black,
            "round {round}: the AI's time only goes down: {now} after {black}"
        );
        assert!(now > 0, "round {round}: the AI keeps time: {now}");
        assert_eq!(state["clock"]["running"], "white");
        black = now;
    }
    assert!(black < 10_000, "the AI's time used is charged: {black}");
}
