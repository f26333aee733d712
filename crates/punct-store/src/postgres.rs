//! Games in PostgreSQL, shared by any number of `punct serve` instances.
//!
//! A pool of connections (deadpool-postgres); every write is one
//! statement, so it is its own transaction: an insert that does nothing
//! when the id is taken, an update that lands only on the expected
//! version. Each write that lands also sends `NOTIFY punct_games` with
//! the game's id and new version, delivered at commit, so other instances
//! can read the game again. The schema is versioned by refinery's
//! migrations (`postgres/V*.sql`), applied by `punct db migrate`; `punct
//! serve` only checks it.

use super::{
    job_of, BoxFuture, Change, GameRow, ListFilter, SaveError, StoreError, COLUMNS, LIST_COLUMNS,
};
use crate::game::Words;
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use std::sync::OnceLock;
use tokio::sync::broadcast;
use tokio_postgres::types::ToSql;
use tokio_postgres::NoTls;

mod accounts;
mod jobs;
mod lobby;
mod notes;
mod presence;

mod embedded {
    refinery::embed_migrations!("src/postgres");
}

/// The channel every change of a game is announced on: the payload is
/// `ID VERSION` (far below PostgreSQL's 8,000-byte limit); presence and
/// the lobby announce on it too (see [`parse_payload`]).
pub const CHANNEL: &str = "punct_games";

/// Connections each instance keeps at most.
const POOL_SIZE: usize = 16;

/// A new game, unless its id is taken, with the job it waits for
/// (parameter 36), announced at commit. Made once.
static INSERT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let places: Vec<String> = (1..=35).map(|i| format!("${i}")).collect();
    format!(
        "WITH added AS (INSERT INTO games ({COLUMNS}) VALUES ({}) \
         ON CONFLICT (id) DO NOTHING RETURNING id, version), {} \
         SELECT pg_notify('{CHANNEL}', id || ' ' || version) FROM added",
        places.join(", "),
        jobs::keep_job("added", 36)
    )
});

/// A change at its expected version (parameter 36, after the row's own),
/// with the job the game now waits for (37), announced at commit. Made
/// once.
static UPDATE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH changed AS (UPDATE games SET {} WHERE id = $1 AND version = $36 \
         RETURNING id, version), {} \
         SELECT pg_notify('{CHANNEL}', id || ' ' || version) FROM changed",
        super::assignments(|n| format!("${n}")),
        jobs::keep_job("changed", 37)
    )
});

/// Reads a connection URL.
pub fn parse_url(url: &str) -> Result<tokio_postgres::Config, String> {
    url.parse::<tokio_postgres::Config>().map_err(|e| {
        format!("the PostgreSQL URL is not valid ({e}): write postgres://USER[:PASSWORD]@HOST[:PORT]/NAME")
    })
}

/// `PostgreSQL database NAME on HOST:PORT as USER`: the URL without its
/// password, for messages and logs.
pub fn describe_url(url: &str) -> String {
    let Ok(config) = parse_url(url) else {
        return "a PostgreSQL database (URL not valid)".to_string();
    };
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let host = match h {
                tokio_postgres::config::Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
            };
            let port = config.get_ports().get(i).or(config.get_ports().first());
            match port {
                Some(p) => format!("{host}:{p}"),
                None => host,
            }
        })
        .collect();
    let on = if hosts.is_empty() {
        "localhost".to_string()
    } else {
        hosts.join(",")
    };
    let user = config.get_user().unwrap_or("(default user)");
    match config.get_dbname() {
        Some(name) => format!("PostgreSQL database {name} on {on} as {user}"),
        None => format!("PostgreSQL database on {on} as {user}"),
    }
}

/// A PostgreSQL error with what the server said, not just its kind.
pub(crate) fn pg_error(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut text = format!("{}: {}", db.severity(), db.message());
        if let Some(detail) = db.detail() {
            text.push_str(&format!(" ({detail})"));
        }
        return text;
    }
    match std::error::Error::source(e) {
        Some(source) => format!("{e}: {source}"),
        None => e.to_string(),
    }
}

