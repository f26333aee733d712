//! Accounts and ratings as stored: users, their credentials (sessions,
//! passkeys, API tokens), the passkey ceremonies between their start and
//! finish, a rating per user and category with its history per rated
//! game, and what a user's games add up to ([`AccountStore`]).
//!
//! The store keeps rows; it knows nothing of passwords or hashing (a
//! password is the PHC string the accounts logic made, a session or token
//! is found by the hash of its secret) nor of how ratings are computed
//! (a rated game's result comes in computed, [`RatedResult`]). What it
//! does promise: a name key is never given twice (not even after its
//! user was deleted), a deleted user has no credentials left, and a rated
//! game's result lands once, on the ratings it was computed from
//! ([`AccountStore::apply_rating`]).

use super::{BoxFuture, StoreError};
use std::fmt;

/// A user as stored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UserRow {
    pub id: String,
    /// The name as the user wrote it.
    pub name: String,
    /// The name as names are compared (the accounts logic makes it, for
    /// example folded to lower case): unique, and taken for good.
    pub name_key: String,
    /// Ms since 1970.
    pub created: i64,
    pub seen: i64,
    /// The password's hash as a PHC string; `None`: no password (passkeys
    /// only, or deleted).
    pub password: Option<String>,
    pub bot: bool,
    pub deleted: bool,
}

/// A signed-in browser, found by the hash of its cookie's secret.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionRow {
    pub hash: String,
    /// The user's id.
    pub user: String,
    pub created: i64,
    pub seen: i64,
    /// Valid while `now < expires` (ms since 1970).
    pub expires: i64,
    /// The browser's user agent, for the list of sessions.
    pub agent: String,
}

/// A passkey (WebAuthn credential) of a user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PasskeyRow {
    /// The credential's id.
    pub id: String,
    pub user: String,
    /// The name the user gave it.
    pub name: String,
    /// The credential as JSON (the accounts logic's).
    pub data: String,
    pub created: i64,
    /// When it last signed in.
    pub used: Option<i64>,
}

/// What removing a passkey did ([`AccountStore::remove_passkey`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasskeyRemoval {
    Removed,
    /// The user has no passkey of this id.
    NotFound,
    /// Kept: it is the user's last way to sign in (no password, no
    /// other passkey).
    Last,
}

/// What making an account a bot did ([`AccountStore::make_bot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotUpgrade {
    /// The account is a bot now.
    Upgraded,
    /// It was one already: nothing changed.
    AlreadyBot,
    /// Kept a person: a game has the account on a seat.
    HasGames,
    /// No such account (or a deleted one).
    NotFound,
}

/// A WebAuthn ceremony between its start and its finish: kept in the
/// database, not in one instance's memory, so that the finish may reach
/// any instance. Taken once ([`AccountStore::take_ceremony`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CeremonyRow {
    /// A random nonce: what the page sends back with the finish.
    pub id: String,
    /// What it is for (the accounts logic's word: sign-up, sign-in …).
    pub kind: String,
    /// The signed-in user who started it, if any (adding a passkey).
    pub user: Option<String>,
    /// Its state as JSON (the accounts logic's).
    pub state: String,
    /// Taken only while `now < expires` (ms since 1970).
    pub expires: i64,
}

/// An API token of a user (bots), found by the hash of its secret.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenRow {
    pub hash: String,
    pub user: String,
    pub label: String,
    pub created: i64,
    pub used: Option<i64>,
}

/// One user blocking another (`user` blocks `other`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockRow {
    pub user: String,
    pub other: String,
    /// Ms since 1970.
    pub created: i64,
}

/// A game a user left in a way the playban counts (the server's
/// `playban.rs`): a loss by abandonment, a flag fallen while away, an
/// abort. One per game and user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConductRow {
    pub user: String,
    pub game: String,
    /// `abandonment`, `time_away` or `abort`.
    pub kind: String,
    /// When the game ended (ms since 1970).
    pub at: i64,
}

/// A user's rating in one category (Glicko-2's three numbers).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingRow {
    pub user: String,
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted into it.
    pub games: i64,
    /// When its last rated game was applied (ms since 1970).
    pub updated: i64,
}

/// One side's part of a rated game's result: its new rating, the `games`
/// count its rating row had when the new rating was computed (0 and no row
/// yet for a first game), its score (1, 0.5, 0), the opponent's user id,
/// and the change shown.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSide {
    /// The rating after the game. Stored with `games` set to
    /// `expected_games + 1` whatever `new.games` holds.
    pub new: RatingRow,
    pub expected_games: i64,
    pub score: f64,
    pub opponent: String,
    pub change: f64,
}

/// A rated game's result, computed, to apply once.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedResult {
    pub game: String,
    /// When it was rated (ms since 1970): the history's time.
    pub at: i64,
    pub sides: [RatedSide; 2],
}

/// A rating after one rated game (a user's history, a game's end screen).
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    pub game: String,
    pub user: String,
    pub category: String,
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
    pub change: f64,
    pub score: f64,
    pub opponent: String,
}

