//! Games on disk: one SQLite database (WAL; `synchronous = FULL` unless the
//! operator chose `NORMAL`, see [`SyncMode`]).
//!
//! Every write goes through one writer thread that commits whatever has
//! queued up in a single transaction and only then acknowledges each
//! write: a move is on disk before anyone is told it was played, and many
//! games moving at once share one fsync (group commit).

use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Mutex;
use tokio::sync::oneshot;

/// A game as stored: everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    /// `ai`, `hotseat` or `online`.
    pub mode: String,
    pub ai_level: Option<u32>,
    /// The side the AI plays (`white` / `black`).
    pub ai_side: Option<String>,
    pub white_token: Option<String>,
    pub black_token: Option<String>,
    /// Position string the game started from.
    pub start: String,
    /// The moves in notation, separated by spaces.
    pub moves: String,
    /// A result the position does not show (resignation, agreement, an
    /// imported record's result): `1-0`, `0-1` or `1/2-1/2`.
    pub result: Option<String>,
    /// Why `result`: `resignation`, `agreement` or `recorded`.
    pub reason: Option<String>,
    /// Which side offers a draw / asks for a takeback, if any.
    pub draw_offer: Option<String>,
    pub takeback: Option<String>,
    /// Milliseconds since 1970.
    pub created: i64,
    pub updated: i64,
    /// Counts every change; clients use it to order updates.
    pub version: i64,
    /// A short summary for listings: `ongoing`, or the result token.
    pub status: String,
    /// Plies played (for listings).
    pub plies: i64,
    /// The code that claims the online seat still waiting for its player
    /// (`None` once claimed, and in other modes).
    pub invite: Option<String>,
    /// The game came from an imported record.
    pub imported: bool,
    /// An imported record's own tags, as a JSON array of `[name, value]`.
    pub tags: Option<String>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    mode        TEXT NOT NULL,
    ai_level    INTEGER,
    ai_side     TEXT,
    white_token TEXT,
    black_token TEXT,
    start       TEXT NOT NULL,
    moves       TEXT NOT NULL,
    result      TEXT,
    reason      TEXT,
    draw_offer  TEXT,
    takeback    TEXT,
    created     INTEGER NOT NULL,
    updated     INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    status      TEXT NOT NULL,
    plies       INTEGER NOT NULL,
    invite      TEXT,
    imported    INTEGER NOT NULL DEFAULT 0,
    tags        TEXT
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated DESC);
";

const COLUMNS: &str = "id, variant, mode, ai_level, ai_side, white_token, black_token, start, \
                       moves, result, reason, draw_offer, takeback, created, updated, version, \
                       status, plies, invite, imported, tags";

fn row_to_game(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        mode: r.get(2)?,
        ai_level: r.get(3)?,
        ai_side: r.get(4)?,
        white_token: r.get(5)?,
        black_token: r.get(6)?,
        start: r.get(7)?,
        moves: r.get(8)?,
        result: r.get(9)?,
        reason: r.get(10)?,
        draw_offer: r.get(11)?,
        takeback: r.get(12)?,
        created: r.get(13)?,
        updated: r.get(14)?,
        version: r.get(15)?,
        status: r.get(16)?,
        plies: r.get(17)?,
        invite: r.get(18)?,
        imported: r.get(19)?,
        tags: r.get(20)?,
    })
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

fn open(path: &Path, sync: SyncMode) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", sync.pragma())?;
    Ok(conn)
}

type Ack = oneshot::Sender<Result<(), SaveError>>;

/// Why a write did not land.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// An insert found a game with that id already: nothing was written.
    Duplicate,
    /// An update found the game at another version than expected (it
    /// changed meanwhile): nothing was written.
    Stale,
    /// The database failed.
    Failed(String),
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

/// One queued write.
enum Write {
    /// A new game: never replaces one.
    Insert(GameRow),
    /// A changed game, expected at this version in the database.
    Update(GameRow, i64),
}

/// The database: a writer thread and a connection for reads.
pub struct Store {
    path: PathBuf,
    writes: Mutex<mpsc::Sender<(Write, Ack)>>,
    reader: Mutex<Connection>,
}

