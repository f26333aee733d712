//! Live updates: a game's WebSocket sessions. Each session holds no queue
//! of its own (a watcher that falls behind gets the current state), gives
//! a client that stops reading `ws_send_timeout` before it is dropped and
//! one that never sends a frame `ws_first_frame_timeout`, answers frames
//! it refuses with a close frame saying why, and counts against its
//! client's and its game's socket caps.

use crate::app::{App, Published, Shared, Slot};
use crate::error::ApiError;
use crate::games::{now_ms, Request};
use crate::limits::{Client, ClientKey, Held, Kind};
use crate::presence::Member;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Largest WebSocket message from a client (a move is a few dozen bytes).
const WS_MESSAGE_LIMIT: usize = 16 * 1024;
/// What the WebSocket library itself reads at most; messages between this
/// and [`WS_MESSAGE_LIMIT`] are refused with a close frame by the session.
const WS_READ_LIMIT: usize = 64 * 1024;
/// An idle socket needs little: a small read buffer (a client's messages
/// are a few dozen bytes; a longer one grows it while it is read), and
/// writes go straight out instead of gathering in a buffer of their own.
const WS_READ_BUFFER: usize = 512;
/// The server pings each socket this often, and drops one it has not
/// heard from (pongs included) for three times as long: a peer that
/// vanished without closing.
const PING_EVERY: Duration = Duration::from_secs(30);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LiveQuery {
    /// `false`: states without `legal_moves` (spectators need none);
    /// `compact`: legal moves grouped in `legal_compact`.
    #[serde(default)]
    legal_moves: Option<LegalMoves>,
    /// `moves`: after the first state, each change as an `update` (the
    /// move, the version, what else changed; delta.rs) where the socket
    /// can follow it, a whole state where not. `states` (the default):
    /// every change as a whole state.
    #[serde(default)]
    updates: Option<Updates>,
    /// With `updates=moves`: the version of the state the client holds
    /// (read over HTTP just before, or its last before a reconnection).
    /// When it is the game's version the socket begins with a short
    /// update saying so instead of the whole state.
    #[serde(default)]
    version: Option<i64>,
}

/// What a socket hears of each change.
#[derive(Deserialize, Clone, Copy, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Updates {
    #[default]
    States,
    Moves,
}

/// How a socket's states carry the legal moves.
#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
enum LegalMoves {
    /// `legal_moves`, a list.
    #[default]
    True,
    /// None.
    False,
    /// `legal_compact`, grouped.
    Compact,
}

/// A live socket counted on its game until dropped.
struct Watching(Arc<Slot>);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.watchers.fetch_sub(1, Ordering::Relaxed);
    }
}

pub(crate) async fn live(
    State(app): Shared,
    Path(id): Path<String>,
    super::http::Params(query): super::http::Params<LiveQuery>,
    Client(client): Client,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let (ws, counted) = super::upgrade::admit(&app, client, &headers, ws)?;
    let on_game = slot.watchers.fetch_add(1, Ordering::Relaxed);
    let watching = Watching(slot.clone());
    if on_game >= app.config.ws_per_game {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "game_full",
            format!(
                "this game has {} live connections, the most it takes",
                app.config.ws_per_game
            ),
        )
        .with("max", app.config.ws_per_game));
    }
    let session = Session {
        app,
        id,
        slot,
        client,
        legal_moves: query.legal_moves.unwrap_or_default(),
        follow_moves: query.updates == Some(Updates::Moves),
        held: query.version,
        _counted: counted,
        _watching: watching,
    };
    Ok(ws
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(WS_READ_LIMIT)
        .max_frame_size(WS_READ_LIMIT)
        .on_upgrade(move |socket| session.run(socket)))
}

/// One live socket's session.
struct Session {
    app: Arc<App>,
    id: String,
    slot: Arc<Slot>,
    client: ClientKey,
    legal_moves: LegalMoves,
    /// `updates=moves`: changes as updates where the socket can follow.
    follow_moves: bool,
    /// The version the client says it holds (`?version=`).
    held: Option<i64>,
    _counted: Held,
    _watching: Watching,
}

