//! `punct suite`: an engine on every position of tactical suite files.
//!
//! Each file's task (win at once, stop the opponent's win, win in two
//! whatever the reply) comes from a `# kind:` line or the file's name; the
//! format is described in `punct_engine::suite`. The engine's move is
//! checked by the rules alone (a win in two against every legal reply), and
//! every `win N` / `loss N` score it reports is replayed the same way
//! (`punct_engine::suite::verify_claim`), so the output says both how many
//! positions it solved and how many of its forced-win claims were real.

use crate::{bad_input, emit, failed, Failure};
use clap::Args;
use punct_core::Move;
use punct_engine::suite::{
    parse_suite, solves, verify_claim_with_budget, ClaimCheck, Suite, Tally, Task,
};
use punct_engine::{new_engine, Engine, Limits, Score, SearchResult};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Args)]
#[command(
    after_help = "Suite files: one position string per line, optionally followed by \
    its solutions; `#` lines are comments, and `# kind: win-in-1` (or must-block, win-in-2) \
    names the task, else the file name does (win_in_1…, must_block…, win_in_2…).\n\n\
    Examples:\n  \
    punct suite crates/punct-engine/tests/suites/win_in_2.txt --movetime 1000\n  \
    punct suite crates/punct-engine/tests/suites/*.txt --engine level3 --nodes 20000 --threads 2"
)]
pub struct SuiteArgs {
    /// Suite files
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The engine (see `punct engines`)
    #[arg(long, default_value = "level4")]
    engine: String,
    /// An engine option, as `setoption` (repeatable)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Milliseconds per position (the default, 1000, when --nodes is not given)
    #[arg(long, conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Nodes per position (reproducible, unlike a time limit)
    #[arg(long)]
    nodes: Option<u64>,
    /// Positions searched at the same time, each by its own engine (for a
    /// multi-threaded search use --option Threads=N)
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The engine's seed
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Most exhaustive win-in-two proofs spent checking one claimed win or
    /// loss (a win in five plies needs one for each reply that leaves no
    /// win at once; past this the claim is reported unconfirmed)
    #[arg(long, default_value_t = punct_engine::suite::PROOF_BUDGET)]
    proofs: usize,
    /// Print every position's move and score, not only the failures
    #[arg(long)]
    verbose: bool,
}

/// What one position gave.
struct Tried {
    line: usize,
    result: SearchResult,
    solved: bool,
    verdict: Option<ClaimCheck>,
}

fn parse_options(raw: &[String]) -> Result<Vec<(String, String)>, Failure> {
    raw.iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                Ok((n.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(bad_input(format!(
                "--option `{o}`: expected NAME=VALUE, e.g. --option Threads=1"
            ))),
        })
        .collect()
}

/// A fresh engine, its options set: every position and every check of a
/// claim starts from an empty transposition table.
fn engine(args: &SuiteArgs, options: &[(String, String)]) -> Result<Box<dyn Engine>, String> {
    let mut e = new_engine(&args.engine, args.seed)?;
    for (n, v) in options {
        e.set_option(n, v)
            .map_err(|err| format!("--option {n}={v}: {err}"))?;
    }
    Ok(e)
}

fn limits_text(limits: &Limits) -> String {
    match (limits.movetime, limits.nodes) {
        (Some(t), _) => format!("{} ms a position", t.as_millis()),
        (_, Some(n)) => format!("{n} nodes a position"),
        _ => "no limit".into(),
    }
}

