"""UCI front-end: reads UCI commands, turns them into calls on the session, writes its replies.

It translates text only. Every error is reported as `info string error: ...`; the engine keeps
its previous state and keeps reading. Searches run in the background, so `stop` and `isready`
are answered at once.
"""
from __future__ import annotations

from typing import Callable, Iterable

from .. import __version__
from .._core import BookError, FenError, IllegalMoveError, ParamFileError, TablebaseError
from ..nnue.netfile import NetFileError
from ..book.player import BookPick
from ..play.bench import DEFAULT_DEPTH, run_bench
from ..play.options import CHECK, COMBO, SPIN, STRING, Option, Report
from ..play.result import CurrentMove, Info, SearchResult
from ..play.game import GameSession
from ..play.timeman import Limits
from ..play.wdl import win_draw_loss
from .display import PLAIN, draw_board

ENGINE_NAME = f"Pyrope {__version__}"
ENGINE_AUTHOR = "the Pyrope developers"

GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")
# Beyond these a number means nothing more (and would not fit the C search's integers).
GO_MAXIMA = {"depth": 1000, "mate": 1000, "nodes": 2 ** 62, "movestogo": 10_000}
TIME_MAXIMUM_MS = 2 ** 40
PERFT_MAXIMUM = 12
BENCH_MAXIMUM = 64
GO_FLAGS = ("infinite", "ponder")
EMPTY = ("", "<empty>")     # a string option's value for none


class UciError(ValueError):
    """A command that cannot be carried out; its message goes to the GUI as info string."""


def parse_go(args: list[str], report: Callable[[str], None], aliases: dict[str, str] | None = None) -> Limits:
    """Limits from `go` arguments (`aliases` maps another protocol's words to UCI's). A bad or
    absurd value is reported and made harmless, so that the GUI still gets a prompt, legal bestmove."""
    limits = Limits()
    words = iter(args)
    for word in words:
        field = (aliases or {}).get(word, word)
        if field in GO_NUMBERS:
            text = next(words, "")
            try:
                value = int(text)
            except ValueError:
                report(f"go {word} needs a whole number, not {text!r}; ignored")
                continue
            if field in ("depth", "nodes", "mate", "movetime", "movestogo") and value <= 0:
                report(f"go {word} {value} is not positive; using 1")
                value = 1
            elif value < 0:
                # A clock can run negative when a GUI forgives a small overstep: move at once.
                report(f"go {word} {value} is negative; using 0")
                value = 0
            maximum = GO_MAXIMA.get(field, TIME_MAXIMUM_MS)
            if value > maximum:
                report(f"go {word} {value} is beyond {maximum}; using {maximum}")
                value = maximum
            setattr(limits, field, value)
        elif word in GO_FLAGS:
            setattr(limits, word, True)
        elif word == "searchmoves":
            limits.searchmoves = [move for move in words]
        else:
            report(f"unknown go parameter {word!r}; ignored")
    return limits


def format_info(info: Info, show_wdl: bool = False) -> str:
    if isinstance(info, CurrentMove):
        return f"info depth {info.depth} currmove {info.move} currmovenumber {info.number}"
    score = f"mate {info.score.mate}" if info.score.mate is not None else f"cp {info.score.cp}"
    if info.bound:
        score += f" {info.bound}"
    if show_wdl:
        score += " wdl {} {} {}".format(*win_draw_loss(info.score))
    return (f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
            f"score {score} nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} "
            f"tbhits {info.tbhits} time {info.time_ms} pv {' '.join(info.pv)}")


def book_report(pick: BookPick) -> list[str]:
    """What to tell the GUI about a book move: the illegal entries skipped, then the move."""
    lines = [f"book file {pick.path}: entry {index} ({stored}) is not a legal move here; skipped"
             for index, stored in pick.illegal]
    if pick.move is not None:
        lines.append(f"book move {pick.move} (weight {dict(pick.moves)[pick.move]}, "
                     f"{100 * pick.share(pick.move):.0f}% of {len(pick.moves)} book moves)")
    return lines


def parse_setoption(args: list[str]) -> tuple[str, str]:
    """(name, value) of `setoption name <id> [value <x>]`; both may hold spaces."""
    text = " ".join(args)
    if not text.startswith("name "):
        raise UciError(f"setoption needs 'name <id> [value <x>]', got: {text}")
    name, _, value = text[5:].partition(" value ")
    return name.strip(), value.strip()


def check_value(name: str, value: str) -> bool:
    if value.lower() not in ("true", "false"):
        raise UciError(f"{name} takes true or false, not {value!r}")
    return value.lower() == "true"


