//! `punct tune`: plays self-play games, fits the evaluation's weights to
//! their results and writes the weights file (punct-tune does the work;
//! docs/TUNING.md explains the method).

use crate::{bad_input, emit, failed, Failure};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use punct_tune::policy::{fit_policy, policy_summary};
use punct_tune::selfplay::{self, EvalChoice, PlayConfig};
use punct_tune::{dataset, feature_list, fit_weights, summary, FitConfig};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

#[derive(Args)]
#[command(after_help = "Examples:\n  \
    punct tune --games 4000 --nodes 1000 --seed 1 --threads 2 --save-data games.txt \\\n      \
    --out crates/punct-engine/data/eval_weights.txt\n  \
    punct tune --data games.txt --lambda 1e-3 --out weights.txt\n  \
    punct tune --policy --data games.txt --out crates/punct-engine/data/policy_weights.txt\n\n\
    See docs/TUNING.md.")]
pub struct TuneArgs {
    /// Self-play games to play [default: 4000, or 0 with --data]
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// Number of the first game to play: the games of a long run can be
    /// played in pieces (--first-game 0 --games 500, --first-game 500 …)
    #[arg(long, value_name = "N", default_value_t = 0)]
    first_game: usize,
    /// Nodes per move in the self-play games
    #[arg(long, value_name = "N", default_value_t = 1000)]
    nodes: u64,
    /// Seed of the openings and random plies (same seed, same games)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Weights the self-play games are played with: hand or tuned
    #[arg(long, value_name = "WEIGHTS", default_value = "hand")]
    from_weights: String,
    /// Random plies after each opening: 0 up to this many
    #[arg(long, value_name = "N", default_value_t = 3)]
    random_plies: usize,
    /// A game reaching this many plies is a draw
    #[arg(long, value_name = "PLIES", default_value_t = 200)]
    adjudicate: usize,
    /// Games recorded by an earlier run (--save-data) to fit as well (repeatable)
    #[arg(long, value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Write every game (read and played) to FILE, for later --data
    #[arg(long, value_name = "FILE")]
    save_data: Option<PathBuf>,
    /// Write the weights here (default: standard output)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Ridge penalty of the fit (relative to each feature's mean square)
    #[arg(long, value_name = "X", default_value_t = 1e-4)]
    lambda: f64,
    /// Plies at the start of each game not used for fitting
    #[arg(long, value_name = "N", default_value_t = 2)]
    skip_plies: usize,
    /// One game in N is held out for validation
    #[arg(long, value_name = "N", default_value_t = 10)]
    validation_every: usize,
    /// Features to hold at 0 (comma-separated names; see docs/TUNING.md)
    #[arg(long, value_name = "NAMES", default_value = "")]
    drop: String,
    /// Fit the move-ordering policy to the moves the games chose instead
    /// of the evaluation to their results; --out then gets a policy file
    /// (crates/punct-engine/data/policy_weights.txt)
    #[arg(long, conflicts_with = "drop")]
    policy: bool,
}

/// The command as typed, for the weights file's header.
fn command_line() -> String {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'') {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a
            }
        })
        .collect();
    format!("punct {}", args.join(" "))
}

