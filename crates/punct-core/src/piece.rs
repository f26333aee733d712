//! Sides, piece kinds and their footprints.

use crate::board::{Cell, Direction};
use std::fmt;

/// A player. White moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The side [`Side::name`] names (`white` or `black`, exactly).
    pub fn from_name(name: &str) -> Option<Side> {
        match name {
            "white" => Some(Side::White),
            "black" => Some(Side::Black),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The six kinds of piece, each with three dots one of which is the PÜNCT.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Triangle, PÜNCT at a corner. Never bridges.
    T = 0,
    /// Straight, PÜNCT in the centre.
    C = 1,
    /// Straight, PÜNCT at an end.
    E = 2,
    /// Angular, PÜNCT at an end.
    L = 3,
    /// Angular, PÜNCT at the corner.
    M = 4,
    /// Angular, PÜNCT at the other end (mirror of L).
    R = 5,
}

/// Which of a footprint's three dots (0 = PÜNCT) is the unsupported middle of
/// a bridge, and which two are its ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BridgeShape {
    pub middle: usize,
    pub ends: [usize; 2],
}

impl Kind {
    pub const ALL: [Kind; 6] = [Kind::T, Kind::C, Kind::E, Kind::L, Kind::M, Kind::R];

    /// How many pieces of this kind each player starts with.
    pub const fn count(self) -> u8 {
        match self {
            Kind::T => 6,
            Kind::E => 4,
            _ => 2,
        }
    }

    /// Number of distinct rotations (C is symmetric: 0–2).
    pub const fn rotations(self) -> u8 {
        match self {
            Kind::C => 3,
            _ => 6,
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Kind::T => 'T',
            Kind::C => 'C',
            Kind::E => 'E',
            Kind::L => 'L',
            Kind::M => 'M',
            Kind::R => 'R',
        }
    }

    /// The kind with letter `c` (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'T' => Kind::T,
            'C' => Kind::C,
            'E' => Kind::E,
            'L' => Kind::L,
            'M' => Kind::M,
            'R' => Kind::R,
            _ => return None,
        })
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The dot positions as sums of directions relative to the rotation k,
    /// from the PÜNCT; index 0 is the PÜNCT itself. Straight from the rules'
    /// table.
    const fn dot_directions(self) -> [&'static [u8]; 3] {
        const T: [&[u8]; 3] = [&[], &[0], &[1]];
        const C: [&[u8]; 3] = [&[], &[0], &[3]];
        const E: [&[u8]; 3] = [&[], &[0], &[0, 0]];
        const L: [&[u8]; 3] = [&[], &[0], &[0, 1]];
        const M: [&[u8]; 3] = [&[], &[1], &[3]];
        const R: [&[u8]; 3] = [&[], &[4], &[4, 3]];
        match self {
            Kind::T => T,
            Kind::C => C,
            Kind::E => E,
            Kind::L => L,
            Kind::M => M,
            Kind::R => R,
        }
    }

    /// Index offsets of the three dots from the PÜNCT for rotation `k`
    /// (index 0 is the PÜNCT, offset 0).
    pub const fn offsets(self, k: u8) -> [i32; 3] {
        let dirs = self.dot_directions();
        let mut out = [0i32; 3];
        let mut i = 0;
        while i < 3 {
            let steps = dirs[i];
            let mut j = 0;
            while j < steps.len() {
                out[i] += Direction((steps[j] + k) % 6).offset();
                j += 1;
            }
            i += 1;
        }
        out
    }

    /// The middle and ends of a bridge of this kind; `None` for T.
    pub const fn bridge(self) -> Option<BridgeShape> {
        match self {
            Kind::T => None,
            Kind::C | Kind::M => Some(BridgeShape {
                middle: 0,
                ends: [1, 2],
            }),
            Kind::E | Kind::L | Kind::R => Some(BridgeShape {
                middle: 1,
                ends: [0, 2],
            }),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The three cells a piece of `kind` covers with its PÜNCT on `punct` and
/// rotation `rotation`, PÜNCT first; `None` if a dot would leave the board.
#[inline]
pub fn footprint(kind: Kind, punct: Cell, rotation: u8) -> Option<[Cell; 3]> {
    let offs = FOOTPRINT_OFFSETS[kind.index()][rotation as usize];
    // Every dot is one step from another dot, and a step off the board lands
    // on an unused slot, so checking each dot is enough (see board docs).
    Some([punct, punct.offset(offs[1])?, punct.offset(offs[2])?])
}

const fn build_offsets() -> [[[i32; 3]; 6]; 6] {
    let mut t = [[[0; 3]; 6]; 6];
    let mut k = 0;
    while k < 6 {
        let kind = Kind::ALL[k];
        let mut r = 0;
        while r < 6 {
            t[k][r] = kind.offsets(r as u8);
            r += 1;
        }
        k += 1;
    }
    t
}

/// `FOOTPRINT_OFFSETS[kind][rotation]`: index offsets of the three dots.
pub const FOOTPRINT_OFFSETS: [[[i32; 3]; 6]; 6] = build_offsets();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_reads_back_from_its_name_and_nothing_else() {
        for side in [Side::White, Side::Black] {
            assert_eq!(Side::from_name(side.name()), Some(side));
        }
        for word in ["", "White", "WHITE", "red", "white "] {
            assert_eq!(Side::from_name(word), None, "{word:?}");
        }
    }

    fn cells(kind: Kind, p: &str, r: u8) -> Vec<String> {
        footprint(kind, p.parse().unwrap(), r)
            .unwrap()
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    #[test]
    fn footprints_match_the_rules_table() {
        // I9 with D0 = I8, D1 = H8, D2 = H9, D3 = I10, D4 = J10, D5 = J9.
        assert_eq!(cells(Kind::T, "I9", 0), ["I9", "I8", "H8"]);
        assert_eq!(cells(Kind::C, "I9", 0), ["I9", "I8", "I10"]);
        assert_eq!(cells(Kind::E, "I9", 0), ["I9", "I8", "I7"]);
        assert_eq!(cells(Kind::L, "I9", 0), ["I9", "I8", "H7"]);
        assert_eq!(cells(Kind::M, "I9", 0), ["I9", "H8", "I10"]);
        assert_eq!(cells(Kind::R, "I9", 0), ["I9", "J10", "J11"]);
        assert_eq!(cells(Kind::E, "I9", 2), ["I9", "H9", "G9"]);
    }

    #[test]
    fn c_rotations_above_two_repeat() {
        let p: Cell = "I9".parse().unwrap();
        for r in 0..3 {
            let mut a = footprint(Kind::C, p, r).unwrap();
            let mut b = footprint(Kind::C, p, r + 3).unwrap();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn footprints_off_the_edge_are_refused() {
        assert!(footprint(Kind::E, "A2".parse().unwrap(), 0).is_none());
        assert!(footprint(Kind::E, "A2".parse().unwrap(), 3).is_some());
    }
}
