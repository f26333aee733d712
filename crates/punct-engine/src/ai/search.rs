//! The alpha-beta search: iterative deepening over the root's safe moves,
//! a transposition table, threads sharing out the root moves and the
//! table, and scores that claim a forced win only when it is proven.
//!
//! Nodes search a pruned set of candidate moves (see [`super::order`]).
//! For the side choosing a move that is harmless: missing a good move only
//! makes the search weaker. For the side answering it is not: a line that
//! "wins" against a pruned set of replies may lose to a reply that was
//! never looked at (a piece turned in place, moved one cell). So a loss is
//! only taken as proven at a node whose every move was considered:
//!
//! * when the opponent threatens to connect at once, every move that does
//!   not parry the threat loses at once (exactly: see
//!   [`crate::tactics::safe_moves`]), so the node searches its candidates
//!   that parry, and, if all of them lose, every other parry too;
//! * otherwise a node whose candidates all lose scores a large but unproven
//!   [`LIKELY`] loss instead of a win for the opponent.
//!
//! A leaf where the side to move is threatened is searched one ply further
//! (its parries), so the horizon does not hide a lost race.

use super::eval::{evaluate_ongoing, Weights, MATE_BAND, WIN};
use super::order::{judged, led_by, Known};
use super::policy::Policy;
use super::table::{Bound, Entry, Table};
use crate::engine::Budget;
use crate::paths::distance_and_spread;
use crate::tactics::{has_winning_move, safe_moves, threatened};
use punct_core::{Move, Position, Status};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

/// The score of a position whose candidate moves all lose by force while
/// other moves were not searched: very bad, but not a proven loss.
pub(crate) const LIKELY: i32 = 50_000;
/// Plies beyond which a threatened leaf is not searched further.
const MAX_PLY: u32 = 64;

/// How wide and deep a level searches.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) max_depth: u32,
    /// Candidate moves kept at the root and at inner nodes.
    pub(crate) root_width: usize,
    pub(crate) inner_width: usize,
    /// Moves judged one ply deep at an inner node, of which `inner_width`
    /// are kept.
    pub(crate) inner_judged: usize,
}

/// What one search does, besides its budget.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub(crate) shape: Shape,
    pub(crate) weights: Weights,
    /// The static ranking of the candidate moves.
    pub(crate) policy: Policy,
    /// At most this much, up or down, is added to every leaf's evaluation
    /// (the weaker levels); it depends on the position and `salt` only, so
    /// the search stays consistent and another `salt` plays differently.
    pub(crate) noise: i32,
    pub(crate) salt: u64,
    /// At most this much is added to a root move's score, fixed by the
    /// move and `salt` (a new game, a new preference): among moves within
    /// it of the best the choice varies from game to game, while a game's
    /// seed still plays it again the same way. Not added to forced wins
    /// or losses.
    pub(crate) root_variety: i32,
    /// Search a threatened leaf's parries.
    pub(crate) extend_threats: bool,
    /// Try the moves that refuted a sibling first.
    pub(crate) killers: bool,
    /// Principal variation search: null windows after the first move.
    pub(crate) pvs: bool,
    /// Reverse futility pruning: a node off the principal variation, a
    /// few plies from the horizon and not threatened, whose evaluation
    /// beats beta by this much per ply left, is taken as failing high
    /// without a search (0: off).
    pub(crate) futility_margin: i32,
    /// Late move reductions: a move ranked after the first few at a node
    /// far enough from the horizon is searched one ply shallower with a
    /// null window first, and again in full only if it beats alpha.
    pub(crate) late_reductions: bool,
    /// Null-move pruning: a node off the principal variation whose
    /// evaluation is at least beta, not threatened, lets the opponent move
    /// twice, searched this many plies shallower (besides the ply of the
    /// skipped turn); if the opponent still cannot get below beta, the node
    /// fails high unsearched (0: off).
    pub(crate) null_move: u32,
}

/// The deepest node (plies left) where reverse futility pruning applies.
const FUTILITY_DEPTH: u32 = 3;
/// Late move reductions: from this many plies left, after this many moves.
const REDUCE_FROM_DEPTH: u32 = 3;
const REDUCE_AFTER: usize = 3;
/// Null-move pruning from this many plies left.
const NULL_FROM_DEPTH: u32 = 3;

