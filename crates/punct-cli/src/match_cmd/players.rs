//! The two kinds of match player: a built-in engine (`punct_engine`) run
//! in this process, and an external program spoken to over the engine
//! protocol (docs/PROTOCOL.md) on its standard input and output.

use punct_core::{Game, Move, Position, Variant};
use punct_engine::{Engine, Limits};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long an external engine may take to start (`pei` → `peiok`) and to
/// answer `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Lines of an external engine's standard error kept for crash reports.
const STDERR_LINES: usize = 5;

/// Which engine a player is: `--engine1`/`--engine2` text, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A built-in engine name (see `punct engines`).
    Builtin(String),
    /// `cmd:<program> <args…>`: the command line split on whitespace.
    External(Vec<String>),
}

impl Spec {
    pub fn parse(flag: &str, text: &str) -> Result<Spec, String> {
        let text = text.trim();
        if let Some(rest) = text.strip_prefix("cmd:") {
            let argv: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
            if argv.is_empty() {
                return Err(format!(
                    "{flag}: `cmd:` needs a command line, e.g. `cmd:./my-engine --hash 64`"
                ));
            }
            return Ok(Spec::External(argv));
        }
        punct_engine::new_engine(text, 0)
            .map_err(|e| format!("{flag}: {e}, or `cmd:<command line>` for an external engine"))?;
        Ok(Spec::Builtin(text.to_string()))
    }
}

/// Why a player lost a game without the rules ending it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No move (or handshake answer) within the allowed time.
    Timeout(String),
    /// The process ended, a pipe broke or a built-in engine panicked.
    Crash(String),
    /// A reply that does not follow the protocol.
    Malformed(String),
}

/// A move request: the search limits to pass on, and the hard limit after
/// which the player has lost on time.
pub struct Request {
    pub limits: Limits,
    pub hard_limit: Duration,
}

/// A match player. `go` returns the move and the time it took.
pub trait Contestant {
    fn new_game(&mut self, variant: Variant) -> Result<(), Fault>;
    fn go(&mut self, game: &Game, request: &Request) -> Result<(Move, Duration), Fault>;
}

/// A built-in engine. A watchdog sets the stop flag at the hard limit, so
/// an engine that ignores its limits is still stopped (and loses on time).
pub struct Builtin {
    pub engine: Box<dyn Engine>,
}

/// Creates a built-in engine and applies the options.
pub fn builtin(name: &str, seed: u64, options: &[(String, String)]) -> Result<Builtin, String> {
    let mut engine = punct_engine::new_engine(name, seed)?;
    for (n, v) in options {
        engine
            .set_option(n, v)
            .map_err(|e| format!("engine `{name}`, option {n}={v}: {e}"))?;
    }
    Ok(Builtin { engine })
}

impl Contestant for Builtin {
    fn new_game(&mut self, _variant: Variant) -> Result<(), Fault> {
        let engine = &mut self.engine;
        catch_unwind(AssertUnwindSafe(|| engine.new_game()))
            .map_err(|p| Fault::Crash(format!("the engine panicked: {}", panic_text(&p))))
    }

