//! The HTTP side: every route and its handler, grouped by concern. A
//! handler reads the request (`http.rs`: bodies, query strings, JSON
//! answers), calls the logic of its concern (the change path, the games'
//! rules, creation, analysis, learning) and shows the result as JSON;
//! nothing below this module knows of requests or status codes except
//! through `ApiError`.

mod analysis;
mod games;
pub(crate) mod http;
mod learn;
mod live;
pub(crate) mod ops;

use crate::app::App;
use crate::error::ApiError;
use crate::web;
use axum::extract::{DefaultBodyLimit, Path, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use http::BODY_LIMIT;
use std::sync::Arc;

pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/rules", get(page))
        .route("/learn", get(page))
        .route("/learn/{lesson}", get(page))
        .route("/puzzles", get(page))
        .route("/puzzles/{id}", get(page))
        .merge(learn::routes())
        .route("/static/{*file}", get(static_file))
        .route(
            "/api/games",
            get(games::list_games).post(games::create_game),
        )
        .route("/api/games/import", post(games::import_game))
        .route("/api/games/{id}", get(games::get_game))
        .route("/api/games/{id}/moves", post(games::post_move))
        .route("/api/games/{id}/resign", post(games::post_resign))
        .route("/api/games/{id}/draw", post(games::post_draw))
        .route("/api/games/{id}/takeback", post(games::post_takeback))
        .route("/api/games/{id}/record", get(games::get_record))
        .route("/api/games/{id}/claim", post(games::post_claim))
        .route("/api/games/{id}/token", post(games::post_token))
        .route("/api/games/{id}/invite", post(games::post_invite))
        .route("/api/games/{id}/name", post(games::post_name))
        .route("/api/games/{id}/rematch", post(games::post_rematch))
        .route("/api/games/{id}/abandon", post(games::post_abandon))
        .route("/api/games/{id}/live", get(live::live))
        .route("/api/analyse", post(analysis::analyse))
        .route("/api/games/{id}/analyse", post(analysis::analyse_game))
        .route("/api/board", get(games::board))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

// ------------------------------------------------------------ pages

pub(crate) async fn page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        web::index(),
    )
        .into_response()
}

pub(crate) async fn static_file(Path(file): Path<String>) -> Response {
    match web::file(&file) {
        Some((content_type, bytes)) => {
            ([(header::CONTENT_TYPE, content_type)], bytes).into_response()
        }
        None => ApiError::not_found("not_found", format!("no file `{file}`")).into_response(),
    }
}

pub(crate) async fn method_not_allowed(req: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed on {} (docs/API.md lists the methods)",
            req.method(),
            req.uri().path()
        ),
    )
}

pub(crate) async fn not_found(req: Request) -> ApiError {
    ApiError::not_found(
        "not_found",
        format!("no such endpoint: {} {}", req.method(), req.uri().path()),
    )
}
