"""The chess game a front-end is talking about: the board and its history, the options, the
search manager, and the book's moves here.

Front-ends translate protocol text into calls on a Session and its results into text; a Session
validates everything before changing anything, so a rejected command leaves the previous state
intact. What the engine does in a game a GUI keeps (thinking, pondering, clocks, draw offers) is
play.player's, on top of a Session.
"""
from __future__ import annotations

from .._core import STARTING_FEN, Board
from ..book.player import ranked
from .game import GameSession
from .manager import DoneCallback, InfoCallback, SearchManager
from .options import CHESS, CHESS960, SHOW_WDL
from .perft import divide
from .timeman import Limits


class Session(GameSession):
    options = CHESS

    def __init__(self) -> None:
        self.chess960 = CHESS960.default
        self.show_wdl = SHOW_WDL.default        # win/draw/loss chances with every score
        self.board = Board()
        self.manager = SearchManager()

    def start_problems(self) -> list[str]:
        """What the shipped book and net could not give at start, and what plays instead."""
        book = self.manager.book.problem
        return [text for text in (book and f"{book}; playing without a book", self.net_problem()) if text]

    def net_problem(self) -> str | None:
        """Why the shipped net could not be loaded and what plays instead (None: it was loaded)."""
        problem = self.manager.net_problem
        return problem and f"{problem}; playing with the hand-crafted evaluation"

    def new_game(self) -> None:
        self.board = Board(chess960=self.chess960)
        self.manager.clear()

    def set_chess960(self, enabled: bool) -> None:
        self.chess960 = enabled
        self.board.chess960 = enabled

    def set_position(self, fen: str | None, moves: list[str]) -> None:
        """Replace the position with `fen` (None: the start position) followed by `moves`.
        Raises FenError or IllegalMoveError and keeps the old position if anything is wrong."""
        board = Board(STARTING_FEN if fen is None else fen, chess960=self.chess960)
        for move in moves:
            board.push(move)
        self.board = board

    def push(self, move: str) -> None:
        """Play `move` (IllegalMoveError if it is not legal here)."""
        self.board.push(move)

    def take_back(self, plies: int) -> None:
        """Take back the last `plies` moves (the game has at least as many)."""
        for _ in range(plies):
            self.board.pop()

    def search(self, limits: Limits, on_info: InfoCallback, on_done: DoneCallback, board: Board | None = None) -> None:
        """Search the position (or `board`, one a ponder search expects); `on_done(result)` is
        called once, from the search thread."""
        self.manager.start(self.board if board is None else board, limits, on_info, on_done)

    def book_moves(self) -> list[tuple[str, int, float]] | None:
        """The book's moves here as (move, weight, share), heaviest first; None without a book."""
        book = self.manager.book
        if book.book is None:
            return None
        return ranked(book.entries(self.board)[0])

    def perft_divide(self, depth: int) -> list[tuple[str, int]]:
        return divide(self.board, depth)     # with a progress bar when a person watches