    fn go(&mut self, game: &Game, request: &Request) -> Result<(Move, Duration), Fault> {
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let engine = &mut self.engine;
        let pos = game.position();
        let result = thread::scope(|scope| {
            let (done, wait) = mpsc::channel::<()>();
            let stop = &stop;
            let hard = request.hard_limit;
            scope.spawn(move || {
                if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(hard) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            let r = catch_unwind(AssertUnwindSafe(|| {
                engine.search(pos, &request.limits, stop, &mut |_| {})
            }));
            drop(done);
            r
        });
        let elapsed = start.elapsed();
        match result {
            Ok(r) => Ok((r.best, elapsed)),
            Err(p) => Err(Fault::Crash(format!(
                "the engine panicked: {}",
                panic_text(&p)
            ))),
        }
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

/// An engine process spoken to over the protocol.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// `id name`, or the program's file name.
    pub name: String,
    /// Options the engine announced (`option name …`).
    pub options: Vec<String>,
}

impl External {
    /// Starts the program, does the handshake and sends the options.
    /// Errors: `Err(Ok(msg))` the program cannot be started at all (a bad
    /// argument), `Err(Err(fault))` it started but misbehaved.
    pub fn start(argv: &[String], options: &[(String, String)]) -> Result<External, StartError> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| StartError::Spawn(format!("cannot start `{}`: {e}", argv.join(" "))))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let program = std::path::Path::new(&argv[0])
            .file_name()
            .map_or_else(|| argv[0].clone(), |n| n.to_string_lossy().into_owned());
        let mut engine = External {
            child,
            stdin,
            lines,
            stderr_tail,
            name: program,
            options: Vec::new(),
        };
        engine.handshake(options)?;
        Ok(engine)
    }

    fn handshake(&mut self, options: &[(String, String)]) -> Result<(), StartError> {
        self.pei()?;
        for (n, v) in options {
            self.send(&format!("setoption name {n} value {v}"))?;
        }
        let errors = self.ready()?;
        if !errors.is_empty() {
            return Err(StartError::Options(format!(
                "`{}` refused the options: {}",
                self.name,
                errors.join(" | ")
            )));
        }
        if !options.is_empty() {
            // An option (such as a level) may change the engine's name.
            self.pei()?;
        }
        Ok(())
    }

    /// `pei` → `id …`, `option …` lines, `peiok`: learns the name and options.
    fn pei(&mut self) -> Result<(), Fault> {
        self.send("pei")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.options.clear();
        loop {
            let line = self.next_line(deadline, "peiok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("peiok"), None) => return Ok(()),
                (Some("id"), Some("name")) => {
                    // The first two words are `id` and `name`: the rest is the name.
                    let name = line.trim_start()[2..].trim_start()[4..].trim();
                    if !name.is_empty() {
                        self.name = name.to_string();
                    }
                }
                (Some("option"), Some("name")) => {
                    let rest: Vec<&str> = words.collect();
                    let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
                    self.options.push(rest[..end].join(" "));
                }
                _ => {}
            }
        }
    }

    /// `isready` → `readyok`; returns the error lines (`info string error:
    /// …`) that came before it.
    fn ready(&mut self) -> Result<Vec<String>, Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut errors = Vec::new();
        loop {
            let line = self.next_line(deadline, "readyok")?;
            if line.trim() == "readyok" {
                return Ok(errors);
            }
            if let Some(e) = error_text(&line) {
                errors.push(e);
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.crashed(&format!("cannot write to it ({e})")))
    }

    /// The next line before `deadline`; `waiting_for` names what for.
    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout(format!(
                "no `{waiting_for}` within {} s",
                HANDSHAKE_TIMEOUT.as_secs()
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed("its output ended (end of file)"))
            }
        }
    }

    /// A crash fault with the exit status and the end of standard error.
    fn crashed(&mut self, what: &str) -> Fault {
        // Give the process a moment to finish exiting, for its status.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let mut text = what.to_string();
        if let Some(s) = status {
            text.push_str(&format!("; it exited with {s}"));
        }
        // The stderr reader may still be catching up.
        thread::sleep(Duration::from_millis(10));
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        if !tail.is_empty() {
            let joined: Vec<&str> = tail.iter().map(String::as_str).collect();
            text.push_str(&format!("; its last stderr: {}", joined.join(" | ")));
        }
        Fault::Crash(text)
    }
}

/// The message of an `info string error: …` line.
fn error_text(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("info")?.trim_start();
    let rest = rest.strip_prefix("string")?.trim_start();
    rest.strip_prefix("error:").map(|m| m.trim().to_string())
}

/// Why an external engine could not be started.
pub enum StartError {
    /// The program could not be run (not found, not executable).
    Spawn(String),
    /// It ran but failed the handshake.
    Fault(Fault),
    /// It refused an option (`info string error: setoption: …`).
    Options(String),
}

impl From<Fault> for StartError {
    fn from(f: Fault) -> StartError {
        StartError::Fault(f)
    }
}

/// The `position` command for a game: `position startpos moves …` from the
/// variant's start, else `position pos <string> moves …`.
pub fn position_command(game: &Game) -> String {
    let start = game.start();
    let mut cmd = if *start == Position::new(start.variant()) {
        "position startpos".to_string()
    } else {
        format!("position pos {}", start.to_position_string())
    };
    if !game.is_empty() {
        cmd.push_str(" moves");
        for m in game.moves() {
            cmd.push(' ');
            cmd.push_str(&m.to_string());
        }
    }
    cmd
}

