//! The lobby's seeks (`5.sql`, challenges' `to_user` from `7.sql`) in the SQLite file: writes go through the
//! writer thread like a game's ([`LobbyWrite`], committed with the batch
//! and acknowledged after the commit), so the one writer makes each take
//! whole; reads run off the runtime's threads on the reader's connection.
//! One process owns the file: nothing is announced (`changes()` is `None`
//! and the server tells its own sockets).

use super::accounts::{all, insert_new, one, run, store_error};
use super::{linked, write_failed, Answer, Store, Write};
use crate::lobby::{check_id, in_pair_order, LISTED_SEEK_COLUMNS, SEEK_COLUMNS};
use crate::{BoxFuture, ErrorKind, Lobby, SaveError, SeekRow, StoreError};
use rusqlite::{params, Connection};
use std::sync::{Arc, Mutex};

/// Where a write that removes seeks leaves them for its requester, who
/// reads it once the write is acknowledged (after the commit). A write
/// tried again in a new transaction (see `commit_batch`) fills it again.
type Taken = Arc<Mutex<Vec<SeekRow>>>;

/// One queued write of the lobby.
pub(crate) enum LobbyWrite {
    Add(Box<SeekRow>),
    Remove(String),
    /// Takes these seeks, all of them or none (if one is gone).
    Take {
        ids: Vec<String>,
        taken: Taken,
    },
    Renew {
        instance: String,
        seen: i64,
    },
    /// Removes the seeks not confirmed since this time.
    Forget {
        before: i64,
        taken: Taken,
    },
}

/// A seek from its columns ([`SEEK_COLUMNS`]).
fn seek_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<SeekRow> {
    Ok(SeekRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        user: r.get(2)?,
        name: r.get(3)?,
        bot: r.get(4)?,
        rating: r.get(5)?,
        category: r.get(6)?,
        variant: r.get(7)?,
        clock: r.get(8)?,
        rated: r.get(9)?,
        side: r.get(10)?,
        token: r.get(11)?,
        instance: r.get(12)?,
        created: r.get(13)?,
        seen: r.get(14)?,
        to_user: r.get(15)?,
    })
}

/// Deletes the seeks `sql` (a `DELETE … RETURNING` [`SEEK_COLUMNS`])
/// removes and leaves them in `taken`; how many.
fn delete_into(
    conn: &Connection,
    sql: &str,
    params: &[&dyn rusqlite::ToSql],
    taken: &Taken,
) -> Answer {
    let rows = all(conn, sql, params, seek_at).map_err(write_failed)?;
    let n = rows.len() as u64;
    *taken
        .lock()
        .map_err(|_| SaveError::Failed(StoreError::failed("lobby: a take's rows were lost")))? =
        rows;
    Ok(n)
}

/// Runs one write of the lobby inside the batch's transaction.
pub(super) fn apply(conn: &Connection, write: &LobbyWrite) -> Answer {
    match write {
        LobbyWrite::Add(s) => insert_new(
            conn,
            &format!(
                "INSERT INTO seeks ({SEEK_COLUMNS}) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
            ),
            params![
                s.id, s.kind, s.user, s.name, s.bot, s.rating, s.category, s.variant, s.clock,
                s.rated, s.side, s.token, s.instance, s.created, s.seen, s.to_user
            ],
        ),
        LobbyWrite::Remove(id) => run(conn, "DELETE FROM seeks WHERE id = ?1", params![id]),
        LobbyWrite::Take { ids, taken } => linked(conn, || {
            taken
                .lock()
                .map_err(|_| SaveError::Failed(StoreError::failed("lobby: a take was lost")))?
                .clear();
            let mut ids = ids.clone();
            ids.sort();
            ids.dedup();
            let places: Vec<String> = (1..=ids.len()).map(|i| format!("?{i}")).collect();
            let places = places.join(", ");
            let there: i64 = conn
                .prepare_cached(&format!(
                    "SELECT count(*) FROM seeks WHERE id IN ({places})"
                ))
                .and_then(|mut s| s.query_row(rusqlite::params_from_iter(&ids), |r| r.get(0)))
                .map_err(write_failed)?;
            // One writer: nobody takes them between this read and the
            // deletion.
            if there != ids.len() as i64 {
                return Ok(0);
            }
            let params: Vec<&dyn rusqlite::ToSql> =
                ids.iter().map(|id| id as &dyn rusqlite::ToSql).collect();
            delete_into(
                conn,
                &format!("DELETE FROM seeks WHERE id IN ({places}) RETURNING {SEEK_COLUMNS}"),
                &params,
                taken,
            )
        }),
        LobbyWrite::Renew { instance, seen } => run(
            conn,
            "UPDATE seeks SET seen = ?2 WHERE instance = ?1",
            params![instance, seen],
        ),
        LobbyWrite::Forget { before, taken } => delete_into(
            conn,
            &format!("DELETE FROM seeks WHERE seen < ?1 RETURNING {SEEK_COLUMNS}"),
            params![before],
            taken,
        ),
    }
}

