//! The HTTP routes: pages, games, records, the board.

use super::accounts::{account_of, Member, Viewer};
use super::http::{json_text, parse_variant, Body, Params};
use crate::app::{new_token, Shared};
use crate::clock::TimeControl;
use crate::create::NewGame;
use crate::error::ApiError;
use crate::games::{now_ms, parse_name, LiveGame, Mode, Request};
use crate::limits::Client;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use punct_core::{Record, Side};
use serde::Deserialize;
use serde_json::{json, Value};

// ------------------------------------------------------------ games

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateRequest {
    #[serde(default)]
    variant: Option<String>,
    /// `ai`, `hotseat` or `online`.
    mode: String,
    /// The AI's level (1–4), with mode `ai`.
    #[serde(default)]
    level: Option<u32>,
    /// The creator's display name (their seat's).
    #[serde(default)]
    name: Option<String>,
    /// The time control (clock.rs; absent: untimed).
    #[serde(default)]
    clock: Option<Value>,
    /// The creator's colour: `white`, `black` or `random` (mode `ai`:
    /// the person's colour; `online`: the creator's seat).
    #[serde(default)]
    side: Option<String>,
    /// A rated game (online, with a clock, between accounts).
    #[serde(default)]
    rated: bool,
}

/// A game's mode from a request: `ai` (with `level`, default 4; the AI
/// takes the side the creator does not), `hotseat` or `online`.
fn parse_mode(mode: &str, level: Option<u32>, creator: Side) -> Result<Mode, ApiError> {
    let mode = match mode {
        "ai" => match level.unwrap_or(4) {
            level @ 1..=4 => Mode::Ai {
                level,
                ai_side: creator.opponent(),
            },
            level => {
                return Err(ApiError::bad_request(
                    "bad_level",
                    format!("level {level} does not exist: use 1 to 4"),
                )
                .with("level", level))
            }
        },
        "hotseat" => Mode::Hotseat,
        "online" => Mode::Online,
        other => {
            return Err(ApiError::bad_request(
                "bad_mode",
                format!("{other:?} is not a mode: use ai, hotseat or online"),
            )
            .with("mode", other))
        }
    };
    if level.is_some() && !matches!(mode, Mode::Ai { .. }) {
        return Err(ApiError::bad_request(
            "bad_level",
            "a level is only for games against the AI",
        ));
    }
    Ok(mode)
}

/// A request's `clock` (400 `bad_clock` naming what is wrong).
fn time_control(v: Option<&Value>) -> Result<Option<TimeControl>, ApiError> {
    TimeControl::parse(v).map_err(|m| ApiError::bad_request("bad_clock", m))
}

/// The answer to a created game: its seats, links and state.
fn created(game: &LiveGame, creator: Side) -> Response {
    let id = game.row.id.clone();
    let link = |token: &Option<String>| token.as_ref().map(|t| seat_link(&id, t));
    // The invite is the creator's to pass on: it is in this answer only.
    let invite = game
        .invite_open()
        .zip(game.row.invite.as_ref())
        .map(|(side, code)| (side, code.clone()));
    let body = json!({
        "id": id,
        "seats": {"white": game.row.white_token, "black": game.row.black_token},
        "you": creator.name(),
        "invite": invite.as_ref().map(|(side, code)| json!({"side": side.name(), "code": code})),
        "links": {
            "white": link(&game.row.white_token),
            "black": link(&game.row.black_token),
            "invite": invite.as_ref().map(|(_, code)| invite_link(&id, code)),
            "spectate": format!("/game/{id}"),
        },
        "game": game.view(),
    });
    (StatusCode::CREATED, axum::Json(body)).into_response()
}

