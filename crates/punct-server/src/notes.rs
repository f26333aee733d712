//! In-site notifications (issue 31, "coming back"): a challenge received,
//! your turn in a correspondence game, a game over, and a correspondence
//! clock running low, kept for each account until read and pushed to its
//! open pages over its live socket (`GET /api/account/live`). No e-mail.
//!
//! Notes are made where their events happen: `challenges.rs` for a
//! challenge, `App::commit` for a change (`hub::of_change`), and here the
//! sweep every instance runs for clocks running low ([`sweep`]), each note
//! kept once per event by the store's key. `hub.rs` is this instance's
//! side without the `App`; here are the account's list, the marking read,
//! and the sweep, which also prunes notes read long ago.

pub(crate) mod hub;

use crate::app::App;
use crate::error::ApiError;
use crate::games::{now_ms, LiveGame};
use punct_store::NoteRow;
use serde_json::{json, Value};
use std::sync::Arc;

/// Notes shown per page at most.
pub(crate) const PAGE_MAX: u32 = 100;

/// Read notes are removed this long after they were read.
const KEEP_READ_MS: i64 = 30 * 86_400_000;

/// The most ids one marking names.
pub(crate) const READ_MAX: usize = 500;

/// `user` was challenged by `from` (challenge `seek`).
pub(crate) async fn challenged(app: &App, user: &str, seek: &str, from: &str) {
    let note = NoteRow {
        user: user.to_string(),
        kind: "challenge".into(),
        subject: seek.to_string(),
        ply: 0,
        other: Some(from.to_string()),
        created: now_ms(),
        ..NoteRow::default()
    };
    hub::keep(app.store.as_ref(), &app.notes, vec![note]).await;
}

/// `user`'s notes from `offset` (unread first, newest first), with the
/// unread count.
pub(crate) async fn list(
    app: &App,
    user: &str,
    offset: u32,
    limit: u32,
) -> Result<Value, ApiError> {
    let notes = app
        .store
        .notes()
        .notes(user, offset, limit.clamp(1, PAGE_MAX))
        .await?;
    let unread = app.store.notes().unread(user).await?;
    Ok(json!({
        "notifications": notes.iter().map(hub::view).collect::<Vec<_>>(),
        "unread": unread,
    }))
}

/// Marks `user`'s notes `ids` (all: `None`) read; the unread count left.
/// The account's other pages hear the new count.
pub(crate) async fn read(app: &App, user: &str, ids: Option<&[i64]>) -> Result<u64, ApiError> {
    let marked = app.store.notes().mark_read(user, ids, now_ms()).await?;
    if marked > 0 && app.store.changes().is_none() {
        hub::deliver(app.store.as_ref(), &app.notes, user, None).await;
    }
    Ok(app.store.notes().unread(user).await?)
}

/// Every `notes_sweep` on every instance: warns the players of
/// correspondence games whose clock runs low (once per turn, whichever
/// instance gets there first: the store's key), and prunes old read notes.
pub(crate) async fn sweep(app: Arc<App>) {
    let mut stopping = app.stopping.subscribe();
    let mut tick = tokio::time::interval(app.config.notes_sweep);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        if let Err(e) = warn_time_low(&app).await {
            tracing::warn!("looking for clocks running low: {e}");
        }
        if let Err(e) = app.store.notes().prune_notes(now_ms() - KEEP_READ_MS).await {
            tracing::warn!("pruning read notifications: {e}");
        }
    }
}

async fn warn_time_low(app: &App) -> Result<(), punct_store::StoreError> {
    let limit_ms = app.config.time_low.as_millis() as i64;
    let now = now_ms();
    // Every game whose running clock may fall below the limit; the exact
    // threshold (the share of the time per move) is each game's.
    let mut notes = Vec::new();
    for id in app.store.clocks_due(now + limit_ms).await? {
        let Some(row) = app.store.load(&id).await? else {
            continue;
        };
        let Ok(mut game) = LiveGame::from_row(row) else {
            continue;
        };
        if game.time_control().is_none() {
            continue;
        }
        app.mark_bots(&mut game).await;
        notes.extend(hub::time_low(
            &game,
            now,
            limit_ms,
            app.config.time_low_percent,
        ));
    }
    hub::keep(app.store.as_ref(), &app.notes, notes).await;
    Ok(())
}
