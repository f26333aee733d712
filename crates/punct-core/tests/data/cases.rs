//! Finding and parsing the differential cases (see `README.md` beside this
//! file): the one copy of this code, included with `#[path]` by
//! `tests/differential.rs`, `tests/perft.rs` and `benches/core.rs`.

// Each includer uses only part of this module.
#![allow(dead_code)]

use punct_core::Variant;
use std::path::PathBuf;

/// The cases committed with the crate: `tests/data/public.jsonl`.
pub fn public_cases_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/public.jsonl")
}

/// The cases file to check against: `$PUNCT_CASES` when set, else
/// [`public_cases_path`].
pub fn cases_path() -> PathBuf {
    match std::env::var_os("PUNCT_CASES") {
        Some(p) => PathBuf::from(p),
        None => public_cases_path(),
    }
}

/// One line of a cases file.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// The 1-based line number in the file.
    pub line: usize,
    pub variant: Variant,
    /// Canonical moves from the start position.
    pub moves: Vec<String>,
    /// The number of legal moves of the side to move (0 when the game is over).
    pub legal_count: u64,
    /// SHA-256 (lowercase hex) of the sorted canonical legal moves joined by `\n`.
    pub legal_sha256: String,
    /// `ongoing`, `white`, `black` or `draw`.
    pub status: String,
}

/// Reads and parses every non-blank line of `path`; panics, naming the file
/// and line, on anything unreadable or malformed.
pub fn read_cases(path: &std::path::Path) -> Vec<TestCase> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "cannot read the differential cases {}: {e} (set PUNCT_CASES to another file)",
            path.display()
        )
    });
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            parse_case(i + 1, l)
                .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

fn parse_case(line: usize, text: &str) -> Result<TestCase, String> {
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let field = |name: &str| -> Result<&serde_json::Value, String> {
        json.get(name).ok_or_else(|| format!("no `{name}` field"))
    };
    let string = |name: &str| -> Result<String, String> {
        field(name)?
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("`{name}` is not a string"))
    };
    let moves = field("moves")?
        .as_array()
        .ok_or("`moves` is not an array")?
        .iter()
        .map(|m| {
            m.as_str()
                .map(str::to_string)
                .ok_or_else(|| "a move is not a string".to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TestCase {
        line,
        variant: string("variant")?
            .parse()
            .map_err(|e| format!("`variant`: {e}"))?,
        moves,
        legal_count: field("legal_count")?
            .as_u64()
            .ok_or("`legal_count` is not a whole number")?,
        legal_sha256: string("legal_sha256")?,
        status: string("status")?,
    })
}
