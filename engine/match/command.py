"""`pyrope match`: a tournament manager for UCI and xboard engines, on the shared match runner.

Plays two or more engines against each other (with more than two, a gauntlet: the first engine against
each of the others), each opening twice with colours swapped, under a clock the runner keeps itself.
It adjudicates draws, resignations, tablebase positions and over-long games, writes PGN, and reports the
score, the Elo difference with its 95% interval and, with --sprt, a sequential probability ratio test.

This module holds the command line: its options, the journal's fingerprint and building the match; every
parser raises ValueError with a sentence that says what was wrong. The games are chess_game.ChessGame's,
run by runner.Match.

- --pgn appends, so several runs can collect into one file.
- --resume FILE journals each finished game (journal.py); the same command run again plays only the
  games the journal lacks and reports them all. The journal's header fingerprints what defines the
  games (see `fingerprint`), and a journal begun under other conditions is refused.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import logging
import os
import random
from typing import List, Optional

import chess

from .. import console
from ..journal import Journal
from . import runner
from .chess_engines import EngineSpec, parse_engine_spec
from .chess_game import ChessGame, DrawRule, ResignRule, Rules, TablebaseAdjudicator
from .chess_openings import load_openings
from .clock import TimeControl
from .options import SprtSpec, check_counts, distinct_names, match_seed, parse_fields, time_control
from .runner import GameTask, play_command, schedule


class Match(runner.Match):
    """The runner playing chess: `rules` and the PGN's Event tag make its ChessGame."""

    def __init__(self, engines: List[EngineSpec], tasks: List[GameTask], rules: Rules, concurrency: int = 1,
                 sprt: Optional[SprtSpec] = None, pgn_path: Optional[str] = None, event: str = "?",
                 quiet: bool = False, journal: Optional[Journal] = None, ray: Optional[str] = None):
        super().__init__(engines, tasks, ChessGame(rules, event), concurrency, sprt, pgn_path, quiet, journal, ray)
        self.rules = rules


# ---------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of `pyrope match` to `parser`."""
    parser.description = ("Play engines against each other (the first against each of the others), each "
                          "opening twice with colours swapped, and report score, Elo and optionally an SPRT.")
    parser.epilog = ("examples:\n"
                     "  pyrope match --engine cmd=pyrope --engine cmd=sunfish-uci --tc 10+0.1 --games 100 \\\n"
                     "      --openings balanced-8ply.epd --concurrency 2 --pgn games.pgn\n"
                     "  pyrope match --engine cmd=pyrope name=new --engine cmd=./old/pyrope name=old \\\n"
                     "      --each option.Hash=64 option.OwnBook=false --tc 5+0.05 --games 2000 --sprt elo0=0 elo1=10 \\\n"
                     "      --resume new-old.jsonl    # run it again to go on where it stopped\n"
                     "  pyrope match --engine cmd=pyrope --engine cmd=fairymax proto=xboard --movetime 0.5\n"
                     "  pyrope match --engine cmd=pyrope --engine cmd=stockfish --tc 10+0.1 --games 400 \\\n"
                     "      --openings balanced-8ply.epd --ray auto --resume ray.jsonl   # on a Ray cluster")
    engines = parser.add_argument_group("engines")
    engines.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                         help="an engine: cmd=COMMAND [name=NAME] [proto=uci|xboard] [dir=DIR] "
                              "[option.NAME=VALUE ...]; give it two or more times (quote commands with spaces)")
    engines.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                         help="fields applied to every engine (an --engine's own fields win)")
    games = parser.add_argument_group("games")
    games.add_argument("--games", type=int, default=2,
                       help="games per pairing, rounded up to an even number (default 2)")
    games.add_argument("--openings", metavar="FILE",
                       help="EPD or PGN file of start positions (default: the initial position)")
    games.add_argument("--order", choices=("sequential", "random"), default="sequential",
                       help="order of the openings (default sequential)")
    games.add_argument("--seed", type=int, help="random seed for --order random (default: a random one, reported)")
    games.add_argument("--concurrency", type=int, default=1,
                       help="games played at the same time (default 1); with --ray local, its CPUs")
    games.add_argument("--ray", metavar="ADDRESS",
                       help="play the games as tasks on a Ray cluster, one a CPU: its address (HOST:PORT), auto, "
                            "or local (needs pyrope[cluster]; every node needs the engines' commands and files "
                            "at the same paths)")
    limits = parser.add_argument_group("time control (--tc, --movetime, --depth and/or --nodes)")
    limits.add_argument("--tc",
                        help="clock: BASE+INC, MOVES/BASE or MOVES/BASE+INC in seconds (e.g. 10+0.1, 40/60)")
    limits.add_argument("--movetime", type=float, metavar="S", help="fixed seconds per move")
    limits.add_argument("--depth", type=int, help="search depth per move")
    limits.add_argument("--nodes", type=int, help="nodes per move")
    limits.add_argument("--timemargin", type=int, default=100, metavar="MS",
                        help="milliseconds an engine may overstep its clock or movetime before it loses on "
                             "time (default 100: the runner measures wall time through pipes and Python's "
                             "event loop, whose latency must not cost games)")
    limits.add_argument("--timeout", type=float, default=60.0, metavar="S",
                        help="without a clock or movetime: an engine that has not moved after S seconds "
                             "loses (default 60)")
    adjudication = parser.add_argument_group("adjudication")
    adjudication.add_argument("--draw", nargs="*", metavar="KEY=VALUE",
                              help="draw adjudication: movenumber=40 movecount=8 score=10 (the defaults; "
                                   "movenumber counts engine moves, score is in cp)")
    adjudication.add_argument("--resign", nargs="*", metavar="KEY=VALUE",
                              help="resign adjudication: movecount=3 score=600 (the defaults)")
    adjudication.add_argument("--tb", metavar="PATH",
                              help=f"adjudicate by Syzygy WDL; tablebase directories separated by {os.pathsep!r}")
    adjudication.add_argument("--maxmoves", type=int, metavar="N",
                              help="adjudicate a draw after N moves by each engine (book moves not counted)")
    output = parser.add_argument_group("output")
    output.add_argument("--sprt", nargs="*", metavar="KEY=VALUE",
                        help="stop early by SPRT (two engines): elo0=0 elo1=10 alpha=0.05 beta=0.05 "
                             "(the defaults)")
    output.add_argument("--pgn", metavar="FILE", help="append the games to this PGN file")
    output.add_argument("--resume", metavar="FILE",
                        help="journal each finished game in FILE; run the same command again to play only the "
                             "games it lacks (a game cut short is replayed) and report them all. FILE fixes "
                             "the engines, time control, adjudication, SPRT bounds, openings (content), order and seed "
                             "(reused when --seed is not given): other ones are refused. With two engines "
                             "--games may be raised later to extend the match; with more it is fixed too")
    output.add_argument("--event", default="Pyrope match", help="PGN Event tag")
    output.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def fingerprint(args: argparse.Namespace, engines: List[EngineSpec], rules: Rules, sprt: Optional[SprtSpec],
                games: int) -> dict:
    """What a match's games depend on, for its journal: the engines, the conditions of play, the
    openings (their file's content) in their order, and, with more than two engines, the number of
    games (with two, schedule() with more games begins with the same tasks: a match can grow). The
    SPRT's bounds too: a test whose hypotheses change on the way is no longer the test it claims."""
    openings = None
    if args.openings:
        with open(args.openings, "rb") as handle:
            openings = hashlib.sha256(handle.read()).hexdigest()

    def settings(rule) -> Optional[dict]:
        return None if rule is None else dataclasses.asdict(rule)
    return {"engines": [dataclasses.asdict(spec) for spec in engines], "time control": settings(rules.tc),
            "timemargin": args.timemargin, "timeout": args.timeout, "draw": settings(rules.draw),
            "resign": settings(rules.resign), "tb": args.tb, "maxmoves": args.maxmoves, "openings": openings,
            "order": args.order, "seed": args.seed if args.order == "random" else None,
            "sprt": settings(sprt), "game count": games if len(engines) > 2 else None}


