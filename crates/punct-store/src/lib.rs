//! Where games are kept: one interface, [`Storage`], and two backends
//! behind it — an embedded SQLite file (`sqlite.rs`, the default: nothing
//! to install) and a PostgreSQL database (`postgres.rs`) that several
//! `punct serve` instances share.
//!
//! Both keep one row per game and make the same two promises: a new game
//! never replaces a stored one, and a change lands only on the version it
//! was made from (so two writers can never both play the same ply). Both
//! keep the accounts and ratings too ([`AccountStore`], `accounts.rs`)
//! and the lobby's seeks ([`Lobby`], `lobby.rs`).

pub mod accounts;
mod error;
mod game;
pub mod jobs;
pub mod lobby;
pub mod notes;
pub mod postgres;
pub mod presence;
pub mod sqlite;

pub use accounts::{
    AccountError, AccountStore, ApplyError, BlockRow, BotUpgrade, CeremonyRow, ConductRow,
    HistoryPoint, PasskeyRemoval, PasskeyRow, RatedResult, RatedSide, RatingRow, SessionRow,
    StatLine, TokenRow, UserResult, UserRow,
};
pub use error::{ErrorKind, StoreError};
pub use game::{End, EndReason, GameRow, Mode};
pub use jobs::{job_of, JobKind, JobQueue, Lease};
pub use lobby::{Lobby, SeekRow};
pub use notes::{NoteRow, Notes, NOTE_KINDS};
pub use presence::{PresenceBoard, PresenceRow};

pub use sqlite::{SyncMode, SCHEMA_VERSION};

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed future, so [`Storage`] can be used as `dyn Storage`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why a write did not land.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// An insert found a game with that id already: nothing was written.
    Duplicate,
    /// An update found the game at another version than expected (it
    /// changed meanwhile): nothing was written.
    Stale,
    /// The database failed.
    Failed(StoreError),
}

/// The database failed the write.
impl From<StoreError> for SaveError {
    fn from(e: StoreError) -> SaveError {
        SaveError::Failed(e)
    }
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Duplicate => write!(f, "a game with this id exists already"),
            SaveError::Stale => write!(f, "the game changed meanwhile"),
            SaveError::Failed(e) => write!(f, "{e}"),
        }
    }
}

/// The columns of `games`, in the order both backends read and write them
/// (`GameRow`'s fields).
pub(crate) const COLUMNS: &str = "id, variant, mode, ai_level, ai_side, white_token, black_token, \
                                  start, moves, result, reason, draw_offer, takeback, created, \
                                  updated, version, status, plies, invite, imported, tags, \
                                  white_name, black_name, clock, white_ms, black_ms, \
                                  clock_since, assisted, rematch_offer, rematch, review, \
                                  white_user, black_user, rated, chat";

/// [`COLUMNS`] as a list reads them: what a list shows, without the
/// columns that can be long (the moves, an imported record's tags, the
/// review, the chat) or secret (the seats' tokens), which come back empty.
pub(crate) static LIST_COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    COLUMNS
        .split(", ")
        .map(|c| match c {
            "moves" => "CAST('' AS TEXT) AS moves".to_string(),
            "white_token" | "black_token" | "tags" | "review" | "chat" => {
                format!("CAST(NULL AS TEXT) AS {c}")
            }
            c => c.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
});

