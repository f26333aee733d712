//! Shortest chains between opposite sides: distance maps from each side and
//! the "corridor" of cells that lie on a near-shortest chain.
//!
//! A cell's cost for a side is what it takes to make the cell show that
//! side's colour: 0 when it already does, otherwise 1 (empty) or, with
//! [`Costs::CoverOpponent`], 2 for a cell showing the opponent (a piece must
//! be moved on top of it).

use punct_core::{Bitboard, Cell, Edge, Position, Side};

/// Slots of a per-cell table: every `Cell::index()` is below it.
pub(crate) const SLOTS: usize = 320;
const FAR: u8 = u8::MAX;

/// How non-own cells are priced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Costs {
    /// Every non-own cell costs 1: counts the cells a chain still lacks.
    Missing,
    /// Empty 1, opponent's 2.
    CoverOpponent,
}

/// The cells of each cost for `side`: (0, 1, 2).
fn cost_sets(pos: &Position, side: Side, costs: Costs) -> (Bitboard, Bitboard, Bitboard) {
    let own = pos.visible(side);
    let theirs = pos.visible(side.opponent());
    match costs {
        Costs::Missing => (own, !own, Bitboard::EMPTY),
        Costs::CoverOpponent => (own, !(own | theirs), theirs),
    }
}

/// Bucketed Dijkstra on bitboards: `reached` grows one cost level at a
/// time (cells of cost 1 next to the last level, of cost 2 next to the one
/// before, then everything of cost 0 they touch). Calls `visit(d, new)`
/// with the cells whose distance from `from` (their own cost included) is
/// exactly `d`; stops when `visit` returns false or at `limit`.
fn levels(
    from: Bitboard,
    (zero, one, two): (Bitboard, Bitboard, Bitboard),
    limit: u8,
    mut visit: impl FnMut(u8, Bitboard) -> bool,
) {
    let mut grown_before = Bitboard::EMPTY; // neighbours of distance ≤ d − 2
    let mut last = from.flood(zero); // distance ≤ d − 1 (d = 0 here)
    if !visit(0, last) {
        return;
    }
    let mut quiet = 0;
    for d in 1..=limit {
        let grown_last = last.grown();
        let mut next = last | (grown_last & one) | (grown_before & two) | (from & one);
        if d >= 2 {
            next |= from & two;
        }
        next = next.flood(next | zero);
        let new = next & !last;
        if !visit(d, new) {
            return;
        }
        // Costs are at most 2: two quiet levels in a row mean nothing is left.
        quiet = if new.is_empty() { quiet + 1 } else { 0 };
        if quiet == 2 {
            return;
        }
        grown_before = grown_last;
        last = next;
    }
}

/// Per-cell distances from `from` (`FAR` beyond `limit`).
fn distances(from: Bitboard, sets: (Bitboard, Bitboard, Bitboard), limit: u8) -> [u8; SLOTS] {
    let mut dist = [FAR; SLOTS];
    levels(from, sets, limit, |d, new| {
        for c in new.cells() {
            dist[c.index()] = d;
        }
        true
    });
    dist
}

/// The cost of the cheapest chain from `a` to `b` (`limit + 1` if none within `limit`).
fn pair_distance(a: Bitboard, b: Bitboard, sets: (Bitboard, Bitboard, Bitboard), limit: u8) -> u32 {
    let mut found = limit as u32 + 1;
    levels(a, sets, limit, |d, new| {
        if (new & b).is_empty() {
            true
        } else {
            found = d as u32;
            false
        }
    });
    found
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
    ChainMaps::new(pos, side, costs).corridor(pos, bound)
}

