//! The AI: its moves in games against it, and analyses, run on a fixed
//! number of workers that are shared fairly between clients.
//!
//! Every AI search is a job of the client whose request asked for it (for
//! an AI move: the request that made it the AI's turn). Waiting jobs are
//! kept per client and started round-robin across clients whenever a
//! worker is free, and no client runs more than `ai_jobs_per_client` at
//! once, so one client's flood of games waits behind itself, not in front
//! of everyone else. The queues are bounded: a job that would wait past a
//! bound is refused (429 `ai_busy`) before anything changes.

use crate::app::{App, Slot};
use crate::error::ApiError;
use crate::games::{LiveGame, Mode, Notice};
use crate::limits::ClientKey;
use crate::Config;
use punct_core::{Move, Position};
use punct_engine::{Ai, Engine, Level, Limits};
use punct_store::{JobKind, SaveError};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::oneshot;

/// Pauses before saving the AI's move again after a failed save. Few and
/// short: a try against a locked database already waits out the store's
/// busy timeout (5 s) before it fails.
const SAVE_RETRIES: [Duration; 2] = [Duration::from_millis(200), Duration::from_secs(1)];

/// When the AI's move could not be saved (or the queue was full), the
/// whole job is tried again after this, doubling for each further failure
/// up to [`JOB_RETRY_MAX`].
const JOB_RETRY: Duration = Duration::from_secs(10);
const JOB_RETRY_MAX: Duration = Duration::from_secs(120);

/// What the players read while the AI waits to try again.
const NOT_SAVED: Notice = Notice::AI_NOT_SAVED;
const NO_MOVE: Notice = Notice::AI_NO_MOVE;
const AI_QUEUE_FULL: Notice = Notice::AI_BUSY;

// ------------------------------------------------------------ scheduler

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

// ------------------------------------------------------------ AI moves

/// A place in the AI's queue for one game's move, taken before the change
/// that makes it the AI's turn is committed (so a refusal changes nothing).
pub(crate) struct AiJob {
    client: ClientKey,
    ticket: Ticket,
}

/// How one go at the AI's move ended.
enum Ended {
    /// Played and saved, or no longer needed (takeback, resignation).
    Done,
    /// The game now shows another position with the AI to move.
    Again,
    /// Failed (the save, the search): the players are told, and the job
    /// tries again later.
    Failed(Notice),
}

impl App {
    /// Takes a place in the AI's queue for `game` (for `client`) if the AI
    /// is to move in it and no job answers it yet; marks the game so its
    /// state shows `ai_thinking`. Pass the job to [`App::start_ai`] once
    /// the change is committed; dropping it instead gives the place back.
    pub(crate) fn reserve_ai(
        &self,
        client: ClientKey,
        game: &mut LiveGame,
    ) -> Result<Option<AiJob>, ApiError> {
        if !game.ai_to_move() || game.ai_queued {
            return Ok(None);
        }
        let ticket = self
            .ai
            .enqueue(client)
            .map_err(|r| r.into_error(Job::Move))?;
        game.ai_queued = true;
        Ok(Some(AiJob { client, ticket }))
    }

    /// Runs a reserved AI job (in the background).
    pub(crate) fn start_ai(self: &Arc<Self>, slot: &Arc<Slot>, job: Option<AiJob>) {
        if let Some(job) = job {
            tokio::spawn(run_job(
                self.clone(),
                slot.clone(),
                job.client,
                job.ticket,
                0,
            ));
        }
    }

    /// Starts the AI on its move if it is its turn and no job answers it
    /// yet, as the server's own job (a game loaded from the database). A
    /// full queue makes it try again later.
    pub(crate) async fn kick_ai(self: &Arc<Self>, slot: &Arc<Slot>) {
        let mut game = slot.game.lock().await;
        match self.reserve_ai(ClientKey::server(), &mut game) {
            Ok(job) => {
                drop(game);
                self.start_ai(slot, job);
            }
            Err(_) => {
                game.notice = Some(AI_QUEUE_FULL);
                slot.publish(&game);
                drop(game);
                tokio::spawn(retry_later(
                    self.clone(),
                    slot.clone(),
                    ClientKey::server(),
                    1,
                ));
            }
        }
    }
}

