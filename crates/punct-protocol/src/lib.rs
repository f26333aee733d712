//! The PÜNCT engine protocol ("PEI", modelled on UCI): a line-based loop
//! that lets a GUI, a match runner or a person at a terminal drive any
//! [`punct_engine::Engine`]. The protocol itself is specified in
//! `docs/PROTOCOL.md`; this crate is its one implementation.
//!
//! [`run`] reads commands from any [`BufRead`] and writes replies to any
//! [`Write`]. Searches run on their own thread, so `isready` and `stop` are
//! answered while the engine thinks; every reply line is written whole and
//! flushed (the writer sits behind a mutex shared with the search thread).
//!
//! ```
//! use std::io::Cursor;
//! use std::sync::{Arc, Mutex};
//!
//! #[derive(Clone, Default)]
//! struct Shared(Arc<Mutex<Vec<u8>>>);
//! impl std::io::Write for Shared {
//!     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
//!         self.0.lock().unwrap().write(b)
//!     }
//!     fn flush(&mut self) -> std::io::Result<()> {
//!         Ok(())
//!     }
//! }
//!
//! let out = Shared::default();
//! let engine = punct_engine::new_engine("random", 1).unwrap();
//! let commands = "pei\nposition startpos moves C@B7/2\ngo nodes 100\nquit\n";
//! punct_protocol::run(Cursor::new(commands), out.clone(), engine).unwrap();
//! let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
//! assert!(text.starts_with("id name random\n"));
//! assert_eq!(text.lines().filter(|l| l.starts_with("bestmove ")).count(), 1);
//! ```

mod parse;

pub use parse::{format_info, parse_go, parse_info, MAX_MILLIS};

use parse::{clip, game_over_text, info_line, info_text, parse_position, parse_setoption, tokens};
use punct_core::{Cell, Kind, Move, Position, Side, Variant};
use punct_engine::{parse_spin, Engine, EngineOption, Limits};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The `id author` of every engine.
pub const AUTHOR: &str = "PÜNCT project";

/// The commands, for the unknown-command message.
const COMMANDS: &str =
    "pei, isready, setoption, newgame, position, go, stop, quit, legal, perft, d";

/// Stack of the search thread: engines may recurse deeply.
const SEARCH_STACK: usize = 64 << 20;

/// Speaks the protocol: reads commands from `input` until `quit` or the end
/// of input, answering on `output`, with `engine` doing the searching.
///
/// Bad input never ends the loop: it is answered with an
/// `info string error: …` line. At the end of input a running `go infinite`
/// is stopped and any other running search is allowed to finish; either way
/// its `bestmove` is written before `run` returns. `quit` stops a running
/// search at once (its `bestmove` is still written).
///
/// Errors are those of reading `input` and of writing `output` from the loop
/// itself (a search thread that cannot write gives up silently).
pub fn run(
    input: impl BufRead,
    output: impl Write + Send + 'static,
    engine: Box<dyn Engine>,
) -> io::Result<()> {
    let mut session = Session::new(Out::new(output), engine);
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => {
                session.end_of_input();
                return Ok(());
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        // Invalid UTF-8 becomes U+FFFD and then, at worst, an unknown command.
        let line = String::from_utf8_lossy(&buf);
        if session.handle(&line)? == Flow::Quit {
            return Ok(());
        }
    }
}

/// The shared writer: each call writes whole lines, flushing after each,
/// under one lock, so lines of the loop and of the search never interleave.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    fn lines_then<S: AsRef<str>>(&self, lines: &[S], before: impl FnOnce()) -> io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        before();
        for line in lines {
            w.write_all(line.as_ref().as_bytes())?;
            w.write_all(b"\n")?;
            w.flush()?;
        }
        Ok(())
    }

    fn lines<S: AsRef<str>>(&self, lines: &[S]) -> io::Result<()> {
        self.lines_then(lines, || {})
    }

    fn line(&self, line: &str) -> io::Result<()> {
        self.lines(&[line])
    }
}