/// `variant = P2, mode = P3, …`: every column but the id, set from the
/// parameter `place(n)` in [`COLUMNS`] order (the id is parameter 1).
pub(crate) fn assignments(place: impl Fn(usize) -> String) -> String {
    COLUMNS
        .split(", ")
        .enumerate()
        .skip(1)
        .map(|(i, c)| format!("{c} = {}", place(i + 1)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which games a list shows (`GET /api/games`).
#[derive(Debug, Default)]
pub struct ListFilter {
    /// Only games that are over (`true`) or go on (`false`).
    pub over: Option<bool>,
    /// Only these games (a browser's own), in any order.
    pub ids: Option<Vec<String>>,
    /// Only online games between people that are being played: both
    /// seats taken and at least one move made.
    pub watch: bool,
    /// Leave out games without a move last changed before this time (ms):
    /// games begun and left.
    pub empty_before: Option<i64>,
    /// Only games where this user (an id) has a seat.
    pub user: Option<String>,
    /// With `user`: only games where the user played this side (ignored
    /// without `user`).
    pub side: Option<punct_core::Side>,
    /// Only rated (`true`) or unrated (`false`) games.
    pub rated: Option<bool>,
    /// Only games of this variant.
    pub variant: Option<String>,
    /// With `user`: only games that ended so for the user, from the
    /// stored result (ignored without `user`).
    pub result: Option<UserResult>,
    /// Games to skip (paging), after the ordering (most recently changed
    /// first, then by id).
    pub offset: u32,
    pub limit: u32,
}

impl ListFilter {
    /// The conditions that take no parameter (the status, watching), in
    /// SQL that both backends read alike.
    pub(crate) fn fixed_conditions(&self) -> Vec<&'static str> {
        let mut conditions = Vec::new();
        match self.over {
            Some(false) => conditions.push("status = 'ongoing'"),
            Some(true) => conditions.push("status <> 'ongoing'"),
            None => {}
        }
        if self.watch {
            conditions
                .push("status = 'ongoing' AND mode = 'online' AND invite IS NULL AND plies > 0");
        }
        conditions
    }

    /// The conditions on [`ListFilter::user`] (with its side and result),
    /// the user's id being the parameter written `place`; none without a
    /// user.
    pub(crate) fn user_conditions(&self, place: &str) -> Vec<String> {
        use punct_core::{Outcome, Side};
        if self.user.is_none() {
            return Vec::new();
        }
        let seat = |side: Side| match side {
            Side::White => format!("white_user = {place}"),
            Side::Black => format!("black_user = {place}"),
        };
        let mut conditions = vec![match self.side {
            Some(side) => seat(side),
            None => format!("({} OR {})", seat(Side::White), seat(Side::Black)),
        }];
        // The stored result of an ended game (`status`), from the user's
        // side: with the user in `side`'s seat, the game ended `status`.
        let ended = |side: Side, status: Outcome| {
            format!("({} AND status = '{}')", seat(side), status.token())
        };
        match self.result {
            Some(UserResult::Won) => conditions.push(format!(
                "({} OR {})",
                ended(Side::White, Outcome::WhiteWins),
                ended(Side::Black, Outcome::BlackWins)
            )),
            Some(UserResult::Lost) => conditions.push(format!(
                "({} OR {})",
                ended(Side::White, Outcome::BlackWins),
                ended(Side::Black, Outcome::WhiteWins)
            )),
            Some(UserResult::Drawn) => {
                conditions.push(format!("status = '{}'", Outcome::Draw.token()))
            }
            None => {}
        }
        conditions
    }
}

/// What the server needs of a games database.
pub trait Storage: Send + Sync {
    /// `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// Where the games are, for messages (never a password).
    fn describe(&self) -> String;
    /// Stores a new game; returns once it is committed. Never replaces a
    /// game: an id in use is [`SaveError::Duplicate`].
    fn insert(&self, row: GameRow) -> BoxFuture<'_, Result<(), SaveError>>;
    /// Stores a changed game that was at `expected_version` when it was
    /// read; returns once it is committed. If the stored game is at
    /// another version (or is not there), nothing is written:
    /// [`SaveError::Stale`].
    fn update(&self, row: GameRow, expected_version: i64) -> BoxFuture<'_, Result<(), SaveError>>;
    /// [`Storage::update`] and [`Storage::insert`] of a new game the
    /// change links to (a rematch), in one transaction: both are
    /// committed or neither, so whoever races to start the same rematch
    /// finds the game changed ([`SaveError::Stale`]) and no second new
    /// game exists.
    fn update_and_insert(
        &self,
        row: GameRow,
        expected_version: i64,
        new: GameRow,
    ) -> BoxFuture<'_, Result<(), SaveError>>;
    /// The game `id`, if stored.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<GameRow>, StoreError>>;
    /// The games `filter` picks, most recently changed first, as lists
    /// show them: without their moves, tokens, tags or review (empty).
    fn list<'a>(
        &'a self,
        filter: &'a ListFilter,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>>;
    /// The ongoing games whose running clock may run out by `by` (ms since
    /// 1970): every such game, and perhaps a few more.
    fn clocks_due(&self, by: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Up to `limit` games in id order (bytewise), after `after`: every
    /// game, page by page, for copying a database.
    fn page<'a>(
        &'a self,
        after: Option<&'a str>,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>>;
    /// A real write, committed as a game's change is, saying that
    /// `instance` lives: the readiness check makes it, so an instance that
    /// cannot save (a full disk, a read-only or locked file, a database
    /// that refuses writes) says it is not ready.
    fn heartbeat<'a>(&'a self, instance: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Changes written by anyone sharing the database (other instances
    /// included), as they commit; `None` where this process is the only
    /// writer (SQLite).
    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        None
    }
    /// The jobs instances sharing the database take from each other
    /// (`jobs.rs`); `None` where this process is the only one (SQLite),
    /// which does its work itself.
    fn jobs(&self) -> Option<&dyn JobQueue> {
        None
    }
    /// Who is connected to each game on every instance sharing the
    /// database (presence.rs); `None` where this process serves every
    /// socket (SQLite).
    fn presence(&self) -> Option<&dyn PresenceBoard> {
        None
    }
    /// The accounts and ratings (`accounts.rs`), in the same database.
    fn accounts(&self) -> &dyn AccountStore;
    /// The lobby's open seeks and quick-pairing pool (`lobby.rs`), in the
    /// same database, shared by every instance on it.
    fn lobby(&self) -> &dyn Lobby;
    /// The accounts' notifications (`notes.rs`), in the same database.
    fn notes(&self) -> &dyn Notes;
}

/// A change announced by the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Game `id` was stored at `version`.
    Game { id: String, version: i64 },
    /// `instance` changed its presence row of game `id`.
    Presence { id: String, instance: String },
    /// Seek `id` came into the lobby (`added`), or left it (removed,
    /// taken for a game, or forgotten with its instance).
    Seek { id: String, added: bool },
    /// Seek `seek` became game `game`: the instance holding that seeker's
    /// socket sends them to it.
    Paired { seek: String, game: String },
    /// Challenge `seek` was declined by the one it was offered to: the
    /// instance holding the challenger's socket tells them.
    Declined { seek: String },
    /// Account `user` has a new notification `id` (`Some`), or marked
    /// some read (`None`): the instances holding its sockets tell them.
    Note { user: String, id: Option<i64> },
    /// Announcements may have been missed (the connection that listens
    /// was lost and is back): every game held should be read again.
    Missed,
}

/// Which database: a URL as given to `--database` (or
/// `PUNCT_DATABASE_URL`), or the data directory's SQLite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://…` or `postgresql://…`).
    Postgres(String),
}

/// The SQLite file's name inside a data directory.
pub const SQLITE_FILE: &str = "games.sqlite3";

impl Location {
    /// Reads `postgres://…`, `postgresql://…` or `sqlite:PATH` (a file, or
    /// a directory holding `games.sqlite3`).
    pub fn parse(text: &str) -> Result<Location, String> {
        let text = text.trim();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            // Checked now, so a typo is named before anything starts.
            postgres::parse_url(text)?;
            return Ok(Location::Postgres(text.to_string()));
        }
        if let Some(path) = text.strip_prefix("sqlite:") {
            // `sqlite://PATH` is a common way to write it, too.
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err("`sqlite:` needs a path: sqlite:/var/lib/punct/games.sqlite3".into());
            }
            let path = PathBuf::from(path);
            return Ok(Location::Sqlite(if path.is_dir() {
                path.join(SQLITE_FILE)
            } else {
                path
            }));
        }
        Err(format!(
            "`{text}` is not a database: write postgres://USER@HOST:PORT/NAME or sqlite:PATH"
        ))
    }

    /// The data directory's SQLite file.
    pub fn in_data_dir(dir: &std::path::Path) -> Location {
        Location::Sqlite(dir.join(SQLITE_FILE))
    }

    /// For messages: the file, or the PostgreSQL database without its
    /// password.
    pub fn describe(&self) -> String {
        match self {
            Location::Sqlite(path) => format!("database {}", path.display()),
            Location::Postgres(url) => postgres::describe_url(url),
        }
    }
}

