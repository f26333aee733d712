//! Perft regression values: the number of move sequences of a given length
//! from fixed positions. See `docs/PERFT.md` for the table, how the values
//! were computed and how they were cross-checked.
//!
//! `cargo test -p punct-core --test perft` runs depths 1 and 2, and depth
//! 3 of the mid-game positions (the rules crate is built fully optimised
//! in tests: under 30 s on two cores).

#[path = "data/cases.rs"]
mod cases;

use punct_core::{parse_moves, Game, Kind, Move, Position, Variant};

/// One perft position.
struct Case {
    name: &'static str,
    variant: Variant,
    /// Canonical moves from the start position.
    moves: &'static str,
    /// The position string those moves reach.
    position: &'static str,
    /// The 1-based line of `tests/data/public.jsonl` with the same moves,
    /// and its `legal_count` (from an independent implementation).
    public: Option<(usize, u64)>,
    /// `perft(1)`, `perft(2)`, … .
    perft: &'static [u64],
    /// `perft(3)`, where the tests check it (the mid-game positions).
    perft3: Option<u64>,
}

const CASES: &[Case] = &[
    Case {
        name: "start, standard",
        variant: Variant::Standard,
        moves: "",
        position: "standard:w:0:-",
        public: None,
        perft: &[4986, 23_841_810],
        perft3: None,
    },
    Case {
        name: "start, basic",
        variant: Variant::Basic,
        moves: "",
        position: "basic:w:0:-",
        public: None,
        perft: &[4986, 28_499_958],
        perft3: None,
    },
    Case {
        name: "early, standard (6 plies)",
        variant: Variant::Standard,
        moves: "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0",
        position: "standard:w:0:wC@B7/2,bL@E4/2,bR@F2/0,bM@F7/0,wR@L13/1,wC@P15/2",
        public: Some((2, 3812)),
        perft: &[3812, 15_675_933],
        perft3: None,
    },
    Case {
        name: "basic, 26 plies, pieces at level 1 and a bridge",
        variant: Variant::Basic,
        moves: "L@K13/3 M@N7/1 E@F8/0 E@G15/0 M@H12/2 R@G4/3 T@F12/2 E@J16/2 E@J5/1 \
                L@C11/0 R@H10/4 L@K9/5 R@J12/1 E@D2/4 L@N16/0 C@N13/2 T@H1/3 E@K4/3 \
                M@M11/0 C@C2/0 T@P14/5 R@P16/5 T@I9/4 M@H6/1 J12-I12/3 C2-N13/2",
        position: "basic:w:0:bL@C11/0,bE@D2/4,wE@F8/0,wT@F12/2,bR@G4/3,bE@G15/0,wT@H1/3,\
                   bM@H6/1,wR@H10/4,wM@H12/2,wT@I9/4,wE@J5/1,bE@J16/2,bE@K4/3,bL@K9/5,\
                   wL@K13/3,wM@M11/0,bM@N7/1,bC@N13/2,wL@N16/0,wT@P14/5,bR@P16/5,\
                   wR@I12/3^1,bC@N13/2^1",
        public: Some((45, 1733)),
        perft: &[1733, 2_004_687],
        perft3: None,
    },
    Case {
        name: "standard, 64 plies, stacks to level 3 and bridges",
        variant: Variant::Standard,
        moves: "E@Q15/2 M@L5/5 E@L14/5 R@K13/5 M@G14/4 L@Q10/1 E@I15/5 L@H11/4 M@E11/0 \
                E@N9/1 E@A6/4 E@E9/2 T@C11/5 C@M13/2 T@B9/0 H11-J11/1 B9-I9/4 M@L15/2 \
                A6-J15/5 T@A8/4 T@A6/4 R@N12/3 L14-L15/2 Q10-G10/2 L15-O15/2 T@D8/1 \
                J15-B7/3 E@J16/2 E11-E8/3 C@L8/1 O15-K15/5 T@E12/2 R@G12/4 E@N14/3 \
                R@M17/4 L8-D8/1 B7-G12/0 N14-K11/0 T@D7/0 D8-C7/1 T@A4/4 A8-E12/0 \
                K15-K16/2 K13-O17/3 A4-D7/4 T@K8/4 K16-K14/5 J11-L13/2 L@B5/0 C7-L16/0 \
                B5-F5/5 L13-N15/1 I15-O15/1 N12-N15/3 G12-G7/1 T@K12/2 G7-H8/2 E9-D8/1 \
                F5-J9/3 K12-M12/0 G14-N14/0 L5-M6/5 L@A4/4 M12-M12/1",
        position: "standard:w:0:wL@A4/4,wT@A6/4,wT@C11/5,wT@D7/0,bT@D8/1,wM@E8/3,bT@E12/2,\
                   bL@G10/2,wR@G12/4,wE@H8/2,wT@I9/4,bE@J16/2,bT@K8/4,bE@K11/0,wE@K14/5,\
                   bM@L15/2,bM@M6/5,bT@M12/1,bC@M13/2,wR@M17/4,bE@N9/1,bR@O17/3,wE@Q15/2,\
                   wT@D7/4^1,bE@D8/1^1,bT@E12/0^1,wL@J9/3^1,bC@L16/0^1,bL@N15/1^1,\
                   wE@O15/1^1,bR@N15/3^2,wM@N14/0^3",
        public: Some((60, 1128)),
        perft: &[1128, 1_344_824],
        perft3: Some(833_349_357),
    },
    Case {
        name: "basic, 71 plies, one piece left in each reserve",
        variant: Variant::Basic,
        moves: "L@E11/0 T@C6/3 R@O9/0 L@H10/1 R@H9/1 T@P8/2 E11-E10/0 M@K16/3 L@I14/0 \
                T@C5/5 C@E6/0 E@D4/5 T@M8/3 L@G4/0 E@E3/1 H10-C5/4 M@H6/5 M@I15/0 \
                T@M10/1 E@H13/1 T@I11/5 R@K12/5 E@L16/5 C@O12/0 L16-I13/0 T@M14/5 \
                M@D11/5 C@O17/2 M8-F8/5 R@P12/0 M10-K10/3 P12-O11/2 E@H7/4 K12-D5/2 \
                E10-E3/4 O11-H4/1 E3-E5/5 T@H3/0 K10-G6/4 H3-L7/0 C@K7/1 K16-J15/3 \
                E@E8/4 J15-M15/4 I13-K15/4 D5-J5/4 E3-L10/5 E@F12/2 H9-H12/4 C5-I5/2 \
                T@J3/2 T@P15/5 I11-F8/1 M15-I11/3 J3-M6/4 I11-J12/0 F8-N16/0 M14-D5/1 \
                M6-J3/2 I5-O11/5 H12-H12/2 I15-H15/5 G6-G1/2 G4-G15/5 T@K12/4 \
                F12-F11/0 H12-M17/2 D5-D4/2 F8-F13/4 F11-L11/5 D11-C10/4",
        position: "basic:b:0:bT@C5/5,bT@C6/3,wM@C10/4,bE@D4/5,wC@E6/0,wE@E8/4,wT@F13/4,\
                   wT@G1/2,bR@H4/1,wM@H6/5,wE@H7/4,bE@H13/1,bM@H15/5,wL@I14/0,wT@J3/2,\
                   bM@J12/0,wC@K7/1,wT@K12/4,wE@K15/4,bT@L7/0,wE@L10/5,bE@L11/5,wT@N16/0,\
                   wR@O9/0,bC@O12/0,bC@O17/2,bT@P8/2,bT@P15/5,bT@D4/2^1,wL@E5/5^1,\
                   bL@G15/5^1,bR@J5/4^1,wR@M17/2^1,bL@O11/5^1",
        public: Some((122, 879)),
        perft: &[879, 743_283],
        perft3: Some(501_032_895),
    },
    Case {
        name: "standard, 65 plies, level-2 stacks",
        variant: Variant::Standard,
        moves: "M@O12/3 E@C5/2 L@G11/0 T@E9/2 M@N10/4 T@P9/3 E@M5/2 T@O16/4 R@C7/5 \
                T@K16/5 E@M11/4 R@M8/2 T@J14/1 P9-G9/5 G11-G7/5 E@G10/4 T@L13/0 C@M13/0 \
                T@P14/4 M@J3/2 M11-P14/3 E@F14/4 G7-K11/0 M8-L7/5 E@N16/1 R@F10/5 \
                R@H3/0 L@D5/3 E@M17/2 K16-G12/4 T@B3/4 E@G3/2 H3-C3/0 M@F6/0 P14-P10/0 \
                O16-M14/0 T@I16/0 T@O15/4 C7-J7/2 E9-E8/1 N10-C10/1 G12-G4/4 J7-I6/1 \
                M14-M13/1 C10-C8/5 M13-M12/2 J14-I14/0 G3-G10/1 I16-L16/1 C5-G9/1 \
                N16-L14/4 F14-F6/2 O12-E2/3 L@A7/5 C@H2/1 G10-G9/1 I6-I13/3 O15-O13/1 \
                T@O15/3 T@B5/1 H2-H8/1 G4-I6/1 C8-C4/3 F6-F6/5 L14-L5/1",
        position: "standard:b:0:bL@A7/5,wT@B3/4,bT@B5/1,bL@D5/3,wM@E2/3,bT@E8/1,bM@F6/0,\
                   bR@F10/5,bT@G9/5,bE@G10/4,wC@H8/1,bT@I6/1,wT@I14/0,bM@J3/2,wL@K11/0,\
                   bR@L7/5,wT@L13/0,wT@L16/1,wE@M5/2,bC@M13/0,wE@M17/2,bT@O13/1,wT@O15/3,\
                   wE@P10/0,wT@P14/4,wR@C3/0^1,bE@F6/5^1,bE@G9/1^1,wR@I13/3^1,wE@L5/1^1,\
                   bT@M12/2^1,wM@C4/3^2,bE@G9/1^2",
        public: Some((198, 827)),
        perft: &[827, 758_558],
        perft3: Some(621_061_509),
    },
    Case {
        name: "basic, 67 plies, Black to move, White has one piece left",
        variant: Variant::Basic,
        moves: "T@P10/1 L@I7/2 E@C8/1 R@C6/0 L@F6/5 M@I12/4 T@G11/2 E@I10/1 E@O8/4 \
                M@K15/4 R@Q16/3 R@L11/5 M@K7/1 L11-H7/3 Q16-N13/0 C6-I12/0 E@I14/3 \
                E@M10/3 N13-N16/5 H7-I7/5 C8-I14/3 I10-F10/5 T@G14/5 L@I5/2 R@J11/0 \
                T@E10/1 T@C10/1 T@G3/3 J11-J6/1 E@G9/0 T@K16/1 I7-I3/4 L@C5/5 T@N6/2 \
                C@K4/1 C@Q14/0 E@K10/2 E@F14/1 C10-C9/0 F14-M14/1 C5-G5/5 I12-D7/1 \
                T@D2/5 G9-D9/0 G14-G7/2 I7-O13/2 K16-C8/2 M10-F3/2 J6-J7/4 F10-F3/2 \
                K10-O10/0 O13-N13/0 J7-J15/0 I3-I5/0 M@I10/5 N6-N7/1 I10-I10/2 \
                K15-L15/5 I14-I10/4 I12-E12/5 O10-O8/1 C@K10/1 G11-G10/2 D9-D12/0 \
                O8-O15/0 I5-I3/0 O15-O9/1",
        position: "basic:b:0:wT@C9/0,wT@D2/5,bR@D7/1,bT@E10/1,bM@E12/5,bE@F3/2,wL@F6/5,\
                   bT@G3/3,wT@G7/2,wT@G10/2,bR@I3/0,bL@I5/2,wM@I10/2,wE@I14/3,wR@J15/0,\
                   wC@K4/1,wM@K7/1,bC@K10/1,bM@L15/5,bE@M14/1,bT@N7/1,bL@N13/0,wR@N16/5,\
                   wE@O8/4,wT@P10/1,bC@Q14/0,wT@C8/2^1,bE@D12/0^1,bE@F3/2^1,wL@G5/5^1,\
                   wE@I10/4^1,wE@O9/1^1",
        public: Some((209, 767)),
        perft: &[767, 742_807],
        perft3: Some(512_110_231),
    },
    Case {
        name:
            "standard, 55 plies, finished: White added its last piece and wins on the central count",
        variant: Variant::Standard,
        moves: "R@D5/2 R@A6/2 E@E6/3 L@G5/4 E@M13/5 T@D10/1 L@D3/5 E@E11/4 E@I16/1 \
                M@J5/5 R@F11/3 E@L9/3 M@N10/0 M@C8/3 C@N12/2 A6-C8/1 T@N9/0 E@G3/1 \
                T@J14/3 G3-K7/0 M13-E5/4 R@H12/1 M@P14/0 E@L12/2 E@D2/2 L12-H12/4 \
                T@J3/1 K7-K14/5 N9-O10/3 L9-L10/2 D2-D1/5 E11-C11/4 L@G13/1 G5-L10/4 \
                P14-H14/3 L@P13/5 T@N7/4 L10-D10/2 N10-N15/5 T@J16/3 D3-D4/3 K14-K10/4 \
                T@G5/2 K10-D10/0 J3-L5/3 L10-C10/0 H14-F12/1 J16-C9/4 T@H2/3 C9-D9/1 \
                G5-F4/3 J5-K5/5 L5-F5/2 T@K17/1 C@I6/1",
        position: "standard:b:0:bM@C8/3,bE@C11/4,wE@D1/5,wR@D5/2,bT@D10/1,wE@E5/4,wE@E6/3,\
                   wT@F4/3,wR@F11/3,wL@G13/1,wT@H2/3,bR@H12/1,wC@I6/1,wE@I16/1,wT@J14/3,\
                   bM@K5/5,bT@K17/1,wT@N7/4,wC@N12/2,wM@N15/5,wT@O10/3,bL@P13/5,\
                   bR@C8/1^1,wL@D4/3^1,bL@D10/2^1,wT@F5/2^1,wM@F12/1^1,bE@H12/4^1,\
                   bE@C10/0^2,bE@D10/0^2,bT@D9/1^3",
        public: Some((113, 0)),
        perft: &[0, 0, 0],
        perft3: None,
    },
];

