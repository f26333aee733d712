//! `punct play`: a game at the terminal, between two people or against a
//! built-in opponent.
//!
//! At a terminal the commands are read with line editing, history (kept in
//! the data directory) and Tab completion of commands and legal moves; from
//! a pipe they are read line by line and echoed after the prompt. The record
//! is written after every move (to `--record FILE`, else to
//! `<data dir>/records/<date>-<time>.pgn`), and once more with a word on
//! where when the game ends, on `quit`, at the end of the input, on Ctrl-C
//! and when the process is told to stop (SIGTERM, SIGHUP).

use crate::{bad_input, date, failed, render, ColourArg, Failure, PositionArgs};
use clap::{Args, ValueEnum};
use punct_core::{move_number, Cell, Game, Move, Outcome, Record, Side, Status, Variant};
use punct_engine::{new_engine, Engine, Limits, Score};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::{DefaultHistory, History};
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// `println!` that does not panic when standard output is gone.
macro_rules! say {
    () => {{ writeln!(std::io::stdout()).ok(); }};
    ($($t:tt)*) => {{ writeln!(std::io::stdout(), $($t)*).ok(); }};
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    White,
    Black,
}

/// Which drawing of the board `punct play` shows.
#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
pub enum BoardArg {
    /// The full board when the terminal has room for it (96×38), else compact
    Auto,
    /// Half the height of the full board, drawn the same way up: fits an
    /// 80×24 terminal
    Compact,
    /// Two lines per cell, as `punct show` draws it (96×38)
    Full,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Go on with the game of this record file (e.g. one `punct play` saved;
    /// the record of the continued game is a new file)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves", "variant"])]
    from: Option<PathBuf>,
    /// Who plays the other side: `human` (two people at this terminal) or an
    /// engine from `punct engines` (level1…level4, greedy, random, …); a bare
    /// number means that level
    #[arg(long, visible_alias = "ai", default_value = "level3")]
    opponent: String,
    /// Thinking time of the engine (and of `hint`) per move, in milliseconds
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    think: u64,
    /// Your side against a built-in opponent
    #[arg(long, value_enum, default_value_t = SideArg::White)]
    color: SideArg,
    /// Seed for the opponent's random choices
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where to save the game record, after every move [default: DATA_DIR/records/<date>-<time>.pgn]
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Where records and the input history are kept, as for `punct serve` [default: $XDG_DATA_HOME/punct or ~/.local/share/punct]
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// The board drawing (the `board` command changes it during the game)
    #[arg(long, value_enum, default_value_t = BoardArg::Auto)]
    board: BoardArg,
    #[command(flatten)]
    colour: ColourArg,
}

const HELP: &str = "\
Moves:  E@C5/2    add an E piece with its PÜNCT on C5, rotation 2
        G5-G9/4   move the piece whose PÜNCT is on G5 to G9, rotation 4
        pass      only when nothing else is legal
Commands:
  moves [CELL]    the legal moves (all, or those adding on / moving from CELL)
  hint            the strongest level's move and who is ahead
  undo            take back your last move
  show            draw the board again
  board [compact|full|auto]   choose the drawing of the board
  save [FILE]     save the record now (it is also saved after every move)
  resign          give up the game (asks first; a resignation is final)
  new             a new game, once this one is over (same players, a new record)
  help            this text
  quit            save the record and leave (Ctrl-C and Ctrl-D do the same)
Tab completes commands and moves; the up and down arrows recall lines.
Board: columns run straight up under their letters, row 1 at the bottom, and
a row runs down to the right between its two numbers (on the compact board a
line down every two columns). W/B the colour on top, its height from 2 up,
* a PÜNCT on top (full board: W2* always with the height); [ ] the central
hexagon.";

/// The record file and its latest text, shared with the signal watcher.
struct Keeper {
    path: PathBuf,
    /// The record as last kept; `None` while nothing has been played.
    text: Option<String>,
    /// Writing it failed last time (said once, until it works again).
    failing: bool,
    /// The game in it is over.
    finished: bool,
}

impl Keeper {
    /// Writes the kept text (if any), making the folder if need be.
    fn write(&self) -> Result<bool, String> {
        let Some(text) = &self.text else {
            return Ok(false);
        };
        let cannot = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(cannot)?;
        }
        std::fs::write(&self.path, text).map_err(cannot)?;
        Ok(true)
    }

