//! `boardspace`: a re-implementation of the approach of the PÜNCT robot that
//! plays on boardspace.net (Dave Dyer's `PunctPlay`, whose source is public),
//! kept as a baseline to measure the real engine against. It is written from
//! the published description and weights, not translated line by line; where
//! the original is ambiguous or tied to its own board representation, the
//! choice made here is stated below.
//!
//! # Search
//!
//! * **Alpha-beta** (negamax) to a fixed depth, **3** by default (option
//!   `Depth`), plus one ply when the thinned candidate list at the root has
//!   fewer than 110 moves and the side to move has more than 5 pieces on the
//!   board, plus another when it has fewer than 160 moves or when any
//!   addition by the opponent would win (standard game: the opponent has one
//!   piece left in reserve and more visible central dots, so the addition
//!   that ends the game wins the count). `limits.depth` replaces this target.
//! * The depth is reached by **iterative deepening** (1, 2, … target) so time,
//!   node and stop limits can end the search: the move of the deepest
//!   completed iteration is played (if not even depth 1 completed, the best
//!   root move evaluated so far, else the first candidate).
//! * **Move ordering** as in the original: at every interior node all
//!   candidates are played and evaluated statically, then searched best
//!   first. At the last ply the children are only evaluated, after a cheap
//!   pass that looks for a move that wins outright (a win is the best a
//!   side can do, so it cuts off at once).
//! * A **node** is one position reached by a move inside the search and
//!   evaluated (statically, or as a finished game). The root analyses below
//!   (immediate wins, the opponent's threats) play every legal move once and
//!   are not counted: they are bounded (a few thousand make/unmake).
//! * **Randomised opening**: for the first two own moves (fewer than two own
//!   pieces on the board) the root keeps exact scores for every move within
//!   [`RANDOM_MARGIN`] of the best and plays one of them at random (option
//!   `Randomize`). Otherwise the first best move in search order is played,
//!   so the engine is deterministic for a seed and a node limit.
//!
//! # Candidate moves (the original's `Vector_Of_Legal_Moves`)
//!
//! * **Additions** ("drops"): the generator already lists one piece per kind
//!   (pieces of a kind are interchangeable). The list (kind, rotation, cell
//!   order) is **thinned to every n-th entry**, n = ⌈additions / 200⌉, so
//!   about 200 additions are considered wherever the search is (the original
//!   skips 20 × remaining-kinds / 6, which gives the same count).
//! * **Relocations** ("moves") only once the mover has **five pieces on the
//!   board**, and only when the target footprint **touches a piece**
//!   (lands on top of something, or one of its cells neighbours an occupied
//!   cell — the moved piece's own vacated cells do not count unless something
//!   lies under them) **or touches the central hexagon**. As in the original's
//!   "substitute drops" filter, a piece whose kind is still in reserve is not
//!   carried more than two steps to a flat, non-central spot on the board (an
//!   addition could do that).
//! * **Immediate wins first**: before searching, every legal move is tried;
//!   one that wins is played at once.
//! * **The opponent's immediate wins**: every legal move of the opponent (as
//!   if it were their turn) is tried; the cells of every one that connects
//!   them form the *killer zone* K. The original then restricts the whole
//!   search, for both sides, to additions with a dot in K (all of them, no
//!   thinning) and to relocations (still contact-filtered) with a dot in K or
//!   on the threatening groups — the opponent groups touching K, with their
//!   empty neighbours (the original's "attacks on the winning lines"). The
//!   search (depth ≥ 2) then finds which of them leave no winning reply. A
//!   win by count with the opponent's last addition does not add to K (every
//!   addition would); that case raises the depth instead. The cells a
//!   relocation vacates inside the searched line join the zone below it (a
//!   new threat may open there), as in the original. If the restricted list
//!   is empty the normal list is used.
//!
//! # Evaluation (the original's `ScoreForPlayer`, per side; the position's
//! value for the side to move is its score minus the opponent's)
//!
//! Cells are the visible dots; a **group** is a set of cells of one colour
//! joined by adjacency (any levels). The three **axes** are the three line
//! directions: the column index (A…Q, joining side A to side Q), the row
//! (1…17, joining row 1 to row 17) and col − row (joining the two diagonal
//! sides). A group's **span along an axis** is the difference between its
//! largest and smallest coordinate on that axis, so a span of 16 on an axis
//! reaches both sides that axis connects (a connection); its **span** is the
//! largest of the three (the best axis).
//!
//! * **Extended span** (the original's `extendedSpan`): the spans of the
//!   bounding box of the group together with its empty neighbours (N1) and
//!   the empty cells next to those (N2). Other own groups are *linked* to it
//!   through shared liberties: each empty cell in N1 of both counts 3 points,
//!   in N1 of one and N2 of the other 2, in N2 of both 1, doubled outside the
//!   central hexagon (no additions there). Links are taken strongest first;
//!   each one extends the box, and the growth `extra` of the largest span is
//!   added with probability min(1, points / p) (halved when `extra` equals
//!   the span so far; a link that more than doubles the span adds nothing).
//!   p = 40 ("a solid connection") for the span term, p = 1 for the threat.
//! * **Span term**: 5 × span × extended span (the original's "square of the
//!   span", one factor softened by the extended span); call span × extended
//!   span S.
//! * **+50 for a one-move connection threat**: the extended span with p = 1
//!   reaches 16 (the group's liberties, or linked groups, touch both sides).
//! * **Contacts**: enemy-visible cells adjacent to the group, −0.2 × S each.
//!   For each contact (own cell c, enemy neighbour c + d) the cell c − d on
//!   the other side decides: enemy there is a **pincer** (−1.0 × S: the
//!   enemy can bridge over c; this follows the original's comment, "contact
//!   matched by a corresponding contact"; its code tests the group's own
//!   colour there), off the board or an empty central cell (where nobody can
//!   add a piece to defend) is a **half-pincer** (−0.1 × S).
//! * **+0.01 per empty neighbour** and **+0.05 per empty central
//!   neighbour** of the group.
//! * **Mobile PÜNCT lines**: for each uncovered piece, the cells in line
//!   with its PÜNCT (where it may travel); +0.1 × (own pieces − enemy
//!   pieces) in line, summed over the group's cells.
//! * A side's score: its best group (at least 0) plus the sum of all its
//!   groups' scores less the best, divided by 100 × the number of groups
//!   (the original's small share of the others).
//! * **Centre term**: if the side shows d > 0 more central dots than the
//!   opponent, + 0.1 × max(pieces on board − 10, 1)² × d², which only matters
//!   late, when reserves run low and the game may end by count.
//! * **A finished game**: a win is worth 150,000 minus the move number
//!   (here: pieces on the board at the root + plies from the root), so nearer
//!   wins are preferred; a draw 0.

