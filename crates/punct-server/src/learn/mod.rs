//! Learning the game: the rules page's diagrams, the tutorial's lessons
//! (judged here, not in the page) and the puzzles. Each part brings its
//! own routes under `/api/learn/…`.

mod diagrams;
mod puzzles;
mod tutorial;

use crate::app::App;
use axum::Router;
use std::sync::Arc;

pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .merge(diagrams::routes())
        .merge(tutorial::routes())
        .merge(puzzles::routes())
}