/// A transposition table's stored form of `v` at `ply`.
fn to_tt(v: i32, ply: u32) -> i32 {
    if v >= WIN - MATE_BAND {
        v + ply as i32
    } else if v <= -(WIN - MATE_BAND) {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: u32) -> i32 {
    if v >= WIN - MATE_BAND {
        v - ply as i32
    } else if v <= -(WIN - MATE_BAND) {
        v + ply as i32
    } else {
        v
    }
}

pub(crate) fn is_lost(v: i32) -> bool {
    v <= -(WIN - MATE_BAND)
}

/// A number in `-amp..=amp` fixed by the position and the salt.
fn noise(pos: &Position, salt: u64, amp: i32) -> i32 {
    if amp == 0 {
        return 0;
    }
    // SplitMix64's finaliser: every bit of the hash moves every bit.
    let mut z = pos.hash() ^ salt;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % (2 * amp as u64 + 1)) as i32 - amp
}

/// A root move's preference in `0..=amp`, fixed by the move and the salt.
pub(crate) fn root_bias(mv: Move, salt: u64, amp: i32) -> i32 {
    if amp <= 0 {
        return 0;
    }
    // The move's notation, FNV-1a: the same on every platform (the page's
    // WebAssembly plays a seeded game as the native build does).
    use std::fmt::Write;
    let mut text = String::with_capacity(12);
    let _ = write!(text, "{mv}");
    let fnv = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut z = fnv ^ salt.rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % (amp as u64 + 1)) as i32
}

/// A root score with the move's preference, unless it is a forced result.
fn preferred(v: i32, bias: i32) -> i32 {
    if v.abs() >= WIN - MATE_BAND {
        v
    } else {
        v + bias
    }
}

/// What the threads searching one iteration's roots share: the next root
/// to take and the best score found so far.
pub(crate) struct SharedRoots {
    next: AtomicUsize,
    best: AtomicI32,
}

impl SharedRoots {
    pub(crate) fn new() -> SharedRoots {
        SharedRoots {
            next: AtomicUsize::new(0),
            best: AtomicI32::new(-WIN - 1),
        }
    }
}

pub(crate) struct Search<'a> {
    pub(crate) budget: Budget<'a>,
    pub(crate) nodes: u64,
    pub(crate) aborted: bool,
    next_check: u64,
    tt: &'a Table,
    set: &'a Settings,
    /// Two moves per ply that last caused a cut-off there.
    killers: Vec<[Option<Move>; 2]>,
    /// The ply of the turn skipped by the null move being searched (no
    /// two in a row).
    null_at: Option<u32>,
    /// Nodes' ranked candidates by position (one per slot, the last
    /// stored kept): the next iteration visits most inner nodes again,
    /// and their candidates do not depend on the depth.
    ranked: Vec<Option<Ranked>>,
}

/// A node's candidates as [`judged`] found them.
struct Ranked {
    key: u64,
    list: Vec<(Move, Option<Known>)>,
    legal: usize,
}

/// Slots of the candidates' store (a power of two).
const RANKED_SLOTS: usize = 1 << 13;

