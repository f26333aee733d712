//! The PÜNCT AI: tactics first, then an alpha-beta search over a pruned set
//! of candidate moves, with iterative deepening and a transposition table.
//!
//! PÜNCT has thousands of legal moves, so full-width search is hopeless.
//! Every node keeps only its most promising moves, ranked by where they put
//! dots relative to both sides' near-shortest chains (see [`crate::paths`]);
//! leaves are judged by [`evaluate_with`]: the connection race (cheapest chain of
//! each side, with a finer sum over all three pairs) and, in the standard
//! game, central presence as the reserves run out.

mod eval;
mod order;
mod search;

use crate::search::{parse_spin, Budget, Engine, EngineOption, Info, Limits, SearchResult};
use crate::tactics::{safe_moves, winning_moves};
use eval::MATE_BAND;
pub use eval::{evaluate_with, Weights};
use eval::{to_score, WIN};
use order::one_ply;
use punct_core::{Move, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use search::{principal_variation, Entry, Search, Shape};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Most search threads the `Threads` option allows.
const MAX_THREADS: usize = 16;

/// The AI's playing levels, weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    Beginner = 1,
    Casual = 2,
    Club = 3,
    Strongest = 4,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Beginner,
        Level::Casual,
        Level::Club,
        Level::Strongest,
    ];

    /// What the level does differently, in one line.
    pub const fn description(self) -> &'static str {
        match self {
            Level::Beginner => "looks one move ahead and picks among its five favourites; misses threats",
            Level::Casual => "looks one move ahead, always takes a win and blocks an immediate threat",
            Level::Club => "searches two plies over its 16 most promising moves, with tactics",
            Level::Strongest => {
                "deepening alpha-beta over pruned candidates with a transposition table, using all its time"
            }
        }
    }

    pub fn from_number(n: u32) -> Option<Level> {
        Level::ALL.get((n as usize).wrapping_sub(1)).copied()
    }
}
/// The PÜNCT AI at one of its [`Level`]s.
pub struct Ai {
    level: Level,
    rng: StdRng,
    seed: u64,
    /// One transposition table per search thread.
    tts: Vec<HashMap<u64, Entry>>,
    threads: usize,
    weights: Weights,
}

impl Ai {
    pub fn new(level: Level, seed: u64) -> Ai {
        Ai {
            level,
            rng: StdRng::seed_from_u64(seed),
            seed,
            tts: vec![HashMap::new()],
            threads: 1,
            weights: Weights::default(),
        }
    }

    fn eval_name(&self) -> &'static str {
        if self.weights == Weights::tuned() {
            "tuned"
        } else {
            "hand"
        }
    }

    /// Every legal move with its one-ply evaluation for the mover, best first.
    fn one_ply(&self, pos: &Position) -> Vec<(i32, Move)> {
        one_ply(pos, pos.legal_moves(), &self.weights)
    }

    fn result(best: Move, score: i32, depth: u32, nodes: u64, pv: Vec<Move>) -> SearchResult {
        SearchResult {
            best,
            score: to_score(score),
            depth,
            nodes,
            pv,
        }
    }

    fn search_deep(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
        shape: Shape,
    ) -> SearchResult {
        let Shape {
            max_depth,
            root_width,
            inner_width,
        } = shape;
        let budget = Budget::new(pos, limits, stop);
        // Root candidates: every move judged one ply deep, and of those the
        // best that leave the opponent no immediate win.
        let ranked = self.one_ply(pos);
        let in_order: Vec<Move> = ranked.iter().map(|&(_, m)| m).collect();
        let mut roots = safe_moves(pos, &in_order, root_width, &mut |found| {
            budget.give_up_safety(found)
        });
        if roots.is_empty() {
            // Every move allows a win: play on with the best-looking ones.
            roots = ranked.iter().map(|&(_, m)| m).take(root_width).collect();
        }
        let mut best = (roots[0], evaluate_with(pos, &self.weights), 0u32);
        let max_depth = limits.depth.unwrap_or(max_depth).clamp(1, max_depth.max(1));
        // One search (and one transposition table) per thread; the root
        // moves are dealt out among them, the best answer wins.
        let threads = self.threads.clamp(1, roots.len());
        self.tts.resize_with(threads, HashMap::new);
        let mut searches: Vec<Search> = self
            .tts
            .iter_mut()
            .take(threads)
            .enumerate()
            .map(|(i, tt)| Search {
                // The clock started before the root moves were ranked.
                budget: budget.clone(),
                nodes: if i == 0 { ranked.len() as u64 } else { 0 },
                aborted: false,
                next_check: 0,
                tt,
                inner_width,
                weights: &self.weights,
            })
            .collect();
        let started = std::time::Instant::now();
        for depth in 1..=max_depth {
            let shares: Vec<Vec<Move>> = (0..threads)
                .map(|t| roots.iter().copied().skip(t).step_by(threads).collect())
                .collect();
            let answers: Vec<Option<(Move, i32)>> = if threads == 1 {
                vec![searches[0].roots(pos, &shares[0], depth)]
            } else {
                std::thread::scope(|scope| {
                    let handles: Vec<_> = searches
                        .iter_mut()
                        .zip(&shares)
                        .map(|(search, share)| scope.spawn(move || search.roots(pos, share, depth)))
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("search thread"))
                        .collect()
                })
            };
            let iteration_best = answers.into_iter().flatten().max_by_key(|&(_, v)| v);
            let nodes: u64 = searches.iter().map(|s| s.nodes).sum();
            if searches.iter().any(|s| s.aborted) {
                // A partial iteration counts only if its best beats the last full one.
                if let Some((mv, v)) = iteration_best {
                    if v > best.1 && mv != best.0 {
                        best = (mv, v, depth);
                    }
                }
                break;
            }
            if let Some((mv, v)) = iteration_best {
                best = (mv, v, depth);
                // Search the best move first next time.
                roots.retain(|&m| m != mv);
                roots.insert(0, mv);
            }
            let pv = principal_variation(searches[0].tt, pos, best.0, depth);
            info(&Info {
                multipv: 1,
                depth,
                score: to_score(best.1),
                nodes,
                elapsed: started.elapsed(),
                pv,
            });
            if best.1.abs() >= WIN - MATE_BAND || searches[0].budget.exhausted(nodes) {
                break;
            }
        }
        let nodes = searches.iter().map(|s| s.nodes).sum();
        drop(searches);
        let pv = principal_variation(&self.tts[0], pos, best.0, best.2.max(1));
        Self::result(best.0, best.1, best.2, nodes, pv)
    }
}

