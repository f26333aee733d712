//! This instance's side of the shared jobs (store/jobs.rs): it claims a
//! job before working on it, renews its claims while it works, lets go of
//! work it stops undone, and takes over the jobs nobody holds — those of
//! an instance that died mid-search, or that wait on a busy one.
//!
//! With SQLite (one process) every claim is granted at once and nothing
//! is stored: the process does all its games' work itself.

use crate::app::App;
use punct_store::{JobKind, Lease, Storage};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The claims this instance holds, and the terms it claims on.
pub(crate) struct Jobs {
    lease: Lease,
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

    fn held(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A token no other claim has had (its instance's name and a count).
    fn token(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("{}-{n}", self.lease.owner)
    }

    /// Jobs waiting unclaimed this long go to whichever instance is free:
    /// the one that put them had its chance.
    fn unclaimed_for(&self) -> Duration {
        self.lease.length / 2
    }
}

/// The right to work on one game's job, until dropped. Dropped before the
/// work's result is stored, it lets go of the job for anyone to take.
pub(crate) struct Claim {
    /// `None`: nobody else could take the job (SQLite).
    shared: Option<(Arc<dyn Storage>, Arc<Jobs>, String)>,
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
                        eprintln!("punct serve: letting go of a job: {e}");
                    }
                }
            });
        }
    }
}

impl App {
    /// Claims game `id`'s job of `kind` (the game as this instance last
    /// read it is at `version`). `None`: another instance works on it.
    pub(crate) async fn claim_job(
        self: &Arc<Self>,
        id: &str,
        kind: JobKind,
        version: i64,
    ) -> Result<Option<Claim>, String> {
        let Some(queue) = self.store.jobs() else {
            return Ok(Some(Claim { shared: None }));
        };
        let token = self.jobs.token();
        // Held before it is asked for, so a renewal running meanwhile
        // cannot miss it.
        self.jobs.held().insert(token.clone());
        match queue
            .claim(id, kind, version, &token, &self.jobs.lease)
            .await
        {
            Ok(true) => Ok(Some(Claim {
                shared: Some((self.store.clone(), self.jobs.clone(), token)),
            })),
            // (A claim that failed on the way may have landed: its lease
            // runs out unrenewed.)
            other => {
                self.jobs.held().remove(&token);
                other.map(|_| None)
            }
        }
    }
}

/// Renews this instance's claims while their work goes on, three times a
/// lease.
pub(crate) async fn keep_claims(app: Arc<App>) {
    let Some(queue) = app.store.jobs() else {
        return;
    };
    let mut stopping = app.stopping.subscribe();
    let mut tick = tokio::time::interval(app.jobs.lease.length / 3);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        let claims: Vec<String> = app.jobs.held().iter().cloned().collect();
        match queue.renew(&claims, &app.jobs.lease).await {
            Ok(kept) if kept.len() < claims.len() => {
                // Another instance may be doing the same work now; the
                // game's version decides whose result lands.
                let kept: HashSet<&String> = kept.iter().collect();
                for lost in claims.iter().filter(|c| !kept.contains(c)) {
                    if app.jobs.held().contains(lost) {
                        eprintln!(
                            "punct serve: claim {lost} ran out before it was renewed; \
                             another instance may take its job"
                        );
                    }
                }
            }
            Ok(_) => {}
            Err(e) => eprintln!("punct serve: renewing this instance's job claims: {e}"),
        }
    }
}

/// Takes over the jobs nobody holds, as many as this instance has AI
/// workers free, a few times a lease.
pub(crate) async fn take_over(app: Arc<App>) {
    let Some(queue) = app.store.jobs() else {
        return;
    };
    let mut stopping = app.stopping.subscribe();
    let every = (app.jobs.lease.length / 5).max(Duration::from_millis(100));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut said = false;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.wait_for(|&s| s) => return,
        }
        let (running, waiting) = app.ai.counts();
        let free = app
            .config
            .ai_workers
            .max(1)
            .saturating_sub(running + waiting);
        if free == 0 {
            continue;
        }
        let token = app.jobs.token();
        let taken = match queue
            .take(
                free as u32,
                app.jobs.unclaimed_for(),
                &token,
                &app.jobs.lease,
            )
            .await
        {
            Ok(taken) => {
                said = false;
                taken
            }
            Err(e) => {
                if !said {
                    said = true;
                    eprintln!("punct serve: looking for jobs to take over: {e}");
                }
                continue;
            }
        };
        app.metrics.jobs_taken.inc_by(taken.len() as u64);
        for (id, kind) in taken {
            // Its work claims the job again, as this instance's, once it
            // starts (the claim just taken holds it until then).
            match kind {
                JobKind::Move => {
                    let app = app.clone();
                    tokio::spawn(async move {
                        match app.slot(&id).await {
                            // Loading a game starts its AI; one held here
                            // is started now.
                            Ok(slot) => app.kick_ai(&slot).await,
                            Err(e) => eprintln!(
                                "punct serve: game {id}: taking over the AI's move: {}",
                                e.message
                            ),
                        }
                    });
                }
                JobKind::Review => {
                    let _ = app.reviews.try_send(id);
                }
            }
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
