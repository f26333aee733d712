//! Property tests over random games.
//!
//! A proptest strategy draws a `u64` seed (and a variant); the seed drives a
//! `StdRng` that plays a game of up to `MAX_PLIES` plies, choosing uniformly
//! among `legal_moves()` (or, in the stacking games, preferring relocations
//! onto occupied cells so that stacks and bridges appear often). At every ply the invariants of
//! the position are checked: make/unmake, incremental state, the generator
//! against the independent checker, counting, notation and position strings.
//! At the end of each game the record round trip is checked.
//!
//! Case counts are tuned so that the whole file runs in well under a minute
//! in an unoptimised (test profile) build on two cores; set
//! `PROPTEST_CASES` to run more.

use proptest::prelude::*;
use punct_core::{Cell, Game, Kind, Move, Position, Record, Variant};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Longest random game, in plies.
const MAX_PLIES: usize = 150;
/// Generated moves per ply that are made/unmade, re-checked and re-parsed.
const SAMPLED_MOVES: usize = 12;
/// Random (mostly illegal) candidate moves per ply checked against the list.
const CANDIDATES: usize = 40;
/// Every this many plies, every generated move is checked by `is_legal`.
const FULL_CHECK_EVERY: usize = 25;
/// Every this many plies, the position string round trip is checked.
const POSITION_STRING_EVERY: usize = 3;

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Standard), Just(Variant::Basic)]
}

fn random_cell(rng: &mut StdRng, cells: &[Cell]) -> Cell {
    *cells.choose(rng).unwrap()
}

/// A random move that may or may not be legal: an addition of any kind,
/// cell and rotation 0–5; a relocation between random cells, or from a cell
/// of a piece on the board to a cell in line with it; or `pass`.
fn random_candidate(rng: &mut StdRng, pos: &Position, cells: &[Cell]) -> Move {
    let rotation = rng.random_range(0..6u8);
    match rng.random_range(0..10) {
        0..=3 => Move::Add {
            kind: Kind::ALL[rng.random_range(0..6)],
            punct: random_cell(rng, cells),
            rotation,
        },
        4 => Move::Relocate {
            from: random_cell(rng, cells),
            to: random_cell(rng, cells),
            rotation,
        },
        5..=8 => {
            let pieces = pos.pieces();
            let from = match pieces.choose(rng) {
                // Mostly the PÜNCT cell (the piece's name), sometimes another dot.
                Some(p) if rng.random_bool(0.8) => p.placement.punct,
                Some(p) => *p.cells.choose(rng).unwrap(),
                None => random_cell(rng, cells),
            };
            let in_line: Vec<Cell> = cells
                .iter()
                .copied()
                .filter(|c| c.in_line_with(from))
                .collect();
            let to = if rng.random_bool(0.9) {
                *in_line.choose(rng).unwrap()
            } else {
                random_cell(rng, cells)
            };
            Move::Relocate { from, to, rotation }
        }
        _ => Move::Pass,
    }
}

fn assert_consistent(pos: &Position, what: &str) {
    if let Err(e) = pos.verify_incremental() {
        panic!("verify_incremental failed {what}: {e}\nposition: {pos:?}");
    }
    assert_eq!(pos.hash(), pos.recomputed_hash(), "hash {what}: {pos:?}");
}

/// Makes and unmakes `mv`, checking the incremental state on the way.
fn check_make_unmake(pos: &mut Position, mv: Move) {
    let before = pos.clone();
    let undo = pos.make(mv);
    assert_consistent(pos, &format!("after make {mv} from {before:?}"));
    assert_eq!(
        pos.side_to_move(),
        before.side_to_move().opponent(),
        "{mv} must hand the turn over"
    );
    pos.unmake(undo);
    assert_consistent(pos, &format!("after unmake {mv}"));
    assert_eq!(*pos, before, "unmake {mv} must restore the position");
    assert_eq!(
        pos.hash(),
        before.hash(),
        "unmake {mv} must restore the hash"
    );
    assert_eq!(
        pos.to_position_string(),
        before.to_position_string(),
        "unmake {mv}"
    );
}

fn check_move_text(mv: Move) {
    let text = mv.to_string();
    let back: Move = text
        .parse()
        .unwrap_or_else(|e| panic!("`{text}` does not parse back: {e}"));
    assert_eq!(back, mv, "move text `{text}`");
    // Input is case-insensitive.
    assert_eq!(text.to_lowercase().parse::<Move>().unwrap(), mv);
}

fn check_position_string(pos: &Position) {
    let text = pos.to_position_string();
    let back = Position::from_position_string(&text)
        .unwrap_or_else(|e| panic!("`{text}` does not parse back: {e}"));
    assert_eq!(back, *pos, "position string `{text}`");
    assert_eq!(back.hash(), pos.hash(), "hash after parsing `{text}`");
    assert_eq!(back.to_position_string(), text);
    assert_eq!(back.status(), pos.status());
    assert_consistent(&back, &format!("after parsing `{text}`"));
    check_null_move(pos, &text);
}

