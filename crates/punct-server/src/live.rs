//! Live updates: a game's WebSocket sessions.

use crate::app::{App, Shared, Slot};
use crate::error::ApiError;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::broadcast;

/// Largest WebSocket message from a client.
const WS_MESSAGE_LIMIT: usize = 16 * 1024;

// ------------------------------------------------------------ live updates

/// A client's message on the live socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LiveRequest {
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

pub(crate) async fn live(
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

pub(crate) async fn live_session(
    app: Arc<App>,
    id: String,
    slot: Arc<Slot>,
    mut socket: WebSocket,
) {
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

pub(crate) async fn send_state(socket: &mut WebSocket, state: &str) -> Result<(), axum::Error> {
    let msg = format!("{{\"type\":\"state\",\"game\":{state}}}");
    socket.send(Message::Text(msg.into())).await
}

/// Handles one message from a live client; the answer is `ack` (the new
/// state follows as a `state` message to every watcher) or `error`.
pub(crate) async fn live_request(app: &Arc<App>, game_id: &str, text: &str) -> Value {
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
