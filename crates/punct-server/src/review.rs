//! The post-game analysis: when a game ends, every position of it is
//! searched briefly in the background (as the server's own AI jobs, so
//! players' moves and analyses take turns with it), and the game stores
//! the evaluation after each ply and the moves where it swung most.
//! Where instances share a database, the positions searched so far are
//! saved on the review's job every second, so an instance that takes the
//! job over (the first died) goes on from there.

use crate::analysis::search_on_worker;
use crate::app::App;
use crate::limits::ClientKey;
use punct_core::{Position, Side, Status};
use punct_engine::review::{losing_move, LosingMove};
use punct_engine::solver::SolveLimits;
use punct_engine::Score;
use punct_store::JobKind;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Games waiting for their review; more are dropped (and queued again
/// when next opened).
pub(crate) const QUEUE: usize = 1000;

/// The evaluation's range: a forced result counts as this much.
const MAX: i64 = 1000;
/// A move that loses this much (hundredths of a cell in the race) is a
/// mistake, and a blunder from `BLUNDER`.
const MISTAKE: i64 = 150;
const BLUNDER: i64 = 400;

/// The engine time one review may take in all (ms): a game of usual
/// length is searched at `--review-movetime` a position, a very long one
/// (an import of thousands of plies) at less, so no review holds the AI
/// for minutes.
const BUDGET_MS: u64 = 10_000;

/// The most positions one review searches: a longer game (an import of
/// thousands of plies) has its last ones reviewed, where it was decided.
/// A search has a floor of its own (a position with thousands of legal
/// moves costs tens of milliseconds whatever its time), so only a cap on
/// positions bounds a review's cost.
const MAX_POSITIONS: usize = 200;

/// The search time per position for a review of `positions` positions:
/// the configured time, or the budget's share, at least 1 ms.
fn review_movetime(configured: u64, positions: usize) -> u64 {
    let share = BUDGET_MS / (positions.max(1) as u64);
    share.clamp(1, configured.max(1))
}

/// The first ply reviewed in a game of `plies` plies.
fn first_reviewed(plies: usize) -> usize {
    (plies + 1).saturating_sub(MAX_POSITIONS)
}

/// Work is saved on the job this often.
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// A review's work so far, saved on its job: White's value and the best
/// move of the first positions, for the game whose moves have
/// `fingerprint`, searched `movetime` ms each.
#[derive(serde::Serialize, serde::Deserialize)]
struct Progress {
    fingerprint: u64,
    movetime: u64,
    values: Vec<i64>,
    best: Vec<Option<String>>,
}

/// The moves' fingerprint: saved work of another game (a takeback since,
/// then another end) is not taken for this one's.
fn fingerprint(moves: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    moves.hash(&mut h);
    h.finish()
}

impl Progress {
    /// The saved work `text`, if it is this game's at this time per
    /// position and no longer than its `positions`.
    fn resume(text: &str, fingerprint: u64, movetime: u64, positions: usize) -> Option<Progress> {
        let p: Progress = serde_json::from_str(text).ok()?;
        (p.fingerprint == fingerprint
            && p.movetime == movetime
            && p.values.len() == p.best.len()
            && p.values.len() <= positions)
            .then_some(p)
    }
}

/// Reviews the queued games one at a time until the server stops.
pub(crate) async fn review_worker(app: Arc<App>, mut queue: mpsc::Receiver<String>) {
    let mut stopping = app.stopping.subscribe();
    loop {
        let id = tokio::select! {
            id = queue.recv() => match id {
                Some(id) => id,
                None => return,
            },
            _ = stopping.changed() => return,
        };
        if let Err(e) = review(&app, &id).await {
            tracing::warn!("game {id}: the post-game analysis failed: {e}");
        }
    }
}

async fn review(app: &Arc<App>, id: &str) -> Result<(), String> {
    let slot = app.slot(id).await.map_err(|e| e.message)?;
    let (game, moves_text, version) = {
        let g = slot.game.lock().await;
        if !g.is_over() || g.row.review.is_some() {
            return Ok(());
        }
        (g.game.clone(), g.row.moves.clone(), g.row.version)
    };
    // One instance reviews a game; the others leave it.
    let Some(claim) = app
        .jobs
        .claim(&app.store, id, JobKind::Review, version)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(());
    };
    let moves: Vec<_> = game.moves().collect();
    let from = first_reviewed(moves.len());
    let positions = moves.len() + 1 - from;
    let movetime = review_movetime(app.config.review_movetime_ms, positions);
    let mut progress = Progress {
        fingerprint: fingerprint(&moves_text),
        movetime,
        values: Vec::new(),
        best: Vec::new(),
    };
    if let Some(saved) = claim
        .saved()
        .await
        .and_then(|text| Progress::resume(&text, progress.fingerprint, movetime, positions))
    {
        progress = saved;
    }
    let mut pos = game.start().clone();
    for (i, &m) in moves.iter().enumerate().take(from + progress.values.len()) {
        pos.play(m).map_err(|e| format!("ply {}: {e}", i + 1))?;
    }
    let mut saved_at = std::time::Instant::now();
    for i in from + progress.values.len()..=moves.len() {
        if *app.stopping.borrow() {
            return Ok(());
        }
        let (value, mv) = evaluate(app, &pos, movetime).await?;
        progress.values.push(value);
        progress.best.push(mv);
        app.metrics.reviewed.inc();
        if let Some(&m) = moves.get(i) {
            pos.play(m).map_err(|e| format!("ply {}: {e}", i + 1))?;
        }
        if saved_at.elapsed() >= SAVE_EVERY && i < moves.len() {
            saved_at = std::time::Instant::now();
            let text = serde_json::to_string(&progress).map_err(|e| e.to_string())?;
            if !claim.save(&text).await {
                // Another instance took the job over; it goes on from here.
                return Ok(());
            }
        }
    }
    let Progress { values, best, .. } = progress;
    let first = if from.is_multiple_of(2) {
        game.start().side_to_move()
    } else {
        game.start().side_to_move().opponent()
    };
    let mut mistakes = mistakes(&values, &moves[from..], from, first, &best);
    // Where a game won by a connection was lost: the loser's move after
    // which the winner wins by force, proven by the solver. The brief
    // search of each position may not see it coming.
    let lost = losing(app, &game).await;
    if let Some(l) = &lost {
        mark_losing(&mut mistakes, l);
    }
    let review = json!({
        "from": from,
        "movetime": movetime,
        "values": values,
        "best": best,
        "mistakes": mistakes,
        "lost": lost.as_ref().map(losing_json),
    })
    .to_string();
    app.change(id, |g| {
        // A takeback since has made this review of another game.
        if g.row.review.is_none() && g.row.moves == moves_text && g.is_over() {
            g.row.review = Some(review.clone());
            g.changed();
        }
        Ok(())
    })
    .await
    .map_err(|e| e.message)?;
    Ok(())
}