use crate::engine::{parse_spin, Budget, Engine, EngineOption, Info, Limits, Score, SearchResult};
use punct_core::{footprint, Bitboard, Cell, Direction, Move, Position, Side, Status, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

const SPAN_WEIGHT: f64 = 5.0;
const CONTACT_WEIGHT: f64 = -0.2;
const HALF_PINCER_WEIGHT: f64 = -0.1;
const PINCER_WEIGHT: f64 = -1.0;
const EMPTY_WEIGHT: f64 = 0.01;
const CENTRE_EMPTY_WEIGHT: f64 = 0.05;
const PLINE_WEIGHT: f64 = 0.1;
const CENTRE_SCORE_WEIGHT: f64 = 0.1;
/// Link points at which two groups count as solidly connected.
const SOLID_LINK_POINTS: f64 = 40.0;
const THREAT_BONUS: f64 = 50.0;
/// Span of a connected group along the axis of the sides it joins.
const WINNING_SPAN: i32 = 16;
/// A win is worth this minus the move number.
const WIN_VALUE: f64 = 150_000.0;
/// Scores beyond this are wins or losses.
const WIN_THRESHOLD: f64 = 100_000.0;
const INF: f64 = 1.0e9;
/// About this many additions are kept at every node.
const ADDITION_TARGET: usize = 200;
/// Own pieces on the board before relocations are considered.
const PIECES_BEFORE_MOVES: u8 = 5;
/// Root moves scoring within this of the best are equally good in the opening.
pub const RANDOM_MARGIN: f64 = 5.0;
/// Own moves of the game that are randomised.
const RANDOM_MOVES: u8 = 2;
const DEFAULT_DEPTH: u32 = 3;
/// Iterations when nothing bounds the depth (`infinite`).
const MAX_DEPTH: u32 = 64;

/// Per-cell tables built once.
struct Tables {
    /// Cells whose neighbour in the direction opposite `d` is off the board.
    no_back: [Bitboard; 6],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let no_back = std::array::from_fn(|d| !Bitboard::BOARD.step(Direction(d as u8)));
        Tables { no_back }
    })
}

/// `b` with every index moved up by `N` (0 < N < 64), unmasked.
#[inline(always)]
fn up<const N: u32>(w: &[u64; 5]) -> [u64; 5] {
    [
        w[0] << N,
        (w[1] << N) | (w[0] >> (64 - N)),
        (w[2] << N) | (w[1] >> (64 - N)),
        (w[3] << N) | (w[2] >> (64 - N)),
        (w[4] << N) | (w[3] >> (64 - N)),
    ]
}

/// `b` with every index moved down by `N` (0 < N < 64), unmasked.
#[inline(always)]
fn down<const N: u32>(w: &[u64; 5]) -> [u64; 5] {
    [
        (w[0] >> N) | (w[1] << (64 - N)),
        (w[1] >> N) | (w[2] << (64 - N)),
        (w[2] >> N) | (w[3] << (64 - N)),
        (w[3] >> N) | (w[4] << (64 - N)),
        w[4] >> N,
    ]
}

/// The cells one step from a cell of `b` in direction `d` (the index
/// offsets of D0…D5 are −1, −19, −18, +1, +19, +18): [`Bitboard::step`]
/// with the shift amounts known at compile time.
#[inline]
fn step(b: Bitboard, d: usize) -> Bitboard {
    let w = match d {
        0 => down::<1>(&b.0),
        1 => down::<19>(&b.0),
        2 => down::<18>(&b.0),
        3 => up::<1>(&b.0),
        4 => up::<19>(&b.0),
        _ => up::<18>(&b.0),
    };
    Bitboard(std::array::from_fn(|i| w[i] & Bitboard::BOARD.0[i]))
}

/// [`Bitboard::grown`]: the set and its neighbours.
#[inline]
fn grow(b: Bitboard) -> Bitboard {
    let w = &b.0;
    let s = [
        down::<1>(w),
        down::<19>(w),
        down::<18>(w),
        up::<1>(w),
        up::<19>(w),
        up::<18>(w),
    ];
    Bitboard(std::array::from_fn(|i| {
        (w[i] | s[0][i] | s[1][i] | s[2][i] | s[3][i] | s[4][i] | s[5][i]) & Bitboard::BOARD.0[i]
    }))
}

#[inline]
fn same(a: Bitboard, b: Bitboard) -> bool {
    (0..5).fold(0, |acc, i| acc | (a.0[i] ^ b.0[i])) == 0
}

/// [`Bitboard::flood`]: the cells of `within` joined to `seed` through it.
#[inline]
fn flood(seed: Bitboard, within: Bitboard) -> Bitboard {
    let mut reached = seed & within;
    loop {
        let next = grow(reached) & within;
        if same(next, reached) {
            return reached;
        }
        reached = next;
    }
}

/// The lowest cell of a non-empty set.
#[inline]
fn first_cell(b: Bitboard) -> Option<Cell> {
    let w = b.0.iter().position(|&x| x != 0)?;
    Cell::from_index(w * 64 + b.0[w].trailing_zeros() as usize)
}

/// The three axis coordinates of a cell: column, row, column − row.
#[inline]
fn axes(c: Cell) -> [i32; 3] {
    let (col, row) = (c.col() as i32, c.row() as i32);
    [col, row, col - row]
}

/// A bounding box along the three axes.
#[derive(Copy, Clone, Debug)]
struct Box3 {
    lo: [i32; 3],
    hi: [i32; 3],
}

