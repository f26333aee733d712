//! Why the store could not answer: one error type for every backend, by
//! kind (so callers decide on the kind, never on the words) with a
//! message that names what failed.

use std::fmt;

/// What kind of failure a [`StoreError`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The database could not be reached (a wrong address, a server that
    /// is down, a password refused).
    Unreachable,
    /// The database is not one this punct can use: not a PÜNCT games
    /// database, a newer punct's schema, not migrated yet, the same
    /// database given twice.
    Unusable,
    /// A query or write failed (the database broke off, a disk is full).
    Failed,
    /// A stored game cannot be read as one (a column holds a value no
    /// punct writes).
    Corrupt,
    /// A copy met a game the target holds differently: nothing of it was
    /// overwritten. (Also: a new seek's id is taken.)
    Conflict,
    /// The database did not answer in time (stalled, overloaded): the
    /// call was given up. A write given up may still land.
    Timeout,
    /// The database refused the write for now (its file locked by
    /// another process, its disk full): nothing was written, and the same
    /// write may succeed later.
    Unavailable,
}

/// A failure of the store, by [kind](ErrorKind), with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    kind: ErrorKind,
    message: String,
}

impl StoreError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            message: message.into(),
        }
    }

    /// A query or write that failed.
    pub fn failed(message: impl Into<String>) -> StoreError {
        StoreError::new(ErrorKind::Failed, message)
    }

    pub fn unusable(message: impl Into<String>) -> StoreError {
        StoreError::new(ErrorKind::Unusable, message)
    }

    pub fn unreachable(message: impl Into<String>) -> StoreError {
        StoreError::new(ErrorKind::Unreachable, message)
    }

    /// Game `id` holds something no punct writes.
    pub fn corrupt(id: &str, what: impl fmt::Display) -> StoreError {
        StoreError::new(
            ErrorKind::Corrupt,
            format!("database: the stored game {id} cannot be read: {what}"),
        )
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The same failure, its message led by `context` (`--from: …`).
    pub fn context(self, context: impl fmt::Display) -> StoreError {
        StoreError {
            kind: self.kind,
            message: format!("{context}: {}", self.message),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// An SQLite failure in a query: the database's own words.
impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::failed(format!("database: {e}"))
    }
}
