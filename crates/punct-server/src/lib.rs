//! The PÜNCT game server's runtime behind `punct serve`: the connection
//! layer, the JSON API and live sockets (`api/`), the games held in memory
//! and the one way to change one (`change.rs` over `app.rs`), the AI's
//! moves and its fair scheduler, clocks, presence, post-game reviews,
//! limits, security and metrics, and the web page (embedded in the
//! binary). Games are kept by `punct-store` (SQLite, or PostgreSQL shared
//! by several instances); the learning content comes from `punct-learn`.
//!
//! Anything that changes a game goes one way: lock the game, apply the
//! change in memory, commit it to the database at the version it was read
//! (`App::commit`), and only then answer and push the new state to every
//! watcher. A failed commit restores the game.

mod accounts;
mod ai;
mod analysis;
mod api;
mod app;
mod blocks;
mod botapi;
mod bots;
mod challenges;
mod change;
mod clock;
mod conn;
mod create;
pub mod date;
mod delta;
mod error;
mod games;
mod health;
mod jobs;
mod limits;
mod lobby;
mod log;
mod metrics;
mod notes;
mod passkeys;
mod playban;
mod presence;
mod ratings;
mod rematch;
mod review;
mod scheduler;
mod security;
mod serve;
mod view;
mod web;

pub use error::ApiError;
pub use games::{LiveGame, Mode, Notice};
pub use punct_store::{GameRow, Location, SaveError, Storage, SyncMode};
pub use web::static_site;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// What `punct serve` is told on the command line.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    pub data_dir: PathBuf,
    /// The games database; `None`: the SQLite file in `data_dir`.
    pub database: Option<Location>,
    /// The AI's thinking time per move, in milliseconds.
    pub ai_movetime_ms: u64,
    /// How many AI searches (moves and analyses) run at once.
    pub ai_workers: usize,
    /// The longest analysis a client may ask for, in milliseconds.
    pub analyse_max_ms: u64,
    /// The search time per position of the post-game analysis (ms).
    pub review_movetime_ms: u64,
    /// Whether a change is flushed to disk before it is acknowledged.
    pub sync: SyncMode,
    /// The most AI searches one client may have running at once (the rest
    /// of its jobs wait while other clients' jobs go first).
    pub ai_jobs_per_client: usize,
    /// The most AI jobs (moves and analyses) one client may have waiting.
    pub ai_queue_per_client: usize,
    /// The most AI jobs waiting in all.
    pub ai_queue: usize,
    /// Per-client rate limits.
    pub rates: Rates,
    /// The peer is a reverse proxy: the client is the last address of
    /// `X-Forwarded-For`.
    pub trust_proxy: bool,
    /// In an online real-time game, a player may claim the win once the
    /// opponent has had no live socket for this long.
    pub abandon_after: Duration,
    /// The playban's unit (playban.rs): the shortest cooldown before a
    /// player who keeps leaving or aborting games may start a new one;
    /// the longer ones are 3 and 12 of it.
    pub playban_base: Duration,
    /// Live sockets at once on one game, and from one client.
    pub ws_per_game: usize,
    pub ws_per_client: usize,
    /// A live socket whose client does not take a message within this
    /// time is closed.
    pub ws_send_timeout: Duration,
    /// A live socket whose client sends no frame (a message, or the pong
    /// to the ping the server opens with) within this time is closed.
    pub ws_first_frame_timeout: Duration,
    /// A game nobody watches leaves memory after this long without a
    /// change (a finished one at once); it is read back when asked for.
    pub idle_game: Duration,
    /// Open connections at most (live sockets included).
    pub max_connections: usize,
    /// Open connections one client may hold (live sockets included); with
    /// `trust_proxy`, requests in progress per client instead.
    pub max_connections_per_client: usize,
    /// A request's header must arrive within this time of the server
    /// waiting for it (also how long a kept-alive connection may idle).
    pub header_timeout: Duration,
    /// A request's body must start within this time of the server reading
    /// it, and each further piece within this time of the last.
    pub body_timeout: Duration,
    /// Beyond `body_timeout`, a body must have come at this many bytes per
    /// second on average (0: no rate asked).
    pub body_min_rate: u64,
    /// On Ctrl-C/SIGTERM the process is gone within this long: open
    /// requests and sockets get most of it, what is still open then is
    /// closed.
    pub shutdown_grace: Duration,
    /// The address people use (`https://punct.example.org`): only its
    /// host is accepted in `Host`, and its origin on live sockets.
    pub public_url: Option<String>,
    /// More `Host` names accepted (with `public_url` or a loopback bind,
    /// any other host is refused).
    pub allowed_hosts: Vec<String>,
    /// More origins a live socket may come from, besides the server's own.
    pub allowed_origins: Vec<String>,
    /// On a shared database: how long a claim on the AI's move or a
    /// review lasts unless renewed, so about how soon another instance
    /// takes the job over from one that stopped (jobs.rs).
    pub job_lease: Duration,
    /// How long a database call may take before it is given up: the
    /// request is answered 503 `database_timeout` rather than held (and
    /// with it the game's lock) while the database is stalled.
    pub db_timeout: Duration,
    /// A correspondence game's player is warned (a `time_low`
    /// notification) when less than this is left on their clock, or less
    /// than `time_low_percent` of the time per move if that is less.
    pub time_low: Duration,
    pub time_low_percent: u32,
    /// How often each instance looks for clocks running low (notes.rs).
    pub notes_sweep: Duration,
}

