//! An analysis of a position: the solver's verdicts — does the side to
//! move force a win, does the opponent threaten one — and the strongest
//! level's best lines (multi-PV). The server runs it on an AI worker, the
//! page in its WebAssembly worker.

pub mod forced;

use punct_core::Position;
use punct_engine::time::Instant;
use punct_engine::{Ai, Engine, Info, Level, Limits, Score, SearchResult};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The engine's lines an analysis shows (`MultiPV`).
pub const LINES: usize = 3;

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

/// What one analysis found.
pub struct Analysis {
    pub result: SearchResult,
    /// The engine's lines, best first: distinct first moves.
    pub lines: Vec<Line>,
    pub own: forced::ForcedWin,
    pub threat: forced::ForcedWin,
}

/// One of the engine's lines.
pub struct Line {
    pub score: Score,
    pub depth: u32,
    pub pv: Vec<punct_core::Move>,
}

impl Line {
    pub fn to_json(&self) -> Value {
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
    // Every report, the first too: when a last partial depth changed the
    // choice, the line that led before is still one of the best three.
    let mut others: Vec<Line> = reports
        .iter()
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

/// The whole analysis of `pos` in `movetime` ms: the solver's verdicts
/// first (each within its share), then the strongest level's multi-PV
/// search for the time left. `stop` ends the solver and the search at once
/// and skips what has not started; `on_info` hears the search's reports.
pub fn analyse(
    pos: &Position,
    movetime: u64,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Analysis {
    let started = Instant::now();
    let total = Duration::from_millis(movetime);
    let share = |percent: u32| total * percent / 100;
    let stopped = || stop.load(Ordering::Relaxed);
    let own = if stopped() {
        forced::ForcedWin::skipped(pos, pos.side_to_move())
    } else {
        forced::ForcedWin::own(pos, share(OWN_SHARE), stop)
    };
    let threat = if stopped() {
        forced::ForcedWin::skipped(pos, pos.side_to_move().opponent())
    } else {
        forced::ForcedWin::threat(pos, share(THREAT_SHARE), stop)
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
        pos,
        &Limits::movetime((left.as_millis() as u64).max(1)),
        stop,
        &mut |info| {
            on_info(info);
            if let Some(slot) = reports.get_mut((info.multipv as usize).wrapping_sub(1)) {
                *slot = Some(info.clone());
            }
        },
    );
    Analysis {
        lines: lines_of(&result, &reports),
        result,
        own,
        threat,
    }
}

impl Analysis {
    /// The analysis as the API and the page show it.
    pub fn to_json(&self, position: &str, time_ms: u64) -> Value {
        let result = &self.result;
        json!({
            "position": position,
            "best": result.best.to_string(),
            "score": score_json(result.score),
            "depth": result.depth,
            "nodes": result.nodes,
            "pv": result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "lines": self.lines.iter().map(Line::to_json).collect::<Vec<_>>(),
            "solver": self.own.to_json(),
            "threat": self.threat.to_json(),
            "time_ms": time_ms,
        })
    }
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
        // is not shown twice, and the line that led before stays.
        let changed = SearchResult {
            best: mv("E@D8/0"),
            pv: vec![],
            ..result.clone()
        };
        let lines = lines_of(&changed, &reports);
        assert_eq!(moves(&lines), ["E@D8/0", "E@D6/3", "C@D7/0"]);
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