/// The string constants are wrapped with `\` line continuations, which keep
/// a space between moves but none inside a position string; this removes
/// any whitespace left over.
fn compact(s: &str) -> String {
    s.split_whitespace().collect()
}

fn reach(case: &Case) -> Position {
    let moves =
        parse_moves(case.moves).unwrap_or_else(|(i, e)| panic!("{}: move {i}: {e}", case.name));
    Game::replay(Position::new(case.variant), &moves)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
        .position()
        .clone()
}

#[test]
fn positions_are_reached_by_their_moves_and_strings() {
    for case in CASES {
        let pos = reach(case);
        let text = compact(case.position);
        assert_eq!(pos.to_position_string(), text, "{}", case.name);
        let parsed = Position::from_position_string(&text).unwrap();
        assert_eq!(parsed, pos, "{}", case.name);
        assert_eq!(parsed.hash(), pos.hash(), "{}", case.name);
        assert_eq!(pos.variant(), case.variant);
        pos.verify_incremental().unwrap();
    }
}

/// Whether some piece lies above a cell whose stack does not reach it.
fn has_bridge(pos: &Position) -> bool {
    pos.pieces().iter().any(|p| {
        p.placement.level > 0
            && p.cells.iter().any(|&c| {
                let stack = pos.stack(c);
                let i = stack
                    .iter()
                    .position(|d| d.level == p.placement.level)
                    .unwrap();
                i == 0 || stack[i - 1].level + 1 < p.placement.level
            })
    })
}

