//! The page's rules and AI: one call, a JSON request in, a JSON answer out
//! (`handle`), so the module needs no bindings generator and its whole
//! surface is this file. On `wasm32` the exports below move the bytes; in
//! native builds (tests) `handle` is called directly.
//!
//! A request names its position by `position` (a position string) or by
//! `variant` (default `standard`), then `moves` (an array of move texts)
//! played from it. Its `op` is one of:
//!
//! - `view`: the board as the server's state shows it (punct-view's
//!   fields), with `legal_compact`, `legal_count`, the `outcome` word and,
//!   when the rules ended the game, its `result` as the server words it;
//! - `status`: the `position` string, the `outcome` word (`ongoing`,
//!   `white`, `black`, `draw`), `to_move`, the `central` counts and
//!   `legal_count`, without the board;
//! - `legal`: `moves`, every legal move, canonical, separated by spaces,
//!   in the rules crate's order (sort them to compare lists);
//! - `check` with `move`: `{"legal": true, "move"}`, or `{"legal": false,
//!   "reason", "params", "message"}` (the server's reason codes);
//! - `play` with `move`: the view after it (as `view`), with the `move`
//!   played and the `outcome` word (`ongoing`, `white`, `black`, `draw`);
//! - `ai` with `level` (1–4) and `movetime`, `nodes` or `depth`, optional
//!   `seed` and `variety` (the root preference's amplitude, 0–500; the
//!   level's own when absent): `{"move", "score", "depth", "nodes"}`;
//! - `analyse` with `movetime`: the analysis as `POST /api/analyse`
//!   answers it (lines, solver, threat);
//! - `place` with `side`, `kind`, `cell` (its PÜNCT) and `rotation`: the
//!   board editor's piece, laid at the height of the highest of its cells;
//!   `remove` with `cell`: the piece on top there. Each answers the view
//!   of the new position, or `bad_position` with the rule it breaks: for
//!   `place` a `reason` and `params` as `check` gives them (`off_board`,
//!   `none_in_reserve`, `triangle_bridge`, `uneven`, `punct_on_opponent`,
//!   `punct_over_empty`); for `remove` of a piece others rest on, the
//!   position reader's message;
//! - `perft` with `depth` (0–4): the number of move sequences and the
//!   time it took, for comparing the module with the native build;
//! - `record_read` with `record` (a record's text): its `start` position
//!   string and `moves`, checked; `record_write` with `moves` (and
//!   `position` or `variant`, the start): the record's text.
//!
//! - `api` with `method`, `segments` (the path's, decoded: `["api",
//!   "learn", "lessons"]`), `query` (an object) and `body`: what the
//!   server answers to that request, for the requests that need no server
//!   (`GET /api/board` and the learning routes, `/api/learn/…`), as
//!   `{"status", "body"}`: the page asks these here when it has no server
//!   (offline, or a static copy of the site).
//!
//! A refusal is `{"error": code, "message"}`: `bad_request`,
//! `bad_position`, `bad_move`, `illegal_move` (with `reason`, `params` and
//! `index`, the move's place in `moves`), `game_over`. Progress of `ai` and
//! `analyse` is reported through the host's `punct_info` as each depth ends
//! (`{"info": …}`), so a page shows it and may stop the search by ending
//! the worker.

use punct_core::{footprint, Cell, Game, Kind, Move, Position, Record, Side, Variant};
use punct_engine::time::Instant;
use punct_engine::{Ai, Engine, Info, Level, Limits};
use punct_view::analysis::{analyse, score_json};
use serde_json::{json, Map, Value};
use std::sync::atomic::AtomicBool;

mod offline;

/// The answer to one request (a JSON text); `info` hears a search's
/// progress, one JSON text per report.
pub fn handle(request: &str, info: &mut dyn FnMut(&str)) -> String {
    let answer = match serde_json::from_str::<Value>(request) {
        Ok(Value::Object(req)) if req.get("op").and_then(Value::as_str) == Some("api") => {
            return offline::answer(&req);
        }
        Ok(Value::Object(req)) => answer(&req, info).unwrap_or_else(|e| e),
        Ok(_) => refusal("bad_request", "a request is a JSON object"),
        Err(e) => refusal("bad_request", format!("the request is not JSON: {e}")),
    };
    answer.to_string()
}

