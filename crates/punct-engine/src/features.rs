//! What the evaluation looks at: a fixed list of whole-number features of an
//! unfinished position, seen from the side to move ("mover") against the
//! other side ("opponent"). The evaluation is a weighted sum of them
//! ([`crate::Weights`]); `punct tune` fits the weights to self-play results.
//!
//! Chain distances are the 0-1-2 costs of [`crate::paths`]: a cell showing
//! the side's colour costs 0, an empty one 1, one showing the opponent 2.
//! Each side has one distance per pair of opposite sides; "best", "second"
//! and "spread" are the smallest, the middle one and their sum.

use punct_core::{Bitboard, Edge, Position, Side};

/// How many features there are.
pub const COUNT: usize = 29;

/// The features' names, as the weights file writes them.
pub const NAMES: [&str; COUNT] = [
    "tempo",
    "mover_best",
    "mover_second",
    "mover_spread",
    "mover_near2",
    "mover_near4",
    "mover_routes",
    "opponent_best",
    "opponent_second",
    "opponent_spread",
    "opponent_near2",
    "opponent_near4",
    "opponent_routes",
    "mover_visible",
    "opponent_visible",
    "mover_stacks",
    "opponent_stacks",
    "mover_movable",
    "opponent_movable",
    "mover_reserve",
    "opponent_reserve",
    "central_early",
    "central_middle",
    "central_late",
    "central_end",
    "central_last",
    "lead_hinge",
    "race_middle",
    "race_late",
];

/// Indices into the feature list.
pub mod index {
    pub const TEMPO: usize = 0;
    /// First of the mover's chain block; the opponent's starts at
    /// `OPPONENT_CHAINS`. Each block: best, second, spread, near2, near4, routes.
    pub const MOVER_CHAINS: usize = 1;
    pub const OPPONENT_CHAINS: usize = 7;
    pub const BEST: usize = 0;
    pub const SECOND: usize = 1;
    pub const SPREAD: usize = 2;
    pub const NEAR2: usize = 3;
    pub const NEAR4: usize = 4;
    pub const ROUTES: usize = 5;
    /// Mover then opponent for each.
    pub const VISIBLE: usize = 13;
    pub const STACKS: usize = 15;
    pub const MOVABLE: usize = 17;
    pub const RESERVE: usize = 19;
    /// The central count's difference, one feature per phase of the game
    /// (see [`super::phase`]).
    pub const CENTRAL: usize = 21;
    pub const LEAD_HINGE: usize = 26;
    /// The best chains' difference (opponent's minus mover's) again in the
    /// middle phase and in the late and end phases: a lead in the race
    /// counts for more as the game runs out.
    pub const RACE: usize = 27;
}

/// Phases of the game by the smaller reserve: early (9 or more pieces
/// left), middle (5–8), late (3–4), end (0–2). `central_last` is the
/// central difference again when the opponent can end the game with its
/// next addition (one piece left), the moment the count decides.
pub fn phase(smaller_reserve: u32) -> usize {
    match smaller_reserve {
        0..=2 => 3,
        3..=4 => 2,
        5..=8 => 1,
        _ => 0,
    }
}

/// Which of the dearer features a set of weights needs: the rest are
/// always computed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Needs {
    /// The mover's distance per pair (the search's leaf passes only its
    /// best and spread): for `mover_second` and `mover_routes`.
    pub mover_pairs: bool,
    /// A walk over the visible pieces: stacks and movable pieces.
    pub pieces: bool,
}

impl Needs {
    /// Everything (for tuning).
    pub const ALL: Needs = Needs {
        mover_pairs: true,
        pieces: true,
    };

    /// What `weights` (one per feature) needs: a feature weighted 0 is
    /// never computed.
    pub fn of(weights: &[i32; COUNT]) -> Needs {
        use index::*;
        let m = |i: usize| weights[MOVER_CHAINS + i] != 0;
        Needs {
            mover_pairs: m(SECOND) || m(ROUTES),
            pieces: weights[STACKS..RESERVE].iter().any(|&w| w != 0),
        }
    }
}

/// Every feature of `pos` (which must be unfinished) for the side to move.
pub fn extract(pos: &Position) -> [i32; COUNT] {
    let mover = pair_distances(pos, pos.side_to_move());
    extract_with(pos, Mover::Pairs(mover), Needs::ALL)
}

/// What is known of the mover's chains before extraction.
#[derive(Copy, Clone, Debug)]
pub enum Mover {
    /// Best and spread (what the search's leaf has).
    BestSpread(u32, u32),
    /// The distance of each pair.
    Pairs([u32; 3]),
}

