//! The rules page's diagrams.
//!
//! Each diagram is a position reached by playing legal moves from the empty
//! board (so the rules crate itself proves it can occur), the moves it
//! draws on top (legal ones as a ghost, illegal ones crossed), cells it
//! marks, and the claims its caption makes, written so that a test can
//! check each against the rules crate: "this move is legal", "this one is
//! illegal for that reason", "this piece is covered", "White has won by
//! connecting column A and column Q", "the central count is 3 to 4".
//! The page draws the state with the game's own board and takes every word
//! from the catalogue (`rules.diagram.<id>`).

use crate::{replay, words};
use punct_core::{footprint, Cell, Kind, Move, Position, Side, Variant};

/// What a diagram's caption says, checkable against the rules crate.
#[derive(Clone, Copy, Debug)]
pub enum Claim {
    /// The side to move may play this move.
    Legal(&'static str),
    /// The side to move may not play this move; the reason's code
    /// (`IllegalMove::code`).
    Illegal(&'static str, &'static str),
    /// The status: `ongoing`, `white`, `black` or `draw`.
    Status(&'static str),
    /// `side` has a chain joining these two sides (`Edge::name`).
    Connected(&'static str, &'static str, &'static str),
    /// Visible dots in the central hexagon: White's, Black's.
    Central(u32, u32),
    /// The piece with its PÜNCT on this cell at this level is covered.
    Covered(&'static str, u8),
    /// The piece with its PÜNCT on this cell at this level is a bridge
    /// (a dot of it has nothing right under it).
    Bridge(&'static str, u8),
    /// The colour seen from above on a cell: `white`, `black` or `none`.
    Visible(&'static str, &'static str),
    /// A piece of this side and kind has its PÜNCT on the cell at the level.
    Piece(&'static str, &'static str, char, u8),
    /// These cells, and only these, are the central hexagon.
    CentralHexagon(&'static str),
    /// Pieces a side has left in reserve.
    Reserve(&'static str, u8),
    /// Whose turn it is.
    ToMove(&'static str),
}

impl Claim {
    /// The move a `Legal` or `Illegal` claim is about.
    pub fn about_move(self) -> Option<&'static str> {
        match self {
            Claim::Legal(m) | Claim::Illegal(m, _) => Some(m),
            _ => None,
        }
    }
}

/// One diagram of the rules page.
#[derive(Clone, Copy, Debug)]
pub struct Diagram {
    /// Its name; the caption is `rules.diagram.<id>`.
    pub id: &'static str,
    /// The section of the page it illustrates.
    pub section: &'static str,
    pub variant: Variant,
    /// Played from the empty board, separated by spaces.
    pub moves: &'static str,
    /// Whether the last of `moves` is outlined as the move just played.
    pub last: bool,
    /// Cells the picture frames (separated by spaces), with every piece on
    /// them and the moves shown; empty: the whole board.
    pub view: &'static str,
    /// A cell whose three lines are drawn.
    pub lines: Option<&'static str>,
    /// Marked cells: (mark, cells separated by spaces). Marks:
    /// `highlight`, `covered`, `gap`, `counted-white`, `counted-black`.
    pub marks: &'static [(&'static str, &'static str)],
    /// Moves drawn on the board (each has a `Legal` or `Illegal` claim).
    pub show: &'static [&'static str],
    pub claims: &'static [Claim],
}

const CENTRAL: &str = "G7 G8 G9 H7 H8 H9 H10 I7 I8 I9 I10 I11 J8 J9 J10 J11 K9 K10 K11";

// Where one side builds a picture, the other meanwhile adds pieces far from
// what is shown and harmless, in this order: T@N12/0 T@M15/0 T@P14/0 T@K15/0.

/// The diagrams, in the order of the page.
pub const DIAGRAMS: &[Diagram] = &[
    Diagram {
        id: "board",
        section: "board",
        variant: Variant::Standard,
        moves: "",
        last: false,
        view: "",
        lines: None,
        marks: &[("highlight", CENTRAL)],
        show: &[],
        claims: &[
            Claim::CentralHexagon(CENTRAL),
            Claim::Status("ongoing"),
            Claim::ToMove("white"),
        ],
    },
    Diagram {
        id: "pieces",
        section: "pieces",
        variant: Variant::Standard,
        // White's six kinds below the centre, Black's the same turned half
        // round above it.
        moves: "T@B4/3 T@P14/0 C@E4/0 C@M14/0 E@H3/3 E@J15/0 L@K4/3 L@G14/0 \
                M@N7/2 M@D11/5 R@O10/5 R@C8/2",
        last: false,
        view: "",
        lines: None,
        marks: &[],
        show: &[],
        claims: &[
            Claim::Piece("B4", "white", 'T', 0),
            Claim::Piece("E4", "white", 'C', 0),
            Claim::Piece("H3", "white", 'E', 0),
            Claim::Piece("K4", "white", 'L', 0),
            Claim::Piece("N7", "white", 'M', 0),
            Claim::Piece("O10", "white", 'R', 0),
            Claim::Piece("P14", "black", 'T', 0),
            Claim::Piece("M14", "black", 'C', 0),
            Claim::Piece("J15", "black", 'E', 0),
            Claim::Piece("G14", "black", 'L', 0),
            Claim::Piece("D11", "black", 'M', 0),
            Claim::Piece("C8", "black", 'R', 0),
            Claim::Reserve("white", 12),
            Claim::Reserve("black", 12),
        ],
    },
    Diagram {
        id: "add",
        section: "adding",
        variant: Variant::Standard,
        moves: "E@C4/5 T@E6/0",
        last: false,
        view: "C4 E6 H8",
        lines: None,
        marks: &[],
        show: &["E@E3/5", "E@G5/3", "T@D6/5"],
        claims: &[
            Claim::Legal("E@E3/5"),
            Claim::Illegal("E@G5/3", "add_in_centre"),
            Claim::Illegal("T@D6/5", "add_on_occupied"),
        ],
    },
    Diagram {
        id: "basic-first",
        section: "adding",
        variant: Variant::Basic,
        moves: "",
        last: false,
        view: "G7 G9 I7 I11 K9 K11 F6",
        lines: None,
        marks: &[],
        show: &["T@I9/0"],
        claims: &[
            Claim::Illegal("T@I9/0", "first_piece_in_centre"),
            Claim::ToMove("white"),
        ],
    },
    Diagram {
        id: "basic-later",
        section: "adding",
        variant: Variant::Basic,
        moves: "E@F6/3",
        last: true,
        view: "G7 G9 I7 I11 K9 K11 F6",
        lines: None,
        marks: &[],
        show: &["T@I9/0"],
        claims: &[Claim::Legal("T@I9/0"), Claim::ToMove("black")],
    },
    Diagram {
        id: "move",
        section: "moving",
        variant: Variant::Standard,
        moves: "E@D4/0 T@F4/3",
        last: false,
        view: "D4 F4 C2 H6",
        lines: Some("D4"),
        marks: &[],
        show: &["D4-H4/3", "D4-E7/0"],
        claims: &[
            Claim::Legal("D4-H4/3"),
            Claim::Illegal("D4-E7/0", "not_in_line"),
            Claim::Illegal("D4-A4/2", "off_board"),
            Claim::Legal("D4-A4/5"),
            // Lifted, the piece may come down on a cell it leaves (D4).
            Claim::Legal("D4-B4/5"),
        ],
    },
    Diagram {
        id: "turn",
        section: "moving",
        variant: Variant::Standard,
        moves: "E@D4/0 T@F4/3",
        last: false,
        view: "D4 F4 B2",
        lines: None,
        marks: &[],
        show: &["D4-D4/2"],
        claims: &[
            Claim::Legal("D4-D4/2"),
            Claim::Illegal("D4-D4/0", "unchanged"),
        ],
    },
    Diagram {
        id: "jump",
        section: "stacking",
        variant: Variant::Standard,
        moves: "E@C3/5 E@C4/5 T@D6/0 T@N12/0",
        last: false,
        view: "C3 C4 D6",
        lines: None,
        marks: &[],
        show: &["D6-D3/3"],
        claims: &[
            Claim::Legal("D6-D3/3"),
            Claim::Visible("D3", "white"),
            Claim::Visible("D4", "black"),
            Claim::Visible("E4", "black"),
        ],
    },
    Diagram {
        id: "jump-wrong",
        section: "stacking",
        variant: Variant::Standard,
        moves: "E@C3/5 E@C4/5 T@D6/0 T@N12/0",
        last: false,
        view: "C3 C4 D6",
        lines: None,
        marks: &[],
        show: &["D6-D4/0"],
        claims: &[
            Claim::Illegal("D6-D4/0", "punct_on_opponent"),
            Claim::Illegal("D6-D3/0", "triangle_bridge"),
        ],
    },
    Diagram {
        id: "bridge",
        section: "bridges",
        variant: Variant::Standard,
        moves: "T@D3/1 T@F3/4 E@D6/3 T@N12/0 C@E6/0 T@M15/0",
        last: false,
        view: "D3 F3 D6 E6",
        lines: None,
        marks: &[],
        show: &["D6-D3/5"],
        claims: &[Claim::Legal("D6-D3/5")],
    },
    Diagram {
        id: "bridge-after",
        section: "bridges",
        variant: Variant::Standard,
        moves: "T@D3/1 T@F3/4 E@D6/3 T@N12/0 C@E6/0 T@M15/0 D6-D3/5",
        last: true,
        view: "D3 F3 D6 E6",
        lines: None,
        marks: &[("gap", "E3")],
        show: &[],
        claims: &[
            Claim::Bridge("D3", 1),
            Claim::Piece("D3", "white", 'E', 1),
            Claim::Visible("E3", "white"),
            Claim::Illegal("T@E3/0", "add_on_occupied"),
            Claim::ToMove("black"),
        ],
    },
    Diagram {
        id: "bridge-empty",
        section: "bridges",
        variant: Variant::Standard,
        moves: "T@D3/1 T@F3/4 E@D6/3 T@N12/0 C@E6/0 T@M15/0",
        last: false,
        view: "D3 F3 D6 E6",
        lines: None,
        marks: &[],
        show: &["E6-E3/2"],
        claims: &[Claim::Illegal("E6-E3/2", "punct_over_empty")],
    },
    Diagram {
        id: "bridge-punct",
        section: "bridges",
        variant: Variant::Standard,
        // Black builds two stacks of height 2 at D3 and D5 (White adds
        // pieces far away meanwhile), then White's C bridges over D4.
        moves: "T@D4/4 T@D3/1 T@N12/0 T@D5/1 T@M15/0 T@H3/0 T@P14/0 T@H5/0 \
                C@I4/0 H3-D3/1 T@K15/0 H5-D5/1 I4-D4/0",
        last: true,
        view: "D3 D4 D5 B4 F5",
        lines: None,
        marks: &[("covered", "D4")],
        show: &[],
        claims: &[
            Claim::Piece("D4", "white", 'C', 2),
            Claim::Bridge("D4", 2),
            Claim::Covered("D4", 0),
            Claim::Piece("D3", "black", 'T', 1),
            Claim::Piece("D5", "black", 'T', 1),
            Claim::Visible("D4", "white"),
        ],
    },
    Diagram {
        id: "covered",
        section: "covered",
        variant: Variant::Standard,
        moves: "E@C3/5 E@C4/5 T@D6/0 T@N12/0 D6-D3/3",
        last: true,
        view: "C3 C4 C7",
        lines: None,
        marks: &[("covered", "C3 C4")],
        show: &["C4-C7/0"],
        claims: &[
            Claim::Piece("D3", "white", 'T', 1),
            Claim::Visible("D4", "white"),
            Claim::Covered("C3", 0),
            Claim::Covered("C4", 0),
            Claim::Illegal("C4-C7/0", "covered"),
            Claim::ToMove("black"),
        ],
    },
    Diagram {
        id: "win",
        section: "winning",
        variant: Variant::Standard,
        // White's chain crosses Black's (from row 1 up the H column) on
        // top of it, at G5 H5 I5.
        moves: "E@A5/5 T@H5/5 E@D5/5 E@H3/0 T@G5/0 E@K6/4 E@G6/2 E@N9/4 \
                G6-G5/5 T@M12/0 E@J5/5 T@M15/0 C@N6/1 C@K14/0 L@P8/3",
        last: true,
        view: "",
        lines: None,
        marks: &[],
        show: &[],
        claims: &[
            Claim::Status("white"),
            Claim::Connected("white", "column A", "column Q"),
            Claim::Piece("G5", "white", 'E', 1),
            Claim::Visible("H5", "white"),
            Claim::Visible("I5", "white"),
        ],
    },
    Diagram {
        id: "count",
        section: "end",
        variant: Variant::Standard,
        moves: "R@C5/3 R@N11/4 E@J12/5 N11-L11/4 M@N8/3 E@H5/0 E@D10/5 H5-K8/3 \
                M@I3/3 M@J17/4 I3-I9/4 E@D2/4 T@J5/3 T@E1/4 T@P12/5 M@O13/0 \
                T@E13/0 R@H14/2 T@M15/5 E@C8/1 L@K4/1 C@H5/0 E@E6/3 C@L16/1 \
                T@N10/1 E@Q16/0 E@G12/0 L@B10/0 R@A3/2 T@K13/3 L@O11/0 T@L6/3 \
                T@Q11/0 T@N6/1 C@C1/2 L@L15/4 C@J15/1",
        last: true,
        view: "",
        lines: None,
        marks: &[],
        show: &[],
        claims: &[
            Claim::Reserve("white", 0),
            Claim::Central(3, 4),
            Claim::Status("black"),
        ],
    },
];

impl Diagram {
    /// The position: the moves played from the empty board.
    pub fn position(&self) -> Result<Position, String> {
        replay(self.variant, self.moves).map_err(|e| format!("diagram {}: {e}", self.id))
    }

    /// The move outlined as just played, if any.
    pub fn last_move(&self) -> Option<Move> {
        match words(self.moves).last() {
            Some(m) if self.last => Some(m.parse().expect("the position was reached by it")),
            _ => None,
        }
    }

    /// The moves drawn on the board, as the rules crate judges them in
    /// the diagram's position `pos`.
    pub fn shown_moves(&self, pos: &Position) -> Result<Vec<ShownMove>, String> {
        self.show
            .iter()
            .map(|&text| shown_move(pos, text).map_err(|e| format!("diagram {}: {e}", self.id)))
            .collect()
    }
}

/// A move drawn on a diagram: what it is (kind, cells) and whether the
/// rules crate allows it, with the reason's code when not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownMove {
    pub text: &'static str,
    /// `None`: legal; else the broken rule's code (`IllegalMove::code`).
    pub illegal: Option<&'static str>,
    /// The side to move, who would play it.
    pub side: Side,
    pub kind: Kind,
    /// Where a moved piece's PÜNCT was; `None` for an addition.
    pub from: Option<Cell>,
    pub to: Cell,
    pub rotation: u8,
    /// The cells it would cover; `None` where it leaves the board.
    pub cells: Option<[Cell; 3]>,
}

fn shown_move(pos: &Position, text: &'static str) -> Result<ShownMove, String> {
    let mv: Move = text
        .parse()
        .map_err(|e| format!("shown move `{text}`: {e}"))?;
    let (kind, from, to, rotation) = match mv {
        Move::Add {
            kind,
            punct,
            rotation,
        } => (kind, None, punct, rotation),
        Move::Relocate { from, to, rotation } => {
            let piece = pos
                .top_piece(from)
                .ok_or_else(|| format!("shown move `{text}`: nothing on {from}"))?;
            (piece.kind, Some(from), to, rotation)
        }
        Move::Pass => return Err(format!("shown move `{text}`: a pass cannot be drawn")),
    };
    Ok(ShownMove {
        text,
        illegal: pos.check_move(mv).err().map(|e| e.code()),
        side: pos.side_to_move(),
        kind,
        from,
        to,
        rotation,
        cells: footprint(kind, to, rotation),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_diagram_is_reached_by_legal_moves_and_draws_only_claimed_moves() {
        let mut ids = std::collections::HashSet::new();
        for d in DIAGRAMS {
            assert!(ids.insert(d.id), "diagram id {} twice", d.id);
            let pos = d.position().unwrap();
            d.shown_moves(&pos).unwrap();
            d.last_move();
            for m in d.show {
                assert!(
                    d.claims.iter().any(|c| c.about_move() == Some(m)),
                    "diagram {}: shown move {m} has no claim",
                    d.id
                );
            }
        }
    }
}
