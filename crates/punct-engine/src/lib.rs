//! PÜNCT players: things that choose a move in a position.
//!
//! For now the simple opponents used by `punct play`: [`RandomPlayer`] and the
//! one-ply [`GreedyPlayer`]. The real search comes later and lives here too;
//! this crate depends on `punct-core` only.
//!
//! ```
//! use punct_core::{Position, Variant};
//! use punct_engine::{Player, RandomPlayer};
//! let pos = Position::new(Variant::Standard);
//! let mv = RandomPlayer::new(1).choose(&pos).unwrap();
//! assert!(pos.is_legal(mv));
//! ```

use punct_core::{Bitboard, Cell, Edge, Move, Position, Side, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Something that picks moves.
pub trait Player {
    /// A short name for records and messages.
    fn name(&self) -> String;
    /// A legal move, or `None` when the game is over.
    fn choose(&mut self, pos: &Position) -> Option<Move>;
}

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

/// Cost of the cheapest chain joining an opposite pair of sides for `side`,
/// counting 0 for a cell showing `side`'s colour, 1 for an empty cell and 2
/// for a cell showing the opponent (it must be covered first). 0 means
/// connected. A 0-1-2 shortest path, run as a Dijkstra on small integer
/// costs with one bucket per distance.
pub fn connection_distance(pos: &Position, side: Side) -> u32 {
    let own = pos.visible(side);
    let theirs = pos.visible(side.opponent());
    let cost = |c: Cell| -> u32 {
        if own.contains(c) {
            0
        } else if theirs.contains(c) {
            2
        } else {
            1
        }
    };
    let mut best = u32::MAX;
    for (a, b) in Edge::PAIRS {
        let target = Bitboard::edge(b);
        let mut dist = [u32::MAX; 320];
        let mut buckets: Vec<Vec<Cell>> = vec![Vec::new(); 64];
        for c in Bitboard::edge(a).cells() {
            let d = cost(c);
            dist[c.index()] = d;
            buckets[d as usize].push(c);
        }
        let mut d = 0;
        'search: while d < buckets.len() && (d as u32) < best {
            while let Some(c) = buckets[d].pop() {
                if dist[c.index()] != d as u32 {
                    continue;
                }
                if target.contains(c) {
                    best = best.min(d as u32);
                    break 'search;
                }
                for n in Bitboard::single(c).grown().cells() {
                    let nd = d as u32 + cost(n);
                    if nd < dist[n.index()] && (nd as usize) < buckets.len() {
                        dist[n.index()] = nd;
                        buckets[nd as usize].push(n);
                    }
                }
            }
            d += 1;
        }
    }
    best
}

/// A one-number judgement of a position for `side`: connection race plus a
/// little central presence (the standard game's tie-break).
pub fn evaluate(pos: &Position, side: Side) -> i32 {
    match pos.status() {
        Status::Won(s) if s == side => return 10_000,
        Status::Won(_) => return -10_000,
        Status::Draw => return 0,
        Status::Ongoing => {}
    }
    let mine = connection_distance(pos, side) as i32;
    let theirs = connection_distance(pos, side.opponent()) as i32;
    let centre = pos.central_count(side) as i32 - pos.central_count(side.opponent()) as i32;
    10 * (theirs - mine) + centre
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

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{Game, Variant};

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

    /// White's chain B9…P9–Q10 lacks only a dot on the A side (A8 touches B9).
    const WHITE_THREATENS: &str = "basic:w:0:wE@B9/5,wE@E9/5,wE@H9/5,wE@K9/5,wC@O9/2,\
        wT@Q10/2,bT@C3/0,bT@E3/0,bT@G3/0,bT@F12/0,bT@H14/0,bT@J15/0";

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
