//! The AI's judgement of a position: the connection race and, in the
//! standard game, central presence as the reserves run out.

use crate::paths::distance_and_spread;
use crate::search::Score;
use punct_core::{Position, Status, Variant};

/// A won position's score; a win in `n` plies scores `WIN - n`.
pub(crate) const WIN: i32 = 1_000_000;
pub(crate) const MATE_BAND: i32 = 10_000;
/// The worth of having the move, in evaluation units.
const TEMPO: i32 = 150;

/// The evaluation's weights: hand-set ones or the ones tuned by self-play.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The worth of having the move.
    tempo: i32,
}

impl Weights {
    /// The hand-set weights the AI played with before tuning.
    pub fn hand() -> Weights {
        Weights { tempo: TEMPO }
    }

    /// The weights fitted to self-play results (the default).
    pub fn tuned() -> Weights {
        Weights::hand()
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::tuned()
    }
}

/// Evaluation of `pos` for the side to move, in centi-cells.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let me = pos.side_to_move();
    match pos.status() {
        Status::Won(s) if s == me => return WIN,
        Status::Won(_) => return -WIN,
        Status::Draw => return 0,
        Status::Ongoing => {}
    }
    evaluate_ongoing(pos, distance_and_spread(pos, me), w)
}

/// [`evaluate_with`] of an unfinished game, given the side to move's
/// `distance_and_spread` (a leaf has it already).
pub(crate) fn evaluate_ongoing(pos: &Position, (dm, sm): (u32, u32), w: &Weights) -> i32 {
    let me = pos.side_to_move();
    let (dt, st) = distance_and_spread(pos, me.opponent());
    // The side to move is about half a move ahead of the bare distances.
    let mut score = w.tempo + 100 * (dt as i32 - dm as i32) + 10 * (st as i32 - sm as i32);
    if pos.variant() == Variant::Standard {
        // The central count decides a game nobody connects; it matters more
        // as the reserves (and so the game) run out.
        let left = pos.reserve_total(me).min(pos.reserve_total(me.opponent())) as i32;
        let weight = match left {
            0..=2 => 250,
            3..=4 => 100,
            5..=8 => 30,
            _ => 8,
        };
        score += weight * (pos.central_count(me) as i32 - pos.central_count(me.opponent()) as i32);
    }
    score
}

pub(crate) fn to_score(v: i32) -> Score {
    if v >= WIN - MATE_BAND {
        Score::Win((WIN - v) as u32)
    } else if v <= -WIN + MATE_BAND {
        Score::Loss((WIN + v) as u32)
    } else {
        Score::Eval(v)
    }
}
