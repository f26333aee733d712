//! Criterion benchmarks of the rules engine: perft, legal-move generation,
//! random playouts and make/unmake.
//!
//! Run with `cargo bench -p punct-core --bench core`; figures and targets are
//! in `docs/PERFORMANCE.md`. Every group sets `Throughput::Elements`, so
//! criterion reports leaves/s, moves/s or games/s directly.
//!
//! The mid-game positions are reached by fixed move sequences taken from
//! `tests/data/public.jsonl` (by 1-based line number, as in `docs/PERFT.md`);
//! the setup checks each sequence and legal-move count against that file, so
//! a benchmark never measures a position other than the intended one.

#[path = "../tests/data/cases.rs"]
mod cases;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use punct_core::{parse_moves, Game, Move, Position, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

/// A mid-game position from the public cases: (line, variant, moves, legal count).
struct Case {
    line: usize,
    variant: Variant,
    moves: &'static str,
    legal: usize,
}

/// Eight mid-game positions, 15 to 74 plies in, flat boards to stacks four
/// high, one from the basic game.
const MIDGAME: [Case; 8] = [
    // 15 plies, flat (the position of examples/quickperf.rs).
    Case {
        line: 5,
        variant: Variant::Standard,
        moves: "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 \
                E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4",
        legal: 2653,
    },
    // 26 plies, stacks two high on 6 cells.
    Case {
        line: 16,
        variant: Variant::Standard,
        moves: "T@N13/3 E@F6/1 R@L6/2 R@L11/1 M@E2/3 L@D3/1 R@E3/3 E@F14/1 E@C5/1 \
                C@O9/2 T@L8/0 C@O7/1 L@H13/2 E@O8/2 M@F11/1 T@I13/5 L@L14/4 L11-L13/2 \
                E@E10/0 O8-O9/0 E@M6/3 E@N10/3 M6-L6/5 O9-L9/2 T@M7/3 F6-B2/3",
        legal: 1999,
    },
    // 33 plies, stacks three high.
    Case {
        line: 38,
        variant: Variant::Standard,
        moves: "E@C8/1 R@B4/2 M@D6/1 T@A4/3 M@L17/5 L@H2/4 E@C9/3 M@M15/2 E@N13/4 \
                C@K14/0 D6-E6/1 M@O9/1 E@N10/2 C@H3/1 L@G10/1 M15-H10/2 L@H13/0 L@O11/3 \
                T@H14/3 R@F13/2 C9-E9/4 T@N17/5 N13-H13/2 H10-J12/5 R@L15/2 O9-I9/4 \
                C8-H13/2 E@Q15/2 T@M9/5 T@F3/2 T@K7/1 H2-B2/2 C@J4/1",
        legal: 1405,
    },
    // 46 plies, stacks three high on 16 cells.
    Case {
        line: 152,
        variant: Variant::Standard,
        moves: "E@N10/2 R@G14/1 E@D10/3 R@D8/4 E@N6/3 L@E9/3 E@E12/5 E@Q13/2 R@Q11/4 \
                L@M15/3 T@G11/5 E@O9/2 E12-D11/5 M@M12/4 R@O8/0 E@E13/4 C@F9/0 C@E7/0 \
                O8-L8/2 G14-G5/5 N10-L10/2 M15-M9/0 M@F3/0 M12-L11/2 Q11-I11/0 E@K8/4 \
                L10-G10/2 T@M15/5 G10-D10/0 T@H12/3 L@K7/0 Q13-I13/0 L@H6/5 G5-M11/5 \
                G11-G8/5 T@P10/4 M@F5/2 E13-E8/5 K7-K9/1 C@H3/1 H6-H9/2 M11-M16/3 \
                T@K5/3 I13-H12/1 I11-E11/2 L11-G11/1",
        legal: 1395,
    },
    // 47 plies, stacks two high on 21 cells (also the perft mid-game position).
    Case {
        line: 18,
        variant: Variant::Standard,
        moves: "T@N13/3 E@F6/1 R@L6/2 R@L11/1 M@E2/3 L@D3/1 R@E3/3 E@F14/1 E@C5/1 \
                C@O9/2 T@L8/0 C@O7/1 L@H13/2 E@O8/2 M@F11/1 T@I13/5 L@L14/4 L11-L13/2 \
                E@E10/0 O8-O9/0 E@M6/3 E@N10/3 M6-L6/5 O9-L9/2 T@M7/3 F6-B2/3 M7-D7/2 \
                L13-O16/2 L6-I6/3 L@O17/1 L6-L8/1 O16-O11/2 T@F8/0 O17-K17/5 C@O16/0 \
                M@G5/1 I6-F3/3 O11-I11/3 D7-D9/2 I11-G9/5 E10-E11/4 L9-G9/1 L14-O14/0 \
                G9-G10/3 C@J14/2 T@E5/3 D9-D2/2",
        legal: 1604,
    },
    // 64 plies, stacks four high.
    Case {
        line: 60,
        variant: Variant::Standard,
        moves: "E@Q15/2 M@L5/5 E@L14/5 R@K13/5 M@G14/4 L@Q10/1 E@I15/5 L@H11/4 M@E11/0 \
                E@N9/1 E@A6/4 E@E9/2 T@C11/5 C@M13/2 T@B9/0 H11-J11/1 B9-I9/4 M@L15/2 \
                A6-J15/5 T@A8/4 T@A6/4 R@N12/3 L14-L15/2 Q10-G10/2 L15-O15/2 T@D8/1 \
                J15-B7/3 E@J16/2 E11-E8/3 C@L8/1 O15-K15/5 T@E12/2 R@G12/4 E@N14/3 \
                R@M17/4 L8-D8/1 B7-G12/0 N14-K11/0 T@D7/0 D8-C7/1 T@A4/4 A8-E12/0 \
                K15-K16/2 K13-O17/3 A4-D7/4 T@K8/4 K16-K14/5 J11-L13/2 L@B5/0 C7-L16/0 \
                B5-F5/5 L13-N15/1 I15-O15/1 N12-N15/3 G12-G7/1 T@K12/2 G7-H8/2 E9-D8/1 \
                F5-J9/3 K12-M12/0 G14-N14/0 L5-M6/5 L@A4/4 M12-M12/1",
        legal: 1128,
    },
    // 74 plies, stacks three high on 28 cells.
    Case {
        line: 200,
        variant: Variant::Standard,
        moves: "M@O12/3 E@C5/2 L@G11/0 T@E9/2 M@N10/4 T@P9/3 E@M5/2 T@O16/4 R@C7/5 \
                T@K16/5 E@M11/4 R@M8/2 T@J14/1 P9-G9/5 G11-G7/5 E@G10/4 T@L13/0 C@M13/0 \
                T@P14/4 M@J3/2 M11-P14/3 E@F14/4 G7-K11/0 M8-L7/5 E@N16/1 R@F10/5 \
                R@H3/0 L@D5/3 E@M17/2 K16-G12/4 T@B3/4 E@G3/2 H3-C3/0 M@F6/0 P14-P10/0 \
                O16-M14/0 T@I16/0 T@O15/4 C7-J7/2 E9-E8/1 N10-C10/1 G12-G4/4 J7-I6/1 \
                M14-M13/1 C10-C8/5 M13-M12/2 J14-I14/0 G3-G10/1 I16-L16/1 C5-G9/1 \
                N16-L14/4 F14-F6/2 O12-E2/3 L@A7/5 C@H2/1 G10-G9/1 I6-I13/3 O15-O13/1 \
                T@O15/3 T@B5/1 H2-H8/1 G4-I6/1 C8-C4/3 F6-F6/5 L14-L5/1 E8-A4/3 \
                P14-H14/2 O13-J13/3 K11-K5/3 J13-M13/0 L16-L14/3 F6-D6/5 O15-O14/0 \
                F10-B6/5",
        legal: 1381,
    },
    // Basic game, 54 plies, stacks three high.
    Case {
        line: 120,
        variant: Variant::Basic,
        moves: "L@E11/0 T@C6/3 R@O9/0 L@H10/1 R@H9/1 T@P8/2 E11-E10/0 M@K16/3 L@I14/0 \
                T@C5/5 C@E6/0 E@D4/5 T@M8/3 L@G4/0 E@E3/1 H10-C5/4 M@H6/5 M@I15/0 \
                T@M10/1 E@H13/1 T@I11/5 R@K12/5 E@L16/5 C@O12/0 L16-I13/0 T@M14/5 \
                M@D11/5 C@O17/2 M8-F8/5 R@P12/0 M10-K10/3 P12-O11/2 E@H7/4 K12-D5/2 \
                E10-E3/4 O11-H4/1 E3-E5/5 T@H3/0 K10-G6/4 H3-L7/0 C@K7/1 K16-J15/3 \
                E@E8/4 J15-M15/4 I13-K15/4 D5-J5/4 E3-L10/5 E@F12/2 H9-H12/4 C5-I5/2 \
                T@J3/2 T@P15/5 I11-F8/1 M15-I11/3",
        legal: 853,
    },
];

/// Index into [`MIDGAME`] of the position used for mid-game perft and
/// make/unmake (line 18: 47 plies, many stacked cells).
const PERFT_MID: usize = 4;

/// Games per playout iteration, from seeds `0..PLAYOUT_GAMES`: every
/// iteration plays the same games, so samples are comparable.
const PLAYOUT_GAMES: u64 = 16;

/// Safety net only (the benchmarked games are checked to end well before).
const MAX_PLIES: usize = 10_000;

/// The committed public cases (the lines [`MIDGAME`] refers to), read once.
fn public_cases() -> &'static [cases::TestCase] {
    static CASES: OnceLock<Vec<cases::TestCase>> = OnceLock::new();
    CASES.get_or_init(|| cases::read_cases(&cases::public_cases_path()))
}

