//! Passwords: the policy a new one must meet ([`check`]) and how one is
//! kept (argon2id: [`hash`], [`verify`], [`needs_rehash`]).

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{Error as PhcError, PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Version};

/// The fewest characters a password has.
pub const MIN_CHARS: usize = 10;
/// The most bytes (UTF-8) a password has: a bound on what a request makes
/// the server hash.
pub const MAX_BYTES: usize = 256;

/// Why a new password is refused. [`code()`](PasswordError::code) is a
/// stable word the API and the page use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordError {
    /// Fewer than [`MIN_CHARS`] characters (`chars` counted).
    Short { chars: usize },
    /// More than [`MAX_BYTES`] bytes (`bytes` counted).
    Long { bytes: usize },
    /// Among the most common passwords, or one character or a short
    /// group repeated, or a run such as `abcdefghij`.
    Common,
    /// Contains the user name.
    ContainsName,
}

impl PasswordError {
    /// The stable word for this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            PasswordError::Short { .. } => "password_short",
            PasswordError::Long { .. } => "password_long",
            PasswordError::Common => "password_common",
            PasswordError::ContainsName => "password_name",
        }
    }
}

impl fmt::Display for PasswordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordError::Short { chars } => write!(
                f,
                "a password needs at least {MIN_CHARS} characters; this one has {chars}"
            ),
            PasswordError::Long { bytes } => write!(
                f,
                "a password has at most {MAX_BYTES} bytes; this one has {bytes} \
                 (a character outside ASCII takes 2 to 4)"
            ),
            PasswordError::Common => write!(
                f,
                "this password is among the most common ones, a repetition or a run: \
                 anyone trying passwords tries it first"
            ),
            PasswordError::ContainsName => {
                write!(f, "a password cannot contain the user name")
            }
        }
    }
}

impl std::error::Error for PasswordError {}

/// Checks a new password, NIST SP 800-63B style: a length and a list of
/// known-bad passwords, no composition rules (those make passwords harder
/// to remember, not to guess). Refused, in this order: more than
/// [`MAX_BYTES`] bytes, fewer than [`MIN_CHARS`] characters, a common
/// password (the embedded list, case-insensitively), one character or a
/// group of up to 4 repeated (`aaaaaaaaaa`, `abcabcabca`), a run up or
/// down (`abcdefghij`, `9876543210`), and one containing the user name
/// (case-insensitively, when the name has 3 characters or more: shorter
/// ones are in too many good passwords).
pub fn check(password: &str, user_name: &str) -> Result<(), PasswordError> {
    if password.len() > MAX_BYTES {
        return Err(PasswordError::Long {
            bytes: password.len(),
        });
    }
    let chars = password.chars().count();
    if chars < MIN_CHARS {
        return Err(PasswordError::Short { chars });
    }
    let lower = password.to_lowercase();
    if common().contains(lower.as_str()) || repeated(&lower) || run(&lower) {
        return Err(PasswordError::Common);
    }
    if user_name.chars().count() >= 3 && lower.contains(&user_name.to_lowercase()) {
        return Err(PasswordError::ContainsName);
    }
    Ok(())
}

/// The embedded list, lowercase, one password a line (`#` starts a
/// comment line). Only passwords of [`MIN_CHARS`] or more are listed:
/// shorter ones are refused by length already.
const COMMON: &str = include_str!("common.txt");

fn common() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| {
        COMMON
            .lines()
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect()
    })
}

/// Whether the text is a group of 1 to 4 characters repeated (the last
/// repetition may be cut short).
fn repeated(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    (1..=4).any(|period| {
        chars.len() > period && (period..chars.len()).all(|i| chars[i] == chars[i - period])
    })
}

/// Whether each character is the one after the previous (in Unicode
/// order) all along, or the one before all along.
fn run(text: &str) -> bool {
    let codes: Vec<i64> = text.chars().map(|c| i64::from(u32::from(c))).collect();
    [1, -1]
        .iter()
        .any(|step| codes.windows(2).all(|w| w[1] - w[0] == *step))
}

