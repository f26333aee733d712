//! `punct play`: a game at the terminal, between two people or against a
//! built-in opponent. Reads commands line by line from standard input.

use crate::{date, failed, render, ColourArg, Failure, PositionArgs};
use clap::{Args, ValueEnum};
use punct_core::{Cell, Game, Move, Outcome, Record, Side, Status};
use punct_engine::{new_engine, Engine, Limits};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

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

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
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
  hint          the strongest level's move and evaluation (thinks as long as the opponent)
  undo          take back your last move
  show          draw the board again
  save [FILE]   save the record now
  resign        give up the game
  help          this text
  quit          save the record and leave";

struct Session {
    game: Game,
    opponent: Option<Box<dyn Engine>>,
    think: u64,
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

    fn hint(&mut self) {
        let pos = self.game.position();
        if pos.status().is_over() {
            say!("No move: the game is over.");
            return;
        }
        let mut engine = new_engine("level4", self.seed).expect("level4 exists");
        let stop = AtomicBool::new(false);
        let r = engine.search(pos, &Limits::movetime(self.think), &stop, &mut |_| {});
        say!(
            "Hint: {} (evaluation for {}: {})",
            r.best,
            pos.side_to_move(),
            r.score
        );
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
            "hint" => self.hint(),
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
    let name = args.opponent.trim().to_ascii_lowercase();
    let opponent = match name.as_str() {
        "human" => None,
        n if n.len() == 1 && n.as_bytes()[0].is_ascii_digit() => Some(
            new_engine(&format!("level{n}"), args.seed)
                .map_err(|e| crate::bad_input(format!("--opponent: {e}")))?,
        ),
        n => Some(
            new_engine(n, args.seed).map_err(|e| crate::bad_input(format!("--opponent: {e}")))?,
        ),
    };
    let record_path = args
        .record
        .unwrap_or_else(|| PathBuf::from(format!("punct-{}.pgn", date::stamp())));
    let mut s = Session {
        game,
        opponent,
        think: args.think,
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
                let engine = s.opponent.as_mut().expect("an opponent plays this side");
                let stop = AtomicBool::new(false);
                let limits = Limits::movetime(s.think);
                let mv = engine
                    .search(s.game.position(), &limits, &stop, &mut |_| {})
                    .best;
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
