//! One game of `punct bot`: its game stream read (the first line in full,
//! then each change), the engine asked for a move whenever it is the
//! bot's turn — the position as the start and the moves so far, the
//! search limited by the bot's clock — and the move posted. The stream is
//! opened again when it drops before the game ends.

use super::client::{Client, Failure, Line};
use super::{say, Engine, Msg};
use crate::match_cmd::players::{Fault, Request};
use punct_core::{Game, Move, Position, Side, Variant};
use punct_engine::{Clock, Limits};
use serde_json::Value;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Milliseconds kept back from the bot's clock for the way to the server
/// and back (the engine is told it has this much less).
const LAG_MS: u64 = 300;

/// What a game thread needs.
pub struct Ctx {
    pub client: Arc<Client>,
    pub engine: Engine,
    /// The thinking time per move in games without a real-time clock.
    pub movetime: u64,
    pub tell: Sender<Msg>,
}

/// What the `gameFull` line says of the game.
struct Setup {
    start: Position,
    variant: Variant,
    you: Side,
    realtime: bool,
}

fn setup(full: &Value) -> Result<Setup, String> {
    let start = full["start"].as_str().unwrap_or("");
    let start = Position::from_position_string(start)
        .map_err(|e| format!("the game's start position `{start}`: {e}"))?;
    let you = match full["you"].as_str() {
        Some("white") => Side::White,
        Some("black") => Side::Black,
        other => return Err(format!("gameFull names no side for the bot ({other:?})")),
    };
    Ok(Setup {
        variant: start.variant(),
        start,
        you,
        realtime: full["clock"]["type"] == "realtime",
    })
}

/// The game after the start and `moves` (as the server listed them).
fn replay(start: &Position, moves: &Value) -> Result<Game, String> {
    let mut game = Game::from_position(start.clone());
    for (i, text) in moves.as_array().into_iter().flatten().enumerate() {
        let text = text.as_str().unwrap_or("");
        let mv: Move = text
            .parse()
            .map_err(|e| format!("move {} `{text}` from the server: {e}", i + 1))?;
        game.play(mv)
            .map_err(|e| format!("move {} `{text}` from the server: {e}", i + 1))?;
    }
    Ok(game)
}

/// The search's limits for the bot's move in `state`: the clocks (less
/// [`LAG_MS`]) in a real-time game, so the engine splits its own time;
/// else `movetime`. The hard limit is where the engine has overstayed.
fn request(setup: &Setup, state: &Value, movetime: u64) -> Request {
    let times = (state["wtime"].as_u64(), state["btime"].as_u64());
    if let (true, (Some(w), Some(b))) = (setup.realtime, times) {
        let ms = Duration::from_millis;
        let clock = Clock {
            wtime: ms(w.saturating_sub(LAG_MS)),
            btime: ms(b.saturating_sub(LAG_MS)),
            winc: ms(state["winc"].as_u64().unwrap_or(0)),
            binc: ms(state["binc"].as_u64().unwrap_or(0)),
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let own = if setup.you == Side::White { w } else { b };
        let budget = limits.time_budget(setup.you).unwrap_or(ms(1000));
        let hard = (budget * 2 + ms(1000)).min(ms(own.saturating_sub(LAG_MS / 2).max(50)));
        return Request {
            limits,
            hard_limit: hard.max(budget),
        };
    }
    Request {
        limits: Limits::movetime(movetime),
        hard_limit: Duration::from_millis(movetime) + Duration::from_secs(10),
    }
}

/// Plays game `id` until it ends (or the engine fails: then the game is
/// resigned and the failure told to the main loop).
pub fn play(ctx: Arc<Ctx>, id: String) {
    let mut pause = Duration::from_secs(1);
    // The ply at which the bot last moved: a state seen again (after a
    // reconnection) is not answered twice.
    let mut moved_at: Option<u64> = None;
    loop {
        let lines = match ctx.client.stream(&format!("/api/bot/game/stream/{id}")) {
            Ok(lines) => lines,
            Err(f @ Failure::Refused { .. }) => {
                say(&format!(
                    "game {id}: the server refuses its stream: {}",
                    f.text()
                ));
                break;
            }
            Err(f) => {
                say(&format!(
                    "game {id}: {}; trying again in {} s",
                    f.text(),
                    pause.as_secs()
                ));
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(30));
                continue;
            }
        };
        pause = Duration::from_secs(1);
        let first = match lines.next() {
            Line::Json(v) if v["type"] == "gameFull" => v,
            Line::Json(v) => {
                say(&format!(
                    "game {id}: the stream began with {v}, not gameFull"
                ));
                break;
            }
            Line::End(why) => {
                say(&format!("game {id}: the stream ended at once ({why})"));
                continue;
            }
        };
        let setup = match setup(&first) {
            Ok(s) => s,
            Err(e) => {
                say(&format!("game {id}: {e}"));
                break;
            }
        };
        let mut state = first["state"].clone();
        loop {
            if state["status"] == "over" {
                let _ = ctx.tell.send(Msg::GameDone(id.clone()));
                return;
            }
            let ply = state["ply"].as_u64().unwrap_or(0);
            if state["to_move"].as_str() == Some(setup.you.name()) && moved_at != Some(ply) {
                match think_and_move(&ctx, &id, &setup, &state) {
                    Ok(true) => moved_at = Some(ply),
                    Ok(false) => {}
                    Err(e) => {
                        let _ = ctx.client.post(&format!("/api/bot/game/{id}/resign"), None);
                        let _ = ctx.tell.send(Msg::Fatal(format!(
                            "game {id}: {e} (the game was resigned)"
                        )));
                        return;
                    }
                }
            }
            match lines.next() {
                Line::Json(v) if v["type"] == "gameState" => state = v,
                Line::Json(_) => {} // a kind of line this version does not know
                Line::End(why) => {
                    say(&format!(
                        "game {id}: its stream ended ({why}); opening it again"
                    ));
                    break;
                }
            }
        }
    }
    let _ = ctx.tell.send(Msg::GameDone(id));
}

