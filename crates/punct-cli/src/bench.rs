//! `punct bench`: quick single-thread speed figures (criterion benches in
//! punct-core give the careful ones).

use punct_core::{parse_moves, Game, Move, Position, Variant};
use punct_engine::{new_engine, Limits, Player, RandomPlayer};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Mid-game positions (from the public differential cases) for move generation.
const MIDGAME: [&str; 4] = [
    "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4",
    "C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4",
    "R@P16/3 M@D2/0 E@N15/2 R@H11/5 C@I13/2 L@G13/4 C@B8/2 E@J17/0 R@D9/0 C@O7/1 L@I12/0 L@F8/3",
    "R@P16/3 M@D2/0 E@N15/2 R@H11/5 C@I13/2 L@G13/4 C@B8/2 E@J17/0 R@D9/0 C@O7/1 L@I12/0 L@F8/3 T@P14/5 E@D5/4",
];

fn positions() -> Vec<Position> {
    MIDGAME
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let variant = if i < 2 {
                Variant::Standard
            } else {
                Variant::Basic
            };
            let moves = parse_moves(m).expect("bench moves parse");
            Game::replay(Position::new(variant), &moves)
                .expect("bench moves are legal")
                .position()
                .clone()
        })
        .collect()
}

/// Repeats `work` (which returns a count) until `budget` has passed; returns
/// counted items per second.
fn rate(budget: Duration, mut work: impl FnMut() -> u64) -> (f64, u64) {
    let start = Instant::now();
    let mut items = 0;
    while start.elapsed() < budget {
        items += work();
    }
    (items as f64 / start.elapsed().as_secs_f64(), items)
}

pub fn run(seconds: f64) {
    let budget = Duration::from_secs_f64(seconds);
    let mut start = Position::new(Variant::Standard);
    let (leaves, _) = rate(budget, || start.perft(2));
    crate::emit(&format!(
        "perft(2) standard start: {:>10.1} M leaves/s\n",
        leaves / 1e6
    ))
    .ok();

    let set = positions();
    let mut list: Vec<Move> = Vec::new();
    let (moves, _) = rate(budget, || {
        set.iter()
            .map(|p| {
                p.legal_moves_into(&mut list);
                list.len() as u64
            })
            .sum()
    });
    crate::emit(&format!(
        "move generation (mid-game): {:>10.1} M moves/s\n",
        moves / 1e6
    ))
    .ok();

    let mut seed = 0;
    let (games, n) = rate(budget, || {
        seed += 1;
        let mut player = RandomPlayer::new(seed);
        let mut pos = Position::new(Variant::Standard);
        while let Some(mv) = player.choose(&pos) {
            pos.make(mv);
        }
        1
    });
    crate::emit(&format!(
        "random playouts (standard): {games:>10.1} games/s ({n} games)\n"
    ))
    .ok();

    // The strongest level's search, one thread, on the same positions.
    let mut nodes = 0;
    let mut elapsed = 0.0;
    for pos in &set {
        let mut engine = new_engine("level4", 1).expect("level4 exists");
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let per = Duration::from_secs_f64(seconds / set.len() as f64);
        let limits = Limits {
            movetime: Some(per),
            ..Limits::default()
        };
        nodes += engine.search(pos, &limits, &stop, &mut |_| {}).nodes;
        elapsed += t.elapsed().as_secs_f64();
    }
    crate::emit(&format!(
        "search (level4, 1 thread): {:>10.1} k nodes/s\n",
        nodes as f64 / elapsed / 1e3
    ))
    .ok();
}

/// What `punct bench --depth` measures: an engine searched to a fixed
/// depth from each of the shipped openings.
pub struct DepthRun {
    pub depth: u32,
    /// How many positions: the standard openings first, then the basic
    /// game's (200 in all).
    pub positions: usize,
    pub engine: String,
    pub options: Vec<(String, String)>,
}

/// Time to a fixed depth: the nodes, the seconds and a digest of the best
/// moves (two builds that search the same tree print the same digest).
pub fn depth(run: &DepthRun) -> Result<(), crate::Failure> {
    use crate::match_cmd::openings::{parse, BASIC, STANDARD};
    let mut set: Vec<Position> = Vec::new();
    for (text, variant, source) in [
        (STANDARD, Variant::Standard, "openings/standard.txt"),
        (BASIC, Variant::Basic, "openings/basic.txt"),
    ] {
        for o in parse(text, variant, source).map_err(crate::failed)? {
            let game = Game::replay(Position::new(variant), &o.moves)
                .map_err(|e| crate::failed(format!("{source}, line {}: {e}", o.line)))?;
            set.push(game.position().clone());
        }
    }
    if run.positions == 0 || run.positions > set.len() {
        return Err(crate::bad_input(format!(
            "--positions {}: there are 1 to {} positions (the shipped openings)",
            run.positions,
            set.len()
        )));
    }
    let mut nodes = 0u64;
    let mut elapsed = Duration::ZERO;
    // FNV-1a over the best moves' notation, in order.
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    for pos in &set[..run.positions] {
        let mut engine = new_engine(&run.engine, 0).map_err(crate::bad_input)?;
        for (name, value) in &run.options {
            engine
                .set_option(name, value)
                .map_err(|e| crate::bad_input(format!("--option {name}={value}: {e}")))?;
        }
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let r = engine.search(pos, &Limits::depth(run.depth), &stop, &mut |_| {});
        elapsed += t.elapsed();
        nodes += r.nodes;
        for b in r.best.to_string().bytes().chain(*b" ") {
            digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    crate::emit(&format!(
        "{} to depth {} on {} positions: {:.2} s, {} nodes, best moves {:016x}\n",
        run.engine,
        run.depth,
        run.positions,
        elapsed.as_secs_f64(),
        nodes,
        digest
    ))
}
