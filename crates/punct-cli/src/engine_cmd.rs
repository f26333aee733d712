//! `punct engine`: speak the engine protocol (docs/PROTOCOL.md) on
//! standard input and output. The protocol itself lives in `punct-protocol`;
//! this is only the choice of engine and the wiring to the terminal.

use crate::{bad_input, failed, Failure};
use clap::Args;

#[derive(Args)]
pub struct EngineArgs {
    /// Which engine answers (see `punct engines`); the strongest by default
    #[arg(long, default_value = "level4")]
    pub engine: String,
    /// Seed of the engine's random choices (same seed, same answers)
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

pub fn run(args: EngineArgs) -> Result<(), Failure> {
    let engine = punct_engine::new_engine(&args.engine, args.seed).map_err(bad_input)?;
    let input = std::io::stdin().lock();
    match punct_protocol::run(input, std::io::stdout(), engine) {
        Ok(()) => Ok(()),
        // The client went away: nobody is left to tell.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(failed(format!("engine protocol: {e}"))),
    }
}