/// One game's AI job, from its place in the queue until its move is
/// saved or no longer needed. While it exists the game's `ai_queued` is
/// set (so no second job is queued); every way out clears it.
///
/// `failures`: how many tries in a row have failed before this one (for
/// the pause before the next). Boxed, because it can start itself again
/// (through [`retry_later`]).
fn run_job(
    app: Arc<App>,
    slot: Arc<Slot>,
    client: ClientKey,
    ticket: Ticket,
    failures: u32,
) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    Box::pin(run_job_inner(app, slot, client, ticket, failures))
}

async fn run_job_inner(
    app: Arc<App>,
    slot: Arc<Slot>,
    client: ClientKey,
    mut ticket: Ticket,
    mut failures: u32,
) {
    loop {
        match think_and_play(&app, &slot, ticket).await {
            Ended::Done => return,
            Ended::Again => {}
            Ended::Failed(notice) => {
                failures += 1;
                {
                    // Not "thinking" while nothing runs: say why instead.
                    let mut game = slot.game.lock().await;
                    game.ai_queued = false;
                    game.notice = Some(notice);
                    slot.publish(&game);
                }
                retry_later(app, slot, client, failures).await;
                return;
            }
        }
        // Back in line for the new position.
        let mut game = slot.game.lock().await;
        if !game.ai_to_move() {
            game.ai_queued = false;
            return;
        }
        match app.ai.enqueue(client) {
            Ok(t) => ticket = t,
            Err(_) => {
                game.ai_queued = false;
                game.notice = Some(AI_QUEUE_FULL);
                slot.publish(&game);
                drop(game);
                retry_later(app, slot, client, failures + 1).await;
                return;
            }
        }
    }
}

/// Waits, then queues the game's AI job again if it still needs one and
/// nothing else has queued it meanwhile (a later request, a reload).
async fn retry_later(app: Arc<App>, slot: Arc<Slot>, client: ClientKey, failures: u32) {
    let mut failures = failures.max(1);
    loop {
        let wait = JOB_RETRY
            .saturating_mul(1 << (failures - 1).min(8))
            .min(JOB_RETRY_MAX);
        tokio::time::sleep(wait).await;
        let mut game = slot.game.lock().await;
        if !game.ai_to_move() || game.ai_queued {
            return;
        }
        match app.ai.enqueue(client) {
            Ok(ticket) => {
                game.ai_queued = true;
                slot.publish(&game);
                drop(game);
                tokio::spawn(run_job(app, slot, client, ticket, failures));
                return;
            }
            Err(_) => failures += 1,
        }
    }
}

