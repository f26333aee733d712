//! PÜNCT engines: things that choose a move in a position. The AI at four
//! levels (`ai/`: an alpha-beta search over a tuned evaluation and a learned
//! move ordering, with the connection solver), the baselines (random,
//! greedy, UCT, the boardspace.net approach), the [`Engine`] trait every
//! one of them implements (`engine.rs`), and what they share: connection
//! distances (`distance.rs`, `paths.rs`), immediate wins and safe moves
//! (`tactics.rs`), the proof-number solver, the puzzle prover and the
//! tactical suites. Depends on `punct-core` only.
//!
//! ```
//! use punct_core::{Position, Variant};
//! use punct_engine::{Player, RandomPlayer};
//! let pos = Position::new(Variant::Standard);
//! let mv = RandomPlayer::new(1).choose(&pos).unwrap();
//! assert!(pos.is_legal(mv));
//! ```

mod ai;
mod boardspace;
mod distance;
mod engine;
pub mod features;
#[cfg(test)]
mod fixtures;
pub mod paths;
pub mod puzzle;
pub mod review;
mod simple;
pub mod solver;
pub mod suite;
pub mod tactics;
pub mod time;
mod uct;

pub use ai::{evaluate_with, policy, Ai, Level, Policy, Weights};
pub use boardspace::Boardspace;
pub use distance::{connection_distance, evaluate};
pub use engine::{
    parse_spin, Budget, Clock, Engine, EngineOption, EnginePlayer, Info, Limits, Score,
    SearchResult,
};
pub use simple::{GreedyPlayer, RandomPlayer};
pub use uct::Uct;

use punct_core::{Move, Position};

/// Something that picks moves.
pub trait Player {
    /// A short name for records and messages.
    fn name(&self) -> String;
    /// A legal move, or `None` when the game is over.
    fn choose(&mut self, pos: &Position) -> Option<Move>;
}

/// The engines `new_engine` knows, each with a one-line description.
pub const ENGINES: &[(&str, &str)] = &[
    (
        "level1",
        "beginner: looks one move ahead with a rough judgement; takes wins, misses threats",
    ),
    (
        "level2",
        "casual: looks two plies ahead with a rough judgement; blocks immediate threats",
    ),
    (
        "level3",
        "club: searches three plies over its best candidates, judging a little roughly",
    ),
    (
        "level4",
        "strongest: deepening alpha-beta with a transposition table and a connection solver, using all its time",
    ),
    ("random", "a uniformly random legal move (baseline)"),
    (
        "greedy",
        "the best move one ply ahead by the connection evaluation (baseline)",
    ),
    ("uct", "plain UCT with uniform random playouts (baseline)"),
    (
        "boardspace",
        "the boardspace.net robot's approach: span evaluation, alpha-beta at depth 3+ (baseline)",
    ),
];

/// An engine by name (see [`ENGINES`]); `seed` drives its random choices.
pub fn new_engine(name: &str, seed: u64) -> Result<Box<dyn Engine>, String> {
    match name.to_ascii_lowercase().as_str() {
        "level1" | "beginner" => Ok(Box::new(Ai::new(Level::Beginner, seed))),
        "level2" | "casual" => Ok(Box::new(Ai::new(Level::Casual, seed))),
        "level3" | "club" => Ok(Box::new(Ai::new(Level::Club, seed))),
        "level4" | "strongest" => Ok(Box::new(Ai::new(Level::Strongest, seed))),
        "random" => Ok(Box::new(RandomPlayer::new(seed))),
        "greedy" => Ok(Box::new(GreedyPlayer::new(seed))),
        "uct" => Ok(Box::new(Uct::new(seed))),
        "boardspace" => Ok(Box::new(Boardspace::new(seed))),
        _ => Err(format!(
            "unknown engine `{name}`: expected one of {}",
            ENGINES
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_list_describes_each_level_as_the_level_does() {
        for level in Level::ALL {
            let name = format!("level{}", level as u32);
            let (_, text) = ENGINES.iter().find(|(n, _)| *n == name).unwrap();
            assert!(text.ends_with(level.description()), "{name}: {text}");
        }
    }
}
