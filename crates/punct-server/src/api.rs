//! HTTP routes, WebSocket live updates and the AI worker.

use crate::error::ApiError;
use crate::games::{now_ms, side_from_name, LiveGame, Mode};
use crate::store::{GameRow, Store};
use crate::{web, Config};
use axum::extract::rejection::JsonRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use punct_core::{Position, Record, Side, Variant};
use punct_engine::{Ai, Engine, Level, Limits, Score};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, Mutex, Semaphore};

/// Largest request body (a long game record fits many times over).
const BODY_LIMIT: usize = 64 * 1024;
/// Largest WebSocket message from a client.
const WS_MESSAGE_LIMIT: usize = 16 * 1024;
/// How long an analysis waits for a free AI worker.
const ANALYSE_QUEUE_WAIT: Duration = Duration::from_secs(10);

/// A game's state (JSON) and version after a change.
struct Changed {
    state: Arc<str>,
    version: i64,
}

/// One game in memory, with the channel its watchers listen on.
struct Slot {
    game: Mutex<LiveGame>,
    /// The game's state as JSON after every change.
    updates: broadcast::Sender<Arc<str>>,
    /// The version the AI was last asked to answer (to ask only once).
    ai_version: AtomicI64,
    /// Stops the AI's current search when the game changes under it.
    ai_stop: std::sync::Mutex<Arc<AtomicBool>>,
}

struct App {
    config: Config,
    store: Store,
    games: std::sync::Mutex<HashMap<String, Arc<Slot>>>,
    ai_permits: Arc<Semaphore>,
    rng: std::sync::Mutex<StdRng>,
    /// Turns true when the server stops: live sessions close so the
    /// graceful shutdown does not wait on them forever.
    stopping: tokio::sync::watch::Sender<bool>,
}

type Shared = State<Arc<App>>;

pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let store = Store::open(&config.data_dir, config.sync)?;
    let listener = tokio::net::TcpListener::bind((config.bind, config.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    let app = Arc::new(App {
        ai_permits: Arc::new(Semaphore::new(config.ai_workers.max(1))),
        config,
        store,
        games: std::sync::Mutex::new(HashMap::new()),
        rng: std::sync::Mutex::new(StdRng::from_os_rng()),
        stopping: tokio::sync::watch::channel(false).0,
    });
    resume_ai_games(&app).await;
    ready(addr);
    let stopping = app.stopping.clone();
    // Small messages (an ack, then a state) go out at once, not after
    // Nagle's wait for the peer's acknowledgement.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router(app))
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            let _ = stopping.send(true);
        })
        .await
        .map_err(|e| format!("server error: {e}"))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/static/{file}", get(static_file))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/import", post(import_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", post(post_move))
        .route("/api/games/{id}/resign", post(post_resign))
        .route("/api/games/{id}/draw", post(post_draw))
        .route("/api/games/{id}/takeback", post(post_takeback))
        .route("/api/games/{id}/record", get(get_record))
        .route("/api/games/{id}/live", get(live))
        .route("/api/analyse", post(analyse))
        .route("/api/board", get(board))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

// ------------------------------------------------------------ helpers

/// JSON request bodies whose rejections are API errors (JSON too).
struct Body<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(body_error(rejection)),
        }
    }
}

/// Every body rejection is a 400 (the documented contract), except a body
/// over the limit (413).
fn body_error(r: JsonRejection) -> ApiError {
    match r.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request body is over {BODY_LIMIT} bytes"),
        ),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::bad_request(
            "not_json",
            "the request body must be JSON (Content-Type: application/json)",
        ),
        _ => ApiError::bad_request("bad_json", r.body_text()),
    }
}

/// Query strings whose rejections are API errors (JSON too).
struct Params<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Params(v)),
            Err(r) => Err(ApiError::bad_request("bad_query", r.body_text())),
        }
    }
}

fn json_text(status: StatusCode, text: impl Into<String>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        text.into(),
    )
        .into_response()
}

