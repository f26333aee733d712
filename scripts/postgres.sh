#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, in a temporary directory,
# listening on a free loopback port.
#
#   scripts/postgres.sh start DIR   makes and starts a cluster in DIR (which
#                                   must not exist); prints its URL
#   scripts/postgres.sh stop DIR    stops it and removes DIR
#
# Uses Debian's PostgreSQL (installed with apt-get when missing and run as
# root). PostgreSQL refuses to run as root, so as root the cluster belongs
# to the `postgres` user the Debian package makes. fsync is off: the tests
# kill punct, never the cluster, and nothing in it is kept (measurements
# that want the disk flushes set PUNCT_PG_FSYNC=on).
set -euo pipefail

bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1 || true)
    if [ -z "$dir" ] && command -v initdb > /dev/null; then
        dir=$(dirname "$(readlink -f "$(command -v initdb)")")
    fi
    echo "$dir"
}

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "${1:-}" in
start)
    dir=${2:?usage: scripts/postgres.sh start DIR}
    bin=$(bindir)
    if [ -z "$bin" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
            apt-get update -qq >&2
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql > /dev/null
            bin=$(bindir)
        else
            echo "error: the PostgreSQL tests need PostgreSQL: sudo apt-get install postgresql" >&2
            exit 1
        fi
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U punct -A trust -E UTF8 --no-instructions > "$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=${PUNCT_PG_FSYNC:-off} -c max_connections=300" \
        start > /dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://punct@127.0.0.1:$port/postgres"
    ;;
stop)
    dir=${2:?usage: scripts/postgres.sh stop DIR}
    bin=$(bindir)
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: scripts/postgres.sh start|stop DIR" >&2
    exit 2
    ;;
esac
