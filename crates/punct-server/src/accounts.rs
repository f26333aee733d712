//! Accounts on the server: signing up and in with a password, sessions,
//! changing (or setting a first) password, signing out (here or
//! everywhere), deleting an account (passkeys: `passkeys.rs`). The rules of names, passwords and secrets are
//! `punct-accounts`; the rows are the store's (`AccountStore`); the
//! handlers in `api/accounts.rs` read requests and set the cookie. No
//! HTTP here, and no `App`: only the store.
//!
//! Two costs are bounded here, because a login is the cheapest way to make
//! a server work hard: password hashing (argon2id, ~19 MiB and tens of
//! milliseconds of a core each) runs on blocking threads, a few at once,
//! and tries against one account are limited whatever client they come
//! from (the per-client limit is the route's bucket).

use crate::error::ApiError;
use crate::games::now_ms;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use punct_accounts::{name, password, token};
use punct_store::{AccountError, SessionRow, Storage, TokenRow, UserRow};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The session cookie's name.
pub(crate) const SESSION_COOKIE: &str = "punct_session";
/// A session lasts this long after its last use.
pub(crate) const SESSION_LIFE: Duration = Duration::from_secs(30 * 24 * 3600);
/// A session's last use is written at most this often (a read per request,
/// not a write).
const TOUCH_EVERY_MS: i64 = 3600 * 1000;
/// Tries of a password against one account per minute, whatever client
/// they come from: a guesser spread over many addresses gets no further.
const TRIES_PER_ACCOUNT: u32 = 6;
/// How long a request waits for a hashing place before it is refused.
const HASH_WAIT: Duration = Duration::from_secs(5);

/// API tokens one account holds at most.
pub(crate) const TOKENS_MAX: usize = 20;
/// Characters of a token's label at most.
pub(crate) const LABEL_MAX: usize = 40;
/// A token's last use is written at most this often (a read per request,
/// not a write: a bot's moves and streams would otherwise write each time).
const TOKEN_TOUCH_EVERY_MS: i64 = 60 * 1000;
/// Hex characters of a token's digest that name it in lists and removals
/// (64 bits: unique among one account's tokens; the digest alone gives
/// nothing of the secret either).
const TOKEN_ID_CHARS: usize = 16;

/// The public name of an API token: the start of its secret's digest.
pub(crate) fn token_id(token: &TokenRow) -> &str {
    token.hash.get(..TOKEN_ID_CHARS).unwrap_or(&token.hash)
}

/// A request's user, found by an API token (`Authorization: Bearer`).
#[derive(Clone, Debug)]
pub(crate) struct TokenUser {
    pub(crate) user: UserRow,
}

/// A signed-in request's user and the session it came with.
#[derive(Clone, Debug)]
pub(crate) struct SignedIn {
    pub(crate) user: UserRow,
    /// The session's digest (what the store keys it by).
    pub(crate) session: String,
}

/// Accounts over the store, with hashing and per-account tries bounded.
pub(crate) struct Accounts {
    pub(crate) store: Arc<dyn Storage>,
    hashing: Semaphore,
    tries: DefaultKeyedRateLimiter<String>,
}

impl Accounts {
    pub(crate) fn new(store: Arc<dyn Storage>, hashers: usize) -> Accounts {
        let per_minute = NonZeroU32::new(TRIES_PER_ACCOUNT).expect("non-zero");
        Accounts {
            store,
            hashing: Semaphore::new(hashers.max(1)),
            tries: RateLimiter::keyed(Quota::per_minute(per_minute)),
        }
    }

