//! The simple players: uniformly random, and one-ply greedy.

use crate::distance::evaluate;
use crate::engine::{Engine, Info, Limits, Score, SearchResult};
use crate::Player;
use punct_core::{Move, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let moves = pos.legal_moves();
        (!moves.is_empty()).then(|| moves[self.rng.random_range(0..moves.len())])
    }
}

/// Plays the move with the best [`evaluate`] one ply ahead, ties broken at random.
pub struct GreedyPlayer {
    rng: StdRng,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let side = pos.side_to_move();
        let mut scratch = pos.clone();
        let mut best: Vec<Move> = Vec::new();
        let mut best_score = i32::MIN;
        for mv in pos.legal_moves() {
            let undo = scratch.make(mv);
            let score = evaluate(&scratch, side);
            scratch.unmake(undo);
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(mv);
            }
        }
        (!best.is_empty()).then(|| best[self.rng.random_range(0..best.len())])
    }
}

/// The result of an engine that does not search: one move, one node.
fn instant(best: Move) -> SearchResult {
    SearchResult {
        best,
        score: Score::Eval(0),
        depth: 1,
        nodes: 1,
        pv: vec![best],
    }
}

impl Engine for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn search(
        &mut self,
        pos: &Position,
        _: &Limits,
        _: &AtomicBool,
        _: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        instant(self.choose(pos).unwrap_or(Move::Pass))
    }
}

impl Engine for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn search(
        &mut self,
        pos: &Position,
        _: &Limits,
        _: &AtomicBool,
        _: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        instant(self.choose(pos).unwrap_or(Move::Pass))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::connection_distance;
    use crate::fixtures::WHITE_THREATENS;
    use punct_core::{Game, Side, Status, Variant};

    #[test]
    fn empty_board_distances_are_equal_and_positive() {
        let pos = Position::new(Variant::Standard);
        // Empty board: every cell of a chain costs 1.
        let d = connection_distance(&pos, Side::White);
        assert!(d > 0 && d <= 17, "{d}");
        assert_eq!(d, connection_distance(&pos, Side::Black));
    }

    #[test]
    fn adding_a_piece_shortens_the_adders_distance() {
        let mut pos = Position::new(Variant::Standard);
        let before = connection_distance(&pos, Side::White);
        pos.play("E@E5/2".parse().unwrap()).unwrap();
        assert!(connection_distance(&pos, Side::White) < before);
    }

    #[test]
    fn random_player_plays_legal_moves_to_the_end() {
        let mut p = RandomPlayer::new(7);
        let mut game = Game::new(Variant::Basic);
        for _ in 0..400 {
            let Some(mv) = p.choose(game.position()) else {
                break;
            };
            game.play(mv).unwrap();
        }
        assert!(!game.is_empty());
    }

    #[test]
    fn distance_counts_the_missing_cells_and_is_zero_when_connected() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        assert_eq!(connection_distance(&pos, Side::White), 1);
        let mut won = pos.clone();
        won.play("T@A8/5".parse().unwrap()).unwrap();
        assert!(won.is_connected(Side::White));
        assert_eq!(won.status(), Status::Won(Side::White));
        assert_eq!(connection_distance(&won, Side::White), 0);
    }

    #[test]
    fn greedy_takes_an_immediate_win() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        for seed in 0..2 {
            let mv = GreedyPlayer::new(seed).choose(&pos).unwrap();
            let mut after = pos.clone();
            after.play(mv).unwrap();
            assert_eq!(
                after.status(),
                Status::Won(Side::White),
                "seed {seed}: {mv}"
            );
        }
    }
}
