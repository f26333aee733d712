#!/usr/bin/env bash
# The API fuzzer: schemathesis (pinned with hashes in fuzz/requirements.txt,
# settings in fuzz/schemathesis.toml) reads the server's own description,
# GET /api/openapi.json, and sends generated requests to the real
# `punct serve`: the documented examples, boundary and invalid values of
# every operation, random ones, and games played through the document's
# links. Every answer must be no 5xx, a documented status with its
# content type, a body that fits its schema and the documented headers,
# and a 4xx where the request breaks the document.
#
#   scripts/fuzz-api.sh      SQLite, then PostgreSQL when
#                            PUNCT_TEST_DATABASE_URL names a cluster
#                            (scripts/test.sh makes one; the fuzzer gets a
#                            database of its own in it)
#
# Each backend is bounded in time (PUNCT_FUZZ_SECONDS, default 200, the
# server's start included); a finding, a server that died or panicked,
# or a run out of time fails the script, with the failing case printed
# (schemathesis prints a curl line to repeat it). PUNCT_FUZZ_EXAMPLES
# (default 30) is the number of cases per operation; PUNCT_FUZZ_SEED
# repeats a run (every run prints its seed). The virtual environment is
# made once under $TMPDIR (PUNCT_FUZZ_VENV to place it elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=${PUNCT_FUZZ_SECONDS:-200}
examples=${PUNCT_FUZZ_EXAMPLES:-30}

# schemathesis, installed with pip from PyPI, every file checked by hash.
venv=${PUNCT_FUZZ_VENV:-${TMPDIR:-/tmp}/punct-fuzz-venv}
stamp=$(sha256sum fuzz/requirements.txt | cut -c1-16)
exec 9> "$venv.lock"
flock 9
if [ "$(cat "$venv/.requirements" 2> /dev/null)" != "$stamp" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
        -r fuzz/requirements.txt
    echo "$stamp" > "$venv/.requirements"
fi
flock -u 9

# PUNCT_BIN (scripts/test.sh's), or the workspace's debug build.
bin=${PUNCT_BIN:-}
if [ -z "$bin" ]; then
    cargo build -p punct-cli --locked --quiet
    bin=${CARGO_TARGET_DIR:-$root/target}/debug/punct
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/punct-fuzz.XXXXXX")
server=""
database=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2> /dev/null || true
        wait "$server" 2> /dev/null || true
        server=""
    fi
    if [ -n "$database" ]; then
        psql "$PUNCT_TEST_DATABASE_URL" -qXAt -c "DROP DATABASE IF EXISTS $database" > /dev/null 2>&1 || true
        database=""
    fi
}
trap 'cleanup; rm -rf "$work"' EXIT

# One run against a fresh server: $1 names the backend, the rest are
# `punct serve` flags that choose it.
fuzz() {
    local backend=$1
    shift
    local started=$SECONDS log="$work/$backend-server.log" url="" rc=0
    # Limits generous enough for a fuzzer on one address (the 429s they
    # give are documented all the same); quick AI moves and reviews.
    "$bin" serve --port 0 --data-dir "$work/$backend-data" "$@" \
        --ai-movetime 20 --review-movetime 10 --ai-workers 2 \
        --rate-create off --rate-import off --rate-move off --rate-analyse off \
        --rate-websocket off --rate-seat off --rate-list off --rate-read off \
        > "$log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        # It prints http://localhost:PORT/ (the page's name); the fuzzer asks the address.
        url=$(sed -n 's|.*open http://localhost:\([0-9]*\)/.*|http://127.0.0.1:\1|p' "$log" | head -n 1)
        [ -n "$url" ] && break
        kill -0 "$server" 2> /dev/null || break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        echo "fuzz ($backend): punct serve did not start:" >&2
        cat "$log" >&2
        return 1
    fi
    local left=$((seconds - (SECONDS - started)))
    echo "fuzz ($backend): schemathesis against $url, $examples cases an operation, at most ${left} s"
    (cd "$work" && timeout --kill-after=10 "$left" "$venv/bin/schemathesis" \
        --config-file "$root/fuzz/schemathesis.toml" --no-color run "$url/api/openapi.json" \
        --max-examples "$examples" --workers 1 --request-timeout 20 \
        ${PUNCT_FUZZ_SEED:+--seed "$PUNCT_FUZZ_SEED"}) || rc=$?
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        echo "fuzz ($backend): FAILED: not done within ${seconds} s (PUNCT_FUZZ_SECONDS)" >&2
    elif [ "$rc" != 0 ]; then
        echo "fuzz ($backend): FAILED: schemathesis found the cases above" >&2
    fi
    if ! kill -0 "$server" 2> /dev/null; then
        echo "fuzz ($backend): FAILED: the server died; its log:" >&2
        cat "$log" >&2
        rc=1
    elif grep -q "panicked" "$log"; then
        echo "fuzz ($backend): FAILED: the server panicked; its log:" >&2
        cat "$log" >&2
        rc=1
    fi
    cleanup
    echo "fuzz ($backend): done in $((SECONDS - started)) s"
    return "$rc"
}

passed=0
failed=0
count() {
    if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

rc=0
fuzz sqlite || rc=$?
count "$rc"
if [ -n "${PUNCT_TEST_DATABASE_URL:-}" ]; then
    database=punct_fuzz_$$
    psql "$PUNCT_TEST_DATABASE_URL" -qXAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE $database" > /dev/null
    pg_url="${PUNCT_TEST_DATABASE_URL%/*}/$database"
    "$bin" db migrate --database "$pg_url" > /dev/null
    rc=0
    fuzz postgres --database "$pg_url" || rc=$?
    count "$rc"
fi
# One line each, counted into scripts/test.sh's summary.
echo "# pass $passed"
echo "# fail $failed"
[ "$failed" = 0 ]
