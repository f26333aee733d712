//! Analysis on request: the engine's three best moves with their scores
//! (multi-PV) and the connection solver's verdicts — does the side to move
//! force a win, does the opponent threaten one — for a position or for a
//! game at a ply (the handlers are `api/analysis.rs`).
//! The game-bound one keeps fair play: it is refused while a game between
//! people is being played, and a hint on the live position of a game
//! against the AI marks that game assisted.

use crate::app::App;
use crate::error::ApiError;
use crate::games::Mode;
use crate::limits::ClientKey;
use crate::scheduler::{Job, Permit};
use punct_core::Position;
use punct_engine::{Ai, Engine, Level, Limits, SearchResult};
use punct_view::analysis::{analyse, Analysis};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an analysis waits for a free AI worker.
const ANALYSE_QUEUE_WAIT: Duration = Duration::from_secs(10);

/// Sets a search's stop flag when dropped: an analysis whose client hung
/// up (its request's future dropped) stops searching at once.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The position of game `id` after `ply` plies (default: now) for
/// analysis, within the fair-play rules: refused while a game between
/// people is being played; a hint on the live position of a game against
/// the AI marks that game assisted.
pub(crate) async fn game_position(
    app: &Arc<App>,
    id: &str,
    ply: Option<usize>,
) -> Result<Position, ApiError> {
    let slot = app.slot(id).await?;
    let (pos, hint) = {
        let game = slot.game.lock().await;
        let ongoing = !game.is_over();
        if ongoing && game.row.mode == Mode::Online {
            return Err(ApiError::forbidden(
                "analysis_off",
                "analysis is off while a game between people is being played; \
                 it opens when the game ends",
            ));
        }
        // A rated game against an AI level counts for both: no hints.
        if ongoing && game.row.rated {
            return Err(ApiError::forbidden(
                "analysis_off",
                "analysis is off while a rated game is being played; it opens when the \
                 game ends",
            ));
        }
        let len = game.game.len();
        let ply = ply.unwrap_or(len);
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
        let hint = ongoing && ply == len && matches!(game.row.mode, Mode::Ai { .. });
        (past.position().clone(), hint && !game.row.assisted)
    };
    if hint {
        // The engine helps the person playing the AI: the record says so.
        app.change(id, |g| {
            if !g.row.assisted {
                g.row.assisted = true;
                g.changed();
            }
            Ok(())
        })
        .await?;
    }
    Ok(pos)
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

/// The whole analysis (punct-view's) on the AI worker's thread, holding
/// the worker `permit` until done, even if the asker has gone (its `stop`
/// ends it at once). `None`: the thread failed.
async fn analyse_on_worker(
    permit: Permit,
    pos: Position,
    movetime: u64,
    stop: Arc<AtomicBool>,
) -> Option<Analysis> {
    tokio::task::spawn_blocking(move || {
        let found = analyse(&pos, movetime, &stop, &mut |_| {});
        drop(permit);
        found
    })
    .await
    .ok()
}

/// Analyses `pos` for `movetime` ms on an AI worker, fairly queued.
pub(crate) async fn search(
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
    let found = analyse_on_worker(permit, pos, movetime, stop)
        .await
        .ok_or_else(|| ApiError::internal("the analysis failed"))?;
    Ok(found.to_json(&position, started.elapsed().as_millis() as u64))
}
