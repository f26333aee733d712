//! The PÜNCT AI: tactics first, then an alpha-beta search over a pruned set
//! of candidate moves, with iterative deepening and a transposition table.
//!
//! PÜNCT has thousands of legal moves, so full-width search is hopeless.
//! Every node keeps only its most promising moves, ranked by where they put
//! dots relative to both sides' near-shortest chains (see [`crate::paths`]);
//! leaves are judged by [`evaluate`]: the connection race (cheapest chain of
//! each side, with a finer sum over all three pairs) and, in the standard
//! game, central presence as the reserves run out.

use crate::paths::{corridor, distance_and_spread, ChainMaps, Corridor, Costs};
use crate::search::{parse_spin, Budget, Engine, EngineOption, Info, Limits, Score, SearchResult};
use crate::tactics::{has_winning_move, safe_moves, winning_moves};
use punct_core::{footprint, Bitboard, Cell, Move, Position, Status, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// A won position's score; a win in `n` plies scores `WIN - n`.
const WIN: i32 = 1_000_000;
const MATE_BAND: i32 = 10_000;
/// Most search threads the `Threads` option allows.
const MAX_THREADS: usize = 16;
/// The worth of having the move, in evaluation units.
const TEMPO: i32 = 150;

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

/// Evaluation of `pos` for the side to move, in centi-cells.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    match pos.status() {
        Status::Won(s) if s == me => return WIN,
        Status::Won(_) => return -WIN,
        Status::Draw => return 0,
        Status::Ongoing => {}
    }
    evaluate_ongoing(pos, distance_and_spread(pos, me))
}

