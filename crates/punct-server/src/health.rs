//! Readiness: whether this instance can save a game now, found by a real
//! write (the store's heartbeat), at most one a second however often the
//! balancers ask.

use punct_store::Storage;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// How long the readiness check waits for the database's write.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(2);

/// A heartbeat's answer is reused this long: checks asked meanwhile cost
/// no write (a flood of them is not a flood of writes).
const FRESH: Duration = Duration::from_secs(1);

/// The last heartbeat and what it found.
#[derive(Default)]
pub(crate) struct Readiness {
    last: Mutex<Option<(Instant, Result<f64, String>)>>,
}

impl Readiness {
    /// Ready: the milliseconds the heartbeat took; not ready: why. Checks
    /// asked at once wait for one heartbeat and share its answer.
    pub(crate) async fn check(&self, store: &dyn Storage, instance: &str) -> Result<f64, String> {
        let mut last = self.last.lock().await;
        if let Some((at, answer)) = last.as_ref() {
            if at.elapsed() < FRESH {
                return answer.clone();
            }
        }
        let t0 = Instant::now();
        let answer = match tokio::time::timeout(TIMEOUT, store.heartbeat(instance)).await {
            Ok(Ok(())) => Ok((t0.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0),
            Ok(Err(e)) => Err(format!("a write failed: {e}")),
            Err(_) => Err(format!("no write within {} s", TIMEOUT.as_secs())),
        };
        *last = Some((Instant::now(), answer.clone()));
        answer
    }
}
