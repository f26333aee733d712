//! The bots' routes (`/api/bot/…`): programs that play as an account,
//! signed in by an API token in `Authorization: Bearer punct_…` rather
//! than the session cookie. Tokens are made on the account page
//! (`accounts.rs`'s `create_token`); the logic of the bots' games and
//! streams is `botapi.rs`.
//!
//! A request is token-authenticated or cookie-authenticated, never both:
//! a bot route refuses a request that carries the session cookie with its
//! token (so a page of another site cannot borrow a browser's session to
//! pass as a bot, nor a bot's request a session), and the cookie routes
//! never read a token.

use super::accounts::{me, session_secret};
use super::http::{json_text, parse_variant, Body};
use crate::accounts::TokenUser;
use crate::app::{App, Shared};
use crate::botapi::{self, Open, LINES_QUEUE, STREAMS_PER_ACCOUNT};
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::limits::{too_many_sockets, Client};
use crate::lobby::Wanted;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use punct_store::{BotUpgrade, UserRow};
use serde::Deserialize;
use serde_json::{json, Value};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::mpsc;

/// A request's account by its API token (any account: a person's too, to
/// upgrade it); 401 without a valid one.
pub(crate) struct Token(pub(crate) TokenUser);

/// A request's bot account by its API token: 401 without a valid token,
/// 403 `not_a_bot` for an account that is not a bot.
pub(crate) struct Bot(pub(crate) TokenUser);

/// The bearer token of a request, if it has an `Authorization` header;
/// `Err` for a header that is not `Bearer <token>`.
fn bearer(headers: &HeaderMap) -> Option<Result<String, ApiError>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let text = value.to_str().unwrap_or("");
    let (scheme, token) = text.trim().split_once(' ').unwrap_or((text, ""));
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Some(Err(invalid(
            "the Authorization header must be `Bearer <token>`",
        )));
    }
    Some(Ok(token.trim().to_string()))
}

fn invalid(message: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "invalid_token", message)
}

impl FromRequestParts<Arc<App>> for Token {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Token, ApiError> {
        let Some(given) = bearer(&parts.headers) else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "no_token",
                "this needs an API token: send `Authorization: Bearer punct_…` (made on the \
                 account page)",
            ));
        };
        let given = given?;
        if session_secret(&parts.headers).is_some() {
            return Err(ApiError::bad_request(
                "token_and_cookie",
                "a request signs in with an API token or with the session cookie, not both",
            ));
        }
        match app.accounts.token_user(&given).await? {
            Some(who) => Ok(Token(who)),
            None => Err(invalid(
                "this API token is not valid: unknown, removed, or its account deleted",
            )),
        }
    }
}

impl FromRequestParts<Arc<App>> for Bot {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Bot, ApiError> {
        let Token(who) = Token::from_request_parts(parts, app).await?;
        if !who.user.bot {
            return Err(ApiError::forbidden(
                "not_a_bot",
                "this account is not a bot: upgrade it first (POST /api/bot/account/upgrade)",
            ));
        }
        Ok(Bot(who))
    }
}

/// `GET /api/bot/account`: the token's account (`bot` says whether it
/// plays as one).
pub(crate) async fn account(State(_app): Shared, Token(who): Token) -> Result<Response, ApiError> {
    Ok(axum::Json(json!({ "user": me(&who.user) })).into_response())
}

/// `POST /api/bot/account/upgrade`: the token's account plays as a bot
/// from now on (for good), if it has played no game: its games and
/// ratings are then all a bot's. 409 `has_games` otherwise.
pub(crate) async fn upgrade(State(app): Shared, Token(who): Token) -> Result<Response, ApiError> {
    match app.store.accounts().make_bot(&who.user.id).await? {
        BotUpgrade::Upgraded | BotUpgrade::AlreadyBot => {
            let user = UserRow {
                bot: true,
                ..who.user
            };
            Ok(axum::Json(json!({ "user": me(&user) })).into_response())
        }
        BotUpgrade::HasGames => Err(ApiError::conflict(
            "has_games",
            "an account that has played games cannot become a bot: make a new account for it",
        )),
        BotUpgrade::NotFound => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "this API token's account is gone",
        )),
    }
}

// ------------------------------------------------------------ streams

/// A stream's lines as an HTTP body: each line and a newline, written as
/// it comes (NDJSON); the body ends when the stream's task does.
struct Lines(mpsc::Receiver<String>);

impl futures_core::Stream for Lines {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|line| {
            line.map(|mut line| {
                line.push('\n');
                Ok(Bytes::from(line))
            })
        })
    }
}

/// The answer that streams `lines`.
fn ndjson(lines: mpsc::Receiver<String>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
            // A proxy in front (nginx) passes each line on at once.
            (header::HeaderName::from_static("x-accel-buffering"), "no"),
        ],
        axum::body::Body::from_stream(Lines(lines)),
    )
        .into_response()
}

/// A place for one more stream of the bot `user` from `client`: at most
/// `STREAMS_PER_ACCOUNT` per account here (429 `too_many_streams`) and
/// within the client's live connections (429 `too_many_sockets`).
fn open_stream(
    app: &Arc<App>,
    user: &str,
    client: crate::limits::ClientKey,
) -> Result<Open, ApiError> {
    let place = app
        .bot_hub
        .enter(user, STREAMS_PER_ACCOUNT)
        .ok_or_else(|| {
            ApiError::too_many(
                "too_many_streams",
                format!(
                    "a bot holds at most {STREAMS_PER_ACCOUNT} streams open at once: close some"
                ),
                5,
            )
            .with("max", STREAMS_PER_ACCOUNT)
        })?;
    let cap = app.config.ws_per_client;
    let held = app
        .sockets
        .enter(client, cap)
        .ok_or_else(|| too_many_sockets(cap))?;
    Ok(Open {
        _place: place,
        _held: held,
    })
}

