//! `punct puzzles generate` and `verify`, driven as a subprocess.

use std::path::PathBuf;

mod common;
use common::{punct, text};

fn shipped() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/puzzles.json"
    ))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-puzzles-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_shipped_file_verifies() {
    let out = punct(&["puzzles", "verify", shipped().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("puzzles verified ("), "{said}");
}

#[test]
fn a_wrong_solution_list_names_the_puzzle() {
    let original = std::fs::read_to_string(shipped()).unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&original).unwrap();
    // Drop the first solution of the first puzzle.
    let id = file["puzzles"][0]["id"].as_str().unwrap().to_string();
    let dropped = file["puzzles"][0]["solutions"][0]
        .as_str()
        .unwrap()
        .to_string();
    file["puzzles"][0]["solutions"]
        .as_array_mut()
        .unwrap()
        .remove(0);
    let path = temp("dropped.json");
    std::fs::write(&path, file.to_string()).unwrap();
    let out = punct(&["puzzles", "verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "puzzle {id}: the solutions disagree: the proof also finds {dropped}"
        )),
        "{err}"
    );
    // A move that is no solution.
    let mut file: serde_json::Value = serde_json::from_str(&original).unwrap();
    file["puzzles"][1]["solutions"]
        .as_array_mut()
        .unwrap()
        .push("pass".into());
    std::fs::write(&path, file.to_string()).unwrap();
    let out = punct(&["puzzles", "verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("pass are not solutions"),
        "{}",
        text(&out.stderr)
    );
    // Not a file of puzzles at all.
    std::fs::write(&path, "[1, 2, 3]").unwrap();
    let out = punct(&["puzzles", "verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no `format` number"),
        "{}",
        text(&out.stderr)
    );
    let out = punct(&["puzzles", "verify", "/no/such/file.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read /no/such/file.json"));
}

#[test]
fn generating_is_repeatable_and_makes_a_file_that_verifies() {
    let a = temp("a.json");
    let b = temp("b.json");
    for path in [&a, &b] {
        let out = punct(&[
            "puzzles",
            "generate",
            "--games",
            "2",
            "--seed",
            "3",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("puzzles from 2 games"));
    }
    let read = |p: &PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (fa, fb) = (read(&a), read(&b));
    assert_eq!(fa["puzzles"], fb["puzzles"]);
    assert!(fa["command"]
        .as_str()
        .unwrap()
        .starts_with("punct puzzles generate --games 2 --seed 3"));
    assert_eq!(fa["format"], 1);
    if !fa["puzzles"].as_array().unwrap().is_empty() {
        let out = punct(&["puzzles", "verify", a.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
}

#[test]
fn bad_arguments_are_refused() {
    let out = punct(&["puzzles", "generate", "--games", "0", "--out", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--games must be between 1 and 100000"));
    let out = punct(&[
        "puzzles",
        "generate",
        "--games",
        "1",
        "--out",
        "/no/such/dir/p.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no directory /no/such/dir"));
    let out = punct(&["puzzles", "generate", "--games", "x", "--out", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let out = punct(&["puzzles"]);
    assert_eq!(out.status.code(), Some(2));
}
