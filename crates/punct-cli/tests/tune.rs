//! `punct tune`, driven as a subprocess: a tiny self-play run end to end,
//! its reproducibility, and its argument errors.

mod common;
use common::{punct, text};
use punct_engine::Weights;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-tune-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The game lines of a games file (comments dropped).
fn game_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_tiny_run_writes_weights_that_parse_and_reruns_agree() {
    let dir = scratch("tiny");
    let (weights, games) = (dir.join("w.txt"), dir.join("g.txt"));
    let args = [
        "tune",
        "--games",
        "6",
        "--nodes",
        "20",
        "--seed",
        "5",
        "--threads",
        "2",
        "--random-plies",
        "2",
        "--adjudicate",
        "40",
        "--save-data",
        s(&games),
        "--out",
        s(&weights),
    ];
    let out = punct(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("standard: 5 games"),
        "{}",
        text(&out.stdout)
    );
    let first = std::fs::read_to_string(&weights).unwrap();
    let parsed = Weights::parse(&first).expect("the written weights parse");
    assert!(first.contains("# Command: punct tune --games 6 --nodes 20 --seed 5"));
    assert!(first.contains("standard: 5 games"), "{first}");
    assert_eq!(game_lines(&games).len(), 6);

    // The same command gives the same file, byte for byte.
    let again = punct(&args);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(std::fs::read_to_string(&weights).unwrap(), first);

    // Refitting the saved games gives the same weights.
    let refit = dir.join("w2.txt");
    let out = punct(&["tune", "--data", s(&games), "--out", s(&refit)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        Weights::parse(&std::fs::read_to_string(&refit).unwrap()).unwrap(),
        parsed
    );

    // Played in pieces, on one thread, the games are the same.
    let piece = dir.join("g-piece.txt");
    let out = punct(&[
        "tune",
        "--first-game",
        "3",
        "--games",
        "3",
        "--nodes",
        "20",
        "--seed",
        "5",
        "--random-plies",
        "2",
        "--adjudicate",
        "40",
        "--save-data",
        s(&piece),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(game_lines(&piece), game_lines(&games)[3..]);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_arguments_are_refused_with_a_clear_message() {
    let dir = scratch("bad");
    let bad_games = dir.join("bad.txt");
    std::fs::write(&bad_games, "standard white C@B7/2 C@B7/2\n").unwrap();
    let missing = dir.join("missing.txt");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--games", "1", "--from-weights", "best"],
            "--from-weights: `best` is not `hand` or `tuned`",
        ),
        (
            vec!["--games", "1", "--drop", "tempo,speed"],
            "--drop: unknown feature `speed`",
        ),
        (vec!["--games", "0"], "no games"),
        (
            vec!["--games", "1", "--nodes", "0"],
            "--nodes must be at least 1",
        ),
        (vec!["--games", "1", "--threads", "0"], "--threads 0"),
        (vec!["--games", "1", "--lambda", "0"], "--lambda 0"),
        (
            vec!["--games", "1", "--validation-every", "1"],
            "--validation-every 1",
        ),
        (vec!["--data", s(&missing)], "missing.txt"),
        (vec!["--data", s(&bad_games)], "bad.txt, line 1: "),
    ];
    for (args, want) in cases {
        let mut all = vec!["tune"];
        all.extend(&args);
        let out = punct(&all);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
    }
    std::fs::remove_dir_all(dir).ok();
}