fn refusal(code: &str, message: impl Into<String>) -> Value {
    json!({"error": code, "message": message.into()})
}

type Answer = Result<Value, Value>;

fn answer(req: &Map<String, Value>, info: &mut dyn FnMut(&str)) -> Answer {
    let op = req.get("op").and_then(Value::as_str).unwrap_or("");
    let pos = position(req)?;
    match op {
        "view" => Ok(view(&pos)),
        "status" => Ok(json!({
            "position": pos.to_position_string(),
            "outcome": pos.status().word(),
            "to_move": pos.side_to_move().name(),
            "central": {
                "white": pos.central_count(Side::White),
                "black": pos.central_count(Side::Black),
            },
            "legal_count": if pos.status().is_over() { 0 } else { pos.count_legal() },
        })),
        "legal" => {
            // One text, not an array: a tenth of the work to write and
            // to read for thousands of moves.
            let mut moves = String::new();
            for m in pos.legal_moves() {
                use std::fmt::Write;
                if !moves.is_empty() {
                    moves.push(' ');
                }
                let _ = write!(moves, "{m}");
            }
            Ok(json!({"moves": moves}))
        }
        "check" => {
            let mv = move_of(req)?;
            Ok(match pos.check_move(mv) {
                Ok(()) => json!({"legal": true, "move": mv.to_string()}),
                Err(why) => json!({
                    "legal": false,
                    "move": mv.to_string(),
                    "reason": why.code(),
                    "params": params(&why),
                    "message": format!("{mv} is illegal: {why}"),
                }),
            })
        }
        "play" => {
            let mv = move_of(req)?;
            let mut after = pos.clone();
            after
                .play(mv)
                .map_err(|why| illegal(mv, &why, req_moves(req).len()))?;
            let mut v = view(&after);
            v["move"] = json!(mv.to_string());
            Ok(v)
        }
        "ai" => {
            over(&pos)?;
            let level = req
                .get("level")
                .and_then(Value::as_u64)
                .and_then(|n| Level::from_number(n as u32))
                .ok_or_else(|| refusal("bad_request", "level: a number from 1 to 4"))?;
            let seed = req.get("seed").and_then(Value::as_u64).unwrap_or(0);
            let limits = limits(req)?;
            let stop = AtomicBool::new(false);
            let mut ai = Ai::new(level, seed);
            // The root preference (`Variety`), as the protocol's option sets
            // it: 0 plays the level's search alone (compared with native).
            if let Some(v) = number(req, "variety", 0, 500)? {
                ai.set_option("Variety", &v.to_string())
                    .map_err(|e| refusal("bad_request", e))?;
            }
            let result = ai.search(&pos, &limits, &stop, &mut |i| report(info, i));
            Ok(json!({
                "move": result.best.to_string(),
                "score": score_json(result.score),
                "depth": result.depth,
                "nodes": result.nodes,
                "pv": result.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
            }))
        }
        "analyse" => {
            over(&pos)?;
            let movetime = number(req, "movetime", 1, 600_000)?.unwrap_or(1000);
            let started = Instant::now();
            let stop = AtomicBool::new(false);
            let found = analyse(&pos, movetime, &stop, &mut |i| report(info, i));
            let time = started.elapsed().as_millis() as u64;
            Ok(found.to_json(&pos.to_position_string(), time))
        }
        "place" => Ok(view(&edited(&pos, |tokens| {
            let side = req.get("side").and_then(Value::as_str).and_then(Side::from_name);
            let side = side.ok_or_else(|| refusal("bad_request", "side: white or black"))?;
            let kind = text_of(req, "kind")?;
            let kind = Some(kind)
                .filter(|k| k.chars().count() == 1)
                .and_then(|k| Kind::from_letter(k.chars().next()?))
                .ok_or_else(|| refusal("bad_request", format!("kind: `{kind}` is not T, C, E, L, M or R")))?;
            let cell = text_of(req, "cell")?
                .parse::<Cell>()
                .map_err(|e| refusal("bad_request", format!("cell: {e}")))?;
            let rotation = number(req, "rotation", 0, 5)?.unwrap_or(0) as u8;
            let level = resting_level(&pos, side, kind, cell, rotation)?;
            let letter = if side == Side::White { 'w' } else { 'b' };
            let mut token = format!("{letter}{kind}@{cell}/{rotation}");
            if level > 0 {
                token.push_str(&format!("^{level}"));
            }
            tokens.push(token);
            Ok(())
        })?)),
        "remove" => Ok(view(&edited(&pos, |tokens| {
            let cell = text_of(req, "cell")?
                .parse::<Cell>()
                .map_err(|e| refusal("bad_request", format!("cell: {e}")))?;
            // The piece whose dot is on top of the cell.
            let top = pos
                .pieces()
                .into_iter()
                .filter(|p| p.cells.contains(&cell))
                .max_by_key(|p| p.placement.level)
                .ok_or_else(|| refusal("bad_position", format!("no piece on {cell}")))?;
            let letter = if top.side == Side::White { 'w' } else { 'b' };
            let p = top.placement;
            let mut token = format!("{letter}{}@{}/{}", top.kind, p.punct, p.rotation);
            if p.level > 0 {
                token.push_str(&format!("^{}", p.level));
            }
            let at = tokens.iter().position(|t| *t == token).ok_or_else(|| {
                refusal("bad_position", format!("no piece {token} in the position"))
            })?;
            tokens.remove(at);
            Ok(())
        })?)),
        "perft" => {
            // For measuring the module against the native build.
            let depth = number(req, "depth", 0, 4)?.unwrap_or(1) as u32;
            let started = Instant::now();
            let mut pos = pos;
            let nodes = pos.perft(depth);
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            Ok(json!({"depth": depth, "nodes": nodes, "time_ms": ms}))
        }
        "record_read" => {
            let record = Record::parse(text_of(req, "record")?)
                .map_err(|e| refusal("bad_record", e.to_string()))?;
            let game = record
                .replay()
                .map_err(|e| refusal("bad_record", e.to_string()))?;
            Ok(json!({
                "start": game.start().to_position_string(),
                "moves": game.moves().map(|m| m.to_string()).collect::<Vec<_>>(),
            }))
        }
        "record_write" => {
            let start = position(&without_moves(req))?;
            let moves: Vec<Move> = req_moves(req)
                .iter()
                .map(parse_move)
                .collect::<Result<_, _>>()?;
            let game = Game::replay(start, &moves)
                .map_err(|e| refusal("illegal_move", e.to_string()))?;
            Ok(json!({"record": Record::from_game(&game, &[]).to_text()}))
        }
        "" => Err(refusal("bad_request", "op: missing")),
        other => Err(refusal(
            "bad_request",
            format!(
                "op: unknown `{other}` (view, status, legal, check, play, ai, analyse, place, remove, perft, record_read, record_write, api)"
            ),
        )),
    }
}

