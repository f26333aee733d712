//! Analysis on request: the engine's three best moves with their scores
//! (multi-PV) and the connection solver's verdicts — does the side to move
//! force a win, does the opponent threaten one — for a position or for a
//! game at a ply (the handlers are `api/analysis.rs`).
//! The game-bound one keeps fair play: it is refused while a game between
//! people is being played, and a hint on the live position of a game
//! against the AI marks that game assisted.

mod forced;

use crate::app::App;
use crate::error::ApiError;
use crate::games::Mode;
use crate::limits::ClientKey;
use crate::scheduler::{Job, Permit};
use punct_core::Position;
use punct_engine::{Ai, Engine, Info, Level, Limits, Score, SearchResult};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an analysis waits for a free AI worker.
const ANALYSE_QUEUE_WAIT: Duration = Duration::from_secs(10);

/// The engine's lines an analysis shows (`MultiPV`).
const LINES: usize = 3;

/// The shares of an analysis' time the solver may take: for the side to
/// move, then for the opponent's threat (percent). A quiet position is
/// settled in a few nodes, so the search nearly always gets the rest; it
/// gets at least [`SEARCH_SHARE`] whatever the solver took.
const OWN_SHARE: u32 = 45;
const THREAT_SHARE: u32 = 15;
const SEARCH_SHARE: u32 = 40;

pub fn score_json(s: Score) -> Value {
    match s {
        Score::Eval(cp) => json!({"cp": cp}),
        Score::Win(n) => json!({"win": n}),
        Score::Loss(n) => json!({"loss": n}),
    }
}

/// Sets a search's stop flag when dropped: an analysis whose client hung
/// up (its request's future dropped) stops searching at once.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The position of game `id` after `ply` plies (default: now) for
/// analysis, within the fair-play rules: refused while a game between
/// people is being played; a hint on the live position of a game against
/// the AI marks that game assisted.
pub(crate) async fn game_position(
    app: &Arc<App>,
    id: &str,
    ply: Option<usize>,
) -> Result<Position, ApiError> {
    let slot = app.slot(id).await?;
    let (pos, hint) = {
        let game = slot.game.lock().await;
        let ongoing = !game.is_over();
        if ongoing && game.row.mode == Mode::Online {
            return Err(ApiError::forbidden(
                "analysis_off",
                "analysis is off while a game between people is being played; \
                 it opens when the game ends",
            ));
        }
        // A rated game against an AI level counts for both: no hints.
        if ongoing && game.row.rated {
            return Err(ApiError::forbidden(
                "analysis_off",
                "analysis is off while a rated game is being played; it opens when the \
                 game ends",
            ));
        }
        let len = game.game.len();
        let ply = ply.unwrap_or(len);
        if ply > len {
            return Err(ApiError::bad_request(
                "bad_ply",
                format!("ply {ply} is past the end of the game ({len} plies)"),
            )
            .with("ply", ply)
            .with("plies", len));
        }
        let mut past = game.game.clone();
        while past.len() > ply {
            past.undo();
        }
        let hint = ongoing && ply == len && matches!(game.row.mode, Mode::Ai { .. });
        (past.position().clone(), hint && !game.row.assisted)
    };
    if hint {
        // The engine helps the person playing the AI: the record says so.
        app.change(id, |g| {
            if !g.row.assisted {
                g.row.assisted = true;
                g.changed();
            }
            Ok(())
        })
        .await?;
    }
    Ok(pos)
}

/// The strongest level's search of `pos` for `movetime` ms on a blocking
/// thread, holding the AI worker `permit` until the search has returned
/// (even if the asker has gone long before). `None`: the thread failed.
pub(crate) async fn search_on_worker(
    permit: Permit,
    pos: Position,
    movetime: u64,
    stop: Arc<AtomicBool>,
) -> Option<SearchResult> {
    tokio::task::spawn_blocking(move || {
        let result = Ai::new(Level::Strongest, 0).search(
            &pos,
            &Limits::movetime(movetime),
            &stop,
            &mut |_| {},
        );
        drop(permit);
        result
    })
    .await
    .ok()
}

/// What one analysis found.
struct Found {
    result: SearchResult,
    /// The engine's lines, best first: distinct first moves.
    lines: Vec<Line>,
    own: forced::ForcedWin,
    threat: forced::ForcedWin,
}

/// One of the engine's lines.
struct Line {
    score: Score,
    depth: u32,
    pv: Vec<punct_core::Move>,
}

impl Line {
    fn to_json(&self) -> Value {
        json!({
            "move": self.pv[0].to_string(),
            "score": score_json(self.score),
            "depth": self.depth,
            "pv": self.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        })
    }
}

/// Orders scores for the side to move: a win sooner is better, a loss
/// later is better, any win beats any evaluation beats any loss.
fn rank(s: Score) -> i64 {
    match s {
        Score::Win(n) => i64::MAX / 2 - n as i64,
        Score::Loss(n) => i64::MIN / 2 + n as i64,
        Score::Eval(cp) => cp as i64,
    }
}

/// The lines from the last report of each line (`reports[i]`: line i + 1)
/// and the result: line 1 is the result (the move the engine chose, which
/// a last partial depth may have changed); the others follow best first,
/// each with a first move not shown yet.
fn lines_of(result: &SearchResult, reports: &[Option<Info>]) -> Vec<Line> {
    let mut lines = vec![Line {
        score: result.score,
        depth: result.depth,
        pv: if result.pv.first() == Some(&result.best) {
            result.pv.clone()
        } else {
            vec![result.best]
        },
    }];
    let mut others: Vec<Line> = reports
        .iter()
        .skip(1)
        .flatten()
        .filter(|i| !i.pv.is_empty())
        .map(|i| Line {
            score: i.score,
            depth: i.depth,
            pv: i.pv.clone(),
        })
        .collect();
    others.sort_by_key(|l| std::cmp::Reverse(rank(l.score)));
    for line in others {
        if lines.len() < LINES && lines.iter().all(|l| l.pv[0] != line.pv[0]) {
            lines.push(line);
        }
    }
    lines
}

