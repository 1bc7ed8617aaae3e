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
is read from the journals; --table prints it without playing (bench/strength_checks.py, shared with
bench/kriegspiel_strength.py). Game records are bulk data: with
--records DIR each check appends its games to DIR/<check>.txt.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import List, Optional

from strength_checks import Check, parser, python_command, run

ROOT = Path(__file__).resolve().parent.parent
PYROPE = ["pyrope"]

CHECKS = [
    Check("random", 400, ["random"], PYROPE, "all won", "nine"),
    Check("reference", 200, ["reference"], PYROPE, "95% or more, no loss", "nine"),
    Check("mcts", 200, ["mcts", "simulations=10000"], PYROPE, "85% or more, no loss", "nine"),
    Check("database", 200, ["pyrope", "name=no-db", "option.MillDBPath=<empty>"],
          ["pyrope", "name=db"], "no Elo lost", "nine"),
    Check("mtdf", 200, ["pyrope", "name=pvs", "option.Algorithm=pvs"],
          ["pyrope", "name=mtdf", "option.Algorithm=mtdf"], variant="nine"),
    Check("twelve-random", 400, ["random"], PYROPE, "all won", "twelve"),
    Check("twelve-reference", 200, ["reference"], PYROPE, "95% or more, no loss", "twelve"),
]
SEED = 18                               # the openings of every check (the journal keeps it too)


def command(check: Check, args: argparse.Namespace, games: int) -> List[str]:
    words = python_command("mill", "match", "--player", *check.first, "--player", *check.opponent,
                           "--variant", check.variant, "--games", str(games), "--openings", "2-4",
                           "--seed", str(SEED), "--concurrency", str(args.concurrency))
    words += ["--nodes", str(args.nodes)] if args.nodes else ["--movetime", str(args.movetime)]
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
        words += ["--record", str(args.records / f"{check.name}.txt")]
    return words


def unplayable(check: Check) -> Optional[str]:
    if check.name == "mcts" and importlib.util.find_spec("pyspiel") is None:
        return "OpenSpiel is not installed (pip install 'pyrope[openspiel]')"
    return None


def main() -> int:
    options = parser(__doc__, CHECKS, ROOT / "bench" / "results" / "mill")
    options.add_argument("--movetime", type=float, default=0.1, metavar="S", help="Pyrope's seconds a turn (default 0.1)")
    options.add_argument("--nodes", type=int, help="Pyrope's nodes a turn instead of --movetime")
    options.add_argument("--records", type=Path, help="append each check's game records to DIR/<check>.txt")
    return run(options, CHECKS, command, unplayable)


if __name__ == "__main__":
    sys.exit(main())