fn new_token(app: &App, len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = app.rng.lock().expect("rng lock");
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

impl App {
    /// The game `id`, loaded from the database on first use.
    async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.games.lock().expect("games lock").get(id) {
            return Ok(s.clone());
        }
        let valid =
            !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric());
        let not_found = || ApiError::not_found("unknown_game", format!("no game `{id}`"));
        if !valid {
            return Err(not_found());
        }
        let row = self
            .store
            .load(id)
            .map_err(ApiError::internal)?
            .ok_or_else(not_found)?;
        let game = LiveGame::from_row(row).map_err(ApiError::internal)?;
        let slot = {
            let mut games = self.games.lock().expect("games lock");
            games
                .entry(id.to_string())
                .or_insert_with(|| Arc::new(Slot::new(game)))
                .clone()
        };
        self.kick_ai(&slot).await;
        Ok(slot)
    }

    /// Adds a new game (already stored) to the games in memory.
    fn insert(&self, game: LiveGame) -> Arc<Slot> {
        let id = game.row.id.clone();
        let slot = Arc::new(Slot::new(game));
        self.games
            .lock()
            .expect("games lock")
            .insert(id, slot.clone());
        slot
    }

    /// Applies `change` to game `id`, commits it, tells the watchers and
    /// returns the new state. A failed change or commit leaves the game
    /// as it was.
    async fn change(
        self: &Arc<Self>,
        id: &str,
        change: impl FnOnce(&mut LiveGame) -> Result<(), ApiError>,
    ) -> Result<Changed, ApiError> {
        let slot = self.slot(id).await?;
        let mut game = slot.game.lock().await;
        let before = game.clone();
        change(&mut game)?;
        if let Err(e) = self.store.save(game.row.clone()).await {
            *game = before;
            return Err(ApiError::internal(e));
        }
        let state = slot.publish(&game);
        let version = game.row.version;
        let ai_turn = game.ai_to_move();
        drop(game);
        // Whatever the AI was thinking about is out of date now.
        slot.ai_stop
            .lock()
            .expect("stop lock")
            .store(true, Ordering::Relaxed);
        if ai_turn {
            self.kick_ai(&slot).await;
        }
        Ok(Changed { state, version })
    }

    /// Starts the AI on its move if it is its turn and it has not been
    /// asked yet for this version of the game.
    async fn kick_ai(self: &Arc<Self>, slot: &Arc<Slot>) {
        let (version, pos, level) = {
            let game = slot.game.lock().await;
            if !game.ai_to_move() {
                return;
            }
            let Mode::Ai { level, .. } = game.mode else {
                return;
            };
            (game.row.version, game.position().clone(), level)
        };
        if slot.ai_version.swap(version, Ordering::SeqCst) == version {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        *slot.ai_stop.lock().expect("stop lock") = stop.clone();
        let app = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let Ok(permit) = app.ai_permits.clone().acquire_owned().await else {
                return;
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let movetime = app.config.ai_movetime_ms;
            let searched = tokio::task::spawn_blocking(move || {
                let level = Level::from_number(level).unwrap_or(Level::Strongest);
                let mut ai = Ai::new(level, version as u64);
                ai.search(&pos, &Limits::movetime(movetime), &stop, &mut |_| {})
            })
            .await;
            drop(permit);
            let Ok(result) = searched else {
                eprintln!("punct serve: the AI search failed");
                return;
            };
            let mut game = slot.game.lock().await;
            if game.row.version != version || !game.ai_to_move() {
                return; // the game changed meanwhile (takeback, resignation)
            }
            let before = game.clone();
            if let Err(e) = game.play_ai(result.best) {
                eprintln!("punct serve: game {}: {e}", game.row.id);
                *game = before;
                return;
            }
            if let Err(e) = app.store.save(game.row.clone()).await {
                eprintln!("punct serve: game {}: {e}", game.row.id);
                *game = before;
                return;
            }
            slot.publish(&game);
        });
    }
}

impl Slot {
    fn new(game: LiveGame) -> Slot {
        Slot {
            game: Mutex::new(game),
            updates: broadcast::channel(64).0,
            ai_version: AtomicI64::new(-1),
            ai_stop: std::sync::Mutex::new(Arc::new(AtomicBool::new(false))),
        }
    }

    /// The state as JSON, sent to every watcher.
    fn publish(&self, game: &LiveGame) -> Arc<str> {
        let state: Arc<str> = Arc::from(game.to_json().to_text());
        let _ = self.updates.send(state.clone());
        state
    }
}

/// After a restart, games against the AI where it was the AI's turn go on.
async fn resume_ai_games(app: &Arc<App>) {
    let Ok(rows) = app.store.recent(Some("ongoing"), 1000) else {
        return;
    };
    for row in rows.into_iter().filter(|r| r.mode == "ai") {
        let _ = app.slot(&row.id).await;
    }
}

