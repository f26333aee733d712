//! The AI: its moves in games against it, and analyses.

use crate::app::{App, Shared, Slot};
use crate::error::ApiError;
use crate::games::Mode;
use crate::routes::{parse_variant, Body};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use punct_core::Position;
use punct_engine::{Ai, Engine, Level, Limits, Score};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an analysis waits for a free AI worker.
const ANALYSE_QUEUE_WAIT: Duration = Duration::from_secs(10);

impl App {
    /// Starts the AI on its move if it is its turn and it has not been
    /// asked yet for this version of the game.
    pub(crate) async fn kick_ai(self: &Arc<Self>, slot: &Arc<Slot>) {
        let (version, pos, level) = {
            let game = slot.game.lock().await;
            if !game.ai_to_move() {
                return;
            }
            let Mode::Ai { level, .. } = game.mode else {
                return;
            };
            (game.row.version, game.position().clone(), level)
        };
        if slot.ai_version.swap(version, Ordering::SeqCst) == version {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        *slot.ai_stop.lock().expect("stop lock") = stop.clone();
        let app = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let Ok(permit) = app.ai_permits.clone().acquire_owned().await else {
                return;
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let movetime = app.config.ai_movetime_ms;
            let searched = tokio::task::spawn_blocking(move || {
                let level = Level::from_number(level).unwrap_or(Level::Strongest);
                let mut ai = Ai::new(level, version as u64);
                ai.search(&pos, &Limits::movetime(movetime), &stop, &mut |_| {})
            })
            .await;
            drop(permit);
            let Ok(result) = searched else {
                eprintln!("punct serve: the AI search failed");
                return;
            };
            let mut game = slot.game.lock().await;
            if game.row.version != version || !game.ai_to_move() {
                return; // the game changed meanwhile (takeback, resignation)
            }
            let before = game.clone();
            let expected = before.row.version;
            if let Err(e) = game.play_ai(result.best) {
                eprintln!("punct serve: game {}: {e}", game.row.id);
                *game = before;
                return;
            }
            if let Err(e) = app.store.update(game.row.clone(), expected).await {
                eprintln!("punct serve: game {}: {e}", game.row.id);
                *game = before;
                return;
            }
            slot.publish(&game);
        });
    }
}

/// After a restart, games against the AI where it was the AI's turn go on.
pub(crate) async fn resume_ai_games(app: &Arc<App>) {
    let Ok(rows) = app.store.recent(Some("ongoing"), 1000) else {
        return;
    };
    for row in rows.into_iter().filter(|r| r.mode == "ai") {
        let _ = app.slot(&row.id).await;
    }
}

// ------------------------------------------------------------ analysis

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

pub(crate) async fn analyse(
    State(app): Shared,
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
        })?;
        pos.play(mv).map_err(|e| {
            ApiError::unprocessable(
                "illegal_move",
                format!("moves[{i}]: `{text}` is illegal: {e}"),
            )
        })?;
    }
    if pos.status().is_over() {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over in this position",
        ));
    }
    let movetime = req.movetime.unwrap_or(500);
    if movetime == 0 || movetime > app.config.analyse_max_ms {
        return Err(ApiError::bad_request(
            "bad_movetime",
            format!("movetime must be 1 to {} ms", app.config.analyse_max_ms),
        ));
    }
    let permit = tokio::time::timeout(ANALYSE_QUEUE_WAIT, app.ai_permits.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::unavailable("busy", "every AI worker is busy; try again"))?
        .map_err(|_| ApiError::internal("AI workers closed"))?;
    let position = pos.to_position_string();
    let started = Instant::now();
    let result = tokio::task::spawn_blocking(move || {
        let stop = AtomicBool::new(false);
        Ai::new(Level::Strongest, 0).search(&pos, &Limits::movetime(movetime), &stop, &mut |_| {})
    })
    .await
    .map_err(|_| ApiError::internal("the analysis failed"))?;
    drop(permit);
    Ok(axum::Json(json!({
        "position": position,
        "best": result.best.to_string(),
        "score": score_json(result.score),
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "time_ms": started.elapsed().as_millis() as u64,
    }))
    .into_response())
}
