//! `POST /api/analyse` (a position) and `POST /api/games/{id}/analyse`
//! (a game at a ply): the requests read and checked, the analysis run by
//! `analysis.rs`.

use super::http::{parse_variant, Body};
use crate::analysis::{game_position, search};
use crate::app::{App, Shared};
use crate::error::ApiError;
use crate::limits::Client;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use punct_core::Position;
use serde::Deserialize;

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
    let pos = game_position(&app, &id, req.ply).await?;
    Ok(axum::Json(search(&app, client, pos, movetime).await?).into_response())
}