    /// Writes the kept text and says where, with `how` before it (`""`, or
    /// `"Interrupted. "`), and how to go on with an unfinished game; says
    /// when nothing was played; shows the record when it cannot be written.
    fn save_and_say(&self, how: &str) {
        match self.write() {
            Ok(true) => {
                say!("{how}Record saved to {}", self.path.display());
                if !self.finished {
                    say!("Go on with it: punct play --from {}", self.path.display());
                }
            }
            Ok(false) => say!("{how}Nothing was played: no record saved."),
            Err(e) => {
                // Never lose the game: show it when it cannot be written.
                eprintln!("punct: {e}; here is the record:");
                say!("{}", self.text.as_deref().unwrap_or_default());
            }
        }
    }
}

fn lock(keeper: &Mutex<Keeper>) -> MutexGuard<'_, Keeper> {
    keeper.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh record name in `<data dir>/records`: the date and time, with
/// `-2`, `-3`, … when two games start in the same second.
fn new_record_path(data_dir: &Path) -> PathBuf {
    let dir = data_dir.join("records");
    let stamp = date::stamp();
    let mut path = dir.join(format!("{stamp}.pgn"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stamp}-{n}.pgn"));
        n += 1;
    }
    path
}

/// The terminal's size in columns and lines: the terminal's own word, else
/// the `COLUMNS` and `LINES` variables.
fn terminal_size() -> Option<(usize, usize)> {
    if let Some((lines, columns)) = console::Term::stdout().size_checked() {
        return Some((columns.into(), lines.into()));
    }
    let get = |name: &str| {
        std::env::var(name)
            .ok()?
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
    };
    Some((get("COLUMNS")?, get("LINES")?))
}

/// Whether the full board (and the status lines and prompt under it) fits.
fn full_board_fits() -> bool {
    matches!(terminal_size(), Some((columns, lines)) if columns >= 96 && lines >= 38)
}

fn cap(side: Side) -> &'static str {
    render::side_word(side)
}

/// The engine's score (for the side to move) in words, as the web page's
/// analysis says it: who is how many cells ahead in the connection race.
fn score_words(score: Score, to_move: Side) -> String {
    let forced = |winner: Side, plies: u32| {
        let unit = if plies == 1 { "ply" } else { "plies" };
        format!("{} wins by force (within {plies} {unit}).", cap(winner))
    };
    match score {
        Score::Win(n) => forced(to_move, n),
        Score::Loss(n) => forced(to_move.opponent(), n),
        Score::Eval(v) => {
            let white = f64::from(if to_move == Side::White { v } else { -v }) / 100.0;
            if white.abs() < 0.25 {
                "About even in the connection race.".to_string()
            } else {
                let ahead = if white > 0.0 {
                    Side::White
                } else {
                    Side::Black
                };
                format!(
                    "{} is about {:.1} cells ahead in the connection race.",
                    cap(ahead),
                    white.abs()
                )
            }
        }
    }
}

