//! The lobby as stored: open seeks (a game offered to whoever accepts it)
//! and the quick-pairing pool, one row each ([`SeekRow`]), shared by every
//! instance on one database ([`Lobby`]).
//!
//! The store keeps rows and hands each out once: a seek taken for a game
//! ([`Lobby::take_seek`], [`Lobby::take_pair`]) is deleted and returned to
//! exactly one caller, however many instances try at once, and a pairing
//! takes both of its seeks or neither. Which seeks to pair, and the game
//! they make, are the server's. Each seek names the instance holding its
//! seeker's live socket, which confirms it while the socket lives
//! ([`Lobby::renew`]); a seek not confirmed for a while belongs to an
//! instance that died ([`Lobby::forget`]).
//!
//! PostgreSQL announces every change through [`crate::Storage::changes`]
//! ([`crate::Change::Seek`], [`crate::Change::Paired`]), in the statement
//! that makes it, so other instances hear of it at commit. SQLite (one
//! process) announces nothing: `changes()` is `None` there, and the server
//! tells its own sockets itself.

use super::{BoxFuture, StoreError};

/// A seek as stored: one player waiting for a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeekRow {
    /// ASCII letters and digits (1 to 64): it travels in announcements.
    pub id: String,
    /// `seek` (open to whoever accepts it), `pool` (a quick-pairing
    /// entry, paired by the server) or `challenge` (offered to one
    /// account, [`SeekRow::to_user`], who accepts or declines it).
    pub kind: String,
    /// The seeker's account (a user id); `None` for an anonymous seeker.
    pub user: Option<String>,
    /// The name to show.
    pub name: Option<String>,
    pub bot: bool,
    /// The seeker's rating in the category, when seeking.
    pub rating: Option<i64>,
    /// The rating category (`punct-ratings`' word).
    pub category: Option<String>,
    pub variant: String,
    /// The time control as JSON, as games store it; `None`: untimed.
    pub clock: Option<String>,
    pub rated: bool,
    /// `white`, `black` or `random`.
    pub side: String,
    /// The seat token the seeker will hold in the game: secret, never
    /// listed (empty in [`Lobby::seeks`] and [`Lobby::pool`]).
    pub token: String,
    /// The instance holding the seeker's live socket.
    pub instance: String,
    /// Ms since 1970.
    pub created: i64,
    /// When its instance last confirmed it (ms since 1970).
    pub seen: i64,
    /// The account a challenge is offered to (a user id); `None` for the
    /// other kinds.
    pub to_user: Option<String>,
}

/// The seeks of every instance sharing the database ([`SeekRow`]).
///
/// On PostgreSQL each change is announced to every instance (see each
/// method); on SQLite (one process) nothing is announced: the server
/// announces to its own sockets itself.
pub trait Lobby: Send + Sync {
    /// Stores a new seek and announces it (`Change::Seek { id, added:
    /// true }` on PostgreSQL). A seek id in use is an error of kind
    /// [`crate::ErrorKind::Conflict`] (nothing is written); an id that is
    /// not 1 to 64 ASCII letters and digits is refused.
    fn add_seek(&self, seek: SeekRow) -> BoxFuture<'_, Result<(), StoreError>>;
    /// Every open seek (kind `seek`; the pool's entries are read with
    /// [`Lobby::pool`]), oldest first, at most `limit`, with `token` empty
    /// (never listed).
    fn seeks(&self, limit: u32) -> BoxFuture<'_, Result<Vec<SeekRow>, StoreError>>;
    /// One seek (either kind) by id, token included (for its own
    /// instance).
    fn seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>>;
    /// The open challenges (kind `challenge`) made by account `user` or
    /// offered to it, oldest first, with `token` empty.
    fn challenges<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>>;
    /// Removes seek `id` (its seeker cancelled or left) and announces it
    /// (`Change::Seek { id, added: false }` on PostgreSQL); whether it was
    /// there.
    fn remove_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Takes seek `id` out of the lobby for a game: deleted and returned
    /// (token included) to exactly one caller however many try at once;
    /// `None` if gone. Announced as removed on PostgreSQL.
    fn take_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>>;
    /// Takes two seeks together for a pairing: both deleted and returned
    /// (in the order asked, tokens included), or neither (if either is
    /// gone, or `a` and `b` are the same, nothing is taken). Of two
    /// callers taking overlapping pairs at once, at most one succeeds per
    /// seek. Both announced as removed on PostgreSQL.
    fn take_pair<'a>(
        &'a self,
        a: &'a str,
        b: &'a str,
    ) -> BoxFuture<'a, Result<Option<(SeekRow, SeekRow)>, StoreError>>;
    /// The pool's entries (kind `pool`) of one game: the same variant and
    /// the same `clock` text (`None`: untimed entries), oldest first, with
    /// `token` empty, for a pairing to choose from.
    fn pool<'a>(
        &'a self,
        variant: &'a str,
        clock: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>>;
    /// Confirms `instance`'s seeks at `seen` (its sockets are alive).
    /// Announces nothing.
    fn renew<'a>(&'a self, instance: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Removes the seeks not confirmed since `before` (`seen < before`:
    /// their instance died) and announces each as removed on PostgreSQL;
    /// their ids.
    fn forget(&self, before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Tells every instance that seek `seek` became game `game`
    /// (`Change::Paired { seek, game }` on PostgreSQL), so the instance
    /// holding that seeker's socket sends them to it. Does nothing on
    /// SQLite. Both ids must be 1 to 64 ASCII letters and digits.
    fn announce_paired<'a>(
        &'a self,
        seek: &'a str,
        game: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Tells every instance that challenge `seek` was declined
    /// (`Change::Declined { seek }` on PostgreSQL), so the instance
    /// holding the challenger's socket tells them. Does nothing on SQLite.
    fn announce_declined<'a>(&'a self, seek: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
}

/// The columns of `seeks` as both backends read them, in [`SeekRow`]'s
/// order (`seek_at` in each backend).
pub(crate) const SEEK_COLUMNS: &str = "id, kind, user_id, name, bot, rating, category, variant, \
                                       clock, rated, side, token, instance, created, seen, to_user";

/// [`SEEK_COLUMNS`] as lists read them: the token empty.
pub(crate) const LISTED_SEEK_COLUMNS: &str =
    "id, kind, user_id, name, bot, rating, category, variant, clock, rated, side, \
     CAST('' AS TEXT) AS token, instance, created, seen, to_user";

/// Refuses an id that could not travel in an announcement (its words are
/// separated by spaces): 1 to 64 ASCII letters and digits, as the
/// server's game ids.
pub(crate) fn check_id(what: &str, id: &str) -> Result<(), StoreError> {
    if !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(())
    } else {
        Err(StoreError::failed(format!(
            "lobby: the {what} id {id:?} is not 1 to 64 ASCII letters and digits"
        )))
    }
}

/// Two taken seeks in the order asked, from the rows a take returned (in
/// any order); `None` unless both are there.
pub(crate) fn in_pair_order(
    a: &str,
    b: &str,
    mut rows: Vec<SeekRow>,
) -> Option<(SeekRow, SeekRow)> {
    if rows.len() != 2 || a == b {
        return None;
    }
    if rows[0].id != a {
        rows.swap(0, 1);
    }
    let second = rows.pop()?;
    let first = rows.pop()?;
    (first.id == a && second.id == b).then_some((first, second))
}

#[cfg(test)]
mod tests;
