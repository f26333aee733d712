//! `punct`: the PÜNCT command line: argument parsing, the terminal game
//! and the match runner, over the library crates (rules, engines, the
//! engine protocol, tuning, storage, the server); every flag is defined
//! once, here.

mod bench;
mod bot_cmd;
mod date;
mod db_cmd;
mod engine_cmd;
mod match_cmd;
mod play;
mod puzzles_cmd;
mod render;
mod serve_cmd;
mod site_cmd;
mod solve_cmd;
mod suite_cmd;
mod tune_cmd;

use clap::{Args, Parser, Subcommand, ValueEnum};
use punct_core::{parse_moves, Game, Position, Record, Variant};
use punct_engine::{Player, RandomPlayer};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "punct",
    version,
    about = "PÜNCT, the connection game of the GIPF project: rules, analysis and play",
    long_about = "PÜNCT, the connection game of the GIPF project: rules, analysis and play.\n\n\
        Moves are written E@C5/2 (add an E piece, PÜNCT on C5, rotation 2), G5-G9/4 (move the \
        piece whose PÜNCT is visible on G5 to G9, rotation 4) or pass. See docs/NOTATION.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print every legal move, canonical, one per line, sorted by byte order
    Legal(PositionArgs),
    /// Print the status: ongoing, white, black or draw
    Status(PositionArgs),
    /// Count move sequences of exactly DEPTH plies
    Perft {
        /// Number of plies
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print `move count` for every first move before the total
        #[arg(long)]
        divide: bool,
    },
    /// Draw the position in the terminal
    Show {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        colour: ColourArg,
        /// Also print the position string
        #[arg(long)]
        string: bool,
    },
    /// Play at this terminal against the AI (level 3 unless told) or two people
    Play(play::PlayArgs),
    /// Game records (PGN-style text files)
    Record {
        #[command(subcommand)]
        command: RecordCommand,
    },
    /// Print the record of a random game
    RandomGame {
        /// Seed of the random choices (same seed, same game)
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
        variant: VariantArg,
    },
    /// Speak the engine protocol (docs/PROTOCOL.md) on stdin/stdout
    Engine(engine_cmd::EngineArgs),
    /// Play engines against each other: score, Elo, SPRT
    Match(match_cmd::MatchArgs),
    /// Puzzles: make them from engine games, or re-prove a puzzle file
    Puzzles(puzzles_cmd::PuzzlesArgs),
    /// Prove a forced win (connection) for the side to move by threat moves
    Solve(solve_cmd::SolveArgs),
    /// Run an engine on tactical suite files: positions solved, forced wins claimed and verified
    Suite(suite_cmd::SuiteArgs),
    /// Fit the evaluation's weights to self-play results (docs/TUNING.md)
    Tune(Box<tune_cmd::TuneArgs>),
    /// Run the game server: play in the browser at http://127.0.0.1:8080
    Serve(Box<serve_cmd::ServeArgs>),
    /// Write the site as static files, for a host without a server
    Site(site_cmd::SiteArgs),
    /// The games database: migrate its schema, copy games between databases
    Db(db_cmd::DbArgs),
    /// Play as a bot account on a server, with any engine speaking the protocol
    Bot(Box<bot_cmd::BotArgs>),
    /// List the built-in engines and levels
    Engines,
    /// Quick speed figures: perft, move generation, random playouts
    Bench {
        /// Seconds to spend on each measurement
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Instead: the time an engine takes to search this deep from each
        /// shipped opening (one thread), with its nodes and a digest of its
        /// best moves
        #[arg(long)]
        depth: Option<u32>,
        /// With --depth: how many openings (standard first, then basic)
        #[arg(long, default_value_t = 200)]
        positions: usize,
        /// With --depth: the engine searched
        #[arg(long, default_value = "level4")]
        engine: String,
        /// With --depth: an engine option as NAME=VALUE (repeatable)
        #[arg(long = "option")]
        options: Vec<String>,
    },
}

#[derive(Subcommand)]
enum RecordCommand {
    /// Check a record: syntax, every move's legality and the result
    Check {
        /// The record file (`-` for standard input)
        file: PathBuf,
    },
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    Standard,
    Basic,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Standard => Variant::Standard,
            VariantArg::Basic => Variant::Basic,
        }
    }
}

/// Which position a command works on: a start position or a position
/// string, then optional moves.
#[derive(Args, Clone)]
pub struct PositionArgs {
    /// Game variant of the start position
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
    /// Moves to play first, separated by spaces, e.g. "C@B7/2 R@F2/0"
    #[arg(long, default_value = "")]
    moves: String,
    /// Start from this position string instead (see docs/NOTATION.md)
    #[arg(long)]
    position: Option<String>,
}

#[derive(Args, Clone, Copy)]
pub struct ColourArg {
    /// Coloured output (ANSI escapes): auto (when stdout is a terminal and NO_COLOR is unset), always or never
    #[arg(long, value_enum, default_value_t = ColourWhen::Auto)]
    ansi: ColourWhen,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum ColourWhen {
    Auto,
    Always,
    Never,
}

impl ColourArg {
    pub fn enabled(self) -> bool {
        match self.ansi {
            ColourWhen::Always => true,
            ColourWhen::Never => false,
            ColourWhen::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}

/// An error for the user and the exit code that goes with it.
pub struct Failure {
    message: String,
    code: u8,
}

/// The per-user data directory (`punct serve`'s database, `punct play`'s
/// records): `$XDG_DATA_HOME/punct`, else `~/.local/share/punct`, else
/// `./punct-data`.
pub fn default_data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("punct");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(h).join(".local/share/punct");
    }
    PathBuf::from("punct-data")
}

/// Bad input on the command line (exit code 2, like a usage error).
pub fn bad_input(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 2,
    }
}

