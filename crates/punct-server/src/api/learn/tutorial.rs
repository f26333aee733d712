//! The tutorial's lessons as JSON (`/api/learn/lessons`, docs/API.md): the
//! list, one lesson with its legal moves, and a try judged by
//! `punct_learn::tutorial` (the page words the verdict from its catalogue,
//! `tutorial.…`).

use super::{judged, refused, Route};
use crate::api::http::{json_text, Body};
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
        Route::get("/api/learn/lessons", Bucket(Read), list),
        Route::get("/api/learn/lessons/{id}", Bucket(Read), one),
        Route::post("/api/learn/lessons/{id}/try", Bucket(Read), try_move),
    ]
}

async fn list() -> Response {
    json_text(StatusCode::OK, learn::lessons().to_string())
}

async fn one(Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = learn::lesson(&id).map_err(refused)?;
    Ok(json_text(StatusCode::OK, text.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TryRequest {
    #[serde(rename = "move")]
    mv: String,
}

async fn try_move(
    Path(id): Path<String>,
    Body(req): Body<TryRequest>,
) -> Result<Response, ApiError> {
    let answer = judged(move || learn::try_lesson(&id, &req.mv)).await?;
    Ok(json_text(StatusCode::OK, answer.to_string()))
}
