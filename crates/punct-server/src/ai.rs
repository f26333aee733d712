//! The AI's moves in games against it: a game where the AI is to move
//! gets a job on the AI's workers (scheduler.rs) for the client whose
//! request made it the AI's turn, searches on a blocking thread stopped
//! when the game changes, and its move goes through the change path,
//! saves retried; in a timed game it plays to its clock. Also the jobs
//! other instances left: taken over when workers are free.

use crate::app::{App, Slot};
use crate::error::ApiError;
use crate::games::{LiveGame, Mode, Notice};
use crate::limits::ClientKey;
use crate::scheduler::{Job, Ticket};
use punct_core::{Move, Position};
use punct_engine::{Ai, Engine, Level, Limits};
use punct_store::{JobKind, SaveError};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

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
const NOT_SAVED: Notice = Notice::AiNotSaved;
const NO_MOVE: Notice = Notice::AiNoMove;
const AI_QUEUE_FULL: Notice = Notice::AiBusy;

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
                tracing::warn!("game {id}: claiming the AI's move: {e}");
                return Ended::Failed(NOT_SAVED);
            }
        }
    };
    let (pos, best) = loop {
        // What to answer: the game as it is now (it may have changed
        // while the job waited).
        let (pos, level, version, seed, stop) = {
            let mut game = slot.game.lock().await;
            let Mode::Ai { level, .. } = game.row.mode else {
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
            tracing::warn!("the AI search failed");
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
            tracing::warn!("game {}: {e}", game.row.id);
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
                    tracing::warn!("game {}: reading it again: {}", game.row.id, e.message);
                }
                if game.ai_to_move() {
                    return Ended::Again;
                }
                game.ai_queued = false;
                slot.publish(&game);
                return Ended::Done;
            }
            Err(e) => {
                tracing::warn!("game {}: saving the AI's move: {e}", game.row.id);
            }
        }
    }
    Ended::Failed(NOT_SAVED)
}
