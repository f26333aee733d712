//! Which moves a node searches, best first: a static ranking by what a
//! move does to both sides' chains, re-ranked by a one-ply evaluation.

use super::eval::{evaluate_with, Weights};
use crate::paths::{corridor, ChainMaps, Corridor, Costs};
use punct_core::{footprint, Bitboard, Cell, Move, Position};

/// Ranks every legal move by what it does to both sides' chains, best
/// first, keeping the `width` best (all when `width` is 0); `first` goes
/// first.
///
/// A move's worth is how much it shortens our chains (exact for additions,
/// from the distance maps) plus where its dots land: on the opponent's
/// near-shortest chains (blocking), more where they cover an opponent dot,
/// a little next to our own dots.
/// And the number of legal moves.
fn ranked_and_counted(pos: &Position, width: usize, first: Option<Move>) -> (Vec<Move>, usize) {
    let moves = pos.legal_moves();
    let total = moves.len();
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
    (scored.into_iter().map(|(_, m)| m).collect(), total)
}

/// `moves` with their one-ply evaluations for the mover, best first (stable).
pub(crate) fn one_ply(pos: &Position, moves: Vec<Move>, w: &Weights) -> Vec<(i32, Move)> {
    let mut scratch = pos.clone();
    let mut scored: Vec<(i32, Move)> = moves
        .into_iter()
        .map(|mv| {
            let undo = scratch.make(mv);
            let v = -evaluate_with(&scratch, w);
            scratch.unmake(undo);
            (v, mv)
        })
        .collect();
    scored.sort_by_key(|b| std::cmp::Reverse(b.0));
    scored
}

/// An inner node's candidates: the static ranking's best `3 × width`,
/// re-ranked by their one-ply evaluation, `width` kept; `first` leads.
/// Also returns how many positions were evaluated for it, and how many
/// legal moves there are.
pub(crate) fn candidates(
    pos: &Position,
    width: usize,
    first: Option<Move>,
    w: &Weights,
) -> (Vec<Move>, u64, usize) {
    let (shortlist, total) = ranked_and_counted(pos, 3 * width, None);
    let evaluated = shortlist.len() as u64;
    let mut out: Vec<Move> = first.into_iter().collect();
    for (_, mv) in one_ply(pos, shortlist, w) {
        if out.len() == width {
            break;
        }
        if Some(mv) != first {
            out.push(mv);
        }
    }
    (out, evaluated, total)
}
