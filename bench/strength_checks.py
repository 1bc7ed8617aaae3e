"""Strength checks played by one of Pyrope's match commands, resumably, and their table: the part
bench/mill_strength.py and bench/kriegspiel_strength.py share.

A check is one match of a fixed number of games whose journal (the runner's --resume file) lives in
a results directory as <check>.jsonl: run the same script again, in this session or a later one, and
every check plays on where it stopped; --chunk N plays at most N more games of each check per run,
so that a long check fits a session. The table -- W-L-D, score, Elo with its 95% interval, draws by
kind, faults, the issue's criterion -- is read from the journals alone.
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Sequence

from pyrope.match.stats import elo_interval


@dataclass(frozen=True)
class Check:
    name: str
    games: int
    opponent: List[str]                 # the second player's tokens
    first: List[str]                    # the first player's tokens
    criterion: str = "quoted"
    variant: str = ""                   # a game-specific setting (Mill: nine or twelve)


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


def play(check: Check, args: argparse.Namespace, command: Callable[[Check, argparse.Namespace, int], List[str]]) -> int:
    """Play the check's next chunk with `command(check, args, games)` plus --resume; the match's exit
    code (0 when nothing was left)."""
    journal = args.results / f"{check.name}.jsonl"
    done = len(journaled(journal)[1])
    target = min(check.games, done + args.chunk) if args.chunk else check.games
    if done >= target:
        return 0
    print(f"== {check.name}: games {done + 1}-{target} of {check.games}", flush=True)
    match = subprocess.Popen(command(check, args, target) + ["--resume", str(journal)])
    while True:
        try:
            return match.wait()
        except KeyboardInterrupt:       # the match has its Ctrl-C too: it ends its games and reports
            continue


def row(check: Check, results: Path) -> List[str]:
    header, games = journaled(results / f"{check.name}.jsonl")
    if not games:
        return [check.name, f"0/{check.games}"] + [""] * 6 + [check.criterion]
    # Mill's and Kriegspiel's runners call them the player list, the chess match its engines.
    names = [player["name"] for player in header.get("player list") or header["engines"]]
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


def table(checks: Sequence[Check], results: Path) -> str:
    rows = [["check", "games", "players", "W-L-D", "score", "Elo (95%)", "draws", "faults", "issue's criterion"]]
    rows += [row(check, results) for check in checks]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines[:1] + ["  ".join("-" * width for width in widths)] + lines[1:])


def parser(description: str, checks: Sequence[Check], results: Path) -> argparse.ArgumentParser:
    """The options every strength script takes; the script adds its own before parsing."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checks", nargs="*", metavar="CHECK", help=f"{', '.join(c.name for c in checks)} (default all)")
    parser.add_argument("--chunk", type=int, default=0, metavar="N", help="at most N more games per check this run")
    parser.add_argument("--concurrency", type=int, default=1, help="games at the same time (default %(default)s)")
    parser.add_argument("--results", type=Path, default=results, help=f"the journals' directory (default {results})")
    parser.add_argument("--table", action="store_true", help="print the table of the journals and play nothing")
    return parser


def run(parser: argparse.ArgumentParser, checks: Sequence[Check],
        command: Callable[[Check, argparse.Namespace, int], List[str]],
        skip: Callable[[Check], Optional[str]] = lambda check: None) -> int:
    """Parse the options, play the chosen checks' next chunks (`skip` names why a check cannot be
    played here, or None), then print the table."""
    args = parser.parse_args()
    known = {check.name: check for check in checks}
    unknown = [name for name in args.checks if name not in known]
    if unknown:
        parser.error(f"unknown check {unknown[0]!r}; the checks: {', '.join(known)}")
    chosen = [known[name] for name in args.checks] or list(checks)
    args.results.mkdir(parents=True, exist_ok=True)
    code = 0
    for check in chosen if not args.table else ():
        reason = skip(check)
        if reason:
            print(f"== {check.name}: skipped, {reason}", flush=True)
            continue
        code = play(check, args, command)
        if code == 130:                 # interrupted: the table of what is there, then stop
            break
    print(table(chosen, args.results))
    return code


def python_command(*words: str) -> List[str]:
    """A `pyrope` subcommand run by this Python (the checkout's own build when run from it)."""
    return [sys.executable, "-m", "pyrope.cli", *words]
