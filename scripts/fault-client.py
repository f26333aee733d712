#!/usr/bin/env python3
"""The client side of scripts/fault-test.sh: three `punct serve`
instances on one PostgreSQL database, a bounded load of scripted players
against all three, and faults injected on a fixed schedule meanwhile —
instances killed (SIGKILL) and restarted on their port, PostgreSQL frozen
(SIGSTOP of the postmaster and its children) and stopped (`pg_ctl stop -m
immediate`) and started again. Then, against the database itself (psql)
and the three instances, what the server promises: every acknowledged
move is stored at its ply, every ended game has one result, every rematch
exists once and is linked from one game, the AI's owed moves are played,
every instance serves again without a restart and the three show the
same games.

Standard library only. Every player connects from a loopback address of
its own (127.0.0.10, 127.0.0.11, …), so the limits see separate clients.

    fault-client.py run      settings in the environment, set by
                             fault-test.sh; prints "ok N - …" lines, then
                             "# pass N" and "# fail N"

Environment: FAULT_BIN (punct), FAULT_URL (the database), FAULT_TMP (a
directory of its own: the instances' data directories, logs and pid files
punctN.pid, which fault-test.sh's clean-up reads), FAULT_PGDIR (the
cluster's directory, scripts/postgres.sh), FAULT_LOAD (seconds of load,
default 66; a shorter one drops the faults that would not end 6 s before
it), FAULT_SEED (default 1), FAULT_VERBOSE (every request in the log).
"""

import http.client
import json
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

BIN = os.environ.get("FAULT_BIN", "")
URL = os.environ.get("FAULT_URL", "")
TMP = os.environ.get("FAULT_TMP", "")
PGDIR = os.environ.get("FAULT_PGDIR", "")
LOAD = float(os.environ.get("FAULT_LOAD", "66"))
SEED = int(os.environ.get("FAULT_SEED", "1"))
# Every request in the client's log (FAULT_KEEP's client.log).
VERBOSE = bool(os.environ.get("FAULT_VERBOSE"))

# The instances' settings: take-over within seconds, database calls
# bounded, the AI and the reviews quick, no rate limit in the way (every
# player is a client of its own anyway).
LEASE = 4
DB_TIMEOUT = 3
AI_MOVETIME = 150
SERVE_FLAGS = [
    "--bind", "127.0.0.1",
    "--job-lease", str(LEASE),
    "--db-timeout", str(DB_TIMEOUT),
    "--ai-movetime", str(AI_MOVETIME),
    "--review-movetime", "10",
    "--ai-workers", "2",
    "--rate-create", "off", "--rate-move", "off", "--rate-read", "off", "--rate-list", "off",
    "--rate-seat", "off", "--rate-websocket", "off", "--rate-analyse", "off", "--rate-import", "off",
]
# A request the server leaves unanswered this long counts as hung.
REQUEST_TIMEOUT = 15.0
# How long a player waits for a state (a move of the AI, another
# instance's copy catching up) before it reports the game stuck.
STUCK_AFTER = 40.0
# An instance shows a change made on another within this.
LAG_LIMIT = 10.0
# The AI's moves owed when the load stops are played within this.
AI_BOUND = 2 * LEASE + 6.0

T0 = time.monotonic()
# When the load began (seconds after T0), for the times reported.
T_LOAD = [0.0]


def now():
    return time.monotonic() - T0


LOG_LOCK = threading.Lock()
LOG = None


def log(text):
    with LOG_LOCK:
        if LOG:
            LOG.write(f"{now():7.2f} {text}\n")
            LOG.flush()


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


# ------------------------------------------------------------------ HTTP


class Down(Exception):
    """No answer: refused, reset, or timed out."""


class Answer:
    def __init__(self, status, body, raw, retry_after):
        self.status = status
        self.body = body
        self.raw = raw
        self.retry_after = retry_after

    @property
    def code(self):
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return self.body["error"].get("code")
        return None

    def __repr__(self):
        return f"{self.status} {self.raw[:300]!r}"


