//! The accounts and ratings (`4.sql`) and the passkey ceremonies
//! (`5.sql`) in the SQLite file: writes go
//! through the writer thread like a game's ([`AccountWrite`], committed
//! with the batch and acknowledged after the commit); reads run off the
//! runtime's threads on the reader's connection.

use super::{linked, off_the_runtime, write_failed, Answer, Store, Write};
use crate::accounts::{in_order_of, sides_in_order};
use crate::{
    AccountError, AccountStore, ApplyError, BlockRow, BotUpgrade, BoxFuture, CeremonyRow,
    ConductRow, HistoryPoint, PasskeyRemoval, PasskeyRow, RatedResult, RatingRow, SaveError,
    SessionRow, StatLine, StoreError, TokenRow, UserRow,
};
use rusqlite::{params, Connection, OptionalExtension};

/// One queued write of the accounts.
pub(crate) enum AccountWrite {
    CreateUser(UserRow),
    CreateUserWithPasskey(Box<(UserRow, PasskeyRow)>),
    SetPassword {
        user: String,
        phc: Option<String>,
    },
    SetSeen {
        user: String,
        seen: i64,
    },
    DeleteUser(String),
    MakeBot(String),
    CreateSession(SessionRow),
    TouchSession {
        hash: String,
        seen: i64,
        expires: i64,
    },
    DeleteSession(String),
    DeleteSessions {
        user: String,
        except: Option<String>,
    },
    ExpireSessions(i64),
    AddPasskey(PasskeyRow),
    UpdatePasskey {
        id: String,
        data: String,
        used: i64,
    },
    RemovePasskey {
        user: String,
        id: String,
    },
    PutCeremony(CeremonyRow),
    TakeCeremony {
        id: String,
        kind: String,
        now: i64,
    },
    ExpireCeremonies(i64),
    AddToken(TokenRow),
    TouchToken {
        hash: String,
        used: i64,
    },
    RemoveToken {
        user: String,
        hash: String,
    },
    Block {
        user: String,
        other: String,
        at: i64,
    },
    Unblock {
        user: String,
        other: String,
    },
    ApplyRating(Box<RatedResult>),
    AddConduct(ConductRow),
}

/// A user's columns, in [`user_at`]'s order.
const USER: &str = "u.id, u.name, u.name_key, u.created, u.seen, u.password, u.bot, u.deleted";
const SESSION: &str = "s.hash, s.user_id, s.created, s.seen, s.expires, s.agent";
const PASSKEY: &str = "id, user_id, name, data, created, used";
const CEREMONY: &str = "id, kind, user_id, state, expires";
const TOKEN: &str = "t.hash, t.user_id, t.label, t.created, t.used";
const RATING: &str = "r.user_id, r.category, r.rating, r.deviation, r.volatility, r.games, \
                      r.updated";
const HISTORY: &str = "game, user_id, category, at, rating, deviation, change, score, opponent";

/// A user from the row's columns from `at` on ([`USER`]).
fn user_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<UserRow> {
    Ok(UserRow {
        id: r.get(at)?,
        name: r.get(at + 1)?,
        name_key: r.get(at + 2)?,
        created: r.get(at + 3)?,
        seen: r.get(at + 4)?,
        password: r.get(at + 5)?,
        bot: r.get(at + 6)?,
        deleted: r.get(at + 7)?,
    })
}

fn session_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        hash: r.get(at)?,
        user: r.get(at + 1)?,
        created: r.get(at + 2)?,
        seen: r.get(at + 3)?,
        expires: r.get(at + 4)?,
        agent: r.get(at + 5)?,
    })
}

fn passkey(r: &rusqlite::Row<'_>) -> rusqlite::Result<PasskeyRow> {
    Ok(PasskeyRow {
        id: r.get(0)?,
        user: r.get(1)?,
        name: r.get(2)?,
        data: r.get(3)?,
        created: r.get(4)?,
        used: r.get(5)?,
    })
}

fn token_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<TokenRow> {
    Ok(TokenRow {
        hash: r.get(at)?,
        user: r.get(at + 1)?,
        label: r.get(at + 2)?,
        created: r.get(at + 3)?,
        used: r.get(at + 4)?,
    })
}

