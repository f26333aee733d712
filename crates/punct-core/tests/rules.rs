//! One test per rule and decision of `shared/RULES.md`, each built from an
//! explicit move sequence (or, for the long set-ups of the end-of-game tests,
//! a position string followed by the deciding move).
//!
//! Footprints are worked out by hand from the rules' table and the direction
//! offsets D0 (0,−1), D1 (−1,−1), D2 (−1,0), D3 (0,+1), D4 (+1,+1), D5 (+1,0)
//! in (col,row), and every set-up is checked with heights and stacks before
//! the rule under test is asserted, so a test cannot silently test the wrong
//! position.
//!
//! In a move sequence `_` stands for a *filler* of the side to move, a move
//! far from everything else: Black turns a triangle at O16 (`T@O16/0` =
//! O16 O15 N15, then `O16-O16/1` = O16 N15 N16, `O16-O16/0`, …), White one at
//! K16 (`T@K16/0` = K16 K15 J15, `K16-K16/1` = K16 J15 J16, …).

use punct_core::{
    Cell, Edge, Game, IllegalMove, Kind, Move, Placement, Position, Side, Status, Variant,
};

const W: Side = Side::White;
const B: Side = Side::Black;

fn cell(name: &str) -> Cell {
    name.parse()
        .unwrap_or_else(|e| panic!("bad cell in test: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse()
        .unwrap_or_else(|e| panic!("bad move in test: {e}"))
}

/// The filler move of the side to move (see the module docs).
fn filler(pos: &Position) -> String {
    let home = match pos.side_to_move() {
        Side::White => "K16",
        Side::Black => "O16",
    };
    match pos.top_piece(cell(home)) {
        None => format!("T@{home}/0"),
        Some(p) => format!("{home}-{home}/{}", 1 - p.placement.rotation.min(1)),
    }
}

/// Plays `moves` (whitespace separated, `_` = filler) on `pos`, panicking
/// with the ply and the reason if one is refused.
#[track_caller]
fn play_on(mut pos: Position, moves: &str) -> Position {
    for (i, token) in moves.split_whitespace().enumerate() {
        let text = if token == "_" {
            filler(&pos)
        } else {
            token.to_string()
        };
        if let Err(e) = pos.play(mv(&text)) {
            panic!("ply {} `{text}` of `{moves}` refused: {e} ({e:?})", i + 1);
        }
    }
    pos
}

#[track_caller]
fn standard(moves: &str) -> Position {
    play_on(Position::new(Variant::Standard), moves)
}

#[track_caller]
fn basic(moves: &str) -> Position {
    play_on(Position::new(Variant::Basic), moves)
}

#[track_caller]
fn from_string(text: &str) -> Position {
    Position::from_position_string(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The dots on a cell, bottom first, as (side, kind, level, is PÜNCT).
fn stack(pos: &Position, name: &str) -> Vec<(Side, Kind, u8, bool)> {
    pos.stack(cell(name))
        .iter()
        .map(|d| (d.side, d.kind, d.level, d.is_punct))
        .collect()
}

/// Asserts that every cell named in `cells` has height `h`.
#[track_caller]
fn assert_heights(pos: &Position, cells: &str, h: u8) {
    for name in cells.split_whitespace() {
        assert_eq!(pos.height(cell(name)), h, "height of {name} in {pos:?}");
    }
}

fn occupied(pos: &Position) -> usize {
    Cell::all().filter(|&c| pos.height(c) > 0).count()
}

/// Asserts that `text` is illegal for exactly the reason `want`: refused by
/// the checker and by `play` (which leaves the position as it was), and not
/// generated as a legal move.
#[track_caller]
fn assert_illegal(pos: &Position, text: &str, want: IllegalMove) {
    let m = mv(text);
    assert_eq!(pos.check_move(m), Err(want.clone()), "check_move({text})");
    let mut copy = pos.clone();
    assert_eq!(copy.play(m).err(), Some(want), "play({text})");
    assert_eq!(&copy, pos, "the refused move {text} changed the position");
    assert!(
        !pos.legal_moves().contains(&m),
        "{text} is refused but generated as legal"
    );
}

/// Asserts that `text` is legal: accepted by the checker and generated.
#[track_caller]
fn assert_legal(pos: &Position, text: &str) {
    let m = mv(text);
    assert_eq!(pos.check_move(m), Ok(()), "check_move({text}) in {pos:?}");
    assert!(
        pos.legal_moves().contains(&m),
        "{text} is accepted but not generated"
    );
}

/// Plays one move that must be legal and returns the new position.
#[track_caller]
fn after(pos: &Position, text: &str) -> Position {
    assert_legal(pos, text);
    let mut next = pos.clone();
    next.play(mv(text)).unwrap();
    next.verify_incremental().unwrap();
    next
}

/// Relocations in the legal-move list that start from `name`.
fn moves_from(pos: &Position, name: &str) -> usize {
    let from_cell = cell(name);
    pos.legal_moves()
        .iter()
        .filter(|m| matches!(m, Move::Relocate { from, .. } if *from == from_cell))
        .count()
}

fn central_cells() -> Vec<Cell> {
    "G7 G8 G9 H7 H8 H9 H10 I7 I8 I9 I10 I11 J8 J9 J10 J11 K9 K10 K11"
        .split(' ')
        .map(cell)
        .collect()
}

/// Asserts that no legal addition puts a dot in the central hexagon, by
/// playing every one of them and looking at the 19 central heights.
#[track_caller]
fn assert_no_addition_touches_centre(pos: &Position) {
    let centre = central_cells();
    let before: Vec<u8> = centre.iter().map(|&c| pos.height(c)).collect();
    let mut additions = 0;
    for m in pos.legal_moves() {
        if let Move::Add { .. } = m {
            additions += 1;
            let mut p = pos.clone();
            p.make(m);
            let now: Vec<u8> = centre.iter().map(|&c| p.height(c)).collect();
            assert_eq!(now, before, "legal addition {m} touches the centre");
        }
    }
    assert!(additions > 0);
}

// ================================================================ additions

#[test]
fn added_pieces_cover_the_cells_of_the_rules_table() {
    // T C3/2: C3, +D2 B3, +D3 C4.        C F3/1: F3, +D1 E2, +D4 G4.
    // E B6/4: B6, +D4 C7, +2·D4 D8.      L E6/1: E6, corner +D1 D5, far +D2 C5.
    // M C10/2: C10, +D3 C11, +D5 D10.    R F10/5: F10, corner +D3 F11, far +D2 E11.
    let pos = standard("T@C3/2 _ C@F3/1 _ E@B6/4 _ L@E6/1 _ M@C10/2 _ R@F10/5");
    let table = [
        (Kind::T, "C3", "B3 C4"),
        (Kind::C, "F3", "E2 G4"),
        (Kind::E, "B6", "C7 D8"),
        (Kind::L, "E6", "D5 C5"),
        (Kind::M, "C10", "C11 D10"),
        (Kind::R, "F10", "F11 E11"),
    ];
    for (kind, punct, minors) in table {
        assert_eq!(stack(&pos, punct), [(W, kind, 0, true)], "{kind} PÜNCT");
        for m in minors.split(' ') {
            assert_eq!(stack(&pos, m), [(W, kind, 0, false)], "{kind} dot {m}");
        }
        let view = pos.top_piece(cell(punct)).unwrap();
        assert_eq!(view.kind, kind);
        assert_eq!(view.placement.level, 0);
    }
    // 18 White dots and Black's filler triangle: nothing else is covered.
    assert_eq!(occupied(&pos), 18 + 3);
    assert_eq!(pos.reserve_total(W), 12);
}

#[test]
fn additions_go_on_empty_cells_only() {
    let pos = standard("T@C3/0 _"); // C3 C2 B2
    assert_heights(&pos, "C3 C2 B2", 1);
    // E C4/0 = C4 C3 C2: two dots on the triangle.
    assert_illegal(
        &pos,
        "E@C4/0",
        IllegalMove::AddOnOccupied { cell: cell("C3") },
    );
    // T B3/0 = B3 B2 A2: only a minor dot on the triangle.
    assert_illegal(
        &pos,
        "T@B3/0",
        IllegalMove::AddOnOccupied { cell: cell("B2") },
    );
    // The PÜNCT itself on it.
    assert_illegal(
        &pos,
        "T@C3/3",
        IllegalMove::AddOnOccupied { cell: cell("C3") },
    );
    // Right beside it is fine: T B3/1 = B3 A2 A3.
    let next = after(&pos, "T@B3/1");
    assert_heights(&next, "B3 A2 A3", 1);

    // The opponent's pieces block additions too: Black's T B2/3 = B2 B3 C3.
    let black = standard("T@C3/0");
    assert_illegal(
        &black,
        "T@B2/3",
        IllegalMove::AddOnOccupied { cell: cell("B2") },
    );
}

#[test]
fn additions_with_a_dot_off_the_board_are_refused() {
    let pos = Position::new(Variant::Standard);
    // E A2/0 = A2 A1 … (A1 is a removed corner).
    assert_illegal(&pos, "E@A2/0", IllegalMove::OffBoard);
    // T Q16/3 = Q16 Q17 … (Q17 removed).
    assert_illegal(&pos, "T@Q16/3", IllegalMove::OffBoard);
    // E B10/3 = B10 B11 B12: column B ends at row 10.
    assert_illegal(&pos, "E@B10/3", IllegalMove::OffBoard);
    // C A5/2 = A5, left of column A, B5.
    assert_illegal(&pos, "C@A5/2", IllegalMove::OffBoard);
    // A PÜNCT off the board is not even a move.
    for text in ["T@A1/0", "T@A9/0", "T@I1/0", "T@Q9/0", "T@Q17/0", "T@R5/0"] {
        assert!(text.parse::<Move>().is_err(), "{text}");
    }
    // The legal counterpart along the edge: E A2/3 = A2 A3 A4.
    assert_legal(&pos, "E@A2/3");
}

#[test]
fn a_seventh_triangle_is_refused_when_the_reserve_is_empty() {
    // Six T: C3/0 = C3 C2 B2, A2/3 = A2 A3 B3, A4/3 = A4 A5 B5,
    // A6/3 = A6 A7 B7, A8/4 = A8 B9 B8, B4/4 = B4 C5 C4.
    let pos = standard("T@C3/0 _ T@A2/3 _ T@A4/3 _ T@A6/3 _ T@A8/4 _ T@B4/4 _");
    assert_heights(
        &pos,
        "C3 C2 B2 A2 A3 B3 A4 A5 B5 A6 A7 B7 A8 B9 B8 B4 C5 C4",
        1,
    );
    assert_eq!(pos.reserve(W, Kind::T), 0);
    assert_eq!(pos.reserve_total(W), 12);
    assert_illegal(&pos, "T@E6/0", IllegalMove::NoneInReserve { kind: Kind::T });
    assert!(pos
        .legal_moves()
        .iter()
        .all(|m| !matches!(m, Move::Add { kind: Kind::T, .. })));
    // Other kinds are still there: E E6/0 = E6 E5 E4.
    assert_legal(&pos, "E@E6/0");
}

#[test]
fn a_third_c_piece_is_refused() {
    // C C1/2 = C1 B1 D1, C6/2 = C6 B6 D6.
    let pos = standard("C@C1/2 _ C@C6/2 _");
    assert_heights(&pos, "C1 B1 D1 C6 B6 D6", 1);
    assert_eq!(pos.reserve(W, Kind::C), 0);
    assert_illegal(&pos, "C@E9/0", IllegalMove::NoneInReserve { kind: Kind::C });
}

#[test]
fn c_rotations_three_to_five_are_refused_for_additions() {
    let pos = Position::new(Variant::Standard);
    for r in 3..6u8 {
        assert_illegal(
            &pos,
            &format!("C@E5/{r}"),
            IllegalMove::BadRotation {
                kind: Kind::C,
                rotation: r,
            },
        );
    }
    for r in 0..3 {
        assert_legal(&pos, &format!("C@E5/{r}"));
    }
    // Every other kind has six rotations.
    for kind in ["T", "E", "L", "M", "R"] {
        assert_legal(&pos, &format!("{kind}@E5/5"));
    }
}

#[test]
fn c_rotations_three_to_five_are_refused_for_relocations() {
    let pos = standard("C@E5/0 _"); // E5 E4 E6
    assert_heights(&pos, "E5 E4 E6", 1);
    assert_illegal(
        &pos,
        "E5-E8/3",
        IllegalMove::BadRotation {
            kind: Kind::C,
            rotation: 3,
        },
    );
    let next = after(&pos, "E5-E8/0"); // E8 E7 E9
    assert_heights(&next, "E8 E7 E9", 1);
    assert_heights(&next, "E5 E4 E6", 0);
}

#[test]
fn standard_game_first_addition_may_not_touch_the_centre() {
    let pos = Position::new(Variant::Standard);
    assert_illegal(
        &pos,
        "T@I9/0",
        IllegalMove::AddInCentre {
            cell: cell("I9"),
            first_move_only: false,
        },
    );
    // E G5/3 = G5 G6 G7: only the far end touches the centre.
    assert_illegal(
        &pos,
        "E@G5/3",
        IllegalMove::AddInCentre {
            cell: cell("G7"),
            first_move_only: false,
        },
    );
    // E G4/3 = G4 G5 G6 stops just outside.
    assert_legal(&pos, "E@G4/3");
    assert_no_addition_touches_centre(&pos);
}

#[test]
fn standard_game_later_additions_may_not_touch_the_centre() {
    // White moves a triangle into the centre (C3 → H8 along col − row = −1):
    // H8/0 = H8 H7 G7. Moving there is allowed; adding is not, for either side.
    let pos = standard("T@C3/0 _ C3-H8/0");
    assert_heights(&pos, "H8 H7 G7", 1);
    // Black: T K12/1 = K12 J11 J12.
    assert_illegal(
        &pos,
        "T@K12/1",
        IllegalMove::AddInCentre {
            cell: cell("J11"),
            first_move_only: false,
        },
    );
    assert_no_addition_touches_centre(&pos);

    let later = play_on(pos, "_ _ _ _ _");
    assert_eq!(later.side_to_move(), W);
    // White: T F9/5 = F9 G9 F8.
    assert_illegal(
        &later,
        "T@F9/5",
        IllegalMove::AddInCentre {
            cell: cell("G9"),
            first_move_only: false,
        },
    );
    assert_no_addition_touches_centre(&later);
}

#[test]
fn basic_game_whites_first_addition_may_not_touch_the_centre() {
    let pos = Position::new(Variant::Basic);
    assert_illegal(
        &pos,
        "T@I9/0",
        IllegalMove::AddInCentre {
            cell: cell("I9"),
            first_move_only: true,
        },
    );
    assert_illegal(
        &pos,
        "E@G5/3",
        IllegalMove::AddInCentre {
            cell: cell("G7"),
            first_move_only: true,
        },
    );
    assert_legal(&pos, "E@G4/3");
    assert_no_addition_touches_centre(&pos);
}

#[test]
fn basic_game_blacks_first_addition_may_touch_the_centre() {
    // T I9/0 = I9 I8 H8, all central.
    let pos = basic("T@C3/0 T@I9/0");
    assert_eq!(stack(&pos, "I9"), [(B, Kind::T, 0, true)]);
    assert_heights(&pos, "I8 H8", 1);
    assert_eq!(pos.central_count(B), 3);
    // The same addition is refused in the standard game.
    assert_illegal(
        &standard("T@C3/0"),
        "T@I9/0",
        IllegalMove::AddInCentre {
            cell: cell("I9"),
            first_move_only: false,
        },
    );
}

#[test]
fn basic_game_later_additions_of_both_sides_may_touch_the_centre() {
    // White's second addition T I9/0 = I9 I8 H8, Black's E J11/3 = J11 J12 J13.
    let pos = basic("T@C3/0 T@O16/0 T@I9/0 E@J11/3");
    assert_eq!(stack(&pos, "I9"), [(W, Kind::T, 0, true)]);
    assert_eq!(stack(&pos, "J11"), [(B, Kind::E, 0, true)]);
    assert_heights(&pos, "I8 H8 J12 J13", 1);
    // And White may keep doing so: T K10/2 = K10 J10 K11.
    let next = after(&pos, "T@K10/2");
    assert_heights(&next, "K10 J10 K11", 1);
}

// ================================================================= moving

#[test]
fn only_own_pieces_may_be_moved() {
    let pos = standard("T@C3/0 T@O16/0"); // White C3 C2 B2, Black O16 O15 N15
    assert_illegal(
        &pos,
        "O16-O14/0",
        IllegalMove::OpponentsPiece { cell: cell("O16") },
    );
    // Naming the opponent's minor dot says the same.
    assert_illegal(
        &pos,
        "O15-O12/0",
        IllegalMove::OpponentsPiece { cell: cell("O15") },
    );
    let black = play_on(pos, "_");
    assert_eq!(black.side_to_move(), B);
    assert_illegal(
        &black,
        "C3-C6/0",
        IllegalMove::OpponentsPiece { cell: cell("C3") },
    );
    assert_legal(&black, "O16-O14/0");
}

#[test]
fn moving_from_an_empty_cell_is_refused() {
    let pos = standard("T@C3/0 _");
    assert_illegal(&pos, "D5-D7/0", IllegalMove::NothingOn { cell: cell("D5") });
}

#[test]
fn a_piece_is_named_by_its_punct_not_by_a_minor_dot() {
    let pos = standard("T@C3/0 _"); // PÜNCT C3, minor dots C2 B2
    assert_illegal(&pos, "C2-C6/0", IllegalMove::NotAPunct { cell: cell("C2") });
    assert_illegal(&pos, "B2-B6/0", IllegalMove::NotAPunct { cell: cell("B2") });
    let next = after(&pos, "C3-C6/0"); // C6 C5 B5
    assert_eq!(stack(&next, "C6"), [(W, Kind::T, 0, true)]);
    assert_heights(&next, "C5 B5", 1);
    assert_heights(&next, "C3 C2 B2", 0);
}

#[test]
fn a_piece_covered_by_a_flat_piece_cannot_move() {
    // E C3/3 = C3 C4 C5, E D3/3 = D3 D4 D5, then a T from D8 (D8 D7 C7) lies
    // flat on D4/2 = D4 C4 D5, covering a dot of each E.
    let pos = standard("E@C3/3 _ E@D3/3 _ T@D8/0 _ D8-D4/2 _");
    assert_eq!(
        stack(&pos, "C4"),
        [(W, Kind::E, 0, false), (W, Kind::T, 1, false)]
    );
    assert_eq!(
        stack(&pos, "D4"),
        [(W, Kind::E, 0, false), (W, Kind::T, 1, true)]
    );
    assert_eq!(
        stack(&pos, "D5"),
        [(W, Kind::E, 0, false), (W, Kind::T, 1, false)]
    );
    // Both E's PÜNCTs are still visible, but the pieces are covered.
    assert_eq!(stack(&pos, "C3"), [(W, Kind::E, 0, true)]);
    assert_eq!(stack(&pos, "D3"), [(W, Kind::E, 0, true)]);
    assert_illegal(&pos, "C3-C8/3", IllegalMove::Covered { cell: cell("C3") });
    assert_illegal(&pos, "C3-C3/0", IllegalMove::Covered { cell: cell("C3") });
    assert_illegal(&pos, "D3-H3/3", IllegalMove::Covered { cell: cell("D3") });
    assert_eq!(moves_from(&pos, "C3"), 0);
    assert_eq!(moves_from(&pos, "D3"), 0);
    let lower = pos.top_piece(cell("C3")).unwrap();
    assert!(pos.is_covered(&lower));
    // The piece on top is free, and lies flat: no bridge.
    let top = pos.top_piece(cell("D4")).unwrap();
    assert!(!pos.is_covered(&top) && !pos.is_bridge(&top));
    assert_legal(&pos, "D4-D8/0");
    assert!(moves_from(&pos, "D4") > 0);
}

#[test]
fn a_piece_under_the_middle_of_a_bridge_is_covered() {
    // Two stacks two high: T C3/0 = C3 C2 B2 (the second T comes from F3 =
    // F3 F2 E2 along row 3) and T C5/3 = C5 C6 D6 (the second from C9 =
    // C9 C10 D10 along column C). Between them T B4/5 = B4 C4 B3 has a dot
    // on C4 but its PÜNCT on B4. An E from H3 (H3 H4 H5) then bridges
    // C3/3 = C3 C4 C5 at level 2, its middle over the triangle's C4 dot.
    let before =
        standard("T@C3/0 _ T@F3/0 _ F3-C3/0 _ T@C5/3 _ T@C9/3 _ C9-C5/3 _ T@B4/5 _ E@H3/3 _");
    assert_heights(&before, "C3 C2 B2 C5 C6 D6", 2);
    assert_heights(&before, "B4 C4 B3 H3 H4 H5", 1);
    // Before the bridge the triangle may move: B4 → B7/5 = B7 C7 B6.
    assert_legal(&before, "B4-B7/5");

    let pos = play_on(after(&before, "H3-C3/3"), "_");
    let bridge = pos.top_piece(cell("C3")).unwrap();
    assert_eq!((bridge.kind, bridge.placement.level), (Kind::E, 2));
    assert_eq!(
        stack(&pos, "C4"),
        [(W, Kind::T, 0, false), (W, Kind::E, 2, false)]
    );
    assert_eq!(pos.height(cell("C4")), 3);
    // The E spans the gap over C4 at level 1: a bridge, itself uncovered.
    assert!(pos.is_bridge(&bridge) && !pos.is_covered(&bridge));
    assert!(!pos.is_bridge(&pos.top_piece(cell("C2")).unwrap()));
    // The triangle's PÜNCT B4 is visible, yet the piece is covered.
    assert!(pos.is_covered(&pos.top_piece(cell("B4")).unwrap()));
    assert_eq!(stack(&pos, "B4"), [(W, Kind::T, 0, true)]);
    assert_illegal(&pos, "B4-B7/5", IllegalMove::Covered { cell: cell("B4") });
    assert_illegal(&pos, "B4-B4/0", IllegalMove::Covered { cell: cell("B4") });
    assert_eq!(moves_from(&pos, "B4"), 0);
}

#[test]
fn nothing_can_be_added_under_the_middle_of_a_bridge() {
    // E C3/5 = C3 D3 E3 and E C5/5 = C5 D5 E5; an E from H3 bridges
    // C3/3 = C3 C4 C5 at level 1 with nothing at all below its middle C4.
    let pos = standard("E@C3/5 _ E@C5/5 _ E@H3/3 _ H3-C3/3");
    assert_eq!(pos.side_to_move(), B);
    assert_eq!(stack(&pos, "C4"), [(W, Kind::E, 1, false)]);
    assert_eq!(pos.height(cell("C4")), 2);
    // Black: T B4/5 = B4 C4 B3 and E C4/5 = C4 D4 E4 would slide under it.
    assert_illegal(
        &pos,
        "T@B4/5",
        IllegalMove::AddOnOccupied { cell: cell("C4") },
    );
    assert_illegal(
        &pos,
        "E@C4/5",
        IllegalMove::AddOnOccupied { cell: cell("C4") },
    );
    // Next to it is fine: T B4/2 = B4 A4 B5.
    assert_legal(&pos, "T@B4/2");
    for m in pos.legal_moves() {
        if let Move::Add { .. } = m {
            let mut p = pos.clone();
            p.make(m);
            assert_eq!(p.stack(cell("C4")).len(), 1, "{m} adds under the bridge");
        }
    }
}

#[test]
fn a_piece_moves_along_its_column_row_and_diagonal_any_distance() {
    let pos = standard("E@C3/3 _"); // C3 C4 C5
                                    // Column C, distance 5: C8/3 = C8 C9 C10.
    let pos = after(&pos, "C3-C8/3");
    assert_heights(&pos, "C8 C9 C10", 1);
    assert_heights(&pos, "C3 C4 C5", 0);
    // Row 8, distance 10: M8/3 = M8 M9 M10.
    let pos = after(&play_on(pos, "_"), "C8-M8/3");
    assert_heights(&pos, "M8 M9 M10", 1);
    assert_heights(&pos, "C8 C9 C10", 0);
    // Diagonal col − row = 4, distance 7: F1/3 = F1 F2 F3.
    let pos = after(&play_on(pos, "_"), "M8-F1/3");
    assert_heights(&pos, "F1 F2 F3", 1);
    assert_heights(&pos, "M8 M9 M10", 0);
    assert_eq!(
        pos.top_piece(cell("F1")).unwrap().placement,
        Placement {
            punct: cell("F1"),
            rotation: 3,
            level: 0
        }
    );
}

#[test]
fn a_piece_moves_over_other_pieces() {
    // White E C3/3 = C3 C4 C5; Black E C7/5 = C7 D7 E7 across column C.
    let pos = standard("E@C3/3 E@C7/5");
    let pos = after(&pos, "C3-C9/3"); // C9 C10 C11, over C7
    assert_heights(&pos, "C9 C10 C11", 1);
    assert_eq!(stack(&pos, "C7"), [(B, Kind::E, 0, true)]);
}

#[test]
fn a_move_off_the_three_lines_is_refused() {
    let pos = standard("E@C3/3 _");
    // D2 and B4 share C3's col + row, which is not one of the lines.
    for to in ["D5", "E4", "B5", "H9", "D2", "B4"] {
        assert_illegal(
            &pos,
            &format!("C3-{to}/3"),
            IllegalMove::NotInLine {
                from: cell("C3"),
                to: cell(to),
            },
        );
    }
    // The diagonal neighbour is in line: D4/3 = D4 D5 D6.
    let next = after(&pos, "C3-D4/3");
    assert_heights(&next, "D4 D5 D6", 1);
}

#[test]
fn rotating_in_place_is_a_move() {
    // L C3/0 = C3, corner C2, far end B1; rotation 2 = C3, corner B3, far B4.
    let pos = standard("L@C3/0 _");
    assert_heights(&pos, "C3 C2 B1", 1);
    let next = after(&pos, "C3-C3/2");
    assert_eq!(stack(&next, "C3"), [(W, Kind::L, 0, true)]);
    assert_heights(&next, "B3 B4", 1);
    assert_heights(&next, "C2 B1", 0);
    assert_eq!(next.top_piece(cell("C3")).unwrap().placement.rotation, 2);
}

#[test]
fn ending_where_the_piece_started_is_refused() {
    // E C3/3 = C3 C4 C5, C E5/1 = E5 D4 F6.
    let pos = standard("E@C3/3 _ C@E5/1 _");
    assert_illegal(&pos, "C3-C3/3", IllegalMove::Unchanged);
    assert_illegal(&pos, "E5-E5/1", IllegalMove::Unchanged);
    // C rotation 4 would be the same placement, but it is not a rotation.
    assert_illegal(
        &pos,
        "E5-E5/4",
        IllegalMove::BadRotation {
            kind: Kind::C,
            rotation: 4,
        },
    );
    assert_legal(&pos, "E5-E5/2");
    assert_legal(&pos, "C3-C3/2");
}

#[test]
fn a_piece_slides_along_its_own_axis_over_its_old_cells() {
    let pos = standard("E@C3/3 _"); // C3 C4 C5
                                    // One step up the column: C4/3 = C4 C5 C6 overlaps two old cells, but the
                                    // piece is lifted first, so it stays on the board at level 0.
    let pos = after(&pos, "C3-C4/3");
    assert_eq!(stack(&pos, "C4"), [(W, Kind::E, 0, true)]);
    assert_eq!(stack(&pos, "C5"), [(W, Kind::E, 0, false)]);
    assert_eq!(stack(&pos, "C6"), [(W, Kind::E, 0, false)]);
    assert_heights(&pos, "C3", 0);
    // Turned end for end on the same three cells: C6/0 = C6 C5 C4.
    let pos = after(&play_on(pos, "_"), "C4-C6/0");
    assert_eq!(stack(&pos, "C6"), [(W, Kind::E, 0, true)]);
    assert_eq!(stack(&pos, "C4"), [(W, Kind::E, 0, false)]);
    assert_eq!(occupied(&pos), 3 + 3);
}

#[test]
fn a_raised_piece_is_lifted_before_it_lands_again() {
    // Two T C3/0 stacked (C3 C2 B2, the second from F3). The top one moves to
    // C2/2 = C2 B2 C3, the same cells: it lands at level 1 again, not 2.
    let pos = standard("T@C3/0 _ T@F3/0 _ F3-C3/0 _");
    assert_heights(&pos, "C3 C2 B2", 2);
    let next = after(&pos, "C3-C2/2");
    assert_eq!(
        stack(&next, "C2"),
        [(W, Kind::T, 0, false), (W, Kind::T, 1, true)]
    );
    assert_eq!(
        stack(&next, "C3"),
        [(W, Kind::T, 0, true), (W, Kind::T, 1, false)]
    );
    assert_heights(&next, "C3 C2 B2", 2);
}

#[test]
fn a_piece_jumps_down_from_a_higher_level_to_the_board() {
    let pos = standard("T@C3/0 _ T@F3/0 _ F3-C3/0 _");
    assert_eq!(pos.top_piece(cell("C3")).unwrap().placement.level, 1);
    let next = after(&pos, "C3-C7/0"); // C7 C6 B6
    assert_eq!(stack(&next, "C7"), [(W, Kind::T, 0, true)]);
    assert_heights(&next, "C6 B6", 1);
    assert_eq!(stack(&next, "C3"), [(W, Kind::T, 0, true)]);
    assert_heights(&next, "C2 B2", 1);
}

#[test]
fn a_piece_may_move_into_the_central_hexagon() {
    // C3 → H8 along col − row = −1; H8/0 = H8 H7 G7.
    let pos = after(&standard("T@C3/0 _"), "C3-H8/0");
    assert_eq!(stack(&pos, "H8"), [(W, Kind::T, 0, true)]);
    assert_heights(&pos, "H7 G7", 1);
    assert_eq!(pos.central_count(W), 3);
}

#[test]
fn a_relocation_with_a_dot_off_the_board_is_refused() {
    let pos = standard("E@C3/3 _");
    // A3/0 = A3 A2 A1 (removed corner).
    assert_illegal(&pos, "C3-A3/0", IllegalMove::OffBoard);
    // C10/3 = C10 C11 C12: column C ends at row 11.
    assert_illegal(&pos, "C3-C10/3", IllegalMove::OffBoard);
    assert_legal(&pos, "C3-C9/3");
}

// ================================================================ landing

#[test]
fn a_piece_lies_flat_on_three_cells_of_equal_height() {
    // T C3/0 = C3 C2 B2; a second T from F3 (F3 F2 E2) lands on top.
    let pos = standard("T@C3/0 _ T@F3/0 _ F3-C3/0");
    assert_eq!(
        stack(&pos, "C3"),
        [(W, Kind::T, 0, true), (W, Kind::T, 1, true)]
    );
    assert_eq!(
        stack(&pos, "C2"),
        [(W, Kind::T, 0, false), (W, Kind::T, 1, false)]
    );
    assert_eq!(
        stack(&pos, "B2"),
        [(W, Kind::T, 0, false), (W, Kind::T, 1, false)]
    );
    assert_heights(&pos, "F3 F2 E2", 0);
    assert_eq!(pos.top_piece(cell("C3")).unwrap().placement.level, 1);
}

#[test]
fn a_flat_punct_may_rest_on_a_minor_dot_of_own_piece() {
    // The T's PÜNCT lands on D4, the middle dot of the E D3/3 = D3 D4 D5.
    let pos = standard("E@C3/3 _ E@D3/3 _ T@D8/0 _ D8-D4/2");
    assert_eq!(
        stack(&pos, "D4"),
        [(W, Kind::E, 0, false), (W, Kind::T, 1, true)]
    );
    assert_eq!(pos.top_piece(cell("D4")).unwrap().placement.level, 1);
}

#[test]
fn a_flat_punct_may_not_rest_on_the_opponent_but_minor_dots_may() {
    // White E C3/3 = C3 C4 C5; Black E D3/3 = D3 D4 D5. White has a T at
    // D8/0 (D8 D7 C7) and one at C9/3 (C9 C10 D10).
    let pos = standard("E@C3/3 E@D3/3 T@D8/0 _ T@C9/3 _");
    assert_heights(&pos, "C3 C4 C5 D3 D4 D5", 1);
    // D4/2 = D4 C4 D5: PÜNCT on Black's D4.
    assert_illegal(
        &pos,
        "D8-D4/2",
        IllegalMove::PunctOnOpponent { cell: cell("D4") },
    );
    // C4/4 = C4 D5 D4: PÜNCT on White's C4, both minor dots on Black.
    let next = after(&pos, "C9-C4/4");
    assert_eq!(
        stack(&next, "C4"),
        [(W, Kind::E, 0, false), (W, Kind::T, 1, true)]
    );
    assert_eq!(
        stack(&next, "D5"),
        [(B, Kind::E, 0, false), (W, Kind::T, 1, false)]
    );
    assert_eq!(
        stack(&next, "D4"),
        [(B, Kind::E, 0, false), (W, Kind::T, 1, false)]
    );
    assert_eq!(next.visible_side(cell("D4")), Some(W));
    // Black's E, its PÜNCT D3 still visible, is now covered by White.
    assert_eq!(stack(&next, "D3"), [(B, Kind::E, 0, true)]);
    assert_illegal(&next, "D3-D9/3", IllegalMove::Covered { cell: cell("D3") });
    assert_eq!(moves_from(&next, "D3"), 0);
}

#[test]
fn a_piece_may_not_lie_on_uneven_heights() {
    // E C3/5 = C3 D3 E3 at height 1; a second E waits at H3/3 = H3 H4 H5.
    let pos = standard("E@C3/5 _ E@H3/3 _");
    // C3/3 = C3 C4 C5: heights 1, 0, 0.
    assert_illegal(&pos, "H3-C3/3", IllegalMove::Uneven { heights: [1, 0, 0] });
    // D3/1 = D3 C2 B1: heights 1, 0, 0.
    assert_illegal(&pos, "H3-D3/1", IllegalMove::Uneven { heights: [1, 0, 0] });
    // E3/4 = E3 F4 G5: heights 1, 0, 0.
    assert_illegal(&pos, "H3-E3/4", IllegalMove::Uneven { heights: [1, 0, 0] });
    // Flat on the E is fine: C3/5 again at level 1.
    let next = after(&pos, "H3-C3/5");
    assert_heights(&next, "C3 D3 E3", 2);
}

/// White: row 3 (C3 D3 E3) two high, row 5 (C5 D5 E5) one high, row 4
/// empty, and a piece of every kind waiting in line with row 3 or 4.
fn unequal_ends() -> Position {
    // E C3/5, E C5/5, E H3/5 (H3 I3 J3) moved onto C3/5; then E H3/3
    // (H3 H4 H5), L J3/3 (J3 J4 K5), R K3/0 (K3 L4 L5), C G4/0 (G4 G3 G5),
    // M D9/3 (D9 E10 D8), T D11/0 (D11 D10 C10).
    let pos = standard(
        "E@C3/5 _ E@C5/5 _ E@H3/5 _ H3-C3/5 _ E@H3/3 _ L@J3/3 _ R@K3/0 _ \
         C@G4/0 _ M@D9/3 _ T@D11/0 _",
    );
    assert_heights(&pos, "C3 D3 E3", 2);
    assert_heights(&pos, "C5 D5 E5", 1);
    assert_heights(&pos, "C4 D4 E4", 0);
    assert_heights(
        &pos,
        "H3 H4 H5 J3 J4 K5 K3 L4 L5 G4 G3 G5 D9 E10 D8 D11 D10 C10",
        1,
    );
    pos
}

#[test]
fn bridges_with_unequal_ends_are_refused_for_every_kind() {
    let pos = unequal_ends();
    // E C3/3 = C3 C4 C5: ends 2 and 1.
    assert_illegal(&pos, "H3-C3/3", IllegalMove::Uneven { heights: [2, 0, 1] });
    // L C3/3 = C3, corner C4, far end D5.
    assert_illegal(&pos, "J3-C3/3", IllegalMove::Uneven { heights: [2, 0, 1] });
    // R C3/0 = C3, corner D4, far end D5.
    assert_illegal(&pos, "K3-C3/0", IllegalMove::Uneven { heights: [2, 0, 1] });
    // C C4/0 = C4 (middle), C3, C5.
    assert_illegal(&pos, "G4-C4/0", IllegalMove::Uneven { heights: [0, 2, 1] });
    // M D4/3 = D4 (middle), E5, D3.
    assert_illegal(&pos, "D9-D4/3", IllegalMove::Uneven { heights: [0, 1, 2] });
}

#[test]
fn a_triangle_never_bridges() {
    // Against the unequal rows: T D4/0 = D4 D3 C3 has two corners on row 3
    // at height 2 over an empty D4, the shape of a bridge for any other kind.
    let pos = unequal_ends();
    assert_illegal(
        &pos,
        "D11-D4/0",
        IllegalMove::TriangleBridge { heights: [0, 2, 2] },
    );
    // Between two rows of equal height: E C3/5 and E C5/5, T waiting at
    // D9/3 = D9 D10 E10.
    let pos = standard("E@C3/5 _ E@C5/5 _ T@D9/3 _");
    assert_heights(&pos, "C3 D3 E3 C5 D5 E5", 1);
    assert_illegal(
        &pos,
        "D9-D4/0",
        IllegalMove::TriangleBridge { heights: [0, 1, 1] },
    );
    // D5/0 = D5 D4 C4.
    assert_illegal(
        &pos,
        "D9-D5/0",
        IllegalMove::TriangleBridge { heights: [1, 0, 0] },
    );
    // D3/5 = D3 E3 D2.
    assert_illegal(
        &pos,
        "D9-D3/5",
        IllegalMove::TriangleBridge { heights: [1, 1, 0] },
    );
}

#[test]
fn a_bridge_middle_may_be_more_than_one_level_lower() {
    // Stacks two high on C3/0 (C3 C2 B2) and C5/3 (C5 C6 D6), nothing on
    // C4; an E from H3 bridges C3/3 = C3 C4 C5 at level 2.
    let pos = standard("T@C3/0 _ T@F3/0 _ F3-C3/0 _ T@C5/3 _ T@C9/3 _ C9-C5/3 _ E@H3/3 _");
    assert_heights(&pos, "C3 C5", 2);
    assert_heights(&pos, "C4", 0);
    let next = after(&pos, "H3-C3/3");
    assert_eq!(stack(&next, "C4"), [(W, Kind::E, 2, false)]);
    assert_eq!(next.height(cell("C4")), 3);
}

/// Rows 3 (C3 D3 E3) and 5 (C5 D5 E5) one high, row 4 empty.
const TWO_ROWS: &str = "E@C3/5 _ E@C5/5 _";

#[test]
fn an_e_bridges_two_equal_ends_over_a_lower_middle() {
    // E from H3 to C3/3 = C3 (end), C4 (middle), C5 (end).
    let pos = standard(&format!("{TWO_ROWS} E@H3/3 _"));
    assert_heights(&pos, "C3 C5", 1);
    assert_heights(&pos, "C4", 0);
    let next = after(&pos, "H3-C3/3");
    assert_eq!(next.top_piece(cell("C3")).unwrap().placement.level, 1);
    assert_eq!(
        stack(&next, "C3"),
        [(W, Kind::E, 0, true), (W, Kind::E, 1, true)]
    );
    assert_eq!(stack(&next, "C4"), [(W, Kind::E, 1, false)]);
    assert_eq!(
        stack(&next, "C5"),
        [(W, Kind::E, 0, true), (W, Kind::E, 1, false)]
    );
}

#[test]
fn an_l_bridges_with_its_corner_as_the_middle() {
    // L from H3 (H3 H4 I5) to C3/3 = C3 (end), corner C4, far end D5.
    let pos = standard(&format!("{TWO_ROWS} L@H3/3 _"));
    let next = after(&pos, "H3-C3/3");
    assert_eq!(
        stack(&next, "C3"),
        [(W, Kind::E, 0, true), (W, Kind::L, 1, true)]
    );
    assert_eq!(stack(&next, "C4"), [(W, Kind::L, 1, false)]);
    assert_eq!(
        stack(&next, "D5"),
        [(W, Kind::E, 0, false), (W, Kind::L, 1, false)]
    );
}

#[test]
fn an_r_bridges_with_its_corner_as_the_middle() {
    // R from H3 (H3 I4 I5) to C3/0 = C3 (end), corner D4, far end D5.
    let pos = standard(&format!("{TWO_ROWS} R@H3/0 _"));
    let next = after(&pos, "H3-C3/0");
    assert_eq!(
        stack(&next, "C3"),
        [(W, Kind::E, 0, true), (W, Kind::R, 1, true)]
    );
    assert_eq!(stack(&next, "D4"), [(W, Kind::R, 1, false)]);
    assert_eq!(
        stack(&next, "D5"),
        [(W, Kind::E, 0, false), (W, Kind::R, 1, false)]
    );
}

#[test]
fn a_bridge_may_rest_its_far_end_on_the_opponent_but_not_its_punct_end() {
    // White row 3, Black row 5: White's E from H3 bridges C3/3 with its
    // PÜNCT end on White's C3 and its far end on Black's C5.
    let pos = standard("E@C3/5 E@C5/5 E@H3/3 _");
    let next = after(&pos, "H3-C3/3");
    assert_eq!(
        stack(&next, "C5"),
        [(B, Kind::E, 0, true), (W, Kind::E, 1, false)]
    );
    assert_eq!(stack(&next, "C4"), [(W, Kind::E, 1, false)]);
    // Black row 3, White row 5: the PÜNCT end would be on Black's C3.
    let pos = standard("E@C5/5 E@C3/5 E@H3/3 _");
    assert_heights(&pos, "C3 C5", 1);
    assert_illegal(
        &pos,
        "H3-C3/3",
        IllegalMove::PunctOnOpponent { cell: cell("C3") },
    );
}

/// White stacks two high on C3 (T C3/0 = C3 C2 B2, the second from F3) and
/// on `second` (its two triangles given as the moves in between), and a T
/// B4/5 = B4 C4 B3 with a dot on C4, then `rest`.
fn level_two(second: &str, rest: &str) -> Position {
    standard(&format!(
        "T@C3/0 _ T@F3/0 _ F3-C3/0 _ {second} T@B4/5 _ {rest}"
    ))
}

#[test]
fn a_c_bridges_with_its_punct_over_own_colour() {
    // Second stack T C5/3 = C5 C6 D6 (the second from C9 = C9 C10 D10).
    // C from H4 (H4 H3 H5) to C4/0 = C4 (PÜNCT, middle), C3, C5 (ends).
    let pos = level_two("T@C5/3 _ T@C9/3 _ C9-C5/3 _", "C@H4/0 _");
    assert_heights(&pos, "C3 C5", 2);
    assert_eq!(stack(&pos, "C4"), [(W, Kind::T, 0, false)]);
    let next = after(&pos, "H4-C4/0");
    assert_eq!(
        stack(&next, "C4"),
        [(W, Kind::T, 0, false), (W, Kind::C, 2, true)]
    );
    assert_eq!(next.height(cell("C3")), 3);
    assert_eq!(next.height(cell("C5")), 3);
}

#[test]
fn an_m_bridges_with_its_punct_over_own_colour() {
    // Second stack T D5/3 = D5 D6 E6 (the second from D9 = D9 D10 E10).
    // M from H4 (H4 I5 H3) to C4/3 = C4 (PÜNCT, middle), D5, C3 (ends).
    let pos = level_two("T@D5/3 _ T@D9/3 _ D9-D5/3 _", "M@H4/3 _");
    assert_heights(&pos, "C3 D5", 2);
    assert_heights(&pos, "C4", 1);
    let next = after(&pos, "H4-C4/3");
    assert_eq!(
        stack(&next, "C4"),
        [(W, Kind::T, 0, false), (W, Kind::M, 2, true)]
    );
    assert_eq!(
        stack(&next, "D5"),
        [
            (W, Kind::T, 0, true),
            (W, Kind::T, 1, true),
            (W, Kind::M, 2, false)
        ]
    );
}

#[test]
fn c_and_m_bridges_may_not_hang_their_punct_over_an_empty_cell() {
    // C waiting at J4/0 = J4 J3 J5, M at H4/3 = H4 I5 H3.
    let pos = standard(&format!("{TWO_ROWS} C@J4/0 _ M@H4/3 _"));
    // C C4/0 = C4 C3 C5: ends at height 1, PÜNCT over the empty C4.
    assert_illegal(
        &pos,
        "J4-C4/0",
        IllegalMove::PunctOverEmpty { cell: cell("C4") },
    );
    // M D4/3 = D4 E5 D3: the same over D4.
    assert_illegal(
        &pos,
        "H4-D4/3",
        IllegalMove::PunctOverEmpty { cell: cell("D4") },
    );
}

#[test]
fn c_and_m_bridges_may_not_hang_their_punct_over_the_opponent() {
    // Black's first piece is T B4/5 = B4 C4 B3. White stacks two high on
    // C3/0, C5/3 and D4/4 = D4 E5 E4 (seconds from F3, C9 and D9/4 =
    // D9 E10 E9), and has a C at H4/0 and an M at J4/2 = J4 J5 K4.
    let pos = standard(
        "T@C3/0 T@B4/5 T@F3/0 _ F3-C3/0 _ T@C5/3 _ T@C9/3 _ C9-C5/3 _ \
         T@D4/4 _ T@D9/4 _ D9-D4/4 _ C@H4/0 _ M@J4/2 _",
    );
    assert_heights(&pos, "C3 C5 D4", 2);
    assert_eq!(stack(&pos, "C4"), [(B, Kind::T, 0, false)]);
    // C C4/0 = C4 C3 C5 and M C4/2 = C4 C5 D4, PÜNCT over Black's C4.
    assert_illegal(
        &pos,
        "H4-C4/0",
        IllegalMove::PunctOnOpponent { cell: cell("C4") },
    );
    assert_illegal(
        &pos,
        "J4-C4/2",
        IllegalMove::PunctOnOpponent { cell: cell("C4") },
    );
}

#[test]
fn pieces_stack_without_a_height_limit_and_come_down_again() {
    // Three more T C3/0 land on the first one, one after the other.
    let pos = standard("T@C3/0 _ T@F3/0 _ F3-C3/0 _ T@F3/0 _ F3-C3/0 _ T@F3/0 _ F3-C3/0");
    assert_eq!(
        stack(&pos, "C3"),
        (0..4).map(|l| (W, Kind::T, l, true)).collect::<Vec<_>>()
    );
    assert_heights(&pos, "C3 C2 B2", 4);
    assert_eq!(pos.top_piece(cell("C3")).unwrap().placement.level, 3);
    // The level-3 piece jumps straight down to the board: C7/0 = C7 C6 B6.
    let next = after(&play_on(pos, "_"), "C3-C7/0");
    assert_eq!(stack(&next, "C7"), [(W, Kind::T, 0, true)]);
    assert_heights(&next, "C3 C2 B2", 3);
}

// =================================================================== pass

#[test]
fn passing_is_illegal_while_another_move_exists() {
    let pos = Position::new(Variant::Standard);
    assert_illegal(&pos, "pass", IllegalMove::PassWithMoves);
    let pos = standard("T@C3/0 _ C3-H8/0");
    assert_illegal(&pos, "pass", IllegalMove::PassWithMoves);
    assert!(!pos.legal_moves().contains(&Move::Pass));
    let basic_pos = basic("T@C3/0");
    assert_illegal(&basic_pos, "pass", IllegalMove::PassWithMoves);
}

/// Everything a position shows, incremental or derived, in one value to
/// compare: its string, side, passes, status, hash (and its recomputation),
/// reserves, every cell's height, stack and visible colour, the visible
/// sets, central counts, connections, pieces and the legal moves.
fn everything(pos: &Position) -> String {
    let mut out = format!(
        "{} {:?} passes {} {:?} hash {:x}/{:x}\n",
        pos.to_position_string(),
        pos.side_to_move(),
        pos.passes(),
        pos.status(),
        pos.hash(),
        pos.recomputed_hash()
    );
    for side in Side::BOTH {
        let reserve: Vec<u8> = Kind::ALL.iter().map(|&k| pos.reserve(side, k)).collect();
        let visible: Vec<Cell> = pos.visible(side).cells().collect();
        out += &format!(
            "{side:?}: reserve {reserve:?} total {} central {} visible {visible:?} connection {:?}\n",
            pos.reserve_total(side),
            pos.central_count(side),
            pos.connection(side),
        );
    }
    for c in Cell::all() {
        out += &format!(
            "{c} {} {:?} {:?} {:?}\n",
            pos.height(c),
            pos.visible_side(c),
            pos.top_piece(c),
            pos.stack(c)
        );
    }
    let mut pieces = pos.pieces();
    pieces.sort();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    legal.sort();
    out += &format!("{pieces:?}\n{} {legal:?}", pos.count_legal());
    out
}

/// A pass played with `make` and taken back with `unmake` restores the
/// position exactly — the pass count and its part of the hash, the side
/// to move, the status (a second pass in a row ends the game on the
/// central count, a draw in the basic game), and every derived field —
/// from positions with stacks and bridges too. `make` is given the pass
/// as the generator would, without the legality check: no position where
/// a pass is the only legal move has been found (see the rules' pass
/// section; adding must be impossible for every kind in the mover's
/// reserve, which needs about three cells in seven outside the central
/// hexagon raised while every one of the mover's pieces stays unable to
/// move), so the pass is made here where other moves exist.
#[test]
fn a_pass_made_and_taken_back_restores_everything() {
    let cases = [
        // No pass yet, Black to move; White leads the central count.
        ("standard:b:0:wT@H8/0,bT@K12/1", Status::Ongoing),
        // White passed: Black's pass is the second, and White wins 3–1.
        ("standard:b:1:wT@H8/0,bT@K12/1", Status::Won(W)),
        // The same in the basic game: a draw.
        ("basic:b:1:wT@H8/0,bT@K12/1", Status::Draw),
        // Level: a draw in the standard game too.
        ("standard:w:1:wT@C3/0,bT@O16/0", Status::Draw),
        // Stacks to level 3 and bridges (perft's P5).
        (
            "standard:w:0:wL@A4/4,wT@A6/4,wT@C11/5,wT@D7/0,bT@D8/1,wM@E8/3,bT@E12/2,\
             bL@G10/2,wR@G12/4,wE@H8/2,wT@I9/4,bE@J16/2,bT@K8/4,bE@K11/0,wE@K14/5,\
             bM@L15/2,bM@M6/5,bT@M12/1,bC@M13/2,wR@M17/4,bE@N9/1,bR@O17/3,wE@Q15/2,\
             wT@D7/4^1,bE@D8/1^1,bT@E12/0^1,wL@J9/3^1,bC@L16/0^1,bL@N15/1^1,\
             wE@O15/1^1,bR@N15/3^2,wM@N14/0^3",
            Status::Ongoing,
        ),
    ];
    for (text, after_pass) in cases {
        let mut pos = from_string(text);
        let before = everything(&pos);
        let copy = pos.clone();
        assert_eq!(pos.status(), Status::Ongoing, "{text}");

        let undo = pos.make(Move::Pass);
        pos.verify_incremental()
            .unwrap_or_else(|e| panic!("{text} after the pass: {e}"));
        assert_eq!(pos.status(), after_pass, "{text}");
        assert_eq!(pos.passes(), copy.passes() + 1, "{text}");
        assert_eq!(pos.side_to_move(), copy.side_to_move().opponent());
        assert_ne!(pos.hash(), copy.hash(), "{text}: the pass is in the hash");
        assert_eq!(pos.pieces(), copy.pieces(), "{text}: a pass moves nothing");
        assert_eq!(
            pos.to_position_string(),
            text.replace(":w:", ":_:")
                .replace(":b:", ":w:")
                .replace(":_:", ":b:")
                .replacen(
                    &format!(":{}:", copy.passes()),
                    &format!(":{}:", copy.passes() + 1),
                    1
                )
                .replace(['\n', ' '], ""),
            "{text}"
        );
        // The position string after the pass reads back as the same
        // position (a fresh incremental state).
        assert_eq!(from_string(&pos.to_position_string()), pos, "{text}");

        pos.unmake(undo);
        pos.verify_incremental()
            .unwrap_or_else(|e| panic!("{text} after taking the pass back: {e}"));
        assert_eq!(pos, copy, "{text}");
        assert_eq!(everything(&pos), before, "{text}");

        // Two passes in a row (where the first leaves the game on), taken
        // back in reverse order.
        if after_pass == Status::Ongoing {
            let first = pos.make(Move::Pass);
            let second = pos.make(Move::Pass);
            assert!(pos.status().is_over(), "{text}: two passes end the game");
            assert!(pos.legal_moves().is_empty());
            pos.verify_incremental().unwrap();
            pos.unmake(second);
            pos.unmake(first);
            pos.verify_incremental().unwrap();
            assert_eq!(everything(&pos), before, "{text}");
        }
    }
}

// ============================================================ end of game

#[test]
fn connecting_column_a_to_column_q_wins() {
    // White along rows 8 → 13: A8 B8 C8 | D9 E9 F9 | G10 H10 I10 |
    // J11 K11 L11 | M12 N12 O12, then C P13/2 = P13 O13 Q13 closes it.
    let pos = from_string("standard:w:0:wE@A8/5,wE@D9/5,wE@G10/5,wE@J11/5,wC@N12/2");
    assert_heights(
        &pos,
        "A8 B8 C8 D9 E9 F9 G10 H10 I10 J11 K11 L11 M12 N12 O12",
        1,
    );
    assert_eq!(pos.status(), Status::Ongoing);
    assert!(!pos.is_connected(W));
    let won = after(&pos, "C@P13/2");
    assert_heights(&won, "P13 O13 Q13", 1);
    assert!(won.is_connected(W));
    assert_eq!(won.status(), Status::Won(W));
    // The connection names the pair of sides and holds exactly the chain.
    assert_eq!(pos.connection(W), None);
    let chain = won.connection(W).expect("connected");
    assert_eq!(chain.sides, (Edge::ColumnA, Edge::ColumnQ));
    let mut cells: Vec<String> = chain.cells.cells().map(|c| c.to_string()).collect();
    cells.sort();
    let mut want: Vec<&str> = "A8 B8 C8 D9 E9 F9 G10 H10 I10 J11 K11 L11 M12 N12 O12 P13 O13 Q13"
        .split(' ')
        .collect();
    want.sort();
    assert_eq!(cells, want);
    assert_eq!(won.connection(B), None);
}

#[test]
fn connecting_row_1_to_row_17_wins() {
    // Black up column H then I: H1 H2 H3 | (gap) | H7 H8 H9 | I10 I11 I12 |
    // C I14/0 = I14 I13 I15 | T I16/4 = I16 J17 J16. The E at D4/3 =
    // D4 D5 D6 moves along row 4 into the gap: H4/3 = H4 H5 H6.
    let pos = from_string("standard:b:0:bE@H1/3,bE@D4/3,bE@H7/3,bE@I10/3,bC@I14/0,bT@I16/4");
    assert_eq!(pos.status(), Status::Ongoing);
    assert_heights(
        &pos,
        "H1 H2 H3 H7 H8 H9 I10 I11 I12 I13 I14 I15 I16 J16 J17",
        1,
    );
    let won = after(&pos, "D4-H4/3");
    assert_heights(&won, "H4 H5 H6", 1);
    assert_eq!(won.status(), Status::Won(B));
}

#[test]
fn connecting_the_diagonal_sides_wins_with_a_chain_across_levels() {
    // White along row 8 from P8 (side J2…P8) to B8, then B9 B10 (side
    // B10…H16): E P8/2 = P8 O8 N8, E M8/2 = M8 L8 K8, E G8/2 = G8 F8 E8,
    // C C8/2 = C8 B8 D8, T B10/5 = B10 C10 B9. J8 is White's (T J8/0 =
    // J8 J7 I7) but I8 and H8 are Black's (T H8/4 = H8 I9 I8). White's E
    // from J3 (J3 J4 J5) lies flat on J8/2 = J8 I8 H8 at level 1, PÜNCT on
    // White's J8, and joins the level-0 dots on K8 and G8.
    let pos = from_string(
        "standard:w:0:wE@P8/2,wE@M8/2,wT@J8/0,bT@H8/4,wE@G8/2,wC@C8/2,wT@B10/5,wE@J3/3",
    );
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.visible_side(cell("I8")), Some(B));
    let won = after(&pos, "J3-J8/2");
    assert_eq!(
        stack(&won, "I8"),
        [(B, Kind::T, 0, false), (W, Kind::E, 1, false)]
    );
    assert_eq!(
        stack(&won, "J8"),
        [(W, Kind::T, 0, true), (W, Kind::E, 1, true)]
    );
    assert_eq!(stack(&won, "K8"), [(W, Kind::E, 0, false)]);
    assert_eq!(won.status(), Status::Won(W));
}

/// Two parallel A–Q chains. White: A5 B5 C5 | D6 E6 F6 | G7 H7 I7 |
/// J8 K8 L8 | M9 N9 O9, missing P9 Q10. Black: A8 B8 C8 | D9 E9 F9 |
/// G10 H10 I10 | J11 K11 L11 | M12 N12 O12 | P13 O13 Q13, complete but for
/// D9 and E9, which a White T (E10/0 = E10 E9 D9, level 1) covers; that T's
/// PÜNCT rests on White's T E10/3 = E10 E11 F11.
const BOTH_CHAINS: &str = "standard:w:0:\
    wE@A5/5,wE@D6/5,wE@G7/5,wE@J8/5,wC@N9/2,\
    bE@A8/5,bE@D9/5,bE@G10/5,bE@J11/5,bC@N12/2,bC@P13/2,\
    wT@E10/3,wT@E10/0^1";

#[test]
fn the_mover_wins_when_both_sides_are_connected_after_the_move() {
    let pos = from_string(BOTH_CHAINS);
    assert_eq!(
        stack(&pos, "E9"),
        [(B, Kind::E, 0, false), (W, Kind::T, 1, false)]
    );
    assert_eq!(
        stack(&pos, "D9"),
        [(B, Kind::E, 0, true), (W, Kind::T, 1, false)]
    );
    assert_eq!(pos.status(), Status::Ongoing);
    assert!(!pos.is_connected(W) && !pos.is_connected(B));
    // White lifts the covering T (uncovering Black's chain) and puts it on
    // P10/5 = P10 Q10 P9 along row 10, completing its own chain.
    let end = after(&pos, "E10-P10/5");
    assert_heights(&end, "P10 Q10 P9", 1);
    assert_eq!(end.visible_side(cell("E9")), Some(B));
    assert!(end.is_connected(W) && end.is_connected(B));
    assert_eq!(end.status(), Status::Won(W));
}

#[test]
fn the_opponent_wins_when_only_the_opponent_is_connected_after_the_move() {
    let pos = from_string(BOTH_CHAINS);
    // The covering T goes elsewhere: E5/0 = E5 E4 D4 along column E.
    let end = after(&pos, "E10-E5/0");
    assert_heights(&end, "E5 E4 D4", 1);
    assert!(!end.is_connected(W));
    assert!(end.is_connected(B));
    assert_eq!(end.status(), Status::Won(B));
}

#[test]
fn covering_an_opponents_dot_cuts_the_connection() {
    // Black's upper chain of BOTH_CHAINS without its last C (P13 O13 Q13);
    // White has T E10/3 = E10 E11 F11 and a T at E3/0 = E3 E2 D2.
    let pos =
        from_string("standard:w:0:bE@A8/5,bE@D9/5,bE@G10/5,bE@J11/5,bC@N12/2,wT@E10/3,wT@E3/0");
    // Without a cover, Black's C P13/2 would win.
    let uncovered = after(&play_on(pos.clone(), "_"), "C@P13/2");
    assert_eq!(uncovered.status(), Status::Won(B));
    // White first lays the T flat on E10/0 = E10 E9 D9 (level 1).
    let covered = after(&pos, "E3-E10/0");
    assert_eq!(
        stack(&covered, "E9"),
        [(B, Kind::E, 0, false), (W, Kind::T, 1, false)]
    );
    let end = after(&covered, "C@P13/2");
    assert_heights(&end, "P13 O13 Q13", 1);
    assert!(!end.is_connected(B));
    assert_eq!(end.status(), Status::Ongoing);
}

#[test]
fn touching_two_sides_of_different_pairs_is_not_a_connection() {
    // E B1/3 = B1 B2 B3 touches row 1; T A3/3 = A3 A4 B4 touches column A;
    // B3 and A3 are neighbours.
    let pos = standard("E@B1/3 _ T@A3/3");
    assert_heights(&pos, "B1 B2 B3 A3 A4 B4", 1);
    assert!(!pos.is_connected(W));
    assert_eq!(pos.status(), Status::Ongoing);
}

/// White's 18 additions (none central), in order: T C3/0 = C3 C2 B2, …
const WHITE_ADDITIONS: [&str; 18] = [
    "T@C3/0", "T@A2/3", "T@A4/3", "T@A6/3", "T@A8/4", "T@B4/4", "C@C1/2", "C@C6/2", "E@B10/4",
    "E@C10/4", "E@C7/3", "E@D2/3", "L@D5/4", "L@D7/3", "M@D10/3", "M@E1/2", "R@E3/0", "R@E7/0",
];

/// White adds its first 17 pieces, optionally moves the T from C3 into the
/// centre (H8/0 = H8 H7 G7), then adds its last piece. Black answers with
/// fillers, except that its second move can be its O16 triangle going into
/// the centre along col − row = −2 (I10/0 = I10 I9 H9).
fn last_piece_game(variant: Variant, white_centre: bool, black_centre: bool) -> Position {
    let mut seq = Vec::new();
    for (i, add) in WHITE_ADDITIONS[..17].iter().enumerate() {
        seq.push(add.to_string());
        seq.push(if i == 1 && black_centre {
            "O16-I10/0".to_string()
        } else {
            "_".to_string()
        });
    }
    if white_centre {
        seq.push("C3-H8/0".into());
        seq.push("_".into());
    }
    let pos = play_on(Position::new(variant), &seq.join(" "));
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.reserve_total(W), 1);
    assert_eq!(pos.central_count(W), if white_centre { 3 } else { 0 });
    assert_eq!(pos.central_count(B), if black_centre { 3 } else { 0 });
    after(&pos, WHITE_ADDITIONS[17])
}

#[test]
fn the_last_reserve_piece_ends_the_standard_game_and_more_central_dots_win() {
    let end = last_piece_game(Variant::Standard, true, false);
    assert_eq!(end.reserve_total(W), 0);
    assert!(end.reserve_total(B) > 0);
    assert_eq!((end.central_count(W), end.central_count(B)), (3, 0));
    assert_eq!(end.status(), Status::Won(W));
}

#[test]
fn the_last_reserve_piece_ends_the_standard_game_in_a_draw_on_equal_central_dots() {
    let end = last_piece_game(Variant::Standard, true, true);
    assert_eq!((end.central_count(W), end.central_count(B)), (3, 3));
    assert_eq!(end.status(), Status::Draw);
}

#[test]
fn the_last_reserve_piece_can_lose_the_standard_game_on_central_dots() {
    let end = last_piece_game(Variant::Standard, false, true);
    assert_eq!((end.central_count(W), end.central_count(B)), (0, 3));
    assert_eq!(end.status(), Status::Won(B));
}

#[test]
fn the_last_reserve_piece_ends_the_basic_game_in_a_draw() {
    let end = last_piece_game(Variant::Basic, true, false);
    assert_eq!((end.central_count(W), end.central_count(B)), (3, 0));
    assert_eq!(end.status(), Status::Draw);
}

#[test]
fn a_connection_made_with_the_last_reserve_piece_beats_the_central_count() {
    // The A–Q chain of `connecting_column_a_to_column_q_wins`, with White's
    // other 12 pieces in towers (T C3/0 ×6, L F3/0 = F3 F2 E1 ×2, M C6/0 =
    // C6 B5 C7 ×2, R E5/1 = E5 F5 G6 ×2): only a C is left in reserve. Black
    // shows 6 central dots (E I7/3 = I7 I8 I9, E J8/3 = J8 J9 J10), White 4
    // (H10 I10 J11 K11).
    let pos = from_string(
        "standard:w:0:wE@A8/5,wE@D9/5,wE@G10/5,wE@J11/5,wC@N12/2,\
         wT@C3/0,wT@C3/0^1,wT@C3/0^2,wT@C3/0^3,wT@C3/0^4,wT@C3/0^5,\
         wL@F3/0,wL@F3/0^1,wM@C6/0,wM@C6/0^1,wR@E5/1,wR@E5/1^1,bE@I7/3,bE@J8/3",
    );
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.reserve_total(W), 1);
    assert_eq!(pos.reserve(W, Kind::C), 1);
    assert_heights(&pos, "C3", 6);
    assert_eq!((pos.central_count(W), pos.central_count(B)), (4, 6));
    // Added elsewhere (C E3/0 = E3 E2 E4) the last piece loses on the count…
    let counted = after(&pos, "C@E3/0");
    assert_eq!(counted.status(), Status::Won(B));
    // … added at P13/2 it connects, and the connection decides.
    let connected = after(&pos, "C@P13/2");
    assert_eq!(connected.status(), Status::Won(W));
}

#[test]
fn two_passes_in_a_row_end_the_game_by_central_count() {
    // Position strings record the passes in a row; after the second one the
    // game is decided as when a reserve runs out. White shows 3 central dots
    // (T H8/0 = H8 H7 G7), Black 1 (T K12/1 = K12 J11 J12).
    let standard_pos = from_string("standard:w:2:wT@H8/0,bT@K12/1");
    assert_eq!(standard_pos.status(), Status::Won(W));
    let one_pass = from_string("standard:w:1:wT@H8/0,bT@K12/1");
    assert_eq!(one_pass.status(), Status::Ongoing);
    let basic_pos = from_string("basic:w:2:wT@H8/0,bT@K12/1");
    assert_eq!(basic_pos.status(), Status::Draw);
    let level = from_string("standard:w:2:wT@C3/0,bT@O16/0");
    assert_eq!(level.status(), Status::Draw);
}

#[test]
fn no_move_is_legal_once_the_game_is_over() {
    let pos = from_string("standard:w:0:wE@A8/5,wE@D9/5,wE@G10/5,wE@J11/5,wC@N12/2");
    let won = after(&pos, "C@P13/2");
    let over = Status::Won(W);
    assert_eq!(won.status(), over);
    assert!(won.legal_moves().is_empty());
    assert_eq!(won.count_legal(), 0);
    // Black's otherwise ordinary addition, a relocation, and a pass.
    assert_illegal(&won, "T@C3/0", IllegalMove::GameOver(over));
    assert_illegal(&won, "pass", IllegalMove::GameOver(over));
    let drawn = last_piece_game(Variant::Basic, true, false);
    assert_illegal(&drawn, "O16-O16/1", IllegalMove::GameOver(Status::Draw));
    assert_illegal(&drawn, "T@F12/0", IllegalMove::GameOver(Status::Draw));
    assert!(drawn.legal_moves().is_empty());
}

#[test]
fn a_replayed_game_stops_at_the_first_illegal_move() {
    let moves = punct_core::parse_moves("T@C3/0 T@O16/0 C2-C6/0").unwrap();
    let err = Game::replay(Position::new(Variant::Standard), &moves).unwrap_err();
    assert_eq!(err.ply, 3);
    assert_eq!(err.reason, IllegalMove::NotAPunct { cell: cell("C2") });
    let ok = Game::replay(Position::new(Variant::Standard), &moves[..2]).unwrap();
    assert_eq!(ok.position(), &standard("T@C3/0 T@O16/0"));
}
