//! `punct play`: a game at the terminal, between two people or against a
//! built-in opponent. Reads commands line by line from standard input.

use crate::{date, failed, render, ColourArg, Failure, PositionArgs};
use clap::{Args, ValueEnum};
use punct_core::{Cell, Game, Move, Outcome, Record, Side, Status};
use punct_engine::{GreedyPlayer, Player, RandomPlayer};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// `println!` that does not panic when standard output is gone.
macro_rules! say {
    () => {{ writeln!(std::io::stdout()).ok(); }};
    ($($t:tt)*) => {{ writeln!(std::io::stdout(), $($t)*).ok(); }};
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Another person at the same terminal
    Human,
    /// Uniformly random legal moves
    Random,
    /// The best move one ply ahead by a connection-distance evaluation
    Greedy,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    White,
    Black,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Who plays the other side
    #[arg(long, value_enum, default_value_t = Opponent::Greedy)]
    opponent: Opponent,
    /// Your side against a built-in opponent
    #[arg(long, value_enum, default_value_t = SideArg::White)]
    color: SideArg,
    /// Seed for the opponent's random choices
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where to save the game record (default: punct-<date>-<time>.pgn here)
    #[arg(long)]
    record: Option<PathBuf>,
    #[command(flatten)]
    colour: ColourArg,
}

const HELP: &str = "\
Commands:
  <move>        play a move: E@C5/2 adds an E piece with its PÜNCT on C5, rotation 2;
                G5-G9/4 moves the piece whose PÜNCT is on G5 to G9, rotation 4;
                pass (only when nothing else is legal)
  moves [CELL]  list legal moves (all, or those adding on / moving from CELL)
  hint          suggest a move (one-ply greedy)
  undo          take back your last move
  show          draw the board again
  save [FILE]   save the record now
  resign        give up the game
  help          this text
  quit          save the record and leave";

struct Session {
    game: Game,
    opponent: Option<Box<dyn Player>>,
    human: Side,
    colour: bool,
    record_path: PathBuf,
    resigned: Option<Side>,
    seed: u64,
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

    fn save(&self, path: &PathBuf) {
        let text = self.record().to_text();
        match std::fs::write(path, &text) {
            Ok(()) => say!("Record saved to {}", path.display()),
            Err(e) => {
                // Never lose the game: show it when it cannot be written.
                eprintln!(
                    "punct: cannot write {}: {e}; here is the record:",
                    path.display()
                );
                say!("{text}");
            }
        }
    }

    fn show(&self) {
        write!(
            std::io::stdout(),
            "{}",
            render::render(self.game.position(), self.colour)
        )
        .ok();
    }

    fn is_human_turn(&self) -> bool {
        self.opponent.is_none() || self.game.position().side_to_move() == self.human
    }

    fn over(&self) -> bool {
        self.resigned.is_some() || self.game.position().status().is_over()
    }

    fn announce_end(&self) {
        match (self.resigned, self.game.position().status()) {
            (Some(loser), _) => say!("{loser} resigns: {} wins.", loser.opponent()),
            (None, Status::Won(side)) => say!("Game over: {side} wins."),
            (None, Status::Draw) => say!("Game over: a draw."),
            (None, Status::Ongoing) => {}
        }
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
        for chunk in names.chunks(10) {
            say!("  {}", chunk.join(" "));
        }
    }

    fn undo(&mut self) {
        if self.resigned.take().is_some() {
            say!("Resignation taken back.");
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
            self.show();
        }
    }

    /// Handles one line; returns false to leave.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return true;
        };
        let arg = words.next();
        match first.to_ascii_lowercase().as_str() {
            "help" | "?" => say!("{HELP}"),
            "quit" | "exit" => {
                self.save(&self.record_path.clone());
                return false;
            }
            "show" | "board" => self.show(),
            "moves" | "legal" => self.list_moves(arg),
            "hint" => match GreedyPlayer::new(self.seed).choose(self.game.position()) {
                Some(m) => say!("Hint: {m}"),
                None => say!("No move: the game is over."),
            },
            "undo" => self.undo(),
            "save" => {
                let path = arg.map_or_else(|| self.record_path.clone(), PathBuf::from);
                self.save(&path);
            }
            "resign" => {
                if self.over() {
                    say!("The game is already over.");
                } else {
                    self.resigned = Some(self.game.position().side_to_move());
                }
            }
            _ => {
                if self.over() {
                    say!("The game is over: `undo`, `save` or `quit`.");
                    return true;
                }
                match line.trim().parse::<Move>() {
                    Err(e) => say!("{e}. Type `help` for the commands."),
                    Ok(mv) => match self.game.play(mv) {
                        Ok(()) => self.show(),
                        Err(why) => say!("{mv} is illegal: {why}."),
                    },
                }
            }
        }
        true
    }
}

pub fn run(args: PlayArgs) -> Result<(), Failure> {
    let game = args.position.game()?;
    let human = match args.color {
        SideArg::White => Side::White,
        SideArg::Black => Side::Black,
    };
    let opponent: Option<Box<dyn Player>> = match args.opponent {
        Opponent::Human => None,
        Opponent::Random => Some(Box::new(RandomPlayer::new(args.seed))),
        Opponent::Greedy => Some(Box::new(GreedyPlayer::new(args.seed))),
    };
    let record_path = args
        .record
        .unwrap_or_else(|| PathBuf::from(format!("punct-{}.pgn", date::stamp())));
    let mut s = Session {
        game,
        opponent,
        human,
        colour: args.colour.enabled(),
        record_path,
        resigned: None,
        seed: args.seed,
    };
    say!(
        "PÜNCT, {} game. Type `help` for the commands.",
        s.game.start().variant()
    );
    s.show();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut announced = false;
    loop {
        if s.over() {
            if !announced {
                s.announce_end();
                s.save(&s.record_path.clone());
                announced = true;
            }
        } else {
            announced = false;
            if !s.is_human_turn() {
                let side = s.game.position().side_to_move();
                let player = s.opponent.as_mut().expect("an opponent plays this side");
                let Some(mv) = player.choose(s.game.position()) else {
                    return Err(failed("the opponent found no move in an unfinished game"));
                };
                s.game
                    .play(mv)
                    .map_err(|e| failed(format!("the opponent chose an illegal move {mv}: {e}")))?;
                say!("{} ({side}) plays {mv}", s.name(side));
                s.show();
                continue;
            }
        }
        let side = s.game.position().side_to_move();
        if s.over() {
            write!(std::io::stdout(), "> ").ok();
        } else {
            write!(std::io::stdout(), "{side} to move> ").ok();
        }
        std::io::stdout().flush().ok();
        match lines.next() {
            Some(Ok(line)) => {
                if !s.command(&line) {
                    return Ok(());
                }
            }
            Some(Err(e)) => return Err(failed(format!("cannot read standard input: {e}"))),
            None => {
                say!();
                if !announced {
                    s.save(&s.record_path.clone());
                }
                return Ok(());
            }
        }
    }
}
