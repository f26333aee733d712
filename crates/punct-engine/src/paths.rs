//! Shortest chains between opposite sides: distance maps from each side and
//! the "corridor" of cells that lie on a near-shortest chain.
//!
//! A cell's cost for a side is what it takes to make the cell show that
//! side's colour: 0 when it already does, otherwise 1 (empty) or, with
//! [`Costs::CoverOpponent`], 2 for a cell showing the opponent (a piece must
//! be moved on top of it).

use punct_core::{Bitboard, Cell, Direction, Edge, Position, Side};

const SLOTS: usize = 320;
const FAR: u8 = u8::MAX;

/// How non-own cells are priced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Costs {
    /// Every non-own cell costs 1: counts the cells a chain still lacks.
    Missing,
    /// Empty 1, opponent's 2.
    CoverOpponent,
}

/// Per-cell costs for `side`.
fn cost_table(pos: &Position, side: Side, costs: Costs) -> [u8; SLOTS] {
    let mut t = [FAR; SLOTS];
    let own = pos.visible(side);
    let theirs = pos.visible(side.opponent());
    for c in Cell::all() {
        t[c.index()] = if own.contains(c) {
            0
        } else if costs == Costs::CoverOpponent && theirs.contains(c) {
            2
        } else {
            1
        };
    }
    t
}

/// Distances from `from` (the cost of the cell itself included), by a
/// bucketed Dijkstra (costs are 0–2). Stops growing past `limit`.
fn distances(from: Bitboard, cost: &[u8; SLOTS], limit: u8) -> [u8; SLOTS] {
    let mut dist = [FAR; SLOTS];
    let mut buckets: Vec<Vec<Cell>> = vec![Vec::new(); limit as usize + 1];
    for c in from.cells() {
        let d = cost[c.index()];
        if d <= limit {
            dist[c.index()] = d;
            buckets[d as usize].push(c);
        }
    }
    for d in 0..=limit {
        while let Some(c) = buckets[d as usize].pop() {
            if dist[c.index()] != d {
                continue;
            }
            for dir in Direction::ALL {
                if let Some(n) = c.neighbour(dir) {
                    let nd = d.saturating_add(cost[n.index()]);
                    if nd <= limit && nd < dist[n.index()] {
                        dist[n.index()] = nd;
                        buckets[nd as usize].push(n);
                    }
                }
            }
        }
    }
    dist
}

/// The shortest chains of one side.
#[derive(Clone, Debug)]
pub struct Corridor {
    /// Cost of the cheapest chain over all pairs (0 = connected; `FAR` as
    /// u32 when none is within reach).
    pub distance: u32,
    /// Sum over the three pairs of each pair's cost (capped), a finer
    /// measure of progress than the best pair alone.
    pub spread: u32,
    /// Non-own cells on a chain within the bound.
    pub cells: Bitboard,
    /// Own cells on a chain within the bound.
    pub chain: Bitboard,
}

/// The corridor of `side`: every non-own cell on a chain whose cost is at
/// most the best chain's cost plus `slack`.
pub fn corridor(pos: &Position, side: Side, costs: Costs, slack: u32) -> Corridor {
    corridor_bounded(pos, side, costs, |best| best + slack)
}

/// Every non-own cell on a chain costing at most `max_cost` (empty when the
/// best chain costs more).
pub fn corridor_within(pos: &Position, side: Side, costs: Costs, max_cost: u32) -> Corridor {
    corridor_bounded(pos, side, costs, |_| max_cost)
}

fn corridor_bounded(
    pos: &Position,
    side: Side,
    costs: Costs,
    bound: impl Fn(u32) -> u32,
) -> Corridor {
    let cost = cost_table(pos, side, costs);
    let limit = 60u8;
    let mut maps = Vec::with_capacity(3);
    let mut best = FAR as u32;
    let mut spread = 0;
    for (a, b) in Edge::PAIRS {
        let da = distances(Bitboard::edge(a), &cost, limit);
        let db = distances(Bitboard::edge(b), &cost, limit);
        let d = Bitboard::edge(b)
            .cells()
            .map(|c| da[c.index()] as u32)
            .min()
            .unwrap_or(FAR as u32);
        best = best.min(d);
        spread += d.min(limit as u32);
        maps.push((d, da, db));
    }
    let mut on_chain = Bitboard::EMPTY;
    let bound = bound(best);
    if best < FAR as u32 {
        for (d, da, db) in &maps {
            if *d > bound {
                continue;
            }
            for c in Bitboard::BOARD.cells() {
                let i = c.index();
                if da[i] == FAR || db[i] == FAR {
                    continue;
                }
                let through = da[i] as u32 + db[i] as u32 - cost[i] as u32;
                if through <= bound {
                    on_chain.insert(c);
                }
            }
        }
    }
    let own = pos.visible(side);
    Corridor {
        distance: best,
        spread,
        cells: on_chain & !own,
        chain: on_chain & own,
    }
}

/// The cheapest chain's cost and the capped sum over pairs, without maps of
/// the corridor (the evaluation's inner loop).
pub fn distance_and_spread(pos: &Position, side: Side) -> (u32, u32) {
    let cost = cost_table(pos, side, Costs::CoverOpponent);
    let limit = 40u8;
    let mut best = FAR as u32;
    let mut spread = 0;
    for (a, b) in Edge::PAIRS {
        let da = distances(Bitboard::edge(a), &cost, limit);
        let d = Bitboard::edge(b)
            .cells()
            .map(|c| da[c.index()] as u32)
            .min()
            .unwrap_or(FAR as u32)
            .min(limit as u32 + 1);
        best = best.min(d);
        spread += d;
    }
    (best, spread)
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::Variant;

    #[test]
    fn empty_board_needs_a_full_chain_and_every_cell_is_on_some_corridor_slack() {
        let pos = Position::new(Variant::Standard);
        let c = corridor(&pos, Side::White, Costs::Missing, 0);
        // Every step changes the coordinate that separates a pair of sides
        // by at most one, so a chain spans 17 cells.
        assert_eq!(c.distance, 17);
        assert!(!c.cells.is_empty());
        let (d, spread) = distance_and_spread(&pos, Side::White);
        assert_eq!(d, c.distance);
        assert!(spread >= 3 * d);
    }

    #[test]
    fn a_chain_missing_one_cell_has_distance_one_and_that_cell_in_its_corridor() {
        let pos = Position::from_position_string(
            "basic:w:0:wE@B9/5,wE@E9/5,wE@H9/5,wE@K9/5,wC@O9/2,wT@Q10/2,\
             bT@C3/0,bT@E3/0,bT@G3/0,bT@F12/0,bT@H14/0,bT@J15/0",
        )
        .unwrap();
        let c = corridor(&pos, Side::White, Costs::Missing, 0);
        assert_eq!(c.distance, 1);
        assert!(c.cells.contains("A8".parse().unwrap()));
        assert!(!c.cells.contains("H5".parse().unwrap()));
        assert_eq!(distance_and_spread(&pos, Side::White).0, 1);
    }
}