/// Opens the database for `punct serve`. An SQLite file is created or
/// migrated as needed (one process owns it); a PostgreSQL database must
/// already be at this punct's schema (`punct db migrate`), because several
/// instances share it and none should change it behind the others' backs.
pub async fn open(location: &Location, sync: SyncMode) -> Result<Arc<dyn Storage>, StoreError> {
    Ok(match location {
        Location::Sqlite(path) => {
            let store = sqlite::Store::open_file(path, sync)?;
            if let Some(from) = store.migrated_from() {
                // Operators should know their file changed (older punct
                // releases cannot open it any more).
                tracing::info!(
                    "migrated database {} from schema version {from} to \
                     {SCHEMA_VERSION}",
                    path.display()
                );
            }
            Arc::new(store)
        }
        Location::Postgres(url) => Arc::new(postgres::Store::open(url).await?),
    })
}

/// Brings the database's schema to this punct's version (`punct db
/// migrate`); says what it did.
pub async fn migrate(location: &Location) -> Result<String, StoreError> {
    match location {
        Location::Sqlite(path) => {
            let existed = path.exists();
            let store = sqlite::Store::open_file(path, SyncMode::Full)?;
            Ok(match store.migrated_from() {
                _ if !existed => format!(
                    "{}: made a new database at schema version {SCHEMA_VERSION} (there was none)",
                    location.describe()
                ),
                Some(from) => format!(
                    "{}: migrated from schema version {from} to {SCHEMA_VERSION}",
                    location.describe()
                ),
                None => format!(
                    "{}: at schema version {SCHEMA_VERSION}, nothing to do",
                    location.describe()
                ),
            })
        }
        Location::Postgres(url) => postgres::migrate(url).await,
    }
}

