//! The accounts' routes: sign up, sign in and out, the signed-in account,
//! its password, its deletion, its games as one record file (passkeys'
//! routes: `passkeys.rs`). The session
//! travels in an `HttpOnly` cookie (`Secure` when the site is served over
//! https, `SameSite=Lax`); writes that carry it are checked for their
//! `Origin` by `security::guard`. The logic is `accounts.rs`.

use super::http::Body;
use crate::accounts::{SignedIn, SESSION_COOKIE, SESSION_LIFE};
use crate::app::{App, Shared};
use crate::error::ApiError;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use punct_store::UserRow;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The signed-in user of a request, if any (a missing, unknown or expired
/// session is no user, not an error).
pub(crate) struct Viewer(pub(crate) Option<SignedIn>);

/// The signed-in user of a request that needs one: 401 `not_signed_in`
/// otherwise.
pub(crate) struct Member(pub(crate) SignedIn);

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Viewer, ApiError> {
        match session_secret(&parts.headers) {
            None => Ok(Viewer(None)),
            Some(secret) => Ok(Viewer(app.accounts.session(&secret).await?)),
        }
    }
}

impl FromRequestParts<Arc<App>> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Member, ApiError> {
        match Viewer::from_request_parts(parts, app).await? {
            Viewer(Some(who)) => Ok(Member(who)),
            Viewer(None) => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "not_signed_in",
                "sign in first: this needs an account",
            )),
        }
    }
}

/// The session cookie's value, if the request carries one.
pub(crate) fn session_secret(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim().to_string())
}

