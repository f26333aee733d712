//! Clocks: the time controls a game may be created with, their JSON
//! forms, and the clocks' arithmetic as pure functions of the time
//! control, the stored fields (`white_ms`, `black_ms`: each side's time
//! left when its current or last turn began; `clock_since`: when the
//! running clock started) and the time now.
//!
//! The server alone decides when a flag falls. The clock of the side to
//! move runs while the game goes on and both seats have a player; a move
//! charges the time used (and adds the increment, or resets a
//! correspondence clock), a takeback restarts the clock of the side then
//! to move, any end stops it (`games/clock.rs` keeps a game's clock fields
//! in step). A flag that falls without a move is found by the game's
//! [`Timer`]: a task (app.rs) that wakes at the deadline and ends the game
//! through the change path (lock, check, commit at the version read,
//! publish), so it is decided once; a move that lands first moves the
//! deadline. Games with a running clock in the database are picked up at
//! start and then every minute (change.rs).

use punct_core::Side;
use serde_json::{json, Value};
use std::ops::RangeInclusive;

/// Seconds of a real-time clock at the start.
pub const INITIAL_S: RangeInclusive<u64> = 5..=10_800;
/// Seconds added to a real-time clock after each move.
pub const INCREMENT_S: RangeInclusive<u64> = 0..=180;
/// Days per move of a correspondence clock.
pub const DAYS: RangeInclusive<u64> = 1..=14;

const DAY_MS: i64 = 86_400_000;

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `initial` seconds each, `increment` seconds more after each move.
    Realtime { initial: u32, increment: u32 },
    /// `days` for each move.
    Correspondence { days: u32 },
}

impl TimeControl {
    /// The `clock` field of a request: absent, null or `{"type": "none"}`
    /// for an untimed game; anything wrong is said naming the field and the
    /// values allowed.
    pub fn parse(v: Option<&Value>) -> Result<Option<TimeControl>, String> {
        let obj = match v {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Object(o)) => o,
            Some(other) => {
                return Err(format!(
                    "`clock` must be an object: {{\"type\": \"none\"}}, {{\"type\": \"realtime\", \
                     \"initial\": 180, \"increment\": 2}} or {{\"type\": \"correspondence\", \
                     \"days\": 3}}, not {other}"
                ))
            }
        };
        let kind = match obj.get("type") {
            Some(Value::String(s)) => s.as_str(),
            None => {
                return Err(
                    "`clock.type` is missing: use none, realtime or correspondence".to_string(),
                )
            }
            Some(other) => {
                return Err(format!(
                    "`clock.type` must be none, realtime or correspondence, not {other}"
                ))
            }
        };
        let fields: &[&str] = match kind {
            "none" => &["type"],
            "realtime" => &["type", "initial", "increment"],
            "correspondence" => &["type", "days"],
            other => {
                return Err(format!(
                    "`clock.type` `{other}` is not a time control: use none, realtime or \
                     correspondence"
                ))
            }
        };
        if let Some(k) = obj.keys().find(|k| !fields.contains(&k.as_str())) {
            return Err(format!(
                "`clock.{k}` is not a field of a {kind} clock: it has {}",
                fields
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let number = |field: &str, range: RangeInclusive<u64>, unit: &str, default: Option<u64>| {
            let (lo, hi) = (range.start(), range.end());
            match obj.get(field) {
                None => default.ok_or_else(|| {
                    format!(
                        "`clock.{field}` is missing: a whole number of {unit} from {lo} to {hi}"
                    )
                }),
                Some(v) => match v.as_u64() {
                    Some(n) if range.contains(&n) => Ok(n),
                    _ => Err(format!(
                        "`clock.{field}` must be a whole number of {unit} from {lo} to {hi}, \
                         not {v}"
                    )),
                },
            }
        };
        Ok(match kind {
            "realtime" => Some(TimeControl::Realtime {
                initial: number("initial", INITIAL_S, "seconds", None)? as u32,
                increment: number("increment", INCREMENT_S, "seconds", Some(0))? as u32,
            }),
            "correspondence" => Some(TimeControl::Correspondence {
                days: number("days", DAYS, "days", None)? as u32,
            }),
            _ => None,
        })
    }

    /// The stored form (the row's `clock`), as written by [`TimeControl::to_json`].
    pub fn from_stored(text: &str) -> Option<TimeControl> {
        let v: Value = serde_json::from_str(text).ok()?;
        TimeControl::parse(Some(&v)).ok().flatten()
    }

    /// `{"type": "realtime", "initial": 180, "increment": 2}` or
    /// `{"type": "correspondence", "days": 3}`: the stored form, and the
    /// `clock` of a game summary.
    pub fn to_json(self) -> Value {
        match self {
            TimeControl::Realtime { initial, increment } => {
                json!({"type": "realtime", "initial": initial, "increment": increment})
            }
            TimeControl::Correspondence { days } => json!({"type": "correspondence", "days": days}),
        }
    }

    /// Each side's time at the start, in milliseconds.
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::Realtime { initial, .. } => i64::from(initial) * 1000,
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
        }
    }

