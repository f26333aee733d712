//! `uct`: plain UCT (Monte Carlo tree search with the UCB1 rule) and uniform
//! random playouts, the generic game-AI baseline.
//!
//! * **Selection**: from the root, while a node has no untried move left,
//!   go to the child with the highest `wins / visits + c·√(ln N / visits)`
//!   (N: the node's visits; c = √2, option `Exploration` = 100·c); ties are
//!   broken at random.
//! * **Expansion**, lazily: a node with untried moves (a position may have
//!   thousands) gets one new child per visit. Its moves are taken in a random
//!   order without storing it: the k-th child is move number π(k) of the
//!   legal-move list, π being a random permutation of 0…n−1 drawn per node
//!   (a keyed bijection on the next power of two, cycle-walked into range),
//!   so a node costs a few words however many moves it has.
//! * **Playout**: uniformly random legal moves until the game ends by the
//!   rules; a playout still going after [`PLAYOUT_CAP`] plies is scored as a
//!   draw. A win counts 1, a draw ½, a loss 0 for the side concerned.
//! * **Backpropagation**: every node on the path counts the visit and the
//!   result from the point of view of the side that made its move.
//! * **Node count**: one node per playout (one tree iteration). The budget is
//!   checked before every iteration and every 32 plies inside a playout (an
//!   interrupted playout is dropped), so stop and time limits are honoured
//!   within a few milliseconds. `limits.depth` bounds nothing here: a search
//!   limited by depth alone runs for the default second.
//! * **Decision**: the most visited root child (ties: the better mean, then
//!   the first expanded). Before searching, every legal move is tried once
//!   and a move that wins at once is played: with thousands of root moves,
//!   a few hundred playouts might never expand it. That is the one departure
//!   from plain UCT, and it is not counted as nodes.
//! * **Randomness** comes from one `StdRng` seeded by [`Uct::new`], so a
//!   search with a node limit is reproducible.

