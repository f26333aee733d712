//! The transposition table every search thread of one engine shares.
//!
//! Shared so that a thread taking a root move another thread searched one
//! iteration earlier finds that subtree's best moves and bounds, and so
//! that transpositions between root moves are searched once. It is split
//! into shards, each behind its own lock: two threads rarely want the
//! same shard at once, and an uncontended lock costs little next to a
//! node's move ordering.

use punct_core::Move;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// Shards (a power of two: the low bits of the hash pick one).
const SHARDS: usize = 64;
/// Entries the table holds before a search clears it (a search of a few
/// seconds stays well below).
const LIMIT: usize = 1 << 20;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) depth: u32,
    /// Won and lost scores counted from this node, not from the root.
    pub(crate) score: i32,
    pub(crate) bound: Bound,
    pub(crate) best: Option<Move>,
}

pub(crate) struct Table {
    shards: Vec<Mutex<HashMap<u64, Entry>>>,
}

impl Table {
    pub(crate) fn new() -> Table {
        Table {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    fn shard(&self, key: u64) -> MutexGuard<'_, HashMap<u64, Entry>> {
        // A thread that panicked mid-insert leaves a map that is still
        // whole: go on with it.
        self.shards[key as usize & (SHARDS - 1)]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn get(&self, key: u64) -> Option<Entry> {
        self.shard(key).get(&key).copied()
    }

    pub(crate) fn insert(&self, key: u64, entry: Entry) {
        self.shard(key).insert(key, entry);
    }

    pub(crate) fn len(&self) -> usize {
        (0..SHARDS).map(|i| self.shard(i as u64).len()).sum()
    }

    pub(crate) fn clear(&self) {
        (0..SHARDS).for_each(|i| self.shard(i as u64).clear());
    }

    /// Clears the table if it holds more than its limit (before a search).
    pub(crate) fn trim(&self) {
        if self.len() > LIMIT {
            self.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_by_key_across_threads_and_cleared() {
        let table = Table::new();
        let entry = |depth| Entry {
            depth,
            score: 7,
            bound: Bound::Exact,
            best: None,
        };
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let table = &table;
                s.spawn(move || {
                    (0..1000u64).for_each(|k| table.insert(2 * k + t, entry(t as u32)))
                });
            }
        });
        assert_eq!(table.len(), 2000);
        assert_eq!(table.get(6).map(|e| e.depth), Some(0));
        assert_eq!(table.get(7).map(|e| e.depth), Some(1));
        assert!(table.get(5000).is_none());
        table.clear();
        assert_eq!(table.len(), 0);
    }
}