/// How the game ended, in words: a line or two of at most 80 characters.
/// Empty while it goes on.
fn end_words(game: &Game, resigned: Option<Side>) -> Vec<String> {
    let pos = game.position();
    if let Some(loser) = resigned {
        return vec![format!(
            "{} resigns: {} wins.",
            cap(loser),
            cap(loser.opponent())
        )];
    }
    let counts = format!(
        "White {}, Black {}",
        pos.central_count(Side::White),
        pos.central_count(Side::Black)
    );
    // Who made the last move, and whether it was a pass.
    let last = game.moves().last().map(|mv| {
        (
            move_number(game.start().side_to_move(), game.len() - 1).1,
            mv,
        )
    });
    let nobody = match last {
        Some((_, Move::Pass)) => "Nobody connected before both players passed.".to_string(),
        Some((side, _)) => format!(
            "Nobody connected before {} placed their last reserve piece.",
            cap(side)
        ),
        None => "Nobody connected.".to_string(),
    };
    match pos.status() {
        Status::Ongoing => Vec::new(),
        Status::Won(winner) => match pos.connection(winner) {
            Some(c) => {
                let mut words = vec![format!(
                    "{} wins: connected {} and {}.",
                    cap(winner),
                    c.sides.0.name(),
                    c.sides.1.name()
                )];
                let loser = winner.opponent();
                if pos.is_connected(loser) {
                    words.push(format!(
                        "{} was connected too, but the player who made the move wins.",
                        cap(loser)
                    ));
                } else if matches!(last, Some((mover, _)) if mover == loser) {
                    words.push(format!("{}'s own move completed the chain.", cap(loser)));
                }
                words
            }
            None => vec![
                format!("{} wins on the central count: {counts}.", cap(winner)),
                nobody,
            ],
        },
        Status::Draw if pos.variant() == Variant::Basic => vec![
            "A draw: in the basic game the central count does not decide.".to_string(),
            nobody,
        ],
        Status::Draw => vec![
            format!("A draw: the central count is tied, {counts}."),
            nobody,
        ],
    }
}

/// Tab completion: commands, the arguments of `board`, legal moves.
struct Completion {
    moves: Vec<String>,
}

const COMMANDS: [&str; 10] = [
    "board", "help", "hint", "moves", "new", "quit", "resign", "save", "show", "undo",
];

impl Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let earlier = before[..start].trim();
        let lower = word.to_ascii_lowercase();
        let found: Vec<String> = if earlier.is_empty() {
            let upper = word.to_ascii_uppercase();
            let commands = COMMANDS.iter().filter(|c| c.starts_with(&lower));
            let moves = self
                .moves
                .iter()
                .filter(|m| !word.is_empty() && m.to_ascii_uppercase().starts_with(&upper));
            commands
                .map(|c| c.to_string())
                .chain(moves.cloned())
                .collect()
        } else if earlier.eq_ignore_ascii_case("board") {
            ["auto", "compact", "full"]
                .iter()
                .filter(|c| c.starts_with(&lower))
                .map(|c| c.to_string())
                .collect()
        } else {
            Vec::new()
        };
        Ok((start, found))
    }
}

impl Hinter for Completion {
    type Hint = String;
}
impl Highlighter for Completion {}
impl Validator for Completion {}
impl Helper for Completion {}

/// What one read of a line gave.
enum Read {
    Line(String),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// Ctrl-D or the end of the input.
    End,
}

/// Where the commands come from: a terminal (with line editing) or a pipe.
enum Input {
    Terminal {
        editor: Box<Editor<Completion, DefaultHistory>>,
        history: PathBuf,
    },
    Plain,
}

impl Input {
    fn new(data_dir: &Path) -> Input {
        if !std::io::stdin().is_terminal() {
            return Input::Plain;
        }
        let config = Config::builder()
            .completion_type(CompletionType::List)
            .auto_add_history(false)
            .history_ignore_dups(true)
            .and_then(|b| b.max_history_size(1000))
            .map(|b| b.build())
            .unwrap_or_default();
        let Ok(mut editor) = Editor::<Completion, DefaultHistory>::with_config(config) else {
            return Input::Plain;
        };
        editor.set_helper(Some(Completion { moves: Vec::new() }));
        let history = data_dir.join("play-history.txt");
        // A missing or unreadable history is no reason not to play.
        editor.load_history(&history).ok();
        Input::Terminal {
            editor: Box::new(editor),
            history,
        }
    }

    /// The legal moves that Tab offers.
    fn offer(&mut self, moves: Vec<String>) {
        if let Input::Terminal { editor, .. } = self {
            if let Some(h) = editor.helper_mut() {
                h.moves = moves;
            }
        }
    }