/// The level a piece laid by the editor rests at (the height of its
/// highest cell), or why it cannot lie there, with the move checker's
/// reason codes and params so the page words it as it words an illegal
/// move: `off_board`, `none_in_reserve`, `triangle_bridge`, `uneven`,
/// `punct_on_opponent`, `punct_over_empty`.
fn resting_level(
    pos: &Position,
    side: Side,
    kind: Kind,
    cell: Cell,
    rotation: u8,
) -> Result<u8, Value> {
    let why = |reason: &str, message: String, params: Value| json!({"error": "bad_position", "reason": reason, "message": message, "params": params});
    let name = format!("{kind}@{cell}/{rotation}");
    let cells = footprint(kind, cell, rotation)
        .ok_or_else(|| why("off_board", format!("{name} leaves the board"), json!({})))?;
    if pos.reserve(side, kind) == 0 {
        return Err(why(
            "none_in_reserve",
            format!("{side} has every {kind} piece on the board"),
            json!({"kind": kind.to_string(), "side": side.name()}),
        ));
    }
    let heights = cells.map(|c| pos.height(c));
    let level = *heights.iter().max().expect("three cells");
    let heights_params = json!({"h1": heights[0].to_string(), "h2": heights[1].to_string(),
        "h3": heights[2].to_string()});
    let flat = heights.iter().all(|&h| h == level);
    if !flat {
        if kind == Kind::T {
            return Err(why(
                "triangle_bridge",
                format!("{name}: a triangle lies flat"),
                heights_params,
            ));
        }
        let bridge = kind
            .bridge()
            .is_some_and(|b| b.ends.iter().all(|&e| heights[e] == level));
        if !bridge {
            return Err(why(
                "uneven",
                format!("{name}: its cells are uneven"),
                heights_params,
            ));
        }
    }
    if level > 0 && pos.visible_side(cell) != Some(side) {
        let reason = if pos.visible_side(cell).is_none() {
            "punct_over_empty"
        } else {
            "punct_on_opponent"
        };
        return Err(why(
            reason,
            format!("{name}: its PÜNCT must rest on its own colour"),
            json!({"cell": cell.to_string()}),
        ));
    }
    Ok(level)
}

