//! `punct match`: play engines against each other and measure the result.
//! (Being written.)

use crate::{failed, Failure};
use clap::Args;

#[derive(Args)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs) -> Result<(), Failure> {
    Err(failed("`punct match` is not written yet"))
}
