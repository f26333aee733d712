//! The AI's work that a game waits for — its move, the post-game review —
//! as jobs in a database that several instances share, so that any of them
//! may do it and one that dies mid-search has its job taken over.
//!
//! A job is not a request but a fact about a stored game: it exists while
//! the game waits for it ([`job_of`]), and every write of the game puts or
//! removes it in the same statement. An instance works on a job only while
//! it holds a *claim* on it: a lease it renews while it works. A claim
//! that runs out (its instance died or lost the database) lets another
//! instance take the job; the game's version still decides which move
//! lands, so two instances thinking at once never both play.

use super::{BoxFuture, GameRow, Mode, StoreError};
use punct_core::Position;
use std::time::Duration;

/// What a game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// The AI's move, in a game against it where it is the AI's turn.
    Move,
    /// The post-game review of an ended game that has none.
    Review,
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Review => "review",
        }
    }

    pub fn parse(text: &str) -> Option<JobKind> {
        match text {
            "move" => Some(JobKind::Move),
            "review" => Some(JobKind::Review),
            _ => None,
        }
    }
}

/// The job stored game `row` waits for, read off its columns alone (so a
/// copied or migrated row gets it too). Agrees with the live game's
/// `ai_to_move` and the review's condition (tested in `games.rs`).
pub fn job_of(row: &GameRow) -> Option<JobKind> {
    if row.finished.is_some() {
        return (row.review.is_none() && row.plies > 0).then_some(JobKind::Review);
    }
    let Mode::Ai { ai_side: ai, .. } = row.mode else {
        return None;
    };
    // Every move, a pass too, hands the turn over.
    let start = Position::from_position_string(&row.start).ok()?;
    let to_move = if row.plies % 2 == 0 {
        start.side_to_move()
    } else {
        start.side_to_move().opponent()
    };
    (to_move == ai).then_some(JobKind::Move)
}

/// A claim's terms: who holds it and for how long.
#[derive(Clone, Debug)]
pub struct Lease {
    /// The instance (for operators reading the table).
    pub owner: String,
    /// How long a claim lasts unless renewed.
    pub length: Duration,
}

/// The jobs of a database shared by several instances.
pub trait JobQueue: Send + Sync {
    /// Claims game `id`'s job of `kind` as `claim` if nobody else holds it
    /// (or their claim ran out). A job missing from the table is made
    /// when the game is still at `version` (games stored before the table
    /// existed). False: another instance holds it, or the game has moved
    /// on.
    fn claim<'a>(
        &'a self,
        id: &'a str,
        kind: JobKind,
        version: i64,
        claim: &'a str,
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Takes up to `limit` jobs that nobody holds (left unclaimed for
    /// `unclaimed_for`, or whose claim ran out), the AI's moves before
    /// reviews (a player waits for a move), oldest first, each
    /// claimed as `claim`: jobs whose instance died, or that wait on a
    /// busy one. Rows other instances are taking are skipped, not waited
    /// for.
    fn take<'a>(
        &'a self,
        limit: u32,
        unclaimed_for: Duration,
        claim: &'a str,
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<Vec<(String, JobKind)>, StoreError>>;
    /// Extends `claims`; returns those still held (a missing one ran out
    /// and was taken, or its job is done).
    fn renew<'a>(
        &'a self,
        claims: &'a [String],
        lease: &'a Lease,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;
    /// The work saved on the job `claim` holds, by whoever held it before
    /// ([`JobQueue::keep_progress`]); `None` if none (or no such claim).
    fn progress<'a>(&'a self, claim: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// Saves `progress` on the job `claim` holds, for whoever takes it
    /// over if this instance stops; false if `claim` holds it no more.
    /// Kept while the job's kind stays.
    fn keep_progress<'a>(
        &'a self,
        claim: &'a str,
        progress: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Lets go of `claim` (its work stopped undone): the job waits for
    /// anyone again.
    fn release<'a>(&'a self, claim: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
}