/// argon2id's costs, as a PHC string writes them (`m=19456,t=2,p=1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Memory, in KiB (`m`).
    pub memory_kib: u32,
    /// Passes over the memory (`t`).
    pub passes: u32,
    /// Lanes (`p`).
    pub lanes: u32,
}

/// Today's costs: OWASP's first choice for argon2id (Password Storage Cheat
/// Sheet, and RFC 9106's memory-constrained case): 19 MiB, 2 passes, 1
/// lane. Memory is what makes each guess dear on a GPU; one lane because a
/// login should not take several of the server's cores. One hash takes
/// about 45 ms on one core of an AMD EPYC (release build; measure with
/// `cargo run --release -p punct-accounts --example hash_time`).
pub const PARAMS: Params = Params {
    memory_kib: 19 * 1024,
    passes: 2,
    lanes: 1,
};

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "m={},t={},p={}",
            self.memory_kib, self.passes, self.lanes
        )
    }
}

/// The most a stored hash may ask for before [`verify`] refuses it: a
/// corrupted or planted hash with `m` near 4 TiB would otherwise make the
/// server allocate until it dies. Far above [`PARAMS`], so raising those
/// leaves room.
pub const VERIFY_LIMIT: Params = Params {
    memory_kib: 256 * 1024,
    passes: 32,
    lanes: 16,
};

/// Length of the hash (the argon2 tag) in bytes; the crate's default.
const OUTPUT_LEN: usize = 32;

/// Why a password could not be hashed or a stored hash not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashError(pub String);

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HashError {}

fn hasher() -> Argon2<'static> {
    // Valid by construction (tested): the constants are within argon2's
    // bounds; the fallback is unreachable but keeps this free of panics.
    let params = argon2::Params::new(
        PARAMS.memory_kib,
        PARAMS.passes,
        PARAMS.lanes,
        Some(OUTPUT_LEN),
    )
    .unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password with argon2id at [`PARAMS`] and a fresh random salt
/// (16 bytes from the OS generator), as a PHC string
/// (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`).
///
/// Refuses a password over [`MAX_BYTES`] (which [`check`] refuses too), and
/// fails if the OS generator does.
pub fn hash(password: &str) -> Result<String, HashError> {
    if password.len() > MAX_BYTES {
        return Err(HashError(format!(
            "a password to hash has at most {MAX_BYTES} bytes; this one has {}",
            password.len()
        )));
    }
    hasher()
        .hash_password(password.as_bytes())
        .map(|phc| phc.to_string())
        .map_err(|e| HashError(format!("could not hash a password: {e}")))
}

/// Describes a stored hash for an error without showing it: the hash (or
/// a password stored by mistake) must not reach a log.
fn describe(phc: &str) -> String {
    let algorithm = phc
        .strip_prefix('$')
        .and_then(|rest| rest.split('$').next())
        .filter(|id| {
            !id.is_empty()
                && id.len() <= 32
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        });
    match algorithm {
        Some(id) => format!("the stored password hash (`${id}$…`, {} bytes)", phc.len()),
        None => format!(
            "the stored password hash ({} bytes, not starting with `$` and an algorithm)",
            phc.len()
        ),
    }
}

/// Reads a stored PHC string as an argon2 hash within [`VERIFY_LIMIT`].
fn parse(phc: &str) -> Result<(PasswordHash, argon2::Params), HashError> {
    let parsed = PasswordHash::new(phc).map_err(|e| {
        HashError(format!(
            "{} is not a valid PHC string: {}",
            describe(phc),
            PhcError::from(e)
        ))
    })?;
    if Algorithm::try_from(parsed.algorithm.as_str()).is_err() {
        return Err(HashError(format!(
            "{} is not an argon2 hash",
            describe(phc)
        )));
    }
    // Valid PHC without them, but nothing to compare with: every password
    // would be wrong, silently.
    if parsed.salt.is_none() || parsed.hash.is_none() {
        return Err(HashError(format!(
            "{} has no salt or no hash",
            describe(phc)
        )));
    }
    let params = argon2::Params::try_from(&parsed)
        .map_err(|e| HashError(format!("{} has invalid parameters: {e}", describe(phc))))?;
    let (m, t, p) = (params.m_cost(), params.t_cost(), params.p_cost());
    if m > VERIFY_LIMIT.memory_kib || t > VERIFY_LIMIT.passes || p > VERIFY_LIMIT.lanes {
        return Err(HashError(format!(
            "{} asks for m={m},t={t},p={p}, more than this server verifies ({VERIFY_LIMIT})",
            describe(phc)
        )));
    }
    Ok((parsed, params))
}

