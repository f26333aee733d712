//! Which moves a node searches, best first: a static ranking by what a
//! move does to both sides' chains (weighted by a [`Policy`]), re-ranked
//! by a one-ply evaluation.

use super::eval::{evaluate_with, Weights};
use super::policy::{
    Policy, CENTRAL, CENTRAL_LATE, COUNT, COVERS_THEIR_DOTS, IN_PLACE, LEAVES_CENTRE,
    LEAVES_OWN_CHAIN, NEXT_TO_OWN, OWN_CORRIDOR, RELOCATION, SHORTER_BEST, SHORTER_PAIRS,
    THEIR_CORRIDOR,
};
use crate::features::phase;
use crate::paths::{corridor, ChainMaps, Corridor, Costs};
use punct_core::{footprint, Bitboard, Cell, Move, Position, Variant};

/// Every legal move with what the static ranking looks at in it (see
/// [`super::policy::NAMES`]).
///
/// A move's chain terms are exact for additions, from the distance maps;
/// its dots count where they land: on the opponent's near-shortest chains
/// (blocking), on one of their dots there, on our own near-shortest
/// chains, next to our dots. Lifting a piece uncovers what is below: our
/// chain cells it leaves may stop showing our colour.
pub(crate) fn move_features(pos: &Position) -> Vec<(Move, [i32; COUNT])> {
    let mut out = Vec::new();
    each_move_features(pos, |mv, f| out.push((mv, *f)));
    out
}

/// [`move_features`] handed to `visit` move by move, in the legal moves'
/// order: the search ranks them as they come, with no list in between.
fn each_move_features(pos: &Position, mut visit: impl FnMut(Move, &[i32; COUNT])) {
    let moves = pos.legal_moves();
    let me = pos.side_to_move();
    let maps = ChainMaps::new(pos, me, Costs::CoverOpponent);
    let before = maps.pair_distances();
    let best_before = maps.distance();
    let mine: Corridor = maps.corridor(pos, |best| best + 1);
    let theirs = corridor(pos, me.opponent(), Costs::CoverOpponent, 1).cells;
    let covers = theirs & pos.visible(me.opponent());
    let near_own = pos.visible(me).grown();
    // The central count decides the standard game only.
    let centre = match pos.variant() {
        Variant::Standard => Bitboard::CENTRAL,
        Variant::Basic => Bitboard::EMPTY,
    };
    let smaller_reserve = pos.reserve_total(me).min(pos.reserve_total(me.opponent())) as u32;
    let late = i32::from(phase(smaller_reserve) >= 2);
    let placed = |cells: &[Cell; 3], f: &mut [i32; COUNT]| {
        let after = maps.with_piece(cells);
        let best_after = after.iter().copied().min().unwrap_or(best_before);
        f[SHORTER_BEST] = (best_before - best_after) as i32;
        f[SHORTER_PAIRS] = before.iter().zip(after).map(|(b, a)| b - a).sum::<u32>() as i32;
        for &c in cells {
            f[OWN_CORRIDOR] += i32::from(mine.cells.contains(c));
            f[THEIR_CORRIDOR] += i32::from(theirs.contains(c));
            f[COVERS_THEIR_DOTS] += i32::from(covers.contains(c));
            f[NEXT_TO_OWN] += i32::from(near_own.contains(c));
            f[CENTRAL] += i32::from(centre.contains(c));
        }
        f[CENTRAL_LATE] = late * f[CENTRAL];
    };
    for mv in moves {
        let mut f = [0i32; COUNT];
        match mv {
            Move::Add {
                kind,
                punct,
                rotation,
            } => {
                if let Some(cells) = footprint(kind, punct, rotation) {
                    placed(&cells, &mut f);
                }
            }
            Move::Relocate { from, to, rotation } => {
                if let Some(p) = pos.top_piece(from) {
                    let to_cells = footprint(p.kind, to, rotation);
                    if let Some(cells) = &to_cells {
                        placed(cells, &mut f);
                    }
                    let left = p
                        .cells
                        .iter()
                        .filter(|c| to_cells.is_none_or(|t| !t.contains(c)));
                    f[LEAVES_OWN_CHAIN] =
                        left.clone().filter(|c| mine.chain.contains(**c)).count() as i32;
                    f[LEAVES_CENTRE] = left.filter(|c| centre.contains(**c)).count() as i32;
                }
                f[RELOCATION] = 1;
                f[IN_PLACE] = i32::from(from == to);
            }
            Move::Pass => {}
        }
        visit(mv, &f);
    }
}

/// Ranks every legal move by `policy`, best first, keeping the `width`
/// best (all when `width` is 0). And the number of legal moves.
fn ranked_and_counted(pos: &Position, width: usize, policy: &Policy) -> (Vec<Move>, usize) {
    let mut scored: Vec<(i32, Move)> = Vec::new();
    each_move_features(pos, |mv, f| scored.push((policy.score(f), mv)));
    let total = scored.len();
    if scored.len() > width && width > 0 {
        scored.select_nth_unstable_by(width - 1, |a, b| b.0.cmp(&a.0));
        scored.truncate(width);
    }
    // Stable order among equals keeps the search deterministic.
    scored.sort_by_key(|b| std::cmp::Reverse(b.0));
    (scored.into_iter().map(|(_, m)| m).collect(), total)
}

/// The static ranking's best `width` legal moves, best first (all when
/// `width` is 0).
pub(crate) fn shortlist(pos: &Position, width: usize, policy: &Policy) -> Vec<Move> {
    ranked_and_counted(pos, width, policy).0
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

/// An inner node's candidates: the static ranking's best `judged` (at
/// least `width`), re-ranked by their one-ply evaluation, `width` kept;
/// `first` leads.
/// Also returns how many positions were evaluated for it, and how many
/// legal moves there are.
pub(crate) fn candidates(
    pos: &Position,
    width: usize,
    judged: usize,
    first: Option<Move>,
    w: &Weights,
    policy: &Policy,
) -> (Vec<Move>, u64, usize) {
    let (shortlist, total) = ranked_and_counted(pos, judged.max(width), policy);
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
