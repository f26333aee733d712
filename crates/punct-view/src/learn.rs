//! Learning the game as the API shows it (`/api/board` and `/api/learn/…`,
//! docs/API.md): the board's drawing data, the rules page's diagrams, the
//! tutorial's lessons with their judge and the puzzles with theirs, each
//! answer as a JSON value. The server answers these routes with them, and
//! the page's WebAssembly build answers the same requests when there is no
//! server (offline, or a static copy of the site), so the two cannot
//! differ.

use crate::board;
use punct_core::{Cell, Edge, Kind, Move, Position, Side, Status, Variant};
use punct_engine::puzzle::PuzzleKind;
use punct_learn::diagrams::{Claim, Diagram, ShownMove, DIAGRAMS};
use punct_learn::puzzles::{self, find, of_the_day, Puzzle, TryError};
use punct_learn::tutorial::{self, Lesson, LESSONS};
use punct_learn::words;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// A request refused, as the API words it: the HTTP status, the error's
/// `code`, `message` and `params`, and for an illegal move its `reason`.
#[derive(Debug)]
pub struct Refusal {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    pub params: Map<String, Value>,
    pub reason: Option<&'static str>,
}

impl Refusal {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            code,
            message: message.into(),
            params: Map::new(),
            reason: None,
        }
    }

    /// The error body the API sends: `{"error": {code, message, params?, reason?}}`.
    pub fn body(&self) -> Value {
        let mut error = json!({"code": self.code, "message": self.message});
        if !self.params.is_empty() {
            error["params"] = Value::Object(self.params.clone());
        }
        if let Some(reason) = self.reason {
            error["reason"] = json!(reason);
        }
        json!({ "error": error })
    }

    fn with(mut self, name: &str, value: impl Into<Value>) -> Refusal {
        self.params.insert(name.to_string(), value.into());
        self
    }

    /// 422 `illegal_move`, with the rule broken and the values it names.
    fn illegal(mv: Move, why: &punct_core::IllegalMove) -> Refusal {
        let mut r = Refusal::new(422, "illegal_move", format!("{mv} is illegal: {why}"))
            .with("move", mv.to_string());
        r.reason = Some(why.code());
        for (name, value) in why.params() {
            r.params.insert(name.to_string(), Value::String(value));
        }
        r
    }
}

/// The first `n` characters of what a client sent, for naming it back.
fn cut(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

// ------------------------------------------------------------ the board

/// The board and the pieces' shapes, for drawing (`GET /api/board`): the
/// cells with their edges, the pairs of opposite edges and each kind's
/// dots per rotation as column/row steps from its PÜNCT. No rules: which
/// moves are legal always comes with a position.
pub fn board_info() -> &'static Value {
    static INFO: OnceLock<Value> = OnceLock::new();
    INFO.get_or_init(|| {
        let i9: Cell = "I9".parse().expect("I9 is a cell");
        let cells: Vec<Value> = Cell::all()
            .map(|c| {
                let edges: Vec<&str> = Edge::PAIRS
                    .iter()
                    .flat_map(|&(a, b)| [a, b])
                    .filter(|e| e.contains(c))
                    .map(|e| e.name())
                    .collect();
                json!({"name": c.to_string(), "col": c.col(), "row": c.row(),
                       "central": c.is_central(), "edges": edges})
            })
            .collect();
        let mut kinds = Map::new();
        for kind in Kind::ALL {
            let rotations: Vec<Value> = (0..kind.rotations())
                .map(|r| {
                    let cells = punct_core::footprint(kind, i9, r).expect("I9 fits every piece");
                    let steps = cells.iter().map(|c| {
                        json!([
                            c.col() as i32 - i9.col() as i32,
                            c.row() as i32 - i9.row() as i32
                        ])
                    });
                    Value::Array(steps.collect())
                })
                .collect();
            kinds.insert(
                kind.to_string(),
                json!({"count": kind.count(), "rotations": rotations}),
            );
        }
        let pairs: Vec<Value> = Edge::PAIRS
            .iter()
            .map(|(a, b)| json!([a.name(), b.name()]))
            .collect();
        json!({"cells": cells, "pairs": pairs, "kinds": kinds})
    })
}

// ------------------------------------------------------------ states

/// The state of `pos` outside any game, as a game's shows it: the board's
/// fields, with the legal moves (`legal_moves`) when `with_legal` and the
/// game goes on.
pub fn position_state(pos: &Position, with_legal: bool) -> Value {
    let (mut fields, legal) = board(pos, pos.status().is_over());
    if with_legal {
        let legal = legal.iter().map(|m| Value::String(m.to_string()));
        fields.insert("legal_moves".into(), Value::Array(legal.collect()));
    }
    Value::Object(fields)
}

