//! `punct match`: play two engines against each other — built-in ones or
//! external programs speaking the engine protocol — in pairs of games from
//! the same opening with colours swapped, and report the score, the Elo
//! difference and, with `--sprt`, the sequential test's verdict.
//! docs/MATCH.md describes the flags, the output and the formulas.

mod game;
pub(crate) mod openings;
pub(crate) mod players;
mod stats;

use crate::{bad_input, date, emit, failed, Failure, VariantArg};
use clap::Args;
use game::{Ending, ForfeitKind, Played, Settings, TimeControl};
use indicatif::{ProgressBar, ProgressStyle};
use openings::Opening;
use players::{Builtin, Contestant, External, Fault, Request, Spec, StartError};
use punct_core::{Game, Move, Outcome, Record, Side, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use stats::{Sprt, SprtDecision, Tally};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

#[derive(Args)]
#[command(after_help = "Examples:\n  \
    punct match --engine1 greedy --engine2 random --games 20 --nodes 1\n  \
    punct match --engine1 level2 --engine2 level1 --tc 10+0.1 --concurrency 2 --records m.pgn\n  \
    punct match --engine1 'cmd:./new-engine --hash 64' --engine2 'cmd:punct engine --engine level4' \\\n      \
    --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05 --games 20000\n\n\
    See docs/MATCH.md for the output and the formulas.")]
pub struct MatchArgs {
    // Boxed: the flags are many, and `Command` should stay small.
    #[command(flatten)]
    flags: Box<Flags>,
}

#[derive(Args)]
struct Flags {
    /// First engine: a built-in name (see `punct engines`) or `cmd:<command
    /// line>` for an external program speaking the engine protocol (split on
    /// whitespace; no quoting)
    #[arg(
        long,
        value_name = "SPEC",
        required_unless_present = "generate_openings"
    )]
    engine1: Option<String>,
    /// Second engine (as --engine1)
    #[arg(
        long,
        value_name = "SPEC",
        required_unless_present = "generate_openings"
    )]
    engine2: Option<String>,
    /// An option for engine 1, sent as `setoption` (repeatable)
    #[arg(long, value_name = "NAME=VALUE")]
    option1: Vec<String>,
    /// An option for engine 2 (repeatable)
    #[arg(long, value_name = "NAME=VALUE")]
    option2: Vec<String>,
    /// Name for engine 1 in the output and records (default: the engine's own)
    #[arg(long, value_name = "NAME")]
    name1: Option<String>,
    /// Name for engine 2
    #[arg(long, value_name = "NAME")]
    name2: Option<String>,
    /// Number of games (the maximum with --sprt); played in pairs, colours swapped
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Stop early by a sequential probability ratio test, e.g.
    /// elo0=0,elo1=10,alpha=0.05,beta=0.05
    #[arg(long, value_name = "PARAMS")]
    sprt: Option<String>,
    /// Game variant
    #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
    variant: VariantArg,
    /// Openings file: one opening per line as moves (default: the shipped
    /// openings/<variant>.txt, built into the binary)
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Shuffle the openings' order with this seed (default: file order)
    #[arg(long, value_name = "N")]
    shuffle_seed: Option<u64>,
    /// Time per move in milliseconds [default: 100 unless --tc or --nodes]
    #[arg(long, value_name = "MS", conflicts_with_all = ["tc", "nodes"])]
    movetime: Option<u64>,
    /// Time odds: engine 2's time per move in milliseconds (engine 1 keeps
    /// --movetime's), e.g. to measure what thinking longer gains
    #[arg(long, value_name = "MS", conflicts_with_all = ["tc", "nodes"])]
    movetime2: Option<u64>,
    /// A clock per side: BASE+INC in seconds, e.g. 10+0.1; running out loses
    #[arg(long, value_name = "BASE+INC", conflicts_with = "nodes")]
    tc: Option<String>,
    /// Nodes per move
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Extra milliseconds a move may take beyond its limit before it loses on
    /// time [default: 1000 with --movetime, 0 with --tc, 10000 with --nodes]
    #[arg(long, value_name = "MS")]
    grace: Option<u64>,
    /// Games played at the same time
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// A game reaching this many plies is a draw
    #[arg(long, value_name = "PLIES", default_value_t = 300)]
    adjudicate: u32,
    /// Write every game's record to this file (blank lines between games)
    #[arg(long, value_name = "FILE", conflicts_with = "records_dir")]
    records: Option<PathBuf>,
    /// Write each game's record to DIR/game-NNNN.pgn
    #[arg(long, value_name = "DIR")]
    records_dir: Option<PathBuf>,
    /// Seed for the built-in engines (each game and engine gets its own,
    /// derived from it)
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print COUNT generated balanced openings for --variant (seeded by
    /// --seed) and exit; how openings/*.txt were made
    #[arg(long, value_name = "COUNT", hide = true)]
    generate_openings: Option<usize>,
}