fn position(c: &Case) -> Position {
    let from_file = public_cases()
        .iter()
        .find(|p| p.line == c.line)
        .unwrap_or_else(|| panic!("public.jsonl has no line {}", c.line));
    assert!(
        from_file.variant == c.variant
            && from_file.moves.join(" ")
                == c.moves.split_whitespace().collect::<Vec<_>>().join(" ")
            && from_file.legal_count == c.legal as u64,
        "public.jsonl line {}: the benchmark's copy of the case differs",
        c.line
    );
    let moves = parse_moves(c.moves).expect("case moves parse");
    let game = Game::replay(Position::new(c.variant), &moves).expect("case moves are legal");
    let pos = game.position().clone();
    assert_eq!(
        pos.legal_moves().len(),
        c.legal,
        "public.jsonl line {}: legal-move count differs",
        c.line
    );
    pos
}

fn midgame() -> Vec<Position> {
    MIDGAME.iter().map(position).collect()
}

/// Plays one random game from the standard start: each ply picks uniformly
/// among `legal_moves_into`. Returns the number of plies.
fn playout(rng: &mut StdRng, buf: &mut Vec<Move>) -> usize {
    let mut pos = Position::new(Variant::Standard);
    let mut plies = 0;
    while !pos.status().is_over() && plies < MAX_PLIES {
        pos.legal_moves_into(buf);
        let mv = buf[rng.random_range(0..buf.len())];
        pos.make(mv);
        plies += 1;
    }
    plies
}