/// `GET /api/bot/stream/event`: the bot's events, one JSON object a line
/// (`gameStart`, `gameFinish`, `challenge`, `challengeCanceled`; an empty
/// line every few seconds).
pub(crate) async fn event_stream(
    State(app): Shared,
    Client(client): Client,
    Bot(who): Bot,
) -> Result<Response, ApiError> {
    let open = open_stream(&app, &who.user.id, client)?;
    let (tx, rx) = mpsc::channel(LINES_QUEUE);
    // Listening before the answer goes out: a seek posted once the
    // stream is open finds it.
    let listening = app.bot_hub.listen(&who.user.id);
    tokio::spawn(botapi::events(app, who.user, listening, tx, open));
    Ok(ndjson(rx))
}

/// `GET /api/bot/game/stream/{id}`: one of the bot's games, `gameFull`
/// then a `gameState` after every change, until it ends.
pub(crate) async fn game_stream(
    State(app): Shared,
    Client(client): Client,
    Bot(who): Bot,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (first, slot, updates, over) = botapi::open_game_stream(&app, &who.user.id, &id).await?;
    let open = open_stream(&app, &who.user.id, client)?;
    let (tx, rx) = mpsc::channel(LINES_QUEUE);
    let _ = tx.try_send(first);
    tokio::spawn(botapi::game_stream(app, slot, updates, over, tx, open));
    Ok(ndjson(rx))
}

// ------------------------------------------------------------ moves

/// `POST /api/bot/game/{id}/move/{move}`: the bot's move (the notation's
/// `/` may stand as it is, or as `%2F`). Answers the new `gameState`.
pub(crate) async fn post_move(
    State(app): Shared,
    Client(client): Client,
    Bot(who): Bot,
    Path((id, mv)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let state = botapi::play(&app, client, &who.user.id, &id, &mv).await?;
    Ok(json_text(
        StatusCode::OK,
        json!({"ok": true, "state": state}).to_string(),
    ))
}

/// `POST /api/bot/game/{id}/resign`.
pub(crate) async fn post_resign(
    State(app): Shared,
    Client(client): Client,
    Bot(who): Bot,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let state = botapi::resign(&app, client, &who.user.id, &id).await?;
    Ok(json_text(
        StatusCode::OK,
        json!({"ok": true, "state": state}).to_string(),
    ))
}

/// `POST /api/bot/game/{id}/abort`.
pub(crate) async fn post_abort(
    State(app): Shared,
    Client(client): Client,
    Bot(who): Bot,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let state = botapi::abort(&app, client, &who.user.id, &id).await?;
    Ok(json_text(
        StatusCode::OK,
        json!({"ok": true, "state": state}).to_string(),
    ))
}

// ------------------------------------------------------------ challenges

/// `POST /api/bot/challenge/{id}/accept`: accepts a challenge offered to
/// the bot; `{"game": ID}`, whose `gameStart` follows on the event stream.
pub(crate) async fn post_challenge_accept(
    State(app): Shared,
    Bot(who): Bot,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = botapi::accept(&app, &who.user, &id).await?;
    Ok(axum::Json(json!({ "game": game })).into_response())
}

/// `POST /api/bot/challenge/{id}/decline`.
pub(crate) async fn post_challenge_decline(
    State(app): Shared,
    Bot(who): Bot,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    botapi::decline(&app, &who.user, &id).await?;
    Ok(axum::Json(json!({ "declined": id })).into_response())
}

// ------------------------------------------------------------ seeks

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeekRequest {
    #[serde(default)]
    variant: Option<String>,
    /// As games take it (absent: untimed).
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    rated: bool,
    /// The bot's colour: `white`, `black` or `random` (the default).
    #[serde(default)]
    side: Option<String>,
}

/// `POST /api/bot/seek`: a seek in the lobby that anyone may accept,
/// lasting while the bot's event stream is open (never quick pairing).
pub(crate) async fn post_seek(
    State(app): Shared,
    Bot(who): Bot,
    Body(req): Body<SeekRequest>,
) -> Result<Response, ApiError> {
    let wanted = Wanted {
        variant: parse_variant(req.variant.as_deref())?,
        clock: TimeControl::parse(req.clock.as_ref())
            .map_err(|m| ApiError::bad_request("bad_clock", m))?,
        rated: req.rated,
        side: req.side.unwrap_or_else(|| "random".into()),
        pool: false,
        to: None,
    };
    let seek = botapi::seek(&app, &who.user, wanted).await?;
    Ok((StatusCode::CREATED, axum::Json(json!({ "seek": seek }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CancelRequest {
    seek: String,
}

/// `POST /api/bot/seek/cancel`: withdraws one of the bot's seeks.
pub(crate) async fn post_seek_cancel(
    State(app): Shared,
    Bot(who): Bot,
    Body(req): Body<CancelRequest>,
) -> Result<Response, ApiError> {
    botapi::cancel(&app, &who.user.id, &req.seek).await?;
    Ok(axum::Json(json!({ "cancelled": req.seek })).into_response())
}
