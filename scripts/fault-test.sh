#!/usr/bin/env bash
# Fault injection on the three-instance setup: three `punct serve`
# instances sharing one PostgreSQL database under a bounded load of
# scripted players (online games across two instances, games against the
# AI, a hot-seat game moving through every instance in turn; draw offers,
# resignations, rematches raced on two instances), while, on a fixed
# schedule, instances are killed (SIGKILL) and restarted on their port,
# PostgreSQL is frozen (SIGSTOP of the postmaster and its children) and
# stopped (pg_ctl stop -m immediate) and started again. Then, read from
# the database itself: every acknowledged move is stored at its ply, every
# ended game has one result, every rematch exists once and is linked from
# one game, the AI's owed moves get played within a lease or two, every
# instance serves again (the one never killed was never restarted) and
# the three show the same games. The client is scripts/fault-client.py.
#
#   bash scripts/fault-test.sh
#
# Starts a PostgreSQL cluster of its own (scripts/postgres.sh), never the
# one of PUNCT_TEST_DATABASE_URL: it freezes and stops it. Everything
# listens on 127.0.0.1 and runs in a temporary directory, removed at the
# end with every process, also on a failure or a signal. Uses PUNCT_BIN,
# or the workspace's debug build; FAULT_LOAD (seconds of load, default
# 66) and FAULT_SEED (default 1) change the run; FAULT_KEEP=DIR keeps its
# logs there (FAULT_VERBOSE=1: every request in client.log).
# Prints "ok N - …" lines with the figures, then "# pass N" and "# fail N";
# exits non-zero on a failure, naming what was wrong, with the instances'
# log tails.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

tmp=""
pgdir=""
client=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP PIPE
    # The client first (it stops its instances and thaws the cluster as it
    # ends), then whatever it left.
    if [ -n "$client" ]; then
        kill -TERM "$client" 2> /dev/null || true
        for _ in $(seq 100); do kill -0 "$client" 2> /dev/null || break; sleep 0.1; done
        kill -KILL "$client" 2> /dev/null || true
    fi
    if [ -n "$tmp" ]; then
        for f in "$tmp"/punct*.pid; do
            [ -s "$f" ] || continue
            pid=$(cat "$f")
            # Only a punct still running under that id.
            grep -qa punct "/proc/$pid/cmdline" 2> /dev/null && kill -KILL "$pid" 2> /dev/null || true
        done
    fi
    if [ -n "$pgdir" ]; then
        # A frozen cluster cannot stop: thaw it first.
        if [ -s "$pgdir/data/postmaster.pid" ]; then
            pm=$(head -n 1 "$pgdir/data/postmaster.pid")
            if [ -n "$pm" ] && kill -0 "$pm" 2> /dev/null; then
                kill -CONT "$pm" $(pgrep -P "$pm") 2> /dev/null || true
            fi
        fi
        bash scripts/postgres.sh stop "$pgdir"
    fi
    if [ -n "$tmp" ]; then
        # FAULT_KEEP=DIR keeps the run's logs (the instances', the client's).
        [ -n "${FAULT_KEEP:-}" ] && mkdir -p "$FAULT_KEEP" && cp "$tmp"/*.log "$tmp"/*.err "$tmp"/*.out "$FAULT_KEEP"/ 2> /dev/null
        rm -rf "$tmp"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' INT TERM HUP
trap 'exit 141' PIPE

# A failure of the setup: named, with what the failing program said.
fail() {
    echo "not ok - setup: $1"
    shift
    for f in "$@"; do
        [ -s "$f" ] && { echo "# --- $f"; tail -n 30 "$f" | sed 's/^/#   /'; }
    done
    echo "# pass 0"
    echo "# fail 1"
    exit 1
}

bin=${PUNCT_BIN:-}
if [ -z "$bin" ]; then
    cargo build -p punct-cli --locked -q
    target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    bin=$target/debug/punct
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/punct-fault.XXXXXX")

# --- a cluster of its own, and a database in it ---------------------------------
pgdir=$(mktemp -u -d "${TMPDIR:-/tmp}/punct-fault-pg.XXXXXX")
cluster=$(bash scripts/postgres.sh start "$pgdir" 2> "$tmp/postgres.log") ||
    fail "starting PostgreSQL (scripts/postgres.sh)" "$tmp/postgres.log"
psql "$cluster" -qXAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE punct_fault" > "$tmp/psql.log" 2>&1 ||
    fail "creating the database" "$tmp/psql.log"
url=${cluster%/*}/punct_fault
"$bin" db migrate --database "$url" > "$tmp/migrate.log" 2>&1 || fail "punct db migrate" "$tmp/migrate.log"
echo "# setup: PostgreSQL $(psql "$cluster" -qXAt -c 'SHOW server_version'), database migrated, in $(($(date +%s) - started)) s"

# --- the load, the faults and the checks -------------------------------------------
# In the background, so that a signal to this script (its trap) does not
# wait for the client to finish.
FAULT_BIN=$bin FAULT_URL=$url FAULT_TMP=$tmp FAULT_PGDIR=$pgdir \
    timeout 170 python3 scripts/fault-client.py run &
client=$!
rc=0
wait "$client" 2> /dev/null || rc=$?
client=""
if [ "$rc" != 0 ]; then
    [ "$rc" = 124 ] && echo "not ok - the client ran past 170 s" && echo "# fail 1"
    for f in "$tmp"/punct?.err "$tmp/client.log"; do
        [ -s "$f" ] && { echo "# --- ${f#"$tmp"/}"; tail -n 25 "$f" | sed 's/^/#   /'; }
    done
    [ -s "$pgdir/server.log" ] && { echo "# --- postgres server.log"; tail -n 15 "$pgdir/server.log" | sed 's/^/#   /'; }
fi
echo "# fault-test: $(($(date +%s) - started)) s"
exit "$rc"