fn playouts(buf: &mut Vec<Move>) -> usize {
    (0..PLAYOUT_GAMES)
        .map(|seed| playout(&mut StdRng::seed_from_u64(seed), buf))
        .sum()
}

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.measurement_time(Duration::from_secs(3));
    let mid = position(&MIDGAME[PERFT_MID]);
    let starts = [
        ("standard_start", Position::new(Variant::Standard)),
        ("basic_start", Position::new(Variant::Basic)),
        ("midgame_line18", mid),
    ];
    for (name, start) in starts {
        let mut pos = start.clone();
        let leaves = pos.perft(2);
        eprintln!("perft/{name}: perft(2) = {leaves} leaves");
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("{name}_d2"), |b| {
            b.iter(|| black_box(&mut pos).perft(black_box(2)))
        });
        assert!(pos == start, "perft left the position changed");
    }
    g.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    g.measurement_time(Duration::from_secs(3));
    let positions = midgame();
    let total: usize = MIDGAME.iter().map(|c| c.legal).sum();
    eprintln!(
        "movegen: {} positions, {total} legal moves in all",
        positions.len()
    );
    g.throughput(Throughput::Elements(total as u64));
    let mut buf = Vec::with_capacity(8192);
    g.bench_function("legal_moves_into_8pos", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                black_box(p).legal_moves_into(&mut buf);
                n += buf.len();
            }
            n
        })
    });
    g.bench_function("count_legal_8pos", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal())
                .sum::<u64>()
        })
    });
    g.finish();
}

fn bench_playout(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    // 20-35 ms an iteration: 20 linear samples need 210 iterations.
    g.measurement_time(Duration::from_secs(8));
    g.sample_size(20);
    let mut buf = Vec::with_capacity(8192);
    let lengths: Vec<usize> = (0..PLAYOUT_GAMES)
        .map(|seed| playout(&mut StdRng::seed_from_u64(seed), &mut buf))
        .collect();
    let plies: usize = lengths.iter().sum();
    eprintln!(
        "playout: {PLAYOUT_GAMES} games (seeds 0..{PLAYOUT_GAMES}), {plies} plies, \
         {:.1} plies/game, {}..={} plies",
        plies as f64 / PLAYOUT_GAMES as f64,
        lengths.iter().min().unwrap(),
        lengths.iter().max().unwrap()
    );
    assert!(
        lengths.iter().all(|&n| n < MAX_PLIES),
        "a playout hit MAX_PLIES"
    );
    g.throughput(Throughput::Elements(PLAYOUT_GAMES));
    g.bench_function("random_standard_16games", |b| b.iter(|| playouts(&mut buf)));
    g.finish();
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut g = c.benchmark_group("make_unmake");
    g.measurement_time(Duration::from_secs(3));
    let mut pos = position(&MIDGAME[PERFT_MID]);
    let start = pos.clone();
    let moves = pos.legal_moves();
    g.throughput(Throughput::Elements(moves.len() as u64));
    g.bench_function("all_moves_midgame_line18", |b| {
        b.iter(|| {
            let mut h = 0u64;
            for &mv in &moves {
                let undo = pos.make(black_box(mv));
                h ^= pos.hash();
                pos.unmake(undo);
            }
            h
        })
    });
    assert!(pos == start, "make/unmake left the position changed");
    g.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_movegen,
    bench_playout,
    bench_make_unmake
);
criterion_main!(benches);
