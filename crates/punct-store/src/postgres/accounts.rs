//! The accounts and ratings (`V6__accounts.sql`) and the passkey
//! ceremonies (`V8__ceremonies.sql`) for [`AccountStore`]:
//! each write one statement, or one transaction where it touches several
//! tables (a deletion, a rated game).

use super::{pg_error, Store};
use crate::accounts::{in_order_of, sides_in_order};
use crate::{
    AccountError, AccountStore, ApplyError, BlockRow, BotUpgrade, BoxFuture, CeremonyRow,
    ConductRow, HistoryPoint, PasskeyRemoval, PasskeyRow, RatedResult, RatingRow, SessionRow,
    StatLine, StoreError, TokenRow, UserRow,
};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

type Params<'a> = [&'a (dyn ToSql + Sync)];

/// A user's columns, in [`user_at`]'s order.
const USER: &str = "u.id, u.name, u.name_key, u.created, u.seen, u.password, u.bot, u.deleted";
const SESSION: &str = "s.hash, s.user_id, s.created, s.seen, s.expires, s.agent";
const PASSKEY: &str = "id, user_id, name, data, created, used";
const CEREMONY: &str = "id, kind, user_id, state, expires";
const TOKEN: &str = "t.hash, t.user_id, t.label, t.created, t.used";
const RATING: &str = "r.user_id, r.category, r.rating, r.deviation, r.volatility, r.games, \
                      r.updated";
const HISTORY: &str = "game, user_id, category, at, rating, deviation, change, score, opponent";

type Read<T> = Result<T, tokio_postgres::Error>;

fn user_at(r: &Row, at: usize) -> Read<UserRow> {
    Ok(UserRow {
        id: r.try_get(at)?,
        name: r.try_get(at + 1)?,
        name_key: r.try_get(at + 2)?,
        created: r.try_get(at + 3)?,
        seen: r.try_get(at + 4)?,
        password: r.try_get(at + 5)?,
        bot: r.try_get(at + 6)?,
        deleted: r.try_get(at + 7)?,
    })
}

fn session_at(r: &Row, at: usize) -> Read<SessionRow> {
    Ok(SessionRow {
        hash: r.try_get(at)?,
        user: r.try_get(at + 1)?,
        created: r.try_get(at + 2)?,
        seen: r.try_get(at + 3)?,
        expires: r.try_get(at + 4)?,
        agent: r.try_get(at + 5)?,
    })
}

fn passkey(r: &Row) -> Read<PasskeyRow> {
    Ok(PasskeyRow {
        id: r.try_get(0)?,
        user: r.try_get(1)?,
        name: r.try_get(2)?,
        data: r.try_get(3)?,
        created: r.try_get(4)?,
        used: r.try_get(5)?,
    })
}

fn token_at(r: &Row, at: usize) -> Read<TokenRow> {
    Ok(TokenRow {
        hash: r.try_get(at)?,
        user: r.try_get(at + 1)?,
        label: r.try_get(at + 2)?,
        created: r.try_get(at + 3)?,
        used: r.try_get(at + 4)?,
    })
}

fn rating_at(r: &Row, at: usize) -> Read<RatingRow> {
    Ok(RatingRow {
        user: r.try_get(at)?,
        category: r.try_get(at + 1)?,
        rating: r.try_get(at + 2)?,
        deviation: r.try_get(at + 3)?,
        volatility: r.try_get(at + 4)?,
        games: r.try_get(at + 5)?,
        updated: r.try_get(at + 6)?,
    })
}

fn history(r: &Row) -> Read<HistoryPoint> {
    Ok(HistoryPoint {
        game: r.try_get(0)?,
        user: r.try_get(1)?,
        category: r.try_get(2)?,
        at: r.try_get(3)?,
        rating: r.try_get(4)?,
        deviation: r.try_get(5)?,
        change: r.try_get(6)?,
        score: r.try_get(7)?,
        opponent: r.try_get(8)?,
    })
}

fn failed(e: tokio_postgres::Error) -> StoreError {
    StoreError::failed(format!("database (accounts): {}", pg_error(&e)))
}

