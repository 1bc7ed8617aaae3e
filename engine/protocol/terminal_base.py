"""What terminal mode does for every game: read a person's lines, play their moves, answer with
the engine's, one search at a time on the session's search thread, `go`/`stop`/`undo`/`force`/`play`.

A game's terminal (protocol.terminal for chess, mill.terminal for Mill) adds its commands and the
hooks marked below: how a typed move is read and named, what is shown with a move, its help.
Commands are read on the main thread while searches run on their own thread, so `stop` and
`d` work while the engine thinks.
"""
from __future__ import annotations

import dataclasses
import threading
import time
from typing import Callable, Iterable

from ..play.game import GameSession
from ..play.timeman import Limits
from .uci import parse_go



class TerminalError(ValueError):
    """Something the user asked for that cannot be done; its message is shown as it is."""


class TerminalBase:
    default_limits = Limits(movetime=5000)      # how long the engine thinks until `go` says otherwise
    max_perft = 10
    cancelling = ("new", "undo", "fen", "quit")     # these drop a search in progress and its move
    errors: tuple[type[Exception], ...] = (TerminalError,)      # bad input the game raises

    def __init__(self, session: GameSession, write: Callable[[str], None]) -> None:
        self.session = session
        self.write = write
        self.reply_limits = self.default_limits
        self.auto_reply = True
        self.engine_plies: set[int] = set()     # move_stack lengths right after Pyrope's moves
        # The engine's move is played from the search thread; the lock keeps it from landing in
        # the middle of a command. The lock is never held while joining the search thread.
        self.lock = threading.Lock()
        self.search_id = 0          # a search whose id is no longer this one was cancelled
        self.thinking = False
        self.infinite = False
        self.idle = threading.Event()
        self.idle.set()
        self.commands: dict[str, Callable[[list[str]], None]] = {
            "go": self.go,
            "stop": self.stop,
            "force": lambda args: self.set_auto_reply(False),
            "play": lambda args: self.set_auto_reply(True),
            "undo": self.undo,
            "perft": self.perft,
        }

    # --- the game's hooks -----------------------------------------------------------------

    def is_move(self, words: list[str]) -> bool:
        """Whether a line that is no command is meant as a move."""
        return len(words) == 1

    def parse_move(self, text: str) -> str:
        """The move in the form the board takes; TerminalError says why it cannot be played."""
        raise NotImplementedError

    def move_text(self, move: str) -> str:
        """How the move is shown, named in the current position (before it is played)."""
        raise NotImplementedError

    def show_position(self) -> None:
        """Called after each move, before a game end is announced."""

    def info_writer(self) -> Callable[[list], None]:
        """What shows a search's info lines (made when the search starts, for its root)."""
        raise NotImplementedError

    def play_engine_move(self, result) -> None:
        """The game's search result (play.result's or mill.search's SearchResult) arrived."""
        self.push(result.move, by_engine=True)

    def checked_limits(self, limits: Limits) -> Limits:
        for move in limits.searchmoves:
            self.parse_move(move)
        return limits

    # --- reading lines --------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                return
        # The input ended (a piped script): let a search that ends by itself finish and move.
        if not self.infinite:
            self.idle.wait()
        self.session.finish()

    def handle(self, line: str) -> bool:
        """Carry out one line; return False when the user quits."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command in self.cancelling:
            self.cancel_search()
        if command == "quit":
            return False
        with self.lock:
            try:
                handler = self.commands.get(command)
                if handler is not None:
                    handler(args)
                elif self.is_move(words):
                    self.play_move(" ".join(words))
                else:
                    raise TerminalError(f"Unknown command: {line.strip()} (type help for the list).")
            except self.errors as error:
                self.write(str(error))
        return True

    # --- the game -------------------------------------------------------------------------

    def play_move(self, text: str) -> None:
        self.require_turn()
        move = self.parse_move(text)
        self.push(move, by_engine=False)
        if self.auto_reply and self.session.board.outcome() is None:
            self.start_search(self.reply_limits)

    def push(self, move: str, by_engine: bool, note: str = "") -> None:
        board = self.session.board
        text = self.move_text(move)
        board.push(move)
        if by_engine:
            self.engine_plies.add(len(board.move_stack))
            self.write(f"Pyrope plays {text}{note}")
        else:
            self.write(text)
        self.show_position()
        outcome = board.outcome()
        if outcome is not None:
            self.write(f"Game over: {outcome[1]} ({outcome[0]}).")

    def require_turn(self) -> None:
        """Moves and searches need a game in progress and an engine that is not thinking."""
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop to make it move now, or undo to take "
                                "your move back.")
        outcome = self.session.board.outcome()
        if outcome is not None:
            raise TerminalError(f"The game is over ({outcome[1]}, {outcome[0]}): type new, undo or fen <FEN>.")

    def set_auto_reply(self, enabled: bool) -> None:
        self.auto_reply = enabled
        self.write("Pyrope answers each move you play." if enabled else
                   "Pyrope will not answer your moves: you play both sides; go makes it move.")

    def undo(self, args: list[str]) -> None:
        board = self.session.board
        if not board.move_stack:
            raise TerminalError("There is no move to take back.")
        if self.pop() and self.auto_reply and board.move_stack:
            self.pop()      # Pyrope's answer went; your move it answered goes too

    def pop(self) -> bool:
        """Take back the last move; return whether Pyrope played it."""
        board = self.session.board
        ply = len(board.move_stack)
        by_engine = ply in self.engine_plies
        self.engine_plies.discard(ply)
        move = board.pop()
        self.write(f"Took back {self.move_text(move)}")
        return by_engine

    def set_up(self, fen: str) -> None:
        """Set up `fen` (its errors are the caller's to word) and say so."""
        self.session.set_position(fen, [])
        self.engine_plies.clear()
        board = self.session.board
        self.write(f"Position set: {'White' if board.white_to_move else 'Black'} to move.")
        self.show_position()
        outcome = board.outcome()
        if outcome is not None:
            self.write(f"Game over: {outcome[1]} ({outcome[0]}).")

    # --- searching ------------------------------------------------------------------------

    def go(self, args: list[str]) -> None:
        self.require_turn()
        # A ponder search waits for a ponderhit, which nobody at a terminal sends.
        limits = self.checked_limits(dataclasses.replace(parse_go(args, self.write), ponder=False))
        if limits == Limits():      # nothing usable given: think as for a reply
            limits = self.reply_limits
        elif not limits.infinite:
            self.reply_limits = dataclasses.replace(limits, searchmoves=[])
        self.start_search(limits)

    def start_search(self, limits: Limits) -> None:
        show = self.info_writer()
        self.search_id += 1
        search_id = self.search_id
        self.thinking, self.infinite = True, limits.infinite
        self.idle.clear()
        self.session.search(limits, show, lambda result: self.engine_moved(search_id, result))

    def engine_moved(self, search_id: int, result) -> None:
        try:
            with self.lock:
                if search_id != self.search_id:
                    return
                self.thinking = False
                self.play_engine_move(result)
        finally:
            self.idle.set()

    def stop(self, args: list[str]) -> None:
        if not self.thinking:
            raise TerminalError("Pyrope is not thinking.")
        self.session.stop()

    def cancel_search(self) -> None:
        """End a search without playing its move (called without the lock: the search thread may
        be waiting for it to report)."""
        with self.lock:
            self.search_id += 1
            self.thinking = False
        self.session.finish()
        self.idle.set()

    def perft(self, args: list[str]) -> None:
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= self.max_perft:
            raise TerminalError(f"perft needs a depth from 1 to {self.max_perft}, like: perft 4")
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop first.")
        depth = int(args[0])
        start = time.perf_counter()
        nodes = sum(count for _, count in self.session.perft_divide(depth))
        seconds = time.perf_counter() - start
        speed = f", {nodes / seconds / 1e6:.1f} M nodes/s" if seconds > 0 else ""
        self.write(f"perft {depth}: {nodes} nodes ({seconds:.3f} s{speed})")
