//! Games on disk: one SQLite database (WAL; `synchronous = FULL` unless the
//! operator chose `NORMAL`, see [`SyncMode`]).
//!
//! Every write goes through one writer thread that commits whatever has
//! queued up in a single transaction and only then acknowledges each
//! write: a move is on disk before anyone is told it was played, and many
//! games moving at once share one fsync (group commit).

use super::{BoxFuture, ErrorKind, GameRow, ListFilter, SaveError, StoreError, COLUMNS};
use crate::game::Words;
use accounts::AccountWrite;
use lobby::LobbyWrite;
use notes::NoteWrite;
use rusqlite::{params, Connection};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Mutex;
use tokio::sync::oneshot;

mod accounts;
mod lobby;
mod notes;

/// One version of the schema: the columns it adds to `games` (version 1:
/// all of its columns), the tables it makes beside `games` with their
/// columns, and the SQL that brings the version before it here (version
/// 1: from an empty file).
struct SchemaVersion {
    added: &'static [&'static str],
    tables: &'static [(&'static str, &'static [&'static str])],
    upgrade: &'static str,
}

/// The tables beside `games` at schema `version`, with their columns: a
/// version that lists a table again (columns added) gives its columns from
/// then on.
fn tables_at(version: u32) -> Vec<(&'static str, &'static [&'static str])> {
    let mut tables: Vec<(&'static str, &'static [&'static str])> = Vec::new();
    for &(name, columns) in VERSIONS[..version as usize].iter().flat_map(|v| v.tables) {
        match tables.iter_mut().find(|(t, _)| *t == name) {
            Some(table) => table.1 = columns,
            None => tables.push((name, columns)),
        }
    }
    tables
}

/// The columns of `games` at schema `version`, in order.
fn columns_at(version: u32) -> Vec<&'static str> {
    VERSIONS[..version as usize]
        .iter()
        .flat_map(|v| v.added.iter().copied())
        .collect()
}

/// Every schema version, oldest first: version N is `VERSIONS[N - 1]`. The
/// number lives in the database's `PRAGMA user_version`; version 1 predates
/// it and so reads 0 there. A new database is made by running every step,
/// so it is exactly what a migrated one is. A new version is one more
/// entry (and `sqlite/N.sql`, and the new `COLUMNS`); entries already
/// released never change.
const VERSIONS: &[SchemaVersion] = &[
    SchemaVersion {
        added: &[
            "id",
            "variant",
            "mode",
            "ai_level",
            "ai_side",
            "white_token",
            "black_token",
            "start",
            "moves",
            "result",
            "reason",
            "draw_offer",
            "takeback",
            "created",
            "updated",
            "version",
            "status",
            "plies",
        ],
        tables: &[],
        upgrade: include_str!("sqlite/1.sql"),
    },
    SchemaVersion {
        added: &["invite", "imported", "tags"],
        tables: &[],
        upgrade: include_str!("sqlite/2.sql"),
    },
    SchemaVersion {
        added: &[
            "white_name",
            "black_name",
            "clock",
            "white_ms",
            "black_ms",
            "clock_since",
            "assisted",
            "rematch_offer",
            "rematch",
            "review",
        ],
        tables: &[],
        upgrade: include_str!("sqlite/3.sql"),
    },
    SchemaVersion {
        added: &["white_user", "black_user", "rated"],
        tables: &[
            (
                "users",
                &[
                    "id", "name", "name_key", "created", "seen", "password", "bot", "deleted",
                ],
            ),
            (
                "sessions",
                &["hash", "user_id", "created", "seen", "expires", "agent"],
            ),
            (
                "passkeys",
                &["id", "user_id", "name", "data", "created", "used"],
            ),
            (
                "api_tokens",
                &["hash", "user_id", "label", "created", "used"],
            ),
            (
                "ratings",
                &[
                    "user_id",
                    "category",
                    "rating",
                    "deviation",
                    "volatility",
                    "games",
                    "updated",
                ],
            ),
            (
                "rating_history",
                &[
                    "game",
                    "user_id",
                    "category",
                    "at",
                    "rating",
                    "deviation",
                    "volatility",
                    "change",
                    "score",
                    "opponent",
                ],
            ),
        ],
        upgrade: include_str!("sqlite/4.sql"),
    },
    SchemaVersion {
        added: &[],
        tables: &[(
            "seeks",
            &[
                "id", "kind", "user_id", "name", "bot", "rating", "category", "variant", "clock",
                "rated", "side", "token", "instance", "created", "seen", "game",
            ],
        )],
        upgrade: include_str!("sqlite/5.sql"),
    },
    SchemaVersion {
        added: &[],
        tables: &[("ceremonies", &["id", "kind", "user_id", "state", "expires"])],
        upgrade: include_str!("sqlite/6.sql"),
    },
    SchemaVersion {
        added: &[],
        tables: &[
            (
                "seeks",
                &[
                    "id", "kind", "user_id", "name", "bot", "rating", "category", "variant",
                    "clock", "rated", "side", "token", "instance", "created", "seen", "game",
                    "to_user",
                ],
            ),
            ("blocks", &["user_id", "other_id", "created"]),
        ],
        upgrade: include_str!("sqlite/7.sql"),
    },
    SchemaVersion {
        added: &["chat"],
        tables: &[],
        upgrade: include_str!("sqlite/8.sql"),
    },
    SchemaVersion {
        added: &[],
        tables: &[("conduct", &["user_id", "game_id", "kind", "at"])],
        upgrade: include_str!("sqlite/9.sql"),
    },
    SchemaVersion {
        added: &[],
        tables: &[(
            "notifications",
            &[
                "id", "user_id", "kind", "subject", "ply", "other", "created", "read",
            ],
        )],
        upgrade: include_str!("sqlite/10.sql"),
    },
];

/// The schema version this punct writes.
pub const SCHEMA_VERSION: u32 = VERSIONS.len() as u32;

/// A game read from its columns; the typed values from their words
/// (`game.rs`).
fn row_to_game(r: &rusqlite::Row<'_>) -> Result<GameRow, StoreError> {
    let mut row = GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        white_token: r.get(5)?,
        black_token: r.get(6)?,
        start: r.get(7)?,
        moves: r.get(8)?,
        created: r.get(13)?,
        updated: r.get(14)?,
        version: r.get(15)?,
        plies: r.get(17)?,
        invite: r.get(18)?,
        imported: r.get(19)?,
        tags: r.get(20)?,
        white_name: r.get(21)?,
        black_name: r.get(22)?,
        clock: r.get(23)?,
        white_ms: r.get(24)?,
        black_ms: r.get(25)?,
        clock_since: r.get(26)?,
        assisted: r.get(27)?,
        rematch: r.get(29)?,
        review: r.get(30)?,
        white_user: r.get(31)?,
        black_user: r.get(32)?,
        rated: r.get(33)?,
        chat: r.get(34)?,
        ..GameRow::default()
    };
    Words {
        mode: r.get(2)?,
        ai_level: r.get(3)?,
        ai_side: r.get(4)?,
        result: r.get(9)?,
        reason: r.get(10)?,
        draw_offer: r.get(11)?,
        takeback: r.get(12)?,
        status: r.get(16)?,
        rematch_offer: r.get(28)?,
    }
    .read_into(&mut row)?;
    Ok(row)
}

/// How far a commit goes before a change is acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SyncMode {
    /// Flushed to the disk (fsync): survives a power cut. Each commit costs
    /// a disk flush (many games moving at once share one).
    #[default]
    Full,
    /// Written to the operating system: survives the server being killed
    /// or crashing, not the machine losing power. No flush per commit.
    Normal,
}