/// [`evaluate`] of an unfinished game, given the side to move's
/// `distance_and_spread` (a leaf has it already).
fn evaluate_ongoing(pos: &Position, (dm, sm): (u32, u32)) -> i32 {
    let me = pos.side_to_move();
    let (dt, st) = distance_and_spread(pos, me.opponent());
    // The side to move is about half a move ahead of the bare distances.
    let mut score = TEMPO + 100 * (dt as i32 - dm as i32) + 10 * (st as i32 - sm as i32);
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

fn to_score(v: i32) -> Score {
    if v >= WIN - MATE_BAND {
        Score::Win((WIN - v) as u32)
    } else if v <= -WIN + MATE_BAND {
        Score::Loss((WIN + v) as u32)
    } else {
        Score::Eval(v)
    }
}

#[derive(Copy, Clone)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone)]
struct Entry {
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<Move>,
}

/// Ranks every legal move by what it does to both sides' chains, best
/// first, keeping the `width` best (all when `width` is 0); `first` goes
/// first.
///
/// A move's worth is how much it shortens our chains (exact for additions,
/// from the distance maps) plus where its dots land: on the opponent's
/// near-shortest chains (blocking), more where they cover an opponent dot,
/// a little next to our own dots.
fn ranked_moves(pos: &Position, width: usize, first: Option<Move>) -> Vec<Move> {
    let moves = pos.legal_moves();
    let me = pos.side_to_move();
    let maps = ChainMaps::new(pos, me, Costs::CoverOpponent);
    let before = maps.pair_distances();
    let best_before = maps.distance();
    let mine: Corridor = maps.corridor(pos, |best| best + 1);
    let theirs: Corridor = corridor(pos, me.opponent(), Costs::CoverOpponent, 1);
    let their_dots = pos.visible(me.opponent());
    let mut weight = [0i32; 320];
    let mut add = |set: Bitboard, w: i32| {
        for c in set.cells() {
            weight[c.index()] += w;
        }
    };
    add(mine.cells, 5);
    add(theirs.cells, 30);
    add(theirs.cells & their_dots, 20);
    add(pos.visible(me).grown(), 2);
    let progress = |cells: &[Cell; 3]| -> i32 {
        let after = maps.with_piece(cells);
        let best_after = after.iter().copied().min().unwrap_or(best_before);
        let sum: u32 = before.iter().zip(after).map(|(b, a)| b - a).sum();
        100 * (best_before - best_after) as i32 + 20 * sum as i32
    };
    let placed = |cells: [Cell; 3]| -> i32 {
        progress(&cells) + cells.iter().map(|c| weight[c.index()]).sum::<i32>()
    };
    let mut scored: Vec<(i32, Move)> = moves
        .into_iter()
        .map(|mv| {
            let s = match mv {
                _ if Some(mv) == first => i32::MAX,
                Move::Add {
                    kind,
                    punct,
                    rotation,
                } => footprint(kind, punct, rotation).map_or(0, placed),
                Move::Relocate { from, to, rotation } => match pos.top_piece(from) {
                    Some(p) => {
                        let to_cells = footprint(p.kind, to, rotation);
                        // Lifting uncovers what is below: our chain cells a
                        // piece leaves may stop showing our colour.
                        let left: i32 = p
                            .cells
                            .iter()
                            .filter(|c| to_cells.is_none_or(|t| !t.contains(c)))
                            .filter(|c| mine.chain.contains(**c))
                            .count() as i32
                            * -25;
                        to_cells.map_or(0, placed) + left
                    }
                    None => 0,
                },
                Move::Pass => 0,
            };
            (s, mv)
        })
        .collect();
    if scored.len() > width && width > 0 {
        scored.select_nth_unstable_by(width - 1, |a, b| b.0.cmp(&a.0));
        scored.truncate(width);
    }
    // Stable order among equals keeps the search deterministic.
    scored.sort_by_key(|b| std::cmp::Reverse(b.0));
    scored.into_iter().map(|(_, m)| m).collect()
}

/// `moves` with their one-ply evaluations for the mover, best first (stable).
fn one_ply(pos: &Position, moves: Vec<Move>) -> Vec<(i32, Move)> {
    let mut scratch = pos.clone();
    let mut scored: Vec<(i32, Move)> = moves
        .into_iter()
        .map(|mv| {
            let undo = scratch.make(mv);
            let v = -evaluate(&scratch);
            scratch.unmake(undo);
            (v, mv)
        })
        .collect();
    scored.sort_by_key(|b| std::cmp::Reverse(b.0));
    scored
}

/// An inner node's candidates: the static ranking's best `3 × width`,
/// re-ranked by their one-ply evaluation, `width` kept; `first` leads.
/// Also returns how many positions were evaluated for it.
fn candidates(pos: &Position, width: usize, first: Option<Move>) -> (Vec<Move>, u64) {
    let shortlist = ranked_moves(pos, 3 * width, None);
    let evaluated = shortlist.len() as u64;
    let mut out: Vec<Move> = first.into_iter().collect();
    for (_, mv) in one_ply(pos, shortlist) {
        if out.len() == width {
            break;
        }
        if Some(mv) != first {
            out.push(mv);
        }
    }
    (out, evaluated)
}

struct Search<'a> {
    budget: Budget<'a>,
    nodes: u64,
    aborted: bool,
    next_check: u64,
    tt: &'a mut HashMap<u64, Entry>,
    inner_width: usize,
}

