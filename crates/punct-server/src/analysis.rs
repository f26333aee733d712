//! Analysis on request: the engine's best move and score for a position
//! (`POST /api/analyse`) or for a game at a ply (`POST
//! /api/games/{id}/analyse`). The game-bound one keeps fair play: it is
//! refused while a game between people is being played, and a hint on
//! the live position of a game against the AI marks that game assisted.

use crate::ai::{Job, Permit};
use crate::app::{App, Shared};
use crate::error::ApiError;
use crate::games::Mode;
use crate::limits::{Client, ClientKey};
use crate::routes::{parse_variant, Body};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use punct_core::Position;
use punct_engine::{Ai, Engine, Level, Limits, Score, SearchResult};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an analysis waits for a free AI worker.
const ANALYSE_QUEUE_WAIT: Duration = Duration::from_secs(10);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    /// A position string; default the start position of `variant`.
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    /// Moves played from there first.
    #[serde(default)]
    moves: Vec<String>,
    /// Thinking time in milliseconds (default 500).
    #[serde(default)]
    movetime: Option<u64>,
}

pub fn score_json(s: Score) -> Value {
    match s {
        Score::Eval(cp) => json!({"cp": cp}),
        Score::Win(n) => json!({"win": n}),
        Score::Loss(n) => json!({"loss": n}),
    }
}

/// Sets a search's stop flag when dropped: an analysis whose client hung
/// up (its request's future dropped) stops searching at once.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn check_movetime(app: &App, movetime: Option<u64>) -> Result<u64, ApiError> {
    let movetime = movetime.unwrap_or(500);
    if movetime == 0 || movetime > app.config.analyse_max_ms {
        return Err(ApiError::bad_request(
            "bad_movetime",
            format!("movetime must be 1 to {} ms", app.config.analyse_max_ms),
        )
        .with("max", app.config.analyse_max_ms));
    }
    Ok(movetime)
}

pub(crate) async fn analyse(
    State(app): Shared,
    Client(client): Client,
    Body(req): Body<AnalyseRequest>,
) -> Result<Response, ApiError> {
    let mut pos = match &req.position {
        Some(p) => Position::from_position_string(p)
            .map_err(|e| ApiError::bad_request("bad_position", format!("the position: {e}")))?,
        None => Position::new(parse_variant(req.variant.as_deref())?),
    };
    for (i, text) in req.moves.iter().enumerate() {
        let mv = text.parse().map_err(|e: punct_core::ParseMoveError| {
            ApiError::bad_request("bad_move", format!("moves[{i}]: {e}"))
                .with("move", text.as_str())
                .with("index", i)
        })?;
        pos.play(mv).map_err(|e| {
            ApiError::unprocessable(
                "illegal_move",
                format!("moves[{i}]: {text} is illegal: {e}"),
            )
            .with("move", mv.to_string())
            .with("index", i)
            .because(&e)
        })?;
    }
    let movetime = check_movetime(&app, req.movetime)?;
    Ok(axum::Json(search(&app, client, pos, movetime).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameAnalyseRequest {
    /// The position after this many plies; default the current one.
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    movetime: Option<u64>,
}

/// Analyses game `id` at a ply, within the fair-play rules.
pub(crate) async fn analyse_game(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<GameAnalyseRequest>,
) -> Result<Response, ApiError> {
    let movetime = check_movetime(&app, req.movetime)?;
    let slot = app.slot(&id).await?;
    let (pos, hint) = {
        let game = slot.game.lock().await;
        let ongoing = !game.is_over();
        if ongoing && game.mode == Mode::Online {
            return Err(ApiError::forbidden(
                "analysis_off",
                "analysis is off while a game between people is being played; \
                 it opens when the game ends",
            ));
        }
        let len = game.game.len();
        let ply = req.ply.unwrap_or(len);
        if ply > len {
            return Err(ApiError::bad_request(
                "bad_ply",
                format!("ply {ply} is past the end of the game ({len} plies)"),
            )
            .with("ply", ply)
            .with("plies", len));
        }
        let mut past = game.game.clone();
        while past.len() > ply {
            past.undo();
        }
        let hint = ongoing && ply == len && matches!(game.mode, Mode::Ai { .. });
        (past.position().clone(), hint && !game.row.assisted)
    };
    if hint {
        // The engine helps the person playing the AI: the record says so.
        app.change(&id, |g| {
            if !g.row.assisted {
                g.row.assisted = true;
                g.changed();
            }
            Ok(())
        })
        .await?;
    }
    Ok(axum::Json(search(&app, client, pos, movetime).await?).into_response())
}

/// The strongest level's search of `pos` for `movetime` ms on a blocking
/// thread, holding the AI worker `permit` until the search has returned
/// (even if the asker has gone long before). `None`: the thread failed.
pub(crate) async fn search_on_worker(
    permit: Permit,
    pos: Position,
    movetime: u64,
    stop: Arc<AtomicBool>,
) -> Option<SearchResult> {
    tokio::task::spawn_blocking(move || {
        let result = Ai::new(Level::Strongest, 0).search(
            &pos,
            &Limits::movetime(movetime),
            &stop,
            &mut |_| {},
        );
        drop(permit);
        result
    })
    .await
    .ok()
}

/// Searches `pos` for `movetime` ms on an AI worker, fairly queued.
async fn search(
    app: &Arc<App>,
    client: ClientKey,
    pos: Position,
    movetime: u64,
) -> Result<Value, ApiError> {
    if pos.status().is_over() {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over in this position",
        ));
    }
    let ticket = app
        .ai
        .enqueue(client)
        .map_err(|r| r.into_error(Job::Analysis))?;
    // A timeout drops the ticket, which leaves the queue.
    let permit = tokio::time::timeout(ANALYSE_QUEUE_WAIT, ticket.wait())
        .await
        .map_err(|_| ApiError::unavailable("busy", "every AI worker is busy; try again"))?
        .ok_or_else(|| ApiError::internal("the AI's queue is gone"))?;
    let position = pos.to_position_string();
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_hang_up = StopOnDrop(stop.clone());
    let result = search_on_worker(permit, pos, movetime, stop)
        .await
        .ok_or_else(|| ApiError::internal("the analysis failed"))?;
    Ok(json!({
        "position": position,
        "best": result.best.to_string(),
        "score": score_json(result.score),
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "time_ms": started.elapsed().as_millis() as u64,
    }))
}