// ------------------------------------------------------------ pages

async fn page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        web::index(),
    )
        .into_response()
}

async fn static_file(Path(file): Path<String>) -> Response {
    match web::file(&file) {
        Some((content_type, bytes)) => {
            ([(header::CONTENT_TYPE, content_type)], bytes).into_response()
        }
        None => ApiError::not_found("not_found", format!("no file `{file}`")).into_response(),
    }
}

async fn method_not_allowed(req: Request) -> ApiError {
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

async fn not_found(req: Request) -> ApiError {
    ApiError::not_found(
        "not_found",
        format!("no such endpoint: {} {}", req.method(), req.uri().path()),
    )
}

// ------------------------------------------------------------ games

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    #[serde(default)]
    variant: Option<String>,
    /// `ai`, `hotseat` or `online`.
    mode: String,
    /// The AI's level (1–4), with mode `ai`.
    #[serde(default)]
    level: Option<u32>,
    /// The creator's colour: `white`, `black` or `random` (mode `ai`:
    /// the person's colour; `online`: the creator's seat).
    #[serde(default)]
    side: Option<String>,
}

fn parse_variant(v: Option<&str>) -> Result<Variant, ApiError> {
    match v.unwrap_or("standard") {
        "standard" => Ok(Variant::Standard),
        "basic" => Ok(Variant::Basic),
        other => Err(ApiError::bad_request(
            "bad_variant",
            format!("`{other}` is not a variant: use standard or basic"),
        )),
    }
}

impl App {
    fn pick_side(&self, side: Option<&str>) -> Result<Side, ApiError> {
        match side.unwrap_or("white") {
            "random" => Ok(if self.rng.lock().expect("rng lock").random_bool(0.5) {
                Side::White
            } else {
                Side::Black
            }),
            s => side_from_name(s).ok_or_else(|| {
                ApiError::bad_request(
                    "bad_side",
                    format!("`{s}` is not a colour: use white, black or random"),
                )
            }),
        }
    }

    /// A new game's row and the response listing its seats and links.
    fn new_row(&self, variant: Variant, mode: Mode, start: &Position, creator: Side) -> GameRow {
        let now = now_ms();
        let (white_token, black_token) = match mode {
            Mode::Ai { side, .. } => {
                let t = Some(new_token(self, 24));
                if side == Side::White {
                    (None, t)
                } else {
                    (t, None)
                }
            }
            Mode::Hotseat => {
                let t = Some(new_token(self, 24));
                (t.clone(), t)
            }
            Mode::Online => (Some(new_token(self, 24)), Some(new_token(self, 24))),
        };
        let _ = creator;
        GameRow {
            id: new_token(self, 10),
            variant: variant.name().to_string(),
            mode: mode.name().to_string(),
            ai_level: match mode {
                Mode::Ai { level, .. } => Some(level),
                _ => None,
            },
            ai_side: match mode {
                Mode::Ai { side, .. } => Some(side.name().to_string()),
                _ => None,
            },
            white_token,
            black_token,
            start: start.to_position_string(),
            moves: String::new(),
            result: None,
            reason: None,
            draw_offer: None,
            takeback: None,
            created: now,
            updated: now,
            version: 1,
            status: "ongoing".to_string(),
            plies: 0,
        }
    }

    /// Stores a new game and answers with its seats, links and state.
    async fn open_game(
        self: &Arc<Self>,
        game: LiveGame,
        creator: Side,
    ) -> Result<Response, ApiError> {
        self.store
            .save(game.row.clone())
            .await
            .map_err(ApiError::internal)?;
        let id = game.row.id.clone();
        let link = |token: &Option<String>| token.as_ref().map(|t| format!("/game/{id}?token={t}"));
        let body = json!({
            "id": id,
            "seats": {"white": game.row.white_token, "black": game.row.black_token},
            "links": {
                "white": link(&game.row.white_token),
                "black": link(&game.row.black_token),
                "spectate": format!("/game/{id}"),
            },
            "you": creator.name(),
            "game": game.to_json(),
        });
        let slot = self.insert(game);
        self.kick_ai(&slot).await;
        Ok((StatusCode::CREATED, axum::Json(body)).into_response())
    }
}

