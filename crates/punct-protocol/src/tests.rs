//! The protocol loop driven with in-memory input and output: scripted
//! (a `Cursor` of commands) and live (commands sent one by one while the
//! output is watched), with the built-in engines and with test engines that
//! search until stopped, lie or panic.

use super::*;
use punct_core::{Game, Status};
use punct_engine::{new_engine, Budget, Info, Score, SearchResult};
use std::io::{BufReader, Cursor, Read};
use std::sync::mpsc::{Receiver, Sender};

// ------------------------------------------------------------- harness

/// A writer whose bytes the test can read while the loop still runs.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).expect("output is UTF-8")
    }
    fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_string).collect()
    }
}

fn engine(name: &str) -> Box<dyn Engine> {
    new_engine(name, 7).unwrap()
}

/// Runs a whole script and returns the output lines.
fn script(engine: Box<dyn Engine>, input: &str) -> Vec<String> {
    let out = Shared::default();
    run(Cursor::new(input.as_bytes().to_vec()), out.clone(), engine).unwrap();
    out.lines()
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(str::to_string)
        .collect()
}

/// Input fed line by line from the test, blocking in between like a pipe.
struct ChannelInput {
    rx: Receiver<Vec<u8>>,
    pending: Cursor<Vec<u8>>,
}

impl Read for ChannelInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.pending.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            match self.rx.recv() {
                Ok(bytes) => self.pending = Cursor::new(bytes),
                Err(_) => return Ok(0), // the test closed its end
            }
        }
    }
}

const PATIENCE: Duration = Duration::from_secs(20);

/// The loop on its own thread, driven line by line.
struct Live {
    tx: Option<Sender<Vec<u8>>>,
    out: Shared,
    seen: usize,
    handle: Option<JoinHandle<io::Result<()>>>,
}

impl Live {
    fn start(engine: Box<dyn Engine>) -> Live {
        let (tx, rx) = mpsc::channel();
        let out = Shared::default();
        let writer = out.clone();
        let input = BufReader::new(ChannelInput {
            rx,
            pending: Cursor::new(Vec::new()),
        });
        let handle = thread::spawn(move || run(input, writer, engine));
        Live {
            tx: Some(tx),
            out,
            seen: 0,
            handle: Some(handle),
        }
    }

    /// Sends a line; after `quit` the loop may already be gone, like a
    /// process whose pipe is closed, and the line is simply lost.
    fn send(&self, line: &str) {
        let tx = self.tx.as_ref().expect("input still open");
        let _ = tx.send(format!("{line}\n").into_bytes());
    }

    /// Waits for the next line (after those already seen) that satisfies
    /// `want`; the lines skipped on the way count as seen.
    fn expect(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let until = Instant::now() + PATIENCE;
        loop {
            let lines = self.out.lines();
            // Only complete lines count.
            let complete = if self.out.text().ends_with('\n') {
                lines.len()
            } else {
                lines.len().saturating_sub(1)
            };
            while self.seen < complete {
                let line = &lines[self.seen];
                self.seen += 1;
                if want(line) {
                    return line.clone();
                }
            }
            assert!(
                Instant::now() < until,
                "no {what} within {PATIENCE:?}; output:\n{}",
                self.out.text()
            );
            thread::sleep(Duration::from_millis(2));
        }
    }

    fn expect_line(&mut self, exact: &str) {
        self.expect(exact, |l| l == exact);
    }

    /// Waits for the loop to return (after `quit` or closing the input).
    fn finish(&mut self, close_input: bool) -> Vec<String> {
        if close_input {
            self.tx = None;
        }
        let handle = self.handle.take().unwrap();
        let until = Instant::now() + PATIENCE;
        while !handle.is_finished() {
            assert!(Instant::now() < until, "the loop did not return");
            thread::sleep(Duration::from_millis(2));
        }
        handle.join().unwrap().unwrap();
        self.out.lines()
    }
}

// --------------------------------------------------------- test engines

/// Searches "one depth per 2 ms" until a limit or `stop`, reporting each
/// depth; plays the first legal move in byte order. Its score encodes its
/// settings so that tests can see `setoption` and `newgame` arrive:
/// `skill * 1000 + games * 10 + book`.
#[derive(Default)]
struct Stepper {
    skill: i64,
    book: bool,
    games: i32,
    log: String,
}

