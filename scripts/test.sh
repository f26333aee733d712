#!/usr/bin/env bash
# The project's whole check, as CI runs it: formatting, lints with warnings
# denied, and every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
