//! Direct challenges: a game offered to one named account, which accepts
//! it (a game, as an open seek makes) or declines it. A challenge is a
//! seek of kind `challenge` in the lobby's store (`lobby.rs` keeps it,
//! hands it over once, and withdraws it with the challenger's socket);
//! here are the rules of who may challenge whom, the decline, and the
//! lists. The one challenged hears of it on their lobby sockets; the
//! challenger hears `declined` on theirs, from whichever instance declined.

use crate::app::App;
use crate::blocks;
use crate::error::ApiError;
use crate::games::Account;
use crate::lobby::{self, SeekNews, Seeker, Wanted};
use punct_store::SeekRow;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Offers `wanted` to the account called `to`; the challenge's id. The
/// challenger must be signed in; a bot of the AI's levels, oneself, a
/// deleted account and a blocked pair are refused.
pub(crate) async fn challenge(
    app: &Arc<App>,
    seeker: &Seeker,
    to: &str,
    mut wanted: Wanted,
    socket: mpsc::Sender<SeekNews>,
) -> Result<String, ApiError> {
    let Some(me) = &seeker.account else {
        return Err(ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "not_signed_in",
            "sign in to challenge a player",
        ));
    };
    let other = blocks::find(app, to).await?;
    if other.id == me.id {
        return Err(ApiError::conflict(
            "own_challenge",
            "you cannot challenge yourself",
        ));
    }
    if other.id.starts_with("ai-level") {
        return Err(ApiError::conflict(
            "challenge_ai",
            format!(
                "{} is the AI: start a game against it from the start screen",
                other.name
            ),
        )
        .with("name", other.name.as_str()));
    }
    if blocks::between(app, &me.id, &other.id).await? {
        return Err(blocks::refused(&other.name));
    }
    wanted.pool = false;
    let to = other.id.clone();
    wanted.to = Some(Account {
        id: other.id,
        name: other.name,
    });
    let id = lobby::seek(app, seeker, wanted, socket).await?;
    // Kept until read, and pushed to their pages wherever they are open.
    crate::notes::challenged(app, &to, &id, &me.name).await;
    Ok(id)
}

/// `who` declines challenge `id` offered to them: it leaves the lobby
/// and its challenger is told. A challenge not offered to `who` (or gone)
/// is 404 `no_challenge`.
pub(crate) async fn decline(app: &App, who: &Account, id: &str) -> Result<(), ApiError> {
    let none = || {
        ApiError::not_found("no_challenge", "there is no such challenge for you")
            .with("challenge", id.chars().take(64).collect::<String>())
    };
    let Some(row) = app.store.lobby().seek(id).await? else {
        return Err(none());
    };
    if row.kind != "challenge" || row.to_user.as_deref() != Some(who.id.as_str()) {
        return Err(none());
    }
    // Taken once: a decline racing an accept is one or the other.
    if app.store.lobby().take_seek(id).await?.is_none() {
        return Err(none());
    }
    if lobby::announces_itself(app) {
        lobby::removed(app, id);
        lobby::tell_declined(app, id);
    } else {
        // The challenger's instance hears it (and this one too).
        app.store.lobby().announce_declined(id).await?;
    }
    Ok(())
}

/// A challenge's public JSON: the seek's, with the name of the account it
/// is offered to.
pub(crate) fn view(row: &SeekRow, to: &str) -> Value {
    let mut v = lobby::view(row);
    v["to"] = json!(to);
    v
}

/// `who`'s open challenges: `{"incoming": […], "outgoing": […]}`.
pub(crate) async fn list(app: &App, who: &Account) -> Result<Value, ApiError> {
    let rows = app.store.lobby().challenges(&who.id).await?;
    let targets: Vec<String> = rows
        .iter()
        .filter(|r| r.user.as_deref() == Some(who.id.as_str()))
        .filter_map(|r| r.to_user.clone())
        .collect();
    let users = app.store.accounts().users(&targets).await?;
    let name_of = |id: &str| {
        users
            .iter()
            .find(|u| u.id == id)
            .map(|u| u.name.clone())
            .unwrap_or_default()
    };
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for row in &rows {
        if row.to_user.as_deref() == Some(who.id.as_str()) {
            incoming.push(view(row, &who.name));
        } else {
            outgoing.push(view(row, &name_of(row.to_user.as_deref().unwrap_or(""))));
        }
    }
    Ok(json!({ "incoming": incoming, "outgoing": outgoing }))
}

/// `who` accepts challenge `id`: the game, as accepting a seek gives it.
pub(crate) async fn accept(
    app: &Arc<App>,
    who: &Seeker,
    id: &str,
) -> Result<lobby::Paired, ApiError> {
    lobby::accept(app, who, id).await
}
