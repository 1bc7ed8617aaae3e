"""The speed of `pyrope evolve` (issue 17's benchmark): games a second at a node budget on 1 and 2
local workers and on a local Ray instance, and what swapping each side's weights in before its
move costs.

    python3 bench/evolve.py speed [--games 64] [--nodes 5000] [--no-ray]
    python3 bench/evolve.py swap [--bouts 10] [--nodes 5000]

speed runs `pyrope evolve` (this Python's pyrope) on a throw-away configuration -- 2 pools of 8,
every game at --nodes, no gauntlet -- and reports wall time, games a second and, for local workers,
the CPU time of the run and its workers. swap plays the same bouts in this process twice, with the
weights set before every move (as evolution does: each side its own) and without (identical weights
for both sides, so the games are the same), and reports the CPU time of each.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyrope._core import Board, Search, default_eval_params, set_eval_params
from pyrope.selfplay.game import HASH_MB, choose_opening, play_out


def speed(games: int, nodes: int, ray: bool) -> None:
    config = (f"population = 8\npools = 2\nminimum nodes = {nodes}\nmaximum nodes = {nodes}\noscillating = no\n"
              f"games = {games}\ngauntlet interval = 0\n")
    runs = [("1 worker", ["--workers", "1"]), ("2 workers", ["--workers", "2"])]
    if ray:
        runs.append(("Ray (local, 2 CPUs)", ["--ray", "local", "--workers", "2"]))
    print(f"pyrope evolve, {games} games at {nodes} nodes a move")
    print("| backend | wall | games/s | CPU (run and local workers) |")
    print("|---|---|---|---|")
    for name, options in runs:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "speed.cfg").write_text(config)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pyrope.cli", "evolve", str(Path(folder) / "speed.cfg"),
                            "--no-progress", *options], check=True, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            print(f"| {name} | {wall:.1f} s | {games / wall:.2f} | {cpu:.1f} s |", flush=True)


def swap(bouts: int, nodes: int) -> None:
    import random
    defaults = default_eval_params()
    openings = []
    for number in range(bouts):
        set_eval_params(defaults)
        openings.append(choose_opening(random.Random(f"swap/{number}"), (), 8, nodes,
                                       Search(threads=1, hash_mb=HASH_MB)).fen())

    def play_all(swapping: bool) -> tuple[float, int]:
        moves = 0
        start = time.process_time()
        for opening in openings:
            sides = {True: Search(threads=1, hash_mb=HASH_MB), False: Search(threads=1, hash_mb=HASH_MB)}

            def search(position: Board) -> dict:
                if swapping:
                    set_eval_params(defaults)
                return sides[position.white_to_move].run(position, nodes=nodes)
            moves += len(play_out(Board(opening), search)[2])
        return time.process_time() - start, moves
    without, moves = play_all(False)
    with_swap, moves_swapped = play_all(True)
    assert moves == moves_swapped, "the same games with and without the swap"
    print(f"{bouts} games, {moves} moves at {nodes} nodes: CPU {without:.2f} s without the swap, "
          f"{with_swap:.2f} s with it ({(with_swap / without - 1) * 100:+.1f}%; "
          f"{(with_swap - without) / moves * 1000:.2f} ms a move)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("speed", help="games a second on 1 and 2 workers and on Ray")
    run.add_argument("--games", type=int, default=64)
    run.add_argument("--nodes", type=int, default=5000)
    run.add_argument("--no-ray", action="store_true", help="leave Ray out")
    cost = commands.add_parser("swap", help="the cost of swapping weights before every move")
    cost.add_argument("--bouts", type=int, default=10)
    cost.add_argument("--nodes", type=int, default=5000)
    args = parser.parse_args()
    if args.command == "speed":
        speed(args.games, args.nodes, not args.no_ray)
    else:
        swap(args.bouts, args.nodes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