impl SyncMode {
    fn pragma(self) -> &'static str {
        match self {
            SyncMode::Full => "FULL",
            SyncMode::Normal => "NORMAL",
        }
    }
}

fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

/// Switches to WAL (a setting kept in the file) and sets the sync mode.
/// Done only once the schema is known to be ours, so a refused file is
/// left as it was.
fn configure(conn: &Connection, sync: SyncMode) -> Result<(), StoreError> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", sync.pragma())?;
    // The power-cut promise rests on it: read back, not assumed.
    let (mode, level): (String, i64) = conn.query_row(
        "SELECT * FROM pragma_journal_mode, pragma_synchronous",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let want = match sync {
        SyncMode::Full => 2,
        SyncMode::Normal => 1,
    };
    if !mode.eq_ignore_ascii_case("wal") || level != want {
        return Err(StoreError::failed(format!(
            "database: asked for WAL and synchronous = {}, got {mode} and {level}",
            sync.pragma()
        )));
    }
    // The credentials and ratings name stored users (a setting of the
    // connection, not of the file).
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// What an opened database holds.
#[derive(Debug, PartialEq, Eq)]
enum Found {
    /// Nothing yet: a new file.
    Empty,
    /// Our tables at this schema version.
    Version(u32),
    /// A schema version above [`SCHEMA_VERSION`].
    Newer(i64),
    /// Something that is not a PÜNCT games database, and why.
    Foreign(String),
}

/// Reads the schema version and checks the tables against it.
fn inspect(conn: &Connection) -> rusqlite::Result<Found> {
    let user_version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    // SQLite's own tables (`sqlite_sequence`, …) and indexes do not matter.
    let tables: Vec<(String, String)> = conn
        .prepare(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') \
             AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    if user_version == 0 && tables.is_empty() {
        return Ok(Found::Empty);
    }
    if user_version > i64::from(SCHEMA_VERSION) {
        return Ok(Found::Newer(user_version));
    }
    if user_version < 0 {
        return Ok(Found::Foreign(format!(
            "its schema version {user_version} is not one PÜNCT writes"
        )));
    }
    // Version 1 predates the version number: it reads 0.
    let version = user_version.max(1) as u32;
    let claims = if user_version > 0 {
        format!(" (the file says schema version {user_version})")
    } else {
        String::new()
    };
    let foreign = |why: String| Ok(Found::Foreign(format!("{why}{claims}")));
    if !tables
        .iter()
        .any(|(kind, name)| kind == "table" && name == "games")
    {
        let names: Vec<String> = tables.iter().map(|(_, n)| format!("`{n}`")).collect();
        return foreign(format!(
            "it has no table `games` (its tables: {})",
            names.join(", ")
        ));
    }
    let ours = tables_at(SCHEMA_VERSION);
    if let Some((kind, name)) = tables.iter().find(|(kind, name)| {
        name != "games" && (kind != "table" || !ours.iter().any(|(t, _)| t == name))
    }) {
        return foreign(format!("it has a {kind} `{name}` that PÜNCT does not make"));
    }
    // A table's columns against those of the version: what is missing,
    // or there too much.
    let columns = |table: &str, want: &[&str]| -> rusqlite::Result<Option<String>> {
        let have: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
            .query_map([table], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if let Some(missing) = want.iter().find(|c| !have.iter().any(|h| h == *c)) {
            return Ok(Some(format!("table {table} has no column `{missing}`")));
        }
        Ok(have
            .iter()
            .find(|h| !want.contains(&h.as_str()))
            .map(|extra| {
                format!(
                "table {table} has a column `{extra}` that schema version {version} does not have"
            )
            }))
    };
    if let Some(why) = columns("games", &columns_at(version))? {
        return foreign(why);
    }
    let want = tables_at(version);
    for (table, want) in &want {
        if !tables.iter().any(|(_, name)| name == table) {
            return foreign(format!("it has no table `{table}`"));
        }
        if let Some(why) = columns(table, want)? {
            return foreign(why);
        }
    }
    if let Some((_, name)) = tables
        .iter()
        .find(|(_, name)| name != "games" && !want.iter().any(|(t, _)| t == name))
    {
        return foreign(format!(
            "it has a table `{name}` that schema version {version} does not have"
        ));
    }
    Ok(Found::Version(version))
}

/// Brings the database to [`SCHEMA_VERSION`] in one transaction: creates
/// the schema in a new file, or migrates an older version step by step.
/// Returns the version it migrated from. A database of a newer punct, or
/// one that is not ours, is refused untouched.
fn prepare_schema(conn: &mut Connection, path: &Path) -> Result<Option<u32>, StoreError> {
    let fail = |e: rusqlite::Error| {
        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) {
            StoreError::unusable(format!(
                "database {} is not an SQLite database (SQLite: {e}): move it away, or start \
                 with another --data-dir",
                path.display()
            ))
        } else {
            StoreError::failed(format!("database {}: {e}", path.display()))
        }
    };
    // IMMEDIATE: a second punct opening the same file waits instead of
    // migrating it at the same time.
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(fail)?;
    let from = match inspect(&tx).map_err(fail)? {
        // Up to date: nothing to write (the transaction rolls back).
        Found::Version(v) if v == SCHEMA_VERSION => return Ok(None),
        found @ (Found::Empty | Found::Version(_)) => {
            let from = match found {
                Found::Version(v) => Some(v),
                _ => None,
            };
            for step in &VERSIONS[from.unwrap_or(0) as usize..] {
                tx.execute_batch(step.upgrade).map_err(fail)?;
            }
            from
        }
        Found::Newer(v) => {
            return Err(StoreError::unusable(format!(
                "database {} was written by a newer punct (schema version {v}; this punct \
                 knows versions up to {SCHEMA_VERSION}): upgrade punct, or start with another \
                 --data-dir",
                path.display()
            )))
        }
        Found::Foreign(why) => {
            return Err(StoreError::unusable(format!(
                "database {} is not a PÜNCT games database: {why}",
                path.display()
            )))
        }
    };
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .map_err(fail)?;
    // What was made must be what this punct reads; a wrong migration step
    // stops here, rolled back.
    match inspect(&tx).map_err(fail)? {
        Found::Version(v) if v == SCHEMA_VERSION => {}
        other => {
            return Err(StoreError::failed(format!(
                "database {}: preparing schema version {SCHEMA_VERSION} went wrong: {other:?}",
                path.display()
            )))
        }
    }
    tx.commit().map_err(fail)?;
    Ok(from)
}

/// A write's answer: the rows it changed (for the writes that tell), or
/// why it did not land. The accounts' writes answer with
/// [`SaveError::Duplicate`] for a taken key and an applied rating, and
/// [`SaveError::Stale`] for a rating computed from an older row
/// (`sqlite/accounts.rs` turns them into their own errors).
type Answer = Result<u64, SaveError>;

type Ack = oneshot::Sender<Answer>;

/// One queued write.
enum Write {
    /// A new game: never replaces one.
    Insert(GameRow),
    /// A changed game, expected at this version in the database.
    Update(GameRow, i64),
    /// A changed game and a new game it links to: both or neither.
    UpdateAndInsert(GameRow, i64, Box<GameRow>),
    /// The readiness check's write: the database header rewritten with
    /// its own schema version, so the write reaches the file (and, with
    /// `--sync full`, the disk) like a game's without touching a game.
    Heartbeat,
    /// A write of the accounts and ratings (`sqlite/accounts.rs`).
    Account(AccountWrite),
    /// A write of the lobby's seeks (`sqlite/lobby.rs`).
    Lobby(LobbyWrite),
    /// A write of the notifications (`sqlite/notes.rs`).
    Notes(NoteWrite),
}

/// The database: a writer thread and a connection for reads.
pub struct Store {
    path: PathBuf,
    writes: Mutex<mpsc::Sender<(Write, Ack)>>,
    reader: Mutex<Connection>,
    migrated_from: Option<u32>,
}

impl Store {
    /// Opens (creating if needed) `games.sqlite3` in `dir`; see
    /// [`Store::open_file`].
    pub fn open(dir: &Path, sync: SyncMode) -> Result<Store, StoreError> {
        Store::open_file(&dir.join(super::SQLITE_FILE), sync)
    }

    /// Opens (creating if needed, with its directory) the database file
    /// `path`, migrating an older schema. Refuses a database of a newer
    /// punct, one that is not PÜNCT's and a file that is not SQLite.
    pub fn open_file(path: &Path, sync: SyncMode) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::unusable(format!(
                    "cannot create data directory {}: {e}",
                    dir.display()
                ))
            })?;
        }
        let path = path.to_path_buf();
        let fail =
            |e: rusqlite::Error| StoreError::failed(format!("database {}: {e}", path.display()));
        let mut writer = connect(&path).map_err(fail)?;
        let migrated_from = prepare_schema(&mut writer, &path)?;
        configure(&writer, sync).map_err(|e| e.context(path.display()))?;
        let reader = connect(&path).map_err(fail)?;
        configure(&reader, sync).map_err(|e| e.context(path.display()))?;
        let (tx, rx) = mpsc::channel::<(Write, Ack)>();
        std::thread::Builder::new()
            .name("punct-db-writer".into())
            .spawn(move || write_loop(writer, rx))
            .map_err(|e| StoreError::failed(format!("cannot start the database writer: {e}")))?;
        Ok(Store {
            path,
            writes: Mutex::new(tx),
            reader: Mutex::new(reader),
            migrated_from,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version `open` migrated the database from, if it did.
    pub fn migrated_from(&self) -> Option<u32> {
        self.migrated_from
    }

    /// Stores a new game; returns once it is committed. Never replaces a
    /// game: an id in use is [`SaveError::Duplicate`].
    pub async fn insert(&self, row: GameRow) -> Result<(), SaveError> {
        self.write(Write::Insert(row)).await.map(drop)
    }

    /// Stores a changed game that was at `expected_version` when it was
    /// read; returns once it is committed. If the stored game is at
    /// another version, nothing is written: [`SaveError::Stale`].
    pub async fn update(&self, row: GameRow, expected_version: i64) -> Result<(), SaveError> {
        self.write(Write::Update(row, expected_version))
            .await
            .map(drop)
    }

    /// Stores a changed game (see [`Store::update`]) and a new game it
    /// links to (see [`Store::insert`]) in one transaction: both or neither.
    pub async fn update_and_insert(
        &self,
        row: GameRow,
        expected_version: i64,
        new: GameRow,
    ) -> Result<(), SaveError> {
        self.write(Write::UpdateAndInsert(row, expected_version, Box::new(new)))
            .await
            .map(drop)
    }

    /// Queues `write` for the writer thread; its answer once committed.
    async fn write(&self, write: Write) -> Answer {
        let stopped = || SaveError::Failed(StoreError::failed("database writer stopped"));
        let (ack, done) = oneshot::channel();
        self.writes
            .lock()
            .map_err(|_| stopped())?
            .send((write, ack))
            .map_err(|_| stopped())?;
        done.await.map_err(|_| stopped())?
    }

    pub fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let conn = self.reader()?;
        let mut stmt =
            conn.prepare_cached(&format!("SELECT {COLUMNS} FROM games WHERE id = ?1"))?;
        let mut rows = stmt.query_and_then(params![id], row_to_game)?;
        rows.next().transpose()
    }

    /// The connection for reads.
    fn reader(&self) -> Result<std::sync::MutexGuard<'_, Connection>, StoreError> {
        self.reader
            .lock()
            .map_err(|_| StoreError::failed("database reader unavailable"))
    }
}