/// Waits for a worker, thinks, and saves the move.
async fn think_and_play(app: &Arc<App>, slot: &Arc<Slot>, ticket: Ticket) -> Ended {
    let Some(permit) = ticket.wait().await else {
        slot.game.lock().await.ai_queued = false;
        return Ended::Done;
    };
    // On a database that instances share, the move is worked on by the
    // one holding its job; held to the end, through the save.
    let _claim = {
        let (id, version) = {
            let game = slot.game.lock().await;
            (game.row.id.clone(), game.row.version)
        };
        match app
            .jobs
            .claim(&app.store, &id, JobKind::Move, version)
            .await
        {
            Ok(Some(claim)) => claim,
            Ok(None) => {
                // Another instance thinks; its move reaches this one as
                // a change.
                let mut game = slot.game.lock().await;
                game.ai_queued = false;
                game.ai_elsewhere = true;
                return Ended::Done;
            }
            Err(e) => {
                eprintln!("punct serve: game {id}: claiming the AI's move: {e}");
                return Ended::Failed(NOT_SAVED);
            }
        }
    };
    let (pos, best) = loop {
        // What to answer: the game as it is now (it may have changed
        // while the job waited).
        let (pos, level, version, seed, stop) = {
            let mut game = slot.game.lock().await;
            let Mode::Ai { level, .. } = game.mode else {
                game.ai_queued = false;
                return Ended::Done;
            };
            if !game.ai_to_move() {
                // Taken back or resigned while waiting: nothing to run.
                game.ai_queued = false;
                return Ended::Done;
            }
            // Set under the game's lock, so only a change committed after
            // this point stops the search (App::change stops it there too).
            let stop = Arc::new(AtomicBool::new(false));
            *slot.ai_stop.lock().expect("stop lock") = stop.clone();
            // The game's id in the seed: each game against a weaker level
            // goes its own way, yet a move thought again answers the same.
            let seed = game.row.id.bytes().fold(game.row.version as u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
            });
            (game.position().clone(), level, game.row.version, seed, stop)
        };
        // In a timed game, less when its clock asks for it (clock.rs).
        let movetime = slot
            .game
            .lock()
            .await
            .ai_movetime(app.config.ai_movetime_ms);
        let searching = pos.clone();
        let searched = tokio::task::spawn_blocking(move || {
            let level = Level::from_number(level).unwrap_or(Level::Strongest);
            let mut ai = Ai::new(level, seed);
            ai.search(&searching, &Limits::movetime(movetime), &stop, &mut |_| {})
        })
        .await;
        let Ok(result) = searched else {
            eprintln!("punct serve: the AI search failed");
            return Ended::Failed(NO_MOVE);
        };
        // A search stopped by a change is not worth playing: think again
        // about the game as it is now.
        if slot.game.lock().await.row.version == version {
            break (pos, result.best);
        }
    };
    // The search has stopped: saving needs no worker.
    drop(permit);
    save_move(app, slot, &pos, best).await
}

/// Plays and saves the AI's move `best` for `pos`, trying the save again
/// a few times when the database fails.
async fn save_move(app: &Arc<App>, slot: &Arc<Slot>, pos: &Position, best: Move) -> Ended {
    for pause in std::iter::once(Duration::ZERO).chain(SAVE_RETRIES) {
        tokio::time::sleep(pause).await;
        let mut game = slot.game.lock().await;
        if !game.ai_to_move() {
            game.ai_queued = false;
            return Ended::Done;
        }
        // A change that kept the position (a draw offer the AI declined)
        // leaves the move good.
        if game.position() != pos {
            return Ended::Again;
        }
        let before = game.clone();
        if let Err(e) = game.play_ai(best) {
            eprintln!("punct serve: game {}: {e}", game.row.id);
            *game = before;
            return Ended::Failed(NO_MOVE);
        }
        game.ai_queued = false;
        match app.commit(slot, &mut game, before).await {
            Ok(_) => return Ended::Done,
            Err(SaveError::Stale) => {
                // The stored game changed meanwhile (another instance
                // sharing the database): read it again; if it is still the
                // AI's turn, think again about it.
                if let Err(e) = app.reload(slot, &mut game).await {
                    eprintln!(
                        "punct serve: game {}: reading it again: {}",
                        game.row.id, e.message
                    );
                }
                if game.ai_to_move() {
                    return Ended::Again;
                }
                game.ai_queued = false;
                slot.publish(&game);
                return Ended::Done;
            }
            Err(e) => {
                eprintln!(
                    "punct serve: game {}: saving the AI's move: {e}",
                    game.row.id
                );
            }
        }
    }
    Ended::Failed(NOT_SAVED)
}

/// After a restart, games against the AI where it was the AI's turn go on.
pub(crate) async fn resume_ai_games(app: &Arc<App>) {
    let ongoing = punct_store::ListFilter {
        status: Some("ongoing".into()),
        limit: 1000,
        ..Default::default()
    };
    let Ok(rows) = app.store.list(&ongoing).await else {
        return;
    };
    for row in rows.into_iter().filter(|r| r.mode == "ai") {
        let _ = app.slot(&row.id).await;
    }
}

// ------------------------------------------------------------ jobs left by others

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
