//! Random secrets and ids: session cookies, bots' API tokens, one-time
//! nonces, user ids; and the digest a database keeps of a secret.
//!
//! Every random byte comes from the OS generator (`getrandom`). If it
//! fails these functions panic: there is no safe fallback (a guessable
//! secret is worse than a failed request), and on the systems the server
//! runs on it does not fail once the system has started.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The prefix of every API token: tells a token from other secrets in a
/// config file or a leaked log, and lets secret scanners find it.
pub const API_PREFIX: &str = "punct_";

/// Characters of a 256-bit secret in base64url without padding.
const SECRET_CHARS: usize = 43;

fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the OS random generator failed");
    bytes
}

/// A new secret for a session cookie: 256 bits from the OS generator,
/// base64url without padding (43 characters).
pub fn session() -> String {
    URL_SAFE_NO_PAD.encode(random::<32>())
}

/// A new API token for a bot account: [`API_PREFIX`] followed by 256 random
/// bits in base64url (49 characters in all).
pub fn api() -> String {
    format!("{API_PREFIX}{}", URL_SAFE_NO_PAD.encode(random::<32>()))
}

/// Whether a text has the form of an API token: the prefix, then exactly
/// the 43 characters 32 bytes make in base64url (its last character
/// carrying no stray bits). A cheap check before any database read.
pub fn looks_like_api(text: &str) -> bool {
    let Some(secret) = text.strip_prefix(API_PREFIX) else {
        return false;
    };
    // The decoder refuses any other alphabet, padding and nonzero
    // trailing bits, so only what `api` could have written passes.
    secret.len() == SECRET_CHARS
        && URL_SAFE_NO_PAD
            .decode(secret)
            .is_ok_and(|bytes| bytes.len() == 32)
}

/// What the database keeps of a secret (a session's or an API token):
/// SHA-256 in lowercase hex (64 characters). A stolen database then yields
/// no usable cookie or token, and a fast hash is enough because the
/// secrets are 256 random bits, not guessable passwords.
pub fn digest(secret: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let sum = Sha256::digest(secret.as_bytes());
    let mut out = String::with_capacity(64);
    for byte in sum.iter() {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    out
}

/// The characters of a user id.
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Characters of a user id: 62^12, about 2^71, so ids drawn at random do
/// not meet (the store's unique index refuses the rare one that does).
pub const USER_ID_CHARS: usize = 12;

/// A new user id: 12 random base62 characters. Ids are public (profiles'
/// URLs), not secrets; random rather than counted so they tell nothing of
/// how many users there are or who came first.
pub fn user_id() -> String {
    let mut id = String::with_capacity(USER_ID_CHARS);
    while id.len() < USER_ID_CHARS {
        for byte in random::<16>() {
            // Bytes of 248 and above are dropped: 248 = 4 × 62, so each
            // character is equally likely.
            if byte < 248 && id.len() < USER_ID_CHARS {
                id.push(char::from(BASE62[usize::from(byte % 62)]));
            }
        }
    }
    id
}

/// A short random value for one-time challenges (WebAuthn and the like):
/// 128 bits in base64url without padding (22 characters).
pub fn nonce() -> String {
    URL_SAFE_NO_PAD.encode(random::<16>())
}
