//! API errors: an HTTP status and a JSON body `{"error": {"code",
//! "message", "params"?, "reason"?}}`. The code (and for an illegal move
//! the reason) with the params let a client say it in its own language;
//! the message is the server's English.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use punct_core::{IllegalMove, Move};
use serde_json::{json, Map, Value};

use crate::games::chat::Refused;
use crate::games::{code_point, GameError, NAME_MAX};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// A stable machine-readable name, e.g. `illegal_move`.
    pub code: &'static str,
    /// What is wrong, for people.
    pub message: String,
    /// Seconds after which trying again may succeed (`Retry-After`).
    pub retry_after: Option<u64>,
    /// The values the message names (a cell, a move, a limit), by name.
    pub params: Map<String, Value>,
    /// For `illegal_move` (and a record with one): the rule broken,
    /// `IllegalMove::code`.
    pub reason: Option<&'static str>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
            params: Map::new(),
            reason: None,
        }
    }

    /// The same error naming `value` as `name` in its params.
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> ApiError {
        self.params.insert(name.to_string(), value.into());
        self
    }

    /// The same error explaining why a move is illegal: `reason` and the
    /// values it names among the params.
    pub fn because(mut self, why: &IllegalMove) -> ApiError {
        self.reason = Some(why.code());
        for (name, value) in why.params() {
            self.params.insert(name.to_string(), Value::String(value));
        }
        self
    }

    /// 422 `illegal_move`: `mv` breaks a rule (params `move` and the
    /// reason's values).
    pub fn illegal(mv: Move, why: &IllegalMove) -> ApiError {
        ApiError::unprocessable("illegal_move", format!("{mv} is illegal: {why}"))
            .with("move", mv.to_string())
            .because(why)
    }
    /// 429: over a limit; trying again after `retry_after` seconds may work.
    pub fn too_many(code: &'static str, message: impl Into<String>, retry_after: u64) -> ApiError {
        ApiError {
            retry_after: Some(retry_after.max(1)),
            ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, code, message)
        }
    }
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }
    pub fn not_found(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
    pub fn unavailable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, code, message)
    }

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
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response
    }
}

/// A store that failed is the server's fault: 500 with the store's
/// message (which names the database, never a secret); 503 with
/// `Retry-After` when it stalled or refused for now.
impl From<punct_store::StoreError> for ApiError {
    fn from(e: punct_store::StoreError) -> ApiError {
        match e.kind() {
            // Stalled, not broken: worth asking again soon.
            punct_store::ErrorKind::Timeout => ApiError {
                retry_after: Some(DATABASE_RETRY),
                ..ApiError::unavailable("database_timeout", e.to_string())
                    .with("seconds", DATABASE_RETRY)
            },
            // Locked or full: nothing written, worth asking again soon.
            punct_store::ErrorKind::Unavailable => ApiError {
                retry_after: Some(DATABASE_RETRY),
                ..ApiError::unavailable("database_unavailable", e.to_string())
                    .with("seconds", DATABASE_RETRY)
            },
            _ => ApiError::internal(e.to_string()),
        }
    }
}

/// Seconds a client is asked to wait after the database did not answer.
const DATABASE_RETRY: u64 = 2;

/// The one place a game's refusal becomes HTTP: its status, its stable
/// code and the values the page needs to word it.
impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        use GameError::*;
        let message = e.to_string();
        match e {
            NoSeat | NotSeatOf(_) => ApiError::forbidden("bad_token", message),
            BadInvite => ApiError::forbidden("bad_invite", message),
            NoOpponent { side, .. } => {
                ApiError::conflict("no_opponent", message).with("side", side.name())
            }
            InviteUsed => ApiError::conflict("invite_used", message),
            Over(_) => ApiError::conflict("game_over", message),
            TimeOut(side) => ApiError::conflict("time_out", message).with("side", side.name()),
            NotYourTurn { side, waiting } => ApiError::conflict("not_your_turn", message)
                .with("side", side.name())
                .with("waiting", waiting),
            Stale { ply, plies } => ApiError::conflict("stale", message)
                .with("ply", ply)
                .with("plies", plies),
            BadMove { text, .. } => ApiError::bad_request("bad_move", message).with("move", text),
            Illegal(mv, why) => ApiError::illegal(mv, &why),
            NoOffer(_) => ApiError::conflict("no_offer", message),
            OwnOffer(_) => ApiError::conflict("own_offer", message),
            BadAction { action, .. } => {
                ApiError::bad_request("bad_action", message).with("action", action)
            }
            NothingToTakeBack(side) => {
                ApiError::conflict("nothing_to_take_back", message).with("side", side.name())
            }
            PendingRequest => ApiError::conflict("pending_request", message),
            NoRequest => ApiError::conflict("no_request", message),
            OwnRequest => ApiError::conflict("own_request", message),
            NameTooLong(chars) => ApiError::bad_request("bad_name", message)
                .with("length", chars)
                .with("max", NAME_MAX),
            // The character as its code point: a bidi control or an
            // invisible one would otherwise act on, or vanish from, the
            // page that shows the error.
            NameCharacter(c, _) => ApiError::bad_request("bad_name", message)
                .with("char", code_point(c))
                .with("max", NAME_MAX),
            // As for a claim: no seat waits for a player.
            NoInvite { .. } => ApiError::conflict("invite_used", message),
            GameOn => ApiError::conflict("game_on", message),
            RematchStarted(id) => ApiError::conflict("rematch_started", message).with("game", id),
            NotOnline(mode) => ApiError::conflict("not_online", message).with("mode", mode),
            NoClock { .. } => ApiError::conflict("no_clock", message),
            RatedNeedsAccount => ApiError::forbidden("rated_needs_account", message),
            RatedTakeback => ApiError::conflict("rated_takeback", message),
            Chat(Refused::NotAPhrase(_)) => ApiError::bad_request("not_a_phrase", message)
                .with("phrases", crate::games::chat::PHRASES.to_vec()),
            Chat(Refused::Full) => {
                ApiError::conflict("chat_full", message).with("max", crate::games::chat::PER_SIDE)
            }
            Chat(Refused::NotOnline(mode)) => {
                ApiError::conflict("not_online", message).with("mode", mode)
            }
            TooLateToAbort { plies } => {
                ApiError::conflict("too_late_to_abort", message).with("plies", plies)
            }
            OwnGame => ApiError::conflict("own_game", message),
            AccountName(side) => {
                ApiError::conflict("account_name", message).with("side", side.name())
            }
            NotAbandoned {
                opponent,
                gone_ms,
                after_ms,
            } => {
                let e = ApiError::conflict("not_abandoned", message)
                    .with("side", opponent.name())
                    .with("after", GameError::after_s(after_ms));
                match gone_ms {
                    Some(ms) => e.with("seconds", GameError::after_s(after_ms - ms)),
                    None => e,
                }
            }
        }
    }
}