    fn read(&mut self, prompt: &str, remember: bool) -> Result<Read, Failure> {
        match self {
            Input::Terminal { editor, .. } => match editor.readline(prompt) {
                Ok(line) => {
                    if remember && !line.trim().is_empty() {
                        editor.add_history_entry(line.as_str()).ok();
                    }
                    Ok(Read::Line(line))
                }
                Err(ReadlineError::Interrupted) => Ok(Read::Interrupted),
                Err(ReadlineError::Eof) => Ok(Read::End),
                Err(e) => Err(failed(format!("cannot read the terminal: {e}"))),
            },
            Input::Plain => {
                let mut out = std::io::stdout();
                write!(out, "{prompt}").ok();
                out.flush().ok();
                let mut line = String::new();
                match std::io::stdin().lock().read_line(&mut line) {
                    Ok(0) => {
                        say!();
                        Ok(Read::End)
                    }
                    Ok(_) => {
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        // Show what was read, so that the transcript reads
                        // like a session at the terminal.
                        say!("{line}");
                        Ok(Read::Line(line))
                    }
                    Err(e) => Err(failed(format!("cannot read standard input: {e}"))),
                }
            }
        }
    }

    /// Keeps the history for the next game (best effort).
    fn close(&mut self) {
        if let Input::Terminal {
            editor,
            history: path,
        } = self
        {
            if editor.history().is_empty() {
                return;
            }
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).ok();
            }
            editor.save_history(path).ok();
        }
    }
}

/// What the loop does after a command.
enum Next {
    Continue,
    Quit,
    ConfirmResign,
}

struct Session {
    game: Game,
    opponent: Option<Box<dyn Engine>>,
    think: u64,
    human: Side,
    colour: bool,
    board: BoardArg,
    resigned: Option<Side>,
    seed: u64,
    keeper: Arc<Mutex<Keeper>>,
    /// The record text whose place was last told (not told twice).
    told: Option<String>,
    /// Where a new game's record goes (`<data dir>/records`).
    data_dir: PathBuf,
}

impl Session {
    fn name(&self, side: Side) -> String {
        match &self.opponent {
            Some(p) if side != self.human => p.name(),
            _ => format!("{} player", side),
        }
    }

    fn record(&self) -> Record {
        let (white, black) = (self.name(Side::White), self.name(Side::Black));
        let date = date::today();
        let mut rec = Record::from_game(
            &self.game,
            &[
                ("Event", "Casual game"),
                ("Site", "punct play"),
                ("Date", &date),
                ("White", &white),
                ("Black", &black),
            ],
        );
        if let Some(loser) = self.resigned {
            rec.outcome = Outcome::from_status(Status::Won(loser.opponent()));
            rec.set_tag("Result", rec.outcome.token());
            rec.set_tag("Termination", &format!("{loser} resigned"));
        }
        rec
    }

    /// After every change: keep the record and write it, quietly.
    fn changed(&mut self) {
        let text = self.record().to_text();
        let finished = self.over();
        let mut keeper = lock(&self.keeper);
        keeper.text = Some(text);
        keeper.finished = finished;
        match keeper.write() {
            Ok(_) => keeper.failing = false,
            Err(e) if !keeper.failing => {
                keeper.failing = true;
                say!("punct: {e}. `save FILE` saves it elsewhere.");
            }
            Err(_) => {}
        }
    }

    /// Saves the record and says where (once per version of it).
    fn save_and_tell(&mut self) {
        let keeper = lock(&self.keeper);
        // Nothing played is told once too, as an empty text.
        let text = keeper.text.clone().unwrap_or_default();
        if self.told.as_ref() == Some(&text) {
            return;
        }
        keeper.save_and_say("");
        drop(keeper);
        self.told = Some(text);
    }

    fn save_to(&self, path: &Path) {
        let text = self.record().to_text();
        match std::fs::write(path, &text) {
            Ok(()) => say!("Record saved to {}", path.display()),
            Err(e) => say!("punct: cannot write {}: {e}", path.display()),
        }
    }

    fn layout(&self) -> BoardArg {
        match self.board {
            BoardArg::Auto if full_board_fits() => BoardArg::Full,
            BoardArg::Auto => BoardArg::Compact,
            b => b,
        }
    }