fn first_legal(pos: &Position) -> Move {
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|m| m.to_string());
    moves[0]
}

impl Engine for Stepper {
    fn name(&self) -> String {
        "stepper test engine".into()
    }
    fn new_game(&mut self) {
        self.games += 1;
    }
    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption::spin("Skill Level", 5, 0, 10),
            EngineOption {
                name: "Own Book".into(),
                kind: "check",
                default: "false".into(),
                min: None,
                max: None,
            },
            EngineOption {
                name: "Log File".into(),
                kind: "string",
                default: String::new(),
                min: None,
                max: None,
            },
        ]
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "Skill Level" => self.skill = parse_spin(name, value, 0, 10)?,
            "Own Book" => self.book = value == "true",
            "Log File" if value.contains('|') => return Err("no pipes in file names".into()),
            "Log File" => self.log = value.to_string(),
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let budget = Budget::new(pos, limits, stop);
        let best = first_legal(pos);
        let score = Score::Eval(self.skill as i32 * 1000 + self.games * 10 + self.book as i32);
        let (mut depth, mut nodes) = (0, 0);
        while !budget.exhausted(nodes) && limits.depth.is_none_or(|d| depth < d) {
            thread::sleep(Duration::from_millis(2));
            depth += 1;
            nodes += 10;
            info(&Info {
                multipv: 1,
                depth,
                score,
                nodes,
                elapsed: budget.elapsed(),
                pv: vec![best],
            });
        }
        SearchResult {
            best,
            score,
            depth,
            nodes,
            pv: vec![best],
        }
    }
}

/// Always answers `pass`, which is illegal on a board with moves.
struct Liar;

impl Engine for Liar {
    fn name(&self) -> String {
        "liar".into()
    }
    fn search(
        &mut self,
        _: &Position,
        _: &Limits,
        _: &AtomicBool,
        _: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        SearchResult {
            best: Move::Pass,
            score: Score::Eval(0),
            depth: 1,
            nodes: 1,
            pv: vec![Move::Pass],
        }
    }
}

/// Panics in every search.
struct Crasher;

impl Engine for Crasher {
    fn name(&self) -> String {
        "crasher".into()
    }
    fn search(
        &mut self,
        _: &Position,
        _: &Limits,
        _: &AtomicBool,
        _: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        panic!("deliberate test panic")
    }
}

/// Reports `MultiPV` lines per depth (option `MultiPV`, 1–8): line i
/// plays the i-th legal move in byte order and scores `-10 * i`, so the
/// lines come best first; the result is line 1.
struct Lines {
    k: u32,
}

impl Engine for Lines {
    fn name(&self) -> String {
        "lines test engine".into()
    }
    fn options(&self) -> Vec<EngineOption> {
        vec![EngineOption::spin("MultiPV", 1, 1, 8)]
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "MultiPV" => self.k = parse_spin(name, value, 1, 8)? as u32,
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        _: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut moves = pos.legal_moves();
        moves.sort_by_key(|m| m.to_string());
        let k = self.k.max(1);
        let depth = limits.depth.unwrap_or(2);
        for d in 1..=depth {
            for i in 1..=k {
                info(&Info {
                    multipv: i,
                    depth: d,
                    score: Score::Eval(-10 * i as i32),
                    nodes: 10 * d as u64,
                    elapsed: Duration::from_millis(d as u64),
                    pv: vec![moves[i as usize - 1]],
                });
            }
        }
        SearchResult {
            best: moves[0],
            score: Score::Eval(-10),
            depth,
            nodes: 10 * depth as u64,
            pv: vec![moves[0]],
        }
    }
}

/// After `moves`, replayed with the rules crate.
fn position_after(moves: &[String]) -> Position {
    let mut pos = Position::new(Variant::Standard);
    for m in moves {
        pos.play(m.parse().unwrap()).unwrap();
    }
    pos
}

// ------------------------------------------------------------------ tests

#[test]
fn handshake_names_the_engine_and_its_options_then_peiok() {
    let lines = script(engine("greedy"), "pei\n");
    assert_eq!(
        lines,
        ["id name greedy", "id author PÜNCT project", "peiok"]
    );
    let lines = script(Box::new(Stepper::default()), "pei\n");
    assert_eq!(
        lines,
        [
            "id name stepper test engine",
            "id author PÜNCT project",
            "option name Skill Level type spin default 5 min 0 max 10",
            "option name Own Book type check default false",
            "option name Log File type string default <empty>",
            "peiok",
        ]
    );
}

