//! Tactical suites: positions where the side to move can win at once, and
//! positions where the opponent threatens to win next move and a defence
//! exists. The files in `tests/suites/` were made by `generate_suites`
//! below (run it with `cargo test -p punct-engine --release --test
//! tactical_suites -- --ignored`) from games between the engines.

use punct_core::{Position, Status};
use punct_engine::tactics::{has_winning_move, is_safe, threatened, winning_moves};
use punct_engine::{new_engine, Limits};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

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

fn best_move(pos: &Position) -> punct_core::Move {
    let mut engine = new_engine("level4", 7).unwrap();
    let stop = AtomicBool::new(false);
    engine
        .search(pos, &Limits::movetime(100), &stop, &mut |_| {})
        .best
}

#[test]
fn the_strongest_level_plays_a_winning_move_in_every_win_in_one_position() {
    let suite = positions("win_in_1.txt");
    assert!(suite.len() >= 20, "{}", suite.len());
    for pos in suite {
        assert!(has_winning_move(&pos), "not a win-in-1 position: {pos:?}");
        let mv = best_move(&pos);
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
    let suite = positions("must_block.txt");
    assert!(suite.len() >= 20, "{}", suite.len());
    for pos in suite {
        assert!(
            threatened(&pos) && !has_winning_move(&pos),
            "not a must-block position: {pos:?}"
        );
        let mv = best_move(&pos);
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
