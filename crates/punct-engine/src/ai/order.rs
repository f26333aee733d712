//! Which moves a node searches, best first: a static ranking by what a
//! move does to both sides' chains (weighted by a [`Policy`]), re-ranked
//! by a one-ply evaluation.

use super::eval::{evaluate_pairs, evaluate_with, Weights};
use super::policy::{
    Policy, CENTRAL, CENTRAL_LATE, COUNT, COVERS_THEIR_DOTS, IN_PLACE, LEAVES_CENTRE,
    LEAVES_OWN_CHAIN, NEXT_TO_OWN, OWN_CORRIDOR, RELOCATION, SHORTER_BEST, SHORTER_PAIRS,
    THEIR_CORRIDOR,
};
use crate::features::{pair_distance_of, pair_distances, phase, LIMIT};
use crate::paths::{ChainMaps, Corridor, Costs, SLOTS};
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
    let both = BothMaps::new(pos);
    let terms = Terms::new(pos, &both);
    pos.legal_moves()
        .into_iter()
        .map(|mv| (mv, terms.features(mv)))
        .collect()
}

/// Both sides' distance maps of a position (the side to move's first):
/// the ranking reads the chains from them, and the one-ply judging most
/// children's chains.
pub(crate) struct BothMaps {
    mine: ChainMaps,
    theirs: ChainMaps,
}

impl BothMaps {
    pub(crate) fn new(pos: &Position) -> BothMaps {
        let me = pos.side_to_move();
        BothMaps {
            mine: ChainMaps::new(pos, me, Costs::CoverOpponent),
            theirs: ChainMaps::new(pos, me.opponent(), Costs::CoverOpponent),
        }
    }
}

/// What a position's moves are ranked by, found once for all of them.
struct Terms<'a> {
    pos: &'a Position,
    maps: &'a ChainMaps,
    before: [u32; 3],
    best_before: u32,
    mine: Corridor,
    theirs: Bitboard,
    covers: Bitboard,
    near_own: Bitboard,
    centre: Bitboard,
    late: i32,
}

impl<'a> Terms<'a> {
    fn new(pos: &'a Position, both: &'a BothMaps) -> Terms<'a> {
        let me = pos.side_to_move();
        let maps = &both.mine;
        let theirs = both.theirs.corridor(pos, |best| best + 1).cells;
        let smaller_reserve = pos.reserve_total(me).min(pos.reserve_total(me.opponent())) as u32;
        Terms {
            pos,
            maps,
            before: maps.pair_distances(),
            best_before: maps.distance(),
            mine: maps.corridor(pos, |best| best + 1),
            theirs,
            covers: theirs & pos.visible(me.opponent()),
            near_own: pos.visible(me).grown(),
            // The central count decides the standard game only.
            centre: match pos.variant() {
                Variant::Standard => Bitboard::CENTRAL,
                Variant::Basic => Bitboard::EMPTY,
            },
            late: i32::from(phase(smaller_reserve) >= 2),
        }
    }

    /// How much shorter a piece landing on `cells` makes our best chain
    /// and our three chains together.
    fn shorter(&self, cells: &[Cell; 3]) -> (i32, i32) {
        let after = self.maps.with_piece(cells);
        let best_after = after.iter().copied().min().unwrap_or(self.best_before);
        let pairs: u32 = self.before.iter().zip(after).map(|(b, a)| b - a).sum();
        ((self.best_before - best_after) as i32, pairs as i32)
    }

    /// The chain terms of a piece landing on `cells`.
    fn chains(&self, cells: &[Cell; 3], f: &mut [i32; COUNT]) {
        (f[SHORTER_BEST], f[SHORTER_PAIRS]) = self.shorter(cells);
    }

    /// A dot's own terms, for a piece landing with it on `c`.
    fn dot(&self, c: Cell, f: &mut [i32; COUNT]) {
        f[OWN_CORRIDOR] += i32::from(self.mine.cells.contains(c));
        f[THEIR_CORRIDOR] += i32::from(self.theirs.contains(c));
        f[COVERS_THEIR_DOTS] += i32::from(self.covers.contains(c));
        f[NEXT_TO_OWN] += i32::from(self.near_own.contains(c));
        f[CENTRAL] += i32::from(self.centre.contains(c));
        f[CENTRAL_LATE] += self.late * i32::from(self.centre.contains(c));
    }

    /// `mv`'s counts, and where its piece lands: the terms for the cells
    /// it lands on are left to the caller.
    fn features_but_dots(&self, mv: Move, f: &mut [i32; COUNT]) -> Option<[Cell; 3]> {
        match mv {
            Move::Add {
                kind,
                punct,
                rotation,
            } => {
                let cells = footprint(kind, punct, rotation)?;
                self.chains(&cells, f);
                Some(cells)
            }
            Move::Relocate { from, to, rotation } => {
                f[RELOCATION] = 1;
                f[IN_PLACE] = i32::from(from == to);
                let p = self.pos.top_piece(from)?;
                let to_cells = footprint(p.kind, to, rotation);
                if let Some(cells) = &to_cells {
                    self.chains(cells, f);
                }
                let left = p
                    .cells
                    .iter()
                    .filter(|c| to_cells.is_none_or(|t| !t.contains(c)));
                f[LEAVES_OWN_CHAIN] = left
                    .clone()
                    .filter(|c| self.mine.chain.contains(**c))
                    .count() as i32;
                f[LEAVES_CENTRE] = left.filter(|c| self.centre.contains(**c)).count() as i32;
                to_cells
            }
            Move::Pass => None,
        }
    }

    /// Every count of `mv` (see [`super::policy::NAMES`]).
    fn features(&self, mv: Move) -> [i32; COUNT] {
        let mut f = [0i32; COUNT];
        if let Some(cells) = self.features_but_dots(mv, &mut f) {
            for c in cells {
                self.dot(c, &mut f);
            }
        }
        f
    }

    /// What `policy` gives a dot on each cell: the dot terms are the same
    /// for every move landing there, so [`Self::score`] adds three of
    /// these instead of counting them move by move.
    fn dot_scores(&self, policy: &Policy) -> Box<[i32; SLOTS]> {
        let mut table = Box::new([0i32; SLOTS]);
        for c in Bitboard::BOARD.cells() {
            let mut f = [0i32; COUNT];
            self.dot(c, &mut f);
            table[c.index()] = policy.score(&f);
        }
        table
    }

    /// `policy`'s score of `mv`: `policy.score(&self.features(mv))`.
    fn score(&self, policy: &Policy, dots: &[i32; SLOTS], mv: Move) -> i32 {
        if let Move::Add {
            kind,
            punct,
            rotation,
        } = mv
        {
            // Most moves: the chain terms and three dots, summed directly.
            let Some(cells) = footprint(kind, punct, rotation) else {
                return 0;
            };
            let (best, pairs) = self.shorter(&cells);
            let w = policy.weights();
            return w[SHORTER_BEST] * best
                + w[SHORTER_PAIRS] * pairs
                + cells.iter().map(|c| dots[c.index()]).sum::<i32>();
        }
        let mut f = [0i32; COUNT];
        let landed = self.features_but_dots(mv, &mut f);
        policy.score(&f) + landed.map_or(0, |cells| cells.iter().map(|c| dots[c.index()]).sum())
    }
}