impl Search<'_> {
    /// Searches `roots` to `depth`; the best of them and its score, or
    /// `None` when aborted before any finished.
    fn roots(&mut self, pos: &Position, roots: &[Move], depth: u32) -> Option<(Move, i32)> {
        let mut scratch = pos.clone();
        let mut alpha = -WIN - 1;
        let mut best = None;
        self.aborted = false;
        for &mv in roots {
            let undo = scratch.make(mv);
            let v = -self.negamax(&mut scratch, depth - 1, 1, -WIN - 1, -alpha);
            scratch.unmake(undo);
            if self.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                best = Some((mv, v));
            }
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        // Nodes grow in steps (ordering evaluates many): check by threshold.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 64;
            if self.budget.exhausted(self.nodes) {
                self.aborted = true;
                return 0;
            }
        }
        match pos.status() {
            Status::Won(s) if s == pos.side_to_move() => return WIN - ply as i32,
            Status::Won(_) => return -(WIN - ply as i32),
            Status::Draw => return 0,
            Status::Ongoing => {}
        }
        if depth == 0 {
            // A side to move that can connect at once has won: look for that
            // when its chain is short enough (a chain lacking at most three
            // cells costs at most six with covering counted double).
            let mine = distance_and_spread(pos, pos.side_to_move());
            if mine.0 <= 6 && has_winning_move(pos) {
                return WIN - ply as i32 - 1;
            }
            return evaluate_ongoing(pos, mine);
        }
        let key = pos.hash();
        let mut first = None;
        if let Some(e) = self.tt.get(&key) {
            first = e.best;
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        let (moves, evaluated) = candidates(pos, self.inner_width, first);
        // Every position evaluated counts as a node, ordering included.
        self.nodes += evaluated;
        for mv in moves {
            let undo = pos.make(mv);
            let v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.unmake(undo);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.insert(
            key,
            Entry {
                depth,
                score: best,
                bound,
                best: best_move,
            },
        );
        best
    }
}

/// How wide and deep a level searches.
#[derive(Copy, Clone)]
struct Shape {
    max_depth: u32,
    /// Candidate moves kept at the root and at inner nodes.
    root_width: usize,
    inner_width: usize,
}

impl Shape {
    const CLUB: Shape = Shape {
        max_depth: 2,
        root_width: 16,
        inner_width: 10,
    };
    const STRONGEST: Shape = Shape {
        max_depth: 64,
        root_width: 24,
        inner_width: 12,
    };
}

/// The PÜNCT AI at one of its [`Level`]s.
pub struct Ai {
    level: Level,
    rng: StdRng,
    seed: u64,
    /// One transposition table per search thread.
    tts: Vec<HashMap<u64, Entry>>,
    threads: usize,
}

impl Ai {
    pub fn new(level: Level, seed: u64) -> Ai {
        Ai {
            level,
            rng: StdRng::seed_from_u64(seed),
            seed,
            tts: vec![HashMap::new()],
            threads: 1,
        }
    }

    /// Every legal move with its one-ply evaluation for the mover, best first.
    fn one_ply(pos: &Position) -> Vec<(i32, Move)> {
        one_ply(pos, pos.legal_moves())
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
        let ranked = Self::one_ply(pos);
        let in_order: Vec<Move> = ranked.iter().map(|&(_, m)| m).collect();
        let mut roots = safe_moves(pos, &in_order, root_width, &mut |found| {
            budget.give_up_safety(found)
        });
        if roots.is_empty() {
            // Every move allows a win: play on with the best-looking ones.
            roots = ranked.iter().map(|&(_, m)| m).take(root_width).collect();
        }
        let mut best = (roots[0], evaluate(pos), 0u32);
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

/// The line the transposition table remembers after `first`.
fn principal_variation(
    tt: &HashMap<u64, Entry>,
    pos: &Position,
    first: Move,
    depth: u32,
) -> Vec<Move> {
    let mut line = vec![first];
    let mut p = pos.clone();
    p.make(first);
    while (line.len() as u32) < depth && !p.status().is_over() {
        match tt.get(&p.hash()).and_then(|e| e.best) {
            Some(m) if p.is_legal(m) => {
                line.push(m);
                p.make(m);
            }
            _ => break,
        }
    }
    line
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
        } else {
            Err(format!(
                "unknown option `{name}`: this engine has Level and Threads"
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
                let scored = Self::one_ply(pos);
                let pick = self.rng.random_range(0..scored.len().min(5));
                let (v, mv) = scored[pick];
                Self::result(mv, v, 1, scored.len() as u64, vec![mv])
            }
            Level::Casual => {
                let budget = Budget::new(pos, limits, stop);
                let scored = Self::one_ply(pos);
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
    use super::*;
    use crate::fixtures::WHITE_THREATENS;
    use crate::tactics::has_winning_move;
    use crate::{Player, RandomPlayer};

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
        let (kept, _) = candidates(&pos, Shape::STRONGEST.inner_width, None);
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