    fn show(&self) {
        let pos = self.game.position();
        let mut lines = match self.layout() {
            BoardArg::Full => render::board_full(pos, self.colour),
            _ => render::board_compact(pos, self.colour),
        };
        lines.extend(render::status_lines(&self.game));
        let mut out = lines.join("\n");
        out.push('\n');
        write!(std::io::stdout(), "{out}").ok();
    }

    fn is_human_turn(&self) -> bool {
        self.opponent.is_none() || self.game.position().side_to_move() == self.human
    }

    fn over(&self) -> bool {
        self.resigned.is_some() || self.game.position().status().is_over()
    }

    fn announce_end(&self) {
        for line in end_words(&self.game, self.resigned) {
            say!("{line}");
        }
    }

    fn legal_names(&self) -> Vec<String> {
        if self.over() {
            return Vec::new();
        }
        let mut names: Vec<String> = self
            .game
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        names.sort();
        names
    }

    fn list_moves(&self, arg: Option<&str>) {
        let pos = self.game.position();
        let mut moves = pos.legal_moves();
        if let Some(a) = arg {
            match a.parse::<Cell>() {
                Ok(cell) => moves.retain(|m| match *m {
                    Move::Add { punct, .. } => punct == cell,
                    Move::Relocate { from, .. } => from == cell,
                    Move::Pass => false,
                }),
                Err(e) => {
                    say!("{e}");
                    return;
                }
            }
        }
        let mut names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        names.sort();
        say!("{} legal moves", names.len());
        for chunk in names.chunks(8) {
            say!("  {}", chunk.join(" "));
        }
    }

    fn hint(&mut self) {
        let pos = self.game.position();
        if self.over() {
            say!("No move: the game is over.");
            return;
        }
        let mut engine = new_engine("level4", self.seed).expect("level4 exists");
        let stop = AtomicBool::new(false);
        let r = engine.search(pos, &Limits::movetime(self.think), &stop, &mut |_| {});
        say!(
            "Hint: {}. {}",
            r.best,
            score_words(r.score, pos.side_to_move())
        );
    }

    /// A new game from the same start, once this one is over: the same
    /// players and sides, and a record of its own.
    fn new_game(&mut self) {
        if !self.over() {
            say!("The game goes on: `resign` first, or `quit`.");
            return;
        }
        self.save_and_tell();
        self.game = Game::from_position(self.game.start().clone());
        self.resigned = None;
        self.told = None;
        let path = new_record_path(&self.data_dir);
        {
            let mut keeper = lock(&self.keeper);
            keeper.path = path.clone();
            keeper.text = None;
            keeper.finished = false;
            keeper.failing = false;
        }
        say!("A new game.");
        say!("Record: {}", path.display());
        self.show();
    }

    fn undo(&mut self) {
        if self.resigned.is_some() {
            say!("A resignation is final: `new` starts another game.");
            return;
        }
        // Against an opponent, take back its reply too so it is your turn again.
        let mut taken = Vec::new();
        while let Some(m) = self.game.undo() {
            taken.push(m);
            if self.is_human_turn() {
                break;
            }
        }
        if taken.is_empty() {
            say!("Nothing to undo.");
        } else {
            let names: Vec<String> = taken.iter().map(|m| m.to_string()).collect();
            say!("Took back {}.", names.join(", "));
            self.changed();
            self.show();
        }
    }