/// One side's distance maps for each pair of opposite sides: the cost of
/// the cheapest chain from either side of the pair to every cell. They
/// give the corridor and, for any piece put down, the chains' new costs.
pub struct ChainMaps {
    sets: (Bitboard, Bitboard, Bitboard),
    side: Side,
    /// Each pair's cheapest chain's cost.
    best: [u32; 3],
    /// Per cell, for each pair and from each of its sides in turn, the
    /// cost of reaching the cell *without* paying for the cell itself
    /// (`FAR` where out of reach; the last two bytes unused). Leaving the
    /// cell's own cost out makes `with_piece`, called for every candidate
    /// move, three loads and a bytewise minimum.
    reach: [[u8; 8]; SLOTS],
}

impl ChainMaps {
    pub fn new(pos: &Position, side: Side, costs: Costs) -> ChainMaps {
        let sets = cost_sets(pos, side, costs);
        let limit = 60u8;
        let mut reach = [[FAR; 8]; SLOTS];
        let mut best = [FAR as u32; 3];
        for (pair, (a, b)) in Edge::PAIRS.into_iter().enumerate() {
            let da = distances(Bitboard::edge(a), sets, limit);
            let db = distances(Bitboard::edge(b), sets, limit);
            best[pair] = Bitboard::edge(b)
                .cells()
                .map(|c| da[c.index()] as u32)
                .min()
                .unwrap_or(FAR as u32);
            for c in Bitboard::BOARD.cells() {
                let i = c.index();
                let own = cost_in(sets, c) as u8;
                let before_cell = |v: u8| if v == FAR { FAR } else { v - own };
                reach[i][2 * pair] = before_cell(da[i]);
                reach[i][2 * pair + 1] = before_cell(db[i]);
            }
        }
        ChainMaps {
            sets,
            side,
            best,
            reach,
        }
    }

    /// The cheapest chain's cost over all pairs.
    pub fn distance(&self) -> u32 {
        self.best.iter().copied().min().unwrap_or(FAR as u32)
    }

    /// Each pair's cheapest chain cost.
    pub fn pair_distances(&self) -> [u32; 3] {
        self.best
    }

    fn cost_of(&self, c: Cell) -> u32 {
        cost_in(self.sets, c)
    }

    /// Each pair's cheapest chain cost once the three (joined) `cells`
    /// show this side's colour: the old chain, or one entering the piece
    /// from one side of the pair and leaving it towards the other. (What a
    /// moved piece uncovers where it stood is not counted.)
    pub fn with_piece(&self, cells: &[Cell; 3]) -> [u32; 3] {
        let [x, y, z] = cells.map(|c| &self.reach[c.index()]);
        let mut r = [0u8; 8];
        for k in 0..8 {
            r[k] = x[k].min(y[k]).min(z[k]);
        }
        // FAR stays FAR: a cell out of reach never lowers the minimum.
        std::array::from_fn(|p| self.best[p].min(r[2 * p] as u32 + r[2 * p + 1] as u32))
    }

    /// Each pair's cheapest chain cost once `cells` cost this side more,
    /// where that is known without a new search: unchanged when no
    /// cheapest chain runs through any of them (every such chain survives
    /// as it was); `None` for a pair where one does (another may avoid
    /// them, or none).
    pub fn dearer(&self, cells: &[Cell; 3]) -> [Option<u32>; 3] {
        std::array::from_fn(|p| {
            let d = self.best[p];
            let through = cells.iter().any(|&c| self.chain_through(c, p) == Some(d));
            (!through).then_some(d)
        })
    }

    /// The cheapest chain of pair `p` through `c`, its cost counted once
    /// (`None` when `c` is out of reach of either side of the pair).
    fn chain_through(&self, c: Cell, p: usize) -> Option<u32> {
        let r = &self.reach[c.index()];
        let (a, b) = (r[2 * p], r[2 * p + 1]);
        // Both reaches leave the cell out: count it once.
        (a != FAR && b != FAR).then(|| a as u32 + b as u32 + self.cost_of(c))
    }

