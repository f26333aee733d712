//! `punct solve`: the connection solver (punct_engine::solver) on one
//! position.

use crate::{bad_input, emit, Failure, PositionArgs};
use clap::Args;
use punct_core::{Move, Side, Status};
use punct_engine::solver::{solve, Proof, SolveLimits};
use std::time::Duration;

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Most moves of the side to move in a forced win
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Positions to evaluate at most
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
    /// Milliseconds to search at most
    #[arg(long)]
    movetime: Option<u64>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

fn moves(n: u32) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

fn line_text(line: &[Move]) -> String {
    line.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(args: SolveArgs) -> Result<(), Failure> {
    if !(1..=20).contains(&args.depth) {
        return Err(bad_input("--depth must be between 1 and 20"));
    }
    if args.nodes == 0 {
        return Err(bad_input("--nodes must be at least 1"));
    }
    if args.movetime == Some(0) {
        return Err(bad_input("--movetime must be at least 1"));
    }
    let game = args.position.game()?;
    let pos = game.position();
    if pos.status() != Status::Ongoing {
        return Err(bad_input(format!("the game is over ({})", pos.status())));
    }
    let limits = SolveLimits {
        nodes: args.nodes,
        time: args.movetime.map(Duration::from_millis),
    };
    let s = solve(pos, args.depth, &limits);
    let side = side_name(s.attacker);
    let cost = format!("{} nodes, {:.3} s", s.nodes, s.elapsed.as_secs_f64());
    let text = match &s.proof {
        Proof::Proven { line } => {
            let mut end = pos.clone();
            for &m in line {
                end.make(m);
            }
            let verb = if end.is_connected(s.attacker) {
                "connects"
            } else {
                "wins"
            };
            let first = line.first().map_or(String::new(), |m| m.to_string());
            let rest = if line.len() > 1 {
                format!(" (then {})", line_text(&line[1..]))
            } else {
                String::new()
            };
            format!(
                "{side} {verb} in {}: {first}{rest}\nproven, {cost}\n",
                s.depth
            )
        }
        Proof::Disproven => format!(
            "no forced connection within {} found for {side} (threat moves only; searched {cost})\n",
            moves(args.depth)
        ),
        Proof::Unknown => format!("unknown: budget exhausted ({cost})\n"),
    };
    emit(&text)
}