#[test]
fn isready_answers_readyok_and_blank_lines_and_carriage_returns_are_harmless() {
    let lines = script(engine("random"), "\n   \nisready\r\n\r\n\tisready \r\n");
    assert_eq!(lines, ["readyok", "readyok"]);
}

#[test]
fn go_with_nodes_or_depth_gives_one_legal_bestmove() {
    // (greedy takes about a second per search in a debug build: fewer of those)
    let all = [
        "go nodes 500",
        "go depth 2",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
    ];
    for (name, gos) in [("random", &all[..]), ("greedy", &all[1..2])] {
        for &go in gos {
            let moves = ["C@B7/2", "R@F2/0", "C@P15/2"];
            let input = format!(
                "newgame\nposition startpos moves {}\n{go}\n",
                moves.join(" ")
            );
            let lines = script(engine(name), &input);
            assert!(errors(&lines).is_empty(), "{name} {go}: {lines:?}");
            let best = bestmoves(&lines);
            assert_eq!(best.len(), 1, "{name} {go}: {lines:?}");
            let pos = position_after(&moves.map(String::from));
            let mv: Move = best[0].parse().unwrap();
            assert!(pos.is_legal(mv), "{name} {go}: {mv} is illegal");
            // The final info line comes right before bestmove.
            let info = &lines[lines.len() - 2];
            assert!(info.starts_with("info depth "), "{info}");
            assert!(
                info.contains(" score cp ") && info.contains(" nodes "),
                "{info}"
            );
        }
    }
}

#[test]
fn a_short_game_from_a_position_string_with_alternating_engines() {
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..8 {
        let name = if ply % 4 == 1 { "greedy" } else { "random" };
        let input = format!(
            "position pos standard:w:0:- moves {}\ngo nodes 100\n",
            moves.join(" ")
        );
        let lines = script(engine(name), &input);
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{lines:?}");
        let pos = position_after(&moves);
        assert!(
            pos.is_legal(best[0].parse().unwrap()),
            "ply {ply}: {}",
            best[0]
        );
        moves.push(best[0].clone());
    }
}

#[test]
fn an_illegal_or_malformed_move_leaves_the_previous_position() {
    let lines = script(
        engine("random"),
        "position startpos moves C@B7/2\nd\n\
         position startpos moves C@B7/2 R@F2/0 C@B7/2\nd\n\
         position startpos moves C@B7/2 R@F2/0 xyz\nd\n\
         position pos standard:w:0:nonsense\nd\n\
         position pos\nposition\nposition fen x\nposition startpos C@B7/2\nd\n",
    );
    let positions: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert_eq!(positions.len(), 5, "{lines:?}");
    for p in positions {
        assert_eq!(p, "position standard:b:0:wC@B7/2");
    }
    let errs = errors(&lines);
    assert_eq!(errs.len(), 7, "{lines:?}");
    assert!(
        errs[0].contains("move 3: `C@B7/2` is illegal: B7 is occupied"),
        "{}",
        errs[0]
    );
    assert!(
        errs[1].contains("move 3: `xyz` is not a move"),
        "{}",
        errs[1]
    );
    assert!(errs[2].contains("invalid position string"), "{}", errs[2]);
    assert!(
        errs[3].contains("expected a position string"),
        "{}",
        errs[3]
    );
    assert!(
        errs[4].contains("expected `startpos` or `pos"),
        "{}",
        errs[4]
    );
    assert!(errs[5].contains("got `fen`"), "{}", errs[5]);
    assert!(errs[6].contains("expected `moves`"), "{}", errs[6]);
}