impl Box3 {
    const EMPTY: Box3 = Box3 {
        lo: [i32::MAX; 3],
        hi: [i32::MIN; 3],
    };

    fn of(cells: Bitboard) -> Box3 {
        let w = &cells.0;
        // Column c is the 18 bits from index 18c (row 0 is never set).
        let (mut rows, mut diagonals) = (0u64, 0u64);
        let (mut lo_col, mut hi_col) = (i32::MAX, i32::MIN);
        for c in 0..17 {
            let at = 18 * c;
            let (word, bit) = (at / 64, at % 64);
            let mut chunk = w[word] >> bit;
            if bit > 46 {
                chunk |= w[word + 1] << (64 - bit);
            }
            let chunk = chunk & 0x3_FFFF;
            if chunk != 0 {
                lo_col = lo_col.min(c as i32);
                hi_col = c as i32;
                rows |= chunk;
                // Row r of column c at bit r − c + 16, i.e. 16 − (col − row).
                diagonals |= chunk << (16 - c);
            }
        }
        if rows == 0 {
            return Box3::EMPTY;
        }
        let p_lo = diagonals.trailing_zeros() as i32;
        let p_hi = 63 - diagonals.leading_zeros() as i32;
        Box3 {
            lo: [lo_col, rows.trailing_zeros() as i32, 16 - p_hi],
            hi: [hi_col, 63 - rows.leading_zeros() as i32, 16 - p_lo],
        }
    }

    fn union(self, o: Box3) -> Box3 {
        Box3 {
            lo: std::array::from_fn(|k| self.lo[k].min(o.lo[k])),
            hi: std::array::from_fn(|k| self.hi[k].max(o.hi[k])),
        }
    }

    /// The largest span along an axis (0 for an empty box).
    fn span(&self) -> i32 {
        (0..3)
            .map(|k| self.hi[k] - self.lo[k])
            .max()
            .unwrap()
            .max(0)
    }
}

/// One group's measurements.
struct Group {
    #[cfg_attr(not(test), allow(dead_code))]
    cells: Bitboard,
    /// Uncovered own PÜNCTs in line with a cell, less the enemy's, summed.
    #[cfg_attr(not(test), allow(dead_code))]
    lines: i64,
    n1: Bitboard,
    n2: Bitboard,
    /// Box of the group's cells.
    hard: Box3,
    /// Box of the cells and their first and second empty rings.
    ext: Box3,
    /// Terms that are not scaled by the span: empties, central empties, lines.
    flat: f64,
    /// Penalty factors to multiply by span × extended span.
    penalty: f64,
}

/// The static evaluation with reusable buffers.
#[derive(Default)]
struct Evaluator {
    groups: Vec<Group>,
    links: Vec<f64>,
    order: Vec<(usize, f64)>,
    /// The PÜNCT cells of the uncovered pieces, per side.
    mobile: [Bitboard; 2],
    /// Per axis and coordinate (col − row + 9 on the third), White's
    /// uncovered PÜNCTs on that line minus Black's.
    line_diff: [[i32; 18]; 3],
    /// Each side's visible cells moved by each direction.
    vis_step: [[Bitboard; 6]; 2],
    /// The empty central cells moved by each direction.
    central_step: [Bitboard; 6],
}

/// Link points through the cells of `s`, doubled outside the centre.
#[inline]
fn weighted(s: Bitboard) -> f64 {
    let central = (s & Bitboard::CENTRAL).len();
    (2 * (s.len() - central) + central) as f64
}

impl Evaluator {
    /// The position's value for `side`: its score minus the opponent's.
    fn evaluate(&mut self, pos: &Position, side: Side) -> f64 {
        self.collect_mobile(pos);
        let vis = [pos.visible(Side::White), pos.visible(Side::Black)];
        let empty_central = !(vis[0] | vis[1]) & Bitboard::CENTRAL;
        for d in 0..6 {
            self.vis_step[0][d] = step(vis[0], d);
            self.vis_step[1][d] = step(vis[1], d);
            self.central_step[d] = step(empty_central, d);
        }
        self.player_score(pos, side) - self.player_score(pos, side.opponent())
    }

    fn collect_mobile(&mut self, pos: &Position) {
        self.mobile = [Bitboard::EMPTY; 2];
        let occupied = pos.visible(Side::White) | pos.visible(Side::Black);
        for c in occupied.cells() {
            let Some(p) = pos.top_piece(c) else { continue };
            if p.cells[0] != c {
                continue;
            }
            if p.cells[1..]
                .iter()
                .all(|&o| pos.top_piece(o).is_some_and(|q| q.placement == p.placement))
            {
                self.mobile[p.side.index()].insert(c);
            }
        }
        self.line_diff = [[0; 18]; 3];
        for (side, sign) in [(0, 1), (1, -1)] {
            for c in self.mobile[side].cells() {
                let a = axes(c);
                self.line_diff[0][a[0] as usize] += sign;
                self.line_diff[1][a[1] as usize] += sign;
                self.line_diff[2][(a[2] + 9) as usize] += sign;
            }
        }
    }

