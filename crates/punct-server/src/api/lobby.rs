//! The lobby's routes: the open seeks (`GET /api/lobby`) and the lobby's
//! live socket (`GET /api/lobby/live`), over which a visitor watches seeks
//! come and go (one small message each), seeks, joins quick pairing,
//! challenges a player, cancels, accepts and declines — and hears `paired`
//! with the game and its seat's token, a challenge offered to them, or
//! their challenge `declined`. A socket's seeks and challenges go with it.
//! The logic is `lobby.rs` and `challenges.rs`.

use super::accounts::{account_of, Viewer};
use super::live::error_message;
use crate::app::{App, Shared};
use crate::challenges;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::games::parse_name;
use crate::limits::{Client, ClientKey, Held, Kind};
use crate::lobby::{self, LobbyEvent, SeekNews, Seeker, Wanted, SEEKS_PER_SOCKET};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc};

/// Largest message from a lobby socket (a seek is a few dozen bytes).
const MESSAGE_LIMIT: usize = 4 * 1024;
const PING_EVERY: Duration = Duration::from_secs(30);

/// `GET /api/lobby`: the open seeks.
pub(crate) async fn seeks(State(app): Shared) -> Result<Response, ApiError> {
    let seeks = lobby::list(&app).await?;
    Ok(axum::Json(json!({ "seeks": seeks })).into_response())
}

/// `GET /api/lobby/live`: the lobby's WebSocket.
pub(crate) async fn live(
    State(app): Shared,
    Client(client): Client,
    Viewer(who): Viewer,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (ws, counted) = super::upgrade::admit(&app, client, &headers, ws)?;
    let seeker = Seeker {
        bot: who.as_ref().is_some_and(|w| w.user.bot),
        account: who.as_ref().map(account_of),
        name: None,
    };
    let session = Session {
        app,
        client,
        seeker,
        own: Vec::new(),
        _counted: counted,
    };
    Ok(ws
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(16 * 1024)
        .max_frame_size(16 * 1024)
        .on_upgrade(move |socket| session.run(socket)))
}

struct Session {
    app: Arc<App>,
    client: ClientKey,
    seeker: Seeker,
    /// This socket's open seeks and pool entries.
    own: Vec<String>,
    _counted: Held,
}

impl Session {
    async fn run(mut self, mut socket: WebSocket) {
        let close = self.serve(&mut socket).await;
        // A seek goes with its socket.
        lobby::withdraw(&self.app, &self.own).await;
        if let Some((code, reason)) = close {
            super::upgrade::close(&mut socket, code, reason).await;
        }
    }

    async fn send(&self, socket: &mut WebSocket, v: Value) -> Result<(), ()> {
        self.send_text(socket, v.to_string()).await
    }

    async fn send_text(&self, socket: &mut WebSocket, text: String) -> Result<(), ()> {
        match tokio::time::timeout(
            self.app.config.ws_send_timeout,
            socket.send(Message::Text(text.into())),
        )
        .await
        {
            Ok(Ok(())) => Ok(()),
            _ => Err(()),
        }
    }

    async fn list(&self, socket: &mut WebSocket) -> Result<(), ()> {
        let seeks = lobby::list(&self.app).await.unwrap_or_default();
        let you = self
            .seeker
            .account
            .as_ref()
            .map(|a| json!({"name": a.name}));
        let challenges = match &self.seeker.account {
            Some(me) => challenges::list(&self.app, me).await.ok(),
            None => None,
        };
        self.send(
            socket,
            json!({"type": "seeks", "seeks": seeks, "you": you, "challenges": challenges}),
        )
        .await
    }

