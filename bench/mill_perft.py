"""Mill perft speed: complete turns per second of pyrope._mill, bulk-counted at the last ply.

Prints, per position, the turn count, the median time of --runs runs and turns/second. The counts
double as a check: the standard start must give OpenSpiel's 24, 552, 12,144, 255,024, 5,140,800.
Numbers, not assertions.

    python bench/mill_perft.py [--runs 5]
"""
from __future__ import annotations

import argparse
import statistics
import time

from pyrope.mill import MillBoard

# (label, variant, fen or None for the start, depth)
POSITIONS = [
    ("nine start", "nine", None, 6),
    ("twelve start", "twelve", None, 6),
    ("lasker start", "lasker", None, 6),
    ("nine midgame", "nine", "O.@/.O./@O@/O@..@O/.@./.O./@.O w 0 0 0 0 30", 7),
    ("nine flying", "nine", "O../.@./.../@...@./.@./.O./O.@ w 0 0 0 0 40", 5),
    ("morabaraba late placing", "morabaraba", "O.@/.O./@O@/O@..@O/.@./.O./@.O w 4 4 0 0 17", 6),
]


def measure(variant: str, fen: str | None, depth: int, runs: int) -> tuple[int, float]:
    board = MillBoard(fen, variant=variant)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        turns = board.perft(depth)
        times.append(time.perf_counter() - start)
    return turns, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    start = MillBoard()
    print("nine start, depths 1-5:", ", ".join(f"{start.perft(d):,}" for d in range(1, 6)))
    print(f"{'position':26} {'depth':>5} {'turns':>15} {'seconds':>9} {'turns/s':>14}")
    for label, variant, fen, depth in POSITIONS:
        turns, seconds = measure(variant, fen, depth, args.runs)
        print(f"{label:26} {depth:5d} {turns:15,d} {seconds:9.3f} {turns / seconds:14,.0f}")


if __name__ == "__main__":
    main()
