//! Passkeys (WebAuthn) as plain functions over `webauthn-rs`: the relying
//! party a page's origin makes ([`RelyingParty`]), registering a passkey
//! ([`RelyingParty::start_registration`], [`RelyingParty::finish_registration`])
//! and signing in with one the authenticator offers, no user name typed
//! ([`RelyingParty::start_sign_in`], [`identify`],
//! [`RelyingParty::finish_sign_in`]).
//!
//! No I/O: a start gives the options for the browser and a state (JSON)
//! the caller keeps until the finish; a finish gives what to store. The
//! checks themselves (challenge, origin, relying party, signature, user
//! verification, counter) are webauthn-rs's.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::net::IpAddr;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, RequestChallengeResponse, Url, Uuid, Webauthn, WebauthnBuilder,
};

#[cfg(any(test, feature = "soft-passkey"))]
pub mod soft;

/// How long the browser is given for a ceremony (the options' timeout);
/// a ceremony kept longer than this (and a little) is of no use.
pub const TIMEOUT_MS: u32 = 5 * 60 * 1000;

/// The name shown for the site in the browser's passkey dialogs.
const SITE_NAME: &str = "PÜNCT";

/// Why a passkey ceremony cannot go on. [`code()`](PasskeyError::code) is
/// a stable word the API and the page use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasskeyError {
    /// The page's host is an IP address: a passkey belongs to a site's
    /// name, and browsers refuse one for an address.
    NeedsHostName { host: String },
    /// The page is not a secure context (plain http other than
    /// localhost): browsers offer passkeys only to https pages.
    NeedsHttps { origin: String },
    /// The origin is not an http(s) address with a host.
    BadOrigin { origin: String },
    /// The browser's answer is not a WebAuthn credential (what is wrong).
    Malformed { why: String },
    /// The answer does not verify: another challenge, origin or site, a
    /// bad signature, no user verification … (webauthn-rs's reason).
    Refused { why: String },
    /// The kept state of the ceremony does not read back (a bug, or a
    /// database edited by hand).
    BadState { why: String },
}

impl PasskeyError {
    /// The stable word for this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            PasskeyError::NeedsHostName { .. } => "passkeys_need_host_name",
            PasskeyError::NeedsHttps { .. } => "passkeys_need_https",
            PasskeyError::BadOrigin { .. } => "bad_origin",
            PasskeyError::Malformed { .. } => "bad_passkey",
            PasskeyError::Refused { .. } => "passkey_refused",
            PasskeyError::BadState { .. } => "passkey_state",
        }
    }
}

impl fmt::Display for PasskeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasskeyError::NeedsHostName { host } => write!(
                f,
                "passkeys need the site's name, not an IP address ({host}): a passkey belongs \
                 to a site name. Open the site as http://localhost:PORT, or give the server \
                 --public-url"
            ),
            PasskeyError::NeedsHttps { origin } => write!(
                f,
                "passkeys need a secure page: {origin} is plain http. Serve the site over \
                 https (--public-url https://…), or open it as http://localhost:PORT"
            ),
            PasskeyError::BadOrigin { origin } => {
                write!(
                    f,
                    "`{origin}` is not an http:// or https:// origin with a host"
                )
            }
            PasskeyError::Malformed { why } => {
                write!(
                    f,
                    "the passkey's answer is not a WebAuthn credential: {why}"
                )
            }
            PasskeyError::Refused { why } => write!(f, "the passkey's answer is refused: {why}"),
            PasskeyError::BadState { why } => {
                write!(f, "the passkey ceremony's kept state does not read: {why}")
            }
        }
    }
}

impl std::error::Error for PasskeyError {}

fn refused(e: impl fmt::Display) -> PasskeyError {
    PasskeyError::Refused { why: e.to_string() }
}

fn bad_state(e: impl fmt::Display) -> PasskeyError {
    PasskeyError::BadState { why: e.to_string() }
}

/// The site as passkeys know it: its host name (the relying party's id,
/// what every passkey is bound to) and the origin its pages have (what
/// the browser signs and the finish checks).
#[derive(Clone, Debug)]
pub struct RelyingParty {
    id: String,
    origin: String,
    webauthn: Webauthn,
}