/// The whole analysis on the AI worker's thread: the solver's verdicts
/// first (each within its share of `movetime`), then the strongest level's
/// multi-PV search for the time left. Holds the worker `permit` until done,
/// even if the asker has gone (its `stop` ends the solver and the search
/// at once and skips what has not started). `None`: the thread failed.
async fn analyse_on_worker(
    permit: Permit,
    pos: Position,
    movetime: u64,
    stop: Arc<AtomicBool>,
) -> Option<Found> {
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let total = Duration::from_millis(movetime);
        let share = |percent: u32| total * percent / 100;
        let stopped = || stop.load(Ordering::Relaxed);
        let own = if stopped() {
            forced::ForcedWin::skipped(&pos, pos.side_to_move())
        } else {
            forced::ForcedWin::own(&pos, share(OWN_SHARE), &stop)
        };
        let threat = if stopped() {
            forced::ForcedWin::skipped(&pos, pos.side_to_move().opponent())
        } else {
            forced::ForcedWin::threat(&pos, share(THREAT_SHARE), &stop)
        };
        let left = total
            .saturating_sub(started.elapsed())
            .max(share(SEARCH_SHARE));
        let mut ai = Ai::new(Level::Strongest, 0);
        // An engine without multi-PV refuses the option and reports one
        // line: the analysis then shows that one.
        let _ = ai.set_option("MultiPV", &LINES.to_string());
        let mut reports: Vec<Option<Info>> = vec![None; LINES];
        let result = ai.search(
            &pos,
            &Limits::movetime((left.as_millis() as u64).max(1)),
            &stop,
            &mut |info| {
                if let Some(slot) = reports.get_mut((info.multipv as usize).wrapping_sub(1)) {
                    *slot = Some(info.clone());
                }
            },
        );
        drop(permit);
        Found {
            lines: lines_of(&result, &reports),
            result,
            own,
            threat,
        }
    })
    .await
    .ok()
}

/// Analyses `pos` for `movetime` ms on an AI worker, fairly queued.
pub(crate) async fn search(
    app: &Arc<App>,
    client: ClientKey,
    pos: Position,
    movetime: u64,
) -> Result<Value, ApiError> {
    if pos.status().is_over() {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over in this position",
        ));
    }
    let ticket = app
        .ai
        .enqueue(client)
        .map_err(|r| r.into_error(Job::Analysis))?;
    // A timeout drops the ticket, which leaves the queue.
    let permit = tokio::time::timeout(ANALYSE_QUEUE_WAIT, ticket.wait())
        .await
        .map_err(|_| ApiError::unavailable("busy", "every AI worker is busy; try again"))?
        .ok_or_else(|| ApiError::internal("the AI's queue is gone"))?;
    let position = pos.to_position_string();
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_hang_up = StopOnDrop(stop.clone());
    let found = analyse_on_worker(permit, pos, movetime, stop)
        .await
        .ok_or_else(|| ApiError::internal("the analysis failed"))?;
    let result = &found.result;
    Ok(json!({
        "position": position,
        "best": result.best.to_string(),
        "score": score_json(result.score),
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "lines": found.lines.iter().map(Line::to_json).collect::<Vec<_>>(),
        "solver": found.own.to_json(),
        "threat": found.threat.to_json(),
        "time_ms": started.elapsed().as_millis() as u64,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Move;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn info(multipv: u32, depth: u32, score: Score, pv: &[&str]) -> Option<Info> {
        Some(Info {
            multipv,
            depth,
            score,
            nodes: 1,
            elapsed: Duration::ZERO,
            pv: pv.iter().map(|m| mv(m)).collect(),
        })
    }

    fn moves(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.pv[0].to_string()).collect()
    }

    #[test]
    fn the_engines_choice_leads_and_the_other_lines_follow_best_first_once_each() {
        let result = SearchResult {
            best: mv("C@D7/0"),
            score: Score::Eval(70),
            depth: 3,
            nodes: 9,
            pv: vec![mv("C@D7/0"), mv("R@C6/2")],
        };
        let reports = [
            info(1, 3, Score::Eval(70), &["C@D7/0"]),
            info(2, 3, Score::Eval(20), &["E@D8/0"]),
            info(3, 3, Score::Win(5), &["E@D6/3"]),
        ];
        let lines = lines_of(&result, &reports);
        assert_eq!(moves(&lines), ["C@D7/0", "E@D6/3", "E@D8/0"]);
        assert_eq!(lines[0].pv.len(), 2, "the result's own line");

        // A last partial depth changed the choice to what was line 2: it
        // is not shown twice.
        let changed = SearchResult {
            best: mv("E@D8/0"),
            pv: vec![],
            ..result.clone()
        };
        let lines = lines_of(&changed, &reports);
        assert_eq!(moves(&lines), ["E@D8/0", "E@D6/3"]);
        assert_eq!(lines[0].pv, [mv("E@D8/0")]);

        // An engine that reports one line: that one.
        assert_eq!(moves(&lines_of(&result, &[None, None, None])), ["C@D7/0"]);
        // Losses come last, the later loss first.
        let reports = [
            None,
            info(2, 3, Score::Loss(2), &["E@D8/0"]),
            info(3, 3, Score::Loss(4), &["E@D6/3"]),
        ];
        assert_eq!(
            moves(&lines_of(&result, &reports)),
            ["C@D7/0", "E@D6/3", "E@D8/0"]
        );
    }
}
