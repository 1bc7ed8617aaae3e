"""The `pyrope` command: with no arguments, speak UCI on stdin/stdout; subcommands for tools."""
from __future__ import annotations

import argparse
import sys
import time

from ._core import STARTING_FEN, Board, FenError
from .session import Session
from .uci import UciFrontEnd


def write_line(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def run_protocol() -> int:
    UciFrontEnd(Session(), write_line).run(sys.stdin)
    return 0


def run_perft(args: argparse.Namespace) -> int:
    try:
        board = Board(args.fen, chess960=args.chess960)
    except FenError as error:
        print(f"pyrope perft: bad --fen: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    nodes = board.perft(args.depth)
    seconds = time.perf_counter() - start
    print(f"nodes {nodes}")
    print(f"seconds {seconds:.3f}")
    print(f"nps {int(nodes / seconds) if seconds > 0 else 0}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pyrope", description="Pyrope chess engine. Without a subcommand it speaks UCI on stdin/stdout.")
    commands = parser.add_subparsers(dest="command")
    perft = commands.add_parser("perft", help="count the leaf nodes of the legal move tree")
    perft.add_argument("depth", type=int, help="plies to search (1 or more)")
    perft.add_argument("--fen", default=STARTING_FEN, help="position (FEN, X-FEN or Shredder-FEN)")
    perft.add_argument("--chess960", action="store_true", help="Chess960 castling notation")
    args = parser.parse_args(argv)
    if args.command == "perft":
        if args.depth < 1:
            parser.error("perft depth must be 1 or more")
        return run_perft(args)
    return run_protocol()


if __name__ == "__main__":
    sys.exit(main())