impl Store {
    /// The games `filter` picks, most recently changed first.
    pub fn list(&self, filter: &ListFilter) -> Result<Vec<GameRow>, StoreError> {
        let conn = self.reader()?;
        let mut clauses: Vec<String> = filter
            .fixed_conditions()
            .into_iter()
            .map(String::from)
            .collect();
        let mut values: Vec<rusqlite::types::Value> = Vec::new();
        if let Some(before) = filter.empty_before {
            values.push(before.into());
            clauses.push(format!("(plies > 0 OR updated >= ?{})", values.len()));
        }
        if let Some(ids) = &filter.ids {
            let start = values.len();
            values.extend(ids.iter().map(|id| id.clone().into()));
            let places: Vec<String> = (start + 1..=values.len())
                .map(|i| format!("?{i}"))
                .collect();
            clauses.push(format!("id IN ({})", places.join(", ")));
        }
        if let Some(user) = &filter.user {
            values.push(user.clone().into());
            clauses.extend(filter.user_conditions(&format!("?{}", values.len())));
        }
        if let Some(rated) = filter.rated {
            values.push(rated.into());
            clauses.push(format!("rated = ?{}", values.len()));
        }
        if let Some(variant) = &filter.variant {
            values.push(variant.clone().into());
            clauses.push(format!("variant = ?{}", values.len()));
        }
        values.push(i64::from(filter.limit).into());
        let limit = values.len();
        values.push(i64::from(filter.offset).into());
        let offset = values.len();
        let filter = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        let mut stmt = conn.prepare(&format!(
            "SELECT {} FROM games {filter} ORDER BY updated DESC, id LIMIT ?{limit} \
             OFFSET ?{offset}",
            *super::LIST_COLUMNS
        ))?;
        let rows = stmt.query_and_then(rusqlite::params_from_iter(values), row_to_game)?;
        rows.collect()
    }
}

impl Store {
    /// The ongoing games whose running clock may run out by `by` (ms since
    /// 1970): the clock started at `clock_since`, and the side to move has
    /// at least the smaller of the two times left, so this finds every
    /// such game (and perhaps a few more).
    pub fn clocks_due(&self, by: i64) -> Result<Vec<String>, StoreError> {
        let conn = self.reader()?;
        let mut stmt = conn.prepare(
            "SELECT id FROM games WHERE status = 'ongoing' AND clock_since IS NOT NULL \
                 AND clock_since + min(coalesce(white_ms, 0), coalesce(black_ms, 0)) <= ?1",
        )?;
        let rows = stmt.query_map(params![by], |r| r.get(0))?;
        Ok(rows.collect::<Result<Vec<String>, _>>()?)
    }
}

impl Store {
    /// Up to `limit` games in id order after `after` (SQLite compares
    /// text bytewise).
    pub fn page(&self, after: Option<&str>, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let conn = self.reader()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM games WHERE ?1 IS NULL OR id > ?1 ORDER BY id LIMIT ?2"
        ))?;
        let rows = stmt.query_and_then(params![after, limit], row_to_game)?;
        rows.collect()
    }
}

