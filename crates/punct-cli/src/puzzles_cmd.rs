//! `punct puzzles`: make puzzles from engine games, and check a puzzle file.
//!
//! `generate` plays games between the AI's levels from random openings,
//! asks the prover (`punct_engine::puzzle`) about every position, keeps
//! those with few solutions, at most one of each kind per game, and writes
//! them as JSON. `verify` re-proves every puzzle of a file: its kind, its
//! complete list of solutions and, for a win in two, the reply the site
//! plays and the winning moves after it. docs/PUZZLES.md describes both.

use crate::{bad_input, emit, failed, Failure};
use clap::{Args, Subcommand};
use punct_core::{Move, Position, Variant};
use punct_engine::puzzle::{self, PuzzleKind};
use punct_engine::{new_engine, EnginePlayer, Limits, Player, RandomPlayer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The version of the generator (bumped when the same command would make a
/// different file).
pub const GENERATOR_VERSION: u32 = 1;
/// The puzzle file's format version.
pub const FORMAT_VERSION: u32 = 1;
/// Where the shipped puzzles live, relative to the repository root.
pub const DEFAULT_FILE: &str = "data/puzzles.json";

#[derive(Args)]
#[command(after_help = "Examples:\n  \
    nice punct puzzles generate --games 60 --seed 1 --out data/puzzles.json\n  \
    punct puzzles verify data/puzzles.json\n\n\
    See docs/PUZZLES.md.")]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Play engine games and keep the positions that make good puzzles
    Generate(GenerateArgs),
    /// Re-prove every puzzle of a file (default data/puzzles.json) and its
    /// lists of solutions; exits 1 naming the first puzzle that disagrees
    Verify {
        /// The puzzle file
        file: Option<PathBuf>,
    },
}

#[derive(Args)]
struct GenerateArgs {
    /// Number of games to play (each game is one seed: SEED, SEED+1, …)
    #[arg(long, default_value_t = 60)]
    games: u32,
    /// First game's seed; the same flags make the same file
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the puzzles (`-` for standard output)
    #[arg(long)]
    out: PathBuf,
    /// Most puzzles kept of each kind
    #[arg(long, default_value_t = 16)]
    per_kind: usize,
    /// Most solutions a kept puzzle may have
    #[arg(long, default_value_t = 3)]
    max_solutions: usize,
    /// Games played at the same time (the result does not depend on it)
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run(args: PuzzlesArgs) -> Result<(), Failure> {
    match args.command {
        PuzzlesCommand::Generate(g) => generate(g),
        PuzzlesCommand::Verify { file } => {
            let file = file.unwrap_or_else(|| PathBuf::from(DEFAULT_FILE));
            let started = Instant::now();
            let text = std::fs::read_to_string(&file)
                .map_err(|e| failed(format!("cannot read {}: {e}", file.display())))?;
            let report =
                verify_text(&text).map_err(|e| failed(format!("{}: {e}", file.display())))?;
            emit(&format!(
                "{}: {report}, in {:.1} s\n",
                file.display(),
                started.elapsed().as_secs_f64()
            ))
        }
    }
}

// ------------------------------------------------------------ generate

/// One puzzle found in a game.
#[derive(Clone)]
struct Found {
    kind: PuzzleKind,
    position: Position,
    solutions: Vec<Move>,
    game: u32,
    seed: u64,
    ply: usize,
    white: &'static str,
    black: &'static str,
}

const LEVELS: [&str; 3] = ["level1", "level2", "level3"];

fn player(name: &str, seed: u64) -> EnginePlayer {
    EnginePlayer {
        engine: new_engine(name, seed).expect("a built-in level"),
        // A node limit, not a time limit: the same seed plays the same game.
        limits: Limits::nodes(4_000),
    }
}

/// Plays game `game` (seed `seed`) and returns the puzzles in it.
fn play_and_scan(game: u32, seed: u64, max_solutions: usize) -> Vec<Found> {
    let mut rng = StdRng::seed_from_u64(seed);
    let white = LEVELS[rng.random_range(0..LEVELS.len())];
    let black = LEVELS[rng.random_range(0..LEVELS.len())];
    let opening = rng.random_range(2..=6);
    let mut random = RandomPlayer::new(seed);
    let mut players = [player(white, seed), player(black, seed ^ 0x5EED)];
    let mut pos = Position::new(Variant::Standard);
    let mut found = Vec::new();
    for ply in 0..400 {
        if pos.status().is_over() {
            break;
        }
        if ply >= opening {
            for (kind, solutions) in scan(&pos, max_solutions) {
                found.push(Found {
                    kind,
                    position: pos.clone(),
                    solutions,
                    game,
                    seed,
                    ply,
                    white,
                    black,
                });
            }
        }
        let mv = if ply < opening {
            random.choose(&pos)
        } else {
            players[pos.side_to_move().index()].choose(&pos)
        };
        let Some(mv) = mv else { break };
        pos.make(mv);
    }
    found
}

/// The puzzles `pos` makes, with their solutions (at most `max` each).
fn scan(pos: &Position, max: usize) -> Vec<(PuzzleKind, Vec<Move>)> {
    let mut out = Vec::new();
    let me = pos.side_to_move();
    let wins = puzzle::winning_moves(pos);
    if !wins.is_empty() {
        if wins.len() <= max {
            out.push((PuzzleKind::WinInOne, wins));
        }
        return out;
    }
    if !puzzle::threats(pos).is_empty() {
        let d = puzzle::defences(pos);
        if !d.is_empty() && d.len() <= max {
            out.push((PuzzleKind::StopTheWin, d));
        }
    }
    // Two moves put at most six cells of ours on a chain (a reply may
    // uncover more, but rarely): look for a win in two only near a chain.
    if puzzle::gap(pos, me, 6).is_some() {
        if let Some(w) = puzzle::win_in_two_at_most(pos, max) {
            if !w.is_empty() {
                out.push((PuzzleKind::WinInTwo, w));
            }
        }
    }
    out
}

fn generate(args: GenerateArgs) -> Result<(), Failure> {
    if args.games == 0 || args.games > 100_000 {
        return Err(bad_input("--games must be between 1 and 100000"));
    }
    if args.per_kind == 0 || args.per_kind > 1000 {
        return Err(bad_input("--per-kind must be between 1 and 1000"));
    }
    if args.max_solutions == 0 || args.max_solutions > 100 {
        return Err(bad_input("--max-solutions must be between 1 and 100"));
    }
    if args.threads == 0 || args.threads > 64 {
        return Err(bad_input("--threads must be between 1 and 64"));
    }
    if args.seed.checked_add(args.games as u64).is_none() {
        return Err(bad_input("--seed is too large for that many games"));
    }
    let to_stdout = args.out.as_os_str() == "-";
    if !to_stdout {
        if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(failed(format!(
                    "cannot write {}: no directory {}",
                    args.out.display(),
                    dir.display()
                )));
            }
        }
    }
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.min(args.games as usize) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed) as u32;
                if g >= args.games {
                    break;
                }
                let found = play_and_scan(g, args.seed + g as u64, args.max_solutions);
                results.lock().expect("no panics").insert(g, found);
            });
        }
    });
    let games = results.into_inner().expect("no panics");
    let played = started.elapsed();
    let all: Vec<Found> = games.into_values().flatten().collect();
    let counts: BTreeMap<PuzzleKind, usize> = PuzzleKind::ALL
        .iter()
        .map(|&k| (k, all.iter().filter(|f| f.kind == k).count()))
        .collect();
    let chosen = choose(all, args.per_kind);
    // The reply the site plays to each first move of a win in two.
    let mut puzzles = Vec::new();
    let mut number: BTreeMap<PuzzleKind, usize> = BTreeMap::new();
    for f in &chosen {
        let n = number.entry(f.kind).or_default();
        *n += 1;
        puzzles.push(puzzle_json(f, &format!("{}-{:02}", id_prefix(f.kind), n))?);
    }
    let command = std::iter::once("punct".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let file = json!({
        "format": FORMAT_VERSION,
        "generator": format!("punct {} puzzles generate, generator version {GENERATOR_VERSION}", env!("CARGO_PKG_VERSION")),
        "command": command,
        "settings": {
            "games": args.games,
            "seed": args.seed,
            "per_kind": args.per_kind,
            "max_solutions": args.max_solutions,
            "levels": LEVELS,
            "nodes_per_move": 4_000,
        },
        "puzzles": puzzles,
    });
    let mut text = serde_json::to_string_pretty(&file).expect("JSON values serialise");
    text.push('\n');
    let summary: Vec<String> = PuzzleKind::ALL
        .iter()
        .map(|&k| {
            format!(
                "{} {k} (of {} found)",
                chosen.iter().filter(|f| f.kind == k).count(),
                counts[&k]
            )
        })
        .collect();
    let message = format!(
        "{} puzzles from {} games: {}; games and proofs {:.1} s, in all {:.1} s\n",
        chosen.len(),
        args.games,
        summary.join(", "),
        played.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    if to_stdout {
        emit(&text)?;
        eprint!("{message}");
    } else {
        std::fs::write(&args.out, text)
            .map_err(|e| failed(format!("cannot write {}: {e}", args.out.display())))?;
        emit(&format!("{}: {message}", args.out.display()))?;
    }
    Ok(())
}

fn id_prefix(kind: PuzzleKind) -> &'static str {
    match kind {
        PuzzleKind::WinInOne => "one",
        PuzzleKind::StopTheWin => "stop",
        PuzzleKind::WinInTwo => "two",
    }
}