impl Store {
    async fn lobby_write(&self, write: LobbyWrite) -> Result<u64, StoreError> {
        self.write(Write::Lobby(write)).await.map_err(store_error)
    }

    /// Takes the seeks `ids` (all or none): those taken.
    async fn take(&self, ids: Vec<String>) -> Result<Vec<SeekRow>, StoreError> {
        let taken = Taken::default();
        self.lobby_write(LobbyWrite::Take {
            ids,
            taken: taken.clone(),
        })
        .await?;
        let rows = std::mem::take(
            &mut *taken
                .lock()
                .map_err(|_| StoreError::failed("lobby: a take's rows were lost"))?,
        );
        Ok(rows)
    }
}

/// Only rows, never an announcement: one process, whose server tells its
/// own sockets.
impl Lobby for Store {
    fn add_seek(&self, seek: SeekRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            check_id("seek", &seek.id)?;
            let id = seek.id.clone();
            match self
                .write(Write::Lobby(LobbyWrite::Add(Box::new(seek))))
                .await
            {
                Ok(_) => Ok(()),
                Err(SaveError::Duplicate) => Err(StoreError::new(
                    ErrorKind::Conflict,
                    format!("lobby: a seek with the id {id} exists already"),
                )),
                Err(e) => Err(store_error(e)),
            }
        })
    }

    fn seeks(&self, limit: u32) -> BoxFuture<'_, Result<Vec<SeekRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {LISTED_SEEK_COLUMNS} FROM seeks WHERE kind = 'seek' \
                         ORDER BY created, id LIMIT ?1"
                    ),
                    params![limit],
                    seek_at,
                )
            })
        })
    }

    fn seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                one(
                    c,
                    &format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = ?1"),
                    params![id],
                    seek_at,
                )
            })
        })
    }

    fn challenges<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {LISTED_SEEK_COLUMNS} FROM seeks WHERE kind = 'challenge' \
                         AND (to_user = ?1 OR user_id = ?1) ORDER BY created, id"
                    ),
                    params![user],
                    seek_at,
                )
            })
        })
    }

    fn remove_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move { Ok(self.lobby_write(LobbyWrite::Remove(id.to_string())).await? > 0) })
    }

    fn take_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>> {
        Box::pin(async move { Ok(self.take(vec![id.to_string()]).await?.pop()) })
    }

    fn take_pair<'a>(
        &'a self,
        a: &'a str,
        b: &'a str,
    ) -> BoxFuture<'a, Result<Option<(SeekRow, SeekRow)>, StoreError>> {
        Box::pin(async move {
            if a == b {
                return Ok(None);
            }
            let rows = self.take(vec![a.to_string(), b.to_string()]).await?;
            Ok(in_pair_order(a, b, rows))
        })
    }

    fn pool<'a>(
        &'a self,
        variant: &'a str,
        clock: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {LISTED_SEEK_COLUMNS} FROM seeks \
                         WHERE kind = 'pool' AND variant = ?1 AND clock IS ?2 \
                         ORDER BY created, id"
                    ),
                    params![variant, clock],
                    seek_at,
                )
            })
        })
    }

    fn renew<'a>(&'a self, instance: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.lobby_write(LobbyWrite::Renew {
                instance: instance.to_string(),
                seen,
            })
            .await
            .map(drop)
        })
    }

    fn forget(&self, before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let taken = Taken::default();
            self.lobby_write(LobbyWrite::Forget {
                before,
                taken: taken.clone(),
            })
            .await?;
            let rows = std::mem::take(
                &mut *taken
                    .lock()
                    .map_err(|_| StoreError::failed("lobby: the forgotten seeks were lost"))?,
            );
            let mut ids: Vec<String> = rows.into_iter().map(|s| s.id).collect();
            ids.sort();
            Ok(ids)
        })
    }

    fn announce_paired<'a>(
        &'a self,
        seek: &'a str,
        game: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        // No one else to tell: the server tells its own sockets.
        Box::pin(async move {
            check_id("seek", seek)?;
            check_id("game", game)
        })
    }

    fn announce_declined<'a>(&'a self, seek: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move { check_id("seek", seek) })
    }
}