/// `pos` with its pieces' tokens (of its position string) changed by
/// `edit`, read back by the rules crate, which refuses a piece that
/// floats, overlaps another or puts its PÜNCT on the opponent's colour,
/// and more pieces of a kind than a side has.
fn edited(
    pos: &Position,
    edit: impl FnOnce(&mut Vec<String>) -> Result<(), Value>,
) -> Result<Position, Value> {
    let text = pos.to_position_string();
    let (head, pieces) = text.rsplit_once(':').expect("a position string has fields");
    let mut tokens: Vec<String> = match pieces {
        "-" => Vec::new(),
        list => list.split(',').map(str::to_string).collect(),
    };
    edit(&mut tokens)?;
    let pieces = if tokens.is_empty() {
        "-".to_string()
    } else {
        tokens.join(",")
    };
    Position::from_position_string(&format!("{head}:{pieces}"))
        .map_err(|e| refusal("bad_position", e.to_string()))
}

/// The request without its moves: the start they are played from.
fn without_moves(req: &Map<String, Value>) -> Map<String, Value> {
    let mut start = req.clone();
    start.remove("moves");
    start
}

fn text_of<'a>(req: &'a Map<String, Value>, name: &str) -> Result<&'a str, Value> {
    req.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| refusal("bad_request", format!("{name}: missing")))
}

fn report(info: &mut dyn FnMut(&str), i: &Info) {
    let text = json!({"info": {
        "multipv": i.multipv,
        "depth": i.depth,
        "score": score_json(i.score),
        "nodes": i.nodes,
        "time_ms": i.elapsed.as_millis() as u64,
        "pv": i.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
    }});
    info(&text.to_string());
}

/// The board as the page draws it, the legal moves grouped.
fn view(pos: &Position) -> Value {
    let (mut fields, legal) = punct_view::board(pos, pos.status().is_over());
    fields.insert("outcome".into(), json!(pos.status().word()));
    fields.insert(
        "result".into(),
        punct_view::board_result(pos).unwrap_or(Value::Null),
    );
    fields.insert("legal_count".into(), json!(legal.len()));
    fields.insert(
        "legal_compact".into(),
        json!(punct_view::compact_legal(&legal)),
    );
    Value::Object(fields)
}

fn params(why: &punct_core::IllegalMove) -> Value {
    Value::Object(
        why.params()
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::String(v)))
            .collect(),
    )
}

fn illegal(mv: Move, why: &punct_core::IllegalMove, index: usize) -> Value {
    json!({
        "error": "illegal_move",
        "message": format!("{mv} is illegal: {why}"),
        "move": mv.to_string(),
        "reason": why.code(),
        "params": params(why),
        "index": index,
    })
}

fn over(pos: &Position) -> Result<(), Value> {
    if pos.status().is_over() {
        return Err(refusal("game_over", "the game is over in this position"));
    }
    Ok(())
}

