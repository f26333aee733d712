//! Notifications (`9.sql`) in the SQLite file: writes go through the
//! writer thread like a game's ([`NoteWrite`]), reads run on the reader's
//! connection. One process owns the file: nothing is announced.

use super::accounts::{all, one, run, store_error};
use super::{Answer, Store, Write};
use crate::notes::{check_note, NoteRow, Notes, NOTE_COLUMNS, NOTE_ORDER};
use crate::{BoxFuture, StoreError};
use rusqlite::{params, Connection};

/// One queued write of the notifications.
pub(crate) enum NoteWrite {
    Add(Box<NoteRow>),
    Read {
        user: String,
        ids: Option<Vec<i64>>,
        at: i64,
    },
    Prune(i64),
}

fn note_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<NoteRow> {
    Ok(NoteRow {
        id: r.get(0)?,
        user: r.get(1)?,
        kind: r.get(2)?,
        subject: r.get(3)?,
        ply: r.get(4)?,
        other: r.get(5)?,
        created: r.get(6)?,
        read: r.get(7)?,
    })
}

/// Runs one write of the notifications inside the batch's transaction. An
/// add answers with the new row's id (rowids start at 1), or 0 when the
/// event's note was there.
pub(super) fn apply(conn: &Connection, write: &NoteWrite) -> Answer {
    match write {
        NoteWrite::Add(n) => {
            let added = run(
                conn,
                "INSERT INTO notifications (user_id, kind, subject, ply, other, created) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
                params![n.user, n.kind, n.subject, n.ply, n.other, n.created],
            )?;
            Ok(if added == 1 {
                conn.last_insert_rowid() as u64
            } else {
                0
            })
        }
        NoteWrite::Read {
            user,
            ids: None,
            at,
        } => run(
            conn,
            "UPDATE notifications SET read = ?2 WHERE user_id = ?1 AND read IS NULL",
            params![user, at],
        ),
        NoteWrite::Read {
            user,
            ids: Some(ids),
            at,
        } => {
            let mut n = 0;
            for id in ids {
                n += run(
                    conn,
                    "UPDATE notifications SET read = ?2 \
                     WHERE user_id = ?1 AND id = ?3 AND read IS NULL",
                    params![user, at, id],
                )?;
            }
            Ok(n)
        }
        NoteWrite::Prune(before) => run(
            conn,
            "DELETE FROM notifications WHERE read IS NOT NULL AND read < ?1",
            params![before],
        ),
    }
}

impl Store {
    async fn note_write(&self, write: NoteWrite) -> Result<u64, StoreError> {
        self.write(Write::Notes(write))
            .await
            .map_err(store_error)
            .map_err(|e| e.context("notifications"))
    }
}

impl Notes for Store {
    fn add_note(&self, note: NoteRow) -> BoxFuture<'_, Result<Option<i64>, StoreError>> {
        Box::pin(async move {
            check_note(&note)?;
            let id = self.note_write(NoteWrite::Add(Box::new(note))).await?;
            Ok((id > 0).then_some(id as i64))
        })
    }

    fn notes<'a>(
        &'a self,
        user: &'a str,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<NoteRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {NOTE_COLUMNS} FROM notifications WHERE user_id = ?1 \
                         {NOTE_ORDER} LIMIT ?2 OFFSET ?3"
                    ),
                    params![user, limit, offset],
                    note_at,
                )
            })
        })
    }

    fn note<'a>(
        &'a self,
        user: &'a str,
        id: i64,
    ) -> BoxFuture<'a, Result<Option<NoteRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                one(
                    c,
                    &format!(
                        "SELECT {NOTE_COLUMNS} FROM notifications WHERE user_id = ?1 AND id = ?2"
                    ),
                    params![user, id],
                    note_at,
                )
            })
        })
    }

    fn unread<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                c.prepare_cached(
                    "SELECT count(*) FROM notifications WHERE user_id = ?1 AND read IS NULL",
                )?
                .query_row(params![user], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
            })
        })
    }

    fn mark_read<'a>(
        &'a self,
        user: &'a str,
        ids: Option<&'a [i64]>,
        at: i64,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            self.note_write(NoteWrite::Read {
                user: user.to_string(),
                ids: ids.map(<[i64]>::to_vec),
                at,
            })
            .await
        })
    }

    fn prune_notes(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move { self.note_write(NoteWrite::Prune(before)).await })
    }
}
