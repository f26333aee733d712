//! This instance's side of the shared jobs (store/jobs.rs): it claims a
//! job before working on it, renews its claims while it works, lets go of
//! work it stops undone, and takes over the jobs nobody holds — those of
//! an instance that died mid-search, or that wait on a busy one.
//!
//! With SQLite (one process) every claim is granted at once and nothing
//! is stored: the process does all its games' work itself.

use punct_store::{JobKind, Lease, Storage};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The claims this instance holds, and the terms it claims on.
pub(crate) struct Jobs {
    pub(crate) lease: Lease,
    next: AtomicU64,
    held: Mutex<HashSet<String>>,
}

impl Jobs {
    /// `owner`: this instance's name in the job table.
    pub(crate) fn new(owner: String, lease: Duration) -> Jobs {
        Jobs {
            lease: Lease {
                owner,
                length: lease,
            },
            next: AtomicU64::new(0),
            held: Mutex::default(),
        }
    }

    pub(crate) fn held(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A token no other claim has had (its instance's name and a count).
    pub(crate) fn token(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("{}-{n}", self.lease.owner)
    }

    /// Jobs waiting unclaimed this long go to whichever instance is free:
    /// the one that put them had its chance.
    pub(crate) fn unclaimed_for(&self) -> Duration {
        self.lease.length / 2
    }
}

/// The right to work on one game's job, until dropped. Dropped before the
/// work's result is stored, it lets go of the job for anyone to take.
pub(crate) struct Claim {
    /// `None`: nobody else could take the job (SQLite).
    shared: Option<(Arc<dyn Storage>, Arc<Jobs>, String)>,
}

impl Claim {
    /// The work saved on this claim's job by whoever held it before (a
    /// job taken over goes on from it); `None` without any, or with
    /// nobody else to have done it (SQLite).
    pub(crate) async fn saved(&self) -> Option<String> {
        let (store, _, token) = self.shared.as_ref()?;
        match store.jobs()?.progress(token).await {
            Ok(saved) => saved,
            Err(e) => {
                tracing::warn!("reading a job's saved work: {e}");
                None
            }
        }
    }

    /// Saves `progress` on this claim's job for whoever takes it over.
    /// False once the claim no longer holds the job (another instance
    /// took it: this work may stop).
    pub(crate) async fn save(&self, progress: &str) -> bool {
        let Some((store, _, token)) = self.shared.as_ref() else {
            return true;
        };
        let Some(queue) = store.jobs() else {
            return true;
        };
        match queue.keep_progress(token, progress).await {
            Ok(held) => held,
            Err(e) => {
                // Not saved this time; the work goes on.
                tracing::warn!("saving a job's work: {e}");
                true
            }
        }
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let Some((store, jobs, token)) = self.shared.take() else {
            return;
        };
        jobs.held().remove(&token);
        // Done work has already replaced or removed the job with its
        // write, so this finds nothing then; undone work frees the job.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Some(queue) = store.jobs() {
                    if let Err(e) = queue.release(&token).await {
                        tracing::warn!("letting go of a job: {e}");
                    }
                }
            });
        }
    }
}

impl Jobs {
    /// Claims game `id`'s job of `kind` in `store` (the game as this
    /// instance last read it is at `version`). `None`: another instance
    /// works on it.
    pub(crate) async fn claim(
        self: &Arc<Self>,
        store: &Arc<dyn Storage>,
        id: &str,
        kind: JobKind,
        version: i64,
    ) -> Result<Option<Claim>, punct_store::StoreError> {
        let Some(queue) = store.jobs() else {
            return Ok(Some(Claim { shared: None }));
        };
        let token = self.token();
        // Held before it is asked for, so a renewal running meanwhile
        // cannot miss it.
        self.held().insert(token.clone());
        match queue.claim(id, kind, version, &token, &self.lease).await {
            Ok(true) => Ok(Some(Claim {
                shared: Some((store.clone(), self.clone(), token)),
            })),
            // (A claim that failed on the way may have landed: its lease
            // runs out unrenewed.)
            other => {
                self.held().remove(&token);
                other.map(|_| None)
            }
        }
    }
}

/// Renews this instance's claims while their work goes on, three times a
/// lease.
pub(crate) async fn keep_claims(
    store: Arc<dyn Storage>,
    jobs: Arc<Jobs>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    let Some(queue) = store.jobs() else {
        return;
    };
    let mut tick = tokio::time::interval(jobs.lease.length / 3);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        let claims: Vec<String> = jobs.held().iter().cloned().collect();
        match queue.renew(&claims, &jobs.lease).await {
            Ok(kept) if kept.len() < claims.len() => {
                // Another instance may be doing the same work now; the
                // game's version decides whose result lands.
                let kept: HashSet<&String> = kept.iter().collect();
                for lost in claims.iter().filter(|c| !kept.contains(c)) {
                    if jobs.held().contains(lost) {
                        tracing::warn!(
                            "claim {lost} ran out before it was renewed; \
                             another instance may take its job"
                        );
                    }
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("renewing this instance's job claims: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_never_reused() {
        let jobs = Jobs::new("host-1-abcd".into(), Duration::from_secs(10));
        let a = jobs.token();
        let b = jobs.token();
        assert_ne!(a, b);
        assert!(a.starts_with("host-1-abcd-"), "{a}");
        assert_eq!(jobs.unclaimed_for(), Duration::from_secs(5));
    }
}