pub(crate) async fn create_game(
    State(app): Shared,
    Client(client): Client,
    Viewer(who): Viewer,
    Body(req): Body<CreateRequest>,
) -> Result<Response, ApiError> {
    let variant = parse_variant(req.variant.as_deref())?;
    let creator = app.pick_side(req.side.as_deref())?;
    let new = NewGame {
        mode: parse_mode(&req.mode, req.level, creator)?,
        creator,
        name: parse_name(req.name.as_deref())?,
        clock: time_control(req.clock.as_ref())?,
        account: who.as_ref().map(account_of),
        rated: req.rated,
    };
    new.check_rated()?;
    if let (Mode::Ai { level, .. }, true) = (new.mode, new.rated) {
        crate::bots::ensure(app.store.as_ref(), level).await?;
    }
    let game = app.new_game(variant, new)?;
    let stored = app.open_game(game, client).await?;
    Ok(created(&stored, creator))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Import {
    record: String,
    /// How to go on from the record's last position: `hotseat` (default),
    /// `online` or `ai` (with `level` and `side`).
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    level: Option<u32>,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    name: Option<String>,
    /// The time control from here on (absent: untimed).
    #[serde(default)]
    clock: Option<Value>,
}

pub(crate) async fn import_game(
    State(app): Shared,
    Client(client): Client,
    Viewer(who): Viewer,
    Body(req): Body<Import>,
) -> Result<Response, ApiError> {
    let record = Record::parse(&req.record)
        .map_err(|e| ApiError::unprocessable("bad_record", format!("the record: {e}")))?;
    let replayed = record.replay().map_err(|e| {
        let error = ApiError::unprocessable("bad_record", format!("the record: {e}"));
        match &e {
            // An illegal move: which one, and why.
            punct_core::RecordError::Illegal {
                number, error: at, ..
            } => error
                .with("number", *number)
                .with("move", at.mv.to_string())
                .because(&at.reason),
            _ => error,
        }
    })?;
    let creator = app.pick_side(req.side.as_deref())?;
    let new = NewGame {
        mode: parse_mode(req.mode.as_deref().unwrap_or("hotseat"), req.level, creator)?,
        creator,
        name: parse_name(req.name.as_deref())?,
        clock: time_control(req.clock.as_ref())?,
        account: who.as_ref().map(account_of),
        rated: false,
    };
    let game = app.imported_game(&record, &replayed, new)?;
    let stored = app.open_game(game, client).await?;
    Ok(created(&stored, creator))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    status: Option<String>,
    limit: Option<u32>,
    /// Comma-separated game ids: only those games ("my games").
    ids: Option<String>,
    /// `true`: ongoing games between people, to watch.
    watch: Option<bool>,
}

/// Games begun but left without a move are not listed after this long.
const EMPTY_GAME_LISTED_MS: i64 = 10 * 60 * 1000;

pub(crate) async fn list_games(
    State(app): Shared,
    Params(q): Params<ListQuery>,
) -> Result<Response, ApiError> {
    if let Some(s) = q.status.as_deref() {
        if s != "ongoing" && s != "over" {
            return Err(ApiError::bad_request(
                "bad_status",
                format!("{s:?} is not a status: use ongoing or over"),
            )
            .with("status", s));
        }
    }
    let ids = match q.ids.as_deref() {
        None => None,
        Some(list) => {
            let ids: Vec<String> = list
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(str::to_string)
                .collect();
            if ids.len() > 200 {
                return Err(ApiError::bad_request(
                    "bad_ids",
                    format!("ids lists {} games: at most 200", ids.len()),
                )
                .with("max", 200));
            }
            if let Some(bad) = ids
                .iter()
                .find(|id| id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()))
            {
                return Err(ApiError::bad_request(
                    "bad_ids",
                    format!("{bad:?} in ids is not a game id (letters and digits)"),
                ));
            }
            Some(ids)
        }
    };
    let filter = punct_store::ListFilter {
        over: q.status.as_deref().map(|s| s == "over"),
        limit: q.limit.unwrap_or(50).clamp(1, 500),
        watch: q.watch.unwrap_or(false),
        // A browser's own games are listed even when empty.
        empty_before: ids.is_none().then(|| now_ms() - EMPTY_GAME_LISTED_MS),
        ids,
        ..Default::default()
    };
    let rows = app.store.list(&filter).await?;
    let games: Vec<Value> = rows.iter().map(LiveGame::summary).collect();
    Ok(axum::Json(json!({ "games": games })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameQuery {
    /// Show the game as it was after this many plies (replay).
    ply: Option<usize>,
    /// A seat token: the answer says which seats it holds (`you`). The
    /// header `X-Punct-Token` is better (URLs end up in logs and history).
    token: Option<String>,
}

/// The header that carries a seat token on `GET /api/games/{id}`.
const TOKEN_HEADER: &str = "x-punct-token";

pub(crate) async fn get_game(
    State(app): Shared,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    Params(q): Params<GameQuery>,
) -> Result<Response, ApiError> {
    // A header that is not plain text is no token: it holds no seat.
    let header_token = headers
        .get(TOKEN_HEADER)
        .map(|v| v.to_str().unwrap_or_default());
    let slot = app.slot(&id).await?;
    let game = slot.game.lock().await;
    let mut state = match q.ply {
        None => game.view(),
        Some(ply) => game.view_at(ply).ok_or_else(|| {
            ApiError::bad_request(
                "bad_ply",
                format!(
                    "ply {ply} is past the end: {} plies have been played",
                    game.game.len()
                ),
            )
            .with("ply", ply)
            .with("plies", game.game.len())
        })?,
    };
    if let Some(token) = header_token.or(q.token.as_deref()) {
        let you: Vec<&str> = game.seats(token).iter().map(|s| s.name()).collect();
        state.set("you", json!(you));
    }
    Ok(json_text(StatusCode::OK, state.to_text()))
}

/// The board and the pieces' shapes, for drawing (punct-view's, which the
/// page's module gives too when there is no server).
pub(crate) async fn board() -> Response {
    axum::Json(punct_view::learn::board_info()).into_response()
}

pub(crate) async fn get_record(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
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
pub(crate) struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    token: String,
    /// Plies played in the position the move was chosen in (optional).
    #[serde(default)]
    ply: Option<usize>,
}

pub(crate) async fn post_move(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<MoveRequest>,
) -> Result<Response, ApiError> {
    let changed = app
        .change_by(client, &id, |g| g.play(&req.token, &req.mv, req.ply))
        .await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenOnly {
    token: String,
}

pub(crate) async fn post_resign(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<TokenOnly>,
) -> Result<Response, ApiError> {
    let changed = app.change_by(client, &id, |g| g.resign(&req.token)).await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

/// `POST /api/games/{id}/abort`: the seat's player ends the game with no
/// result, before each side has moved.
pub(crate) async fn post_abort(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<TokenOnly>,
) -> Result<Response, ApiError> {
    let changed = app.change_by(client, &id, |g| g.abort(&req.token)).await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChatRequest {
    token: String,
    phrase: String,
}

/// `POST /api/games/{id}/chat`: a seat says one of the fixed phrases.
pub(crate) async fn post_chat(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<ChatRequest>,
) -> Result<Response, ApiError> {
    let changed = app
        .change_by(client, &id, |g| g.say(&req.token, &req.phrase))
        .await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ActionRequest {
    token: String,
    action: String,
}

pub(crate) async fn post_draw(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    let action = Request::Draw.action(&req.action)?;
    let changed = app
        .change_by(client, &id, |g| g.draw(&req.token, action))
        .await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

pub(crate) async fn post_takeback(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    let action = Request::Takeback.action(&req.action)?;
    let changed = app
        .change_by(client, &id, |g| g.takeback(&req.token, action))
        .await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AbandonRequest {
    token: String,
}

/// `POST /api/games/{id}/abandon`: the holder of `token` claims the win
/// because the opponent left (presence.rs, [`LiveGame::abandon`]).
pub(crate) async fn post_abandon(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<AbandonRequest>,
) -> Result<Response, ApiError> {
    let changed = app.abandon(client, &id, &req.token).await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

/// A seat's page: the token rides in the fragment, which browsers never
/// send to a server, and the page moves it into its storage at once.
fn seat_link(id: &str, token: &str) -> String {
    format!("/game/{id}#token={token}")
}

/// The invite's page: the code rides in the fragment, like a seat's token.
fn invite_link(id: &str, code: &str) -> String {
    format!("/game/{id}#invite={code}")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Claim {
    invite: String,
    /// The joining player's display name.
    #[serde(default)]
    name: Option<String>,
}

/// Takes the online seat still waiting for its player, with the invite
/// code the creator passed on; the seat gets a fresh token.
pub(crate) async fn post_claim(
    State(app): Shared,
    Path(id): Path<String>,
    Viewer(who): Viewer,
    Body(req): Body<Claim>,
) -> Result<Response, ApiError> {
    let token = new_token(&app, 24);
    let name = parse_name(req.name.as_deref())?;
    let account = who.as_ref().map(account_of);
    let mut side = None;
    let changed = app
        .change(&id, |g| {
            side = Some(g.claim(&req.invite, token.clone(), name.clone(), account.as_ref())?);
            Ok(())
        })
        .await?;
    let side = side.ok_or_else(|| ApiError::internal("the claim named no seat"))?;
    let game: Value = serde_json::from_str(&changed.state)
        .map_err(|e| ApiError::internal(format!("the state: {e}")))?;
    Ok(axum::Json(json!({
        "side": side.name(),
        "link": seat_link(&id, &token),
        "token": token,
        "game": game,
    }))
    .into_response())
}

/// Gives the holder of a seat's token a new one; the old one stops
/// working (a link shown to someone else, or moving to another device).
pub(crate) async fn post_token(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<TokenOnly>,
) -> Result<Response, ApiError> {
    let token = new_token(&app, 24);
    let mut seats = Vec::new();
    app.change(&id, |g| {
        seats = g.renew_token(&req.token, token.clone())?;
        Ok(())
    })
    .await?;
    Ok(seat_answer(&id, &token, &seats))
}

/// The answer naming a token, the seats it holds and the seat's link.
fn seat_answer(id: &str, token: &str, seats: &[Side]) -> Response {
    let seats: Vec<&str> = seats.iter().map(|s| s.name()).collect();
    axum::Json(json!({
        "link": seat_link(id, token),
        "token": token,
        "seats": seats,
    }))
    .into_response()
}

/// The signed-in account's seat in game `id` and its token, for a device
/// of theirs that does not keep it: the page asks when it opens a game of
/// the account's without a token (the account's games on any device).
/// 403 `not_your_game` when the account holds no seat here.
pub(crate) async fn post_seat(
    State(app): Shared,
    Path(id): Path<String>,
    Member(who): Member,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let held = slot.game.lock().await.account_seat(&who.user.id);
    let (seats, token) = held.ok_or_else(|| {
        ApiError::forbidden("not_your_game", "your account holds no seat in this game")
    })?;
    Ok(seat_answer(&id, &token, &seats))
}

/// Gives the waiting online seat a new invite code, for its creator (the
/// holder of the other seat); the old code stops working (an invite sent
/// to the wrong person). The new one is in this answer only.
pub(crate) async fn post_invite(
    State(app): Shared,
    Path(id): Path<String>,
    Body(req): Body<TokenOnly>,
) -> Result<Response, ApiError> {
    let code = new_token(&app, 24);
    let mut side = None;
    app.change(&id, |g| {
        side = Some(g.renew_invite(&req.token, code.clone())?);
        Ok(())
    })
    .await?;
    let side = side.ok_or_else(|| ApiError::internal("the new invite named no seat"))?;
    Ok(axum::Json(json!({
        "invite": {"side": side.name(), "code": code},
        "link": invite_link(&id, &code),
    }))
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameRequest {
    token: String,
    /// Empty or absent: no name.
    #[serde(default)]
    name: Option<String>,
    /// At one screen, which seat to name (default both).
    #[serde(default)]
    side: Option<String>,
}

/// Sets the display name of the seat a token holds.
pub(crate) async fn post_name(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<NameRequest>,
) -> Result<Response, ApiError> {
    let name = parse_name(req.name.as_deref())?;
    let side = match req.side.as_deref() {
        None => None,
        Some(s) => Some(Side::from_name(s).ok_or_else(|| {
            ApiError::bad_request(
                "bad_side",
                format!("{s:?} is not a side: use white or black"),
            )
            .with("side", s)
        })?),
    };
    let changed = app
        .change_by(client, &id, |g| g.set_name(&req.token, side, name.clone()))
        .await?;
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}

/// Offers, accepts or declines a rematch after the game (docs/API.md):
/// when it starts, the new game is stored and this game's state names it
/// in `rematch`.
pub(crate) async fn post_rematch(
    State(app): Shared,
    Client(client): Client,
    Path(id): Path<String>,
    Body(req): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    let action = Request::Rematch.action(&req.action)?;
    let new_id = new_token(&app, 10);
    let mut started = false;
    let changed = app
        .change_by(client, &id, |g| {
            g.rematch(&req.token, action, &new_id)?;
            started = g.rematch_new.is_some();
            Ok(())
        })
        .await?;
    if started {
        app.adopt_rematch(&new_id, client).await;
    }
    Ok(json_text(StatusCode::OK, changed.state.to_string()))
}
