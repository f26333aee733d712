//! Placeholder (issue 12).

use crate::app::App;
use axum::Router;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
}
