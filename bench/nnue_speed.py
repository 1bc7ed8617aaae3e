"""Net inference speed: nets of other shapes (king buckets, output buckets, hidden size) against the
shipped net, interleaved round by round, beside Stockfish's `bench` in the same run. Numbers, not
assertions.

    python bench/nnue_speed.py [--rounds 5] [--walk-depth 3] [--shapes 256:none:1,256:16:8,512:16:8]

A shape is HIDDEN:LAYOUT:OUTPUTS (LAYOUT one of `pyrope train --king-buckets`); its net has random
weights in a trained net's ranges. Two figures a net:
- walk: evaluations per second over every node of the legal move trees below `pyrope bench`'s
  positions (Board.nnue_walk), each node one move from its evaluated parent as in a search. The
  tree is the same for every net, so this is the cost of the inference itself: accumulator updates,
  refreshes from the cache when a king changes bucket, the output layer.
- bench: `pyrope bench --net` nodes/s. A random net's search tree is not a trained one's (where
  the search spends its nodes moves with the evaluation), so only the shipped net's row is a real
  bench; a new trained net is measured the same way beside it.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import time

import pyrope
from pyrope.nnue import loader, netfile
from pyrope.play.bench import POSITIONS
from search_speed import engine_path, stockfish_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
from nnue_nets import random_net  # noqa: E402  (the tests' random nets: weights in a trained net's ranges)

WALK_POSITIONS = 8      # bench positions walked: middlegames and endgames, kings moving


def bench_nps(net: str, depth: int) -> int:
    out = subprocess.run([sys.executable, "-m", "pyrope.cli", "bench", str(depth), "--net", net],
                         capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Nodes/second\s*:\s*(\d+)", out).group(1))


def walk_speed(net: str, depth: int) -> float:
    """Evaluations per second over the walk (in this process; the net is loaded for it)."""
    loader.load(net)
    evaluations, elapsed = 0, 0.0
    for fen in POSITIONS[:WALK_POSITIONS]:
        board = pyrope.Board(fen)
        start = time.perf_counter()
        board.nnue_walk(depth)
        elapsed += time.perf_counter() - start
        evaluations += 1 + sum(board.perft(ply) for ply in range(1, depth + 1))
    return evaluations / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--depth", type=int, default=11, help="the bench's depth")
    parser.add_argument("--walk-depth", type=int, default=3, help="plies of each walked tree")
    parser.add_argument("--shapes", default="256:none:1,256:16:8,512:16:8")
    args = parser.parse_args()
    nets = {"shipped": str(loader.DEFAULT_NET)}
    with tempfile.TemporaryDirectory() as folder:
        for number, shape in enumerate(args.shapes.split(",")):
            hidden, layout, outputs = shape.split(":")
            path = os.path.join(folder, f"{shape.replace(':', '-')}.nnue")
            netfile.write(path, random_net(int(hidden), seed=number + 1, layout=layout, outputs=int(outputs)))
            nets[f"random {hidden}, king buckets {layout}, {outputs} outputs"] = path
        speeds = {(name, figure): [] for name in nets for figure in ("walk", "bench")}
        stockfish = engine_path("stockfish")
        for round_number in range(1, args.rounds + 1):
            for name, path in nets.items():
                speeds[name, "walk"].append(walk_speed(path, args.walk_depth))
                speeds[name, "bench"].append(bench_nps(path, args.depth))
            said = stockfish_bench(stockfish) if stockfish else "not installed"
            print(f"round {round_number}: " + ", ".join(f"{name} walk {speeds[name, 'walk'][-1] / 1e6:.3f} M/s "
                                                        f"bench {speeds[name, 'bench'][-1] / 1e6:.3f} M/s" for name in nets)
                  + f"; stockfish bench: {said}", flush=True)
    for figure, unit in (("walk", "evaluations/s"), ("bench", "nodes/s")):
        shipped = statistics.median(speeds["shipped", figure])
        for name in nets:
            values = speeds[name, figure]
            median = statistics.median(values)
            print(f"{figure}, {name}: median {median / 1e6:.3f} M {unit} ({min(values) / 1e6:.3f}-"
                  f"{max(values) / 1e6:.3f}), {median / shipped:.2f} of the shipped net's")


if __name__ == "__main__":
    main()