/// The state of `pos` after `last` (the move just played, outlined;
/// `None`: none), with its result.
fn played_state(pos: &Position, last: Option<Move>, with_legal: bool) -> Value {
    let mut state = position_state(pos, with_legal);
    state["last_move"] = json!(last.map(|m| m.to_string()));
    state["result"] = result_json(pos);
    state
}

/// How the game ended in `pos` (null while it goes on): the winner and, for
/// a connection, the two sides joined and the chain (the board draws it);
/// for the end by count, the central count.
pub fn result_json(pos: &Position) -> Value {
    let central = json!({
        "white": pos.central_count(Side::White),
        "black": pos.central_count(Side::Black),
    });
    match pos.status() {
        Status::Ongoing => Value::Null,
        Status::Won(side) => match pos.connection(side) {
            Some(c) => json!({
                "winner": side.name(),
                "reason": "connection",
                "sides": [c.sides.0.name(), c.sides.1.name()],
                "chain": c.cells.cells().map(|x| x.to_string()).collect::<Vec<_>>(),
            }),
            None => json!({"winner": side.name(), "reason": "central count", "central": central}),
        },
        Status::Draw => json!({
            "winner": Value::Null,
            "reason": if pos.variant() == Variant::Basic { "no connection" } else { "central count" },
            "central": central,
        }),
    }
}

// ------------------------------------------------------------ diagrams

fn claim_json(claim: Claim) -> Value {
    match claim {
        Claim::Legal(m) => json!({"claim": "legal", "move": m}),
        Claim::Illegal(m, reason) => json!({"claim": "illegal", "move": m, "reason": reason}),
        Claim::Status(s) => json!({"claim": "status", "status": s}),
        Claim::Connected(side, a, b) => {
            json!({"claim": "connected", "side": side, "sides": [a, b]})
        }
        Claim::Central(w, b) => json!({"claim": "central", "white": w, "black": b}),
        Claim::Covered(cell, level) => {
            json!({"claim": "covered", "cell": cell, "level": level})
        }
        Claim::Bridge(cell, level) => json!({"claim": "bridge", "cell": cell, "level": level}),
        Claim::Visible(cell, side) => json!({"claim": "visible", "cell": cell, "side": side}),
        Claim::Piece(cell, side, kind, level) => json!({
            "claim": "piece", "cell": cell, "side": side,
            "kind": kind.to_string(), "level": level,
        }),
        Claim::CentralHexagon(cells) => {
            json!({"claim": "central_hexagon", "cells": words(cells)})
        }
        Claim::Reserve(side, count) => {
            json!({"claim": "reserve", "side": side, "count": count})
        }
        Claim::ToMove(side) => json!({"claim": "to_move", "side": side}),
    }
}

fn shown_json(m: &ShownMove) -> Value {
    json!({
        "move": m.text,
        "legal": m.illegal.is_none(),
        "reason": m.illegal,
        "side": m.side.name(),
        "kind": m.kind.to_string(),
        "from": m.from.map(|c| c.to_string()),
        "to": m.to.to_string(),
        "rotation": m.rotation,
        "cells": m.cells.map(|cs| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>()),
    })
}

/// What the page draws of a diagram and what its caption claims.
fn diagram_json(d: &Diagram) -> Result<Value, String> {
    let pos = d.position()?;
    let show: Vec<Value> = d.shown_moves(&pos)?.iter().map(shown_json).collect();
    Ok(json!({
        "id": d.id,
        "section": d.section,
        "variant": d.variant.name(),
        "moves": words(d.moves),
        "position": pos.to_position_string(),
        "view": if d.view.is_empty() { Value::Null } else { json!(words(d.view)) },
        "lines": d.lines,
        "marks": d.marks.iter()
            .map(|(mark, cells)| json!({"mark": mark, "cells": words(cells)}))
            .collect::<Vec<_>>(),
        "show": show,
        "claims": d.claims.iter().map(|&c| claim_json(c)).collect::<Vec<_>>(),
        "state": played_state(&pos, d.last_move(), false),
    }))
}

/// Every diagram of the rules page (`GET /api/learn/diagrams`), built
/// once; an error names a diagram the rules refuse (a bug of the content,
/// which a test catches).
pub fn diagrams() -> &'static Result<String, String> {
    static ANSWER: OnceLock<Result<String, String>> = OnceLock::new();
    ANSWER.get_or_init(|| {
        let diagrams = DIAGRAMS
            .iter()
            .map(diagram_json)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(json!({ "diagrams": diagrams }).to_string())
    })
}

// ------------------------------------------------------------ lessons

