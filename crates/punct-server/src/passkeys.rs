//! Passkeys on the server: which relying party a request's page is
//! ([`relying_party`]), and the ceremonies over the store — signing up
//! with a passkey instead of a password, adding one, signing in with one
//! the authenticator offers (no name typed), removing one. The WebAuthn
//! checks are `punct_accounts::passkey`'s (webauthn-rs); sessions and the
//! per-account tries are `accounts.rs`'s. No HTTP here, and no `App`.
//!
//! A ceremony's state waits in the database between its start and its
//! finish (not in this instance's memory), so the finish may reach any
//! instance behind a balancer; the finish takes it exactly once, so a
//! replayed finish is refused everywhere.

use crate::accounts::{check_name, taken, Accounts, SignedIn};
use crate::error::ApiError;
use crate::games::now_ms;
use axum::http::StatusCode;
use punct_accounts::passkey::{self, PasskeyError, RelyingParty};
use punct_accounts::{name, token};
use punct_store::{AccountError, CeremonyRow, PasskeyRemoval, PasskeyRow, UserRow};
use serde_json::Value;

/// A ceremony is kept this long: the browser's time (the options'
/// timeout) and a minute for the round trips.
const CEREMONY_LIFE_MS: i64 = passkey::TIMEOUT_MS as i64 + 60_000;

/// The ceremonies' kinds, as stored: a finish takes only its own kind.
const SIGN_UP: &str = "signup";
const ADD: &str = "add";
const SIGN_IN: &str = "signin";

/// The label of a passkey given none.
const DEFAULT_LABEL: &str = "Passkey";

/// The relying party of the page a request comes from: the public URL's
/// origin when the server has one (`--public-url`), else the request's
/// `Host` on plain http — which must be a name (`localhost` on a
/// loopback bind), never an IP address: a passkey belongs to a site
/// name (400 `passkeys_need_host_name`, saying what to open instead).
pub(crate) fn relying_party(
    public_url: Option<&str>,
    host: Option<&str>,
) -> Result<RelyingParty, ApiError> {
    let origin = match (public_url, host) {
        (Some(url), _) => url.to_string(),
        (None, Some(host)) => format!("http://{}", host.trim()),
        (None, None) => {
            return Err(ApiError::bad_request(
                "missing_host",
                "the request has no Host header",
            ))
        }
    };
    RelyingParty::new(&origin).map_err(|e| site_error(&e))
}

/// What a relying party that cannot be says: 400 with its code.
pub(crate) fn site_error(e: &PasskeyError) -> ApiError {
    let error = ApiError::bad_request(e.code(), e.to_string());
    match e {
        PasskeyError::NeedsHostName { host } => error.with("host", host.as_str()),
        PasskeyError::NeedsHttps { origin } | PasskeyError::BadOrigin { origin } => {
            error.with("origin", origin.as_str())
        }
        _ => error,
    }
}

/// A refused ceremony's error: `refused` is the status of a credential
/// that does not verify (401 signing in, 400 registering).
fn ceremony_error(e: PasskeyError, refused: StatusCode) -> ApiError {
    match e {
        PasskeyError::Refused { .. } => ApiError::new(refused, e.code(), e.to_string()),
        PasskeyError::BadState { .. } => ApiError::internal(e.to_string()),
        _ => site_error(&e),
    }
}

fn expired() -> ApiError {
    ApiError::bad_request(
        "passkey_expired",
        "this passkey request has expired or was used already: start again",
    )
}

fn unknown_passkey() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "passkey_unknown",
        "this passkey is not one of an account here (removed, or its account deleted)",
    )
}

fn passkey_taken() -> ApiError {
    ApiError::conflict(
        "passkey_taken",
        "this passkey is registered already (to this or another account)",
    )
}

/// A passkey's label as given (trimmed, NFC, at most 40 characters, no
/// invisible or control characters: a display name's rules), or the
/// default.
fn label_of(label: Option<&str>) -> Result<String, ApiError> {
    Ok(crate::games::parse_name(label)?.unwrap_or_else(|| DEFAULT_LABEL.to_string()))
}

/// What the API shows of a passkey.
pub(crate) fn shown(p: &PasskeyRow) -> Value {
    serde_json::json!({
        "id": p.id,
        "name": p.name,
        "created": p.created,
        "used": p.used,
    })
}

