//! A set of cells as 320 bits over the padded index space of [`crate::board`].

use crate::board::{Cell, Direction, Edge, ON_BOARD, SLOTS};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

const WORDS: usize = 5;

/// A set of cells. Bits outside the board are kept clear by every operation
/// that could set them (`!` and shifts mask with [`Bitboard::BOARD`]).
#[derive(Copy, Clone, Eq, Default)]
pub struct Bitboard(pub [u64; WORDS]);

impl std::hash::Hash for Bitboard {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

// By hand: the derived comparison of the word array calls `memcmp`, which
// cost a sixth of the search's time inside `flood`'s loop.
impl PartialEq for Bitboard {
    #[inline]
    fn eq(&self, other: &Bitboard) -> bool {
        let mut diff = 0;
        for w in 0..WORDS {
            diff |= self.0[w] ^ other.0[w];
        }
        diff == 0
    }
}

const fn build_mask(central_only: bool, edge: i32) -> Bitboard {
    let mut w = [0u64; WORDS];
    let mut i = 0;
    while i < SLOTS {
        if ON_BOARD[i] {
            let col = (i / 18) as i32;
            let row = (i % 18) as i32;
            let q = col - 8;
            let r = row - 9;
            let d = q - r;
            let keep = if central_only {
                let m = if q.abs() > r.abs() { q.abs() } else { r.abs() };
                let m = if d.abs() > m { d.abs() } else { m };
                m <= 2
            } else {
                match edge {
                    0 => col == 0,
                    1 => col == 16,
                    2 => row == 1,
                    3 => row == 17,
                    4 => col - row == 7,
                    5 => col - row == -9,
                    _ => true,
                }
            };
            if keep {
                w[i / 64] |= 1 << (i % 64);
            }
        }
        i += 1;
    }
    Bitboard(w)
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);
    /// All 211 cells.
    pub const BOARD: Bitboard = build_mask(false, -1);
    /// The 19 cells of the central hexagon.
    pub const CENTRAL: Bitboard = build_mask(true, -1);

    /// The seven cells of a side.
    pub const fn edge(edge: Edge) -> Bitboard {
        const MASKS: [Bitboard; 6] = [
            build_mask(false, 0),
            build_mask(false, 1),
            build_mask(false, 2),
            build_mask(false, 3),
            build_mask(false, 4),
            build_mask(false, 5),
        ];
        MASKS[edge as usize]
    }

    #[inline]
    pub fn single(cell: Cell) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        b.insert(cell);
        b
    }

    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let i = cell.index();
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }

    #[inline]
    pub fn set(&mut self, cell: Cell, on: bool) {
        if on {
            self.insert(cell)
        } else {
            self.remove(cell)
        }
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Every index moved by `by` (positive: towards higher indices). Bits
    /// pushed out of the 320-bit range are lost; the result is not masked.
    #[inline]
    pub fn shifted_raw(self, by: i32) -> Bitboard {
        let mut out = [0u64; WORDS];
        let n = by.unsigned_abs() as usize;
        let (ws, bs) = (n / 64, n % 64);
        if by >= 0 {
            for i in (ws..WORDS).rev() {
                let mut v = self.0[i - ws] << bs;
                if bs > 0 && i > ws {
                    v |= self.0[i - ws - 1] >> (64 - bs);
                }
                out[i] = v;
            }
        } else {
            for (i, o) in out.iter_mut().enumerate().take(WORDS - ws) {
                let mut v = self.0[i + ws] >> bs;
                if bs > 0 && i + ws + 1 < WORDS {
                    v |= self.0[i + ws + 1] << (64 - bs);
                }
                *o = v;
            }
        }
        Bitboard(out)
    }

    /// The cells one step in direction `d` from a cell of the set.
    #[inline]
    pub fn step(self, d: Direction) -> Bitboard {
        self.shifted_raw(d.offset()) & Bitboard::BOARD
    }

    /// The set together with all its neighbours.
    #[inline]
    pub fn grown(self) -> Bitboard {
        let mut g = self;
        for d in Direction::ALL {
            g |= self.shifted_raw(d.offset());
        }
        g & Bitboard::BOARD
    }

    /// The cells of `within` reachable from `self ∩ within` through `within`.
    pub fn flood(self, within: Bitboard) -> Bitboard {
        let mut reached = self & within;
        loop {
            let next = reached.grown() & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// The cells of the set in index order.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let words = self.0;
        (0..WORDS).flat_map(move |w| {
            let mut bits = words[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Cell::from_index(w * 64 + b)
            })
        })
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        let mut r = self;
        r &= o;
        r
    }
}
impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        for i in 0..WORDS {
            self.0[i] &= o.0[i];
        }
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        let mut r = self;
        r |= o;
        r
    }
}
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        for i in 0..WORDS {
            self.0[i] |= o.0[i];
        }
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the board.
    #[inline]
    fn not(self) -> Bitboard {
        let mut r = self;
        for i in 0..WORDS {
            r.0[i] = !r.0[i] & Bitboard::BOARD.0[i];
        }
        r
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.cells()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(Bitboard::BOARD.len(), 211);
        assert_eq!(Bitboard::CENTRAL.len(), 19);
        for (a, b) in Edge::PAIRS {
            assert_eq!(Bitboard::edge(a).len(), 7);
            assert_eq!(Bitboard::edge(b).len(), 7);
        }
    }

    #[test]
    fn steps_agree_with_cell_neighbours() {
        for cell in Cell::all() {
            for d in Direction::ALL {
                let stepped = Bitboard::single(cell).step(d);
                let expect = cell.neighbour(d).map(Bitboard::single).unwrap_or_default();
                assert_eq!(stepped, expect, "{cell} {d:?}");
            }
        }
    }

    #[test]
    fn flood_reaches_only_connected_cells() {
        let path: Vec<Cell> = ["A5", "B5", "C5"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let mut within = Bitboard::EMPTY;
        for &c in &path {
            within.insert(c);
        }
        within.insert("E5".parse().unwrap());
        let reached = Bitboard::single(path[0]).flood(within);
        assert_eq!(reached.len(), 3);
    }
}