/// The features, computing only what `needs` asks beyond the cheap ones
/// (features left out are 0).
pub fn extract_with(pos: &Position, mover: Mover, needs: Needs) -> [i32; COUNT] {
    let me = pos.side_to_move();
    let theirs = Chains::of(pair_distances(pos, me.opponent()));
    let mine = match mover {
        Mover::Pairs(p) => Chains::of(p),
        Mover::BestSpread(best, spread) if needs.mover_pairs => {
            let p = pair_distances(pos, me);
            debug_assert_eq!((best, spread), (Chains::of(p).best, Chains::of(p).spread));
            Chains::of(p)
        }
        Mover::BestSpread(best, spread) => Chains {
            best,
            second: 0,
            spread,
            routes: 0,
        },
    };
    extract_chains(pos, mine, theirs, needs)
}

/// The features when both sides' distances per pair are known already
/// (the move ordering finds them from the position before a move).
pub fn extract_with_pairs(
    pos: &Position,
    mover: [u32; 3],
    opponent: [u32; 3],
    needs: Needs,
) -> [i32; COUNT] {
    extract_chains(pos, Chains::of(mover), Chains::of(opponent), needs)
}

fn extract_chains(pos: &Position, mine: Chains, theirs: Chains, needs: Needs) -> [i32; COUNT] {
    use index::*;
    let me = pos.side_to_move();
    let them = me.opponent();
    let mut f = [0i32; COUNT];
    f[TEMPO] = 1;
    chain_block(&mut f[OPPONENT_CHAINS..OPPONENT_CHAINS + 6], theirs);
    chain_block(&mut f[MOVER_CHAINS..OPPONENT_CHAINS], mine);
    // How far the mover trails in the race (capped): a deficit the tempo
    // cannot make up.
    f[LEAD_HINGE] = (mine.best as i32 - theirs.best as i32).clamp(0, 8);
    f[VISIBLE] = pos.visible(me).len() as i32;
    f[VISIBLE + 1] = pos.visible(them).len() as i32;
    if needs.pieces {
        let (ms, mm) = pieces(pos, me);
        let (ts, tm) = pieces(pos, them);
        f[STACKS] = ms;
        f[STACKS + 1] = ts;
        f[MOVABLE] = mm;
        f[MOVABLE + 1] = tm;
    }
    let (rm, rt) = (pos.reserve_total(me) as u32, pos.reserve_total(them) as u32);
    f[RESERVE] = rm as i32;
    f[RESERVE + 1] = rt as i32;
    let centre = pos.central_count(me) as i32 - pos.central_count(them) as i32;
    let ph = phase(rm.min(rt));
    f[CENTRAL + ph] = centre;
    if ph > 0 {
        f[RACE + (ph - 1).min(1)] = theirs.best as i32 - mine.best as i32;
    }
    if rt == 1 {
        f[CENTRAL + 4] = centre;
    }
    f
}

#[derive(Copy, Clone)]
struct Chains {
    best: u32,
    second: u32,
    spread: u32,
    routes: u32,
}

impl Chains {
    fn of(mut d: [u32; 3]) -> Chains {
        d.sort_unstable();
        Chains {
            best: d[0],
            second: d[1],
            spread: d[0] + d[1] + d[2],
            // Other pairs nearly as short: the opponent cannot block them all.
            routes: d[1..].iter().filter(|&&x| x <= d[0] + 2).count() as u32,
        }
    }
}

fn chain_block(out: &mut [i32], c: Chains) {
    use index::*;
    out[BEST] = c.best as i32;
    out[SECOND] = c.second as i32;
    out[SPREAD] = c.spread as i32;
    // A chain that is nearly there is worth more than its length says.
    out[NEAR2] = (2 - c.best as i32).max(0);
    out[NEAR4] = (4 - c.best as i32).max(0);
    out[ROUTES] = c.routes as i32;
}

/// `side`'s stacks (cells of height 2 or more it shows) and movable pieces
/// (on the board and uncovered: every dot visible).
fn pieces(pos: &Position, side: Side) -> (i32, i32) {
    let mut stacks = 0;
    let mut movable = 0;
    for c in pos.visible(side).cells() {
        if pos.height(c) >= 2 {
            stacks += 1;
        }
        // Count each piece once, at its PÜNCT.
        if let Some(p) = pos.top_piece(c) {
            if p.cells[0] == c
                && p.cells[1..].iter().all(|&o| {
                    pos.top_piece(o)
                        .is_some_and(|q| q.placement == p.placement && q.kind == p.kind)
                })
            {
                movable += 1;
            }
        }
    }
    (stacks, movable)
}

/// Farther than any chain looked for: as [`crate::paths::distance_and_spread`].
pub const LIMIT: u8 = 40;

/// `side`'s cheapest chain cost for each pair of opposite sides (in
/// [`Edge::PAIRS`] order), `LIMIT + 1` where none is within `LIMIT`; the
/// same distances as [`crate::paths::distance_and_spread`].
pub fn pair_distances(pos: &Position, side: Side) -> [u32; 3] {
    let sets = cost_sets(pos, side);
    Edge::PAIRS.map(|(a, b)| pair_distance(Bitboard::edge(a), Bitboard::edge(b), sets))
}

/// [`pair_distances`] of the `pair`-th pair alone.
pub fn pair_distance_of(pos: &Position, side: Side, pair: usize) -> u32 {
    let (a, b) = Edge::PAIRS[pair];
    pair_distance(Bitboard::edge(a), Bitboard::edge(b), cost_sets(pos, side))
}

