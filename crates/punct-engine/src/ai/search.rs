//! The alpha-beta search behind levels 3 and 4: iterative deepening over
//! the root's safe moves, a transposition table, threads sharing the root.

use super::eval::{evaluate_ongoing, Weights, WIN};
use super::order::candidates;
use crate::paths::distance_and_spread;
use crate::search::Budget;
use crate::tactics::has_winning_move;
use punct_core::{Move, Position, Status};
use std::collections::HashMap;

#[derive(Copy, Clone)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone)]
pub(crate) struct Entry {
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<Move>,
}

pub(crate) struct Search<'a> {
    pub(crate) budget: Budget<'a>,
    pub(crate) nodes: u64,
    pub(crate) aborted: bool,
    pub(crate) next_check: u64,
    pub(crate) tt: &'a mut HashMap<u64, Entry>,
    pub(crate) inner_width: usize,
    pub(crate) weights: &'a Weights,
}

impl Search<'_> {
    /// Searches `roots` to `depth`; the best of them and its score, or
    /// `None` when aborted before any finished.
    pub(crate) fn roots(
        &mut self,
        pos: &Position,
        roots: &[Move],
        depth: u32,
    ) -> Option<(Move, i32)> {
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
            return evaluate_ongoing(pos, mine, self.weights);
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
        let (moves, evaluated) = candidates(pos, self.inner_width, first, self.weights);
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
pub(crate) struct Shape {
    pub(crate) max_depth: u32,
    /// Candidate moves kept at the root and at inner nodes.
    pub(crate) root_width: usize,
    pub(crate) inner_width: usize,
}

impl Shape {
    pub(crate) const CLUB: Shape = Shape {
        max_depth: 2,
        root_width: 16,
        inner_width: 10,
    };
    pub(crate) const STRONGEST: Shape = Shape {
        max_depth: 64,
        root_width: 24,
        inner_width: 12,
    };
}

/// The line the transposition table remembers after `first`.
pub(crate) fn principal_variation(
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