/// Whether the password is the one a stored PHC string was made from.
/// The comparison is constant-time (the crate's); the work is the stored
/// hash's own parameters, so an old hash still verifies.
///
/// `Ok(false)` for a wrong password, including one over [`MAX_BYTES`],
/// which is not hashed at all (no stored password can be that long: the
/// policy refuses it). `Err` only for a stored string that is not an
/// argon2 PHC hash, or one asking for more than [`VERIFY_LIMIT`]; the
/// error names which, without showing the string.
pub fn verify(password: &str, phc: &str) -> Result<bool, HashError> {
    let (parsed, _) = parse(phc)?;
    if password.len() > MAX_BYTES {
        return Ok(false);
    }
    match Argon2::default().verify_password(password.as_bytes(), &parsed) {
        Ok(()) => Ok(true),
        Err(PhcError::PasswordInvalid) => Ok(false),
        Err(e) => Err(HashError(format!(
            "could not verify against {}: {e}",
            describe(phc)
        ))),
    }
}

/// A hash at today's [`PARAMS`] of a password no one has, made once (with
/// a fixed salt: it protects nothing, so the OS generator is not needed).
fn nobody() -> &'static str {
    static NOBODY: OnceLock<String> = OnceLock::new();
    NOBODY.get_or_init(|| {
        hasher()
            .hash_password_with_salt(b"punct: no such user", b"punct-nobody-salt")
            .map(|phc| phc.to_string())
            .unwrap_or_default()
    })
}

/// Spends the same work as a [`verify`] for a user that does not exist, so
/// a login's time does not tell which names exist: it verifies against a
/// fixed hash at today's [`PARAMS`].
pub fn verify_nobody(password: &str) {
    // The answer is always false and thrown away; only the time matters.
    let _ = verify(password, nobody());
}

/// Whether a stored hash was made otherwise than [`hash`] makes one today
/// (another algorithm, version, costs or length), so a login that just
/// verified the password can store a new hash. A string that is not a
/// hash at all needs one too.
pub fn needs_rehash(phc: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return true;
    };
    let Ok(params) = argon2::Params::try_from(&parsed) else {
        return true;
    };
    parsed.algorithm.as_str() != Algorithm::Argon2id.as_str()
        || parsed.version != Some(Version::V0x13.into())
        || params.m_cost() != PARAMS.memory_kib
        || params.t_cost() != PARAMS.passes
        || params.p_cost() != PARAMS.lanes
        || params.output_len() != Some(OUTPUT_LEN)
        || !params.keyid().is_empty()
        || !params.data().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_params_are_valid_for_argon2() {
        // `hasher` falls back to argon2's defaults on invalid constants;
        // this is where such constants would show.
        assert!(argon2::Params::new(
            PARAMS.memory_kib,
            PARAMS.passes,
            PARAMS.lanes,
            Some(OUTPUT_LEN)
        )
        .is_ok());
    }

    #[test]
    fn nobody_is_a_hash_at_todays_params() {
        assert!(nobody().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(!needs_rehash(nobody()));
        assert_eq!(verify("punct: no such user", nobody()), Ok(true));
    }

    #[test]
    fn repetitions_and_runs() {
        for text in ["aaaaaaaaaa", "ababababab", "abcabcabca", "abcdabcdab"] {
            assert!(repeated(text), "{text}");
        }
        for text in ["abcdeabcde", "aaaaaaaaab", "correct horse"] {
            assert!(!repeated(text), "{text}");
        }
        for text in ["abcdefghij", "0123456789", "9876543210", "zyxwvutsrq"] {
            assert!(run(text), "{text}");
        }
        for text in ["abcdefghik", "0123456780", "acegikmoqs"] {
            assert!(!run(text), "{text}");
        }
    }
}
