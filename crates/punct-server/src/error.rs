//! API errors: an HTTP status and a JSON body `{"error": {"code",
//! "message", "params"?, "reason"?}}`. The code (and for an illegal move
//! the reason) with the params let a client say it in its own language;
//! the message is the server's English.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use punct_core::{IllegalMove, Move};
use serde_json::{json, Map, Value};

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