#[test]
fn setoption_reaches_the_engine_and_bad_ones_are_refused() {
    let mut live = Live::start(Box::new(Stepper::default()));
    for line in [
        "setoption name skill level value 7",
        "setoption name Own Book value TRUE",
        "setoption name Log File value /tmp/a b.log",
        "go depth 1",
    ] {
        live.send(line);
    }
    let info = live.expect("info", |l| l.starts_with("info depth "));
    assert!(info.contains(" score cp 7001 "), "{info}");
    live.expect("bestmove", |l| l.starts_with("bestmove "));
    for line in [
        "setoption name Skill Level value 11",
        "setoption name Skill Level value many",
        "setoption name Own Book value maybe",
        "setoption name Log File value a|b",
        "setoption name Hash value 16",
        "setoption name Skill Level",
        "setoption Skill Level value 3",
        "go depth 1",
    ] {
        live.send(line);
    }
    let info = live.expect("info", |l| l.starts_with("info depth "));
    assert!(info.contains(" score cp 7001 "), "nothing changed: {info}");
    live.expect("bestmove", |l| l.starts_with("bestmove "));
    let lines = live.finish(true);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 7, "{lines:?}");
    for (e, needle) in errs.iter().zip([
        "outside 0–10",
        "not a whole number",
        "not `true` or `false`",
        "no pipes",
        "unknown option `Hash`",
        "expected `setoption name <name> value <value>`",
        "expected `setoption name <name> value <value>`",
    ]) {
        assert!(e.contains(needle), "{e} lacks {needle}");
    }
    // The built-in engines have no options.
    let lines = script(engine("greedy"), "setoption name Threads value 2\n");
    assert_eq!(
        lines,
        ["info string error: setoption: unknown option `Threads`"]
    );
}

#[test]
fn malformed_go_is_answered_with_an_error_and_bestmove_none() {
    for go in [
        "go nodes",
        "go nodes x",
        "go depth 0",
        "go ponder",
        "go movetime -3",
        "go btime 100",
    ] {
        let lines = script(engine("greedy"), &format!("{go}\nisready\n"));
        assert_eq!(lines.len(), 3, "{go}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: go: "),
            "{go}: {lines:?}"
        );
        assert_eq!(lines[1..], ["bestmove none", "readyok"], "{go}");
    }
}

#[test]
fn go_on_a_finished_game_says_so_and_answers_bestmove_none() {
    // Public case 6: Black wins by connection with the last move.
    let moves = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 \
                 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1";
    let game = Game::replay(
        Position::new(Variant::Standard),
        &punct_core::parse_moves(moves).unwrap(),
    )
    .unwrap();
    assert_eq!(game.position().status(), Status::Won(Side::Black));
    let lines = script(
        engine("greedy"),
        &format!("position startpos moves {moves}\ngo depth 3\nlegal\nperft 1\n"),
    );
    assert_eq!(
        lines,
        [
            "info string error: go: the game is over (black has won)",
            "bestmove none",
            "",
            "0"
        ]
    );
    let drawn = script(engine("greedy"), "position pos standard:w:2:-\ngo\n");
    assert_eq!(
        drawn,
        [
            "info string error: go: the game is over (it is a draw)",
            "bestmove none"
        ]
    );
}

#[test]
fn unknown_commands_and_garbage_get_one_error_line_each() {
    let mut input = b"hello world\nGO\xff\xfe nodes 1\n\x00\x01\n".to_vec();
    input.extend_from_slice("ürgh\nisready\n".as_bytes());
    input.extend_from_slice(&[b'x'; 10_000]);
    input.extend_from_slice(b"\nisready");
    let out = Shared::default();
    run(Cursor::new(input), out.clone(), engine("random")).unwrap();
    let lines = out.lines();
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert_eq!(
        lines[0],
        "info string error: unknown command `hello` (commands: pei, isready, setoption, \
         newgame, position, go, stop, quit, legal, perft, d)"
    );
    assert!(lines[1].starts_with("info string error: unknown command `GO\u{fffd}\u{fffd}`"));
    assert!(
        lines[2].starts_with("info string error: unknown command `  `"),
        "control characters are blanked"
    );
    assert!(lines[3].starts_with("info string error: unknown command `ürgh`"));
    assert_eq!(lines[4], "readyok");
    assert!(lines[5].len() < 200, "long input is clipped in messages");
    assert_eq!(lines[6], "readyok", "the last line needs no newline");
}

#[test]
fn extra_arguments_are_reported_but_the_command_still_runs() {
    let lines = script(engine("random"), "isready now\npei please\n");
    assert_eq!(
        lines[0],
        "info string error: isready takes no arguments (ignored `now`)"
    );
    assert_eq!(lines[1], "readyok");
    assert_eq!(
        lines[2],
        "info string error: pei takes no arguments (ignored `please`)"
    );
    assert_eq!(lines.last().unwrap(), "peiok");
}

