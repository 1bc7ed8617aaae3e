"""Calibrate UCI_LimitStrength: Pyrope at each UCI_Elo setting against Stockfish at the same
UCI_Elo (Stockfish's floor is 1350), with `pyrope match`; prints the table the README quotes.

    python3 bench/strength_calibration.py [--levels 1000 1400 1800 2050] [--games 40] [--tc 3+0.03]

The estimated rating of a setting is the opponent's UCI_Elo plus the measured Elo difference.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

OPENINGS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "openings" / "balanced-8ply.epd"
STOCKFISH_FLOOR = 1350     # Debian Stockfish 15.1's lowest UCI_Elo


def play(level: int, games: int, tc: str, concurrency: int, stockfish: str) -> tuple[str, float, float, float, int]:
    opponent = max(level, STOCKFISH_FLOOR)
    command = [
        "pyrope", "match", "--games", str(games), "--tc", tc, "--concurrency", str(concurrency),
        "--openings", str(OPENINGS), "--order", "random", "--seed", str(level), "--quiet",
        "--resign", "--draw",
        "--engine", f"cmd={shutil.which('pyrope')}", f"name=Pyrope-{level}",
        "option.UCI_LimitStrength=true", f"option.UCI_Elo={level}", "option.Hash=16",
        "--engine", f"cmd={stockfish}", f"name=Stockfish-{opponent}",
        "option.UCI_LimitStrength=true", f"option.UCI_Elo={opponent}", "option.Hash=16",
    ]
    run = subprocess.run(command, capture_output=True, text=True)
    report = run.stdout
    score = re.search(r"Score of .*?: (\d+) - (\d+) - (\d+)\s+\[([\d.]+)\]", report)
    if run.returncode != 0 or score is None:
        raise SystemExit(f"pyrope match failed:\n{report}\n{run.stderr}")
    elo = re.search(r"Elo difference: (-?[\d.]+|inf|-inf) \+/- ([\d.]+|inf)", report)
    wins, losses, draws, fraction = score.groups()
    return f"{wins}-{losses}-{draws}", float(fraction), float(elo.group(1)), float(elo.group(2)), opponent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", type=int, nargs="+", default=[1000, 1400, 1800, 2050])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tc", default="3+0.03")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    print("| UCI_Elo | opponent | W-L-D | score | Elo difference | estimated Elo |")
    print("|---|---|---|---|---|---|")
    for level in args.levels:
        record, fraction, elo, margin, opponent = play(level, args.games, args.tc, args.concurrency, args.stockfish)
        print(f"| {level} | Stockfish UCI_Elo {opponent} | {record} | {100 * fraction:.1f}% | "
              f"{elo:+.0f} +/- {margin:.0f} | {opponent + elo:.0f} |", flush=True)


if __name__ == "__main__":
    main()
