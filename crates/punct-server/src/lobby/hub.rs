//! The lobby's state on this instance, without the `App`: what its
//! watchers hear (`LobbyEvent`), this instance's seekers and the sockets
//! their games go to (`Mine`), and the database's lobby news passed on by
//! `app::follow_changes` for `lobby::upkeep` to act on (so `app.rs` needs
//! nothing of `lobby.rs`, which uses it).

use punct_core::Side;
use punct_store::{Change, SeekRow};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};

/// What lobby watchers hear: a seek added (its public JSON) or removed;
/// a challenge offered to account `to` (its public JSON), heard by that
/// account's sockets only.
#[derive(Clone, Debug)]
pub(crate) enum LobbyEvent {
    Added(Arc<str>),
    Removed(String),
    Challenge { to: String, seek: Arc<str> },
}

/// What becomes of a seek, for the socket that holds it: a game, or (a
/// challenge) declined by the one it was offered to.
#[derive(Clone, Debug)]
pub(crate) enum SeekNews {
    Paired(Paired),
    Declined(String),
}

/// A seek that became a game, for its seeker's socket.
#[derive(Clone, Debug)]
pub(crate) struct Paired {
    pub(crate) seek: String,
    pub(crate) game: String,
    pub(crate) token: String,
    pub(crate) side: Side,
}

impl Paired {
    pub(crate) fn message(&self) -> Value {
        json!({
            "type": "paired",
            "seek": self.seek,
            "game": self.game,
            "side": self.side.name(),
            "token": self.token,
            "link": format!("/game/{}#token={}", self.game, self.token),
        })
    }
}

/// A seek of this instance's sockets.
pub(crate) struct Mine {
    pub(crate) token: String,
    pub(crate) socket: mpsc::Sender<SeekNews>,
    pub(crate) row: SeekRow,
}

/// This instance's side of the lobby.
pub(crate) struct Hub {
    pub(crate) events: broadcast::Sender<LobbyEvent>,
    pub(crate) mine: std::sync::Mutex<HashMap<String, Mine>>,
    /// Lobby news from the database (another instance's seeks and
    /// pairings), for `lobby::upkeep`.
    pub(crate) news: mpsc::UnboundedSender<Change>,
    pub(crate) news_rx: std::sync::Mutex<Option<mpsc::UnboundedReceiver<Change>>>,
}

impl Hub {
    pub(crate) fn new() -> Hub {
        let (news, news_rx) = mpsc::unbounded_channel();
        Hub {
            news,
            news_rx: std::sync::Mutex::new(Some(news_rx)),
            events: broadcast::channel(1024).0,
            mine: Default::default(),
        }
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<LobbyEvent> {
        self.events.subscribe()
    }

    pub(crate) fn mine_len(&self) -> usize {
        self.mine.lock().expect("lobby lock").len()
    }
}
