"""How is an unfinished SPRT likely to end by its cap? Reads a match journal (bench/sprt.py's or any
`pyrope match --resume` file of two engines) and simulates the games left.

    python3 bench/sprt_forecast.py JOURNAL --cap 4000 [--elo0 0 --elo1 10] [--runs 4000] [--seed 1]

Prints the first engine's W-L-D, Elo and LLR so far and the chances of H1, H0 and no decision at
the cap (pyrope.match.stats.sprt_forecast: the true Elo drawn about today's estimate, the
games left played at today's draw rate). A test with little chance of passing is not worth the
hours it still needs; docs/strength.md's table of search changes says
when one was stopped on this forecast.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pyrope.journal import Journal
from pyrope.match.runner import Tally
from pyrope.match.stats import elo_interval, sprt_forecast, sprt_llr


def first_engine_results(records: list) -> Tally:
    """Engine 0's results over the journal's game records (a game journaled twice counts once)."""
    tally = Tally(0, 1)
    for record in {record.get("game"): record for record in records}.values():
        tally.add(record["white"], record["result"])
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journal", type=Path)
    parser.add_argument("--cap", type=int, required=True, help="the test's most games")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    journal = Journal(str(args.journal))
    if not journal.records:
        parser.error(f"{args.journal} holds no games")
    tally = first_engine_results(journal.records)
    wins, losses, draws = tally.wins, tally.losses, tally.draws
    elo, margin = elo_interval(wins, losses, draws)
    names = [engine.get("name") for engine in journal.header.get("engines", [])]
    print(f"{names[0] if names else 'engine 0'}: {wins}-{losses}-{draws} over {wins + losses + draws} games, "
          f"{elo:+.1f} +/- {margin:.1f} Elo, LLR {sprt_llr(wins, losses, draws, args.elo0, args.elo1):.2f} "
          f"(elo0 {args.elo0:g}, elo1 {args.elo1:g})")
    h1, h0, undecided = sprt_forecast(wins, losses, draws, args.elo0, args.elo1, args.cap,
                                      runs=args.runs, seed=args.seed)
    print(f"by {args.cap} games ({args.runs} runs): H1 {h1:.1%}, H0 {h0:.1%}, undecided {undecided:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