/// Why a session ends.
enum End {
    /// The client closed, the connection broke, or the client stopped
    /// reading: nothing more to say.
    Gone,
    /// Close with this code and reason.
    Close(u16, &'static str),
}

impl Session {
    async fn run(self, mut socket: WebSocket) {
        let end = self.serve(&mut socket).await;
        if let End::Close(code, reason) = end {
            super::upgrade::close(&mut socket, code, reason).await;
        }
    }

    fn state_of(&self, published: &Published) -> Arc<str> {
        match self.legal_moves {
            LegalMoves::True => published.full(),
            LegalMoves::False => published.light(),
            LegalMoves::Compact => published.compact(),
        }
    }

    /// Sends `text`, or gives up on a client that does not take it within
    /// the send timeout (its unread data is not kept here).
    async fn send(&self, socket: &mut WebSocket, text: String) -> Result<(), End> {
        self.send_message(socket, Message::Text(text.into())).await
    }

    async fn send_message(&self, socket: &mut WebSocket, message: Message) -> Result<(), End> {
        match tokio::time::timeout(self.app.config.ws_send_timeout, socket.send(message)).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(End::Gone),
        }
    }

    async fn send_state(&self, socket: &mut WebSocket, state: &str) -> Result<(), End> {
        self.send(socket, format!("{{\"type\":\"state\",\"game\":{state}}}"))
            .await
    }

    /// The game's state now: the one published last where it still is
    /// (so the next update follows from it), else made afresh.
    async fn current(&self) -> Published {
        let game = self.slot.game.lock().await;
        let now = Published::of(&game);
        let last = self.slot.last.lock().expect("last state lock").clone();
        match last {
            Some(last) if last.fields() == now.fields() => last,
            _ => now,
        }
    }

    /// The socket's first word on the game: the whole state, or, for a
    /// client that follows moves and already holds the game's version,
    /// an update with no move saying so (with what may change without a
    /// new version: the AI thinking, a notice) — so an idle socket never
    /// held a whole state's bytes.
    async fn send_first(&self, socket: &mut WebSocket, sent: &mut u64) -> Result<(), End> {
        let now = self.current().await;
        let fields = now.fields();
        let version = fields.get("version").and_then(Value::as_i64);
        let ongoing = fields.get("status").and_then(Value::as_str) == Some("ongoing");
        if !(self.follow_moves && ongoing && version.is_some() && version == self.held) {
            return self.send_published(socket, &now, sent).await;
        }
        let mut changes = serde_json::Map::new();
        for key in ["ai_thinking", "notice", "notice_code", "notice_params"] {
            if let Some(value) = fields.get(key) {
                changes.insert(key.to_string(), value.clone());
            }
        }
        let in_step = json!({
            "type": "update",
            "version": version,
            "previous": version,
            "ply": fields.get("ply"),
            "changes": changes,
        });
        *sent = now.serial();
        self.send(socket, in_step.to_string()).await
    }

    /// Sends a published state: as its update where this socket follows
    /// moves and holds the state it was made from (`sent`, the serial of
    /// the last state sent), else whole.
    async fn send_published(
        &self,
        socket: &mut WebSocket,
        published: &Published,
        sent: &mut u64,
    ) -> Result<(), End> {
        if self.follow_moves && published.serial() != 0 && published.serial() <= *sent {
            // Already sent (it was on its way when the socket read the
            // state), or older than what was.
            return Ok(());
        }
        let follows = published
            .update()
            .filter(|(before, _)| self.follow_moves && *sent != 0 && *before == *sent);
        *sent = published.serial();
        match follows {
            Some((_, update)) => self.send(socket, update.to_string()).await,
            None => self.send_state(socket, &self.state_of(published)).await,
        }
    }

