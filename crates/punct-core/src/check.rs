//! Checking one move and explaining why it is illegal.
//!
//! Deliberately independent of the generator in `movegen`: stacks are read by
//! scanning the pieces, not from the incremental tables, so the two can be
//! tested against each other.

use crate::board::Cell;
use crate::moves::Move;
use crate::piece::{footprint, Kind, Side};
use crate::position::{slot_kind, slot_side, Position, Status, Variant, PIECES};
use std::fmt;

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    GameOver(Status),
    NoneInReserve { kind: Kind },
    BadRotation { kind: Kind, rotation: u8 },
    OffBoard,
    AddOnOccupied { cell: Cell },
    AddInCentre { cell: Cell, first_move_only: bool },
    NothingOn { cell: Cell },
    OpponentsPiece { cell: Cell },
    NotAPunct { cell: Cell },
    Covered { cell: Cell },
    NotInLine { from: Cell, to: Cell },
    Unchanged,
    Uneven { heights: [u8; 3] },
    TriangleBridge { heights: [u8; 3] },
    PunctOnOpponent { cell: Cell },
    PunctOverEmpty { cell: Cell },
    PassWithMoves,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        let hs = |h: &[u8; 3]| format!("{}, {} and {}", h[0], h[1], h[2]);
        match self {
            GameOver(s) => match s {
                Status::Won(side) => write!(f, "the game is over: {side} has won"),
                _ => write!(f, "the game is over: it is a draw"),
            },
            NoneInReserve { kind } => write!(f, "no {kind} piece is left in reserve"),
            BadRotation { kind, rotation } => write!(
                f,
                "a {kind} piece has rotations 0–2 (rotation {rotation} is written {})",
                rotation % 3
            ),
            OffBoard => write!(f, "a dot of the piece would be off the board"),
            AddOnOccupied { cell } => {
                write!(f, "{cell} is occupied: added pieces go on empty cells only")
            }
            AddInCentre {
                cell,
                first_move_only: false,
            } => write!(
                f,
                "{cell} is in the central hexagon: in the standard game no piece may be added there"
            ),
            AddInCentre {
                cell,
                first_move_only: true,
            } => write!(
                f,
                "{cell} is in the central hexagon: the first piece of the game may not touch it"
            ),
            NothingOn { cell } => write!(f, "no piece is visible on {cell}"),
            OpponentsPiece { cell } => write!(f, "the piece on {cell} belongs to the opponent"),
            NotAPunct { cell } => write!(
                f,
                "the dot visible on {cell} is not a PÜNCT: name a piece by its PÜNCT cell"
            ),
            Covered { cell } => write!(
                f,
                "the piece with its PÜNCT on {cell} is covered and cannot move"
            ),
            NotInLine { from, to } => write!(
                f,
                "{to} is not in line with {from}: a PÜNCT moves along a column, row or diagonal"
            ),
            Unchanged => write!(f, "the piece would end where it started"),
            Uneven { heights } => write!(
                f,
                "the target cells have heights {}: a piece lies flat on equal heights, or bridges with both ends on the highest",
                hs(heights)
            ),
            TriangleBridge { heights } => write!(
                f,
                "the target cells have heights {}: a triangle must lie flat and never bridges",
                hs(heights)
            ),
            PunctOnOpponent { cell } => write!(
                f,
                "the PÜNCT would rest on the opponent's colour on {cell}"
            ),
            PunctOverEmpty { cell } => write!(
                f,
                "the PÜNCT would hang over the empty cell {cell}: a bridged PÜNCT must be above the mover's colour"
            ),
            PassWithMoves => write!(f, "passing is allowed only when no other move is legal"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl IllegalMove {
    /// Every reason's code (`code()`), for checking that each has a text.
    pub const CODES: [&'static str; 19] = [
        "game_over_won",
        "game_over_draw",
        "none_in_reserve",
        "bad_rotation",
        "off_board",
        "add_on_occupied",
        "add_in_centre",
        "first_piece_in_centre",
        "nothing_on",
        "opponents_piece",
        "not_a_punct",
        "covered",
        "not_in_line",
        "unchanged",
        "uneven",
        "triangle_bridge",
        "punct_on_opponent",
        "punct_over_empty",
        "pass_with_moves",
    ];

    /// A stable name of the rule broken (one of `CODES`), so that a client
    /// can explain it in its own words and language.
    pub fn code(&self) -> &'static str {
        use IllegalMove::*;
        match self {
            GameOver(Status::Won(_)) => "game_over_won",
            GameOver(_) => "game_over_draw",
            NoneInReserve { .. } => "none_in_reserve",
            BadRotation { .. } => "bad_rotation",
            OffBoard => "off_board",
            AddOnOccupied { .. } => "add_on_occupied",
            AddInCentre {
                first_move_only: false,
                ..
            } => "add_in_centre",
            AddInCentre {
                first_move_only: true,
                ..
            } => "first_piece_in_centre",
            NothingOn { .. } => "nothing_on",
            OpponentsPiece { .. } => "opponents_piece",
            NotAPunct { .. } => "not_a_punct",
            Covered { .. } => "covered",
            NotInLine { .. } => "not_in_line",
            Unchanged => "unchanged",
            Uneven { .. } => "uneven",
            TriangleBridge { .. } => "triangle_bridge",
            PunctOnOpponent { .. } => "punct_on_opponent",
            PunctOverEmpty { .. } => "punct_over_empty",
            PassWithMoves => "pass_with_moves",
        }
    }

    /// The values the explanation names, as (name, text) pairs: `cell`,
    /// `from`, `to` (cell names), `kind` (its letter), `side` (`white` or
    /// `black`), `rotation` and `written` (numbers), `h1`, `h2`, `h3` (the
    /// three target heights).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use IllegalMove::*;
        let heights = |h: &[u8; 3]| {
            vec![
                ("h1", h[0].to_string()),
                ("h2", h[1].to_string()),
                ("h3", h[2].to_string()),
            ]
        };
        match self {
            GameOver(Status::Won(side)) => vec![("side", side.name().to_string())],
            GameOver(_) | OffBoard | Unchanged | PassWithMoves => vec![],
            NoneInReserve { kind } => vec![("kind", kind.to_string())],
            BadRotation { kind, rotation } => vec![
                ("kind", kind.to_string()),
                ("rotation", rotation.to_string()),
                ("written", (rotation % 3).to_string()),
            ],
            AddOnOccupied { cell }
            | AddInCentre { cell, .. }
            | NothingOn { cell }
            | OpponentsPiece { cell }
            | NotAPunct { cell }
            | Covered { cell }
            | PunctOnOpponent { cell }
            | PunctOverEmpty { cell } => vec![("cell", cell.to_string())],
            NotInLine { from, to } => vec![("from", from.to_string()), ("to", to.to_string())],
            Uneven { heights: h } | TriangleBridge { heights: h } => heights(h),
        }
    }
}

