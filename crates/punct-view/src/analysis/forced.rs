//! The connection solver's verdicts in an analysis: does the side to move
//! force a win within [`DEPTH`] of its moves, and would the opponent, if it
//! were its turn (the threat the side to move must answer)?

use punct_core::{Move, Position, Side};
use punct_engine::puzzle::null_move;
use punct_engine::solver::{solve_until, Proof, Solution, SolveLimits};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The most moves of the attacker the solver looks for a forced win in.
pub const DEPTH: u32 = 3;

/// Positions the solver may evaluate at most in one verdict (its table
/// grows with them); the time share of the analysis is the usual limit.
const NODES: u64 = 1_000_000;

/// A verdict and the position it was reached in (the opponent's threat is
/// solved on the position with the turn passed).
pub struct ForcedWin {
    solution: Option<Solution>,
    side: Side,
    from: Position,
}

impl ForcedWin {
    /// Solves `pos` for the side to move within `time`, or until `stop`.
    pub fn own(pos: &Position, time: Duration, stop: &AtomicBool) -> ForcedWin {
        ForcedWin {
            solution: Some(solve_until(pos, DEPTH, &limits(time), stop)),
            side: pos.side_to_move(),
            from: pos.clone(),
        }
    }

    /// What the opponent of the side to move threatens: `pos` solved as if
    /// the side to move passed. A position where passing the turn ends the
    /// game has no threat to tell of ("none").
    pub fn threat(pos: &Position, time: Duration, stop: &AtomicBool) -> ForcedWin {
        let side = pos.side_to_move().opponent();
        match null_move(pos) {
            Some(null) => ForcedWin {
                solution: Some(solve_until(&null, DEPTH, &limits(time), stop)),
                side,
                from: null,
            },
            None => ForcedWin {
                solution: None,
                side,
                from: pos.clone(),
            },
        }
    }

    /// Not looked for: the analysis was stopped first.
    pub fn skipped(pos: &Position, side: Side) -> ForcedWin {
        ForcedWin {
            solution: Some(Solution {
                proof: Proof::Unknown,
                attacker: side,
                depth: DEPTH,
                nodes: 0,
                elapsed: Duration::ZERO,
            }),
            side,
            from: pos.clone(),
        }
    }

    /// `{"verdict": "win"|"none"|"unknown", "side", "moves", "by", "line",
    /// "depth", "nodes", "time_ms"}` (docs/API.md, "Analysis").
    pub fn to_json(&self) -> Value {
        let Some(s) = &self.solution else {
            return json!({
                "verdict": "none", "side": self.side.name(), "moves": null, "by": null,
                "line": [], "depth": DEPTH, "nodes": 0, "time_ms": 0,
            });
        };
        let (verdict, moves, by, line) = match &s.proof {
            Proof::Proven { line } => (
                "win",
                Value::from(s.depth),
                Value::from(win_kind(&self.from, line, s.attacker)),
                line.iter().map(Move::to_string).collect(),
            ),
            Proof::Disproven => ("none", Value::Null, Value::Null, Vec::new()),
            Proof::Unknown => ("unknown", Value::Null, Value::Null, Vec::new()),
        };
        json!({
            "verdict": verdict,
            "side": s.attacker.name(),
            "moves": moves,
            "by": by,
            "line": line,
            "depth": DEPTH,
            "nodes": s.nodes,
            "time_ms": s.elapsed.as_millis() as u64,
        })
    }
}

fn limits(time: Duration) -> SolveLimits {
    SolveLimits {
        nodes: NODES,
        time: Some(time),
    }
}

/// How the proven line ends: "connection" when the attacker's chain joins
/// its sides, else "end" (the game ends another way and the attacker wins,
/// docs/RULES.md §5).
fn win_kind(from: &Position, line: &[Move], attacker: Side) -> &'static str {
    let mut end = from.clone();
    for &m in line {
        end.make(m);
    }
    if end.is_connected(attacker) {
        "connection"
    } else {
        "end"
    }
}