    /// A mover's time after a move that left it `left_ms`: plus the
    /// increment, or the full days again.
    pub fn after_move(self, left_ms: i64) -> i64 {
        match self {
            TimeControl::Realtime { increment, .. } => left_ms + i64::from(increment) * 1000,
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
        }
    }

    /// The record's `TimeControl` tag: `180+2`, `3 days per move`.
    pub fn tag(self) -> String {
        match self {
            TimeControl::Realtime { initial, increment } => format!("{initial}+{increment}"),
            TimeControl::Correspondence { days: 1 } => "1 day per move".to_string(),
            TimeControl::Correspondence { days } => format!("{days} days per move"),
        }
    }
}

/// The stored fields of a game's clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Each side's time left when its current or last turn began (ms).
    pub white_ms: i64,
    pub black_ms: i64,
    /// When the clock of the side to move started (ms since 1970);
    /// `None` while no clock runs.
    pub since: Option<i64>,
}

impl Clocks {
    /// Both sides with the full time, not running.
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks {
            white_ms: tc.initial_ms(),
            black_ms: tc.initial_ms(),
            since: None,
        }
    }

    pub fn stored(&self, side: Side) -> i64 {
        match side {
            Side::White => self.white_ms,
            Side::Black => self.black_ms,
        }
    }

    fn stored_mut(&mut self, side: Side) -> &mut i64 {
        match side {
            Side::White => &mut self.white_ms,
            Side::Black => &mut self.black_ms,
        }
    }

    /// `side`'s time left at `now` (negative once its flag has fallen),
    /// with `to_move` the side whose clock runs.
    pub fn left(&self, side: Side, to_move: Side, now: i64) -> i64 {
        match self.since {
            Some(since) if side == to_move => self.stored(side) - (now - since).max(0),
            _ => self.stored(side),
        }
    }

    /// When the running clock (`to_move`'s) runs out.
    pub fn deadline(&self, to_move: Side) -> Option<i64> {
        self.since.map(|since| since + self.stored(to_move))
    }

    /// Whether `to_move`'s running clock has run out at `now`.
    pub fn flag_due(&self, to_move: Side, now: i64) -> bool {
        self.deadline(to_move).is_some_and(|d| now >= d)
    }

    /// The clocks after `mover` (the side to move) moved at `now`: its
    /// time used is charged and the increment added (or a correspondence
    /// clock reset), and the opponent's clock runs from `now`. `None` when
    /// its time had run out: the flag fell first. A clock that was not
    /// running charges nothing.
    pub fn after_move(self, tc: TimeControl, mover: Side, now: i64) -> Option<Clocks> {
        if self.since.is_none() {
            return Some(self);
        }
        let left = self.left(mover, mover, now);
        if left <= 0 {
            return None;
        }
        let mut c = self;
        *c.stored_mut(mover) = tc.after_move(left);
        c.since = Some(now);
        Some(c)
    }

    /// Stopped at `now`: the running side (`to_move`) is charged the time
    /// it used (never below zero).
    pub fn stopped(self, to_move: Side, now: i64) -> Clocks {
        let mut c = self;
        if c.since.is_some() {
            *c.stored_mut(to_move) = self.left(to_move, to_move, now).max(0);
        }
        c.since = None;
        c
    }

    /// Running from `now`, unless it runs already.
    pub fn started(self, now: i64) -> Clocks {
        Clocks {
            since: Some(self.since.unwrap_or(now)),
            ..self
        }
    }

    /// `side`'s flag fell: no time left, no clock running.
    pub fn flagged(self, side: Side) -> Clocks {
        let mut c = self;
        *c.stored_mut(side) = 0;
        c.since = None;
        c
    }
}

