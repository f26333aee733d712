//! `punct engine` driven as a subprocess through pipes, the way a GUI or a
//! match runner drives it (docs/PROTOCOL.md). Every read has a timeout, so a
//! broken engine fails a test instead of hanging it.

use punct_core::{Move, Position, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long any one reply may take (debug builds on a busy machine).
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `punct engine` with its stdout read line by line on a thread.
struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    log: Vec<String>,
}

impl EngineProcess {
    fn start(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_punct"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start punct engine");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            log: Vec::new(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line, or `None` if none comes within `wait`.
    fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.log.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "the engine closed its output; so far:\n{}",
                    self.log.join("\n")
                )
            }
        }
    }

    /// Reads until a line satisfies `want`; returns it and the lines before.
    fn expect(&mut self, what: &str, want: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let until = Instant::now() + PATIENCE;
        let mut before = Vec::new();
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) if want(&line) => return (line, before),
                Some(line) => before.push(line),
                None => panic!(
                    "no {what} within {PATIENCE:?}; so far:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    fn bestmove(&mut self) -> (String, Vec<String>) {
        let (line, before) = self.expect("bestmove", |l| l.starts_with("bestmove "));
        (line["bestmove ".len()..].to_string(), before)
    }

    /// `isready` → `readyok`, returning the lines that came before it.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.expect("readyok", |l| l == "readyok").1
    }

    /// Waits for the process to exit, within `wait`.
    fn exit_within(&mut self, wait: Duration) -> ExitStatus {
        let until = Instant::now() + wait;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < until,
                "the engine did not exit within {wait:?}"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Only a failing test gets here with the engine still running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn replay(moves: &[String]) -> Position {
    let mut pos = Position::new(Variant::Standard);
    for m in moves {
        pos.play(m.parse().unwrap()).unwrap();
    }
    pos
}

#[test]
fn handshake_names_the_engine_and_ends_with_peiok() {
    let mut e = EngineProcess::start(&["--engine", "random", "--seed", "5"]);
    e.send("pei");
    let (_, before) = e.expect("peiok", |l| l == "peiok");
    assert_eq!(before[..2], ["id name random", "id author PÜNCT project"]);
    assert!(
        before[2..].iter().all(|l| l.starts_with("option name ")),
        "{before:?}"
    );
    assert!(e.sync().is_empty());
    e.send("quit");
    assert!(e.exit_within(PATIENCE).success());
}

#[test]
fn without_a_choice_the_strongest_level_answers() {
    let mut e = EngineProcess::start(&[]);
    e.send("pei");
    let (_, before) = e.expect("peiok", |l| l == "peiok");
    assert_eq!(before[0], "id name punct level 4");
    for option in ["Level", "Threads", "MultiPV"] {
        assert!(
            before
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type spin"))),
            "{option}: {before:?}"
        );
    }
    e.send("setoption name MultiPV value 9");
    let refused = e.sync();
    assert!(
        refused.iter().any(|l| l.contains("MultiPV")),
        "an out-of-range MultiPV is refused: {refused:?}"
    );
    e.send("quit");
    assert!(e.exit_within(PATIENCE).success());
}

#[test]
fn a_short_game_between_two_engine_processes_is_all_legal_moves() {
    let mut white = EngineProcess::start(&["--engine", "greedy"]);
    let mut black = EngineProcess::start(&["--engine", "random", "--seed", "9"]);
    for e in [&mut white, &mut black] {
        e.send("pei");
        e.expect("peiok", |l| l == "peiok");
        e.send("newgame");
        assert!(e.sync().is_empty(), "newgame is silent");
    }
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..6 {
        let e = if ply % 2 == 0 { &mut white } else { &mut black };
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go nodes 2000");
        let (best, before) = e.bestmove();
        assert!(
            before.iter().all(|l| l.starts_with("info depth ")),
            "ply {ply}: {before:?}"
        );
        let mv: Move = best.parse().unwrap_or_else(|e| panic!("ply {ply}: {e}"));
        let pos = replay(&moves);
        if let Err(why) = pos.check_move(mv) {
            panic!("ply {ply}: {mv} is illegal: {why}");
        }
        moves.push(best);
    }
    for e in [&mut white, &mut black] {
        e.send("quit");
        assert!(e.exit_within(PATIENCE).success());
    }
}

#[test]
fn a_random_engine_plays_a_whole_game_then_answers_bestmove_none() {
    let mut e = EngineProcess::start(&["--engine", "random", "--seed", "1"]);
    let mut moves: Vec<String> = Vec::new();
    let mut pos = Position::new(Variant::Standard);
    while !pos.status().is_over() {
        assert!(moves.len() < 2000, "the game does not end");
        e.send(&format!(
            "position pos standard:w:0:- moves {}",
            moves.join(" ")
        ));
        e.send("go depth 1");
        let (best, _) = e.bestmove();
        let mv: Move = best.parse().unwrap();
        pos.play(mv)
            .unwrap_or_else(|why| panic!("ply {}: {mv}: {why}", moves.len() + 1));
        moves.push(best);
    }
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go movetime 100");
    let (best, before) = e.bestmove();
    assert_eq!(best, "none");
    assert_eq!(
        before,
        [format!(
            "info string error: go: the game is over ({})",
            match pos.status() {
                punct_core::Status::Won(side) => format!("{side} has won"),
                _ => "it is a draw".to_string(),
            }
        )]
    );
    e.send("legal");
    assert_eq!(e.next_line(PATIENCE).as_deref(), Some(""));
}

#[test]
fn go_infinite_waits_for_stop_and_gives_exactly_one_bestmove() {
    let mut e = EngineProcess::start(&["--engine", "random"]);
    e.send("position startpos moves C@B7/2");
    e.send("go infinite");
    // Nothing but info lines until stop, even though `random` is instant.
    thread::sleep(Duration::from_millis(300));
    let before = e.sync();
    assert!(
        before.iter().all(|l| l.starts_with("info ")),
        "readyok while searching, no bestmove yet: {before:?}"
    );
    e.send("go depth 1");
    e.expect("the second-go error", |l| {
        l.starts_with("info string error: go: a search is already running")
    });
    e.send("stop");
    let (best, _) = e.bestmove();
    let mv: Move = best.parse().unwrap();
    assert!(replay(&["C@B7/2".into()]).is_legal(mv), "{mv}");
    e.send("stop");
    let after = e.sync();
    assert!(after.is_empty(), "one bestmove only: {after:?}");
    e.send("quit");
    assert!(e.exit_within(PATIENCE).success());
}

#[test]
fn garbage_input_never_kills_the_engine() {
    let mut e = EngineProcess::start(&["--engine", "random"]);
    e.send_bytes(b"\xff\xfe\xfd garbage\n\0\0\0\n\r\n\n   \t \n");
    e.send_bytes(&vec![b'z'; 100_000]);
    e.send_bytes(b"\nposition pos standard:w:0:wZ@Z99/9\nposition startpos moves pass\r\n");
    e.send_bytes("go nodes -1\nsetoption\nsetoption name ÜÜÜ value 1\nperft x\n".as_bytes());
    e.send_bytes(b"go wtime\ngo infinite infinite\nstop\nnewgame chess\nd d d\n");
    let before = e.sync();
    assert!(
        before.iter().any(|l| l == "bestmove none"),
        "malformed go answered: {before:?}"
    );
    assert_eq!(
        before.iter().filter(|l| l.starts_with("bestmove ")).count(),
        3,
        "two malformed go and one infinite: {before:?}"
    );
    assert!(before
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .all(|l| l.len() < 400));
    assert!(e.child.try_wait().unwrap().is_none(), "still running");
    // And it still plays.
    e.send("position startpos");
    e.send("go nodes 10");
    let (best, _) = e.bestmove();
    assert!(Position::new(Variant::Standard).is_legal(best.parse().unwrap()));
    // End of input ends it too, with success.
    e.stdin = None;
    assert!(e.exit_within(PATIENCE).success());
}

#[test]
fn quit_during_a_search_exits_zero_promptly() {
    let mut e = EngineProcess::start(&["--engine", "greedy"]);
    e.send("go infinite");
    e.sync();
    let asked = Instant::now();
    e.send("quit");
    let (best, _) = e.bestmove();
    assert!(Position::new(Variant::Standard).is_legal(best.parse().unwrap()));
    let status = e.exit_within(Duration::from_secs(10));
    assert!(status.success(), "{status}");
    assert!(asked.elapsed() < Duration::from_secs(10));
}

#[test]
fn an_unknown_engine_is_refused_with_exit_code_2() {
    let o = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["engine", "--engine", "nonesuch"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("unknown engine `nonesuch`"), "{err}");
    assert!(err.contains("random") && err.contains("greedy"), "{err}");
    assert!(o.stdout.is_empty());
}
