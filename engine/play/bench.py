"""`bench`: search a fixed set of positions to a fixed depth and report nodes and speed.

With one thread the node count is deterministic: it is the search's signature, and it changes
only when the search's behaviour changes. Positions after Stockfish's bench set.
"""
from __future__ import annotations

import argparse
import time
from typing import Callable

from .. import console
from .._core import Board, Search
from ..nnue import loader, netfile
from .options import HASH, THREADS

DEFAULT_DEPTH = 11

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "5rk1/q6p/2p3bR/1pPp1rP1/1P1Pp3/P3B1Q1/1K3P2/R7 w - - 93 90",
    "4rrk1/1p1nq3/p7/2p1P1pp/3P2bp/3Q1Bn1/PPPB4/1K2R1NR w - - 40 21",
    "r3k2r/3nnpbp/q2pp1p1/p7/Pp1PPPP1/4BNN1/1P5P/R2Q1RK1 w kq - 0 16",
    "3Qb1k1/1r2ppb1/pN1n2q1/Pp1Pp1Pr/4P2p/4BP2/4B1R1/1R5K b - - 11 40",
    "4k3/3q1r2/1N2r1b1/3ppN2/2nPP3/1B1R2n1/2R1Q3/3K4 w - - 5 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "8/R7/2q5/8/6k1/8/1P5p/K6R w - - 0 124",
    "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1",
    "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
]


def run_bench(write: Callable[[str], None], depth: int = DEFAULT_DEPTH, threads: int = 1,
              hash_mb: int = 16) -> int:
    """Search every position to `depth` with a fresh hash; print and return the node total. A
    progress bar on stderr counts the positions when a person watches."""
    search = Search(threads=threads, hash_mb=hash_mb)
    write = console.above_progress(write)
    nodes = 0
    elapsed = 0.0
    for number, fen in enumerate(console.progress(POSITIONS, desc="bench", unit="position", leave=False), 1):
        board = Board(fen)
        search.clear()      # each position starts cold, so the count does not depend on the order
        start = time.perf_counter()     # the clock runs only while searching
        result = console.interruptible(lambda: search.run(board, depth=depth), search.stop)
        elapsed += time.perf_counter() - start
        write(f"Position {number}/{len(POSITIONS)}: {fen}  bestmove {result['move']}  nodes {result['nodes']}")
        nodes += result["nodes"]
    write_totals(write, nodes, elapsed)
    return nodes


def write_totals(write: Callable[[str], None], nodes: int, elapsed: float) -> None:
    """The closing lines of a bench (chess and Mill alike): total time, nodes and speed."""
    write("")
    write("===========================")
    write(f"Total time (ms) : {int(elapsed * 1000)}")
    write(f"Nodes searched  : {nodes}")
    write(f"Nodes/second    : {int(nodes / elapsed) if elapsed > 0 else 0}")


DESCRIPTION = f"""\
Search {len(POSITIONS)} fixed positions to a fixed depth, each with a cleared hash, and print each
position's best move and nodes, then the total time, nodes and speed. With one thread the node
count is the search's signature: it changes only when the search's behaviour or the evaluation
changes. It evaluates with the shipped net, as the engine does, or with --handcrafted."""

EXAMPLES = """\
examples:
  pyrope bench                 depth 11, one thread, 16 MB, the shipped net
  pyrope bench --handcrafted   the same with the hand-crafted evaluation
  pyrope bench --net my.nnue   the same with another net
  pyrope bench 13 --threads 2 --hash 64"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION, EXAMPLES
    parser.add_argument("depth", type=console.positive_int, nargs="?", default=DEFAULT_DEPTH,
                        help="search depth (default %(default)s)")
    # The engine's own ranges and defaults (the option registry's Threads and Hash).
    parser.add_argument("--threads", type=console.int_range(THREADS.minimum, THREADS.maximum), default=THREADS.default,
                        help=f"search threads, {THREADS.minimum}-{THREADS.maximum} (default %(default)s)")
    parser.add_argument("--hash", type=console.int_range(HASH.minimum, HASH.maximum), default=HASH.default,
                        help=f"hash table in MB, {HASH.minimum}-{HASH.maximum} (default %(default)s)")
    evaluation = parser.add_mutually_exclusive_group()
    evaluation.add_argument("--handcrafted", action="store_true",
                            help="evaluate with the hand-crafted evaluation instead of the shipped net")
    evaluation.add_argument("--net", metavar="FILE", help="evaluate with this net file (as NNUEFile loads) "
                            "instead of the shipped net: its speed, its signature")


def run(args: argparse.Namespace) -> int:
    net = None if args.handcrafted else args.net or str(loader.DEFAULT_NET)
    try:
        loader.load(net)
    except netfile.NetFileError as error:
        raise console.InputError(str(error)) from None
    print(f"Evaluation: {net or 'hand-crafted'}", flush=True)
    run_bench(lambda line: print(line, flush=True), args.depth, args.threads, args.hash)
    return 0
