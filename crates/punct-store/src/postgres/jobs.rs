//! The job table (`V2__jobs.sql`) for [`JobQueue`]: the SQL that keeps it
//! beside every write, and claims, take-overs, renewals and releases.

use super::{pg_error, Store};
use crate::{BoxFuture, JobKind, JobQueue, Lease, StoreError};
use std::time::Duration;

/// Puts the job of the game written by CTE `written` (its `id, version`)
/// when parameter `param` names one, or removes its job when it is NULL:
/// two more CTEs for a write's statement. A job of the same kind keeps its
/// claim (a draw offer declined while the AI thinks changes nothing); a
/// new kind waits for anyone, from now.
pub(super) fn keep_job(written: &str, param: usize) -> String {
    format!(
        "put_job AS (INSERT INTO jobs (game_id, kind, version) \
           SELECT id, ${param}::text, version FROM {written} WHERE ${param}::text IS NOT NULL \
           ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version, \
             owner = CASE WHEN jobs.kind = EXCLUDED.kind THEN jobs.owner END, \
             claim = CASE WHEN jobs.kind = EXCLUDED.kind THEN jobs.claim END, \
             lease = CASE WHEN jobs.kind = EXCLUDED.kind THEN jobs.lease END, \
             created = CASE WHEN jobs.kind = EXCLUDED.kind THEN jobs.created ELSE now() END, \
             progress = CASE WHEN jobs.kind = EXCLUDED.kind THEN jobs.progress END, \
             kind = EXCLUDED.kind), \
         done_job AS (DELETE FROM jobs WHERE ${param}::text IS NULL \
           AND game_id IN (SELECT id FROM {written}))"
    )
}

/// Claims an existing job that nobody (or this instance) holds, or one
/// whose claim ran out; or makes the job of a game stored before the table
/// existed, if the game is still at the version the claimer saw.
const CLAIM: &str = "WITH held AS (UPDATE jobs SET owner = $4, claim = $5, \
       lease = now() + make_interval(secs => $6) \
     WHERE game_id = $1 AND kind = $2 AND (claim IS NULL OR owner = $4 OR lease < now()) \
     RETURNING 1), \
   made AS (INSERT INTO jobs (game_id, kind, version, owner, claim, lease) \
     SELECT id, $2, version, $4, $5, now() + make_interval(secs => $6) FROM games \
     WHERE id = $1 AND version = $3 AND NOT EXISTS (SELECT 1 FROM jobs WHERE game_id = $1) \
     ON CONFLICT (game_id) DO NOTHING RETURNING 1) \
   SELECT (SELECT count(*) FROM held) + (SELECT count(*) FROM made)";

/// Jobs nobody holds, oldest first; rows another instance is taking at
/// this moment are skipped.
const TAKE: &str = "UPDATE jobs SET owner = $1, claim = $2, \
       lease = now() + make_interval(secs => $3) \
     WHERE game_id IN (SELECT game_id FROM jobs \
       WHERE (claim IS NULL AND created <= now() - make_interval(secs => $4)) \
          OR lease < now() \
       ORDER BY kind = 'review', created LIMIT $5 FOR UPDATE SKIP LOCKED) \
     RETURNING game_id, kind";

const RENEW: &str = "UPDATE jobs SET lease = now() + make_interval(secs => $2) \
     WHERE claim = ANY($1) RETURNING claim";

/// From now on it waits for anyone (after the same pause as a new job, so
/// the instance that let go may try again first).
const RELEASE: &str = "UPDATE jobs SET owner = NULL, claim = NULL, lease = NULL, \
     created = now() WHERE claim = $1";

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn failed(e: tokio_postgres::Error) -> StoreError {
    StoreError::failed(format!("database (jobs): {}", pg_error(&e)))
}

/// Saves work on the job `claim` holds (nothing if it holds none now).
const KEEP_PROGRESS: &str = "UPDATE jobs SET progress = $2 WHERE claim = $1 RETURNING 1";

const PROGRESS: &str = "SELECT progress FROM jobs WHERE claim = $1";

impl JobQueue for Store {
    fn claim<'a>(
        &'a self,
        id: &'a str,
        kind: JobKind,
        version: i64,
        claim: &'a str,
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let stmt = client.prepare_cached(CLAIM).await.map_err(failed)?;
            let row = client
                .query_one(
                    &stmt,
                    &[
                        &id,
                        &kind.as_str(),
                        &version,
                        &lease.owner,
                        &claim,
                        &secs(lease.length),
                    ],
                )
                .await
                .map_err(failed)?;
            Ok(row.get::<_, i64>(0) > 0)
        })
    }

    fn take<'a>(
        &'a self,
        limit: u32,
        unclaimed_for: Duration,
        claim: &'a str,
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<Vec<(String, JobKind)>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let stmt = client.prepare_cached(TAKE).await.map_err(failed)?;
            let rows = client
                .query(
                    &stmt,
                    &[
                        &lease.owner,
                        &claim,
                        &secs(lease.length),
                        &secs(unclaimed_for),
                        &i64::from(limit),
                    ],
                )
                .await
                .map_err(failed)?;
            Ok(rows
                .iter()
                .filter_map(|r| {
                    let kind: String = r.get(1);
                    Some((r.get(0), JobKind::parse(&kind)?))
                })
                .collect())
        })
    }

    fn renew<'a>(
        &'a self,
        claims: &'a [String],
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            if claims.is_empty() {
                return Ok(Vec::new());
            }
            let client = self.client().await?;
            let stmt = client.prepare_cached(RENEW).await.map_err(failed)?;
            let rows = client
                .query(&stmt, &[&claims, &secs(lease.length)])
                .await
                .map_err(failed)?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn progress<'a>(&'a self, claim: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let stmt = client.prepare_cached(PROGRESS).await.map_err(failed)?;
            let row = client.query_opt(&stmt, &[&claim]).await.map_err(failed)?;
            Ok(row.and_then(|r| r.get(0)))
        })
    }

    fn keep_progress<'a>(
        &'a self,
        claim: &'a str,
        progress: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let stmt = client.prepare_cached(KEEP_PROGRESS).await.map_err(failed)?;
            let rows = client
                .query(&stmt, &[&claim, &progress])
                .await
                .map_err(failed)?;
            Ok(!rows.is_empty())
        })
    }

    fn release<'a>(&'a self, claim: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let stmt = client.prepare_cached(RELEASE).await.map_err(failed)?;
            client.execute(&stmt, &[&claim]).await.map_err(failed)?;
            Ok(())
        })
    }
}
