//! The rules page's diagrams as JSON (`GET /api/learn/diagrams`): each
//! diagram of `punct_learn::diagrams` with its state, the moves it draws
//! and the claims its caption makes (the page words them from its
//! catalogue, `rules.diagram.<id>`).

use super::Route;
use crate::api::http::json_text;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

pub(super) fn routes() -> Vec<Route> {
    vec![Route::get(
        "/api/learn/diagrams",
        crate::api::Limit::Bucket(crate::limits::Kind::Read),
        list,
    )]
}

async fn list() -> Response {
    match punct_view::learn::diagrams() {
        Ok(text) => json_text(StatusCode::OK, text.clone()),
        Err(e) => crate::error::ApiError::internal(e.clone()).into_response(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_diagram_is_shown() {
        assert!(punct_view::learn::diagrams().is_ok());
    }
}