    fn player_score(&mut self, pos: &Position, side: Side) -> f64 {
        let t = tables();
        let own = pos.visible(side);
        let opp = pos.visible(side.opponent());
        let empty = !(own | opp);
        let opp_step = &self.vis_step[side.opponent().index()];
        self.groups.clear();
        let mut rest = own;
        while let Some(first) = first_cell(rest) {
            let g = flood(Bitboard::single(first), own);
            rest &= !g;
            let grown = grow(g);
            let n1 = grown & empty;
            let n2 = grow(n1) & empty & !n1;
            let contacts = (grown & opp).len();
            let (mut pincers, mut half) = (0, 0);
            for d in 0..6 {
                let touching = g & opp_step[(d + 3) % 6];
                if touching.is_empty() {
                    continue;
                }
                pincers += (touching & opp_step[d]).len();
                half += (touching & (t.no_back[d] | self.central_step[d])).len();
            }
            // Uncovered PÜNCTs in line with each cell: on its three lines,
            // a PÜNCT on the cell itself counted once.
            let mut lines = 0i64;
            let ld = &self.line_diff;
            for c in g.cells() {
                let a = axes(c);
                let on_cell = self.mobile[0].contains(c) as i32 - self.mobile[1].contains(c) as i32;
                lines += (ld[0][a[0] as usize] + ld[1][a[1] as usize] + ld[2][(a[2] + 9) as usize]
                    - 2 * on_cell) as i64;
            }
            if side == Side::Black {
                lines = -lines;
            }
            let hard = Box3::of(g);
            self.groups.push(Group {
                cells: g,
                lines,
                n1,
                n2,
                hard,
                ext: hard.union(Box3::of(n1 | n2)),
                flat: n1.len() as f64 * EMPTY_WEIGHT
                    + (n1 & Bitboard::CENTRAL).len() as f64 * CENTRE_EMPTY_WEIGHT
                    + lines as f64 * PLINE_WEIGHT,
                penalty: contacts as f64 * CONTACT_WEIGHT
                    + half as f64 * HALF_PINCER_WEIGHT
                    + pincers as f64 * PINCER_WEIGHT,
            });
        }
        let n = self.groups.len();
        self.links.clear();
        self.links.resize(n * n, 0.0);
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (&self.groups[i], &self.groups[j]);
                if ((a.n1 | a.n2) & (b.n1 | b.n2)).is_empty() {
                    continue;
                }
                let pts = 3.0 * weighted(a.n1 & b.n1)
                    + 2.0 * weighted((a.n1 & b.n2) | (a.n2 & b.n1))
                    + weighted(a.n2 & b.n2);
                self.links[i * n + j] = pts;
                self.links[j * n + i] = pts;
            }
        }
        let (mut best, mut sum) = (0.0f64, 0.0);
        for i in 0..n {
            let span = self.groups[i].hard.span() as f64;
            let (xspan, xspan_any) = self.extended_span(i);
            let span2 = span * xspan;
            let threat = if xspan_any >= WINNING_SPAN as f64 - 1e-9 {
                THREAT_BONUS
            } else {
                0.0
            };
            let g = &self.groups[i];
            let score = SPAN_WEIGHT * span2 + threat + g.penalty * span2 + g.flat;
            best = best.max(score);
            sum += score;
        }
        let mut val = if n > 0 {
            best + (sum - best) / (n as f64 * 100.0)
        } else {
            0.0
        };
        let lead = pos.central_count(side) as f64 - pos.central_count(side.opponent()) as f64;
        if lead > 0.0 {
            let pieces = (18.0 - pos.reserve_total(side) as f64 - 10.0).max(1.0);
            val += CENTRE_SCORE_WEIGHT * pieces * pieces * lead * lead;
        }
        val
    }

    /// Group `i`'s extended span with links counting fully from
    /// [`SOLID_LINK_POINTS`], and with any link counting fully.
    fn extended_span(&mut self, i: usize) -> (f64, f64) {
        let n = self.groups.len();
        self.order.clear();
        for j in 0..n {
            let pts = self.links[i * n + j];
            if pts > 0.0 {
                self.order.push((j, pts));
            }
        }
        self.order
            .sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let real = self.groups[i].ext.span();
        let mut cmax = real;
        let mut bx = self.groups[i].ext;
        let (mut solid, mut any) = (0.0, 0.0);
        for &(j, pts) in &self.order {
            bx = bx.union(self.groups[j].ext);
            let span = bx.span();
            let extra = span - cmax;
            if extra <= cmax {
                let half = if extra == cmax { 0.5 } else { 1.0 };
                solid += half * (pts / SOLID_LINK_POINTS).min(1.0) * extra as f64;
                any += half * extra as f64;
                cmax = span;
            }
        }
        (real as f64 + solid, real as f64 + any)
    }
}

/// Where the search is restricted to because the opponent threatens to win.
#[derive(Copy, Clone, Debug)]
struct Focus {
    /// Additions must put a dot here (the killer zone).
    drops: Bitboard,
    /// Relocations must put a dot here (killer zone and threatening groups).
    moves: Bitboard,
}

/// What the relocation filter needs about the piece being moved.
struct Lifted {
    kind: punct_core::Kind,
    /// Occupied cells once the piece is lifted.
    occupied: Bitboard,
    /// A piece of this kind is still in reserve.
    in_reserve: bool,
}

impl Lifted {
    fn new(pos: &Position, from: Cell, occupied: Bitboard) -> Lifted {
        let p = pos.top_piece(from).expect("a relocation moves a piece");
        let mut occ = occupied;
        for c in p.cells {
            if p.placement.level == 0 || pos.stack(c).len() <= 1 {
                occ.remove(c);
            }
        }
        Lifted {
            kind: p.kind,
            occupied: occ,
            in_reserve: pos.reserve(p.side, p.kind) > 0,
        }
    }
}

fn cells_of(cells: [Cell; 3]) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for c in cells {
        b.insert(c);
    }
    b
}

fn hex_distance(a: Cell, b: Cell) -> i32 {
    let (x, y) = (axes(a), axes(b));
    (0..3).map(|k| (x[k] - y[k]).abs()).max().unwrap()
}

/// The cells a move puts a dot on.
fn target_cells(pos: &Position, mv: Move) -> Bitboard {
    match mv {
        Move::Add {
            kind,
            punct,
            rotation,
        } => footprint(kind, punct, rotation).map_or(Bitboard::EMPTY, cells_of),
        Move::Relocate { from, to, rotation } => pos
            .top_piece(from)
            .and_then(|p| footprint(p.kind, to, rotation))
            .map_or(Bitboard::EMPTY, cells_of),
        Move::Pass => Bitboard::EMPTY,
    }
}