/// `info string error: <message>`, on one line whatever the message holds.
fn error_line(message: &str) -> String {
    let flat: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("info string error: {flat}")
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A search in progress on its own thread.
struct Search {
    handle: JoinHandle<Box<dyn Engine>>,
    stop: Arc<AtomicBool>,
    /// Set (under the output lock) just before `bestmove` is written: from
    /// then on the thread only returns the engine, so joining is immediate.
    finished: Arc<AtomicBool>,
    /// Started with `infinite`: its bestmove waits for `stop`.
    infinite: bool,
}

struct Session {
    out: Out,
    /// `None` while a search holds it (or after a search thread died).
    engine: Option<Box<dyn Engine>>,
    search: Option<Search>,
    name: String,
    options: Vec<EngineOption>,
    variant: Variant,
    pos: Position,
    /// Lines the engine was asked to report (`setoption name MultiPV`,
    /// accepted by the engine); above 1 every `info` line says its
    /// `multipv`, the best line's too, so a client can tell them apart.
    multipv: u32,
}

impl Drop for Session {
    /// Never leave a search thread behind: stop it and wait for its bestmove.
    fn drop(&mut self) {
        self.stop_search();
    }
}

impl Session {
    fn new(out: Out, engine: Box<dyn Engine>) -> Session {
        Session {
            out,
            name: engine.name(),
            options: engine.options(),
            engine: Some(engine),
            search: None,
            variant: Variant::Standard,
            pos: Position::new(Variant::Standard),
            multipv: 1,
        }
    }

    fn error(&self, message: &str) -> io::Result<()> {
        self.out.line(&error_line(message))
    }

    /// Takes the engine back from a search that has written its bestmove.
    fn reclaim(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.finished.load(Ordering::SeqCst))
        {
            self.join_search();
        }
    }

    fn join_search(&mut self) {
        if let Some(search) = self.search.take() {
            // Err: the thread died outside the engine (it cannot write
            // `bestmove` then); the engine is lost and `go` will say so.
            self.engine = search.handle.join().ok();
        }
    }

    /// Stops a running search and waits for it (and so its bestmove).
    fn stop_search(&mut self) {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::SeqCst);
            search.handle.thread().unpark();
        }
        self.join_search();
    }

    fn end_of_input(&mut self) {
        // A finite search may finish; an infinite one would wait for ever.
        if self.search.as_ref().is_some_and(|s| s.infinite) {
            self.stop_search();
        } else {
            self.join_search();
        }
    }

    fn busy(&self, what: &str) -> io::Result<bool> {
        if self.search.is_some() {
            self.error(&format!(
                "{what}: a search is running; send `stop` and wait for `bestmove` first (ignored)"
            ))?;
            return Ok(true);
        }
        Ok(false)
    }

    fn no_arguments(&self, command: &str, args: &[(usize, &str)]) -> io::Result<()> {
        if let Some((_, word)) = args.first() {
            self.error(&format!(
                "{command} takes no arguments (ignored `{}`)",
                clip(word, 40)
            ))?;
        }
        Ok(())
    }

    fn handle(&mut self, line: &str) -> io::Result<Flow> {
        self.reclaim();
        let toks = tokens(line);
        let Some(&(_, first)) = toks.first() else {
            return Ok(Flow::Continue);
        };
        let args = &toks[1..];
        let words: Vec<&str> = args.iter().map(|(_, w)| *w).collect();
        match first.to_ascii_lowercase().as_str() {
            "pei" => {
                self.no_arguments("pei", args)?;
                // Asked afresh (an option may rename the engine); while a
                // search holds the engine, as last seen.
                if let Some(engine) = &self.engine {
                    self.name = engine.name();
                    self.options = engine.options();
                }
                let mut lines = vec![
                    format!("id name {}", self.name),
                    format!("id author {AUTHOR}"),
                ];
                lines.extend(self.options.iter().map(option_line));
                lines.push("peiok".into());
                self.out.lines(&lines)?;
            }
            "isready" => {
                self.no_arguments("isready", args)?;
                self.out.line("readyok")?;
            }
            "setoption" => self.setoption(line, args)?,
            "newgame" => self.newgame(&words)?,
            "position" => match parse_position(&words, self.variant) {
                Ok(pos) => self.pos = pos,
                Err(e) => self.error(&e)?,
            },
            "go" => self.go(&words)?,
            "stop" => {
                self.no_arguments("stop", args)?;
                self.stop_search();
            }
            "quit" => {
                self.stop_search();
                return Ok(Flow::Quit);
            }
            "legal" => {
                self.no_arguments("legal", args)?;
                let mut moves: Vec<String> =
                    self.pos.legal_moves().iter().map(Move::to_string).collect();
                moves.sort();
                self.out.line(&moves.join(" "))?;
            }
            "perft" => match words.as_slice() {
                [depth] => match depth.parse::<u32>() {
                    Ok(depth) => {
                        let n = self.pos.clone().perft(depth);
                        self.out.line(&n.to_string())?;
                    }
                    Err(_) => self.error(&format!(
                        "perft: the depth must be a whole number, got `{}`",
                        clip(depth, 40)
                    ))?,
                },
                _ => self.error("perft: expected `perft <depth>`")?,
            },
            "d" => {
                self.no_arguments("d", args)?;
                self.out.lines(&describe(&self.pos))?;
            }
            _ => self.error(&format!(
                "unknown command `{}` (commands: {COMMANDS})",
                clip(first, 40)
            ))?,
        }
        Ok(Flow::Continue)
    }

    fn setoption(&mut self, line: &str, args: &[(usize, &str)]) -> io::Result<()> {
        let (name, value) = match parse_setoption(line, args) {
            Ok(nv) => nv,
            Err(e) => return self.error(&e),
        };
        if self.busy("setoption")? {
            return Ok(());
        }
        let Some(engine) = self.engine.as_mut() else {
            return self.error("setoption: the engine failed earlier and is gone");
        };
        // Names match in any letter case; the engine sees its own spelling.
        let option = self
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(&name));
        let checked = match option {
            Some(o) if o.kind == "spin" => parse_spin(
                &o.name,
                &value,
                o.min.unwrap_or(i64::MIN),
                o.max.unwrap_or(i64::MAX),
            )
            .map(|v| (o.name.clone(), v.to_string())),
            Some(o) if o.kind == "check" => match value.to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => Ok((o.name.clone(), v.to_string())),
                _ => Err(format!(
                    "option {}: `{}` is not `true` or `false`",
                    o.name,
                    clip(&value, 40)
                )),
            },
            Some(o) => Ok((o.name.clone(), value)),
            None => Ok((name, value)),
        };
        let result = checked.and_then(|(name, value)| {
            engine.set_option(&name, &value)?;
            Ok((name, value))
        });
        match result {
            Ok((name, value)) => {
                if name.eq_ignore_ascii_case("MultiPV") {
                    // The engine took it, so it reads as a number of lines.
                    self.multipv = value.trim().parse().unwrap_or(1);
                }
                Ok(())
            }
            Err(e) => self.error(&format!("setoption: {e}")),
        }
    }

    fn newgame(&mut self, words: &[&str]) -> io::Result<()> {
        let variant = match words {
            [] => Variant::Standard,
            [v] => match v.parse::<Variant>() {
                Ok(v) => v,
                Err(e) => return self.error(&format!("newgame: {e}")),
            },
            _ => return self.error("newgame: expected `newgame [standard|basic]`"),
        };
        if self.busy("newgame")? {
            return Ok(());
        }
        if let Some(engine) = self.engine.as_mut() {
            engine.new_game();
        }
        self.variant = variant;
        self.pos = Position::new(variant);
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> io::Result<()> {
        if self.search.is_some() {
            return self.error(
                "go: a search is already running; this `go` is ignored (send `stop` first)",
            );
        }
        let refuse = |s: &Session, e: &str| s.out.lines(&[error_line(e), "bestmove none".into()]);
        let limits = match parse_go(words, self.pos.side_to_move()) {
            Ok(l) => l,
            Err(e) => return refuse(self, &e),
        };
        let status = self.pos.status();
        if status.is_over() {
            return refuse(self, &format!("go: {}", game_over_text(status)));
        }
        let Some(engine) = self.engine.take() else {
            return refuse(self, "go: the engine failed earlier and is gone");
        };
        let infinite = limits.infinite;
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let job = Job {
            pos: self.pos.clone(),
            limits,
            stop: stop.clone(),
            finished: finished.clone(),
            out: self.out.clone(),
            multipv: self.multipv > 1,
        };
        // The engine travels by channel so that it survives a failed spawn.
        let (send, receive) = mpsc::channel::<Box<dyn Engine>>();
        let spawned = thread::Builder::new()
            .name("punct-search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let engine = receive
                    .recv()
                    .expect("the engine is sent right after spawn");
                job.run(engine)
            });
        match spawned {
            Ok(handle) => {
                // The receiver lives until the thread has the engine.
                let _ = send.send(engine);
                self.search = Some(Search {
                    handle,
                    stop,
                    finished,
                    infinite,
                });
                Ok(())
            }
            Err(e) => {
                self.engine = Some(engine);
                refuse(self, &format!("go: cannot start the search thread: {e}"))
            }
        }
    }
}

