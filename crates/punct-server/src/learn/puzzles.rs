//! The puzzles (docs/PUZZLES.md): the shipped set `data/puzzles.json`,
//! made and proven by `punct puzzles generate`/`verify`, built into the
//! binary; the list, the puzzle of the day, one puzzle, and judging a
//! learner's moves (with the opponent's answers) under `/api/learn/puzzles`.

use super::played_state;
use crate::app::App;
use crate::date::{date_text, parse_date, today};
use crate::error::ApiError;
use crate::routes::{json_text, Body, Params};
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use punct_core::{Move, Position, Side, Status};
use punct_engine::puzzle::{self, PuzzleKind};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

/// The shipped puzzles (checked by `punct puzzles verify` and the tests).
const DATA: &str = include_str!("../../../../data/puzzles.json");

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/learn/puzzles", get(list))
        .route("/api/learn/puzzles/daily", get(daily))
        .route("/api/learn/puzzles/{id}", get(one))
        .route("/api/learn/puzzles/{id}/try", post(attempt))
}

// ------------------------------------------------------------ the data

#[derive(Deserialize)]
struct File {
    puzzles: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    id: String,
    kind: String,
    position: String,
    solutions: Vec<String>,
    #[serde(default)]
    lines: Vec<LineEntry>,
    #[serde(default)]
    source: Value,
}

#[derive(Deserialize)]
struct LineEntry {
    first: String,
    reply: String,
    wins: Vec<String>,
}

/// A win in two's first move, the reply the site plays to it and the
/// winning moves after that.
struct Line {
    first: Move,
    reply: Move,
    wins: Vec<Move>,
}

struct Puzzle {
    id: String,
    kind: PuzzleKind,
    position: Position,
    solutions: Vec<Move>,
    lines: Vec<Line>,
    source: Value,
}

impl Puzzle {
    fn side(&self) -> Side {
        self.position.side_to_move()
    }

    /// The task's message key: `puzzles.task.<kind>`, with the side.
    fn task(&self) -> Value {
        json!({
            "code": format!("puzzles.task.{}", self.kind.name().replace('-', "_")),
            "params": {"side": self.side().name()},
        })
    }
}

fn parse_moves(list: &[String], what: &str) -> Result<Vec<Move>, String> {
    list.iter()
        .map(|m| m.parse().map_err(|e| format!("{what}: {m}: {e}")))
        .collect()
}

fn load(text: &str) -> Result<Vec<Puzzle>, String> {
    let file: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out: Vec<Puzzle> = Vec::new();
    for e in file.puzzles {
        let id = e.id.clone();
        let fail = |m: String| format!("puzzle {id}: {m}");
        let kind: PuzzleKind = e.kind.parse().map_err(fail)?;
        let position =
            Position::from_position_string(&e.position).map_err(|x| fail(x.to_string()))?;
        let solutions = parse_moves(&e.solutions, "solutions").map_err(fail)?;
        let mut lines = Vec::new();
        for l in &e.lines {
            lines.push(Line {
                first: l.first.parse().map_err(|x| fail(format!("{x}")))?,
                reply: l.reply.parse().map_err(|x| fail(format!("{x}")))?,
                wins: parse_moves(&l.wins, "wins").map_err(fail)?,
            });
        }
        if kind == PuzzleKind::WinInTwo
            && solutions
                .iter()
                .any(|s| !lines.iter().any(|l| l.first == *s))
        {
            return Err(fail("a solution has no line".into()));
        }
        if out.iter().any(|p| p.id == id) || solutions.is_empty() {
            return Err(fail("a second puzzle of that id, or no solutions".into()));
        }
        out.push(Puzzle {
            id: e.id,
            kind,
            position,
            solutions,
            lines,
            source: e.source,
        });
    }
    if out.is_empty() {
        return Err("no puzzles".into());
    }
    Ok(out)
}

fn puzzles() -> &'static [Puzzle] {
    static ALL: OnceLock<Vec<Puzzle>> = OnceLock::new();
    ALL.get_or_init(|| load(DATA).expect("data/puzzles.json is checked by the tests"))
}

