"""Issue 15's strength checks of the learned evaluation, played by `pyrope match`, resumably, and
their table.

    python3 bench/chess_strength.py [CHECK ...] [--chunk N] [--concurrency 2] [--tc 10+0.1]
        [--results DIR] [--table]

Each check is one `pyrope match` of this checkout's Pyrope (`python3 -m pyrope.cli`, one thread,
Hash 64, books off) at 10s+0.1s from ../shared/data/openings/balanced-8ply.epd (each opening twice,
colours swapped), against Stockfish 15.1 limited by UCI_LimitStrength, Glaurung, Sunfish or itself; "-hce"
plays with `Use NNUE` off (the hand-crafted evaluation: the ladder before the net), "-net" with the
shipped net (after). The issue's criterion is in the table's last column:

  net-hce     the net against the hand-crafted evaluation, 400 games: +50 Elo or more
  sf2200-hce  the hand-crafted evaluation against Stockfish UCI_Elo 2200, 100 games (the ladder before)
  sf2400-hce  ... 2400, 100
  sf2600-hce  ... 2600, 100
  sf2200-net  the net against Stockfish UCI_Elo 2200, 100 (the ladder after)
  sf2400-net  ... 2400, 200 games: 50% or more
  sf2600-net  ... 2600, 100
  glaurung-net  the net against Glaurung 2.2 (Debian's glaurung), 100 (a headline of README)
  sunfish-net   the net against Sunfish (PyPI's sunfish-uci), 100 (a headline of README)

A check's journal is DIR/<check>.jsonl (default bench/results/nnue/strength/): the same command goes
on where it stopped, in this session or a later one; --chunk N plays at most N more games of each
check per run. The table (W-L-D, score, Elo with its 95% interval, draws by kind, faults: time
losses and crashes are reported, not counted as wins) is read from the journals; --table prints it
without playing (bench/strength_checks.py). Run it on an otherwise idle machine: at 10s+0.1s both
cores are the two engines'.
"""
from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from pathlib import Path
from typing import List, Optional

from pyrope.nnue.loader import DEFAULT_NET
from strength_checks import Check, parser, python_command, run

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = ROOT.parent / "shared" / "data" / "openings" / "balanced-8ply.epd"
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"     # Debian puts it in /usr/games
GLAURUNG = shutil.which("glaurung") or "/usr/games/glaurung"
SUNFISH = shutil.which("sunfish-uci") or str(Path(sys.executable).with_name("sunfish-uci"))   # PyPI's sunfish
# One thread and Hash 64 for every player that has the options (Sunfish has neither: one thread, its own table).
ONE_THREAD = ["option.Threads=1", "option.Hash=64"]
PYROPE = [f"cmd={shlex.join(python_command())}", "option.OwnBook=false", *ONE_THREAD]
NET = PYROPE + ["name=pyrope-net"]
HCE = PYROPE + ["name=pyrope-hce", "option.Use NNUE=false"]


def stockfish(elo: int) -> List[str]:
    return [f"cmd={STOCKFISH}", f"name=stockfish-{elo}",
            "option.UCI_LimitStrength=true", f"option.UCI_Elo={elo}", *ONE_THREAD]


CHECKS = [
    Check("net-hce", 400, HCE, NET, "+50 Elo or more"),
    *(Check(f"sf{elo}-hce", 100, stockfish(elo), HCE, "the ladder before") for elo in (2200, 2400, 2600)),
    Check("sf2200-net", 100, stockfish(2200), NET, "the ladder after"),
    Check("sf2400-net", 200, stockfish(2400), NET, "50% or more"),
    Check("sf2600-net", 100, stockfish(2600), NET, "the ladder after"),
    Check("glaurung-net", 100, [f"cmd={GLAURUNG}", "name=glaurung-2.2", *ONE_THREAD], NET, "headline"),
    Check("sunfish-net", 100, [f"cmd={SUNFISH}", "name=sunfish"], NET, "headline"),
]
# Where the opponent is a program that may not be installed, and how to install it.
PROGRAMS = {"sf": (STOCKFISH, "apt-get install stockfish"), "glaurung": (GLAURUNG, "apt-get install glaurung"),
            "sunfish": (SUNFISH, "pip install sunfish")}


def command(check: Check, args: argparse.Namespace, games: int) -> List[str]:
    return python_command("match", "--engine", *check.first, "--engine", *check.opponent,
                          "--openings", str(OPENINGS),
                          "--games", str(games), "--tc", args.tc, "--concurrency", str(args.concurrency))


def unplayable(check: Check) -> Optional[str]:
    for prefix, (program, install) in PROGRAMS.items():
        if check.name.startswith(prefix) and not Path(program).exists():
            return f"{program} is not installed ({install})"
    if check.first == NET and not DEFAULT_NET.exists():
        return f"no shipped net at {DEFAULT_NET}"
    if not OPENINGS.exists():
        return f"no openings at {OPENINGS}"
    return None


def main() -> int:
    options = parser(__doc__, CHECKS, ROOT / "bench" / "results" / "nnue" / "strength")
    options.set_defaults(concurrency=2)
    options.add_argument("--tc", default="10+0.1", help="the time control (default %(default)s)")
    return run(options, CHECKS, command, unplayable)


if __name__ == "__main__":
    sys.exit(main())