    /// A new account with a password, and its first session's secret.
    pub(crate) async fn sign_up(
        &self,
        user_name: &str,
        new_password: &str,
        agent: &str,
    ) -> Result<(UserRow, String), ApiError> {
        check_name(user_name)?;
        password::check(new_password, user_name).map_err(|e| {
            ApiError::unprocessable(e.code(), e.to_string()).with("min", password::MIN_CHARS)
        })?;
        let key = name::key(user_name);
        // Refused before the expensive hash when the name is plainly taken.
        if self.store.accounts().user_by_key(&key).await?.is_some() {
            return Err(taken(user_name));
        }
        let phc = self.hash(new_password).await?;
        let now = now_ms();
        let user = UserRow {
            id: token::user_id(),
            name: user_name.to_string(),
            name_key: key,
            created: now,
            seen: now,
            password: Some(phc),
            bot: false,
            deleted: false,
        };
        match self.store.accounts().create_user(user.clone()).await {
            Ok(()) => {}
            Err(AccountError::Taken) => return Err(taken(user_name)),
            Err(AccountError::Failed(e)) => return Err(e.into()),
        }
        let secret = self.open_session(&user.id, agent).await?;
        Ok((user, secret))
    }

    /// Signs in with a name and password: the user and a new session's
    /// secret. A wrong name and a wrong password are the same refusal,
    /// after the same work.
    pub(crate) async fn sign_in(
        &self,
        user_name: &str,
        given: &str,
        agent: &str,
    ) -> Result<(UserRow, String), ApiError> {
        // A name no account can have is no one, found without the store.
        let key = name::lookup_key(user_name.trim());
        if let Some(key) = &key {
            self.try_account(key)?;
        }
        if given.len() > password::MAX_BYTES {
            return Err(wrong());
        }
        let user = match &key {
            Some(key) => self.store.accounts().user_by_key(key).await?,
            None => None,
        }
        .filter(|u| !u.deleted);
        let Some((user, phc)) = user.and_then(|u| u.password.clone().map(|p| (u, p))) else {
            let given = given.to_string();
            self.blocking(move || password::verify_nobody(&given))
                .await?;
            return Err(wrong());
        };
        let check = {
            let given = given.to_string();
            let phc = phc.clone();
            self.blocking(move || password::verify(&given, &phc))
                .await?
        };
        match check {
            Ok(true) => {}
            Ok(false) => return Err(wrong()),
            Err(e) => {
                tracing::warn!(
                    "user {}: the stored password hash is unusable: {e}",
                    user.id
                );
                return Err(wrong());
            }
        }
        // Hashes made with older parameters are renewed on a good login.
        if password::needs_rehash(&phc) {
            if let Ok(fresh) = self.hash(given).await {
                let _ = self
                    .store
                    .accounts()
                    .set_password(&user.id, Some(&fresh))
                    .await;
            }
        }
        let secret = self.open_session(&user.id, agent).await?;
        Ok((user, secret))
    }

    /// The user signed in with this cookie secret, if the session is live.
    pub(crate) async fn session(&self, secret: &str) -> Result<Option<SignedIn>, ApiError> {
        // A malformed cookie is no session, and costs no database read.
        if secret.len() != 43 || !secret.bytes().all(is_base64url) {
            return Ok(None);
        }
        let hash = token::digest(secret);
        let now = now_ms();
        let Some((session, user)) = self.store.accounts().session(&hash, now).await? else {
            return Ok(None);
        };
        if now - session.seen >= TOUCH_EVERY_MS {
            let expires = now + SESSION_LIFE.as_millis() as i64;
            self.store
                .accounts()
                .touch_session(&hash, now, expires)
                .await?;
            self.store.accounts().set_seen(&user.id, now).await?;
        }
        Ok(Some(SignedIn {
            user,
            session: hash,
        }))
    }

    /// Ends this session.
    pub(crate) async fn sign_out(&self, who: &SignedIn) -> Result<(), ApiError> {
        self.store.accounts().delete_session(&who.session).await?;
        Ok(())
    }

    /// Ends every other session of the user (every device but this one);
    /// how many.
    pub(crate) async fn sign_out_elsewhere(&self, who: &SignedIn) -> Result<u64, ApiError> {
        Ok(self
            .store
            .accounts()
            .delete_sessions(&who.user.id, Some(&who.session))
            .await?)
    }