use crate::engine::{parse_spin, Budget, Engine, EngineOption, Info, Limits, Score, SearchResult};
use punct_core::{Move, Position, Side, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Plies after which a playout is scored as a draw.
pub const PLAYOUT_CAP: u32 = 400;
/// Default exploration constant ×100 (√2).
const DEFAULT_EXPLORATION: i64 = 141;
/// Playouts between progress reports.
const REPORT_EVERY: u64 = 1024;

/// Plain UCT with uniform random playouts: see the module docs.
pub struct Uct {
    rng: StdRng,
    exploration: f64,
}

impl Uct {
    pub fn new(seed: u64) -> Uct {
        Uct {
            rng: StdRng::seed_from_u64(seed),
            exploration: DEFAULT_EXPLORATION as f64 / 100.0,
        }
    }
}

/// A tree node: the position reached by `mv` from the parent.
struct Node {
    mv: Move,
    /// The side that played `mv`.
    mover: Side,
    children: Vec<u32>,
    visits: u32,
    /// Sum of results for `mover`.
    wins: f64,
    /// Legal moves of the node's position; `u32::MAX` before the first look.
    legal: u32,
    /// Children made so far (moves π(0)…π(expanded − 1)).
    expanded: u32,
    /// Key of the node's permutation of its moves.
    key: u64,
}

impl Node {
    fn new(mv: Move, mover: Side, key: u64) -> Node {
        Node {
            mv,
            mover,
            children: Vec::new(),
            visits: 0,
            wins: 0.0,
            legal: u32::MAX,
            expanded: 0,
            key,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f64
        }
    }
}

/// Element `i` of a permutation of 0…n−1 chosen by `key`: a bijection on
/// 0…2^bits−1 (odd multiplications, xor-shifts and additions modulo 2^bits)
/// applied until the value falls below `n` (cycle walking).
fn permute(i: u32, n: u32, key: u64) -> u32 {
    debug_assert!(i < n);
    let bits = 32 - (n - 1).leading_zeros();
    if bits == 0 {
        return 0;
    }
    let mask = (1u64 << bits) - 1;
    let shift = bits.div_ceil(2);
    let mut x = i as u64;
    loop {
        for round in 0..3 {
            let k = key.rotate_left(round * 21);
            x = x.wrapping_mul(k | 1) & mask;
            x ^= x >> shift;
            x = x.wrapping_add(k >> 32) & mask;
        }
        if x < n as u64 {
            return x as u32;
        }
    }
}

/// 1 for a win of `side`, 0 for a loss, ½ otherwise.
fn reward(status: Status, side: Side) -> f64 {
    match status {
        Status::Won(s) if s == side => 1.0,
        Status::Won(_) => 0.0,
        _ => 0.5,
    }
}

impl Uct {
    /// Child of `node` with the best UCB1 value, ties at random.
    fn select(&mut self, tree: &[Node], node: usize, ties: &mut Vec<u32>) -> usize {
        let parent = &tree[node];
        let log_n = (parent.visits.max(1) as f64).ln();
        let mut best = f64::NEG_INFINITY;
        ties.clear();
        for &c in &parent.children {
            let ch = &tree[c as usize];
            let n = ch.visits.max(1) as f64;
            let u = ch.wins / n + self.exploration * (log_n / n).sqrt();
            if u > best {
                best = u;
                ties.clear();
            }
            if u == best {
                ties.push(c);
            }
        }
        ties[self.rng.random_range(0..ties.len())] as usize
    }

    /// Random moves to the end (or the cap). `None` if the budget ran out.
    fn playout(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<Move>,
        budget: &Budget,
        nodes: u64,
    ) -> Option<Status> {
        let mut plies = 0;
        while !pos.status().is_over() {
            if plies >= PLAYOUT_CAP {
                return Some(Status::Draw);
            }
            if plies % 32 == 31 && budget.exhausted(nodes) {
                return None;
            }
            pos.legal_moves_into(moves);
            let m = moves[self.rng.random_range(0..moves.len())];
            pos.make(m);
            plies += 1;
        }
        Some(pos.status())
    }

    /// One selection–expansion–playout–backup pass. Returns the depth of the
    /// new leaf, or `None` if the budget ran out (nothing is updated).
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        tree: &mut Vec<Node>,
        root: &Position,
        moves: &mut Vec<Move>,
        path: &mut Vec<u32>,
        ties: &mut Vec<u32>,
        budget: &Budget,
        nodes: u64,
    ) -> Option<u32> {
        let mut pos = root.clone();
        let mut node = 0usize;
        path.clear();
        path.push(0);
        while !pos.status().is_over() {
            let n = &tree[node];
            if n.legal == u32::MAX || n.expanded < n.legal {
                pos.legal_moves_into(moves);
                let legal = moves.len() as u32;
                let (expanded, key) = (tree[node].expanded, tree[node].key);
                tree[node].legal = legal;
                if expanded < legal {
                    let mv = moves[permute(expanded, legal, key) as usize];
                    let mover = pos.side_to_move();
                    pos.make(mv);
                    let child = tree.len() as u32;
                    tree.push(Node::new(mv, mover, self.rng.random()));
                    tree[node].expanded += 1;
                    tree[node].children.push(child);
                    path.push(child);
                    break;
                }
            }
            node = self.select(tree, node, ties);
            pos.make(tree[node].mv);
            path.push(node as u32);
        }
        let status = self.playout(&mut pos, moves, budget, nodes);
        let Some(status) = status else {
            // Drop the half-made child so the tree stays consistent.
            if let Some(&last) = path.last() {
                if last as usize == tree.len() - 1 && tree[last as usize].visits == 0 && last != 0 {
                    let parent = path[path.len() - 2] as usize;
                    tree[parent].children.pop();
                    tree[parent].expanded -= 1;
                    tree.pop();
                }
            }
            return None;
        };
        for &i in path.iter() {
            let n = &mut tree[i as usize];
            n.visits += 1;
            n.wins += reward(status, n.mover);
        }
        Some(path.len() as u32 - 1)
    }

    /// The most visited child of `node` (ties: better mean, then first).
    fn best_child(tree: &[Node], node: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        for &c in &tree[node].children {
            let c = c as usize;
            best = match best {
                Some(b) if (tree[b].visits, tree[b].mean()) >= (tree[c].visits, tree[c].mean()) => {
                    Some(b)
                }
                _ => Some(c),
            };
        }
        best
    }

    fn report(tree: &[Node], nodes: u64, depth: u32, budget: &Budget) -> Info {
        let mut pv = Vec::new();
        let mut at = 0;
        while let Some(c) = Uct::best_child(tree, at) {
            pv.push(tree[c].mv);
            at = c;
        }
        let q = Uct::best_child(tree, 0).map_or(0.5, |c| tree[c].mean());
        Info {
            multipv: 1,
            depth,
            score: Score::Eval(((q - 0.5) * 1000.0).round() as i32),
            nodes,
            elapsed: budget.elapsed(),
            pv,
        }
    }
}

