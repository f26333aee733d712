//! Notifications (`V11__notifications.sql`) for [`Notes`]: each write one
//! statement that also announces what it did on [`CHANNEL`] (delivered at
//! commit): `note USER ID` for a note stored, `note USER read` for notes
//! marked read.

use super::{pg_error, Store, CHANNEL};
use crate::notes::{check_note, NoteRow, Notes, NOTE_COLUMNS, NOTE_ORDER};
use crate::{BoxFuture, StoreError};
use tokio_postgres::Row;

/// A note unless its event's is there; its id, announced at commit.
static ADD: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH added AS (INSERT INTO notifications (user_id, kind, subject, ply, other, created) \
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id, user_id) \
         SELECT id, pg_notify('{CHANNEL}', 'note ' || user_id || ' ' || id) FROM added"
    )
});

/// A user's notes marked read (`$2`: the ids, or null for all), announced
/// once at commit if any changed.
static READ: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH marked AS (UPDATE notifications SET read = $3 \
           WHERE user_id = $1 AND read IS NULL AND ($2::bigint[] IS NULL OR id = ANY($2)) \
           RETURNING id) \
         SELECT count(*), CASE WHEN count(*) > 0 \
           THEN pg_notify('{CHANNEL}', 'note ' || $1 || ' read') END FROM marked"
    )
});

fn note_at(r: &Row) -> Result<NoteRow, tokio_postgres::Error> {
    Ok(NoteRow {
        id: r.try_get(0)?,
        user: r.try_get(1)?,
        kind: r.try_get(2)?,
        subject: r.try_get(3)?,
        ply: r.try_get(4)?,
        other: r.try_get(5)?,
        created: r.try_get(6)?,
        read: r.try_get(7)?,
    })
}

impl Store {
    fn notes_failed(&self, e: tokio_postgres::Error) -> StoreError {
        StoreError::failed(format!(
            "{}: notifications: {}",
            self.describe_db(),
            pg_error(&e)
        ))
    }
}

impl Notes for Store {
    fn add_note(&self, note: NoteRow) -> BoxFuture<'_, Result<Option<i64>, StoreError>> {
        Box::pin(async move {
            check_note(&note)?;
            let client = self.client().await?;
            let n = &note;
            let rows = client
                .query(
                    ADD.as_str(),
                    &[&n.user, &n.kind, &n.subject, &n.ply, &n.other, &n.created],
                )
                .await
                .map_err(|e| self.notes_failed(e))?;
            rows.first()
                .map(|r| r.try_get::<_, i64>(0))
                .transpose()
                .map_err(|e| self.notes_failed(e))
        })
    }

    fn notes<'a>(
        &'a self,
        user: &'a str,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<NoteRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {NOTE_COLUMNS} FROM notifications WHERE user_id = $1 \
                         {NOTE_ORDER} LIMIT $2 OFFSET $3"
                    ),
                    &[&user, &i64::from(limit), &i64::from(offset)],
                )
                .await
                .map_err(|e| self.notes_failed(e))?;
            rows.iter()
                .map(|r| note_at(r).map_err(|e| self.notes_failed(e)))
                .collect()
        })
    }

    fn note<'a>(
        &'a self,
        user: &'a str,
        id: i64,
    ) -> BoxFuture<'a, Result<Option<NoteRow>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {NOTE_COLUMNS} FROM notifications WHERE user_id = $1 AND id = $2"
                    ),
                    &[&user, &id],
                )
                .await
                .map_err(|e| self.notes_failed(e))?;
            rows.first()
                .map(note_at)
                .transpose()
                .map_err(|e| self.notes_failed(e))
        })
    }

    fn unread<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let row = client
                .query_one(
                    "SELECT count(*) FROM notifications WHERE user_id = $1 AND read IS NULL",
                    &[&user],
                )
                .await
                .map_err(|e| self.notes_failed(e))?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }

    fn mark_read<'a>(
        &'a self,
        user: &'a str,
        ids: Option<&'a [i64]>,
        at: i64,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let ids: Option<Vec<i64>> = ids.map(<[i64]>::to_vec);
            let row = client
                .query_one(READ.as_str(), &[&user, &ids, &at])
                .await
                .map_err(|e| self.notes_failed(e))?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }

    fn prune_notes(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "DELETE FROM notifications WHERE read IS NOT NULL AND read < $1",
                    &[&before],
                )
                .await
                .map_err(|e| self.notes_failed(e))
        })
    }
}