impl RelyingParty {
    /// The relying party of pages at `origin`: `https://name[:port]`, or
    /// `http://localhost[:port]` (browsers' one plain-http secure
    /// context). Refused: an IP address as the host
    /// ([`PasskeyError::NeedsHostName`], whatever the scheme), plain http
    /// on another name ([`PasskeyError::NeedsHttps`]), anything else
    /// ([`PasskeyError::BadOrigin`]). A path after the origin is ignored.
    pub fn new(origin: &str) -> Result<RelyingParty, PasskeyError> {
        let bad = || PasskeyError::BadOrigin {
            origin: origin.chars().take(200).collect(),
        };
        let text = origin.trim();
        let (scheme, rest) = text.split_once("://").ok_or_else(bad)?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(bad());
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        if authority.is_empty() || authority.contains('@') {
            return Err(bad());
        }
        let (host, port) = split_port(authority).ok_or_else(bad)?;
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if bare.parse::<IpAddr>().is_ok() {
            return Err(PasskeyError::NeedsHostName {
                host: host.to_string(),
            });
        }
        let host = host.to_ascii_lowercase().trim_end_matches('.').to_string();
        let valid_name = !host.is_empty()
            && host.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    && !label.starts_with('-')
                    && !label.ends_with('-')
            });
        if !valid_name {
            return Err(bad());
        }
        // The last label all digits is an IPv4 address spelt otherwise
        // (`127.1`, `0x7f.1`): browsers read it as one.
        if host
            .rsplit('.')
            .next()
            .is_some_and(|last| last.bytes().all(|b| b.is_ascii_digit()) || last.starts_with("0x"))
        {
            return Err(PasskeyError::NeedsHostName { host });
        }
        if scheme == "http" && host != "localhost" {
            return Err(PasskeyError::NeedsHttps {
                origin: format!("http://{authority}"),
            });
        }
        let origin = match port {
            Some(p) => format!("{scheme}://{host}:{p}"),
            None => format!("{scheme}://{host}"),
        };
        let url = Url::parse(&origin).map_err(|_| bad())?;
        let webauthn = WebauthnBuilder::new(&host, &url)
            .and_then(|b| {
                b.rp_name(SITE_NAME)
                    .timeout(std::time::Duration::from_millis(u64::from(TIMEOUT_MS)))
                    .build()
            })
            .map_err(|_| bad())?;
        Ok(RelyingParty {
            id: host,
            origin,
            webauthn,
        })
    }

    /// The relying party's id: the site's host name.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The origin its pages have (`https://name[:port]`).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Begins registering a passkey for user `user_id` named `user_name`:
    /// the options for `navigator.credentials.create` and the state to
    /// keep until [`RelyingParty::finish_registration`]. The user's
    /// passkeys (`existing`, their stored JSON) are excluded, so one
    /// authenticator does not register twice. The passkey must be
    /// discoverable (a resident key) and verify its user: it signs in
    /// without a name typed and without a password.
    pub fn start_registration(
        &self,
        user_id: &str,
        user_name: &str,
        existing: &[String],
    ) -> Result<Started, PasskeyError> {
        let handle = user_handle(user_id)?;
        let exclude: Vec<_> = existing
            .iter()
            .map(|data| read_passkey(data).map(|p| p.cred_id().clone()))
            .collect::<Result<_, _>>()?;
        let (options, state) = self
            .webauthn
            .start_passkey_registration(handle, user_name, user_name, Some(exclude))
            .map_err(refused)?;
        let mut options = to_value(&options)?;
        // webauthn-rs asks for no resident key; discoverable sign-in
        // needs one (the finish does not depend on it).
        options["publicKey"]["authenticatorSelection"] = serde_json::json!({
            "residentKey": "required",
            "requireResidentKey": true,
            "userVerification": "required",
        });
        let kept = Registration {
            user: user_id.to_string(),
            name: user_name.to_string(),
            state,
        };
        Ok(Started {
            options,
            state: serde_json::to_string(&kept).map_err(bad_state)?,
        })
    }

    /// Finishes a registration with the browser's answer (the
    /// credential `navigator.credentials.create` gave, as JSON) and the
    /// state its start kept: the new passkey to store, for the user the
    /// start named.
    pub fn finish_registration(
        &self,
        state: &str,
        credential: &Value,
    ) -> Result<Registered, PasskeyError> {
        let kept: Registration = serde_json::from_str(state).map_err(bad_state)?;
        let answer: RegisterPublicKeyCredential = serde_json::from_value(credential.clone())
            .map_err(|e| PasskeyError::Malformed { why: e.to_string() })?;
        let passkey = self
            .webauthn
            .finish_passkey_registration(&answer, &kept.state)
            .map_err(refused)?;
        Ok(Registered {
            user: kept.user,
            name: kept.name,
            id: URL_SAFE_NO_PAD.encode(passkey.cred_id()),
            data: serde_json::to_string(&passkey).map_err(bad_state)?,
        })
    }

    /// Begins a sign-in where the authenticator offers the account (no
    /// name typed, no credentials listed): the options for
    /// `navigator.credentials.get` and the state to keep until
    /// [`RelyingParty::finish_sign_in`]. The options name no mediation:
    /// the page adds `mediation: "conditional"` itself when it offers
    /// passkeys in the name field's autofill.
    pub fn start_sign_in(&self) -> Result<Started, PasskeyError> {
        let (mut options, state): (RequestChallengeResponse, DiscoverableAuthentication) = self
            .webauthn
            .start_discoverable_authentication()
            .map_err(refused)?;
        options.mediation = None;
        Ok(Started {
            options: to_value(&options)?,
            state: serde_json::to_string(&state).map_err(bad_state)?,
        })
    }

    /// Finishes a sign-in: the browser's answer checked against the kept
    /// state and the stored passkey it names ([`identify`] says which).
    /// Returns the passkey's JSON to store when it changed (its signature
    /// counter moved on), `None` when it did not.
    pub fn finish_sign_in(
        &self,
        state: &str,
        credential: &Value,
        stored: &str,
    ) -> Result<Option<String>, PasskeyError> {
        let state: DiscoverableAuthentication = serde_json::from_str(state).map_err(bad_state)?;
        let answer = read_answer(credential)?;
        let mut passkey = read_passkey(stored)?;
        let result = self
            .webauthn
            .finish_discoverable_authentication_v2(&answer, state, &passkey)
            .map_err(refused)?;
        // A counter that went backwards is refused by webauthn-rs (a
        // cloned authenticator); one that moved on is kept.
        match passkey.update_credential(&result) {
            Some(true) => Ok(Some(serde_json::to_string(&passkey).map_err(bad_state)?)),
            _ => Ok(None),
        }
    }
}

