//! `punct match`, driven as a subprocess: summaries, records, colours,
//! forfeits by misbehaving external engines, SPRT, and argument errors.

use punct_core::{Game, Outcome, Position, Record, Variant};
use std::path::PathBuf;
use std::process::{Command, Output};

const PUNCT: &str = env!("CARGO_BIN_EXE_punct");

fn punct(args: &[&str]) -> Output {
    Command::new(PUNCT).args(args).output().expect("run punct")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}
fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn cleanup(name: &str) {
    let _ = std::fs::remove_dir_all(temp_dir(name));
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punct-match-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `Score of A vs B: W - L - D  [s] N` → (A, B, W, L, D, N).
fn score_line(out: &str) -> (String, String, u32, u32, u32, u32) {
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("Score of ")).collect();
    assert_eq!(lines.len(), 1, "exactly one score line in:\n{out}");
    let rest = lines[0].strip_prefix("Score of ").unwrap();
    let (names, result) = rest.split_once(": ").unwrap();
    let (a, b) = names.split_once(" vs ").unwrap();
    let words: Vec<&str> = result.split_whitespace().collect();
    assert_eq!(words[1], "-");
    assert_eq!(words[3], "-");
    assert!(
        words[5].starts_with('[') && words[5].ends_with(']'),
        "{out}"
    );
    let n = |i: usize| words[i].parse::<u32>().unwrap();
    (a.into(), b.into(), n(0), n(2), n(4), n(6))
}

/// The records of a file with several games (blank lines between them).
fn records(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.starts_with("[Event ") && !current.trim().is_empty() {
            out.push(Record::parse(&current).unwrap());
            current.clear();
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        out.push(Record::parse(&current).unwrap());
    }
    out
}