/// Up to `per_kind` puzzles of each kind: one position once, at most one of
/// a kind from a game (the one with the fewest solutions, the latest on a
/// tie), fewest solutions first, then a spread over the games.
fn choose(all: Vec<Found>, per_kind: usize) -> Vec<Found> {
    let mut positions = HashSet::new();
    let mut out = Vec::new();
    for kind in PuzzleKind::ALL {
        let mut best: BTreeMap<u32, Found> = BTreeMap::new();
        for f in all.iter().filter(|f| f.kind == kind) {
            let better = best.get(&f.game).is_none_or(|b| {
                (f.solutions.len(), std::cmp::Reverse(f.ply))
                    < (b.solutions.len(), std::cmp::Reverse(b.ply))
            });
            if better {
                best.insert(f.game, f.clone());
            }
        }
        let mut list: Vec<Found> = best.into_values().collect();
        list.sort_by_key(|f| (f.solutions.len(), f.game));
        let mut kept: Vec<Found> = list
            .into_iter()
            .filter(|f| positions.insert(f.position.to_position_string()))
            .take(per_kind)
            .collect();
        kept.sort_by_key(|f| (f.game, f.ply));
        out.extend(kept);
    }
    out
}

fn moves_json(moves: &[Move]) -> Value {
    Value::Array(moves.iter().map(|m| json!(m.to_string())).collect())
}