fn find(id: &str) -> Result<&'static Puzzle, ApiError> {
    puzzles().iter().find(|p| p.id == id).ok_or_else(|| {
        ApiError::not_found("unknown_puzzle", format!("there is no puzzle `{id}`"))
            .with("id", id.chars().take(40).collect::<String>())
    })
}

// ------------------------------------------------------------ JSON

fn moves_json(moves: &[Move]) -> Value {
    Value::Array(moves.iter().map(|m| json!(m.to_string())).collect())
}

/// The list's line of a puzzle: no legal moves, no solutions.
fn summary(p: &Puzzle) -> Value {
    json!({
        "id": p.id,
        "kind": p.kind.name(),
        "side": p.side().name(),
        "task": p.task(),
        "state": played_state(&p.position, None, false),
    })
}

/// Everything about one puzzle, solutions included (the page shows them
/// when asked), and the next puzzle in the list.
fn full(p: &Puzzle) -> Value {
    let all = puzzles();
    let i = all.iter().position(|q| q.id == p.id).unwrap_or(0);
    json!({
        "id": p.id,
        "kind": p.kind.name(),
        "side": p.side().name(),
        "task": p.task(),
        "number": i + 1,
        "count": all.len(),
        "next": all[(i + 1) % all.len()].id,
        "moves_to_find": if p.kind == PuzzleKind::WinInTwo { 2 } else { 1 },
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

// ------------------------------------------------------------ the day's puzzle

/// The puzzle of day `days`: a fixed shuffle of the day number, so that
/// neighbouring days get unrelated puzzles and everyone gets the same.
fn of_the_day(days: i64) -> &'static Puzzle {
    let mut x = (days as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    let all = puzzles();
    &all[(x % all.len() as u64) as usize]
}

// ------------------------------------------------------------ handlers

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
    Ok(ok(full(find(&id)?)))
}

#[derive(Deserialize)]
struct Attempt {
    moves: Vec<String>,
}

/// What an attempt comes to.
struct Verdict {
    correct: bool,
    solved: bool,
    code: &'static str,
    params: Value,
    reply: Option<Move>,
    position: Position,
    last: Option<Move>,
}

async fn attempt(Path(id): Path<String>, Body(body): Body<Attempt>) -> Result<Response, ApiError> {
    let p = find(&id)?;
    let most = if p.kind == PuzzleKind::WinInTwo { 2 } else { 1 };
    if body.moves.is_empty() {
        return Err(ApiError::bad_request("no_moves", "`moves` lists no move"));
    }
    if body.moves.len() > most {
        return Err(ApiError::bad_request(
            "too_many_moves",
            format!("a {} puzzle takes at most {most} moves of yours", p.kind),
        )
        .with("count", most));
    }
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
    let verdict = tokio::task::spawn_blocking(move || judge(p, &moves))
        .await
        .map_err(|e| ApiError::internal(format!("judging failed: {e}")))??;
    let mut out = json!({
        "correct": verdict.correct,
        "solved": verdict.solved,
        "code": verdict.code,
        "params": verdict.params,
        "reply": verdict.reply.map(|m| m.to_string()),
        "state": played_state(&verdict.position, verdict.last, true),
    });
    if verdict.solved {
        out["next"] = json!(full(p)["next"]);
    }
    Ok(ok(out))
}

/// Plays `mv` on `pos` after checking it (422 with the rule broken).
fn play(pos: &mut Position, mv: Move) -> Result<(), ApiError> {
    pos.play(mv)
        .map(|_| ())
        .map_err(|why| ApiError::illegal(mv, &why))
}

fn judge(p: &Puzzle, moves: &[Move]) -> Result<Verdict, ApiError> {
    let me = p.side();
    let them = me.opponent();
    let mut pos = p.position.clone();
    let first = moves[0];
    play(&mut pos, first)?;
    let verdict = |correct, solved, code, params, reply, position, last| Verdict {
        correct,
        solved,
        code,
        params,
        reply,
        position,
        last,
    };
    // Whether `mv`, giving `pos`, wins (`params`: the message's if not).
    let win = |pos: Position, mv: Move, params: Value| {
        if pos.status() == Status::Won(me) {
            verdict(true, true, "puzzles.solved", json!({}), None, pos, Some(mv))
        } else {
            verdict(
                false,
                false,
                "puzzles.wrong.no_win",
                params,
                None,
                pos,
                Some(mv),
            )
        }
    };
    match p.kind {
        PuzzleKind::WinInOne => Ok(win(pos, first, json!({"move": first.to_string()}))),
        PuzzleKind::StopTheWin => {
            if p.solutions.contains(&first) {
                return Ok(verdict(
                    true,
                    true,
                    "puzzles.stopped",
                    json!({}),
                    None,
                    pos,
                    Some(first),
                ));
            }
            if pos.status() == Status::Won(them) {
                return Ok(verdict(
                    false,
                    false,
                    "puzzles.wrong.loses",
                    json!({"side": them.name()}),
                    None,
                    pos,
                    Some(first),
                ));
            }
            // Show the win the move leaves.
            match puzzle::winning_moves(&pos).first() {
                Some(&w) => {
                    pos.make(w);
                    Ok(verdict(
                        false,
                        false,
                        "puzzles.wrong.not_stopped",
                        json!({"side": them.name(), "move": w.to_string()}),
                        Some(w),
                        pos,
                        Some(w),
                    ))
                }
                None => Err(ApiError::internal(format!(
                    "puzzle {}: {first} is not among the solutions but leaves no win",
                    p.id
                ))),
            }
        }
        PuzzleKind::WinInTwo => {
            let Some(line) = p.lines.iter().find(|l| l.first == first) else {
                if moves.len() > 1 {
                    return Err(ApiError::bad_request(
                        "not_a_line",
                        format!("{first} is not a first move that wins in two, so there is no second move to judge"),
                    )
                    .with("move", first.to_string()));
                }
                if pos.status().is_over() {
                    let code = if pos.status() == Status::Won(them) {
                        "puzzles.wrong.loses"
                    } else {
                        "puzzles.wrong.ends"
                    };
                    return Ok(verdict(
                        false,
                        false,
                        code,
                        json!({"side": them.name()}),
                        None,
                        pos,
                        Some(first),
                    ));
                }
                return Ok(match puzzle::refutation(&pos) {
                    Some(r) => {
                        pos.make(r);
                        let code = if pos.status() == Status::Won(them) {
                            "puzzles.wrong.reply_wins"
                        } else {
                            "puzzles.wrong.refuted"
                        };
                        verdict(
                            false,
                            false,
                            code,
                            json!({"side": them.name(), "move": r.to_string()}),
                            Some(r),
                            pos,
                            Some(r),
                        )
                    }
                    None => {
                        return Err(ApiError::internal(format!(
                            "puzzle {}: {first} is not among the solutions but every reply loses",
                            p.id
                        )))
                    }
                });
            };
            pos.make(line.reply);
            let Some(&second) = moves.get(1) else {
                return Ok(verdict(
                    true,
                    false,
                    "puzzles.good.reply",
                    json!({"side": them.name(), "move": line.reply.to_string()}),
                    Some(line.reply),
                    pos,
                    Some(line.reply),
                ));
            };
            play(&mut pos, second)?;
            let params = json!({"move": second.to_string(), "count": line.wins.len()});
            Ok(win(pos, second, params))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_puzzles_load() {
        let all = load(DATA).unwrap();
        assert!(all.len() >= 30);
        for kind in PuzzleKind::ALL {
            assert!(all.iter().any(|p| p.kind == kind), "no {kind} puzzle");
        }
    }

    #[test]
    fn every_day_has_a_puzzle_and_days_differ() {
        let ids: std::collections::HashSet<&str> = (20_000..20_060)
            .map(|d| of_the_day(d).id.as_str())
            .collect();
        assert!(ids.len() > 10, "60 days gave only {} puzzles", ids.len());
        assert_eq!(of_the_day(20_001).id, of_the_day(20_001).id);
    }
}