/// A query that failed.
fn query_failed(e: tokio_postgres::Error) -> StoreError {
    StoreError::failed(format!("database: {}", pg_error(&e)))
}

fn pool_error(e: deadpool_postgres::PoolError) -> String {
    match e {
        deadpool_postgres::PoolError::Backend(e) => pg_error(&e),
        e => e.to_string(),
    }
}

/// What the database's schema history says.
enum Schema {
    /// No PÜNCT schema yet (an empty database).
    Empty,
    /// The last migration applied.
    At(i32),
    /// Tables that are not PÜNCT's, and no schema history.
    Foreign(String),
}

/// The newest schema version this punct knows.
fn latest() -> i32 {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| m.version())
        .max()
        .unwrap_or(0)
}

async fn schema(client: &mut tokio_postgres::Client) -> Result<Schema, StoreError> {
    let history: Option<String> = client
        .query_one("SELECT to_regclass('refinery_schema_history')::text", &[])
        .await
        .map_err(|e| StoreError::failed(pg_error(&e)))?
        .get(0);
    if history.is_none() {
        let tables: Vec<String> = client
            .query(
                "SELECT table_name::text FROM information_schema.tables \
                 WHERE table_schema = current_schema() ORDER BY 1",
                &[],
            )
            .await
            .map_err(|e| StoreError::failed(pg_error(&e)))?
            .iter()
            .map(|r| r.get(0))
            .collect();
        return Ok(if tables.is_empty() {
            Schema::Empty
        } else {
            Schema::Foreign(format!(
                "it has tables ({}) but no PÜNCT schema history",
                tables.join(", ")
            ))
        });
    }
    let last = embedded::migrations::runner()
        .get_last_applied_migration_async(client)
        .await
        .map_err(|e| StoreError::failed(format!("reading the schema history: {e}")))?;
    Ok(last.map_or(Schema::Empty, |m| Schema::At(m.version())))
}

async fn connect(url: &str) -> Result<tokio_postgres::Client, StoreError> {
    let config = parse_url(url).map_err(StoreError::unusable)?;
    let (client, connection) = config.connect(NoTls).await.map_err(|e| {
        StoreError::unreachable(format!(
            "cannot connect to {}: {}",
            describe_url(url),
            pg_error(&e)
        ))
    })?;
    tokio::spawn(async move {
        // Ends when the client is dropped, or with the connection's error.
        let _ = connection.await;
    });
    Ok(client)
}

/// Applies the migrations up to `version` only: a database as an older
/// punct left it, for the tests of a migration.
#[cfg(test)]
pub(crate) async fn migrate_to(url: &str, version: i32) -> Result<(), StoreError> {
    let mut client = connect(url).await?;
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(version))
        .run_async(&mut client)
        .await
        .map(drop)
        .map_err(|e| StoreError::failed(format!("migrating to {version} failed: {e}")))
}

/// `punct db migrate` on PostgreSQL: applies the migrations this punct
/// has and the database lacks, each in its own transaction, under an
/// advisory lock so two instances migrating at once take turns.
pub async fn migrate(url: &str) -> Result<String, StoreError> {
    let what = describe_url(url);
    let mut client = connect(url).await?;
    // A number of our own for the lock: "PÜNCT" in ASCII-ish bytes.
    const LOCK: i64 = 0x5055_4e43_5400;
    client
        .execute("SELECT pg_advisory_lock($1)", &[&LOCK])
        .await
        .map_err(|e| StoreError::failed(format!("{what}: {}", pg_error(&e))))?;
    let result = async {
        if let Schema::Foreign(why) = schema(&mut client).await? {
            return Err(StoreError::unusable(format!(
                "{what} is not a PÜNCT games database: {why}"
            )));
        }
        let report = embedded::migrations::runner()
            .run_async(&mut client)
            .await
            .map_err(|e| StoreError::failed(format!("{what}: migrating failed: {e}")))?;
        let applied: Vec<String> = report
            .applied_migrations()
            .iter()
            .map(|m| format!("{} ({})", m.version(), m.name()))
            .collect();
        Ok(if applied.is_empty() {
            format!("{what}: at schema version {}, nothing to do", latest())
        } else {
            format!(
                "{what}: applied schema version{} {}; now at {}",
                if applied.len() > 1 { "s" } else { "" },
                applied.join(", "),
                latest()
            )
        })
    }
    .await;
    let _ = client
        .execute("SELECT pg_advisory_unlock($1)", &[&LOCK])
        .await;
    result
}

