#!/usr/bin/env bash
# The deployment as shipped, tested: nginx and Caddy with the files of
# deploy/ (nginx.conf with punct-proxy.conf, Caddyfile), each terminating
# HTTPS with a throwaway certificate, in front of two `punct serve
# --trust-proxy --public-url https://…` instances sharing one PostgreSQL
# database. The client (scripts/deploy-client.py) then plays whole online
# games with live sockets through each proxy, kills an instance mid-game,
# and checks the client address the limits see, /metrics, health checks,
# redirects and cookies. Everything listens on 127.0.0.1 (clients come from
# other loopback addresses, 127.0.0.2 …) and runs in the foreground in a
# temporary directory, removed at the end with every process.
#
#   bash scripts/deploy-test.sh
#
# The test configurations are the shipped files with only these replaced:
# the instances' addresses, the ports, the certificate's paths (the host
# name stays punct.example.org: the client sends it). nginx gets a minimal
# main configuration around the site (pid, logs, temp paths), Caddy a
# global options block (no admin endpoint, ports, storage). A shipped file
# whose replaced lines are not found fails the test.
#
# Uses the PostgreSQL cluster of PUNCT_TEST_DATABASE_URL (scripts/test.sh
# sets it) with a database of its own, or starts one (scripts/postgres.sh);
# PUNCT_BIN, or the workspace's debug build. Needs nginx, caddy, openssl
# and curl for HTTP/2 (Debian packages; installed with apt-get when missing
# and run as root).
# Prints "ok N - …" lines, then "# pass N" and "# fail N"; exits non-zero
# on a failure, naming the step.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
HOST=punct.example.org
RATE=4

pids=()
tmp=""
pgdir=""
db=""
cluster=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP PIPE
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2> /dev/null || true
    done
    for pid in "${pids[@]}"; do
        # nginx and Caddy exit at once on TERM; punct within its grace.
        for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2> /dev/null || true
        wait "$pid" 2> /dev/null || true
    done
    if [ -n "$db" ] && [ -z "$pgdir" ]; then
        psql "$cluster" -qXAt -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" > /dev/null 2>&1 || true
    fi
    [ -n "$pgdir" ] && bash scripts/postgres.sh stop "$pgdir"
    [ -n "$tmp" ] && rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' INT TERM HUP
# Output into a closed pipe fails (and so exits, cleaning up) instead of
# killing the script before it could.
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

# Replaces the literal text FROM with TO in FILE; fails when FILE (a
# shipped configuration) does not have it.
subst() {
    python3 - "$@" << 'EOF' || fail "the shipped ${1##*/} has no \`$2\` to replace (see scripts/deploy-test.sh)"
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, "w").write(text.replace(old, new))
EOF
}

# Waits up to 20 s for a TCP port on 127.0.0.1 to accept.
wait_port() {
    python3 - "$1" << 'EOF'
import socket, sys, time
end = time.time() + 20
while time.time() < end:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
EOF
}

# --- what it needs -----------------------------------------------------------
missing=()
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v caddy > /dev/null || missing+=(caddy)
command -v openssl > /dev/null || missing+=(openssl)
command -v curl > /dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
        # No package may start its service (nginx and Caddy would both take
        # port 80, and the second's install fail): this test runs its own.
        norc=""
        if [ ! -e /usr/sbin/policy-rc.d ]; then
            printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
            chmod 755 /usr/sbin/policy-rc.d
            norc=1
        fi
        apt-get update -qq
        installed=0
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null || installed=$?
        [ -z "$norc" ] || rm -f /usr/sbin/policy-rc.d
        [ "$installed" = 0 ] || exit "$installed"
    else
        echo "error: the deployment test needs ${missing[*]}: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
echo "# $("$nginx" -v 2>&1), caddy $(caddy version | cut -d' ' -f1), $(openssl version | cut -d' ' -f1-2)"

bin=${PUNCT_BIN:-}
if [ -z "$bin" ]; then
    cargo build -p punct-cli --locked -q
    target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    bin=$target/debug/punct
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/punct-deploy.XXXXXX")
# nginx's workers (an unprivileged user when run as root) write their temp
# files below it.
chmod 755 "$tmp"