impl Engine for Ai {
    fn name(&self) -> String {
        format!("punct level {}", self.level as u32)
    }

    fn new_game(&mut self) {
        self.tts.iter_mut().for_each(HashMap::clear);
        self.rng = StdRng::seed_from_u64(self.seed);
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption::spin("Level", self.level as i64, 1, 4),
            EngineOption::spin("Threads", self.threads as i64, 1, MAX_THREADS as i64),
            EngineOption::string("Eval", self.eval_name()),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("Level") {
            let v = parse_spin(name, value, 1, 4)?;
            self.level = Level::from_number(v as u32).expect("checked range");
            self.tts.iter_mut().for_each(HashMap::clear);
            Ok(())
        } else if name.eq_ignore_ascii_case("Threads") {
            self.threads = parse_spin(name, value, 1, MAX_THREADS as i64)? as usize;
            Ok(())
        } else if name.eq_ignore_ascii_case("Eval") {
            self.weights = match value.to_ascii_lowercase().as_str() {
                "tuned" => Weights::tuned(),
                "hand" => Weights::hand(),
                _ => return Err(format!("Eval: `{value}` is not `tuned` or `hand`")),
            };
            self.tts.iter_mut().for_each(HashMap::clear);
            Ok(())
        } else {
            Err(format!(
                "unknown option `{name}`: this engine has Level, Threads and Eval"
            ))
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = std::time::Instant::now();
        let moves = pos.legal_moves();
        if moves.len() <= 1 {
            let best = moves.first().copied().unwrap_or(Move::Pass);
            return Self::result(best, 0, 0, 1, vec![best]);
        }
        if self.level != Level::Beginner {
            if let Some(&win) = winning_moves(pos).first() {
                let r = Self::result(win, WIN - 1, 1, 1, vec![win]);
                info(&Info {
                    multipv: 1,
                    depth: 1,
                    score: r.score,
                    nodes: 1,
                    elapsed: start.elapsed(),
                    pv: r.pv.clone(),
                });
                return r;
            }
        }
        let r = match self.level {
            Level::Beginner => {
                let scored = self.one_ply(pos);
                let pick = self.rng.random_range(0..scored.len().min(5));
                let (v, mv) = scored[pick];
                Self::result(mv, v, 1, scored.len() as u64, vec![mv])
            }
            Level::Casual => {
                let budget = Budget::new(pos, limits, stop);
                let scored = self.one_ply(pos);
                let in_order: Vec<Move> = scored.iter().map(|&(_, m)| m).collect();
                let give_up = &mut |found| budget.give_up_safety(found);
                let (v, mv) = match safe_moves(pos, &in_order, 1, give_up).first() {
                    Some(&m) => *scored.iter().find(|&&(_, x)| x == m).expect("ranked"),
                    None => scored[0],
                };
                Self::result(mv, v, 1, scored.len() as u64, vec![mv])
            }
            Level::Club => self.search_deep(pos, limits, stop, info, Shape::CLUB),
            Level::Strongest => self.search_deep(pos, limits, stop, info, Shape::STRONGEST),
        };
        if matches!(self.level, Level::Beginner | Level::Casual) {
            info(&Info {
                multipv: 1,
                depth: r.depth,
                score: r.score,
                nodes: r.nodes,
                elapsed: start.elapsed(),
                pv: r.pv.clone(),
            });
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::order::candidates;
    use super::*;
    use crate::fixtures::WHITE_THREATENS;
    use crate::paths::distance_and_spread;
    use crate::search::Score;
    use crate::tactics::has_winning_move;
    use crate::{Player, RandomPlayer};
    use punct_core::{Status, Variant};

    fn run(level: Level, pos: &Position, limits: Limits) -> SearchResult {
        let stop = AtomicBool::new(false);
        Ai::new(level, 3).search(pos, &limits, &stop, &mut |_| {})
    }

    fn midgame(seed: u64, plies: usize) -> Position {
        let mut r = RandomPlayer::new(seed);
        let mut pos = Position::new(Variant::Standard);
        for _ in 0..plies {
            match r.choose(&pos) {
                Some(m) => {
                    pos.make(m);
                }
                None => break,
            }
        }
        pos
    }

    #[test]
    fn every_level_plays_legal_moves() {
        for level in Level::ALL {
            for seed in 0..2 {
                let pos = midgame(seed, 12 + seed as usize);
                let r = run(level, &pos, Limits::nodes(300));
                assert!(pos.is_legal(r.best), "{level:?}: {}", r.best);
            }
        }
    }

    #[test]
    fn levels_two_and_up_take_an_immediate_win() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        for level in [Level::Casual, Level::Club, Level::Strongest] {
            let r = run(level, &pos, Limits::nodes(500));
            let mut after = pos.clone();
            after.make(r.best);
            assert_eq!(
                after.status(),
                Status::Won(punct_core::Side::White),
                "{level:?}"
            );
            assert_eq!(r.score, Score::Win(1));
        }
    }

    #[test]
    fn levels_two_and_up_block_an_immediate_threat() {
        let pos = crate::fixtures::black_must_block();
        for level in [Level::Casual, Level::Club, Level::Strongest] {
            let r = run(level, &pos, Limits::nodes(2_000));
            let mut after = pos.clone();
            after.make(r.best);
            assert!(
                !has_winning_move(&after),
                "{level:?} played {} and allows a win",
                r.best
            );
        }
    }

    #[test]
    fn inner_candidates_include_the_move_that_shortens_the_chain_most() {
        // From a lost match game: White's E@H12/4 took its chain from 6 to
        // 3, and a search that never considered it misjudged the race.
        let moves = "R@D2/0 R@D6/5 E@E7/0 C@B8/0 R@G11/3 L@E8/5 E@K17/0 C@F5/0";
        let mut pos = Position::new(Variant::Standard);
        for m in moves.split(' ') {
            pos.play(m.parse().unwrap()).unwrap();
        }
        let side = pos.side_to_move();
        let distance_after = |mv: Move| {
            let mut p = pos.clone();
            p.make(mv);
            distance_and_spread(&p, side).0
        };
        let best = pos
            .legal_moves()
            .into_iter()
            .map(distance_after)
            .min()
            .unwrap();
        assert_eq!(best, 3);
        let (kept, _) = candidates(&pos, Shape::STRONGEST.inner_width, None, &Weights::hand());
        assert!(
            kept.iter().any(|&m| distance_after(m) == best),
            "no candidate reaches distance {best}: {kept:?}"
        );
    }

    #[test]
    fn a_node_limited_search_is_reproducible() {
        // Nodes are positions evaluated; the root's one-ply ranking of every
        // move always completes, then the limit is checked every 64 nodes.
        let pos = midgame(5, 20);
        let a = run(Level::Strongest, &pos, Limits::nodes(12_000));
        let b = run(Level::Strongest, &pos, Limits::nodes(12_000));
        assert_eq!((a.best, a.nodes, a.depth), (b.best, b.nodes, b.depth));
        assert!(a.nodes <= 12_000 + 200, "{}", a.nodes);
        assert!(a.depth >= 2, "{}", a.depth);
    }

    #[test]
    fn a_stopped_search_still_returns_a_legal_move() {
        let pos = midgame(9, 16);
        let stop = AtomicBool::new(true);
        let r = Ai::new(Level::Strongest, 1).search(&pos, &Limits::default(), &stop, &mut |_| {});
        assert!(pos.is_legal(r.best));
    }

    #[test]
    fn two_threads_search_the_root_moves_between_them() {
        let pos = midgame(11, 18);
        let mut ai = Ai::new(Level::Strongest, 3);
        ai.set_option("Threads", "2").unwrap();
        let stop = AtomicBool::new(false);
        let mut depths = Vec::new();
        let r = ai.search(&pos, &Limits::depth(2), &stop, &mut |i| {
            depths.push(i.depth)
        });
        assert!(pos.is_legal(r.best));
        assert_eq!(depths, [1, 2]);
        assert_eq!(ai.tts.len(), 2);
        assert!(
            ai.tts.iter().all(|tt| !tt.is_empty()),
            "both threads searched"
        );
        assert!(ai.set_option("Threads", "0").is_err());
        // The same depth with one thread finds a move of the same worth.
        let one = run(Level::Strongest, &pos, Limits::depth(2));
        assert_eq!(one.score, r.score);
    }

    #[test]
    fn the_level_option_is_range_checked() {
        let mut ai = Ai::new(Level::Club, 0);
        assert!(ai.set_option("Level", "4").is_ok());
        assert_eq!(ai.name(), "punct level 4");
        assert!(ai.set_option("Level", "5").is_err());
        assert!(ai.set_option("Hash", "1").is_err());
    }
}
