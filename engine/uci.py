"""UCI front-end: reads UCI commands, drives a Session, writes UCI replies.

It translates text only. Every error is reported as `info string ...` and the engine keeps its
previous state and keeps reading.
"""
from __future__ import annotations

from typing import Callable, Iterable

from . import __version__
from ._core import FenError, IllegalMoveError
from .session import Session

ENGINE_NAME = f"Pyrope {__version__}"
ENGINE_AUTHOR = "the Pyrope developers"


class UciError(ValueError):
    """A command that cannot be carried out; its message goes to the GUI as info string."""


class UciFrontEnd:
    def __init__(self, session: Session, write: Callable[[str], None]) -> None:
        self.session = session
        self.write = write
        self.commands = {
            "uci": self.uci,
            "isready": lambda args: self.write("readyok"),
            "ucinewgame": lambda args: self.session.new_game(),
            "setoption": self.setoption,
            "position": self.position,
            "go": self.go,
            "d": lambda args: self.write(self.describe()),
        }

    def handle(self, line: str) -> bool:
        """Carry out one command line; return False when the engine should quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            return False
        handler = self.commands.get(command)
        try:
            if handler is None:
                raise UciError(f"unknown command: {line.strip()}")
            handler(args)
        except (UciError, FenError, IllegalMoveError) as error:
            self.write(f"info string error: {error}")
        return True

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                break

    def uci(self, args: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        self.write("option name UCI_Chess960 type check default false")
        self.write("uciok")

    def setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            raise UciError(f"setoption needs 'name <id> [value <x>]', got: {text}")
        name, _, value = text[5:].partition(" value ")
        name = name.strip()
        if name.lower() == "uci_chess960":
            if value.strip().lower() not in ("true", "false"):
                raise UciError(f"UCI_Chess960 takes true or false, not {value.strip()!r}")
            self.session.set_chess960(value.strip().lower() == "true")
        else:
            raise UciError(f"no such option: {name}")

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
        if args[:1] != ["perft"]:
            raise UciError("this build has no search yet; only 'go perft <depth>' is available")
        if len(args) != 2 or not args[1].isdigit() or int(args[1]) < 1:
            raise UciError("go perft needs a depth of 1 or more")
        total = 0
        for move, nodes in self.session.perft_divide(int(args[1])):
            self.write(f"{move}: {nodes}")
            total += nodes
        self.write("")
        self.write(f"Nodes searched: {total}")
        self.write("")

    def describe(self) -> str:
        board = self.session.board
        return f"{board}\n\nFen: {board.fen()}\nKey: {board.key:016X}"