    /// Handles one line.
    fn command(&mut self, line: &str) -> Next {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Next::Continue;
        };
        let arg = words.next();
        match first.to_ascii_lowercase().as_str() {
            "help" | "?" => say!("{HELP}"),
            "quit" | "exit" => return Next::Quit,
            "show" => self.show(),
            "board" => {
                match arg.map(|a| BoardArg::from_str(a, true)) {
                    None => {}
                    Some(Ok(b)) => self.board = b,
                    Some(Err(_)) => {
                        say!("`board compact`, `board full` or `board auto`.");
                        return Next::Continue;
                    }
                }
                self.show();
            }
            "moves" | "legal" => self.list_moves(arg),
            "hint" => self.hint(),
            "undo" => self.undo(),
            "new" => self.new_game(),
            "save" => match arg {
                Some(path) => self.save_to(Path::new(path)),
                None => {
                    self.told = None;
                    self.save_and_tell();
                }
            },
            "resign" => {
                if self.over() {
                    say!("The game is already over.");
                } else {
                    return Next::ConfirmResign;
                }
            }
            _ => {
                if self.over() {
                    say!("The game is over: `new`, `undo`, `save` or `quit`.");
                    return Next::Continue;
                }
                match line.trim().parse::<Move>() {
                    Err(e) => say!("{e}. Type `help` for the commands."),
                    Ok(mv) => match self.game.play(mv) {
                        Ok(()) => {
                            self.changed();
                            // Against an engine its reply draws the board.
                            if self.over() || self.is_human_turn() {
                                self.show();
                            }
                        }
                        Err(why) => say!("{mv} is illegal: {why}."),
                    },
                }
            }
        }
        Next::Continue
    }

    fn engine_moves(&mut self) -> Result<(), Failure> {
        let side = self.game.position().side_to_move();
        let name = self.name(side);
        let tty = std::io::stdout().is_terminal();
        if tty {
            write!(std::io::stdout(), "{name} is thinking…").ok();
            std::io::stdout().flush().ok();
        }
        let engine = self.opponent.as_mut().expect("an opponent plays this side");
        let stop = AtomicBool::new(false);
        let limits = Limits::movetime(self.think);
        let mv = engine
            .search(self.game.position(), &limits, &stop, &mut |_| {})
            .best;
        if tty {
            write!(std::io::stdout(), "\r\x1b[K").ok();
        }
        self.game
            .play(mv)
            .map_err(|e| failed(format!("the opponent chose an illegal move {mv}: {e}")))?;
        say!("{name} ({side}) plays {mv}.");
        self.changed();
        self.show();
        Ok(())
    }
}

/// The game of a record file, and who resigned it if it says so.
fn load(path: &Path) -> Result<(Game, Option<Side>), Failure> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("--from: cannot read {name}: {e}")))?;
    let record = Record::parse(&text).map_err(|e| bad_input(format!("--from {name}: {e}")))?;
    let game = record
        .replay()
        .map_err(|e| bad_input(format!("--from {name}: {e}")))?;
    let resigned = if game.position().status().is_over() {
        None
    } else {
        match record.tag("Termination") {
            Some(t) if t.eq_ignore_ascii_case("white resigned") => Some(Side::White),
            Some(t) if t.eq_ignore_ascii_case("black resigned") => Some(Side::Black),
            _ => None,
        }
    };
    Ok((game, resigned))
}

/// Ctrl-C while no line is being read (or from a pipe), SIGTERM and SIGHUP:
/// save the record, say where, and leave with 128 + the signal's number.
/// The handlers are in place when this returns.
fn watch_signals(keeper: Arc<Mutex<Keeper>>) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{signal, SignalKind};
        let _inside = runtime.enter();
        let (Ok(int), Ok(term), Ok(hup)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            return;
        };
        (int, term, hup)
    };
    std::thread::spawn(move || {
        #[cfg(unix)]
        let code = runtime.block_on(async move {
            let (mut int, mut term, mut hup) = signals;
            tokio::select! {
                _ = int.recv() => 130,
                _ = term.recv() => 143,
                _ = hup.recv() => 129,
            }
        });
        #[cfg(not(unix))]
        let code = {
            if runtime.block_on(tokio::signal::ctrl_c()).is_err() {
                return;
            }
            130
        };
        // Held until the exit: nothing else writes or says more.
        let keeper = lock(&keeper);
        say!();
        keeper.save_and_say("Interrupted. ");
        std::io::stdout().flush().ok();
        std::process::exit(code);
    });
}