/// The most moves of the winner a proof of the loss may take, and what
/// each try of the solver may spend (a review looks back a few of the
/// loser's moves, each one solve).
const LOSS_DEPTH: u32 = 3;
const LOSS_NODES: u64 = 300_000;
const LOSS_TIME: std::time::Duration = std::time::Duration::from_secs(3);

/// The loser's move that lost (punct_engine::review), found on one of the
/// AI's workers; none for a game not won by a connection, or when the
/// workers are busy.
async fn losing(app: &Arc<App>, game: &punct_core::Game) -> Option<LosingMove> {
    if !matches!(game.position().status(), Status::Won(_)) {
        return None;
    }
    let ticket = app.ai.enqueue(ClientKey::server()).ok()?;
    let permit = ticket.wait().await?;
    let start = game.start().clone();
    let moves: Vec<punct_core::Move> = game.moves().collect();
    let found = tokio::task::spawn_blocking(move || {
        let limits = SolveLimits {
            nodes: LOSS_NODES,
            time: Some(LOSS_TIME),
        };
        losing_move(&start, &moves, LOSS_DEPTH, &limits)
    })
    .await
    .ok()
    .flatten();
    drop(permit);
    found
}

/// The review's `lost`: the move, who made it, and the winner's forced line.
fn losing_json(l: &LosingMove) -> Value {
    json!({
        "ply": l.ply,
        "side": l.side.name(),
        "move": l.mv.to_string(),
        "wins_in": l.wins_in,
        "by": if l.by_connection { "connection" } else { "central count" },
        "line": l.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

/// The losing move among the mistakes: marked `losing` (with the line),
/// added where the evaluation had not seen it.
fn mark_losing(mistakes: &mut Vec<Value>, l: &LosingMove) {
    let line: Vec<String> = l.line.iter().map(|m| m.to_string()).collect();
    match mistakes.iter_mut().find(|m| m["ply"] == json!(l.ply)) {
        Some(m) => {
            m["kind"] = json!("losing");
            m["line"] = json!(line);
            m["wins_in"] = json!(l.wins_in);
        }
        None => {
            mistakes.push(json!({
                "ply": l.ply,
                "side": l.side.name(),
                "move": l.mv.to_string(),
                "loss": MAX,
                "best": null,
                "kind": "losing",
                "line": line,
                "wins_in": l.wins_in,
            }));
            mistakes.sort_by_key(|m| m["ply"].as_u64());
        }
    }
}

/// White's value of `pos` (±`MAX` for a result) and the best move, if
/// the game goes on there.
async fn evaluate(
    app: &Arc<App>,
    pos: &Position,
    movetime: u64,
) -> Result<(i64, Option<String>), String> {
    match pos.status() {
        Status::Won(Side::White) => return Ok((MAX, None)),
        Status::Won(Side::Black) => return Ok((-MAX, None)),
        s if s.is_over() => return Ok((0, None)),
        _ => {}
    }
    let ticket = app
        .ai
        .enqueue(ClientKey::server())
        .map_err(|_| "the AI's queue is full".to_string())?;
    let permit = ticket.wait().await.ok_or("the AI's queue is gone")?;
    let stop = Arc::new(AtomicBool::new(false));
    let result = search_on_worker(permit, pos.clone(), movetime, stop)
        .await
        .ok_or("the search failed")?;
    let own = match result.score {
        Score::Eval(cp) => i64::from(cp).clamp(-MAX, MAX),
        Score::Win(_) => MAX,
        Score::Loss(_) => -MAX,
    };
    let white = if pos.side_to_move() == Side::White {
        own
    } else {
        -own
    };
    Ok((white, Some(result.best.to_string())))
}

/// The moves that lost most for their player: `values[i]` is White's
/// value after `from + i` plies, `moves[i]` the move from there, and
/// `first` made the first of them.
fn mistakes(
    values: &[i64],
    moves: &[punct_core::Move],
    from: usize,
    first: Side,
    best: &[Option<String>],
) -> Vec<Value> {
    let mut found = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { first } else { first.opponent() };
        let sign = if side == Side::White { 1 } else { -1 };
        let loss = sign * (values[i] - values[i + 1]);
        if loss >= MISTAKE && best[i].as_deref() != Some(mv.to_string().as_str()) {
            found.push(json!({
                "ply": from + i + 1,
                "side": side.name(),
                "move": mv.to_string(),
                "loss": loss,
                "best": best[i],
                "kind": if loss >= BLUNDER { "blunder" } else { "mistake" },
            }));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_game_is_reviewed_within_the_budget() {
        // A usual game: the configured time at every position.
        assert_eq!(review_movetime(100, 81), 100);
        assert_eq!(review_movetime(100, 100), 100);
        // Longer: the budget's share, so the whole stays within it.
        assert_eq!(review_movetime(100, 200), 50);
        let long = 7_213;
        let each = review_movetime(100, long);
        assert_eq!(each, 1);
        assert!(review_movetime(100, 1_000) * 1_000 <= BUDGET_MS);
        // Never nothing.
        assert_eq!(review_movetime(100, 50_000), 1);
        assert_eq!(review_movetime(0, 1), 1);
    }

    #[test]
    fn a_very_long_game_has_its_last_positions_reviewed() {
        assert_eq!(first_reviewed(0), 0);
        assert_eq!(first_reviewed(MAX_POSITIONS - 1), 0);
        assert_eq!(first_reviewed(MAX_POSITIONS), 1);
        assert_eq!(first_reviewed(7_212), 7_213 - MAX_POSITIONS);
    }

    #[test]
    fn saved_work_is_taken_only_for_the_same_game_and_time() {
        let moves = "T@C5/0 T@K10/0";
        let saved = serde_json::to_string(&Progress {
            fingerprint: fingerprint(moves),
            movetime: 100,
            values: vec![0, 20],
            best: vec![Some("T@D5/0".into()), Some("T@K9/0".into())],
        })
        .unwrap();
        let resumed = Progress::resume(&saved, fingerprint(moves), 100, 3).unwrap();
        assert_eq!(resumed.values, [0, 20]);
        // Another game (a takeback, then another end), another time per
        // position, more positions than the game has, or garbage: none.
        assert!(Progress::resume(&saved, fingerprint("T@C5/0 T@K9/0"), 100, 3).is_none());
        assert!(Progress::resume(&saved, fingerprint(moves), 50, 3).is_none());
        assert!(Progress::resume(&saved, fingerprint(moves), 100, 1).is_none());
        assert!(Progress::resume("{", fingerprint(moves), 100, 3).is_none());
    }

    #[test]
    fn a_move_that_throws_the_lead_away_is_a_mistake_of_its_player() {
        let moves: Vec<punct_core::Move> = ["T@C5/0", "T@K10/0", "T@D5/0"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let best = vec![Some("x".to_string()); 3];
        // White +100, then Black's move drops Black from −100 to −600
        // (White +600): a blunder of Black's; White's next move loses 200.
        let values = [100, 100, 600, 400];
        let found = mistakes(&values, &moves, 0, Side::White, &best);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0]["ply"], 2);
        assert_eq!(found[0]["side"], "black");
        assert_eq!(found[0]["kind"], "blunder");
        assert_eq!(found[1]["ply"], 3);
        assert_eq!(found[1]["side"], "white");
        assert_eq!(found[1]["loss"], 200);
        assert_eq!(found[1]["kind"], "mistake");
    }

    #[test]
    fn the_best_move_is_never_a_mistake() {
        let moves: Vec<punct_core::Move> = vec!["T@C5/0".parse().unwrap()];
        let values = [0, -500];
        let best = vec![Some("T@C5/0".to_string())];
        assert!(mistakes(&values, &moves, 0, Side::White, &best).is_empty());
        // Counted from where the review starts.
        let later = mistakes(&[500, 0], &moves, 40, Side::White, &[None]);
        assert_eq!(later[0]["ply"], 41);
    }
}