fn req_moves(req: &Map<String, Value>) -> Vec<Value> {
    match req.get("moves") {
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

/// The request's position: `position` or `variant`'s start, then `moves`.
fn position(req: &Map<String, Value>) -> Result<Position, Value> {
    let mut pos = match (req.get("position"), req.get("variant")) {
        (Some(Value::String(text)), _) => Position::from_position_string(text)
            .map_err(|e| refusal("bad_position", e.to_string()))?,
        (Some(_), _) => return Err(refusal("bad_position", "position: a position string")),
        (None, None) => Position::new(Variant::Standard),
        (None, Some(v)) => {
            let name = v.as_str().unwrap_or("");
            let variant = name.parse::<Variant>().ok().ok_or_else(|| {
                refusal(
                    "bad_request",
                    format!("variant: `{name}` is not standard or basic"),
                )
            })?;
            Position::new(variant)
        }
    };
    match req.get("moves") {
        None | Some(Value::Null) => {}
        Some(Value::Array(moves)) => {
            for (i, m) in moves.iter().enumerate() {
                let mv = parse_move(m).map_err(|e| {
                    let mut e = e;
                    e["index"] = json!(i);
                    e
                })?;
                pos.play(mv).map_err(|why| illegal(mv, &why, i))?;
            }
        }
        Some(_) => return Err(refusal("bad_request", "moves: an array of move texts")),
    }
    Ok(pos)
}

fn parse_move(v: &Value) -> Result<Move, Value> {
    let text = v
        .as_str()
        .ok_or_else(|| refusal("bad_move", "a move is a text such as E@C5/2"))?;
    text.parse::<Move>()
        .map_err(|e| refusal("bad_move", format!("`{text}`: {e}")))
}

fn move_of(req: &Map<String, Value>) -> Result<Move, Value> {
    parse_move(req.get("move").unwrap_or(&Value::Null))
}

fn number(req: &Map<String, Value>, name: &str, min: u64, max: u64) -> Result<Option<u64>, Value> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(refusal(
                "bad_request",
                format!("{name}: a whole number from {min} to {max}"),
            )),
        },
    }
}

/// `movetime` (ms), `nodes` or `depth`; a second by default.
fn limits(req: &Map<String, Value>) -> Result<Limits, Value> {
    let mut limits = Limits::default();
    if let Some(ms) = number(req, "movetime", 1, 600_000)? {
        limits = Limits::movetime(ms);
    }
    limits.nodes = number(req, "nodes", 1, 1_000_000_000)?;
    limits.depth = number(req, "depth", 1, 64)?.map(|d| d as u32);
    if limits.movetime.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
        limits = Limits::movetime(1000);
    }
    Ok(limits)
}

/// The module's exports: the host writes a request into memory it asked
/// for (`punct_alloc`), calls `punct_call`, and reads the answer at
/// `punct_answer_ptr` / `punct_answer_len` (valid until the next call).
#[cfg(target_arch = "wasm32")]
mod exports {
    use std::cell::RefCell;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// The host hears a search's progress: a JSON text at `ptr`.
        fn punct_info(ptr: *const u8, len: usize);
    }

    thread_local! {
        static ANSWER: RefCell<String> = const { RefCell::new(String::new()) };
    }

    #[no_mangle]
    pub extern "C" fn punct_alloc(len: usize) -> *mut u8 {
        let mut buf = Vec::<u8>::with_capacity(len);
        let ptr = buf.as_mut_ptr();
        std::mem::forget(buf);
        ptr
    }

    /// # Safety
    /// `ptr` and `len` are what `punct_alloc` gave and was asked for.
    #[no_mangle]
    pub unsafe extern "C" fn punct_free(ptr: *mut u8, len: usize) {
        drop(Vec::from_raw_parts(ptr, 0, len));
    }

    /// # Safety
    /// `ptr` holds `len` bytes the host wrote (from `punct_alloc`).
    #[no_mangle]
    pub unsafe extern "C" fn punct_call(ptr: *const u8, len: usize) {
        let bytes = std::slice::from_raw_parts(ptr, len);
        let answer = match std::str::from_utf8(bytes) {
            Ok(text) => super::handle(text, &mut |i| punct_info(i.as_ptr(), i.len())),
            Err(_) => super::refusal("bad_request", "the request is not UTF-8").to_string(),
        };
        ANSWER.with(|a| *a.borrow_mut() = answer);
    }

    #[no_mangle]
    pub extern "C" fn punct_answer_ptr() -> *const u8 {
        ANSWER.with(|a| a.borrow().as_ptr())
    }

    #[no_mangle]
    pub extern "C" fn punct_answer_len() -> usize {
        ANSWER.with(|a| a.borrow().len())
    }
}

#[cfg(test)]
mod tests;