    /// A new password, given the current one; every other session ends
    /// (whoever knew the old password is signed out). An account with no
    /// password (made with a passkey) sets its first one without
    /// `current`, as it adds a passkey: with its session.
    pub(crate) async fn change_password(
        &self,
        who: &SignedIn,
        current: Option<&str>,
        new_password: &str,
    ) -> Result<u64, ApiError> {
        let has_password = self
            .store
            .accounts()
            .user(&who.user.id)
            .await?
            .is_some_and(|u| u.password.is_some());
        if has_password {
            self.confirm(who, current.unwrap_or("")).await?;
        }
        password::check(new_password, &who.user.name).map_err(|e| {
            ApiError::unprocessable(e.code(), e.to_string()).with("min", password::MIN_CHARS)
        })?;
        let phc = self.hash(new_password).await?;
        self.store
            .accounts()
            .set_password(&who.user.id, Some(&phc))
            .await?;
        self.sign_out_elsewhere(who).await
    }

    /// Deletes the account (its games stay; its name stays taken), once
    /// confirmed: by its password ([`Accounts::confirm`]) or a fresh
    /// passkey sign-in of the same account (`passkeys.rs`).
    pub(crate) async fn delete(&self, who: &SignedIn) -> Result<(), ApiError> {
        self.store.accounts().delete_user(&who.user.id).await?;
        Ok(())
    }

    /// Checks the signed-in user's password (for changes that need it).
    pub(crate) async fn confirm(&self, who: &SignedIn, given: &str) -> Result<(), ApiError> {
        self.try_account(&who.user.name_key)?;
        let fresh = self.store.accounts().user(&who.user.id).await?;
        let Some(phc) = fresh.and_then(|u| u.password) else {
            return Err(ApiError::unprocessable(
                "no_password",
                "this account has no password to confirm with",
            ));
        };
        if given.len() > password::MAX_BYTES {
            return Err(wrong_password());
        }
        let given = given.to_string();
        match self
            .blocking(move || password::verify(&given, &phc))
            .await?
        {
            Ok(true) => Ok(()),
            _ => Err(wrong_password()),
        }
    }

    pub(crate) async fn open_session(&self, user: &str, agent: &str) -> Result<String, ApiError> {
        let secret = token::session();
        let now = now_ms();
        self.store
            .accounts()
            .create_session(SessionRow {
                hash: token::digest(&secret),
                user: user.to_string(),
                created: now,
                seen: now,
                expires: now + SESSION_LIFE.as_millis() as i64,
                // What the sessions list shows of a device; bounded.
                agent: agent.chars().take(200).collect(),
            })
            .await?;
        Ok(secret)
    }

    /// A new API token for the signed-in user: the row as stored (its
    /// digest only) and the secret, which is shown this once.
    pub(crate) async fn create_token(
        &self,
        who: &SignedIn,
        label: &str,
    ) -> Result<(TokenRow, String), ApiError> {
        let label = check_label(label)?;
        let held = self.store.accounts().tokens(&who.user.id).await?;
        if held.len() >= TOKENS_MAX {
            return Err(ApiError::conflict(
                "too_many_tokens",
                format!("an account holds at most {TOKENS_MAX} API tokens: remove one first"),
            )
            .with("max", TOKENS_MAX));
        }
        let secret = token::api();
        let row = TokenRow {
            hash: token::digest(&secret),
            user: who.user.id.clone(),
            label,
            created: now_ms(),
            used: None,
        };
        self.store.accounts().add_token(row.clone()).await?;
        Ok((row, secret))
    }

    /// Removes the signed-in user's token `id` ([`token_id`]).
    pub(crate) async fn remove_token(&self, who: &SignedIn, id: &str) -> Result<(), ApiError> {
        let held = self.store.accounts().tokens(&who.user.id).await?;
        let found = held
            .iter()
            .find(|t| !id.is_empty() && token_id(t) == id)
            .ok_or_else(|| {
                ApiError::not_found("unknown_token", "this account has no API token of this id")
                    .with("id", id.chars().take(40).collect::<String>())
            })?;
        self.store
            .accounts()
            .remove_token(&who.user.id, &found.hash)
            .await?;
        Ok(())
    }

