//! The games in memory: each game's slot (its lock, its watchers' channel,
//! its AI state, its clock's timer, its presence), the commit every change
//! goes through (write at the version read, then publish, queue the
//! review, count the moves, stop the AI's stale search), reading a game
//! again that another instance changed, the flag that falls at a clock's
//! deadline, and housekeeping. Finding or loading a game and applying a
//! change to it is `change.rs`, above this module.

use crate::clock::Timer;
use crate::error::ApiError;
use crate::games::{now_ms, LiveGame};
use crate::limits::{ClientCounts, RateLimits};
use crate::security::Hosts;
use crate::Config;
use axum::extract::State;
use punct_store::SaveError;
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, Mutex};

/// A game's state (JSON) and version after a change.
pub(crate) struct Changed {
    pub(crate) state: Arc<str>,
    pub(crate) version: i64,
}

/// A game's state as sent to its live sockets: in full, without the legal
/// moves (spectators), or with them grouped (players who ask for less to
/// read). Each text is made once, when the first socket (or the answer to
/// the change) needs it; clones share them.
#[derive(Clone)]
pub(crate) struct Published(Arc<Texts>);

pub(crate) struct Texts {
    view: crate::view::GameView,
    full: std::sync::OnceLock<Arc<str>>,
    light: std::sync::OnceLock<Arc<str>>,
    compact: std::sync::OnceLock<Arc<str>>,
    /// The change from the state published before, as an `update`
    /// message (delta.rs), for sockets that follow moves; `None`: only
    /// the whole state says it.
    update: Option<(u64, Arc<str>)>,
    /// Which of its slot's published states this is (0: made outside
    /// `publish`, for one reader).
    serial: u64,
}

impl Published {
    pub(crate) fn of(game: &LiveGame) -> Published {
        Published::after(game, None, 0)
    }

    /// The state of `game`, the `serial`th its slot publishes, with its
    /// update from `before` (the state published before it) where a
    /// watcher can follow it.
    fn after(game: &LiveGame, before: Option<&Published>, serial: u64) -> Published {
        let view = game.view();
        let update = before.and_then(|b| {
            let text = crate::delta::update(b.fields(), view.fields())?;
            Some((b.0.serial, Arc::from(text)))
        });
        Published(Arc::new(Texts {
            view,
            full: Default::default(),
            light: Default::default(),
            compact: Default::default(),
            update,
            serial,
        }))
    }

    /// Which of its slot's published states this is (0: none).
    pub(crate) fn serial(&self) -> u64 {
        self.0.serial
    }

    /// The `update` message from the state published before, and that
    /// state's serial: a watcher that holds that one can follow it.
    pub(crate) fn update(&self) -> Option<(u64, Arc<str>)> {
        self.0.update.clone()
    }

    /// The state's fields but the legal moves.
    pub(crate) fn fields(&self) -> &serde_json::Map<String, serde_json::Value> {
        self.0.view.fields()
    }

    pub(crate) fn full(&self) -> Arc<str> {
        let t = &self.0;
        t.full.get_or_init(|| Arc::from(t.view.to_text())).clone()
    }

    pub(crate) fn light(&self) -> Arc<str> {
        let t = &self.0;
        t.light
            .get_or_init(|| Arc::from(t.view.to_text_without_legal()))
            .clone()
    }

    pub(crate) fn compact(&self) -> Arc<str> {
        let t = &self.0;
        t.compact
            .get_or_init(|| Arc::from(t.view.to_text_compact()))
            .clone()
    }
}

/// One game in memory, with the channel its watchers listen on.
pub(crate) struct Slot {
    pub(crate) game: Mutex<LiveGame>,
    /// The game's state as JSON after every change.
    pub(crate) updates: broadcast::Sender<Published>,
    /// The state published last, which the next one's update is made from.
    pub(crate) last: std::sync::Mutex<Option<Published>>,
    /// Stops the AI's current search when the game changes under it.
    pub(crate) ai_stop: std::sync::Mutex<Arc<AtomicBool>>,
    /// Live sockets open on this game.
    pub(crate) watchers: AtomicUsize,
    /// When the game was last asked for or changed (ms since 1970): an
    /// unwatched game leaves memory after `Config::idle_game`.
    pub(crate) touched: AtomicI64,
    /// The running clock's deadline and the task watching it (clock.rs).
    pub(crate) timer: Arc<Timer>,
    /// Who is watching live: the players' and spectators' sockets
    /// (presence.rs; not stored, no version).
    pub(crate) presence: Arc<crate::presence::Presence>,
    /// The app and this slot, for the clock's timer task.
    app: Weak<App>,
    me: Weak<Slot>,
}