/// A fake external engine: does the handshake, then misbehaves on `go` as
/// its first argument says: `illegal` (plays `pass`, never legal this
/// early), `garbage` (`bestmove banana`), `crash` (exits), `silent` (never
/// answers `go`).
const FAKE_ENGINE: &str = r#"
import sys, time
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "pei":
        print("id name fake " + mode)
        print("option name Noise type spin default 0 min 0 max 9")
        print("peiok")
    elif cmd == "isready":
        print("readyok")
    elif cmd == "setoption" and "Noise" not in words:
        print("info string error: setoption: unknown option `" + words[2] + "`")
    elif cmd == "go":
        if mode == "illegal":
            print("bestmove pass")
        elif mode == "garbage":
            print("info depth 1 score cp 0 nodes 1 nps 0 time 0")
            print("bestmove banana")
        elif mode == "crash":
            sys.stderr.write("fake engine: out of cheese\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "silent":
            pass
    elif cmd == "quit":
        break
    sys.stdout.flush()
"#;

/// The fake engine's command line; `test` keeps the script's directory
/// apart from other tests running at the same time.
fn fake_engine(test: &str, mode: &str) -> String {
    let dir = temp_dir(&format!("fake-{test}-{mode}"));
    let path = dir.join("fake_engine.py");
    std::fs::write(&path, FAKE_ENGINE).unwrap();
    format!("cmd:python3 {} {mode}", path.display())
}

#[test]
fn random_pairs_alternate_colours_and_records_replay_with_their_opening() {
    let dir = temp_dir("random");
    let file = dir.join("games.pgn");
    let o = punct(&[
        "match",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--name1",
        "alpha",
        "--name2",
        "beta",
        "--games",
        "6",
        "--nodes",
        "1",
        "--concurrency",
        "2",
        "--records",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (a, b, w, l, d, n) = score_line(&out);
    assert_eq!((a.as_str(), b.as_str()), ("alpha", "beta"));
    assert_eq!(n, 6);
    assert_eq!(w + l + d, 6);
    assert!(
        out.lines().nth(1).unwrap().starts_with("Elo difference: "),
        "{out}"
    );
    // One line per finished game on stderr (it is not a terminal here).
    assert_eq!(
        stderr(&o).matches("Finished game ").count(),
        6,
        "{}",
        stderr(&o)
    );

    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\n\n[Event \"punct match\"]"),
        "blank line between games"
    );
    let recs = records(&text);
    assert_eq!(recs.len(), 6);
    let (mut alpha_points, mut draws) = (0.0, 0);
    for (i, rec) in recs.iter().enumerate() {
        let game = rec.replay().unwrap();
        assert_eq!(rec.tag("Event"), Some("punct match"));
        assert_eq!(rec.tag("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(rec.tag("Variant"), Some("standard"));
        // Colours swap within each pair.
        let (white, black) = if i % 2 == 0 {
            ("alpha", "beta")
        } else {
            ("beta", "alpha")
        };
        assert_eq!(
            (rec.tag("White"), rec.tag("Black")),
            (Some(white), Some(black))
        );
        // The opening is the start of the game, shared by the pair.
        let opening = rec.tag("Opening").unwrap();
        let moves: Vec<String> = rec.moves.iter().map(|m| m.to_string()).collect();
        assert!(moves.join(" ").starts_with(opening), "{opening}");
        assert!((2..=4).contains(&opening.split_whitespace().count()));
        if i % 2 == 1 {
            assert_eq!(recs[i - 1].tag("Opening"), Some(opening));
        }
        // Without a Termination tag the rules ended the game.
        if rec.tag("Termination").is_none() {
            assert!(game.position().status().is_over());
        }
        let white_points = match rec.outcome {
            Outcome::WhiteWins => 1.0,
            Outcome::BlackWins => 0.0,
            _ => {
                draws += 1;
                0.5
            }
        };
        alpha_points += if white == "alpha" {
            white_points
        } else {
            1.0 - white_points
        };
    }
    assert_eq!(f64::from(w) + f64::from(d) / 2.0, alpha_points);
    assert_eq!(d, draws);
    cleanup("random");
}

#[test]
fn greedy_beats_random() {
    let o = punct(&[
        "match",
        "--engine1",
        "greedy",
        "--engine2",
        "random",
        "--games",
        "4",
        "--nodes",
        "1",
        // What is measured is play, not speed: a loaded machine (a debug
        // build's greedy takes seconds a move there) must not forfeit.
        "--grace",
        "120000",
        "--concurrency",
        "2",
        "--variant",
        "basic",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (a, b, w, l, d, n) = score_line(&out);
    assert_eq!((a.as_str(), b.as_str(), n), ("greedy", "random", 4));
    assert!(!out.contains("Forfeits"), "{out}");
    assert_eq!(w + l + d, 4);
    assert!(2 * w + d >= 6, "greedy scores at least 3 of 4:\n{out}");
    assert!(out.contains("from openings/basic.txt (built in)"), "{out}");
}

#[test]
fn sprt_stops_early_on_a_lopsided_pairing() {
    let o = punct(&[
        "match",
        "--engine1",
        "greedy",
        "--engine2",
        "random",
        "--games",
        "50",
        "--nodes",
        "1",
        "--sprt",
        "elo0=0,elo1=600,alpha=0.25,beta=0.25",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (_, _, w, l, d, n) = score_line(&out);
    assert!(n < 10, "stopped early:\n{out}");
    assert_eq!(w + l + d, n);
    let sprt = out.lines().find(|l| l.starts_with("SPRT: llr ")).unwrap();
    assert!(
        sprt.contains("lbound -1.10, ubound 1.10 - H1 accepted"),
        "{sprt}"
    );
}

#[test]
fn misbehaving_external_engines_lose_and_are_reported() {
    for (mode, termination, report) in [
        ("illegal", "illegal move by ", "loses by illegal move"),
        (
            "garbage",
            "malformed reply from ",
            "loses by malformed reply",
        ),
        ("crash", "engine failed: ", "loses by engine failure"),
        ("silent", "time forfeit", "loses by time forfeit"),
    ] {
        let dir = temp_dir(mode);
        let file = dir.join("games.pgn");
        let fake = fake_engine("misbehaving", mode);
        let o = punct(&[
            "match",
            "--engine1",
            "random",
            "--engine2",
            &fake,
            "--games",
            "2",
            "--movetime",
            "10",
            "--grace",
            "200",
            "--records",
            file.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{mode}: {}", stderr(&o));
        let (a, b, w, l, d, n) = score_line(&stdout(&o));
        assert_eq!(
            (a.as_str(), b.as_str()),
            ("random", &*format!("fake {mode}"))
        );
        assert_eq!((w, l, d, n), (2, 0, 0, 2), "{mode}: {}", stdout(&o));
        assert!(stdout(&o).contains(&format!("Forfeits by fake {mode}: 2")));
        let err = stderr(&o);
        assert_eq!(err.matches(report).count(), 2, "{mode}: {err}");
        let recs = records(&std::fs::read_to_string(&file).unwrap());
        assert_eq!(recs.len(), 2);
        for rec in &recs {
            rec.replay().unwrap();
            let t = rec.tag("Termination").unwrap();
            assert!(t.contains(termination), "{mode}: {t}");
            let random_white = rec.tag("White") == Some("random");
            let want = if random_white {
                Outcome::WhiteWins
            } else {
                Outcome::BlackWins
            };
            assert_eq!(rec.outcome, want);
        }
        if mode == "crash" {
            assert!(err.contains("out of cheese"), "{err}");
        }
        cleanup(mode);
        cleanup(&format!("fake-misbehaving-{mode}"));
    }
}

#[test]
fn external_punct_engines_play_whole_games() {
    let dir = temp_dir("external");
    let engine = format!("cmd:{PUNCT} engine --engine random --seed 3");
    let o = punct(&[
        "match",
        "--engine1",
        &engine,
        "--engine2",
        "random",
        "--games",
        "2",
        "--tc",
        "5+0.05",
        "--records-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (a, _, w, l, d, n) = score_line(&stdout(&o));
    assert_eq!(a, "random");
    assert_eq!((w + l + d, n), (2, 2));
    for i in 1..=2 {
        let text = std::fs::read_to_string(dir.join(format!("game-000{i}.pgn"))).unwrap();
        let rec = Record::parse(&text).unwrap();
        let game: Game = rec.replay().unwrap();
        assert_eq!(rec.tag("TimeControl"), Some("5+0.05"));
        assert_eq!(rec.tag("Termination"), None, "{text}");
        assert!(game.position().status().is_over());
    }
    cleanup("external");
}

#[test]
fn time_odds_are_recorded_with_the_games() {
    let file = temp_dir("odds").join("games.pgn");
    let o = punct(&[
        "match",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--name2",
        "slow",
        "--games",
        "2",
        "--movetime",
        "5",
        "--movetime2",
        "20",
        "--records",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let recs = records(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(recs.len(), 2);
    for rec in &recs {
        assert_eq!(rec.tag("TimeControl"), Some("movetime 5 ms, slow 20 ms"));
    }
    cleanup("odds");
}

#[test]
fn adjudication_draws_long_games() {
    let file = temp_dir("adjudicate").join("games.pgn");
    let o = punct(&[
        "match",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--games",
        "2",
        "--nodes",
        "1",
        "--adjudicate",
        "6",
        "--records",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, _, w, l, d, _) = score_line(&stdout(&o));
    assert_eq!((w, l, d), (0, 0, 2));
    let out = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        out.matches("[Termination \"adjudicated draw after 6 plies\"]")
            .count(),
        2,
        "{out}"
    );
    cleanup("adjudicate");
}

#[test]
fn bad_openings_lines_are_named() {
    let dir = temp_dir("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# mine\nC@B7/2 R@F2/0\n\nC@B7/2 C@B7/2\n").unwrap();
    let o = punct(&[
        "match",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("openings.txt, line 4: ply 2: `C@B7/2` is illegal"),
        "{err}"
    );
    // A good file is used, cycled, and named in the summary.
    std::fs::write(&file, "# mine\nC@B7/2 R@F2/0\n").unwrap();
    let o = punct(&[
        "match",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--openings",
        file.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Openings: 1 from "), "{}", stdout(&o));
    cleanup("openings");
}

#[test]
fn bad_arguments_exit_with_code_2_and_a_message() {
    let fake = fake_engine("arguments", "illegal");
    for (args, message) in [
        (vec!["--engine1", "random"], "--engine2"),
        (
            vec!["--engine1", "nosuch", "--engine2", "random"],
            "unknown engine `nosuch`",
        ),
        (
            vec!["--engine1", "random", "--engine2", "cmd:"],
            "--engine2: `cmd:` needs",
        ),
        (
            vec!["--engine1", "random", "--engine2", "cmd:/no/such/program"],
            "cannot start `/no/such/program`",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                &fake,
                "--option2",
                "Hash=64",
            ],
            "refused the options",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--option1",
                "Hash",
            ],
            "expected NAME=VALUE",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--option1",
                "Hash=64",
            ],
            "unknown option `Hash`",
        ),
        (
            vec!["--engine1", "random", "--engine2", "random", "--games", "0"],
            "--games",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--concurrency",
                "0",
            ],
            "--concurrency",
        ),
        (
            vec!["--engine1", "random", "--engine2", "random", "--tc", "10+x"],
            "--tc `10+x`",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--tc",
                "1",
                "--movetime",
                "5",
            ],
            "cannot be used with",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "elo0 (5) must be below elo1 (0)",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--movetime2",
                "0",
            ],
            "--movetime2 must be 1 to 3600000 ms",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--nodes",
                "10",
                "--movetime2",
                "50",
            ],
            "cannot be used with",
        ),
        (
            vec![
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--openings",
                "/no/such/file",
            ],
            "--openings: cannot read /no/such/file",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend(args.iter().copied());
        let o = punct(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    cleanup("fake-arguments-illegal");
}

#[test]
fn shipped_openings_are_legal_and_unfinished() {
    for (name, variant) in [("standard", Variant::Standard), ("basic", Variant::Basic)] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../openings")
            .join(format!("{name}.txt"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut count = 0;
        for line in text.lines() {
            let content = line.split('#').next().unwrap().trim();
            if content.is_empty() {
                continue;
            }
            let moves = punct_core::parse_moves(content).unwrap();
            let game = Game::replay(Position::new(variant), &moves).unwrap();
            assert!(!game.position().status().is_over());
            count += 1;
        }
        assert_eq!(count, 100, "{name}");
    }
}