/// The null move is the position string with the other side to move and
/// no pass counted: same pieces, consistent hash and status.
fn check_null_move(pos: &Position, text: &str) {
    let Some(null) = pos.null_move() else {
        assert!(pos.status().is_over(), "no null move in an unfinished game");
        return;
    };
    let mut fields: Vec<&str> = text.split(':').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields[2] = "0";
    let flipped = Position::from_position_string(&fields.join(":")).unwrap();
    assert_eq!(null, flipped, "null move of `{text}`");
    assert_eq!(null.status(), flipped.status());
    assert_consistent(&null, &format!("null move of `{text}`"));
}

/// Checks every per-ply invariant of `pos`.
fn check_ply(
    pos: &mut Position,
    rng: &mut StdRng,
    cells: &[Cell],
    ply: usize,
    stats: &mut GameStats,
) -> Vec<Move> {
    let legal = pos.legal_moves();
    assert_eq!(
        pos.count_legal(),
        legal.len() as u64,
        "count_legal disagrees with legal_moves at {pos:?}"
    );
    let set: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "duplicate moves at {pos:?}");
    if pos.status().is_over() {
        assert!(legal.is_empty(), "moves after the end at {pos:?}");
    } else {
        assert!(
            !legal.is_empty(),
            "an ongoing game always has a move (pass)"
        );
        assert!(
            !set.contains(&Move::Pass) || legal.len() == 1,
            "pass is listed with other moves at {pos:?}"
        );
    }

    // Generated moves: the checker sees all of them now and then, else a
    // random sample, which is also made, unmade and written out.
    let sample: Vec<Move> = legal.choose_multiple(rng, SAMPLED_MOVES).copied().collect();
    let checked = if ply.is_multiple_of(FULL_CHECK_EVERY) {
        &legal
    } else {
        &sample
    };
    for &mv in checked {
        assert!(
            pos.is_legal(mv),
            "generated {mv} refused by check_move ({:?}) at {pos:?}",
            pos.check_move(mv)
        );
    }
    for &mv in &sample {
        check_make_unmake(pos, mv);
        check_move_text(mv);
    }

    // Candidates that were not generated must be refused, and vice versa.
    for _ in 0..CANDIDATES {
        let c = random_candidate(rng, pos, cells);
        let accepted = pos.is_legal(c);
        match (accepted, c) {
            (true, Move::Relocate { .. }) => stats.legal_relocation_candidates += 1,
            (true, _) => stats.legal_add_candidates += 1,
            (false, _) => stats.illegal_candidates += 1,
        }
        assert_eq!(
            accepted,
            set.contains(&c),
            "is_legal({c}) = {:?} but generated = {} at {pos:?}",
            pos.check_move(c),
            set.contains(&c)
        );
    }

    if ply.is_multiple_of(POSITION_STRING_EVERY) {
        check_position_string(pos);
    }
    legal
}

/// A uniformly random legal move, or with probability `climb_bias` (when
/// there is one) a random relocation whose PÜNCT lands on an occupied cell,
/// which builds stacks and bridges.
fn choose_move(pos: &Position, legal: &[Move], rng: &mut StdRng, climb_bias: f64) -> Move {
    let climbs: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| matches!(*m, Move::Relocate { to, .. } if pos.height(to) > 0))
        .collect();
    if !climbs.is_empty() && rng.random_bool(climb_bias) {
        *climbs.choose(rng).unwrap()
    } else {
        *legal.choose(rng).unwrap()
    }
}

/// What a random game went through.
#[derive(Debug, Default)]
struct GameStats {
    plies: usize,
    max_level: u8,
    bridged_plies: usize,
    legal_add_candidates: usize,
    legal_relocation_candidates: usize,
    illegal_candidates: usize,
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
                    .expect("a piece's dot is in its cell's stack");
                i == 0 || stack[i - 1].level + 1 < p.placement.level
            })
    })
}

/// Plays one random game from the start position, checking every ply.
fn random_game(seed: u64, variant: Variant, climb_bias: f64) -> GameStats {
    let mut rng = StdRng::seed_from_u64(seed);
    let cells: Vec<Cell> = Cell::all().collect();
    let mut pos = Position::new(variant);
    let mut game = Game::new(variant);
    let mut history: Vec<(Position, punct_core::Undo)> = Vec::new();
    let mut stats = GameStats::default();
    assert_consistent(&pos, "at the start");

    for ply in 0..MAX_PLIES {
        let legal = check_ply(&mut pos, &mut rng, &cells, ply, &mut stats);
        if legal.is_empty() {
            break;
        }
        let mv = choose_move(&pos, &legal, &mut rng, climb_bias);
        check_make_unmake(&mut pos, mv);
        check_move_text(mv);
        let before = pos.clone();
        let undo = pos.make(mv);
        assert_consistent(&pos, &format!("after playing {mv}"));
        history.push((before, undo));
        game.play(mv)
            .unwrap_or_else(|e| panic!("Game refused generated {mv}: {e}"));
        assert_eq!(*game.position(), pos, "Game and Position disagree");
        stats.plies += 1;
        stats.max_level = pos
            .pieces()
            .iter()
            .map(|p| p.placement.level)
            .fold(stats.max_level, u8::max);
        stats.bridged_plies += usize::from(has_bridge(&pos));
    }
    check_ply(&mut pos, &mut rng, &cells, 0, &mut stats);
    check_position_string(&pos);
    check_records(&game, &history);

    // Unmaking the whole game restores every earlier position.
    while let Some((before, undo)) = history.pop() {
        pos.unmake(undo);
        assert_eq!(pos, before, "deep unmake at ply {}", history.len());
        assert_eq!(pos.hash(), before.hash());
    }
    assert_consistent(&pos, "after unmaking the whole game");
    assert_eq!(pos, Position::new(variant));
    stats
}

