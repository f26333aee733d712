//! Tactical suites: positions where the side to move can win at once,
//! positions where the opponent threatens to win next move and a defence
//! exists, and positions where the side to move wins in two of its moves
//! whatever the opponent does (and cannot win in one). The files in
//! `tests/suites/` were made from games between the engines by
//! `generate_suites` (win_in_1.txt, must_block.txt: `cargo test -p
//! punct-engine --release --test tactical_suites -- --ignored
//! generate_suites --exact`) and `generate_win_in_two` (win_in_2.txt: see
//! its comment for the command).

use punct_core::{Move, Position, Side, Status, Variant};
use punct_engine::puzzle;
use punct_engine::suite::{parse_suite, Task};
use punct_engine::tactics::{has_winning_move, is_safe, threatened, winning_moves};
use punct_engine::{new_engine, Limits, Player, RandomPlayer};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn suite(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suites")
        .join(name)
}

fn positions(name: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(suite(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_position_string(l).unwrap_or_else(|e| panic!("{name}: {l}: {e}")))
        .collect()
}

/// The selective search's switches (issue 34), on: they must lose none of
/// the suites' wins and blocks.
const SELECTIVE: &[(&str, &str)] = &[
    ("Futility", "80"),
    ("LateReductions", "true"),
    ("NullMove", "2"),
    ("RootShortlist", "40"),
];

fn best_move_with(pos: &Position, options: &[(&str, &str)]) -> punct_core::Move {
    let mut engine = new_engine("level4", 7).unwrap();
    for (name, value) in options {
        engine.set_option(name, value).unwrap();
    }
    let stop = AtomicBool::new(false);
    engine
        .search(pos, &Limits::nodes(4_000), &stop, &mut |_| {})
        .best
}

#[test]
fn the_strongest_level_plays_a_winning_move_in_every_win_in_one_position() {
    wins_every_win_in_one(&[]);
}

#[test]
fn the_selective_search_plays_a_winning_move_in_every_win_in_one_position() {
    wins_every_win_in_one(SELECTIVE);
}

fn wins_every_win_in_one(options: &[(&str, &str)]) {
    let suite = positions("win_in_1.txt");
    assert!(suite.len() >= 20, "{}", suite.len());
    for pos in suite {
        assert!(has_winning_move(&pos), "not a win-in-1 position: {pos:?}");
        let mv = best_move_with(&pos, options);
        let mut after = pos.clone();
        after.play(mv).unwrap();
        assert_eq!(
            after.status(),
            Status::Won(pos.side_to_move()),
            "{pos:?}: played {mv}"
        );
    }
}

#[test]
fn the_strongest_level_leaves_no_immediate_win_in_every_must_block_position() {
    blocks_every_threat(&[]);
}

#[test]
fn the_selective_search_leaves_no_immediate_win_in_every_must_block_position() {
    blocks_every_threat(SELECTIVE);
}

fn blocks_every_threat(options: &[(&str, &str)]) {
    let suite = positions("must_block.txt");
    assert!(suite.len() >= 20, "{}", suite.len());
    for pos in suite {
        assert!(
            threatened(&pos) && !has_winning_move(&pos),
            "not a must-block position: {pos:?}"
        );
        let mv = best_move_with(&pos, options);
        let mut after = pos.clone();
        after.play(mv).unwrap();
        assert!(
            after.status().is_over() || winning_moves(&after).is_empty(),
            "{pos:?}: {mv} leaves the opponent a win"
        );
    }
}

#[test]
#[ignore = "regenerates tests/suites/*.txt"]
fn generate_suites() {
    let (mut wins, mut blocks) = (Vec::new(), Vec::new());
    for seed in 0..400u64 {
        if wins.len() >= 30 && blocks.len() >= 30 {
            break;
        }
        let variant = if seed % 3 == 0 { "basic" } else { "standard" };
        let mut pos = Position::new(variant.parse().unwrap());
        let mut white = new_engine(if seed % 2 == 0 { "greedy" } else { "level2" }, seed).unwrap();
        let mut black =
            new_engine(if seed % 2 == 0 { "level1" } else { "greedy" }, seed + 1).unwrap();
        let stop = AtomicBool::new(false);
        while !pos.status().is_over() {
            let s = pos.to_position_string();
            if has_winning_move(&pos) {
                if wins.len() < 30 && !wins.contains(&s) {
                    wins.push(s);
                }
            } else if blocks.len() < 30 && threatened(&pos) {
                let defended = pos.legal_moves().into_iter().any(|m| is_safe(&pos, m));
                if defended && !blocks.contains(&s) {
                    blocks.push(s);
                }
            }
            let engine = if pos.side_to_move() == punct_core::Side::White {
                &mut white
            } else {
                &mut black
            };
            let mv = engine
                .search(&pos, &Limits::movetime(20), &stop, &mut |_| {})
                .best;
            pos.make(mv);
        }
    }
    let header =
        "# Position strings (docs/NOTATION.md); made by generate_suites in tactical_suites.rs\n";
    std::fs::write(
        suite("win_in_1.txt"),
        format!("{header}{}\n", wins.join("\n")),
    )
    .unwrap();
    std::fs::write(
        suite("must_block.txt"),
        format!("{header}{}\n", blocks.join("\n")),
    )
    .unwrap();
    println!("{} win-in-1, {} must-block", wins.len(), blocks.len());
}

// ------------------------------------------------------------ win in two

fn win_in_two_suite() -> punct_engine::suite::Suite {
    let text = std::fs::read_to_string(suite("win_in_2.txt")).unwrap();
    parse_suite("win_in_2.txt", &text).unwrap_or_else(|e| panic!("win_in_2.txt: {e}"))
}

/// Every position is a win in two that is no win in one, for both sides
/// and both games, and its line lists every first move that wins in two:
/// the exhaustive prover tries every first move against every legal reply
/// (about a second for the whole file in the test profile). Each listed
/// move is also replayed on its own against every reply.
#[test]
fn every_win_in_two_position_is_proven() {
    let suite = win_in_two_suite();
    assert_eq!(suite.task, Task::WinInTwo);
    assert!(suite.entries.len() >= 40, "{}", suite.entries.len());
    let mut seen = std::collections::HashSet::new();
    let (mut basic, mut black) = (0, 0);
    // The order of generation depends on how a position was reached, so
    // lists of moves are compared sorted.
    let sorted = |moves: &[Move]| {
        let mut t: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        t.sort();
        t
    };
    for e in &suite.entries {
        let pos = &e.position;
        assert!(
            seen.insert(pos.to_position_string()),
            "line {}: twice",
            e.line
        );
        Task::WinInTwo
            .check_position(pos, &e.solutions)
            .unwrap_or_else(|why| panic!("win_in_2.txt line {}: {why}", e.line));
        let proven = puzzle::prove(pos, puzzle::PuzzleKind::WinInTwo)
            .unwrap_or_else(|why| panic!("win_in_2.txt line {}: {why}", e.line));
        assert_eq!(
            sorted(&proven),
            sorted(&e.solutions),
            "win_in_2.txt line {}: the solutions",
            e.line
        );
        basic += usize::from(pos.variant() == Variant::Basic);
        black += usize::from(pos.side_to_move() == Side::Black);
    }
    let n = suite.entries.len();
    assert!(basic >= 8 && n - basic >= 8, "{basic} basic of {n}");
    assert!(
        black >= 8 && n - black >= 8,
        "{black} with Black to move of {n}"
    );
}

/// The engines that play the games win_in_2.txt comes from, with the node
/// limit each gets (a node limit, not a time limit: the same seed plays the
/// same game on any machine). The baselines only: the AI's levels change as
/// the AI improves, and the same command must keep making the same file.
const GAME_ENGINES: [(&str, u64); 4] = [
    ("greedy", 1),
    ("boardspace", 1_500),
    ("boardspace", 6_000),
    ("uct", 300),
];

/// How many positions of each game and side win_in_2.txt takes (48 in all).
const WIN_IN_TWO_QUOTA: [((Variant, Side), usize); 4] = [
    ((Variant::Standard, Side::White), 16),
    ((Variant::Standard, Side::Black), 16),
    ((Variant::Basic, Side::White), 8),
    ((Variant::Basic, Side::Black), 8),
];

/// Most first moves a kept win in two may have (a position with many is
/// easy, and the prover gives up on it early).
const WIN_IN_TWO_MAX_SOLUTIONS: usize = 4;

/// A position found in game `seed`.
struct FoundWinInTwo {
    seed: u64,
    ply: usize,
    white: &'static str,
    black: &'static str,
    position: Position,
    solutions: Vec<Move>,
}

/// Plays game `seed` — two engines drawn from [`GAME_ENGINES`] by the
/// seed, after 2–7 random plies, the basic game for odd seeds — and returns
/// for each side its first position that is a win in two (and no win in
/// one) with at most [`WIN_IN_TWO_MAX_SOLUTIONS`] solutions, White's first.
fn win_in_two_from_game(seed: u64) -> Vec<FoundWinInTwo> {
    let pick = |k: u64| GAME_ENGINES[(k % GAME_ENGINES.len() as u64) as usize];
    // Two different mixes of the seed, so every pairing occurs.
    let (white, white_nodes) = pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32);
    let (black, black_nodes) = pick(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) >> 32);
    let variant = if seed % 2 == 1 {
        Variant::Basic
    } else {
        Variant::Standard
    };
    let mut pos = Position::new(variant);
    let mut random = RandomPlayer::new(seed);
    let opening = 2 + (seed % 6) as usize;
    let mut engines = [
        (new_engine(white, seed).unwrap(), white_nodes),
        (new_engine(black, seed ^ 0x5EED).unwrap(), black_nodes),
    ];
    let stop = AtomicBool::new(false);
    let mut found: [Option<FoundWinInTwo>; 2] = [None, None];
    for ply in 0..300 {
        if pos.status().is_over() || found.iter().all(Option::is_some) {
            break;
        }
        let me = pos.side_to_move();
        // Two moves put at most six cells of ours on a chain (a reply may
        // uncover more, but rarely): look for a win in two only near one.
        if ply >= opening
            && found[me.index()].is_none()
            && puzzle::gap(&pos, me, 6).is_some()
            && !puzzle::has_winning_move(&pos)
        {
            if let Some(solutions) = puzzle::win_in_two_at_most(&pos, WIN_IN_TWO_MAX_SOLUTIONS) {
                if !solutions.is_empty() {
                    found[me.index()] = Some(FoundWinInTwo {
                        seed,
                        ply,
                        white,
                        black,
                        position: pos.clone(),
                        solutions,
                    });
                }
            }
        }
        let mv = if ply < opening {
            random.choose(&pos)
        } else {
            let (engine, nodes) = &mut engines[me.index()];
            Some(
                engine
                    .search(&pos, &Limits::nodes(*nodes), &stop, &mut |_| {})
                    .best,
            )
        };
        let Some(mv) = mv else { break };
        pos.make(mv);
    }
    found.into_iter().flatten().collect()
}