/// A lesson as the API shows it; `legal`: with the position's legal moves
/// (one lesson), or without them (the list).
fn lesson_json(index: usize, l: &Lesson, legal: bool) -> Value {
    let pos = l.start();
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
        "state": position_state(&pos, legal),
    })
}

fn no_lesson(id: &str) -> Refusal {
    let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
    Refusal::new(
        404,
        "no_lesson",
        format!(
            "there is no lesson `{}` (GET /api/learn/lessons lists them: {})",
            cut(id, 40),
            ids.join(", ")
        ),
    )
    .with("id", cut(id, 40))
}

/// The lessons, without their legal moves (`GET /api/learn/lessons`).
pub fn lessons() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let lessons: Vec<Value> = LESSONS
            .iter()
            .enumerate()
            .map(|(i, l)| lesson_json(i, l, false))
            .collect();
        json!({ "lessons": lessons }).to_string()
    })
}

/// One lesson with its legal moves (`GET /api/learn/lessons/{id}`).
pub fn lesson(id: &str) -> Result<&'static str, Refusal> {
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
        .ok_or_else(|| no_lesson(id))?;
    Ok(&texts[index])
}

/// A learner's move in lesson `id` judged (`POST /api/learn/lessons/{id}/try`):
/// the verdict, and the position after a legal move. Judging a block looks
/// at every answer of the opponent's: a server calls this off its async
/// threads.
pub fn try_lesson(id: &str, text: &str) -> Result<Value, Refusal> {
    let lesson = tutorial::lesson(id).ok_or_else(|| no_lesson(id))?;
    let mv: Move = text.parse().map_err(|e: punct_core::ParseMoveError| {
        Refusal::new(400, "bad_move", e.to_string()).with("move", cut(text.trim(), 20))
    })?;
    let (verdict, after) = tutorial::judge(lesson, &lesson.start(), mv);
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

// ------------------------------------------------------------ puzzles

fn found(id: &str) -> Result<&'static Puzzle, Refusal> {
    find(id).ok_or_else(|| {
        Refusal::new(
            404,
            "unknown_puzzle",
            format!("there is no puzzle `{}`", cut(id, 40)),
        )
        .with("id", cut(id, 40))
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
        "count": puzzles::puzzles().len(),
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

/// The puzzles, without their solutions (`GET /api/learn/puzzles`).
pub fn puzzle_list() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        json!({
            "count": puzzles::puzzles().len(),
            "kinds": PuzzleKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(),
            "puzzles": puzzles::puzzles().iter().map(summary).collect::<Vec<_>>(),
        })
        .to_string()
    })
}

/// One puzzle (`GET /api/learn/puzzles/{id}`).
pub fn puzzle(id: &str) -> Result<Value, Refusal> {
    Ok(full(found(id)?))
}

/// The puzzle of `date` (`YYYY-MM-DD`; `GET /api/learn/puzzles/daily`).
pub fn daily(date: &str) -> Result<Value, Refusal> {
    let days = crate::date::parse_date(date).ok_or_else(|| {
        Refusal::new(
            400,
            "bad_date",
            format!("`{}` is not a date written YYYY-MM-DD", cut(date, 20)),
        )
    })?;
    Ok(json!({"date": crate::date::date_text(days), "puzzle": full(of_the_day(days))}))
}

fn try_refusal(e: TryError) -> Refusal {
    let message = e.to_string();
    match e {
        TryError::NoMoves => Refusal::new(400, "no_moves", message),
        TryError::TooMany { most, .. } => {
            Refusal::new(400, "too_many_moves", message).with("count", most)
        }
        TryError::Illegal(mv, why) => Refusal::illegal(mv, &why),
        TryError::NotALine(first) => {
            Refusal::new(400, "not_a_line", message).with("move", first.to_string())
        }
        TryError::Broken(_) => Refusal::new(500, "internal", message),
    }
}

/// A learner's moves in puzzle `id` judged (`POST /api/learn/puzzles/{id}/try`),
/// with the opponent's answer. Finding why a first move of a win in two
/// fails may look at every reply: a server calls this off its async
/// threads.
pub fn try_puzzle(id: &str, moves: &[String]) -> Result<Value, Refusal> {
    let p = found(id)?;
    // The count is refused before any move is read.
    p.check_count(moves.len()).map_err(try_refusal)?;
    let moves: Vec<Move> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.trim().parse().map_err(|e: punct_core::ParseMoveError| {
                Refusal::new(400, "bad_move", format!("moves[{i}]: {e}")).with("move", cut(m, 20))
            })
        })
        .collect::<Result<_, _>>()?;
    let verdict = puzzles::judge(p, &moves).map_err(try_refusal)?;
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
    Ok(out)
}