/// The positions are what their names say (stacks, bridges, reserves).
#[test]
fn positions_have_what_their_names_say() {
    use punct_core::Side;
    for case in CASES {
        let pos = reach(case);
        let max_level = pos.pieces().iter().map(|p| p.placement.level).max();
        if case.name.contains("level 3") {
            assert_eq!(max_level, Some(3), "{}", case.name);
        }
        if case.name.contains("level-2") {
            assert_eq!(max_level, Some(2), "{}", case.name);
        }
        if case.name.contains("bridge") {
            assert!(has_bridge(&pos), "{}", case.name);
        }
        if case.name.contains("one piece left in each") {
            assert_eq!(pos.reserve_total(Side::White), 1);
            assert_eq!(pos.reserve_total(Side::Black), 1);
        }
        if case.name.contains("White has one piece left") {
            assert_eq!(pos.reserve_total(Side::White), 1);
            assert_eq!(pos.side_to_move(), Side::Black);
        }
        if case.name.contains("finished") {
            assert_eq!(pos.status().word(), "white");
            assert_eq!(pos.reserve_total(Side::White), 0);
            assert!(!pos.is_connected(Side::White) && !pos.is_connected(Side::Black));
            assert!(pos.central_count(Side::White) > pos.central_count(Side::Black));
        }
    }
}