fn record_round_trip(game: &Game) {
    let rec = Record::from_game(game, &[("White", "a"), ("Black", "b")]);
    let text = rec.to_text();
    let parsed = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\nrecord:\n{text}"));
    assert_eq!(parsed, rec, "parsed record differs; text:\n{text}");
    let replayed = parsed
        .replay()
        .unwrap_or_else(|e| panic!("{e}\nrecord:\n{text}"));
    assert_eq!(replayed.position(), game.position(), "record:\n{text}");
    assert_eq!(replayed.start(), game.start(), "record:\n{text}");
    assert_eq!(
        replayed.moves().collect::<Vec<_>>(),
        game.moves().collect::<Vec<_>>()
    );
    assert_eq!(parsed.to_text(), text, "to_text is not stable");
}

/// The record of the whole game, and of its tail played from a mid-game
/// start position (a `Position` tag, possibly with Black to move first).
fn check_records(game: &Game, history: &[(Position, punct_core::Undo)]) {
    record_round_trip(game);
    let n = history.len();
    if n >= 2 {
        // Two consecutive plies: one of them starts with Black to move.
        for k in [n / 2, n / 2 + 1] {
            let k = k.min(n - 1);
            let start = history[k].0.clone();
            let tail: Vec<Move> = game.moves().skip(k).collect();
            let sub = Game::replay(start, &tail).expect("tail of a legal game is legal");
            assert_eq!(sub.position(), game.position());
            record_round_trip(&sub);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(40),
        failure_persistence: None,
        // A smaller seed is a different game, not a simpler one: report the
        // failing seed as drawn.
        max_shrink_iters: 0,
        ..ProptestConfig::default()
    })]

    /// Uniformly random games: every invariant at every ply.
    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>(), variant in variant_strategy()) {
        random_game(seed, variant, 0.0);
    }

    /// Games that prefer climbing relocations, so that stacks, bridges and
    /// covered pieces are common.
    #[test]
    fn stacking_games_keep_every_invariant(seed in any::<u64>(), variant in variant_strategy()) {
        random_game(seed, variant, 0.85);
    }
}

/// Plays a random game with only the cheap duplicate check at every ply.
fn duplicate_free_game(seed: u64, variant: Variant, climb_bias: f64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::new(variant);
    for _ in 0..MAX_PLIES {
        let legal = pos.legal_moves();
        let mut sorted = legal.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), legal.len(), "duplicate moves at {pos:?}");
        // Also no two names for the same change: a C rotation ≥ 3 is never listed.
        assert!(legal.iter().all(|m| match *m {
            Move::Add { kind, rotation, .. } => rotation < kind.rotations(),
            Move::Relocate { rotation, .. } => rotation < 6,
            Move::Pass => true,
        }));
        if legal.is_empty() {
            break;
        }
        let mv = choose_move(&pos, &legal, &mut rng, climb_bias);
        pos.make(mv);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(64),
        failure_persistence: None,
        // A smaller seed is a different game, not a simpler one: report the
        // failing seed as drawn.
        max_shrink_iters: 0,
        ..ProptestConfig::default()
    })]

    #[test]
    fn legal_move_lists_have_no_duplicates(
        seed in any::<u64>(),
        variant in variant_strategy(),
        bias in prop_oneof![Just(0.0), Just(0.85)],
    ) {
        duplicate_free_game(seed, variant, bias);
    }
}

/// Fixed seeds, so that some deterministic games always run whatever
/// proptest draws, and a check that the stacking games really stack.
#[test]
fn fixed_seed_games() {
    let uniform = random_game(0x5EED, Variant::Standard, 0.0);
    eprintln!("{uniform:?}");
    assert!(uniform.plies > 10, "{uniform:?}");
    // The random candidates hit both sides of the comparison.
    assert!(
        uniform.legal_add_candidates > 0
            && uniform.legal_relocation_candidates > 0
            && uniform.illegal_candidates > 0,
        "{uniform:?}"
    );
    let climbing = random_game(3, Variant::Standard, 0.85);
    eprintln!("{climbing:?}");
    assert!(
        climbing.max_level >= 2 && climbing.bridged_plies > 0,
        "{climbing:?}"
    );
    assert!(climbing.legal_relocation_candidates > 0, "{climbing:?}");
    let basic = random_game(0, Variant::Basic, 0.85);
    eprintln!("{basic:?}");
    assert!(basic.max_level >= 2 && basic.bridged_plies > 0, "{basic:?}");
}
