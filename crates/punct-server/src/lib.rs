//! The PÜNCT game server behind `punct serve`: games kept in SQLite, a JSON
//! HTTP API, WebSocket live updates, the AI as a bounded background worker,
//! and the web page (embedded in the binary).
//!
//! Request flow for anything that changes a game: lock the game, apply the
//! change in memory, commit it to the database, and only then answer and
//! push the new state to every watcher. A failed commit restores the game.

mod api;
mod error;
mod games;
mod store;
mod web;

pub use error::ApiError;
pub use games::{LiveGame, Mode};
pub use store::{GameRow, Store, SyncMode};

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

/// What `punct serve` is told on the command line.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    pub data_dir: PathBuf,
    /// The AI's thinking time per move, in milliseconds.
    pub ai_movetime_ms: u64,
    /// How many AI searches (moves and analyses) run at once.
    pub ai_workers: usize,
    /// The longest analysis a client may ask for, in milliseconds.
    pub analyse_max_ms: u64,
    /// Whether a change is flushed to disk before it is acknowledged.
    pub sync: SyncMode,
}

impl Config {
    /// Defaults: 127.0.0.1:8080, the per-user data directory, one second
    /// per AI move, one AI search per core.
    pub fn new(data_dir: PathBuf) -> Config {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            data_dir,
            ai_movetime_ms: 1000,
            ai_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            analyse_max_ms: 5000,
            sync: SyncMode::Full,
        }
    }
}

/// The per-user data directory: `$XDG_DATA_HOME/punct`, else
/// `~/.local/share/punct`, else `./punct-data`.
pub fn default_data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("punct");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(h).join(".local/share/punct");
    }
    PathBuf::from("punct-data")
}

/// Runs the server until Ctrl-C (or SIGTERM); `ready` gets the address it
/// listens on once it accepts connections.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("punct-server")
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(api::serve(config, ready))
}