/// Asks the engine for a move in `state` and posts it: true when the
/// server took it, false when the game had moved on meanwhile; an error
/// when the engine failed or chose a move the server refuses.
fn think_and_move(ctx: &Ctx, id: &str, setup: &Setup, state: &Value) -> Result<bool, String> {
    let game = replay(&setup.start, &state["moves"])?;
    let request = request(setup, state, ctx.movetime);
    let chosen = {
        let mut engine = ctx.engine.lock().unwrap_or_else(|e| e.into_inner());
        let Some(player) = engine.as_mut() else {
            return Ok(false); // stopping
        };
        if player.game.as_deref() != Some(id) {
            player
                .engine
                .new_game(setup.variant)
                .map_err(|f| fault_text(&player.name, &f))?;
            player.game = Some(id.to_string());
        }
        player
            .engine
            .go(&game, &request)
            .map_err(|f| fault_text(&player.name, &f))?
    };
    let (mv, took) = chosen;
    let path = format!("/api/bot/game/{id}/move/{mv}");
    match ctx.client.post(&path, None) {
        Ok(_) => {
            say(&format!(
                "game {id}: {} plays {mv} ({} ms)",
                setup.you.name(),
                took.as_millis()
            ));
            Ok(true)
        }
        // The game moved on meanwhile (a takeback, the flag, a resignation):
        // its next state says what now.
        Err(Failure::Refused { status: 409, .. }) => Ok(false),
        Err(Failure::Refused {
            status: 422 | 400,
            message,
            ..
        }) => Err(format!(
            "the engine chose `{mv}`, which the server refuses: {message}"
        )),
        Err(f) => {
            say(&format!("game {id}: posting {mv}: {}", f.text()));
            Ok(false)
        }
    }
}

fn fault_text(name: &str, f: &Fault) -> String {
    let what = match f {
        Fault::Timeout(_) => "missed its time",
        Fault::Crash(_) => "failed",
        Fault::Malformed(_) => "spoke against the protocol",
    };
    format!(
        "the engine `{name}` {what}: {}",
        crate::match_cmd::fault_text(f)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_engine_splits_the_clock_it_is_told_less_the_lag() {
        let setup = Setup {
            start: Position::new(Variant::Standard),
            variant: Variant::Standard,
            you: Side::Black,
            realtime: true,
        };
        let state = json!({"wtime": 60_000, "btime": 10_300, "winc": 2000, "binc": 2000});
        let r = request(&setup, &state, 1000);
        let clock = r.limits.clock.expect("the clock");
        assert_eq!(clock.btime, Duration::from_millis(10_000));
        assert_eq!(clock.binc, Duration::from_millis(2000));
        let budget = r.limits.time_budget(Side::Black).expect("a budget");
        // A 25th of the time left and most of the increment.
        assert_eq!(budget, Duration::from_millis(10_000 / 25 + 1500));
        assert!(r.hard_limit >= budget && r.hard_limit < Duration::from_millis(10_300));
        // Untimed (or by correspondence): the fixed time per move.
        let untimed = Setup {
            realtime: false,
            ..setup
        };
        let r = request(&untimed, &json!({"wtime": null, "btime": null}), 700);
        assert_eq!(r.limits.movetime, Some(Duration::from_millis(700)));
        assert!(r.limits.clock.is_none());
    }

    #[test]
    fn the_game_is_replayed_from_the_servers_lines() {
        let start = Position::new(Variant::Standard);
        let game = replay(&start, &json!(["C@B7/2", "R@F2/0"])).expect("legal");
        assert_eq!(game.len(), 2);
        assert!(replay(&start, &json!(["C@B7/2", "C@B7/2"]))
            .unwrap_err()
            .contains("move 2"));
        let full = json!({"start": "basic:w:0:-", "you": "black", "clock": null});
        let s = setup(&full).expect("a setup");
        assert_eq!(
            (s.variant, s.you, s.realtime),
            (Variant::Basic, Side::Black, false)
        );
        assert!(setup(&json!({"start": "basic:w:0:-"})).is_err());
    }
}