#[test]
fn legal_perft_and_d_describe_the_position() {
    let lines = script(
        engine("random"),
        "position startpos moves C@B7/2 R@F2/0\nlegal\nperft 1\nperft 0\nperft x\nperft\nd\n",
    );
    let pos = position_after(&["C@B7/2".into(), "R@F2/0".into()]);
    let mut legal: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    legal.sort();
    assert_eq!(lines[0], legal.join(" "));
    assert_eq!(legal.len(), 4651, "public case 1");
    assert_eq!(lines[1], "4651");
    assert_eq!(lines[2], "1");
    assert!(lines[3].contains("perft: the depth must be a whole number"));
    assert!(lines[4].contains("expected `perft <depth>`"));
    assert_eq!(
        lines[5..],
        [
            "position standard:w:0:wC@B7/2,bR@F2/0",
            "variant standard",
            "side white",
            "status ongoing",
            "passes 0",
            "pieces white 1 black 1",
            "reserve white T6 C1 E4 L2 M2 R2",
            "reserve black T6 C2 E4 L2 M2 R1",
            "visible white 3 black 3",
            "central white 0 black 0",
            "stacks 0 cells with 2 or more dots, highest 1",
            "legal 4651",
        ]
    );
}

#[test]
fn newgame_chooses_the_variant_for_startpos_and_tells_the_engine() {
    let lines = script(
        Box::new(Stepper::default()),
        "newgame basic\nposition startpos\nd\nnewgame chess\nd\nnewgame\nposition startpos\nd\n\
         newgame basic standard\ngo depth 1\n",
    );
    let variants: Vec<&String> = lines.iter().filter(|l| l.starts_with("variant ")).collect();
    assert_eq!(
        variants,
        ["variant basic", "variant basic", "variant standard"]
    );
    let errs = errors(&lines);
    assert_eq!(errs.len(), 2, "{lines:?}");
    assert!(errs[0].contains("`chess` is not a variant"));
    assert!(errs[1].contains("expected `newgame [standard|basic]`"));
    // Two games started: score = games * 10.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 1 score cp 20 ")),
        "{lines:?}"
    );
}

#[test]
fn go_infinite_then_stop_gives_exactly_one_bestmove() {
    for e in [
        engine("random"),
        engine("greedy"),
        Box::new(Stepper::default()),
    ] {
        let lines = script(e, "go infinite\nstop\nstop\nisready\n");
        assert_eq!(count(&lines, "bestmove "), 1, "{lines:?}");
        assert_eq!(
            lines.last().unwrap(),
            "readyok",
            "bestmove comes before readyok"
        );
        assert!(errors(&lines).is_empty(), "{lines:?}");
    }
}

#[test]
fn the_end_of_input_lets_a_finite_search_finish_and_stops_an_infinite_one() {
    let lines = script(Box::new(Stepper::default()), "go depth 5\n");
    assert_eq!(
        count(&lines, "info depth "),
        6,
        "five reports and the final one"
    );
    assert_eq!(count(&lines, "bestmove "), 1);
    let lines = script(Box::new(Stepper::default()), "go infinite\n");
    assert_eq!(count(&lines, "bestmove "), 1);
}

#[test]
fn a_live_search_keeps_answering_and_ends_on_stop() {
    let mut live = Live::start(Box::new(Stepper::default()));
    live.send("pei");
    live.expect_line("peiok");
    live.send("position startpos moves C@B7/2");
    live.send("go infinite");
    let searched = first_legal(&position_after(&["C@B7/2".into()])).to_string();
    let info = live.expect("an info line", |l| l.starts_with("info depth "));
    assert!(info.ends_with(&format!(" pv {searched}")), "{info}");
    live.send("isready");
    live.expect_line("readyok");
    live.send("go depth 1");
    live.expect("the second-go error", |l| {
        l.contains("a search is already running")
    });
    live.send("setoption name Skill Level value 1");
    live.expect("the busy error", |l| {
        l.contains("setoption: a search is running")
    });
    live.send("newgame");
    live.expect("the busy error", |l| {
        l.contains("newgame: a search is running")
    });
    // Debug commands and `position` work on the loop's own copy.
    live.send("position startpos moves C@A3/0");
    live.send("d");
    live.expect_line("position standard:b:0:wC@A3/0");
    assert_eq!(
        count(&live.out.lines(), "bestmove "),
        0,
        "no bestmove before stop"
    );
    live.send("stop");
    let best = live.expect("bestmove", |l| l.starts_with("bestmove "));
    assert_eq!(
        best,
        format!("bestmove {searched}"),
        "searched the position given before go"
    );
    // The position set during the search is the one searched next.
    live.send("go depth 2");
    let best = live.expect("bestmove", |l| l.starts_with("bestmove "));
    let next = first_legal(&position_after(&["C@A3/0".into()]));
    assert_eq!(best, format!("bestmove {next}"));
    assert_ne!(next.to_string(), searched);
    live.send("quit");
    let lines = live.finish(false);
    assert_eq!(count(&lines, "bestmove "), 2);
    assert_eq!(errors(&lines).len(), 3);
}