/// The games in a PostgreSQL database.
pub struct Store {
    pool: Pool,
    url: String,
    /// The announcements of changes, once someone asked for them.
    changes: OnceLock<broadcast::Sender<Change>>,
}

impl Store {
    /// Connects and checks that the database is at this punct's schema.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let what = describe_url(url);
        let mut client = connect(url).await?;
        let migrate = format!("punct db migrate --database '{}'", redact(url));
        match schema(&mut client).await? {
            Schema::At(v) if v == latest() => {}
            Schema::At(v) if v > latest() => {
                return Err(StoreError::unusable(format!(
                    "{what} was written by a newer punct (schema version {v}; this punct knows \
                     versions up to {}): upgrade punct",
                    latest()
                )))
            }
            Schema::At(v) => {
                return Err(StoreError::unusable(format!(
                    "{what} is at schema version {v}, this punct needs {}: run `{migrate}` first",
                    latest()
                )))
            }
            Schema::Empty => {
                return Err(StoreError::unusable(format!(
                    "{what} has no PÜNCT tables yet: run `{migrate}` first"
                )))
            }
            Schema::Foreign(why) => {
                return Err(StoreError::unusable(format!(
                    "{what} is not a PÜNCT games database: {why}"
                )))
            }
        }
        drop(client);
        let manager = Manager::from_config(
            parse_url(url).map_err(StoreError::unusable)?,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .create_timeout(Some(std::time::Duration::from_secs(10)))
            .wait_timeout(Some(std::time::Duration::from_secs(10)))
            .build()
            .map_err(|e| StoreError::failed(format!("{what}: {e}")))?;
        Ok(Store {
            pool,
            url: url.to_string(),
            changes: OnceLock::new(),
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::failed(format!("{}: {}", self.describe_db(), pool_error(e))))
    }

    fn describe_db(&self) -> String {
        describe_url(&self.url)
    }

    async fn insert_row(&self, row: GameRow) -> Result<(), SaveError> {
        let client = self.client().await.map_err(SaveError::Failed)?;
        insert_in(&client, &row).await
    }

    async fn update_row(&self, row: GameRow, expected: i64) -> Result<(), SaveError> {
        let client = self.client().await.map_err(SaveError::Failed)?;
        update_in(&client, &row, expected).await
    }

    async fn update_and_insert_rows(
        &self,
        row: GameRow,
        expected: i64,
        new: GameRow,
    ) -> Result<(), SaveError> {
        let mut client = self.client().await.map_err(SaveError::Failed)?;
        // Dropped without a commit, the transaction rolls back.
        let tx = client.transaction().await.map_err(write_failed)?;
        update_in(&tx, &row, expected).await?;
        insert_in(&tx, &new).await?;
        tx.commit().await.map_err(write_failed)
    }

    /// The games `filter` picks, reading `columns` ([`COLUMNS`] or a list's
    /// [`LIST_COLUMNS`]).
    async fn select(
        &self,
        columns: &str,
        filter: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<GameRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!("SELECT {columns} FROM games {filter}"))
            .await
            .map_err(query_failed)?;
        client
            .query(&stmt, params)
            .await
            .map_err(query_failed)?
            .iter()
            .map(row_to_game)
            .collect()
    }