#[test]
fn perft_regression_values() {
    for case in CASES {
        let mut pos = reach(case);
        assert_eq!(pos.perft(0), 1, "{}", case.name);
        for (d, &want) in case.perft.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(pos.perft(depth), want, "{} perft({depth})", case.name);
        }
        // perft leaves the position as it found it.
        assert_eq!(pos, reach(case), "{}", case.name);
        pos.verify_incremental().unwrap();
        // A position parsed from its string (fresh incremental state) agrees.
        let mut fresh = Position::from_position_string(&compact(case.position)).unwrap();
        assert_eq!(fresh.perft(2), case.perft[1], "{} (parsed)", case.name);
    }
}

/// Depth 1 against the independent implementation's `legal_count`.
#[test]
fn depth_one_matches_the_public_cases() {
    for case in CASES {
        if let Some((_, count)) = case.public {
            assert_eq!(case.perft[0], count, "{}", case.name);
            assert_eq!(reach(case).count_legal(), count, "{}", case.name);
        }
    }
    // The table's moves and counts are copied from the committed public
    // cases (whose line numbers they give, so `PUNCT_CASES` does not apply
    // here): re-read the file, so that a copying mistake cannot hide.
    let public = cases::read_cases(&cases::public_cases_path());
    for case in CASES {
        let Some((line, count)) = case.public else {
            continue;
        };
        let from_file = public
            .iter()
            .find(|c| c.line == line)
            .unwrap_or_else(|| panic!("{}: no line {line} in the public cases", case.name));
        assert_eq!(
            from_file.moves.join(" "),
            case.moves.split_whitespace().collect::<Vec<_>>().join(" "),
            "{}",
            case.name
        );
        assert_eq!(from_file.variant, case.variant, "{}", case.name);
        assert_eq!(from_file.legal_count, count, "{}", case.name);
    }
}