pub fn run(args: PlayArgs) -> Result<(), Failure> {
    let (game, resigned) = match &args.from {
        Some(path) => load(path)?,
        None => (args.position.game()?, None),
    };
    let human = match args.color {
        SideArg::White => Side::White,
        SideArg::Black => Side::Black,
    };
    let name = args.opponent.trim().to_ascii_lowercase();
    let opponent = match name.as_str() {
        "human" => None,
        n => {
            // A bare digit is that level.
            let n = if n.len() == 1 && n.as_bytes()[0].is_ascii_digit() {
                format!("level{n}")
            } else {
                name.clone()
            };
            Some(new_engine(&n, args.seed).map_err(|e| bad_input(format!("--opponent: {e}")))?)
        }
    };
    let data_dir = args
        .data_dir
        .clone()
        .unwrap_or_else(crate::default_data_dir);
    let record_path = args
        .record
        .clone()
        .unwrap_or_else(|| new_record_path(&data_dir));
    let keeper = Arc::new(Mutex::new(Keeper {
        path: record_path.clone(),
        text: None,
        failing: false,
        finished: false,
    }));
    watch_signals(keeper.clone());
    let mut s = Session {
        game,
        opponent,
        think: args.think,
        human,
        colour: args.colour.enabled(),
        board: args.board,
        resigned,
        seed: args.seed,
        keeper,
        told: None,
        data_dir: data_dir.clone(),
    };
    if !s.game.is_empty() || s.resigned.is_some() {
        // A game continued (`--from`, `--moves`) is kept from the start.
        s.changed();
    }
    let variant = s.game.start().variant();
    match &s.opponent {
        Some(engine) => say!(
            "PÜNCT, {variant} game: you play {} against {}.",
            cap(human),
            engine.name()
        ),
        None => say!("PÜNCT, {variant} game between two players at this terminal."),
    }
    // The record's place on a line of its own: a long path still reads
    // whole in 80 columns.
    say!("Type `help` for the commands.");
    say!("Record: {}", record_path.display());
    s.show();

    let mut input = Input::new(&data_dir);
    let result = play(&mut s, &mut input);
    input.close();
    result
}

