"""Issue 16's Kriegspiel strength checks, played by `pyrope kriegspiel match`, resumably, and their table.

    python3 bench/kriegspiel_strength.py [CHECK ...] [--chunk N] [--concurrency N] [--results DIR]
        [--pgn DIR] [--table]

Each check is one `pyrope kriegspiel match` (run by this Python: `python3 -m pyrope.cli`) between
built-in players at their default budgets, from the standard start unless the check says otherwise,
colours alternating, players' choices seeded by the game's number (so a check replays the same
games); the issue's criterion is in the table's last column:

  maximax-random        Darkboard 1.0's maximax against the random player, 1,000 games: at least
                        the thesis's 94.8% wins (section 4.6)
  maximax-semi-random   the same against the semi-random player: at least 79.3% wins
  mcts-random           Darkboard 2.0's MCTS against the random player, 1,000 games: above 94.8%
                        wins, its 95% interval's lower end included
  mcts-semi-random      the same against the semi-random player: above 79.3%
  mcts-maximax          the MCTS against the maximax, 400 games from the first 200 balanced openings
                        (both players are deterministic: from one start every game is the same), each
                        twice with colours swapped: at least +100 Elo, the interval's lower end above +50

The thesis's own conditions (5.9, Fig. 5.9): time, not nodes, per move (the players' own
movetime=, time odds), 400 games from the first 200 balanced openings each twice with colours
swapped (the chess openings of ../shared/data/openings/balanced-8ply.epd: eight plies both sides
know, from which each sees only its own men), T = 0.1 s a move:

  time-mcts-maximax     the MCTS against the maximax at T each: at least +30 Elo, the lower end above 0
  time-mcts-2x          the MCTS at 2T against the maximax at T (quoted: the sweep)
  time-mcts-4x          ... at 4T
  time-mcts-8x          ... at 8T
  time-maximax-4x       the maximax at 4T against itself at T: where its plateau is

The default player (roster.DEFAULT_PLAYER) against every other built-in player at T each, 400 games
from the balanced openings (against the other searching player, time-mcts-maximax stands for it):

  time-DEFAULT-KIND     at least 50%

The opponent model (thesis 5.5): the default player with model=MODEL against itself without, at T
each, 400 games; MODEL (bench/results/kriegspiel/opponent.model, with its provenance beside it) is
counted from 2,000 or more of these checks' own games, the searching players' sides alone (a model
of the maximax's men learns nothing from the random player's): play the checks with --pgn DIR, then
`pyrope kriegspiel model DIR/*.pgn --player maximax --player maximax-1x --player mcts --out MODEL`:

  time-DEFAULT-model    quoted, whichever way it goes

A check's journal is DIR/<check>.jsonl (default bench/results/kriegspiel/): run the same command
again, in this session or a later one, and every check plays on where it stopped; --chunk N plays at
most N more games of each check per run; Ctrl-C stops a match without losing its finished games.
The table is read from the journals; --table prints it without playing (bench/strength_checks.py,
shared with bench/mill_strength.py). Wins are counted in the table's W column: the criterion is a
share of wins, not the score. With --pgn DIR each check appends its games' Kriegspiel PGN to
DIR/<check>.pgn (bulk data, outside git).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List

from pyrope.kriegspiel.roster import BUILTINS, DEFAULT_PLAYER
from strength_checks import Check, parser, python_command, run

ROOT = Path(__file__).resolve().parent.parent
SEED = 16                               # the players' seeds (the journal keeps it too)
T = 0.1                                 # seconds a move of the time checks' maximax
SEARCHING = ("maximax", "mcts")         # time-mcts-maximax measures them against each other
MODEL = ROOT / "bench" / "results" / "kriegspiel" / "opponent.model"

CHECKS = [
    Check("maximax-random", 1000, ["random"], ["maximax"], "94.8% wins or more"),
    Check("maximax-semi-random", 1000, ["semi-random"], ["maximax"], "79.3% wins or more"),
    Check("mcts-random", 1000, ["random"], ["mcts"], "above 94.8% wins, lower end too"),
    Check("mcts-semi-random", 1000, ["semi-random"], ["mcts"], "above 79.3% wins, lower end too"),
    Check("mcts-maximax", 400, ["maximax"], ["mcts"], "+100 Elo or more, lower end above +50"),
    Check("time-mcts-maximax", 400, ["maximax", f"movetime={T}"], ["mcts", f"movetime={T}"], "+30 Elo or more, lower end above 0"),
    *(Check(f"time-mcts-{factor}x", 400, ["maximax", f"movetime={T}"], ["mcts", f"movetime={factor * T:g}"])
      for factor in (2, 4, 8)),
    Check("time-maximax-4x", 400, ["maximax", f"movetime={T}", "name=maximax-1x"], ["maximax", f"movetime={4 * T:g}"]),
    *(Check(f"time-{DEFAULT_PLAYER}-{kind}", 400, [kind, f"movetime={T}"], [DEFAULT_PLAYER, f"movetime={T}"],
            "50% or more") for kind in BUILTINS if kind not in (DEFAULT_PLAYER, *SEARCHING)),
    Check(f"time-{DEFAULT_PLAYER}-model", 400, [DEFAULT_PLAYER, f"movetime={T}", "name=without-model"],
          [DEFAULT_PLAYER, f"movetime={T}", f"model={MODEL}", "name=with-model"]),
]
BALANCED = ROOT.parent / "shared" / "data" / "openings" / "balanced-8ply.epd"
OPENINGS = {check.name: BALANCED for check in CHECKS if check.name == "mcts-maximax" or check.name.startswith("time-")}


def command(check: Check, args: argparse.Namespace, games: int) -> List[str]:
    words = python_command("kriegspiel", "match", "--white", *check.first, "--black", *check.opponent,
                           "--games", str(games), "--seed", str(SEED), "--concurrency", str(args.concurrency))
    if check.name in OPENINGS:
        words += ["--openings", str(OPENINGS[check.name])]
    if args.pgn:
        args.pgn.mkdir(parents=True, exist_ok=True)
        words += ["--pgn", str(args.pgn / f"{check.name}.pgn")]
    return words


def main() -> int:
    options = parser(__doc__, CHECKS, ROOT / "bench" / "results" / "kriegspiel")
    options.add_argument("--pgn", type=Path, help="append each check's games to DIR/<check>.pgn")
    return run(options, CHECKS, command)


if __name__ == "__main__":
    sys.exit(main())
