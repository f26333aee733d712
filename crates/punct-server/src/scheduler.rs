//! The AI's workers: every search (a move in a game against the AI, an
//! analysis, a post-game review) runs on a fixed number of workers that
//! are shared fairly between clients.
//!
//! Every AI search is a job of the client whose request asked for it (for
//! an AI move: the request that made it the AI's turn). Waiting jobs are
//! kept per client and started round-robin across clients whenever a
//! worker is free, and no client runs more than `ai_jobs_per_client` at
//! once, so one client's flood of games waits behind itself, not in front
//! of everyone else. The queues are bounded: a job that would wait past a
//! bound is refused (429 `ai_busy`) before anything changes.

use crate::error::ApiError;
use crate::limits::ClientKey;
use crate::Config;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::oneshot;

/// The AI's workers and the jobs waiting for them, per client.
pub(crate) struct Scheduler {
    workers: usize,
    per_client: usize,
    queue_per_client: usize,
    queue: usize,
    /// For `Retry-After`: about how long one job holds a worker.
    movetime_ms: u64,
    queues: Mutex<Queues>,
    /// How long jobs waited for a worker (metrics.rs).
    wait: prometheus_client::metrics::histogram::Histogram,
}

#[derive(Default)]
struct Queues {
    /// Jobs holding a worker, and jobs waiting for one, in all.
    running: usize,
    waiting: usize,
    /// Only clients with a job running or waiting have an entry.
    clients: HashMap<ClientKey, Jobs>,
    /// The clients with jobs waiting, in the order their turn comes.
    turns: VecDeque<ClientKey>,
    next_id: u64,
}

#[derive(Default)]
struct Jobs {
    running: usize,
    /// Oldest first; the sender tells the waiter it has a worker.
    waiting: VecDeque<(u64, oneshot::Sender<()>)>,
}

/// Why a job was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Refused {
    /// The client's own queue is full (else the whole queue is).
    pub(crate) yours: bool,
    /// Seconds until trying again may work.
    pub(crate) retry_after: u64,
}

/// What a job is for, in refusals' messages.
#[derive(Clone, Copy)]
pub(crate) enum Job {
    Move,
    Analysis,
}

impl Refused {
    pub(crate) fn into_error(self, job: Job) -> ApiError {
        let secs = self.retry_after;
        let message = match (self.yours, job) {
            (true, Job::Move) => format!(
                "the AI has too many games of yours waiting for its move; \
                 try again in {secs} s, once it has answered some"
            ),
            (true, Job::Analysis) => format!(
                "the AI has too many analyses and games of yours waiting; try again in {secs} s"
            ),
            (false, _) => format!(
                "the AI has too many games and analyses waiting on this server; \
                 try again in {secs} s"
            ),
        };
        ApiError::too_many("ai_busy", message, secs).with("seconds", secs)
    }
}