/// A token bucket: `count` requests at once, refilled evenly over `per`;
/// `None` turns the limit off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub count: u32,
    pub per: Duration,
}

impl Rate {
    pub const fn per_minute(count: u32) -> Option<Rate> {
        Some(Rate {
            count,
            per: Duration::from_secs(60),
        })
    }
}

impl std::str::FromStr for Rate {
    type Err = String;
    /// `N/s`, `N/min` or `N/h` (N ≥ 1).
    fn from_str(s: &str) -> Result<Rate, String> {
        let bad = || format!("`{s}` is not a rate: write N/s, N/min or N/h (e.g. 30/min), or off");
        let (n, unit) = s.split_once('/').ok_or_else(bad)?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        let per = match unit.trim() {
            "s" => Duration::from_secs(1),
            "min" => Duration::from_secs(60),
            "h" => Duration::from_secs(3600),
            _ => return Err(bad()),
        };
        if count == 0 {
            return Err(bad());
        }
        Ok(Rate { count, per })
    }
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let unit = match self.per.as_secs() {
            1 => "s",
            3600 => "h",
            _ => "min",
        };
        write!(f, "{}/{unit}", self.count)
    }
}

/// The per-client rate limits, one bucket each (`None`: no limit).
#[derive(Clone, Debug)]
pub struct Rates {
    pub create: Option<Rate>,
    pub import: Option<Rate>,
    pub moves: Option<Rate>,
    pub analyse: Option<Rate>,
    pub websocket: Option<Rate>,
    /// Claiming an invite, renewing a seat's token or an invite, naming a
    /// seat, a live socket's `hello`.
    pub seat: Option<Rate>,
    /// Game lists.
    pub list: Option<Rate>,
    /// Reads that build an answer (a game's state, a record, the learning
    /// content).
    pub read: Option<Rate>,
    /// Sign-ups, sign-ins, password changes and account deletions (each
    /// hashes a password).
    pub account: Option<Rate>,
}

impl Default for Rates {
    fn default() -> Rates {
        Rates {
            create: Rate::per_minute(30),
            import: Rate::per_minute(10),
            moves: Rate::per_minute(300),
            analyse: Rate::per_minute(60),
            websocket: Rate::per_minute(60),
            seat: Rate::per_minute(20),
            list: Rate::per_minute(120),
            read: Rate::per_minute(1200),
            account: Rate::per_minute(10),
        }
    }
}

impl Config {
    /// The database the server uses.
    pub fn location(&self) -> Location {
        self.database
            .clone()
            .unwrap_or_else(|| Location::in_data_dir(&self.data_dir))
    }

    /// Defaults: 127.0.0.1:8080, the per-user data directory, one second
    /// per AI move, one AI search per core, the limits of docs/API.md.
    pub fn new(data_dir: PathBuf) -> Config {
        let ai_workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            data_dir,
            database: None,
            ai_movetime_ms: 1000,
            ai_workers,
            analyse_max_ms: 5000,
            review_movetime_ms: 100,
            sync: SyncMode::Full,
            ai_jobs_per_client: (ai_workers / 2).max(1),
            ai_queue_per_client: 16,
            ai_queue: 1024,
            rates: Rates::default(),
            trust_proxy: false,
            abandon_after: Duration::from_secs(60),
            playban_base: Duration::from_secs(5 * 60),
            ws_per_game: 2000,
            ws_per_client: 50,
            ws_send_timeout: Duration::from_secs(10),
            ws_first_frame_timeout: Duration::from_secs(10),
            idle_game: Duration::from_secs(600),
            job_lease: Duration::from_secs(10),
            db_timeout: Duration::from_secs(5),
            time_low: Duration::from_secs(12 * 3600),
            time_low_percent: 20,
            notes_sweep: Duration::from_secs(60),
            max_connections: default_max_connections(),
            max_connections_per_client: 128,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            body_min_rate: 1024,
            shutdown_grace: Duration::from_secs(5),
            public_url: None,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
        }
    }
}

/// Connections at most by default: 8192, or fewer when the process may
/// open fewer files (each connection is one; 64 are kept for the
/// database and the rest), so an accept never fails for want of one.
pub fn default_max_connections() -> usize {
    let soft_limit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
            line.split_whitespace().nth(3)?.parse::<usize>().ok()
        });
    match soft_limit {
        Some(files) => files.saturating_sub(64).clamp(16, 8192),
        None => 8192,
    }
}

/// Runs the server until Ctrl-C (or SIGTERM); `ready` gets the address it
/// listens on once it accepts connections.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    log::init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("punct-server")
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    let served = runtime.block_on(serve::serve(config, ready));
    // AI searches still running (told to stop) and anything still open
    // get what is left of the grace period but a moment for the process's
    // own exit, then the process goes on without them.
    let left = match &served {
        Ok(deadline) => deadline
            .saturating_duration_since(std::time::Instant::now())
            .saturating_sub(Duration::from_millis(50)),
        Err(_) => Duration::from_millis(500),
    };
    runtime.shutdown_timeout(left);
    served.map(|_| ())
}
