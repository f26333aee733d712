//! `punct db`: the games database — migrate its schema, copy every game
//! from one database to another (crate `punct-store`).

use crate::{bad_input, failed, Failure};
use clap::{Args, Subcommand};
use punct_store::{ErrorKind, Location, StoreError};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args)]
pub struct DbArgs {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Subcommand)]
enum DbCommand {
    /// Bring the database's schema to this punct's version (PostgreSQL:
    /// needed before `punct serve` starts on a new or older database;
    /// SQLite: `punct serve` does it itself)
    Migrate {
        /// postgres://USER[:PASSWORD]@HOST[:PORT]/NAME or sqlite:PATH [default: games.sqlite3 in --data-dir]
        #[arg(long, env = "PUNCT_DATABASE_URL", hide_env_values = true, value_parser = parse_location)]
        database: Option<Location>,
        /// The data directory whose SQLite file to migrate [default: as `punct serve`]
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
    /// Copy every game from one database to another, column for column:
    /// games already there unchanged are skipped, none is overwritten
    Copy {
        /// The database to read: sqlite:PATH or postgres://…
        #[arg(long, value_parser = parse_location)]
        from: Location,
        /// The database to write (migrated first): postgres://… or sqlite:PATH
        #[arg(long, value_parser = parse_location)]
        to: Location,
    },
}

/// `--database`, `--from`, `--to`: a database URL.
pub fn parse_location(s: &str) -> Result<Location, String> {
    Location::parse(s)
}

pub fn run(args: DbArgs) -> Result<(), Failure> {
    match args.command {
        DbCommand::Migrate { database, data_dir } => {
            let location = database.unwrap_or_else(|| {
                Location::in_data_dir(&data_dir.unwrap_or_else(crate::default_data_dir))
            });
            let said = punct_store::migrate_blocking(&location).map_err(classify)?;
            println!("{said}");
        }
        DbCommand::Copy { from, to } => {
            let tty = std::io::stderr().is_terminal();
            let copied = punct_store::copy_blocking(&from, &to, |done| {
                if tty {
                    eprint!("\r{} games copied", done.copied + done.present);
                }
            })
            .map_err(classify)?;
            if tty {
                eprintln!();
            }
            println!(
                "copied {} games from {} to {}{}",
                copied.copied,
                from.describe(),
                to.describe(),
                if copied.present > 0 {
                    format!(" ({} already there, unchanged)", copied.present)
                } else {
                    String::new()
                }
            );
        }
    }
    Ok(())
}

/// A database that cannot be reached or is not one to use is the user's
/// input; anything else failed on the way.
fn classify(e: StoreError) -> Failure {
    match e.kind() {
        ErrorKind::Unreachable | ErrorKind::Unusable => bad_input(e.to_string()),
        ErrorKind::Failed
        | ErrorKind::Corrupt
        | ErrorKind::Conflict
        | ErrorKind::Timeout
        | ErrorKind::Unavailable => failed(e.to_string()),
    }
}
