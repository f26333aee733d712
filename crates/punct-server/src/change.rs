//! The change path, from a request (or a task) to a committed game: a
//! game is found in memory or read from the database (which starts its
//! clock's timer and, if it is the AI's turn, the AI); a change is applied
//! under the game's lock, the AI's place in its queue reserved when the
//! change makes it the AI's turn, then committed (`App::commit`), tried
//! again on a game another instance changed meanwhile, and the AI started.
//! Also the tasks that bring games back into memory: after a restart, for
//! a clock running out, for another instance's unfinished jobs.

use crate::app::{save_error, App, Changed, Slot, HOLD_MS, PICK_UP_EVERY};
use crate::error::ApiError;
use crate::games::{now_ms, GameError, LiveGame};
use crate::limits::ClientKey;
use punct_store::{JobKind, SaveError};
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::time::Duration;

impl App {
    /// The game `id`, loaded from the database on first use.
    pub(crate) async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.games.lock().expect("games lock").get(id) {
            s.touch();
            return Ok(s.clone());
        }
        let valid =
            !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric());
        let not_found = || {
            ApiError::not_found("unknown_game", format!("there is no game {id:?}")).with("id", id)
        };
        if !valid {
            return Err(not_found());
        }
        let row = self.store.load(id).await?.ok_or_else(not_found)?;
        let mut game = LiveGame::from_row(row).map_err(ApiError::internal)?;
        self.mark_bots(&mut game).await;
        self.queue_review(&game);
        let (slot, inserted) = {
            let mut games = self.games.lock().expect("games lock");
            match games.entry(id.to_string()) {
                Entry::Occupied(held) => (held.get().clone(), false),
                Entry::Vacant(free) => (free.insert(Slot::new(game, self)).clone(), true),
            }
        };
        if inserted && self.store.jobs().is_some() {
            // Another instance may have changed the game between the read
            // above and now: its announcement found no game held here and
            // was dropped (follow_changes), so this copy would stay behind
            // until the game's next change. Read it once more: a change
            // committed before this read is in it, one committed after is
            // announced to the slot now held. A read that fails is tried
            // again meanwhile.
            let mut game = slot.game.lock().await;
            if self.reload(&slot, &mut game).await.is_err() {
                tokio::spawn(crate::app::catch_up(self.clone(), slot.clone(), None));
            }
        }
        slot.arm_clock(&*slot.game.lock().await);
        self.kick_ai(&slot).await;
        Ok(slot)
    }

    /// Marks the seats bot accounts hold (`LiveGame::bots`), read from the
    /// accounts; a failed read leaves them unmarked (shown as people).
    pub(crate) async fn mark_bots(&self, game: &mut LiveGame) {
        let ids: Vec<String> = [&game.row.white_user, &game.row.black_user]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        if ids.is_empty() {
            return;
        }
        match self.store.accounts().users(&ids).await {
            Ok(users) => {
                for side in [punct_core::Side::White, punct_core::Side::Black] {
                    game.bots[side.index()] = game
                        .user(side)
                        .is_some_and(|id| users.iter().any(|u| u.id == id && u.bot));
                }
            }
            Err(e) => tracing::warn!("game {}: reading its players' accounts: {e}", game.row.id),
        }
    }

    /// Applies `change` to game `id`, commits it, tells the watchers and
    /// returns the new state. A failed change or commit leaves the game
    /// as it was.
    pub(crate) async fn change(
        self: &Arc<Self>,
        id: &str,
        change: impl FnMut(&mut LiveGame) -> Result<(), GameError>,
    ) -> Result<Changed, ApiError> {
        self.change_by(ClientKey::server(), id, change).await
    }

    /// [`App::change`] for `client`: if the change makes it the AI's turn,
    /// the AI's move is `client`'s job, and a full AI queue refuses the
    /// change (429 `ai_busy`) before anything is committed.
    pub(crate) async fn change_by(
        self: &Arc<Self>,
        client: ClientKey,
        id: &str,
        mut change: impl FnMut(&mut LiveGame) -> Result<(), GameError>,
    ) -> Result<Changed, ApiError> {
        let slot = self.slot(id).await?;
        let mut game = slot.game.lock().await;
        // Another instance sharing the database may have changed the game
        // since this one read it: the write then finds another version,
        // the game is read again and the change tried on it (a move for a
        // ply that is taken now is refused by the change itself).
        let mut stale = 0;
        loop {
            // A flag that fell before this request ends the game first.
            self.flag_if_due(&slot, &mut game).await?;
            let before = game.clone();
            if let Err(e) = change(&mut game) {
                *game = before;
                // In a game lost on time, "the game is over" says why.
                return Err(crate::games::after_flag(&game, e).into());
            }
            let ai_job = match self.reserve_ai(client, &mut game) {
                Ok(job) => job,
                Err(e) => {
                    *game = before;
                    return Err(e);
                }
            };
            let state = match self.commit(&slot, &mut game, before).await {
                Ok(state) => state,
                Err(SaveError::Stale) if stale < STALE_RETRIES => {
                    stale += 1;
                    drop(ai_job);
                    if !self.reload(&slot, &mut game).await? {
                        // Not changed after all (the database said no for
                        // another reason): no use trying again.
                        return Err(save_error(SaveError::Stale));
                    }
                    continue;
                }
                Err(e) => return Err(save_error(e)),
            };
            let version = game.row.version;
            drop(game);
            self.start_ai(&slot, ai_job);
            return Ok(Changed { state, version });
        }
    }

    /// Claims the win in game `id` for the holder of `token` because the
    /// opponent left (see [`LiveGame::abandon`]; presence.rs).
    pub(crate) async fn abandon(
        self: &Arc<Self>,
        client: ClientKey,
        id: &str,
        token: &str,
    ) -> Result<Changed, ApiError> {
        let presence = self.slot(id).await?.presence.clone();
        // Decided on every instance's sockets as they are now, not as last
        // shown.
        presence.refresh().await?;
        let after_ms = self.config.abandon_after.as_millis() as i64;
        self.change_by(client, id, |g| {
            g.abandon(token, |side| presence.away_ms(side, now_ms()), after_ms)
        })
        .await
    }
}