/// For a win in two: each first move with the opponent's most stubborn
/// reply and the winning moves after it.
fn lines(pos: &Position, solutions: &[Move]) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for &first in solutions {
        let mut after = pos.clone();
        after.make(first);
        let (reply, wins) = puzzle::stubborn_reply(&after)
            .ok_or_else(|| format!("after {first} the game is over"))?;
        out.push(json!({
            "first": first.to_string(),
            "reply": reply.to_string(),
            "wins": moves_json(&wins),
        }));
    }
    Ok(out)
}

fn puzzle_json(f: &Found, id: &str) -> Result<Value, Failure> {
    let mut v = json!({
        "id": id,
        "kind": f.kind.name(),
        "position": f.position.to_position_string(),
        "side": f.position.side_to_move().name(),
        "solutions": moves_json(&f.solutions),
        "source": {
            "game": f.game,
            "seed": f.seed,
            "ply": f.ply,
            "white": f.white,
            "black": f.black,
        },
    });
    if f.kind == PuzzleKind::WinInTwo {
        v["lines"] = Value::Array(
            lines(&f.position, &f.solutions)
                .map_err(|e| failed(format!("internal error: {id}: {e}")))?,
        );
    }
    Ok(v)
}

// ------------------------------------------------------------ verify

/// Checks a whole puzzle file; the summary on success, else what is wrong
/// (naming the puzzle).
pub fn verify_text(text: &str) -> Result<String, String> {
    let file: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let format = file
        .get("format")
        .and_then(Value::as_u64)
        .ok_or("no `format` number at the top level")?;
    if format != FORMAT_VERSION as u64 {
        return Err(format!(
            "format {format} is not supported (this punct reads format {FORMAT_VERSION})"
        ));
    }
    let list = file
        .get("puzzles")
        .and_then(Value::as_array)
        .ok_or("no `puzzles` list at the top level")?;
    if list.is_empty() {
        return Err("the `puzzles` list is empty".into());
    }
    let mut ids = HashSet::new();
    let mut per_kind: BTreeMap<PuzzleKind, usize> = BTreeMap::new();
    for (i, p) in list.iter().enumerate() {
        let id = p
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("puzzle #{}: no `id` text", i + 1))?;
        let kind = verify_one(p, id).map_err(|e| format!("puzzle {id}: {e}"))?;
        if !ids.insert(id.to_string()) {
            return Err(format!("puzzle {id}: the id is used twice"));
        }
        *per_kind.entry(kind).or_default() += 1;
    }
    let kinds: Vec<String> = per_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
    Ok(format!(
        "{} puzzles verified ({})",
        list.len(),
        kinds.join(", ")
    ))
}

fn text<'a>(p: &'a Value, key: &str) -> Result<&'a str, String> {
    p.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("no `{key}` text"))
}