/// The games a user's stats count: each ended game once per seat of the
/// user, its stored result (`status`) read from that seat's side; an
/// aborted game (`*`) counts for nothing.
const STATS: &str = "SELECT variant, side, won, lost, drawn FROM ( \
       SELECT variant, 'white' AS side, \
         count(*) FILTER (WHERE status = '1-0') AS won, \
         count(*) FILTER (WHERE status = '0-1') AS lost, \
         count(*) FILTER (WHERE status = '1/2-1/2') AS drawn \
       FROM games WHERE white_user = $1 AND status NOT IN ('ongoing', '*') GROUP BY variant \
       UNION ALL \
       SELECT variant, 'black' AS side, \
         count(*) FILTER (WHERE status = '0-1'), \
         count(*) FILTER (WHERE status = '1-0'), \
         count(*) FILTER (WHERE status = '1/2-1/2') \
       FROM games WHERE black_user = $1 AND status NOT IN ('ongoing', '*') GROUP BY variant) AS lines \
     ORDER BY variant COLLATE \"C\", side DESC";

/// A first rating row (none stored yet): made, or if one was made
/// meanwhile, changed only if it still counts no games.
const FIRST_RATING: &str =
    "INSERT INTO ratings (user_id, category, rating, deviation, volatility, \
       games, updated) VALUES ($1, $2, $3, $4, $5, $6::bigint + 1, $7) \
     ON CONFLICT (user_id, category) DO UPDATE SET rating = EXCLUDED.rating, \
       deviation = EXCLUDED.deviation, volatility = EXCLUDED.volatility, \
       games = EXCLUDED.games, updated = EXCLUDED.updated \
     WHERE ratings.games = $6::bigint";

/// A rating row changed only if it still counts the games the new rating
/// was computed from (the row is locked, and the condition read again
/// after a concurrent change commits).
const NEXT_RATING: &str = "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, \
       games = $6::bigint + 1, updated = $7 \
     WHERE user_id = $1 AND category = $2 AND games = $6";

/// A history point, unless the game has one for this user: the second of
/// two writers waits here for the first's commit, then finds it.
const HISTORY_POINT: &str = "INSERT INTO rating_history (game, user_id, category, at, rating, \
       deviation, volatility, change, score, opponent) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
     ON CONFLICT (game, user_id) DO NOTHING";

impl Store {
    /// Every row `sql` reads with `params`, each made by `make`.
    async fn rows<T>(
        &self,
        sql: &str,
        params: &Params<'_>,
        make: impl Fn(&Row) -> Read<T>,
    ) -> Result<Vec<T>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql).await.map_err(failed)?;
        let rows = client.query(&stmt, params).await.map_err(failed)?;
        rows.iter().map(|r| make(r).map_err(failed)).collect()
    }

    /// The first row `sql` reads with `params`, if any.
    async fn row<T>(
        &self,
        sql: &str,
        params: &Params<'_>,
        make: impl Fn(&Row) -> Read<T>,
    ) -> Result<Option<T>, StoreError> {
        Ok(self.rows(sql, params, make).await?.into_iter().next())
    }

    /// Runs one write's statement: the rows it changed.
    async fn change(&self, sql: &str, params: &Params<'_>) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql).await.map_err(failed)?;
        client.execute(&stmt, params).await.map_err(failed)
    }

    /// Runs an insert that does nothing where its key is taken.
    async fn insert_new(&self, sql: &str, params: &Params<'_>) -> Result<(), AccountError> {
        match self.change(sql, params).await? {
            0 => Err(AccountError::Taken),
            _ => Ok(()),
        }
    }

    async fn delete_user_rows(&self, user: &str) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        // Dropped without a commit, the transaction rolls back.
        let tx = client.transaction().await.map_err(failed)?;
        tx.execute(
            "UPDATE users SET deleted = TRUE, password = NULL WHERE id = $1",
            &[&user],
        )
        .await
        .map_err(failed)?;
        for sql in [
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM passkeys WHERE user_id = $1",
            "DELETE FROM api_tokens WHERE user_id = $1",
            "DELETE FROM notifications WHERE user_id = $1",
        ] {
            tx.execute(sql, &[&user]).await.map_err(failed)?;
        }
        tx.commit().await.map_err(failed)
    }

    /// [`AccountStore::apply_rating`] in one transaction (READ COMMITTED):
    /// the history rows first, whose keys make a second writer of the
    /// same game wait and then find them; then each rating row only if it
    /// still counts the expected games, rows taken in one order (by user,
    /// then category) so that two games of the same players cannot
    /// deadlock.
    async fn apply_rating_rows(&self, result: RatedResult) -> Result<(), ApplyError> {
        let sides = sides_in_order(&result)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(failed)?;
        for side in sides {
            let new = &side.new;
            let added = tx
                .execute(
                    HISTORY_POINT,
                    &[
                        &result.game,
                        &new.user,
                        &new.category,
                        &result.at,
                        &new.rating,
                        &new.deviation,
                        &new.volatility,
                        &side.change,
                        &side.score,
                        &side.opponent,
                    ],
                )
                .await
                .map_err(failed)?;
            if added == 0 {
                return Err(ApplyError::AlreadyApplied);
            }
        }
        // Points of this game for other users, applied before.
        let points: i64 = tx
            .query_one(
                "SELECT count(*) FROM rating_history WHERE game = $1",
                &[&result.game],
            )
            .await
            .map_err(failed)?
            .try_get(0)
            .map_err(failed)?;
        if points != 2 {
            return Err(ApplyError::AlreadyApplied);
        }
        for side in sides {
            let new = &side.new;
            let sql = if side.expected_games == 0 {
                FIRST_RATING
            } else {
                NEXT_RATING
            };
            let changed = tx
                .execute(
                    sql,
                    &[
                        &new.user,
                        &new.category,
                        &new.rating,
                        &new.deviation,
                        &new.volatility,
                        &side.expected_games,
                        &new.updated,
                    ],
                )
                .await
                .map_err(failed)?;
            if changed == 0 {
                return Err(ApplyError::Stale);
            }
        }
        tx.commit().await.map_err(failed)?;
        Ok(())
    }
}

