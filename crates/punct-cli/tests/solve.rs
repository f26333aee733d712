//! `punct solve`, driven as a subprocess.

mod common;
use common::{punct, text};

/// The shipped puzzle `id`: its position and solutions.
fn puzzle(id: &str) -> (String, Vec<String>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/puzzles.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let p = file["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap();
    let solutions = p["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    (p["position"].as_str().unwrap().to_string(), solutions)
}

#[test]
fn proves_a_win_in_two_and_names_the_first_move() {
    let (pos, solutions) = puzzle("two-12");
    let out = punct(&["solve", "--position", &pos, "--depth", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.starts_with("Black connects in 2: "), "{said}");
    let first = said["Black connects in 2: ".len()..]
        .split_whitespace()
        .next()
        .unwrap();
    assert!(solutions.iter().any(|s| s == first), "{said}");
    assert!(said.contains("proven, "), "{said}");
}

#[test]
fn a_win_in_two_is_no_win_in_one() {
    let (pos, _) = puzzle("two-12");
    let out = punct(&["solve", "--position", &pos, "--depth", "1"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("no forced connection within 1 move found for Black"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_small_budget_says_unknown() {
    let (pos, _) = puzzle("two-12");
    let out = punct(&["solve", "--position", &pos, "--nodes", "5"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("unknown: budget exhausted"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn takes_moves_from_the_start() {
    let out = punct(&["solve", "--moves", "C@B7/2 R@F2/0", "--depth", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("no forced connection within 2 moves found for White"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["solve", "--position", "nonsense"][..],
        &["solve", "--moves", "Z@Z99/9"],
        &["solve", "--depth", "0"],
        &["solve", "--nodes", "0"],
    ] {
        let out = punct(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("error"), "{args:?}");
    }
}
