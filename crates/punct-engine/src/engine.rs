//! What every engine shares: search limits, progress reports, scores, and the
//! [`Engine`] trait that the protocol, the match runner and `punct play`
//! drive. Engines are synchronous: `search` returns when a limit is reached
//! or `stop` is set (from another thread, by whoever runs the search).

use crate::time::Instant;
use punct_core::{Move, Position, Side};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A game clock: time left and increment per move, for both sides.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub wtime: Duration,
    pub btime: Duration,
    pub winc: Duration,
    pub binc: Duration,
}

impl Clock {
    pub fn remaining(&self, side: Side) -> (Duration, Duration) {
        match side {
            Side::White => (self.wtime, self.winc),
            Side::Black => (self.btime, self.binc),
        }
    }
}

/// When a search must end. Unset fields do not limit; with nothing set (and
/// not `infinite`) engines use a default of one second.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub clock: Option<Clock>,
    /// Search until `stop` (still bounded by any limit given with it).
    pub infinite: bool,
}

impl Limits {
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// The time this move may use: `movetime`, else a share of the clock
    /// (remaining / 25 + most of the increment, keeping a safety margin),
    /// else one second unless another limit or `infinite` was given.
    pub fn time_budget(&self, side: Side) -> Option<Duration> {
        if let Some(t) = self.movetime {
            return Some(t);
        }
        if let Some(clock) = self.clock {
            let (left, inc) = clock.remaining(side);
            let margin = Duration::from_millis(30).min(left / 4);
            let budget = left / 25 + inc * 3 / 4;
            return Some(
                budget
                    .min(left.saturating_sub(margin))
                    .max(Duration::from_millis(1)),
            );
        }
        if self.infinite || self.nodes.is_some() || self.depth.is_some() {
            return None;
        }
        Some(Duration::from_secs(1))
    }
}

/// A score from the point of view of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Evaluation units (about 100 per cell of connection lead).
    Eval(i32),
    /// A forced win in this many plies (1 = the next move wins).
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
}

impl fmt::Display for Score {
    /// Protocol form: `cp N`, `win N` or `loss N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Eval(v) => write!(f, "cp {v}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// A progress report during a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Which line this is, 1 = the best (more with the `MultiPV` option).
    pub multipv: u32,
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Principal variation, first move first.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Move,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// An option an engine accepts (`setoption name <name> value <value>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    pub name: String,
    /// `spin`, `check` or `string`, as in UCI.
    pub kind: &'static str,
    pub default: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl EngineOption {
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> EngineOption {
        EngineOption {
            name: name.to_string(),
            kind: "spin",
            default: default.to_string(),
            min: Some(min),
            max: Some(max),
        }
    }

    pub fn check(name: &str, default: bool) -> EngineOption {
        EngineOption {
            name: name.to_string(),
            kind: "check",
            default: default.to_string(),
            min: None,
            max: None,
        }
    }

    pub fn string(name: &str, default: &str) -> EngineOption {
        EngineOption {
            name: name.to_string(),
            kind: "string",
            default: default.to_string(),
            min: None,
            max: None,
        }
    }
}

/// Reads a `spin` option's value, checked against its bounds.
pub fn parse_spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let v: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: `{value}` is not a whole number"))?;
    if v < min || v > max {
        return Err(format!("option {name}: {v} is outside {min}–{max}"));
    }
    Ok(v)
}

/// A PÜNCT engine. `search` must return a legal move of `pos` (which is not
/// finished) and must return promptly once `stop` is set.
pub trait Engine: Send {
    /// Short name, e.g. `greedy` or `punct level 4`.
    fn name(&self) -> String;
    /// Forget anything learnt about the previous game.
    fn new_game(&mut self) {}
    /// The options `set_option` understands.
    fn options(&self) -> Vec<EngineOption> {
        Vec::new()
    }
    fn set_option(&mut self, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown option `{name}`"))
    }
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult;
}

/// Tracks a search's deadline, node budget and stop flag.
#[derive(Clone)]
pub struct Budget<'a> {
    start: Instant,
    deadline: Option<Instant>,
    nodes: Option<u64>,
    stop: &'a AtomicBool,
}

impl<'a> Budget<'a> {
    pub fn new(pos: &Position, limits: &Limits, stop: &'a AtomicBool) -> Budget<'a> {
        let start = Instant::now();
        Budget {
            start,
            deadline: limits.time_budget(pos.side_to_move()).map(|t| start + t),
            nodes: limits.nodes,
            stop,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The same deadline and nodes, watching another stop flag (a helper
    /// thread, stopped when the search it helps ends).
    pub fn with_stop<'b>(&self, stop: &'b AtomicBool) -> Budget<'b> {
        Budget {
            start: self.start,
            deadline: self.deadline,
            nodes: self.nodes,
            stop,
        }
    }

    /// Whether the search must end, having visited `nodes` nodes.
    pub fn exhausted(&self, nodes: u64) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.nodes.is_some_and(|n| nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// When to stop looking for moves that do not lose at once, having
    /// found `found`: at the deadline once there is one, since playing into
    /// an immediate loss is worse than running over; without one, when
    /// stopped or at twice the move's time. Nodes are not counted, so a
    /// node-limited search stays deterministic.
    pub fn give_up_safety(&self, found: usize) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        let Some(deadline) = self.deadline else {
            return false;
        };
        let now = Instant::now();
        if found > 0 {
            now >= deadline
        } else {
            now >= deadline + (deadline - self.start)
        }
    }

    /// The stop flag, for a search within the search (the solver).
    pub fn stop_flag(&self) -> &'a AtomicBool {
        self.stop
    }

    /// The deadline, if time limits the search.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}

/// Any [`Engine`] as a [`crate::Player`] with fixed limits.
pub struct EnginePlayer {
    pub engine: Box<dyn Engine>,
    pub limits: Limits,
}

impl crate::Player for EnginePlayer {
    fn name(&self) -> String {
        self.engine.name()
    }
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        if pos.status().is_over() {
            return None;
        }
        let stop = AtomicBool::new(false);
        Some(
            self.engine
                .search(pos, &self.limits, &stop, &mut |_| {})
                .best,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_share_of_the_time_left_and_never_all_of_it() {
        let clock = Clock {
            wtime: Duration::from_secs(50),
            btime: Duration::from_millis(100),
            winc: Duration::from_secs(1),
            binc: Duration::ZERO,
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        assert_eq!(
            limits.time_budget(Side::White),
            Some(Duration::from_millis(2750))
        );
        let black = limits.time_budget(Side::Black).unwrap();
        assert!(black < Duration::from_millis(100) && black > Duration::ZERO);
        assert_eq!(
            Limits::default().time_budget(Side::White),
            Some(Duration::from_secs(1))
        );
        assert_eq!(Limits::nodes(5).time_budget(Side::White), None);
        assert_eq!(
            Limits::movetime(30).time_budget(Side::Black),
            Some(Duration::from_millis(30))
        );
    }

    #[test]
    fn spin_options_are_range_checked() {
        assert_eq!(parse_spin("Threads", "2", 1, 2), Ok(2));
        assert!(parse_spin("Threads", "3", 1, 2)
            .unwrap_err()
            .contains("outside"));
        assert!(parse_spin("Threads", "x", 1, 2)
            .unwrap_err()
            .contains("whole number"));
    }

    #[test]
    fn scores_print_in_protocol_form() {
        assert_eq!(Score::Eval(-35).to_string(), "cp -35");
        assert_eq!(Score::Win(3).to_string(), "win 3");
        assert_eq!(Score::Loss(2).to_string(), "loss 2");
    }
}
