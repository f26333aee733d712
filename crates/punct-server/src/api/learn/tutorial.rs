//! The tutorial's lessons as JSON (`/api/learn/lessons`, docs/API.md): the
//! list, one lesson with its legal moves, and a try judged by
//! `punct_learn::tutorial` (the page words the verdict from its catalogue,
//! `tutorial.…`).

use super::{played_state, Route};
use crate::api::http::{json_text, Body};
use crate::error::ApiError;
use crate::view::position_view;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use punct_core::Move;
use punct_learn::tutorial::{judge, lesson, Lesson, LESSONS};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::OnceLock;

pub(super) fn routes() -> Vec<Route> {
    use crate::api::Limit::Bucket;
    use crate::limits::Kind::Read;
    vec![
        Route::get("/api/learn/lessons", Bucket(Read), list),
        Route::get("/api/learn/lessons/{id}", Bucket(Read), one),
        Route::post("/api/learn/lessons/{id}/try", Bucket(Read), try_move),
    ]
}

/// A lesson as the API shows it; `legal`: with the position's legal moves
/// (one lesson), or without them (the list).
fn lesson_json(index: usize, l: &Lesson, legal: bool) -> Value {
    let pos = l.start();
    let state = position_view(&pos).into_value(legal);
    json!({
        "id": l.id,
        "index": index,
        "count": LESSONS.len(),
        "title": format!("tutorial.lesson.{}.title", l.id),
        "goal": format!("tutorial.lesson.{}.goal", l.id),
        "hint": format!("tutorial.lesson.{}.hint", l.id),
        "to_move": pos.side_to_move().name(),
        "marks": l.marks,
        "counted": l.counted().map(|side| side.name()),
        "example": l.example,
        "state": state,
    })
}

fn no_lesson(id: &str) -> ApiError {
    ApiError::not_found(
        "no_lesson",
        format!(
            "there is no lesson `{id}` (GET /api/learn/lessons lists them: {})",
            LESSONS.iter().map(|l| l.id).collect::<Vec<_>>().join(", ")
        ),
    )
    .with("id", id)
}

async fn list() -> Response {
    static TEXT: OnceLock<String> = OnceLock::new();
    let text = TEXT.get_or_init(|| {
        let lessons: Vec<Value> = LESSONS
            .iter()
            .enumerate()
            .map(|(i, l)| lesson_json(i, l, false))
            .collect();
        json!({ "lessons": lessons }).to_string()
    });
    json_text(StatusCode::OK, text.clone())
}

async fn one(Path(id): Path<String>) -> Result<Response, ApiError> {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        LESSONS
            .iter()
            .enumerate()
            .map(|(i, l)| lesson_json(i, l, true).to_string())
            .collect()
    });
    let index = LESSONS
        .iter()
        .position(|l| l.id == id)
        .ok_or_else(|| no_lesson(&id))?;
    Ok(json_text(StatusCode::OK, texts[index].clone()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TryRequest {
    #[serde(rename = "move")]
    mv: String,
}

/// The answer to a try: the verdict, and the position after a legal move.
fn try_json(lesson: &Lesson, text: &str) -> Result<Value, ApiError> {
    let mv: Move = text.parse().map_err(|e: punct_core::ParseMoveError| {
        ApiError::bad_request("bad_move", e.to_string()).with("move", text.trim())
    })?;
    let (verdict, after) = judge(lesson, &lesson.start(), mv);
    let state = match after {
        Some(pos) => played_state(&pos, Some(mv), false),
        None => Value::Null,
    };
    Ok(json!({
        "lesson": lesson.id,
        "move": mv.to_string(),
        "correct": verdict.correct,
        "code": verdict.code,
        "params": verdict.params,
        "reply": verdict.reply.map(|m| m.to_string()),
        "state": state,
    }))
}

async fn try_move(
    Path(id): Path<String>,
    Body(req): Body<TryRequest>,
) -> Result<Response, ApiError> {
    let lesson = lesson(&id).ok_or_else(|| no_lesson(&id))?;
    // Judging a block looks at every answer of the opponent's: off the
    // async threads.
    let answer = tokio::task::spawn_blocking(move || try_json(lesson, &req.mv))
        .await
        .map_err(|e| ApiError::internal(format!("the judge failed: {e}")))??;
    Ok(json_text(StatusCode::OK, answer.to_string()))
}