fn rating_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        user: r.get(at)?,
        category: r.get(at + 1)?,
        rating: r.get(at + 2)?,
        deviation: r.get(at + 3)?,
        volatility: r.get(at + 4)?,
        games: r.get(at + 5)?,
        updated: r.get(at + 6)?,
    })
}

fn history(r: &rusqlite::Row<'_>) -> rusqlite::Result<HistoryPoint> {
    Ok(HistoryPoint {
        game: r.get(0)?,
        user: r.get(1)?,
        category: r.get(2)?,
        at: r.get(3)?,
        rating: r.get(4)?,
        deviation: r.get(5)?,
        change: r.get(6)?,
        score: r.get(7)?,
        opponent: r.get(8)?,
    })
}

/// Runs one statement of a write: the rows it changed.
pub(super) fn run(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Answer {
    let mut stmt = conn.prepare_cached(sql).map_err(write_failed)?;
    stmt.execute(params).map(|n| n as u64).map_err(write_failed)
}

/// An insert whose key (a primary key or a unique column) may be taken:
/// that is [`SaveError::Duplicate`]; any other failure fails.
pub(super) fn insert_new(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Answer {
    use rusqlite::ffi::{SQLITE_CONSTRAINT_PRIMARYKEY, SQLITE_CONSTRAINT_UNIQUE};
    let mut stmt = conn.prepare_cached(sql).map_err(write_failed)?;
    match stmt.execute(params) {
        Ok(n) => Ok(n as u64),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == SQLITE_CONSTRAINT_PRIMARYKEY
                || e.extended_code == SQLITE_CONSTRAINT_UNIQUE =>
        {
            Err(SaveError::Duplicate)
        }
        Err(e) => Err(write_failed(e)),
    }
}

fn insert_user(conn: &Connection, u: &UserRow) -> Answer {
    insert_new(
        conn,
        "INSERT INTO users (id, name, name_key, created, seen, password, bot, deleted) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![u.id, u.name, u.name_key, u.created, u.seen, u.password, u.bot, u.deleted],
    )
}

fn insert_passkey(conn: &Connection, p: &PasskeyRow) -> Answer {
    insert_new(
        conn,
        "INSERT INTO passkeys (id, user_id, name, data, created, used) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![p.id, p.user, p.name, p.data, p.created, p.used],
    )
}

/// Runs one account's write inside the batch's transaction.
pub(super) fn apply(conn: &Connection, write: &AccountWrite) -> Answer {
    match write {
        AccountWrite::CreateUser(u) => insert_user(conn, u),
        // Both or neither.
        AccountWrite::CreateUserWithPasskey(both) => linked(conn, || {
            let (u, p) = &**both;
            insert_user(conn, u)?;
            insert_passkey(conn, p)
        }),
        AccountWrite::SetPassword { user, phc } => run(
            conn,
            "UPDATE users SET password = ?2 WHERE id = ?1",
            params![user, phc],
        ),
        AccountWrite::SetSeen { user, seen } => run(
            conn,
            "UPDATE users SET seen = ?2 WHERE id = ?1",
            params![user, seen],
        ),
        AccountWrite::DeleteUser(user) => linked(conn, || {
            let n = run(
                conn,
                "UPDATE users SET deleted = 1, password = NULL WHERE id = ?1",
                params![user],
            )?;
            for sql in [
                "DELETE FROM sessions WHERE user_id = ?1",
                "DELETE FROM passkeys WHERE user_id = ?1",
                "DELETE FROM api_tokens WHERE user_id = ?1",
                "DELETE FROM notifications WHERE user_id = ?1",
            ] {
                run(conn, sql, params![user])?;
            }
            Ok(n)
        }),
        // The writer thread runs one write at a time: no game can be
        // stored between the check and the change.
        AccountWrite::MakeBot(user) => run(conn, MAKE_BOT, params![user]),
        AccountWrite::CreateSession(s) => run(
            conn,
            "INSERT INTO sessions (hash, user_id, created, seen, expires, agent) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![s.hash, s.user, s.created, s.seen, s.expires, s.agent],
        ),
        AccountWrite::TouchSession {
            hash,
            seen,
            expires,
        } => run(
            conn,
            "UPDATE sessions SET seen = ?2, expires = ?3 WHERE hash = ?1",
            params![hash, seen, expires],
        ),
        AccountWrite::DeleteSession(hash) => {
            run(conn, "DELETE FROM sessions WHERE hash = ?1", params![hash])
        }
        AccountWrite::DeleteSessions { user, except } => run(
            conn,
            "DELETE FROM sessions WHERE user_id = ?1 AND (?2 IS NULL OR hash <> ?2)",
            params![user, except],
        ),
        AccountWrite::ExpireSessions(now) => run(
            conn,
            "DELETE FROM sessions WHERE expires <= ?1",
            params![now],
        ),
        AccountWrite::AddPasskey(p) => insert_passkey(conn, p),
        AccountWrite::UpdatePasskey { id, data, used } => run(
            conn,
            "UPDATE passkeys SET data = ?2, used = ?3 WHERE id = ?1",
            params![id, data, used],
        ),
        // The writer thread runs one write at a time: the check and the
        // removal are one step.
        AccountWrite::RemovePasskey { user, id } => run(
            conn,
            "DELETE FROM passkeys WHERE id = ?1 AND user_id = ?2 \
               AND (EXISTS (SELECT 1 FROM users WHERE id = ?2 AND password IS NOT NULL) \
                    OR (SELECT count(*) FROM passkeys WHERE user_id = ?2) > 1)",
            params![id, user],
        ),
        AccountWrite::PutCeremony(c) => run(
            conn,
            "INSERT INTO ceremonies (id, kind, user_id, state, expires) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![c.id, c.kind, c.user, c.state, c.expires],
        ),
        AccountWrite::TakeCeremony { id, kind, now } => run(
            conn,
            "DELETE FROM ceremonies WHERE id = ?1 AND kind = ?2 AND expires > ?3",
            params![id, kind, now],
        ),
        AccountWrite::ExpireCeremonies(now) => run(
            conn,
            "DELETE FROM ceremonies WHERE expires <= ?1",
            params![now],
        ),
        AccountWrite::AddToken(t) => run(
            conn,
            "INSERT INTO api_tokens (hash, user_id, label, created, used) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![t.hash, t.user, t.label, t.created, t.used],
        ),
        AccountWrite::TouchToken { hash, used } => run(
            conn,
            "UPDATE api_tokens SET used = ?2 WHERE hash = ?1",
            params![hash, used],
        ),
        AccountWrite::RemoveToken { user, hash } => run(
            conn,
            "DELETE FROM api_tokens WHERE hash = ?1 AND user_id = ?2",
            params![hash, user],
        ),
        AccountWrite::ApplyRating(result) => linked(conn, || apply_rating(conn, result)),
        AccountWrite::Block { user, other, at } => run(
            conn,
            "INSERT INTO blocks (user_id, other_id, created) VALUES (?1, ?2, ?3) \
             ON CONFLICT DO NOTHING",
            params![user, other, at],
        ),
        AccountWrite::Unblock { user, other } => run(
            conn,
            "DELETE FROM blocks WHERE user_id = ?1 AND other_id = ?2",
            params![user, other],
        ),
        AccountWrite::AddConduct(c) => run(
            conn,
            "INSERT INTO conduct (user_id, game_id, kind, at) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT DO NOTHING",
            params![c.user, c.game, c.kind, c.at],
        ),
    }
}

/// A user becomes a bot if it is one neither yet nor deleted, and no game
/// has it on a seat.
const MAKE_BOT: &str = "UPDATE users SET bot = 1 WHERE id = ?1 AND bot = 0 AND deleted = 0 \
       AND NOT EXISTS (SELECT 1 FROM games WHERE white_user = ?1 OR black_user = ?1)";

/// A rated game's result, once, on the ratings it was computed from:
/// [`SaveError::Duplicate`] if the game was applied, [`SaveError::Stale`]
/// if a side's row moved on. One writer thread makes the checks and the
/// writes one step.
fn apply_rating(conn: &Connection, result: &RatedResult) -> Answer {
    let sides = sides_in_order(result).map_err(SaveError::Failed)?;
    let applied: bool = conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM rating_history WHERE game = ?1)")
        .and_then(|mut s| s.query_row(params![result.game], |r| r.get(0)))
        .map_err(write_failed)?;
    if applied {
        return Err(SaveError::Duplicate);
    }
    for side in sides {
        let games: Option<i64> = conn
            .prepare_cached("SELECT games FROM ratings WHERE user_id = ?1 AND category = ?2")
            .and_then(|mut s| {
                s.query_row(params![side.new.user, side.new.category], |r| r.get(0))
                    .optional()
            })
            .map_err(write_failed)?;
        if games.unwrap_or(0) != side.expected_games {
            return Err(SaveError::Stale);
        }
    }
    for side in sides {
        let new = &side.new;
        run(
            conn,
            "INSERT INTO ratings (user_id, category, rating, deviation, volatility, games, \
               updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (user_id, category) DO UPDATE SET rating = excluded.rating, \
               deviation = excluded.deviation, volatility = excluded.volatility, \
               games = excluded.games, updated = excluded.updated",
            params![
                new.user,
                new.category,
                new.rating,
                new.deviation,
                new.volatility,
                side.expected_games + 1,
                new.updated
            ],
        )?;
        run(
            conn,
            "INSERT INTO rating_history (game, user_id, category, at, rating, deviation, \
               volatility, change, score, opponent) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                result.game,
                new.user,
                new.category,
                result.at,
                new.rating,
                new.deviation,
                new.volatility,
                side.change,
                side.score,
                side.opponent
            ],
        )?;
    }
    Ok(2)
}

