//! The passkeys' routes: sign up with a passkey, add one, sign in with
//! one, remove one. Each ceremony is a start (the options for the
//! browser and a ceremony id) and a finish (the id and the browser's
//! credential). The relying party is the page's site: `--public-url`, or
//! the request's `Host` when it is a name (`passkeys.rs` in the crate's
//! root has the rule and the ceremonies).

use super::accounts::{agent, cookie, me, Member};
use super::http::Body;
use crate::accounts::SignedIn;
use crate::app::{App, Shared};
use crate::error::ApiError;
use crate::passkeys::{relying_party, shown, Begun};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use punct_accounts::passkey::RelyingParty;
use serde::Deserialize;
use serde_json::{json, Value};

/// The relying party of the request's page.
fn rp(app: &App, headers: &HeaderMap) -> Result<RelyingParty, ApiError> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    relying_party(app.config.public_url.as_deref(), host)
}

/// Whether the request's page may use passkeys, for `GET /api/account`:
/// `{"ok": true, "id": "localhost"}` or `{"ok": false, "code", "message"}`
/// (the page then says why it offers none).
pub(super) fn site(app: &App, headers: &HeaderMap) -> Value {
    match rp(app, headers) {
        Ok(rp) => json!({ "ok": true, "id": rp.id() }),
        Err(e) => json!({ "ok": false, "code": e.code, "message": e.message }),
    }
}

fn begun(b: Begun) -> Response {
    axum::Json(json!({ "ceremony": b.ceremony, "options": b.options })).into_response()
}

/// A finished ceremony: its id and the browser's credential
/// (`PublicKeyCredential.toJSON()`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Proof {
    ceremony: String,
    credential: Value,
}

/// A passkey-only account's deletion: a fresh passkey sign-in (a
/// `signin/start` ceremony) by a passkey of this same account.
pub(super) async fn confirm(
    app: &App,
    headers: &HeaderMap,
    who: &SignedIn,
    proof: &Proof,
) -> Result<(), ApiError> {
    let rp = rp(app, headers)?;
    let user = app
        .accounts
        .passkey_verify(&rp, &proof.ceremony, &proof.credential)
        .await?;
    if user.id != who.user.id {
        return Err(ApiError::forbidden(
            "wrong_passkey",
            "the passkey is not this account's",
        ));
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignUpStart {
    name: String,
}

/// `POST /api/account/passkey/signup/start`.
pub(crate) async fn sign_up_start(
    State(app): Shared,
    headers: HeaderMap,
    Body(req): Body<SignUpStart>,
) -> Result<Response, ApiError> {
    let rp = rp(&app, &headers)?;
    Ok(begun(
        app.accounts.passkey_sign_up_start(&rp, &req.name).await?,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewPasskey {
    ceremony: String,
    credential: Value,
    /// What the account's list calls it (default "Passkey").
    #[serde(default)]
    label: Option<String>,
}

/// `POST /api/account/passkey/signup/finish`: a new account with this
/// passkey and no password; signed in.
pub(crate) async fn sign_up_finish(
    State(app): Shared,
    headers: HeaderMap,
    Body(req): Body<NewPasskey>,
) -> Result<Response, ApiError> {
    let rp = rp(&app, &headers)?;
    let (user, secret) = app
        .accounts
        .passkey_sign_up_finish(
            &rp,
            &req.ceremony,
            &req.credential,
            req.label.as_deref(),
            &agent(&headers),
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, cookie(&app, Some(&secret)))],
        axum::Json(json!({ "user": me(&user) })),
    )
        .into_response())
}

/// `POST /api/account/passkey/add/start` (signed in).
pub(crate) async fn add_start(
    State(app): Shared,
    headers: HeaderMap,
    Member(who): Member,
    Body(_): Body<Empty>,
) -> Result<Response, ApiError> {
    let rp = rp(&app, &headers)?;
    Ok(begun(app.accounts.passkey_add_start(&rp, &who).await?))
}

/// `POST /api/account/passkey/add/finish` (signed in): the new passkey.
pub(crate) async fn add_finish(
    State(app): Shared,
    headers: HeaderMap,
    Member(who): Member,
    Body(req): Body<NewPasskey>,
) -> Result<Response, ApiError> {
    let rp = rp(&app, &headers)?;
    let key = app
        .accounts
        .passkey_add_finish(
            &rp,
            &who,
            &req.ceremony,
            &req.credential,
            req.label.as_deref(),
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({ "passkey": shown(&key) })),
    )
        .into_response())
}

/// An empty body (`{}`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Empty {}

/// `POST /api/account/passkey/signin/start`: options asking for any
/// passkey of this site (the authenticator offers the account).
pub(crate) async fn sign_in_start(
    State(app): Shared,
    headers: HeaderMap,
    Body(_): Body<Empty>,
) -> Result<Response, ApiError> {
    let rp = rp(&app, &headers)?;
    Ok(begun(app.accounts.passkey_sign_in_start(&rp).await?))
}

/// `POST /api/account/passkey/signin/finish`: signed in as the account
/// whose passkey answered.
pub(crate) async fn sign_in_finish(
    State(app): Shared,
    headers: HeaderMap,
    Body(req): Body<Proof>,
) -> Result<Response, ApiError> {
    let rp = rp(&app, &headers)?;
    let (user, secret) = app
        .accounts
        .passkey_sign_in_finish(&rp, &req.ceremony, &req.credential, &agent(&headers))
        .await?;
    Ok((
        [(header::SET_COOKIE, cookie(&app, Some(&secret)))],
        axum::Json(json!({ "user": me(&user) })),
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Removal {
    id: String,
}

/// `POST /api/account/passkey/remove` (signed in): refused for the last
/// way to sign in (409 `last_sign_in`).
pub(crate) async fn remove(
    State(app): Shared,
    Member(who): Member,
    Body(req): Body<Removal>,
) -> Result<Response, ApiError> {
    app.accounts.remove_passkey(&who, &req.id).await?;
    Ok(axum::Json(json!({ "removed": true })).into_response())
}
