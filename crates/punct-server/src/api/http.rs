//! What handlers share and nothing else uses: JSON bodies and query
//! strings whose rejections are the API's JSON errors, JSON answers, and
//! the request fields several concerns read. Logic never imports this.

use crate::error::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Query, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use punct_core::Variant;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// Largest request body (a long game record fits many times over).
pub(crate) const BODY_LIMIT: usize = 64 * 1024;

/// JSON request bodies whose rejections are API errors (JSON too).
pub(crate) struct Body<T>(pub(crate) T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    /// The body must be a JSON object: read straight into `T`, serde
    /// would also take an array of the fields' values in their order.
    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let object = match axum::Json::<Map<String, Value>>::from_request(req, state).await {
            Ok(axum::Json(object)) => object,
            Err(rejection) => return Err(body_error(rejection)),
        };
        serde_json::from_value(Value::Object(object))
            .map(Body)
            .map_err(|e| ApiError::bad_request("bad_json", format!("the request body: {e}")))
    }
}

/// Every body rejection is a 400 (the documented contract), except a body
/// over the limit (413) and one that came too slowly (408).
pub(crate) fn body_error(r: JsonRejection) -> ApiError {
    if let Some(e) = crate::conn::body_timeout(&r) {
        return e;
    }
    match r.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request body is over {BODY_LIMIT} bytes"),
        )
        .with("limit", BODY_LIMIT),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::bad_request(
            "not_json",
            "the request body must be JSON (Content-Type: application/json)",
        ),
        _ => ApiError::bad_request("bad_json", r.body_text()),
    }
}

/// Query strings whose rejections are API errors (JSON too).
pub(crate) struct Params<T>(pub(crate) T);

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

pub(crate) fn json_text(status: StatusCode, text: impl Into<String>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        text.into(),
    )
        .into_response()
}

/// A request's `variant`: `standard` (also when absent) or `basic`.
pub(crate) fn parse_variant(v: Option<&str>) -> Result<Variant, ApiError> {
    match v.unwrap_or("standard") {
        "standard" => Ok(Variant::Standard),
        "basic" => Ok(Variant::Basic),
        other => Err(ApiError::bad_request(
            "bad_variant",
            format!("{other:?} is not a variant: use standard or basic"),
        )
        .with("variant", other)),
    }
}