#[test]
fn quit_during_a_search_stops_it_and_returns() {
    let mut live = Live::start(Box::new(Stepper::default()));
    live.send("go infinite");
    live.expect("an info line", |l| l.starts_with("info depth "));
    live.send("quit");
    live.send("isready");
    let lines = live.finish(false);
    assert_eq!(count(&lines, "bestmove "), 1, "{lines:?}");
    assert_eq!(count(&lines, "readyok"), 0, "nothing is read after quit");
    // A long finite search is stopped by quit too.
    let started = Instant::now();
    let lines = script(Box::new(Stepper::default()), "go movetime 60000\nquit\n");
    assert_eq!(count(&lines, "bestmove "), 1);
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_movetime_search_ends_by_itself() {
    let mut live = Live::start(Box::new(Stepper::default()));
    let started = Instant::now();
    live.send("go movetime 100");
    live.expect("bestmove", |l| l.starts_with("bestmove "));
    assert!(started.elapsed() >= Duration::from_millis(100));
    live.send("stop");
    live.send("isready");
    live.expect_line("readyok");
    let lines = live.finish(true);
    assert_eq!(
        count(&lines, "bestmove "),
        1,
        "stop after bestmove prints nothing"
    );
}

#[test]
fn an_engine_that_lies_or_panics_still_yields_a_legal_bestmove() {
    // `stop` waits for the bestmove, so `readyok` comes after it.
    let lines = script(Box::new(Liar), "go depth 1\nstop\nisready\n");
    assert_eq!(
        lines,
        [
            "info string error: the engine chose `pass`, which is illegal here \
             (passing is allowed only when no other move is legal); playing `C@A3/0` instead",
            "bestmove C@A3/0",
            "readyok"
        ]
    );
    let lines = script(Box::new(Crasher), "go depth 1\nstop\nisready\ngo nodes 5\n");
    assert_eq!(count(&lines, "bestmove C@A3/0"), 2, "{lines:?}");
    assert!(lines[0].contains("the engine failed during the search (deliberate test panic)"));
    assert!(lines.contains(&"readyok".to_string()));
}

#[test]
fn multipv_reaches_the_engine_and_every_line_says_which_it_is() {
    let lines = script(
        Box::new(Lines { k: 1 }),
        "pei\nsetoption name multipv value 3\ngo depth 2\n",
    );
    assert!(
        lines.contains(&"option name MultiPV type spin default 1 min 1 max 8".to_string()),
        "{lines:?}"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    // Three lines per depth, then the final line (the best: multipv 1).
    assert_eq!(infos.len(), 7, "{lines:?}");
    let mut moves = Position::new(Variant::Standard).legal_moves();
    moves.sort_by_key(|m| m.to_string());
    for (n, line) in infos[..6].iter().enumerate() {
        let (depth, k) = (n / 3 + 1, n % 3 + 1);
        let want = format!(
            "info multipv {k} depth {depth} score cp -{} nodes {} nps ",
            10 * k,
            10 * depth
        );
        assert!(line.starts_with(&want), "{line} is not {want}…");
        assert!(line.ends_with(&format!(" pv {}", moves[k - 1])), "{line}");
        // What a client reads back is what the engine reported.
        let read = parse_info(line).unwrap();
        assert_eq!((read.multipv, read.depth), (k as u32, depth as u32));
        assert_eq!(read.score, Score::Eval(-10 * k as i32));
        assert_eq!(read.pv, vec![moves[k - 1]]);
    }
    assert!(
        infos[6].starts_with("info multipv 1 depth 2 score cp -10 "),
        "{}",
        infos[6]
    );
    assert_eq!(bestmoves(&lines), [moves[0].to_string()]);

    // One line (the default, or set back to 1): no `multipv` word at all,
    // as before multi-PV existed.
    for setup in ["", "setoption name MultiPV value 1\n"] {
        let lines = script(Box::new(Lines { k: 1 }), &format!("{setup}go depth 2\n"));
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
        assert_eq!(infos.len(), 3, "{lines:?}");
        assert!(
            infos.iter().all(|l| l.starts_with("info depth ")),
            "{lines:?}"
        );
    }
    // A refused value changes nothing.
    let lines = script(
        Box::new(Lines { k: 1 }),
        "setoption name MultiPV value 9\ngo depth 1\n",
    );
    assert!(errors(&lines)[0].contains("outside 1–8"), "{lines:?}");
    assert_eq!(count(&lines, "info depth 1 "), 2, "{lines:?}");
    // An engine that reports other lines unasked still says which they are.
    let lines = script(Box::new(Lines { k: 2 }), "go depth 1\n");
    assert_eq!(count(&lines, "info depth 1 "), 2, "{lines:?}");
    assert_eq!(count(&lines, "info multipv 2 depth 1 "), 1, "{lines:?}");
}

#[test]
fn the_strongest_level_reports_three_lines_when_asked() {
    // The real engine, through the protocol: `setoption name MultiPV`
    // reaches it and each finished depth gives lines 1, 2 and 3, each a
    // different legal first move, best first.
    let lines = script(
        engine("level4"),
        "setoption name MultiPV value 3\nposition startpos moves C@B7/2\ngo depth 2\n",
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let pos = position_after(&["C@B7/2".to_string()]);
    let legal = pos.legal_moves();
    let reports: Vec<Info> = lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .map(|l| parse_info(l).unwrap())
        .collect();
    let last_depth = reports.iter().map(|i| i.depth).max().unwrap();
    let mut last: Vec<&Info> = reports.iter().filter(|i| i.depth == last_depth).collect();
    last.sort_by_key(|i| i.multipv);
    last.dedup_by_key(|i| i.multipv);
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3],
        "{lines:?}"
    );
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts.iter().all(|m| legal.contains(m)), "{firsts:?}");
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    let value = |s: Score| match s {
        Score::Win(n) => 1_000_000 - n as i64,
        Score::Loss(n) => -1_000_000 + n as i64,
        Score::Eval(cp) => cp as i64,
    };
    assert!(
        value(last[0].score) >= value(last[1].score)
            && value(last[1].score) >= value(last[2].score),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines), [firsts[0].to_string()], "{lines:?}");
}

