//! One game between two players: the opening, the clocks, the moves, and
//! how it ended (by the rules, by adjudication or by a forfeit).

use super::players::{Contestant, Fault, Request};
use punct_core::{Game, Move, Outcome, Side, Status, Variant};
use punct_engine::{Clock, Limits};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How much time a move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A node budget per move (no time limit but the grace period).
    Nodes(u64),
    /// A clock per side: base time, increment added after each move.
    Clock { base: Duration, inc: Duration },
}

impl TimeControl {
    /// The record's `TimeControl` tag: `movetime 100 ms`, `nodes 1000`,
    /// `10+0.1` (seconds).
    pub fn tag(&self) -> String {
        match *self {
            TimeControl::MoveTime(t) => format!("movetime {} ms", t.as_millis()),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Clock { base, inc } => {
                format!("{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
        }
    }
}

/// Everything a game needs besides its players and opening.
#[derive(Copy, Clone, Debug)]
pub struct Settings {
    pub variant: Variant,
    pub time: TimeControl,
    /// Extra time a move may take beyond its limit (the whole allowance
    /// with `Nodes`).
    pub grace: Duration,
    /// Time odds: this side's time per move instead of `time`'s (with
    /// `MoveTime` only; `--movetime2` gives engine 2 its own).
    pub odds: Option<(Side, Duration)>,
    /// A game reaching this many plies (opening included) is a draw.
    pub adjudicate: usize,
}

/// Why a player lost outside the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    Time,
    Illegal,
    Crash,
    Malformed,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (connection, reserves, passes).
    Rules,
    /// Drawn at the ply limit.
    Adjudicated,
    /// `loser` forfeited; `detail` says why, for messages.
    Forfeit {
        loser: Side,
        kind: ForfeitKind,
        detail: String,
    },
}

/// A finished game.
pub struct Played {
    pub game: Game,
    pub outcome: Outcome,
    pub ending: Ending,
}

impl Played {
    /// The record's `Termination` tag, when the rules did not end the game.
    pub fn termination(&self) -> Option<String> {
        match &self.ending {
            Ending::Rules => None,
            Ending::Adjudicated => {
                Some(format!("adjudicated draw after {} plies", self.game.len()))
            }
            Ending::Forfeit {
                loser,
                kind,
                detail,
            } => Some(match kind {
                ForfeitKind::Time => "time forfeit".to_string(),
                ForfeitKind::Illegal => format!("illegal move by {loser}: {detail}"),
                ForfeitKind::Crash => format!("{loser}'s engine failed: {detail}"),
                ForfeitKind::Malformed => format!("malformed reply from {loser}: {detail}"),
            }),
        }
    }
}

fn forfeit(game: Game, loser: Side, kind: ForfeitKind, detail: String) -> Played {
    let outcome = match loser {
        Side::White => Outcome::BlackWins,
        Side::Black => Outcome::WhiteWins,
    };
    Played {
        game,
        outcome,
        ending: Ending::Forfeit {
            loser,
            kind,
            detail,
        },
    }
}

fn fault_forfeit(game: Game, loser: Side, fault: Fault) -> Played {
    match fault {
        Fault::Timeout(d) => forfeit(game, loser, ForfeitKind::Time, d),
        Fault::Crash(d) => forfeit(game, loser, ForfeitKind::Crash, d),
        Fault::Malformed(d) => forfeit(game, loser, ForfeitKind::Malformed, d),
    }
}

/// Plays a game from `opening` (already checked legal). Returns `None`
/// when `abort` was set before it finished (the game does not count).
pub fn play(
    settings: &Settings,
    opening: &[Move],
    white: &mut dyn Contestant,
    black: &mut dyn Contestant,
    abort: &AtomicBool,
) -> Option<Played> {
    let mut game = Game::new(settings.variant);
    for &mv in opening {
        if game.play(mv).is_err() {
            unreachable!("openings are checked when they are read");
        }
    }
    if let Err(f) = white.new_game(settings.variant) {
        return Some(fault_forfeit(game, Side::White, f));
    }
    if let Err(f) = black.new_game(settings.variant) {
        return Some(fault_forfeit(game, Side::Black, f));
    }
    let mut clock = match settings.time {
        TimeControl::Clock { base, inc } => Some(Clock {
            wtime: base,
            btime: base,
            winc: inc,
            binc: inc,
        }),
        _ => None,
    };
    loop {
        let status = game.position().status();
        if status.is_over() {
            return Some(Played {
                outcome: Outcome::from_status(status),
                game,
                ending: Ending::Rules,
            });
        }
        if game.len() >= settings.adjudicate {
            return Some(Played {
                game,
                outcome: Outcome::Draw,
                ending: Ending::Adjudicated,
            });
        }
        if abort.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.position().side_to_move();
        let (limits, hard_limit) = match settings.time {
            TimeControl::MoveTime(t) => {
                let t = match settings.odds {
                    Some((s, own)) if s == side => own,
                    _ => t,
                };
                (
                    Limits {
                        movetime: Some(t),
                        ..Limits::default()
                    },
                    t + settings.grace,
                )
            }
            TimeControl::Nodes(n) => (Limits::nodes(n), settings.grace),
            TimeControl::Clock { .. } => {
                let c = clock.expect("a clock");
                (
                    Limits {
                        clock: Some(c),
                        ..Limits::default()
                    },
                    c.remaining(side).0 + settings.grace,
                )
            }
        };
        let player: &mut dyn Contestant = match side {
            Side::White => &mut *white,
            Side::Black => &mut *black,
        };
        let request = Request { limits, hard_limit };
        let (mv, elapsed) = match player.go(&game, &request) {
            Ok(r) => r,
            Err(f) => return Some(fault_forfeit(game, side, f)),
        };
        if elapsed > hard_limit {
            let detail = format!(
                "{} ms used, {} ms allowed",
                elapsed.as_millis(),
                hard_limit.as_millis()
            );
            return Some(forfeit(game, side, ForfeitKind::Time, detail));
        }
        if let Some(c) = clock.as_mut() {
            let (left, inc) = match side {
                Side::White => (&mut c.wtime, c.winc),
                Side::Black => (&mut c.btime, c.binc),
            };
            *left = left.saturating_sub(elapsed) + inc;
        }
        if let Err(e) = game.play(mv) {
            let detail = format!("`{mv}` ({e})");
            return Some(forfeit(game, side, ForfeitKind::Illegal, detail));
        }
    }
}

/// The score of a record's outcome for White (1, ½, 0).
pub fn white_points(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::WhiteWins => 1.0,
        Outcome::BlackWins => 0.0,
        _ => 0.5,
    }
}

