"""The `pyrope` command: with no subcommand, talk on stdin/stdout in the protocol the first line
names (uci, xboard, ugi) or, for anything else, with a person at a terminal; subcommands for tools.
`--game mill` plays Mill instead of chess (ugi, Sanmill's uci dialect, or the terminal).

This file is the entry: protocol auto-detection, the subcommand table and the top-level handler
that turns any error into one sentence on stderr (a traceback only with --debug).
"""
from __future__ import annotations

import argparse
import importlib
import itertools
import os
import sys
import threading

from . import __version__, console
from ._core import BookError, FenError, ParamFileError, TablebaseError
from .nnue.netfile import NetFileError
from .play.session import Session
from .protocol.display import BoardStyle
from .protocol.uci import ENGINE_NAME, UciFrontEnd
from .protocol.ugi import UgiFrontEnd
from .protocol.xboard import XboardFrontEnd

# The first word a GUI sends names its protocol; the chosen front-end handles that line too.
# UCI's own state commands also choose UCI, for scripts that skip the handshake (Stockfish
# allows that, and a person would not start with them).
PROTOCOLS = {"uci": UciFrontEnd, "position": UciFrontEnd, "setoption": UciFrontEnd,
             "ucinewgame": UciFrontEnd, "ugi": UgiFrontEnd, "xboard": XboardFrontEnd}
# Each game's terminal front-end (module, class), imported only for a person: chess's needs
# python-chess (SAN), which GUIs should not wait for.
TERMINALS = {"chess": (".protocol.terminal", "TerminalFrontEnd"), "mill": (".mill.terminal", "MillTerminalFrontEnd")}
GAMES = tuple(TERMINALS)

# The exit codes of every command (EPILOG tells them): 0 done, 1 the work failed, 2 bad input or
# usage, 130 interrupted. A command returns 0, or 1 for faults its work found; argparse exits 2 by
# itself, and main() turns an error into its code: KeyboardInterrupt 130, BAD_INPUT 2, any other 1.
# Bad input is InputError, which the commands raise where they read what they were given, and what
# the core and the net loader raise for a FEN, a book, a table, a parameter or a net file.
BAD_INPUT = (console.InputError, FenError, BookError, TablebaseError, ParamFileError, NetFileError)

# The subcommands: name -> (the module with add_arguments(parser) and run(args) -> exit code, the
# line `pyrope --help` shows). A module is imported only when its command is given: an engine a GUI
# starts must answer its first command quickly. A new command is one more line here.
SUBCOMMANDS = {
    "perft": (".play.perft", "count the positions N plies ahead, per root move (move generator check)"),
    "bench": (".play.bench", "search fixed positions; print the node count (the search's signature) and speed"),
    "match": (".match", "play engines against each other (UCI or xboard) and report Elo"),
    "analyse": (".analysis.command", "review a PGN game: each move's cost, mistakes and blunders marked, annotated PGN, graph"),
    "serve": (".web.command", "web pages: play chess, Mill and Kriegspiel against Pyrope, review a game (web extra)"),
    "book": (".book.command", "opening books: build one from PGN, show a position's moves, merge two"),
    "tb": (".dtm.command", "Pyrope's endgame tables (distance to mate): generate, verify, info, probe"),
    "mill": (".mill.command", "Mill (nine and twelve men's morris): bench, endgame databases, matches"),
    "kriegspiel": (".kriegspiel.command", "Kriegspiel (ICC wild 16): play at the terminal, matches between players"),
    "datagen": (".selfplay.datagen", "self-play games at a fixed node budget, written as training positions"),
    "train": (".selfplay.train", "train the NNUE on datagen's positions (PyTorch, CPU) and write it quantised"),
    "evolve": (".selfplay.evolve.run", "evolve the evaluation's weights in gene pools of self-play games"),
    "tune": (".selfplay.tune.command", "tune the evaluation's weights by SPSA over self-play game pairs"),
}

DESCRIPTION = """\
Pyrope, a chess engine. Without a command it reads stdin: a first line of uci, xboard or ugi
selects that protocol (what GUIs send), kriegspiel the Kriegspiel line protocol, anything else
starts the terminal mode for a person (type help there). Point a GUI at the plain `pyrope` command."""

EPILOG = """\
examples:
  pyrope                       play at the terminal, or talk to a GUI
  pyrope --ascii               the same, with the board drawn in letters
  pyrope --game mill           play Mill (nine men's morris) at the terminal, or over ugi or uci
  pyrope perft 6 --divide
  pyrope bench
  pyrope match --engine cmd=pyrope --engine cmd=sunfish-uci --tc 10+0.1 --games 20
  pyrope book build games.pgn -o my.bin
  pyrope analyse game.pgn -o annotated.pgn --plot graph.png
  pyrope serve --open          play and review games in the browser
  pyrope tb generate KRPvK KPvKP --out ~/pyrope-tables
`pyrope COMMAND --help` describes each command. Exit codes, the same for every command: 0 done
(in engine mode also after quit, the end of input, SIGINT or SIGTERM); 1 the work failed (a
worker failed, verify found faults, an output could not be written); 2 bad input or usage (a
usage error, an option value that cannot be used, an input file that is missing, unreadable or
malformed, a --resume journal or run directory of another job); 130 interrupted."""

_output_lock = threading.Lock()


