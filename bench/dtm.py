"""Pyrope's own tables: generation time and size of every 3-4 man table, the check of every
position against Syzygy's WDL, and probe speed.

    python3 bench/dtm.py [--out DIR [--reuse]] [--syzygy ../shared/data/syzygy] [--men 4] [--pawnless]

Makes every ending of up to --men men into --out (a temporary directory by default; nothing is
taken from the shipped set, so the times include every table), prints `pyrope tb generate`'s
summary line for each, then compares every position with Syzygy, then times DtmTables.probe on
random positions of the made tables (through Python, so the call's own cost is included).
--reuse skips the making and checks and times the tables already in --out.
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from pyrope._core import Board, DtmTables, Tablebases
from pyrope.dtm.generate import SUMMARY_HEADER, all_endings, by_size, generate_table, plan, summary_line
from pyrope.selfplay.endgames import random_endgame

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="directory for the tables (default: a temporary one)")
    parser.add_argument("--syzygy", default=str(ROOT / ".." / "shared" / "data" / "syzygy"))
    parser.add_argument("--men", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--pawnless", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="take the tables in --out as they are")
    parser.add_argument("--probes", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        out = args.out or temporary
        if not (args.reuse and args.out):
            make_all(out, args.men, args.pawnless)
            check_all(out, args.syzygy)
        time_probes(out, args.probes)


def make_all(out: str, men: int, pawnless: bool) -> None:
    wanted = [name for count in range(3, men + 1) for name in all_endings(count, pawns=not pawnless)]
    print(SUMMARY_HEADER)
    total = 0.0
    for name in plan(wanted, set()):
        summary = generate_table(name, out, [])
        total += summary.seconds
        print(summary_line(summary), flush=True)
    sizes = sum(p.stat().st_size for p in Path(out).glob("*.ptb"))
    print(f"all {len(wanted)} tables: {total:.1f} s, {sizes / 1e6:.1f} MB")


def check_all(out: str, syzygy: str) -> None:
    Tablebases(syzygy)
    tables = DtmTables(out)
    for name in by_size(tables.files):
        compared, disagreements = tables.compare_with_syzygy(name)
        print(f"{name:<8} {compared:>11,} positions: "
              f"{'agree with Syzygy' if not disagreements else f'{len(disagreements)}+ DISAGREE'}", flush=True)


def time_probes(out: str, probes: int) -> None:
    rng = random.Random(1)
    fresh = DtmTables(out)      # files not yet opened or decoded: the probe's own path
    boards = []
    while len(boards) < probes:
        name = rng.choice(sorted(fresh.files))
        white, black = (side[1:] for side in name.split("v"))
        if white + black in ("B", "N"):
            continue    # random_endgame wants a game not over; these are all draws
        boards.append(Board(random_endgame(rng, white, black).fen()))
    for board in boards[:200]:
        fresh.probe(board)          # open the files
    timings = []
    for board in boards:
        start = time.perf_counter_ns()
        fresh.probe(board)
        timings.append(time.perf_counter_ns() - start)
    timings.sort()
    print(f"probe: median {statistics.median(timings) / 1000:.2f} us, "
          f"p99 {timings[len(timings) * 99 // 100] / 1000:.2f} us over {len(timings)} random positions")


if __name__ == "__main__":
    main()