/// The candidate moves of `pos` (see the module docs), from its legal moves
/// `all`, into `out`.
fn candidates(pos: &Position, all: &[Move], focus: Option<Focus>, out: &mut Vec<Move>) {
    out.clear();
    if all.len() <= 1 {
        out.extend_from_slice(all);
        return;
    }
    let side = pos.side_to_move();
    let n_adds = all
        .iter()
        .take_while(|m| matches!(m, Move::Add { .. }))
        .count();
    match focus {
        Some(f) => out.extend(all[..n_adds].iter().filter(|&&m| {
            let Move::Add {
                kind,
                punct,
                rotation,
            } = m
            else {
                return false;
            };
            footprint(kind, punct, rotation)
                .is_some_and(|cells| !(cells_of(cells) & f.drops).is_empty())
        })),
        None => {
            let step = n_adds.div_ceil(ADDITION_TARGET).max(1);
            out.extend(all[..n_adds].iter().step_by(step));
        }
    }
    if 18 - pos.reserve_total(side) >= PIECES_BEFORE_MOVES {
        let occupied = pos.visible(Side::White) | pos.visible(Side::Black);
        let mut lifted: Option<(Cell, Lifted)> = None;
        for &m in &all[n_adds..] {
            let Move::Relocate { from, to, rotation } = m else {
                continue;
            };
            if lifted.as_ref().is_none_or(|(c, _)| *c != from) {
                lifted = Some((from, Lifted::new(pos, from, occupied)));
            }
            let info = &lifted.as_ref().unwrap().1;
            let Some(cells) = footprint(info.kind, to, rotation) else {
                continue;
            };
            let fb = cells_of(cells);
            if let Some(f) = focus {
                if (fb & f.moves).is_empty() {
                    continue;
                }
            }
            let central = !(fb & Bitboard::CENTRAL).is_empty();
            let on_top = !(fb & info.occupied).is_empty();
            let touches = !(fb.grown() & info.occupied).is_empty();
            if !(central || touches) {
                continue;
            }
            if info.in_reserve && !on_top && !central && hex_distance(from, to) > 2 {
                continue;
            }
            out.push(m);
        }
    }
    if out.is_empty() {
        match focus {
            Some(_) => candidates(pos, all, None, out),
            None => out.extend_from_slice(all),
        }
    }
}

/// The position with the other side to move (same pieces and pass count).
fn flipped(pos: &Position) -> Option<Position> {
    let text = pos.to_position_string();
    let mut fields: Vec<&str> = text.splitn(4, ':').collect();
    if fields.len() != 4 {
        return None;
    }
    fields[1] = if pos.side_to_move() == Side::White {
        "b"
    } else {
        "w"
    };
    Position::from_position_string(&fields.join(":")).ok()
}

/// The killer zone and threatening groups, if the opponent of the side to
/// move could connect with one move.
fn opponent_threats(pos: &Position, budget: &Budget, nodes: u64) -> Option<Focus> {
    let opp = pos.side_to_move().opponent();
    let mut theirs = flipped(pos)?;
    let mut killer = Bitboard::EMPTY;
    for (i, m) in theirs.legal_moves().into_iter().enumerate() {
        if i % 256 == 255 && budget.exhausted(nodes) {
            return None;
        }
        let cells = target_cells(&theirs, m);
        let undo = theirs.make(m);
        if theirs.status() == Status::Won(opp) && theirs.is_connected(opp) {
            killer |= cells;
        }
        theirs.unmake(undo);
    }
    if killer.is_empty() {
        return None;
    }
    let visible = pos.visible(opp);
    let empty = !(visible | pos.visible(opp.opponent()));
    let mut groups = Bitboard::EMPTY;
    let mut rest = killer.grown() & visible;
    while let Some(c) = rest.cells().next() {
        let g = Bitboard::single(c).flood(visible);
        rest &= !g;
        groups |= g | (g.grown() & empty);
    }
    Some(Focus {
        drops: killer,
        moves: killer | groups,
    })
}

/// The boardspace.net robot's approach: see the module docs.
pub struct Boardspace {
    rng: StdRng,
    depth: u32,
    randomize: bool,
}

impl Boardspace {
    pub fn new(seed: u64) -> Boardspace {
        Boardspace {
            rng: StdRng::seed_from_u64(seed),
            depth: DEFAULT_DEPTH,
            randomize: true,
        }
    }
}

/// One search's state.
struct Searcher<'a> {
    budget: Budget<'a>,
    nodes: u64,
    aborted: bool,
    focus: Option<Focus>,
    /// Move number of the root position.
    move_number: f64,
    eval: Evaluator,
    /// Legal-move and candidate buffers per ply.
    all: Vec<Vec<Move>>,
    cands: Vec<Vec<Move>>,
}

