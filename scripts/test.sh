#!/usr/bin/env bash
# The project's whole check, as CI runs it: formatting, lints with warnings
# denied, every test of the workspace, the server's API and durability
# tests again on PostgreSQL (a throwaway cluster, scripts/postgres.sh), then
# the browser tests (the real server and page in Debian's chromium) on
# SQLite, the players' ones again across three instances on PostgreSQL,
# then one summary line and the time each part took.
set -euo pipefail
cd "$(dirname "$0")/.."
# How long each part took, printed at the end (and on a failure): CI's
# time limit is for the whole, and this says where it went.
timings=()
phase_name=""
phase_start=$SECONDS
phase() {
    [ -z "$phase_name" ] || timings+=("$(printf '%5d s  %s' $((SECONDS - phase_start)) "$phase_name")")
    phase_name=$1
    phase_start=$SECONDS
}
report_timings() {
    phase ""
    printf 'time per part:\n'
    printf '  %s\n' "${timings[@]}"
    printf '%5d s  in all\n' "$SECONDS"
}
phase "formatting and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# The page's WebAssembly exports exist only on wasm32 (its own target
# directory, as the server's build script builds it).
cargo clippy --package punct-wasm --target wasm32-unknown-unknown --locked \
    --target-dir target/wasm -- -D warnings
log=$(mktemp)
pgdir=$(mktemp -u -d "${TMPDIR:-/tmp}/punct-pg.XXXXXX")
trap 'report_timings; bash scripts/postgres.sh stop "$pgdir"; rm -f "$log"' EXIT
PUNCT_TEST_DATABASE_URL=$(bash scripts/postgres.sh start "$pgdir")
# Tests that need PostgreSQL fail rather than skip without it.
export PUNCT_TEST_DATABASE_URL PUNCT_REQUIRE_POSTGRES=1
phase "cargo test (SQLite)"
# Built first: the server's tests and the browser tests run the `punct`
# binary this build makes (for punct-cli's own tests), with the features of
# the whole workspace's tests, rather than building another.
cargo test --workspace --locked --no-run 2>&1 | tee "$log"
export PUNCT_BIN="$PWD/target/debug/punct"
[ -x "$PUNCT_BIN" ] || { echo "error: cargo test --workspace built no $PUNCT_BIN" >&2; exit 1; }
cargo test --workspace --locked 2>&1 | tee -a "$log"
# The same servers, their games in PostgreSQL.
phase "cargo test of the servers on PostgreSQL"
# (`--workspace` keeps the features of the first run: nothing is rebuilt.)
PUNCT_TEST_BACKEND=postgres cargo test --workspace --locked \
    --test api --test durability --test seats --test clocks --test presence --test metrics \
    --test accounts --test passkeys --test bots --test manners --test chat --test notifications \
    --test updates 2>&1 | tee -a "$log"
# The deployment as shipped (deploy/: nginx and Caddy over HTTPS in front of
# two instances on PostgreSQL), scripts/deploy-test.sh.
phase "deployment test"
timeout 180 bash scripts/deploy-test.sh 2>&1 | tee -a "$log"
# The API fuzzer against the binary, on SQLite and on this PostgreSQL.
phase "API fuzzer"
bash scripts/fuzz-api.sh 2>&1 | tee -a "$log"
# Three instances under faults (killed, PostgreSQL frozen and stopped):
# scripts/fault-test.sh, with a cluster of its own.
phase "fault test"
timeout 200 bash scripts/fault-test.sh 2>&1 | tee -a "$log"

phase "browser tests (SQLite)"
# Browser tests need chromium (Debian's package) and playwright-core (npm).
chromium=${PUNCT_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
    else
        echo "error: the browser tests need chromium: sudo apt-get install chromium (or set PUNCT_CHROMIUM)" >&2
        exit 1
    fi
fi
# Japanese pages need a Japanese font (else the browser draws empty boxes
# and the overflow checks measure nothing real).
if ! fc-list :lang=ja 2> /dev/null | grep -q .; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-ipafont-gothic > /dev/null
    else
        echo "error: the browser tests need a Japanese font: sudo apt-get install fonts-ipafont-gothic" >&2
        exit 1
    fi
fi
if [ ! -d e2e/node_modules ] || [ e2e/package-lock.json -nt e2e/node_modules ]; then
    npm ci --prefix e2e --no-audit --no-fund --loglevel=error
fi
PUNCT_CHROMIUM="$chromium" npm test --prefix e2e 2>&1 | tee -a "$log"
# The players' screens again across three instances on one PostgreSQL
# database, each person's pages on an instance of their own (as behind a
# sticky balancer): seeks, pairing, challenges, chat, notifications,
# sessions and ratings must meet in the database. (The screens that do not
# depend on the store run once: their server tests run on both backends.)
phase "browser tests (three instances on PostgreSQL)"
PUNCT_TEST_BACKEND=postgres PUNCT_TEST_INSTANCES=3 PUNCT_CHROMIUM="$chromium" \
    npm run test:players --prefix e2e 2>&1 | tee -a "$log"

# Sum cargo's per-target "test result" lines and node's totals into one line.
awk '/^test result:/ { p += $4; f += $6; s += $8 }
     /^# pass /      { p += $3 }
     /^# fail /      { f += $3 }
     /^# skipped /   { s += $3 }
     /^# todo /      { s += $3 }
     END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