/// A failed write's error, for the writes that answer only with
/// [`StoreError`].
pub(super) fn store_error(e: SaveError) -> StoreError {
    match e {
        SaveError::Failed(e) => e,
        other => StoreError::failed(format!("database write failed: {other}")),
    }
}

/// The games a user's stats count: each ended game once per seat of the
/// user, its stored result (`status`) read from that seat's side; an
/// aborted game (`*`) counts for nothing.
const STATS: &str = "SELECT variant, side, won, lost, drawn FROM ( \
       SELECT variant, 'white' AS side, \
         count(*) FILTER (WHERE status = '1-0') AS won, \
         count(*) FILTER (WHERE status = '0-1') AS lost, \
         count(*) FILTER (WHERE status = '1/2-1/2') AS drawn \
       FROM games WHERE white_user = ?1 AND status NOT IN ('ongoing', '*') GROUP BY variant \
       UNION ALL \
       SELECT variant, 'black' AS side, \
         count(*) FILTER (WHERE status = '0-1'), \
         count(*) FILTER (WHERE status = '1-0'), \
         count(*) FILTER (WHERE status = '1/2-1/2') \
       FROM games WHERE black_user = ?1 AND status NOT IN ('ongoing', '*') GROUP BY variant) \
     ORDER BY variant, side DESC";