impl Position {
    /// Height and visible colour of `cell`, ignoring the piece in `skip`,
    /// found by scanning every piece.
    fn scan_cell(&self, cell: Cell, skip: Option<usize>) -> (u8, Option<Side>) {
        let mut best: Option<(u8, Side)> = None;
        for s in 0..PIECES {
            if Some(s) == skip {
                continue;
            }
            if let Some(p) = self.placement[s] {
                if self.cells[s].contains(&cell) && best.is_none_or(|(l, _)| p.level >= l) {
                    best = Some((p.level, slot_side(s as u8)));
                }
            }
        }
        best.map_or((0, None), |(l, side)| (l + 1, Some(side)))
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Checks `mv` against every rule; the error says which rule it breaks.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        use IllegalMove::*;
        if self.status.is_over() {
            return Err(GameOver(self.status));
        }
        let side = self.to_move;
        match mv {
            Move::Pass => {
                if self.count_legal_without_pass() > 0 {
                    return Err(PassWithMoves);
                }
                Ok(())
            }
            Move::Add {
                kind,
                punct,
                rotation,
            } => {
                if self.reserve(side, kind) == 0 {
                    return Err(NoneInReserve { kind });
                }
                if rotation >= kind.rotations() {
                    return Err(BadRotation { kind, rotation });
                }
                let cells = footprint(kind, punct, rotation).ok_or(OffBoard)?;
                if let Some(&cell) = cells.iter().find(|&&c| self.scan_cell(c, None).0 > 0) {
                    return Err(AddOnOccupied { cell });
                }
                let first_move = self.variant == Variant::Basic;
                if self.centre_banned() {
                    if let Some(&cell) = cells.iter().find(|c| c.is_central()) {
                        return Err(AddInCentre {
                            cell,
                            first_move_only: first_move,
                        });
                    }
                }
                Ok(())
            }
            Move::Relocate { from, to, rotation } => {
                // The piece whose dot is highest on `from`.
                let slot = (0..PIECES)
                    .filter(|&s| self.placement[s].is_some() && self.cells[s].contains(&from))
                    .max_by_key(|&s| self.placement[s].unwrap().level)
                    .ok_or(NothingOn { cell: from })?;
                let p = self.placement[slot].unwrap();
                if slot_side(slot as u8) != side {
                    return Err(OpponentsPiece { cell: from });
                }
                if p.punct != from {
                    return Err(NotAPunct { cell: from });
                }
                let covered = self.cells[slot]
                    .iter()
                    .any(|&c| self.scan_cell(c, Some(slot)).0 > p.level + 1);
                if covered {
                    return Err(Covered { cell: from });
                }
                if !from.in_line_with(to) {
                    return Err(NotInLine { from, to });
                }
                let kind = slot_kind(slot as u8);
                if rotation >= kind.rotations() {
                    return Err(BadRotation { kind, rotation });
                }
                if to == from && rotation == p.rotation {
                    return Err(Unchanged);
                }
                let cells = footprint(kind, to, rotation).ok_or(OffBoard)?;
                let looks = cells.map(|c| self.scan_cell(c, Some(slot)));
                let heights = looks.map(|(h, _)| h);
                let top = *heights.iter().max().unwrap();
                if top == 0 {
                    return Ok(());
                }
                if heights.iter().any(|&h| h != top) {
                    let Some(b) = kind.bridge() else {
                        return Err(TriangleBridge { heights });
                    };
                    if b.ends.iter().any(|&e| heights[e] != top) {
                        return Err(Uneven { heights });
                    }
                }
                match looks[0] {
                    (_, Some(s)) if s == side => Ok(()),
                    (_, Some(_)) => Err(PunctOnOpponent { cell: to }),
                    (_, None) => Err(PunctOverEmpty { cell: to }),
                }
            }
        }
    }

