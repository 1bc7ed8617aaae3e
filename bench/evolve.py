"""Issue 17's benchmarks of `pyrope evolve` and `pyrope tune`: games a second at a node budget on 1
and 2 local workers and on a local Ray instance, what swapping each side's weights in before its
move costs, and evolution against SPSA on an equal budget of games.

    python3 bench/evolve.py speed [--games 64] [--nodes 5000] [--no-ray]
    python3 bench/evolve.py swap [--bouts 10] [--nodes 5000]
    python3 bench/evolve.py compare DIR [--games 20000] [--minutes M] [--workers 2]

speed runs `pyrope evolve` (this Python's pyrope) on a throw-away configuration -- 2 pools of 8,
every game at --nodes, no gauntlet -- and reports wall time, games a second and, for local workers,
the CPU time of the run and its workers. swap plays the same bouts in this process twice, with the
weights set before every move (as evolution does: each side its own) and without (identical weights
for both sides, so the games are the same), and reports the CPU time of each.

compare runs `pyrope evolve` and `pyrope tune --method spsa` from the same start (the built-in
weights) over the same genes -- COMPARED, every group of the table but the square tables and the
scale factors -- at the same 5,000 nodes a move (evolution's budget held at its maximum), each for
--games games, each with a gauntlet of 50 bouts against the start table every 2,000 games, in
DIR/evolve.run and DIR/spsa.run. Each run resumes where it stopped: --minutes M gives each at most
M minutes this time (then SIGTERM, which pyrope's commands take as Ctrl-C: every finished game
stays), so the comparison fits sessions.
It then draws DIR/compare.png (both runs' Elo against the start over games) and prints the table: each
gauntlet, then per method all gauntlets pooled, the second half's pooled, and the Elo gained per 1,000
games (the variance-weighted least-squares line through the start).
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyrope._core import Board, Search, default_eval_params, set_eval_params
from pyrope.selfplay.bouts import plot_gauntlets
from pyrope.selfplay.evolve.config import DEFAULT_GENES
from pyrope.selfplay.game import HASH_MB, choose_opening, play_out
from pyrope.match.stats import elo_interval

# The genes both methods tune, with SPSA's c_end for their parameters (about a tenth of a typical
# weight of the group, at least 2) and r_end 0.002, fishtest's usual.
COMPARED = {"material": 10, "mobility": 2, "pawn_structure": 2, "passed_pawns": 3, "king_safety": 2,
            "pieces": 3, "threats": 3, "tempo": 3}
GAUNTLET_INTERVAL = 2000    # games between the gauntlets against the start table


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


def interval(gauntlet: dict) -> int:
    """The 2,000-game mark a gauntlet belongs to: evolution plays its gauntlet at the first round's end
    past each mark (2,016, 4,032...), SPSA at each mark."""
    return gauntlet["games"] // GAUNTLET_INTERVAL * GAUNTLET_INTERVAL


def pooled(gauntlets: list[dict]) -> str:
    """The gauntlets' games as one match: W-L-D, Elo and its 95% margin."""
    wins, losses, draws = (sum(g[key] for g in gauntlets) for key in ("wins", "losses", "draws"))
    elo, margin = elo_interval(wins, losses, draws)
    return f"{wins}-{losses}-{draws}, {elo:+.1f} +/- {margin:.1f}"


def gain_rate(gauntlets: list[dict]) -> tuple[float, float]:
    """Elo gained per 1,000 games and its 95% margin: the least-squares line through the start (0 Elo
    at 0 games) of the gauntlets' Elo, each weighted by the inverse of its variance (its 95% margin is
    1.96 standard deviations). One number for a whole run, so the two methods compare on curves as
    noisy as +/- 60 a point."""
    weights = [(g["games"] / 1000, g["elo"], (1.96 / g["margin"]) ** 2) for g in gauntlets
               if math.isfinite(g["margin"])]
    information = sum(w * x * x for x, _, w in weights)
    return sum(w * x * y for x, y, w in weights) / information, 1.96 / math.sqrt(information)