/// A new user, unless its name key or id is taken (then nothing).
const NEW_USER: &str = "INSERT INTO users (id, name, name_key, created, seen, password, bot, \
       deleted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";

/// A new passkey, unless its credential id is taken (then nothing).
const NEW_PASSKEY: &str = "INSERT INTO passkeys (id, user_id, name, data, created, used) \
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";

impl Store {
    async fn create_user_and_passkey(
        &self,
        user: UserRow,
        passkey: PasskeyRow,
    ) -> Result<(), AccountError> {
        let mut client = self.client().await?;
        // Dropped without a commit (a key taken), it rolls back.
        let tx = client.transaction().await.map_err(failed)?;
        let u = &user;
        let users = tx
            .execute(
                NEW_USER,
                &[
                    &u.id,
                    &u.name,
                    &u.name_key,
                    &u.created,
                    &u.seen,
                    &u.password,
                    &u.bot,
                    &u.deleted,
                ],
            )
            .await
            .map_err(failed)?;
        if users == 0 {
            return Err(AccountError::Taken);
        }
        let p = &passkey;
        let keys = tx
            .execute(
                NEW_PASSKEY,
                &[&p.id, &p.user, &p.name, &p.data, &p.created, &p.used],
            )
            .await
            .map_err(failed)?;
        if keys == 0 {
            return Err(AccountError::Taken);
        }
        tx.commit().await.map_err(failed)?;
        Ok(())
    }

    /// [`AccountStore::remove_passkey`]: the user's row is locked first,
    /// so two removals of the same user's passkeys run one after the
    /// other and the second counts what the first left.
    async fn remove_passkey_kept(
        &self,
        user: &str,
        id: &str,
    ) -> Result<PasskeyRemoval, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(failed)?;
        let has_password: Option<bool> = tx
            .query_opt(
                "SELECT password IS NOT NULL FROM users WHERE id = $1 FOR UPDATE",
                &[&user],
            )
            .await
            .map_err(failed)?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(failed)?;
        let keys: Vec<String> = tx
            .query("SELECT id FROM passkeys WHERE user_id = $1", &[&user])
            .await
            .map_err(failed)?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(failed)?;
        if !keys.iter().any(|k| k == id) {
            return Ok(PasskeyRemoval::NotFound);
        }
        if has_password != Some(true) && keys.len() == 1 {
            return Ok(PasskeyRemoval::Last);
        }
        tx.execute(
            "DELETE FROM passkeys WHERE id = $1 AND user_id = $2",
            &[&id, &user],
        )
        .await
        .map_err(failed)?;
        tx.commit().await.map_err(failed)?;
        Ok(PasskeyRemoval::Removed)
    }
}