    async fn list_rows(&self, filter: &ListFilter) -> Result<Vec<GameRow>, StoreError> {
        let mut clauses: Vec<String> = filter
            .fixed_conditions()
            .into_iter()
            .map(String::from)
            .collect();
        let mut params: Vec<Box<dyn ToSql + Sync + Send>> = Vec::new();
        if let Some(before) = filter.empty_before {
            params.push(Box::new(before));
            clauses.push(format!("(plies > 0 OR updated >= ${})", params.len()));
        }
        if let Some(ids) = &filter.ids {
            params.push(Box::new(ids.clone()));
            clauses.push(format!("id = ANY(${})", params.len()));
        }
        if let Some(user) = &filter.user {
            params.push(Box::new(user.clone()));
            clauses.extend(filter.user_conditions(&format!("${}", params.len())));
        }
        if let Some(rated) = filter.rated {
            params.push(Box::new(rated));
            clauses.push(format!("rated = ${}", params.len()));
        }
        if let Some(variant) = &filter.variant {
            params.push(Box::new(variant.clone()));
            clauses.push(format!("variant = ${}", params.len()));
        }
        params.push(Box::new(i64::from(filter.limit)));
        let limit = params.len();
        params.push(Box::new(i64::from(filter.offset)));
        let offset = params.len();
        let filter = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        let refs: Vec<&(dyn ToSql + Sync)> = params
            .iter()
            .map(|p| p.as_ref() as &(dyn ToSql + Sync))
            .collect();
        // Ids compare bytewise, as in SQLite, whatever the database's
        // collation.
        self.select(
            &LIST_COLUMNS,
            &format!(
                "{filter} ORDER BY updated DESC, id COLLATE \"C\" LIMIT ${limit} OFFSET ${offset}"
            ),
            &refs,
        )
        .await
    }
}

