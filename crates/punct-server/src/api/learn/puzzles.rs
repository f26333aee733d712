//! The puzzles as JSON under `/api/learn/puzzles` (docs/PUZZLES.md): the
//! list, the puzzle of the day, one puzzle, and a learner's try judged by
//! `punct_learn::puzzles` (with the opponent's answers).

use super::{judged, refused, Route};
use crate::api::http::{json_text, Body, Params};
use crate::date::{date_text, today};
use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use punct_view::learn;
use serde::Deserialize;

pub(super) fn routes() -> Vec<Route> {
    use crate::api::Limit::Bucket;
    use crate::limits::Kind::Read;
    vec![
        Route::get("/api/learn/puzzles", Bucket(Read), list),
        Route::get("/api/learn/puzzles/daily", Bucket(Read), daily),
        Route::get("/api/learn/puzzles/{id}", Bucket(Read), one),
        // A try is judged by the engine: a read's cost, not an analysis'.
        Route::post("/api/learn/puzzles/{id}/try", Bucket(Read), attempt),
    ]
}

async fn list() -> Response {
    json_text(StatusCode::OK, learn::puzzle_list().to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DailyQuery {
    date: Option<String>,
}

async fn daily(Params(q): Params<DailyQuery>) -> Result<Response, ApiError> {
    let date = q.date.unwrap_or_else(|| date_text(today()));
    let answer = learn::daily(&date).map_err(refused)?;
    Ok(json_text(StatusCode::OK, answer.to_string()))
}

async fn one(Path(id): Path<String>) -> Result<Response, ApiError> {
    let answer = learn::puzzle(&id).map_err(refused)?;
    Ok(json_text(StatusCode::OK, answer.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Attempt {
    moves: Vec<String>,
}

async fn attempt(Path(id): Path<String>, Body(body): Body<Attempt>) -> Result<Response, ApiError> {
    let answer = judged(move || learn::try_puzzle(&id, &body.moves)).await?;
    Ok(json_text(StatusCode::OK, answer.to_string()))
}