/// Regenerates tests/suites/win_in_2.txt: games with seeds SEED, SEED+1, …
/// (environment variable `SUITE_SEED`, default 1; `SUITE_THREADS` games at
/// a time, default 2, which does not change the file), the first win in two
/// of each side in each, taken in seed order while [`WIN_IN_TWO_QUOTA`] has
/// room:
///
/// `nice cargo test -p punct-engine --release --test tactical_suites --
/// --ignored generate_win_in_two --exact --nocapture`
#[test]
#[ignore = "regenerates tests/suites/win_in_2.txt (minutes, release)"]
fn generate_win_in_two() {
    let env = |name: &str, default: u64| {
        std::env::var(name).map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}={v}: not a whole number"))
        })
    };
    let first_seed = env("SUITE_SEED", 1);
    let threads = env("SUITE_THREADS", 2).clamp(1, 64) as usize;
    const MAX_GAMES: usize = 2_000;
    let started = std::time::Instant::now();
    // Games are played in batches, taken in seed order: the file does not
    // depend on the number of threads.
    let mut kept: Vec<FoundWinInTwo> = Vec::new();
    let mut games = 0;
    let full = |kept: &[FoundWinInTwo]| {
        WIN_IN_TWO_QUOTA.iter().all(|&(key, n)| {
            kept.iter()
                .filter(|f| (f.position.variant(), f.position.side_to_move()) == key)
                .count()
                >= n
        })
    };
    while !full(&kept) && games < MAX_GAMES {
        let batch = 4 * threads;
        let next = AtomicUsize::new(0);
        let results = std::sync::Mutex::new((0..batch).map(|_| Vec::new()).collect::<Vec<_>>());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= batch {
                        break;
                    }
                    let found = win_in_two_from_game(first_seed + (games + i) as u64);
                    results.lock().unwrap()[i] = found;
                });
            }
        });
        for f in results.into_inner().unwrap().into_iter().flatten() {
            let key = (f.position.variant(), f.position.side_to_move());
            let quota = WIN_IN_TWO_QUOTA.iter().find(|q| q.0 == key).unwrap().1;
            let have = kept
                .iter()
                .filter(|k| (k.position.variant(), k.position.side_to_move()) == key)
                .count();
            let text = f.position.to_position_string();
            if have < quota && !kept.iter().any(|k| k.position.to_position_string() == text) {
                println!(
                    "seed {} ply {}: {key:?}, {} solutions ({:.0} s)",
                    f.seed,
                    f.ply,
                    f.solutions.len(),
                    started.elapsed().as_secs_f64()
                );
                kept.push(f);
            }
        }
        games += batch;
    }
    assert!(
        full(&kept),
        "only {} positions in {games} games",
        kept.len()
    );
    let engines: Vec<String> = GAME_ENGINES
        .iter()
        .map(|&(e, n)| {
            if n > 1 {
                format!("{e} at {n} nodes")
            } else {
                e.to_string()
            }
        })
        .collect();
    let mut out = format!(
        "# kind: win-in-2\n\
         # The side to move wins in two of its moves whatever the opponent does, and cannot\n\
         # win in one. Each line: the position string (docs/NOTATION.md), then every first\n\
         # move that wins in two, proven by punct_engine::puzzle (every first move, every\n\
         # reply, nothing pruned).\n\
         # Made by generate_win_in_two in crates/punct-engine/tests/tactical_suites.rs:\n\
         #   SUITE_SEED={first_seed} cargo test -p punct-engine --release --test tactical_suites -- --ignored generate_win_in_two --exact\n\
         # from engine games (seeds {first_seed}…{}; the engines, drawn by the seed: {}; the\n\
         # first win in two with at most {WIN_IN_TWO_MAX_SOLUTIONS} solutions of each side in each game, by\n\
         # seed, at most 16 per side in the standard game and 8 per side in the basic game).\n",
        kept.iter().map(|f| f.seed).max().unwrap_or(first_seed),
        engines.join(", "),
    );
    for f in &kept {
        let moves: Vec<String> = f.solutions.iter().map(|m| m.to_string()).collect();
        out.push_str(&format!(
            "# seed {}, ply {}: {} (white) against {} (black), {}\n{} {}\n",
            f.seed,
            f.ply,
            f.white,
            f.black,
            f.position.variant(),
            f.position.to_position_string(),
            moves.join(" ")
        ));
    }
    std::fs::write(suite("win_in_2.txt"), out).unwrap();
    println!(
        "{} positions from {games} games in {:.0} s",
        kept.len(),
        started.elapsed().as_secs_f64()
    );
}