/// A game's 35 parameters in [`COLUMNS`] order; `w` holds its typed
/// values' words.
fn row_params<'a>(g: &'a GameRow, w: &'a Words) -> [&'a dyn rusqlite::ToSql; 35] {
    [
        &g.id,
        &g.variant,
        &w.mode,
        &w.ai_level,
        &w.ai_side,
        &g.white_token,
        &g.black_token,
        &g.start,
        &g.moves,
        &w.result,
        &w.reason,
        &w.draw_offer,
        &w.takeback,
        &g.created,
        &g.updated,
        &g.version,
        &w.status,
        &g.plies,
        &g.invite,
        &g.imported,
        &g.tags,
        &g.white_name,
        &g.black_name,
        &g.clock,
        &g.white_ms,
        &g.black_ms,
        &g.clock_since,
        &g.assisted,
        &w.rematch_offer,
        &g.rematch,
        &g.review,
        &g.white_user,
        &g.black_user,
        &g.rated,
        &g.chat,
    ]
}

const PLACES: &str = "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
                      ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, \
                      ?32, ?33, ?34, ?35";

/// A change at its expected version, which follows the row's own 35
/// parameters. Made once.
static UPDATE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "UPDATE games SET {} WHERE id = ?1 AND version = ?36",
        super::assignments(|n| format!("?{n}"))
    )
});

fn write_failed(e: rusqlite::Error) -> SaveError {
    use rusqlite::ErrorCode::{DatabaseBusy, DatabaseLocked, DiskFull};
    let kind = match e.sqlite_error_code() {
        // Not broken: another process holds the file, or the disk is
        // full until someone makes room.
        Some(DatabaseBusy | DatabaseLocked | DiskFull) => ErrorKind::Unavailable,
        _ => ErrorKind::Failed,
    };
    SaveError::Failed(StoreError::new(kind, format!("database write failed: {e}")))
}

/// Runs one write inside the batch's transaction. A failed statement
/// leaves the transaction usable (SQLite rolls back that statement only),
/// so one write's failure is that write's answer alone.
fn apply(conn: &Connection, write: &Write) -> Answer {
    match write {
        Write::Insert(g) => insert(conn, g).map(|()| 1),
        Write::Update(g, expected) => update(conn, g, *expected).map(|()| 1),
        // Both or neither, and the batch's other writes left alone.
        Write::UpdateAndInsert(g, expected, new) => linked(conn, || {
            update(conn, g, *expected).and_then(|()| insert(conn, new))?;
            Ok(2)
        }),
        Write::Heartbeat => conn
            .pragma_update(None, "user_version", SCHEMA_VERSION)
            .map(|()| 0)
            .map_err(write_failed),
        Write::Account(write) => accounts::apply(conn, write),
        Write::Lobby(write) => lobby::apply(conn, write),
        Write::Notes(write) => notes::apply(conn, write),
    }
}

/// Runs the statements of one write in a savepoint, which undoes them all
/// if one fails (or `run` refuses) and leaves the batch's other writes
/// alone.
fn linked(conn: &Connection, run: impl FnOnce() -> Answer) -> Answer {
    conn.execute_batch("SAVEPOINT linked")
        .map_err(write_failed)?;
    let answer = run();
    if answer.is_err() && !conn.is_autocommit() {
        conn.execute_batch("ROLLBACK TO linked")
            .map_err(write_failed)?;
    }
    if !conn.is_autocommit() {
        conn.execute_batch("RELEASE linked").map_err(write_failed)?;
    }
    answer
}

/// A new game: never replaces one.
fn insert(conn: &Connection, g: &GameRow) -> Result<(), SaveError> {
    let mut stmt = conn
        .prepare_cached(&format!("INSERT INTO games ({COLUMNS}) VALUES ({PLACES})"))
        .map_err(write_failed)?;
    let words = Words::of(g);
    match stmt.execute(&row_params(g, &words)[..]) {
        Ok(_) => Ok(()),
        // Only the id's uniqueness means "taken": another
        // constraint (NOT NULL, a trigger) is a failure, which a
        // caller must not answer by retrying with a new id.
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
        {
            Err(SaveError::Duplicate)
        }
        Err(e) => Err(write_failed(e)),
    }
}

/// A changed game, at its expected version.
fn update(conn: &Connection, g: &GameRow, expected: i64) -> Result<(), SaveError> {
    let mut stmt = conn.prepare_cached(&UPDATE).map_err(write_failed)?;
    let words = Words::of(g);
    let mut params: Vec<&dyn rusqlite::ToSql> = row_params(g, &words).to_vec();
    params.push(&expected);
    match stmt.execute(&params[..]) {
        Ok(1) => Ok(()),
        // Another version, or no such game at all.
        Ok(_) => Err(SaveError::Stale),
        Err(e) => Err(write_failed(e)),
    }
}

/// Commits queued writes in batches until every sender is gone. Each
/// write gets its own answer, sent only after the commit.
fn write_loop(mut conn: Connection, rx: mpsc::Receiver<(Write, Ack)>) {
    while let Ok(first) = rx.recv() {
        let mut writes = vec![first.0];
        let mut acks = vec![first.1];
        while writes.len() < 256 {
            match rx.try_recv() {
                Ok((w, ack)) => {
                    writes.push(w);
                    acks.push(ack);
                }
                Err(_) => break,
            }
        }
        // A requester that gave up (its call timed out) was told the write
        // failed: it is not made behind its back.
        let (writes, acks): (Vec<Write>, Vec<Ack>) = writes
            .into_iter()
            .zip(acks)
            .filter(|(_, ack)| !ack.is_closed())
            .unzip();
        for (ack, answer) in acks.into_iter().zip(commit_batch(&mut conn, &writes)) {
            // A requester that went away no longer needs the answer.
            let _ = ack.send(answer);
        }
    }
}

/// Commits `writes` in one transaction and answers each. A write that
/// fails alone (a taken id, a stale version) gets its error and the others
/// still commit: SQLite undoes just that statement. A failure after which
/// SQLite has rolled back the whole transaction (disk full, I/O error, a
/// trigger's `RAISE(ROLLBACK)`) fails that write, and the others are tried
/// again in a new transaction rather than run outside one. A failed commit
/// fails every write it held.
fn commit_batch(conn: &mut Connection, writes: &[Write]) -> Vec<Answer> {
    let mut answers: Vec<Option<Answer>> = vec![None; writes.len()];
    // Every round answers at least one write, so this ends.
    'round: loop {
        let pending: Vec<usize> = (0..writes.len())
            .filter(|&i| answers[i].is_none())
            .collect();
        if pending.is_empty() {
            break;
        }
        let tx = match conn.transaction() {
            Ok(tx) => tx,
            Err(e) => {
                let e = write_failed(e);
                for i in pending {
                    answers[i] = Some(Err(e.clone()));
                }
                break;
            }
        };
        let mut done = Vec::with_capacity(pending.len());
        for i in pending {
            let answer = apply(&tx, &writes[i]);
            if answer.is_err() && tx.is_autocommit() {
                // The transaction is gone, and with it the writes before
                // this one: they go again in the next round.
                answers[i] = Some(answer);
                continue 'round;
            }
            done.push((i, answer));
        }
        match tx.commit() {
            Ok(()) => {
                for (i, answer) in done {
                    answers[i] = Some(answer);
                }
            }
            Err(e) => {
                let e = write_failed(e);
                for (i, _) in done {
                    answers[i] = Some(Err(e.clone()));
                }
            }
        }
        break;
    }
    answers
        .into_iter()
        .map(|a| {
            a.unwrap_or_else(|| {
                Err(SaveError::Failed(StoreError::failed(
                    "database write not run",
                )))
            })
        })
        .collect()
}

/// Runs a read, which blocks on the disk and the reader's lock, where the
/// async runtime's other tasks do not wait for it: on a multi-threaded
/// runtime (the server's) its worker hands its tasks to another first.
fn off_the_runtime<T>(read: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(read),
        _ => read(),
    }
}