/// Anything else that went wrong (exit code 1).
pub fn failed(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 1,
    }
}

impl PositionArgs {
    /// The game from the start (or `--position`) through `--moves`.
    pub fn game(&self) -> Result<Game, Failure> {
        let start = match &self.position {
            Some(text) => {
                let pos =
                    Position::from_position_string(text).map_err(|e| bad_input(e.to_string()))?;
                if let Some(v) = self.variant {
                    if Variant::from(v) != pos.variant() {
                        return Err(bad_input(format!(
                            "--variant {} contradicts the position string, which is a {} position",
                            Variant::from(v),
                            pos.variant()
                        )));
                    }
                }
                pos
            }
            None => Position::new(self.variant.map_or(Variant::Standard, Variant::from)),
        };
        let moves = parse_moves(&self.moves)
            .map_err(|(ply, e)| bad_input(format!("--moves, ply {ply}: {e}")))?;
        Game::replay(start, &moves).map_err(|e| bad_input(format!("--moves, {e}")))
    }
}

/// Writes to standard output; a closed pipe (`punct legal | head`) is not
/// an error worth a message.
pub fn emit(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(failed(format!("cannot write output: {e}"))),
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Legal(args) => {
            let game = args.game()?;
            let mut moves: Vec<String> = game
                .position()
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect();
            moves.sort();
            let mut out = moves.join("\n");
            if !out.is_empty() {
                out.push('\n');
            }
            emit(&out)?;
        }
        Command::Status(args) => emit(&format!("{}\n", args.game()?.position().status()))?,
        Command::Perft {
            depth,
            position,
            divide,
        } => {
            let mut pos = position.game()?.position().clone();
            if divide {
                let mut rows: Vec<(String, u64)> = pos
                    .perft_divide(depth)
                    .into_iter()
                    .map(|(m, n)| (m.to_string(), n))
                    .collect();
                rows.sort();
                let total: u64 = rows.iter().map(|(_, n)| n).sum();
                let mut out: String = rows.iter().map(|(m, n)| format!("{m} {n}\n")).collect();
                // perft 0 is the empty sequence, whatever the position.
                out.push_str(&format!("{}\n", if depth == 0 { 1 } else { total }));
                emit(&out)?;
            } else {
                emit(&format!("{}\n", pos.perft(depth)))?;
            }
        }
        Command::Show {
            position,
            colour,
            string,
        } => {
            let game = position.game()?;
            let mut out = render::render(game.position(), colour.enabled());
            if string {
                out.push_str(&format!("{}\n", game.position().to_position_string()));
            }
            emit(&out)?;
        }
        Command::Play(args) => play::run(args)?,
        Command::Record {
            command: RecordCommand::Check { file },
        } => {
            let text = if file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin())
                    .map_err(|e| failed(format!("cannot read standard input: {e}")))?
            } else {
                std::fs::read_to_string(&file)
                    .map_err(|e| failed(format!("cannot read {}: {e}", file.display())))?
            };
            let name = file.display();
            let record = Record::parse(&text).map_err(|e| failed(format!("{name}: {e}")))?;
            let game = record
                .replay()
                .map_err(|e| failed(format!("{name}: {e}")))?;
            emit(&format!(
                "{name}: ok, {} moves, result {}, status {}\n",
                game.len(),
                record.outcome.token(),
                game.position().status()
            ))?;
        }
        Command::RandomGame { seed, variant } => {
            let mut game = Game::new(variant.into());
            let mut player = RandomPlayer::new(seed);
            while let Some(mv) = player.choose(game.position()) {
                game.play(mv)
                    .map_err(|e| failed(format!("internal error: random move {mv}: {e}")))?;
            }
            let seed_text = seed.to_string();
            // No date: the same seed prints the same record, byte for byte.
            let record = Record::from_game(
                &game,
                &[
                    ("Event", "Random game"),
                    ("Site", "punct random-game"),
                    ("White", "random"),
                    ("Black", "random"),
                    ("Seed", &seed_text),
                ],
            );
            emit(&record.to_text())?;
        }
        Command::Engine(args) => engine_cmd::run(args)?,
        Command::Match(args) => match_cmd::run(args)?,
        Command::Puzzles(args) => puzzles_cmd::run(args)?,
        Command::Solve(args) => solve_cmd::run(args)?,
        Command::Suite(args) => suite_cmd::run(args)?,
        Command::Tune(args) => tune_cmd::run(*args)?,
        Command::Serve(args) => serve_cmd::run(*args)?,
        Command::Site(args) => site_cmd::run(args)?,
        Command::Db(args) => db_cmd::run(args)?,
        Command::Bot(args) => bot_cmd::run(*args)?,
        Command::Engines => {
            let out: String = punct_engine::ENGINES
                .iter()
                .map(|(name, what)| format!("{name:<12} {what}\n"))
                .collect();
            emit(&out)?;
        }
        Command::Bench {
            seconds,
            depth,
            positions,
            engine,
            options,
        } => {
            if let Some(depth) = depth {
                if !(1..=64).contains(&depth) {
                    return Err(bad_input(format!("--depth {depth}: 1 to 64 plies")));
                }
                let options = match_cmd::parse_options("--option", &options)?;
                bench::depth(&bench::DepthRun {
                    depth,
                    positions,
                    engine,
                    options,
                })?;
            } else {
                if !(seconds > 0.0 && seconds <= 600.0) {
                    return Err(bad_input("--seconds must be between 0 and 600"));
                }
                bench::run(seconds);
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("punct: error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
