//! Self-play games: the strongest level against itself at a fixed node
//! count per move, from the shipped openings followed by a few random
//! plies. Every game is fixed by the seed and its number, so a run gives
//! the same games whatever the number of threads.

use punct_core::{parse_moves, Game, Move, Position, Status, Variant};
use punct_engine::{Ai, Engine, Level, Limits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The shipped openings (made by `punct match --generate-openings`).
const STANDARD_OPENINGS: &str = include_str!("../../../openings/standard.txt");
const BASIC_OPENINGS: &str = include_str!("../../../openings/basic.txt");

/// Which weights the players evaluate with (the engine's `Eval` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    Hand,
    Tuned,
}

impl EvalChoice {
    pub fn name(self) -> &'static str {
        match self {
            EvalChoice::Hand => "hand",
            EvalChoice::Tuned => "tuned",
        }
    }
}

impl std::str::FromStr for EvalChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<EvalChoice, String> {
        match s.to_ascii_lowercase().as_str() {
            "hand" => Ok(EvalChoice::Hand),
            "tuned" => Ok(EvalChoice::Tuned),
            _ => Err(format!("`{s}` is not `hand` or `tuned`")),
        }
    }
}

/// How to play the games.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Games `first .. first + games` of the run (so a long run can be
    /// played in pieces that together make the same games).
    pub first: usize,
    pub games: usize,
    /// Nodes per move (positions evaluated, as `punct match --nodes`).
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
    pub eval: EvalChoice,
    /// Random plies after the opening: 0 up to this many.
    pub random_plies: usize,
    /// A game this long (plies) is a draw.
    pub adjudicate: usize,
}

impl PlayConfig {
    pub fn check(&self) -> Result<(), String> {
        if self.nodes == 0 {
            return Err("--nodes must be at least 1".into());
        }
        if !(1..=256).contains(&self.threads) {
            return Err(format!("--threads {}: must be 1 to 256", self.threads));
        }
        if self.random_plies > 40 {
            return Err(format!(
                "--random-plies {}: at most 40 (random moves make poor games)",
                self.random_plies
            ));
        }
        if self.first > 1_000_000_000 {
            return Err(format!("--first-game {}: at most 1000000000", self.first));
        }
        if self.adjudicate < 10 {
            return Err(format!(
                "--adjudicate {}: at least 10 plies",
                self.adjudicate
            ));
        }
        Ok(())
    }
}

/// One finished game: its variant, every move from the empty board
/// (opening and random plies included) and how it ended (`Ongoing` never:
/// a game cut at the adjudication length is a `Draw`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    pub variant: Variant,
    pub moves: Vec<Move>,
    pub result: Status,
}

/// Every fourth game is of the basic variant, the rest standard.
pub fn variant_of(index: usize) -> Variant {
    if index % 4 == 3 {
        Variant::Basic
    } else {
        Variant::Standard
    }
}

/// A SplitMix64 mix of the run's seed and the game's number.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed
        ^ (index as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn openings(variant: Variant) -> Vec<Vec<Move>> {
    let text = match variant {
        Variant::Standard => STANDARD_OPENINGS,
        Variant::Basic => BASIC_OPENINGS,
    };
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| parse_moves(l).expect("the shipped openings parse"))
        .collect()
}

/// Game `index`'s start: a shipped opening and then 0 to `random_plies`
/// random moves that do not end the game.
pub fn game_start(seed: u64, index: usize, random_plies: usize) -> (Variant, Vec<Move>) {
    let variant = variant_of(index);
    let mut rng = StdRng::seed_from_u64(game_seed(seed, index));
    let book = openings(variant);
    let mut moves = book[rng.random_range(0..book.len())].clone();
    let mut pos = Game::replay(Position::new(variant), &moves)
        .expect("the shipped openings are legal")
        .position()
        .clone();
    let extra = rng.random_range(0..=random_plies);
    for _ in 0..extra {
        let legal = pos.legal_moves();
        // A few tries for a move that leaves the game going.
        let pick = (0..8)
            .map(|_| legal[rng.random_range(0..legal.len())])
            .find(|&m| {
                let mut p = pos.clone();
                p.make(m);
                !p.status().is_over()
            });
        let Some(mv) = pick else { break };
        pos.make(mv);
        moves.push(mv);
    }
    (variant, moves)
}

/// Plays game `index` of the run.
pub fn play_game(cfg: &PlayConfig, index: usize) -> Result<SelfPlayGame, String> {
    let (variant, mut moves) = game_start(cfg.seed, index, cfg.random_plies);
    let mut pos = Game::replay(Position::new(variant), &moves)
        .map_err(|e| format!("game {index}: start: {e}"))?
        .position()
        .clone();
    let mut engine = Ai::new(Level::Strongest, game_seed(cfg.seed, index));
    engine.set_option("Eval", cfg.eval.name())?;
    engine.new_game();
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(cfg.nodes);
    while pos.status() == Status::Ongoing && moves.len() < cfg.adjudicate {
        let r = engine.search(&pos, &limits, &stop, &mut |_| {});
        if !pos.is_legal(r.best) {
            return Err(format!(
                "game {index}: the engine chose the illegal move {} in {}",
                r.best,
                pos.to_position_string()
            ));
        }
        pos.make(r.best);
        moves.push(r.best);
    }
    let result = match pos.status() {
        Status::Ongoing => Status::Draw,
        s => s,
    };
    Ok(SelfPlayGame {
        variant,
        moves,
        result,
    })
}

/// Plays games `cfg.first ..` (`cfg.games` of them) on `cfg.threads`
/// threads, calling `done` after each; the games come back in their
/// numbers' order.
pub fn play(cfg: &PlayConfig, done: &(dyn Fn() + Sync)) -> Result<Vec<SelfPlayGame>, String> {
    cfg.check()?;
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Result<SelfPlayGame, String>>>> = Mutex::new(vec![None; cfg.games]);
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.min(cfg.games.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cfg.games || failed.load(Ordering::Relaxed) {
                    break;
                }
                let game = play_game(cfg, cfg.first + i);
                if game.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                slots.lock().expect("no thread panicked holding it")[i] = Some(game);
                done();
            });
        }
    });
    slots
        .into_inner()
        .expect("no thread panicked holding it")
        .into_iter()
        .flatten()
        .collect()
}
