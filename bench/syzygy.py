"""Syzygy probe speed: time of one WDL and one DTZ probe (median, p99) over random legal positions
of every table in a directory, tables already opened (a first pass opens them).

Each probe is timed from Python with perf_counter_ns, so the figures include a Python method
call; the cost of a trivial method call on the board is printed alongside for scale.

    python3 bench/syzygy.py [--tables ../shared/data/syzygy] [--positions 20000] [--seed 1] [--rounds 5]

Then the search's cost of having tables where none applies: the bench positions with 20 or more
pieces (too many captures away from a table for a depth-11 search) searched at depth 11 with the tables'
cardinality 0 and then 4, alternating, `--rounds` times: the node counts must be equal (no probe
happened), and the nodes/second of each setting's median round are compared.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import pyrope
from pyrope._core import Search
from pyrope.play.bench import DEFAULT_DEPTH, POSITIONS

DEFAULT_TABLES = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "syzygy").resolve()


def random_positions(names: list[str], count: int, rng: random.Random) -> list[pyrope.Board]:
    """Legal positions spread evenly over the tables: pieces on random squares, pawns on ranks
    2-7, either side to move; the board's own FEN check rejects the side not to move in check."""
    boards = []
    while len(boards) < count:
        white, black = names[len(boards) % len(names)].split("v")
        placement = [""] * 64
        for letter in white + black.lower():
            square = rng.randrange(8, 56) if letter in "Pp" else rng.randrange(64)
            while placement[square]:
                square = rng.randrange(8, 56) if letter in "Pp" else rng.randrange(64)
            placement[square] = letter
        ranks = []
        for rank in range(7, -1, -1):
            text, empty = "", 0
            for letter in placement[8 * rank:8 * rank + 8]:
                if letter:
                    text += (str(empty) if empty else "") + letter
                    empty = 0
                else:
                    empty += 1
            ranks.append(text + (str(empty) if empty else ""))
        try:
            boards.append(pyrope.Board(f"{'/'.join(ranks)} {rng.choice('wb')} - - 0 1"))
        except pyrope.FenError:
            continue
    return boards


def time_calls(call, boards: list[pyrope.Board]) -> list[float]:
    """Microseconds of each call."""
    clock = time.perf_counter_ns
    times = []
    for board in boards:
        start = clock()
        call(board)
        times.append((clock() - start) / 1000)
    return times


def report(label: str, times: list[float]) -> None:
    times.sort()
    print(f"{label:<22} median {statistics.median(times):7.2f} us   p99 {times[int(0.99 * len(times))]:7.2f} us   "
          f"max {times[-1]:8.1f} us   ({len(times)} probes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES)
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="search rounds per setting")
    args = parser.parse_args()
    tables = pyrope.Tablebases(str(args.tables))
    print(f"{args.tables}: {tables.wdl_tables} WDL and {tables.dtz_tables} DTZ tables, up to {tables.max_pieces} pieces")
    names = sorted(path.stem for path in args.tables.glob("*.rtbw"))
    boards = random_positions(names, args.positions, random.Random(args.seed))
    start = time.perf_counter()
    for board in boards:
        tables.probe_wdl(board)
        tables.probe_dtz(board)
    print(f"first pass (opens every table): {time.perf_counter() - start:.2f} s")
    report("trivial board call", time_calls(lambda board: board.white_to_move, boards))
    report("WDL probe", time_calls(tables.probe_wdl, boards))
    report("DTZ probe", time_calls(tables.probe_dtz, boards))
    search_cost(tables.max_pieces, args.rounds)


FAR_FROM_TABLES = [fen for fen in POSITIONS if sum(c.isalpha() for c in fen.split()[0]) >= 20]


def search_cost(cardinality: int, rounds: int) -> None:
    speeds: dict[int, list[float]] = {0: [], cardinality: []}
    nodes: dict[int, set[int]] = {0: set(), cardinality: set()}
    for _ in range(rounds):
        for setting in speeds:
            total, start = 0, time.perf_counter()
            for fen in FAR_FROM_TABLES:
                search = Search(threads=1, hash_mb=16)
                total += search.run(pyrope.Board(fen), depth=DEFAULT_DEPTH, tb_cardinality=setting)["nodes"]
            speeds[setting].append(total / (time.perf_counter() - start))
            nodes[setting].add(total)
    for setting, values in speeds.items():
        print(f"{len(FAR_FROM_TABLES)} bench positions, tables at {setting} pieces: nodes {sorted(nodes[setting])}, "
              f"median {statistics.median(values) / 1e6:.3f} M nodes/s over {rounds} rounds")
    assert nodes[0] == nodes[cardinality], "a probe happened: the positions are not far from the tables"
    change = statistics.median(speeds[cardinality]) / statistics.median(speeds[0]) - 1
    print(f"nodes/second with the tables set: {100 * change:+.1f}%")


if __name__ == "__main__":
    main()
