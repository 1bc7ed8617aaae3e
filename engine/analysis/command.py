"""`pyrope analyse GAME.pgn`: review every move of a game (analysis.review), print the marked moves,
write the annotated PGN and the graph of the expected score."""
from __future__ import annotations

import argparse
from pathlib import Path

from .. import console
from ..pgnfile import read_games
from .annotate import annotated, plot, summary, write_pgn
from .review import Reviewer, checked_game

DEFAULT_TIME_MS = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Review a game as lichess's analysis board does: Pyrope searches every position for a fixed "
        "time, a move costs the fall of the mover's expected score, and a cost of 0.05, 0.10 or 0.15 "
        "of a point or more marks it an inaccuracy (?!), a mistake (?) or a blunder (??), with the "
        "move the search preferred. Prints the marked moves; writes the annotated PGN and a graph.")
    parser.epilog = ("examples:\n"
                     "  pyrope analyse game.pgn\n"
                     "  pyrope analyse games.pgn --game 3 --time 2000 -o annotated.pgn --plot graph.png")
    parser.add_argument("pgn", help="the PGN file")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--time", type=console.positive_int, metavar="MS",
                       help=f"search time a position in milliseconds (default {DEFAULT_TIME_MS})")
    limit.add_argument("--nodes", type=console.positive_int,
                       help="a node count a position instead of a time: with one thread, the same review every run")
    parser.add_argument("--game", type=console.positive_int, metavar="N",
                        help="analyse only the file's N-th game (default: every game)")
    parser.add_argument("-o", "--output", type=Path, help="write the annotated game(s) here as PGN")
    parser.add_argument("--plot", type=Path, metavar="IMAGE",
                        help="draw White's expected score over the game into IMAGE (.png, .svg, .pdf; one game)")
    parser.add_argument("--threads", type=console.positive_int, default=1, help="search threads (default 1)")
    parser.add_argument("--hash", type=console.positive_int, default=64, metavar="MB",
                        help="transposition table size (default 64)")


def chosen_games(path: str, number: int | None) -> list:
    """The games to review, each checked before any is searched: bad input ends the command at once."""
    games = []
    for index, game in enumerate(read_games([path]), start=1):
        if number is None or index == number:
            games.append(checked_game(game, f"{path}, game {index}"))
    if not games:
        where = f"{path} has no game {number}" if number is not None else f"{path}: no PGN game found"
        raise console.InputError(where)
    return games


def run(args: argparse.Namespace) -> int:
    games = chosen_games(args.pgn, args.game)
    if args.plot is not None:
        if len(games) > 1:
            raise console.InputError(f"--plot draws one game and {args.pgn} holds {len(games)}: choose one with --game N")
        console.require(["matplotlib"], "analyse", "--plot")
    reviewer = Reviewer(movetime_ms=0 if args.nodes else args.time or DEFAULT_TIME_MS, nodes=args.nodes or 0,
                        threads=args.threads, hash_mb=args.hash)
    reviews = []
    for number, game in enumerate(games, start=1):
        positions = sum(1 for _ in game.mainline()) + 1
        with console.progress(total=positions, unit=" positions", desc=f"game {number}") as bar:
            review = console.interruptible(lambda: reviewer.review(game, lambda done, total: bar.update(1)),
                                           reviewer.stop)
        reviews.append(review)
        headers = game.headers
        print(f"{headers.get('White', '?')} - {headers.get('Black', '?')} {headers.get('Result', '*')}: "
              f"{len(review.moves)} moves, {review.limit} a position")
        print("\n".join(summary(review)))
    if args.output is not None:
        write_pgn([annotated(review) for review in reviews], args.output)
    if args.plot is not None:
        plot(reviews[0], args.plot)
    return 0