impl Searcher<'_> {
    /// Before `m` is played in a restricted search: the cells a relocation
    /// vacates join the killer zone below it (a threat may open there).
    /// Returns the focus to restore afterwards.
    fn widen(&mut self, pos: &Position, m: Move) -> Option<Focus> {
        let saved = self.focus;
        if let (Some(f), Move::Relocate { from, .. }) = (saved, m) {
            if let Some(p) = pos.top_piece(from) {
                let vacated = cells_of(p.cells);
                self.focus = Some(Focus {
                    drops: f.drops | vacated,
                    moves: f.moves | vacated,
                });
            }
        }
        saved
    }

    /// Counts a node and checks the budget.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Value of a finished game for `side`, `ply` plies from the root.
    fn terminal(&self, status: Status, side: Side, ply: u32) -> f64 {
        match status {
            Status::Won(s) => {
                let v = WIN_VALUE - (self.move_number + ply as f64);
                if s == side {
                    v
                } else {
                    -v
                }
            }
            _ => 0.0,
        }
    }

    /// The value for `side` of `pos` (reached `ply` plies from the root),
    /// statically.
    fn static_value(&mut self, pos: &Position, side: Side, ply: u32) -> f64 {
        let status = pos.status();
        if status.is_over() {
            self.terminal(status, side, ply)
        } else {
            self.eval.evaluate(pos, side)
        }
    }

    /// The candidate moves at `ply`, in the ply's buffer (taken out).
    fn gen(&mut self, pos: &Position, ply: usize) -> Vec<Move> {
        while self.all.len() <= ply {
            self.all.push(Vec::new());
            self.cands.push(Vec::new());
        }
        let mut all = std::mem::take(&mut self.all[ply]);
        let mut out = std::mem::take(&mut self.cands[ply]);
        pos.legal_moves_into(&mut all);
        candidates(pos, &all, self.focus, &mut out);
        self.all[ply] = all;
        out
    }

    /// Negamax value of `pos` (ongoing, `ply` plies from the root) for the
    /// side to move, searched `depth` ≥ 1 plies; `pv` gets the best line.
    /// Meaningless once `self.aborted`.
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        beta: f64,
        pv: &mut Vec<Move>,
    ) -> f64 {
        let side = pos.side_to_move();
        let moves = self.gen(pos, ply as usize);
        let mut best = -INF;
        pv.clear();
        if depth == 1 {
            // A move that wins outright is the best there is.
            for &m in &moves {
                let undo = pos.make(m);
                let won = pos.status() == Status::Won(side);
                pos.unmake(undo);
                if won {
                    let v = self.terminal(Status::Won(side), side, ply + 1);
                    if !self.tick() {
                        pv.push(m);
                    }
                    self.cands[ply as usize] = moves;
                    return v;
                }
            }
            let mut best_move = None;
            for &m in &moves {
                let undo = pos.make(m);
                let v = self.static_value(pos, side, ply + 1);
                pos.unmake(undo);
                if self.tick() {
                    break;
                }
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            pv.extend(best_move);
        } else {
            let mut scored: Vec<(f64, Move, bool)> = Vec::with_capacity(moves.len());
            for &m in &moves {
                let undo = pos.make(m);
                let over = pos.status().is_over();
                let v = self.static_value(pos, side, ply + 1);
                pos.unmake(undo);
                if self.tick() {
                    self.cands[ply as usize] = moves;
                    return best;
                }
                scored.push((v, m, over));
            }
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut child_pv = Vec::new();
            for (v0, m, over) in scored {
                let v = if over {
                    child_pv.clear();
                    v0
                } else {
                    let saved = self.widen(pos, m);
                    let undo = pos.make(m);
                    let v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, &mut child_pv);
                    pos.unmake(undo);
                    self.focus = saved;
                    if self.aborted {
                        break;
                    }
                    v
                };
                if v > best {
                    best = v;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&child_pv);
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
        }
        self.cands[ply as usize] = moves;
        best
    }

    /// One root iteration at `depth` over `root` (reordered best first).
    /// Returns the best value, its line, and the moves within `margin` of it
    /// (exact scores), or `None` if the budget ran out. `partial` keeps the
    /// best root move seen so far.
    fn root(
        &mut self,
        pos: &mut Position,
        root: &mut [(Move, f64)],
        depth: u32,
        margin: f64,
        partial: &mut Option<(Move, f64)>,
    ) -> Option<(f64, Vec<Move>, Vec<Move>)> {
        let side = pos.side_to_move();
        let mut best = -INF;
        let mut best_pv = Vec::new();
        let mut child_pv = Vec::new();
        for entry in root.iter_mut() {
            let m = entry.0;
            let saved = self.widen(pos, m);
            let undo = pos.make(m);
            let v = if pos.status().is_over() || depth == 1 {
                child_pv.clear();
                let v = self.static_value(pos, side, 1);
                self.tick();
                v
            } else {
                let floor = if best > -INF { best - margin } else { -INF };
                -self.negamax(pos, depth - 1, 1, -INF, -floor, &mut child_pv)
            };
            pos.unmake(undo);
            self.focus = saved;
            if self.aborted {
                return None;
            }
            entry.1 = v;
            if v > best {
                best = v;
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&child_pv);
                if partial.is_none_or(|(_, pv)| v > pv) {
                    *partial = Some((m, v));
                }
            }
        }
        // Best first, the rest by score (exact or an upper bound).
        root.sort_by(|a, b| b.1.total_cmp(&a.1));
        let near = root
            .iter()
            .take_while(|(_, v)| *v >= best - margin)
            .map(|&(m, _)| m)
            .collect();
        Some((best, best_pv, near))
    }
}

/// Reports the final line and builds the result.
fn finish(
    budget: &Budget,
    nodes: u64,
    best: Move,
    score: Score,
    depth: u32,
    pv: Vec<Move>,
    info: &mut dyn FnMut(&Info),
) -> SearchResult {
    info(&Info {
        multipv: 1,
        depth,
        score,
        nodes,
        elapsed: budget.elapsed(),
        pv: pv.clone(),
    });
    SearchResult {
        best,
        score,
        depth,
        nodes,
        pv,
    }
}

fn to_score(v: f64, move_number: f64) -> Score {
    if v.abs() >= WIN_THRESHOLD {
        let plies = (WIN_VALUE - v.abs() - move_number).round().max(1.0) as u32;
        if v > 0.0 {
            Score::Win(plies)
        } else {
            Score::Loss(plies)
        }
    } else {
        Score::Eval(v.round() as i32)
    }
}