#[test]
fn perft_divide_sums_to_perft() {
    for case in CASES {
        let mut pos = reach(case);
        assert!(pos.perft_divide(0).is_empty());
        let one = pos.perft_divide(1);
        assert!(one.iter().all(|&(_, n)| n == 1), "{}", case.name);
        assert_eq!(one.len() as u64, case.perft[0], "{}", case.name);
        let moves: Vec<Move> = one.iter().map(|&(m, _)| m).collect();
        assert_eq!(
            moves,
            pos.legal_moves(),
            "{}: divide is in generation order",
            case.name
        );
        let two = pos.perft_divide(2);
        assert_eq!(two.len(), one.len(), "{}", case.name);
        assert_eq!(
            two.iter().map(|&(_, n)| n).sum::<u64>(),
            case.perft[1],
            "{}",
            case.name
        );
        assert_eq!(pos, reach(case), "{}", case.name);
    }
}

/// perft(2) recounted two other ways: making each move and counting, and
/// (for the mid-game positions, where it is cheap enough unoptimised)
/// playing each move with the checker on a copy and listing its moves.
#[test]
fn perft_two_is_the_sum_of_counts_after_each_move() {
    for case in CASES {
        let mut pos = reach(case);
        let list_too = case.perft[1] < 5_000_000;
        let (mut by_count, mut by_list) = (0u64, 0u64);
        for mv in pos.legal_moves() {
            let undo = pos.make(mv);
            by_count += pos.count_legal();
            pos.unmake(undo);
            if list_too {
                let mut copy = pos.clone();
                copy.play(mv).unwrap();
                by_list += copy.legal_moves().len() as u64;
            }
        }
        assert_eq!(by_count, case.perft[1], "{}", case.name);
        if list_too {
            assert_eq!(by_list, case.perft[1], "{}", case.name);
        }
    }
}