/// A ceremony begun: its id (what the page sends back with the finish)
/// and the options for the browser.
pub(crate) struct Begun {
    pub(crate) ceremony: String,
    pub(crate) options: Value,
}

impl Accounts {
    /// Keeps a ceremony's state until its finish.
    async fn begin(
        &self,
        kind: &str,
        user: Option<&str>,
        started: passkey::Started,
    ) -> Result<Begun, ApiError> {
        let id = token::nonce();
        self.store
            .accounts()
            .put_ceremony(CeremonyRow {
                id: id.clone(),
                kind: kind.to_string(),
                user: user.map(str::to_string),
                state: started.state,
                expires: now_ms() + CEREMONY_LIFE_MS,
            })
            .await?;
        Ok(Begun {
            ceremony: id,
            options: started.options,
        })
    }

    /// Takes the ceremony `id` of `kind` (once: a replay finds nothing).
    async fn take(&self, id: &str, kind: &str) -> Result<CeremonyRow, ApiError> {
        // A nonce's form; anything else is no ceremony, without a read.
        if id.len() != 22 || !id.bytes().all(crate::accounts::is_base64url) {
            return Err(expired());
        }
        self.store
            .accounts()
            .take_ceremony(id, kind, now_ms())
            .await?
            .ok_or_else(expired)
    }

    /// Begins signing up with a passkey as `user_name`: the name is
    /// checked (and refused if plainly taken) now, and taken at the
    /// finish. The new account's id is drawn now: the passkey keeps it
    /// as its user handle.
    pub(crate) async fn passkey_sign_up_start(
        &self,
        rp: &RelyingParty,
        user_name: &str,
    ) -> Result<Begun, ApiError> {
        check_name(user_name)?;
        if self
            .store
            .accounts()
            .user_by_key(&name::key(user_name))
            .await?
            .is_some()
        {
            return Err(taken(user_name));
        }
        let started = rp
            .start_registration(&token::user_id(), user_name, &[])
            .map_err(|e| ceremony_error(e, StatusCode::BAD_REQUEST))?;
        self.begin(SIGN_UP, None, started).await
    }

    /// Finishes signing up with a passkey: a new account with no
    /// password and this passkey (made together, or neither), and its
    /// first session's secret. 409 `name_taken` if the name was taken
    /// since the start.
    pub(crate) async fn passkey_sign_up_finish(
        &self,
        rp: &RelyingParty,
        ceremony: &str,
        credential: &Value,
        label: Option<&str>,
        agent: &str,
    ) -> Result<(UserRow, String), ApiError> {
        let label = label_of(label)?;
        let kept = self.take(ceremony, SIGN_UP).await?;
        let key = rp
            .finish_registration(&kept.state, credential)
            .map_err(|e| ceremony_error(e, StatusCode::BAD_REQUEST))?;
        let now = now_ms();
        let user = UserRow {
            id: key.user.clone(),
            name: key.name.clone(),
            name_key: name::key(&key.name),
            created: now,
            seen: now,
            password: None,
            bot: false,
            deleted: false,
        };
        let row = PasskeyRow {
            id: key.id,
            user: key.user,
            name: label,
            data: key.data,
            created: now,
            used: None,
        };
        match self
            .store
            .accounts()
            .create_user_with_passkey(user.clone(), row)
            .await
        {
            Ok(()) => {}
            Err(AccountError::Taken) => {
                let name_taken = self
                    .store
                    .accounts()
                    .user_by_key(&user.name_key)
                    .await?
                    .is_some();
                return Err(if name_taken {
                    taken(&user.name)
                } else {
                    passkey_taken()
                });
            }
            Err(AccountError::Failed(e)) => return Err(e.into()),
        }
        let secret = self.open_session(&user.id, agent).await?;
        Ok((user, secret))
    }

    /// Begins adding a passkey to the signed-in account (its passkeys
    /// excluded: one authenticator registers once).
    pub(crate) async fn passkey_add_start(
        &self,
        rp: &RelyingParty,
        who: &SignedIn,
    ) -> Result<Begun, ApiError> {
        let existing: Vec<String> = self
            .store
            .accounts()
            .passkeys(&who.user.id)
            .await?
            .into_iter()
            .map(|p| p.data)
            .collect();
        let started = rp
            .start_registration(&who.user.id, &who.user.name, &existing)
            .map_err(|e| ceremony_error(e, StatusCode::BAD_REQUEST))?;
        self.begin(ADD, Some(&who.user.id), started).await
    }