    /// (Every send and request below is boxed: an idle socket's future
    /// then holds only what it waits on, under 1 KB, not the largest of
    /// the futures it may await, which made it 18 KB.)
    async fn serve(&self, socket: &mut WebSocket) -> End {
        // Subscribe before reading the state so no change falls in between.
        let mut updates = self.slot.updates.subscribe();
        let mut stopping = self.app.stopping.subscribe();
        // Counted as a spectator until a `hello` names its seat.
        let mut presence = self.slot.presence.subscribe();
        let mut member = Member::join(&self.slot.presence);
        // A client must be heard from soon (a message, or the pong every
        // WebSocket client sends back to this ping, before it reads what
        // follows), so that a connection that upgraded and then went
        // silent does not hold its place for the ping interval.
        let first_frame_due = tokio::time::sleep(self.app.config.ws_first_frame_timeout);
        let mut first_frame_due = std::pin::pin!(first_frame_due);
        let mut spoke = false;
        if let Err(end) =
            Box::pin(self.send_message(socket, Message::Ping(Default::default()))).await
        {
            return end;
        }
        let mut sent = 0;
        if let Err(end) = Box::pin(self.send_first(socket, &mut sent)).await {
            return end;
        }
        // The server's time (for the clocks), and who is here.
        if let Err(end) = Box::pin(self.send(socket, time_message())).await {
            return end;
        }
        presence.mark_unchanged();
        if let Err(end) = Box::pin(self.send_presence(socket)).await {
            return end;
        }
        let mut pings =
            tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        let mut heard = Instant::now();
        loop {
            let step = tokio::select! {
                _ = stopping.changed() => Err(End::Close(close_code::AWAY, "the server is stopping")),
                update = updates.recv() => match update {
                    Ok(published) => Box::pin(self.send_published(socket, &published, &mut sent)).await,
                    // A slow watcher missed states: send the current one.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let now = Box::pin(self.current()).await;
                        sent = 0;
                        Box::pin(self.send_published(socket, &now, &mut sent)).await
                    }
                    Err(broadcast::error::RecvError::Closed) => Err(End::Gone),
                },
                changed = presence.changed() => match changed {
                    Ok(()) => Box::pin(self.send_presence(socket)).await,
                    Err(_) => Err(End::Gone),
                },
                () = &mut first_frame_due, if !spoke => {
                    Err(End::Close(close_code::POLICY, "nothing heard from this socket since it opened"))
                }
                _ = pings.tick() => {
                    if heard.elapsed() > 3 * PING_EVERY {
                        Err(End::Close(close_code::AWAY, "no answer to pings"))
                    } else {
                        match Box::pin(self.send_message(socket, Message::Ping(Default::default()))).await {
                            Ok(()) => Box::pin(self.send(socket, time_message())).await,
                            Err(end) => Err(end),
                        }
                    }
                }
                incoming = socket.recv() => {
                    heard = Instant::now();
                    spoke = true;
                    match incoming {
                        Some(Ok(Message::Text(text))) if text.len() > WS_MESSAGE_LIMIT => {
                            Err(End::Close(close_code::SIZE, "message over 16 KiB"))
                        }
                        Some(Ok(Message::Text(text))) if is_sync(text.as_str()) => {
                            // The page found an update it cannot follow:
                            // the whole state, a read like any other.
                            match self.app.rates.check(Kind::Read, self.client) {
                                Ok(()) => {
                                    sent = 0;
                                    let now = Box::pin(self.current()).await;
                                    Box::pin(self.send_published(socket, &now, &mut sent)).await
                                }
                                Err(e) => Box::pin(self.send(socket, error_message(Value::Null, &e).to_string())).await,
                            }
                        }
                        Some(Ok(Message::Text(text))) => {
                            let reply = Box::pin(self.request(text.as_str(), &mut member)).await;
                            Box::pin(self.send(socket, reply.to_string())).await
                        }
                        Some(Ok(Message::Binary(_))) => {
                            let e = ApiError::bad_request("bad_message", "send JSON text messages");
                            let reply = error_message(Value::Null, &e);
                            Box::pin(self.send(socket, reply.to_string())).await
                        }
                        Some(Ok(Message::Close(_))) | None => Err(End::Gone),
                        Some(Err(e)) => Err(refused(&e)),
                        Some(Ok(_)) => Ok(()), // pings are answered by the library
                    }
                }
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    async fn send_presence(&self, socket: &mut WebSocket) -> Result<(), End> {
        let text = self.slot.presence.message(now_ms());
        self.send(socket, text).await
    }

    /// `hello`: the socket holds the seats of its token (none: a
    /// spectator). A token that holds no seat is an error, and the socket
    /// stays a spectator.
    async fn hello(&self, req: &Value, member: &mut Member) -> Value {
        let id = req["id"].clone();
        let token = match &req["token"] {
            Value::Null => None,
            Value::String(t) => Some(t.as_str()),
            _ => {
                let e = ApiError::bad_request("bad_json", "hello's `token` must be a string");
                return error_message(id, &e);
            }
        };
        let seats = match token {
            None | Some("") => Vec::new(),
            Some(token) => self.slot.game.lock().await.seats(token),
        };
        let bad = token.is_some_and(|t| !t.is_empty()) && seats.is_empty();
        let names: Vec<&str> = seats.iter().map(|s| s.name()).collect();
        member.hold(seats);
        if bad {
            let e = ApiError::forbidden(
                "bad_token",
                "this token holds no seat in this game: you watch as a spectator",
            );
            return error_message(id, &e);
        }
        json!({"type": "ack", "id": id, "seats": names})
    }

    /// A client's message, rate-limited like the same request over HTTP.
    async fn request(&self, text: &str, member: &mut Member) -> Value {
        let parsed = serde_json::from_str::<Value>(text).ok();
        let kind = parsed.as_ref().and_then(|v| v["type"].as_str());
        // A hello checks a token: it costs like a game action.
        if matches!(
            kind,
            Some("hello" | "move" | "resign" | "abort" | "draw" | "takeback" | "abandon" | "chat")
        ) {
            if let Err(e) = self.app.rates.check(Kind::Move, self.client) {
                let id = parsed.as_ref().map_or(Value::Null, |v| v["id"].clone());
                return error_message(id, &e);
            }
        }
        if let (Some("hello"), Some(req)) = (kind, parsed.as_ref()) {
            return self.hello(req, member).await;
        }
        live_request(&self.app, self.client, &self.id, text).await
    }
}

/// Whether a client's message is `{"type": "sync"}`: send the whole state.
fn is_sync(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .is_ok_and(|v| v["type"] == "sync" && v.as_object().is_some_and(|o| o.len() == 1))
}

/// A client's message on the live socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiveRequest {
    /// `move`, `resign`, `abort`, `draw`, `takeback`, `abandon`, `chat` or `ping`
    /// (`hello` is the session's own).
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
    /// A `chat` message's phrase (its code).
    #[serde(default)]
    phrase: Option<String>,
}

/// Handles one message from a live client; the answer is `ack` (the new
/// state follows as a `state` message to every watcher) or `error`. A move
/// that needs the AI's answer is `client`'s AI job.
pub(crate) async fn live_request(
    app: &Arc<App>,
    client: ClientKey,
    game_id: &str,
    text: &str,
) -> Value {
    // An object, read as one: serde alone also takes a list of the
    // fields' values in their order.
    let req: LiveRequest = match serde_json::from_str::<serde_json::Map<String, Value>>(text)
        .and_then(|object| serde_json::from_value(Value::Object(object)))
    {
        Ok(r) => r,
        Err(e) => {
            let e = ApiError::bad_request("bad_json", format!("the message: {e}"));
            return error_message(Value::Null, &e);
        }
    };
    let token = req.token.clone().unwrap_or_default();
    let action = req.action.clone().unwrap_or_default();
    let outcome = match req.kind.as_str() {
        "ping" => return json!({"type": "pong", "id": req.id}),
        "move" => {
            let mv = req.mv.clone().unwrap_or_default();
            app.change_by(client, game_id, |g| g.play(&token, &mv, req.ply))
                .await
        }
        "resign" => app.change_by(client, game_id, |g| g.resign(&token)).await,
        "abort" => app.change_by(client, game_id, |g| g.abort(&token)).await,
        "draw" => match Request::Draw.action(&action) {
            Ok(action) => {
                app.change_by(client, game_id, |g| g.draw(&token, action))
                    .await
            }
            Err(e) => Err(e.into()),
        },
        "takeback" => match Request::Takeback.action(&action) {
            Ok(action) => {
                app.change_by(client, game_id, |g| g.takeback(&token, action))
                    .await
            }
            Err(e) => Err(e.into()),
        },
        "abandon" => app.abandon(client, game_id, &token).await,
        "chat" => {
            let phrase = req.phrase.clone().unwrap_or_default();
            app.change_by(client, game_id, |g| g.say(&token, &phrase))
                .await
        }
        other => Err(ApiError::bad_request(
            "bad_message",
            format!("{other:?} is not a message type: use move, resign, abort, draw, takeback, abandon, chat, hello or ping"),
        )),
    };
    match outcome {
        Ok(changed) => json!({"type": "ack", "id": req.id, "version": changed.version}),
        Err(e) => error_message(req.id.unwrap_or(Value::Null), &e),
    }
}

/// How a session ends on a frame the WebSocket library refused: a close
/// frame saying why where the client broke a rule (RFC 6455, 7.4.1), or
/// nothing where the connection itself failed.
fn refused(e: &axum::Error) -> End {
    let cause = std::error::Error::source(e).and_then(|c| c.downcast_ref::<tungstenite::Error>());
    match cause {
        Some(tungstenite::Error::Utf8(_)) => {
            End::Close(close_code::INVALID, "a text message that is not UTF-8")
        }
        Some(tungstenite::Error::Capacity(_)) => {
            End::Close(close_code::SIZE, "message over 16 KiB")
        }
        Some(tungstenite::Error::Protocol(p)) if !is_reset(p) => End::Close(
            close_code::PROTOCOL,
            "a frame that breaks the WebSocket protocol",
        ),
        _ => End::Gone,
    }
}

/// The connection ended without a close frame: nobody to answer.
fn is_reset(p: &tungstenite::error::ProtocolError) -> bool {
    use tungstenite::error::ProtocolError::*;
    matches!(p, ResetWithoutClosingHandshake | ReceivedAfterClosing)
}

/// `{"type":"time","now":<ms since 1970>}`: the server's time, against
/// which a client reads the running clock (`x_ms - (now - since)`).
fn time_message() -> String {
    format!(r#"{{"type":"time","now":{}}}"#, now_ms())
}

/// An `error` message answering request `id`; a refusal over a limit says
/// when to try again (`retry_after`, seconds), as `Retry-After` does.
pub(crate) fn error_message(id: Value, e: &ApiError) -> Value {
    let mut msg = json!({"type": "error", "id": id, "error": e.body()["error"]});
    if let Some(secs) = e.retry_after {
        msg["retry_after"] = json!(secs);
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(e: tungstenite::Error) -> Option<u16> {
        match refused(&axum::Error::new(e)) {
            End::Close(code, _) => Some(code),
            End::Gone => None,
        }
    }

    #[test]
    fn refused_frames_are_answered_with_the_close_code_of_their_fault() {
        use tungstenite::error::{CapacityError, ProtocolError};
        assert_eq!(code(tungstenite::Error::Utf8("bad".into())), Some(1007));
        let long = CapacityError::MessageTooLong {
            size: 70_000,
            max_size: 65_536,
        };
        assert_eq!(code(tungstenite::Error::Capacity(long)), Some(1009));
        let unmasked = ProtocolError::UnmaskedFrameFromClient;
        assert_eq!(code(tungstenite::Error::Protocol(unmasked)), Some(1002));
        let reset = ProtocolError::ResetWithoutClosingHandshake;
        assert_eq!(code(tungstenite::Error::Protocol(reset)), None);
        assert_eq!(code(tungstenite::Error::ConnectionClosed), None);
    }
}