def compare(folder: Path, games: int, minutes: float | None, workers: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    patterns = dict(DEFAULT_GENES)
    genes = "".join(f"gene {name} = {patterns[name]}\n" for name in COMPARED)
    (folder / "evolve.cfg").write_text(
        f"games = {games}\nminimum nodes = 5000\nmaximum nodes = 5000\noscillating = no\n"
        f"gauntlet interval = {GAUNTLET_INTERVAL}\ngauntlet bouts = 50\n{genes}")
    params = "".join(f"param {patterns[name]} = {c_end} 0.002\n" for name, c_end in COMPARED.items())
    (folder / "spsa.spsa").write_text(
        f"iterations = {games // 2}\nnodes = 5000\ngauntlet interval = {GAUNTLET_INTERVAL}\ngauntlet bouts = 50\n{params}")
    runs = {"evolution": ["evolve", str(folder / "evolve.cfg"), "--out", str(folder / "evolve.run")],
            "SPSA": ["tune", "--method", "spsa", str(folder / "spsa.spsa"), "--out", str(folder / "spsa.run")]}
    for name, words in runs.items():
        process = subprocess.Popen([sys.executable, "-m", "pyrope.cli", *words, "--workers", str(workers),
                                    "--no-progress"], stdout=subprocess.DEVNULL)
        try:
            process.wait(timeout=minutes * 60 if minutes else None)
        except subprocess.TimeoutExpired:
            # Not SIGINT: a job started in the background of a non-interactive shell ignores it, and so
            # would its children. The command takes SIGTERM as Ctrl-C; the same command resumes.
            process.terminate()
            process.wait()
    curves = {}
    for name, run in (("evolution", "evolve.run"), ("SPSA", "spsa.run")):
        state = folder / run / "state.json"
        curves[name] = json.loads(state.read_text())["run"]["gauntlets"] if state.exists() else []
    print("| games | evolution (champion vs start) | SPSA (theta vs start) |")
    print("|---|---|---|")
    marks = sorted({interval(g) for curve in curves.values() for g in curve})
    for mark in marks:
        cells = []
        for name in ("evolution", "SPSA"):
            found = [g for g in curves[name] if interval(g) == mark]
            cells.append(f"{found[0]['wins']}-{found[0]['losses']}-{found[0]['draws']}, {found[0]['elo']:+.0f} "
                         f"+/- {found[0]['margin']:.0f}" if found else "")
        print(f"| {mark} | {cells[0]} | {cells[1]} |")
    print()
    print("| method | gauntlets pooled | gauntlets past half-way pooled | Elo per 1,000 games (slope through the start) |")
    print("|---|---|---|---|")
    for name, curve in curves.items():
        if curve:
            half = [g for g in curve if interval(g) > games // 2]
            slope, margin = gain_rate(curve)
            print(f"| {name} | {pooled(curve)} | {pooled(half) if half else ''} | {slope:+.2f} +/- {margin:.2f} |")
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")
    from matplotlib import pyplot
    figure, axes = pyplot.subplots(figsize=(7, 4), dpi=100)
    for name, curve in curves.items():
        plot_gauntlets(axes, curve, label=name)
    axes.set_xlabel("games")
    axes.set_ylabel("Elo against the start weights (100 games)")
    axes.set_title(f"evolution vs SPSA, {games} games each, 5,000 nodes a move")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(folder / "compare.png")


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
    both = commands.add_parser("compare", help="evolution against SPSA on an equal budget of games")
    both.add_argument("folder", type=Path, metavar="DIR")
    both.add_argument("--games", type=int, default=20000)
    both.add_argument("--minutes", type=float, help="at most this long for each run this time")
    both.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.command == "speed":
        speed(args.games, args.nodes, not args.no_ray)
    elif args.command == "swap":
        swap(args.bouts, args.nodes)
    else:
        compare(args.folder, args.games, args.minutes, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