def build_match(args: argparse.Namespace) -> Match:
    """Check the options and build the Match; ValueError says what was wrong."""
    if len(args.engine) < 2:
        raise ValueError("give at least two engines (--engine cmd=... twice)")
    engines = [parse_engine_spec(list(args.each) + tokens) for tokens in args.engine]
    distinct_names(engines)
    tc = time_control(args)
    if tc == TimeControl():
        raise ValueError("give a time control: --tc, --movetime, --depth or --nodes")
    if tc.nodes is not None and (tc.base is not None or tc.movetime is not None) and \
            any(spec.protocol == "xboard" for spec in engines):
        raise ValueError("xboard engines cannot combine --nodes with a time limit")
    check_counts(args)
    if args.maxmoves is not None and args.maxmoves < 1:
        raise ValueError("--maxmoves must be 1 or more")
    sprt = None if args.sprt is None else parse_fields(SprtSpec, args.sprt, "--sprt")
    if sprt is not None and len(engines) != 2:
        raise ValueError("--sprt needs exactly two engines")

    rules = Rules(tc=tc, margin=args.timemargin / 1000.0, stall_timeout=args.timeout,
                  draw=None if args.draw is None else parse_fields(DrawRule, args.draw, "--draw"),
                  resign=None if args.resign is None else parse_fields(ResignRule, args.resign, "--resign"),
                  tablebase=TablebaseAdjudicator(args.tb) if args.tb else None, maxmoves=args.maxmoves)

    openings = load_openings(args.openings) if args.openings else [chess.Board()]
    journal = Journal(args.resume) if args.resume else None
    if args.order == "random":
        openings = list(openings)
        random.Random(match_seed(args, journal)).shuffle(openings)
    games = args.games + args.games % 2
    if journal is not None:
        journal.check(fingerprint(args, engines, rules, sprt, games))
    tasks = schedule(len(engines), games, openings)
    quiet = args.quiet or not console.show_progress     # --quiet or the command line's --no-progress
    return Match(engines, tasks, rules, args.concurrency, sprt, args.pgn, args.event, quiet, journal, args.ray)


def run(args: argparse.Namespace) -> int:
    """Run `pyrope match`; exit code 0, 2 for bad options or an engine that cannot start, 130 on Ctrl-C."""
    # python-chess logs engines' protocol oddities (unexpected output ...) as warnings: with no logging
    # configured they would land on stderr through the progress line.
    logging.getLogger("chess.engine").addHandler(logging.NullHandler())
    logging.getLogger("chess.engine").propagate = False
    return play_command("pyrope match", lambda: build_match(args),
                        lambda match: f"Openings in random order, seed {args.seed}" if args.order == "random" else None)
