#!/usr/bin/env python3
"""Time to depth: how long level 4 takes to finish a fixed depth with one
thread and with more, on the same middle-game positions.

A second thread pays only if the search reaches its depths sooner; this
shows by how much, without the noise of a match. The positions are the
first generated openings (seed 11) played on for 14 plies at depth 2, so
every run searches the same ones. The solver is off: only the search is timed.

    cargo build --release -p punct-cli
    python3 scripts/time-to-depth.py --depth 6 --threads 1 2
"""

import argparse
import subprocess
import sys
import time


def engine(punct, options):
    e = subprocess.Popen(
        [punct, "engine", "--engine", "level4"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    send(e, "pei")
    while read(e) != "peiok":
        pass
    for name, value in options:
        send(e, f"setoption name {name} value {value}")
    return e


def send(e, line):
    e.stdin.write(line + "\n")


def read(e):
    line = e.stdout.readline()
    if not line:
        sys.exit(f"the engine ended early (exit {e.wait()})")
    return line.strip()


def go(e, moves, command):
    """The best move of one search."""
    send(e, "newgame standard")
    send(e, "position startpos moves " + " ".join(moves))
    send(e, command)
    while True:
        line = read(e)
        if line.startswith("info string error"):
            sys.exit(line)
        if line.startswith("bestmove"):
            return line.split()[1]


def close(e):
    send(e, "quit")
    e.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--punct", default="target/release/punct")
    p.add_argument("--depth", type=int, default=6)
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an engine option for every search (repeatable)")
    a = p.parse_args()
    options = [("Solver", "false")]
    for o in a.option:
        if "=" not in o:
            sys.exit(f"--option {o}: expected NAME=VALUE")
        options.append(tuple(o.split("=", 1)))
    openings = subprocess.run(
        [a.punct, "match", "--generate-openings", str(a.positions),
         "--variant", "standard", "--seed", "11"],
        capture_output=True, text=True, check=True,
    ).stdout
    lines = [l.split("#")[0].split() for l in openings.splitlines() if not l.startswith("#")]
    total = {t: 0.0 for t in a.threads}
    print(f"{'position':>8} " + " ".join(f"{f'{t} thr (s)':>10}" for t in a.threads))
    for k in range(a.positions):
        moves = list(lines[k])
        e = engine(a.punct, [])
        for _ in range(14):
            moves.append(go(e, moves, "go depth 2"))
        close(e)
        row = []
        for t in a.threads:
            e = engine(a.punct, options + [("Threads", str(t))])
            started = time.monotonic()
            go(e, moves, f"go depth {a.depth}")
            took = time.monotonic() - started
            close(e)
            total[t] += took
            row.append(took)
        print(f"{k + 1:>8} " + " ".join(f"{s:>10.2f}" for s in row), flush=True)
    print(f"{'total':>8} " + " ".join(f"{total[t]:>10.2f}" for t in a.threads))
    base = total[a.threads[0]]
    for t in a.threads[1:]:
        print(f"{t} threads reach depth {a.depth} {base / total[t]:.2f}x as fast as {a.threads[0]}")


if __name__ == "__main__":
    main()