async fn create_game(State(app): Shared, Body(req): Body<NewGame>) -> Result<Response, ApiError> {
    let variant = parse_variant(req.variant.as_deref())?;
    let creator = app.pick_side(req.side.as_deref())?;
    let mode = match req.mode.as_str() {
        "ai" => {
            let level = req.level.unwrap_or(4);
            if !(1..=4).contains(&level) {
                return Err(ApiError::bad_request(
                    "bad_level",
                    format!("level {level} does not exist: use 1 to 4"),
                ));
            }
            Mode::Ai {
                level,
                side: creator.opponent(),
            }
        }
        "hotseat" => Mode::Hotseat,
        "online" => Mode::Online,
        other => {
            return Err(ApiError::bad_request(
                "bad_mode",
                format!("`{other}` is not a mode: use ai, hotseat or online"),
            ))
        }
    };
    if req.level.is_some() && !matches!(mode, Mode::Ai { .. }) {
        return Err(ApiError::bad_request(
            "bad_level",
            "a level is only for games against the AI",
        ));
    }
    let start = Position::new(variant);
    let row = app.new_row(variant, mode, &start, creator);
    let game = LiveGame::new(row, start).map_err(ApiError::internal)?;
    app.open_game(game, creator).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Import {
    record: String,
    /// How to go on from the record's last position: `hotseat` (default),
    /// `online` or `ai` (with `level` and `side`).
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    level: Option<u32>,
    #[serde(default)]
    side: Option<String>,
}

async fn import_game(State(app): Shared, Body(req): Body<Import>) -> Result<Response, ApiError> {
    let record = Record::parse(&req.record)
        .map_err(|e| ApiError::unprocessable("bad_record", format!("the record: {e}")))?;
    let replayed = record
        .replay()
        .map_err(|e| ApiError::unprocessable("bad_record", format!("the record: {e}")))?;
    let start = replayed.start().clone();
    let variant = start.variant();
    let creator = app.pick_side(req.side.as_deref())?;
    let mode = match req.mode.as_deref().unwrap_or("hotseat") {
        "ai" => Mode::Ai {
            level: match req.level.unwrap_or(4) {
                l @ 1..=4 => l,
                l => {
                    return Err(ApiError::bad_request(
                        "bad_level",
                        format!("level {l} does not exist: use 1 to 4"),
                    ))
                }
            },
            side: creator.opponent(),
        },
        "hotseat" => Mode::Hotseat,
        "online" => Mode::Online,
        other => {
            return Err(ApiError::bad_request(
                "bad_mode",
                format!("`{other}` is not a mode: use ai, hotseat or online"),
            ))
        }
    };
    let mut row = app.new_row(variant, mode, &start, creator);
    row.moves = record
        .moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    // A decisive result the position does not show (a resignation) is kept.
    let shown = punct_core::Outcome::from_status(replayed.position().status());
    if record.outcome != punct_core::Outcome::Unfinished && shown != record.outcome {
        row.result = Some(record.outcome.token().to_string());
        row.reason = Some(
            record
                .tag("Termination")
                .filter(|t| t.starts_with("resignation:") || *t == "agreement")
                .unwrap_or("recorded")
                .to_string(),
        );
    }
    let mut game = LiveGame::from_row(row).map_err(ApiError::internal)?;
    game.row.status = if game.is_over() {
        game.outcome().token().to_string()
    } else {
        "ongoing".to_string()
    };
    game.row.plies = game.game.len() as i64;
    app.open_game(game, creator).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    status: Option<String>,
    limit: Option<u32>,
}

async fn list_games(
    State(app): Shared,
    Params(q): Params<ListQuery>,
) -> Result<Response, ApiError> {
    if let Some(s) = q.status.as_deref() {
        if s != "ongoing" && s != "over" {
            return Err(ApiError::bad_request(
                "bad_status",
                format!("`{s}` is not a status: use ongoing or over"),
            ));
        }
    }
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let rows = app
        .store
        .recent(q.status.as_deref(), limit)
        .map_err(ApiError::internal)?;
    let games: Vec<Value> = rows.iter().map(LiveGame::summary).collect();
    Ok(axum::Json(json!({ "games": games })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameQuery {
    /// Show the game as it was after this many plies (replay).
    ply: Option<usize>,
    /// A seat token: the answer says which seats it holds (`you`).
    token: Option<String>,
}

async fn get_game(
    State(app): Shared,
    Path(id): Path<String>,
    Params(q): Params<GameQuery>,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let game = slot.game.lock().await;
    let mut state = match q.ply {
        None => game.to_json(),
        Some(ply) => game.to_json_at(ply).ok_or_else(|| {
            ApiError::bad_request(
                "bad_ply",
                format!(
                    "ply {ply} is past the end: {} plies have been played",
                    game.game.len()
                ),
            )
        })?,
    };
    if let Some(token) = q.token.as_deref() {
        let you: Vec<&str> = game.seats(token).iter().map(|s| s.name()).collect();
        state.set("you", json!(you));
    }
    Ok(json_text(StatusCode::OK, state.to_text()))
}

/// The board and the pieces' shapes, for drawing (no rules: which moves
/// are legal always comes from a game's state).
async fn board() -> Response {
    use punct_core::{Cell, Edge, Kind};
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
    let mut kinds = serde_json::Map::new();
    for kind in Kind::ALL {
        // Each rotation's dots (PÜNCT first) as column/row steps from the PÜNCT.
        let rotations: Vec<Value> = (0..kind.rotations())
            .map(|r| {
                let cells = punct_core::footprint(kind, i9, r).expect("I9 fits every piece");
                Value::Array(
                    cells
                        .iter()
                        .map(|c| {
                            json!([
                                c.col() as i32 - i9.col() as i32,
                                c.row() as i32 - i9.row() as i32
                            ])
                        })
                        .collect(),
                )
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
    axum::Json(json!({"cells": cells, "pairs": pairs, "kinds": kinds})).into_response()
}

async fn get_record(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let text = slot.game.lock().await.record();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-punct-record; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"punct-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    token: String,
    /// Plies played in the position the move was chosen in (optional).
    #[serde(default)]
    ply: Option<usize>,
}

async fn post_move(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<MoveRequest>,
) -> Result<Response, ApiError> {
    let state = app
        .change(&id, |g| g.play(&req.token, &req.mv, req.ply))
        .await?;
    Ok(json_text(StatusCode::OK, state.state.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenOnly {
    token: String,
}

async fn post_resign(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<TokenOnly>,
) -> Result<Response, ApiError> {
    let state = app.change(&id, |g| g.resign(&req.token)).await?;
    Ok(json_text(StatusCode::OK, state.state.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionRequest {
    token: String,
    action: String,
}

async fn post_draw(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    let state = app.change(&id, |g| g.draw(&req.token, &req.action)).await?;
    Ok(json_text(StatusCode::OK, state.state.to_string()))
}

async fn post_takeback(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    let state = app
        .change(&id, |g| g.takeback(&req.token, &req.action))
        .await?;
    Ok(json_text(StatusCode::OK, state.state.to_string()))
}

// ------------------------------------------------------------ analysis

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    /// A position string; default the start position of `variant`.
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    /// Moves played from there first.
    #[serde(default)]
    moves: Vec<String>,
    /// Thinking time in milliseconds (default 500).
    #[serde(default)]
    movetime: Option<u64>,
}

pub fn score_json(s: Score) -> Value {
    match s {
        Score::Eval(cp) => json!({"cp": cp}),
        Score::Win(n) => json!({"win": n}),
        Score::Loss(n) => json!({"loss": n}),
    }
}

async fn analyse(
    State(app): Shared,
    Body(req): Body<AnalyseRequest>,
) -> Result<Response, ApiError> {
    let mut pos = match &req.position {
        Some(p) => Position::from_position_string(p)
            .map_err(|e| ApiError::bad_request("bad_position", format!("the position: {e}")))?,
        None => Position::new(parse_variant(req.variant.as_deref())?),
    };
    for (i, text) in req.moves.iter().enumerate() {
        let mv = text.parse().map_err(|e: punct_core::ParseMoveError| {
            ApiError::bad_request("bad_move", format!("moves[{i}]: {e}"))
        })?;
        pos.play(mv).map_err(|e| {
            ApiError::unprocessable(
                "illegal_move",
                format!("moves[{i}]: `{text}` is illegal: {e}"),
            )
        })?;
    }
    if pos.status().is_over() {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over in this position",
        ));
    }
    let movetime = req.movetime.unwrap_or(500);
    if movetime == 0 || movetime > app.config.analyse_max_ms {
        return Err(ApiError::bad_request(
            "bad_movetime",
            format!("movetime must be 1 to {} ms", app.config.analyse_max_ms),
        ));
    }
    let permit = tokio::time::timeout(ANALYSE_QUEUE_WAIT, app.ai_permits.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::unavailable("busy", "every AI worker is busy; try again"))?
        .map_err(|_| ApiError::internal("AI workers closed"))?;
    let position = pos.to_position_string();
    let started = Instant::now();
    let result = tokio::task::spawn_blocking(move || {
        let stop = AtomicBool::new(false);
        Ai::new(Level::Strongest, 0).search(&pos, &Limits::movetime(movetime), &stop, &mut |_| {})
    })
    .await
    .map_err(|_| ApiError::internal("the analysis failed"))?;
    drop(permit);
    Ok(axum::Json(json!({
        "position": position,
        "best": result.best.to_string(),
        "score": score_json(result.score),
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "time_ms": started.elapsed().as_millis() as u64,
    }))
    .into_response())
}

// ------------------------------------------------------------ live updates

/// A client's message on the live socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiveRequest {
    /// `move`, `resign`, `draw`, `takeback` or `ping`.
    #[serde(rename = "type")]
    kind: String,
    /// Echoed in the answer, to pair answers with requests.
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    token: Option<String>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    action: Option<String>,
}

async fn live(
    State(app): Shared,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let ws = ws.map_err(|r| {
        ApiError::bad_request(
            "not_websocket",
            format!("this endpoint speaks WebSocket only: {}", r.body_text()),
        )
    })?;
    Ok(ws
        .max_message_size(WS_MESSAGE_LIMIT)
        .max_frame_size(WS_MESSAGE_LIMIT)
        .on_upgrade(move |socket| live_session(app, id, slot, socket)))
}

async fn live_session(app: Arc<App>, id: String, slot: Arc<Slot>, mut socket: WebSocket) {
    // Subscribe before reading the state so no change falls in between.
    let mut updates = slot.updates.subscribe();
    let mut stopping = app.stopping.subscribe();
    let first = slot.game.lock().await.to_json().to_text();
    if send_state(&mut socket, &first).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            _ = stopping.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
            update = updates.recv() => match update {
                Ok(state) => {
                    if send_state(&mut socket, &state).await.is_err() {
                        return;
                    }
                }
                // A slow watcher missed states: send the current one.
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let now = slot.game.lock().await.to_json().to_text();
                    if send_state(&mut socket, &now).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let reply = live_request(&app, &id, text.as_str()).await;
                    if socket.send(Message::Text(reply.to_string().into())).await.is_err() {
                        return;
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    let e = ApiError::bad_request("bad_message", "send JSON text messages");
                    let reply = json!({"type": "error", "id": null, "error": e.body()["error"]});
                    if socket.send(Message::Text(reply.to_string().into())).await.is_err() {
                        return;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {} // pings are answered by the library
            },
        }
    }
}

async fn send_state(socket: &mut WebSocket, state: &str) -> Result<(), axum::Error> {
    let msg = format!("{{\"type\":\"state\",\"game\":{state}}}");
    socket.send(Message::Text(msg.into())).await
}

/// Handles one message from a live client; the answer is `ack` (the new
/// state follows as a `state` message to every watcher) or `error`.
async fn live_request(app: &Arc<App>, game_id: &str, text: &str) -> Value {
    let req: LiveRequest = match serde_json::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            let e = ApiError::bad_request("bad_json", format!("the message: {e}"));
            return json!({"type": "error", "id": null, "error": e.body()["error"]});
        }
    };
    let token = req.token.clone().unwrap_or_default();
    let action = req.action.clone().unwrap_or_default();
    let outcome = match req.kind.as_str() {
        "ping" => return json!({"type": "pong", "id": req.id}),
        "move" => {
            let mv = req.mv.clone().unwrap_or_default();
            app.change(game_id, |g| g.play(&token, &mv, req.ply)).await
        }
        "resign" => app.change(game_id, |g| g.resign(&token)).await,
        "draw" => app.change(game_id, |g| g.draw(&token, &action)).await,
        "takeback" => app.change(game_id, |g| g.takeback(&token, &action)).await,
        other => Err(ApiError::bad_request(
            "bad_message",
            format!("`{other}` is not a message type: use move, resign, draw, takeback or ping"),
        )),
    };
    match outcome {
        Ok(changed) => json!({"type": "ack", "id": req.id, "version": changed.version}),
        Err(e) => json!({"type": "error", "id": req.id, "error": e.body()["error"]}),
    }
}