    /// Every cell on a chain costing at most `bound(best)`, split into
    /// non-own and own cells.
    pub fn corridor(&self, pos: &Position, bound: impl Fn(u32) -> u32) -> Corridor {
        let best = self.distance();
        let spread = self.best.iter().map(|d| d.min(&60)).sum();
        let mut on_chain = Bitboard::EMPTY;
        let bound = bound(best);
        if best < FAR as u32 {
            for (p, d) in self.best.iter().enumerate() {
                if *d > bound {
                    continue;
                }
                for c in Bitboard::BOARD.cells() {
                    if self.chain_through(c, p).is_some_and(|cost| cost <= bound) {
                        on_chain.insert(c);
                    }
                }
            }
        }
        let own = pos.visible(self.side);
        Corridor {
            distance: best,
            spread,
            cells: on_chain & !own,
            chain: on_chain & own,
        }
    }
}

/// What making `c` show the side's colour costs: 0 own, 1 cheap, 2 dear.
fn cost_in(sets: (Bitboard, Bitboard, Bitboard), c: Cell) -> u32 {
    if sets.0.contains(c) {
        0
    } else if sets.1.contains(c) {
        1
    } else {
        2
    }
}

/// The cheapest chain's cost and the capped sum over pairs, without maps of
/// the corridor (the evaluation's inner loop).
pub fn distance_and_spread(pos: &Position, side: Side) -> (u32, u32) {
    let sets = cost_sets(pos, side, Costs::CoverOpponent);
    let limit = 40u8;
    let mut best = u32::MAX;
    let mut spread = 0;
    for (a, b) in Edge::PAIRS {
        let d = pair_distance(Bitboard::edge(a), Bitboard::edge(b), sets, limit);
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
    fn bitboard_distances_agree_with_a_plain_dijkstra() {
        use crate::{connection_distance, Player, RandomPlayer};
        for seed in 0..6 {
            let mut r = RandomPlayer::new(seed);
            let mut pos = Position::new(Variant::Standard);
            let mut ply = 0;
            while let Some(m) = r.choose(&pos) {
                pos.make(m);
                ply += 1;
                if ply % 5 == 0 {
                    for side in Side::BOTH {
                        let want = connection_distance(&pos, side).min(41);
                        assert_eq!(
                            distance_and_spread(&pos, side).0,
                            want,
                            "seed {seed} ply {ply}"
                        );
                        let c = corridor(&pos, side, Costs::CoverOpponent, 0);
                        assert_eq!(c.distance.min(41), want);
                    }
                }
            }
        }
    }

    #[test]
    fn with_piece_predicts_the_chain_costs_after_every_addition() {
        use crate::{Player, RandomPlayer};
        use punct_core::{footprint, Move};
        let mut checked = 0;
        for seed in 0..4 {
            let mut r = RandomPlayer::new(seed + 40);
            let mut pos = Position::new(Variant::Standard);
            let mut ply = 0;
            while let Some(m) = r.choose(&pos) {
                pos.make(m);
                ply += 1;
                if ply % 4 != 0 || pos.status().is_over() {
                    continue;
                }
                let side = pos.side_to_move();
                let maps = ChainMaps::new(&pos, side, Costs::CoverOpponent);
                for mv in pos.legal_moves().into_iter().step_by(5) {
                    let Move::Add {
                        kind,
                        punct,
                        rotation,
                    } = mv
                    else {
                        continue;
                    };
                    let cells = footprint(kind, punct, rotation).unwrap();
                    let mut after = pos.clone();
                    after.make(mv);
                    let want = ChainMaps::new(&after, side, Costs::CoverOpponent).pair_distances();
                    assert_eq!(maps.with_piece(&cells), want, "seed {seed} ply {ply} {mv}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_chain_missing_one_cell_has_distance_one_and_that_cell_in_its_corridor() {
        let pos = Position::from_position_string(crate::fixtures::WHITE_THREATENS).unwrap();
        let c = corridor(&pos, Side::White, Costs::Missing, 0);
        assert_eq!(c.distance, 1);
        assert!(c.cells.contains("A8".parse().unwrap()));
        assert!(!c.cells.contains("H5".parse().unwrap()));
        assert_eq!(distance_and_spread(&pos, Side::White).0, 1);
    }
}
