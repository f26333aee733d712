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
use crate::accounts::TokenUser;
use crate::app::{App, Shared};
use crate::error::ApiError;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use punct_store::{BotUpgrade, UserRow};
use serde_json::json;
use std::sync::Arc;

/// A request's account by its API token (any account: a person's too, to
/// upgrade it); 401 without a valid one.
pub(crate) struct Token(pub(crate) TokenUser);

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