def spin_value(option: Option, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise UciError(f"{option.name} takes a whole number, not {value!r}") from None
    if not option.minimum <= number <= option.maximum:
        raise UciError(f"{option.name} must be between {option.minimum} and {option.maximum}, not {number}")
    return number


def option_value(option: Option, text: str) -> object:
    """The value `setoption` gives `option`, of the option's type (a combo's value is the option's
    to check: its rules word the refusal)."""
    if option.kind == SPIN:
        return spin_value(option, text)
    if option.kind == CHECK:
        return check_value(option.name, text)
    if option.kind == STRING:
        return "" if text in EMPTY else text
    return text if option.kind == COMBO else None


def option_line(option: Option, session) -> str:
    """The `option name ...` line `uci` announces."""
    line, default = f"option name {option.name} type {option.kind}", option.announced_default(session)
    if option.kind == SPIN:
        return f"{line} default {default} min {option.minimum} max {option.maximum}"
    if option.kind == CHECK:
        return f"{line} default {str(default).lower()}"
    if option.kind == COMBO:
        return f"{line} default {default} " + " ".join(f"var {choice}" for choice in option.choices)
    if option.kind == STRING:
        return f"{line} default {default or '<empty>'}"
    return line


class UciFrontEnd:
    """UCI for chess. Another game's front-end (mill.uci) overrides the class attributes below and
    the game's parts: checked_limits, send_infos, send_bestmove, describe; the rest --
    reading, options (the session's registry), position, go parsing, isready, stop, perft, bench --
    is shared."""
    go_aliases: dict[str, str] = {}     # other protocols' go words for UCI's
    board_style = PLAIN                 # how `d` draws the board; the command line sets it for a terminal
    # The game's hooks: the errors that bad input raises, and the answer to `go` after the game's end.
    errors: tuple[type[Exception], ...] = (UciError, FenError, IllegalMoveError, ParamFileError, BookError,
                                           TablebaseError, NetFileError)
    null_move = "0000"
    bench_runner = staticmethod(run_bench)
    bench_depth, bench_maximum = DEFAULT_DEPTH, BENCH_MAXIMUM

    def __init__(self, session: GameSession, write: Callable[[str], None]) -> None:
        self.session = session
        self.write = write
        self.commands = {
            "uci": self.uci,
            "debug": lambda args: None,
            "isready": lambda args: self.write("readyok"),
            "register": lambda args: None,
            "ucinewgame": lambda args: self.session.new_game(),
            "setoption": self.setoption,
            "position": self.position,
            "go": self.go,
            "stop": lambda args: self.session.stop(),
            "ponderhit": lambda args: self.session.ponderhit(),
            "d": lambda args: self.write(self.describe()),
            "bench": self.bench,
        }

    def handle(self, line: str) -> bool:
        """Carry out one command line; return False when the engine should quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self.session.finish()
            return False
        handler = self.commands.get(command)
        try:
            if handler is None:
                raise UciError(f"unknown command: {line.strip()}")
            handler(args)
        except self.errors as error:
            self.error(str(error))
        return True

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                return
        self.session.finish()

    def error(self, message: str) -> None:
        self.write(f"info string error: {message}")

    def uci(self, args: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        for option in self.session.options:
            self.write(option_line(option, self.session))
        self.write("uciok")
        for problem in self.session.start_problems():
            self.error(problem)

    def setoption(self, args: list[str]) -> None:
        name, text = parse_setoption(args)
        option = self.session.options.find(name)
        if option is None:
            raise UciError(f"no such option: {name}")
        self.tell(option.apply(self.session, option_value(option, text)))

    def tell(self, report: Report) -> None:
        """What setting an option found: its problems as errors, then its notes."""
        for problem in report.problems:
            self.error(problem)
        for note in report.notes:
            self.write(f"info string {note}")

    def position(self, args: list[str]) -> None:
        moves: list[str] = []
        if "moves" in args:
            split = args.index("moves")
            args, moves = args[:split], args[split + 1:]
        if args == ["startpos"]:
            fen = None
        elif args[:1] == ["fen"] and len(args) > 1:
            fen = " ".join(args[1:])
        else:
            raise UciError("position needs 'startpos' or 'fen <FEN>', optionally followed by 'moves ...'")
        self.session.set_position(fen, moves)

    def go(self, args: list[str]) -> None:
        if args[:1] == ["perft"]:
            self.perft(args[1:])
            return
        limits = self.checked_limits(parse_go(args, self.error, self.go_aliases))
        outcome = self.session.board.outcome()
        if not self.session.board.has_legal_moves():
            self.write(f"info string no legal moves: {outcome[1]}, {outcome[0]}")
            self.write(f"bestmove {self.null_move}")
            return
        self.session.search(limits, self.send_infos, self.send_bestmove)

    def checked_limits(self, limits: Limits) -> Limits:
        """The game's hook: the limits this game can search with (searchmoves must be legal)."""
        for move in limits.searchmoves:
            self.session.board.move_code(move)      # raises IllegalMoveError naming the move
        return limits

    def send_infos(self, infos: list[Info]) -> None:
        for info in infos:
            self.write(format_info(info, self.session.show_wdl))

    def send_bestmove(self, result: SearchResult) -> None:
        if result.book is not None:
            for line in book_report(result.book):
                self.write(f"info string {line}")
        for fault in result.table_faults:
            self.error(f"{fault}; playing on without that table")
        ponder = f" ponder {result.ponder}" if result.ponder else ""
        self.write(f"bestmove {result.move}{ponder}")

    def perft(self, args: list[str]) -> None:
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= PERFT_MAXIMUM:
            raise UciError(f"go perft needs a depth from 1 to {PERFT_MAXIMUM}")
        total = 0
        for move, nodes in self.session.perft_divide(int(args[0])):
            self.write(f"{move}: {nodes}")
            total += nodes
        self.write("")
        self.write(f"Nodes searched: {total}")
        self.write("")

    def bench(self, args: list[str]) -> None:
        maximum = self.bench_maximum
        if len(args) > 1 or (args and (not args[0].isdigit() or not 1 <= int(args[0]) <= maximum)):
            raise UciError(f"bench takes an optional depth from 1 to {maximum}")
        self.session.finish()
        self.bench_runner(self.write, int(args[0]) if args else self.bench_depth)

    def describe(self) -> str:
        board = self.session.board
        return f"{draw_board(board, self.board_style)}\n\nFen: {board.fen()}\nKey: {board.key:016X}"
