//! PÜNCT players: things that choose a move in a position.
//!
//! For now the simple opponents used by `punct play`: [`RandomPlayer`] and the
//! one-ply [`GreedyPlayer`]. The real search comes later and lives here too;
//! this crate depends on `punct-core` only.

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

    #[test]
    fn greedy_takes_an_immediate_win() {
        // Random games that end in a connection: the position before the last
        // move has a winning move, and greedy must find one.
        let mut checked = 0;
        for seed in 0..40 {
            let mut random = RandomPlayer::new(seed);
            let mut game = Game::new(Variant::Standard);
            while let Some(mv) = random.choose(game.position()) {
                game.play(mv).unwrap();
            }
            let Status::Won(winner) = game.position().status() else {
                continue;
            };
            let last = game.undo().unwrap();
            if game.position().side_to_move() != winner {
                continue; // the loser completed the winner's chain
            }
            let mut greedy = GreedyPlayer::new(seed);
            let mv = greedy.choose(game.position()).unwrap();
            let mut after = game.position().clone();
            after.play(mv).unwrap();
            assert_eq!(
                after.status(),
                Status::Won(winner),
                "seed {seed}: {mv} instead of {last}"
            );
            assert_eq!(connection_distance(&after, winner), 0);
            assert!(connection_distance(game.position(), winner) > 0);
            checked += 1;
            if checked == 3 {
                break;
            }
        }
        assert!(checked > 0, "no random game ended in a win");
    }
}
