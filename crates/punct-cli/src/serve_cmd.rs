//! `punct serve`: the game server and web page (crate `punct-server`).

use crate::{bad_input, failed, Failure};
use clap::{Args, ValueEnum};
use std::net::IpAddr;
use std::path::PathBuf;

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
    /// The AI's thinking time per move, in milliseconds
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub ai_movetime: u64,
    /// How many AI searches may run at once [default: the number of cores]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub ai_workers: Option<u64>,
    /// When a move is acknowledged: once flushed to disk (full: survives a
    /// power cut) or once handed to the operating system (normal: survives
    /// the server crashing or being killed, not the machine; no disk flush
    /// per move)
    #[arg(long, value_enum, default_value_t = Sync::Full)]
    pub sync: Sync,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Sync {
    Full,
    Normal,
}

pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let data_dir = args.data_dir.unwrap_or_else(punct_server::default_data_dir);
    let mut config = punct_server::Config::new(data_dir.clone());
    config.bind = args.bind;
    config.port = args.port;
    config.ai_movetime_ms = args.ai_movetime;
    config.sync = match args.sync {
        Sync::Full => punct_server::SyncMode::Full,
        Sync::Normal => punct_server::SyncMode::Normal,
    };
    if let Some(n) = args.ai_workers {
        config.ai_workers = n as usize;
    }
    punct_server::run(config, |addr| {
        // Tests and scripts read the first line to find the port.
        println!("PÜNCT server: open http://{addr}/");
        println!(
            "games are kept in {}",
            data_dir.join("games.sqlite3").display()
        );
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
