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
    plies       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated DESC);
";

const COLUMNS: &str = "id, variant, mode, ai_level, ai_side, white_token, black_token, start, \
                       moves, result, reason, draw_offer, takeback, created, updated, version, \
                       status, plies";

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

type Ack = oneshot::Sender<Result<(), String>>;

/// The database: a writer thread and a connection for reads.
pub struct Store {
    path: PathBuf,
    writes: Mutex<mpsc::Sender<(GameRow, Ack)>>,
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
        let (tx, rx) = mpsc::channel::<(GameRow, Ack)>();
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

    /// Writes `row` (insert or replace); returns once it is committed.
    pub async fn save(&self, row: GameRow) -> Result<(), String> {
        let (ack, done) = oneshot::channel();
        self.writes
            .lock()
            .map_err(|_| "database writer unavailable".to_string())?
            .send((row, ack))
            .map_err(|_| "database writer stopped".to_string())?;
        done.await
            .map_err(|_| "database writer stopped".to_string())?
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

fn upsert(conn: &Connection, g: &GameRow) -> rusqlite::Result<()> {
    conn.prepare_cached(&format!(
        "INSERT OR REPLACE INTO games ({COLUMNS}) VALUES \
         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
    ))?
    .execute(params![
        g.id,
        g.variant,
        g.mode,
        g.ai_level,
        g.ai_side,
        g.white_token,
        g.black_token,
        g.start,
        g.moves,
        g.result,
        g.reason,
        g.draw_offer,
        g.takeback,
        g.created,
        g.updated,
        g.version,
        g.status,
        g.plies
    ])?;
    Ok(())
}

/// Commits queued writes in batches until every sender is gone.
fn write_loop(mut conn: Connection, rx: mpsc::Receiver<(GameRow, Ack)>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 256 {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let outcome = (|| -> rusqlite::Result<()> {
            let tx = conn.transaction()?;
            for (row, _) in &batch {
                upsert(&tx, row)?;
            }
            tx.commit()
        })()
        .map_err(|e| format!("database write failed: {e}"));
        for (_, ack) in batch {
            // A requester that went away no longer needs the answer.
            let _ = ack.send(outcome.clone());
        }
    }
}
