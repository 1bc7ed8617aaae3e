"""`pyrope mill`: Mill tools from the command line: bench (the search's node-count signature), db
(endgame databases: build, info, probe, verify) and match (games between players, Elo)."""
from __future__ import annotations

import argparse

from .. import console
from .bench import DEFAULT_DEPTH, POSITIONS, run_bench
from .db import command as db_command
from .match import command as match_command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ("examples:\n"
                     "  pyrope mill bench             depth 9, 16 MB, PVS\n"
                     "  pyrope mill bench 10 --algorithm mtdf --hash 64\n"
                     "  pyrope mill db build --variant nine --classes 3-3,4-3,4-4 --out mill-db\n"
                     "  pyrope mill db probe 'O.@/.../.O./.@..@./.../.../..O b 0 0 0 0 30'\n"
                     "  pyrope mill match --player pyrope --player reference --games 20 --movetime 0.1")
    actions = parser.add_subparsers(dest="mill_command", required=True, metavar="ACTION")
    bench = actions.add_parser(
        "bench", help="search fixed positions; print the node count (the search's signature) and speed",
        description=f"Search {len(POSITIONS)} fixed Mill positions (nine, twelve, lasker, morabaraba; "
                    "placement, moving and flying) to a fixed depth, each with a cleared table, and print "
                    "each best move and node count, then the total time, nodes and speed.")
    bench.add_argument("depth", type=console.positive_int, nargs="?", default=DEFAULT_DEPTH,
                       help="search depth in turns (default %(default)s)")
    bench.add_argument("--hash", type=console.non_negative_int, default=16,
                       help="transposition table in MB (default 16)")
    bench.add_argument("--algorithm", choices=("pvs", "mtdf"), default="pvs", help="root search (default pvs)")
    db_command.add_arguments(actions.add_parser(
        "db", help="endgame databases: build, info, probe, verify",
        description="Mill endgame databases: placement-free classes solved by retrograde analysis."))
    match_command.add_arguments(actions.add_parser(
        "match", help="play Mill between UGI engines and built-in players; report score, Elo, draws by kind",
        description="Play Mill games between players (the first against each of the others), each seeded\n"
                    "random opening twice with colours swapped, and report score, Elo with its 95% interval,\n"
                    "faults, draws by kind and optionally an SPRT."))


def run(args: argparse.Namespace) -> int:
    if args.mill_command == "db":
        return db_command.run(args)
    if args.mill_command == "match":
        return match_command.run(args)
    run_bench(lambda line: print(line, flush=True), args.depth, args.hash, args.algorithm)
    return 0