pub fn run(args: TuneArgs) -> Result<(), Failure> {
    let eval: EvalChoice = args
        .from_weights
        .parse()
        .map_err(|e| bad_input(format!("--from-weights: {e}")))?;
    let drop = feature_list(&args.drop).map_err(|e| bad_input(format!("--drop: {e}")))?;
    let games = args
        .games
        .unwrap_or(if args.data.is_empty() { 4000 } else { 0 });
    if games > 10_000_000 {
        return Err(bad_input("--games: at most 10000000"));
    }
    let play = PlayConfig {
        first: args.first_game,
        games,
        nodes: args.nodes,
        seed: args.seed,
        threads: args.threads,
        eval,
        random_plies: args.random_plies,
        adjudicate: args.adjudicate,
    };
    play.check().map_err(bad_input)?;
    let fit = FitConfig {
        lambda: args.lambda,
        skip_plies: args.skip_plies,
        validation_every: args.validation_every,
        drop,
    };
    fit.check().map_err(bad_input)?;

    let mut all = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad_input(format!("--data {}: {e}", path.display())))?;
        let read = dataset::read_games(&text, &path.display().to_string()).map_err(bad_input)?;
        eprintln!("read {} games from {}", read.len(), path.display());
        all.extend(read);
    }
    if games > 0 {
        let started = Instant::now();
        let played = self_play(&play)?;
        eprintln!(
            "played {} games in {:.0} s ({} nodes a move, Eval={}, {} thread(s))",
            played.len(),
            started.elapsed().as_secs_f64(),
            play.nodes,
            eval.name(),
            play.threads
        );
        all.extend(played);
    }
    if all.is_empty() {
        return Err(bad_input(
            "no games: give --games N to play some or --data FILE to read some",
        ));
    }
    let mut header = format!("Command: {}\n", command_line());
    if games > 0 {
        header.push_str(&format!(
            "Self-play: games {}-{}, level 4 against itself at {} nodes a move, Eval={}, the \
             shipped openings plus 0-{} random plies, seed {}, one game in four of the basic \
             variant, a draw at {} plies\n",
            play.first,
            play.first + games - 1,
            play.nodes,
            eval.name(),
            play.random_plies,
            play.seed,
            play.adjudicate
        ));
    }
    for path in &args.data {
        header.push_str(&format!("Games read from {}\n", path.display()));
    }
    if let Some(path) = &args.save_data {
        let text = dataset::write_games(&all, &format!("PÜNCT self-play games\n{header}"));
        std::fs::write(path, text)
            .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
        eprintln!("wrote {} games to {}", all.len(), path.display());
    }
    if args.policy {
        return write_policy(&all, &fit, &header, args.out.as_deref());
    }
    let started = Instant::now();
    let (weights, fits) = fit_weights(&all, &fit).map_err(failed)?;
    eprintln!("fitted in {:.1} s", started.elapsed().as_secs_f64());
    let found = summary(&fits);
    emit(&found)?;
    let text = weights.to_text(&format!(
        "PÜNCT evaluation weights, fitted to self-play results by `punct tune` \
         (docs/TUNING.md).\n{header}Fit: lambda {}, skipping {} plies, one game in {} held out\n{found}",
        fit.lambda, fit.skip_plies, fit.validation_every
    ));
    write_out(&text, args.out.as_deref(), "weights")
}

/// `--policy`: fits the move ordering to the games' moves and writes it.
fn write_policy(
    games: &[selfplay::SelfPlayGame],
    fit: &FitConfig,
    header: &str,
    out: Option<&Path>,
) -> Result<(), Failure> {
    let started = Instant::now();
    let found =
        fit_policy(games, fit.skip_plies, fit.validation_every, fit.lambda).map_err(failed)?;
    eprintln!("fitted in {:.1} s", started.elapsed().as_secs_f64());
    let summary = policy_summary(&found);
    emit(&summary)?;
    let text = found.policy.to_text(&format!(
        "PÜNCT move-ordering policy: the weights of the static ranking that picks each inner\n\
         node's shortlist, fitted to the moves of self-play games by `punct tune --policy`\n\
         (docs/TUNING.md).\n{header}Fit: lambda {}, skipping {} plies, one game in {} held out\n{summary}",
        fit.lambda, fit.skip_plies, fit.validation_every
    ));
    write_out(&text, out, "policy")
}

fn write_out(text: &str, out: Option<&Path>, what: &str) -> Result<(), Failure> {
    match out {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
            eprintln!("wrote the {what} to {}", path.display());
        }
        None => emit(text)?,
    }
    Ok(())
}

/// The games, with a progress bar on a terminal (else a line every tenth).
fn self_play(play: &PlayConfig) -> Result<Vec<selfplay::SelfPlayGame>, Failure> {
    let total = play.games;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:25}] {pos}/{len} games, eta {eta} {wide_msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar
    });
    let done = AtomicUsize::new(0);
    let step = (total / 10).max(1);
    let tick = || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        match &bar {
            Some(b) => b.inc(1),
            None if n.is_multiple_of(step) || n == total => eprintln!("played {n}/{total} games"),
            None => {}
        }
    };
    let games = selfplay::play(play, &tick).map_err(failed);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    games
}
