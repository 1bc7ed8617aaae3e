"""Mill database probe time: random placement-free positions of each shipped class, probed through
MillDatabase's compiled probe (`core.probe(mover, other)`: symmetry folding, index, table read).

    python3 bench/mill_probe.py [--variant nine|twelve] [--probes N] [--dir DIR]

Prints, per class, the probes made, how many were answered and the mean time of a probe (the
Python call included; the search probes the same C function without it). Positions are drawn from
a fixed seed, so runs compare.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from pyrope.mill.db.probe import DEFAULT_DIR, MillDatabase
from pyrope.mill.rules import VARIANTS


def random_sets(stones: tuple[int, int], count: int, rng: random.Random) -> list[tuple[int, int]]:
    """(mover, other) bit sets with the class's stone counts, in either order."""
    sets = []
    for _ in range(count):
        points = rng.sample(range(24), stones[0] + stones[1])
        first = sum(1 << p for p in points[:stones[0]])
        second = sum(1 << p for p in points[stones[0]:])
        sets.append((first, second) if rng.random() < 0.5 else (second, first))
    return sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=("nine", "twelve"), default="nine")
    parser.add_argument("--probes", type=int, default=200_000, help="probes per class (default %(default)s)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="database directory (default: the shipped one)")
    args = parser.parse_args()
    database = MillDatabase(VARIANTS[args.variant], args.dir)
    if not database.classes:
        print(f"No {args.variant} classes in {args.dir}.", file=sys.stderr)
        return 1
    rng = random.Random(18)
    print(f"{'class':<7}{'probes':>10}{'answered':>10}{'ns a probe':>12}")
    for a, b in database.classes:
        sets = random_sets((a, b), args.probes, rng)
        probe = database.core.probe
        start = time.perf_counter()
        answered = sum(probe(mover, other) >= 0 for mover, other in sets)
        seconds = time.perf_counter() - start
        print(f"{a}-{b:<5}{len(sets):>10,}{answered:>10,}{1e9 * seconds / len(sets):>12,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