impl Engine for Uct {
    fn name(&self) -> String {
        "uct".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![EngineOption::spin(
            "Exploration",
            DEFAULT_EXPLORATION,
            0,
            1000,
        )]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("Exploration") {
            self.exploration = parse_spin(name, value, 0, 1000)? as f64 / 100.0;
            Ok(())
        } else {
            Err(format!("unknown option `{name}`"))
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        // Depth limits nothing here: without another limit, use the default.
        let mut limits = limits.clone();
        if limits.depth.is_some()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && limits.nodes.is_none()
            && !limits.infinite
        {
            limits.movetime = Some(Duration::from_secs(1));
        }
        let budget = Budget::new(pos, &limits, stop);
        let side = pos.side_to_move();
        let legal = pos.legal_moves();
        let done = |best: Move, score: Score, depth: u32, nodes: u64, pv: Vec<Move>| SearchResult {
            best,
            score,
            depth,
            nodes,
            pv,
        };
        if legal.len() <= 1 {
            let best = legal.first().copied().unwrap_or(Move::Pass);
            info(&Info {
                multipv: 1,
                depth: 0,
                score: Score::Eval(0),
                nodes: 0,
                elapsed: budget.elapsed(),
                pv: vec![best],
            });
            return done(best, Score::Eval(0), 0, 0, vec![best]);
        }
        // A move that wins at once is played at once.
        let mut work = pos.clone();
        for (i, &m) in legal.iter().enumerate() {
            if i % 256 == 0 && budget.exhausted(0) {
                break;
            }
            let undo = work.make(m);
            let won = work.status() == Status::Won(side);
            work.unmake(undo);
            if won {
                info(&Info {
                    multipv: 1,
                    depth: 1,
                    score: Score::Win(1),
                    nodes: 0,
                    elapsed: budget.elapsed(),
                    pv: vec![m],
                });
                return done(m, Score::Win(1), 1, 0, vec![m]);
            }
        }
        let mut tree = vec![Node::new(Move::Pass, side.opponent(), self.rng.random())];
        let (mut moves, mut path, mut ties) = (Vec::new(), Vec::new(), Vec::new());
        let (mut nodes, mut depth) = (0u64, 0u32);
        while !budget.exhausted(nodes) {
            match self.iterate(
                &mut tree, pos, &mut moves, &mut path, &mut ties, &budget, nodes,
            ) {
                Some(d) => {
                    nodes += 1;
                    depth = depth.max(d);
                    if nodes % REPORT_EVERY == 0 {
                        info(&Uct::report(&tree, nodes, depth, &budget));
                    }
                }
                None => break,
            }
        }
        let last = Uct::report(&tree, nodes, depth, &budget);
        info(&last);
        match Uct::best_child(&tree, 0) {
            Some(c) => done(tree[c].mv, last.score, depth, nodes, last.pv),
            None => {
                let best = legal[self.rng.random_range(0..legal.len())];
                done(best, Score::Eval(0), 0, nodes, vec![best])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{random_position, WHITE_THREATENS};
    use punct_core::Variant;
    use std::time::Instant;

    fn run(engine: &mut Uct, pos: &Position, limits: Limits) -> SearchResult {
        let stop = AtomicBool::new(false);
        let mut infos = 0;
        let r = engine.search(pos, &limits, &stop, &mut |_| infos += 1);
        assert!(infos >= 1, "no info reported");
        r
    }

    #[test]
    fn permutations_are_permutations() {
        for n in [1u32, 2, 3, 5, 64, 100, 1000, 4097] {
            for key in [0u64, 1, 0xDEAD_BEEF_1234_5678, u64::MAX] {
                let mut seen = vec![false; n as usize];
                for i in 0..n {
                    let p = permute(i, n, key) as usize;
                    assert!(!seen[p], "n {n} key {key}: {p} twice");
                    seen[p] = true;
                }
            }
        }
    }

    #[test]
    fn plays_legal_moves_in_random_positions() {
        for (i, plies) in [0usize, 3, 20, 45].into_iter().enumerate() {
            let variant = if i % 2 == 0 {
                Variant::Standard
            } else {
                Variant::Basic
            };
            let pos = random_position(variant, 200 + i as u64, plies);
            let r = run(&mut Uct::new(i as u64), &pos, Limits::nodes(30));
            assert!(
                pos.is_legal(r.best),
                "{}: {}",
                pos.to_position_string(),
                r.best
            );
            assert_eq!(r.nodes, 30);
        }
    }

    #[test]
    fn same_seed_and_node_limit_give_the_same_move() {
        let pos = random_position(Variant::Standard, 11, 16);
        let a = run(&mut Uct::new(5), &pos, Limits::nodes(40));
        let b = run(&mut Uct::new(5), &pos, Limits::nodes(40));
        assert_eq!((a.best, a.nodes, a.pv), (b.best, b.nodes, b.pv));
    }

    #[test]
    fn node_limit_is_respected() {
        let pos = random_position(Variant::Basic, 12, 25);
        for limit in [1u64, 17] {
            let r = run(&mut Uct::new(1), &pos, Limits::nodes(limit));
            assert!(r.nodes <= limit, "{} > {limit}", r.nodes);
            assert!(pos.is_legal(r.best));
        }
    }

    #[test]
    fn stop_before_the_search_returns_at_once_with_a_legal_move() {
        let pos = random_position(Variant::Standard, 13, 30);
        let stop = AtomicBool::new(true);
        let start = Instant::now();
        let r = Uct::new(0).search(&pos, &Limits::default(), &stop, &mut |_| {});
        assert!(start.elapsed() < Duration::from_millis(200));
        assert!(pos.is_legal(r.best));
        assert_eq!(r.nodes, 0);
    }

    #[test]
    fn a_time_limit_ends_the_search() {
        let pos = random_position(Variant::Standard, 14, 10);
        let start = Instant::now();
        let r = run(&mut Uct::new(0), &pos, Limits::movetime(100));
        assert!(start.elapsed() < Duration::from_millis(400));
        assert!(pos.is_legal(r.best));
    }

    #[test]
    fn takes_an_immediate_win() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        let r = run(&mut Uct::new(0), &pos, Limits::movetime(200));
        let mut after = pos.clone();
        after.play(r.best).unwrap();
        assert_eq!(after.status(), Status::Won(Side::White), "{}", r.best);
    }

    #[test]
    fn exploration_is_an_option() {
        let mut e = Uct::new(0);
        assert!(e.set_option("exploration", "70").is_ok());
        assert_eq!(e.exploration, 0.7);
        assert!(e.set_option("Exploration", "-1").is_err());
        assert!(e.set_option("Depth", "1").is_err());
        assert_eq!(e.options()[0].default, "141");
    }

    /// Speed on a mid-game position: `cargo test --release -p punct-engine
    /// uct::tests::speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn speed() {
        let pos = random_position(Variant::Standard, 77, 30);
        let n = std::env::var("NODES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(2000);
        let mut last = None;
        let stop = AtomicBool::new(false);
        let r = Uct::new(0).search(&pos, &Limits::nodes(n), &stop, &mut |i| {
            last = Some(i.clone())
        });
        let i = last.unwrap();
        println!(
            "{}\nbest {} depth {} nodes {} in {:?}: {} nodes/s",
            pos.to_position_string(),
            r.best,
            i.depth,
            i.nodes,
            i.elapsed,
            i.nps()
        );
    }
}