impl Scheduler {
    pub(crate) fn new(
        config: &Config,
        wait: prometheus_client::metrics::histogram::Histogram,
    ) -> Arc<Scheduler> {
        Arc::new(Scheduler {
            workers: config.ai_workers.max(1),
            per_client: config.ai_jobs_per_client.max(1),
            queue_per_client: config.ai_queue_per_client,
            queue: config.ai_queue,
            movetime_ms: config.ai_movetime_ms,
            queues: Mutex::new(Queues::default()),
            wait,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Queues> {
        // The counts stay consistent even if a holder panicked (no code
        // between two updates can panic), and this runs in drops.
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a job of `client`; it may start at once. Refused when it
    /// would have to wait and the client has `ai_queue_per_client` jobs
    /// waiting already, or `ai_queue` wait in all. The server's own jobs
    /// (resumed games) are bounded by the whole queue only.
    pub(crate) fn enqueue(self: &Arc<Self>, client: ClientKey) -> Result<Ticket, Refused> {
        let mut q = self.lock();
        let (mine_running, mine_waiting) = q
            .clients
            .get(&client)
            .map_or((0, 0), |j| (j.running, j.waiting.len()));
        let server = client == ClientKey::server();
        let starts_now =
            q.running < self.workers && mine_running < self.cap(client) && mine_waiting == 0;
        if !starts_now {
            let move_secs = self.movetime_ms.div_ceil(1000).max(1);
            if mine_waiting >= self.queue_per_client && !server {
                // A place frees when one of the client's jobs starts.
                return Err(Refused {
                    yours: true,
                    retry_after: move_secs,
                });
            }
            // The server's own jobs (at most the games resumed after a
            // restart) do not crowd clients out of the queue.
            let server_waiting = q
                .clients
                .get(&ClientKey::server())
                .map_or(0, |j| j.waiting.len());
            let counted = if server {
                q.waiting
            } else {
                q.waiting - server_waiting
            };
            if counted >= self.queue {
                let rounds = (q.waiting / self.workers) as u64 + 1;
                return Err(Refused {
                    yours: false,
                    retry_after: (move_secs * rounds).min(300),
                });
            }
        }
        let id = q.next_id;
        q.next_id += 1;
        let (tx, rx) = oneshot::channel();
        let jobs = q.clients.entry(client).or_default();
        jobs.waiting.push_back((id, tx));
        let first = jobs.waiting.len() == 1;
        q.waiting += 1;
        if first {
            q.turns.push_back(client);
        }
        self.dispatch(&mut q);
        Ok(Ticket {
            sched: self.clone(),
            client,
            id,
            granted: rx,
            taken: false,
            since: std::time::Instant::now(),
        })
    }

    /// Jobs running and jobs waiting, in all.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let q = self.lock();
        (q.running, q.waiting)
    }

    /// How many jobs `client` may run at once. The server's own jobs (games
    /// resumed after a restart: many people's games, not one client's) may
    /// use every worker; round-robin still gives other clients their turns.
    fn cap(&self, client: ClientKey) -> usize {
        if client == ClientKey::server() {
            self.workers
        } else {
            self.per_client
        }
    }

    /// Starts waiting jobs while workers are free: the first client in
    /// turn order that is under its cap gets one, then goes to the back.
    fn dispatch(&self, q: &mut Queues) {
        while q.running < self.workers {
            let clients = &q.clients;
            let Some(at) = q
                .turns
                .iter()
                .position(|c| clients.get(c).is_some_and(|j| j.running < self.cap(*c)))
            else {
                return;
            };
            let Some(client) = q.turns.remove(at) else {
                return;
            };
            let Some(jobs) = q.clients.get_mut(&client) else {
                continue;
            };
            let Some((_, tx)) = jobs.waiting.pop_front() else {
                continue;
            };
            let more = !jobs.waiting.is_empty();
            jobs.running += 1;
            q.waiting -= 1;
            q.running += 1;
            if more {
                q.turns.push_back(client);
            }
            if tx.send(()).is_err() {
                // Its ticket is gone (it withdraws under this lock, so this
                // does not happen): take the worker back.
                Self::uncount(q, client);
            }
        }
    }

    /// A job of `client` gave its worker back.
    fn release(&self, q: &mut Queues, client: ClientKey) {
        Self::uncount(q, client);
        self.dispatch(q);
    }

    fn uncount(q: &mut Queues, client: ClientKey) {
        q.running = q.running.saturating_sub(1);
        if let Some(jobs) = q.clients.get_mut(&client) {
            jobs.running = jobs.running.saturating_sub(1);
            if jobs.running == 0 && jobs.waiting.is_empty() {
                q.clients.remove(&client);
            }
        }
    }

    /// Takes a waiting job out of the queue; false if it is not waiting
    /// (it has been given a worker).
    fn withdraw(q: &mut Queues, client: ClientKey, id: u64) -> bool {
        let Some(jobs) = q.clients.get_mut(&client) else {
            return false;
        };
        let Some(at) = jobs.waiting.iter().position(|(i, _)| *i == id) else {
            return false;
        };
        jobs.waiting.remove(at);
        q.waiting -= 1;
        if jobs.waiting.is_empty() {
            q.turns.retain(|c| *c != client);
            if jobs.running == 0 {
                q.clients.remove(&client);
            }
        }
        true
    }
}

/// A place in the AI's queue. Dropped while waiting, it leaves the queue;
/// dropped after it was given a worker, it gives the worker back.
pub(crate) struct Ticket {
    sched: Arc<Scheduler>,
    client: ClientKey,
    id: u64,
    granted: oneshot::Receiver<()>,
    /// Turned into a [`Permit`], which gives the worker back itself.
    taken: bool,
    /// When it was queued.
    since: std::time::Instant,
}

impl Ticket {
    /// Waits for a worker (cancel by dropping the future).
    pub(crate) async fn wait(mut self) -> Option<Permit> {
        let granted = (&mut self.granted).await.is_ok();
        // No await between here and the end: a cancelled wait never
        // leaves a worker counted but unheld.
        self.taken = true;
        if granted {
            self.sched.wait.observe(self.since.elapsed().as_secs_f64());
        }
        granted.then(|| Permit {
            sched: self.sched.clone(),
            client: self.client,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.taken {
            return;
        }
        let mut q = self.sched.lock();
        if !Scheduler::withdraw(&mut q, self.client, self.id) {
            self.sched.release(&mut q, self.client);
        }
    }
}

/// A worker, held until dropped.
pub(crate) struct Permit {
    sched: Arc<Scheduler>,
    client: ClientKey,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut q = self.sched.lock();
        self.sched.release(&mut q, self.client);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn key(last: u8) -> ClientKey {
        ClientKey::new(IpAddr::from([10, 0, 0, last]))
    }

    fn scheduler(
        workers: usize,
        per_client: usize,
        per_queue: usize,
        all: usize,
    ) -> Arc<Scheduler> {
        Arc::new(Scheduler {
            workers,
            per_client,
            queue_per_client: per_queue,
            queue: all,
            movetime_ms: 1000,
            queues: Mutex::new(Queues::default()),
            wait: prometheus_client::metrics::histogram::Histogram::new([1.0]),
        })
    }

    /// Whether the ticket has been given a worker (asks once per ticket).
    fn started(t: &mut Ticket) -> bool {
        t.granted.try_recv().is_ok()
    }

    #[test]
    fn a_flooding_client_keeps_to_its_cap_and_others_start_at_once() {
        let s = scheduler(2, 1, 100, 1000);
        let mut flood: Vec<Ticket> = (0..10).map(|_| s.enqueue(key(1)).unwrap()).collect();
        assert!(started(&mut flood[0]));
        assert!(
            flood[1..].iter_mut().all(|t| !started(t)),
            "one worker at most"
        );
        let mut other = s.enqueue(key(2)).unwrap();
        assert!(
            started(&mut other),
            "another client's job takes the free worker"
        );
        // The flood's next job starts only when its running one ends.
        let mut next = flood.remove(1);
        assert!(!started(&mut next));
        drop(flood.remove(0));
        assert!(started(&mut next));
    }

    #[test]
    fn waiting_clients_take_turns() {
        let s = scheduler(1, 1, 100, 1000);
        let first = s.enqueue(key(9)).unwrap();
        let mut a: VecDeque<Ticket> = (0..3).map(|_| s.enqueue(key(1)).unwrap()).collect();
        let mut b: VecDeque<Ticket> = (0..3).map(|_| s.enqueue(key(2)).unwrap()).collect();
        drop(first);
        // A queued first, then they alternate: A B A B A B.
        for _ in 0..3 {
            let mut ta = a.pop_front().unwrap();
            assert!(started(&mut ta));
            assert!(!started(&mut b[0]));
            drop(ta);
            let mut tb = b.pop_front().unwrap();
            assert!(started(&mut tb));
            drop(tb);
        }
        let q = s.lock();
        assert_eq!((q.running, q.waiting, q.clients.len()), (0, 0, 0));
    }

    #[test]
    fn the_queues_are_bounded_per_client_and_in_all() {
        let s = scheduler(1, 1, 2, 3);
        let _running = s.enqueue(key(1)).unwrap();
        let _w1 = s.enqueue(key(1)).unwrap();
        let _w2 = s.enqueue(key(1)).unwrap();
        let refused = s.enqueue(key(1)).err().expect("a third waiting job");
        assert!(refused.yours);
        assert!(refused.retry_after >= 1);
        let _w3 = s.enqueue(key(2)).unwrap();
        let refused = s.enqueue(key(3)).err().expect("four waiting in all");
        assert!(!refused.yours);
        // The server's own jobs meet the total bound only.
        assert!(s.enqueue(ClientKey::server()).is_err());
    }

    #[test]
    fn the_servers_own_jobs_may_use_every_worker_but_take_turns() {
        let s = scheduler(2, 1, 1, 1000);
        let mut resumed: Vec<Ticket> = (0..5)
            .map(|_| s.enqueue(ClientKey::server()).unwrap())
            .collect();
        assert!(started(&mut resumed[0]) && started(&mut resumed[1]));
        let mut client = s.enqueue(key(1)).unwrap();
        assert!(!started(&mut client), "both workers are busy");
        // The client joins the round behind the server, and has the next
        // turn after that.
        drop(resumed.remove(0));
        assert!(started(&mut resumed[1]));
        assert!(!started(&mut client));
        drop(resumed.remove(0));
        assert!(started(&mut client));
        assert!(!started(&mut resumed[1]));
    }

    #[test]
    fn a_dropped_waiter_leaves_the_queue_and_an_unused_worker_comes_back() {
        let s = scheduler(1, 1, 100, 1000);
        let mut running = s.enqueue(key(1)).unwrap();
        assert!(started(&mut running));
        let gone = s.enqueue(key(2)).unwrap();
        let mut later = s.enqueue(key(3)).unwrap();
        drop(gone);
        assert_eq!(s.lock().waiting, 1);
        // Given a worker but dropped before using it: the worker goes on.
        drop(running);
        assert!(started(&mut later));
        drop(later);
        let q = s.lock();
        assert_eq!((q.running, q.waiting, q.clients.len()), (0, 0, 0));
    }
}
