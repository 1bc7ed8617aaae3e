"""Calibrate UCI_LimitStrength: Pyrope at each UCI_Elo setting against Stockfish at the same
UCI_Elo (Stockfish's floor is 1350), with `pyrope match`, at one or more time controls; prints the
table docs/strength.md ("Strength limit") quotes.

    python3 bench/strength_calibration.py [--levels 1000 1400 1600 1800 2300] [--tc 3+0.03 10+0.1]
        [--games 40] [--results bench/results/strength.jsonl]

The estimated rating of a setting is the opponent's UCI_Elo plus the measured Elo difference. A
cell (level, control) is played in chunks of --chunk games, each with its own opening order, and
each finished chunk is appended to the results file with the setting it measured (the level's node
budget and weakness at 128 ms, the budget's time exponent, the weakness's fade with the time when
it has one, and the budget of the first move at that control). A
cell pools the chunks of the current setting, and plays only the chunks it still lacks: a run
killed anywhere loses at most its unfinished chunk, the same command finishes the table in a later
session, and chunks of a setting since changed are kept in the file but no longer counted.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path

from pyrope.nnue.loader import DEFAULT_NET
from pyrope.play import strength
from pyrope.play.timeman import DEFAULT_MOVE_OVERHEAD_MS, Limits, plan_move
from pyrope.match import elo_interval, parse_tc

OPENINGS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "openings" / "balanced-8ply.epd"
RESULTS = Path(__file__).resolve().parent / "results" / "strength.jsonl"
STOCKFISH_FLOOR = 1350     # Debian Stockfish 15.1's lowest UCI_Elo
FAULTS = ("time forfeits", "illegal moves", "crashes")
NET_SHA256 = hashlib.sha256(DEFAULT_NET.read_bytes()).hexdigest()[:16]


def first_move_ms(tc: str) -> int:
    """The time Pyrope plans for its first move under `tc` (with its default Move Overhead, which the
    matches keep)."""
    control = parse_tc(tc)
    clock, increment = round(control.base * 1000), round(control.increment * 1000)
    limits = Limits(wtime=clock, btime=clock, winc=increment, binc=increment, movestogo=control.moves or 0)
    return plan_move(limits, True, DEFAULT_MOVE_OVERHEAD_MS).max_time


def setting(level: int, tc: str) -> dict:
    """The level's setting in the code the engines will run now (re-read: it may have been edited
    since this run began, and a chunk must be filed under what it measured): its row, the budget of
    its first move under `tc`, which tells apart settings that differ only in how the budget
    follows the clock, and the net limited play evaluates with (the first 16 hex digits of its
    SHA-256), since the same budget plays at another strength with another evaluation."""
    module = importlib.reload(strength)
    skill = module.Skill(level)
    row = {"nodes": skill.nodes, "weakness": skill.weakness, "exponent": round(skill.exponent, 4),
           "budget": module.Skill(level, first_move_ms(tc)).nodes, "net": NET_SHA256}
    # The weakness's fade with the time came later: a row without one is filed as before it.
    return row | {"fade": round(skill.fade, 4)} if skill.fade else row


def play(level: int, tc: str, chunk: int, games: int, concurrency: int, stockfish: str) -> dict:
    opponent = max(level, STOCKFISH_FLOOR)
    command = [
        "pyrope", "match", "--games", str(games), "--tc", tc, "--concurrency", str(concurrency),
        "--openings", str(OPENINGS), "--order", "random", "--seed", str(1000 * level + chunk), "--quiet",
        "--resign", "--draw",
        "--engine", f"cmd={shutil.which('pyrope')}", f"name=Pyrope-{level}",
        "option.UCI_LimitStrength=true", f"option.UCI_Elo={level}", "option.Hash=16",
        "--engine", f"cmd={stockfish}", f"name=Stockfish-{opponent}",
        "option.UCI_LimitStrength=true", f"option.UCI_Elo={opponent}", "option.Hash=16",
    ]
    run = subprocess.run(command, capture_output=True, text=True)
    report = run.stdout
    score = re.search(r"Score of .*?: (\d+) - (\d+) - (\d+)\s", report)
    if run.returncode != 0 or score is None:
        raise SystemExit(f"pyrope match failed:\n{report}\n{run.stderr}")
    faults = {}
    for line in report.splitlines():
        if "time forfeits:" in line:
            name, counts = line.split(": ", 1)
            faults[name] = [int(re.search(rf"{kind}: (\d+)", counts).group(1)) for kind in FAULTS]
    wins, losses, draws = map(int, score.groups())
    return {"level": level, "tc": tc, "chunk": chunk, "setting": setting(level, tc), "opponent": opponent,
            "wins": wins, "losses": losses, "draws": draws, "faults": faults}


def load(results: Path) -> list[dict]:
    if not results.exists():
        return []
    return [json.loads(line) for line in results.read_text().splitlines() if line.strip()]


def current_chunks(results: Path, level: int, tc: str) -> list[dict]:
    wanted = (level, tc, setting(level, tc))
    return [chunk for chunk in load(results) if (chunk["level"], chunk["tc"], chunk["setting"]) == wanted]


def row(level: int, tc: str, chunks: list[dict]) -> str:
    if not chunks:
        return f"| {level} | {tc} | not measured yet | 0 | | | | | |"
    wins, losses, draws = (sum(chunk[key] for chunk in chunks) for key in ("wins", "losses", "draws"))
    games, opponent = wins + losses + draws, chunks[0]["opponent"]
    elo, margin = elo_interval(wins, losses, draws)
    faults = {}
    for chunk in chunks:
        for name, counts in chunk["faults"].items():
            faults[name] = [a + b for a, b in zip(faults.get(name, [0] * len(FAULTS)), counts)]
    told = "; ".join(f"{name}: " + ", ".join(f"{count} {kind}" for kind, count in zip(FAULTS, counts) if count)
                     for name, counts in faults.items() if any(counts)) or "none"
    return (f"| {level} | {tc} | Stockfish UCI_Elo {opponent} | {games} | {wins}-{losses}-{draws} | "
            f"{100 * (wins + draws / 2) / games:.1f}% | {elo:+.0f} +/- {margin:.0f} | {opponent + elo:.0f} | {told} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", type=int, nargs="+", default=[1000, 1400, 1600, 1800, 2300])
    parser.add_argument("--tc", nargs="+", default=["3+0.03", "10+0.1"])
    parser.add_argument("--games", type=int, default=40, help="games a cell (default 40)")
    parser.add_argument("--chunk", type=int, default=10, help="games a chunk (default 10)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    args.results.parent.mkdir(parents=True, exist_ok=True)
    print("| UCI_Elo | control | opponent | games | W-L-D | score | Elo difference | estimated Elo | faults |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    for tc in args.tc:
        for level in args.levels:
            chunks = current_chunks(args.results, level, tc)
            while sum(chunk["wins"] + chunk["losses"] + chunk["draws"] for chunk in chunks) < args.games:
                numbers = {chunk["chunk"] for chunk in chunks}
                number = min(n for n in range(len(numbers) + 1) if n not in numbers)
                chunk = play(level, tc, number, args.chunk, args.concurrency, args.stockfish)
                with args.results.open("a") as out:
                    out.write(json.dumps(chunk) + "\n")
                chunks.append(chunk)
            print(row(level, tc, chunks), flush=True)


if __name__ == "__main__":
    main()