pub(crate) struct App {
    pub(crate) config: Config,
    pub(crate) store: Arc<dyn punct_store::Storage>,
    pub(crate) games: std::sync::Mutex<HashMap<String, Arc<Slot>>>,
    /// The AI's workers, shared fairly between clients.
    pub(crate) ai: Arc<crate::scheduler::Scheduler>,
    pub(crate) rng: std::sync::Mutex<StdRng>,
    /// Turns true when the server stops: live sessions close so the
    /// graceful shutdown does not wait on them forever.
    pub(crate) stopping: tokio::sync::watch::Sender<bool>,
    /// Per-client rate limits and live-socket counts.
    pub(crate) rates: Arc<RateLimits>,
    pub(crate) sockets: Arc<ClientCounts>,
    /// The hosts and origins accepted.
    pub(crate) hosts: Arc<Hosts>,
    /// Ended games waiting for their post-game analysis (review.rs).
    pub(crate) reviews: tokio::sync::mpsc::Sender<String>,
    /// What operators watch (metrics.rs).
    pub(crate) metrics: Arc<crate::metrics::Metrics>,
    /// The jobs this instance claims on a shared database (jobs.rs).
    pub(crate) jobs: Arc<crate::jobs::Jobs>,
    /// Whether this instance can save now (health.rs).
    pub(crate) readiness: crate::health::Readiness,
    /// Sign-ups, sign-ins and sessions (accounts.rs).
    pub(crate) accounts: crate::accounts::Accounts,
    /// This instance's side of the lobby (lobby.rs).
    pub(crate) lobby: crate::lobby::Hub,
    /// This instance's bots' streams and seeks (botapi.rs).
    pub(crate) bot_hub: Arc<crate::botapi::Hub>,
    /// This instance's notification sockets (notes.rs).
    pub(crate) notes: Arc<crate::notes::hub::Hub>,
}

pub(crate) type Shared = State<Arc<App>>;