    /// Finishes adding a passkey: the stored passkey. Only the account
    /// that began the ceremony finishes it.
    pub(crate) async fn passkey_add_finish(
        &self,
        rp: &RelyingParty,
        who: &SignedIn,
        ceremony: &str,
        credential: &Value,
        label: Option<&str>,
    ) -> Result<PasskeyRow, ApiError> {
        let label = label_of(label)?;
        let kept = self.take(ceremony, ADD).await?;
        if kept.user.as_deref() != Some(who.user.id.as_str()) {
            return Err(expired());
        }
        let key = rp
            .finish_registration(&kept.state, credential)
            .map_err(|e| ceremony_error(e, StatusCode::BAD_REQUEST))?;
        if key.user != who.user.id {
            return Err(expired());
        }
        let row = PasskeyRow {
            id: key.id,
            user: key.user,
            name: label,
            data: key.data,
            created: now_ms(),
            used: None,
        };
        match self.store.accounts().add_passkey(row.clone()).await {
            Ok(()) => Ok(row),
            Err(AccountError::Taken) => Err(passkey_taken()),
            Err(AccountError::Failed(e)) => Err(e.into()),
        }
    }

    /// Begins a sign-in with a passkey the authenticator offers (the
    /// account is the one whose passkey answers). Also the fresh proof a
    /// passkey-only account's deletion asks for.
    pub(crate) async fn passkey_sign_in_start(&self, rp: &RelyingParty) -> Result<Begun, ApiError> {
        let started = rp
            .start_sign_in()
            .map_err(|e| ceremony_error(e, StatusCode::BAD_REQUEST))?;
        self.begin(SIGN_IN, None, started).await
    }

    /// Checks a sign-in ceremony's answer: the account whose passkey
    /// signed it (its counter and last use stored). The passkey is found
    /// by its credential id, and the user handle it returns must name
    /// the same account. Tries against one account are limited as
    /// passwords' are.
    pub(crate) async fn passkey_verify(
        &self,
        rp: &RelyingParty,
        ceremony: &str,
        credential: &Value,
    ) -> Result<UserRow, ApiError> {
        let kept = self.take(ceremony, SIGN_IN).await?;
        let (id, handle) = passkey::identify(credential)
            .map_err(|e| ceremony_error(e, StatusCode::UNAUTHORIZED))?;
        let Some(stored) = self.store.accounts().passkey(&id).await? else {
            return Err(unknown_passkey());
        };
        if handle.as_deref().is_some_and(|h| h != stored.user) {
            return Err(unknown_passkey());
        }
        let user = self
            .store
            .accounts()
            .user(&stored.user)
            .await?
            .filter(|u| !u.deleted)
            .ok_or_else(unknown_passkey)?;
        self.try_account(&user.name_key)?;
        let newer = rp
            .finish_sign_in(&kept.state, credential, &stored.data)
            .map_err(|e| ceremony_error(e, StatusCode::UNAUTHORIZED))?;
        let data = newer.as_deref().unwrap_or(&stored.data);
        self.store
            .accounts()
            .update_passkey(&stored.id, data, now_ms())
            .await?;
        Ok(user)
    }

    /// Finishes a sign-in with a passkey: the user and a new session's
    /// secret.
    pub(crate) async fn passkey_sign_in_finish(
        &self,
        rp: &RelyingParty,
        ceremony: &str,
        credential: &Value,
        agent: &str,
    ) -> Result<(UserRow, String), ApiError> {
        let user = self.passkey_verify(rp, ceremony, credential).await?;
        let secret = self.open_session(&user.id, agent).await?;
        Ok((user, secret))
    }

    /// Removes one of the signed-in user's passkeys, unless it is their
    /// last way to sign in (409 `last_sign_in`).
    pub(crate) async fn remove_passkey(&self, who: &SignedIn, id: &str) -> Result<(), ApiError> {
        match self
            .store
            .accounts()
            .remove_passkey(&who.user.id, id)
            .await?
        {
            PasskeyRemoval::Removed => Ok(()),
            PasskeyRemoval::NotFound => Err(ApiError::not_found(
                "no_passkey",
                "this account has no passkey of this id",
            )
            .with("id", id.chars().take(100).collect::<String>())),
            PasskeyRemoval::Last => Err(ApiError::conflict(
                "last_sign_in",
                "this passkey is the account's last way to sign in: add another passkey or \
                 set a password first",
            )),
        }
    }
}
