"""Static-evaluation speed: evaluations per second over the positions of random.perft.

One thread, timed in C (no Python per call). "warm" uses a 2**14-entry pawn table, which after the
first pass holds every pawn structure, as a search mostly finds it; "cold" uses a 2-entry table, so
nearly every call recomputes the pawn terms. Prints the median of --runs runs, wall clock and
thread CPU time (the fairer number on a shared machine). Numbers, not assertions.

    python bench/eval.py [--runs 7] [--rounds 200]
"""
from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from pyrope import _core

PERFT_FILE = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "perft" / "random.perft"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=200, help="passes over the positions per run")
    args = parser.parse_args()
    fens = [line[4:].strip() for line in PERFT_FILE.read_text().splitlines() if line.startswith("epd ")]
    print(f"{len(fens)} positions from {PERFT_FILE.name}, {args.rounds} passes, median of {args.runs} runs")
    for label, log2 in (("warm pawn table", 14), ("cold pawn table", 1)):
        wall, cpu = [], []
        for _ in range(args.runs):
            evals, seconds, cpu_seconds, _ = _core.eval_speed(fens, args.rounds, log2)
            wall.append(evals / seconds)
            cpu.append(evals / cpu_seconds)
        print(f"{label}: {statistics.median(wall) / 1e6:.2f} M evals/s wall, "
              f"{statistics.median(cpu) / 1e6:.2f} M evals/s CPU (best {max(cpu) / 1e6:.2f})")


if __name__ == "__main__":
    main()
