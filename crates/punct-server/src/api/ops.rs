//! The operators' endpoints: `GET /metrics` (metrics.rs, with the gauges
//! read from the app), `GET /api/health`, the readiness check that asks
//! the database, and the middleware counting every answer.

use crate::app::Shared;
use crate::metrics::Gauges;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Middleware: counts every answer by method and status.
pub(crate) async fn count_requests(State(app): Shared, request: Request, next: Next) -> Response {
    let method = crate::metrics::method_label(request.method());
    let response = next.run(request).await;
    app.metrics.answered(method, response.status().as_u16());
    response
}

/// `GET /api/status`: what the server holds now, for operators (and the
/// limits' tests).
pub(crate) async fn status(State(app): Shared) -> axum::Json<serde_json::Value> {
    axum::Json(json!({
        "games_in_memory": app.games_in_memory(),
        "live_sockets": app.sockets.total(),
        // The page's own games against the AI think as long as the server's.
        "ai_movetime_ms": app.config.ai_movetime_ms,
    }))
}

/// `GET /metrics`.
pub(crate) async fn metrics(State(app): Shared) -> Response {
    let (ai_running, ai_waiting) = app.ai.counts();
    let now = Gauges {
        live_sockets: app.sockets.total(),
        games_in_memory: app.games_in_memory(),
        ai_running,
        ai_waiting,
    };
    match app.metrics.encode(now) {
        Ok(text) => (
            [(
                header::CONTENT_TYPE,
                "application/openmetrics-text; version=1.0.0; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        Err(_) => crate::error::ApiError::internal("encoding the metrics failed").into_response(),
    }
}

/// `GET /api/health`: 200 when this instance can save (a real write
/// landed, with how fast), 503 with why when it cannot.
pub(crate) async fn health(State(app): Shared) -> Response {
    let kind = app.store.kind();
    let answer = app
        .readiness
        .check(app.store.as_ref(), &app.jobs.lease.owner)
        .await;
    let (status, body) = match answer {
        Ok(latency_ms) => (
            StatusCode::OK,
            json!({"status": "ok", "database": {"kind": kind, "latency_ms": latency_ms}}),
        ),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "unavailable", "database": {"kind": kind, "error": why}}),
        ),
    };
    (status, axum::Json(body)).into_response()
}
