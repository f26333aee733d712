//! In-site notifications as stored (SQLite schema 9, PostgreSQL V11): one
//! row per event an account is told of ([`NoteRow`]), kept until read,
//! the read ones pruned after a while ([`Notes`]).
//!
//! An event has a key: the account, the kind, the game or challenge it is
//! about and the game's ply. Every instance that sees an event may add
//! its note; the key keeps it once, and only the one add that stored it
//! gets its id back (to tell the account's sockets). PostgreSQL announces
//! each note stored (`note USER ID`) and each marking read (`note USER
//! read`) on the games' channel, read as [`crate::Change::Note`], so the
//! instance holding the account's sockets hears it; SQLite announces
//! nothing (one process tells its own sockets).

use super::{BoxFuture, StoreError};

/// The kinds of notification, as stored.
pub const NOTE_KINDS: [&str; 4] = ["challenge", "your_turn", "game_over", "time_low"];

/// A notification as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoteRow {
    /// Given by the store (0 in a row to add).
    pub id: i64,
    /// The account told (a user id).
    pub user: String,
    /// One of [`NOTE_KINDS`].
    pub kind: String,
    /// The game's id, or the challenge's (a seek's) for `challenge`.
    pub subject: String,
    /// The game's ply the event is at (0 for a challenge): one note per
    /// event, so one `your_turn` per turn.
    pub ply: i64,
    /// The other player's name, if any.
    pub other: Option<String>,
    /// Ms since 1970.
    pub created: i64,
    /// When it was read (ms since 1970); `None`: unread.
    pub read: Option<i64>,
}

/// The notifications of every account (see the module's comment).
pub trait Notes: Send + Sync {
    /// Stores `note` unless a note of the same event (user, kind, subject,
    /// ply) is there: its new id, or `None` when it was there already
    /// (added by another instance, or earlier). Announced on PostgreSQL.
    fn add_note(&self, note: NoteRow) -> BoxFuture<'_, Result<Option<i64>, StoreError>>;
    /// `user`'s notes, unread first, newest first within each, from
    /// `offset`, at most `limit`.
    fn notes<'a>(
        &'a self,
        user: &'a str,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<NoteRow>, StoreError>>;
    /// `user`'s note `id` (none: not there, or another account's).
    fn note<'a>(
        &'a self,
        user: &'a str,
        id: i64,
    ) -> BoxFuture<'a, Result<Option<NoteRow>, StoreError>>;
    /// How many of `user`'s notes are unread.
    fn unread<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<u64, StoreError>>;
    /// Marks `user`'s notes `ids` (all of them: `None`) read at `at`; how
    /// many were unread. Another account's ids are left alone. Announced
    /// on PostgreSQL when any changed.
    fn mark_read<'a>(
        &'a self,
        user: &'a str,
        ids: Option<&'a [i64]>,
        at: i64,
    ) -> BoxFuture<'a, Result<u64, StoreError>>;
    /// Removes the notes read before `before`; how many.
    fn prune_notes(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>>;
}

/// The columns of `notifications` in [`NoteRow`]'s order.
pub(crate) const NOTE_COLUMNS: &str = "id, user_id, kind, subject, ply, other, created, read";

/// The order of a user's list: unread first, newest first.
pub(crate) const NOTE_ORDER: &str = "ORDER BY read IS NOT NULL, created DESC, id DESC";

/// Refuses a note no punct makes: an unknown kind, or a user or subject
/// that could not travel in an announcement.
pub(crate) fn check_note(note: &NoteRow) -> Result<(), StoreError> {
    let word = |s: &str| {
        !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if !NOTE_KINDS.contains(&note.kind.as_str()) {
        return Err(StoreError::failed(format!(
            "notifications: {:?} is not a kind of notification",
            note.kind
        )));
    }
    if !word(&note.user) || !word(&note.subject) {
        return Err(StoreError::failed(format!(
            "notifications: the user {:?} or subject {:?} is not 1 to 64 ASCII letters, digits \
             and dashes",
            note.user, note.subject
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