impl Store {
    /// Runs `read` on the reader's connection, off the runtime's threads.
    pub(super) fn read<T>(
        &self,
        read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        off_the_runtime(|| {
            let conn = self.reader()?;
            Ok(read(&conn)?)
        })
    }

    async fn account_write(&self, write: AccountWrite) -> Result<u64, StoreError> {
        self.write(Write::Account(write)).await.map_err(store_error)
    }

    /// A write that adds a row whose key may be taken.
    async fn account_insert(&self, write: AccountWrite) -> Result<(), AccountError> {
        match self.write(Write::Account(write)).await {
            Ok(_) => Ok(()),
            Err(SaveError::Duplicate) => Err(AccountError::Taken),
            Err(e) => Err(AccountError::Failed(store_error(e))),
        }
    }
}

/// Every row `sql` reads with `params`, each made by `make`.
pub(super) fn all<T>(
    conn: &Connection,
    sql: &str,
    params: &[&dyn rusqlite::ToSql],
    make: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, make)?;
    rows.collect()
}

/// The first row `sql` reads with `params`, if any.
pub(super) fn one<T>(
    conn: &Connection,
    sql: &str,
    params: &[&dyn rusqlite::ToSql],
    make: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Option<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    stmt.query_row(params, make).optional()
}

impl AccountStore for Store {
    fn create_user(&self, user: UserRow) -> BoxFuture<'_, Result<(), AccountError>> {
        Box::pin(self.account_insert(AccountWrite::CreateUser(user)))
    }

    fn create_user_with_passkey(
        &self,
        user: UserRow,
        passkey: PasskeyRow,
    ) -> BoxFuture<'_, Result<(), AccountError>> {
        Box::pin(
            self.account_insert(AccountWrite::CreateUserWithPasskey(Box::new((
                user, passkey,
            )))),
        )
    }

    fn user<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                one(
                    c,
                    &format!("SELECT {USER} FROM users u WHERE u.id = ?1"),
                    params![id],
                    |r| user_at(r, 0),
                )
            })
        })
    }

    fn user_by_key<'a>(
        &'a self,
        name_key: &'a str,
    ) -> BoxFuture<'a, Result<Option<UserRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                one(
                    c,
                    &format!("SELECT {USER} FROM users u WHERE u.name_key = ?1"),
                    params![name_key],
                    |r| user_at(r, 0),
                )
            })
        })
    }

    fn users<'a>(&'a self, ids: &'a [String]) -> BoxFuture<'a, Result<Vec<UserRow>, StoreError>> {
        Box::pin(async move {
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            // One parameter per id (SQLite allows 32,766).
            let places: Vec<String> = (1..=ids.len()).map(|i| format!("?{i}")).collect();
            let rows = self.read(|c| {
                let mut stmt = c.prepare(&format!(
                    "SELECT {USER} FROM users u WHERE u.id IN ({})",
                    places.join(", ")
                ))?;
                let rows = stmt.query_map(rusqlite::params_from_iter(ids), |r| user_at(r, 0))?;
                rows.collect()
            })?;
            Ok(in_order_of(ids, rows))
        })
    }

    fn set_password<'a>(
        &'a self,
        user: &'a str,
        phc: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::SetPassword {
                user: user.to_string(),
                phc: phc.map(str::to_string),
            })
            .await
            .map(drop)
        })
    }

    fn set_seen<'a>(&'a self, user: &'a str, seen: i64) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::SetSeen {
                user: user.to_string(),
                seen,
            })
            .await
            .map(drop)
        })
    }

    fn make_bot<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<BotUpgrade, StoreError>> {
        Box::pin(async move {
            let changed = self
                .account_write(AccountWrite::MakeBot(user.to_string()))
                .await?;
            if changed > 0 {
                return Ok(BotUpgrade::Upgraded);
            }
            // Not changed: say why.
            let found = self.read(|c| {
                one(
                    c,
                    "SELECT bot, deleted FROM users WHERE id = ?1",
                    params![user],
                    |r| Ok((r.get::<_, bool>(0)?, r.get::<_, bool>(1)?)),
                )
            })?;
            Ok(match found {
                None | Some((_, true)) => BotUpgrade::NotFound,
                Some((true, false)) => BotUpgrade::AlreadyBot,
                Some((false, false)) => BotUpgrade::HasGames,
            })
        })
    }

    fn delete_user<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::DeleteUser(user.to_string()))
                .await
                .map(drop)
        })
    }

    fn create_session(&self, session: SessionRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::CreateSession(session))
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
            self.read(|c| {
                one(
                    c,
                    &format!(
                        "SELECT {SESSION}, {USER} FROM sessions s JOIN users u ON u.id = s.user_id \
                         WHERE s.hash = ?1 AND s.expires > ?2 AND u.deleted = 0"
                    ),
                    params![hash, now],
                    |r| Ok((session_at(r, 0)?, user_at(r, 6)?)),
                )
            })
        })
    }

    fn touch_session<'a>(
        &'a self,
        hash: &'a str,
        seen: i64,
        expires: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::TouchSession {
                hash: hash.to_string(),
                seen,
                expires,
            })
            .await
            .map(drop)
        })
    }

    fn sessions<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<SessionRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {SESSION} FROM sessions s WHERE s.user_id = ?1 \
                         ORDER BY s.seen DESC, s.hash"
                    ),
                    params![user],
                    |r| session_at(r, 0),
                )
            })
        })
    }

    fn delete_session<'a>(&'a self, hash: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            Ok(self
                .account_write(AccountWrite::DeleteSession(hash.to_string()))
                .await?
                > 0)
        })
    }

    fn delete_sessions<'a>(
        &'a self,
        user: &'a str,
        except: Option<&'a str>,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(self.account_write(AccountWrite::DeleteSessions {
            user: user.to_string(),
            except: except.map(str::to_string),
        }))
    }

    fn expire_sessions(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(self.account_write(AccountWrite::ExpireSessions(now)))
    }

    fn add_passkey(&self, passkey: PasskeyRow) -> BoxFuture<'_, Result<(), AccountError>> {
        Box::pin(self.account_insert(AccountWrite::AddPasskey(passkey)))
    }

    fn passkeys<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<PasskeyRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {PASSKEY} FROM passkeys WHERE user_id = ?1 ORDER BY created, id"
                    ),
                    params![user],
                    passkey,
                )
            })
        })
    }

    fn passkey<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<PasskeyRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                one(
                    c,
                    &format!("SELECT {PASSKEY} FROM passkeys WHERE id = ?1"),
                    params![id],
                    passkey,
                )
            })
        })
    }

    fn update_passkey<'a>(
        &'a self,
        id: &'a str,
        data: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::UpdatePasskey {
                id: id.to_string(),
                data: data.to_string(),
                used,
            })
            .await
            .map(drop)
        })
    }

    fn remove_passkey<'a>(
        &'a self,
        user: &'a str,
        id: &'a str,
    ) -> BoxFuture<'a, Result<PasskeyRemoval, StoreError>> {
        Box::pin(async move {
            let removed = self
                .account_write(AccountWrite::RemovePasskey {
                    user: user.to_string(),
                    id: id.to_string(),
                })
                .await?;
            if removed > 0 {
                return Ok(PasskeyRemoval::Removed);
            }
            // Not removed: kept as the last one, or not the user's.
            let there = self.read(|c| {
                one(
                    c,
                    "SELECT 1 FROM passkeys WHERE id = ?1 AND user_id = ?2",
                    params![id, user],
                    |r| r.get::<_, i64>(0),
                )
            })?;
            Ok(match there {
                Some(_) => PasskeyRemoval::Last,
                None => PasskeyRemoval::NotFound,
            })
        })
    }

    fn put_ceremony(&self, ceremony: CeremonyRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::PutCeremony(ceremony))
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
            // A ceremony never changes once put, so the row read is the
            // row removed; whichever take removes it (the writer runs
            // one at a time) is the one that gets it.
            let found = self.read(|c| {
                one(
                    c,
                    &format!(
                        "SELECT {CEREMONY} FROM ceremonies \
                         WHERE id = ?1 AND kind = ?2 AND expires > ?3"
                    ),
                    params![id, kind, now],
                    |r| {
                        Ok(CeremonyRow {
                            id: r.get(0)?,
                            kind: r.get(1)?,
                            user: r.get(2)?,
                            state: r.get(3)?,
                            expires: r.get(4)?,
                        })
                    },
                )
            })?;
            let Some(ceremony) = found else {
                return Ok(None);
            };
            let taken = self
                .account_write(AccountWrite::TakeCeremony {
                    id: id.to_string(),
                    kind: kind.to_string(),
                    now,
                })
                .await?;
            Ok((taken > 0).then_some(ceremony))
        })
    }

    fn expire_ceremonies(&self, now: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(self.account_write(AccountWrite::ExpireCeremonies(now)))
    }

    fn add_token(&self, token: TokenRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::AddToken(token))
                .await
                .map(drop)
        })
    }

    fn token<'a>(
        &'a self,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<Option<(TokenRow, UserRow)>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                one(
                    c,
                    &format!(
                        "SELECT {TOKEN}, {USER} FROM api_tokens t JOIN users u ON u.id = t.user_id \
                         WHERE t.hash = ?1 AND u.deleted = 0"
                    ),
                    params![hash],
                    |r| Ok((token_at(r, 0)?, user_at(r, 5)?)),
                )
            })
        })
    }

    fn touch_token<'a>(
        &'a self,
        hash: &'a str,
        used: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::TouchToken {
                hash: hash.to_string(),
                used,
            })
            .await
            .map(drop)
        })
    }

    fn tokens<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<TokenRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {TOKEN} FROM api_tokens t WHERE t.user_id = ?1 \
                         ORDER BY t.created, t.hash"
                    ),
                    params![user],
                    |r| token_at(r, 0),
                )
            })
        })
    }

    fn remove_token<'a>(
        &'a self,
        user: &'a str,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            Ok(self
                .account_write(AccountWrite::RemoveToken {
                    user: user.to_string(),
                    hash: hash.to_string(),
                })
                .await?
                > 0)
        })
    }

    fn ratings<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {RATING} FROM ratings r WHERE r.user_id = ?1 ORDER BY r.category"
                    ),
                    params![user],
                    |r| rating_at(r, 0),
                )
            })
        })
    }

    fn apply_rating(&self, result: RatedResult) -> BoxFuture<'_, Result<(), ApplyError>> {
        Box::pin(async move {
            match self
                .write(Write::Account(AccountWrite::ApplyRating(Box::new(result))))
                .await
            {
                Ok(_) => Ok(()),
                Err(SaveError::Duplicate) => Err(ApplyError::AlreadyApplied),
                Err(SaveError::Stale) => Err(ApplyError::Stale),
                Err(SaveError::Failed(e)) => Err(ApplyError::Failed(e)),
            }
        })
    }

    fn rating_history<'a>(
        &'a self,
        user: &'a str,
        category: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {HISTORY} FROM rating_history \
                         WHERE user_id = ?1 AND category = ?2 ORDER BY at, game"
                    ),
                    params![user, category],
                    history,
                )
            })
        })
    }

    fn game_rating<'a>(
        &'a self,
        game: &'a str,
    ) -> BoxFuture<'a, Result<Vec<HistoryPoint>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {HISTORY} FROM rating_history WHERE game = ?1 ORDER BY user_id"
                    ),
                    params![game],
                    history,
                )
            })
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
            self.read(|c| {
                all(
                    c,
                    &format!(
                        "SELECT {USER}, {RATING} FROM ratings r JOIN users u ON u.id = r.user_id \
                         WHERE r.category = ?1 AND r.updated >= ?2 AND r.deviation <= ?3 \
                           AND u.deleted = 0 \
                         ORDER BY r.rating DESC, u.id LIMIT ?4"
                    ),
                    params![category, active_since, max_deviation, limit],
                    |r| Ok((user_at(r, 0)?, rating_at(r, 8)?)),
                )
            })
        })
    }

    fn user_stats<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<StatLine>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(c, STATS, params![user], |r| {
                    Ok(StatLine {
                        variant: r.get(0)?,
                        side: r.get(1)?,
                        won: r.get(2)?,
                        lost: r.get(3)?,
                        drawn: r.get(4)?,
                    })
                })
            })
        })
    }

    fn block<'a>(
        &'a self,
        user: &'a str,
        other: &'a str,
        at: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::Block {
                user: user.to_string(),
                other: other.to_string(),
                at,
            })
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
                .account_write(AccountWrite::Unblock {
                    user: user.to_string(),
                    other: other.to_string(),
                })
                .await?
                > 0)
        })
    }

    fn blocks<'a>(&'a self, user: &'a str) -> BoxFuture<'a, Result<Vec<BlockRow>, StoreError>> {
        Box::pin(async move {
            self.read(|c| {
                all(
                    c,
                    "SELECT user_id, other_id, created FROM blocks \
                     WHERE user_id = ?1 OR other_id = ?1 ORDER BY created, user_id, other_id",
                    params![user],
                    |r| {
                        Ok(BlockRow {
                            user: r.get(0)?,
                            other: r.get(1)?,
                            created: r.get(2)?,
                        })
                    },
                )
            })
        })
    }

    fn add_conduct(&self, row: ConductRow) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.account_write(AccountWrite::AddConduct(row))
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
            self.read(|c| {
                all(
                    c,
                    "SELECT user_id, game_id, kind, at FROM conduct \
                     WHERE user_id = ?1 AND at >= ?2 ORDER BY at, game_id",
                    params![user, since],
                    |r| {
                        Ok(ConductRow {
                            user: r.get(0)?,
                            game: r.get(1)?,
                            kind: r.get(2)?,
                            at: r.get(3)?,
                        })
                    },
                )
            })
        })
    }
}