/// The `go` command for some limits.
pub fn go_command(limits: &Limits) -> String {
    let mut cmd = "go".to_string();
    if let Some(t) = limits.movetime {
        cmd.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(n) = limits.nodes {
        cmd.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = limits.depth {
        cmd.push_str(&format!(" depth {d}"));
    }
    if let Some(c) = limits.clock {
        cmd.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            c.wtime.as_millis(),
            c.btime.as_millis(),
            c.winc.as_millis(),
            c.binc.as_millis()
        ));
    }
    cmd
}

impl Contestant for External {
    fn new_game(&mut self, variant: Variant) -> Result<(), Fault> {
        self.send(&format!("newgame {variant}"))?;
        let errors = self.ready()?;
        if !errors.is_empty() {
            return Err(Fault::Malformed(format!(
                "it refused `newgame {variant}`: {}",
                errors.join(" | ")
            )));
        }
        Ok(())
    }

    fn go(&mut self, game: &Game, request: &Request) -> Result<(Move, Duration), Fault> {
        self.send(&position_command(game))?;
        let start = Instant::now();
        self.send(&go_command(&request.limits))?;
        let deadline = start + request.hard_limit;
        let mut errors: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.send("stop");
                    return Err(Fault::Timeout(format!(
                        "no bestmove within {} ms",
                        request.hard_limit.as_millis()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed("its output ended (end of file) during the search"))
                }
            };
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                // `info` and anything unknown are ignored; errors are kept
                // to explain a refusal.
                errors.extend(error_text(&line));
                continue;
            }
            let elapsed = start.elapsed();
            let after = if errors.is_empty() {
                String::new()
            } else {
                format!(" after `info string error: {}`", errors.join(" | "))
            };
            let line = line.trim();
            let Some(token) = words.next() else {
                return Err(Fault::Malformed(format!("`{line}` names no move{after}")));
            };
            return match token.parse::<Move>() {
                Ok(mv) => Ok((mv, elapsed)),
                Err(e) => Err(Fault::Malformed(format!("`{line}`: {e}{after}"))),
            };
        }
    }
}

impl Drop for External {
    /// `quit`, a short wait, then kill: never leave a process behind.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        for _ in 0..40 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_engine::Clock;

    #[test]
    fn specs_are_read_and_checked() {
        assert_eq!(
            Spec::parse("--engine1", "random").unwrap(),
            Spec::Builtin("random".into())
        );
        assert_eq!(
            Spec::parse("--engine1", "cmd:python3  fake.py -v").unwrap(),
            Spec::External(vec!["python3".into(), "fake.py".into(), "-v".into()])
        );
        assert!(Spec::parse("--engine2", "cmd: ")
            .unwrap_err()
            .contains("--engine2"));
        assert!(Spec::parse("--engine1", "nosuch")
            .unwrap_err()
            .contains("unknown engine"));
    }

    #[test]
    fn error_lines_are_recognised() {
        assert_eq!(
            error_text("info string error: go: `nodes` needs a value").as_deref(),
            Some("go: `nodes` needs a value")
        );
        assert_eq!(error_text("info depth 1 score cp 0"), None);
        assert_eq!(error_text("bestmove none"), None);
    }

    #[test]
    fn protocol_commands() {
        let mut game = Game::new(Variant::Basic);
        assert_eq!(position_command(&game), "position startpos");
        game.play("C@B7/2".parse().unwrap()).unwrap();
        game.play("R@F2/0".parse().unwrap()).unwrap();
        assert_eq!(
            position_command(&game),
            "position startpos moves C@B7/2 R@F2/0"
        );
        let set_up =
            Game::from_position(Position::from_position_string("standard:b:0:wC@B7/2").unwrap());
        assert_eq!(
            position_command(&set_up),
            "position pos standard:b:0:wC@B7/2"
        );
        assert_eq!(go_command(&Limits::movetime(100)), "go movetime 100");
        assert_eq!(go_command(&Limits::nodes(5)), "go nodes 5");
        let clock = Limits {
            clock: Some(Clock {
                wtime: Duration::from_secs(10),
                btime: Duration::from_millis(9500),
                winc: Duration::from_millis(100),
                binc: Duration::from_millis(100),
            }),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&clock),
            "go wtime 10000 btime 9500 winc 100 binc 100"
        );
    }
}