/// The AI's thinking time for a move: `configured`, or less when its clock
/// asks for it (a 25th of its time left plus most of the increment, at
/// least 20 ms, at most half its time left), so that it does not flag in
/// normal play.
pub fn ai_movetime(tc: Option<TimeControl>, left_ms: i64, configured: u64) -> u64 {
    let Some(TimeControl::Realtime { increment, .. }) = tc else {
        return configured;
    };
    let left = left_ms.max(0) as u64;
    let budget = (left / 25 + u64::from(increment) * 800).min(configured);
    budget.max(20).min((left / 2).max(1))
}

/// A game summary's `clock`: the time control only, or null.
pub fn summary_json(row: &punct_store::GameRow) -> Value {
    row.clock
        .as_deref()
        .and_then(TimeControl::from_stored)
        .map_or(Value::Null, TimeControl::to_json)
}

// ------------------------------------------------------------ the timer

/// A game's clock timer: one task per game while its clock runs.
#[derive(Default)]
pub(crate) struct Timer {
    state: std::sync::Mutex<TimerState>,
    pub(crate) wake: tokio::sync::Notify,
}

#[derive(Default)]
struct TimerState {
    deadline: Option<i64>,
    /// A task watches this deadline.
    running: bool,
}

impl Timer {
    fn lock(&self) -> std::sync::MutexGuard<'_, TimerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the deadline (`None`: no clock runs); true when a task must
    /// be started to watch it.
    pub(crate) fn set(&self, deadline: Option<i64>) -> bool {
        let mut s = self.lock();
        let changed = s.deadline != deadline;
        s.deadline = deadline;
        if s.running {
            if changed {
                self.wake.notify_one();
            }
            false
        } else if deadline.is_some() {
            s.running = true;
            true
        } else {
            false
        }
    }

    /// The deadline to wait for; `None` ends the task.
    pub(crate) fn next(&self) -> Option<i64> {
        let mut s = self.lock();
        if s.deadline.is_none() {
            s.running = false;
        }
        s.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: Value) -> Result<Option<TimeControl>, String> {
        TimeControl::parse(Some(&v))
    }

    #[test]
    fn time_controls_parse_and_print() {
        assert_eq!(TimeControl::parse(None), Ok(None));
        assert_eq!(parse(json!({"type": "none"})), Ok(None));
        let blitz = TimeControl::Realtime {
            initial: 180,
            increment: 2,
        };
        assert_eq!(
            parse(json!({"type": "realtime", "initial": 180, "increment": 2})),
            Ok(Some(blitz))
        );
        assert_eq!(
            parse(json!({"type": "realtime", "initial": 60})),
            Ok(Some(TimeControl::Realtime {
                initial: 60,
                increment: 0
            }))
        );
        let corr = TimeControl::Correspondence { days: 3 };
        assert_eq!(
            parse(json!({"type": "correspondence", "days": 3})),
            Ok(Some(corr))
        );
        for tc in [blitz, corr] {
            assert_eq!(
                TimeControl::from_stored(&tc.to_json().to_string()),
                Some(tc)
            );
        }
        assert_eq!(blitz.tag(), "180+2");
        assert_eq!(corr.tag(), "3 days per move");
        assert_eq!(
            TimeControl::Correspondence { days: 1 }.tag(),
            "1 day per move"
        );
    }

    #[test]
    fn bad_time_controls_name_the_field_and_the_range() {
        let cases = [
            (json!("blitz"), "`clock` must be an object"),
            (json!({}), "`clock.type` is missing"),
            (json!({"type": "bullet"}), "`clock.type` `bullet`"),
            (json!({"type": "realtime"}), "`clock.initial` is missing"),
            (
                json!({"type": "realtime", "initial": 4}),
                "`clock.initial` must be a whole number of seconds from 5 to 10800, not 4",
            ),
            (
                json!({"type": "realtime", "initial": 10801}),
                "from 5 to 10800",
            ),
            (
                json!({"type": "realtime", "initial": 60, "increment": 181}),
                "`clock.increment` must be a whole number of seconds from 0 to 180",
            ),
            (
                json!({"type": "realtime", "initial": 60.5}),
                "`clock.initial` must be a whole number",
            ),
            (
                json!({"type": "realtime", "initial": 60, "days": 2}),
                "`clock.days` is not a field of a realtime clock",
            ),
            (
                json!({"type": "correspondence", "days": 0}),
                "`clock.days` must be a whole number of days from 1 to 14, not 0",
            ),
            (
                json!({"type": "correspondence", "days": 15}),
                "from 1 to 14",
            ),
            (json!({"type": "correspondence"}), "`clock.days` is missing"),
        ];
        for (v, want) in cases {
            let err = parse(v.clone()).expect_err(&v.to_string());
            assert!(err.contains(want), "{v}: {err}");
        }
    }

