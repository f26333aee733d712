//! The bots' side of this instance, without the `App`: which accounts
//! hold event streams here (each told of its new games by id), how many
//! streams of either kind each account holds (capped), and the seeks bots
//! made here, which go when the account's last event stream here closes.
//! Kept apart from `botapi.rs` so that `app.rs` and `create.rs` can tell
//! it of new games without knowing the bots' logic, which uses them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Game ids waiting to be read by one event stream; more are dropped (the
/// stream lists the account's ongoing games when it opens, so a bot that
/// reconnects finds them).
const NEWS_QUEUE: usize = 64;

#[derive(Default)]
struct Inner {
    /// The event streams open here, by account: each one's id and the
    /// channel its new games go to.
    listeners: HashMap<String, Vec<(u64, mpsc::Sender<String>)>>,
    /// Streams of either kind open here, by account.
    open: HashMap<String, usize>,
    /// Seeks the account's bot made here (some may have become games).
    seeks: HashMap<String, Vec<String>>,
}

/// This instance's bot streams and seeks.
#[derive(Default)]
pub(crate) struct Hub {
    inner: Mutex<Inner>,
    next: AtomicU64,
}

/// One open stream of an account, counted until dropped.
pub(crate) struct Place {
    hub: Arc<Hub>,
    user: String,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut inner = self.hub.inner.lock().expect("bot hub lock");
        if let Some(n) = inner.open.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                inner.open.remove(&self.user);
            }
        }
    }
}

impl Hub {
    /// Counts one more stream of `user`, unless it holds `cap` already.
    pub(crate) fn enter(self: &Arc<Self>, user: &str, cap: usize) -> Option<Place> {
        let mut inner = self.inner.lock().expect("bot hub lock");
        let n = inner.open.entry(user.to_string()).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Place {
            hub: self.clone(),
            user: user.to_string(),
        })
    }

    /// An event stream of `user` starts listening: its id (for
    /// [`Hub::leave`]) and where the ids of the account's new games come.
    pub(crate) fn listen(&self, user: &str) -> (u64, mpsc::Receiver<String>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(NEWS_QUEUE);
        self.inner
            .lock()
            .expect("bot hub lock")
            .listeners
            .entry(user.to_string())
            .or_default()
            .push((id, tx));
        (id, rx)
    }

    /// Event stream `id` of `user` stops listening. When it was the
    /// account's last here, the seeks its bot made here are returned, to
    /// be withdrawn (a seek lasts while its bot listens).
    pub(crate) fn leave(&self, user: &str, id: u64) -> Vec<String> {
        let mut inner = self.inner.lock().expect("bot hub lock");
        let last = match inner.listeners.get_mut(user) {
            Some(list) => {
                list.retain(|(i, _)| *i != id);
                list.is_empty()
            }
            None => true,
        };
        if !last {
            return Vec::new();
        }
        inner.listeners.remove(user);
        inner.seeks.remove(user).unwrap_or_default()
    }

    /// Whether any event stream listens here (else new games need not be
    /// read for their players).
    pub(crate) fn listening(&self) -> bool {
        !self
            .inner
            .lock()
            .expect("bot hub lock")
            .listeners
            .is_empty()
    }

    /// Whether an event stream of `user` listens here.
    pub(crate) fn listens(&self, user: &str) -> bool {
        self.inner
            .lock()
            .expect("bot hub lock")
            .listeners
            .contains_key(user)
    }

    /// Game `id` was made with these accounts on its seats: their event
    /// streams here hear of it (a stream may hear of a game twice: it
    /// keeps the ids it has told).
    pub(crate) fn new_game(&self, id: &str, users: [Option<&str>; 2]) {
        let inner = self.inner.lock().expect("bot hub lock");
        for user in users.into_iter().flatten() {
            for (_, tx) in inner.listeners.get(user).into_iter().flatten() {
                let _ = tx.try_send(id.to_string());
            }
        }
    }

    /// Seek `seek` is `user`'s bot's, made here.
    pub(crate) fn add_seek(&self, user: &str, seek: &str) {
        self.inner
            .lock()
            .expect("bot hub lock")
            .seeks
            .entry(user.to_string())
            .or_default()
            .push(seek.to_string());
    }

    /// The seeks `user`'s bot made here (some may have become games).
    pub(crate) fn seeks(&self, user: &str) -> Vec<String> {
        let inner = self.inner.lock().expect("bot hub lock");
        inner.seeks.get(user).cloned().unwrap_or_default()
    }

    /// Forgets seek `seek` of `user`'s bot; whether it was one.
    pub(crate) fn forget_seek(&self, user: &str, seek: &str) -> bool {
        let mut inner = self.inner.lock().expect("bot hub lock");
        let Some(list) = inner.seeks.get_mut(user) else {
            return false;
        };
        let before = list.len();
        list.retain(|s| s != seek);
        before != list.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_counted_per_account_and_given_back() {
        let hub = Arc::new(Hub::default());
        let a: Vec<Place> = (0..2).map(|_| hub.enter("a", 2).expect("within")).collect();
        assert!(hub.enter("a", 2).is_none(), "over the cap");
        let b = hub.enter("b", 2).expect("another account has its own");
        drop(a);
        drop(b);
        assert!(hub.inner.lock().unwrap().open.is_empty(), "forgotten");
        assert!(hub.enter("a", 2).is_some());
    }

    #[test]
    fn new_games_reach_their_players_streams_and_seeks_go_with_the_last() {
        let hub = Hub::default();
        assert!(!hub.listening());
        let (one, mut rx1) = hub.listen("a");
        let (two, mut rx2) = hub.listen("a");
        let (_, mut other) = hub.listen("b");
        hub.new_game("g1", [Some("a"), None]);
        assert_eq!(rx1.try_recv().ok().as_deref(), Some("g1"));
        assert_eq!(rx2.try_recv().ok().as_deref(), Some("g1"));
        assert!(other.try_recv().is_err(), "not b's game");
        hub.add_seek("a", "s1");
        hub.add_seek("a", "s2");
        assert!(hub.forget_seek("a", "s2"));
        assert!(!hub.forget_seek("a", "s2"));
        assert!(hub.leave("a", one).is_empty(), "another stream listens");
        assert!(hub.listens("a"));
        assert_eq!(hub.leave("a", two), vec!["s1".to_string()]);
        assert!(!hub.listens("a"));
        assert!(hub.seeks("a").is_empty());
    }
}
