//! `punct serve`: the game server and web page (crate `punct-server`).

use crate::{bad_input, failed, Failure};
use clap::{Args, ValueEnum};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (0.0.0.0 lets other machines connect)
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0 picks a free one)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Where the games database lives [default: $XDG_DATA_HOME/punct or ~/.local/share/punct]
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// The games database instead of the data directory's SQLite file:
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/NAME (several instances may
    /// share it; run `punct db migrate` first) or sqlite:PATH
    #[arg(long, env = "PUNCT_DATABASE_URL", hide_env_values = true, value_parser = crate::db_cmd::parse_location)]
    pub database: Option<punct_store::Location>,
    /// The AI's thinking time per move, in milliseconds
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub ai_movetime: u64,
    /// The search time per position of the post-game analysis, in
    /// milliseconds (each ended game is analysed once, in the background,
    /// in at most 10 s of engine time: a longer game gets less a position,
    /// and one of more than 200 positions its last 200 only)
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(10..=5_000))]
    pub review_movetime: u64,
    /// How many AI searches may run at once [default: the number of cores]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub ai_workers: Option<u64>,
    /// When a move is acknowledged: once flushed to disk (full: survives a
    /// power cut) or once handed to the operating system (normal: survives
    /// the server crashing or being killed, not the machine; no disk flush
    /// per move). SQLite only: PostgreSQL commits as its server is set
    #[arg(long, value_enum, default_value_t = Sync::Full)]
    pub sync: Sync,

    /// Games created and rematch actions per client (N/s, N/min or N/h: a
    /// burst of N, refilled evenly; `off` for no limit)
    #[arg(long, default_value = "30/min", help_heading = "Limits per client")]
    pub rate_create: RateFlag,
    /// Records imported per client
    #[arg(long, default_value = "10/min", help_heading = "Limits per client")]
    pub rate_import: RateFlag,
    /// Moves, resignations, draw and takeback actions, abandonment claims per client (HTTP and live sockets, whose hellos count too)
    #[arg(long, default_value = "300/min", help_heading = "Limits per client")]
    pub rate_move: RateFlag,
    /// Analyses per client (of a position or of a game)
    #[arg(long, default_value = "60/min", help_heading = "Limits per client")]
    pub rate_analyse: RateFlag,
    /// Live sockets opened per client
    #[arg(long, default_value = "60/min", help_heading = "Limits per client")]
    pub rate_websocket: RateFlag,
    /// Invites claimed, seat tokens and invites renewed and seats named per client
    #[arg(long, default_value = "20/min", help_heading = "Limits per client")]
    pub rate_seat: RateFlag,
    /// Game lists read per client
    #[arg(long, default_value = "120/min", help_heading = "Limits per client")]
    pub rate_list: RateFlag,
    /// Other reads that build an answer per client: a game's state or
    /// record, a board, the API's description, lessons, puzzles and their
    /// tries
    #[arg(long, default_value = "1200/min", help_heading = "Limits per client")]
    pub rate_read: RateFlag,
    /// Sign-ups, sign-ins, password changes and account deletions per
    /// client (each checks a password with argon2id)
    #[arg(long, default_value = "10/min", help_heading = "Limits per client")]
    pub rate_account: RateFlag,
    /// The server is behind a reverse proxy: the client is the last address
    /// of X-Forwarded-For (never give this without a proxy that sets it)
    #[arg(long, help_heading = "Limits per client")]
    pub trust_proxy: bool,
    /// Live sockets one client may hold open
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=1_000_000), help_heading = "Limits per client")]
    pub ws_per_client: u64,
    /// Connections one client may hold open, live sockets included (further
    /// ones get a 429); with --trust-proxy, its requests in progress
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=1_000_000), help_heading = "Limits per client")]
    pub max_connections_per_client: u64,
    /// AI searches one client may have running at once [default: half the AI workers, at least 1]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64), help_heading = "Limits per client")]
    pub ai_jobs_per_client: Option<u64>,
    /// AI jobs (moves and analyses) one client may have waiting
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=10_000), help_heading = "Limits per client")]
    pub ai_queue_per_client: u64,

    /// AI jobs waiting in all
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000), help_heading = "Server limits")]
    pub ai_queue: u64,
    /// Live sockets on one game (players and spectators)
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000), help_heading = "Server limits")]
    pub ws_per_game: u64,
    /// Seconds a live socket's client may take to accept a message before it is closed
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), help_heading = "Server limits")]
    pub ws_send_timeout: u64,
    /// Seconds a new live socket has to send its first frame (a message, or
    /// the pong to the ping the server opens with) before it is closed
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), help_heading = "Server limits")]
    pub ws_first_frame_timeout: u64,
    /// Seconds an unwatched game stays in memory after its last change (finished games leave at once)
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=86_400), help_heading = "Server limits")]
    pub idle_game: u64,
    /// Open connections at most, live sockets included (further ones get a 503) [default: 8192, or the open-file limit less 64 if lower]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000), help_heading = "Server limits")]
    pub max_connections: Option<u64>,
    /// Seconds a client has to send a request's header once the server waits for it (also the idle time of a kept-alive connection)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), help_heading = "Server limits")]
    pub header_timeout: u64,
    /// Seconds a request's body has to start once the server reads it, and
    /// between its pieces (a body too slow gets a 408 and the connection
    /// is closed)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), help_heading = "Server limits")]
    pub body_timeout: u64,
    /// Bytes per second a request's body must come at on average after the
    /// first --body-timeout seconds (0: no minimum)
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(0..=1_000_000_000), help_heading = "Server limits")]
    pub body_min_rate: u64,
    /// Seconds after Ctrl-C or SIGTERM by which the server has exited: open
    /// requests and sockets get most of them to finish, then are closed
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=3600), help_heading = "Server limits")]
    pub shutdown_grace: u64,
    /// How long a player of an online real-time game must have been gone
    /// (no live connection) before the opponent may claim the win: seconds,
    /// or with a unit (90s, 2min, 1h)
    #[arg(long, default_value = "60", value_parser = parse_duration, help_heading = "Server limits")]
    pub abandon_after: Duration,
    /// The shortest wait before a player who keeps leaving rated games (or
    /// aborting games) may seek, challenge or accept again; longer waits
    /// are 3 and 12 times it (seconds, or 90s, 5min)
    #[arg(long, default_value = "5min", value_parser = parse_duration, help_heading = "Server limits")]
    pub playban_base: Duration,
    /// With several instances on one PostgreSQL: how long an instance's
    /// claim on the AI's move or a post-game review lasts unless renewed,
    /// so how soon another instance takes the job over from one that
    /// stopped (seconds, or 10s, 1min)
    #[arg(long, default_value = "10", value_parser = parse_duration, help_heading = "Server limits")]
    pub job_lease: Duration,
    /// How long a database call may take before the request is answered
    /// 503 database_timeout (seconds, or 2s, 1min)
    #[arg(long, default_value = "5", value_parser = parse_duration, help_heading = "Server limits")]
    pub db_timeout: Duration,
    /// Warn a correspondence game's player (a notification) when less than
    /// this is left on their clock, or less than --time-low-percent of the
    /// time per move if that is less (seconds, or 30min, 12h)
    #[arg(long, default_value = "12h", value_parser = parse_duration, help_heading = "Server limits")]
    pub time_low: Duration,
    /// The share of a correspondence game's time per move below which its
    /// player is warned, if less than --time-low
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100), help_heading = "Server limits")]
    pub time_low_percent: u32,
    /// How often each instance looks for correspondence clocks running low
    /// (seconds, or 30s, 5min)
    #[arg(long, default_value = "1min", value_parser = parse_duration, help_heading = "Server limits")]
    pub notes_sweep: Duration,

    /// The address people open (e.g. https://punct.example.org): other Host headers are refused, and live sockets must come from this origin
    #[arg(long, help_heading = "Security")]
    pub public_url: Option<String>,
    /// Another Host name to accept (repeatable)
    #[arg(long = "allowed-host", value_name = "HOST", help_heading = "Security")]
    pub allowed_hosts: Vec<String>,
    /// Another origin live sockets may come from (repeatable), e.g. https://other.example.org
    #[arg(
        long = "allowed-origin",
        value_name = "ORIGIN",
        help_heading = "Security"
    )]
    pub allowed_origins: Vec<String>,
}

