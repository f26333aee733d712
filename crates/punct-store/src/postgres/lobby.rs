//! The lobby's seeks (`V7__lobby.sql`) for [`Lobby`]: each write one
//! statement that also announces what it did on [`CHANNEL`] (delivered at
//! commit): `lobby add ID`, `lobby remove ID`, `lobby paired SEEK GAME`.
//! A pairing's take is one statement in a transaction, so it takes both
//! seeks or neither.

use super::{pg_error, Store, CHANNEL};
use crate::lobby::{check_id, in_pair_order, LISTED_SEEK_COLUMNS, SEEK_COLUMNS};
use crate::{BoxFuture, ErrorKind, Lobby, SeekRow, StoreError};
use tokio_postgres::Row;

/// A new seek unless its id is taken, announced at commit.
static ADD: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH added AS (INSERT INTO seeks ({SEEK_COLUMNS}) \
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
           ON CONFLICT (id) DO NOTHING RETURNING id) \
         SELECT pg_notify('{CHANNEL}', 'lobby add ' || id) FROM added"
    )
});

/// A seek removed, announced at commit.
static REMOVE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH gone AS (DELETE FROM seeks WHERE id = $1 RETURNING id) \
         SELECT pg_notify('{CHANNEL}', 'lobby remove ' || id) FROM gone"
    )
});

/// A seek taken: deleted and returned, announced as removed. Of callers
/// at once, the first to lock the row deletes it; the others wait for
/// it, find it gone and get no row.
static TAKE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH taken AS (DELETE FROM seeks WHERE id = $1 RETURNING {SEEK_COLUMNS}) \
         SELECT {SEEK_COLUMNS}, pg_notify('{CHANNEL}', 'lobby remove ' || id) FROM taken"
    )
});

/// Two seeks taken together (`$1`, an array of their two ids): locked
/// first, in one order whoever takes them (so two pairings sharing a seek
/// wait for each other rather than deadlock), then deleted only if both
/// are still there. A seek another pairing took meanwhile is skipped by
/// the lock (it waited, and found it deleted): then nothing is deleted.
/// Run in a transaction that commits only with two rows.
static TAKE_PAIR: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH locked AS (SELECT id FROM seeks WHERE id = ANY($1) \
           ORDER BY id COLLATE \"C\" FOR UPDATE), \
         taken AS (DELETE FROM seeks WHERE id IN (SELECT id FROM locked) \
           AND (SELECT count(*) FROM locked) = 2 RETURNING {SEEK_COLUMNS}) \
         SELECT {SEEK_COLUMNS}, pg_notify('{CHANNEL}', 'lobby remove ' || id) FROM taken"
    )
});

/// The seeks not confirmed in time, deleted and each announced.
static FORGET: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH gone AS (DELETE FROM seeks WHERE seen < $1 RETURNING id) \
         SELECT id, pg_notify('{CHANNEL}', 'lobby remove ' || id) FROM gone ORDER BY id COLLATE \"C\""
    )
});

/// A seek from its columns ([`SEEK_COLUMNS`]).
fn seek_at(r: &Row) -> Result<SeekRow, tokio_postgres::Error> {
    Ok(SeekRow {
        id: r.try_get(0)?,
        kind: r.try_get(1)?,
        user: r.try_get(2)?,
        name: r.try_get(3)?,
        bot: r.try_get(4)?,
        rating: r.try_get(5)?,
        category: r.try_get(6)?,
        variant: r.try_get(7)?,
        clock: r.try_get(8)?,
        rated: r.try_get(9)?,
        side: r.try_get(10)?,
        token: r.try_get(11)?,
        instance: r.try_get(12)?,
        created: r.try_get(13)?,
        seen: r.try_get(14)?,
        to_user: r.try_get(15)?,
    })
}

impl Store {
    fn lobby_failed(&self, e: tokio_postgres::Error) -> StoreError {
        StoreError::failed(format!("{}: lobby: {}", self.describe_db(), pg_error(&e)))
    }

    fn seeks_of(&self, rows: &[Row]) -> Result<Vec<SeekRow>, StoreError> {
        rows.iter()
            .map(|r| seek_at(r).map_err(|e| self.lobby_failed(e)))
            .collect()
    }
}

