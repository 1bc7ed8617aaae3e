"""Issue 18's Mill strength checks, played by `pyrope mill match`, resumably, and their table.

    python3 bench/mill_strength.py [CHECK ...] [--chunk N] [--movetime S] [--concurrency N]
        [--results DIR] [--records DIR] [--table]

Each check is one `pyrope mill match` (run by this Python: `python3 -m pyrope.cli`) of Pyrope's own
engine, in-process, against an opponent, from seeded random openings (2-4 placements a side, each
played twice with colours swapped); the issue's criterion is in the table's last column:

  random            nine men's morris against the random player, 400 games: all won
  reference         against the reference player (depth-2 search on the Python rules), 200: 95% or more, no loss
  mcts              against OpenSpiel's MCTS, 10,000 simulations, 200: 85% or more, no loss (needs open-spiel)
  database          the endgame databases on against off (MillDBPath=<empty>), 200: they must not cost Elo
  mtdf              Algorithm mtdf against pvs, 200: quoted
  twelve-random     twelve men's morris against the random player, 400: all won
  twelve-reference  twelve men's morris against the reference player, 200: 95% or more, no loss

A check's journal is DIR/<check>.jsonl (default bench/results/mill/): run the same command again, in
this session or a later one, and every check plays on where it stopped. --chunk N plays at most N
more games of each check per run, so that a long check fits a session; Ctrl-C stops a match without
losing its finished games. The table (W-L-D, score, Elo with its 95% interval, draws by kind, faults)
is read from the journals; --table prints it without playing. Game records are bulk data: with
--records DIR each check appends its games to DIR/<check>.txt.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import math
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import List

from pyrope.selfplay.match.stats import elo_interval

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Check:
    name: str
    games: int
    opponent: List[str]                 # the second --player's tokens
    first: List[str] = field(default_factory=lambda: ["pyrope"])
    variant: str = "nine"
    criterion: str = "quoted"


CHECKS = [
    Check("random", 400, ["random"], criterion="all won"),
    Check("reference", 200, ["reference"], criterion="95% or more, no loss"),
    Check("mcts", 200, ["mcts", "simulations=10000"], criterion="85% or more, no loss"),
    Check("database", 200, ["pyrope", "name=no-db", "option.MillDBPath=<empty>"],
          first=["pyrope", "name=db"], criterion="no Elo lost"),
    Check("mtdf", 200, ["pyrope", "name=pvs", "option.Algorithm=pvs"],
          first=["pyrope", "name=mtdf", "option.Algorithm=mtdf"]),
    Check("twelve-random", 400, ["random"], variant="twelve", criterion="all won"),
    Check("twelve-reference", 200, ["reference"], variant="twelve", criterion="95% or more, no loss"),
]
SEED = 18                               # the openings of every check (the journal keeps it too)


def journaled(path: Path) -> tuple:
    """(header, the last record of each game) of a journal; ({}, {}) when there is none."""
    if not path.exists():
        return {}, {}
    lines = []
    for line in path.read_text().splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:              # a line cut short by a killed run
            break
    return (lines[0], {record["game"]: record for record in lines[1:]}) if lines else ({}, {})


def play(check: Check, args: argparse.Namespace) -> int:
    """Play the check's next chunk; the match's exit code (0 when nothing was left)."""
    journal = args.results / f"{check.name}.jsonl"
    done = len(journaled(journal)[1])
    target = min(check.games, done + args.chunk) if args.chunk else check.games
    if done >= target:
        return 0
    command = [sys.executable, "-m", "pyrope.cli", "mill", "match", "--player", *check.first,
               "--player", *check.opponent, "--variant", check.variant, "--games", str(target),
               "--openings", "2-4", "--seed", str(SEED), "--concurrency", str(args.concurrency),
               "--resume", str(journal)]
    command += ["--nodes", str(args.nodes)] if args.nodes else ["--movetime", str(args.movetime)]
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
        command += ["--record", str(args.records / f"{check.name}.txt")]
    print(f"== {check.name}: games {done + 1}-{target} of {check.games}", flush=True)
    match = subprocess.Popen(command, cwd=ROOT)
    while True:
        try:
            return match.wait()
        except KeyboardInterrupt:       # the match has its Ctrl-C too: it ends its games and reports
            continue


def row(check: Check, results: Path) -> List[str]:
    header, games = journaled(results / f"{check.name}.jsonl")
    if not games:
        return [check.name, f"0/{check.games}"] + [""] * 6 + [check.criterion]
    names = [player["name"] for player in header["player list"]]
    wins = sum(game["result"] == ("1-0" if game["white"] == 0 else "0-1") for game in games.values())
    draws = collections.Counter(game["kind"] for game in games.values() if game["result"] == "1/2-1/2")
    losses = len(games) - wins - sum(draws.values())
    faults = collections.Counter(f"{names[game['fault']]} {game['kind']}" for game in games.values()
                                 if game["fault"] is not None)
    score = (wins + 0.5 * sum(draws.values())) / len(games)
    elo, margin = elo_interval(wins, losses, sum(draws.values()))
    elo_text = f"{elo:+.0f}" if math.isfinite(elo) else f"{elo:+}"
    elo_text += f" +/- {margin:.0f}" if math.isfinite(margin) else ""
    return [check.name, f"{len(games)}/{check.games}", f"{names[0]} vs {names[1]}",
            f"{wins}-{losses}-{sum(draws.values())}", f"{score:.3f}", elo_text,
            ", ".join(f"{kind} {count}" for kind, count in draws.most_common()) or "-",
            ", ".join(f"{what} {count}" for what, count in faults.most_common()) or "-", check.criterion]


def table(checks: List[Check], results: Path) -> str:
    rows = [["check", "games", "players", "W-L-D", "score", "Elo (95%)", "draws", "faults", "issue's criterion"]]
    rows += [row(check, results) for check in checks]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines[:1] + ["  ".join("-" * width for width in widths)] + lines[1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checks", nargs="*", metavar="CHECK", help=f"{', '.join(c.name for c in CHECKS)} (default all)")
    parser.add_argument("--chunk", type=int, default=0, metavar="N", help="at most N more games per check this run")
    parser.add_argument("--movetime", type=float, default=0.1, metavar="S", help="Pyrope's seconds a turn (default 0.1)")
    parser.add_argument("--nodes", type=int, help="Pyrope's nodes a turn instead of --movetime")
    parser.add_argument("--concurrency", type=int, default=1, help="games at the same time (default 1)")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results" / "mill",
                        help="the journals' directory (default bench/results/mill)")
    parser.add_argument("--records", type=Path, help="append each check's game records to DIR/<check>.txt")
    parser.add_argument("--table", action="store_true", help="print the table of the journals and play nothing")
    args = parser.parse_args()
    known = {check.name: check for check in CHECKS}
    unknown = [name for name in args.checks if name not in known]
    if unknown:
        parser.error(f"unknown check {unknown[0]!r}; the checks: {', '.join(known)}")
    checks = [known[name] for name in args.checks] or CHECKS
    args.results.mkdir(parents=True, exist_ok=True)
    code = 0
    for check in checks if not args.table else ():
        if check.name == "mcts" and not has_openspiel():
            print("== mcts: skipped, OpenSpiel is not installed (pip install 'pyrope[openspiel]')", flush=True)
            continue
        code = play(check, args)
        if code == 130:                 # interrupted: the table of what is there, then stop
            break
    print(table(checks, args.results))
    return code


def has_openspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


if __name__ == "__main__":
    sys.exit(main())
