//! `punct engine`: speak the engine protocol (docs/PROTOCOL.md) on
//! standard input and output. (Being written.)

use crate::{failed, Failure};
use clap::Args;

#[derive(Args)]
pub struct EngineArgs {
    /// Which engine answers (see `punct engines`)
    #[arg(long, default_value = "greedy")]
    pub engine: String,
}

pub fn run(_args: EngineArgs) -> Result<(), Failure> {
    Err(failed("`punct engine` is not written yet"))
}
