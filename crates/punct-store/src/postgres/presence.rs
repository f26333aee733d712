//! The presence table (`V4__presence.sql`) for [`PresenceBoard`].

use super::{pg_error, Store, CHANNEL};
use crate::{BoxFuture, PresenceBoard, PresenceRow, StoreError};

/// One instance's row, its closing times kept as the later of the stored
/// and the new (a presence made again after its game left memory knows
/// none), announced as `ID presence INSTANCE`.
const PUBLISH: &str = "WITH up AS (INSERT INTO presence (game_id, instance, white_sockets, \
       black_sockets, spectators, white_left, black_left, seen) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
     ON CONFLICT (game_id, instance) DO UPDATE SET white_sockets = EXCLUDED.white_sockets, \
       black_sockets = EXCLUDED.black_sockets, spectators = EXCLUDED.spectators, \
       white_left = GREATEST(presence.white_left, EXCLUDED.white_left), \
       black_left = GREATEST(presence.black_left, EXCLUDED.black_left), \
       seen = EXCLUDED.seen \
     RETURNING game_id, instance) \
   SELECT pg_notify($9, game_id || ' presence ' || instance) FROM up";

fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Store {
    fn presence_failed(&self, e: tokio_postgres::Error) -> StoreError {
        StoreError::failed(format!(
            "{}: presence: {}",
            self.describe_db(),
            pg_error(&e)
        ))
    }
}

impl PresenceBoard for Store {
    fn publish<'a>(
        &'a self,
        game: &'a str,
        row: &'a PresenceRow,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let [white, black] = row.sockets.map(count);
            client
                .execute(
                    PUBLISH,
                    &[
                        &game,
                        &row.instance,
                        &white,
                        &black,
                        &count(row.spectators),
                        &row.left[0],
                        &row.left[1],
                        &row.seen,
                        &CHANNEL,
                    ],
                )
                .await
                .map(|_| ())
                .map_err(|e| self.presence_failed(e))
        })
    }

    fn read<'a>(
        &'a self,
        games: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<(String, PresenceRow)>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT game_id, instance, white_sockets, black_sockets, spectators, \
                       white_left, black_left, seen FROM presence WHERE game_id = ANY($1)",
                    &[&games],
                )
                .await
                .map_err(|e| self.presence_failed(e))?;
            let sockets = |i: usize, r: &tokio_postgres::Row| -> u32 {
                u32::try_from(r.get::<_, i32>(i)).unwrap_or(0)
            };
            Ok(rows
                .iter()
                .map(|r| {
                    (
                        r.get(0),
                        PresenceRow {
                            instance: r.get(1),
                            sockets: [sockets(2, r), sockets(3, r)],
                            spectators: sockets(4, r),
                            left: [r.get(5), r.get(6)],
                            seen: r.get(7),
                        },
                    )
                })
                .collect())
        })
    }

    fn renew<'a>(
        &'a self,
        instance: &'a str,
        games: &'a [String],
        seen: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute(
                    "UPDATE presence SET seen = $3 WHERE instance = $1 AND game_id = ANY($2)",
                    &[&instance, &games, &seen],
                )
                .await
                .map(|_| ())
                .map_err(|e| self.presence_failed(e))
        })
    }

    fn forget(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            client
                .execute("DELETE FROM presence WHERE seen < $1", &[&before])
                .await
                .map_err(|e| self.presence_failed(e))
        })
    }
}