    fn count_legal_without_pass(&self) -> u64 {
        let moves = self.legal_moves();
        moves.iter().filter(|m| **m != Move::Pass).count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_its_own_code_and_names_its_values() {
        use IllegalMove::*;
        let cell: Cell = "C5".parse().unwrap();
        let to: Cell = "G9".parse().unwrap();
        let all = [
            GameOver(Status::Won(Side::Black)),
            GameOver(Status::Draw),
            NoneInReserve { kind: Kind::E },
            BadRotation {
                kind: Kind::T,
                rotation: 4,
            },
            OffBoard,
            AddOnOccupied { cell },
            AddInCentre {
                cell,
                first_move_only: false,
            },
            AddInCentre {
                cell,
                first_move_only: true,
            },
            NothingOn { cell },
            OpponentsPiece { cell },
            NotAPunct { cell },
            Covered { cell },
            NotInLine { from: cell, to },
            Unchanged,
            Uneven { heights: [2, 1, 1] },
            TriangleBridge { heights: [1, 0, 1] },
            PunctOnOpponent { cell },
            PunctOverEmpty { cell },
            PassWithMoves,
        ];
        let codes: Vec<&str> = all.iter().map(IllegalMove::code).collect();
        assert_eq!(
            codes,
            IllegalMove::CODES,
            "CODES lists every reason once, in order"
        );
        // Every value the English text names is among the params.
        for e in &all {
            let text = e.to_string();
            for (name, value) in e.params() {
                assert!(!value.is_empty(), "{}: {name} is empty", e.code());
                if matches!(name, "cell" | "from" | "to" | "side") {
                    assert!(text.contains(&value), "{}: {text} lacks {value}", e.code());
                }
            }
        }
        assert_eq!(
            BadRotation {
                kind: Kind::T,
                rotation: 4
            }
            .params(),
            vec![
                ("kind", "T".to_string()),
                ("rotation", "4".to_string()),
                ("written", "1".to_string())
            ]
        );
        assert_eq!(
            Uneven { heights: [2, 1, 0] }.params(),
            vec![
                ("h1", "2".to_string()),
                ("h2", "1".to_string()),
                ("h3", "0".to_string())
            ]
        );
    }
}