/// The `Set-Cookie` value holding `secret` (or clearing the cookie).
pub(super) fn cookie(app: &App, secret: Option<&str>) -> HeaderValue {
    let secure = app
        .config
        .public_url
        .as_deref()
        .is_some_and(|u| u.to_ascii_lowercase().starts_with("https://"));
    let (value, age) = match secret {
        Some(s) => (s, SESSION_LIFE.as_secs()),
        None => ("", 0),
    };
    let text = format!(
        "{SESSION_COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&text).expect("a cookie of URL-safe characters")
}

pub(super) fn agent(headers: &HeaderMap) -> String {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// The signed-in user as a seat's account.
pub(crate) fn account_of(who: &SignedIn) -> crate::games::Account {
    crate::games::Account {
        id: who.user.id.clone(),
        name: who.user.name.clone(),
    }
}

/// What the API shows of the signed-in user.
pub(crate) fn me(user: &UserRow) -> Value {
    json!({
        "id": user.id,
        "name": user.name,
        "created": user.created,
        "bot": user.bot,
        "password": user.password.is_some(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

/// `POST /api/account/signup`: a new account with a password; signed in.
pub(crate) async fn sign_up(
    State(app): Shared,
    headers: HeaderMap,
    Body(req): Body<Credentials>,
) -> Result<Response, ApiError> {
    let (user, secret) = app
        .accounts
        .sign_up(&req.name, &req.password, &agent(&headers))
        .await?;
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, cookie(&app, Some(&secret)))],
        axum::Json(json!({ "user": me(&user) })),
    )
        .into_response())
}

/// `POST /api/account/signin`.
pub(crate) async fn sign_in(
    State(app): Shared,
    headers: HeaderMap,
    Body(req): Body<Credentials>,
) -> Result<Response, ApiError> {
    let (user, secret) = app
        .accounts
        .sign_in(&req.name, &req.password, &agent(&headers))
        .await?;
    Ok((
        [(header::SET_COOKIE, cookie(&app, Some(&secret)))],
        axum::Json(json!({ "user": me(&user) })),
    )
        .into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignOut {
    /// Every other device's session too (this one stays).
    #[serde(default)]
    elsewhere: bool,
}

/// `POST /api/account/signout`: ends this session (the cookie is
/// cleared), or with `elsewhere` every other one.
pub(crate) async fn sign_out(
    State(app): Shared,
    Member(who): Member,
    Body(req): Body<SignOut>,
) -> Result<Response, ApiError> {
    if req.elsewhere {
        let ended = app.accounts.sign_out_elsewhere(&who).await?;
        return Ok(axum::Json(json!({ "ended": ended })).into_response());
    }
    app.accounts.sign_out(&who).await?;
    Ok((
        [(header::SET_COOKIE, cookie(&app, None))],
        axum::Json(json!({ "ended": 1 })),
    )
        .into_response())
}

/// `GET /api/account`: the signed-in user, their sessions and passkeys,
/// or `{"user": null}` (not an error: the page asks on every load); and
/// in both whether this page may use passkeys (`passkey_site`).
pub(crate) async fn account(
    State(app): Shared,
    headers: HeaderMap,
    Viewer(who): Viewer,
) -> Result<Response, ApiError> {
    let site = super::passkeys::site(&app, &headers);
    let Some(who) = who else {
        return Ok(axum::Json(json!({ "user": null, "passkey_site": site })).into_response());
    };
    let passkeys: Vec<Value> = app
        .store
        .accounts()
        .passkeys(&who.user.id)
        .await?
        .iter()
        .map(crate::passkeys::shown)
        .collect();
    let sessions = app.store.accounts().sessions(&who.user.id).await?;
    let sessions: Vec<Value> = sessions
        .iter()
        .map(|s| {
            json!({
                "created": s.created,
                "seen": s.seen,
                "agent": s.agent,
                "current": s.hash == who.session,
            })
        })
        .collect();
    Ok(axum::Json(json!({
        "user": me(&who.user),
        "sessions": sessions,
        "passkeys": passkeys,
        "passkey_site": site,
    }))
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PasswordChange {
    /// Not asked of an account with no password yet (made with a passkey).
    #[serde(default)]
    current: Option<String>,
    new: String,
}

/// `POST /api/account/password`: a new password, given the current one
/// (a first one without); every other session ends.
pub(crate) async fn change_password(
    State(app): Shared,
    Member(who): Member,
    Body(req): Body<PasswordChange>,
) -> Result<Response, ApiError> {
    let ended = app
        .accounts
        .change_password(&who, req.current.as_deref(), &req.new)
        .await?;
    Ok(axum::Json(json!({ "ended": ended })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Deletion {
    password: Option<String>,
    /// A fresh passkey sign-in of this account, instead of the password.
    passkey: Option<super::passkeys::Proof>,
}

/// `POST /api/account/delete`: deletes the account, confirmed by its
/// password or a fresh passkey sign-in of it (a passkey-only account has
/// no password); its games stay, its name shows as deleted.
pub(crate) async fn delete(
    State(app): Shared,
    headers: HeaderMap,
    Member(who): Member,
    Body(req): Body<Deletion>,
) -> Result<Response, ApiError> {
    match (&req.password, &req.passkey) {
        (Some(password), None) => app.accounts.confirm(&who, password).await?,
        (None, Some(proof)) => super::passkeys::confirm(&app, &headers, &who, proof).await?,
        _ => {
            return Err(ApiError::bad_request(
                "bad_json",
                "confirm a deletion with either `password` or `passkey` (a fresh passkey \
                 sign-in: {\"ceremony\", \"credential\"})",
            ))
        }
    }
    app.accounts.delete(&who).await?;
    forget_in_games(&app, &who.user.id).await;
    Ok((
        [(header::SET_COOKIE, cookie(&app, None))],
        axum::Json(json!({ "deleted": true })),
    )
        .into_response())
}

/// The most games whose seats a deletion renames (a player with more
/// keeps the old name on the oldest; the account is gone all the same).
const FORGET_MAX: u32 = 10_000;

/// Every game of a deleted account shows "deleted" on its seats, through
/// the change path (stored, then shown to watchers on every instance).
async fn forget_in_games(app: &Arc<App>, user: &str) {
    let mut ids = Vec::new();
    let mut offset = 0;
    while offset < FORGET_MAX {
        let page = app
            .store
            .list(&punct_store::ListFilter {
                user: Some(user.to_string()),
                offset,
                limit: 500,
                ..punct_store::ListFilter::default()
            })
            .await;
        let Ok(page) = page else {
            break;
        };
        ids.extend(page.iter().map(|g| g.id.clone()));
        if page.len() < 500 {
            break;
        }
        offset += 500;
    }
    for id in ids {
        let done = app
            .change(&id, |g| {
                g.forget_account(user);
                Ok(())
            })
            .await;
        if let Err(e) = done {
            tracing::warn!(
                "game {id}: renaming a deleted account's seat: {}",
                e.message
            );
        }
    }
}

/// The most games one download holds (a player with more downloads the
/// rest by profile pages' records).
const RECORDS_MAX: u32 = 2000;

/// `GET /api/account/games`: every game of the signed-in user as one
/// record file (records one after another, most recent first).
pub(crate) async fn records(State(app): Shared, Member(who): Member) -> Result<Response, ApiError> {
    let mut text = String::new();
    let mut offset = 0;
    while offset < RECORDS_MAX {
        let page = app
            .store
            .list(&punct_store::ListFilter {
                user: Some(who.user.id.clone()),
                offset,
                limit: 200,
                ..punct_store::ListFilter::default()
            })
            .await?;
        for line in &page {
            // Lists carry no moves: each game is read whole.
            let Some(row) = app.store.load(&line.id).await? else {
                continue;
            };
            let game = crate::games::LiveGame::from_row(row).map_err(ApiError::internal)?;
            text.push_str(&game.record());
            text.push('\n');
        }
        if page.len() < 200 {
            break;
        }
        offset += 200;
    }
    let file = format!("punct-{}-games.pgn", who.user.name);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-punct-record; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeatProof {
    game: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Attach {
    seats: Vec<SeatProof>,
}

/// The most seats one request attaches (a browser's "My games" list).
const ATTACH_MAX: usize = 200;

/// `POST /api/account/seats`: the seats this browser played signed out
/// (each proved by its token) become the account's. A game that is gone
/// or a token that holds no seat is skipped and said.
pub(crate) async fn attach(
    State(app): Shared,
    Member(who): Member,
    Body(req): Body<Attach>,
) -> Result<Response, ApiError> {
    if req.seats.len() > ATTACH_MAX {
        return Err(ApiError::bad_request(
            "too_many_seats",
            format!("{} seats at once: at most {ATTACH_MAX}", req.seats.len()),
        )
        .with("max", ATTACH_MAX));
    }
    let account = account_of(&who);
    let mut attached = Vec::new();
    let mut skipped = Vec::new();
    for seat in &req.seats {
        let mut sides = Vec::new();
        let done = app
            .change(&seat.game, |g| {
                sides = g.attach(&seat.token, &account)?;
                Ok(())
            })
            .await;
        match done {
            Ok(_) => attached.push(json!({
                "game": seat.game,
                "sides": sides.iter().map(|s| s.name()).collect::<Vec<_>>(),
            })),
            Err(e) => skipped.push(json!({ "game": seat.game, "code": e.code })),
        }
    }
    Ok(axum::Json(json!({ "attached": attached, "skipped": skipped })).into_response())
}

/// What the API shows of an API token: never its secret.
pub(crate) fn shown_token(token: &punct_store::TokenRow) -> Value {
    json!({
        "id": crate::accounts::token_id(token),
        "label": token.label,
        "created": token.created,
        "used": token.used,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewToken {
    label: String,
}

/// `POST /api/account/tokens`: a new API token for the signed-in account
/// (a bot's program signs in with it); its secret is in this answer only.
pub(crate) async fn create_token(
    State(app): Shared,
    Member(who): Member,
    Body(req): Body<NewToken>,
) -> Result<Response, ApiError> {
    let (row, secret) = app.accounts.create_token(&who, &req.label).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({ "token": shown_token(&row), "secret": secret })),
    )
        .into_response())
}

/// `GET /api/account/tokens`: the signed-in account's API tokens (label,
/// made, last used; never a secret).
pub(crate) async fn tokens(State(app): Shared, Member(who): Member) -> Result<Response, ApiError> {
    let rows = app.store.accounts().tokens(&who.user.id).await?;
    let shown: Vec<Value> = rows.iter().map(shown_token).collect();
    Ok(axum::Json(json!({ "tokens": shown })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenRemoval {
    id: String,
}

/// `POST /api/account/tokens/remove`: the token stops working at once.
pub(crate) async fn remove_token(
    State(app): Shared,
    Member(who): Member,
    Body(req): Body<TokenRemoval>,
) -> Result<Response, ApiError> {
    app.accounts.remove_token(&who, &req.id).await?;
    Ok(axum::Json(json!({ "removed": true })).into_response())
}