/// Reads run off the runtime's threads ([`off_the_runtime`]) under the
/// reader's lock; writes go through the writer thread.
impl super::Storage for Store {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn describe(&self) -> String {
        format!("database {}", self.path.display())
    }

    fn insert(&self, row: GameRow) -> BoxFuture<'_, Result<(), SaveError>> {
        Box::pin(Store::insert(self, row))
    }

    fn update(&self, row: GameRow, expected: i64) -> BoxFuture<'_, Result<(), SaveError>> {
        Box::pin(Store::update(self, row, expected))
    }

    fn update_and_insert(
        &self,
        row: GameRow,
        expected: i64,
        new: GameRow,
    ) -> BoxFuture<'_, Result<(), SaveError>> {
        Box::pin(Store::update_and_insert(self, row, expected, new))
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<GameRow>, StoreError>> {
        Box::pin(async move { off_the_runtime(|| Store::load(self, id)) })
    }

    fn list<'a>(
        &'a self,
        filter: &'a ListFilter,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>> {
        Box::pin(async move { off_the_runtime(|| Store::list(self, filter)) })
    }

    fn clocks_due(&self, by: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move { off_the_runtime(|| Store::clocks_due(self, by)) })
    }

    fn page<'a>(
        &'a self,
        after: Option<&'a str>,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>> {
        Box::pin(async move { off_the_runtime(|| Store::page(self, after, limit)) })
    }

    fn heartbeat<'a>(&'a self, _instance: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        // One process owns the file: no name to keep.
        Box::pin(async move {
            self.write(Write::Heartbeat)
                .await
                .map(drop)
                .map_err(|e| match e {
                    SaveError::Failed(e) => e,
                    other => StoreError::failed(other.to_string()),
                })
        })
    }

    fn accounts(&self) -> &dyn crate::AccountStore {
        self
    }

    fn lobby(&self) -> &dyn crate::Lobby {
        self
    }

    fn notes(&self) -> &dyn crate::Notes {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mode;
    use punct_core::Side;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh directory, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> TempDir {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "punct-store-test-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
        fn db(&self) -> PathBuf {
            self.0.join("games.sqlite3")
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    fn row(id: &str) -> GameRow {
        GameRow {
            id: id.to_string(),
            variant: "standard".into(),
            mode: Mode::Online,
            white_token: Some("w".into()),
            black_token: Some("b".into()),
            start: "start".into(),
            moves: String::new(),
            created: 1,
            updated: 1,
            version: 1,
            plies: 0,
            invite: Some("code".into()),
            imported: false,
            tags: None,
            ..GameRow::default()
        }
    }

    /// The schema of version 1 exactly as the release before versioning
    /// created it.
    const V1_SCHEMA: &str = include_str!("sqlite/1.sql");

    /// The current schema made by hand, with no version number.
    fn schema() -> String {
        VERSIONS.iter().map(|v| v.upgrade).collect()
    }

    fn make_db(path: &Path, sql: &str) {
        Connection::open(path).unwrap().execute_batch(sql).unwrap();
    }

    fn user_version(path: &Path) -> i64 {
        Connection::open(path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    }

    /// `PRAGMA table_info(games)`: name, type, not null, default, key.
    fn table_info(path: &Path) -> Vec<(String, String, bool, Option<String>, i64)> {
        let conn = Connection::open(path).unwrap();
        let mut stmt = conn.prepare("PRAGMA table_info(games)").unwrap();
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
            })
            .unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    }

    /// Why opening the directory's database fails: a database this punct
    /// cannot use.
    fn open_err(dir: &TempDir) -> String {
        match Store::open(&dir.0, SyncMode::Normal) {
            Ok(_) => panic!("{} was opened", dir.db().display()),
            Err(e) => {
                assert_eq!(e.kind(), crate::ErrorKind::Unusable, "{e}");
                e.to_string()
            }
        }
    }

    #[test]
    fn columns_are_the_current_versions() {
        let names: Vec<&str> = COLUMNS.split(", ").collect();
        assert_eq!(names, columns_at(SCHEMA_VERSION));
        assert_eq!(SCHEMA_VERSION, 10);
    }

    /// The sync mode asked for is the one the connections have (the
    /// writer's commits are what `--sync full` promises to flush).
    #[test]
    fn the_sync_mode_asked_for_is_set() {
        for (sync, level) in [(SyncMode::Full, 2), (SyncMode::Normal, 1)] {
            let dir = TempDir::new();
            let store = Store::open(&dir.0, sync).unwrap();
            let got: i64 = store
                .reader()
                .unwrap()
                .query_row("PRAGMA synchronous", [], |r| r.get(0))
                .unwrap();
            assert_eq!(got, level, "{sync:?}");
            let conn = connect(&dir.db()).unwrap();
            configure(&conn, sync).unwrap();
            let got: i64 = conn
                .query_row("PRAGMA synchronous", [], |r| r.get(0))
                .unwrap();
            assert_eq!(got, level, "{sync:?}");
        }
    }

    #[test]
    fn a_new_database_gets_the_current_schema() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), None);
        assert_eq!(user_version(&dir.db()), i64::from(SCHEMA_VERSION));
        let journal: String = Connection::open(dir.db())
            .unwrap()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(journal, "wal");
        drop(store);
        // Opening it again changes nothing.
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), None);
        assert_eq!(user_version(&dir.db()), i64::from(SCHEMA_VERSION));
    }

    #[test]
    fn an_insert_never_replaces_a_game() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        let first = row("g1");
        block_on(store.insert(first.clone())).unwrap();
        let other = GameRow {
            moves: "pass".into(),
            white_token: Some("thief".into()),
            version: 9,
            ..row("g1")
        };
        assert_eq!(block_on(store.insert(other)), Err(SaveError::Duplicate));
        assert_eq!(store.load("g1").unwrap(), Some(first));
    }

    #[test]
    fn an_update_at_another_version_is_stale_and_writes_nothing() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        block_on(store.insert(row("g1"))).unwrap();
        let changed = GameRow {
            moves: "pass".into(),
            plies: 1,
            version: 2,
            ..row("g1")
        };
        assert_eq!(
            block_on(store.update(changed.clone(), 5)),
            Err(SaveError::Stale)
        );
        assert_eq!(store.load("g1").unwrap(), Some(row("g1")));
        // At the right version it lands, and then the old version is stale.
        block_on(store.update(changed.clone(), 1)).unwrap();
        assert_eq!(store.load("g1").unwrap(), Some(changed.clone()));
        let again = GameRow {
            version: 3,
            ..changed.clone()
        };
        assert_eq!(block_on(store.update(again, 1)), Err(SaveError::Stale));
        assert_eq!(store.load("g1").unwrap(), Some(changed));
        // A game that is not stored is not created by an update.
        assert_eq!(
            block_on(store.update(row("nope"), 1)),
            Err(SaveError::Stale)
        );
        assert_eq!(store.load("nope").unwrap(), None);
    }

    #[test]
    fn a_locked_file_or_a_full_disk_refuses_for_now_other_failures_fail() {
        use rusqlite::ffi;
        let kind = |code: i32| match write_failed(rusqlite::Error::SqliteFailure(
            ffi::Error::new(code),
            None,
        )) {
            SaveError::Failed(e) => e.kind(),
            other => panic!("{other:?}"),
        };
        assert_eq!(kind(ffi::SQLITE_BUSY), ErrorKind::Unavailable);
        assert_eq!(kind(ffi::SQLITE_LOCKED), ErrorKind::Unavailable);
        assert_eq!(kind(ffi::SQLITE_FULL), ErrorKind::Unavailable);
        assert_eq!(kind(ffi::SQLITE_IOERR), ErrorKind::Failed);
        assert_eq!(kind(ffi::SQLITE_CORRUPT), ErrorKind::Failed);
        assert_eq!(kind(ffi::SQLITE_CONSTRAINT), ErrorKind::Failed);
    }

    #[test]
    fn a_linked_new_game_is_stored_with_its_change_or_not_at_all() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        block_on(store.insert(row("old"))).unwrap();
        block_on(store.insert(row("taken"))).unwrap();
        let linked = |to: &str| GameRow {
            rematch: Some(to.into()),
            version: 2,
            ..row("old")
        };
        // The change is stale: no new game.
        assert_eq!(
            block_on(store.update_and_insert(linked("new"), 7, row("new"))),
            Err(SaveError::Stale)
        );
        assert_eq!(store.load("new").unwrap(), None);
        // The new game's id is taken: the change is undone with it.
        assert_eq!(
            block_on(store.update_and_insert(linked("taken"), 1, row("taken"))),
            Err(SaveError::Duplicate)
        );
        assert_eq!(store.load("old").unwrap(), Some(row("old")));
        // Both, and then a second start finds the change made.
        block_on(store.update_and_insert(linked("new"), 1, row("new"))).unwrap();
        assert_eq!(store.load("old").unwrap(), Some(linked("new")));
        assert_eq!(store.load("new").unwrap(), Some(row("new")));
        assert_eq!(
            block_on(store.update_and_insert(linked("other"), 1, row("other"))),
            Err(SaveError::Stale)
        );
        assert_eq!(store.load("other").unwrap(), None);
    }

    #[test]
    fn one_failing_write_in_a_batch_does_not_fail_the_others() {
        let dir = TempDir::new();
        drop(Store::open(&dir.0, SyncMode::Normal).unwrap());
        let mut conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO games ({COLUMNS}) VALUES ('old', 'standard', 'online', NULL, NULL, \
             NULL, NULL, 's', '', NULL, NULL, NULL, NULL, 1, 1, 4, 'ongoing', 0, NULL, 0, NULL, \
             NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL)"
        ))
        .unwrap();
        let dup = GameRow {
            moves: "pass".into(),
            ..row("a")
        };
        let answers = commit_batch(
            &mut conn,
            &[
                Write::Insert(row("a")),
                Write::Insert(dup),
                Write::Update(row("old"), 3),
                Write::Insert(row("b")),
                Write::Update(
                    GameRow {
                        version: 5,
                        ..row("old")
                    },
                    4,
                ),
            ],
        );
        assert_eq!(
            answers,
            vec![
                Ok(1),
                Err(SaveError::Duplicate),
                Err(SaveError::Stale),
                Ok(1),
                Ok(1)
            ]
        );
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.load("a").unwrap(), Some(row("a")));
        assert_eq!(store.load("b").unwrap(), Some(row("b")));
        assert_eq!(store.load("old").unwrap().unwrap().version, 5);
    }

    #[test]
    fn concurrent_inserts_of_one_id_store_one_game() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        let second = GameRow {
            moves: "pass".into(),
            ..row("same")
        };
        let (a, b, c) = block_on(async {
            tokio::join!(
                store.insert(row("same")),
                store.insert(second),
                store.insert(row("other"))
            )
        });
        assert_eq!((a, b, c), (Ok(()), Err(SaveError::Duplicate), Ok(())));
        assert_eq!(store.load("same").unwrap(), Some(row("same")));
        assert_eq!(store.load("other").unwrap(), Some(row("other")));
    }

    #[test]
    fn a_constraint_other_than_the_id_is_a_failure_not_a_duplicate() {
        let dir = TempDir::new();
        drop(Store::open(&dir.0, SyncMode::Normal).unwrap());
        let mut conn = Connection::open(dir.db()).unwrap();
        conn.execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON games WHEN NEW.id = 'bad' \
             BEGIN SELECT RAISE(ABORT, 'refused'); END;",
        )
        .unwrap();
        let answers = commit_batch(&mut conn, &[Write::Insert(row("bad"))]);
        assert!(
            matches!(&answers[..], [Err(SaveError::Failed(e))] if e.to_string().contains("refused")),
            "{answers:?}"
        );
    }

    #[test]
    fn a_write_that_rolls_back_the_transaction_does_not_take_the_others_along() {
        let dir = TempDir::new();
        drop(Store::open(&dir.0, SyncMode::Normal).unwrap());
        let mut conn = Connection::open(dir.db()).unwrap();
        // RAISE(ROLLBACK) ends the whole transaction, as a full disk would.
        conn.execute_batch(
            "CREATE TRIGGER undo BEFORE INSERT ON games WHEN NEW.id = 'bad' \
             BEGIN SELECT RAISE(ROLLBACK, 'rolled back'); END;",
        )
        .unwrap();
        let answers = commit_batch(
            &mut conn,
            &[
                Write::Insert(row("a")),
                Write::Insert(row("bad")),
                Write::Insert(row("c")),
            ],
        );
        assert_eq!(answers[0], Ok(1));
        assert!(
            matches!(&answers[1], Err(SaveError::Failed(_))),
            "{answers:?}"
        );
        assert_eq!(answers[2], Ok(1));
        assert!(conn.is_autocommit(), "no transaction left open");
        let ids: Vec<String> = conn
            .prepare("SELECT id FROM games ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(ids, ["a", "c"]);
    }

    #[test]
    fn a_version_1_database_is_migrated_and_its_games_kept() {
        let dir = TempDir::new();
        make_db(&dir.db(), V1_SCHEMA);
        Connection::open(dir.db())
            .unwrap()
            .execute(
                "INSERT INTO games VALUES ('old1', 'standard', 'ai', 3, 'black', 'wt', NULL, \
                 'start', 'C@B7/2', NULL, NULL, NULL, NULL, 10, 20, 2, 'ongoing', 1)",
                [],
            )
            .unwrap();
        assert_eq!(user_version(&dir.db()), 0);
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), Some(1));
        assert_eq!(user_version(&dir.db()), i64::from(SCHEMA_VERSION));
        let game = store.load("old1").unwrap().expect("the old game");
        assert_eq!(
            game,
            GameRow {
                id: "old1".into(),
                variant: "standard".into(),
                mode: Mode::Ai {
                    level: 3,
                    ai_side: Side::Black,
                },
                white_token: Some("wt".into()),
                black_token: None,
                start: "start".into(),
                moves: "C@B7/2".into(),
                created: 10,
                updated: 20,
                version: 2,
                plies: 1,
                invite: None,
                imported: false,
                tags: None,
                ..GameRow::default()
            }
        );
        // The migrated table is the table a new database gets.
        let fresh = TempDir::new();
        drop(Store::open(&fresh.0, SyncMode::Normal).unwrap());
        assert_eq!(table_info(&dir.db()), table_info(&fresh.db()));
        // New games go in with the new columns.
        block_on(store.insert(row("new"))).unwrap();
        assert_eq!(store.load("new").unwrap(), Some(row("new")));
        drop(store);
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), None, "migrated once only");
    }

    /// The schema as `sqlite_master` holds it: every table and index
    /// with its SQL, by name.
    fn master(path: &Path) -> Vec<(String, String, Option<String>)> {
        let conn = Connection::open(path).unwrap();
        let mut stmt = conn
            .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    }

    #[test]
    fn a_version_3_database_is_migrated_and_its_games_kept() {
        let dir = TempDir::new();
        let v3: String = VERSIONS[..3].iter().map(|v| v.upgrade).collect();
        make_db(&dir.db(), &format!("{v3} PRAGMA user_version = 3;"));
        Connection::open(dir.db())
            .unwrap()
            .execute(
                "INSERT INTO games VALUES ('old3', 'standard', 'online', NULL, NULL, 'wt', 'bt', \
                 'start', 'C@B7/2', '0-1', 'resignation:white', NULL, NULL, 10, 20, 3, '0-1', \
                 1, NULL, 0, NULL, 'Ada', 'Bo', '{}', 1000, 2000, NULL, 1, 'black', NULL, \
                 '{\"r\":1}')",
                [],
            )
            .unwrap();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), Some(3));
        assert_eq!(user_version(&dir.db()), i64::from(SCHEMA_VERSION));
        let game = store.load("old3").unwrap().expect("the old game");
        assert_eq!(
            game,
            GameRow {
                id: "old3".into(),
                variant: "standard".into(),
                mode: Mode::Online,
                white_token: Some("wt".into()),
                black_token: Some("bt".into()),
                start: "start".into(),
                moves: "C@B7/2".into(),
                end: Some(crate::End {
                    outcome: punct_core::Outcome::BlackWins,
                    reason: crate::EndReason::Resignation(Side::White),
                }),
                created: 10,
                updated: 20,
                version: 3,
                finished: Some(punct_core::Outcome::BlackWins),
                plies: 1,
                white_name: Some("Ada".into()),
                black_name: Some("Bo".into()),
                clock: Some("{}".into()),
                white_ms: Some(1000),
                black_ms: Some(2000),
                assisted: true,
                rematch_offer: Some(Side::Black),
                review: Some("{\"r\":1}".into()),
                white_user: None,
                black_user: None,
                rated: false,
                ..GameRow::default()
            }
        );
        // The migrated schema is the one a new database gets: tables,
        // columns and indexes.
        let fresh = TempDir::new();
        drop(Store::open(&fresh.0, SyncMode::Normal).unwrap());
        assert_eq!(master(&dir.db()), master(&fresh.db()));
        assert_eq!(table_info(&dir.db()), table_info(&fresh.db()));
        // The old game changes like any, and lists as unrated.
        let changed = GameRow {
            version: 4,
            white_user: Some("u1".into()),
            ..game.clone()
        };
        block_on(store.update(changed.clone(), 3)).unwrap();
        assert_eq!(store.load("old3").unwrap(), Some(changed));
        let unrated = ListFilter {
            rated: Some(false),
            limit: 10,
            ..ListFilter::default()
        };
        assert_eq!(store.list(&unrated).unwrap().len(), 1);
        drop(store);
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), None, "migrated once only");
    }

    #[test]
    fn a_version_4_database_is_migrated_and_keeps_its_games_and_accounts() {
        use crate::{AccountStore, Lobby, UserRow};
        let dir = TempDir::new();
        let v4: String = VERSIONS[..4].iter().map(|v| v.upgrade).collect();
        make_db(&dir.db(), &format!("{v4} PRAGMA user_version = 4;"));
        let user = UserRow {
            id: "u1".into(),
            name: "Ada".into(),
            name_key: "ada".into(),
            created: 5,
            seen: 6,
            password: Some("$argon2id$x".into()),
            bot: false,
            deleted: false,
        };
        let game = GameRow {
            white_user: Some("u1".into()),
            rated: true,
            ..row("old4")
        };
        {
            let conn = Connection::open(dir.db()).unwrap();
            conn.execute(
                "INSERT INTO users (id, name, name_key, created, seen, password) \
                 VALUES ('u1', 'Ada', 'ada', 5, 6, '$argon2id$x')",
                [],
            )
            .unwrap();
            // A row as version 4 had it: its columns, in order.
            let words = Words::of(&game);
            let columns = columns_at(4);
            let places: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
            conn.execute(
                &format!(
                    "INSERT INTO games ({}) VALUES ({})",
                    columns.join(", "),
                    places.join(", ")
                ),
                &row_params(&game, &words)[..columns.len()],
            )
            .unwrap();
        }
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), Some(4));
        assert_eq!(user_version(&dir.db()), i64::from(SCHEMA_VERSION));
        assert_eq!(store.load("old4").unwrap(), Some(game));
        assert_eq!(block_on(store.user("u1")).unwrap(), Some(user));
        // The migrated schema is the one a new database gets.
        let fresh = TempDir::new();
        drop(Store::open(&fresh.0, SyncMode::Normal).unwrap());
        assert_eq!(master(&dir.db()), master(&fresh.db()));
        // The lobby works in it.
        let seek = crate::SeekRow {
            id: "s1".into(),
            kind: "seek".into(),
            variant: "standard".into(),
            side: "random".into(),
            token: "t".into(),
            instance: "i".into(),
            ..crate::SeekRow::default()
        };
        block_on(store.add_seek(seek.clone())).unwrap();
        assert_eq!(block_on(Lobby::seek(&store, "s1")).unwrap(), Some(seek));
    }

    #[test]
    fn a_version_5_database_is_migrated_and_its_accounts_kept() {
        use crate::{AccountStore, CeremonyRow};
        let dir = TempDir::new();
        let v5: String = VERSIONS[..5].iter().map(|v| v.upgrade).collect();
        make_db(&dir.db(), &format!("{v5} PRAGMA user_version = 5;"));
        Connection::open(dir.db())
            .unwrap()
            .execute_batch(
                "INSERT INTO users (id, name, name_key, created, seen, password) \
                 VALUES ('u1', 'Ada', 'ada', 1, 2, 'phc'); \
                 INSERT INTO passkeys (id, user_id, name, data, created) \
                 VALUES ('k1', 'u1', 'phone', '{}', 3);",
            )
            .unwrap();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), Some(5));
        assert_eq!(user_version(&dir.db()), i64::from(SCHEMA_VERSION));
        let fresh = TempDir::new();
        drop(Store::open(&fresh.0, SyncMode::Normal).unwrap());
        assert_eq!(master(&dir.db()), master(&fresh.db()));
        let user = block_on(store.user("u1")).unwrap().expect("the user");
        assert_eq!(
            (user.name.as_str(), user.password.as_deref()),
            ("Ada", Some("phc"))
        );
        assert_eq!(block_on(store.passkeys("u1")).unwrap().len(), 1);
        let c = CeremonyRow {
            id: "n1".into(),
            kind: "signin".into(),
            user: None,
            state: "{}".into(),
            expires: 10,
        };
        block_on(store.put_ceremony(c.clone())).unwrap();
        assert_eq!(
            block_on(store.take_ceremony("n1", "signin", 5)).unwrap(),
            Some(c)
        );
        drop(store);
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        assert_eq!(store.migrated_from(), None, "migrated once only");
    }

    #[test]
    fn the_accounts_lobby_and_ceremony_tables_are_checked_against_the_version() {
        let v3: String = VERSIONS[..3].iter().map(|v| v.upgrade).collect();
        let v4: String = VERSIONS[..4].iter().map(|v| v.upgrade).collect();
        let cases = [
            (
                schema().replace(
                    "    agent    TEXT NOT NULL\n",
                    "    agent    TEXT NOT NULL, x TEXT\n",
                ) + " PRAGMA user_version = 10;",
                "is not a PÜNCT games database: table sessions has a column `x` that schema \
                 version 10 does not have (the file says schema version 10)",
            ),
            (
                schema().replace(
                    "    created  INTEGER NOT NULL,\n    used     INTEGER\n);\n\
                     CREATE INDEX passkeys_by_user",
                    "    created  INTEGER NOT NULL\n);\nCREATE INDEX passkeys_by_user",
                ) + " PRAGMA user_version = 10;",
                "is not a PÜNCT games database: table passkeys has no column `used` (the file \
                 says schema version 10)",
            ),
            (
                schema().replace("api_tokens", "old_tokens") + " PRAGMA user_version = 10;",
                "is not a PÜNCT games database: it has a table `old_tokens` that PÜNCT does not \
                 make (the file says schema version 10)",
            ),
            (
                schema().replace("    state    TEXT NOT NULL,\n", "")
                    + " PRAGMA user_version = 10;",
                "is not a PÜNCT games database: table ceremonies has no column `state` (the \
                 file says schema version 10)",
            ),
            (
                format!(
                    "{} CREATE TABLE ceremonies (id TEXT PRIMARY KEY); PRAGMA user_version = 5;",
                    VERSIONS[..5].iter().map(|v| v.upgrade).collect::<String>()
                ),
                "is not a PÜNCT games database: it has a table `ceremonies` that schema version \
                 5 does not have (the file says schema version 5)",
            ),
            (
                format!("{v3} CREATE TABLE users (id TEXT PRIMARY KEY); PRAGMA user_version = 3;"),
                "is not a PÜNCT games database: it has a table `users` that schema version 3 \
                 does not have (the file says schema version 3)",
            ),
            (
                format!("{v4} CREATE TABLE seeks (id TEXT PRIMARY KEY); PRAGMA user_version = 4;"),
                "is not a PÜNCT games database: it has a table `seeks` that schema version 4 \
                 does not have (the file says schema version 4)",
            ),
            (
                schema().replace(
                    "    seen     INTEGER NOT NULL,\n    game     TEXT\n",
                    "    seen     INTEGER NOT NULL\n",
                ) + " PRAGMA user_version = 10;",
                "is not a PÜNCT games database: table seeks has no column `game` (the file says \
                 schema version 10)",
            ),
        ];
        for (sql, want) in cases {
            let dir = TempDir::new();
            make_db(&dir.db(), &sql);
            let before = std::fs::read(dir.db()).unwrap();
            assert_eq!(
                open_err(&dir),
                format!("database {} {want}", dir.db().display()),
                "{sql}"
            );
            assert_eq!(std::fs::read(dir.db()).unwrap(), before, "{sql}");
        }
        // A table the version has, missing.
        let dir = TempDir::new();
        make_db(
            &dir.db(),
            &format!("{} DROP TABLE ratings; PRAGMA user_version = 10;", schema()),
        );
        assert_eq!(
            open_err(&dir),
            format!(
                "database {} is not a PÜNCT games database: it has no table `ratings` (the file \
                 says schema version 10)",
                dir.db().display()
            )
        );
    }

    #[test]
    fn a_list_reads_what_lists_show_and_leaves_long_and_secret_columns() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        let game = GameRow {
            moves: "C@B7/2 R@F2/0".into(),
            plies: 2,
            tags: Some("[]".into()),
            review: Some("{}".into()),
            white_name: Some("Ada".into()),
            ..row("g1")
        };
        block_on(store.insert(game.clone())).unwrap();
        let listed = store
            .list(&ListFilter {
                limit: 10,
                ..ListFilter::default()
            })
            .unwrap();
        assert_eq!(
            listed,
            vec![GameRow {
                moves: String::new(),
                white_token: None,
                black_token: None,
                tags: None,
                review: None,
                ..game.clone()
            }]
        );
        assert_eq!(store.load("g1").unwrap(), Some(game), "a load reads it all");
    }

    #[test]
    fn a_stored_game_no_punct_wrote_is_refused_by_name_and_the_others_still_load() {
        let dir = TempDir::new();
        let store = Store::open(&dir.0, SyncMode::Normal).unwrap();
        block_on(store.insert(row("good"))).unwrap();
        block_on(store.insert(row("bad"))).unwrap();
        Connection::open(dir.db())
            .unwrap()
            .execute(
                "UPDATE games SET draw_offer = 'purple' WHERE id = 'bad'",
                [],
            )
            .unwrap();
        let e = store.load("bad").unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Corrupt);
        assert_eq!(
            e.to_string(),
            "database: the stored game bad cannot be read: the column draw_offer holds \"purple\""
        );
        assert_eq!(store.load("good").unwrap(), Some(row("good")));
        // A list that meets it says so rather than leaving it out quietly.
        let all = ListFilter {
            limit: 10,
            ..ListFilter::default()
        };
        assert_eq!(
            store.list(&all).unwrap_err().kind(),
            crate::ErrorKind::Corrupt
        );
    }

    #[test]
    fn a_database_of_a_newer_punct_is_refused_untouched() {
        let dir = TempDir::new();
        let newer = SCHEMA_VERSION + 1;
        make_db(
            &dir.db(),
            &format!("{} PRAGMA user_version = {newer};", schema()),
        );
        let before = std::fs::read(dir.db()).unwrap();
        assert_eq!(
            open_err(&dir),
            format!(
                "database {} was written by a newer punct (schema version {newer}; this punct \
                 knows versions up to {SCHEMA_VERSION}): upgrade punct, or start with another --data-dir",
                dir.db().display()
            )
        );
        assert_eq!(std::fs::read(dir.db()).unwrap(), before);
        assert!(!dir.0.join("games.sqlite3-wal").exists());
    }

    #[test]
    fn a_database_of_another_schema_is_refused() {
        let v1_without_moves = V1_SCHEMA.replace("moves       TEXT NOT NULL,", "");
        let cases = [
            (
                v1_without_moves.clone(),
                "is not a PÜNCT games database: table games has no column `moves`",
            ),
            (
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);".to_string(),
                "is not a PÜNCT games database: it has no table `games` (its tables: `notes`)",
            ),
            (
                format!("{V1_SCHEMA} CREATE TABLE notes (body TEXT);"),
                "is not a PÜNCT games database: it has a table `notes` that PÜNCT does not make",
            ),
            (
                V1_SCHEMA.replace("plies       INTEGER NOT NULL", "plies INTEGER, colour TEXT"),
                "is not a PÜNCT games database: table games has a column `colour` that schema \
                 version 1 does not have",
            ),
            (
                format!("{V1_SCHEMA} PRAGMA user_version = 2;"),
                "is not a PÜNCT games database: table games has no column `invite` (the file \
                 says schema version 2)",
            ),
            (
                format!("{} PRAGMA user_version = 1;", schema()),
                "is not a PÜNCT games database: table games has a column `invite` that schema \
                 version 1 does not have (the file says schema version 1)",
            ),
            (
                format!("{} PRAGMA user_version = -1;", schema()),
                "is not a PÜNCT games database: its schema version -1 is not one PÜNCT writes",
            ),
        ];
        for (sql, want) in cases {
            let dir = TempDir::new();
            make_db(&dir.db(), &sql);
            let before = std::fs::read(dir.db()).unwrap();
            let e = open_err(&dir);
            assert_eq!(
                e,
                format!("database {} {want}", dir.db().display()),
                "{sql}"
            );
            assert_eq!(std::fs::read(dir.db()).unwrap(), before, "{sql}");
        }
    }

    #[test]
    fn a_file_that_is_not_sqlite_is_refused() {
        let dir = TempDir::new();
        let text = "these are my notes, not a database\n".repeat(100);
        std::fs::write(dir.db(), &text).unwrap();
        assert_eq!(
            open_err(&dir),
            format!(
                "database {} is not an SQLite database (SQLite: file is not a database): move \
                 it away, or start with another --data-dir",
                dir.db().display()
            )
        );
        assert_eq!(std::fs::read_to_string(dir.db()).unwrap(), text);
    }
}
