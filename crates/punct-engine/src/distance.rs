//! Judging positions: connection distances and the evaluation built on them.

use punct_core::{Bitboard, Cell, Edge, Position, Side, Status};

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
