//! Blocking a user: no challenges between the two, no quick pairing of
//! one with the other, and neither accepts the other's open seek. A block
//! is one-sided in the store (`user` blocks `other`) and works both ways
//! here; the blocked user is told only that the challenge or seek is not
//! open to them.

use crate::app::App;
use crate::error::ApiError;
use crate::games::now_ms;
use punct_store::UserRow;

/// A living account by its name (any case, any confusable spelling): 404
/// `no_user` otherwise.
pub(crate) async fn find(app: &App, name: &str) -> Result<UserRow, ApiError> {
    let none = || {
        ApiError::not_found("no_user", format!("there is no player called {name:?}"))
            .with("name", name.chars().take(40).collect::<String>())
    };
    let Some(key) = punct_accounts::name::lookup_key(name) else {
        return Err(none());
    };
    match app.store.accounts().user_by_key(&key).await? {
        Some(user) if !user.deleted => Ok(user),
        _ => Err(none()),
    }
}

/// Whether either of two accounts blocks the other.
pub(crate) async fn between(app: &App, a: &str, b: &str) -> Result<bool, ApiError> {
    let rows = app.store.accounts().blocks(a).await?;
    Ok(rows
        .iter()
        .any(|r| (r.user == a && r.other == b) || (r.user == b && r.other == a)))
}

/// The refusal of a challenge or seek between two players one of whom
/// blocks the other (the same whoever blocks).
pub(crate) fn refused(name: &str) -> ApiError {
    ApiError::forbidden(
        "blocked",
        format!("you and {name} do not play each other: one of you blocks the other"),
    )
    .with("name", name)
}

/// `user` blocks the account called `name`; its shown name.
pub(crate) async fn block(app: &App, user: &str, name: &str) -> Result<String, ApiError> {
    let other = find(app, name).await?;
    if other.id == user {
        return Err(ApiError::conflict(
            "own_account",
            "you cannot block yourself",
        ));
    }
    app.store
        .accounts()
        .block(user, &other.id, now_ms())
        .await?;
    Ok(other.name)
}

/// `user` no longer blocks the account called `name`: its shown name and
/// whether it was blocked.
pub(crate) async fn unblock(app: &App, user: &str, name: &str) -> Result<(String, bool), ApiError> {
    let other = find(app, name).await?;
    let was = app.store.accounts().unblock(user, &other.id).await?;
    Ok((other.name, was))
}

/// The accounts `user` blocks: (name, since), oldest first.
pub(crate) async fn list(app: &App, user: &str) -> Result<Vec<(String, i64)>, ApiError> {
    let rows = app.store.accounts().blocks(user).await?;
    let mine: Vec<_> = rows.into_iter().filter(|r| r.user == user).collect();
    let ids: Vec<String> = mine.iter().map(|r| r.other.clone()).collect();
    let users = app.store.accounts().users(&ids).await?;
    Ok(mine
        .iter()
        .filter_map(|r| {
            let u = users.iter().find(|u| u.id == r.other)?;
            (!u.deleted).then(|| (u.name.clone(), r.created))
        })
        .collect())
}
