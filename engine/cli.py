"""The `pyrope` command: with no arguments, talk on stdin/stdout in the protocol the first line
names (uci, xboard, ugi) or, for anything else, with a person at a terminal; subcommands for tools."""
from __future__ import annotations

import argparse
import itertools
import sys
import threading
import time

from ._core import STARTING_FEN, Board, FenError
from .play.bench import DEFAULT_DEPTH, run_bench
from .play.session import Session
from .protocol.uci import ENGINE_NAME, UciFrontEnd
from .protocol.ugi import UgiFrontEnd
from .protocol.xboard import XboardFrontEnd

# The first word a GUI sends names its protocol; the chosen front-end handles that line too.
# UCI's own state commands also choose UCI, for scripts that skip the handshake (Stockfish
# allows that, and a person would not start with them).
PROTOCOLS = {"uci": UciFrontEnd, "position": UciFrontEnd, "setoption": UciFrontEnd,
             "ucinewgame": UciFrontEnd, "ugi": UgiFrontEnd, "xboard": XboardFrontEnd}


_output_lock = threading.Lock()


def write_line(text: str) -> None:
    # The reader and the search thread both write; a line must never be interleaved.
    with _output_lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def run_protocol() -> int:
    # A GUI may send any bytes; a line that is not UTF-8 must become an error message, not a crash.
    sys.stdin.reconfigure(errors="replace")
    sys.stdout.reconfigure(errors="replace")
    if sys.stdin.isatty():
        write_line(f"{ENGINE_NAME}: type help to play here, or uci, xboard or ugi to speak that protocol.")
    first = next((line for line in sys.stdin if line.strip()), None)
    if first is None:
        return 0
    front_end = PROTOCOLS.get(first.split()[0])
    if front_end is None:
        # Imported only for people: it needs python-chess (SAN), which GUIs should not wait for.
        from .protocol.terminal import TerminalFrontEnd
        front_end = TerminalFrontEnd
    # Commands are read here on the main thread; searches run on the manager's thread.
    front_end(Session(), write_line).run(itertools.chain([first], sys.stdin))
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
        prog="pyrope", description="Pyrope chess engine. Without a subcommand it reads stdin: a first line of uci, "
                                   "xboard or ugi selects that protocol, anything else starts the "
                                   "terminal mode for a person (type help there).")
    commands = parser.add_subparsers(dest="command")
    perft = commands.add_parser("perft", help="count the leaf nodes of the legal move tree")
    perft.add_argument("depth", type=int, help="plies to search (1 or more)")
    perft.add_argument("--fen", default=STARTING_FEN, help="position (FEN, X-FEN or Shredder-FEN)")
    perft.add_argument("--chess960", action="store_true", help="Chess960 castling notation")
    bench = commands.add_parser("bench", help="search fixed positions; print the node count and speed")
    bench.add_argument("depth", type=int, nargs="?", default=DEFAULT_DEPTH, help="search depth")
    bench.add_argument("--threads", type=int, default=1, help="search threads")
    bench.add_argument("--hash", type=int, default=16, help="hash table size in MB")
    match_parser = commands.add_parser(
        "match", help="play engines against each other (UCI or xboard) and report Elo",
        description="Play a match or gauntlet between UCI/xboard engines, with openings, clocks, "
                    "adjudication, PGN output, Elo with a 95%% interval and an optional SPRT.")
    book_parser = commands.add_parser(
        "book", help="opening books: build one from PGN, show a position's moves, merge two",
        description="Polyglot opening books: build from PGN games, show a position's book moves, merge.")
    tb_parser = commands.add_parser(
        "tb", help="Pyrope's endgame tables (distance to mate): generate, verify, info, probe",
        description="Make Pyrope's own endgame tables by retrograde analysis, check them against "
                    "Syzygy, list them, or probe a position.")
    argv = sys.argv[1:] if argv is None else argv
    # The match runner, the book and table tools (python-chess, asyncio, tqdm) load only when asked for:
    # an engine started by a GUI must answer its first command quickly.
    if argv[:1] == ["match"]:
        from .selfplay import match as tool
        tool.add_arguments(match_parser)
    elif argv[:1] == ["book"]:
        from .book import command as tool
        tool.add_arguments(book_parser)
    elif argv[:1] == ["tb"]:
        from .dtm import command as tool
        tool.add_arguments(tb_parser)
    args = parser.parse_args(argv)
    if args.command in ("match", "book", "tb"):
        return tool.run(args)
    if args.command == "bench":
        if args.depth < 1 or args.threads < 1 or args.hash < 1:
            parser.error("depth, threads and hash must be 1 or more")
        run_bench(write_line, args.depth, args.threads, args.hash)
        return 0
    if args.command == "perft":
        if args.depth < 1:
            parser.error("perft depth must be 1 or more")
        return run_perft(args)
    try:
        return run_protocol()
    except KeyboardInterrupt:   # Ctrl-C at the terminal: leave without a traceback
        return 130


if __name__ == "__main__":
    sys.exit(main())
