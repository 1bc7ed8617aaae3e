"""Search speed: Pyrope's bench with one and two threads, with the shipped net and with the
hand-crafted evaluation, and Stockfish's bench and Glaurung's speed on the same positions in the
same run for scale. Numbers, not assertions.

    python bench/search_speed.py [--seconds 1.0] [--positions 12]

One thread: `pyrope bench` (fixed depth, deterministic node count). Threads: every bench
position searched for a fixed time with 1 and 2 threads; the ratio of total nodes/second shows
whether the workers really run in parallel (the GIL is not held).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

import chess
import chess.engine

import pyrope
from pyrope._core import Search
from pyrope.nnue import loader
from pyrope.play.bench import POSITIONS
from pyrope.play.timeman import Limits, make_clock


def engine_path(name: str) -> str | None:
    return shutil.which(name) or shutil.which(f"/usr/games/{name}")


EVALUATIONS = {"net": (loader.DEFAULT_NET, []), "hand-crafted": (None, ["--handcrafted"])}   # file, bench option


def pyrope_bench(options: list[str]) -> str:
    out = subprocess.run([sys.executable, "-m", "pyrope.cli", "bench", *options], capture_output=True, text=True,
                         check=True)
    return " ".join(line for line in out.stdout.splitlines() if line.startswith(("Nodes", "Total")))


def threaded_nps(threads: int, seconds: float, positions: list[str]) -> float:
    search = Search(threads=threads, hash_mb=64)
    nodes = elapsed = 0
    for fen in positions:
        search.clear()
        result = search.run(pyrope.Board(fen), clock=make_clock(Limits(movetime=int(seconds * 1000)), True, 0))
        nodes += result["nodes"]
        elapsed += result["time_ms"] / 1000
    return nodes / elapsed


def stockfish_bench(path: str) -> str:
    out = subprocess.run([path, "bench"], capture_output=True, text=True, timeout=600)
    text = out.stdout + out.stderr
    return " ".join(re.findall(r"(Nodes(?: searched|/second)\s*:\s*\d+)", text))


def uci_engine_nps(path: str, seconds: float, positions: list[str]) -> str:
    """Nodes/second of a UCI engine searching the same positions as our threaded runs, for the
    same time each (Debian's Glaurung 2.2 `bench` searches one position for 30,000 nodes only)."""
    nodes = elapsed = 0
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        engine.configure({"Hash": 64, "Threads": 1})
        for fen in positions:
            # A new game per position (python-chess sends ucinewgame): a fresh table, as ours gets.
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(time=seconds), game=fen)
            nodes += info.get("nodes", 0)
            elapsed += info.get("time", seconds)
    return f"{nodes / elapsed / 1e6:.2f} M nodes/s at {seconds:g} s/position"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per position, threaded runs")
    parser.add_argument("--positions", type=int, default=12, help="bench positions in the threaded runs")
    args = parser.parse_args()
    positions = POSITIONS[:args.positions]
    for evaluation, (net, options) in EVALUATIONS.items():
        print(f"pyrope bench (1 thread, {evaluation}): {pyrope_bench(options)}")
        loader.load(None if net is None else str(net))
        one = threaded_nps(1, args.seconds, positions)
        two = threaded_nps(2, args.seconds, positions)
        print(f"pyrope {args.seconds:g} s/position, {evaluation}: 1 thread {one / 1e6:.2f} M nodes/s, "
              f"2 threads {two / 1e6:.2f} M nodes/s, ratio {two / one:.2f}")
    for name, run in (("stockfish", stockfish_bench),
                      ("glaurung", lambda path: uci_engine_nps(path, args.seconds, positions))):
        path = engine_path(name)
        print(f"{name} bench: {run(path) if path else 'not installed'}")


if __name__ == "__main__":
    main()