/// A rate limit flag: `N/s`, `N/min`, `N/h` or `off`.
#[derive(Clone, Debug)]
pub struct RateFlag(Option<punct_server::Rate>);

impl std::str::FromStr for RateFlag {
    type Err = String;
    fn from_str(s: &str) -> Result<RateFlag, String> {
        if s == "off" {
            Ok(RateFlag(None))
        } else {
            s.parse().map(|r| RateFlag(Some(r)))
        }
    }
}

/// `--abandon-after`, `--playban-base`, `--job-lease`, `--db-timeout`, `--time-low`, `--notes-sweep`: `N` seconds, or `Ns`, `Nmin`, `Nh`; 1 s to 1 day.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("`{s}` is not a duration: write seconds (60), or 90s, 2min or 1h");
    let t = s.trim();
    let (n, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => t.split_at(at),
        None => (t, "s"),
    };
    let n: u64 = n.parse().map_err(|_| bad())?;
    let secs = match unit.trim() {
        "s" => n,
        "min" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        _ => return Err(bad()),
    };
    if !(1..=86_400).contains(&secs) {
        return Err(format!("`{s}` is out of range: 1 second to 24 hours"));
    }
    Ok(Duration::from_secs(secs))
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Sync {
    Full,
    Normal,
}

pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let data_dir = args.data_dir.unwrap_or_else(crate::default_data_dir);
    let mut config = punct_server::Config::new(data_dir.clone());
    config.database = args.database;
    let location = config.location();
    config.bind = args.bind;
    config.port = args.port;
    config.ai_movetime_ms = args.ai_movetime;
    config.review_movetime_ms = args.review_movetime;
    config.sync = match args.sync {
        Sync::Full => punct_store::SyncMode::Full,
        Sync::Normal => punct_store::SyncMode::Normal,
    };
    if let Some(n) = args.ai_workers {
        config.ai_workers = n as usize;
        config.ai_jobs_per_client = (config.ai_workers / 2).max(1);
    }
    if let Some(n) = args.ai_jobs_per_client {
        config.ai_jobs_per_client = n as usize;
    }
    config.ai_queue_per_client = args.ai_queue_per_client as usize;
    config.ai_queue = args.ai_queue as usize;
    config.rates = punct_server::Rates {
        create: args.rate_create.0,
        import: args.rate_import.0,
        moves: args.rate_move.0,
        analyse: args.rate_analyse.0,
        websocket: args.rate_websocket.0,
        seat: args.rate_seat.0,
        list: args.rate_list.0,
        read: args.rate_read.0,
        account: args.rate_account.0,
    };
    config.trust_proxy = args.trust_proxy;
    config.ws_per_client = args.ws_per_client as usize;
    config.ws_per_game = args.ws_per_game as usize;
    config.ws_send_timeout = Duration::from_secs(args.ws_send_timeout);
    config.ws_first_frame_timeout = Duration::from_secs(args.ws_first_frame_timeout);
    config.idle_game = Duration::from_secs(args.idle_game);
    if let Some(n) = args.max_connections {
        config.max_connections = n as usize;
    }
    config.max_connections_per_client = args.max_connections_per_client as usize;
    config.header_timeout = Duration::from_secs(args.header_timeout);
    config.body_timeout = Duration::from_secs(args.body_timeout);
    config.body_min_rate = args.body_min_rate;
    config.shutdown_grace = Duration::from_secs(args.shutdown_grace);
    config.abandon_after = args.abandon_after;
    config.playban_base = args.playban_base;
    config.job_lease = args.job_lease;
    config.db_timeout = args.db_timeout;
    config.time_low = args.time_low;
    config.time_low_percent = args.time_low_percent;
    config.notes_sweep = args.notes_sweep;
    config.public_url = args.public_url;
    config.allowed_hosts = args.allowed_hosts;
    config.allowed_origins = args.allowed_origins;
    punct_server::run(config, |addr| {
        // Tests and scripts read the first line to find the port.
        println!("PÜNCT server: open {}", page_url(addr));
        println!("games are kept in {}", location.describe());
        println!("stop with Ctrl-C");
    })
    .map_err(|e| {
        if e.starts_with("cannot listen") || e.starts_with("cannot create") {
            bad_input(e)
        } else {
            failed(e)
        }
    })
}

/// The address to open the page at: `localhost` for a loopback address
/// (passkeys belong to a site name, never an IP address, so a page
/// opened as `http://127.0.0.1:PORT` could not use them), else the
/// address listened on.
fn page_url(addr: SocketAddr) -> String {
    if addr.ip().is_loopback() {
        format!("http://localhost:{}/", addr.port())
    } else {
        format!("http://{addr}/")
    }
}

#[cfg(test)]
mod tests {
    use super::page_url;

    #[test]
    fn a_loopback_address_is_opened_by_the_name_localhost() {
        for (addr, url) in [
            ("127.0.0.1:8080", "http://localhost:8080/"),
            ("127.0.0.2:9", "http://localhost:9/"),
            ("[::1]:8080", "http://localhost:8080/"),
            ("0.0.0.0:8080", "http://0.0.0.0:8080/"),
            ("192.0.2.7:80", "http://192.0.2.7:80/"),
        ] {
            assert_eq!(page_url(addr.parse().unwrap()), url, "{addr}");
        }
    }
}