    /// Serves until the socket ends; the close frame to send, if any.
    async fn serve(&mut self, socket: &mut WebSocket) -> Option<(u16, &'static str)> {
        let mut events = self.app.lobby.subscribe();
        let mut stopping = self.app.stopping.subscribe();
        let (paired_tx, mut paired) = mpsc::channel::<SeekNews>(8);
        if self.list(socket).await.is_err() {
            return None;
        }
        let mut pings =
            tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        let mut heard = Instant::now();
        loop {
            let step = tokio::select! {
                _ = stopping.changed() => return Some((close_code::AWAY, "the server is stopping")),
                event = events.recv() => match event {
                    Ok(LobbyEvent::Added(seek)) => {
                        self.send_text(socket, format!("{{\"type\":\"added\",\"seek\":{seek}}}")).await
                    }
                    Ok(LobbyEvent::Removed(id)) => {
                        self.send(socket, json!({"type": "removed", "id": id})).await
                    }
                    Ok(LobbyEvent::Challenge { to, seek }) => {
                        if self.seeker.account.as_ref().is_some_and(|a| a.id == to) {
                            self.send_text(socket, format!("{{\"type\":\"challenge\",\"seek\":{seek}}}")).await
                        } else {
                            Ok(())
                        }
                    }
                    // Fell behind: the whole list again, once.
                    Err(broadcast::error::RecvError::Lagged(_)) => self.list(socket).await,
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                Some(news) = paired.recv() => match news {
                    SeekNews::Paired(p) => {
                        self.own.retain(|id| *id != p.seek);
                        self.send(socket, p.message()).await
                    }
                    SeekNews::Declined(seek) => {
                        self.own.retain(|id| *id != seek);
                        self.send(socket, json!({"type": "declined", "seek": seek})).await
                    }
                },
                _ = pings.tick() => {
                    if heard.elapsed() > 3 * PING_EVERY {
                        return Some((close_code::AWAY, "no answer to pings"));
                    }
                    match tokio::time::timeout(self.app.config.ws_send_timeout, socket.send(Message::Ping(Default::default()))).await {
                        Ok(Ok(())) => Ok(()),
                        _ => Err(()),
                    }
                }
                incoming = socket.recv() => {
                    heard = Instant::now();
                    match incoming {
                        Some(Ok(Message::Text(text))) if text.len() > MESSAGE_LIMIT => {
                            return Some((close_code::SIZE, "message over 4 KiB"));
                        }
                        Some(Ok(Message::Text(text))) => {
                            let reply = self.request(text.as_str(), &paired_tx).await;
                            self.send(socket, reply).await
                        }
                        Some(Ok(Message::Binary(_))) => {
                            let e = ApiError::bad_request("bad_message", "send JSON text messages");
                            self.send(socket, error_message(Value::Null, &e)).await
                        }
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

    /// A client's message: `seek`, `pool`, `challenge`, `cancel`,
    /// `accept` or `decline`.
    async fn request(&mut self, text: &str, paired: &mpsc::Sender<SeekNews>) -> Value {
        let req: Value = match serde_json::from_str(text) {
            Ok(v @ Value::Object(_)) => v,
            _ => {
                let e = ApiError::bad_request("bad_message", "a message is a JSON object");
                return error_message(Value::Null, &e);
            }
        };
        let id = req["id"].clone();
        match self.handle(&req, paired).await {
            Ok(v) => v,
            Err(e) => error_message(id, &e),
        }
    }

    async fn handle(
        &mut self,
        req: &Value,
        paired: &mpsc::Sender<SeekNews>,
    ) -> Result<Value, ApiError> {
        let kind = req["type"].as_str().unwrap_or("");
        match kind {
            "seek" | "pool" | "challenge" => {
                self.app.rates.check(Kind::Create, self.client)?;
                if self.own.len() >= SEEKS_PER_SOCKET {
                    return Err(ApiError::conflict(
                        "too_many_seeks",
                        format!("a visitor holds at most {SEEKS_PER_SOCKET} seeks at once"),
                    )
                    .with("max", SEEKS_PER_SOCKET));
                }
                let wanted = wanted(req, kind == "pool")?;
                let mut seeker = self.seeker.clone();
                if seeker.account.is_none() {
                    seeker.name = parse_name(req["name"].as_str())?;
                }
                let seek = if kind == "challenge" {
                    let to = req["to"].as_str().unwrap_or("");
                    challenges::challenge(&self.app, &seeker, to, wanted, paired.clone()).await?
                } else {
                    lobby::seek(&self.app, &seeker, wanted, paired.clone()).await?
                };
                self.own.push(seek.clone());
                Ok(json!({"type": "seeking", "id": req["id"], "seek": seek, "kind": kind}))
            }
            "cancel" => {
                let seek = req["seek"].as_str().unwrap_or("").to_string();
                if !self.own.contains(&seek) {
                    return Err(ApiError::not_found(
                        "no_seek",
                        "this socket holds no such seek",
                    ));
                }
                self.own.retain(|s| *s != seek);
                lobby::withdraw(&self.app, std::slice::from_ref(&seek)).await;
                Ok(json!({"type": "cancelled", "id": req["id"], "seek": seek}))
            }
            "accept" => {
                self.app.rates.check(Kind::Create, self.client)?;
                let seek = req["seek"].as_str().unwrap_or("");
                if self.own.iter().any(|s| s == seek) {
                    return Err(ApiError::conflict("own_seek", "this is your own seek"));
                }
                let mut acceptor = self.seeker.clone();
                if acceptor.account.is_none() {
                    acceptor.name = parse_name(req["name"].as_str())?;
                }
                let p = lobby::accept(&self.app, &acceptor, seek).await?;
                let mut answer = p.message();
                answer["id"] = req["id"].clone();
                Ok(answer)
            }
            "decline" => {
                let seek = req["seek"].as_str().unwrap_or("");
                let Some(me) = &self.seeker.account else {
                    return Err(ApiError::not_found(
                        "no_challenge",
                        "there is no such challenge for you",
                    ));
                };
                challenges::decline(&self.app, me, seek).await?;
                Ok(json!({"type": "declined_ok", "id": req["id"], "seek": seek}))
            }
            other => Err(ApiError::bad_request(
                "bad_message",
                format!(
                    "{other:?} is not a lobby message: seek, pool, challenge, cancel, accept or \
                     decline"
                ),
            )),
        }
    }
}

/// A seek's settings from a message: `variant` (standard), `clock` (as
/// games take it; none: untimed), `rated` (false), `side` (random).
fn wanted(req: &Value, pool: bool) -> Result<Wanted, ApiError> {
    let variant = super::http::parse_variant(req["variant"].as_str())?;
    let clock =
        TimeControl::parse(req.get("clock")).map_err(|m| ApiError::bad_request("bad_clock", m))?;
    if pool && clock.is_none() {
        return Err(ApiError::bad_request(
            "bad_clock",
            "quick pairing is by time control: give a clock",
        ));
    }
    Ok(Wanted {
        variant,
        clock,
        rated: req["rated"].as_bool().unwrap_or(false),
        side: req["side"].as_str().unwrap_or("random").to_string(),
        pool,
        to: None,
    })
}