/// How often one change is tried again on a game changed meanwhile by
/// another instance before the client is told to retry.
const STALE_RETRIES: u32 = 3;

/// After a restart, games against the AI where it was the AI's turn go on.
pub(crate) async fn resume_ai_games(app: &Arc<App>) {
    let ongoing = punct_store::ListFilter {
        over: Some(false),
        limit: 1000,
        ..Default::default()
    };
    let Ok(rows) = app.store.list(&ongoing).await else {
        return;
    };
    for row in rows.into_iter().filter(|r| r.mode.ai_side().is_some()) {
        let _ = app.slot(&row.id).await;
    }
}

/// At start and then every minute: games in the database whose running
/// clock may run out within the next minutes are loaded, which starts
/// their timers (so a flag falls on time after a restart too, and for
/// games that left memory while their clock ran).
pub(crate) async fn keep_clocks(app: Arc<App>) {
    let mut stopping = app.stopping.subscribe();
    let mut tick = tokio::time::interval(PICK_UP_EVERY);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        let by = now_ms() + HOLD_MS + 2 * PICK_UP_EVERY.as_millis() as i64;
        match app.store.clocks_due(by).await {
            Ok(ids) => {
                for id in ids {
                    let _ = app.slot(&id).await;
                }
            }
            Err(e) => tracing::warn!("looking for running clocks: {e}"),
        }
    }
}

/// Takes over the jobs nobody holds, as many as this instance has AI
/// workers free, a few times a lease.
pub(crate) async fn take_over(app: Arc<App>) {
    let Some(queue) = app.store.jobs() else {
        return;
    };
    let mut stopping = app.stopping.subscribe();
    let every = (app.jobs.lease.length / 5).max(Duration::from_millis(100));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut said = false;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        let (running, waiting) = app.ai.counts();
        // With every worker busy one job still comes each round (a move
        // first): a dead instance's player must not wait for the
        // survivors to be idle, and queued here it takes its fair turn.
        let free = app
            .config
            .ai_workers
            .max(1)
            .saturating_sub(running + waiting)
            .max(1);
        let token = app.jobs.token();
        let taken = match queue
            .take(
                free as u32,
                app.jobs.unclaimed_for(),
                &token,
                &app.jobs.lease,
            )
            .await
        {
            Ok(taken) => {
                said = false;
                taken
            }
            Err(e) => {
                if !said {
                    said = true;
                    tracing::warn!("looking for jobs to take over: {e}");
                }
                continue;
            }
        };
        app.metrics.jobs_taken.inc_by(taken.len() as u64);
        for (id, kind) in taken {
            // Its work claims the job again, as this instance's, once it
            // starts (the claim just taken holds it until then).
            match kind {
                JobKind::Move => {
                    let app = app.clone();
                    tokio::spawn(async move {
                        match app.slot(&id).await {
                            // Loading a game starts its AI; one held here
                            // is started now.
                            Ok(slot) => app.kick_ai(&slot).await,
                            Err(e) => tracing::warn!(
                                "game {id}: taking over the AI's move: {}",
                                e.message
                            ),
                        }
                    });
                }
                JobKind::Review => {
                    let _ = app.reviews.try_send(id);
                }
            }
        }
    }
}
