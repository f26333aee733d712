//! Who is connected to each game, shared by the instances on one database.
//! Each instance counts its own live sockets (the server's presence.rs);
//! where several share a database, each also keeps one row per game it
//! serves sockets for: its sockets per side, its spectators, when a side's
//! last socket there closed, and when the row was last confirmed. Rows
//! not confirmed for a while belong to an instance that died: their
//! sockets are gone. Abandonment, "opponent away" and spectator counts are
//! then decided from every instance's rows, not one instance's view.

use super::{BoxFuture, StoreError};

/// One instance's sockets on one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PresenceRow {
    /// The instance (as in the job table).
    pub instance: String,
    /// Sockets holding each side's seat (white, black).
    pub sockets: [u32; 2],
    pub spectators: u32,
    /// When each side's last socket on this instance closed (ms since
    /// 1970); kept across writes as the later of the two.
    pub left: [Option<i64>; 2],
    /// When the instance last confirmed the row (ms since 1970).
    pub seen: i64,
}

/// The shared rows ([`PresenceRow`]); `None` from
/// [`crate::Storage::presence`] where one process serves every socket
/// (SQLite).
pub trait PresenceBoard: Send + Sync {
    /// Writes `row` as game `game`'s row of `row.instance` and tells the
    /// other instances (a [`crate::Change::Presence`]).
    fn publish<'a>(
        &'a self,
        game: &'a str,
        row: &'a PresenceRow,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Every instance's rows of these games, with each row's game.
    fn read<'a>(
        &'a self,
        games: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<(String, PresenceRow)>, StoreError>>;
    /// Confirms `instance`'s rows of these games at `seen`.
    fn renew<'a>(
        &'a self,
        instance: &'a str,
        games: &'a [String],
        seen: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Removes rows not confirmed since `before`: their sockets closed long
    /// ago. Returns how many.
    fn forget(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>>;
}
