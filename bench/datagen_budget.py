"""How many nodes a move datagen should spend (issue 62 item 1), measured on a datagen run's own
positions: for each budget, how far its search's score -- the label's search part -- is from a far
deeper search's, in the training target's win probability, beside what a move costs at that
budget. Datagen's positions an hour scale with the inverse of the cost (the games are searches
and nothing else), so the table shows what each doubling of the budget buys and what it costs.

    python3 bench/datagen_budget.py DATA [--positions 1000] [--budgets 1250,2500,5000,10000,20000]
                                    [--reference 200000] [--net FILE] [--scale 250] [--journal FILE]

DATA is a `pyrope datagen` directory; positions are drawn from its shards with a fixed seed. Every
search starts from an empty hash table (datagen's games keep theirs from move to move, so the
costs here are a little higher than in a game, equally for every budget). One thread, the net
given or the shipped one. The label error is the root mean square of sigmoid(s / scale) less
sigmoid(s_reference / scale), scale as `pyrope train --scale` (default 250); its 95% interval
comes from the positions' spread.
"""
from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import statistics
import sys
import time

from pyrope import __version__
from pyrope._core import Board, Search
from pyrope.data import revision
from pyrope.nnue import dataset, loader


def sample_positions(data: str, count: int, seed: int) -> list[str]:
    shards = sorted(glob.glob(os.path.join(data, "positions", "*.bin")))
    if not shards:
        sys.exit(f"datagen_budget: no shards in {data}/positions")
    rng = random.Random(seed)
    chosen = []
    for _ in range(count):
        records = dataset.read_records(rng.choice(shards))
        chosen.append(rng.choice(records).fen)
    return chosen


def win_probability(score: dict, white_to_move: bool, scale: float) -> float:
    """The search's score as the training target's win probability for white (a mate: 0 or 1)."""
    if "mate" in score:
        value = 1.0 if score["mate"] > 0 else 0.0
    else:
        value = 1.0 / (1.0 + math.exp(-score["cp"] / scale))
    return value if white_to_move else 1.0 - value


def search(fen: str, nodes: int, scale: float) -> tuple[float, float]:
    """The win probability a search at `nodes` gives `fen`, and its CPU seconds."""
    searcher = Search(threads=1, hash_mb=8)
    board = Board(fen)
    started = time.process_time()
    result = searcher.run(board, nodes=nodes)
    return win_probability(result["score"], board.white_to_move, scale), time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--budgets", default="1250,2500,5000,10000,20000")
    parser.add_argument("--reference", type=int, default=200000)
    parser.add_argument("--net", default=str(loader.DEFAULT_NET))
    parser.add_argument("--scale", type=float, default=250.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", help="append one JSON line of the measurement here")
    args = parser.parse_args()
    budgets = [int(part) for part in args.budgets.split(",")]
    loader.load(args.net)
    fens = sample_positions(args.data, args.positions, args.seed)
    reference = [search(fen, args.reference, args.scale)[0] for fen in fens]
    rows = []
    for nodes in budgets:
        errors, seconds = [], []
        for fen, truth in zip(fens, reference):
            label, spent = search(fen, nodes, args.scale)
            errors.append((label - truth) ** 2)
            seconds.append(spent)
        mean = statistics.fmean(errors)
        margin = 1.96 * statistics.stdev(errors) / math.sqrt(len(errors))
        rms, low, high = math.sqrt(mean), math.sqrt(max(0.0, mean - margin)), math.sqrt(mean + margin)
        rows.append({"nodes": nodes, "rms": round(rms, 4), "rms_low": round(low, 4), "rms_high": round(high, 4),
                     "ms_per_move": round(1000 * statistics.fmean(seconds), 3)})
    base = next((row for row in rows if row["nodes"] == 5000), rows[0])
    print(f"{len(fens)} positions of {args.data}, reference {args.reference} nodes, scale {args.scale:g}, "
          f"net {os.path.basename(args.net)}")
    print("| nodes a move | label error (rms win probability, 95%) | ms a move | positions an hour, relative |")
    print("|---|---|---|---|")
    for row in rows:
        print(f"| {row['nodes']:,} | {row['rms']:.4f} [{row['rms_low']:.4f}, {row['rms_high']:.4f}] | "
              f"{row['ms_per_move']:.2f} | {base['ms_per_move'] / row['ms_per_move']:.2f} |")
    if args.journal:
        record = {"date": time.strftime("%Y-%m-%d"), "pyrope": __version__, "revision": revision(), "data": args.data,
                  "positions": len(fens), "seed": args.seed, "reference_nodes": args.reference, "scale": args.scale,
                  "net": os.path.basename(args.net), "rows": rows}
        with open(args.journal, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
