//! What one password hash costs on this machine, for the docs:
//! `cargo run --release -p punct-accounts --example hash_time [runs]`.

use std::time::Instant;

use punct_accounts::password::{hash, verify, PARAMS};

fn main() {
    let runs: u32 = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(20);
    let phc = match hash("warm-up-password") {
        Ok(phc) => phc,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let _ = hash("correct-battery-9");
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let start = Instant::now();
    for _ in 0..runs {
        let _ = verify("correct-battery-9", &phc);
    }
    let verify_ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(runs);
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "argon2id {PARAMS}: hash mean {mean:.1} ms, min {:.1} ms, max {:.1} ms; verify mean {verify_ms:.1} ms ({runs} runs)",
        times[0],
        times[times.len() - 1]
    );
}
