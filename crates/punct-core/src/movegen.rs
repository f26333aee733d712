//! Legal-move generation and counting (the fast path), and perft.

use crate::bitboard::Bitboard;
use crate::board::{Cell, Direction, SLOTS};
use crate::moves::Move;
use crate::piece::{Kind, Side, FOOTPRINT_OFFSETS};
use crate::position::{slot_kind, slot_side, Position, NONE};

/// Heights and top dots that generation may change (to lift the piece being
/// moved) without touching the position.
struct Scratch {
    height: [u8; SLOTS],
    top: [u8; SLOTS],
}

/// The level a piece of `kind` lands at on footprint `f` (PÜNCT first) for
/// `side`, or `None` if it may not land there. The piece being moved must
/// already be lifted out of `s`. This is the whole landing rule: on the board;
/// flat on equal heights; or a bridge with both ends at the top height; and
/// above level 0 the PÜNCT's cell must show the mover's colour (which also
/// rules out a C/M PÜNCT bridged over an empty cell).
#[inline(always)]
fn landing(kind: Kind, f: [usize; 3], s: &Scratch, side: Side) -> Option<u8> {
    let h = [s.height[f[0]], s.height[f[1]], s.height[f[2]]];
    let l = h[0].max(h[1]).max(h[2]);
    if l == 0 {
        return Some(0);
    }
    let t = s.top[f[0]];
    if t == NONE || slot_side(t) != side {
        return None;
    }
    if h[0] == l && h[1] == l && h[2] == l {
        return Some(l);
    }
    let b = kind.bridge()?;
    // Not flat, so with both ends at `l` the middle is lower: a bridge.
    (h[b.ends[0]] == l && h[b.ends[1]] == l).then_some(l)
}

impl Position {
    /// The cells where an addition's dots may go: empty, and outside the
    /// central hexagon when the centre ban applies.
    #[inline]
    fn addition_cells(&self) -> Bitboard {
        let empty = !(self.visible[0] | self.visible[1]);
        if self.centre_banned() {
            empty & !Bitboard::CENTRAL
        } else {
            empty
        }
    }

    /// PÜNCT cells where a `kind` piece with `rotation` can be added.
    #[inline]
    fn addition_puncts(allowed: Bitboard, kind: Kind, rotation: u8) -> Bitboard {
        let o = FOOTPRINT_OFFSETS[kind.index()][rotation as usize];
        // {P : P + o ∈ allowed} is `allowed` moved by −o. Two-step offsets
        // cannot wrap undetected: their middle dot is checked too.
        allowed & allowed.shifted_raw(-o[1]) & allowed.shifted_raw(-o[2])
    }

    /// Calls `emit` for every legal relocation of `side`'s uncovered pieces.
    #[inline(always)]
    fn for_each_relocation(&self, mut emit: impl FnMut(Move)) {
        let side = self.to_move;
        let mut s = Scratch {
            height: self.height,
            top: self.top,
        };
        let first = side.index() as u8 * 18;
        for slot in first..first + 18 {
            let Some(p) = self.placement[slot as usize] else {
                continue;
            };
            let cells = self.cells[slot as usize];
            if cells.iter().any(|c| s.top[c.index()] != slot) {
                continue; // covered
            }
            // Lift the piece: heights below are taken without it.
            for (i, c) in cells.iter().enumerate() {
                let under = self.below[slot as usize][i];
                s.top[c.index()] = under;
                s.height[c.index()] = if under == NONE {
                    0
                } else {
                    self.placement[under as usize].unwrap().level + 1
                };
            }
            let kind = slot_kind(slot);
            let from = p.punct;
            let mut try_target = |to: Cell| {
                for r in 0..kind.rotations() {
                    if to == from && r == p.rotation {
                        continue;
                    }
                    let o = FOOTPRINT_OFFSETS[kind.index()][r as usize];
                    let (Some(a), Some(b)) = (to.offset(o[1]), to.offset(o[2])) else {
                        continue;
                    };
                    if landing(kind, [to.index(), a.index(), b.index()], &s, side).is_some() {
                        emit(Move::Relocate {
                            from,
                            to,
                            rotation: r,
                        });
                    }
                }
            };
            try_target(from);
            for d in Direction::ALL {
                let mut at = from;
                while let Some(next) = at.neighbour(d) {
                    try_target(next);
                    at = next;
                }
            }
            for c in cells {
                s.top[c.index()] = self.top[c.index()];
                s.height[c.index()] = self.height[c.index()];
            }
        }
    }

    /// Every legal move, in generation order (additions by kind, rotation and
    /// cell, then relocations); `[pass]` when nothing else is legal; empty
    /// when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(4096);
        self.legal_moves_into(&mut out);
        out
    }

    /// As [`Position::legal_moves`], appending to `out` (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status.is_over() {
            return;
        }
        let side = self.to_move;
        let allowed = self.addition_cells();
        for kind in Kind::ALL {
            if self.reserve[side.index()][kind.index()] == 0 {
                continue;
            }
            for rotation in 0..kind.rotations() {
                for punct in Self::addition_puncts(allowed, kind, rotation).cells() {
                    out.push(Move::Add {
                        kind,
                        punct,
                        rotation,
                    });
                }
            }
        }
        self.for_each_relocation(|m| out.push(m));
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    /// The number of legal moves, without building a list.
    pub fn count_legal(&self) -> u64 {
        if self.status.is_over() {
            return 0;
        }
        let side = self.to_move;
        let allowed = self.addition_cells();
        let mut n = 0u64;
        for kind in Kind::ALL {
            if self.reserve[side.index()][kind.index()] == 0 {
                continue;
            }
            for rotation in 0..kind.rotations() {
                n += Self::addition_puncts(allowed, kind, rotation).len() as u64;
            }
        }
        self.for_each_relocation(|_| n += 1);
        n.max(1)
    }

    /// Number of move sequences of exactly `depth` plies (a finished game
    /// has no moves and so adds nothing).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal();
        }
        let mut total = 0;
        for mv in self.legal_moves() {
            let undo = self.make(mv);
            total += self.perft(depth - 1);
            self.unmake(undo);
        }
        total
    }

    /// Perft split by first move, in generation order.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves()
            .into_iter()
            .map(|mv| {
                let undo = self.make(mv);
                let n = self.perft(depth - 1);
                self.unmake(undo);
                (mv, n)
            })
            .collect()
    }
}