impl Store {
    /// Opens (creating if needed) `games.sqlite3` in `dir`.
    pub fn open(dir: &Path, sync: SyncMode) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create data directory {}: {e}", dir.display()))?;
        let path = dir.join("games.sqlite3");
        let fail = |e: rusqlite::Error| format!("database {}: {e}", path.display());
        let writer = open(&path, sync).map_err(fail)?;
        writer.execute_batch(SCHEMA).map_err(fail)?;
        let reader = open(&path, sync).map_err(fail)?;
        let (tx, rx) = mpsc::channel::<(Write, Ack)>();
        std::thread::Builder::new()
            .name("punct-db-writer".into())
            .spawn(move || write_loop(writer, rx))
            .map_err(|e| format!("cannot start the database writer: {e}"))?;
        Ok(Store {
            path,
            writes: Mutex::new(tx),
            reader: Mutex::new(reader),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Stores a new game; returns once it is committed. Never replaces a
    /// game: an id in use is [`SaveError::Duplicate`].
    pub async fn insert(&self, row: GameRow) -> Result<(), SaveError> {
        self.write(Write::Insert(row)).await
    }

    /// Stores a changed game that was at `expected_version` when it was
    /// read; returns once it is committed. If the stored game is at
    /// another version, nothing is written: [`SaveError::Stale`].
    pub async fn update(&self, row: GameRow, expected_version: i64) -> Result<(), SaveError> {
        self.write(Write::Update(row, expected_version)).await
    }

    async fn write(&self, write: Write) -> Result<(), SaveError> {
        let stopped = || SaveError::Failed("database writer stopped".to_string());
        let (ack, done) = oneshot::channel();
        self.writes
            .lock()
            .map_err(|_| stopped())?
            .send((write, ack))
            .map_err(|_| stopped())?;
        done.await.map_err(|_| stopped())?
    }

    pub fn load(&self, id: &str) -> Result<Option<GameRow>, String> {
        let conn = self
            .reader
            .lock()
            .map_err(|_| "database reader unavailable")?;
        conn.query_row(
            &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
            params![id],
            row_to_game,
        )
        .optional()
        .map_err(|e| format!("database: {e}"))
    }

    /// The most recently changed games, newest first; `status` filters to
    /// `ongoing` or `finished` games.
    pub fn recent(&self, status: Option<&str>, limit: u32) -> Result<Vec<GameRow>, String> {
        let conn = self
            .reader
            .lock()
            .map_err(|_| "database reader unavailable")?;
        let filter = match status {
            Some("ongoing") => "WHERE status = 'ongoing'",
            Some(_) => "WHERE status <> 'ongoing'",
            None => "",
        };
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {COLUMNS} FROM games {filter} ORDER BY updated DESC, id LIMIT ?1"
            ))
            .map_err(|e| format!("database: {e}"))?;
        let rows = stmt
            .query_map(params![limit], row_to_game)
            .map_err(|e| format!("database: {e}"))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("database: {e}"))
    }
}

fn row_params(g: &GameRow) -> [&dyn rusqlite::ToSql; 21] {
    [
        &g.id,
        &g.variant,
        &g.mode,
        &g.ai_level,
        &g.ai_side,
        &g.white_token,
        &g.black_token,
        &g.start,
        &g.moves,
        &g.result,
        &g.reason,
        &g.draw_offer,
        &g.takeback,
        &g.created,
        &g.updated,
        &g.version,
        &g.status,
        &g.plies,
        &g.invite,
        &g.imported,
        &g.tags,
    ]
}

const PLACES: &str =
    "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21";

/// Runs one write inside the batch's transaction. A failed statement
/// leaves the transaction usable (SQLite rolls back that statement only),
/// so one write's failure is that write's answer alone.
fn apply(conn: &Connection, write: &Write) -> Result<(), SaveError> {
    let failed = |e: rusqlite::Error| SaveError::Failed(format!("database write failed: {e}"));
    match write {
        Write::Insert(g) => {
            let mut stmt = conn
                .prepare_cached(&format!("INSERT INTO games ({COLUMNS}) VALUES ({PLACES})"))
                .map_err(failed)?;
            match stmt.execute(&row_params(g)[..]) {
                Ok(_) => Ok(()),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::ConstraintViolation =>
                {
                    Err(SaveError::Duplicate)
                }
                Err(e) => Err(failed(e)),
            }
        }
        Write::Update(g, expected) => {
            let set: Vec<String> = COLUMNS
                .split(", ")
                .enumerate()
                .skip(1)
                .map(|(i, c)| format!("{c} = ?{}", i + 1))
                .collect();
            let mut stmt = conn
                .prepare_cached(&format!(
                    "UPDATE games SET {} WHERE id = ?1 AND version = ?22",
                    set.join(", ")
                ))
                .map_err(failed)?;
            let mut params: Vec<&dyn rusqlite::ToSql> = row_params(g).to_vec();
            params.push(expected);
            match stmt.execute(&params[..]) {
                Ok(1) => Ok(()),
                Ok(_) => Err(SaveError::Stale),
                Err(e) => Err(failed(e)),
            }
        }
    }
}

/// Commits queued writes in batches until every sender is gone. Each
/// write gets its own answer; a failed commit fails the whole batch.
fn write_loop(mut conn: Connection, rx: mpsc::Receiver<(Write, Ack)>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 256 {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let committed = (|| -> rusqlite::Result<Vec<Result<(), SaveError>>> {
            let tx = conn.transaction()?;
            let answers = batch.iter().map(|(w, _)| apply(&tx, w)).collect();
            tx.commit()?;
            Ok(answers)
        })();
        match committed {
            Ok(answers) => {
                for ((_, ack), answer) in batch.into_iter().zip(answers) {
                    // A requester that went away no longer needs the answer.
                    let _ = ack.send(answer);
                }
            }
            Err(e) => {
                let e = SaveError::Failed(format!("database write failed: {e}"));
                for (_, ack) in batch {
                    let _ = ack.send(Err(e.clone()));
                }
            }
        }
    }
}