fn move_list(v: Option<&Value>, what: &str) -> Result<Vec<Move>, String> {
    let list = v
        .and_then(Value::as_array)
        .ok_or_else(|| format!("no `{what}` list"))?;
    list.iter()
        .map(|m| {
            let s = m
                .as_str()
                .ok_or_else(|| format!("`{what}`: {m} is not text"))?;
            s.parse::<Move>()
                .map_err(|e| format!("`{what}`: `{s}`: {e}"))
        })
        .collect()
}

/// Compares two move lists as sets, saying what is missing and what extra.
fn same_moves(what: &str, file: &[Move], proven: &[Move]) -> Result<(), String> {
    let missing: Vec<String> = proven
        .iter()
        .filter(|m| !file.contains(m))
        .map(|m| m.to_string())
        .collect();
    let extra: Vec<String> = file
        .iter()
        .filter(|m| !proven.contains(m))
        .map(|m| m.to_string())
        .collect();
    let twice = file.len() != file.iter().collect::<HashSet<_>>().len();
    if missing.is_empty() && extra.is_empty() && !twice {
        return Ok(());
    }
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("the proof also finds {}", missing.join(" ")));
    }
    if !extra.is_empty() {
        parts.push(format!("{} are not solutions", extra.join(" ")));
    }
    if twice {
        parts.push("a move is listed twice".to_string());
    }
    Err(format!("{what} disagree: {}", parts.join("; ")))
}

fn verify_one(p: &Value, id: &str) -> Result<PuzzleKind, String> {
    if id.is_empty()
        || id.len() > 40
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err("an id is 1–40 letters, digits, `-` or `_`".into());
    }
    let kind: PuzzleKind = text(p, "kind")?.parse()?;
    let pos = Position::from_position_string(text(p, "position")?).map_err(|e| e.to_string())?;
    let side = text(p, "side")?;
    if side != pos.side_to_move().name() {
        return Err(format!(
            "`side` says {side}, but in the position {} is to move",
            pos.side_to_move()
        ));
    }
    let solutions = move_list(p.get("solutions"), "solutions")?;
    let proven = puzzle::prove(&pos, kind).map_err(|e| format!("not a {kind} puzzle: {e}"))?;
    same_moves("the solutions", &solutions, &proven)?;
    if kind == PuzzleKind::WinInTwo {
        let lines = p
            .get("lines")
            .and_then(Value::as_array)
            .ok_or("no `lines` list (a win in two has one line per solution)")?;
        let mut firsts = Vec::new();
        for line in lines {
            let first: Move = text(line, "first")?
                .parse()
                .map_err(|e| format!("`lines`: {e}"))?;
            let reply: Move = text(line, "reply")?
                .parse()
                .map_err(|e| format!("`lines`: {e}"))?;
            let wins = move_list(line.get("wins"), "wins")?;
            let mut after = pos.clone();
            after
                .play(first)
                .map_err(|e| format!("line {first}: illegal: {e}"))?;
            let (want_reply, want_wins) = puzzle::stubborn_reply(&after)
                .ok_or_else(|| format!("line {first}: the game is over after it"))?;
            if reply != want_reply {
                return Err(format!(
                    "line {first}: the reply is {reply}, but the most stubborn is {want_reply}"
                ));
            }
            same_moves(
                &format!("line {first}: the wins after {reply}"),
                &wins,
                &want_wins,
            )?;
            firsts.push(first);
        }
        same_moves(
            "the lines' first moves and the solutions",
            &firsts,
            &solutions,
        )?;
    }
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_files_are_refused_with_the_puzzle_named() {
        assert!(verify_text("nonsense")
            .unwrap_err()
            .contains("not valid JSON"));
        assert!(verify_text(r#"{"format": 1}"#)
            .unwrap_err()
            .contains("no `puzzles` list"));
        assert!(verify_text(r#"{"format": 9, "puzzles": []}"#)
            .unwrap_err()
            .contains("format 9"));
        let empty_board = r#"{"format": 1, "puzzles": [{"id": "x-1", "kind": "win-in-one",
            "position": "standard:w:0:-", "side": "white", "solutions": []}]}"#;
        let e = verify_text(empty_board).unwrap_err();
        assert!(e.starts_with("puzzle x-1: not a win-in-one puzzle"), "{e}");
        let bad_kind = empty_board.replace("win-in-one", "win-in-nine");
        assert!(verify_text(&bad_kind)
            .unwrap_err()
            .contains("not a puzzle kind"));
        let bad_side = empty_board.replace("\"white\"", "\"black\"");
        assert!(verify_text(&bad_side)
            .unwrap_err()
            .contains("`side` says black"));
    }
}