/// Ranks every legal move by `policy`, best first, keeping the `width`
/// best (all when `width` is 0). And the number of legal moves.
fn ranked_and_counted(
    pos: &Position,
    both: &BothMaps,
    width: usize,
    policy: &Policy,
) -> (Vec<Move>, usize) {
    let terms = Terms::new(pos, both);
    let dots = terms.dot_scores(policy);
    let mut scored: Vec<(i32, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| (terms.score(policy, &dots, mv), mv))
        .collect();
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
    ranked_and_counted(pos, &BothMaps::new(pos), width, policy).0
}

/// `moves` with their one-ply evaluations for the mover, best first (stable).
pub(crate) fn one_ply(pos: &Position, moves: Vec<Move>, w: &Weights) -> Vec<(i32, Move)> {
    one_ply_with(pos, Some(&BothMaps::new(pos)), moves, w)
        .into_iter()
        .map(|(v, mv, _)| (v, mv))
        .collect()
}

/// What judging a move one ply deep found of the unfinished position
/// after it, seen from the side to move there: both sides' chain costs per
/// pair and the evaluation (without a level's noise). The search's node
/// for that position starts from it instead of finding it again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    pub(crate) mover: [u32; 3],
    pub(crate) opponent: [u32; 3],
    pub(crate) eval: i32,
}

/// [`one_ply`] with what each move's position was found to be, reading
/// the chains after an addition from `both` (the maps of `pos`) where
/// they tell them: the same evaluations, most searches for chains left
/// out.
fn one_ply_with(
    pos: &Position,
    both: Option<&BothMaps>,
    moves: Vec<Move>,
    w: &Weights,
) -> Vec<(i32, Move, Option<Known>)> {
    let me = pos.side_to_move();
    let mut scratch = pos.clone();
    let mut scored: Vec<(i32, Move, Option<Known>)> = moves
        .into_iter()
        .map(|mv| {
            let undo = scratch.make(mv);
            let known = if scratch.status().is_over() {
                None
            } else {
                let (theirs, ours) = match (both, mv) {
                    (
                        Some(both),
                        Move::Add {
                            kind,
                            punct,
                            rotation,
                        },
                    ) => {
                        let cells = footprint(kind, punct, rotation).expect("a legal addition");
                        // An addition lands on empty cells: they now show
                        // our colour (exact from our maps) and cost the
                        // opponent more (from theirs, unless a cheapest
                        // chain ran there).
                        let cap = |d: u32| d.min(LIMIT as u32 + 1);
                        let ours = both.mine.with_piece(&cells).map(cap);
                        let mut pair = 0;
                        let theirs = both.theirs.dearer(&cells).map(|known| {
                            pair += 1;
                            match known {
                                Some(d) => cap(d),
                                None => pair_distance_of(&scratch, me.opponent(), pair - 1),
                            }
                        });
                        (theirs, ours)
                    }
                    _ => (
                        pair_distances(&scratch, me.opponent()),
                        pair_distances(&scratch, me),
                    ),
                };
                Some(Known {
                    mover: theirs,
                    opponent: ours,
                    eval: evaluate_pairs(&scratch, theirs, ours, w),
                })
            };
            let v = match known {
                Some(k) => -k.eval,
                None => -evaluate_with(&scratch, w),
            };
            scratch.unmake(undo);
            (v, mv, known)
        })
        .collect();
    scored.sort_by_key(|b| std::cmp::Reverse(b.0));
    scored
}