/// `option name <n> type <kind> default <d> [min a max b]` (UCI form; an
/// empty default is written `<empty>`).
fn option_line(o: &EngineOption) -> String {
    let default = if o.default.is_empty() {
        "<empty>"
    } else {
        &o.default
    };
    let mut line = format!("option name {} type {} default {default}", o.name, o.kind);
    if let (Some(min), Some(max)) = (o.min, o.max) {
        line.push_str(&format!(" min {min} max {max}"));
    }
    line
}

/// The `d` reply: position string, then one `key value…` line per fact.
fn describe(pos: &Position) -> Vec<String> {
    let per_side =
        |f: &dyn Fn(Side) -> String| format!("white {} black {}", f(Side::White), f(Side::Black));
    let pieces = pos.pieces();
    let reserve = |side: Side| -> String {
        Kind::ALL
            .iter()
            .map(|&k| format!("{k}{}", pos.reserve(side, k)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let top = Cell::all().map(|c| pos.height(c)).max().unwrap_or(0);
    let covered = Cell::all().filter(|&c| pos.height(c) >= 2).count();
    vec![
        format!("position {}", pos.to_position_string()),
        format!("variant {}", pos.variant()),
        format!("side {}", pos.side_to_move()),
        format!("status {}", pos.status()),
        format!("passes {}", pos.passes()),
        format!(
            "pieces {}",
            per_side(&|s| pieces.iter().filter(|p| p.side == s).count().to_string())
        ),
        format!("reserve white {}", reserve(Side::White)),
        format!("reserve black {}", reserve(Side::Black)),
        format!(
            "visible {}",
            per_side(&|s| pos.visible(s).len().to_string())
        ),
        format!(
            "central {}",
            per_side(&|s| pos.central_count(s).to_string())
        ),
        format!("stacks {covered} cells with 2 or more dots, highest {top}"),
        format!("legal {}", pos.legal_moves().len()),
    ]
}

/// What a search thread needs besides the engine.
struct Job {
    pos: Position,
    limits: Limits,
    stop: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
    out: Out,
    /// Every `info` line says its `multipv` (more than one line asked).
    multipv: bool,
}

impl Job {
    /// Searches, then writes the final `info` line and exactly one
    /// `bestmove` (a legal move, whatever the engine did), and hands the
    /// engine back.
    fn run(self, mut engine: Box<dyn Engine>) -> Box<dyn Engine> {
        let start = Instant::now();
        let info_out = self.out.clone();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.search(&self.pos, &self.limits, &self.stop, &mut |info| {
                let _ = info_out.line(&info_text(info, self.multipv));
            })
        }));
        let elapsed = start.elapsed();
        if self.limits.infinite {
            // UCI: after `go infinite`, bestmove waits for `stop`.
            while !self.stop.load(Ordering::SeqCst) {
                thread::park_timeout(Duration::from_millis(100));
            }
        }
        let mut lines = Vec::new();
        let fallback = || {
            let mut moves: Vec<Move> = self.pos.legal_moves();
            moves.sort_by_key(|m| m.to_string());
            moves.first().copied().unwrap_or(Move::Pass)
        };
        let best = match outcome {
            Ok(result) => match self.pos.check_move(result.best) {
                Ok(()) => {
                    // The result is the best line: multipv 1.
                    lines.push(info_line(
                        self.multipv.then_some(1),
                        result.depth,
                        result.score,
                        result.nodes,
                        elapsed,
                        &result.pv,
                    ));
                    result.best
                }
                Err(e) => {
                    let instead = fallback();
                    lines.push(error_line(&format!(
                        "the engine chose `{}`, which is illegal here ({e}); playing `{instead}` instead",
                        result.best
                    )));
                    instead
                }
            },
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                let instead = fallback();
                lines.push(error_line(&format!(
                    "the engine failed during the search ({}); playing `{instead}` instead",
                    clip(&what, 200)
                )));
                instead
            }
        };
        lines.push(format!("bestmove {best}"));
        let _ = self
            .out
            .lines_then(&lines, || self.finished.store(true, Ordering::SeqCst));
        engine
    }
}

#[cfg(test)]
mod tests;