impl<'a> Search<'a> {
    pub(crate) fn new(budget: Budget<'a>, tt: &'a Table, set: &'a Settings) -> Search<'a> {
        Search {
            budget,
            nodes: 0,
            aborted: false,
            next_check: 0,
            tt,
            set,
            killers: Vec::new(),
            null_at: None,
            ranked: Vec::new(),
        }
    }

    /// Searches `roots` to `depth` and returns those searched with their
    /// scores in the order searched, or fewer when aborted. The best
    /// `exact` of them get exact scores (more than one for multi-PV); the
    /// others may only be bounded from above.
    ///
    /// With `shared`, several threads search the same list: each takes the
    /// next root not yet taken, and with one exact line the best score any
    /// of them has found opens every later window.
    pub(crate) fn roots(
        &mut self,
        pos: &Position,
        roots: &[Move],
        depth: u32,
        exact: usize,
        shared: Option<&SharedRoots>,
    ) -> Vec<(Move, i32)> {
        let mut scratch = pos.clone();
        let mut out: Vec<(Move, i32)> = Vec::new();
        let mut best: Vec<i32> = Vec::new();
        let exact = exact.max(1);
        self.aborted = false;
        let mut next = 0;
        loop {
            let index = match shared {
                Some(s) => s.next.fetch_add(1, Ordering::Relaxed),
                None => next,
            };
            next += 1;
            let Some(&mv) = roots.get(index) else {
                break;
            };
            // The window opens above the `exact`-th best so far (scores
            // with their preferences: this move must beat the best by
            // more than its own preference falls short).
            let bias = root_bias(mv, self.set.salt, self.set.root_variety);
            let opened = |best: i32| {
                if best.abs() >= WIN - MATE_BAND {
                    best
                } else {
                    best - bias
                }
            };
            let mut alpha = if best.len() >= exact {
                opened(best[exact - 1])
            } else {
                -WIN - 1
            };
            if let Some(s) = shared.filter(|_| exact == 1) {
                let so_far = s.best.load(Ordering::Relaxed);
                if so_far > -WIN - 1 {
                    alpha = alpha.max(opened(so_far));
                }
            }
            let undo = scratch.make(mv);
            let v = self.child(
                &mut scratch,
                None,
                depth - 1,
                1,
                alpha,
                WIN + 1,
                alpha > -WIN - 1,
            );
            scratch.unmake(undo);
            if self.aborted {
                break;
            }
            let v = preferred(v, bias);
            if let Some(s) = shared {
                s.best.fetch_max(v, Ordering::Relaxed);
            }
            out.push((mv, v));
            best.push(v);
            best.sort_unstable_by(|a, b| b.cmp(a));
        }
        out
    }

    /// The node's candidates with `first` leading, ranked now or earlier
    /// (see [`Search::ranked`]), and the number of legal moves.
    fn candidates(
        &mut self,
        pos: &Position,
        key: u64,
        first: Option<Move>,
    ) -> (Vec<(Move, Option<Known>)>, usize) {
        let width = self.set.shape.inner_width;
        if self.ranked.is_empty() {
            self.ranked.resize_with(RANKED_SLOTS, || None);
        }
        let slot = key as usize & (RANKED_SLOTS - 1);
        if let Some(r) = self.ranked[slot].as_ref().filter(|r| r.key == key) {
            return (led_by(&r.list, first, width), r.legal);
        }
        let (list, evaluated, legal) = judged(
            pos,
            width,
            self.set.shape.inner_judged,
            &self.set.weights,
            &self.set.policy,
        );
        // Every position evaluated counts as a node, ordering included.
        self.nodes += evaluated;
        let out = led_by(&list, first, width);
        self.ranked[slot] = Some(Ranked { key, list, legal });
        (out, legal)
    }

    fn killer_moves(&self, ply: u32) -> [Option<Move>; 2] {
        if self.set.killers {
            self.killers
                .get(ply as usize)
                .copied()
                .unwrap_or([None, None])
        } else {
            [None, None]
        }
    }

    fn remember_killer(&mut self, ply: u32, mv: Move) {
        if !self.set.killers {
            return;
        }
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// The score of the move just made, for the side that made it, with
    /// the window (`alpha`, `beta`). After the first move a null window
    /// tries to show the move is no better first (principal variation
    /// search), searching again in full only when it is.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        pos: &mut Position,
        known: Option<Known>,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        later: bool,
    ) -> i32 {
        if self.set.pvs && later && beta > alpha + 1 {
            let v = -self.negamax(pos, known, depth, ply, -alpha - 1, -alpha);
            if self.aborted || v <= alpha || v >= beta {
                return v;
            }
        }
        -self.negamax(pos, known, depth, ply, -beta, -alpha)
    }

    /// A leaf's evaluation for the side to move (`mine`: its chain's
    /// distance and spread; `known`, when its parent judged it), with the
    /// level's noise.
    fn static_eval(&self, pos: &Position, mine: (u32, u32), known: Option<Known>) -> i32 {
        let eval = match known {
            Some(k) => k.eval,
            None => evaluate_ongoing(pos, mine, &self.set.weights),
        };
        eval + noise(pos, self.set.salt, self.set.noise)
    }

    /// `known`: what the parent found of this position when it judged
    /// the move to it (see [`Known`]).
    fn negamax(
        &mut self,
        pos: &mut Position,
        known: Option<Known>,
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
        let me = pos.side_to_move();
        // A side to move that can connect at once has won: look for that
        // when its chain is short enough (a chain lacking at most three
        // cells costs at most six with covering counted double), or when
        // its next addition ends the game on the central count.
        let mine = match known {
            Some(k) => (
                k.mover.iter().copied().min().unwrap_or(0),
                k.mover.iter().sum(),
            ),
            None => distance_and_spread(pos, me),
        };
        if (mine.0 <= 6 || pos.reserve_total(me) == 1) && has_winning_move(pos) {
            return WIN - ply as i32 - 1;
        }
        let mut depth = depth;
        if depth == 0 {
            // A threatened leaf is searched one ply further (its parries),
            // with the threat extension on.
            if !(self.set.extend_threats && ply < MAX_PLY && threatened(pos)) {
                return self.static_eval(pos, mine, known);
            }
            depth = 1;
        }
        let key = pos.hash();
        let mut first = None;
        if let Some(e) = self.tt.get(key) {
            first = e.best;
            if e.depth >= depth {
                let score = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        // Reverse futility: near the horizon, off the principal variation,
        // a position far above beta stays there; not when the opponent
        // threatens to connect (the evaluation cannot see that coming).
        let margin = self.set.futility_margin;
        let off_pv = beta == alpha + 1 && beta.abs() < LIKELY;
        let mut eval = None;
        if margin > 0 && depth <= FUTILITY_DEPTH && off_pv {
            let e = *eval.get_or_insert_with(|| self.static_eval(pos, mine, known));
            if e - margin * depth as i32 >= beta && !threatened(pos) {
                return e;
            }
        }
        // Null move: in a connection race a turn is worth having (no
        // zugzwang: a piece can always be turned in place), so a side
        // that stays above beta after giving the opponent two moves in a
        // row would stay above it with any good move of its own.
        let r = self.set.null_move;
        if r > 0
            && depth >= NULL_FROM_DEPTH
            && off_pv
            && self.null_at.is_none_or(|at| at + 1 != ply)
            && *eval.get_or_insert_with(|| self.static_eval(pos, mine, known)) >= beta
            && !threatened(pos)
        {
            if let Some(mut null) = pos.null_move() {
                let outer = self.null_at.replace(ply);
                let reduced = depth.saturating_sub(1 + r);
                let v = -self.negamax(&mut null, None, reduced, ply + 1, -beta, -beta + 1);
                self.null_at = outer;
                if self.aborted {
                    return 0;
                }
                if v >= beta && v < LIKELY {
                    return v;
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        // The table's move and the killers are searched before the
        // candidates are ranked (the ranking evaluates dozens of
        // positions): a cut-off by one of them skips that work. The order
        // is the same as if they led the ranked list.
        let mut moves: Vec<Move> = Vec::with_capacity(self.set.shape.inner_width + 3);
        // What judging a ranked candidate found of its position (none for
        // those searched before the ranking), move by move.
        let mut found: Vec<Option<Known>> = Vec::with_capacity(moves.capacity());
        if let Some(m) = first.filter(|&m| pos.is_legal(m)) {
            moves.push(m);
        }
        for k in self.killer_moves(ply).into_iter().flatten() {
            if !moves.contains(&k) && pos.is_legal(k) {
                moves.push(k);
            }
        }
        let mut ranked_yet = false;
        // Whether every move that does not lose at once has been searched
        // (or queued): the candidates were all the legal moves, or the
        // parries of a threat were added when every candidate lost.
        let mut complete = false;
        // The ranked candidates (parries added later come after them).
        let mut ranked = usize::MAX;
        let mut searched: Vec<Move> = Vec::with_capacity(moves.len());
        let mut i = 0;
        loop {
            if i == moves.len() && !ranked_yet {
                ranked_yet = true;
                let (candidates, legal_count) = self.candidates(pos, key, first);
                found.resize(moves.len(), None);
                for (m, k) in candidates {
                    if !moves.contains(&m) {
                        moves.push(m);
                        found.push(k);
                    }
                }
                complete = moves.len() >= legal_count;
                ranked = moves.len();
                continue;
            }
            if i == moves.len() {
                // Every candidate lost: a candidate that does not parry a
                // threat loses at once (cheaply found), so only now ask
                // whether the opponent threatens, and if so search the
                // other parries, since every other move loses at once.
                if !is_lost(best) || complete || !threatened(pos) {
                    break;
                }
                complete = true;
                let parries = safe_moves(pos, &pos.legal_moves(), usize::MAX, &mut |_| false);
                moves.extend(parries.into_iter().filter(|m| !searched.contains(m)));
                continue;
            }
            let mv = moves[i];
            let known = found.get(i).copied().flatten();
            i += 1;
            let undo = pos.make(mv);
            // A late move (ranked low by the ordering) first gets a
            // shallower null-window search; only one that beats alpha
            // there is searched in full. The parries of a threat added
            // after every candidate lost are searched in full.
            let late = self.set.late_reductions
                && depth >= REDUCE_FROM_DEPTH
                && searched.len() >= REDUCE_AFTER
                && i <= ranked
                && !is_lost(alpha);
            let v = if late {
                let r = -self.negamax(pos, known, depth - 2, ply + 1, -alpha - 1, -alpha);
                if self.aborted || r <= alpha {
                    r
                } else {
                    self.child(pos, known, depth - 1, ply + 1, alpha, beta, true)
                }
            } else {
                self.child(
                    pos,
                    known,
                    depth - 1,
                    ply + 1,
                    alpha,
                    beta,
                    !searched.is_empty(),
                )
            };
            pos.unmake(undo);
            if self.aborted {
                return 0;
            }
            searched.push(mv);
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.remember_killer(ply, mv);
                // A lost cut-off before the ranking: the ranked list would
                // have held every legal move if there are no more than its
                // width.
                if !ranked_yet && is_lost(best) {
                    complete = pos.legal_moves().len() <= self.set.shape.inner_width;
                }
                break;
            }
        }
        // Candidates that all lose prove nothing while other moves were
        // left out.
        if is_lost(best) && !complete {
            best = -LIKELY;
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
                score: to_tt(best, ply),
                bound,
                best: best_move,
            },
        );
        best
    }
}

/// The line the transposition table remembers after `first`.
pub(crate) fn principal_variation(
    tt: &Table,
    pos: &Position,
    first: Move,
    depth: u32,
) -> Vec<Move> {
    let mut line = vec![first];
    let mut p = pos.clone();
    p.make(first);
    while (line.len() as u32) < depth && !p.status().is_over() {
        match tt.get(p.hash()).and_then(|e| e.best) {
            Some(m) if p.is_legal(m) => {
                line.push(m);
                p.make(m);
            }
            _ => break,
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::order::candidates;
    use crate::ai::{Ai, Level};
    use crate::engine::Limits;
    use crate::fixtures::random_game_positions;
    use punct_core::Variant;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_node_ranked_again_gets_what_ranking_it_anew_gives() {
        let set = Ai::new(Level::Strongest, 1).settings();
        let stop = AtomicBool::new(false);
        let table = Table::new();
        let positions: Vec<Position> =
            random_game_positions([(Variant::Standard, 5), (Variant::Basic, 6)])
                .into_iter()
                .filter(|p| !p.status().is_over())
                .step_by(4)
                .collect();
        let start = Position::new(Variant::Standard);
        let mut search = Search::new(Budget::new(&start, &Limits::default(), &stop), &table, &set);
        let (width, judged) = (set.shape.inner_width, set.shape.inner_judged);
        let mut hits = 0;
        for pos in &positions {
            let legal = pos.legal_moves();
            // The first time ranks; later times, led by other moves, read
            // the store.
            for first in [None, legal.last().copied(), legal.first().copied(), None] {
                let nodes = search.nodes;
                let (got, count) = search.candidates(pos, pos.hash(), first);
                let (want, evaluated, want_count) =
                    candidates(pos, width, judged, first, &set.weights, &set.policy);
                assert_eq!(got, want, "{first:?} in {}", pos.to_position_string());
                assert_eq!(count, want_count);
                if search.nodes == nodes {
                    hits += 1;
                } else {
                    assert_eq!(search.nodes - nodes, evaluated);
                }
            }
        }
        assert_eq!(hits, 3 * positions.len());
    }
}