/// The cells `side` gets for 0, 1 and 2.
fn cost_sets(pos: &Position, side: Side) -> (Bitboard, Bitboard, Bitboard) {
    let own = pos.visible(side);
    let theirs = pos.visible(side.opponent());
    (own, !(own | theirs), theirs)
}

/// Bucketed 0-1-2 Dijkstra on bitboards from `a` until it touches `b` (the
/// same walk as `paths`, which keeps its own private).
fn pair_distance(
    a: Bitboard,
    b: Bitboard,
    (zero, one, two): (Bitboard, Bitboard, Bitboard),
) -> u32 {
    let mut grown_before = Bitboard::EMPTY;
    let mut last = a.flood(zero);
    if !(last & b).is_empty() {
        return 0;
    }
    let mut quiet = 0;
    for d in 1..=LIMIT {
        let grown_last = last.grown();
        let mut next = last | (grown_last & one) | (grown_before & two) | (a & one);
        if d >= 2 {
            next |= a & two;
        }
        next = next.flood(next | zero);
        let new = next & !last;
        if !(new & b).is_empty() {
            return d as u32;
        }
        quiet = if new.is_empty() { quiet + 1 } else { 0 };
        if quiet == 2 {
            break;
        }
        grown_before = grown_last;
        last = next;
    }
    LIMIT as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::random_game_positions;
    use crate::paths::distance_and_spread;
    use punct_core::Variant;

    fn random_positions(games: u64) -> Vec<Position> {
        let variant = |seed: u64| {
            if seed % 3 == 2 {
                Variant::Basic
            } else {
                Variant::Standard
            }
        };
        random_game_positions((0..games).map(|seed| (variant(seed), seed + 100)))
    }

    #[test]
    fn pair_distances_agree_with_the_paths_module() {
        for pos in random_positions(8) {
            for side in Side::BOTH {
                let p = pair_distances(&pos, side);
                let (best, spread) = distance_and_spread(&pos, side);
                assert_eq!(*p.iter().min().unwrap(), best);
                assert_eq!(p.iter().sum::<u32>(), spread);
            }
        }
    }

    #[test]
    fn lazy_extraction_matches_the_full_one_where_it_computes() {
        for pos in random_positions(4) {
            let me = pos.side_to_move();
            let full = extract(&pos);
            let (b, s) = distance_and_spread(&pos, me);
            let lazy = extract_with(&pos, Mover::BestSpread(b, s), Needs::default());
            for i in 0..COUNT {
                let skipped = [
                    index::MOVER_CHAINS + index::SECOND,
                    index::MOVER_CHAINS + index::ROUTES,
                    index::STACKS,
                    index::STACKS + 1,
                    index::MOVABLE,
                    index::MOVABLE + 1,
                ];
                if skipped.contains(&i) {
                    assert_eq!(lazy[i], 0, "{}", NAMES[i]);
                } else {
                    assert_eq!(lazy[i], full[i], "{}", NAMES[i]);
                }
            }
            assert_eq!(
                extract_with(&pos, Mover::BestSpread(b, s), Needs::ALL),
                full
            );
        }
    }

    #[test]
    fn movable_pieces_are_those_whose_every_dot_shows() {
        for pos in random_positions(3).into_iter().step_by(7) {
            for side in Side::BOTH {
                let want = pos
                    .pieces()
                    .into_iter()
                    .filter(|p| p.side == side)
                    .filter(|p| {
                        p.cells
                            .iter()
                            .all(|&c| pos.top_piece(c).is_some_and(|q| q.placement == p.placement))
                    })
                    .count() as i32;
                assert_eq!(pieces(&pos, side).1, want);
            }
        }
    }

    #[test]
    fn phase_features_sit_in_the_phase_of_the_smaller_reserve() {
        for pos in random_positions(4) {
            let f = extract(&pos);
            let me = pos.side_to_move();
            let (rm, rt) = (pos.reserve_total(me), pos.reserve_total(me.opponent()));
            let ph = phase(rm.min(rt) as u32);
            let centre = pos.central_count(me) as i32 - pos.central_count(me.opponent()) as i32;
            for p in 0..4 {
                assert_eq!(f[index::CENTRAL + p], if p == ph { centre } else { 0 });
            }
            assert_eq!(f[index::CENTRAL + 4], if rt == 1 { centre } else { 0 });
            let race = f[index::OPPONENT_CHAINS] - f[index::MOVER_CHAINS];
            let want = match ph {
                0 => [0, 0],
                1 => [race, 0],
                _ => [0, race],
            };
            assert_eq!(f[index::RACE..index::RACE + 2], want);
        }
    }

    #[test]
    fn names_are_distinct_words() {
        let mut seen = std::collections::HashSet::new();
        for n in NAMES {
            assert!(n
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
            assert!(seen.insert(n), "{n} twice");
        }
    }
}
