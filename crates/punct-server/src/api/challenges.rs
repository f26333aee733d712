//! Challenges and blocks over HTTP, for a page away from the lobby and for
//! programs: a signed-in user's open challenges, accepting or declining
//! one offered to them, and blocking a player (`challenges.rs`,
//! `blocks.rs` have the logic; challenges are made on the lobby's socket,
//! which holds them).

use super::accounts::{account_of, Member};
use crate::app::Shared;
use crate::error::ApiError;
use crate::lobby::Seeker;
use crate::{blocks, challenges};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// `GET /api/challenges`: `{"incoming": […], "outgoing": […]}`.
pub(crate) async fn list(State(app): Shared, Member(who): Member) -> Result<Response, ApiError> {
    let v = challenges::list(&app, &account_of(&who)).await?;
    Ok(axum::Json(v).into_response())
}

/// `POST /api/challenges/{id}/accept`: the game, with this seat's token.
pub(crate) async fn accept(
    State(app): Shared,
    Member(who): Member,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let seeker = Seeker {
        account: Some(account_of(&who)),
        name: None,
        bot: who.user.bot,
    };
    let paired = challenges::accept(&app, &seeker, &id).await?;
    Ok(axum::Json(paired.message()).into_response())
}

/// `POST /api/challenges/{id}/decline`.
pub(crate) async fn decline(
    State(app): Shared,
    Member(who): Member,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    challenges::decline(&app, &account_of(&who), &id).await?;
    Ok(axum::Json(json!({ "declined": id })).into_response())
}

/// `GET /api/account/blocks`: `{"blocks": [{"name", "since"}…]}`.
pub(crate) async fn blocks(State(app): Shared, Member(who): Member) -> Result<Response, ApiError> {
    let list: Vec<_> = blocks::list(&app, &who.user.id)
        .await?
        .into_iter()
        .map(|(name, since)| json!({ "name": name, "since": since }))
        .collect();
    Ok(axum::Json(json!({ "blocks": list })).into_response())
}

/// `POST /api/users/{name}/block`.
pub(crate) async fn block(
    State(app): Shared,
    Member(who): Member,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let name = blocks::block(&app, &who.user.id, &name).await?;
    Ok(axum::Json(json!({ "name": name, "blocked": true })).into_response())
}

/// `POST /api/users/{name}/unblock`.
pub(crate) async fn unblock(
    State(app): Shared,
    Member(who): Member,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let (name, _) = blocks::unblock(&app, &who.user.id, &name).await?;
    Ok(axum::Json(json!({ "name": name, "blocked": false })).into_response())
}
