//! The games in memory: each game's slot (its lock, its watchers' channel,
//! its AI state) and the one way to change a game: lock, apply, commit,
//! publish.

use crate::error::ApiError;
use crate::games::LiveGame;
use crate::store::Store;
use crate::Config;
use axum::extract::State;
use rand::rngs::StdRng;
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use tokio::sync::{broadcast, Mutex, Semaphore};

/// A game's state (JSON) and version after a change.
pub(crate) struct Changed {
    pub(crate) state: Arc<str>,
    pub(crate) version: i64,
}

/// One game in memory, with the channel its watchers listen on.
pub(crate) struct Slot {
    pub(crate) game: Mutex<LiveGame>,
    /// The game's state as JSON after every change.
    pub(crate) updates: broadcast::Sender<Arc<str>>,
    /// The version the AI was last asked to answer (to ask only once).
    pub(crate) ai_version: AtomicI64,
    /// Stops the AI's current search when the game changes under it.
    pub(crate) ai_stop: std::sync::Mutex<Arc<AtomicBool>>,
}

pub(crate) struct App {
    pub(crate) config: Config,
    pub(crate) store: Store,
    pub(crate) games: std::sync::Mutex<HashMap<String, Arc<Slot>>>,
    pub(crate) ai_permits: Arc<Semaphore>,
    pub(crate) rng: std::sync::Mutex<StdRng>,
    /// Turns true when the server stops: live sessions close so the
    /// graceful shutdown does not wait on them forever.
    pub(crate) stopping: tokio::sync::watch::Sender<bool>,
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
    /// The game `id`, loaded from the database on first use.
    pub(crate) async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.games.lock().expect("games lock").get(id) {
            return Ok(s.clone());
        }
        let valid =
            !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric());
        let not_found = || ApiError::not_found("unknown_game", format!("no game `{id}`"));
        if !valid {
            return Err(not_found());
        }
        let row = self
            .store
            .load(id)
            .map_err(ApiError::internal)?
            .ok_or_else(not_found)?;
        let game = LiveGame::from_row(row).map_err(ApiError::internal)?;
        let slot = {
            let mut games = self.games.lock().expect("games lock");
            games
                .entry(id.to_string())
                .or_insert_with(|| Arc::new(Slot::new(game)))
                .clone()
        };
        self.kick_ai(&slot).await;
        Ok(slot)
    }

    /// Adds a new game (already stored) to the games in memory.
    pub(crate) fn insert(&self, game: LiveGame) -> Arc<Slot> {
        let id = game.row.id.clone();
        let slot = Arc::new(Slot::new(game));
        self.games
            .lock()
            .expect("games lock")
            .insert(id, slot.clone());
        slot
    }

    /// Applies `change` to game `id`, commits it, tells the watchers and
    /// returns the new state. A failed change or commit leaves the game
    /// as it was.
    pub(crate) async fn change(
        self: &Arc<Self>,
        id: &str,
        change: impl FnOnce(&mut LiveGame) -> Result<(), ApiError>,
    ) -> Result<Changed, ApiError> {
        let slot = self.slot(id).await?;
        let mut game = slot.game.lock().await;
        let before = game.clone();
        change(&mut game)?;
        if let Err(e) = self
            .store
            .update(game.row.clone(), before.row.version)
            .await
        {
            *game = before;
            return Err(save_error(e));
        }
        let state = slot.publish(&game);
        let version = game.row.version;
        let ai_turn = game.ai_to_move();
        drop(game);
        // Whatever the AI was thinking about is out of date now.
        slot.ai_stop
            .lock()
            .expect("stop lock")
            .store(true, Ordering::Relaxed);
        if ai_turn {
            self.kick_ai(&slot).await;
        }
        Ok(Changed { state, version })
    }
}

impl Slot {
    pub(crate) fn new(game: LiveGame) -> Slot {
        Slot {
            game: Mutex::new(game),
            updates: broadcast::channel(64).0,
            ai_version: AtomicI64::new(-1),
            ai_stop: std::sync::Mutex::new(Arc::new(AtomicBool::new(false))),
        }
    }

    /// The state as JSON, sent to every watcher.
    pub(crate) fn publish(&self, game: &LiveGame) -> Arc<str> {
        let state: Arc<str> = Arc::from(game.to_json().to_text());
        let _ = self.updates.send(state.clone());
        state
    }
}

/// A failed write as an API error.
pub(crate) fn save_error(e: crate::store::SaveError) -> ApiError {
    match e {
        crate::store::SaveError::Stale => ApiError::conflict(
            "stale",
            "the game changed at the same time; load it again and retry",
        ),
        e => ApiError::internal(e.to_string()),
    }
}