    /// The user an API token's secret belongs to, if it is a live token
    /// of an account that is not deleted. A text that is not a token's
    /// form costs no database read. Its last use is written at most once
    /// a minute.
    pub(crate) async fn token_user(&self, secret: &str) -> Result<Option<TokenUser>, ApiError> {
        if !token::looks_like_api(secret) {
            return Ok(None);
        }
        let hash = token::digest(secret);
        let Some((row, user)) = self.store.accounts().token(&hash).await? else {
            return Ok(None);
        };
        let now = now_ms();
        if row
            .used
            .is_none_or(|used| now - used >= TOKEN_TOUCH_EVERY_MS)
        {
            // A failed write of the last use refuses nothing.
            if let Err(e) = self.store.accounts().touch_token(&hash, now).await {
                tracing::warn!("user {}: noting an API token's use: {e}", user.id);
            }
        }
        Ok(Some(TokenUser { user }))
    }

    /// Takes one try against account `key`, or says when to come back.
    pub(crate) fn try_account(&self, key: &str) -> Result<(), ApiError> {
        self.tries.check_key(&key.to_string()).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::too_many(
                "account_limited",
                format!(
                    "too many sign-in tries for this account: try again in {} s",
                    wait.as_secs().max(1)
                ),
                wait.as_secs(),
            )
        })
    }

    async fn hash(&self, given: &str) -> Result<String, ApiError> {
        let given = given.to_string();
        self.blocking(move || password::hash(&given))
            .await?
            .map_err(|e| ApiError::internal(format!("hashing the password: {e}")))
    }

    /// Runs hashing work on a blocking thread, at most a few at once; a
    /// request that cannot get a place soon is refused, not queued for
    /// ever.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _place = tokio::time::timeout(HASH_WAIT, self.hashing.acquire())
            .await
            .map_err(|_| {
                ApiError::too_many(
                    "accounts_busy",
                    "the server is checking many passwords: try again in a few seconds",
                    2,
                )
            })?
            .map_err(|_| ApiError::internal("the hashing places are closed"))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::internal(format!("hashing stopped: {e}")))
    }

    /// Forgets the per-account counts of accounts left alone (housekeeping).
    pub(crate) fn tidy(&self) {
        self.tries.retain_recent();
    }
}

pub(crate) fn is_base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// A user name as given, checked by the accounts' rules.
pub(crate) fn check_name(user_name: &str) -> Result<(), ApiError> {
    name::check(user_name).map_err(|e| {
        ApiError::unprocessable(e.code(), e.to_string())
            .with("name", user_name.chars().take(40).collect::<String>())
            .with("min", name::MIN)
            .with("max", name::MAX)
    })
}

/// A token's label: trimmed, 1 to [`LABEL_MAX`] characters, no control
/// characters (400 `bad_label`).
pub(crate) fn check_label(label: &str) -> Result<String, ApiError> {
    let label = label.trim();
    let chars = label.chars().count();
    if chars == 0 || chars > LABEL_MAX || label.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "bad_label",
            format!("a token's label has 1 to {LABEL_MAX} characters and no control characters"),
        )
        .with("max", LABEL_MAX));
    }
    Ok(label.to_string())
}

pub(crate) fn taken(user_name: &str) -> ApiError {
    ApiError::conflict(
        "name_taken",
        format!("the user name {user_name:?} is taken (or too like one that is)"),
    )
    .with("name", user_name)
}

fn wrong() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::UNAUTHORIZED,
        "wrong_credentials",
        "no account has this name and password",
    )
}

fn wrong_password() -> ApiError {
    ApiError::forbidden("wrong_password", "the password is not this account's")
}
