//! User names: which are allowed ([`check`]) and when two count as the same
//! name ([`key`]), so no one can pass for someone else by case or by a
//! look-alike letter.

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

/// The fewest characters a user name has.
pub const MIN: usize = 2;
/// The most characters a user name has.
pub const MAX: usize = 20;

/// Why a user name is refused. [`code()`](NameError::code) is a stable word
/// the API and the page use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Fewer than [`MIN`] or more than [`MAX`] characters (`chars` counted).
    Length { chars: usize },
    /// A character outside `[A-Za-z0-9_-]` (the first one found).
    Character { found: char },
    /// Starts with `_` or `-`.
    Start,
    /// Ends with `_` or `-` (`found`).
    End { found: char },
    /// Two of `_` and `-` in a row (`pair`, as typed).
    Doubled { pair: String },
    /// The name, or one that looks the same, is kept for the site.
    Reserved,
}

impl NameError {
    /// The stable word for this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            NameError::Length { .. } => "name_length",
            NameError::Character { .. } => "name_character",
            NameError::Start => "name_start",
            NameError::End { .. } => "name_end",
            NameError::Doubled { .. } => "name_doubled",
            NameError::Reserved => "name_reserved",
        }
    }
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Length { chars } => write!(
                f,
                "a user name has {MIN} to {MAX} characters; this one has {chars}"
            ),
            // The code point too: the character may be invisible (a
            // space, a control) or look like an allowed one.
            NameError::Character { found } => write!(
                f,
                "`{}` (U+{:04X}) cannot be in a user name: use letters a–z, digits, _ and -",
                found.escape_debug(),
                u32::from(*found)
            ),
            NameError::Start => write!(f, "a user name starts with a letter or a digit"),
            NameError::End { found } => write!(
                f,
                "a user name cannot end with `{found}`: end it with a letter or a digit"
            ),
            NameError::Doubled { pair } => write!(
                f,
                "`{pair}` cannot be in a user name: put a letter or a digit between _ and -"
            ),
            NameError::Reserved => write!(
                f,
                "this user name is reserved (it is, or looks like, a name kept for the site)"
            ),
        }
    }
}

impl std::error::Error for NameError {}

fn is_separator(c: char) -> bool {
    c == '_' || c == '-'
}

/// Checks a user name as typed: [`MIN`]–[`MAX`] characters from
/// `[A-Za-z0-9_-]`, starting with a letter or digit, not ending with `_` or
/// `-`, no two of `_ -` in a row, not [reserved]. Trimming is the caller's
/// job: a name with spaces is refused.
///
/// The rules are checked in the order listed, and the first one broken is
/// the error.
pub fn check(name: &str) -> Result<(), NameError> {
    let chars = name.chars().count();
    if !(MIN..=MAX).contains(&chars) {
        return Err(NameError::Length { chars });
    }
    if let Some(found) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || is_separator(c)))
    {
        return Err(NameError::Character { found });
    }
    // Only ASCII from here on: bytes are characters.
    let bytes = name.as_bytes();
    if is_separator(char::from(bytes[0])) {
        return Err(NameError::Start);
    }
    let last = char::from(bytes[bytes.len() - 1]);
    if is_separator(last) {
        return Err(NameError::End { found: last });
    }
    if let Some(pair) = bytes
        .windows(2)
        .find(|w| is_separator(char::from(w[0])) && is_separator(char::from(w[1])))
    {
        return Err(NameError::Doubled {
            pair: String::from_utf8_lossy(pair).into_owned(),
        });
    }
    if reserved(name) {
        return Err(NameError::Reserved);
    }
    Ok(())
}

/// The key to look a typed name up by, or `None` when no account can have
/// that name (empty, over 64 bytes, or with a control character): such
/// text is no one, and never reaches a store (PostgreSQL refuses a NUL in
/// text outright).
pub fn lookup_key(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > 64 || name.chars().any(char::is_control) {
        return None;
    }
    Some(key(name)).filter(|k| !k.contains('\0'))
}

/// The key that makes names unique: two names that differ only by case or
/// by confusable characters get the same key (a store's unique index is on
/// it). Any text has a key, allowed as a name or not.
///
/// The key is lowercase, then Unicode's confusable skeleton (UTS #39), then
/// lowercase again, then two classes the skeleton leaves apart merged:
/// `i` into `l` and `w` into `vv`. Both passes of lowercase are needed
/// because case and confusables do not commute: `I` is `i` by case but `l`
/// by skeleton, and `M` has no skeleton of its own while `m` is `rn`. So
/// `Il`, `il`, `1l`, `ll` share a key, as do `O0o` and `ooo`, `m` and `rn`,
/// `Bob` and `B0b`; `bob` and `rob` do not.
///
/// The steps repeat until nothing changes (once, for ASCII), so the key of
/// a key is itself.
pub fn key(name: &str) -> String {
    let mut current = name.to_string();
    // A bound on the rounds, so no unforeseen cycle of Unicode's tables
    // can loop: every ASCII text is stable after one.
    for _ in 0..4 {
        let next = key_round(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

fn key_round(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    for c in unicode_security::skeleton(&lower).flat_map(char::to_lowercase) {
        match c {
            // `i` and `l` meet through `I` (case one way, skeleton the
            // other); `1` and `|` already are `l` in the skeleton.
            'i' => out.push('l'),
            // Not in Unicode's table (its sources are single characters),
            // but `vv` passes for `w` in most fonts as `rn` does for `m`.
            'w' => out.push_str("vv"),
            c => out.push(c),
        }
    }
    out
}

/// Names no one may take, as typed here; compared by [`key`], so each
/// also stands for every spelling that looks like it.
///
/// Kept short: names someone could use to pass for the site or its staff
/// (admin … official), for a system message or an empty field in a page
/// or a log (anonymous … www), for the site itself (punct in its
/// spellings), and for the AI's seats (level1 … level4, bot), whose
/// names the server shows as players'.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "moderator",
    "mod",
    "root",
    "system",
    "support",
    "help",
    "staff",
    "official",
    "anonymous",
    "anon",
    "guest",
    "deleted",
    "null",
    "undefined",
    "api",
    "www",
    "punct",
    "puenct",
    "pünct",
    "bot",
    "level1",
    "level2",
    "level3",
    "level4",
];

fn reserved_keys() -> &'static HashSet<String> {
    static KEYS: OnceLock<HashSet<String>> = OnceLock::new();
    KEYS.get_or_init(|| RESERVED.iter().map(|name| key(name)).collect())
}

/// Whether a name is one no one may take: a reserved name or one with
/// the same [`key`] (so `Adm1n` and `ADMIN` are, as `admin` is).
pub fn reserved(name: &str) -> bool {
    reserved_keys().contains(&key(name))
}