impl Engine for Boardspace {
    fn name(&self) -> String {
        "boardspace".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption::spin("Depth", DEFAULT_DEPTH as i64, 1, 8),
            EngineOption {
                name: "Randomize".into(),
                kind: "check",
                default: "true".into(),
                min: None,
                max: None,
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("Depth") {
            self.depth = parse_spin(name, value, 1, 8)? as u32;
            Ok(())
        } else if name.eq_ignore_ascii_case("Randomize") {
            self.randomize = match value.trim().to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(format!("option {name}: `{value}` is not true or false")),
            };
            Ok(())
        } else {
            Err(format!("unknown option `{name}`"))
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let budget = Budget::new(pos, limits, stop);
        let side = pos.side_to_move();
        let move_number = (36
            - pos.reserve_total(Side::White) as u32
            - pos.reserve_total(Side::Black) as u32
            + 1) as f64;
        let mut s = Searcher {
            budget,
            nodes: 0,
            aborted: false,
            focus: None,
            move_number,
            eval: Evaluator::default(),
            all: Vec::new(),
            cands: Vec::new(),
        };
        let legal = pos.legal_moves();
        if legal.len() <= 1 {
            let best = legal.first().copied().unwrap_or(Move::Pass);
            return finish(
                &s.budget,
                s.nodes,
                best,
                Score::Eval(0),
                0,
                vec![best],
                info,
            );
        }
        let mut work = pos.clone();
        let stopped = s.budget.exhausted(0);
        if !stopped {
            // Immediate wins first.
            for (i, &m) in legal.iter().enumerate() {
                if i % 256 == 255 && s.budget.exhausted(0) {
                    break;
                }
                let undo = work.make(m);
                let won = work.status() == Status::Won(side);
                work.unmake(undo);
                if won {
                    return finish(&s.budget, s.nodes, m, Score::Win(1), 1, vec![m], info);
                }
            }
            s.focus = opponent_threats(pos, &s.budget, 0);
        }
        let mut root_moves = Vec::new();
        candidates(pos, &legal, s.focus, &mut root_moves);
        if stopped || s.budget.exhausted(0) {
            let best = root_moves[0];
            return finish(
                &s.budget,
                s.nodes,
                best,
                Score::Eval(0),
                0,
                vec![best],
                info,
            );
        }
        let own_on_board = 18 - pos.reserve_total(side);
        let opponent_count_wins = pos.variant() == Variant::Standard
            && pos.reserve_total(side.opponent()) == 1
            && pos.central_count(side) < pos.central_count(side.opponent());
        let target = match limits.depth {
            Some(d) => d.max(1),
            None if limits.infinite => MAX_DEPTH,
            None => {
                let n = root_moves.len();
                let mut d = self.depth;
                if n < 110 && own_on_board > 5 {
                    d += 1;
                }
                if n < 160 || opponent_count_wins {
                    d += 1;
                }
                d
            }
        };
        let margin = if self.randomize && own_on_board < RANDOM_MOVES {
            RANDOM_MARGIN
        } else {
            0.0
        };
        let mut root: Vec<(Move, f64)> = root_moves.iter().map(|&m| (m, 0.0)).collect();
        let mut partial = None;
        let mut done: Option<(f64, Vec<Move>, Vec<Move>, u32)> = None;
        for depth in 1..=target {
            match s.root(&mut work, &mut root, depth, margin, &mut partial) {
                Some((v, pv, near)) => {
                    info(&Info {
                        multipv: 1,
                        depth,
                        score: to_score(v, move_number),
                        nodes: s.nodes,
                        elapsed: s.budget.elapsed(),
                        pv: pv.clone(),
                    });
                    let won = v >= WIN_THRESHOLD;
                    done = Some((v, pv, near, depth));
                    if won {
                        break;
                    }
                }
                None => break,
            }
            partial = None;
        }
        match done {
            Some((v, mut pv, near, depth)) => {
                let mut best = pv[0];
                if margin > 0.0 && near.len() > 1 {
                    best = near[self.rng.random_range(0..near.len())];
                    if best != pv[0] {
                        pv = vec![best];
                    }
                }
                finish(
                    &s.budget,
                    s.nodes,
                    best,
                    to_score(v, move_number),
                    depth,
                    pv,
                    info,
                )
            }
            None => {
                let (best, v) = partial.unwrap_or((root_moves[0], 0.0));
                finish(
                    &s.budget,
                    s.nodes,
                    best,
                    to_score(v, move_number),
                    0,
                    vec![best],
                    info,
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{random_position, WHITE_THREATENS};
    use punct_core::Variant;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    fn run(engine: &mut Boardspace, pos: &Position, limits: Limits) -> SearchResult {
        let stop = AtomicBool::new(false);
        let mut infos = 0;
        let r = engine.search(pos, &limits, &stop, &mut |_| infos += 1);
        assert!(infos >= 1, "no info reported");
        r
    }

    #[test]
    fn plays_legal_moves_in_random_positions() {
        for (i, plies) in [0usize, 1, 7, 20, 40, 70].into_iter().enumerate() {
            let variant = if i % 2 == 0 {
                Variant::Standard
            } else {
                Variant::Basic
            };
            let pos = random_position(variant, 100 + i as u64, plies);
            let r = run(&mut Boardspace::new(i as u64), &pos, Limits::nodes(300));
            assert!(
                pos.is_legal(r.best),
                "{}: {}",
                pos.to_position_string(),
                r.best
            );
        }
    }

    #[test]
    fn same_seed_and_node_limit_give_the_same_move() {
        for (seed, plies) in [(3u64, 1usize), (4, 24)] {
            let pos = random_position(Variant::Standard, seed, plies);
            let a = run(&mut Boardspace::new(seed), &pos, Limits::nodes(400));
            let b = run(&mut Boardspace::new(seed), &pos, Limits::nodes(400));
            assert_eq!((a.best, a.nodes), (b.best, b.nodes));
        }
    }

    #[test]
    fn node_limit_is_respected() {
        let pos = random_position(Variant::Standard, 9, 30);
        for limit in [1u64, 50, 500] {
            let r = run(&mut Boardspace::new(1), &pos, Limits::nodes(limit));
            assert!(r.nodes <= limit + 1, "{} > {limit}", r.nodes);
            assert!(pos.is_legal(r.best));
        }
    }

    #[test]
    fn stop_before_the_search_returns_at_once_with_a_legal_move() {
        let pos = random_position(Variant::Standard, 5, 30);
        let stop = AtomicBool::new(true);
        let start = Instant::now();
        let r = Boardspace::new(0).search(&pos, &Limits::default(), &stop, &mut |_| {});
        assert!(start.elapsed() < Duration::from_millis(300));
        assert!(pos.is_legal(r.best));
        stop.store(false, Ordering::Relaxed);
    }

    #[test]
    fn takes_an_immediate_win() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        let r = run(&mut Boardspace::new(0), &pos, Limits::movetime(200));
        let mut after = pos.clone();
        after.play(r.best).unwrap();
        assert_eq!(after.status(), Status::Won(Side::White), "{}", r.best);
        assert_eq!(r.score, Score::Win(1));
    }

    #[test]
    fn blocks_the_opponents_immediate_win() {
        let pos = crate::fixtures::black_must_block();
        let r = run(&mut Boardspace::new(0), &pos, Limits::depth(2));
        let mut after = pos.clone();
        after.play(r.best).unwrap();
        assert!(!after.status().is_over());
        for m in after.legal_moves() {
            let undo = after.make(m);
            assert_ne!(
                after.status(),
                Status::Won(Side::White),
                "{} then {m}",
                r.best
            );
            after.unmake(undo);
        }
    }

    #[test]
    fn opening_moves_are_chosen_among_near_best_at_random() {
        let pos = Position::new(Variant::Standard);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..6 {
            let r = run(&mut Boardspace::new(seed), &pos, Limits::depth(1));
            assert!(pos.is_legal(r.best));
            seen.insert(r.best);
        }
        assert!(seen.len() > 1, "{seen:?}");
        let mut fixed = Boardspace::new(0);
        fixed.set_option("Randomize", "false").unwrap();
        let a = run(&mut fixed, &pos, Limits::depth(1)).best;
        let mut fixed = Boardspace::new(1);
        fixed.set_option("Randomize", "false").unwrap();
        assert_eq!(run(&mut fixed, &pos, Limits::depth(1)).best, a);
    }

    /// Black threatens M12/M13/N14; White's O12-L12/4 would block that but
    /// vacate O12, opening E@N12/5: the cells a relocation vacates must join
    /// the restricted zone inside the search.
    #[test]
    fn a_block_does_not_open_a_new_winning_cell() {
        let pos = Position::from_position_string(
            "standard:w:0:wC@B7/2,wT@B8/3,wE@C4/3,wC@D3/0,wL@F1/2,bR@H3/3,bR@H8/5,\
             bC@I2/2,bE@I5/0,bC@J7/1,bE@K9/4,bE@L9/4,wM@L12/4,bM@N14/3,wL@O10/1,\
             wM@O12/5,wT@P14/1,bM@P17/5,wT@M9/2^1",
        )
        .unwrap();
        let r = run(&mut Boardspace::new(0), &pos, Limits::depth(3));
        let mut after = pos.clone();
        after.play(r.best).unwrap();
        for m in after.legal_moves() {
            let undo = after.make(m);
            assert_ne!(
                after.status(),
                Status::Won(Side::Black),
                "{} then {m}",
                r.best
            );
            after.unmake(undo);
        }
    }

    #[test]
    fn evaluation_prefers_the_long_chain_and_sees_the_threat() {
        let pos = Position::from_position_string(WHITE_THREATENS).unwrap();
        let mut e = Evaluator::default();
        let white = e.evaluate(&pos, Side::White);
        assert!(white > 1000.0, "{white}");
        assert!((e.evaluate(&pos, Side::Black) + white).abs() < 1e-6);
        let mut empty = Evaluator::default();
        assert_eq!(
            empty.evaluate(&Position::new(Variant::Standard), Side::White),
            0.0
        );
    }

    #[test]
    fn candidate_additions_are_thinned_to_about_two_hundred() {
        for plies in [0usize, 12, 40] {
            let pos = random_position(Variant::Standard, 21, plies);
            let all = pos.legal_moves();
            let mut out = Vec::new();
            candidates(&pos, &all, None, &mut out);
            let adds = out.iter().filter(|m| matches!(m, Move::Add { .. })).count();
            assert!(
                adds > 0 && adds <= ADDITION_TARGET,
                "{adds} of {}",
                all.len()
            );
            assert!(out.iter().all(|m| all.contains(m)));
        }
    }

    /// Speed on a mid-game position: `cargo test --release -p punct-engine
    /// boardspace::tests::speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn speed() {
        let pos = random_position(Variant::Standard, 77, 30);
        println!("{}", pos.to_position_string());
        let mut e = Boardspace::new(0);
        let limits = Limits::nodes(
            std::env::var("NODES")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(150_000),
        );
        let mut last = None;
        let stop = AtomicBool::new(false);
        let r = e.search(&pos, &limits, &stop, &mut |i| last = Some(i.clone()));
        let i = last.unwrap();
        println!(
            "best {} depth {} nodes {} in {:?}: {} nodes/s",
            r.best,
            i.depth,
            i.nodes,
            i.elapsed,
            i.nps()
        );
    }

    #[test]
    fn fast_shifts_agree_with_the_bitboard_ones() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let mut b = Bitboard::EMPTY;
            let mut within = Bitboard::EMPTY;
            for c in Cell::all() {
                b.set(c, rng.random_range(0..8) == 0);
                within.set(c, rng.random_range(0..2) == 0);
            }
            assert_eq!(grow(b), b.grown());
            assert_eq!(flood(b, within), b.flood(within));
            for d in 0..6 {
                assert_eq!(step(b, d), b.step(Direction(d as u8)));
            }
            assert_eq!(first_cell(b), b.cells().next());
            let (fast, mut slow) = (Box3::of(b), Box3::EMPTY);
            for c in b.cells() {
                for (k, a) in axes(c).into_iter().enumerate() {
                    slow.lo[k] = slow.lo[k].min(a);
                    slow.hi[k] = slow.hi[k].max(a);
                }
            }
            assert_eq!((fast.lo, fast.hi), (slow.lo, slow.hi));
        }
    }

    #[test]
    fn mobile_line_counts_match_a_direct_count() {
        for plies in [10usize, 30, 60] {
            let pos = random_position(Variant::Basic, 40 + plies as u64, plies);
            let mobile: Vec<(Side, Cell)> = pos
                .pieces()
                .into_iter()
                .filter(|p| p.cells.iter().all(|&c| pos.top_piece(c) == Some(*p)))
                .map(|p| (p.side, p.placement.punct))
                .collect();
            let mut e = Evaluator::default();
            for side in Side::BOTH {
                e.evaluate(&pos, side);
                e.player_score(&pos, side);
                assert!(!e.groups.is_empty());
                for g in &e.groups {
                    let mut direct = 0i64;
                    for c in g.cells.cells() {
                        for &(s, p) in &mobile {
                            if c.in_line_with(p) {
                                direct += if s == side { 1 } else { -1 };
                            }
                        }
                    }
                    assert_eq!(g.lines, direct);
                }
            }
        }
    }

    #[test]
    fn options_are_checked() {
        let mut e = Boardspace::new(0);
        assert!(e.set_option("Depth", "2").is_ok());
        assert!(e.set_option("Depth", "9").is_err());
        assert!(e.set_option("Randomize", "false").is_ok());
        assert!(e.set_option("Nope", "1").is_err());
        assert_eq!(e.options().len(), 2);
    }
}