    const BLITZ: TimeControl = TimeControl::Realtime {
        initial: 180,
        increment: 2,
    };

    #[test]
    fn a_move_charges_the_time_used_and_adds_the_increment() {
        let c = Clocks::new(BLITZ).started(1_000);
        assert_eq!(c.deadline(Side::White), Some(181_000));
        assert_eq!(c.left(Side::White, Side::White, 11_000), 170_000);
        assert_eq!(c.left(Side::Black, Side::White, 11_000), 180_000);
        let c = c.after_move(BLITZ, Side::White, 11_000).unwrap();
        assert_eq!(
            (c.white_ms, c.black_ms, c.since),
            (172_000, 180_000, Some(11_000))
        );
        assert_eq!(c.deadline(Side::Black), Some(191_000));
        // Black's move runs out exactly at the deadline: the flag fell.
        assert!(!c.flag_due(Side::Black, 190_999));
        assert!(c.flag_due(Side::Black, 191_000));
        assert_eq!(c.after_move(BLITZ, Side::Black, 191_000), None);
        let c = c.after_move(BLITZ, Side::Black, 190_999).unwrap();
        assert_eq!((c.black_ms, c.since), (2_001, Some(190_999)));
    }

    #[test]
    fn a_stopped_clock_charges_nothing_and_a_clock_going_back_charges_nothing() {
        let c = Clocks::new(BLITZ);
        assert_eq!(c.after_move(BLITZ, Side::White, 50_000), Some(c));
        assert_eq!(c.deadline(Side::White), None);
        let running = c.started(10_000);
        assert_eq!(running.started(20_000), running);
        // The system clock stepped back: no time is charged.
        assert_eq!(running.left(Side::White, Side::White, 5_000), 180_000);
        let stopped = running.stopped(Side::White, 40_000);
        assert_eq!((stopped.white_ms, stopped.since), (150_000, None));
        let over = running.stopped(Side::White, 400_000);
        assert_eq!(over.white_ms, 0);
        let flagged = running.flagged(Side::White);
        assert_eq!((flagged.white_ms, flagged.since), (0, None));
    }

    #[test]
    fn correspondence_clocks_reset_to_the_days_per_move() {
        let tc = TimeControl::Correspondence { days: 3 };
        let start = 1_700_000_000_000;
        let c = Clocks::new(tc).started(start);
        assert_eq!(c.white_ms, 3 * DAY_MS);
        // White takes two and a half days, then black's clock runs.
        let t = start + 5 * DAY_MS / 2;
        let c = c.after_move(tc, Side::White, t).unwrap();
        assert_eq!(
            (c.white_ms, c.black_ms, c.since),
            (3 * DAY_MS, 3 * DAY_MS, Some(t))
        );
        assert_eq!(c.deadline(Side::Black), Some(t + 3 * DAY_MS));
        assert!(!c.flag_due(Side::Black, t + 3 * DAY_MS - 1));
        assert!(c.flag_due(Side::Black, t + 3 * DAY_MS));
        assert_eq!(c.after_move(tc, Side::Black, t + 3 * DAY_MS + 1), None);
    }

    #[test]
    fn the_ai_thinks_within_its_clock() {
        let rt = |initial, increment| Some(TimeControl::Realtime { initial, increment });
        assert_eq!(ai_movetime(None, 0, 1000), 1000);
        assert_eq!(
            ai_movetime(Some(TimeControl::Correspondence { days: 1 }), 5, 1000),
            1000
        );
        // 10 s left, no increment: 400 ms, or the configured time if less.
        assert_eq!(ai_movetime(rt(10, 0), 10_000, 1000), 400);
        assert_eq!(ai_movetime(rt(10, 0), 10_000, 50), 50);
        // The increment mostly counts.
        assert_eq!(ai_movetime(rt(10, 2), 10_000, 5000), 400 + 1600);
        // Never under 20 ms, never over half the time left.
        assert_eq!(ai_movetime(rt(5, 0), 100, 1000), 20);
        assert_eq!(ai_movetime(rt(5, 0), 30, 1000), 15);
        assert_eq!(ai_movetime(rt(5, 0), -5, 1000), 1);
    }
}
