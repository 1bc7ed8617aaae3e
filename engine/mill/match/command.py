"""`pyrope mill match`: Mill games between players, on the match runner `pyrope match` uses.

Players are UGI engines (`cmd=...`, Pyrope's own as `pyrope --game mill` speaks it) and built-in
ones (players.py). The games (game.py) start from seeded random openings, or from the positions of
a file (--positions), each played twice with colours swapped; the report is `pyrope match`'s --
score, Elo with its 95% interval, faults, terminations, the SPRT -- and the draws by kind. `--resume FILE` journals the games as `pyrope
match` does; a journal begun with other players, rules, limits, openings or seed is refused.
"""
from __future__ import annotations

import argparse
import dataclasses
from typing import List, Optional

from ... import console
from ...journal import Journal
from ...match.clock import TimeControl
from ...match.options import (SprtSpec, check_counts, distinct_names, match_seed, parse_fields,
                                       split_key_value, time_control)
from ...match.runner import Match, play_command, schedule
from ..rules import VARIANTS, MillRules
from .game import MillGame, random_openings, read_positions
from .players import (FROM_THE_START, PlayerSpec, check_mcts_rules, check_perfect, openspiel,
                      parse_player_spec)

COMMAND = "pyrope mill match"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of `pyrope mill match` to `parser`."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = ("players (--player, give two or more; the first plays each of the others):\n"
                     "  cmd=COMMAND [name=N] [dir=D] [option.NAME=VALUE ...]   a UGI engine\n"
                     "  pyrope [name=N] [option.NAME=VALUE ...]   Pyrope's engine in this process (its UGI options)\n"
                     "  random [seed=N]                  a uniformly random legal turn\n"
                     "  reference [depth=2] [seed=N]     a depth-2 search on the Python rules reference\n"
                     "  mcts [simulations=10000] [seed=N]   OpenSpiel's MCTS (pip install 'pyrope[openspiel]')\n"
                     "  perfect [dir=DIR] [seed=N]       the endgame databases' perfect turn (positions they hold)\n"
                     "examples:\n"
                     "  pyrope mill match --player pyrope --player random --games 20 --nodes 20000\n"
                     "  pyrope mill match --player pyrope name=mtdf option.Algorithm=mtdf --player pyrope name=pvs \\\n"
                     "      --movetime 0.1 --games 200 --concurrency 2 --resume mtdf-pvs.jsonl --record mtdf-pvs.txt\n"
                     "  pyrope mill match --player cmd='pyrope --game mill' --player reference --variant twelve "
                     "--movetime 0.05")
    players = parser.add_argument_group("players and rules")
    players.add_argument("--player", "--engine", dest="player", action="append", nargs="+", metavar="TOKEN",
                         default=[], help="a player: KIND or cmd=COMMAND, then KEY=VALUE fields (see below)")
    players.add_argument("--variant", default="nine", choices=tuple(VARIANTS), help="rule preset (default nine)")
    players.add_argument("--rule", nargs="+", action="extend", metavar="NAME=VALUE", default=[],
                         help="a rule option under Sanmill's name over the preset, e.g. NMoveRule=50 MayFly=false")
    games = parser.add_argument_group("games")
    games.add_argument("--games", type=int,
                       help="games per pairing, rounded up to an even number (default 2; with --positions, "
                            "two for each position)")
    games.add_argument("--openings", metavar="MIN-MAX",
                       help="random placements a side before the players take over: MIN-MAX or N "
                            "(default 2-4; 0: every game from the empty board)")
    games.add_argument("--positions", metavar="FILE",
                       help="start from these positions instead (Mill FENs, one a line), each played twice")
    games.add_argument("--seed", type=int,
                       help="seed of the openings and the built-in players (default: a random one, reported)")
    games.add_argument("--concurrency", type=int, default=1, help="games played at the same time (default 1)")
    games.add_argument("--maxturns", type=int, metavar="N",
                       help="adjudicate a draw after N turns in all, the opening's included")
    limits = parser.add_argument_group("limits of the engines (cmd= and pyrope players; one or more)")
    limits.add_argument("--tc", help="clock: BASE+INC, MOVES/BASE or MOVES/BASE+INC in seconds (e.g. 10+0.1)")
    limits.add_argument("--movetime", type=float, metavar="S", help="fixed seconds per turn")
    limits.add_argument("--depth", type=int, help="search depth per turn")
    limits.add_argument("--nodes", type=int, help="nodes per turn")
    limits.add_argument("--timemargin", type=int, default=100, metavar="MS",
                        help="milliseconds an engine may overstep its clock or movetime (default 100)")
    limits.add_argument("--timeout", type=float, default=60.0, metavar="S",
                        help="without a clock or movetime: an engine that has not moved after S seconds loses "
                             "(default 60)")
    output = parser.add_argument_group("output")
    output.add_argument("--sprt", nargs="*", metavar="KEY=VALUE",
                        help="stop early by SPRT (two players): elo0=0 elo1=10 alpha=0.05 beta=0.05 (the defaults)")
    output.add_argument("--record", "--pgn", dest="record", metavar="FILE",
                        help="append each game's record (tags and turns in Pyrope's Mill notation) to FILE")
    output.add_argument("--resume", metavar="FILE",
                        help="journal each finished game in FILE; the same command run again plays only the games "
                             "it lacks (a larger --games extends a match of two players) and reports them all")
    output.add_argument("--event", default="Pyrope Mill match", help="the records' Event tag")
    output.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def parse_openings(text: str) -> tuple:
    """'2-4' -> (2, 4), '3' -> (3, 3); ValueError for anything else."""
    low, _, high = text.strip().partition("-")
    try:
        bounds = (int(low), int(high or low))
    except ValueError:
        raise ValueError(f"--openings: expected MIN-MAX or N placements a side, got {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise ValueError(f"--openings: expected 0 <= MIN <= MAX, got {text!r}")
    return bounds


def parse_rules(variant: str, tokens: List[str]) -> MillRules:
    options = dict(split_key_value(token, "--rule") for token in tokens)
    try:
        return MillRules.from_options(variant, **options)
    except ValueError as error:
        raise ValueError(f"--rule: {error}") from None


def fingerprint(args: argparse.Namespace, players: List[PlayerSpec], rules: MillRules, tc: TimeControl,
                openings: list, sprt: Optional[SprtSpec], games: int) -> dict:
    """What the games depend on, for the journal (the game count only with more than two players:
    with two, more games add openings and keep the first ones). openings: [MIN, MAX] random
    placements, or the FENs of --positions."""
    return {"game": "mill", "player list": [dataclasses.asdict(spec) for spec in players],
            "rule set": dataclasses.asdict(rules), "time control": dataclasses.asdict(tc),
            "timemargin": args.timemargin, "timeout": args.timeout, "maxturns": args.maxturns,
            "openings": openings, "seed": args.seed,
            "sprt": None if sprt is None else dataclasses.asdict(sprt),
            "game count": games if len(players) > 2 else None}


def build_match(args: argparse.Namespace) -> Match:
    """Check the options and build the match; ValueError says what was wrong."""
    if len(args.player) < 2:
        raise ValueError("give at least two players (--player ... twice)")
    players = [parse_player_spec(tokens) for tokens in args.player]
    distinct_names(players)
    rules = parse_rules(args.variant, args.rule)
    if any(spec.kind == "mcts" for spec in players):
        openspiel()
        check_mcts_rules(rules)
    tc = time_control(args)
    if tc == TimeControl() and any(spec.engine for spec in players):
        raise ValueError("give the engines a limit: --tc, --movetime, --depth or --nodes")
    if args.maxturns is not None and args.maxturns < 1:
        raise ValueError("--maxturns must be 1 or more")
    if args.positions is not None and args.openings is not None:
        raise ValueError("give --openings or --positions, not both")
    if args.positions is not None:
        starts = [spec.kind for spec in players if spec.kind in FROM_THE_START]
        if starts:
            raise ValueError(f"the {starts[0]} player plays from the empty board only, not from --positions")
        openings = read_positions(args.positions, rules)
    else:
        openings = parse_openings(args.openings or "2-4")
    for spec in players:
        if spec.kind == "perfect":
            check_perfect(spec, rules, openings if args.positions is not None else None)
    if args.games is None:
        args.games = 2 * len(openings) if args.positions is not None else 2
    check_counts(args)
    sprt = None if args.sprt is None else parse_fields(SprtSpec, args.sprt, "--sprt")
    if sprt is not None and len(players) != 2:
        raise ValueError("--sprt needs exactly two players")

    journal = Journal(args.resume) if args.resume else None
    match_seed(args, journal)
    games = args.games + args.games % 2
    if journal is not None:
        described = [o.fen for o in openings] if args.positions is not None else list(openings)
        journal.check(fingerprint(args, players, rules, tc, described, sprt, games))
    starts = openings if args.positions is not None else random_openings(rules, games // 2, *openings, args.seed)
    tasks = schedule(len(players), games, starts)
    game = MillGame(rules, args.variant, tc, args.timemargin / 1000.0, args.timeout, args.maxturns, args.event,
                    args.seed)
    quiet = args.quiet or not console.show_progress
    return Match(players, tasks, game, args.concurrency, sprt, args.record, quiet, journal)


def run(args: argparse.Namespace) -> int:
    """Run `pyrope mill match`; exit code 0, 2 for bad options or an engine that cannot start, 130 on Ctrl-C."""
    def announce(match: Match) -> str:
        if args.positions is not None:
            return f"Positions: {len({task.opening for task in match.tasks})} from {args.positions}, seed {args.seed}"
        low, high = parse_openings(args.openings or "2-4")
        return (f"Openings: {low}-{high} random placements a side, seed {args.seed}" if high else
                f"Openings: the empty board; seed {args.seed}")
    return play_command(COMMAND, lambda: build_match(args), announce)