/// The `host[:port]` of an authority, the port (if any) all digits.
fn split_port(authority: &str) -> Option<(&str, Option<&str>)> {
    if authority.starts_with('[') {
        let end = authority.find(']')?;
        let (host, rest) = authority.split_at(end + 1);
        return match rest.strip_prefix(':') {
            Some(port) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
                Some((host, Some(port)))
            }
            None if rest.is_empty() => Some((host, None)),
            _ => None,
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
            // A second colon: an IPv6 address without brackets.
            (!host.contains(':')).then_some((host, Some(port)))
        }
        Some(_) => authority.parse::<IpAddr>().ok().map(|_| (authority, None)),
        None => Some((authority, None)),
    }
}

/// What a start gives: the options to send to the browser (as
/// `navigator.credentials.create` / `.get` take them once their base64url
/// fields are decoded) and the state to keep until the finish.
#[derive(Clone, Debug)]
pub struct Started {
    pub options: Value,
    pub state: String,
}

/// A registered passkey: for `user` (the id the start named, with its
/// `name`), the credential's id (base64url) and its JSON to store.
#[derive(Clone, Debug)]
pub struct Registered {
    pub user: String,
    pub name: String,
    pub id: String,
    pub data: String,
}

/// A registration's kept state: whose it is, and webauthn-rs's.
#[derive(Serialize, Deserialize)]
struct Registration {
    user: String,
    name: String,
    state: PasskeyRegistration,
}

/// Which passkey a sign-in's answer names: its credential id (base64url,
/// as stored) and the user id its user handle holds. Read before the
/// finish, to find the stored passkey; the finish then checks it all.
pub fn identify(credential: &Value) -> Result<(String, Option<String>), PasskeyError> {
    let answer = read_answer(credential)?;
    let id = URL_SAFE_NO_PAD.encode(answer.get_credential_id());
    let user = answer
        .get_user_unique_id()
        .map(user_of_handle)
        .transpose()?;
    Ok((id, user))
}

/// The credential id of a stored passkey (its JSON), base64url.
pub fn credential_id(stored: &str) -> Result<String, PasskeyError> {
    Ok(URL_SAFE_NO_PAD.encode(read_passkey(stored)?.cred_id()))
}

fn read_answer(credential: &Value) -> Result<PublicKeyCredential, PasskeyError> {
    serde_json::from_value(credential.clone())
        .map_err(|e| PasskeyError::Malformed { why: e.to_string() })
}

fn read_passkey(stored: &str) -> Result<Passkey, PasskeyError> {
    serde_json::from_str(stored).map_err(bad_state)
}

fn to_value<T: Serialize>(value: &T) -> Result<Value, PasskeyError> {
    serde_json::to_value(value).map_err(bad_state)
}

/// The WebAuthn user handle of account `user_id`: webauthn-rs takes a
/// UUID (16 bytes), so it is the id's bytes (an id has 12 ASCII
/// characters) padded with zero bytes. Reversible: the handle a passkey
/// returns names its account ([`user_of_handle`]).
pub fn user_handle(user_id: &str) -> Result<Uuid, PasskeyError> {
    let bytes = user_id.as_bytes();
    if bytes.is_empty() || bytes.len() > 16 || bytes.contains(&0) {
        return Err(bad_state(format!(
            "user id {user_id:?} does not fit a user handle (1 to 16 bytes, no NUL)"
        )));
    }
    let mut handle = [0u8; 16];
    handle[..bytes.len()].copy_from_slice(bytes);
    Ok(Uuid::from_bytes(handle))
}

/// The account id a user handle holds ([`user_handle`] backwards).
pub fn user_of_handle(handle: &[u8]) -> Result<String, PasskeyError> {
    let end = handle.iter().position(|&b| b == 0).unwrap_or(handle.len());
    let malformed = || PasskeyError::Malformed {
        why: "its user handle is not one this site gives".into(),
    };
    if handle.len() != 16 || end == 0 || handle[end..].iter().any(|&b| b != 0) {
        return Err(malformed());
    }
    String::from_utf8(handle[..end].to_vec()).map_err(|_| malformed())
}

#[cfg(test)]
mod tests;
