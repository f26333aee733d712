//! What every live socket's route checks before it upgrades (a game's and
//! the lobby's alike): a WebSocket request, from a page of this site (a
//! browser names its page's origin; other clients send none), within the
//! client's count of open sockets — held until the socket ends.

use crate::app::App;
use crate::error::ApiError;
use crate::limits::{too_many_sockets, ClientKey, Held};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::http::{header, HeaderMap};

pub(super) fn admit(
    app: &App,
    client: ClientKey,
    headers: &HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<(WebSocketUpgrade, Held), ApiError> {
    let ws = ws.map_err(|r| {
        ApiError::bad_request(
            "not_websocket",
            format!("this endpoint speaks WebSocket only: {}", r.body_text()),
        )
    })?;
    // A page on another site must not drive a player's socket.
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let origin = origin.to_str().unwrap_or("");
        if !app.hosts.origin_allowed(origin, host) {
            return Err(ApiError::forbidden(
                "bad_origin",
                format!("live sockets are not accepted from pages of `{origin}`"),
            ));
        }
    }
    let cap = app.config.ws_per_client;
    let counted = app
        .sockets
        .enter(client, cap)
        .ok_or_else(|| too_many_sockets(cap))?;
    Ok((ws, counted))
}

/// Closes a live socket with `code` and `reason`, waiting at most a second
/// for a client that reads nothing.
pub(crate) async fn close(
    socket: &mut axum::extract::ws::WebSocket,
    code: u16,
    reason: impl Into<axum::extract::ws::Utf8Bytes>,
) {
    use axum::extract::ws::{CloseFrame, Message};
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(1),
        socket.send(Message::Close(Some(frame))),
    )
    .await;
}
