#!/usr/bin/env python3
"""Issue 30's attacks on `punct serve`, rerun: what a hostile client can
still do, as figures (docs/PERFORMANCE.md, "The server under attack").
Not a test (the tests in crates/punct-server/tests assert the behaviour);
this measures it on the machine it runs on.

    python3 scripts/attacks.py [--bin target/debug/punct] [ATTACK ...]

ATTACKs: methods trickle import lists rates (default: all). Each starts
its own server on 127.0.0.1 with an SQLite file in a temp dir; clients
connect from loopback addresses of their own (127.0.0.2, …), which the
server counts as different clients. Standard library only.
"""

import argparse
import http.client
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BIN = "target/debug/punct"
POSTGRES = None


class Server:
    def __init__(self, *flags):
        self.dir = tempfile.mkdtemp(prefix="punct-attack-")
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.log = open(os.path.join(self.dir, "log"), "w")
        self.proc = subprocess.Popen(
            [BIN, "serve", "--port", str(self.port), "--data-dir", self.dir, *flags],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        for _ in range(400):
            try:
                if self.get("/api/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise SystemExit("the server did not start: see " + self.log.name)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def request(self, method, path, body=None, src="127.0.0.2", timeout=30):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(src, 0))
        try:
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            c.request(method, path, body=data, headers=headers)
            r = c.getresponse()
            text = r.read().decode("utf-8", "replace")
            try:
                return r.status, json.loads(text)
            except ValueError:
                return r.status, text
        finally:
            c.close()

    def get(self, path, src="127.0.0.2"):
        return self.request("GET", path, src=src)

    def post(self, path, body, src="127.0.0.2"):
        return self.request("POST", path, body, src=src)


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return out, (time.perf_counter() - t0) * 1000


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def say(what, **figures):
    print(f"{what}: " + ", ".join(f"{k} {v}" for k, v in figures.items()), flush=True)


# ------------------------------------------------------------------ attacks


def methods():
    """2,000 requests with made-up 60 KB method names."""
    s = Server()
    try:
        before = s.rss_mb()
        statuses = {}
        for i in range(2000):
            name = "".join(random.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(60_000))
            try:
                with socket.create_connection(("127.0.0.1", s.port), timeout=10) as c:
                    c.sendall(f"{name} / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                    line = c.recv(64).split(b"\r\n")[0].decode("latin-1")
                    code = line.split(" ")[1] if " " in line else "closed"
            except OSError:
                code = "error"
            statuses[code] = statuses.get(code, 0) + 1
        after = s.rss_mb()
        _, metrics = s.request("GET", "/metrics", src="127.0.0.1")
        say(
            "methods",
            answers=statuses,
            rss_before_mb=f"{before:.1f}",
            rss_after_mb=f"{after:.1f}",
            metrics_bytes=len(metrics),
        )
    finally:
        s.stop()


def trickle():
    """8,200 connections that send a POST head and then nothing, from one
    client; meanwhile another client is served?"""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    s = Server()
    try:
        held = []
        refused = 0
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{s.port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        ).encode()
        t0 = time.perf_counter()
        for _ in range(8200):
            try:
                c = socket.create_connection(("127.0.0.1", s.port), timeout=5, source_address=("127.0.0.1", 0))
                c.sendall(head)
                held.append(c)
            except OSError:
                refused += 1
        opened = time.perf_counter() - t0
        # Another client, while they hold.
        other = [timed(lambda: s.post("/api/games", {"mode": "hotseat"}, src="127.0.0.3")) for _ in range(20)]
        codes = sorted({r[0][0] for r in other})
        # How many of the held connections the server closed, and when.
        closed_at = {}
        deadline = time.perf_counter() + 30
        for c in held:
            c.setblocking(False)
        while time.perf_counter() < deadline and len(closed_at) < len(held):
            for i, c in enumerate(held):
                if i in closed_at:
                    continue
                try:
                    data = c.recv(4096)
                    if data == b"" or data:
                        closed_at[i] = time.perf_counter() - t0
                except BlockingIOError:
                    pass
                except OSError:
                    closed_at[i] = time.perf_counter() - t0
            time.sleep(0.2)
        for c in held:
            c.close()
        times = sorted(closed_at.values())
        say(
            "trickle",
            connections_tried=8200,
            opened_in_s=f"{opened:.1f}",
            refused_at_connect=refused,
            other_client_statuses=codes,
            other_client_p50_ms=f"{statistics.median(r[1] for r in other):.1f}",
            closed_by_server=f"{len(closed_at)}/{len(held)}",
            last_closed_after_s=f"{times[-1]:.1f}" if times else "-",
        )
    finally:
        s.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def long_record(s, plies):
    """A hot-seat game of `plies` plies (pieces moved rather than added
    where they can be, so it goes on), resigned; its record."""
    _, g = s.post("/api/games", {"mode": "hotseat"})
    gid, token = g["game"]["id"], g["seats"]["white"]
    rng = random.Random(5)
    state = g["game"]
    while state["ply"] < plies and state["status"] == "ongoing":
        legal = state["legal_moves"]
        moved = [m for m in legal if "@" not in m]
        mv = rng.choice(moved if moved and rng.random() < 0.97 else legal)
        status, state = s.post(f"/api/games/{gid}/moves", {"token": token, "move": mv})
        if status != 200:
            raise SystemExit(f"move {mv}: {status} {state}")
    if state["status"] == "ongoing":
        s.post(f"/api/games/{gid}/resign", {"token": token})
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
    c.request("GET", f"/api/games/{gid}/record")
    record = c.getresponse().read().decode()
    return record, state["ply"]


def import_():
    """A long record imported (resigned): how much engine time its review
    takes."""
    s = Server("--rate-move", "100000/min")
    try:
        record, plies = long_record(s, 3000)
        t0 = time.perf_counter()
        status, imported = s.post("/api/games/import", {"record": record}, src="127.0.0.4")
        if status != 201:
            raise SystemExit(f"import: {status} {imported}")
        gid = imported["game"]["id"]
        while True:
            _, st = s.get(f"/api/games/{gid}", src="127.0.0.4")
            if st["review"] and st["review"].get("status") == "done":
                break
            time.sleep(0.2)
        say(
            "import",
            plies=plies,
            record_bytes=len(record.encode()),
            review_s=f"{time.perf_counter() - t0:.1f}",
            movetime_ms=st["review"]["movetime"],
            at_the_configured_100_ms_would_be_s=f"{(plies + 1) * 0.1:.0f}",
        )
    finally:
        s.stop()


def lists():
    """Clients reading long lists as fast as they may, while a player
    moves: the player's move latency and /api/board's."""
    s = Server("--rate-create", "100000/min", "--rate-move", "100000/min")
    try:
        ids = []
        for i in range(300):
            _, g = s.post("/api/games", {"mode": "hotseat"})
            gid, token = g["game"]["id"], g["seats"]["white"]
            ids.append(gid)
            for mv in g["game"]["legal_moves"][:1]:
                s.post(f"/api/games/{gid}/moves", {"token": token, "move": mv})
        paths = [
            "/api/games?limit=500",
            "/api/games?ids=" + ",".join(ids[:200]),
        ]

        def player(n):
            _, g = s.post("/api/games", {"mode": "hotseat"}, src="127.0.0.5")
            gid, token, state = g["game"]["id"], g["seats"]["white"], g["game"]
            lat, board = [], []
            rng = random.Random(1)
            for _ in range(n):
                if state["status"] != "ongoing":
                    break
                mv = rng.choice(state["legal_moves"])
                (status, state), ms = timed(lambda: s.post(f"/api/games/{gid}/moves", {"token": token, "move": mv}, src="127.0.0.5"))
                lat.append(ms)
                _, ms = timed(lambda: s.get("/api/board", src="127.0.0.5"))
                board.append(ms)
            return lat, board

        quiet, quiet_board = player(40)
        for clients in (8, 32):
            stop = threading.Event()
            counts = {}
            lock = threading.Lock()

            def flood(k):
                src = f"127.0.1.{k + 1}"
                while not stop.is_set():
                    status, _ = s.get(paths[k % 2], src=src)
                    with lock:
                        counts[status] = counts.get(status, 0) + 1

            threads = [threading.Thread(target=flood, args=(k,)) for k in range(clients)]
            for t in threads:
                t.start()
            time.sleep(1)
            t0 = time.perf_counter()
            lat, board = player(40)
            took = time.perf_counter() - t0
            stop.set()
            for t in threads:
                t.join()
            say(
                f"lists ({clients} clients)",
                move_p50_ms=f"{statistics.median(lat):.1f}",
                move_p95_ms=f"{pct(lat, 0.95):.1f}",
                board_p50_ms=f"{statistics.median(board):.1f}",
                quiet_move_p50_ms=f"{statistics.median(quiet):.1f}",
                quiet_board_p50_ms=f"{statistics.median(quiet_board):.1f}",
                list_answers=dict(sorted(counts.items())),
                over_s=f"{took:.1f}",
            )
    finally:
        s.stop()


def rates():
    """Names set as fast as possible for 10 s; resign + rematch as fast as
    possible for 10 s."""
    s = Server()
    try:
        _, g = s.post("/api/games", {"mode": "hotseat"})
        gid, token = g["game"]["id"], g["seats"]["white"]
        counts = {}
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 10:
            status, _ = s.post(f"/api/games/{gid}/name", {"token": token, "side": "white", "name": f"n{random.random()}"})
            counts[status] = counts.get(status, 0) + 1
        say("names in 10 s", answers=dict(sorted(counts.items())))
        made = 0
        refused = {}
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 10:
            s.post(f"/api/games/{gid}/resign", {"token": token}, src="127.0.0.6")
            status, body = s.post(f"/api/games/{gid}/rematch", {"token": token, "action": "offer"}, src="127.0.0.6")
            if status == 200 and body.get("rematch"):
                made += 1
                gid = body["rematch"]
            else:
                refused[status] = refused.get(status, 0) + 1
        say("resign + rematch in 10 s", games_made=made, refused=dict(sorted(refused.items())))
    finally:
        s.stop()


def frozen():
    """PostgreSQL frozen (SIGSTOP) for 20 s while a player moves and reads:
    how fast and how the server answers meanwhile, and after."""
    pgdir = POSTGRES
    with open(os.path.join(pgdir, "data", "postmaster.pid")) as f:
        lines = f.read().split("\n")
    postmaster, port = int(lines[0]), lines[3]
    url = f"postgres://punct@127.0.0.1:{port}/attack_{os.getpid()}"
    subprocess.run(["psql", f"postgres://punct@127.0.0.1:{port}/postgres", "-qc", f"CREATE DATABASE attack_{os.getpid()}"], check=True)
    subprocess.run([BIN, "db", "migrate", "--database", url], check=True, capture_output=True)
    s = Server("--database", url, "--rate-move", "100000/min")
    try:
        _, g = s.post("/api/games", {"mode": "hotseat"})
        gid, token, state = g["id"], g["seats"]["white"], g["game"]
        rng = random.Random(2)
        pids = [postmaster] + [int(p) for p in subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()]
        answers = []
        t_end = time.perf_counter() + 30
        frozen_at = time.perf_counter() + 3
        thawed_at = frozen_at + 20
        froze = thawed = False
        while time.perf_counter() < t_end:
            now = time.perf_counter()
            if not froze and now >= frozen_at:
                for p in pids:
                    os.kill(p, 19)  # SIGSTOP
                froze = True
            if froze and not thawed and now >= thawed_at:
                for p in pids:
                    os.kill(p, 18)  # SIGCONT
                thawed = True
            phase = "before" if not froze else ("frozen" if not thawed else "after")
            if state.get("status") == "ongoing" and state.get("legal_moves"):
                mv = rng.choice(state["legal_moves"])
                (status, body), ms = timed(lambda: s.post(f"/api/games/{gid}/moves", {"token": token, "move": mv}))
                if status == 200:
                    state = body
                answers.append((phase, "move", status, ms))
            (status, body), ms = timed(lambda: s.get(f"/api/games/{gid}"))
            if status == 200:
                state = body
            answers.append((phase, "read", status, ms))
            (status, _), ms = timed(lambda: s.get("/api/health"))
            answers.append((phase, "health", status, ms))
            time.sleep(0.2)
        for phase in ("before", "frozen", "after"):
            for kind in ("move", "read", "health"):
                xs = [a for a in answers if a[0] == phase and a[1] == kind]
                if xs:
                    codes = {}
                    for a in xs:
                        codes[a[2]] = codes.get(a[2], 0) + 1
                    say(f"frozen: {phase}, {kind}", answers=codes, max_ms=f"{max(a[3] for a in xs):.0f}", p50_ms=f"{statistics.median(a[3] for a in xs):.0f}")
    finally:
        s.stop()


ATTACKS = {"methods": methods, "trickle": trickle, "import": import_, "lists": lists, "rates": rates}


def main():
    global BIN
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=BIN)
    p.add_argument("--postgres", metavar="DIR", help="a scripts/postgres.sh cluster's directory, for frozen")
    p.add_argument("attacks", nargs="*", metavar="ATTACK", help=" ".join(ATTACKS))
    args = p.parse_args()
    BIN = args.bin
    global POSTGRES
    POSTGRES = args.postgres
    if POSTGRES:
        ATTACKS["frozen"] = frozen
    unknown = [a for a in args.attacks if a not in ATTACKS]
    if unknown:
        p.error(f"unknown attack {unknown[0]!r}: use {', '.join(ATTACKS)}")
    for name in args.attacks or ATTACKS:
        ATTACKS[name]()


if __name__ == "__main__":
    main()