/// Depth 1 counted by the independent checker: every addition (kind, cell,
/// rotation 0–5) and every relocation from a cell showing the mover's colour
/// to a cell in line with it (rotation 0–5), kept when `is_legal` says so.
#[test]
fn depth_one_matches_the_checker() {
    let cells: Vec<_> = punct_core::Cell::all().collect();
    for case in CASES {
        let pos = reach(case);
        let side = pos.side_to_move();
        let mut n = 0u64;
        for kind in Kind::ALL {
            for &punct in &cells {
                for rotation in 0..6 {
                    n += u64::from(pos.is_legal(Move::Add {
                        kind,
                        punct,
                        rotation,
                    }));
                }
            }
        }
        for &from in &cells {
            if pos.visible_side(from) != Some(side) {
                continue;
            }
            for &to in cells.iter().filter(|c| c.in_line_with(from)) {
                for rotation in 0..6 {
                    n += u64::from(pos.is_legal(Move::Relocate { from, to, rotation }));
                }
            }
        }
        if n == 0 && pos.is_legal(Move::Pass) {
            n = 1;
        }
        assert_eq!(n, case.perft[0], "{}", case.name);
    }
}

#[test]
fn a_finished_game_has_no_moves_at_any_depth() {
    let case = CASES.iter().find(|c| c.perft[0] == 0).unwrap();
    let mut pos = reach(case);
    assert!(pos.status().is_over());
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.perft(0), 1);
    for d in 1..=3 {
        assert_eq!(pos.perft(d), 0);
    }
    assert!(pos.perft_divide(2).is_empty());
}

/// Depth 3 of the mid-game positions: about 0.5–0.8 billion leaves each,
/// one thread each. The rules crate is built fully optimised in tests
/// (`[profile.test.package.punct-core]` in the workspace's Cargo.toml):
/// about 53 s of CPU in all, under 30 s on two cores.
#[test]
fn perft_three_mid_game() {
    let counted: Vec<(&str, u64, u64)> = std::thread::scope(|scope| {
        let runs: Vec<_> = CASES
            .iter()
            .filter_map(|case| {
                let want = case.perft3?;
                Some(scope.spawn(move || {
                    let start = std::time::Instant::now();
                    let got = reach(case).perft(3);
                    eprintln!("{}: perft(3) in {:?}", case.name, start.elapsed());
                    (case.name, got, want)
                }))
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });
    assert_eq!(counted.len(), 4, "P5–P8");
    for (name, got, want) in counted {
        assert_eq!(got, want, "{name} perft(3)");
    }
}
