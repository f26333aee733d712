//! The puzzles as JSON under `/api/learn/puzzles` (docs/PUZZLES.md): the
//! list, the puzzle of the day, one puzzle, and a learner's try judged by
//! `punct_learn::puzzles` (with the opponent's answers).

use super::{played_state, Route};
use crate::api::http::{json_text, Body, Params};
use crate::date::{date_text, parse_date, today};
use crate::error::ApiError;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use punct_core::Move;
use punct_engine::puzzle::PuzzleKind;
use punct_learn::puzzles::{self, find, of_the_day, puzzles, Puzzle, TryError};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::OnceLock;

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

fn found(id: &str) -> Result<&'static Puzzle, ApiError> {
    find(id).ok_or_else(|| {
        ApiError::not_found("unknown_puzzle", format!("there is no puzzle `{id}`"))
            .with("id", id.chars().take(40).collect::<String>())
    })
}

fn moves_json(moves: &[Move]) -> Value {
    Value::Array(moves.iter().map(|m| json!(m.to_string())).collect())
}

/// The task's message key, with the side.
fn task_json(p: &Puzzle) -> Value {
    json!({"code": p.task_code(), "params": {"side": p.side().name()}})
}

/// The list's line of a puzzle: no legal moves, no solutions.
fn summary(p: &Puzzle) -> Value {
    json!({
        "id": p.id,
        "kind": p.kind.name(),
        "side": p.side().name(),
        "task": task_json(p),
        "state": played_state(&p.position, None, false),
    })
}

/// Everything about one puzzle, solutions included (the page shows them
/// when asked), and the next puzzle in the list.
fn full(p: &Puzzle) -> Value {
    let (i, next) = p.place();
    json!({
        "id": p.id,
        "kind": p.kind.name(),
        "side": p.side().name(),
        "task": task_json(p),
        "number": i + 1,
        "count": puzzles().len(),
        "next": next.id,
        "moves_to_find": p.moves_to_find(),
        "solutions": moves_json(&p.solutions),
        "lines": p.lines.iter().map(|l| json!({
            "first": l.first.to_string(),
            "reply": l.reply.to_string(),
            "wins": moves_json(&l.wins),
        })).collect::<Vec<_>>(),
        "source": p.source,
        "state": played_state(&p.position, None, true),
    })
}

fn ok(v: Value) -> Response {
    json_text(StatusCode::OK, v.to_string())
}

async fn list() -> Response {
    static TEXT: OnceLock<String> = OnceLock::new();
    let text = TEXT.get_or_init(|| {
        json!({
            "count": puzzles().len(),
            "kinds": PuzzleKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(),
            "puzzles": puzzles().iter().map(summary).collect::<Vec<_>>(),
        })
        .to_string()
    });
    json_text(StatusCode::OK, text.clone())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DailyQuery {
    date: Option<String>,
}

async fn daily(Params(q): Params<DailyQuery>) -> Result<Response, ApiError> {
    let days = match q.date.as_deref() {
        Some(text) => parse_date(text).ok_or_else(|| {
            ApiError::bad_request(
                "bad_date",
                format!(
                    "`{}` is not a date written YYYY-MM-DD",
                    text.chars().take(20).collect::<String>()
                ),
            )
        })?,
        None => today(),
    };
    let p = of_the_day(days);
    Ok(ok(json!({"date": date_text(days), "puzzle": full(p)})))
}

async fn one(Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(ok(full(found(&id)?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Attempt {
    moves: Vec<String>,
}

fn try_error(e: TryError) -> ApiError {
    let message = e.to_string();
    match e {
        TryError::NoMoves => ApiError::bad_request("no_moves", message),
        TryError::TooMany { most, .. } => {
            ApiError::bad_request("too_many_moves", message).with("count", most)
        }
        TryError::Illegal(mv, why) => ApiError::illegal(mv, &why),
        TryError::NotALine(first) => {
            ApiError::bad_request("not_a_line", message).with("move", first.to_string())
        }
        TryError::Broken(_) => ApiError::internal(message),
    }
}

async fn attempt(Path(id): Path<String>, Body(body): Body<Attempt>) -> Result<Response, ApiError> {
    let p = found(&id)?;
    // The count is refused before any move is read.
    p.check_count(body.moves.len()).map_err(try_error)?;
    let moves: Vec<Move> = body
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.trim().parse().map_err(|e: punct_core::ParseMoveError| {
                ApiError::bad_request("bad_move", format!("moves[{i}]: {e}"))
                    .with("move", m.chars().take(20).collect::<String>())
            })
        })
        .collect::<Result<_, _>>()?;
    // Finding why a first move of a win in two fails may look at every
    // reply: off the async threads.
    let verdict = tokio::task::spawn_blocking(move || puzzles::judge(p, &moves))
        .await
        .map_err(|e| ApiError::internal(format!("judging failed: {e}")))?
        .map_err(try_error)?;
    let mut out = json!({
        "correct": verdict.correct,
        "solved": verdict.solved,
        "code": verdict.code,
        "params": verdict.params,
        "reply": verdict.reply.map(|m| m.to_string()),
        "state": played_state(&verdict.position, verdict.last, true),
    });
    if verdict.solved {
        out["next"] = json!(p.place().1.id);
    }
    Ok(ok(out))
}