/// One side of the match, as configured.
struct Entrant {
    spec: Spec,
    options: Vec<(String, String)>,
    name: String,
}

/// Everything the worker threads share.
struct Plan {
    engines: [Entrant; 2],
    settings: Settings,
    /// Engine 2's time per move, when it has its own (--movetime2).
    movetime2: Option<Duration>,
    openings: Vec<Opening>,
    /// Opening index for pair k: `order[k % len]`.
    order: Vec<usize>,
    games: usize,
    seed: u64,
    /// Next game index to start.
    next: AtomicUsize,
    /// Set when the SPRT has decided: finish no more games.
    abort: AtomicBool,
}

/// A game's result, sent from a worker to the main thread.
struct Finished {
    index: usize,
    /// Whether engine 1 had White.
    engine1_white: bool,
    opening: usize,
    played: Played,
}

pub(crate) fn parse_options(flag: &str, raw: &[String]) -> Result<Vec<(String, String)>, Failure> {
    raw.iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                Ok((n.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(bad_input(format!(
                "{flag} `{o}`: expected NAME=VALUE, e.g. {flag} Threads=1"
            ))),
        })
        .collect()
}

/// `BASE+INC` (or `BASE`) in seconds.
fn parse_tc(text: &str) -> Result<TimeControl, Failure> {
    let bad = || {
        bad_input(format!(
            "--tc `{text}`: expected BASE+INC in seconds, e.g. 10+0.1 or 60"
        ))
    };
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> Result<f64, Failure> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 86_400.0)
            .ok_or_else(bad)
    };
    let (base, inc) = (secs(base)?, secs(inc)?);
    if base <= 0.0 {
        return Err(bad_input(format!(
            "--tc `{text}`: the base time must be above 0"
        )));
    }
    Ok(TimeControl::Clock {
        base: Duration::from_secs_f64(base),
        inc: Duration::from_secs_f64(inc),
    })
}

