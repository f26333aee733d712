//! Helper threads: more threads make the one search faster by filling the
//! transposition table ahead of it (the "lazy SMP" of chess engines).
//!
//! The main thread deepens as with one thread. Each helper deepens on its
//! own over the same root moves, one depth ahead of the main thread where
//! it can: the subtrees it finishes are in the shared table when the main
//! thread gets there, cut off or ordered by them. Nothing waits for
//! anything: a helper that falls behind jumps to the depth after the main
//! thread's, and every helper stops when the main thread ends. The deepest
//! iteration a helper finishes can stand in for the main thread's when it
//! is deeper than any the main thread finished.
//!
//! Sharing out the root moves of each iteration instead (tried first) made
//! the threads wait for each other at every iteration's end and searched
//! later roots before the first had set the window.

use super::eval::{MATE_BAND, WIN};
use super::search::{is_lost, Search, LIKELY};
use punct_core::{Move, Position};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// What the main thread and its helpers share besides the table.
pub(crate) struct Ahead {
    /// The depth the main thread is searching now.
    main_depth: AtomicU32,
    /// Set when the main thread has ended: the helpers stop.
    done: AtomicBool,
    /// Each helper's depth now, and its flag to drop that iteration (it
    /// ends the helper's budget): raised when the main thread catches up
    /// with it or ends.
    helpers: Vec<(AtomicU32, AtomicBool)>,
    /// The deepest iteration a helper finished: its depth, best root
    /// move, and score.
    deepest: Mutex<Option<(u32, Move, i32)>>,
    /// Nodes the helpers have searched in iterations they finished.
    nodes: AtomicU64,
}

impl Ahead {
    pub(crate) fn new(helpers: usize) -> Ahead {
        Ahead {
            main_depth: AtomicU32::new(0),
            done: AtomicBool::new(false),
            helpers: (0..helpers)
                .map(|_| (AtomicU32::new(0), AtomicBool::new(false)))
                .collect(),
            deepest: Mutex::new(None),
            nodes: AtomicU64::new(0),
        }
    }

    /// Helper `i`'s flag that ends its budget.
    pub(crate) fn halt(&self, i: usize) -> &AtomicBool {
        &self.helpers[i].1
    }

    /// The main thread starts searching `depth`: a helper no deeper drops
    /// its iteration and goes ahead again.
    pub(crate) fn main_at(&self, depth: u32) {
        self.main_depth.store(depth, Ordering::SeqCst);
        for (at, halt) in &self.helpers {
            if at.load(Ordering::SeqCst) <= depth {
                halt.store(true, Ordering::SeqCst);
            }
        }
    }

    /// The main thread has ended: every helper stops.
    pub(crate) fn end(&self) {
        self.done.store(true, Ordering::SeqCst);
        for (_, halt) in &self.helpers {
            halt.store(true, Ordering::SeqCst);
        }
    }

    /// The deepest iteration a helper finished, if any.
    pub(crate) fn deepest(&self) -> Option<(u32, Move, i32)> {
        *self.deepest.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Nodes of the helpers' finished iterations, for progress reports.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// The root moves of a finished iteration, best first; among equal
/// scores, in the order searched (so the earlier best stays first).
pub(crate) fn best_first(mut scored: Vec<(Move, i32)>) -> Vec<(Move, i32)> {
    scored.sort_by_key(|&(_, v)| Reverse(v));
    scored
}

/// Helper `i`'s search: deepens over `roots` until `max_depth`, a decided
/// score, or its budget runs out (which `ahead.halt(i)` also ends: the
/// helper then goes on ahead of the main thread unless that has ended).
/// `complete` says whether the roots are every move that does not lose at
/// once, as in the main search. Returns the nodes it searched.
pub(crate) fn help(
    i: usize,
    search: &mut Search<'_>,
    pos: &Position,
    roots: &[Move],
    max_depth: u32,
    complete: bool,
    ahead: &Ahead,
) -> u64 {
    let mut roots = roots.to_vec();
    let mut depth = 1;
    let mut counted = 0;
    let (at, halt) = &ahead.helpers[i];
    loop {
        // Cleared before `done` is read: the main thread raises `done`
        // first, so an end is never missed.
        halt.store(false, Ordering::SeqCst);
        if ahead.done.load(Ordering::SeqCst) {
            break;
        }
        // One ahead of the main thread, never behind it.
        depth = (depth + 1).max(ahead.main_depth.load(Ordering::SeqCst) + 1);
        if depth > max_depth {
            break;
        }
        at.store(depth, Ordering::SeqCst);
        // The main thread may have reached this depth meanwhile.
        if ahead.main_depth.load(Ordering::SeqCst) >= depth {
            continue;
        }
        let scored = search.roots(pos, &roots, depth, 1);
        if search.aborted {
            if !halt.load(Ordering::SeqCst) {
                // Out of time or nodes.
                break;
            }
            // Overtaken or ended: the next turn of the loop tells which.
            depth -= 1;
            continue;
        }
        let scored = best_first(scored);
        let Some(&(mv, mut v)) = scored.first() else {
            break;
        };
        if is_lost(v) && !complete {
            v = -LIKELY;
        }
        {
            let mut deepest = ahead.deepest.lock().unwrap_or_else(|e| e.into_inner());
            if deepest.is_none_or(|(d, _, _)| d < depth) {
                *deepest = Some((depth, mv, v));
            }
        }
        ahead
            .nodes
            .fetch_add(search.nodes - counted, Ordering::Relaxed);
        counted = search.nodes;
        if v >= WIN - MATE_BAND || (is_lost(v) && complete) {
            break;
        }
        roots = scored.into_iter().map(|(m, _)| m).collect();
    }
    search.nodes
}
