//! The `punct` binary's output contracts, driven as a subprocess.

use punct_core::{parse_moves, Game, Position, Variant};
use std::process::Output;

mod common;
use common::{punct, punct_stdin};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}
fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

const SIX: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0";
/// Public case 6: Black wins by connection with E11-H11/1.
const BLACK_WINS: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1";

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn legal_prints_sorted_canonical_moves_and_nothing_else() {
    let o = punct(&["legal", "--moves", "c@b7/2 r@f2/0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    // Count from the independent implementation's public case 1.
    assert_eq!(lines.len(), 4651);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "sorted by byte order");
    for l in &lines {
        let m: punct_core::Move = l.parse().unwrap();
        assert_eq!(&m.to_string(), l, "canonical");
    }
    assert!(stderr(&o).is_empty());
}

#[test]
fn legal_matches_the_library_in_both_variants() {
    for (variant, v) in [("standard", Variant::Standard), ("basic", Variant::Basic)] {
        let o = punct(&["legal", "--variant", variant, "--moves", SIX]);
        assert!(o.status.success());
        let game = Game::replay(Position::new(v), &parse_moves(SIX).unwrap()).unwrap();
        let mut want: Vec<String> = game
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        want.sort();
        assert_eq!(stdout(&o), want.join("\n") + "\n");
    }
}

#[test]
fn an_illegal_move_exits_2_naming_ply_move_and_reason() {
    let o = punct(&["legal", "--moves", "C@B7/2 R@F2/0 C@B7/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let e = stderr(&o);
    assert!(e.contains("ply 3"), "{e}");
    assert!(e.contains("C@B7/2"), "{e}");
    assert!(e.contains("occupied"), "{e}");

    let o = punct(&["status", "--moves", "C@B7/2 Z9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ply 2"), "{}", stderr(&o));

    let o = punct(&["perft", "1", "--moves", "C@I9/0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("central hexagon"), "{}", stderr(&o));
}

#[test]
fn status_prints_one_word() {
    assert_eq!(stdout(&punct(&["status"])), "ongoing\n");
    assert_eq!(
        stdout(&punct(&["status", "--moves", BLACK_WINS])),
        "black\n"
    );
    // A finished game has no legal moves and perft adds nothing.
    assert_eq!(stdout(&punct(&["legal", "--moves", BLACK_WINS])), "");
    assert_eq!(
        stdout(&punct(&["perft", "1", "--moves", BLACK_WINS])),
        "0\n"
    );
}

#[test]
fn perft_and_divide_agree() {
    assert_eq!(stdout(&punct(&["perft", "0"])), "1\n");
    assert_eq!(stdout(&punct(&["perft", "1"])), "4986\n");
    let o = punct(&[
        "perft",
        "2",
        "--divide",
        "--variant",
        "basic",
        "--moves",
        "C@B7/2",
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    let total: u64 = lines.last().unwrap().parse().unwrap();
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, sum);
    let plain: u64 = stdout(&punct(&[
        "perft",
        "2",
        "--variant",
        "basic",
        "--moves",
        "C@B7/2",
    ]))
    .trim()
    .parse()
    .unwrap();
    assert_eq!(plain, total);
    let firsts = lines.len() - 1;
    let legal = stdout(&punct(&[
        "legal",
        "--variant",
        "basic",
        "--moves",
        "C@B7/2",
    ]));
    assert_eq!(firsts, legal.lines().count());
}

#[test]
fn position_strings_and_moves_reach_the_same_position() {
    let o = punct(&["show", "--moves", SIX, "--string", "--ansi", "never"]);
    assert!(o.status.success());
    let string = stdout(&o).lines().last().unwrap().to_string();
    assert!(string.starts_with("standard:w:0:"), "{string}");
    let a = stdout(&punct(&["legal", "--moves", SIX]));
    let b = stdout(&punct(&["legal", "--position", &string]));
    assert_eq!(a, b);
    // Moves may follow a position string.
    let c = stdout(&punct(&[
        "legal",
        "--position",
        &string,
        "--moves",
        "M@E9/4",
    ]));
    let d = stdout(&punct(&["legal", "--moves", &format!("{SIX} M@E9/4")]));
    assert_eq!(c, d);
}

#[test]
fn bad_position_strings_and_contradictions_are_refused() {
    let o = punct(&["legal", "--position", "standard:w:0:wC@B7/2^1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("floats"), "{}", stderr(&o));
    let o = punct(&[
        "legal",
        "--position",
        "basic:w:0:-",
        "--variant",
        "standard",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--variant"), "{}", stderr(&o));
}

#[test]
fn random_games_are_reproducible_and_their_records_check() {
    let a = punct(&["random-game", "--seed", "11"]);
    let b = punct(&["random-game", "--seed", "11"]);
    let c = punct(&["random-game", "--seed", "12", "--variant", "basic"]);
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    assert_ne!(stdout(&a), stdout(&c));
    assert!(stdout(&c).contains("[Variant \"basic\"]"));
    for (i, rec) in [stdout(&a), stdout(&c)].iter().enumerate() {
        let path = temp_path(&format!("random{i}.pgn"));
        std::fs::write(&path, rec).unwrap();
        let o = punct(&["record", "check", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains(": ok,"), "{}", stdout(&o));
    }
}

#[test]
fn record_check_reports_the_first_illegal_move_by_number() {
    let text = "[Variant \"standard\"]\n[Result \"*\"]\n\n1. C@B7/2 R@F2/0 2. C@P15/2 C@B7/0 *\n";
    let path = temp_path("bad.pgn");
    std::fs::write(&path, text).unwrap();
    let o = punct(&["record", "check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("move 2") && e.contains("black") && e.contains("C@B7/0"),
        "{e}"
    );
    // From standard input too.
    let o = punct_stdin(&["record", "check", "-"], text);
    assert_eq!(o.status.code(), Some(1));
    let o = punct(&["record", "check", "/nonexistent/x.pgn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read"));
}

#[test]
fn play_two_people_explains_illegal_moves_undoes_and_saves() {
    let path = temp_path("play.pgn");
    let input = "C@B7/2\nR@F2/0\nC@I9/0\nundo\nR@F2/0\nbogus\nquit\n";
    let o = punct_stdin(
        &[
            "play",
            "--opponent",
            "human",
            "--ansi",
            "never",
            "--record",
            path.to_str().unwrap(),
        ],
        input,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("central hexagon"), "{out}");
    assert!(out.contains("Took back R@F2/0"), "{out}");
    assert!(out.contains("`bogus` is not a move"), "{out}");
    let rec = std::fs::read_to_string(&path).unwrap();
    assert!(rec.contains("1. C@B7/2 R@F2/0 *"), "{rec}");
    let o = punct(&["record", "check", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn play_against_the_greedy_opponent_until_input_ends() {
    // `hint` asks the strongest level, thinking as long as --think allows.
    let path = temp_path("greedy.pgn");
    let o = punct_stdin(
        &[
            "play",
            "--opponent",
            "greedy",
            "--think",
            "50",
            "--color",
            "black",
            "--ansi",
            "never",
            "--record",
            path.to_str().unwrap(),
        ],
        "hint\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("greedy (white) plays"), "{out}");
    assert!(out.contains("Hint: "), "{out}");
    let rec = std::fs::read_to_string(&path).unwrap();
    assert!(rec.contains("[White \"greedy\"]"), "{rec}");
}

#[test]
fn play_against_an_ai_level_with_the_ai_alias() {
    let path = temp_path("ai.pgn");
    let o = punct_stdin(
        &[
            "play",
            "--ai",
            "2",
            "--think",
            "20",
            "--ansi",
            "never",
            "--record",
            path.to_str().unwrap(),
        ],
        "E@C5/2\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("punct level 2 (black) plays"),
        "{}",
        stdout(&o)
    );
    let o = punct(&["play", "--ai", "level9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown engine"), "{}", stderr(&o));
}

#[test]
fn every_subcommand_has_help_and_bad_arguments_never_panic() {
    for sub in [
        "legal",
        "status",
        "perft",
        "show",
        "play",
        "record",
        "random-game",
        "bench",
    ] {
        let o = punct(&[sub, "--help"]);
        assert!(o.status.success(), "{sub}");
        assert!(stdout(&o).contains("Usage"), "{sub}");
    }
    let bad: &[&[&str]] = &[
        &["perft"],
        &["perft", "x"],
        &["perft", "-1"],
        &["legal", "--variant", "huge"],
        &["legal", "--position", ""],
        &["legal", "--position", "standard:w:9:-"],
        &["legal", "--moves", "@@@/"],
        &["record"],
        &["bench", "--seconds", "0"],
        &["bench", "--depth", "0"],
        &["bench", "--depth", "2", "--positions", "201"],
        &["bench", "--depth", "2", "--option", "NullMove"],
        &["bench", "--depth", "2", "--option", "Nonsense=1"],
        &["bench", "--depth", "2", "--engine", "level9"],
        &["nonsense"],
    ];
    for args in bad {
        let o = punct(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// `punct bench --depth`: a search to a fixed depth from the shipped
/// openings, its nodes, and a digest of its best moves that repeats run
/// after run and changes with an option that changes the search.
#[test]
fn bench_depth_reports_nodes_and_a_digest_of_the_best_moves() {
    let run = |extra: &[&str]| {
        let mut args = vec!["bench", "--depth", "2", "--positions", "6"];
        args.extend_from_slice(extra);
        let o = punct(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.starts_with("level4 to depth 2 on 6 positions: "),
            "{out}"
        );
        let nodes: u64 = out
            .split(", ")
            .find_map(|p| p.strip_suffix(" nodes"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no node count in {out}"));
        let digest = out.trim_end().rsplit(' ').next().unwrap().to_string();
        assert_eq!(digest.len(), 16, "{out}");
        (nodes, digest)
    };
    let first = run(&[]);
    assert!(first.0 > 0);
    assert_eq!(run(&[]), first, "a fixed depth searches the same tree");
    let wide = run(&["--option", "RootShortlist=0"]);
    assert!(
        wide.0 > first.0,
        "every root move judged: {} nodes, not {}",
        wide.0,
        first.0
    );
}