class Requests:
    """Every request made: (start, seconds, port, what, status or the
    failure). Kept to report answers by kind and latency in the faults'
    windows."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rows = []

    def add(self, row):
        with self.lock:
            self.rows.append(row)


REQUESTS = Requests()


def http_request(port, method, path, body=None, token=None, src="127.0.0.2", timeout=REQUEST_TIMEOUT, what=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(src, 0))
    headers = {"Connection": "close"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["X-Punct-Token"] = token
    t0 = now()
    what = what or f"{method} {path.split('/')[-1] if method == 'POST' else 'state'}"
    try:
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        raw = r.read()
    except (OSError, http.client.HTTPException) as e:
        kind = "timeout" if isinstance(e, (socket.timeout, TimeoutError)) else type(e).__name__
        REQUESTS.add((t0, now() - t0, port, what, kind, None))
        log(f"{src} :{port} {method} {path} -> {kind}")
        raise Down(f"{method} {path} on {port}: {type(e).__name__}: {e}") from e
    finally:
        conn.close()
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    a = Answer(r.status, parsed, raw.decode("utf-8", "replace"), r.getheader("Retry-After"))
    REQUESTS.add((t0, now() - t0, port, what, r.status, a.code))
    if VERBOSE:
        b = parsed if isinstance(parsed, dict) else {}
        st = b.get("game", b)
        log(f"{src} :{port} {method} {path} {json.dumps(body) if body and 'move' in body else ''} -> {r.status} "
            f"{a.code or ''} v{st.get('version')} ply {st.get('ply')} [{t0:.2f}+{now() - t0:.2f}]")
    return a


# ------------------------------------------------------------- the instances


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Instance:
    def __init__(self, n, port):
        self.n = n
        self.port = port
        self.proc = None
        self.starts = 0
        self.kills = 0
        self.first_pid = None

    @property
    def name(self):
        return f"instance {self.n} (:{self.port})"

    def start(self):
        self.starts += 1
        data = os.path.join(TMP, f"punct{self.n}")
        os.makedirs(data, exist_ok=True)
        out = open(os.path.join(TMP, f"punct{self.n}.out"), "a")
        err = open(os.path.join(TMP, f"punct{self.n}.err"), "a")
        err.write(f"--- fault-client: start {self.starts} at {now():.1f} s\n")
        err.flush()
        env = {k: v for k, v in os.environ.items() if k != "PUNCT_DATABASE_URL"}
        self.proc = subprocess.Popen(
            [BIN, "serve", "--port", str(self.port), "--data-dir", data, "--database", URL] + SERVE_FLAGS,
            stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        out.close()
        err.close()
        if self.first_pid is None:
            self.first_pid = self.proc.pid
        with open(os.path.join(TMP, f"punct{self.n}.pid"), "w") as f:
            f.write(f"{self.proc.pid}\n")
        log(f"{self.name}: started, pid {self.proc.pid}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        self.kills += 1
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        log(f"{self.name}: killed")

    def healthy(self):
        try:
            a = http_request(self.port, "GET", "/api/health", timeout=5, what="health")
        except Down:
            return False
        return a.status == 200

    def wait_healthy(self, limit, dead_fails=True):
        """Seconds until /api/health answers 200, or None after `limit`
        (or once the process has exited, unless `dead_fails` is false: it
        is being restarted)."""
        t0 = now()
        while now() - t0 < limit:
            if self.healthy():
                return now() - t0
            if dead_fails and not self.alive():
                return None
            time.sleep(0.1)
        return None

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)


# ---------------------------------------------------------------- PostgreSQL


class Postgres:
    """The throwaway cluster of fault-test.sh (scripts/postgres.sh)."""

    def __init__(self, pgdir):
        self.dir = pgdir
        self.data = os.path.join(pgdir, "data")
        # The postmaster's own command line, to start it again as it was.
        with open(os.path.join(self.data, "postmaster.opts")) as f:
            argv = shlex.split(f.read())
        self.postgres = argv[0]
        opts = []
        i = 1
        while i < len(argv):
            if argv[i] == "-D":
                i += 2
                continue
            opts.append(argv[i])
            i += 1
        self.opts = " ".join(shlex.quote(o) for o in opts)
        self.pg_ctl = os.path.join(os.path.dirname(self.postgres), "pg_ctl")
        self.frozen = []

    def owner(self, argv):
        # PostgreSQL refuses to run as root: the cluster is the postgres
        # user's then (scripts/postgres.sh).
        return (["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []) + argv

    def postmaster(self):
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def children(self, parent):
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                out.append(int(entry))
        return out

    def freeze(self):
        pm = self.postmaster()
        os.kill(pm, signal.SIGSTOP)
        self.frozen = [pm]
        for pid in self.children(pm):
            try:
                os.kill(pid, signal.SIGSTOP)
                self.frozen.append(pid)
            except ProcessLookupError:
                pass
        return len(self.frozen)

    def thaw(self):
        for pid in reversed(self.frozen):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.frozen = []

    def crash(self):
        subprocess.run(self.owner([self.pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30)

    def start(self):
        subprocess.run(self.owner([self.pg_ctl, "-D", self.data, "-l", os.path.join(self.dir, "server.log"),
                                   "-w", "-t", "60", "-o", self.opts, "start"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=70)


def psql_json(sql):
    """The rows of `sql` as a list of dicts, read straight from the database."""
    out = subprocess.run(["psql", URL, "-qXAt", "-v", "ON_ERROR_STOP=1", "-c",
                          f"SELECT coalesce(json_agg(row_to_json(q)), '[]') FROM ({sql}) q"],
                         capture_output=True, text=True, timeout=30)
    check(out.returncode == 0, f"psql: {out.stderr.strip()}")
    return json.loads(out.stdout)


# ------------------------------------------------------------ what was seen


class Book:
    """What the players were told: the moves acknowledged (a 200 to a
    move), every state an instance showed (committed, so part of the
    game's history), the games created, the results and rematches."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acks = []  # (time, game, ply, move, port)
        self.at_ply = {}  # (game, ply) -> (move, port, time)
        self.at_version = {}  # (game, version) -> (what, port)
        self.results = {}  # game -> (result, port)
        self.created = {}  # game -> mode
        self.rematches = {}  # old game -> new game, as answered
        self.problems = []  # what was wrong, as found while playing
        self.lags = []  # how long an instance took to show another's change
        self.counts = {}

    def count(self, what, n=1):
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + n

    def problem(self, text):
        log(f"PROBLEM {text}")
        with self.lock:
            self.problems.append(text)

    def see(self, state, port):
        """A state an instance showed: its moves are the game's, for good."""
        gid = state["id"]
        res = state.get("result")
        result = (res.get("score"), res.get("reason")) if res else None
        shown = (state["ply"], state["status"], result, state.get("draw_offer"), state.get("rematch"))
        t = now()
        with self.lock:
            for i, m in enumerate(state["moves"]):
                had = self.at_ply.setdefault((gid, i), (m, port, t))
                if had[0] != m:
                    self.problems.append(
                        f"game {gid} ply {i}: shown as {had[0]} by :{had[1]} at {had[2] - T_LOAD[0]:.1f} s, "
                        f"as {m} by :{port} at {t - T_LOAD[0]:.1f} s")
            had = self.at_version.setdefault((gid, state["version"]), (shown, port))
            if had[0] != shown:
                self.problems.append(
                    f"game {gid} version {state['version']}: {had[0]} on :{had[1]}, {shown} on :{port}")
            if result:
                had = self.results.setdefault(gid, (result, port))
                if had[0] != result:
                    self.problems.append(f"game {gid}: result {had[0]} on :{had[1]}, then {result} on :{port}")

    def lag(self, secs):
        with self.lock:
            self.lags.append(secs)

    def ack(self, gid, ply, move, port):
        with self.lock:
            self.acks.append((now(), gid, ply, move, port))


BOOK = Book()


# ----------------------------------------------------------------- players


class Stuck(Exception):
    pass


class Player:
    """One thread of scripted players: games of one kind, one after the
    other (each ended game's rematch next, raced on two instances), until
    the load stops."""

    def __init__(self, k, kind, instances, rng, end):
        self.k = k
        self.kind = kind
        self.instances = instances
        self.rng = rng
        self.end = end
        self.src = f"127.0.0.{10 + k}"
        self.home = k % len(instances)

    def order(self, home=None):
        """Ports to try, the player's own instance first."""
        h = self.home if home is None else home
        ports = [i.port for i in self.instances]
        return ports[h:] + ports[:h]

    def req(self, port, method, path, body=None, token=None):
        return http_request(port, method, path, body, token, src=self.src)

    # -- reading

    def read(self, gid, token, order, pred, what, limit=STUCK_AFTER):
        """The game's state once `pred` holds, from the first instance of
        `order` that shows it (a lagging copy is asked again, then
        another instance)."""
        t0 = now()
        i = 0
        tries = 0
        last = None
        while True:
            port = order[i % len(order)]
            try:
                a = self.req(port, "GET", f"/api/games/{gid}", token=token)
            except Down as e:
                last = str(e)
                i += 1
                tries = 0
                time.sleep(0.05)
                a = None
            if a is not None:
                if a.status == 200:
                    BOOK.see(a.body, port)
                    if pred(a.body):
                        return a.body, port
                    last = f"ply {a.body['ply']} version {a.body['version']} on :{port}"
                    tries += 1
                    if tries >= 10:
                        i += 1
                        tries = 0
                    time.sleep(0.05)
                elif a.status in (500, 503):
                    last = f"{a!r} on :{port}"
                    i += 1
                    tries = 0
                    time.sleep(0.2)
                else:
                    BOOK.problem(f"game {gid}: reading it on :{port}: {a!r}")
                    i += 1
                    time.sleep(0.2)
            if now() - t0 > limit:
                raise Stuck(f"game {gid}: {what}: not within {limit:.0f} s (last: {last})")

    # -- acting

    def fresh(self, gid, token, port, version):
        """The game as instance `port` shows it once it shows `version` or a
        later one, as a player's page waits for its own instance to show
        the last move before acting on it; None when the instance does not
        answer (or fails) meanwhile. An instance that shows an older
        version for longer than LAG_LIMIT (while it answers) is a problem:
        a copy another instance's change did not reach."""
        t0 = now()
        behind = None
        while True:
            try:
                a = self.req(port, "GET", f"/api/games/{gid}", token=token)
            except Down:
                return None
            if a.status == 200:
                BOOK.see(a.body, port)
                if a.body["version"] >= version:
                    if behind is not None:
                        BOOK.lag(now() - t0)
                    return a.body
                behind = a.body["version"]
            elif a.status not in (500, 503):
                BOOK.problem(f"game {gid}: reading it on :{port}: {a!r}")
                return None
            if now() - t0 > LAG_LIMIT:
                if behind is not None and a.status == 200:
                    BOOK.problem(f"game {gid}: :{port} still shows version {behind} {LAG_LIMIT:.0f} s after "
                                 f"version {version} was shown (from {t0 - T_LOAD[0]:.1f} s on)")
                return None
            time.sleep(0.05)

    def act(self, gid, token, order, path, body, state, what):
        """Sends a change of `state` (one version) to the first instance of
        `order` that shows that version, the next one while an instance
        does not answer or fails for want of its database. Returns (the
        last answer, the game as it is now, the port): the answer is a 200
        (acknowledged) or a refusal for good; or the game has a later
        version (a change made meanwhile, or an unanswered try that
        landed)."""
        t0 = now()
        i = 0
        version = state["version"]
        last = None
        refused = 0
        while True:
            if now() - t0 > STUCK_AFTER:
                raise Stuck(f"game {gid}: {what} not acknowledged within {STUCK_AFTER:.0f} s (last {last!r})")
            port = order[i % len(order)]
            cur = self.fresh(gid, token, port, version)
            if cur is None:
                i += 1
                time.sleep(0.1)
                continue
            if cur["version"] > version:
                return last, cur, port
            try:
                a = self.req(port, "POST", f"/api/games/{gid}/{path}", dict(body, token=token))
            except Down:
                last = None
                i += 1
                continue
            last = a
            if a.status == 200:
                BOOK.see(a.body, port)
                return a, a.body, port
            if a.status == 429:
                time.sleep(min(float(a.retry_after or 1), 2))
                continue
            if 400 <= a.status < 500:
                if a.code in ("stale", "not_your_turn", "game_over"):
                    # The game changed since: the instance shows it next.
                    refused += 1
                    if refused < 5:
                        time.sleep(0.05)
                        continue
                # A refusal for good (its caller judges it).
                return a, cur, port
            # A failure of the database (or of the instance): elsewhere.
            i += 1
            time.sleep(0.2)

    def move(self, gid, token, order, state):
        """Plays a legal move of the side to move at the ply seen."""
        legal = state["legal_moves"]
        adds = [m for m in legal if "@" in m]
        mv = self.rng.choice(adds or legal)
        at = state["ply"]
        a, st, port = self.act(gid, token, order, "moves", {"move": mv, "ply": at}, state, f"{mv} at ply {at}")
        if a is not None and a.status == 200:
            BOOK.ack(gid, at, mv, port)
            if st["ply"] != at + 1 or st["moves"][at] != mv:
                BOOK.problem(f"game {gid}: {mv} at ply {at} acknowledged by :{port} with ply {st['ply']}")
        elif a is not None and 400 <= a.status < 500 and a.code not in ("stale", "not_your_turn", "game_over"):
            BOOK.problem(f"game {gid}: {mv} at ply {at} (a legal move shown at that ply) refused by :{port}: {a!r}")
        return st

    def race(self, gid, jobs):
        """Sends the (port, path, body) requests at once; their answers
        (None: none came)."""
        answers = [None] * len(jobs)
        gate = threading.Barrier(len(jobs))

        def one(i, port, path, body):
            gate.wait()
            try:
                answers[i] = (port, self.req(port, "POST", f"/api/games/{gid}/{path}", body))
            except Down:
                answers[i] = (port, None)

        threads = [threading.Thread(target=one, args=(i, *job)) for i, job in enumerate(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return answers

    def rematch(self, gid, state, offer, answer, order):
        """The rematch of the ended game `gid`: `offer` = (token, home) asks
        for it; online `answer` = (token, home) accepts on two instances at
        once, elsewhere `offer` starts it on two instances at once. Returns
        the new game's id, or None."""
        ports = [i.port for i in self.instances]
        if answer is None:
            token, home = offer
            racers = [ports[home], ports[(home + 1) % len(ports)]]
            body = {"token": token, "action": "offer"}
        else:
            # The ended game may change meanwhile (its review is stored):
            # the offer is made on the game as it is then.
            for _ in range(5):
                a, state, _ = self.act(gid, offer[0], self.order(offer[1]), "rematch", {"action": "offer"}, state,
                                       "the rematch offer")
                if a is not None or state.get("rematch") or state.get("rematch_offer"):
                    break
            if state.get("rematch"):
                return self.note_rematch(gid, state["rematch"])
            if state.get("rematch_offer") is None:
                if a is not None:
                    BOOK.problem(f"game {gid}: offering a rematch: {a!r}")
                return None
            token, home = answer
            racers = [ports[home], ports[(home + 2) % len(ports)]]
            body = {"token": token, "action": "accept"}
        # Both racers show the game as it ended (or with the offer), as the
        # players' pages would before they click.
        for _ in range(5):
            ready = []
            for p in racers + [q for q in ports if q not in racers]:
                cur = self.fresh(gid, token, p, state["version"])
                if cur is None:
                    continue
                if cur.get("rematch"):
                    return self.note_rematch(gid, cur["rematch"])
                if cur["version"] > state["version"]:
                    # Changed meanwhile (its review): both again.
                    state = cur
                    ready = None
                    break
                ready.append(p)
                if len(ready) == 2:
                    break
            if ready is not None:
                break
        if not ready:
            return None
        answers = self.race(gid, [(p, "rematch", body) for p in ready])
        started = set()
        for port, a in answers:
            if a is None:
                continue
            if a.status == 200:
                BOOK.see(a.body, port)
                if a.body.get("rematch"):
                    started.add((a.body["rematch"], port))
                else:
                    BOOK.problem(f"game {gid}: a rematch answered 200 by :{port} without one: {a!r}")
            elif a.status == 409 and a.code == "rematch_started":
                BOOK.count("rematch races lost (409 rematch_started)")
                started.add((a.body["error"].get("params", {}).get("game"), None))
            elif a.status in (500, 503):
                BOOK.count(f"rematch answered {a.status} {a.code}")
            else:
                BOOK.problem(f"game {gid}: a raced rematch on :{port}: {a!r}")
        winners = [p for _, p in started if p is not None]
        ids = {g for g, _ in started}
        if len(winners) > 1:
            BOOK.problem(f"game {gid}: the rematch was started twice: 200 from :{winners[0]} and :{winners[1]}, "
                         f"games {sorted(ids)}")
        if len(ids) > 1:
            BOOK.problem(f"game {gid}: the rematch race named two games: {sorted(ids)}")
        if ids:
            new = sorted(ids)[0]
        else:
            # Neither answered: whether it began, the game says.
            st, _ = self.read(gid, offer[0], order, lambda s: True, "reading the rematch")
            new = st.get("rematch")
            if new is None:
                return None
        return self.note_rematch(gid, new)

    def note_rematch(self, gid, new):
        log(f"game {gid}: rematch {new}")
        with BOOK.lock:
            had = BOOK.rematches.setdefault(gid, new)
        if had != new:
            BOOK.problem(f"game {gid}: rematch {had} answered first, then {new}")
        BOOK.count("rematches")
        return new

    # -- the loops

    def live(self):
        return time.monotonic() < self.end

    def run(self):
        try:
            while self.live():
                try:
                    {"online": self.online, "ai": self.against_ai, "hotseat": self.hotseat}[self.kind]()
                except Stuck as e:
                    BOOK.problem(f"player {self.k} ({self.kind}): {e}")
        except Exception as e:  # noqa: BLE001 - a crash of a player is a failure
            BOOK.problem(f"player {self.k} ({self.kind}) crashed: {type(e).__name__}: {e}")
            import traceback
            log(traceback.format_exc())

    def create(self, spec, home):
        order = self.order(home)
        i = 0
        while self.live():
            port = order[i % len(order)]
            try:
                a = self.req(port, "POST", "/api/games", spec)
            except Down:
                a = None
            if a is not None and a.status == 201:
                log(f"player {self.k}: created {a.body['id']} ({spec['mode']}) on :{port}")
                BOOK.see(a.body["game"], port)
                with BOOK.lock:
                    BOOK.created[a.body["id"]] = spec["mode"]
                return a.body, port
            if a is not None and a.status == 429:
                time.sleep(min(float(a.retry_after or 1), 2))
                continue
            if a is not None and a.status not in (500, 503):
                BOOK.problem(f"creating {spec} on :{port}: {a!r}")
            BOOK.count("creations unanswered")
            i += 1
            time.sleep(0.2)
        return None, None

    def online(self):
        """Two people on two instances: White (this player's instance)
        creates, Black (the next one) claims; each reads and moves on their
        own, going to another instance when theirs does not answer."""
        homes = [self.home, (self.home + 1) % len(self.instances)]
        made, port = self.create({"mode": "online"}, homes[0])
        if made is None:
            return
        gid = made["id"]
        tokens = [made["seats"]["white"], None]
        code = made["invite"]["code"]
        state = made["game"]
        for port in self.order(homes[1]) * 3:
            try:
                a = self.req(port, "POST", f"/api/games/{gid}/claim", {"invite": code})
            except Down:
                a = None
            if a is not None and a.status == 200:
                tokens[1] = a.body["token"]
                state = a.body["game"]
                BOOK.see(state, port)
                break
            if a is not None and a.status not in (500, 503):
                # The first claim landed unanswered: its token is lost.
                BOOK.count("claims lost with their answer")
                return
            time.sleep(0.2)
        if tokens[1] is None:
            return
        # Player p holds colour colours[p] in the current game.
        colours = ["white", "black"]
        while True:
            state = self.play_out(gid, state, lambda side: tokens[colours.index(side)],
                                  lambda side, ply: homes[colours.index(side)], online=True)
            if state is None or not self.live():
                return
            loser = 0 if self.rng.random() < 0.5 else 1
            new = self.rematch(gid, state, (tokens[loser], homes[loser]), (tokens[1 - loser], homes[1 - loser]),
                               self.order(homes[loser]))
            if new is None:
                return
            gid = new
            colours.reverse()
            state, _ = self.read(gid, tokens[0], self.order(homes[0]), lambda s: True, "the rematch")

    def against_ai(self):
        side = "white" if self.rng.random() < 0.5 else "black"
        made, port = self.create({"mode": "ai", "level": 1, "side": side}, self.home)
        if made is None:
            return
        gid = made["id"]
        token = made["seats"][side]
        state = made["game"]
        while True:
            ai = state["ai"]["side"]
            state = self.play_out(gid, state, lambda s: token if s != ai else None, lambda s, ply: self.home)
            if state is None or not self.live():
                return
            new = self.rematch(gid, state, (token, self.home), None, self.order())
            if new is None:
                return
            gid = new
            state, _ = self.read(gid, token, self.order(), lambda s: True, "the rematch")

    def hotseat(self):
        made, port = self.create({"mode": "hotseat"}, self.home)
        if made is None:
            return
        gid = made["id"]
        token = made["seats"]["white"]
        state = made["game"]
        n = len(self.instances)
        while True:
            # Each ply through the next instance: every change finds the
            # instance's copy one ply behind.
            state = self.play_out(gid, state, lambda s: token, lambda s, ply: (self.home + ply) % n)
            if state is None or not self.live():
                return
            new = self.rematch(gid, state, (token, self.home), None, self.order())
            if new is None:
                return
            gid = new
            state, _ = self.read(gid, token, self.order(), lambda s: True, "the rematch")

    def play_out(self, gid, state, token_of, home_of, online=False):
        """Plays game `gid` until it is over (or the load stops: None):
        moves, now and then a draw offer (answered by the other side) and
        a resignation."""
        while self.live():
            if state["status"] != "ongoing":
                return state
            side = state["to_move"]
            token = token_of(side)
            if token is None:
                # The AI's turn: its move comes by itself.
                t0 = now()
                ply = state["ply"]
                state, _ = self.read(gid, token_of("white" if side == "black" else "black"), self.order(),
                                     lambda s: s["ply"] > ply or s["status"] != "ongoing", "the AI's move")
                BOOK.count("AI moves waited for")
                waited = now() - t0
                with BOOK.lock:
                    if waited > BOOK.counts.get("longest AI wait", 0):
                        BOOK.counts["longest AI wait"] = round(waited, 1)
                continue
            order = self.order(home_of(side, state["ply"]))
            r = self.rng.random()
            if state["ply"] >= 6 and r < 0.025:
                a, state, port = self.act(gid, token, order, "resign", {}, state, "resigning")
                BOOK.count("resignations")
                continue
            other = "white" if side == "black" else "black"
            if state["ply"] >= 4 and r < 0.06 and state.get("draw_offer") is None:
                a, state, port = self.act(gid, token, order, "draw", {"action": "offer"}, state, "a draw offer")
                if a is not None and a.status == 200:
                    BOOK.count("draw offers")
                if online and state.get("draw_offer") == side:
                    action = "accept" if self.rng.random() < 0.3 else "decline"
                    a, state, port = self.act(gid, token_of(other), self.order(home_of(other, state["ply"])), "draw",
                                              {"action": action}, state, f"{action} the draw")
                    if a is not None and a.status == 200:
                        BOOK.count("draws accepted" if action == "accept" else "draws declined")
                continue
            state = self.move(gid, token, order, state)
        return None


# ------------------------------------------------------------------ faults


class Faults:
    """The schedule, seconds after the load began."""

    def __init__(self, instances, pg, rng):
        self.instances = instances
        self.pg = pg
        killed = rng.sample(range(len(instances)), 2)
        self.spared = next(i for i in range(len(instances)) if i not in killed)
        a, b = killed
        # (at, what, which instance, how long): each on its own thread, so
        # that faults may overlap (an instance killed and restarted while
        # PostgreSQL is frozen).
        self.plan = [
            (4.0, "kill", a, 3.0),
            (12.0, "freeze", None, 5.0),
            (22.0, "kill", b, 2.0),
            (29.0, "stop", None, 3.0),
            (38.0, "kill", a, 2.0),
            (46.0, "freeze", None, 4.0),
            (47.0, "kill", b, 2.0),
            (56.0, "stop", None, 2.0),
        ]
        # A shorter load (FAULT_LOAD) makes fewer: each ends 6 s before it.
        self.plan = [f for f in self.plan if f[0] + f[3] <= LOAD - 6]
        self.done = []  # (what, start, end, healthy after, detail)
        self.errors = []

    def run(self, t_start):
        threads = []
        for at, kind, who, length in self.plan:
            wait = t_start + at - now()
            if wait > 0:
                time.sleep(wait)
            t = threading.Thread(target=self.one_of, args=(at, kind, who, length), daemon=True)
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        self.done.sort(key=lambda d: d[1])

    def one_of(self, at, kind, who, length):
        try:
            self.one(kind, who, length)
        except Exception as e:  # noqa: BLE001 - a fault that cannot be made fails the test
            self.errors.append(f"{kind} at {at:.0f} s: {type(e).__name__}: {e}")
            log(f"FAULT ERROR {self.errors[-1]}")

    def one(self, kind, who, length):
        t0 = now()
        if kind == "kill":
            inst = self.instances[who]
            inst.kill()
            time.sleep(length)
            inst.start()
            t1 = now()
            ready = inst.wait_healthy(30)
            what = f"kill -9 {inst.name}, restarted {length:.0f} s later"
            self.done.append((what, t0, t1, ready, [inst]))
        elif kind == "freeze":
            n = self.pg.freeze()
            log(f"postgres: froze {n} processes")
            time.sleep(length)
            self.pg.thaw()
            t1 = now()
            ready = self.all_healthy()
            self.done.append((f"PostgreSQL frozen (SIGSTOP of {n} processes) for {length:.0f} s",
                              t0, t1, ready, self.instances))
        elif kind == "stop":
            self.pg.crash()
            log("postgres: stopped (immediate)")
            time.sleep(length)
            self.pg.start()
            t1 = now()
            log("postgres: started")
            ready = self.all_healthy()
            self.done.append((f"PostgreSQL stopped (pg_ctl stop -m immediate), started {length:.0f} s later "
                              f"(start took {t1 - t0 - length:.1f} s)", t0, t1, ready, self.instances))

    def all_healthy(self):
        t0 = now()
        for inst in self.instances:
            if inst.wait_healthy(30 - (now() - t0), dead_fails=False) is None:
                return None
        return now() - t0


# ------------------------------------------------------------------ checks


def fmt_secs(x):
    return "never" if x is None else f"{x:.1f} s"


class Run:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.instances = [Instance(n + 1, p) for n, p in enumerate(free_ports(3))]
        self.pg = Postgres(PGDIR)
        self.faults = Faults(self.instances, self.pg, self.rng)
        self.load_end = None
        self.settled = {}

    def setup(self):
        for inst in self.instances:
            inst.start()
        for inst in self.instances:
            check(inst.wait_healthy(30) is not None, f"{inst.name} did not become healthy")
        return ", ".join(f":{i.port}" for i in self.instances) + f" (--job-lease {LEASE}, --db-timeout {DB_TIMEOUT})"

    def load(self):
        kinds = ["online", "online", "online", "ai", "ai", "ai", "ai", "hotseat"]
        t_start = now()
        end = time.monotonic() + LOAD
        self.players = [Player(k, kind, self.instances, random.Random(SEED * 1000 + k), end)
                        for k, kind in enumerate(kinds)]
        threads = [threading.Thread(target=p.run, name=f"player {p.k}", daemon=True) for p in self.players]
        faults = threading.Thread(target=self.faults.run, args=(t_start,), daemon=True)
        for t in threads:
            t.start()
        faults.start()
        faults.join(LOAD + 60)
        for t in threads:
            t.join(max(1.0, end - time.monotonic() + STUCK_AFTER + 5))
        self.load_end = now()
        check(not faults.is_alive(), "the fault schedule did not finish")
        check(not self.faults.errors, "a fault could not be made: " + "; ".join(self.faults.errors))
        hung = [t.name for t in threads if t.is_alive()]
        check(not hung, f"players still busy after the load: {hung}")
        acks = BOOK.acks
        c = BOOK.counts
        return (f"{len(acks)} moves acknowledged in {LOAD:.0f} s by {len(self.players)} players "
                f"({', '.join(f'{kinds.count(k)} {k}' for k in ('online', 'ai', 'hotseat'))}); "
                f"{len(BOOK.created)} games created, {c.get('rematches', 0)} rematches, "
                f"{c.get('resignations', 0)} resignations, {c.get('draw offers', 0)} draw offers "
                f"({c.get('draws accepted', 0)} accepted), {c.get('AI moves waited for', 0)} AI moves "
                f"(longest wait {c.get('longest AI wait', 0)} s); an instance behind another's change caught up "
                f"within {max(BOOK.lags, default=0):.2f} s ({len(BOOK.lags)} times)")

    def report_faults(self):
        lines = []
        acks = sorted(a[0] for a in BOOK.acks)
        for what, t0, t1, ready, insts in self.faults.done:
            first = next((t for t in acks if t > t1), None)
            during = sum(1 for t in acks if t0 <= t <= t1)
            lines.append(f"{what} at {t0 - T_LOAD[0]:.1f} s: healthy {fmt_secs(ready)} after, "
                         f"first move acknowledged {fmt_secs(None if first is None else first - t1)} after, "
                         f"{during} acknowledged meanwhile")
        for line in lines:
            print(f"#   {line}", flush=True)
        bad = [w for w, _, _, ready, _ in self.faults.done if ready is None]
        check(not bad, f"not healthy again within 30 s after: {bad}")
        return f"{len(self.faults.done)} faults"

    def answers(self):
        """Every answer by kind; 5xx only from requests in flight during a
        fault's window (and the db-timeout after it), and none that hung."""
        windows = [(t0, t1 + (ready or 30) + DB_TIMEOUT + 2) for _, t0, t1, ready, _ in self.faults.done]
        tally = {}
        outside = []
        slow = []
        for t, secs, port, what, status, code in REQUESTS.rows:
            key = f"{status}{' ' + code if code else ''}"
            tally[key] = tally.get(key, 0) + 1
            # In flight at any moment of a window: a request sent just
            # before a fault may be answered by it.
            inside = any(t <= b and t + secs >= a for a, b in windows)
            if (isinstance(status, int) and status >= 500 or status == "timeout") and not inside:
                outside.append(f"{what} on :{port} at {t - T_LOAD[0]:.1f} s: {key}")
            if isinstance(status, int) and secs > 2 * DB_TIMEOUT + 2:
                slow.append(f"{what} on :{port} at {t - T_LOAD[0]:.1f} s took {secs:.1f} s ({key})")
        print("#   answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items(), key=lambda kv: -kv[1])),
              flush=True)
        check(not outside, f"{len(outside)} failures outside the faults' windows: {outside[:8]}")
        check(not slow, f"{len(slow)} answers slower than 2 x --db-timeout + 2 s: {slow[:8]}")
        longest = max((s for _, s, _, _, st, _ in REQUESTS.rows if isinstance(st, int)), default=0)
        return f"{len(REQUESTS.rows)} requests, the slowest answered in {longest:.1f} s"

    def played(self):
        check(not BOOK.problems, f"{len(BOOK.problems)} problems while playing: " + " | ".join(BOOK.problems[:10]))
        check(len(BOOK.acks) >= 50, f"only {len(BOOK.acks)} moves acknowledged: the load did not run")
        return "no conflicting states, no refused legal move, no player stuck"

    def ai_owed(self):
        """The AI's games where it is to move get their move (or end)."""
        t0 = now()
        owed = []
        while True:
            rows = psql_json("SELECT id, plies, ai_side, start FROM games WHERE mode = 'ai' AND status = 'ongoing'")
            owed = [r for r in rows if self.to_move(r) == r["ai_side"]]
            if not owed or now() - t0 > AI_BOUND:
                break
            time.sleep(0.25)
        check(not owed, f"{len(owed)} games against the AI still wait for its move {now() - t0:.1f} s after the "
                        f"load stopped: " + ", ".join(f"{r['id']} (ply {r['plies']})" for r in owed[:8]))
        jobs = psql_json("SELECT kind, count(*) AS n FROM jobs GROUP BY kind")
        waiting = ", ".join(f"{j['n']} {j['kind']}" for j in jobs) or "none"
        return (f"within {now() - t0:.1f} s of the load's end (bound {AI_BOUND:.0f} s); jobs still in the "
                f"database: {waiting}")

    @staticmethod
    def to_move(row):
        first = "black" if row["start"].split(":")[1] == "b" else "white"
        other = "black" if first == "white" else "white"
        return first if row["plies"] % 2 == 0 else other

    def serving(self):
        """Every instance answers health and takes a move; the spared one
        is the process it was."""
        details = []
        for inst in self.instances:
            check(inst.alive(), f"{inst.name} has exited")
            check(inst.healthy(), f"{inst.name}: /api/health is not 200")
            a = http_request(inst.port, "POST", "/api/games", {"mode": "hotseat"}, src="127.0.0.3")
            check(a.status == 201, f"{inst.name}: creating a game: {a!r}")
            BOOK.created[a.body["id"]] = "hotseat"
            mv = a.body["game"]["legal_moves"][0]
            b = http_request(inst.port, "POST", f"/api/games/{a.body['id']}/moves",
                             {"move": mv, "token": a.body["seats"]["white"], "ply": 0}, src="127.0.0.3")
            check(b.status == 200, f"{inst.name}: a move after the faults: {b!r}")
            BOOK.see(b.body, inst.port)
            BOOK.ack(a.body["id"], 0, mv, inst.port)
            details.append(f"{inst.n}: {inst.starts} start{'s' if inst.starts > 1 else ''}")
        spared = self.instances[self.faults.spared]
        check(spared.starts == 1 and spared.proc.pid == spared.first_pid,
              f"{spared.name}, never killed, was started {spared.starts} times")
        return f"{spared.name} never killed, still its first process; " + ", ".join(details)

    def snapshot(self):
        self.rows = {r["id"]: r for r in psql_json(
            "SELECT id, mode, ai_side, start, moves, plies, status, result, reason, version, rematch, "
            "white_token, black_token, created FROM games")}

    def acknowledged(self):
        missing = []
        n = 0
        for t, gid, ply, mv, port in BOOK.acks:
            n += 1
            row = self.rows.get(gid)
            if row is None:
                missing.append(f"game {gid} (move {mv} at ply {ply}, acknowledged by :{port} at "
                               f"{t - T_LOAD[0]:.1f} s) is not in the database")
                continue
            stored = row["moves"].split()
            if ply >= len(stored) or stored[ply] != mv:
                got = stored[ply] if ply < len(stored) else f"nothing (the game has {len(stored)} plies)"
                missing.append(f"game {gid} ply {ply}: {mv} acknowledged by :{port} at {t - T_LOAD[0]:.1f} s, "
                               f"stored: {got}")
        shown = 0
        for (gid, ply), (mv, port, t) in BOOK.at_ply.items():
            shown += 1
            row = self.rows.get(gid)
            stored = row["moves"].split() if row else []
            if ply >= len(stored) or stored[ply] != mv:
                got = stored[ply] if ply < len(stored) else f"nothing (the game has {len(stored)} plies)"
                missing.append(f"game {gid} ply {ply}: {mv} shown by :{port} at {t - T_LOAD[0]:.1f} s, "
                               f"stored: {got}")
        check(not missing, f"{len(missing)} moves lost: " + " | ".join(missing[:10]))
        games = len({a[1] for a in BOOK.acks})
        return f"{n} acknowledged moves in {games} games, {shown} plies shown, all stored at their ply"

    def created(self):
        lost = [g for g in BOOK.created if g not in self.rows]
        check(not lost, f"games created (201) but not stored: {lost[:10]}")
        bad = [r["id"] for r in self.rows.values() if r["plies"] != len(r["moves"].split())]
        check(not bad, f"games whose plies column disagrees with their moves: {bad[:10]}")
        return f"{len(BOOK.created)} acknowledged creations stored, {len(self.rows)} games in the database"

    def results(self):
        wrong = []
        over = 0
        for gid, row in self.rows.items():
            if row["status"] != "ongoing":
                over += 1
                if row["status"] not in ("1-0", "0-1", "1/2-1/2"):
                    wrong.append(f"game {gid}: status {row['status']!r}")
                if row["result"] is not None and row["result"] != row["status"]:
                    wrong.append(f"game {gid}: status {row['status']} but result {row['result']} ({row['reason']})")
            elif row["result"] is not None or row["reason"] is not None:
                wrong.append(f"game {gid}: ongoing with result {row['result']} ({row['reason']})")
        for gid, ((score, reason), port) in BOOK.results.items():
            row = self.rows.get(gid)
            if row is None:
                continue
            if row["status"] != score:
                wrong.append(f"game {gid}: ended {score} ({reason}) as shown by :{port}, stored {row['status']} "
                             f"({row['reason']})")
            # An end off the board is its one stored reason; an end on the
            # board has none stored (two would be two results).
            if reason in ("resignation", "agreement", "time", "abandonment") and row["reason"] is None:
                wrong.append(f"game {gid}: ended by {reason} as shown by :{port}, stored without a reason")
            if reason in ("connection", "central count", "no connection") and row["reason"] is not None:
                wrong.append(f"game {gid}: ended by {reason} on the board, yet stored with {row['result']} "
                             f"({row['reason']})")
        check(not wrong, f"{len(wrong)} games with a wrong result: " + " | ".join(wrong[:10]))
        return f"{over} ended games, {len(BOOK.results)} ends shown, each stored once as shown"

    def rematches(self):
        wrong = []
        linked = {}
        for gid, row in self.rows.items():
            if row["rematch"]:
                linked.setdefault(row["rematch"], []).append(gid)
        for new, olds in linked.items():
            if len(olds) > 1:
                wrong.append(f"game {new} is the rematch of {len(olds)} games: {olds}")
            if new not in self.rows:
                wrong.append(f"game {olds[0]} links to rematch {new}, which is not stored")
                continue
            old, row = self.rows[olds[0]], self.rows[new]
            if (row["white_token"], row["black_token"]) != (old["black_token"], old["white_token"]):
                wrong.append(f"rematch {new} of {olds[0]} does not hold the old game's seats swapped")
        # A game holding another's seat token is that game's rematch (tokens
        # are fresh for every game created or claimed): it must be linked.
        by_token = {}
        for gid, row in self.rows.items():
            for t in (row["white_token"], row["black_token"]):
                if t:
                    by_token.setdefault(t, []).append(gid)
        for gid, row in self.rows.items():
            if gid in linked:
                continue
            kin = {g for t in (row["white_token"], row["black_token"]) if t for g in by_token[t]} - {gid}
            if any(self.rows[g]["created"] <= row["created"] for g in kin):
                wrong.append(f"game {gid} is a rematch (it holds the seats of {sorted(kin)}) linked from no game")
        for old, new in BOOK.rematches.items():
            row = self.rows.get(old)
            if row is not None and row["rematch"] != new:
                wrong.append(f"game {old}: rematch {new} answered, {row['rematch']} stored")
        check(not wrong, f"{len(wrong)} rematch faults: " + " | ".join(wrong[:10]))
        return f"{len(linked)} rematches, each linked from one game, none unlinked ({len(BOOK.rematches)} answered)"

    def agree(self):
        """The three instances show the same game as the database, for a
        sample: every ongoing game (held in memory) and some ended ones."""
        ongoing = sorted(g for g, r in self.rows.items() if r["status"] == "ongoing")
        ended = sorted(g for g, r in self.rows.items() if r["status"] != "ongoing")
        sample = ongoing[:30] + self.rng.sample(ended, min(10, len(ended)))
        wrong = []
        for gid in sample:
            row = self.rows[gid]
            t0 = now()
            while True:
                seen = []
                for inst in self.instances:
                    try:
                        a = http_request(inst.port, "GET", f"/api/games/{gid}", src="127.0.0.3")
                    except Down as e:
                        seen.append(("down", str(e)))
                        continue
                    if a.status != 200:
                        seen.append(("error", repr(a)))
                        continue
                    s = a.body
                    res = s["result"]["score"] if s.get("result") else None
                    seen.append((s["version"], " ".join(s["moves"]), s["status"], res, s.get("rematch")))
                stored = (" ".join(row["moves"].split()), "ongoing" if row["status"] == "ongoing" else "over",
                          None if row["status"] == "ongoing" else row["status"], row["rematch"])
                same = len(set(seen)) == 1 and all(x[1:] == stored for x in seen) and seen[0][0] >= row["version"]
                if same:
                    break
                if now() - t0 > 10:
                    wrong.append(f"game {gid} ({row['mode']}): " + "; ".join(
                        f":{i.port} " + (f"version {x[0]} ply {len(x[1].split())} {x[2]} result {x[3]} rematch {x[4]}"
                                         if len(x) == 5 else f"{x[0]} {x[1]}")
                        for i, x in zip(self.instances, seen))
                        + f"; database: version {row['version']} ply {row['plies']} {row['status']}")
                    break
                time.sleep(0.2)
        check(not wrong, f"{len(wrong)} games shown differently: " + " | ".join(wrong[:6]))
        return f"{len(sample)} games ({min(30, len(ongoing))} ongoing) alike on the three instances and in the database"

    def main(self):
        steps = [
            ("three instances on one PostgreSQL database", self.setup),
            ("scripted players on all three while faults are injected", self.load),
            ("faults injected, every instance healthy again after each", self.report_faults),
            ("the players were never refused wrongly, shown two histories or stuck", self.played),
            ("no 5xx outside the faults, no answer hung", self.answers),
            ("every AI move owed is played", self.ai_owed),
            ("every instance serves: health 200 and a move on each, none needed a restart", self.serving),
            ("every acknowledged (and shown) move is stored at its ply", lambda: (self.snapshot(), self.acknowledged())[1]),
            ("every acknowledged game is stored", self.created),
            ("every ended game has exactly one result, the one shown", self.results),
            ("every rematch exists once, linked from exactly one game", self.rematches),
            ("the three instances show the same games as the database", self.agree),
        ]
        passed = failed = 0
        for i, (name, fn) in enumerate(steps, 1):
            t0 = now()
            if i == 2:
                T_LOAD[0] = t0
            try:
                detail = fn()
            except (Failure, Stuck) as e:
                print(f"not ok {i} - {name}\n#   {e}", flush=True)
                failed += 1
                if i <= 2:
                    print(f"# stopped at step {i} of {len(steps)}", flush=True)
                    break
                continue
            except Exception as e:  # noqa: BLE001 - a crash is a failure of its step
                import traceback
                print(f"not ok {i} - {name}\n#   {type(e).__name__}: {e}", flush=True)
                log(traceback.format_exc())
                failed += 1
                if i <= 2:
                    print(f"# stopped at step {i} of {len(steps)}", flush=True)
                    break
                continue
            passed += 1
            extra = f" ({detail})" if detail else ""
            print(f"ok {i} - {name}{extra} [{now() - t0:.1f} s]", flush=True)
        print(f"# pass {passed}")
        print(f"# fail {failed}")
        return 0 if failed == 0 else 1

    def shutdown(self):
        if self.pg.frozen:
            self.pg.thaw()
        for inst in self.instances:
            inst.stop()
        deadline = time.monotonic() + 8
        for inst in self.instances:
            if inst.proc is None:
                continue
            try:
                inst.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                inst.proc.kill()
                inst.proc.wait()


def run():
    global LOG
    for name, value in (("FAULT_BIN", BIN), ("FAULT_URL", URL), ("FAULT_TMP", TMP), ("FAULT_PGDIR", PGDIR)):
        if not value:
            print(f"error: {name} is not set (fault-test.sh sets it)", file=sys.stderr)
            return 2
    LOG = open(os.path.join(TMP, "client.log"), "a")
    r = Run()
    # A TERM (fault-test.sh's timeout or clean-up) ends the run through
    # its clean-up below: the cluster thawed, the instances stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return r.main()
    finally:
        r.shutdown()


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        sys.exit(run())
    print(__doc__, file=sys.stderr)
    sys.exit(2)
