#!/usr/bin/env bash
# The project's whole check, as CI runs it: formatting, lints with warnings
# denied, and every test of the workspace, then one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --locked 2>&1 | tee "$log"
# Sum cargo's per-target "test result" lines into one closing line.
awk '/^test result:/ { p += $4; f += $6; s += $8 }
     END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