/// How a copy went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    /// Games written to the target.
    pub copied: u64,
    /// Games the target had already, identical.
    pub present: u64,
}

/// Copies every game of `from` into `to`, column for column: the games
/// only, not the accounts and ratings (users, credentials, ratings and
/// their history stay behind; the games keep their seats' user ids). A game the
/// target has already is skipped if identical (so a copy that stopped
/// half-way can be run again) and refused if it differs: nothing is
/// overwritten. `progress` hears the running count after each page.
pub async fn copy(
    from: &dyn Storage,
    to: &dyn Storage,
    mut progress: impl FnMut(&Copied),
) -> Result<Copied, StoreError> {
    const PAGE: u32 = 500;
    let mut done = Copied::default();
    let mut after: Option<String> = None;
    loop {
        let rows = from.page(after.as_deref(), PAGE).await?;
        let Some(last) = rows.last() else {
            return Ok(done);
        };
        after = Some(last.id.clone());
        for row in rows {
            match to.insert(row.clone()).await {
                Ok(()) => done.copied += 1,
                Err(SaveError::Duplicate) => {
                    let there = to.load(&row.id).await?;
                    if there.as_ref() == Some(&row) {
                        done.present += 1;
                    } else {
                        return Err(StoreError::new(
                            ErrorKind::Conflict,
                            format!(
                                "game {} is in both databases and differs: nothing of it was \
                                 overwritten (copied {} games before it); copy into an empty \
                                 database",
                                row.id, done.copied
                            ),
                        ));
                    }
                }
                Err(SaveError::Failed(e)) => return Err(e.context(format!("game {}", row.id))),
                Err(SaveError::Stale) => {
                    return Err(StoreError::failed(format!(
                        "game {}: {}",
                        row.id,
                        SaveError::Stale
                    )))
                }
            }
        }
        progress(&done);
    }
}

/// Runs `work` on a small runtime of its own, so the command line's
/// `punct db` needs no async code.
fn block_on<T>(
    work: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| StoreError::failed(format!("cannot start a runtime: {e}")))?
        .block_on(work)
}

/// Brings the database at `location` to this punct's
/// schema; says what it did.
pub fn migrate_blocking(location: &Location) -> Result<String, StoreError> {
    block_on(migrate(location))
}

/// Every game of `from` into `to` (migrated first), none
/// overwritten; `progress` hears the counts after each page.
pub fn copy_blocking(
    from: &Location,
    to: &Location,
    progress: impl FnMut(&Copied),
) -> Result<Copied, StoreError> {
    if from == to {
        return Err(StoreError::unusable(
            "--from and --to are the same database",
        ));
    }
    block_on(async {
        let source = open(from, SyncMode::Full)
            .await
            .map_err(|e| e.context("--from"))?;
        migrate(to).await.map_err(|e| e.context("--to"))?;
        let target = open(to, SyncMode::Full)
            .await
            .map_err(|e| e.context("--to"))?;
        copy(source.as_ref(), target.as_ref(), progress).await
    })
}