/// An inner node's candidates before any move is put first: the static
/// ranking's best `judged` (at least `width`), re-ranked by their one-ply
/// evaluation, `width` kept, each with what was found of the position
/// after it. Also how many positions were evaluated for it, and how many
/// legal moves there are.
pub(crate) fn judged(
    pos: &Position,
    width: usize,
    judged: usize,
    w: &Weights,
    policy: &Policy,
) -> (Vec<(Move, Option<Known>)>, u64, usize) {
    let both = BothMaps::new(pos);
    let (shortlist, total) = ranked_and_counted(pos, &both, judged.max(width), policy);
    let evaluated = shortlist.len() as u64;
    let mut out: Vec<(Move, Option<Known>)> = one_ply_with(pos, Some(&both), shortlist, w)
        .into_iter()
        .map(|(_, mv, known)| (mv, known))
        .collect();
    out.truncate(width);
    (out, evaluated, total)
}

/// `width` candidates from [`judged`]'s list with `first` leading.
pub(crate) fn led_by(
    list: &[(Move, Option<Known>)],
    first: Option<Move>,
    width: usize,
) -> Vec<(Move, Option<Known>)> {
    let mut out: Vec<(Move, Option<Known>)> = first
        .map(|m| (m, list.iter().find(|c| c.0 == m).and_then(|c| c.1)))
        .into_iter()
        .collect();
    for &c in list {
        if out.len() == width {
            break;
        }
        if Some(c.0) != first {
            out.push(c);
        }
    }
    out
}

/// An inner node's candidates: [`judged`] led by `first`, with the
/// positions evaluated and the legal moves counted.
#[cfg(test)]
pub(crate) fn candidates(
    pos: &Position,
    width: usize,
    judged_count: usize,
    first: Option<Move>,
    w: &Weights,
    policy: &Policy,
) -> (Vec<(Move, Option<Known>)>, u64, usize) {
    let (list, evaluated, total) = judged(pos, width, judged_count, w, policy);
    (led_by(&list, first, width), evaluated, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::pair_distances;
    use crate::fixtures::random_game_positions;

    fn positions() -> Vec<Position> {
        let games = (0..8u64).map(|seed| {
            let variant = if seed % 2 == 0 {
                Variant::Standard
            } else {
                Variant::Basic
            };
            (variant, seed + 300)
        });
        random_game_positions(games)
            .into_iter()
            .filter(|p| !p.status().is_over())
            .step_by(3)
            .collect()
    }

    #[test]
    fn the_ranking_scores_every_move_as_the_policy_scores_its_counts() {
        let positions = positions();
        assert!(positions.len() > 40, "{}", positions.len());
        let reversed = Policy::new(Policy::hand().weights().map(|w| -w)).unwrap();
        let mut moves = 0;
        for pos in &positions {
            let both = BothMaps::new(pos);
            let terms = Terms::new(pos, &both);
            for policy in [Policy::tuned(), Policy::hand(), reversed.clone()] {
                let dots = terms.dot_scores(&policy);
                for (mv, f) in move_features(pos) {
                    assert_eq!(
                        terms.score(&policy, &dots, mv),
                        policy.score(&f),
                        "{mv} in {}",
                        pos.to_position_string()
                    );
                    moves += 1;
                }
            }
        }
        assert!(moves > 10_000, "{moves}");
    }

    #[test]
    fn judging_with_the_maps_finds_what_judging_from_scratch_finds() {
        let w = Weights::default();
        let mut additions = 0;
        for pos in positions() {
            let both = BothMaps::new(&pos);
            let moves = pos.legal_moves();
            let with = one_ply_with(&pos, Some(&both), moves.clone(), &w);
            let without = one_ply_with(&pos, None, moves, &w);
            assert_eq!(with, without, "{}", pos.to_position_string());
            for (v, mv, known) in with {
                let mut after = pos.clone();
                after.make(mv);
                assert_eq!(v, -evaluate_with(&after, &w), "{mv}");
                let Some(k) = known else {
                    assert!(after.status().is_over(), "{mv}");
                    continue;
                };
                let side = after.side_to_move();
                assert_eq!(k.mover, pair_distances(&after, side), "{mv}");
                assert_eq!(k.opponent, pair_distances(&after, side.opponent()), "{mv}");
                additions += usize::from(matches!(mv, Move::Add { .. }));
            }
        }
        assert!(additions > 5_000, "{additions}");
    }
}