impl Lobby for Store {
    fn add_seek(&self, seek: SeekRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            check_id("seek", &seek.id)?;
            let client = self.client().await?;
            let s = &seek;
            let rows = client
                .query(
                    ADD.as_str(),
                    &[
                        &s.id,
                        &s.kind,
                        &s.user,
                        &s.name,
                        &s.bot,
                        &s.rating,
                        &s.category,
                        &s.variant,
                        &s.clock,
                        &s.rated,
                        &s.side,
                        &s.token,
                        &s.instance,
                        &s.created,
                        &s.seen,
                        &s.to_user,
                    ],
                )
                .await
                .map_err(|e| self.lobby_failed(e))?;
            if rows.is_empty() {
                return Err(StoreError::new(
                    ErrorKind::Conflict,
                    format!("lobby: a seek with the id {} exists already", s.id),
                ));
            }
            Ok(())
        })
    }

    fn seeks(&self, limit: u32) -> BoxFuture<'_, Result<Vec<SeekRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {LISTED_SEEK_COLUMNS} FROM seeks WHERE kind = 'seek' \
                         ORDER BY created, id COLLATE \"C\" LIMIT $1"
                    ),
                    &[&i64::from(limit)],
                )
                .await
                .map_err(|e| self.lobby_failed(e))?;
            self.seeks_of(&rows)
        })
    }

    fn seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1"),
                    &[&id],
                )
                .await
                .map_err(|e| self.lobby_failed(e))?;
            Ok(self.seeks_of(&rows)?.pop())
        })
    }

    fn challenges<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {LISTED_SEEK_COLUMNS} FROM seeks WHERE kind = 'challenge' \
                         AND (to_user = $1 OR user_id = $1) ORDER BY created, id COLLATE \"C\""
                    ),
                    &[&user],
                )
                .await
                .map_err(|e| self.lobby_failed(e))?;
            self.seeks_of(&rows)
        })
    }

    fn remove_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(REMOVE.as_str(), &[&id])
                .await
                .map_err(|e| self.lobby_failed(e))?;
            Ok(!rows.is_empty())
        })
    }

    fn take_seek<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SeekRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(TAKE.as_str(), &[&id])
                .await
                .map_err(|e| self.lobby_failed(e))?;
            Ok(self.seeks_of(&rows)?.pop())
        })
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
            let mut client = self.client().await?;
            // Dropped without a commit, the transaction rolls back.
            let tx = client
                .transaction()
                .await
                .map_err(|e| self.lobby_failed(e))?;
            let ids = [a, b];
            let rows = tx
                .query(TAKE_PAIR.as_str(), &[&&ids[..]])
                .await
                .map_err(|e| self.lobby_failed(e))?;
            let rows = self.seeks_of(&rows)?;
            if rows.len() != 2 {
                // Nothing was taken (the statement deletes both or none);
                // rolled back all the same.
                return Ok(None);
            }
            tx.commit().await.map_err(|e| self.lobby_failed(e))?;
            Ok(in_pair_order(a, b, rows))
        })
    }

    fn pool<'a>(
        &'a self,
        variant: &'a str,
        clock: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<SeekRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {LISTED_SEEK_COLUMNS} FROM seeks \
                         WHERE kind = 'pool' AND variant = $1 \
                           AND clock IS NOT DISTINCT FROM $2::text \
                         ORDER BY created, id COLLATE \"C\""
                    ),
                    &[&variant, &clock],
                )
                .await
                .map_err(|e| self.lobby_failed(e))?;
            self.seeks_of(&rows)
        })
    }

    fn renew<'a>(&'a self, instance: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "UPDATE seeks SET seen = $2 WHERE instance = $1",
                    &[&instance, &seen],
                )
                .await
                .map(drop)
                .map_err(|e| self.lobby_failed(e))
        })
    }

    fn forget(&self, before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(FORGET.as_str(), &[&before])
                .await
                .map_err(|e| self.lobby_failed(e))?;
            rows.iter()
                .map(|r| r.try_get(0).map_err(|e| self.lobby_failed(e)))
                .collect()
        })
    }

    fn announce_paired<'a>(
        &'a self,
        seek: &'a str,
        game: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            check_id("seek", seek)?;
            check_id("game", game)?;
            let client = self.client().await?;
            let payload = format!("lobby paired {seek} {game}");
            client
                .execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
                .await
                .map(drop)
                .map_err(|e| self.lobby_failed(e))
        })
    }

    fn announce_declined<'a>(&'a self, seek: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            check_id("seek", seek)?;
            let client = self.client().await?;
            let payload = format!("lobby declined {seek}");
            client
                .execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
                .await
                .map(drop)
                .map_err(|e| self.lobby_failed(e))
        })
    }
}
