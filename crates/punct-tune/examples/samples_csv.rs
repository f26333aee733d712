//! The training positions of games files as CSV, for looking at the data
//! with other tools: `cargo run --release -p punct-tune --example
//! samples_csv -- games.txt [more.txt …] > samples.csv` (docs/TUNING.md).

use punct_engine::features::NAMES;
use punct_tune::{dataset, FitConfig};

fn main() {
    let mut games = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("samples_csv: cannot read {path}: {e}");
            std::process::exit(2)
        });
        games.extend(dataset::read_games(&text, &path).unwrap_or_else(|e| {
            eprintln!("samples_csv: {e}");
            std::process::exit(2)
        }));
    }
    println!("variant,game,ply,result,hand,{}", NAMES.join(","));
    for s in dataset::samples(&games, FitConfig::default().skip_plies) {
        let f: Vec<String> = s.features.iter().map(|v| v.to_string()).collect();
        println!(
            "{},{},{},{},{},{}",
            s.variant,
            s.game,
            s.ply,
            s.result,
            s.hand,
            f.join(",")
        );
    }
}