#[test]
fn info_lines_read_back_and_bad_ones_are_named() {
    let info = parse_info(
        "info multipv 2 depth 3 seldepth 9 score win 3 nodes 77 nps 1 time 12 pv C@B7/2 R@F2/0",
    )
    .unwrap();
    assert_eq!(info.multipv, 2);
    assert_eq!(info.depth, 3);
    assert_eq!(info.score, Score::Win(3));
    assert_eq!(info.nodes, 77);
    assert_eq!(info.elapsed, Duration::from_millis(12));
    assert_eq!(info.pv.len(), 2);
    // No multipv: the best line.
    let info = parse_info("info depth 1 score loss 2 nodes 5 nps 0 time 0").unwrap();
    assert_eq!((info.multipv, info.score), (1, Score::Loss(2)));
    assert!(info.pv.is_empty());
    for (line, needle) in [
        ("bestmove C@B7/2", "not an info line"),
        ("info string error: x", "a message"),
        ("info depth 1 nodes 5", "no score"),
        (
            "info depth x score cp 1",
            "depth needs a whole number, got `x`",
        ),
        ("info multipv 0 score cp 1", "multipv must be 1 or more"),
        ("info score mate 3", "unknown score kind `mate`"),
        ("info score cp", "needs a kind and a value"),
        ("info score cp many", "score cp needs a whole number"),
        (
            "info score cp 1 pv C@B7/2 nonsense",
            "pv: `nonsense` is not a move",
        ),
        ("info score cp 1 nodes", "`nodes` needs a value"),
    ] {
        let e = parse_info(line).unwrap_err();
        assert!(e.contains(needle), "{line}: {e}");
    }
}