impl AccountStore for Store {
    fn create_user_with_passkey(
        &self,
        user: UserRow,
        passkey: PasskeyRow,
    ) -> BoxFuture<'_, Result<(), AccountError>> {
        Box::pin(self.create_user_and_passkey(user, passkey))
    }

    fn create_user(&self, user: UserRow) -> BoxFuture<'_, Result<(), AccountError>> {
        Box::pin(async move {
            self.insert_new(
                NEW_USER,
                &[
                    &user.id,
                    &user.name,
                    &user.name_key,
                    &user.created,
                    &user.seen,
                    &user.password,
                    &user.bot,
                    &user.deleted,
                ],
            )
            .await
        })
    }

    fn user<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>> {
        Box::pin(async move {
            self.row(
                &format!("SELECT {USER} FROM users u WHERE u.id = $1"),
                &[&id],
                |r| user_at(r, 0),
            )
            .await
        })
    }

    fn user_by_key<'a>(
        &'a self,
        name_key: &'a str,
    ) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>> {
        Box::pin(async move {
            self.row(
                &format!("SELECT {USER} FROM users u WHERE u.name_key = $1"),
                &[&name_key],
                |r| user_at(r, 0),
            )
            .await
        })
    }

    fn users<'a>(&'a self, ids: &'a [String]) -> BoxFuture<'a, Result<Vec<UserRow>, StoreError>> {
        Box::pin(async move {
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            let rows = self
                .rows(
                    &format!("SELECT {USER} FROM users u WHERE u.id = ANY($1)"),
                    &[&ids],
                    |r| user_at(r, 0),
                )
                .await?;
            Ok(in_order_of(ids, rows))
        })
    }

    fn set_password<'a>(
        &'a self,
        user: &'a str,
        phc: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "UPDATE users SET password = $2 WHERE id = $1",
                &[&user, &phc],
            )
            .await
            .map(drop)
        })
    }

    fn set_seen<'a>(&'a self, user: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.change("UPDATE users SET seen = $2 WHERE id = $1", &[&user, &seen])
                .await
                .map(drop)
        })
    }

    fn make_bot<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<BotUpgrade, StoreError>> {
        Box::pin(async move {
            // One statement: the check and the change. (A game stored by
            // another connection at that very moment is not seen; a game
            // needs its player's request, and an upgrade comes from the
            // same player's program.)
            let changed = self
                .change(
                    "UPDATE users SET bot = TRUE WHERE id = $1 AND NOT bot AND NOT deleted \
                       AND NOT EXISTS (SELECT 1 FROM games \
                         WHERE white_user = $1 OR black_user = $1)",
                    &[&user],
                )
                .await?;
            if changed > 0 {
                return Ok(BotUpgrade::Upgraded);
            }
            let found = self
                .row(
                    "SELECT bot, deleted FROM users WHERE id = $1",
                    &[&user],
                    |r| Ok((r.try_get::<_, bool>(0)?, r.try_get::<_, bool>(1)?)),
                )
                .await?;
            Ok(match found {
                None | Some((_, true)) => BotUpgrade::NotFound,
                Some((true, false)) => BotUpgrade::AlreadyBot,
                Some((false, false)) => BotUpgrade::HasGames,
            })
        })
    }

    fn delete_user<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.delete_user_rows(user))
    }

    fn create_session(&self, session: SessionRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "INSERT INTO sessions (hash, user_id, created, seen, expires, agent) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &session.hash,
                    &session.user,
                    &session.created,
                    &session.seen,
                    &session.expires,
                    &session.agent,
                ],
            )
            .await
            .map(drop)
        })
    }

    fn session<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<(SessionRow, UserRow)>, StoreError>> {
        Box::pin(async move {
            self.row(
                &format!(
                    "SELECT {SESSION}, {USER} FROM sessions s JOIN users u ON u.id = s.user_id \
                     WHERE s.hash = $1 AND s.expires > $2 AND NOT u.deleted"
                ),
                &[&hash, &now],
                |r| Ok((session_at(r, 0)?, user_at(r, 6)?)),
            )
            .await
        })
    }

    fn touch_session<'a>(
        &'a self,
        hash: &'a str,
        seen: i64,
        expires: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "UPDATE sessions SET seen = $2, expires = $3 WHERE hash = $1",
                &[&hash, &seen, &expires],
            )
            .await
            .map(drop)
        })
    }

    fn sessions<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SessionRow>, StoreError>> {
        Box::pin(async move {
            self.rows(
                &format!(
                    "SELECT {SESSION} FROM sessions s WHERE s.user_id = $1 \
                     ORDER BY s.seen DESC, s.hash COLLATE \"C\""
                ),
                &[&user],
                |r| session_at(r, 0),
            )
            .await
        })
    }

    fn delete_session<'a>(&'a self, hash: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            Ok(self
                .change("DELETE FROM sessions WHERE hash = $1", &[&hash])
                .await?
                > 0)
        })
    }

    fn delete_sessions<'a>(
        &'a self,
        user: &'a str,
        except: Option<&'a str>,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            self.change(
                "DELETE FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR hash <> $2)",
                &[&user, &except],
            )
            .await
        })
    }

    fn expire_sessions(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            self.change("DELETE FROM sessions WHERE expires <= $1", &[&now])
                .await
        })
    }

    fn add_passkey(&self, passkey: PasskeyRow) -> BoxFuture<'_, Result<(), AccountError>> {
        Box::pin(async move {
            self.insert_new(
                NEW_PASSKEY,
                &[
                    &passkey.id,
                    &passkey.user,
                    &passkey.name,
                    &passkey.data,
                    &passkey.created,
                    &passkey.used,
                ],
            )
            .await
        })
    }

    fn passkeys<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<PasskeyRow>, StoreError>> {
        Box::pin(async move {
            self.rows(
                &format!(
                    "SELECT {PASSKEY} FROM passkeys WHERE user_id = $1 \
                     ORDER BY created, id COLLATE \"C\""
                ),
                &[&user],
                passkey,
            )
            .await
        })
    }

    fn passkey<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<PasskeyRow>, StoreError>> {
        Box::pin(async move {
            self.row(
                &format!("SELECT {PASSKEY} FROM passkeys WHERE id = $1"),
                &[&id],
                passkey,
            )
            .await
        })
    }

    fn update_passkey<'a>(
        &'a self,
        id: &'a str,
        data: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "UPDATE passkeys SET data = $2, used = $3 WHERE id = $1",
                &[&id, &data, &used],
            )
            .await
            .map(drop)
        })
    }

    fn remove_passkey<'a>(
        &'a self,
        user: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<PasskeyRemoval, StoreError>> {
        Box::pin(self.remove_passkey_kept(user, id))
    }

    fn put_ceremony(&self, ceremony: CeremonyRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let c = &ceremony;
            self.change(
                "INSERT INTO ceremonies (id, kind, user_id, state, expires) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[&c.id, &c.kind, &c.user, &c.state, &c.expires],
            )
            .await
            .map(drop)
        })
    }

    fn take_ceremony<'a>(
        &'a self,
        id: &'a str,
        kind: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Option<CeremonyRow>, StoreError>> {
        Box::pin(async move {
            // One statement: of two takes at once, the second waits for
            // the first's delete and then finds no row.
            self.row(
                &format!(
                    "DELETE FROM ceremonies WHERE id = $1 AND kind = $2 AND expires > $3 \
                     RETURNING {CEREMONY}"
                ),
                &[&id, &kind, &now],
                |r| {
                    Ok(CeremonyRow {
                        id: r.try_get(0)?,
                        kind: r.try_get(1)?,
                        user: r.try_get(2)?,
                        state: r.try_get(3)?,
                        expires: r.try_get(4)?,
                    })
                },
            )
            .await
        })
    }

    fn expire_ceremonies(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            self.change("DELETE FROM ceremonies WHERE expires <= $1", &[&now])
                .await
        })
    }

    fn add_token(&self, token: TokenRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "INSERT INTO api_tokens (hash, user_id, label, created, used) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &token.hash,
                    &token.user,
                    &token.label,
                    &token.created,
                    &token.used,
                ],
            )
            .await
            .map(drop)
        })
    }

    fn token<'a>(
        &'a self,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<Option<(TokenRow, UserRow)>, StoreError>> {
        Box::pin(async move {
            self.row(
                &format!(
                    "SELECT {TOKEN}, {USER} FROM api_tokens t JOIN users u ON u.id = t.user_id \
                     WHERE t.hash = $1 AND NOT u.deleted"
                ),
                &[&hash],
                |r| Ok((token_at(r, 0)?, user_at(r, 5)?)),
            )
            .await
        })
    }

    fn touch_token<'a>(
        &'a self,
        hash: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "UPDATE api_tokens SET used = $2 WHERE hash = $1",
                &[&hash, &used],
            )
            .await
            .map(drop)
        })
    }

    fn tokens<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<TokenRow>, StoreError>> {
        Box::pin(async move {
            self.rows(
                &format!(
                    "SELECT {TOKEN} FROM api_tokens t WHERE t.user_id = $1 \
                     ORDER BY t.created, t.hash COLLATE \"C\""
                ),
                &[&user],
                |r| token_at(r, 0),
            )
            .await
        })
    }

    fn remove_token<'a>(
        &'a self,
        user: &'a str,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            Ok(self
                .change(
                    "DELETE FROM api_tokens WHERE hash = $1 AND user_id = $2",
                    &[&hash, &user],
                )
                .await?
                > 0)
        })
    }

    fn ratings<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>> {
        Box::pin(async move {
            self.rows(
                &format!(
                    "SELECT {RATING} FROM ratings r WHERE r.user_id = $1 \
                     ORDER BY r.category COLLATE \"C\""
                ),
                &[&user],
                |r| rating_at(r, 0),
            )
            .await
        })
    }

    fn apply_rating(&self, result: RatedResult) -> BoxFuture<'_, Result<(), ApplyError>> {
        Box::pin(self.apply_rating_rows(result))
    }

    fn rating_history<'a>(
        &'a self,
        user: &'a str,
        category: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>> {
        Box::pin(async move {
            self.rows(
                &format!(
                    "SELECT {HISTORY} FROM rating_history WHERE user_id = $1 AND category = $2 \
                     ORDER BY at, game COLLATE \"C\""
                ),
                &[&user, &category],
                history,
            )
            .await
        })
    }

    fn game_rating<'a>(
        &'a self,
        game: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>> {
        Box::pin(async move {
            self.rows(
                &format!(
                    "SELECT {HISTORY} FROM rating_history WHERE game = $1 \
                     ORDER BY user_id COLLATE \"C\""
                ),
                &[&game],
                history,
            )
            .await
        })
    }

    fn leaderboard<'a>(
        &'a self,
        category: &'a str,
        active_since: i64,
        max_deviation: f64,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<(UserRow, RatingRow)>, StoreError>> {
        Box::pin(async move {
            let limit = i64::from(limit);
            self.rows(
                &format!(
                    "SELECT {USER}, {RATING} FROM ratings r JOIN users u ON u.id = r.user_id \
                     WHERE r.category = $1 AND r.updated >= $2 AND r.deviation <= $3 \
                       AND NOT u.deleted \
                     ORDER BY r.rating DESC, u.id COLLATE \"C\" LIMIT $4"
                ),
                &[&category, &active_since, &max_deviation, &limit],
                |r| Ok((user_at(r, 0)?, rating_at(r, 8)?)),
            )
            .await
        })
    }

    fn user_stats<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<StatLine>, StoreError>> {
        Box::pin(async move {
            self.rows(STATS, &[&user], |r| {
                Ok(StatLine {
                    variant: r.try_get(0)?,
                    side: r.try_get(1)?,
                    won: r.try_get(2)?,
                    lost: r.try_get(3)?,
                    drawn: r.try_get(4)?,
                })
            })
            .await
        })
    }

    fn block<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
        at: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "INSERT INTO blocks (user_id, other_id, created) VALUES ($1, $2, $3) \
                 ON CONFLICT DO NOTHING",
                &[&user, &other, &at],
            )
            .await
            .map(drop)
        })
    }

    fn unblock<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            Ok(self
                .change(
                    "DELETE FROM blocks WHERE user_id = $1 AND other_id = $2",
                    &[&user, &other],
                )
                .await?
                > 0)
        })
    }

    fn blocks<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<BlockRow>, StoreError>> {
        Box::pin(async move {
            self.rows(
                "SELECT user_id, other_id, created FROM blocks \
                 WHERE user_id = $1 OR other_id = $1 \
                 ORDER BY created, user_id COLLATE \"C\", other_id COLLATE \"C\"",
                &[&user],
                |r| {
                    Ok(BlockRow {
                        user: r.try_get(0)?,
                        other: r.try_get(1)?,
                        created: r.try_get(2)?,
                    })
                },
            )
            .await
        })
    }

    fn add_conduct(&self, row: ConductRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.change(
                "INSERT INTO conduct (user_id, game_id, kind, at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING",
                &[&row.user, &row.game, &row.kind, &row.at],
            )
            .await
            .map(drop)
        })
    }

    fn conduct<'a>(
        &'a self,
        user: &'a str,
        since: i64,
    ) -> BoxFuture<'a, Result<Vec<ConductRow>, StoreError>> {
        Box::pin(async move {
            self.rows(
                "SELECT user_id, game_id, kind, at FROM conduct \
                 WHERE user_id = $1 AND at >= $2 ORDER BY at, game_id COLLATE \"C\"",
                &[&user, &since],
                |r| {
                    Ok(ConductRow {
                        user: r.try_get(0)?,
                        game: r.try_get(1)?,
                        kind: r.try_get(2)?,
                        at: r.try_get(3)?,
                    })
                },
            )
            .await
        })
    }
}
