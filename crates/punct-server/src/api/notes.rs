//! The signed-in account's notifications: the list (`GET
//! /api/account/notifications`), marking read (`POST
//! /api/account/notifications/read`) and the account's live socket (`GET
//! /api/account/live`), which says the unread count first and then each
//! new notification (and the count again when some are read) as it comes,
//! from whichever instance made it. The logic is `notes.rs`.

use super::accounts::Member;
use super::http::{Body, Params};
use crate::app::{App, Shared};
use crate::error::ApiError;
use crate::limits::{Client, Held};
use crate::notes::{self, hub, PAGE_MAX, READ_MAX};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

const PING_EVERY: Duration = Duration::from_secs(30);

/// The furthest a list may be paged (as the games' lists).
const OFFSET_MAX: u32 = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Page {
    #[serde(default)]
    offset: u32,
    limit: Option<u32>,
}

/// `GET /api/account/notifications?offset=&limit=`: unread first, newest
/// first, with the unread count.
pub(crate) async fn list(
    State(app): Shared,
    Member(who): Member,
    Params(page): Params<Page>,
) -> Result<Response, ApiError> {
    let limit = page.limit.unwrap_or(20);
    if page.offset > OFFSET_MAX {
        return Err(ApiError::bad_request(
            "bad_query",
            format!(
                "`offset` must be from 0 to {OFFSET_MAX}, not {}",
                page.offset
            ),
        )
        .with("max", OFFSET_MAX));
    }
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad_request(
            "bad_query",
            format!("`limit` must be from 1 to {PAGE_MAX}, not {limit}"),
        )
        .with("max", PAGE_MAX));
    }
    let v = notes::list(&app, &who.user.id, page.offset, limit).await?;
    Ok(axum::Json(v).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Marking {
    ids: Option<Vec<i64>>,
    #[serde(default)]
    all: bool,
}

/// `POST /api/account/notifications/read` with `{"ids": […]}` or
/// `{"all": true}`: the unread count left. Ids of another account's
/// notifications change nothing.
pub(crate) async fn read(
    State(app): Shared,
    Member(who): Member,
    Body(marking): Body<Marking>,
) -> Result<Response, ApiError> {
    let ids = match (marking.ids, marking.all) {
        (None, true) => None,
        (Some(ids), false) if !ids.is_empty() && ids.len() <= READ_MAX => Some(ids),
        _ => {
            return Err(ApiError::bad_request(
                "bad_marking",
                format!(
                    "send {{\"ids\": [...]}} with 1 to {READ_MAX} notification ids, or \
                     {{\"all\": true}}"
                ),
            )
            .with("max", READ_MAX))
        }
    };
    let unread = notes::read(&app, &who.user.id, ids.as_deref()).await?;
    Ok(axum::Json(json!({ "unread": unread })).into_response())
}

/// `GET /api/account/live`: the account's notifications as they come.
pub(crate) async fn live(
    State(app): Shared,
    Client(client): Client,
    Member(who): Member,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (ws, counted) = super::upgrade::admit(&app, client, &headers, ws)?;
    let user = who.user.id.clone();
    Ok(ws
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_message_size(1024)
        .max_frame_size(1024)
        .on_upgrade(move |socket| run(app, user, counted, socket)))
}

async fn run(app: Arc<App>, user: String, _counted: Held, mut socket: WebSocket) {
    if let Some((code, reason)) = serve(&app, &user, &mut socket).await {
        super::upgrade::close(&mut socket, code, reason).await;
    }
}

async fn send(app: &App, socket: &mut WebSocket, text: String) -> Result<(), ()> {
    match tokio::time::timeout(
        app.config.ws_send_timeout,
        socket.send(Message::Text(text.into())),
    )
    .await
    {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// The unread count now, as the socket's message.
async fn count(app: &App, user: &str) -> Option<String> {
    let unread = app.store.notes().unread(user).await.ok()?;
    Some(hub::message(None, unread).to_string())
}

/// Serves until the socket ends; the close frame to send, if any. The
/// client only listens: what it sends is read for liveness and dropped.
async fn serve(app: &App, user: &str, socket: &mut WebSocket) -> Option<(u16, &'static str)> {
    // Listening before the count is read: a note made meanwhile is heard.
    let mut listener = app.notes.listen(user);
    let mut stopping = app.stopping.subscribe();
    let Some(first) = count(app, user).await else {
        return Some((close_code::ERROR, "the notifications cannot be read now"));
    };
    send(app, socket, first).await.ok()?;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = Instant::now();
    loop {
        let step = tokio::select! {
            _ = stopping.changed() => return Some((close_code::AWAY, "the server is stopping")),
            news = listener.news.recv() => match news {
                Ok(text) => send(app, socket, text.to_string()).await,
                // Fell behind: the count again, once.
                Err(broadcast::error::RecvError::Lagged(_)) => match count(app, user).await {
                    Some(text) => send(app, socket, text).await,
                    None => Ok(()),
                },
                Err(broadcast::error::RecvError::Closed) => return None,
            },
            _ = pings.tick() => {
                if heard.elapsed() > 3 * PING_EVERY {
                    return Some((close_code::AWAY, "no answer to pings"));
                }
                match tokio::time::timeout(app.config.ws_send_timeout, socket.send(Message::Ping(Default::default()))).await {
                    Ok(Ok(())) => Ok(()),
                    _ => Err(()),
                }
            }
            incoming = socket.recv() => {
                heard = Instant::now();
                match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                    Some(Ok(_)) => Ok(()),
                }
            }
        };
        if step.is_err() {
            return None;
        }
    }
}
