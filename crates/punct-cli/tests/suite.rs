//! `punct suite`, driven as a subprocess on small suites.

mod common;
use common::{punct, text};
use std::path::PathBuf;

/// A file in a directory of this test's own, with `contents`.
fn file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-suite-test-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The first `n` positions (with what follows them) of a shipped suite.
fn shipped(name: &str, n: usize) -> Vec<String> {
    let path = format!(
        "{}/../punct-engine/tests/suites/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(n)
        .map(str::to_string)
        .collect()
}

#[test]
fn counts_solved_positions_and_verified_win_claims() {
    let wins = shipped("win_in_1.txt", 3);
    let path = file(
        "wins",
        "win_in_1_small.txt",
        &format!("# three\n{}\n", wins.join("\n")),
    );
    let out = punct(&["suite", path.to_str().unwrap(), "--nodes", "2000"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.starts_with("level4 (default options), 2000 nodes a position\n"),
        "{said}"
    );
    assert!(
        said.contains(
            "win_in_1_small.txt: win-in-1 (plays a move that wins at once): solved 3/3 (100.0 %); \
             win claims: 3 claimed, 3 verified, 0 refuted; loss claims: 0 claimed"
        ),
        "{said}"
    );
}

#[test]
fn a_kind_line_names_the_task_and_every_file_is_reported() {
    let blocks = shipped("must_block.txt", 2);
    let two = shipped("win_in_2.txt", 1);
    let a = file(
        "kinds",
        "a.txt",
        &format!("# kind: must-block\n{}\n", blocks.join("\n")),
    );
    let b = file("kinds", "b.txt", &format!("# kind: win-in-2\n{}\n", two[0]));
    let out = punct(&[
        "suite",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--nodes",
        "1500",
        "--threads",
        "2",
        "--verbose",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("a.txt: must-block (leaves the opponent no immediate win): solved "),
        "{said}"
    );
    assert!(said.contains("/2 ("), "{said}");
    assert!(
        said.contains(
            "b.txt: win-in-2 (plays a first move that wins in two whatever the reply): solved "
        ),
        "{said}"
    );
    // --verbose lists every position, by its line in the file.
    assert!(
        said.contains("  line 2: ") && said.contains("  line 3: "),
        "{said}"
    );
    assert!(said.contains("\nall: solved "), "{said}");
}

#[test]
fn bad_files_are_named_with_the_line() {
    let good = shipped("win_in_1.txt", 1);
    let bad = file(
        "bad",
        "win_in_1.txt",
        &format!("{}\n\nstandard:w:0:nonsense\n", good[0]),
    );
    let out = punct(&["suite", bad.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("win_in_1.txt: line 3: not a position string"),
        "{err}"
    );

    let untitled = file("bad", "positions.txt", &format!("{}\n", good[0]));
    let out = punct(&["suite", untitled.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("positions.txt: no task"),
        "{}",
        text(&out.stderr)
    );

    // A win-in-1 file whose position is no win in one.
    let blocks = shipped("must_block.txt", 1);
    let wrong = file(
        "bad",
        "win-in-1-wrong.txt",
        &format!("# x\n{}\n", blocks[0]),
    );
    let out = punct(&["suite", wrong.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("win-in-1-wrong.txt: line 2: not a win-in-1 position: "),
        "{}",
        text(&out.stderr)
    );

    let out = punct(&["suite", "/no/such/suite.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read /no/such/suite.txt"));
}

#[test]
fn bad_flags_are_refused() {
    let good = shipped("win_in_1.txt", 1);
    let path = file("flags", "win_in_1.txt", &format!("{}\n", good[0]));
    let p = path.to_str().unwrap();
    for (args, says) in [
        (vec!["--engine", "nobody"], "unknown engine `nobody`"),
        (vec!["--option", "Threads"], "expected NAME=VALUE"),
        (vec!["--option", "Colour=blue"], "--option Colour=blue"),
        (vec!["--threads", "0"], "--threads must be between 1 and 64"),
        (vec!["--nodes", "0"], "must be at least 1"),
    ] {
        let mut all = vec!["suite", p];
        all.extend(args);
        let out = punct(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{all:?}: {}",
            text(&out.stderr)
        );
    }
}