/// The seed of engine `which` (0, 1) in game `index`: a SplitMix64 mix of
/// `--seed`, the game and the engine, so every game differs but reruns agree.
fn game_seed(seed: u64, index: usize, which: usize) -> u64 {
    let mut z = seed ^ (index as u64 * 2 + which as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Checks an engine once before the match: its name, and that it starts
/// and takes its options.
fn probe(flag: &str, spec: &Spec, options: &[(String, String)]) -> Result<String, Failure> {
    match spec {
        Spec::Builtin(name) => {
            let b = players::builtin(name, 0, options).map_err(bad_input)?;
            Ok(b.engine.name())
        }
        Spec::External(argv) => {
            let ext = External::start(argv, options).map_err(|e| match e {
                StartError::Spawn(m) | StartError::Options(m) => bad_input(format!("{flag}: {m}")),
                StartError::Fault(f) => failed(format!(
                    "{flag}: `{}` failed the handshake: {}",
                    argv.join(" "),
                    fault_text(&f)
                )),
            })?;
            for (n, _) in options {
                if !ext.options.is_empty() && !ext.options.iter().any(|o| o.eq_ignore_ascii_case(n))
                {
                    eprintln!(
                        "punct: warning: {flag}: `{}` announced no option `{n}` (it has: {})",
                        ext.name,
                        ext.options.join(", ")
                    );
                }
            }
            Ok(ext.name.clone())
        }
    }
}

pub(crate) fn fault_text(f: &Fault) -> &str {
    match f {
        Fault::Timeout(m) | Fault::Crash(m) | Fault::Malformed(m) => m,
    }
}

/// A player that could not be started: it forfeits at once.
struct Broken(Fault);

impl Contestant for Broken {
    fn new_game(&mut self, _: Variant) -> Result<(), Fault> {
        Err(self.0.clone())
    }
    fn go(&mut self, _: &Game, _: &Request) -> Result<(Move, Duration), Fault> {
        Err(self.0.clone())
    }
}

/// A worker's player for one engine: built-in engines are made afresh for
/// each game (with that game's seed); an external process is kept from
/// game to game and restarted after it forfeits.
struct Seat<'a> {
    side: &'a Entrant,
    builtin: Option<Builtin>,
    external: Option<External>,
    broken: Option<Broken>,
}

impl<'a> Seat<'a> {
    fn new(side: &'a Entrant) -> Seat<'a> {
        Seat {
            side,
            builtin: None,
            external: None,
            broken: None,
        }
    }

    fn for_game(&mut self, seed: u64) -> &mut dyn Contestant {
        self.broken = None;
        match &self.side.spec {
            Spec::Builtin(name) => match players::builtin(name, seed, &self.side.options) {
                Ok(b) => self.builtin.insert(b),
                Err(e) => self.broken.insert(Broken(Fault::Crash(e))),
            },
            Spec::External(argv) => {
                if self.external.is_none() {
                    match External::start(argv, &self.side.options) {
                        Ok(e) => self.external = Some(e),
                        Err(StartError::Spawn(m)) | Err(StartError::Options(m)) => {
                            return self.broken.insert(Broken(Fault::Crash(m)))
                        }
                        Err(StartError::Fault(f)) => return self.broken.insert(Broken(f)),
                    }
                }
                self.external.as_mut().expect("started")
            }
        }
    }

    /// After a forfeit: an external process is replaced before the next game.
    fn reset(&mut self) {
        self.external = None;
    }
}

fn worker(plan: &Plan, tx: mpsc::Sender<Option<Finished>>) {
    let mut seats = [Seat::new(&plan.engines[0]), Seat::new(&plan.engines[1])];
    loop {
        if plan.abort.load(Ordering::Relaxed) {
            return;
        }
        let index = plan.next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.games {
            return;
        }
        let pair = index / 2;
        let engine1_white = index.is_multiple_of(2);
        let opening = plan.order[pair % plan.order.len()];
        let [s1, s2] = &mut seats;
        let p1 = s1.for_game(game_seed(plan.seed, index, 0));
        let p2 = s2.for_game(game_seed(plan.seed, index, 1));
        let (white, black) = if engine1_white { (p1, p2) } else { (p2, p1) };
        let settings = Settings {
            odds: plan.movetime2.map(|t| {
                let side = if engine1_white {
                    Side::Black
                } else {
                    Side::White
                };
                (side, t)
            }),
            ..plan.settings
        };
        let played = game::play(
            &settings,
            &plan.openings[opening].moves,
            white,
            black,
            &plan.abort,
        );
        if let Some(Played {
            ending: Ending::Forfeit { loser, .. },
            ..
        }) = &played
        {
            let loser_is_engine1 = (*loser == Side::White) == engine1_white;
            seats[usize::from(!loser_is_engine1)].reset();
        }
        let msg = played.map(|played| Finished {
            index,
            engine1_white,
            opening,
            played,
        });
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// Where records go.
enum Records {
    None,
    /// One file, written in game order.
    File {
        file: File,
        path: PathBuf,
        pending: BTreeMap<usize, String>,
        next: usize,
        first: bool,
    },
    Dir(PathBuf),
}

impl Records {
    fn open(args: &Flags) -> Result<Records, Failure> {
        if let Some(path) = &args.records {
            let file = File::create(path)
                .map_err(|e| failed(format!("--records: cannot create {}: {e}", path.display())))?;
            return Ok(Records::File {
                file,
                path: path.clone(),
                pending: BTreeMap::new(),
                next: 0,
                first: true,
            });
        }
        if let Some(dir) = &args.records_dir {
            std::fs::create_dir_all(dir).map_err(|e| {
                failed(format!(
                    "--records-dir: cannot create {}: {e}",
                    dir.display()
                ))
            })?;
            return Ok(Records::Dir(dir.clone()));
        }
        Ok(Records::None)
    }

    /// Game `index`'s record.
    fn add(&mut self, index: usize, text: String, digits: usize) -> Result<(), Failure> {
        match self {
            Records::None => Ok(()),
            Records::Dir(dir) => {
                let path = dir.join(format!("game-{:0digits$}.pgn", index + 1));
                std::fs::write(&path, text)
                    .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))
            }
            Records::File { pending, .. } => {
                pending.insert(index, text);
                self.flush(false)
            }
        }
    }

    /// Writes the records that are next in game order (all with `all`:
    /// games abandoned after an SPRT decision leave gaps).
    fn flush(&mut self, all: bool) -> Result<(), Failure> {
        let Records::File {
            file,
            path,
            pending,
            next,
            first,
        } = self
        else {
            return Ok(());
        };
        while let Some((&i, _)) = pending.first_key_value() {
            if i != *next && !all {
                break;
            }
            let text = pending.remove(&i).unwrap_or_default();
            *next = i + 1;
            let sep = if *first { "" } else { "\n" };
            *first = false;
            file.write_all(format!("{sep}{text}").as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
        }
        Ok(())
    }
}

/// Results kept by the main thread.
#[derive(Default)]
struct Totals {
    tally: Tally,
    /// Engine 1's results with White, then with Black.
    as_white: Tally,
    as_black: Tally,
    white_wins: u32,
    black_wins: u32,
    draws: u32,
    adjudicated: u32,
    /// Forfeits by engine 1 and 2: time, illegal, crash, malformed.
    forfeits: [[u32; 4]; 2],
}

fn kind_index(k: ForfeitKind) -> usize {
    match k {
        ForfeitKind::Time => 0,
        ForfeitKind::Illegal => 1,
        ForfeitKind::Crash => 2,
        ForfeitKind::Malformed => 3,
    }
}

pub fn run(args: MatchArgs) -> Result<(), Failure> {
    let args = *args.flags;
    let variant = Variant::from(args.variant);
    if let Some(count) = args.generate_openings {
        if count == 0 || count > 10_000 {
            return Err(bad_input("--generate-openings must be 1 to 10000"));
        }
        return emit(&openings::generate(variant, count, args.seed));
    }
    let (Some(e1), Some(e2)) = (&args.engine1, &args.engine2) else {
        return Err(bad_input("--engine1 and --engine2 are both needed"));
    };
    let spec1 = Spec::parse("--engine1", e1).map_err(bad_input)?;
    let spec2 = Spec::parse("--engine2", e2).map_err(bad_input)?;
    let options1 = parse_options("--option1", &args.option1)?;
    let options2 = parse_options("--option2", &args.option2)?;
    if args.games == 0 || args.games > 10_000_000 {
        return Err(bad_input("--games must be 1 to 10000000"));
    }
    if args.concurrency == 0 || args.concurrency > 256 {
        return Err(bad_input("--concurrency must be 1 to 256"));
    }
    if args.adjudicate == 0 {
        return Err(bad_input("--adjudicate must be at least 1 ply"));
    }
    let time = if let Some(tc) = &args.tc {
        parse_tc(tc)?
    } else if let Some(n) = args.nodes {
        if n == 0 {
            return Err(bad_input("--nodes must be at least 1"));
        }
        TimeControl::Nodes(n)
    } else {
        let ms = args.movetime.unwrap_or(100);
        if ms == 0 || ms > 3_600_000 {
            return Err(bad_input("--movetime must be 1 to 3600000 ms"));
        }
        TimeControl::MoveTime(Duration::from_millis(ms))
    };
    let movetime2 = match args.movetime2 {
        Some(ms) if ms == 0 || ms > 3_600_000 => {
            return Err(bad_input("--movetime2 must be 1 to 3600000 ms"))
        }
        ms => ms.map(Duration::from_millis),
    };
    let grace = Duration::from_millis(args.grace.unwrap_or(match time {
        TimeControl::MoveTime(_) => 1000,
        TimeControl::Clock { .. } => 0,
        TimeControl::Nodes(_) => 10_000,
    }));
    if matches!(time, TimeControl::Nodes(_)) && grace.is_zero() {
        return Err(bad_input(
            "--grace must be above 0 with --nodes (it is the whole time a move may take)",
        ));
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(bad_input)?;
    let (opening_list, opening_source) = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                bad_input(format!("--openings: cannot read {}: {e}", path.display()))
            })?;
            let source = path.display().to_string();
            (
                openings::parse(&text, variant, &source).map_err(bad_input)?,
                source,
            )
        }
        None => {
            let (text, source) = match variant {
                Variant::Standard => (openings::STANDARD, "openings/standard.txt"),
                Variant::Basic => (openings::BASIC, "openings/basic.txt"),
            };
            let list = openings::parse(text, variant, source)
                .map_err(|e| failed(format!("the built-in openings are broken: {e}")))?;
            (list, format!("{source} (built in)"))
        }
    };
    let mut order: Vec<usize> = (0..opening_list.len()).collect();
    if let Some(s) = args.shuffle_seed {
        order.shuffle(&mut StdRng::seed_from_u64(s));
    }

    // Start each engine once: its name, and errors before any game.
    let probed1 = probe("--engine1", &spec1, &options1)?;
    let probed2 = probe("--engine2", &spec2, &options2)?;
    let name1 = args.name1.clone().unwrap_or(probed1);
    let name2 = args.name2.clone().unwrap_or(probed2);
    let mut records = Records::open(&args)?;

    let games = args.games as usize;
    let plan = Plan {
        engines: [
            Entrant {
                spec: spec1,
                options: options1,
                name: name1,
            },
            Entrant {
                spec: spec2,
                options: options2,
                name: name2,
            },
        ],
        settings: Settings {
            variant,
            time,
            grace,
            odds: None,
            adjudicate: args.adjudicate as usize,
        },
        movetime2,
        openings: opening_list,
        order,
        games,
        seed: args.seed,
        next: AtomicUsize::new(0),
        abort: AtomicBool::new(false),
    };
    let names = [plan.engines[0].name.clone(), plan.engines[1].name.clone()];
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(games as u64);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:25}] {pos}/{len} {wide_msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar
    });
    let say = |line: String| match &bar {
        Some(b) => b.println(line),
        None => eprintln!("{line}"),
    };
    let digits = games.to_string().len().max(4);
    let date = date::today();
    let tc_tag = match plan.movetime2 {
        Some(t) => format!("{}, {} {} ms", time.tag(), names[1], t.as_millis()),
        None => time.tag(),
    };
    let mut totals = Totals::default();
    let mut verdict = SprtDecision::Continue;
    let mut llr = 0.0;
    let mut error = None;

    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..args.concurrency.min(games) {
            let tx = tx.clone();
            let plan = &plan;
            scope.spawn(move || worker(plan, tx));
        }
        drop(tx);
        for msg in rx {
            // Games abandoned after the SPRT decided (`None`), or finished
            // after it, or after a failure to write, are not counted.
            let Some(f) = msg else { continue };
            if verdict != SprtDecision::Continue || error.is_some() {
                continue;
            }
            let text = account(&f, &plan, &names, &mut totals, &date, &tc_tag);
            let n = totals.tally.games();
            let opening = &plan.openings[f.opening];
            let (wn, bn) = if f.engine1_white {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            if let Ending::Forfeit {
                loser,
                detail,
                kind,
            } = &f.played.ending
            {
                let who = if *loser == Side::White { wn } else { bn };
                let what = match kind {
                    ForfeitKind::Time => "time forfeit",
                    ForfeitKind::Illegal => "illegal move",
                    ForfeitKind::Crash => "engine failure",
                    ForfeitKind::Malformed => "malformed reply",
                };
                say(format!(
                    "punct: game {}: {who} ({loser}) loses by {what}: {detail}",
                    f.index + 1
                ));
            }
            if let Some(s) = &sprt {
                llr = s.llr(&totals.tally);
                verdict = s.verdict(llr);
                if verdict != SprtDecision::Continue {
                    plan.abort.store(true, Ordering::Relaxed);
                }
            }
            let t = totals.tally;
            let score = format!(
                "{} {} - {} - {}  [{:.3}]",
                names[0],
                t.wins,
                t.losses,
                t.draws,
                t.score()
            );
            match &bar {
                Some(b) => {
                    b.inc(1);
                    let mut msg = score;
                    if sprt.is_some() {
                        msg.push_str(&format!("  llr {llr:.2}"));
                    }
                    b.set_message(msg);
                }
                None => eprintln!(
                    "Finished game {} ({wn} vs {bn}, opening line {}): {} {{{}}}; {score} after {n}{}",
                    f.index + 1,
                    opening.line,
                    f.played.outcome.token(),
                    describe_end(&f.played),
                    if sprt.is_some() {
                        format!(", llr {llr:.2}")
                    } else {
                        String::new()
                    }
                ),
            }
            if let Err(e) = records.add(f.index, text, digits) {
                error = Some(e);
                plan.abort.store(true, Ordering::Relaxed);
            }
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = error {
        return Err(e);
    }
    records.flush(true)?;
    emit(&summary(
        &names,
        &totals,
        sprt.as_ref(),
        llr,
        verdict,
        games,
        &opening_source,
        plan.openings.len(),
    ))
}

/// Counts a finished game and returns its record.
fn account(
    f: &Finished,
    plan: &Plan,
    names: &[String; 2],
    totals: &mut Totals,
    date: &str,
    tc_tag: &str,
) -> String {
    let played = &f.played;
    let white_points = game::white_points(played.outcome);
    let points = if f.engine1_white {
        white_points
    } else {
        1.0 - white_points
    };
    let colour_tally = if f.engine1_white {
        &mut totals.as_white
    } else {
        &mut totals.as_black
    };
    for t in [&mut totals.tally, colour_tally] {
        if points == 1.0 {
            t.wins += 1;
        } else if points == 0.0 {
            t.losses += 1;
        } else {
            t.draws += 1;
        }
    }
    match played.outcome {
        Outcome::WhiteWins => totals.white_wins += 1,
        Outcome::BlackWins => totals.black_wins += 1,
        _ => totals.draws += 1,
    }
    match &played.ending {
        Ending::Adjudicated => totals.adjudicated += 1,
        Ending::Forfeit { loser, kind, .. } => {
            let engine = usize::from((*loser == Side::White) != f.engine1_white);
            totals.forfeits[engine][kind_index(*kind)] += 1;
        }
        Ending::Rules => {}
    }
    let (white, black) = if f.engine1_white {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    let round = (f.index + 1).to_string();
    let opening = plan.openings[f.opening].text();
    let mut tags: Vec<(&str, &str)> = vec![
        ("Event", "punct match"),
        ("Site", "punct match"),
        ("Date", date),
        ("Round", &round),
        ("White", white),
        ("Black", black),
        ("Opening", &opening),
        ("TimeControl", tc_tag),
    ];
    let termination = played.termination();
    if let Some(t) = &termination {
        tags.push(("Termination", t));
    }
    let mut record = Record::from_game(&played.game, &tags);
    record.outcome = played.outcome;
    record.set_tag("Result", played.outcome.token());
    record.to_text()
}

/// How a game ended, for the per-game line.
fn describe_end(p: &Played) -> String {
    let plies = p.game.len();
    match &p.ending {
        Ending::Rules => {
            let who = match p.outcome {
                Outcome::WhiteWins => "white wins",
                Outcome::BlackWins => "black wins",
                _ => "draw",
            };
            format!("{who} by {}, {plies} plies", game::rules_reason(&p.game))
        }
        _ => p.termination().unwrap_or_default(),
    }
}

#[allow(clippy::too_many_arguments)]
fn summary(
    names: &[String; 2],
    totals: &Totals,
    sprt: Option<&Sprt>,
    llr: f64,
    verdict: SprtDecision,
    max_games: usize,
    opening_source: &str,
    opening_count: usize,
) -> String {
    let t = totals.tally;
    let n = t.games();
    let mut out = format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {n}\n",
        names[0],
        names[1],
        t.wins,
        t.losses,
        t.draws,
        t.score()
    );
    let draw_ratio = if n == 0 {
        0.0
    } else {
        100.0 * f64::from(t.draws) / f64::from(n)
    };
    out.push_str(&format!(
        "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
        stats::elo_estimate(&t).describe(),
        100.0 * stats::los(&t),
        draw_ratio
    ));
    let (w, b) = (totals.as_white, totals.as_black);
    out.push_str(&format!(
        "Games: {n} of {max_games}, score {:.1} %; {} as white {} - {} - {}, as black {} - {} - {}; \
         white won {}, black won {}, drawn {} ({} adjudicated)\n",
        100.0 * t.score(),
        names[0],
        w.wins,
        w.losses,
        w.draws,
        b.wins,
        b.losses,
        b.draws,
        totals.white_wins,
        totals.black_wins,
        totals.draws,
        totals.adjudicated
    ));
    out.push_str(&format!(
        "Openings: {opening_count} from {opening_source}\n"
    ));
    for (i, counts) in totals.forfeits.iter().enumerate() {
        let total: u32 = counts.iter().sum();
        if total > 0 {
            let parts: Vec<String> = ["time", "illegal move", "failure", "malformed reply"]
                .iter()
                .zip(counts)
                .filter(|(_, &c)| c > 0)
                .map(|(what, c)| format!("{what} {c}"))
                .collect();
            out.push_str(&format!(
                "Forfeits by {}: {total} ({})\n",
                names[i],
                parts.join(", ")
            ));
        }
    }
    if let Some(s) = sprt {
        let (lower, upper) = s.bounds();
        let share = if llr >= 0.0 { llr / upper } else { llr / lower };
        let word = match verdict {
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::Continue => "inconclusive",
        };
        out.push_str(&format!(
            "SPRT: llr {llr:.2} ({:.1} %), lbound {lower:.2}, ubound {upper:.2} - {word} \
             (elo0 {}, elo1 {}, alpha {}, beta {})\n",
            100.0 * share,
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            parse_tc("10+0.1").ok(),
            Some(TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            })
        );
        assert_eq!(
            parse_tc("2").ok(),
            Some(TimeControl::Clock {
                base: Duration::from_secs(2),
                inc: Duration::ZERO
            })
        );
        for bad in ["", "0+1", "x+1", "10+", "-1+0", "10+0.1+2", "nan"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seeds_differ_by_game_and_engine_and_repeat() {
        assert_ne!(game_seed(0, 0, 0), game_seed(0, 0, 1));
        assert_ne!(game_seed(0, 0, 0), game_seed(0, 1, 0));
        assert_ne!(game_seed(0, 3, 1), game_seed(1, 3, 1));
        assert_eq!(game_seed(7, 3, 1), game_seed(7, 3, 1));
    }
}