# Free ports: two proxies' HTTPS ports, nginx's HTTP port, Caddy's (unused:
# redirects off) and the not-ready upstream's.
read -r ngx_https ngx_http caddy_https caddy_http stub_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(5)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# --- the database -------------------------------------------------------------
cluster=${PUNCT_TEST_DATABASE_URL:-}
if [ -z "$cluster" ]; then
    pgdir=$(mktemp -u -d "${TMPDIR:-/tmp}/punct-deploy-pg.XXXXXX")
    cluster=$(bash scripts/postgres.sh start "$pgdir") || fail "starting PostgreSQL (scripts/postgres.sh)"
fi
db=punct_deploy_$$_$RANDOM
psql "$cluster" -qXAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" > "$tmp/psql.log" 2>&1 ||
    fail "creating database $db" "$tmp/psql.log"
url=${cluster%/*}/$db
"$bin" db migrate --database "$url" > "$tmp/migrate.log" 2>&1 || fail "punct db migrate" "$tmp/migrate.log"

# --- two instances, as deploy/punct.service runs them ---------------------------
instances=()
for n in 1 2; do
    mkdir -p "$tmp/punct$n"
    env -u PUNCT_DATABASE_URL "$bin" serve --bind 127.0.0.1 --port 0 --data-dir "$tmp/punct$n" \
        --database "$url" --trust-proxy --public-url "https://$HOST:$ngx_https" \
        --rate-list "$RATE/min" --ai-workers 1 \
        > "$tmp/punct$n.out" 2> "$tmp/punct$n.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 200); do
        grep -q '^PÜNCT server: open' "$tmp/punct$n.out" 2> /dev/null && break
        kill -0 "$pid" 2> /dev/null || break
        sleep 0.1
    done
    addr=$(sed -n 's|^PÜNCT server: open http://\(.*\)/$|\1|p' "$tmp/punct$n.out")
    [ -n "$addr" ] || fail "punct serve (instance $n) did not start" "$tmp/punct$n.out" "$tmp/punct$n.err"
    # A loopback bind is printed as the name the page is opened by.
    [ "${addr%:*}" = localhost ] || fail "instance $n listens on $addr, not on loopback"
    instances+=("${addr##*:}:$pid")
done
p1=${instances[0]%%:*}
p2=${instances[1]%%:*}

# --- a throwaway certificate -------------------------------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$HOST" \
    -addext "subjectAltName=DNS:$HOST" -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
    > "$tmp/openssl.log" 2>&1 || fail "openssl req" "$tmp/openssl.log"

# --- nginx: deploy/nginx.conf and deploy/punct-proxy.conf -----------------------------
n=$tmp/nginx
mkdir -p "$n/snippets"
chmod 755 "$n"
cp deploy/nginx.conf "$n/punct.conf" || fail "deploy/nginx.conf is missing"
cp deploy/punct-proxy.conf "$n/snippets/punct-proxy.conf" || fail "deploy/punct-proxy.conf is missing"
subst "$n/punct.conf" "server 127.0.0.1:8080 max_fails=3 fail_timeout=10s;" \
    "server 127.0.0.1:$p1 max_fails=3 fail_timeout=10s;
    server 127.0.0.1:$p2 max_fails=3 fail_timeout=10s;"
subst "$n/punct.conf" "listen 443 ssl" "listen 127.0.0.1:$ngx_https ssl"
subst "$n/punct.conf" "listen 80;" "listen 127.0.0.1:$ngx_http;"
subst "$n/punct.conf" "/etc/letsencrypt/live/$HOST/fullchain.pem" "$tmp/cert.pem"
subst "$n/punct.conf" "/etc/letsencrypt/live/$HOST/privkey.pem" "$tmp/key.pem"
cat > "$n/nginx.conf" << EOF
# The test's main configuration: only what a site file cannot say.
daemon off;
worker_processes 1;
pid $n/nginx.pid;
events { worker_connections 1024; }
http {
    access_log $n/access.log;
    client_body_temp_path $n/client_body;
    proxy_temp_path $n/proxy;
    fastcgi_temp_path $n/fastcgi;
    uwsgi_temp_path $n/uwsgi;
    scgi_temp_path $n/scgi;
    include punct.conf;
}
EOF
diff -u deploy/nginx.conf "$n/punct.conf" > "$n/changes.diff" || true
"$nginx" -t -p "$n" -c "$n/nginx.conf" -e "$n/error.log" > "$n/test.log" 2>&1 ||
    fail "nginx -t with deploy/nginx.conf" "$n/test.log" "$n/changes.diff"
"$nginx" -p "$n" -c "$n/nginx.conf" -e "$n/error.log" > "$n/stdout.log" 2>&1 &
pids+=("$!")

# --- Caddy: deploy/Caddyfile --------------------------------------------------------
c=$tmp/caddy
mkdir -p "$c"
# An upstream that is up but not ready (/api/health 503): the health
# checks must leave it out.
python3 scripts/deploy-client.py stub "$stub_port" "$c/stub.log" 2> "$c/stub.err" &
pids+=("$!")
# Up before Caddy, whose first health check is at its start.
wait_port "$stub_port" || fail "the stub upstream does not listen" "$c/stub.err"
cp deploy/Caddyfile "$c/site" || fail "deploy/Caddyfile is missing"
subst "$c/site" "to 127.0.0.1:8080" "to 127.0.0.1:$p1 127.0.0.1:$p2 127.0.0.1:$stub_port"
subst "$c/site" "# tls /etc/caddy/$HOST.crt /etc/caddy/$HOST.key" "tls $tmp/cert.pem $tmp/key.pem"
{
    cat << EOF
# The test's global options: only what the site cannot say.
{
	admin off
	default_bind 127.0.0.1
	http_port $caddy_http
	https_port $caddy_https
	auto_https disable_redirects
	skip_install_trust
	storage file_system $c/data
}

EOF
    cat "$c/site"
} > "$c/Caddyfile"
diff -u deploy/Caddyfile "$c/site" > "$c/changes.diff" || true
caddy_env=(env HOME="$c" XDG_DATA_HOME="$c/data" XDG_CONFIG_HOME="$c/config")
"${caddy_env[@]}" caddy validate --config "$c/Caddyfile" --adapter caddyfile > "$c/validate.log" 2>&1 ||
    fail "caddy validate with deploy/Caddyfile" "$c/validate.log" "$c/changes.diff"
"${caddy_env[@]}" caddy run --config "$c/Caddyfile" --adapter caddyfile > "$c/caddy.log" 2>&1 &
pids+=("$!")

wait_port "$ngx_https" || fail "nginx does not listen on $ngx_https" "$n/error.log" "$n/stdout.log"
wait_port "$caddy_https" || fail "caddy does not listen on $caddy_https" "$c/caddy.log"
echo "# setup: instances on $p1 and $p2, nginx on $ngx_https (http $ngx_http), caddy on $caddy_https, in $(($(date +%s) - started)) s"

# --- the checks -------------------------------------------------------------------
# In the background, so that a signal to this script (its trap) does not
# wait for the client to finish.
DEPLOY_HOST=$HOST DEPLOY_CA="$tmp/cert.pem" DEPLOY_NGINX_PORT=$ngx_https DEPLOY_NGINX_HTTP_PORT=$ngx_http \
    DEPLOY_CADDY_PORT=$caddy_https DEPLOY_STUB_LOG="$c/stub.log" DEPLOY_INSTANCES="${instances[*]}" \
    DEPLOY_RATE_LIST=$RATE timeout 100 python3 scripts/deploy-client.py run &
pids+=("$!")
rc=0
wait "$!" 2> /dev/null || rc=$?
if [ "$rc" != 0 ]; then
    [ "$rc" = 124 ] && echo "not ok - the client ran past 100 s" && echo "# fail 1"
    for f in "$tmp"/punct?.err "$n/error.log" "$c/caddy.log" "$n/changes.diff" "$c/changes.diff"; do
        [ -s "$f" ] && { echo "# --- ${f#"$tmp"/}"; tail -n 20 "$f" | sed 's/^/#   /'; }
    done
fi
echo "# deploy-test: $(($(date +%s) - started)) s"
exit "$rc"