/// How the rules ended a game, in words (for the per-game lines).
pub fn rules_reason(game: &Game) -> &'static str {
    let pos = game.position();
    match pos.status() {
        Status::Won(s) if pos.is_connected(s) => "connection",
        Status::Won(_) => "central majority",
        Status::Draw => "draw by the rules",
        Status::Ongoing => "unfinished",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the first legal move and remembers the time it was given.
    struct Recorder(Vec<Option<Duration>>);

    impl Contestant for Recorder {
        fn new_game(&mut self, _: Variant) -> Result<(), Fault> {
            Ok(())
        }
        fn go(&mut self, game: &Game, request: &Request) -> Result<(Move, Duration), Fault> {
            self.0.push(request.limits.movetime);
            let mv = game.position().legal_moves()[0];
            Ok((mv, Duration::ZERO))
        }
    }

    #[test]
    fn time_odds_give_one_side_its_own_time_per_move() {
        let settings = Settings {
            variant: Variant::Standard,
            time: TimeControl::MoveTime(Duration::from_millis(100)),
            grace: Duration::from_millis(1000),
            odds: Some((Side::Black, Duration::from_millis(700))),
            adjudicate: 12,
        };
        let (mut white, mut black) = (Recorder(Vec::new()), Recorder(Vec::new()));
        let played = play(
            &settings,
            &[],
            &mut white,
            &mut black,
            &AtomicBool::new(false),
        );
        assert!(played.is_some());
        assert_eq!(white.0, vec![Some(Duration::from_millis(100)); 6]);
        assert_eq!(black.0, vec![Some(Duration::from_millis(700)); 6]);
    }
}