def write_line(text: str) -> None:
    # The reader and the search thread both write; a line must never be interleaved.
    with _output_lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def game_front_ends(game: str) -> tuple[dict, type]:
    """The protocols a first line may name and the session class, for `game`."""
    if game == "mill":
        from .mill.session import MillSession
        from .mill.uci import PROTOCOLS as MILL_PROTOCOLS
        return MILL_PROTOCOLS, MillSession
    return PROTOCOLS, Session


def run_protocol(ascii_only: bool, game: str = "chess") -> int:
    """Talk on stdin/stdout until `quit`, the end of input, SIGINT or SIGTERM; each of these ends
    the engine the same way (the `quit` command: searches stopped, threads joined) with exit code 0."""
    # A GUI may send any bytes; a line that is not UTF-8 must become an error message, not a crash.
    sys.stdin.reconfigure(errors="replace")
    sys.stdout.reconfigure(errors="replace")
    front = None
    protocols, session = game_front_ends(game)
    try:
        if sys.stdin.isatty():
            offer = "play here, or uci, xboard or ugi" if game == "chess" else "play Mill here, or ugi or uci"
            write_line(f"{ENGINE_NAME}: type help to {offer} to speak that protocol.")
        first = next((line for line in sys.stdin if line.strip()), None)
        if first is None:
            return 0
        if first.split()[0] == "kriegspiel":       # a Kriegspiel player: no chess session behind it
            from .kriegspiel.protocol import KriegspielFrontEnd
            front = KriegspielFrontEnd(write_line)
        else:
            front_end = protocols.get(first.split()[0])
            if front_end is None:
                module, name = TERMINALS[game]
                front_end = getattr(importlib.import_module(module, __package__), name)
            front = front_end(session(), write_line)
        # Symbols and colours for a person; off a terminal `d` stays exactly as GUIs know it.
        front.board_style = BoardStyle.for_stream(sys.stdout, ascii_only)
        # Commands are read here on the main thread; searches run on the manager's thread.
        front.run(itertools.chain([first], sys.stdin))
    except KeyboardInterrupt:
        pass        # Ctrl-C, or a GUI's SIGINT/SIGTERM (console.interrupt_on_sigterm): end as `quit` does
    finally:
        console.ignore_signals()
        if front is not None:
            front.handle("quit")    # no search left running, no thread left behind
    return 0


class ShowVersion(argparse.Action):
    """--version, from the package metadata. Read only when asked: importing importlib.metadata
    and reading the metadata would add some 40 ms to every start, and GUIs time the handshake."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib import metadata
        try:
            number = metadata.version("pyrope")
        except metadata.PackageNotFoundError:      # a built executable carries no package metadata
            number = __version__
        print(f"pyrope {number}")
        parser.exit()


def make_parser(command: str | None) -> argparse.ArgumentParser:
    """The whole command line; only `command`'s module is imported to add its arguments."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog="pyrope", description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    parser.add_argument("--version", action=ShowVersion)
    parser.add_argument("--ascii", action="store_true", help="draw the board in letters, not chess symbols")
    parser.add_argument("--game", choices=GAMES, default="chess",
                        help="the game to play without a command: chess (default) or mill")
    add_common_options(parser, False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (module, summary) in SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=summary, description=summary, formatter_class=formatter)
        # SUPPRESS: an option not repeated after the command keeps the value given before it.
        add_common_options(sub, argparse.SUPPRESS)
        if name == command:
            tool = importlib.import_module(module, __package__)
            tool.add_arguments(sub)
            sub.set_defaults(run=tool.run)
    return parser


def add_common_options(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--debug", action="store_true", default=default,
                        help="show the Python traceback of an error instead of one sentence")
    parser.add_argument("--no-progress", action="store_true", default=default,
                        help="no progress bars (they appear on stderr only when it is a terminal)")


def main(argv: list[str] | None = None) -> int:
    """The command line. Without `argv` it is the process's own (sys.argv: the `pyrope` script,
    python -m pyrope, the executable), and SIGINT and SIGTERM stay ignored after it returns: the
    process is ending. Given `argv` (a caller in this process: a test, a tool), it gives the caller
    back the SIGINT and SIGTERM handlers it found, so that Ctrl-C still reaches the caller and the
    processes it starts later do not inherit ignored signals."""
    callers_handlers = None if argv is None else console.signal_handlers()
    argv = sys.argv[1:] if argv is None else argv
    # The command is the first word that is not an option (no option before it takes a value).
    command = next((word for word in argv if not word.startswith("-")), None)
    args = make_parser(command).parse_args(argv)
    console.show_progress = not args.no_progress
    console.interrupt_on_sigterm()
    name = "pyrope" if args.command is None else f"pyrope {args.command}"
    try:
        if args.command is None:
            return run_protocol(args.ascii, args.game)
        return args.run(args)
    except KeyboardInterrupt:
        console.ignore_signals()
        print(f"{name}: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output has gone (`pyrope perft 6 --divide | head`): nothing to say to
        # it; point stdout at nothing so that Python's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as error:
        if args.debug:
            raise
        if isinstance(error, BAD_INPUT):        # the sentence names what to fix; where in the code is no help
            print(f"{name}: {console.sentence(error)}", file=sys.stderr)
            return 2
        console.report_error(name, error)
        return 1
    finally:
        if callers_handlers is None:
            # The process is ending: a signal now must not raise into Python's shutdown (atexit
            # handlers would print a traceback).
            console.ignore_signals()
        else:
            console.restore_signals(callers_handlers)


if __name__ == "__main__":
    sys.exit(main())