pub(crate) fn new_token(app: &App, len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = app.rng.lock().expect("rng lock");
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

impl App {
    /// Adds a new game (already stored) to the games in memory.
    pub(crate) fn insert(self: &Arc<Self>, game: LiveGame) -> Arc<Slot> {
        let id = game.row.id.clone();
        let deadline = game.clock_deadline();
        let slot = Slot::new(game, self);
        slot.set_deadline(deadline);
        self.games
            .lock()
            .expect("games lock")
            .insert(id, slot.clone());
        slot
    }

    /// The one way a change to a held game is kept, whoever makes it (a
    /// request, the clock, the AI): `game` (locked) holds the change,
    /// `before` the game as it was read. It is written at `before`'s
    /// version; once committed the watchers see it, an ended game's review
    /// is queued, the moves it made are counted, and whatever the AI was
    /// thinking about is stopped (under the game's lock, so a search
    /// started later sees the new game). A write that fails puts `before`
    /// back and says why; a stale one is the caller's to read again.
    pub(crate) async fn commit(
        &self,
        slot: &Slot,
        game: &mut LiveGame,
        before: LiveGame,
    ) -> Result<Arc<str>, SaveError> {
        let ends = !before.is_over() && game.is_over();
        // A rematch is stored with the change that links to it, or not at
        // all: two instances starting it at once cannot make two.
        let written = match game.rematch_new.take() {
            Some(new) => {
                self.store
                    .update_and_insert(game.row.clone(), before.row.version, new)
                    .await
            }
            None => {
                self.store
                    .update(game.row.clone(), before.row.version)
                    .await
            }
        };
        if let Err(e) = written {
            *game = before;
            return Err(e);
        }
        let state = slot.publish(game);
        if ends {
            self.note_conduct(slot, game).await;
        }
        // The players told, away from the game's lock (notes.rs).
        let notes = crate::notes::hub::of_change(&before, game, now_ms());
        if !notes.is_empty() {
            let (store, hub) = (self.store.clone(), self.notes.clone());
            tokio::spawn(async move { crate::notes::hub::keep(store.as_ref(), &hub, notes).await });
        }
        self.queue_review(game);
        if let Ok(played) = u64::try_from(game.row.plies - before.row.plies) {
            self.metrics.moved(played);
        }
        slot.stop_ai();
        Ok(state)
    }

    /// Notes a game that just ended against a player who left or aborted
    /// it (playban.rs), the seats' presence read first from every
    /// instance. A failed note is logged: the game's end stands.
    async fn note_conduct(&self, slot: &Slot, game: &LiveGame) {
        // Only an end that may count needs the presence read.
        if crate::playban::noted(game, |_| true).is_none() {
            return;
        }
        if let Err(e) = slot.presence.refresh().await {
            tracing::warn!("game {}: reading presence: {e}", game.row.id);
        }
        let now = now_ms();
        let away = |side| slot.presence.away_ms(side, now).is_some();
        if let Err(e) = crate::playban::note(self.store.as_ref(), game, away).await {
            tracing::warn!("game {}: noting for the playban: {e}", game.row.id);
        }
    }

    /// Reads the game again from the database into `game` (held locked)
    /// if the stored one is newer, and shows it to the watchers. Returns
    /// whether it changed. A game another instance changed lands here.
    pub(crate) async fn reload(&self, slot: &Slot, game: &mut LiveGame) -> Result<bool, ApiError> {
        let row = self.store.load(&game.row.id).await?;
        let Some(row) = row.filter(|r| r.version > game.row.version) else {
            return Ok(false);
        };
        let mut fresh = LiveGame::from_row(row).map_err(ApiError::internal)?;
        // What is not stored stays this instance's own.
        fresh.ai_queued = game.ai_queued;
        // Changed by another instance: if the AI is to move now, the write
        // put its job, and whoever claims it thinks.
        fresh.ai_elsewhere = self.store.jobs().is_some() || game.ai_elsewhere;
        fresh.bots = game.bots;
        *game = fresh;
        slot.stop_ai();
        slot.publish(game);
        self.queue_review(game);
        Ok(true)
    }
}

impl Slot {
    pub(crate) fn new(game: LiveGame, app: &Arc<App>) -> Arc<Slot> {
        let share = crate::presence::Share::of(&app.store, &app.jobs.lease.owner, &game.row.id);
        let presence = Arc::new(crate::presence::Presence::new(&game, share));
        Arc::new_cyclic(|me| Slot {
            game: Mutex::new(game),
            updates: broadcast::channel(64).0,
            last: Default::default(),
            ai_stop: std::sync::Mutex::new(Arc::new(AtomicBool::new(false))),
            watchers: AtomicUsize::new(0),
            touched: AtomicI64::new(now_ms()),
            timer: Default::default(),
            presence,
            app: Arc::downgrade(app),
            me: me.clone(),
        })
    }

    /// Stops the AI's current search (the game changed under it).
    pub(crate) fn stop_ai(&self) {
        self.ai_stop
            .lock()
            .expect("stop lock")
            .store(true, Ordering::Relaxed);
    }

    /// Points the clock's timer at `game`'s deadline (none: no clock
    /// runs), starting its task when needed.
    pub(crate) fn arm_clock(&self, game: &LiveGame) {
        self.set_deadline(game.clock_deadline());
    }

    fn set_deadline(&self, deadline: Option<i64>) {
        // (A slot that cannot be upgraded is being dropped: no timer.)
        if let Some(me) = self.me.upgrade().filter(|_| self.timer.set(deadline)) {
            tokio::spawn(run_timer(self.app.clone(), me, self.timer.clone()));
        }
    }

    pub(crate) fn touch(&self) {
        self.touched.store(now_ms(), Ordering::Relaxed);
    }

    /// The state as JSON, sent to every watcher.
    pub(crate) fn publish(&self, game: &LiveGame) -> Arc<str> {
        let published = {
            let mut last = self.last.lock().expect("last state lock");
            let serial = last.as_ref().map_or(1, |l| l.serial() + 1);
            let published = Published::after(game, last.as_ref(), serial);
            *last = Some(published.clone());
            published
        };
        let state = published.full();
        let _ = self.updates.send(published);
        self.arm_clock(game);
        self.presence.seats_changed(game);
        state
    }
}

/// A failed write as an API error.
pub(crate) fn save_error(e: SaveError) -> ApiError {
    match e {
        SaveError::Stale => ApiError::conflict(
            "stale",
            "the game changed at the same time; load it again and retry",
        ),
        SaveError::Failed(e) => e.into(),
        e => ApiError::internal(e.to_string()),
    }
}

impl App {
    /// Queues game `game`'s review if it has ended and has none yet.
    pub(crate) fn queue_review(&self, game: &LiveGame) {
        if game.is_over() && game.row.review.is_none() && !game.game.is_empty() {
            let _ = self.reviews.try_send(game.row.id.clone());
        }
        self.rate(game);
    }

    /// Applies an ended rated game to its players' ratings (ratings.rs:
    /// once, whichever instance gets there first).
    fn rate(&self, game: &LiveGame) {
        if !(game.row.rated && game.is_over()) {
            return;
        }
        let store = self.store.clone();
        let row = game.row.clone();
        tokio::spawn(async move {
            if let Err(e) = crate::ratings::rate(store.as_ref(), &row).await {
                tracing::warn!("game {}: rating the result: {e}", row.id);
            }
        });
    }

    /// Games held in memory now.
    pub(crate) fn games_in_memory(&self) -> usize {
        self.games.lock().expect("games lock").len()
    }

    /// Lets go of games nothing holds (no live socket, no AI job, no
    /// request in flight: the map's reference is the only one) that are
    /// over or have not been touched for `idle_game`; they are read back
    /// from the database when asked for. Returns how many left.
    pub(crate) fn evict_idle_games(&self) -> usize {
        let idle_ms = self.config.idle_game.as_millis() as i64;
        let now = now_ms();
        let mut games = self.games.lock().expect("games lock");
        let before = games.len();
        // Nobody can take a new reference while the map is locked, so a
        // count of one stays one until the slot is gone.
        games.retain(|_, slot| {
            if Arc::strong_count(slot) > 1 {
                return true;
            }
            let over = slot.game.try_lock().map(|g| g.is_over()).unwrap_or(false);
            let keep = !(over || now - slot.touched.load(Ordering::Relaxed) >= idle_ms);
            if !keep {
                // A timer waiting for a far deadline lets go of it; the
                // clocks' pick-up loads the game again in time.
                slot.timer.set(None);
            }
            keep
        });
        before - games.len()
    }
}

/// Follows the changes other instances sharing the database make: a game
/// held here that changed there is read again and shown to its watchers
/// (its own changes are seen and skipped by version).
pub(crate) async fn follow_changes(
    app: Arc<App>,
    mut changes: broadcast::Receiver<punct_store::Change>,
) {
    use punct_store::Change;
    let mut stopping = app.stopping.subscribe();
    loop {
        let change = tokio::select! {
            change = changes.recv() => change,
            _ = stopping.wait_for(|&s| s) => return,
        };
        let held: Vec<(Arc<Slot>, Option<i64>)> = {
            let games = app.games.lock().expect("games lock");
            match change {
                Ok(Change::Game { id, version }) => {
                    // A new game (its first version): the bots whose
                    // event streams listen here hear of it (botapi.rs).
                    if version == 1 && app.bot_hub.listening() {
                        tokio::spawn(tell_bots(app.clone(), id.clone()));
                    }
                    games
                        .get(&id)
                        .map(|slot| (slot.clone(), Some(version)))
                        .into_iter()
                        .collect()
                }
                // Another instance's sockets on a game held here: shown.
                Ok(Change::Presence { id, instance }) => {
                    if let Some(slot) = games.get(&id).filter(|_| instance != app.jobs.lease.owner)
                    {
                        let presence = slot.presence.clone();
                        tokio::spawn(async move {
                            if let Err(e) = presence.refresh().await {
                                tracing::warn!("game {id}: reading who is connected: {e}");
                            }
                        });
                    }
                    Vec::new()
                }
                // The lobby's news: passed on to the lobby (lobby.rs), whose
                // watchers and seekers here hear it.
                Ok(
                    change
                    @ (Change::Seek { .. } | Change::Paired { .. } | Change::Declined { .. }),
                ) => {
                    let _ = app.lobby.news.send(change);
                    Vec::new()
                }
                // A note of an account whose sockets may be here.
                Ok(Change::Note { user, id }) => {
                    let app = app.clone();
                    tokio::spawn(async move {
                        crate::notes::hub::deliver(app.store.as_ref(), &app.notes, &user, id).await
                    });
                    Vec::new()
                }
                // Missed some: every game held is read again.
                Ok(Change::Missed) | Err(broadcast::error::RecvError::Lagged(_)) => {
                    games.values().map(|slot| (slot.clone(), None)).collect()
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        };
        for (slot, version) in held {
            // Each on its own: a game whose lock is held does not hold up
            // the others' news.
            tokio::spawn(catch_up(app.clone(), slot, version));
        }
    }
}

/// Tells the bots listening here of new game `id`, another instance's,
/// if they play in it (read once for its seats).
async fn tell_bots(app: Arc<App>, id: String) {
    match app.store.load(&id).await {
        Ok(Some(row)) => app
            .bot_hub
            .new_game(&id, [row.white_user.as_deref(), row.black_user.as_deref()]),
        Ok(None) => {}
        Err(e) => tracing::warn!("game {id}: reading a new game for the bots: {e}"),
    }
}

/// Reads a held game again after another instance changed it (to
/// `version`; `None`: changes were missed). A read that fails (the
/// database stalled or went away just then) is tried again, with pauses,
/// until it succeeds or the server stops: the change is announced only
/// once, so a copy not read again would stay behind for good, showing the
/// old game and refusing moves at the stored ply as stale.
pub(crate) async fn catch_up(app: Arc<App>, slot: Arc<Slot>, version: Option<i64>) {
    let mut pause = CATCH_UP_PAUSE;
    let mut said = false;
    loop {
        {
            let mut game = slot.game.lock().await;
            if version.is_some_and(|v| v <= game.row.version) {
                return;
            }
            match app.reload(&slot, &mut game).await {
                Ok(_) => return,
                Err(e) if !said => {
                    said = true;
                    tracing::warn!(
                        "game {}: reading it again: {}; trying again",
                        game.row.id,
                        e.message
                    );
                }
                Err(_) => {}
            }
        }
        if *app.stopping.borrow() {
            return;
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(CATCH_UP_PAUSE_MAX);
    }
}

/// The first pause before a failed read of another instance's change is
/// tried again, and the longest (each pause doubles the last).
const CATCH_UP_PAUSE: Duration = Duration::from_millis(250);
const CATCH_UP_PAUSE_MAX: Duration = Duration::from_secs(5);

/// Where instances share a database, every few seconds: this instance
/// confirms its presence rows of the games it serves sockets for (and
/// writes those it could not), reads the other instances' rows of them in
/// one query (one that died stops confirming: its sockets are shown
/// closed), and now and then removes rows too old to matter.
pub(crate) async fn share_presence(app: Arc<App>) {
    use crate::presence::{Presence, RENEW_EVERY};
    let Some(board) = app.store.presence() else {
        return;
    };
    let instance = app.jobs.lease.owner.clone();
    // A row's closing times matter for abandonment claims: kept well past
    // the longest wait for one.
    let keep_ms = (2 * app.config.abandon_after.as_millis() as i64).max(3_600_000);
    let mut stopping = app.stopping.subscribe();
    let mut tick = tokio::time::interval(RENEW_EVERY);
    let mut ticks = 0u64;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        ticks += 1;
        let held: Vec<(String, Arc<Presence>)> = {
            let games = app.games.lock().expect("games lock");
            games
                .iter()
                .filter(|(_, slot)| slot.presence.to_renew())
                .map(|(id, slot)| (id.clone(), slot.presence.clone()))
                .collect()
        };
        for (_, presence) in held.iter().filter(|(_, p)| p.unwritten()) {
            presence.write().await;
        }
        let ids: Vec<String> = held.iter().map(|(id, _)| id.clone()).collect();
        if !ids.is_empty() {
            if let Err(e) = board.renew(&instance, &ids, now_ms()).await {
                tracing::warn!("confirming who is connected here: {e}");
            }
            match board.read(&ids).await {
                Ok(rows) => {
                    let mut by_game: HashMap<String, Vec<punct_store::PresenceRow>> =
                        HashMap::new();
                    for (id, row) in rows {
                        by_game.entry(id).or_default().push(row);
                    }
                    for (id, presence) in &held {
                        presence.set_others(by_game.remove(id).unwrap_or_default());
                    }
                }
                Err(e) => tracing::warn!("reading who is connected elsewhere: {e}"),
            }
        }
        if ticks.is_multiple_of(12) {
            if let Err(e) = board.forget(now_ms() - keep_ms).await {
                tracing::warn!("removing old presence rows: {e}");
            }
        }
    }
}

/// Every few seconds: games leave memory, forgotten rate-limit buckets go.
pub(crate) async fn housekeeping(app: Arc<App>) {
    let mut stopping = app.stopping.subscribe();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
    let mut ticks: u64 = 0;
    loop {
        tokio::select! {
            _ = tick.tick() => {
                app.evict_idle_games();
                app.rates.tidy();
                app.accounts.tidy();
                // Sessions and passkey ceremonies past their end, once an
                // hour (any instance may: removing what is expired twice
                // removes nothing).
                if ticks.is_multiple_of(720) {
                    let store = app.store.clone();
                    tokio::spawn(async move {
                        let now = now_ms();
                        if let Err(e) = store.accounts().expire_sessions(now).await {
                            tracing::warn!("removing expired sessions: {e}");
                        }
                        if let Err(e) = store.accounts().expire_ceremonies(now).await {
                            tracing::warn!("removing expired passkey ceremonies: {e}");
                        }
                    });
                }
                ticks += 1;
            }
            _ = stopping.wait_for(|&s| s) => return,
        }
    }
}

// ------------------------------------------------------------ clocks running out

/// While the deadline is further away than this, a game's timer does not
/// hold the game in memory (it may leave and be picked up again).
pub(crate) const HOLD_MS: i64 = 10 * 60 * 1000;
/// How often the database is searched for clocks running out soon.
pub(crate) const PICK_UP_EVERY: Duration = Duration::from_secs(60);

impl App {
    /// Ends `game` on time if its running clock has run out: commits the
    /// result at the version read and publishes it. True if it did. The
    /// caller holds the game's lock, so this is decided once.
    pub(crate) async fn flag_if_due(
        &self,
        slot: &Slot,
        game: &mut LiveGame,
    ) -> Result<bool, ApiError> {
        let Some(side) = game.flag_due(now_ms()) else {
            return Ok(false);
        };
        let before = game.clone();
        game.flag(side);
        match self.commit(slot, game, before).await {
            Ok(_) => Ok(true),
            Err(punct_store::SaveError::Stale) => {
                // Changed meanwhile by another instance sharing the
                // database (a move in time, or its own flag fall): what it
                // stored stands; read it.
                self.reload(slot, game).await?;
                Ok(false)
            }
            Err(e) => Err(save_error(e)),
        }
    }

    /// The timer's work at the deadline: the flag falls if it is due (a
    /// move that landed first moved the deadline: then nothing happens).
    pub(crate) async fn settle_clock(&self, slot: &Slot) -> Result<(), ApiError> {
        let mut game = slot.game.lock().await;
        self.flag_if_due(slot, &mut game).await?;
        // Whatever happened, the timer waits for the game's own deadline.
        slot.arm_clock(&game);
        Ok(())
    }
}

/// Watches a game's clock until it stops: at the deadline the game ends
/// on time if the same side is still to move and out of time. Holds the
/// game in memory only while the deadline is near.
async fn run_timer(app: Weak<App>, slot: Arc<Slot>, timer: Arc<Timer>) {
    let weak = Arc::downgrade(&slot);
    let mut held = Some(slot);
    loop {
        let Some(deadline) = timer.next() else {
            return;
        };
        let wait = deadline - now_ms();
        if wait > HOLD_MS {
            held = None;
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis((wait - HOLD_MS) as u64)) => {}
                _ = timer.wake.notified() => {}
            }
            continue;
        }
        let Some(slot) = held.clone().or_else(|| weak.upgrade()) else {
            // The game left memory; the pick-up loads it again in time.
            return;
        };
        held = Some(slot.clone());
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(wait.max(0) as u64)) => {
                let Some(app) = app.upgrade() else { return };
                if let Err(e) = app.settle_clock(&slot).await {
                    tracing::warn!("game {}: ending it on time: {}", slot_id(&slot).await, e.message);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            _ = timer.wake.notified() => {}
        }
    }
}

async fn slot_id(slot: &Slot) -> String {
    slot.game.lock().await.row.id.clone()
}
