//! The differential cases of `tests/data/public.jsonl` (a copy of the shared
//! cases; `PUNCT_CASES` picks another file), computed by an independent
//! implementation of the rules: legal-move count, the SHA-256 of the sorted
//! canonical legal moves, and the status must all agree.

#[path = "data/cases.rs"]
mod cases;

use punct_core::{parse_moves, Game, Position};
use sha2::{Digest, Sha256};

#[test]
fn public_differential_cases_all_agree() {
    let path = cases::cases_path();
    let all = cases::read_cases(&path);
    let n = all.len();
    let mut failures = Vec::new();
    for case in &all {
        let line = case.line;
        let variant = case.variant;
        let moves = parse_moves(&case.moves.join(" ")).unwrap();
        let game = match Game::replay(Position::new(variant), &moves) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("case {line}: {e}"));
                continue;
            }
        };
        let pos = game.position();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        legal.sort();
        let digest = Sha256::digest(legal.join("\n").as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let want_count = case.legal_count;
        let want_status = case.status.as_str();
        if legal.len() as u64 != want_count
            || hex != case.legal_sha256
            || pos.status().word() != want_status
        {
            failures.push(format!(
                "case {line} ({variant}, {} plies): count {} want {want_count}, status {} want {want_status}, hash {}",
                moves.len(),
                legal.len(),
                pos.status(),
                if hex == case.legal_sha256 { "ok" } else { "differs" }
            ));
        }
        // The count path must agree with the list path.
        assert_eq!(pos.count_legal(), legal.len() as u64, "case {line}");
    }
    if std::env::var_os("PUNCT_CASES").is_none() {
        assert!(n >= 300, "expected the 308 public cases, read {n}");
    }
    assert!(n > 0, "{} holds no cases", path.display());
    eprintln!("{n} differential cases from {}", path.display());
    assert!(
        failures.is_empty(),
        "{} of {n} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
