//! A game's clocks: the clock fields of its row kept in step with the
//! game (which clock runs, a move's charge, a takeback's restart, the
//! flag), read through the arithmetic of `clock.rs`.

use super::{now_ms, EndReason, GameError, LiveGame};
use crate::clock::{ai_movetime, Clocks, TimeControl};
use punct_core::Side;
use serde_json::{json, Map, Value};

/// Turns a refusal because the game is over into [`GameError::TimeOut`]
/// when the game ended on time (also when the flag fell just before this
/// request, which the request then found and committed first).
pub(crate) fn after_flag(game: &LiveGame, e: GameError) -> GameError {
    match game.row.end.map(|end| end.reason) {
        Some(EndReason::Time(side)) if matches!(e, GameError::Over(_)) => GameError::TimeOut(side),
        _ => e,
    }
}

impl LiveGame {
    /// The game's time control (`None`: untimed).
    pub fn time_control(&self) -> Option<TimeControl> {
        self.row.clock.as_deref().and_then(TimeControl::from_stored)
    }

    /// The time control and the stored clocks (a clock never set counts
    /// as full).
    pub fn clocks(&self) -> Option<(TimeControl, Clocks)> {
        let tc = self.time_control()?;
        let full = tc.initial_ms();
        Some((
            tc,
            Clocks {
                white_ms: self.row.white_ms.unwrap_or(full),
                black_ms: self.row.black_ms.unwrap_or(full),
                since: self.row.clock_since,
            },
        ))
    }

    fn set_clocks(&mut self, c: Clocks) {
        self.row.white_ms = Some(c.white_ms);
        self.row.black_ms = Some(c.black_ms);
        self.row.clock_since = c.since;
    }

    /// Sets a new game's time control (`None`: untimed) with both clocks
    /// full; the clock starts at once when both seats have a player
    /// (against the AI, at one screen; online once the invite is claimed).
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) {
        match tc {
            None => {
                self.row.clock = None;
                self.row.white_ms = None;
                self.row.black_ms = None;
                self.row.clock_since = None;
            }
            Some(tc) => {
                self.row.clock = Some(tc.to_json().to_string());
                self.set_clocks(Clocks::new(tc));
                self.sync_clock();
            }
        }
    }

    /// Whether the clock of the side to move should run: the game goes on
    /// and both seats have a player.
    fn clock_should_run(&self) -> bool {
        !self.is_over() && self.invite_open().is_none()
    }

    /// After any change: starts the clock when it should run and does not
    /// (a claimed invite, a game taken back into play), stops it when it
    /// should not (any end), charging the running side.
    pub(crate) fn sync_clock(&mut self) {
        let Some((_, c)) = self.clocks() else {
            return;
        };
        let to_move = self.position().side_to_move();
        let now = now_ms();
        let next = if self.clock_should_run() {
            c.started(now)
        } else {
            c.stopped(to_move, now)
        };
        if next != c || self.row.white_ms.is_none() || self.row.black_ms.is_none() {
            self.set_clocks(next);
        }
    }

    /// Charges a move of `mover` (the side to move, whose move has just
    /// been played) and starts the opponent's clock; `TimeOut` (nothing
    /// changed) when its time had run out.
    pub(crate) fn clock_move(&mut self, mover: Side) -> Result<(), GameError> {
        let Some((tc, c)) = self.clocks() else {
            return Ok(());
        };
        let next = c
            .after_move(tc, mover, now_ms())
            .ok_or(GameError::TimeOut(mover))?;
        self.set_clocks(next);
        Ok(())
    }

    /// Before a takeback: the running side is charged and its clock
    /// stopped; the change then restarts the clock of the side to move
    /// (times are not given back).
    pub(crate) fn pause_clock(&mut self) {
        if let Some((_, c)) = self.clocks() {
            let to_move = self.position().side_to_move();
            self.set_clocks(c.stopped(to_move, now_ms()));
        }
    }

    /// The side whose flag has fallen at `now`, if any.
    pub fn flag_due(&self, now: i64) -> Option<Side> {
        if self.is_over() {
            return None;
        }
        let (_, c) = self.clocks()?;
        let to_move = self.position().side_to_move();
        c.flag_due(to_move, now).then_some(to_move)
    }

    /// Ends the game on time: `side` ran out, the opponent wins.
    pub(crate) fn flag(&mut self, side: Side) {
        if let Some((_, c)) = self.clocks() {
            self.set_clocks(c.flagged(side));
        }
        self.end(EndReason::Time(side));
    }

    /// The AI's thinking time for its move now (see [`ai_movetime`]).
    pub fn ai_movetime(&self, configured: u64) -> u64 {
        let left = self.time_left(now_ms()).unwrap_or(0);
        ai_movetime(self.time_control(), left, configured)
    }

    /// When the running clock runs out (ms since 1970), if one runs.
    pub fn clock_deadline(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        let (_, c) = self.clocks()?;
        c.deadline(self.position().side_to_move())
    }

    /// Time left to the side to move at `now` (its whole stored time when
    /// no clock runs); `None` in untimed games.
    pub fn time_left(&self, now: i64) -> Option<i64> {
        let (_, c) = self.clocks()?;
        let to_move = self.position().side_to_move();
        Some(c.left(to_move, to_move, now))
    }

    /// The state's `clock`: null for untimed games, else the time control
    /// with `white_ms`, `black_ms` (stored: time left when the current or
    /// last turn began), `running` (the side whose clock runs, or null)
    /// and `since` (when it started, ms since 1970, or null).
    pub fn clock_json(&self) -> Value {
        let Some((tc, c)) = self.clocks() else {
            return Value::Null;
        };
        let mut v = match tc.to_json() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        v.insert("white_ms".into(), json!(c.white_ms));
        v.insert("black_ms".into(), json!(c.black_ms));
        let running = c
            .since
            .filter(|_| !self.is_over())
            .map(|_| self.position().side_to_move().name());
        v.insert("running".into(), json!(running));
        v.insert("since".into(), json!(c.since));
        Value::Object(v)
    }
}