/// Listens on [`CHANNEL`] on a connection of its own and passes every
/// announcement on, for as long as the process runs. A lost connection is
/// made again (after a pause); announcements sent meanwhile are lost, so
/// each new connection starts with [`Change::Missed`].
async fn listen(url: String, changes: broadcast::Sender<Change>) {
    let mut said = false;
    loop {
        match parse_url(&url) {
            Ok(config) => match config.connect(NoTls).await {
                Ok((client, mut connection)) => {
                    said = false;
                    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
                    // The connection itself hands over the notifications.
                    let driver = tokio::spawn(async move {
                        loop {
                            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                                Some(Ok(tokio_postgres::AsyncMessage::Notification(n))) => {
                                    if tx.send(n).is_err() {
                                        return;
                                    }
                                }
                                Some(Ok(_)) => {}
                                Some(Err(_)) | None => return,
                            }
                        }
                    });
                    if client
                        .batch_execute(&format!("LISTEN {CHANNEL}"))
                        .await
                        .is_ok()
                    {
                        let _ = changes.send(Change::Missed);
                        while let Some(n) = rx.recv().await {
                            if let Some(change) = parse_payload(n.payload()) {
                                let _ = changes.send(change);
                            }
                        }
                    }
                    driver.abort();
                    tracing::warn!(
                        "lost the connection that listens for changes to {}; \
                         connecting again",
                        describe_url(&url)
                    );
                }
                Err(e) if !said => {
                    said = true;
                    tracing::warn!(
                        "cannot listen for changes to {}: {}; trying again",
                        describe_url(&url),
                        pg_error(&e)
                    );
                }
                Err(_) => {}
            },
            Err(_) => return,
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

/// A payload → a change: `ID VERSION` (a game), `ID presence INSTANCE`,
/// or the lobby's `lobby add ID`, `lobby remove ID` and `lobby paired SEEK
/// GAME`. Ids are ASCII letters and digits, so a payload's words are its
/// spaces' pieces. The lobby's second word (`add`, `remove`, `paired`) is
/// neither a game's version (a number) nor `presence`, so a game whose id
/// is `lobby` is still read as a game.
fn parse_payload(payload: &str) -> Option<Change> {
    if let Some(rest) = payload.strip_prefix("lobby ") {
        let words: Vec<&str> = rest.split(' ').collect();
        let id = |w: &str| (!w.is_empty()).then(|| w.to_string());
        match words[..] {
            ["add", seek] => {
                return Some(Change::Seek {
                    id: id(seek)?,
                    added: true,
                })
            }
            ["remove", seek] => {
                return Some(Change::Seek {
                    id: id(seek)?,
                    added: false,
                })
            }
            ["paired", seek, game] => {
                return Some(Change::Paired {
                    seek: id(seek)?,
                    game: id(game)?,
                })
            }
            ["declined", seek] => return Some(Change::Declined { seek: id(seek)? }),
            // A game called `lobby`.
            _ => {}
        }
    }
    let (id, rest) = payload.split_once(' ')?;
    if let Some(instance) = rest.strip_prefix("presence ") {
        return Some(Change::Presence {
            id: id.to_string(),
            instance: instance.to_string(),
        });
    }
    // `note USER ID` or `note USER read` (notes.rs): three words, where a
    // game's announcement has two (a game called `note` is read as one).
    if id == "note" {
        if let Some((user, what)) = rest.split_once(' ') {
            if user.is_empty() || what.contains(' ') {
                return None;
            }
            let id = match what {
                "read" => None,
                n => Some(n.parse().ok()?),
            };
            return Some(Change::Note {
                user: user.to_string(),
                id,
            });
        }
    }
    Some(Change::Game {
        id: id.to_string(),
        version: rest.parse().ok()?,
    })
}

/// The URL with its password (if any) replaced, for messages that show
/// a command to run.
fn redact(url: &str) -> String {
    // postgres://user:password@host/… → postgres://user:…@host/…
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((auth, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:PASSWORD@{host}"),
        None => url.to_string(),
    }
}

/// Inserts a new game with `client` (a connection or a transaction).
async fn insert_in(client: &impl GenericClient, row: &GameRow) -> Result<(), SaveError> {
    let words = Words::of(row);
    let ai_level = level_param(&words)?;
    let job = job_of(row).map(|j| j.as_str());
    let stmt = client.prepare_cached(&INSERT).await.map_err(write_failed)?;
    let mut params = row_params(row, &words, &ai_level).to_vec();
    params.push(&job);
    let rows = client.query(&stmt, &params).await.map_err(write_failed)?;
    if rows.is_empty() {
        Err(SaveError::Duplicate)
    } else {
        Ok(())
    }
}

/// Writes a changed game at its expected version with `client`.
async fn update_in(
    client: &impl GenericClient,
    row: &GameRow,
    expected: i64,
) -> Result<(), SaveError> {
    let words = Words::of(row);
    let ai_level = level_param(&words)?;
    let stmt = client.prepare_cached(&UPDATE).await.map_err(write_failed)?;
    let job = job_of(row).map(|j| j.as_str());
    let mut params = row_params(row, &words, &ai_level).to_vec();
    params.push(&expected);
    params.push(&job);
    let rows = client.query(&stmt, &params).await.map_err(write_failed)?;
    if rows.is_empty() {
        // Another version, or no such game at all.
        Err(SaveError::Stale)
    } else {
        Ok(())
    }
}

fn write_failed(e: tokio_postgres::Error) -> SaveError {
    SaveError::Failed(StoreError::failed(format!(
        "database write failed: {}",
        pg_error(&e)
    )))
}

/// The AI level as PostgreSQL's INTEGER.
fn level_param(words: &Words) -> Result<Option<i32>, SaveError> {
    words.ai_level.map(i32::try_from).transpose().map_err(|_| {
        SaveError::Failed(StoreError::failed(format!(
            "AI level {:?} out of range",
            words.ai_level
        )))
    })
}

/// A game's 35 parameters in [`COLUMNS`] order; `w` holds its typed
/// values' words.
fn row_params<'a>(
    g: &'a GameRow,
    w: &'a Words,
    ai_level: &'a Option<i32>,
) -> [&'a (dyn ToSql + Sync); 35] {
    [
        &g.id,
        &g.variant,
        &w.mode,
        ai_level,
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

/// A game read from its columns; the typed values from their words
/// (`game.rs`).
fn row_to_game(r: &tokio_postgres::Row) -> Result<GameRow, StoreError> {
    let bad = |e: tokio_postgres::Error| {
        StoreError::failed(format!("database: a stored game: {}", pg_error(&e)))
    };
    let mut row = GameRow {
        id: r.try_get(0).map_err(bad)?,
        variant: r.try_get(1).map_err(bad)?,
        white_token: r.try_get(5).map_err(bad)?,
        black_token: r.try_get(6).map_err(bad)?,
        start: r.try_get(7).map_err(bad)?,
        moves: r.try_get(8).map_err(bad)?,
        created: r.try_get(13).map_err(bad)?,
        updated: r.try_get(14).map_err(bad)?,
        version: r.try_get(15).map_err(bad)?,
        plies: r.try_get(17).map_err(bad)?,
        invite: r.try_get(18).map_err(bad)?,
        imported: r.try_get(19).map_err(bad)?,
        tags: r.try_get(20).map_err(bad)?,
        white_name: r.try_get(21).map_err(bad)?,
        black_name: r.try_get(22).map_err(bad)?,
        clock: r.try_get(23).map_err(bad)?,
        white_ms: r.try_get(24).map_err(bad)?,
        black_ms: r.try_get(25).map_err(bad)?,
        clock_since: r.try_get(26).map_err(bad)?,
        assisted: r.try_get(27).map_err(bad)?,
        rematch: r.try_get(29).map_err(bad)?,
        review: r.try_get(30).map_err(bad)?,
        white_user: r.try_get(31).map_err(bad)?,
        black_user: r.try_get(32).map_err(bad)?,
        rated: r.try_get(33).map_err(bad)?,
        chat: r.try_get(34).map_err(bad)?,
        ..GameRow::default()
    };
    let ai_level: Option<i32> = r.try_get(3).map_err(bad)?;
    let ai_level = match ai_level.map(u32::try_from).transpose() {
        Ok(level) => level,
        Err(_) => {
            return Err(StoreError::corrupt(
                &row.id,
                format!("the column ai_level holds {ai_level:?}"),
            ))
        }
    };
    Words {
        mode: r.try_get(2).map_err(bad)?,
        ai_level,
        ai_side: r.try_get(4).map_err(bad)?,
        result: r.try_get(9).map_err(bad)?,
        reason: r.try_get(10).map_err(bad)?,
        draw_offer: r.try_get(11).map_err(bad)?,
        takeback: r.try_get(12).map_err(bad)?,
        status: r.try_get(16).map_err(bad)?,
        rematch_offer: r.try_get(28).map_err(bad)?,
    }
    .read_into(&mut row)?;
    Ok(row)
}

impl super::Storage for Store {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn describe(&self) -> String {
        self.describe_db()
    }

    fn insert(&self, row: GameRow) -> BoxFuture<'_, Result<(), SaveError>> {
        Box::pin(self.insert_row(row))
    }

    fn update(&self, row: GameRow, expected: i64) -> BoxFuture<'_, Result<(), SaveError>> {
        Box::pin(self.update_row(row, expected))
    }

    fn update_and_insert(
        &self,
        row: GameRow,
        expected: i64,
        new: GameRow,
    ) -> BoxFuture<'_, Result<(), SaveError>> {
        Box::pin(self.update_and_insert_rows(row, expected, new))
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<GameRow>, StoreError>> {
        Box::pin(async move {
            let id = id.to_string();
            Ok(self
                .select(COLUMNS, "WHERE id = $1", &[&id])
                .await?
                .into_iter()
                .next())
        })
    }

    fn list<'a>(
        &'a self,
        filter: &'a ListFilter,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>> {
        Box::pin(self.list_rows(filter))
    }

    fn clocks_due(&self, by: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT id FROM games WHERE status = 'ongoing' AND clock_since IS NOT NULL \
                     AND clock_since + LEAST(COALESCE(white_ms, 0), COALESCE(black_ms, 0)) <= $1",
                    &[&by],
                )
                .await
                .map_err(query_failed)?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn page<'a>(
        &'a self,
        after: Option<&'a str>,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<GameRow>, StoreError>> {
        Box::pin(async move {
            let after = after.map(str::to_string);
            let limit = i64::from(limit);
            self.select(
                COLUMNS,
                "WHERE $1::text IS NULL OR id COLLATE \"C\" > $1 ORDER BY id COLLATE \"C\" LIMIT $2",
                &[&after, &limit],
            )
            .await
        })
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        let sender = self.changes.get_or_init(|| {
            let (tx, _) = broadcast::channel(1024);
            tokio::spawn(listen(self.url.clone(), tx.clone()));
            tx
        });
        Some(sender.subscribe())
    }

    fn jobs(&self) -> Option<&dyn super::JobQueue> {
        Some(self)
    }

    fn presence(&self) -> Option<&dyn super::PresenceBoard> {
        Some(self)
    }

    fn accounts(&self) -> &dyn super::AccountStore {
        self
    }

    fn lobby(&self) -> &dyn super::Lobby {
        self
    }

    fn notes(&self) -> &dyn super::Notes {
        self
    }

    fn heartbeat<'a>(&'a self, instance: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "INSERT INTO instances (name, beat) VALUES ($1, now()) \
                     ON CONFLICT (name) DO UPDATE SET beat = now()",
                    &[&instance],
                )
                .await
                .map(|_| ())
                .map_err(|e| {
                    StoreError::failed(format!(
                        "{}: a write failed: {}",
                        self.describe_db(),
                        pg_error(&e)
                    ))
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_never_shows_the_password() {
        let text = describe_url("postgres://punct:s3cret@db.example:5433/games");
        assert_eq!(
            text,
            "PostgreSQL database games on db.example:5433 as punct"
        );
        assert!(!redact("postgres://punct:s3cret@db/games").contains("s3cret"));
        assert_eq!(
            redact("postgres://punct@db/games"),
            "postgres://punct@db/games"
        );
    }

    #[test]
    fn announcements_carry_the_id_and_version() {
        assert_eq!(
            parse_payload("abc123 17"),
            Some(Change::Game {
                id: "abc123".into(),
                version: 17
            })
        );
        assert_eq!(parse_payload("abc123"), None);
        assert_eq!(parse_payload("abc123 x"), None);
        assert_eq!(
            parse_payload("abc123 presence host-1-xy"),
            Some(Change::Presence {
                id: "abc123".into(),
                instance: "host-1-xy".into()
            })
        );
    }

    #[test]
    fn the_lobbys_announcements_are_never_a_games() {
        let seek = |id: &str, added| {
            Some(Change::Seek {
                id: id.into(),
                added,
            })
        };
        assert_eq!(parse_payload("lobby add s1"), seek("s1", true));
        assert_eq!(parse_payload("lobby remove s1"), seek("s1", false));
        assert_eq!(
            parse_payload("lobby paired s1 g2"),
            Some(Change::Paired {
                seek: "s1".into(),
                game: "g2".into()
            })
        );
        assert_eq!(
            parse_payload("lobby declined s1"),
            Some(Change::Declined { seek: "s1".into() })
        );
        assert_eq!(
            parse_payload("note u1 42"),
            Some(Change::Note {
                user: "u1".into(),
                id: Some(42)
            })
        );
        assert_eq!(
            parse_payload("note u1 read"),
            Some(Change::Note {
                user: "u1".into(),
                id: None
            })
        );
        assert_eq!(parse_payload("note u1 x"), None);
        // A game whose id is `note` is a game still.
        assert_eq!(
            parse_payload("note 3"),
            Some(Change::Game {
                id: "note".into(),
                version: 3
            })
        );
        // A game whose id is `lobby` is a game still.
        assert_eq!(
            parse_payload("lobby 3"),
            Some(Change::Game {
                id: "lobby".into(),
                version: 3
            })
        );
        assert_eq!(
            parse_payload("lobby presence host-1"),
            Some(Change::Presence {
                id: "lobby".into(),
                instance: "host-1".into()
            })
        );
        // Words missing or too many: nothing.
        for bad in [
            "lobby add",
            "lobby add ",
            "lobby remove",
            "lobby paired s1",
            "lobby paired s1 ",
            "lobby paired s1 g2 x",
            "lobby add s1 s2",
            "lobby other s1",
        ] {
            assert_eq!(parse_payload(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_bad_url_is_named() {
        let e = parse_url("postgres://punct@db:notaport/games").unwrap_err();
        assert!(e.contains("not valid"), "{e}");
    }

    #[test]
    fn the_migrations_are_numbered_from_one_without_gaps() {
        let mut versions: Vec<i32> = embedded::migrations::runner()
            .get_migrations()
            .iter()
            .map(|m| m.version())
            .collect();
        versions.sort();
        assert_eq!(versions, (1..=latest()).collect::<Vec<_>>());
    }
}
