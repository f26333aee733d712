//! The differential cases of `shared/cases/public.jsonl`, computed by an
//! independent implementation of the rules: legal-move count, the SHA-256 of
//! the sorted canonical legal moves, and the status must all agree.

use punct_core::{parse_moves, Game, Position, Variant};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

fn cases_file() -> PathBuf {
    if let Ok(p) = std::env::var("PUNCT_CASES") {
        return PathBuf::from(p);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/cases/public.jsonl")
}

#[test]
fn public_differential_cases_all_agree() {
    let path = cases_file();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (set PUNCT_CASES)", path.display()));
    let mut failures = Vec::new();
    let mut n = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        n += 1;
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let variant: Variant = case["variant"].as_str().unwrap().parse().unwrap();
        let moves: Vec<String> = case["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let moves = parse_moves(&moves.join(" ")).unwrap();
        let game = match Game::replay(Position::new(variant), &moves) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("case {}: {e}", i + 1));
                continue;
            }
        };
        let pos = game.position();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        legal.sort();
        let digest = Sha256::digest(legal.join("\n").as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let want_count = case["legal_count"].as_u64().unwrap();
        let want_status = case["status"].as_str().unwrap();
        if legal.len() as u64 != want_count
            || hex != case["legal_sha256"].as_str().unwrap()
            || pos.status().word() != want_status
        {
            failures.push(format!(
                "case {} ({variant}, {} plies): count {} want {want_count}, status {} want {want_status}, hash {}",
                i + 1,
                moves.len(),
                legal.len(),
                pos.status(),
                if hex == case["legal_sha256"].as_str().unwrap() { "ok" } else { "differs" }
            ));
        }
        // The count path must agree with the list path.
        assert_eq!(pos.count_legal(), legal.len() as u64, "case {}", i + 1);
    }
    assert!(n >= 300, "expected the 308 public cases, read {n}");
    assert!(
        failures.is_empty(),
        "{} of {n} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
