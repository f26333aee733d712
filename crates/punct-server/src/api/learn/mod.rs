//! Learning the game over HTTP: the rules page's diagrams, the tutorial's
//! lessons and the puzzles of `punct-learn` (judged there, not in the
//! page), each part with its own routes under `/api/learn/…`. The answers
//! are punct-view's (`learn`), which the page's WebAssembly build gives too
//! when there is no server; these handlers only carry them.

mod diagrams;
mod puzzles;
mod tutorial;

use super::Route;
use crate::error::ApiError;
use axum::http::StatusCode;
use punct_view::learn::Refusal;

pub(crate) fn routes() -> Vec<Route> {
    let mut all = diagrams::routes();
    all.extend(tutorial::routes());
    all.extend(puzzles::routes());
    all
}

/// A refusal of punct-view's as the API's error.
fn refused(r: Refusal) -> ApiError {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut e = ApiError::new(status, r.code, r.message);
    for (name, value) in r.params {
        e = e.with(&name, value);
    }
    e.reason = r.reason;
    e
}

/// Runs a judge off the async threads (it may look at every answer of
/// the opponent's).
async fn judged<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("judging failed: {e}")))?
        .map_err(refused)
}