pub fn run(args: SuiteArgs) -> Result<(), Failure> {
    if args.threads == 0 || args.threads > 64 {
        return Err(bad_input("--threads must be between 1 and 64"));
    }
    if args.movetime == Some(0) || args.nodes == Some(0) {
        return Err(bad_input("--movetime and --nodes must be at least 1"));
    }
    let options = parse_options(&args.options)?;
    // Refuse an unknown engine or option before reading anything.
    engine(&args, &options).map_err(bad_input)?;
    let limits = match args.nodes {
        Some(n) => Limits::nodes(n),
        None => Limits::movetime(args.movetime.unwrap_or(1000)),
    };
    let mut suites: Vec<(String, Suite)> = Vec::new();
    for path in &args.files {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| failed(format!("cannot read {shown}: {e}")))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let suite = parse_suite(&name, &text).map_err(|e| failed(format!("{shown}: {e}")))?;
        // A position that does not set its task would make its count
        // meaningless: refuse the file.
        for e in &suite.entries {
            suite
                .task
                .check_position(&e.position, &e.solutions)
                .map_err(|why| {
                    failed(format!(
                        "{shown}: line {}: not a {} position: {why}",
                        e.line, suite.task
                    ))
                })?;
        }
        suites.push((shown, suite));
    }
    emit(&format!(
        "{} ({}), {}\n",
        args.engine,
        if options.is_empty() {
            "default options".to_string()
        } else {
            options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        },
        limits_text(&limits)
    ))?;
    let started = Instant::now();
    // Every position of every file, searched by `threads` workers.
    let jobs: Vec<(usize, usize)> = suites
        .iter()
        .enumerate()
        .flat_map(|(f, (_, s))| (0..s.entries.len()).map(move |e| (f, e)))
        .collect();
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Option<Result<Tried, String>>>> =
        Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.min(jobs.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(f, e)) = jobs.get(i) else {
                    break;
                };
                let (file, suite) = &suites[f];
                let entry = &suite.entries[e];
                let out = one(&args, &options, &limits, suite.task, entry)
                    .map_err(|why| format!("{file}: line {}: {why}", entry.line));
                outcomes.lock().expect("no panics")[i] = Some(out);
            });
        }
    });
    let mut outcomes = outcomes
        .into_inner()
        .expect("no panics")
        .into_iter()
        .map(|o| o.expect("every job ran"));
    let mut total = (0, 0, Tally::default(), Tally::default());
    for (file, suite) in &suites {
        let mut text = String::new();
        let mut solved = 0;
        let (mut wins, mut losses) = (Tally::default(), Tally::default());
        for _ in &suite.entries {
            let o = outcomes
                .next()
                .expect("one outcome a position")
                .map_err(failed)?;
            solved += usize::from(o.solved);
            if let Some(v) = &o.verdict {
                match o.result.score {
                    Score::Win(_) => wins.add(v),
                    _ => losses.add(v),
                }
            }
            let claim = match &o.verdict {
                Some(ClaimCheck::Refuted(why)) => format!("; the claim is false: {why}"),
                Some(ClaimCheck::Unconfirmed(why)) => format!("; the claim is unconfirmed: {why}"),
                _ => String::new(),
            };
            if args.verbose || !o.solved || !claim.is_empty() {
                text.push_str(&format!(
                    "  line {}: {} ({}, depth {}, {} nodes): {}{claim}\n",
                    o.line,
                    o.result.best,
                    o.result.score,
                    o.result.depth,
                    o.result.nodes,
                    if o.solved { "solved" } else { "not solved" },
                ));
            }
        }
        let n = suite.entries.len();
        emit(&format!(
            "{file}: {} ({}): solved {solved}/{n} ({:.1} %); win claims: {wins}; loss claims: {losses}\n{text}",
            suite.task,
            suite.task.goal(),
            100.0 * solved as f64 / n as f64,
        ))?;
        total.0 += solved;
        total.1 += n;
        total.2 += &wins;
        total.3 += &losses;
    }
    if suites.len() > 1 {
        emit(&format!(
            "all: solved {}/{}; win claims: {}; loss claims: {}\n",
            total.0, total.1, total.2, total.3
        ))?;
    }
    emit(&format!("in {:.1} s\n", started.elapsed().as_secs_f64()))
}

/// Searches one position, checks the move against the task and the score
/// against the rules.
fn one(
    args: &SuiteArgs,
    options: &[(String, String)],
    limits: &Limits,
    task: Task,
    entry: &punct_engine::suite::Entry,
) -> Result<Tried, String> {
    let pos = &entry.position;
    let stop = AtomicBool::new(false);
    let result = engine(args, options)?.search(pos, limits, &stop, &mut |_| {});
    let best: Move = result.best;
    let solved = solves(task, pos, best);
    // Each new search for the check starts afresh, like the first.
    let mut again = engine(args, options)?;
    let mut research = |p: &punct_core::Position| {
        again.new_game();
        again.search(p, limits, &stop, &mut |_| {})
    };
    let verdict = verify_claim_with_budget(pos, &result, &mut research, args.proofs);
    Ok(Tried {
        line: entry.line,
        result,
        solved,
        verdict,
    })
}