/// A user's ended games in one variant on one side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatLine {
    pub variant: String,
    /// `white` or `black`.
    pub side: String,
    pub won: i64,
    pub lost: i64,
    pub drawn: i64,
}

/// A game's result from one user's side ([`crate::ListFilter::result`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserResult {
    Won,
    Lost,
    Drawn,
}

/// Why an account's write did not land.
#[derive(Debug)]
pub enum AccountError {
    /// The name key (or the id) is in use: nothing was written.
    Taken,
    /// The database failed.
    Failed(StoreError),
}

impl From<StoreError> for AccountError {
    fn from(e: StoreError) -> AccountError {
        AccountError::Failed(e)
    }
}

impl fmt::Display for AccountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccountError::Taken => write!(f, "the name or id is taken"),
            AccountError::Failed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AccountError {}

/// Why a rated game's result did not land.
#[derive(Debug)]
pub enum ApplyError {
    /// The game's result was applied already (by this or another
    /// instance): nothing was written.
    AlreadyApplied,
    /// A side's rating changed since the result was computed (another
    /// game of that user was applied meanwhile): nothing was written; read
    /// the ratings again and compute anew.
    Stale,
    /// The database failed.
    Failed(StoreError),
}

impl From<StoreError> for ApplyError {
    fn from(e: StoreError) -> ApplyError {
        ApplyError::Failed(e)
    }
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::AlreadyApplied => write!(f, "the game's rating was applied already"),
            ApplyError::Stale => write!(f, "a rating changed meanwhile"),
            ApplyError::Failed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ApplyError {}

/// The two sides of `result` in the order they are written (by user, then
/// category), so that two writers taking the same rows take them in the
/// same order; an error if both sides are one rating row.
pub(crate) fn sides_in_order(result: &RatedResult) -> Result<[&RatedSide; 2], StoreError> {
    let [a, b] = &result.sides;
    let key = |s: &RatedSide| (s.new.user.clone(), s.new.category.clone());
    match key(a).cmp(&key(b)) {
        std::cmp::Ordering::Less => Ok([a, b]),
        std::cmp::Ordering::Greater => Ok([b, a]),
        std::cmp::Ordering::Equal => Err(StoreError::failed(format!(
            "game {}: both sides of a rated game are user {}",
            result.game, a.new.user
        ))),
    }
}

/// `rows` in the order their ids come in `ids` (the first time each does).
pub(crate) fn in_order_of(ids: &[String], mut rows: Vec<UserRow>) -> Vec<UserRow> {
    rows.sort_by_key(|u| ids.iter().position(|id| *id == u.id));
    rows
}

#[cfg(test)]
pub(crate) mod tests;

/// Accounts and ratings in the database (`Storage::accounts`). Times are
/// ms since 1970.
pub trait AccountStore: Send + Sync {
    /// Stores a new user; `Taken` if its name_key (or id) is in use.
    fn create_user(&self, user: UserRow) -> BoxFuture<'_, Result<(), AccountError>>;
    /// Stores a new user and its first passkey in one transaction (an
    /// account made with a passkey never exists without it); `Taken` if
    /// the name_key, the id or the credential id is in use.
    fn create_user_with_passkey(
        &self,
        user: UserRow,
        passkey: PasskeyRow,
    ) -> BoxFuture<'_, Result<(), AccountError>>;
    /// The user `id` (deleted ones too).
    fn user<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>>;
    /// The user whose name key is `name_key` (deleted ones too: their
    /// names stay taken).
    fn user_by_key<'a>(
        &'a self,
        name_key: &'a str,
    ) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>>;
    /// The users of these ids that are stored (deleted ones too), in the
    /// order of `ids`.
    fn users<'a>(&'a self, ids: &'a [String]) -> BoxFuture<'a, Result<Vec<UserRow>, StoreError>>;
    /// Sets (or with `None` clears) the user's password.
    fn set_password<'a>(
        &'a self,
        user: &'a str,
        phc: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    fn set_seen<'a>(&'a self, user: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Makes the user a bot (`bot` set for good) if no game has it on a
    /// seat: checked and set in one statement, so its games and its
    /// ratings were all played as what it is.
    fn make_bot<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<BotUpgrade, StoreError>>;
    /// Marks the user deleted in one transaction: password cleared, every
    /// session, passkey and API token removed; the row, its name_key and
    /// its games and ratings history stay.
    fn delete_user<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    fn create_session(&self, session: SessionRow) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The session with this hash and its user, if stored and not expired
    /// at `now` (`now < expires`) and the user is not deleted.
    fn session<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<(SessionRow, UserRow)>, StoreError>>;
    /// Sets the session's `seen` and `expires` (a session in use lasts).
    fn touch_session<'a>(
        &'a self,
        hash: &'a str,
        seen: i64,
        expires: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Every stored session of the user (expired ones until
    /// [`AccountStore::expire_sessions`] removes them), last seen first.
    fn sessions<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SessionRow>, StoreError>>;
    /// Removes the session; false if there was none.
    fn delete_session<'a>(&'a self, hash: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Removes every session of the user but `except`; returns how many.
    fn delete_sessions<'a>(
        &'a self,
        user: &'a str,
        except: Option<&'a str>,
    ) -> BoxFuture<'a, Result<u64, StoreError>>;
    /// Removes sessions expired by `now` (`expires <= now`: those
    /// [`AccountStore::session`] no longer returns); returns how many.
    fn expire_sessions(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>>;
    /// Stores a new passkey; `Taken` if its credential id is in use.
    fn add_passkey(&self, passkey: PasskeyRow) -> BoxFuture<'_, Result<(), AccountError>>;
    /// The user's passkeys, oldest first.
    fn passkeys<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<PasskeyRow>, StoreError>>;
    fn passkey<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<PasskeyRow>, StoreError>>;
    /// Stores a passkey's new data (its signature counter) after a
    /// sign-in at `used`.
    fn update_passkey<'a>(
        &'a self,
        id: &'a str,
        data: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Removes the user's passkey `id`, unless it is the user's last way
    /// to sign in (no password and no other passkey): decided in one
    /// step, so two removals at once cannot both pass the check.
    fn remove_passkey<'a>(
        &'a self,
        user: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<PasskeyRemoval, StoreError>>;
    /// Stores a ceremony begun (its id a fresh nonce).
    fn put_ceremony(&self, ceremony: CeremonyRow) -> BoxFuture<'_, Result<(), StoreError>>;
    /// Takes the ceremony `id` of this `kind` if it is stored and not
    /// expired at `now`: it is removed, so a second take of it (a
    /// replayed finish, on any instance) finds nothing. Two takes at once:
    /// one gets it.
    fn take_ceremony<'a>(
        &'a self,
        id: &'a str,
        kind: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<CeremonyRow>, StoreError>>;
    /// Removes ceremonies expired by `now` (`expires <= now`, those
    /// [`AccountStore::take_ceremony`] no longer takes); returns how many.
    fn expire_ceremonies(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>>;
    fn add_token(&self, token: TokenRow) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The token with this hash and its (not deleted) user.
    fn token<'a>(
        &'a self,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<Option<(TokenRow, UserRow)>, StoreError>>;
    /// Sets when the token was last used.
    fn touch_token<'a>(&'a self, hash: &'a str, used: i64)
        -> BoxFuture<'a, Result<(), StoreError>>;
    /// The user's API tokens, oldest first.
    fn tokens<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<TokenRow>, StoreError>>;
    /// Removes the user's token `hash`; false if the user has none such.
    fn remove_token<'a>(
        &'a self,
        user: &'a str,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// The user's ratings, by category.
    fn ratings<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>>;
    /// Applies a rated game's result exactly once, in one transaction: if
    /// rating_history has this game already → AlreadyApplied (nothing
    /// written); if either side's ratings row has another `games` count
    /// than `expected_games` (absent row = 0) → Stale (nothing written:
    /// the caller re-reads and recomputes); else upserts both ratings rows
    /// (`expected_games + 1` written as the new row's games) and inserts
    /// both history rows. Two instances applying the same game at once:
    /// one Ok, the other AlreadyApplied or Stale — never both.
    fn apply_rating(&self, result: RatedResult) -> BoxFuture<'_, Result<(), ApplyError>>;
    /// The user's ratings in `category` after each rated game, oldest
    /// first.
    fn rating_history<'a>(
        &'a self,
        user: &'a str,
        category: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>>;
    /// Both history points of a game (for the end screen's +12 / −12),
    /// by user id; none if it was not rated (yet).
    fn game_rating<'a>(
        &'a self,
        game: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>>;
    /// Users with a rating in `category` whose last rated game is at or
    /// after `active_since`, deviation ≤ max_deviation, not deleted, best
    /// first (then by id), at most `limit`.
    fn leaderboard<'a>(
        &'a self,
        category: &'a str,
        active_since: i64,
        max_deviation: f64,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<(UserRow, RatingRow)>, StoreError>>;
    /// Games won/lost/drawn per variant and side (ended games only, from
    /// the stored result: the `status` column), by variant, white first.
    fn user_stats<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<StatLine>, StoreError>>;
    /// `user` blocks `other` from `at` (ms since 1970): no challenges or
    /// pairings between them. Blocking again changes nothing.
    fn block<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
        at: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// `user` no longer blocks `other`; whether it did.
    fn unblock<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Every block `user` makes or is the subject of, oldest first.
    fn blocks<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<BlockRow>, StoreError>>;
    /// Notes a game its user left badly (the playban's count); noting the
    /// same game and user again changes nothing, so every instance that
    /// sees the end may note it.
    fn add_conduct(&self, row: ConductRow) -> BoxFuture<'_, Result<(), StoreError>>;
    /// `user`'s notes from `since` (ms since 1970) on, oldest first.
    fn conduct<'a>(
        &'a self,
        user: &'a str,
        since: i64,
    ) -> BoxFuture<'a, Result<Vec<ConductRow>, StoreError>>;
}