/// The game loop, until `quit`, Ctrl-C or the end of the input.
fn play(s: &mut Session, input: &mut Input) -> Result<(), Failure> {
    let mut announced = false;
    loop {
        if s.over() {
            if !announced {
                s.announce_end();
                s.save_and_tell();
                announced = true;
            }
        } else {
            announced = false;
            if !s.is_human_turn() {
                s.engine_moves()?;
                continue;
            }
        }
        input.offer(s.legal_names());
        let prompt = if s.over() {
            "(game over)> ".to_string()
        } else {
            format!("{} to move> ", cap(s.game.position().side_to_move()))
        };
        let next = match input.read(&prompt, true)? {
            Read::Line(line) => s.command(&line),
            Read::Interrupted | Read::End => Next::Quit,
        };
        match next {
            Next::Continue => {}
            Next::Quit => break,
            Next::ConfirmResign => {
                let side = s.game.position().side_to_move();
                let question = format!("Resign the game as {}? (y/N) ", cap(side));
                match input.read(&question, false)? {
                    Read::Line(answer) => {
                        let answer = answer.trim().to_ascii_lowercase();
                        if answer == "y" || answer == "yes" {
                            s.resigned = Some(side);
                            s.changed();
                        } else {
                            say!("Not resigned: play on.");
                        }
                    }
                    Read::Interrupted | Read::End => break,
                }
            }
        }
    }
    s.save_and_tell();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use punct_core::{parse_moves, Position};
    use punct_engine::{Player, RandomPlayer};

    fn game(moves: &str) -> Game {
        Game::replay(
            Position::new(Variant::Standard),
            &parse_moves(moves).unwrap(),
        )
        .unwrap()
    }

    /// Black wins by connection with E11-H11/1 (public case 6).
    const BLACK_WINS: &str = "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 \
        L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1";

    #[test]
    fn scores_are_said_in_cells_as_on_the_web_page() {
        let w = Side::White;
        let b = Side::Black;
        assert_eq!(
            score_words(Score::Eval(130), w),
            "White is about 1.3 cells ahead in the connection race."
        );
        // The score is the side to move's: +130 for Black is Black ahead.
        assert_eq!(
            score_words(Score::Eval(130), b),
            "Black is about 1.3 cells ahead in the connection race."
        );
        assert_eq!(
            score_words(Score::Eval(-250), w),
            "Black is about 2.5 cells ahead in the connection race."
        );
        assert_eq!(
            score_words(Score::Eval(20), b),
            "About even in the connection race."
        );
        assert_eq!(
            score_words(Score::Win(3), b),
            "Black wins by force (within 3 plies)."
        );
        assert_eq!(
            score_words(Score::Loss(1), b),
            "White wins by force (within 1 ply)."
        );
    }

    #[test]
    fn a_connection_names_the_winner_and_the_pair_of_sides() {
        let g = game(BLACK_WINS);
        let c = g.position().connection(Side::Black).unwrap();
        let words = end_words(&g, None);
        assert_eq!(
            words[0],
            format!(
                "Black wins: connected {} and {}.",
                c.sides.0.name(),
                c.sides.1.name()
            )
        );
        assert!(words.iter().all(|l| l.chars().count() <= 80), "{words:?}");
        assert_eq!(
            end_words(&g, Some(Side::White)),
            ["White resigns: Black wins."]
        );
        assert!(end_words(&game("C@B7/2"), None).is_empty());
    }

    /// Random games, seed by seed, until one ends as `wanted` says.
    fn random_game(variant: Variant, wanted: impl Fn(&Position) -> bool) -> Game {
        for seed in 0..500 {
            let mut g = Game::new(variant);
            let mut p = RandomPlayer::new(seed);
            while let Some(mv) = p.choose(g.position()) {
                g.play(mv).unwrap();
            }
            if wanted(g.position()) {
                return g;
            }
        }
        panic!("no such random game");
    }

    #[test]
    fn the_central_count_and_draws_are_explained_with_both_counts() {
        let no_chain = |p: &Position| !p.is_connected(Side::White) && !p.is_connected(Side::Black);
        let g = random_game(Variant::Standard, |p| {
            matches!(p.status(), Status::Won(_)) && no_chain(p)
        });
        let pos = g.position();
        let Status::Won(w) = pos.status() else {
            unreachable!()
        };
        let words = end_words(&g, None);
        assert_eq!(
            words[0],
            format!(
                "{} wins on the central count: White {}, Black {}.",
                cap(w),
                pos.central_count(Side::White),
                pos.central_count(Side::Black)
            )
        );
        assert!(
            words[1].starts_with("Nobody connected before "),
            "{words:?}"
        );

        let g = random_game(Variant::Basic, |p| p.status() == Status::Draw);
        let words = end_words(&g, None);
        assert!(words[0].starts_with("A draw"), "{words:?}");
        assert!(
            words[1].starts_with("Nobody connected before "),
            "{words:?}"
        );
    }

    #[test]
    fn tab_offers_commands_board_choices_and_legal_moves() {
        let c = Completion {
            moves: vec!["E@C5/0".into(), "E@C5/1".into(), "G5-G9/4".into()],
        };
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        let (start, found) = c.complete("h", 1, &ctx).unwrap();
        assert_eq!((start, found), (0, vec!["help".into(), "hint".into()]));
        let (start, found) = c.complete("e@c5", 4, &ctx).unwrap();
        assert_eq!(start, 0);
        assert_eq!(found, ["E@C5/0", "E@C5/1"]);
        let (start, found) = c.complete("board c", 7, &ctx).unwrap();
        assert_eq!((start, found), (6, vec!["compact".into()]));
        // An empty line offers the commands, not thousands of moves.
        assert_eq!(c.complete("", 0, &ctx).unwrap().1.len(), COMMANDS.len());
    }

    #[test]
    fn record_names_count_up_within_one_second() {
        let dir = std::env::temp_dir().join(format!("punct-play-unit-{}", std::process::id()));
        let first = new_record_path(&dir);
        assert_eq!(first.parent().unwrap(), dir.join("records"));
        assert!(first.to_str().unwrap().ends_with(".pgn"));
        std::fs::create_dir_all(first.parent().unwrap()).unwrap();
        std::fs::write(&first, "").unwrap();
        let second = new_record_path(&dir);
        assert_ne!(first, second);
        std::fs::remove_dir_all(&dir).ok();
    }
}
