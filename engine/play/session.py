"""The game a front-end is talking about: the position, its options and the search manager.

Front-ends translate protocol text into calls on a Session; a Session validates everything
before changing anything, so a rejected command leaves the previous state intact.
"""
from __future__ import annotations

from .._core import STARTING_FEN, Board
from .manager import SearchManager
from .options import CHESS, CHESS960, SHOW_WDL
from .perft import divide


class Session:
    options = CHESS

    def __init__(self) -> None:
        self.chess960 = CHESS960.default
        self.show_wdl = SHOW_WDL.default        # win/draw/loss chances with every score
        self.board = Board()
        self.manager = SearchManager()

    def start_problems(self) -> list[str]:
        """What the shipped book and net could not give at start, and what plays instead."""
        book, manager = self.manager.book, self.manager
        return ([f"{book.problem}; playing without a book"] if book.problem else []) + \
            ([f"{manager.net_problem}; playing with the hand-crafted evaluation"] if manager.net_problem else [])

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

    def perft_divide(self, depth: int) -> list[tuple[str, int]]:
        return divide(self.board, depth)     # with a progress bar when a person watches
