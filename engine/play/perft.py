"""Perft: the leaf nodes of the legal move tree, root move by root move (Stockfish's `divide`),
with a progress bar per root move; `pyrope perft` is here too.

The counting itself is C (Board.perft); looping over the root moves in Python costs nothing
measurable and lets a person see how far a count of minutes has got.
"""
from __future__ import annotations

import argparse
import sys
import time

from .. import console
from .._core import STARTING_FEN, Board, FenError

DESCRIPTION = """\
Count the positions DEPTH plies ahead (the leaf nodes of the legal move tree) and print the total,
the time and the speed; --divide lists the count under each root move first, as Stockfish's
`go perft` does. Used to check the move generator and to time it."""

EXAMPLES = """\
examples:
  pyrope perft 6
  pyrope perft 4 --divide --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  pyrope perft 5 --chess960 --fen "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\""""


def divide(board: Board, depth: int) -> list[tuple[str, int]]:
    """[(move, nodes)] for each legal move, in the order Board.perft_divide gives them."""
    board = board.copy()
    result = []
    for move in console.progress(board.legal_moves(), desc=f"perft {depth}", unit="move", leave=False):
        board.push(move)
        result.append((move, board.perft(depth - 1)))
        board.pop()
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION, EXAMPLES
    parser.add_argument("depth", type=console.positive_int, help="plies to look ahead (1 or more)")
    parser.add_argument("--fen", default=STARTING_FEN, help="the position (FEN, X-FEN or Shredder-FEN; "
                                                            "default: the start position)")
    parser.add_argument("--chess960", action="store_true", help="Chess960 castling rules and notation")
    parser.add_argument("--divide", action="store_true", help="print each root move's count (move: nodes)")


def run(args: argparse.Namespace) -> int:
    try:
        board = Board(args.fen, chess960=args.chess960)
    except FenError as error:
        print(f"pyrope perft: bad --fen: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    counts = divide(board, args.depth)
    seconds = time.perf_counter() - start
    nodes = sum(count for _, count in counts)
    if args.divide:
        for move, count in counts:
            print(f"{move}: {count}")
        print()
    print(f"nodes {nodes}")
    print(f"seconds {seconds:.3f}")
    print(f"nps {int(nodes / seconds) if seconds > 0 else 0}")
    return 0
